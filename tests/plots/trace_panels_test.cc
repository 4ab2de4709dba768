// plots/trace_panels.py on a tiny trace CSV: the medians it prints and the PNG it writes.
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <cstdio>
#include <filesystem>
#include <fstream>

#include "tests/temp_dir_test_base.h"

namespace ncp {
namespace {

namespace fs = std::filesystem;

int ExitCodeOf(const std::string& command) {
  const int status = std::system(command.c_str());
  return status != -1 && WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

class TracePanels : public testing::TempDirTest {
 protected:
  TracePanels() : TempDirTest("ncp_trace_panels") {}
  const fs::path& dir() const { return dir_; }
};

TEST_F(TracePanels, DrawsAndPrintsTheMedianFinalResidual) {
  const fs::path csv = dir() / "t.csv", png = dir() / "t.png", log = dir() / "log";
  std::ofstream(csv) << "solver,case,iteration,time_s,res004\n"
                        "a,0,0,0.0,1\na,0,1,0.001,1e-3\na,1,0,0.0,1\na,1,1,0.001,1e-5\n"
                        "a,2,0,0.0,1\na,2,1,0.002,1e-4\n";
  const std::string script = std::string(NCP_SOURCE_DIR) + "/plots/trace_panels.py";
  ASSERT_EQ(ExitCodeOf("/usr/bin/python3 " + script + " " + csv.string() + " -o " + png.string() +
                       " > " + log.string()),
            0);
  std::ifstream in(log);
  std::string line;
  std::getline(in, line);
  EXPECT_EQ(line, "a: median final res004 1.00e-04");  // median of 1e-3, 1e-5, 1e-4
  std::ifstream p(png, std::ios::binary);
  char head[4] = {};
  p.read(head, 4);
  EXPECT_EQ(std::string(head + 1, 3), "PNG");
  std::ofstream(dir() / "bad.csv") << "x,y\n1,2\n";
  EXPECT_EQ(ExitCodeOf("/usr/bin/python3 " + script + " " + (dir() / "bad.csv").string() + " -o " +
                       png.string() + " 2> /dev/null"),
            2);
}

// A solver that blows up (1e100, then inf) is drawn clipped, does not fail the figure, and its
// final residual prints as inf; the other solver's line is unchanged.
TEST_F(TracePanels, DivergedSolverIsDrawnClipped) {
  const fs::path csv = dir() / "d.csv", png = dir() / "d.png", log = dir() / "log";
  std::ofstream(csv) << "solver,case,iteration,time_s,res004\n"
                        "pgs,0,0,0.0,1\npgs,0,1,0.001,1e-3\npgs,1,0,0.0,1\npgs,1,1,0.002,1e-5\n"
                        "pj,0,0,0.0,1\npj,0,1,0.001,1e100\npj,0,2,0.002,inf\n"
                        "pj,1,0,0.0,1\npj,1,1,0.001,1e50\npj,1,2,0.002,inf\n";
  const std::string script = std::string(NCP_SOURCE_DIR) + "/plots/trace_panels.py";
  ASSERT_EQ(ExitCodeOf("/usr/bin/python3 " + script + " " + csv.string() + " -o " + png.string() +
                       " > " + log.string()),
            0);
  std::ifstream in(log);
  std::string first, second;
  std::getline(in, first);
  std::getline(in, second);
  EXPECT_EQ(first, "pgs: median final res004 5.05e-04");  // mean of 1e-3 and 1e-5
  EXPECT_EQ(second, "pj: median final res004 inf");
  EXPECT_GT(fs::file_size(png), 1000u);
}

}  // namespace
}  // namespace ncp
