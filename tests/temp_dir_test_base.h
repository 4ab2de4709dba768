// A test fixture with a fresh temporary folder per test, removed afterwards.
#pragma once

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <string>

namespace ncp::testing {

class TempDirTest : public ::testing::Test {
 protected:
  explicit TempDirTest(std::string prefix) : prefix_(std::move(prefix)) {}
  void SetUp() override {
    const std::string test = ::testing::UnitTest::GetInstance()->current_test_info()->name();
    dir_ = std::filesystem::temp_directory_path() /
           (prefix_ + "_" + std::to_string(::getpid()) + "_" + test);
    std::filesystem::remove_all(dir_);
    std::filesystem::create_directories(dir_);
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }
  std::string Path(const std::string& name) const { return (dir_ / name).string(); }

  std::filesystem::path dir_;

 private:
  std::string prefix_;
};

// Whether a temporary file of a write of `path` (ReplaceFile: `path`.tmp.PID.N) is left beside it.
inline bool TempFileLeftBeside(const std::string& path) {
  const std::filesystem::path p(path);
  const std::string prefix = p.filename().string() + ".tmp";
  std::error_code ec;
  for (const auto& e : std::filesystem::directory_iterator(
           p.parent_path().empty() ? std::filesystem::path(".") : p.parent_path(), ec))
    if (e.path().filename().string().rfind(prefix, 0) == 0) return true;
  return false;
}

}  // namespace ncp::testing
