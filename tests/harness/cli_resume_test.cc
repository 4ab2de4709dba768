// A `run` killed with SIGKILL leaves no corrupt result; running it again resumes.
#include <gtest/gtest.h>
#include <signal.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <set>
#include <thread>

#include "harness/results_store.h"
#include "problems/io/dataset_hdf5.h"
#include "problems/scenarios/random/manufactured.h"
#include "tests/cli_support.h"

namespace ncp {
namespace {

namespace fs = std::filesystem;

int CountParts(const fs::path& parts) {
  if (!fs::exists(parts)) return 0;
  int n = 0;
  for (const auto& e : fs::directory_iterator(parts)) n += e.path().extension() == ".h5";
  return n;
}

TEST(CliResume, SigkillLeavesNoCorruptResultAndRerunResumes) {
  const fs::path dir = testing::FreshDir("resume");
  std::vector<ContactProblem> problems;
  for (int i = 0; i < 12; ++i) {
    ManufacturedOptions o;
    o.seed = 50 + i;
    o.num_contacts = 60, o.num_bodies = 70;
    problems.push_back(MakeManufacturedProblem(o, "p" + std::to_string(i)));
  }
  const std::string data = (dir / "data.h5").string(), out = (dir / "res.h5").string();
  WriteDataset(data, problems);
  const std::string parts = out + ".parts";

  // Start a run that takes a while, kill it once a few jobs are done.
  const pid_t pid = fork();
  ASSERT_GE(pid, 0);
  if (pid == 0) {
    execl(NCP_CLI, NCP_CLI, "run", data.c_str(), "-s", "pgs,apgd", "--iters", "4000", "-q", "-o",
          out.c_str(), static_cast<char*>(nullptr));
    _exit(127);
  }
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(120);
  while (CountParts(parts) < 3 && std::chrono::steady_clock::now() < deadline)
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  kill(pid, SIGKILL);
  int status = 0;
  waitpid(pid, &status, 0);
  const int done_before = CountParts(parts);
  ASSERT_GE(done_before, 3);
  ASSERT_TRUE(WIFSIGNALED(status)) << "the run finished before it could be killed";
  EXPECT_FALSE(fs::exists(out)) << "the final file exists before the run finished";
  // Every completed part is readable: nothing half-written.
  for (const auto& e : fs::directory_iterator(parts)) {
    if (e.path().extension() == ".h5") {
      EXPECT_NO_THROW(ReadResults(e.path().string()));
    }
  }

  const auto r = testing::RunCli("run " + data + " -s pgs,apgd --iters 4000 -o " + out, dir);
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.err.find("resumed: " + std::to_string(done_before) + " jobs already done"),
            std::string::npos)
      << r.err;
  const auto rows = ReadResults(out);
  EXPECT_EQ(rows.size(), 24u);
  std::set<std::string> keys;
  for (const auto& row : rows) keys.insert(row.job_key);
  EXPECT_EQ(keys.size(), 24u);
  EXPECT_FALSE(fs::exists(parts));
}

}  // namespace
}  // namespace ncp
