// The reproductions' figure runner: arguments reach the script as given, without a shell.
#include "harness/reproduce/plot_script.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "tests/temp_dir_test_base.h"

namespace ncp {
namespace {

bool HasMatplotlib() {
  return std::system("/usr/bin/python3 -c 'import matplotlib' >/dev/null 2>&1") == 0;
}

class PlotScript : public testing::TempDirTest {
 protected:
  PlotScript() : TempDirTest("plot_script") {}
};

// A folder with a space and a quote in its name (a user's "my results/it's") gets its figure,
// and a title with quotes reaches the script intact.
TEST_F(PlotScript, PathsWithSpacesAndQuotesAreDrawn) {
  if (!HasMatplotlib()) GTEST_SKIP() << "/usr/bin/python3 cannot import matplotlib";
  const std::filesystem::path dir = dir_ / "my results" / "it's";
  std::filesystem::create_directories(dir);
  const std::string csv = (dir / "s.csv").string(), png = (dir / "s.png").string();
  std::ofstream(csv) << "time_s,force\n0,1\n0.1,2\n0.2,1.5\n";
  const auto printed = RunPlotScript(
      "time_series.py", {csv, "-o", png, "--x", "time_s", "--y", "force", "--title", "it's \"x\""});
  ASSERT_TRUE(printed.has_value());
  EXPECT_GT(std::filesystem::file_size(png), 1000u);
  EXPECT_EQ(FigureSentence(true, png, "time_series.py"), "; figure: `" + png + "`.\n");
}

// A script that exits non-zero (a column the file lacks) or does not exist draws nothing.
TEST_F(PlotScript, AFailingOrMissingScriptGivesNothing) {
  const std::string csv = Path("s.csv");
  std::ofstream(csv) << "time_s,force\n0,1\n";
  EXPECT_FALSE(RunPlotScript("time_series.py",
                             {csv, "-o", Path("s.png"), "--x", "time_s", "--y", "no_such_column"})
                   .has_value());
  EXPECT_FALSE(std::filesystem::exists(Path("s.png")));
  EXPECT_FALSE(RunPlotScript("no_such_script.py", {csv}).has_value());
  EXPECT_EQ(FigureSentence(false, Path("s.png"), "paths.py"),
            " (the figure needs /usr/bin/python3 with matplotlib: plots/paths.py).\n");
}

}  // namespace
}  // namespace ncp
