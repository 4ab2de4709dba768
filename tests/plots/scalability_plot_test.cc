// Runs plots/scalability.py on a tiny sweep whose times follow known power laws, as a user would.
#include <fmt/format.h>
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <regex>

#include "tests/plots/plot_support.h"
#include "harness/results_store.h"
#include "tests/cli_support.h"
#include "tests/temp_dir_test_base.h"

namespace ncp {
namespace {

namespace fs = std::filesystem;

using testing::ExitCode;
using testing::kPython;

// Time = c · dofs^slope on every problem; contacts = dofs / 3, bodies = dofs / 6.
std::vector<RunRecord> PowerLawSweep(const std::string& solver, double slope, double c) {
  std::vector<RunRecord> rows;
  for (int bodies : {10, 20, 40, 80}) {
    for (int frame = 0; frame < 2; ++frame) {
      RunRecord r;
      r.dataset = fmt::format("sliding_cubes-cubes{}", bodies);
      r.problem = fmt::format("f{}", frame);
      r.solver = solver;
      r.job_key = r.dataset + "|" + r.problem + "|" + solver;
      r.status = Outcome::kMaxIterations;
      r.num_dofs = 6 * bodies;
      r.num_contacts = 2 * bodies;
      r.num_bodies = bodies;
      r.total_time_s = c * std::pow(r.num_dofs, slope);
      rows.push_back(r);
    }
  }
  return rows;
}

class ScalabilityPlot : public testing::TempDirTest {
 protected:
  ScalabilityPlot() : TempDirTest("ncp_scalability") {}
  void SetUp() override {
    if (ExitCode(fmt::format("{} -c 'import h5py, matplotlib' >/dev/null 2>&1", kPython)) != 0)
      GTEST_SKIP() << kPython << " cannot import h5py and matplotlib";
    TempDirTest::SetUp();
    std::vector<RunRecord> rows = PowerLawSweep("pgs", 1.5, 1e-6);
    for (RunRecord& r : PowerLawSweep("admm-full", 1.0, 1e-5)) rows.push_back(r);
    rows.push_back(rows[0]);  // a failed run has no meaningful time and must not bend the fit
    rows.back().job_key += "|failed";
    rows.back().settings = "other";
    rows.back().status = Outcome::kFailed;
    rows.back().total_time_s = 1e3;
    sweep_ = Path("sweep.h5");
    WriteResults(sweep_, rows, {});
  }
  int Plot(const std::string& args, const std::string& png) {
    return ExitCode(fmt::format("{} {}/plots/scalability.py {} -o {} >{} 2>{}", kPython,
                                NCP_SOURCE_DIR, args, png, Path("out.txt"), Path("err.txt")));
  }
  // The slope and R² the script printed for `solver` against `measure`.
  std::pair<double, double> Printed(const std::string& solver, const std::string& measure) {
    const std::string out = testing::Slurp(Path("out.txt"));
    const std::regex line(solver + " vs " + measure + ": slope ([-0-9.]+), R2 ([-0-9.]+)");
    std::smatch m;
    if (!std::regex_search(out, m, line)) {
      ADD_FAILURE() << "no line for " << solver << " vs " << measure << " in:\n" << out;
      return {NAN, NAN};
    }
    return {std::stod(m[1]), std::stod(m[2])};
  }
  std::string sweep_;
};

TEST_F(ScalabilityPlot, FitsThePowerLawsAndWritesAPng) {
  const std::string png = Path("scal.png");
  ASSERT_EQ(Plot(sweep_, png), 0) << testing::Slurp(Path("err.txt"));
  std::ifstream in(png, std::ios::binary);
  std::string magic(8, '\0');
  in.read(magic.data(), magic.size());
  EXPECT_EQ(magic, "\x89PNG\r\n\x1a\n");
  // Printed with 4 decimals; exact power laws fit with R² = 1.
  for (const char* measure : {"DOFs", "contacts", "bodies"}) {
    const auto [pgs, pgs_r2] = Printed("pgs", measure);
    EXPECT_NEAR(pgs, 1.5, 1e-4) << measure;
    EXPECT_NEAR(pgs_r2, 1.0, 1e-4) << measure;
    const auto [admm, admm_r2] = Printed("admm-full", measure);
    EXPECT_NEAR(admm, 1.0, 1e-4) << measure;
    EXPECT_NEAR(admm_r2, 1.0, 1e-4) << measure;
  }
  EXPECT_FALSE(fs::exists(png + ".tmp.png"));
}

TEST_F(ScalabilityPlot, SolverFilterAndBadInput) {
  const std::string png = Path("one.png");
  ASSERT_EQ(Plot(sweep_ + " --solver pgs", png), 0);
  EXPECT_EQ(testing::Slurp(Path("out.txt")).find("admm-full"), std::string::npos);
  const std::string bad = Path("bad.png");
  EXPECT_EQ(Plot(sweep_ + " --solver nosuch", bad), 2);
  EXPECT_EQ(Plot(Path("missing.h5"), bad), 2);
  EXPECT_NE(testing::Slurp(Path("err.txt")).find("missing.h5"), std::string::npos);
  EXPECT_FALSE(fs::exists(bad));
}

}  // namespace
}  // namespace ncp
