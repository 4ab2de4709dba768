// Outputs that were replaced, mixed or left half-made by baseline, sweep, simulate and convert,
// and options that were silently ignored: each is now refused in one line, exit 2, before any
// work, or written as asked.
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <set>

#include "harness/results_store.h"
#include "tests/cli_support.h"

namespace ncp {
namespace {

namespace fs = std::filesystem;

const std::string kCube = std::string(NCP_FCLIB_DIR) + "/CubeH8.hdf5";

void ExpectOneLineRefusal(const testing::CliResult& r, const std::string& needle) {
  EXPECT_EQ(r.code, 2) << r.err;
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  EXPECT_NE(r.err.find(needle), std::string::npos) << r.err;
}

// `baseline --force` renamed its file over whatever stood at the name: a FIFO, a folder (an
// internal error), a dataset; an empty --out-dir wrote into the root folder.
TEST(CliOutputFaults, BaselineReplacesOnlyAResultsFile) {
  const fs::path dir = testing::FreshDir("faults_baseline");
  const std::string base = "baseline " + kCube + " -s pgs --iters 5 -q --force ";
  const std::string fifo = (dir / "fifo.h5").string();
  ASSERT_EQ(mkfifo(fifo.c_str(), 0644), 0);
  ExpectOneLineRefusal(testing::RunCli(base + "-o " + fifo, dir), "is a FIFO");
  fs::create_directory(dir / "folder.h5");
  ExpectOneLineRefusal(testing::RunCli(base + "-o " + (dir / "folder.h5").string(), dir),
                       "is a folder");
  const std::string data = (dir / "data.h5").string();
  ASSERT_EQ(testing::RunCli("generate random -n 1 -q -o " + data, dir).code, 0);
  const auto before = fs::file_size(data);
  const auto onto = testing::RunCli(base + "-o " + data, dir);
  EXPECT_EQ(onto.code, 2) << onto.err;
  EXPECT_EQ(fs::file_size(data), before);
  ExpectOneLineRefusal(testing::RunCli(base + "--out-dir ''", dir), "--out-dir = '': must name");
  ExpectOneLineRefusal(testing::RunCli(base + "-o ''", dir), "--out = '': must name");
  EXPECT_TRUE(fs::is_fifo(fifo));
  EXPECT_TRUE(fs::is_directory(dir / "folder.h5"));
}

// A baseline resumed after an interruption kept the rows of the interrupted one's other
// arguments (pgs at 50 iterations in an apgd baseline at 10); it holds its own jobs only.
TEST(CliOutputFaults, BaselineHoldsItsOwnJobsOnly) {
  const fs::path dir = testing::FreshDir("faults_baseline_rows");
  const std::string out = (dir / "b.h5").string();
  // An interrupted baseline leaves its side file's rows; a finished run there stands for them.
  ASSERT_EQ(
      testing::RunCli("run " + kCube + " -s pgs --iters 50 -q -o " + out + ".running.h5", dir).code,
      0);
  const auto r = testing::RunCli("baseline " + kCube + " -s apgd --iters 10 -q -o " + out, dir);
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.err.find("rows of other jobs"), std::string::npos) << r.err;
  std::set<std::string> solvers;
  for (const RunRecord& row : ReadResults(out)) solvers.insert(row.solver);
  EXPECT_EQ(solvers, std::set<std::string>{"apgd"});
}

// A sweep generated every dataset before finding that its output was not a results file; a
// file as --data-dir was an internal error; a rerun with another seed mixed two sets of
// problems at each size.
TEST(CliOutputFaults, SweepChecksItsOutputsFirst) {
  const fs::path dir = testing::FreshDir("faults_sweep");
  const std::string sweep =
      "sweep random --param contacts --values 4,8 -p bodies=24 -n 1 -s pgs "
      "--iters 3 -q ";
  const std::string junk = (dir / "junk.h5").string();
  std::ofstream(junk) << "junk\n";
  EXPECT_EQ(testing::RunCli(sweep + "-o " + junk, dir).code, 2);
  EXPECT_FALSE(fs::exists(dir / "junk.datasets"));
  ExpectOneLineRefusal(
      testing::RunCli(sweep + "--data-dir " + junk + " -o " + (dir / "s.h5").string(), dir),
      "--data-dir = " + junk + ": is a file: must be a folder");
  const std::string out = (dir / "s.h5").string();
  ASSERT_EQ(testing::RunCli(sweep + "-o " + out, dir).code, 0);
  ExpectOneLineRefusal(testing::RunCli(sweep + "--seed 7 -o " + out, dir),
                       "holds a sweep with sweep_seed = '1', this one has '7'");
  // More values and solvers onto the same sweep stay additive.
  const std::string more =
      "sweep random --param contacts --values 4,8,16 -p bodies=24 -n 1 -s "
      "pgs,apgd --iters 3 -q -o ";
  EXPECT_EQ(testing::RunCli(more + out, dir).code, 0);
  EXPECT_EQ(ReadResults(out).size(), 6u);
}

// generate and simulate --record made the output's folders (and its lock) before they parsed
// the scenario's parameters: a typo left an empty folder tree behind.
TEST(CliOutputFaults, BadScenarioArgumentsLeaveNoFolders) {
  const fs::path dir = testing::FreshDir("faults_generate_args");
  const std::string out = (dir / "new" / "deeper" / "d.h5").string();
  ExpectOneLineRefusal(testing::RunCli("generate random -n 1 -p contcts=3 -o " + out, dir),
                       "random.contcts: unknown parameter");
  ExpectOneLineRefusal(testing::RunCli("generate cable -n 1 -p links=-4 -o " + out, dir),
                       "cable.links = -4: ");
  ExpectOneLineRefusal(
      testing::RunCli("generate random -n 3 --seed 18446744073709551615 -o " + out, dir),
      "must be at most 2^64 - 3");
  ExpectOneLineRefusal(testing::RunCli("simulate cable -p bogus=1 --record " + out, dir),
                       "cable.bogus: unknown parameter");
  ExpectOneLineRefusal(testing::RunCli("simulate cable --dt 5 --record " + out, dir),
                       "--dt = 5: must be in (0, 0.1]");
  ExpectOneLineRefusal(testing::RunCli("simulate cable --solver nosuch --record " + out, dir),
                       "solver 'nosuch': unknown");
  EXPECT_FALSE(fs::exists(dir / "new"));
}

// simulate ran admm-full on scenes it cannot step (joint friction) instead of their stepper,
// wrote an empty dataset over the target when no frame was recorded, and took a NaN time step
// for the default.
TEST(CliOutputFaults, SimulateStepsWithTheSceneStepperAndRecordsSomething) {
  const fs::path dir = testing::FreshDir("faults_simulate");
  const auto chain = testing::RunCli("simulate chain --steps 2 -q", dir);
  EXPECT_EQ(chain.code, 0) << chain.err;
  const std::string target = (dir / "keep.h5").string();
  std::ofstream(target) << "keep\n";
  ExpectOneLineRefusal(testing::RunCli("simulate box_push --steps 4 -q --record " + target, dir),
                       "recorded no frame");
  EXPECT_EQ(testing::Slurp(target), "keep\n");
  ExpectOneLineRefusal(testing::RunCli("simulate box_push --steps 4 -q --dt nan", dir),
                       "--dt = nan");
  ExpectOneLineRefusal(testing::RunCli("simulate box_push --steps 4 -q --settle nan", dir),
                       "--settle = nan");
  ExpectOneLineRefusal(testing::RunCli("simulate box_push --steps 4 -q --record ''", dir),
                       "--record = '': must name");
  ExpectOneLineRefusal(testing::RunCli("simulate box_push --steps 4 -q --every 2", dir),
                       "--every requires --record");
}

// A margin below every gap gave problems without a row, written without a word.
TEST(CliOutputFaults, ProblemsWithoutRowsAreWrittenWithAWarning) {
  const fs::path dir = testing::FreshDir("faults_no_rows");
  const auto r =
      testing::RunCli("generate bolt_nut -n 1 -q -p configurations=1,wrenches=1,margin=1e-9 -o " +
                          (dir / "q.h5").string(),
                      dir);
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.err.find("1 of 1 problems have no constraint rows"), std::string::npos) << r.err;
  EXPECT_TRUE(fs::exists(dir / "q.h5"));
}

