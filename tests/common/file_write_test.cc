// ReplaceFile, the one way a file is replaced: the old contents survive a writer that fails
// part-way, and no temporary file is left either way.
#include <gtest/gtest.h>

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "common/error.h"
#include "common/file_write.h"
#include "tests/temp_dir_test_base.h"

namespace ncp {
namespace {

class ReplaceFileTest : public testing::TempDirTest {
 protected:
  ReplaceFileTest() : TempDirTest("ncp_replace_file") {}
  static std::string Read(const std::string& path) {
    std::ifstream in(path);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
  }
};

TEST_F(ReplaceFileTest, AFailingWriterLeavesTheOldFileAndNoTemporary) {
  const std::string path = Path("out.txt");
  WriteFileAtomically(path, "old\n");
  std::string tmp_seen;
  EXPECT_THROW(ReplaceFile(path,
                           [&](const std::string& tmp) {
                             tmp_seen = tmp;
                             std::ofstream(tmp) << "half";
                             throw Error("the writer failed");
                           }),
               Error);
  EXPECT_EQ(Read(path), "old\n");
  EXPECT_NE(tmp_seen.find(path + ".tmp."), std::string::npos) << tmp_seen;
  EXPECT_FALSE(testing::TempFileLeftBeside(path));
}

TEST_F(ReplaceFileTest, TwoWritesUseTwoTemporaryNames) {
  const std::string path = Path("out.txt");
  std::string first, second;
  ReplaceFile(path, [&](const std::string& tmp) { first = tmp, std::ofstream(tmp) << "1"; });
  ReplaceFile(path, [&](const std::string& tmp) { second = tmp, std::ofstream(tmp) << "2"; });
  EXPECT_NE(first, second);
  EXPECT_EQ(Read(path), "2");
  EXPECT_FALSE(testing::TempFileLeftBeside(path));
}

// What a killed writer left ("<name>.tmp.<pid>.<n>" of a process gone for longer than the
// sweep's age) goes with the next write into the folder; a live process's, a recent one, and a
// user's file of another kind stay.
TEST_F(ReplaceFileTest, AKilledWritersTemporaryIsSweptByTheNextWrite) {
  const pid_t child = fork();
  ASSERT_GE(child, 0);
  if (child == 0) _exit(0);
  ASSERT_EQ(waitpid(child, nullptr, 0), child);  // a pid of no process now
  const std::string dead = std::to_string(child);
  const auto old = std::filesystem::file_time_type::clock::now() - std::chrono::hours(1);
  auto make = [&](const std::string& name, bool aged) {
    std::ofstream(Path(name)) << "x";
    if (aged) std::filesystem::last_write_time(Path(name), old);
    return Path(name);
  };
  const std::string stale = make("r.h5.tmp." + dead + ".0", true);
  const std::string recent = make("r.h5.tmp." + dead + ".1", false);
  const std::string alive = make("r.h5.tmp.1.0", true);  // init: always alive
  const std::string users = make("notes.tmp." + dead + ".0", true);
  WriteFileAtomically(Path("other.csv"), "a\n");
  EXPECT_FALSE(std::filesystem::exists(stale));
  EXPECT_TRUE(std::filesystem::exists(recent));
  EXPECT_TRUE(std::filesystem::exists(alive));
  EXPECT_TRUE(std::filesystem::exists(users));
}

// Ctrl-C (or SIGTERM) while a file is written: the temporary file goes and the process ends by
// the signal, as it would have (a partial "<name>.tmp.<pid>.<n>" was left for ten minutes).
TEST_F(ReplaceFileTest, ASignalThatEndsTheWriterRemovesItsTemporaryFile) {
  for (const int sig : {SIGINT, SIGTERM}) {
    const std::string path = Path("out.h5");
    const pid_t child = fork();
    ASSERT_GE(child, 0);
    if (child == 0) {
      RemoveTemporariesOnSignals();
      ReplaceFile(path, [&](const std::string& tmp) {
        std::ofstream(tmp) << "half";
        raise(sig);
      });
      _exit(0);  // not reached
    }
    int status = 0;
    ASSERT_EQ(waitpid(child, &status, 0), child);
    EXPECT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == sig) << status;
    EXPECT_FALSE(testing::TempFileLeftBeside(path));
    EXPECT_FALSE(std::filesystem::exists(path));
  }
}

TEST_F(ReplaceFileTest, AnEmptyPathIsRefused) {
  EXPECT_THROW(ReplaceFile("", [](const std::string&) {}), Error);
}

}  // namespace
}  // namespace ncp
