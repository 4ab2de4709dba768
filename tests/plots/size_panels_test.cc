// plots/size_panels.py (004 Fig. 11 panels) on a tiny size CSV: the exponent it prints and the
// PNG it writes; a CSV with other columns exits 2.
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <cstdio>
#include <filesystem>
#include <fstream>

#include "tests/temp_dir_test_base.h"

namespace ncp {
namespace {

namespace fs = std::filesystem;

int ExitStatus(const std::string& command) {
  const int status = std::system(command.c_str());
  return status != -1 && WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

class SizePanels : public testing::TempDirTest {
 protected:
  SizePanels() : TempDirTest("ncp_size_panels") {}
  const fs::path& dir() const { return dir_; }
};

TEST_F(SizePanels, PrintsTheFittedExponentAndDraws) {
  const fs::path csv = dir() / "s.csv", png = dir() / "s.png", log = dir() / "log";
  // time = 1e-3 DOF² exactly: the fitted exponent is 2.
  std::ofstream(csv) << "solver,particles,dofs,time_ms,residual\n"
                        "a,9,54,2.916,1e-6\na,18,108,11.664,2e-6\na,27,162,26.244,1e-6\n";
  const std::string script = std::string(NCP_SOURCE_DIR) + "/plots/size_panels.py";
  ASSERT_EQ(ExitStatus("/usr/bin/python3 " + script + " " + csv.string() + " -o " + png.string() +
                       " > " + log.string()),
            0);
  std::ifstream in(log);
  std::string line;
  std::getline(in, line);
  EXPECT_EQ(line, "a: time ∝ DOF^2.00");
  std::ifstream p(png, std::ios::binary);
  char head[4] = {};
  p.read(head, 4);
  EXPECT_EQ(std::string(head + 1, 3), "PNG");
  std::ofstream(dir() / "bad.csv") << "x,y\n1,2\n";
  EXPECT_EQ(ExitStatus("/usr/bin/python3 " + script + " " + (dir() / "bad.csv").string() + " -o " +
                       png.string() + " 2> /dev/null"),
            2);
}

}  // namespace
}  // namespace ncp