// A size far past any physical scale made FCL's tree recurse until the stack overflowed.
TEST(CliOutputFaults, SceneSizesPastAnyScaleAreRefusedNotACrash) {
  const fs::path dir = testing::FreshDir("faults_scale");
  ExpectOneLineRefusal(testing::RunCli("simulate sliding_cubes --steps 2 -q -p size=1e200", dir),
                       "bounding box reaches");
}

// convert --to ncpbench ignored --verify and --index; --to fclib wrote problem 0 of many.
TEST(CliOutputFaults, ConvertOptionsDoWhatTheySayOrAreRefused) {
  const fs::path dir = testing::FreshDir("faults_convert");
  const std::string data = (dir / "data.h5").string();
  ASSERT_EQ(testing::RunCli("generate random -n 2 -q -o " + data, dir).code, 0);
  ExpectOneLineRefusal(
      testing::RunCli("convert " + kCube + " " + (dir / "a.h5").string() + " --verify", dir),
      "--verify: goes with --to fclib");
  ExpectOneLineRefusal(
      testing::RunCli("convert " + data + " " + (dir / "a.hdf5").string() + " --to fclib", dir),
      "holds 2 problems and an fclib file one");
  EXPECT_FALSE(fs::exists(dir / "a.hdf5"));
  EXPECT_EQ(testing::RunCli(
                "convert " + data + " " + (dir / "a.hdf5").string() + " --to fclib --index 1", dir)
                .code,
            0);
}

// A thread count far past any machine was taken (OpenMP then tries to start that many).
TEST(CliOutputFaults, ThreadCountsPastAnyMachineAreRefused) {
  const fs::path dir = testing::FreshDir("faults_threads");
  ExpectOneLineRefusal(
      testing::RunCli(
          "run " + kCube + " -s pgs --iters 3 -q --threads 100000 -o " + (dir / "r.h5").string(),
          dir),
      "--threads = 100000: must be in [0, 1024]");
}

}  // namespace
}  // namespace ncp
