// Campaigns over several processes: `--shard K/N` + `merge`, and `mpirun -np N`, give the rows
// of one process (keys, statuses, iterations, final residuals; times aside), and a rank killed
// mid-run loses nothing once the command is rerun.
#include <gtest/gtest.h>
#include <signal.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <string>
#include <thread>

#include "harness/distribute/shard.h"
#include "harness/results_store.h"
#include "tests/cli_support.h"
#include "tests/expect_error.h"

namespace ncp {
namespace {

namespace fs = std::filesystem;

// 4 sizes × 5 problems × 3 solvers = 60 jobs; one thread each, so the solves are deterministic.
constexpr char kSweep[] =
    "sweep random --param contacts --values 10,20,30,40 -n 5 "
    "-s pgs,pj,apgd --iters 60 --threads 1 -q";
constexpr int kSweepJobs = 60;

struct DistributedRow {
  Outcome status;
  int iterations;
  double res004;
  bool operator==(const DistributedRow&) const = default;
};

std::map<std::string, DistributedRow> Rows(const std::string& path) {
  std::map<std::string, DistributedRow> rows;
  for (const RunRecord& r : ReadResults(path)) {
    EXPECT_TRUE(rows.emplace(r.job_key, DistributedRow{r.status, r.iterations,
                                                       r.final_metrics[Metric::kRes004]})
                    .second)
        << "duplicate job key " << r.job_key;
  }
  return rows;
}

int Shell(const std::string& cmd, const fs::path& dir) {
  const int status = std::system(
      (cmd + " >" + (dir / "out.txt").string() + " 2>" + (dir / "err.txt").string()).c_str());
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

// The reference: the same sweep in one plain process, in the caller's own folder (ctest runs the
// tests of this file in parallel processes).
std::map<std::string, DistributedRow> SingleProcessRows(const std::string& test) {
  const fs::path dir = testing::FreshDir("distribute_single_" + test);
  const auto r = testing::RunCli(std::string(kSweep) + " -o " + (dir / "one.h5").string(), dir);
  EXPECT_EQ(r.code, 0) << r.err;
  return Rows((dir / "one.h5").string());
}

TEST(Shard, ParsesAndRefusesWithTheRule) {
  const Shard s = ParseShard("2/8");
  EXPECT_EQ(s.index, 2);
  EXPECT_EQ(s.count, 8);
  EXPECT_TRUE(Shard{}.all());
  testing::ExpectError([] { ParseShard(""); }, {"--shard = '': must be K/N"});
  testing::ExpectError([] { ParseShard("3"); }, {"--shard = '3': must be K/N"});
  testing::ExpectError([] { ParseShard("0/3"); }, {"K must be in 1..N"});
  testing::ExpectError([] { ParseShard("4/3"); }, {"K must be in 1..N"});
  testing::ExpectError([] { ParseShard("1/0"); }, {"N must be in 1..100000"});
  testing::ExpectError([] { ParseShard("a/3"); }, {"integers"});
  EXPECT_EQ(ParseShard("2/3").OutPath("r/results.h5"), "r/results.shard-2-of-3.h5");
  EXPECT_EQ(ParseShard("1/1").OutPath("r/results.h5"), "r/results.h5");
}

TEST(Shard, EveryKeyInExactlyOneSliceAndSlicesBalanced) {
  std::map<int, int> per_slice;
  for (int k = 0; k < 3000; ++k) {
    const std::string key = "dataset@abc|problem-" + std::to_string(k) + "|pgs|repeat=0";
    int owners = 0;
    for (int i = 1; i <= 5; ++i) {
      if (Shard{i, 5}.Selects(key)) {
        ++owners;
        ++per_slice[i];
      }
    }
    EXPECT_EQ(owners, 1) << key;
  }
  for (const auto& [slice, n] : per_slice) EXPECT_NEAR(n, 600, 90) << "slice " << slice;
}

TEST(CliDistribute, ShardsMergedEqualOneProcess) {
  const fs::path dir = testing::FreshDir("distribute_shards");
  const std::string out = (dir / "c.h5").string();
  std::string inputs;
  for (int k = 1; k <= 3; ++k) {
    const auto r = testing::RunCli(
        std::string(kSweep) + " -o " + out + " --shard " + std::to_string(k) + "/3", dir);
    ASSERT_EQ(r.code, 0) << r.err;
    const std::string part = (dir / ("c.shard-" + std::to_string(k) + "-of-3.h5")).string();
    ASSERT_TRUE(fs::exists(part)) << r.out;
    EXPECT_LT(Rows(part).size(), static_cast<std::size_t>(kSweepJobs));
    for (const RunRecord& row : ReadResults(part))
      EXPECT_EQ(row.worker, "shard " + std::to_string(k) + "/3");
    inputs += " " + part;
  }
  const auto m = testing::RunCli("merge -o " + (dir / "all.h5").string() + inputs, dir);
  ASSERT_EQ(m.code, 0) << m.err;
  EXPECT_NE(m.out.find("merged 3 files: 60 rows"), std::string::npos) << m.out;
  const std::map<std::string, DistributedRow> single = SingleProcessRows("shards");
  EXPECT_EQ(Rows((dir / "all.h5").string()), single);
  // Merging again changes nothing; rows in two inputs are named as such.
  const auto again = testing::RunCli(
      "merge -o " + (dir / "all.h5").string() + " " + (dir / "c.shard-1-of-3.h5").string() + inputs,
      dir);
  ASSERT_EQ(again.code, 2) << again.err;  // an input given twice
  EXPECT_NE(again.err.find("given twice"), std::string::npos) << again.err;
  const auto overlap = testing::RunCli(
      "merge -o " + (dir / "all2.h5").string() + " " + (dir / "all.h5").string() + inputs, dir);
  ASSERT_EQ(overlap.code, 0) << overlap.err;
  EXPECT_NE(overlap.err.find("were in more than one input"), std::string::npos) << overlap.err;
  EXPECT_EQ(Rows((dir / "all2.h5").string()), single);
  // A set with a slice missing merges, and says so.
  const auto partial = testing::RunCli("merge -o " + (dir / "part.h5").string() + " " +
                                           (dir / "c.shard-1-of-3.h5").string() + " " +
                                           (dir / "c.shard-3-of-3.h5").string(),
                                       dir);
  ASSERT_EQ(partial.code, 0) << partial.err;
  EXPECT_NE(partial.err.find("shard(s) 2/3 not among the inputs"), std::string::npos)
      << partial.err;
}

// One job over two shards: one slice is empty and says so; the other runs the job.
TEST(CliDistribute, AShardWithoutJobsSaysSo) {
  const fs::path dir = testing::FreshDir("distribute_empty_shard");
  const std::string data = std::string(NCP_FCLIB_DIR) + "/CubeH8.hdf5";
  int empty = 0;
  for (int k = 1; k <= 2; ++k) {
    const auto r =
        testing::RunCli("run " + data + " -s pgs --iters 5 -q -o " + (dir / "r.h5").string() +
                            " --shard " + std::to_string(k) + "/2",
                        dir);
    ASSERT_EQ(r.code, 0) << r.err;
    const std::string part = (dir / ("r.shard-" + std::to_string(k) + "-of-2.h5")).string();
    const bool said = r.err.find("shard " + std::to_string(k) + "/2: no jobs") != std::string::npos;
    EXPECT_EQ(said, ReadResults(part).empty()) << r.err;
    empty += said;
  }
  EXPECT_EQ(empty, 1);
}

// The Slurm example as array tasks 1..3 of 3 (Slurm's variables set by hand), then merge.
TEST(CliDistribute, SlurmArrayScriptSlicesMergeToOneProcessRun) {
  const fs::path dir = testing::FreshDir("distribute_slurm");
  const std::string data = (dir / "data.h5").string();
  ASSERT_EQ(testing::RunCli("generate random -n 8 --seed 3 -o " + data, dir).code, 0);
  const std::string env = std::string("NCPBENCH=") + NCP_CLI + " DATA=" + data +
                          " SOLVERS=pgs,apgd BUDGET='--iters 40' OUT=" + (dir / "c.h5").string() +
                          " SLURM_ARRAY_TASK_COUNT=3 SLURM_ARRAY_TASK_ID=";
  const std::string script = std::string(NCP_SOURCE_DIR) + "/scripts/slurm/campaign.sbatch";
  for (int k = 1; k <= 3; ++k)
    ASSERT_EQ(Shell(env + std::to_string(k) + " bash " + script, dir), 0)
        << testing::Slurp((dir / "err.txt").string());
  const auto m = testing::RunCli(
      "merge -o " + (dir / "c.h5").string() + " " + (dir / "c.shard-1-of-3.h5").string() + " " +
          (dir / "c.shard-2-of-3.h5").string() + " " + (dir / "c.shard-3-of-3.h5").string(),
      dir);
  ASSERT_EQ(m.code, 0) << m.err;
  const auto one = testing::RunCli(
      "run " + data + " -s pgs,apgd --iters 40 --threads 1 -q -o " + (dir / "one.h5").string(),
      dir);
  ASSERT_EQ(one.code, 0) << one.err;
  const auto merged = Rows((dir / "c.h5").string());
  EXPECT_EQ(merged.size(), 16u);
  EXPECT_EQ(merged, Rows((dir / "one.h5").string()));
}

TEST(CliDistribute, MergeRefusesBadInputs) {
  const fs::path dir = testing::FreshDir("distribute_merge_bad");
  const auto missing = testing::RunCli(
      "merge -o " + (dir / "m.h5").string() + " " + (dir / "nope.h5").string(), dir);
  EXPECT_EQ(missing.code, 2);
  EXPECT_NE(missing.err.find("nope.h5': no such results file"), std::string::npos) << missing.err;
  std::ofstream((dir / "junk.h5").string()) << "not hdf5";
  const auto junk = testing::RunCli(
      "merge -o " + (dir / "m.h5").string() + " " + (dir / "junk.h5").string(), dir);
  EXPECT_EQ(junk.code, 2);
  EXPECT_NE(junk.err.find("junk.h5"), std::string::npos) << junk.err;
  EXPECT_FALSE(fs::exists(dir / "m.h5")) << "nothing half-written";
}

// mpirun as the test runs it: as root in CI containers, more ranks than cores.
std::string Mpirun(int ranks) {
#if defined(__SANITIZE_ADDRESS__)
  // Open MPI's components leak at MPI_Finalize from libraries it has unloaded (no frame names
  // to suppress); the ranks run the same code that the other tests check for leaks.
  const std::string leaks = "ASAN_OPTIONS=detect_leaks=0 ";
#else
  const std::string leaks;
#endif
  return leaks +
         "OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 "
         "OMPI_MCA_btl_vader_single_copy_mechanism=none mpirun --oversubscribe -np " +
         std::to_string(ranks) + " " + NCP_CLI + " ";
}

bool HaveMpi(std::string* why) {
#ifndef NCPBENCH_HAVE_MPI
  *why = "built without MPI (libopenmpi-dev not found at configure time)";
  return false;
#else
  if (std::system("command -v mpirun >/dev/null 2>&1") != 0) {
    *why = "mpirun not on PATH (openmpi-bin)";
    return false;
  }
  return true;
#endif
}

// Ranks given different commands (mpirun's "A : B" form) waited on each other forever (one in a
// broadcast, the other at the end), or one read the other's jobs out of range (SIGSEGV), or rank
// 0 wrote a file that missed the jobs only it planned (exit 0). Every rank now checks, and the
// run ends with one line from rank 0 and exit 2.
TEST(CliDistribute, RanksGivenDifferentArgumentsOrFilesAreRefused) {
  std::string why;
  if (!HaveMpi(&why)) GTEST_SKIP() << why;
  const fs::path dir = testing::FreshDir("distribute_mpmd");
  const std::string data = (dir / "d.h5").string(), out = (dir / "r.h5").string();
  ASSERT_EQ(
      testing::RunCli("generate random -n 4 --seed 3 -p contacts=8,bodies=12 -o " + data, dir).code,
      0);
  const std::string run = "run " + data + " --iters 20 -q -o " + out;
  // A hang (as before) ends in two minutes, as a failure.
  std::string one = Mpirun(1);
  one.insert(one.find("mpirun "), "timeout 120 ");
  for (const std::string& other : {std::string("--version"), "run " + data + " -s pgs -q -o " + out,
                                   run + " -s pgs,apgd --iters 30"}) {
    EXPECT_EQ(Shell(one + run + " -s pgs,apgd : -np 1 " + NCP_CLI + " " + other, dir), 2) << other;
    EXPECT_NE(testing::Slurp((dir / "err.txt").string())
                  .find("ncpbench: error: mpirun: the ranks were given different arguments: "
                        "every rank must run the same command"),
              std::string::npos)
        << testing::Slurp((dir / "err.txt").string());
  }
  // The same arguments, other files behind them (each rank in its own folder).
  fs::create_directories(dir / "a");
  fs::create_directories(dir / "b");
  fs::copy_file(data, dir / "a" / "x.h5");
  ASSERT_EQ(testing::RunCli("generate random -n 4 --seed 9 -p contacts=8,bodies=12 -o " +
                                (dir / "b" / "x.h5").string(),
                            dir)
                .code,
            0);
  const std::string same = "run x.h5 -s pgs --iters 20 -q -o " + out;
  one.resize(one.rfind(NCP_CLI));  // "... mpirun --oversubscribe -np 1 ": options go before it
  EXPECT_EQ(Shell(one + "--wdir " + (dir / "a").string() + " " + NCP_CLI + " " + same +
                      " : -np 1 --wdir " + (dir / "b").string() + " " + NCP_CLI + " " + same,
                  dir),
            2);
  EXPECT_NE(testing::Slurp((dir / "err.txt").string())
                .find("ncpbench: error: mpirun: the ranks planned different jobs"),
            std::string::npos)
      << testing::Slurp((dir / "err.txt").string());
  EXPECT_FALSE(fs::exists(out));
}

TEST(CliDistribute, MpiRanksEqualOneProcess) {
  std::string why;
  if (!HaveMpi(&why)) GTEST_SKIP() << why;
  const fs::path dir = testing::FreshDir("distribute_mpi");
  const std::string out = (dir / "mpi.h5").string();
  ASSERT_EQ(Shell(Mpirun(3) + kSweep + " -o " + out, dir), 0)
      << testing::Slurp((dir / "err.txt").string());
  EXPECT_EQ(Rows(out), SingleProcessRows("mpi"));
  std::set<std::string> workers;
  for (const RunRecord& r : ReadResults(out)) {
    workers.insert(r.worker);
    EXPECT_FALSE(r.host.empty());
    EXPECT_EQ(r.threads_given, 1);
  }
  EXPECT_GE(workers.size(), 2u) << "the jobs were shared among the ranks";
  EXPECT_EQ(ReadRunAttrs(out).at("mpi_ranks"), "3");
  // Only the distributed commands run under mpirun.
  EXPECT_EQ(Shell(Mpirun(2) + "list solvers", dir), 2);
  EXPECT_NE(testing::Slurp((dir / "err.txt").string()).find("`list` runs in one process"),
            std::string::npos);
  // profile --from measures nothing: each rank wrote the same report and CSV.
  EXPECT_EQ(Shell(Mpirun(2) + "profile --from " + out, dir), 2);
  EXPECT_NE(testing::Slurp((dir / "err.txt").string())
                .find("mpirun: profile --from reads a results file in one process"),
            std::string::npos);
}

// The pid of the given rank among this test's ncpbench processes (from their environment).
pid_t RankPid(int rank, const std::string& marker) {
  for (const fs::directory_entry& e : fs::directory_iterator("/proc")) {
    const std::string name = e.path().filename();
    if (name.find_first_not_of("0123456789") != std::string::npos) continue;
    const std::string cmdline = testing::Slurp(e.path() / "cmdline");
    if (cmdline.find(marker) == std::string::npos || cmdline.find("mpirun") != std::string::npos)
      continue;
    std::string env = testing::Slurp(e.path() / "environ");
    const std::string want = std::string("OMPI_COMM_WORLD_RANK=") + std::to_string(rank) + '\0';
    if (env.find(want) != std::string::npos) return static_cast<pid_t>(std::stol(name));
  }
  return -1;
}

TEST(CliDistribute, KilledRankThenRerunCompletesWithoutDuplicates) {
  std::string why;
  if (!HaveMpi(&why)) GTEST_SKIP() << why;
  const fs::path dir = testing::FreshDir("distribute_kill");
  const std::string out = (dir / "killed.h5").string();
  // Slower jobs (more iterations) so that the kill lands mid-run.
  const std::string sweep =
      "sweep random --param contacts --values 20,30,40,50 -n 5 "
      "-s pgs,pj,apgd --iters 4000 --threads 1 -q -o " +
      out;
  const std::string cmd = Mpirun(2) + sweep;
  const std::string bg = "(" + cmd + " >" + (dir / "first.txt").string() + " 2>&1; echo $? >" +
                         (dir / "first.rc").string() + ") &";
  ASSERT_EQ(std::system(bg.c_str()), 0);
  // Wait for some finished jobs, then kill rank 1.
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(120);
  const fs::path parts = out + ".parts";
  pid_t victim = -1;
  while (std::chrono::steady_clock::now() < deadline && !fs::exists(dir / "first.rc")) {
    std::error_code ec;
    std::size_t n = 0;
    if (fs::is_directory(parts, ec))
      for (const auto& p : fs::directory_iterator(parts, ec)) n += p.path().extension() == ".h5";
    if (n >= 3 && (victim = RankPid(1, "killed.h5")) > 0) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  ASSERT_GT(victim, 0) << "rank 1 not found running: "
                       << testing::Slurp((dir / "first.txt").string());
  ASSERT_EQ(kill(victim, SIGKILL), 0);
  while (!fs::exists(dir / "first.rc") && std::chrono::steady_clock::now() < deadline)
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  ASSERT_TRUE(fs::exists(dir / "first.rc")) << "mpirun did not end after a rank died";
  EXPECT_NE(std::stoi(testing::Slurp((dir / "first.rc").string())), 0);
  EXPECT_FALSE(fs::exists(out)) << "the killed run finished anyway: the kill came too late";
  // Rerun: resumes from the parts and completes.
  ASSERT_EQ(Shell(cmd, dir), 0) << testing::Slurp((dir / "err.txt").string());
  const std::map<std::string, DistributedRow> rows = Rows(out);  // Rows() fails on a duplicate key
  EXPECT_EQ(rows.size(), static_cast<std::size_t>(kSweepJobs));
}

}  // namespace
}  // namespace ncp
