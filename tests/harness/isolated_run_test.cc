// Isolated peers (SolverEntry::isolated): a solver that ends its own process becomes a `failed`
// row naming what ended it, and the run finishes with every other row.
#include <gtest/gtest.h>

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <thread>

#include "harness/results_store.h"
#include "harness/system_info.h"
#include "tests/cli_support.h"

namespace ncp {
namespace {

namespace fs = std::filesystem;

TEST(IsolatedRun, PeerThatEndsItsProcessIsAFailedRowAndTheRunGoesOn) {
  const fs::path dir = testing::FreshDir("isolated_run");
  const std::string data = (dir / "d.h5").string(), out = (dir / "r.h5").string();
  ASSERT_EQ(
      testing::RunCli("generate random -n 2 --seed 4 -p contacts=6,bodies=10 -o " + data, dir).code,
      0);
  const auto r = testing::RunCli("run " + data + " --plugin " + NCP_TEST_ENDING_PEER +
                                     " -s test-exiting-peer,pgs,test-crashing-peer --iters 20 -q"
                                     " -o " +
                                     out,
                                 dir);
  ASSERT_EQ(r.code, 0) << r.err;
  std::map<std::string, int> failed, ran;
  for (const RunRecord& row : ReadResults(out)) {
    if (row.solver == "pgs") {
      EXPECT_EQ(row.status, Outcome::kMaxIterations);
      ++ran[row.solver];
      continue;
    }
    EXPECT_EQ(row.status, Outcome::kFailed) << row.solver;
    if (row.solver == "test-exiting-peer")
      EXPECT_NE(row.message.find("ended its process (exit 7"), std::string::npos) << row.message;
    else
      EXPECT_NE(row.message.find("ended its process"), std::string::npos) << row.message;
    EXPECT_EQ(row.problem.rfind("random-", 0), 0u);
    ++failed[row.solver];
  }
  EXPECT_EQ(ran["pgs"], 2);
  EXPECT_EQ(failed["test-exiting-peer"], 2);
  EXPECT_EQ(failed["test-crashing-peer"], 2);
}

// "ncpbench-job-<host>-<pid>-0" in the temporary folder: the folder of a run's first job.
fs::path JobFolder(pid_t pid) {
  char name[256] = {};
  gethostname(name, sizeof name - 1);
  std::string host = name;
  for (char& c : host)
    if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
  return fs::temp_directory_path() / ("ncpbench-job-" + host + "-" + std::to_string(pid) + "-0");
}

// Whether a process's command line holds `text` (the job's process names its folder).
bool SomeProcessRuns(const std::string& text) {
  std::error_code ec;
  for (fs::directory_iterator it("/proc", ec), end; !ec && it != end; it.increment(ec)) {
    std::ifstream f(it->path() / "cmdline", std::ios::binary);
    const std::string cmd((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
    if (cmd.find(text) != std::string::npos) return true;
  }
  return false;
}

// The folder a job is written to was left behind when a signal ended the run (Ctrl-C, mpirun's
// SIGTERM), and for good when SIGKILL did, and the job's process ran on: the signal removes the
// folder and ends the job now, and a later run removes the folders of processes that are gone
// (ten minutes untouched).
TEST(IsolatedRun, JobFoldersGoWithTheRunThatMadeThem) {
  const fs::path dir = testing::FreshDir("isolated_signal");
  const std::string data = (dir / "d.h5").string();
  ASSERT_EQ(
      testing::RunCli("generate random -n 1 --seed 4 -p contacts=6,bodies=10 -o " + data, dir).code,
      0);
  // A folder of a process that is gone, 20 minutes old.
  const pid_t gone = fork();
  ASSERT_GE(gone, 0);
  if (gone == 0) _exit(0);
  ASSERT_EQ(waitpid(gone, nullptr, 0), gone);
  const fs::path stale = JobFolder(gone);
  fs::create_directories(stale);
  std::ofstream(stale / "problem.h5") << "left";
  fs::last_write_time(stale, fs::file_time_type::clock::now() - std::chrono::minutes(20));
  const pid_t run = fork();
  ASSERT_GE(run, 0);
  if (run == 0) {
    const std::string out = (dir / "r.h5").string();
    execl(NCP_CLI, NCP_CLI, "run", data.c_str(), "--plugin", NCP_TEST_ENDING_PEER, "-s",
          "test-sleeping-peer", "--iters", "200", "-q", "-o", out.c_str(),
          static_cast<char*>(nullptr));
    _exit(127);
  }
  const fs::path job = JobFolder(run);
  for (int i = 0; i < 400 && !fs::exists(job / "job.txt"); ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  ASSERT_TRUE(fs::exists(job / "job.txt"));
  EXPECT_FALSE(fs::exists(stale));  // swept as the run started its first job
  kill(run, SIGTERM);
  int status = 0;
  ASSERT_EQ(waitpid(run, &status, 0), run);
  EXPECT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == SIGTERM) << status;
  EXPECT_FALSE(fs::exists(job));
  bool job_runs = true;
  for (int i = 0; i < 100 && job_runs; ++i) {  // SIGKILL's effect is not instant
    job_runs = SomeProcessRuns("isolated-job\0" + job.string());
    if (job_runs) std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  EXPECT_FALSE(job_runs) << "the job's process ran on after its run ended";
  fs::remove_all(stale);
}

// An isolated job loads the run's plug-ins again by path: its solver's plug-in rebuilt since the
// run loaded it would be another build than the results name. The job refuses it, and the run
// stops with one line (no failed row a rerun would keep as done); the rerun goes on with the
// rebuilt library and the file names both builds. Here the peer appends a byte to its own
// library in its first job; the second job sees the change.
TEST(IsolatedRun, APluginRebuiltDuringTheRunStopsItAndTheRerunGoesOn) {
  const fs::path dir = testing::FreshDir("isolated_rebuilt_plugin");
  const fs::path lib = dir / "peer.so";  // a copy: the tests' library stays as built
  fs::copy_file(NCP_TEST_ENDING_PEER, lib);
  const std::string data = (dir / "d.h5").string(), out = (dir / "r.h5").string();
  ASSERT_EQ(
      testing::RunCli("generate random -n 2 --seed 4 -p contacts=6,bodies=10 -o " + data, dir).code,
      0);
  const std::string h1 = FileHash(lib.string());
  const std::string run = "run " + data + " --plugin " + lib.string() +
                          " -s test-rebuilding-peer --iters 3 -q -o " + out;
  const auto stopped = testing::RunCli(run, dir);
  EXPECT_EQ(stopped.code, 2) << stopped.err;
  const std::string h2 = FileHash(lib.string());
  EXPECT_NE(h1, h2);
  EXPECT_NE(stopped.err.find("--plugin = " + fs::canonical(lib).string() +
                             ": changed since the run loaded it (hash " + h1 + ", now " + h2 +
                             "): the run stops here"),
            std::string::npos)
      << stopped.err;
  EXPECT_EQ(std::count(stopped.err.begin(), stopped.err.end(), '\n'), 1) << stopped.err;
  const auto resumed = testing::RunCli(run, dir);
  ASSERT_EQ(resumed.code, 0) << resumed.err;
  const std::vector<RunRecord> rows = ReadResults(out);
  ASSERT_EQ(rows.size(), 2u);
  for (const RunRecord& r : rows) EXPECT_EQ(r.status, Outcome::kMaxIterations) << r.message;
  EXPECT_EQ(ReadRunAttrs(out).at("plugin:" + fs::canonical(lib).string()), h1 + "; " + h2);
}

#if defined(NCP_HAVE_SICONOS)
// A host that ignores SIGCHLD (children reaped by the kernel, waitpid answers ECHILD) loses the
// jobs' exit statuses: a job that finished still gives its row, one that crashed a failed row
// that says so.
TEST(IsolatedRun, JobsReapedByTheKernelStillGiveTheirRows) {
  const fs::path dir = testing::FreshDir("isolated_sigchld");
  const std::string data = std::string(NCP_FCLIB_DIR) + "/Box_Stacks-i0035-31-0.hdf5";
  const std::string out = (dir / "r.h5").string();
  // SIG_IGN survives exec: bash ignores SIGCHLD and becomes ncpbench (dash would reset it).
  const std::string cmd = std::string("bash -c \"trap '' CHLD; exec ") + NCP_CLI + " run " + data +
                          " --plugin " + NCP_TEST_ENDING_PEER +
                          " -s siconos:nsgs,test-crashing-peer --iters 20 -q -o " + out + "\" 2>" +
                          (dir / "err.txt").string();
  const int status = std::system(cmd.c_str());
  ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0)
      << testing::Slurp((dir / "err.txt").string());
  std::map<std::string, int> rows;
  for (const RunRecord& row : ReadResults(out)) {
    ++rows[row.solver];
    if (row.solver == "siconos:nsgs") {
      EXPECT_NE(row.status, Outcome::kFailed) << row.message;
      EXPECT_EQ(row.iterations, 20);
    } else {
      EXPECT_EQ(row.status, Outcome::kFailed);
      EXPECT_NE(row.message.find("exit status lost"), std::string::npos) << row.message;
    }
  }
  EXPECT_EQ(rows["siconos:nsgs"], 1);
  EXPECT_EQ(rows["test-crashing-peer"], 1);
}
#endif

}  // namespace
}  // namespace ncp
