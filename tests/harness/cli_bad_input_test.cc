// Bad input: one line naming the problem, a non-zero exit, and no result file.
#include <gtest/gtest.h>

#include <sys/stat.h>

#include <chrono>
#include <cmath>
#include <filesystem>
#include <string>
#include <utility>
#include <vector>

#include "problems/io/dataset_hdf5.h"
#include "tests/cli_support.h"
#include "tests/test_problems.h"

namespace ncp {
namespace {

namespace fs = std::filesystem;

class CliBadInput : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = testing::FreshDir(::testing::UnitTest::GetInstance()->current_test_info()->name());
    good_ = (dir_ / "good.h5").string();
    auto o = testing::AcceptanceOptions(1);
    o.num_contacts = 10, o.num_bodies = 12;
    problem_ = MakeManufacturedProblem(o, "p0");
    WriteDataset(good_, {problem_});
  }
  std::string Write(const ContactProblem& p, const std::string& name) {
    const std::string path = (dir_ / name).string();
    WriteDataset(path, {p});
    return path;
  }
  // Runs `run <dataset> <extra>` and checks the failure contract.
  void ExpectRejected(const std::string& dataset, const std::string& extra,
                      const std::string& needle) {
    const std::string results = (dir_ / "results.h5").string();
    const auto r = testing::RunCli("run " + dataset + " -o " + results + " -q " + extra, dir_);
    EXPECT_NE(r.code, 0);
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
    EXPECT_NE(r.err.find(needle), std::string::npos) << r.err;
    EXPECT_FALSE(fs::exists(results)) << "a result file was created";
    EXPECT_FALSE(fs::exists(results + ".parts")) << "result parts were created";
  }
  // Runs `<command> -q -o <dir>/g.h5` for each (command, needle): exit 2, one line with the
  // needle, no output file.
  void ExpectCommandsRefused(const std::vector<std::pair<std::string, std::string>>& cases) {
    for (const auto& [command, needle] : cases) {
      const std::string out = (dir_ / "g.h5").string();
      const auto r = testing::RunCli(command + " -q -o " + out, dir_);
      EXPECT_EQ(r.code, 2) << command;
      EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
      EXPECT_NE(r.err.find(needle), std::string::npos) << r.err;
      EXPECT_FALSE(fs::exists(out)) << command;
    }
  }
  fs::path dir_;
  std::string good_;
  ContactProblem problem_;
};

TEST_F(CliBadInput, GoodInputRuns) {
  const auto r = testing::RunCli(
      "run " + good_ + " -s pgs --iters 5 -q -o " + (dir_ / "ok.h5").string(), dir_);
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_TRUE(fs::exists(dir_ / "ok.h5"));
}

TEST_F(CliBadInput, MissingFile) { ExpectRejected((dir_ / "nope.h5").string(), "", "nope.h5"); }

TEST_F(CliBadInput, TruncatedHdf5) {
  const std::string path = (dir_ / "trunc.h5").string();
  fs::copy_file(good_, path);
  fs::resize_file(path, fs::file_size(path) / 2);
  ExpectRejected(path, "", "trunc.h5");
}

TEST_F(CliBadInput, WrongLengthOfB) {
  ContactProblem p = problem_;
  p.b.conservativeResize(p.b.size() - 1);
  ExpectRejected(Write(p, "b.h5"), "", "problem 'p0': b: wrong size: expected 72, got 71");
}

TEST_F(CliBadInput, NaNInA) {
  ContactProblem p = problem_;
  p.A.coeffRef(2, 2) = std::numeric_limits<double>::quiet_NaN();
  ExpectRejected(Write(p, "nan.h5"), "", "problem 'p0': A(2,2) = nan: must be finite");
}

