// plots/time_series.py (per-step series of a reproduction, e.g. 002 Fig. 13) on a tiny CSV: it
// writes a PNG, skips non-finite values, and a column the file lacks exits 2 naming it.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "tests/plots/plot_support.h"
#include "tests/temp_dir_test_base.h"

namespace ncp {
namespace {

namespace fs = std::filesystem;

class TimeSeries : public testing::TempDirTest {
 protected:
  TimeSeries() : TempDirTest("ncp_time_series") {}
};

TEST_F(TimeSeries, DrawsTheColumnsAndRejectsAMissingOne) {
  const fs::path csv = dir_ / "s.csv", png = dir_ / "s.png", err = dir_ / "err";
  std::ofstream(csv) << "time_s,forward_N,inverse_N,relative_error\n"
                        "0,1,1,1e-15\n0.1,2,2,nan\n0.2,3,3,2e-15\n";
  const std::string script = std::string(testing::kPython) + " " + NCP_SOURCE_DIR +
                             "/plots/time_series.py " + csv.string() + " -o " + png.string() +
                             " --x time_s --y forward_N,inverse_N";
  ASSERT_EQ(testing::ExitCode(script + " --y2 relative_error > /dev/null"), 0);
  std::ifstream p(png, std::ios::binary);
  char head[4] = {};
  p.read(head, 4);
  EXPECT_EQ(std::string(head + 1, 3), "PNG");
  EXPECT_EQ(testing::ExitCode(script + " --y2 nope 2> " + err.string()), 2);
  std::ifstream e(err);
  std::string line;
  std::getline(e, line);
  EXPECT_NE(line.find("column 'nope'"), std::string::npos) << line;
}

}  // namespace
}  // namespace ncp
