// The pieces every reproduction protocol shares: its rows in the results schema (job keys that
// pair two runs row by row, repeats), the solver thread scope, and the runner's retimed runs.
#include <gtest/gtest.h>
#include <omp.h>
#include <unistd.h>

#include <chrono>
#include <cmath>
#include <fstream>
#include <set>
#include <stdexcept>

#include "common/error.h"
#include "harness/reproduce/protocol_records.h"
#include "harness/reproduce/scene_frames.h"
#include "harness/thread_limits.h"
#include "harness/results_store.h"
#include "harness/runner.h"
#include "tests/cli_support.h"
#include "tests/expect_error.h"
#include "tests/test_problems.h"
#include "tests/record_support.h"
#include "tests/run_support.h"

namespace ncp {
namespace {

using testing::Job;

RunRecord StoredRow(const std::string& solver, const std::string& problem) {
  // Add() sets the dataset and the job key.
  RunRecord r = testing::MadeRow(solver, problem, 1e-6, Outcome::kMaxIterations,
                                 "iters=10;time_ms=0;tol=0;tol_metric=res004");
  r.threads_given = 1;
  r.trace.push_back({});
  return r;
}

TEST(ProtocolRecords, KeysNameProtocolPartProblemSolverAndRepeat) {
  ProtocolRecords rec("004-fig7");
  rec.Add(StoredRow("pgs", "c0"), "cases");
  rec.Add(StoredRow("pgs", "c0"), "cases");  // a second round of the same job
  rec.Add(StoredRow("pgs", "c0"), "first-loop");
  rec.Add(StoredRow("pgs", ""), "cases", "frame3");
  ASSERT_EQ(rec.rows().size(), 4u);
  EXPECT_EQ(rec.rows()[0].dataset, "004-fig7/cases");
  EXPECT_EQ(rec.rows()[0].repeat, 0);
  EXPECT_EQ(rec.rows()[1].repeat, 1);
  EXPECT_EQ(rec.rows()[2].repeat, 0);
  EXPECT_EQ(rec.rows()[3].problem, "frame3");
  std::set<std::string> keys;
  for (const RunRecord& r : rec.rows()) keys.insert(r.job_key);
  EXPECT_EQ(keys.size(), 4u);
  EXPECT_EQ(rec.rows()[0].job_key.rfind("004-fig7/cases|c0|pgs|omega=1|iters=10;", 0), 0u)
      << rec.rows()[0].job_key;
  EXPECT_THROW(rec.Add(StoredRow("pgs", "c0"), ""), Error);
}

TEST(ProtocolRecords, WritesAResultsFileWithoutTracesWhenAsked) {
  const auto dir = testing::FreshDir("protocol_records_write_" + std::to_string(getpid()));
  ProtocolRecords rec("000-table1", /*traces=*/false);
  rec.Add(StoredRow("pgs", "stir-step00040"), "stir");
  rec.Add(StoredRow("pj", "stir-step00040"), "stir");
  const std::string path = (dir / "000-table1.h5").string();
  rec.Write(path, {{"reproduce_cases", "1"}});
  const std::vector<RunRecord> back = ReadResults(path);
  ASSERT_EQ(back.size(), 2u);
  for (const RunRecord& r : back) EXPECT_TRUE(r.trace.empty());
  const auto attrs = ReadRunAttrs(path);
  EXPECT_EQ(attrs.at("reproduce"), "000-table1");
  EXPECT_EQ(attrs.at("reproduce_cases"), "1");
  EXPECT_TRUE(attrs.count("git_revision"));
  std::filesystem::remove_all(dir);
}

// A report reads everything from the file: rows in the order they were added, a run's own
// observations, and the protocol's observations (numbers exactly, texts, the options).
TEST(ProtocolRecords, ObservationsAndRowOrderSurviveTheFile) {
  const auto dir = testing::FreshDir("protocol_records_obs_" + std::to_string(getpid()));
  ProtocolRecords rec("003-fig5");
  ReproduceOptions opt;
  opt.cases = 3;
  opt.max_iters = 70;
  rec.set_options(opt);
  RunRecord a = StoredRow("sp", "f1");
  ObserveRun(a, "penetration_mm", 0.1 + 0.2);  // not a short decimal: must come back bit for bit
  ObserveRun(a, "velocity_error", 1e-300);
  rec.Add(a, "chain");
  rec.Add(StoredRow("bisp", "f0"), "chain");
  rec.Add(StoredRow("pgs", "f0"), "other");
  rec.Observe("chain", "stop_s_3", 1.0 / 3.0);
  rec.Observe("chain", "stop_s_3", 2.0 / 3.0);  // replaces
  rec.Note("chain", "scene", "8 links, tilt 45°");
  const std::string path = (dir / "003-fig5.h5").string();
  rec.Write(path, {});
  const ProtocolRecords back = ProtocolRecords::Read(path);
  EXPECT_EQ(back.id(), "003-fig5");
  EXPECT_EQ(back.options().cases, 3);
  EXPECT_EQ(back.options().max_iters, 70);
  const auto chain = back.Part("chain");
  ASSERT_EQ(chain.size(), 2u);
  EXPECT_EQ(chain[0]->solver, "sp");  // insertion order, not job-key order
  EXPECT_EQ(chain[1]->solver, "bisp");
  EXPECT_EQ(RunObservation(*chain[0], "penetration_mm"), 0.1 + 0.2);
  EXPECT_EQ(RunObservation(*chain[0], "velocity_error"), 1e-300);
  EXPECT_TRUE(std::isnan(RunObservation(*chain[1], "penetration_mm")));
  EXPECT_EQ(back.Part("chain", "bisp").size(), 1u);
  EXPECT_EQ(back.Part("other").size(), 1u);
  EXPECT_EQ(back.observations().size(), 2u);
  EXPECT_EQ(back.Value("chain", "stop_s_3"), 2.0 / 3.0);
  EXPECT_EQ(back.Text("chain", "scene"), "8 links, tilt 45°");
  EXPECT_EQ(back.ValueOr("chain", "stop_s_9", -1.0), -1.0);
  testing::ExpectError([&] { back.Value("chain", "stop_s_9"); }, {"003-fig5", "chain", "stop_s_9"});
  std::filesystem::remove_all(dir);
}

// A results file of `ncpbench run` is not a reproduction: refused in one line naming it.
TEST(ProtocolRecords, ReadRefusesAResultsFileThatIsNotAReproduction) {
  const auto dir = testing::FreshDir("protocol_records_plain_" + std::to_string(getpid()));
  const std::string path = (dir / "plain.h5").string();
  WriteResults(path, {StoredRow("pgs", "c0")}, {});
  testing::ExpectError([&] { ProtocolRecords::Read(path); }, {path, "reproduce"});
  std::filesystem::remove_all(dir);
}

// The cases and the iteration cap a reproduction ran with are required: read as 0 (the
// protocol's defaults) when removed, a capped 1-case run's file gave verdicts it cannot carry.
TEST(ProtocolRecords, ReadRefusesAReproductionWithoutItsCasesOrCap) {
  const auto dir = testing::FreshDir("protocol_records_attrs_" + std::to_string(getpid()));
  const std::string path = (dir / "r.h5").string();
  for (const char* missing : {"reproduce_cases", "reproduce_max_iters"}) {
    std::map<std::string, std::string> attrs = {
        {"reproduce", "004-table2"}, {"reproduce_cases", "1"}, {"reproduce_max_iters", "20"}};
    attrs.erase(missing);
    WriteResults(path, {StoredRow("pgs", "c0")}, attrs);
    testing::ExpectError([&] { ProtocolRecords::Read(path); }, {path, missing, "is missing"});
  }
  std::filesystem::remove_all(dir);
}

// `reproduce all` resumes by keeping a protocol's file when the same code measured it with the
// same options on the same CPU; anything else, or a revision that does not pin the code, is
// measured again.
TEST(ProtocolRecords, SameMeasurementNeedsRevisionOptionsAndCpuAlike) {
  const auto dir = testing::FreshDir("protocol_records_same_" + std::to_string(getpid()));
  const std::string path = (dir / "004-fig7.h5").string();
  ReproduceOptions o;
  o.cases = 2, o.max_iters = 50, o.traces = false;
  ProtocolRecords rec("004-fig7", o.traces);
  rec.set_options(o);
  rec.Add(StoredRow("pgs", "c0"), "cases");
  rec.Write(path, {{"git_revision", "abc1234"}, {"cpu", "Test CPU"}, {"host_threads", "2"}});
  const MeasuringHost host{"abc1234", "Test CPU", "2"};
  const std::string same = SameMeasurement(path, "004-fig7", o, host);
  EXPECT_NE(same.find("by revision abc1234 on this CPU"), std::string::npos) << same;
  EXPECT_EQ(SameMeasurement(path, "004-fig9", o, host), "");
  EXPECT_EQ(SameMeasurement(path, "004-fig7", o, {"abc1235", "Test CPU", "2"}), "");
  EXPECT_EQ(SameMeasurement(path, "004-fig7", o, {"abc1234", "Other CPU", "2"}), "");
  EXPECT_EQ(SameMeasurement(path, "004-fig7", o, {"abc1234", "Test CPU", "4"}), "");
  for (auto other : {&ReproduceOptions::cases, &ReproduceOptions::max_iters}) {
    ReproduceOptions changed = o;
    changed.*other += 1;
    EXPECT_EQ(SameMeasurement(path, "004-fig7", changed, host), "");
  }
  ReproduceOptions traced = o;
  traced.traces = true;
  EXPECT_EQ(SameMeasurement(path, "004-fig7", traced, host), "");
  // A build with local changes, or without git, names no code: never taken as the same.
  rec.Write(path, {{"git_revision", "abc1234-dirty"}, {"cpu", "Test CPU"}, {"host_threads", "2"}});
  EXPECT_EQ(SameMeasurement(path, "004-fig7", o, {"abc1234-dirty", "Test CPU", "2"}), "");
  EXPECT_EQ(SameMeasurement(path, "004-fig7", o, {"unknown", "Test CPU", "2"}), "");
  // The report must have been written after the file: a run ended between the two left the
  // last run's report beside a new file.
  rec.Write(path, {{"git_revision", "abc1234"}, {"cpu", "Test CPU"}, {"host_threads", "2"}});
  const std::string md = (dir / "004-fig7.md").string();
  EXPECT_EQ(KeptReproduction(dir.string(), "004-fig7", o, host), "");  // no report
  std::ofstream(md) << "report";
  std::filesystem::last_write_time(
      md, std::filesystem::last_write_time(path) - std::chrono::seconds(10));
  EXPECT_EQ(KeptReproduction(dir.string(), "004-fig7", o, host), "");  // an older report
  std::filesystem::last_write_time(
      md, std::filesystem::last_write_time(path) + std::chrono::seconds(1));
  // (the file was written again: its date may be a second later than `same`'s)
  EXPECT_NE(KeptReproduction(dir.string(), "004-fig7", o, host).find("by revision abc1234"),
            std::string::npos);
  // Missing or unreadable: measured (and written) again.
  std::ofstream(path, std::ios::trunc) << "not hdf5";
  EXPECT_EQ(SameMeasurement(path, "004-fig7", o, host), "");
  std::filesystem::remove(path);
  EXPECT_EQ(SameMeasurement(path, "004-fig7", o, host), "");
  std::filesystem::remove_all(dir);
}

// Every protocol that runs is a measurement and a report from its records; one that cannot run
// yet names what it waits for.
TEST(Protocols, EachMeasuresAndReportsOrNamesWhatItWaitsFor) {
  for (const Protocol& p : Protocols()) {
    if (p.missing.empty())
      EXPECT_TRUE(p.measure && p.report) << p.id;
    else
      EXPECT_FALSE(p.runs()) << p.id;
  }
}

TEST(ProtocolRecords, RecordIsANoOpWithoutASink) {
  ReproduceOptions opt;
  Record(opt, StoredRow("pgs", "c0"), "cases");  // nothing to check but that it does not crash
  ProtocolRecords rec("x");
  opt.records = &rec;
  Record(opt, StoredRow("pgs", "c0"), "cases");
  EXPECT_EQ(rec.rows().size(), 1u);
}

TEST(SolverThreadScope, RestoresThePreviousCountAlsoOnAnException) {
  const int outer = omp_get_max_threads();
  omp_set_num_threads(2);  // a count the scope's 1 differs from, whatever the environment says
  const int before = omp_get_max_threads();
  {
    const SolverThreadScope one(1);
    EXPECT_EQ(omp_get_max_threads(), 1);
  }
  EXPECT_EQ(omp_get_max_threads(), before);
  try {
    const SolverThreadScope one(1);
    throw std::runtime_error("a run failed");
  } catch (const std::runtime_error&) {
  }
  EXPECT_EQ(omp_get_max_threads(), before);
  omp_set_num_threads(outer);
}

TEST(Runner, RetimeWithoutTolKeepsTheOutcomeAndRetimes) {
  const ContactProblem p = MakeManufacturedProblem(testing::AcceptanceOptions(23), "rt");
  const Evaluator ev(p);
  RunOptions opt;
  opt.budget.iters = 2000;
  opt.budget.tol = 1e-6;
  const RunRecord plain = RunOne(p, ev, Job("pgs"), opt, nullptr, 0);
  opt.retime_without_tol = true;
  const RunRecord again = RunOne(p, ev, Job("pgs"), opt, nullptr, 0);
  EXPECT_EQ(again.status, plain.status);
  EXPECT_EQ(again.iterations, plain.iterations);
  EXPECT_EQ(again.final_metrics[Metric::kRes004], plain.final_metrics[Metric::kRes004]);
  EXPECT_GT(again.total_time_s, 0.0);
  EXPECT_NEAR(again.total_time_s, again.setup_time_s + again.solve_time_s, 1e-12);
  // The option is part of a run's key, so resumed runs do not mix the two timings.
  const SolverJob job = Job("pgs");
  RunOptions off = opt;
  off.retime_without_tol = false;
  EXPECT_NE(JobKey("d", p, job, opt, 0), JobKey("d", p, job, off, 0));
  EXPECT_EQ(JobKey("d", p, job, off, 0).find("retime"), std::string::npos);
}

// Timing rounds: each round's frames under their own part, the same outcome in every round (the
// runs are deterministic), and the best round the one of least total time; a file from before
// the rounds reads the part itself.
TEST(SceneFrames, BestRoundIsTheFastestRoundWithTheSameOutcome) {
  const std::vector<ContactProblem> frames = {
      MakeManufacturedProblem(testing::AcceptanceOptions(23), "f0"),
      MakeManufacturedProblem(testing::AcceptanceOptions(24), "f1")};
  ProtocolRecords rec("000-table1");
  ReproduceOptions opt;
  opt.quiet = true;
  opt.records = &rec;
  std::vector<FrameSummary> rounds;
  for (int round = 0; round < 3; ++round)
    rounds.push_back(RunOnFrames(frames, "pgs", {}, 0.0, 40, 0.0, opt, RoundPart("p", round)));
  for (int round = 0; round < 3; ++round) {
    ASSERT_EQ(rec.Part(RoundPart("p", round), "pgs").size(), 2u);
    EXPECT_EQ(rounds[round].iterations, rounds[0].iterations);
    EXPECT_EQ(rounds[round].res004, rounds[0].res004);
  }
  const FrameSummary best = BestRound(rec, "p", "pgs", 3);
  for (const FrameSummary& r : rounds) EXPECT_LE(best.total_ms, r.total_ms);
  EXPECT_EQ(best.frames, 2);
  EXPECT_EQ(best.res004, rounds[0].res004);

  RunOnFrames(frames, "pgs", {}, 0.0, 40, 0.0, opt, "old");
  EXPECT_EQ(BestRound(rec, "old", "pgs", 3).frames, 2);
  EXPECT_EQ(BestRound(rec, "none", "pgs", 3).frames, 0);
}

// The split of the velocity error between a FEM scene's nodes and its boxes' linear and angular
// dofs: 1 node (3 dofs) and 1 box (6) with errors placed in each part; nothing observed where the
// frame's `nodes` does not describe its layout.
TEST(SceneFrames, RigidSplitSeparatesNodesAndTheBoxesLinearAndAngularDofs) {
  ContactProblem p;
  p.reference = Reference{};
  p.reference->v = Vec::Ones(9);
  p.meta.params["nodes"] = 1;
  WarmStart sol;
  sol.v = Vec::Ones(9);
  sol.v[0] += 0.3;          // node: ‖(0.3, 0, 0)‖ / √3
  sol.v[4] += 0.2;          // box linear: 0.2 / √3
  sol.v.tail(3).setZero();  // box angular: 100%
  RunRecord r;
  ObserveRigidSplit(p, sol, r);
  EXPECT_NEAR(RunObservation(r, "node_velocity_error"), 0.3 / std::sqrt(3.0), 1e-15);
  EXPECT_NEAR(RunObservation(r, "rigid_linear_error"), 0.2 / std::sqrt(3.0), 1e-15);
  EXPECT_NEAR(RunObservation(r, "rigid_angular_error"), 1.0, 1e-15);
  for (const double nodes :
       {0.0, 1.5, 3.0, -1.0, 1e300, std::nan("")}) {  // no whole boxes left, or junk
    RunRecord none;
    p.meta.params["nodes"] = nodes;
    ObserveRigidSplit(p, sol, none);
    EXPECT_TRUE(std::isnan(RunObservation(none, "node_velocity_error"))) << nodes;
  }
}

}  // namespace
}  // namespace ncp
