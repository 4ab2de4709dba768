// plots/paths.py (planar paths of a reproduction, e.g. 002 Fig. 14) on a tiny CSV: it writes a
// PNG with a set's reference and a shorter path beside it (blank cells end a line), and a file
// without x_/y_ column pairs, or no file, exits 2 saying so.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "tests/plots/plot_support.h"
#include "tests/cli_support.h"

namespace ncp {
namespace {

namespace fs = std::filesystem;

std::string FirstLine(const fs::path& p) {
  std::ifstream e(p);
  std::string line;
  std::getline(e, line);
  return line;
}

TEST(Paths, DrawsEachPairWithItsReferenceAndRejectsAFileWithoutPairs) {
  const fs::path dir = testing::FreshDir("plots_paths");
  const fs::path csv = dir / "p.csv", png = dir / "p.png", err = dir / "err";
  std::ofstream(csv) << "x_a,y_a,ref_x_a,ref_y_a\n0,0,0,0\n0.1,0.05,0.1,0.05\n,,0.2,0.08\n";
  const std::string run = std::string(testing::kPython) + " " + NCP_SOURCE_DIR + "/plots/paths.py ";
  ASSERT_EQ(testing::ExitCode(run + csv.string() + " -o " + png.string() + " > /dev/null"), 0);
  std::ifstream p(png, std::ios::binary);
  char head[4] = {};
  p.read(head, 4);
  EXPECT_EQ(std::string(head + 1, 3), "PNG");
  const fs::path bad = dir / "bad.csv";
  std::ofstream(bad) << "a,b\n1,2\n";
  EXPECT_EQ(testing::ExitCode(run + bad.string() + " -o " + png.string() + " 2> " + err.string()),
            2);
  EXPECT_NE(FirstLine(err).find("no column pairs x_<name>, y_<name>"), std::string::npos)
      << FirstLine(err);
  EXPECT_EQ(testing::ExitCode(run + (dir / "none.csv").string() + " -o " + png.string() + " 2> " +
                              err.string()),
            2);
  EXPECT_NE(FirstLine(err).find("none.csv: no such file"), std::string::npos) << FirstLine(err);
}

}  // namespace
}  // namespace ncp