// One invalid input among two is one line: its reason and the count.
TEST_F(CliBadInput, OneBadInputOfTwoIsOneLine) {
  ContactProblem p = problem_;
  p.b[0] = std::nan("");
  const std::string bad = Write(p, "bad.h5");
  const std::string results = (dir_ / "results.h5").string();
  const auto r = testing::RunCli("run " + good_ + " " + bad + " -o " + results + " -q", dir_);
  EXPECT_NE(r.code, 0);
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  EXPECT_NE(r.err.find("b[0] = nan"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("1 of 2 inputs are invalid"), std::string::npos) << r.err;
  EXPECT_FALSE(fs::exists(results));
}

// A warm start the problem cannot supply is refused, not run cold under the mode's name.
TEST_F(CliBadInput, WarmStartThatTheProblemLacks) {
  ExpectRejected(good_, "--warm guess",
                 "--warm guess: problem 'p0' of " + good_ + " ships no guesses");
  ContactProblem p = problem_;
  p.reference.reset();
  ExpectRejected(Write(p, "noref.h5"), "--warm reference", "has no reference solution");
}

// Two files of one name in different folders would share their rows and job keys.
TEST_F(CliBadInput, TwoInputsOfOneName) {
  fs::create_directories(dir_ / "other");
  const std::string twin = (dir_ / "other" / "good.h5").string();
  fs::copy_file(good_, twin);
  ExpectRejected(good_ + " " + twin, "", "both named 'good'");
}

TEST_F(CliBadInput, NonSpdA) {
  ContactProblem p = problem_;
  for (int k = 0; k < 6; ++k) p.A.coeffRef(k, k) = -1.0;
  ExpectRejected(Write(p, "spd.h5"), "", "A: not symmetric positive definite");
}

TEST_F(CliBadInput, NegativeMu) {
  ContactProblem p = problem_;
  p.constraints[0].mu = -0.1;
  ExpectRejected(Write(p, "mu.h5"), "", "constraint[0].mu = -0.1: must be finite and >= 0");
}

TEST_F(CliBadInput, UnknownSolver) {
  ExpectRejected(good_, "-s pgs,nosuch", "solver 'nosuch': unknown");
}

TEST_F(CliBadInput, NegativeIterations) {
  ExpectRejected(good_, "--iters -1", "--iters = -1: must be >= 1");
  // Non-finite budgets and repeated names were taken (inf recorded as a budget; the last
  // --set won; a solver listed twice counted twice in the progress line).
  ExpectRejected(good_, "--time-ms inf", "--time-ms = inf: must be finite and >= 0");
  ExpectRejected(good_, "--tol 1e400", "--tol = inf: must be finite and >= 0");
  ExpectRejected(good_, "-s pgs,pgs", "--solvers pgs: given twice");
  ExpectRejected(good_, "-s pgs --set pgs.omega=1.2 --set pgs.omega=1.3",
                 "--set pgs.omega: given twice (1.2 and 1.3)");
}

// CLI11's own "Could not convert: --iters = 99999999999" named no rule; an empty --shard ran
// unsharded, as if the option had been left out.
TEST_F(CliBadInput, NumbersOptionsCannotHoldAndEmptyShard) {
  ExpectRejected(good_, "--iters 99999999999",
                 "--iters = 99999999999: must be a whole number from -2147483648 to 2147483647");
  ExpectRejected(good_, "--tol abc", "--tol = abc: must be a number");
  ExpectRejected(good_, "--shard ''", "--shard = '': must be K/N");
  ExpectCommandsRefused({{"sweep random --param contacts --values 4 --shard '' -s pgs --iters 5",
                          "--shard = '': must be K/N"}});
  // CLI11's range check lets NaN through: it went on to allocate arrays of NaN MiB.
  const auto peaks = testing::RunCli("peaks --array-mib nan", dir_);
  EXPECT_EQ(peaks.code, 2);
  EXPECT_NE(peaks.err.find("--array-mib = nan: must be a number in [1, 1048576]"),
            std::string::npos)
      << peaks.err;
}

TEST_F(CliBadInput, BadSettingValue) {
  ExpectRejected(good_, "-s pgs --set pgs.omega=2.5", "pgs.omega = 2.5: must be in (0, 2)");
}

TEST_F(CliBadInput, UnknownSetting) {
  ExpectRejected(good_, "-s pgs --set pgs.nosuch=1", "pgs.nosuch: unknown setting");
}

TEST_F(CliBadInput, UnknownMetric) {
  ExpectRejected(good_, "--tol 1e-6 --tol-metric nosuch", "metric 'nosuch': unknown");
}

TEST_F(CliBadInput, UnknownScenario) {
  const auto r = testing::RunCli("generate nosuch -o " + (dir_ / "g.h5").string(), dir_);
  EXPECT_NE(r.code, 0);
  EXPECT_NE(r.err.find("scenario 'nosuch': unknown"), std::string::npos) << r.err;
  EXPECT_FALSE(fs::exists(dir_ / "g.h5"));
}

// CLI11 would read -1 into the unsigned seed as 2^64 - 1, and seed + i then wraps to 0.
TEST_F(CliBadInput, NegativeSeed) {
  for (const std::string cmd : {"generate random -n 2", "simulate cable"}) {
    const std::string out = (dir_ / "g.h5").string();
    const auto r = testing::RunCli(cmd + " --seed -1 -q -o " + out, dir_);
    EXPECT_EQ(r.code, 2) << cmd;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
    EXPECT_NE(r.err.find("--seed: seed -1 is negative"), std::string::npos) << r.err;
    EXPECT_FALSE(fs::exists(out)) << cmd;
  }
}

// CLI11 read 2^64 into the seed as 2^64 - 1; a last seed past 2^64 - 1 wrapped to 0.
TEST_F(CliBadInput, SeedBeyondItsRange) {
  ExpectCommandsRefused({{"generate random -n 1 --seed 18446744073709551616",
                          "seed 18446744073709551616 is not such an integer"},
                         {"generate random -n 1 --seed 1e3", "seed 1e3 is not such an integer"},
                         {"generate random -n 3 --seed 18446744073709551614",
                          "with 3 problems (problem i uses seed + i)"}});
}

// Empty items of a list were dropped: `-s pgs,,apgd` ran pgs and apgd, `--values 10,,20` two
// sizes, `-p bodies=60,` the rest at its defaults, whatever was meant between the commas.
TEST_F(CliBadInput, EmptyListItems) {
  const std::string small = (fs::path(NCP_FCLIB_DIR) / "local_problem_test.hdf5").string();
  ExpectRejected(small, "-s pgs,,apgd", "--solvers = pgs,,apgd: item 2 is empty");
  ExpectRejected(small, "-s pgs --problems ,", "--problems = ,: item 1 is empty");
  ExpectCommandsRefused(
      {{"generate random -n 1 -p bodies=60,", "settings 'bodies=60,': item 2 is empty"},
       {"sweep random --param contacts --values 10,,20 -s pgs --iters 5",
        "--values = 10,,20: item 2 is empty"}});
}

// A parameter given twice ran the last value; a condition number beyond double precision wrote
// an A with negative eigenvalues (at 1e16) that passed the writer's Cholesky.
TEST_F(CliBadInput, GeneratorParameterTwiceOrBeyondItsRange) {
  ExpectCommandsRefused(
      {{"generate sliding_cubes -n 1 -p cubes=1,cubes=2", "'cubes' given twice (1 and 2)"},
       {"generate random -n 1 -p condition=1e16",
        "random.condition = 1e16: must be in [1, 1e12]"}});
  // In range one by one, values can still overflow the problem's numbers: the message names
  // them, and a sweep no longer writes the dataset its reader then refused.
  ExpectCommandsRefused({{"generate joint_friction -n 1 -p radius_max=1e300",
                          "must be finite (generated by joint_friction with radius_max=1e300"},
                         {"sweep joint_friction --param radius_max --values 1e300 -s pgs --iters 5",
                          "(generated by joint_friction with radius_max=1e+300"}});
  EXPECT_TRUE(fs::is_empty(dir_ / "g.datasets"));
}

// A tolerance on the dynamics residual of a local (W, q) problem, which has none (NaN): the run
// went on to its iteration budget.
TEST_F(CliBadInput, ToleranceOnAMetricTheProblemLacks) {
  const std::string local = (fs::path(NCP_FCLIB_DIR) / "local_problem_test.hdf5").string();
  ExpectRejected(local, "--tol 1e-6 --tol-metric dyn", "has no dynamics residual");
}

// A count of cases far beyond any protocol's is refused as --cases, not as a scene parameter
// derived from it.
TEST_F(CliBadInput, ReproduceCasesOutOfRange) {
  const auto r =
      testing::RunCli("reproduce 004-fig7 --cases 1000000000 -q -o " + dir_.string(), dir_);
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("--cases = 1000000000: must be in [0, 100000]"), std::string::npos) << r.err;
  EXPECT_FALSE(fs::exists(dir_ / "004-fig7.h5"));
}

// A FIFO (or `<(cat file)`, a pipe) as input: its open would block until some writer came, and
// the guarded reader reads its input twice. Refused at once, by what it is.
TEST_F(CliBadInput, FifoInputIsRefusedAtOnce) {
  const std::string fifo = (dir_ / "in.h5").string();
  ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0);
  const auto start = std::chrono::steady_clock::now();
  ExpectRejected(fifo, "", "in.h5: cannot open: is a FIFO");
  const auto info = testing::RunCli("info " + fifo, dir_);
  EXPECT_EQ(info.code, 2);
  EXPECT_NE(info.err.find("is a FIFO"), std::string::npos) << info.err;
  // Before, each waited out the reader's 30 s time limit; a generous bound, not a timing.
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(20));
}

}  // namespace
}  // namespace ncp
