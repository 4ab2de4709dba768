// Runs plots/convergence.py on a results file written by ResultsStore, as a user would.
#include <fmt/format.h>
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "harness/results_store.h"

namespace ncp {
namespace {

namespace fs = std::filesystem;

constexpr char kPython[] = "/usr/bin/python3";

int ExitCode(const std::string& command) {
  const int status = std::system(command.c_str());
  return status != -1 && WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

bool PythonCanPlot() {
  return ExitCode(fmt::format("{} -c 'import h5py, matplotlib' >/dev/null 2>&1", kPython)) == 0;
}

RunRecord Traced(const std::string& solver, const std::string& problem, double rate) {
  RunRecord r;
  r.job_key = solver + "/" + problem;
  r.dataset = "cubes";
  r.problem = problem;
  r.solver = solver;
  r.status = "converged";
  r.iterations = 30;
  r.total_time_s = 0.03;
  for (int j = 0; j <= 30; ++j) {
    TracePoint p;
    p.iteration = j;
    p.time_s = 1e-3 * (j + 1);
    p.metrics[Metric::kRes004] = std::pow(rate, j);
    p.metrics[Metric::kNatmapRel] = 0.5 * std::pow(rate, j);
    r.trace.push_back(p);
  }
  r.final_metrics = r.trace.back().metrics;
  return r;
}

class PlotTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!PythonCanPlot()) {
      GTEST_SKIP() << kPython << " cannot import h5py and matplotlib "
                   << "(install python3-h5py and python3-matplotlib)";
    }
    dir_ = fs::temp_directory_path() / fmt::format("ncp_plot_{}", getpid());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
    results_ = (dir_ / "results.h5").string();
    ResultsStore store(results_);
    store.Add(Traced("pgs", "p1", 0.7));
    store.Add(Traced("pgs", "p2", 0.8));
    store.Add(Traced("admm", "p1", 0.5));
    store.Add(Traced("admm", "p2", 0.6));
    store.Finalize({});
  }
  void TearDown() override {
    if (!dir_.empty()) fs::remove_all(dir_);
  }

  int Plot(const std::string& args, const std::string& png) const {
    return ExitCode(fmt::format("{} {}/plots/convergence.py {} -o {} {}", kPython, NCP_SOURCE_DIR,
                                results_, png, args));
  }

  static bool IsPng(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::string magic(8, '\0');
    in.read(magic.data(), magic.size());
    return in && magic == "\x89PNG\r\n\x1a\n";
  }

  fs::path dir_;
  std::string results_;
};

TEST_F(PlotTest, WritesConvergencePng) {
  const std::string png = (dir_ / "out.png").string();
  ASSERT_EQ(Plot("", png), 0);
  ASSERT_TRUE(fs::exists(png));
  EXPECT_GT(fs::file_size(png), 0u);
  EXPECT_TRUE(IsPng(png));
}

TEST_F(PlotTest, FiltersByProblemDatasetAndMetric) {
  const std::string png = (dir_ / "one.png").string();
  EXPECT_EQ(Plot("--metric natmap_rel --problem p2 --dataset cubes", png), 0);
  EXPECT_TRUE(IsPng(png));
}

TEST_F(PlotTest, ExitsTwoOnBadInput) {
  const std::string png = (dir_ / "bad.png").string();
  EXPECT_EQ(Plot("--metric no_such_metric 2>/dev/null", png), 2);
  EXPECT_EQ(Plot("--problem no_such_problem 2>/dev/null", png), 2);
  EXPECT_EQ(ExitCode(fmt::format("{} {}/plots/convergence.py {}/missing.h5 -o {} 2>/dev/null",
                                 kPython, NCP_SOURCE_DIR, dir_.string(), png)),
            2);
  EXPECT_FALSE(fs::exists(png));
}

}  // namespace
}  // namespace ncp
