// `ncpbench reproduce --list` names every protocol of the issue; an unknown id is bad input.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <string>
#include <utility>
#include <vector>

#include "harness/output_lock.h"
#include "harness/reproduce/protocol.h"
#include "harness/reproduce/protocol_records.h"
#include "harness/results_store.h"
#include "tests/cli_support.h"

namespace ncp {
namespace {

TEST(CliReproduce, ListShowsEveryProtocolWithItsState) {
  const auto dir = testing::FreshDir("reproduce_list");
  const auto r = testing::RunCli("reproduce --list", dir);
  ASSERT_EQ(r.code, 0) << r.err;
  for (const char* id :
       {"000-table1", "000-fig2",   "001-table1", "002-table1",  "002-table2", "002-table5",
        "002-table9", "002-fig11",  "003-table2", "003-fig5",    "004-fig7",   "004-fig9",
        "004-fig11",  "004-table2", "004-table3", "mujoco-peer", "engines",    "002-table3",
        "002-table6", "002-table7", "002-table8", "002-fig14",   "003-fig3",   "003-fig1c",
        "003-fig5c",  "003-fig2"}) {
    const std::size_t at = r.out.find(std::string(id) + " ");
    ASSERT_NE(at, std::string::npos) << id << " missing from:\n" << r.out;
    // Each entry says whether it runs or which capability it waits for.
    const std::size_t next = r.out.find("\n", r.out.find("setting:", at));
    const std::string state = r.out.substr(next + 1, r.out.find("\n", next + 1) - next - 1);
    EXPECT_TRUE(state.find("runs") != std::string::npos ||
                state.find("needs ") != std::string::npos)
        << id << ": " << state;
  }
}

// A protocol that waits for a capability measures nothing: one error line naming what it needs,
// exit 2, no results file (a script must not read it as done).
TEST(CliReproduce, PendingIdExitsTwoSayingWhatItNeeds) {
  const auto dir = testing::FreshDir("reproduce_pending");
  // Every paper experiment has its protocol; a peer's waits for its library (mujoco-peer
  // without MuJoCo).
  const auto pending = std::find_if(Protocols().begin(), Protocols().end(),
                                    [](const Protocol& p) { return !p.runs(); });
  if (pending == Protocols().end()) GTEST_SKIP() << "every protocol runs in this build";
  const auto r = testing::RunCli("reproduce " + pending->id + " -o " + (dir / "out").string(), dir);
  EXPECT_EQ(r.code, 2);
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  EXPECT_NE(r.err.find(pending->id + ": cannot run yet: needs " + pending->missing),
            std::string::npos)
      << r.err;
  EXPECT_FALSE(std::filesystem::exists(dir / "out" / (pending->id + ".h5")));
}

TEST(CliReproduce, UnknownIdExitsTwoNamingTheKnownOnes) {
  const auto dir = testing::FreshDir("reproduce_unknown");
  const auto r = testing::RunCli("reproduce 999-table0", dir);
  EXPECT_EQ(r.code, 2);
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  EXPECT_NE(r.err.find("999-table0"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("004-table2"), std::string::npos) << r.err;
}

// 004-fig11 at its smallest (9 particles, the three solvers at their budgets): a table row per
// solver, the paper's statements next to ours, and the CSV the figure is drawn from.
TEST(CliReproduce, PouringFigureRunsOnTheSmallestSize) {
  const auto dir = testing::FreshDir("reproduce_fig11");
  const auto r = testing::RunCli("reproduce 004-fig11 --cases 1 -q -o " + dir.string(), dir);
  ASSERT_EQ(r.code, 0) << r.err;
  for (const char* row : {"| canal | 9 | 54 |", "| subadmm | 9 | 54 |", "| pgs | 9 | 54 |",
                          "residual below (paper)", "time growth rank"})
    EXPECT_NE(r.out.find(row), std::string::npos) << row << " missing from:\n" << r.out;
  const std::string csv = testing::Slurp((dir / "004-fig11.csv").string());
  EXPECT_EQ(std::count(csv.begin(), csv.end(), '\n'), 4) << csv;  // header + 3 solvers
  std::printf("%s\n", r.out.substr(r.out.find("| solver")).c_str());
}

// 002-fig14 on its isotropic set with COND capped: the exact step follows the maximal-dissipation
// path to rounding, the capped COND rows are there, and the capped run assesses no claim.
TEST(CliReproduce, SlippingBoxRunsItsFirstSetCapped) {
  const auto dir = testing::FreshDir("reproduce_fig14");
  const auto r =
      testing::RunCli("reproduce 002-fig14 --cases 1 --max-iters 50 -q -o " + dir.string(), dir);
  ASSERT_EQ(r.code, 0) << r.err;
  const std::size_t exact = r.out.find("| 0.3, 0.3 | nnewton |");
  ASSERT_NE(exact, std::string::npos) << r.out;
  const std::string row = r.out.substr(exact, r.out.find('\n', exact) - exact);
  EXPECT_NE(row.find("e-14 |"), std::string::npos) << row;  // deviation / path at rounding
  for (const char* s : {"| 0.3, 0.3 | cond-g100 |", "| 0.3, 0.3 | cond-g10000 |", "not assessed"})
    EXPECT_NE(r.out.find(s), std::string::npos) << s << " missing from:\n" << r.out;
  EXPECT_EQ(r.out.find("| 0.2, 0.5 |"), std::string::npos) << r.out;
  const std::string csv = testing::Slurp((dir / "002-fig14.csv").string());
  EXPECT_EQ(csv.substr(0, csv.find('\n')),
            "x_mu0.3-0.3,y_mu0.3-0.3,ref_x_mu0.3-0.3,ref_y_mu0.3-0.3");
}

// 003-fig5c for 12 steps at 20 PGS iterations: a row per joint μ, the torque series with a column
// per μ, and claims not assessed below a crank turn.
TEST(CliReproduce, KlannTorqueRunsAFewStepsCapped) {
  const auto dir = testing::FreshDir("reproduce_fig5c");
  const auto r =
      testing::RunCli("reproduce 003-fig5c --cases 12 --max-iters 20 -q -o " + dir.string(), dir);
  ASSERT_EQ(r.code, 0) << r.err;
  for (const char* s : {"| 0 | 12 |", "| 0.8 | 12 |", "not assessed"})
    EXPECT_NE(r.out.find(s), std::string::npos) << s << " missing from:\n" << r.out;
  const std::string csv = testing::Slurp((dir / "003-fig5c.csv").string());
  EXPECT_EQ(csv.substr(0, csv.find('\n')),
            "time_s,torque_mu0,torque_mu0.2,torque_mu0.4,torque_mu0.8");
  EXPECT_EQ(std::count(csv.begin(), csv.end(), '\n'), 4) << csv;  // header + steps 0, 4, 8
}

// 003-fig3 for 40 steps at 50 iterations: the body has not coiled yet, so no frame has
// self-contact, no solver runs, and every claim is not assessed.
TEST(CliReproduce, HagfishRunsAFewStepsWithoutSelfContact) {
  const auto dir = testing::FreshDir("reproduce_fig3");
  const auto r =
      testing::RunCli("reproduce 003-fig3 --cases 40 --max-iters 50 -q -o " + dir.string(), dir);
  ASSERT_EQ(r.code, 0) << r.err;
  for (const char* s : {"| joints (alternating Z / XY) | 100 | 100 |",
                        "| steps (with self-contact) | 40 (0) |", "last 0 recorded frames"})
    EXPECT_NE(r.out.find(s), std::string::npos) << s << " missing from:\n" << r.out;
  EXPECT_EQ(r.out.find("| reproduced"), std::string::npos) << r.out;
  const std::string csv = testing::Slurp((dir / "003-fig3.csv").string());
  EXPECT_EQ(csv.substr(0, csv.find('\n')), "time_s,contacts,penetration_mm");
  EXPECT_EQ(std::count(csv.begin(), csv.end(), '\n'), 11) << csv;  // header + steps 0, 4, …, 36
}

// 003-fig1c for a few steps: its setting beside 003's counts, its figure's series, and no verdict
// from a run cut short.
TEST(CliReproduce, StarfishRunsAFewSteps) {
  const auto dir = testing::FreshDir("reproduce_fig1c");
  const auto r =
      testing::RunCli("reproduce 003-fig1c --cases 12 --max-iters 5 -q -o " + dir.string(), dir);
  ASSERT_EQ(r.code, 0) << r.err;
  for (const char* s : {"| joints of the skeleton (+ a floating disc) | 20 | 20 |",
                        "| vertices of the coarse FEM mesh | 212 | 221 |", "not assessed"})
    EXPECT_NE(r.out.find(s), std::string::npos) << s << " missing from:\n" << r.out;
  EXPECT_EQ(r.out.find("| reproduced"), std::string::npos) << r.out;
  const std::string csv = testing::Slurp((dir / "003-fig1c.csv").string());
  EXPECT_EQ(csv.substr(0, csv.find('\n')),
            "time_s,attachment_error_mm,prescribed_error_mrad,passive_angle_deg");
  EXPECT_EQ(std::count(csv.begin(), csv.end(), '\n'), 7) << csv;  // header + steps 0, 2, …, 10
}

// 003-fig2 for a few steps: its setting beside 003's, its figure's series, and no verdict from a
// run cut short.
TEST(CliReproduce, HandRunsAFewSteps) {
  const auto dir = testing::FreshDir("reproduce_fig2");
  const auto r =
      testing::RunCli("reproduce 003-fig2 --cases 24 --max-iters 5 -q -o " + dir.string(), dir);
  ASSERT_EQ(r.code, 0) << r.err;
  for (const char* s : {"| fingers with DIP coupled to PIP | 4 | 4 |",
                        "| DIP per PIP | 0.5 | 0.5 |", "not assessed"})
    EXPECT_NE(r.out.find(s), std::string::npos) << s << " missing from:\n" << r.out;
  EXPECT_EQ(r.out.find("| reproduced"), std::string::npos) << r.out;
  const std::string csv = testing::Slurp((dir / "003-fig2.csv").string());
  EXPECT_EQ(csv.substr(0, csv.find('\n')),
            "time_s,dip_coupling_error_urad,tip_error_mm,index_pip_deg");
  EXPECT_EQ(std::count(csv.begin(), csv.end(), '\n'), 4) << csv;  // header + steps 0, 8, 16
}

// 002-table8 for 10 steps: a row per stepper and budget beside the paper's, the reference's, the
// force series with a column per run, and claims not assessed below the protocol's 500 steps.
TEST(CliReproduce, PbdAgainstCondRunsAFewSteps) {
  const auto dir = testing::FreshDir("reproduce_table8");
  const auto r = testing::RunCli("reproduce 002-table8 --cases 10 -q -o " + dir.string(), dir);
  ASSERT_EQ(r.code, 0) << r.err;
  for (const char* s :
       {"| cond (100) |", "| pbd (200) |", "| pbdp (200) |", "| pbdv (100) |",
        "| pbd (100), 320 links |", "| 94.45 |", "| reference (nnewton, 20) |", "not assessed"})
    EXPECT_NE(r.out.find(s), std::string::npos) << s << " missing from:\n" << r.out;
  const std::string csv = testing::Slurp((dir / "002-table8.csv").string());
  EXPECT_EQ(csv.substr(0, csv.find('\n')),
            "time_s,force_reference,force_cond100,force_cond200,force_pbd100,force_pbd200,"
            "force_pbdp100,force_pbdp200,force_pbdv100,force_pbdv200");
  EXPECT_EQ(std::count(csv.begin(), csv.end(), '\n'), 3) << csv;  // header + steps 0 and 5
}

// `reproduce engines` at one problem per dataset and 50 iterations: a section per fclib sample and
// default dataset, a row per engine peer and per solver of ours (one marked best), the physics
// errors against the exact solution, and the figure's data with a line per counted run.
TEST(CliReproduce, EnginesComparesEveryPeerWithOurBest) {
  const auto dir = testing::FreshDir("reproduce_engines");
  const auto r =
      testing::RunCli("reproduce engines --cases 1 --max-iters 50 -q -o " + dir.string(), dir);
  ASSERT_EQ(r.code, 0) << r.err;
  for (const char* row : {"## fclib-CubeH8", "## bolt_nut", "| bullet:dantzig |", "| ode:dantzig |",
                          "| dart:dantzig |", "| bullet:pgs |", "| dart:pgs |", "| bullet:lemke |",
                          "(best)**", "slip [m/s]"})
    EXPECT_NE(r.out.find(row), std::string::npos) << row << " missing from:\n" << r.out;
  const std::string csv = testing::Slurp((dir / "engines.csv").string());
  EXPECT_GT(std::count(csv.begin(), csv.end(), '\n'), 50) << csv;
  // A run's own convergence is never its starting point λ = 0 when its trace goes on: a peer whose
  // answer is worse than λ = 0 (the PGS peers on fclib's LMGC_100) was credited with λ = 0's
  // residual and time.
  const ResultsFile f = ReadResultsFile((dir / "engines.h5").string());
  int observed = 0;
  for (const RunRecord& row : f.rows) {
    const double it = RunObservation(row, "own_iter", -1.0);
    if (it < 0 || row.trace.empty() || row.trace.back().iteration == 0) continue;
    ++observed;
    EXPECT_GE(it, 1.0) << row.solver << " on " << row.problem;
  }
  EXPECT_GT(observed, 10);
}

// The report is rendered from <id>.h5: rendering it again from that file (`--from`, measuring
// nothing) gives the same Markdown, byte for byte, and the same figure data.
TEST(CliReproduce, ReportFromTheFileEqualsTheReportOfTheRun) {
  const auto dir = testing::FreshDir("reproduce_from");
  const std::string out = dir.string();
  const auto r = testing::RunCli("reproduce 004-fig7 --cases 2 --max-iters 200 -q -o " + out, dir);
  ASSERT_EQ(r.code, 0) << r.err;
  const std::string md = testing::Slurp(out + "/004-fig7.md");
  const std::string csv = testing::Slurp(out + "/004-fig7-traces.csv");
  ASSERT_NE(md.find("| canal |"), std::string::npos) << md;
  const std::string h5 = out + "/004-fig7.h5";
  const ResultsFile measured = ReadResultsFile(h5);
  ASSERT_FALSE(measured.claims.empty());
  EXPECT_EQ(measured.attrs.count("claims_revision"), 0u);
  std::filesystem::remove(out + "/004-fig7.md");
  std::filesystem::remove(out + "/004-fig7-traces.csv");
  const auto again =
      testing::RunCli("reproduce 004-fig7 --from " + out + "/004-fig7.h5 -o " + out, dir);
  ASSERT_EQ(again.code, 0) << again.err;
  EXPECT_EQ(testing::Slurp(out + "/004-fig7.md"), md);
  EXPECT_EQ(testing::Slurp(out + "/004-fig7-traces.csv"), csv);
  EXPECT_NE(again.out.find("from " + out + "/004-fig7.h5"), std::string::npos) << again.out;

  // The claims judged again go with the report into <out>/<id>.h5: here the file read itself,
  // replaced with its runs as they were, then a copy in another folder, which leaves the file
  // read as it was. Same runs and verdicts; the judging binary's revision beside the
  // measurement's (the ledger names both where they differ).
  const ResultsFile rewritten = ReadResultsFile(h5);
  EXPECT_EQ(rewritten.rows.size(), measured.rows.size());
  EXPECT_EQ(rewritten.attrs.at("claims_revision"), measured.attrs.at("git_revision"));
  const std::string other = out + "/again";
  const auto before = std::filesystem::last_write_time(h5);
  const auto copy = testing::RunCli("reproduce 004-fig7 --from " + h5 + " -o " + other, dir);
  ASSERT_EQ(copy.code, 0) << copy.err;
  EXPECT_NE(copy.out.find("claims judged at"), std::string::npos) << copy.out;
  const ResultsFile judged = ReadResultsFile(other + "/004-fig7.h5");
  EXPECT_EQ(judged.rows.size(), measured.rows.size());
  ASSERT_EQ(judged.claims.size(), measured.claims.size());
  for (std::size_t i = 0; i < judged.claims.size(); ++i)
    EXPECT_EQ(judged.claims[i].verdict, measured.claims[i].verdict) << judged.claims[i].statement;
  EXPECT_EQ(judged.attrs.at("claims_revision"), measured.attrs.at("git_revision"));
  EXPECT_EQ(std::filesystem::last_write_time(h5), before);

  // Another protocol's file, or a file that is no reproduction: one line, exit 2.
  const auto wrong =
      testing::RunCli("reproduce 004-fig9 --from " + out + "/004-fig7.h5 -o " + out, dir);
  EXPECT_EQ(wrong.code, 2);
  EXPECT_NE(wrong.err.find("not 004-fig9"), std::string::npos) << wrong.err;
  EXPECT_EQ(std::count(wrong.err.begin(), wrong.err.end(), '\n'), 1) << wrong.err;
  const auto all = testing::RunCli("reproduce all --from " + out + "/004-fig7.h5", dir);
  EXPECT_EQ(all.code, 2);
  EXPECT_EQ(std::count(all.err.begin(), all.err.end(), '\n'), 1) << all.err;

  // The ledger: which of two files of one protocol it keeps does not hang on their order; a file
  // twice, one path for both outputs and a damaged file in a folder are refused.
  const std::string first = testing::RunCli("claims " + h5 + " " + other + "/004-fig7.h5", dir).out;
  const std::string second = testing::RunCli("claims " + other + "/004-fig7.h5 " + h5, dir).out;
  for (const std::string& ledger : {first, second})  // the later path, whichever came first
    EXPECT_NE(ledger.find("superseded by `" + other + "/004-fig7.h5`"), std::string::npos)
        << ledger;
  for (const auto& [args, needle] : std::vector<std::pair<std::string, std::string>>{
           {h5 + " " + out + "/../" + std::filesystem::path(out).filename().string() +
                "/004-fig7.h5",
            "is the same file as"},
           {h5 + " -o " + out + "/l.md --csv " + out + "/l.md", "the same file as --out"}}) {
    const auto refused = testing::RunCli("claims " + args, dir);
    EXPECT_EQ(refused.code, 2) << args;
    EXPECT_NE(refused.err.find(needle), std::string::npos) << refused.err;
  }
  std::filesystem::create_directories(out + "/damaged");
  std::filesystem::copy_file(h5, out + "/damaged/004-fig7.h5");
  std::filesystem::resize_file(out + "/damaged/004-fig7.h5", 3000);
  const auto damaged = testing::RunCli("claims " + out + "/damaged", dir);
  EXPECT_EQ(damaged.code, 2) << damaged.out;

  // reproduce's -o: a folder or nothing, and an <id>.h5 in it the protocol's own file.
  const auto as_file = testing::RunCli("reproduce 004-fig7 -o " + out + "/004-fig7.md", dir);
  EXPECT_EQ(as_file.code, 2);
  EXPECT_NE(as_file.err.find("is a file: must be a folder"), std::string::npos) << as_file.err;
  const std::string foreign = out + "/foreign";
  std::filesystem::create_directories(foreign);
  ASSERT_EQ(testing::RunCli("generate random -n 1 -q -o " + foreign + "/004-fig7.h5", dir).code, 0);
  const auto size = std::filesystem::file_size(foreign + "/004-fig7.h5");
  const auto onto = testing::RunCli("reproduce 004-fig7 --from " + h5 + " -o " + foreign, dir);
  EXPECT_EQ(onto.code, 2);
  EXPECT_NE(onto.err.find("exists and is not 004-fig7's reproduction file"), std::string::npos)
      << onto.err;
  EXPECT_EQ(std::filesystem::file_size(foreign + "/004-fig7.h5"), size);
  // A second run into the same folder while one holds it: refused, naming the holder.
  {
    const OutputLock held(h5);
    const auto busy = testing::RunCli("reproduce 004-fig7 --from " + h5 + " -o " + out, dir);
    EXPECT_EQ(busy.code, 2);
    EXPECT_NE(busy.err.find("in use by another ncpbench run (pid " + std::to_string(getpid())),
              std::string::npos)
        << busy.err;
  }
  EXPECT_EQ(testing::RunCli("reproduce 004-fig7 --from " + h5 + " -o " + out, dir).code, 0);
  EXPECT_FALSE(std::filesystem::exists(h5 + ".lock"));
}

}  // namespace
}  // namespace ncp
