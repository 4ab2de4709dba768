// Runs plots/convergence.py on a results file written by ResultsStore, as a user would: the PNG,
// one figure per dataset with the same colour per solver in each, y-limits a diverged run does
// not move, lines that end where the runs stopped (checked through the --sidecar JSON).
#include <fmt/format.h>
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>

#include "tests/plots/plot_support.h"
#include "harness/results_store.h"

namespace ncp {
namespace {

namespace fs = std::filesystem;

using testing::ExitCode;
using testing::kPython;

bool PythonCanPlot() {
  return ExitCode(fmt::format("{} -c 'import h5py, matplotlib' >/dev/null 2>&1", kPython)) == 0;
}

RunRecord TracedRecord(const std::string& solver, const std::string& problem, double rate,
                       const std::string& dataset = "cubes", int iterations = 30) {
  RunRecord r;
  r.job_key = dataset + "/" + solver + "/" + problem;
  r.dataset = dataset;
  r.problem = problem;
  r.solver = solver;
  r.budget = "iters=30;time_ms=0;tol=0;tol_metric=res004";
  r.status = Outcome::kConverged;
  r.iterations = iterations;
  r.total_time_s = 1e-3 * (iterations + 1);
  for (int j = 0; j <= iterations; ++j) {
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
    store.Add(TracedRecord("pgs", "p1", 0.7));
    store.Add(TracedRecord("pgs", "p2", 0.8));
    store.Add(TracedRecord("admm", "p1", 0.5));
    store.Add(TracedRecord("admm", "p2", 0.6));
    store.Finalize({});
  }
  void TearDown() override {
    if (!dir_.empty()) fs::remove_all(dir_);
  }

  int Plot(const std::string& args, const std::string& png) const {
    return ExitCode(fmt::format("{} {}/plots/convergence.py {} -o {} {}", kPython, NCP_SOURCE_DIR,
                                results_, png, args));
  }

  // Runs the script on `results` with --sidecar; its stdout goes to dir_/stdout.
  int PlotFile(const std::string& results, const std::string& args, const std::string& png) const {
    return ExitCode(fmt::format("{} {}/plots/convergence.py {} -o {} --sidecar {} > {}/stdout",
                                kPython, NCP_SOURCE_DIR, results, png, args, dir_.string()));
  }

  static std::string Slurp(const std::string& path) {
    std::ifstream in(path);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
  }

  // The first capture of `pattern` in `text`, "" when it does not match.
  static std::string Find(const std::string& text, const std::string& pattern) {
    std::smatch m;
    return std::regex_search(text, m, std::regex(pattern)) ? m[1].str() : "";
  }

  static std::string Colour(const std::string& json, const std::string& label) {
    const std::string escaped =
        std::regex_replace(label, std::regex(R"re([()\[\].+])re"), R"re(\$&)re");
    return Find(json, "\"" + escaped + R"re(": "(#[0-9a-f]{6})")re");
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

// Two datasets with different solver sets: one figure each, and a solver has the same colour in
// both (its variants too, with different line styles); the not-applicable solver is listed.
TEST_F(PlotTest, OneFigurePerDatasetWithTheSameColourPerSolver) {
  const std::string two = (dir_ / "two.h5").string();
  {
    ResultsStore store(two);
    for (const char* p : {"p1", "p2"}) {
      store.Add(TracedRecord("pgs", p, 0.7, "boxes"));
      store.Add(TracedRecord("admm-full", p, 0.5, "boxes"));
      store.Add(TracedRecord("apgd", p, 0.6, "boxes"));
      store.Add(TracedRecord("pj", p, 0.8, "spheres"));
      store.Add(TracedRecord("admm-full", p, 0.4, "spheres"));
      RunRecord slow = TracedRecord("pgs", p, 0.9, "spheres");
      slow.settings = "omega=1.5";
      slow.job_key += "/slow";
      store.Add(slow);
      RunRecord fast = TracedRecord("pgs", p, 0.6, "spheres");
      fast.settings = "omega=1";
      store.Add(fast);
      RunRecord na = TracedRecord("cond", p, 0.5, "spheres");
      na.status = Outcome::kNotApplicable;
      na.trace.clear();
      store.Add(na);
    }
    store.Finalize({});
  }
  const std::string png = (dir_ / "fig.png").string();
  ASSERT_EQ(PlotFile(two, "", png), 0);
  const std::string boxes = (dir_ / "fig-boxes.png").string();
  const std::string spheres = (dir_ / "fig-spheres.png").string();
  EXPECT_TRUE(IsPng(boxes));
  EXPECT_TRUE(IsPng(spheres));
  EXPECT_FALSE(fs::exists(png));  // never one figure pooled over datasets
  const std::string out = Slurp((dir_ / "stdout").string());
  EXPECT_NE(out.find("wrote " + boxes), std::string::npos) << out;
  EXPECT_NE(out.find("wrote " + spheres), std::string::npos) << out;

  const std::string a = Slurp(boxes + ".json"), b = Slurp(spheres + ".json");
  const std::string pgs = Colour(a, "pgs"), admm = Colour(a, "admm-full");
  ASSERT_FALSE(pgs.empty()) << a;
  EXPECT_NE(pgs, admm);
  EXPECT_NE(pgs, Colour(a, "apgd"));
  EXPECT_EQ(Colour(b, "admm-full"), admm) << b;
  EXPECT_EQ(Colour(b, "pgs (omega=1)"), pgs) << b;
  EXPECT_EQ(Colour(b, "pgs (omega=1.5)"), pgs) << b;
  EXPECT_NE(Colour(b, "pj"), pgs);
  const std::string styles = R"re("linestyles": \{.*?)re";
  const std::string solid = Find(b, styles + R"re("pgs \(omega=1\)": "([^"]+)")re");
  ASSERT_FALSE(solid.empty()) << b;
  EXPECT_NE(solid, Find(b, styles + R"re("pgs \(omega=1\.5\)": "([^"]+)")re")) << b;
  EXPECT_NE(b.find("\"cond (2/2)\""), std::string::npos) << b;  // listed as not applicable
  EXPECT_NE(a.find("\"dataset\": \"boxes\""), std::string::npos);
  EXPECT_NE(a.find("budget 30 iterations per problem"), std::string::npos) << a;
}

// The same runs with and without a pj run that diverges to 1e100: same y-limits, pj's line leaves
// the axis at the top (an exit is counted) and its legend says it diverged.
TEST_F(PlotTest, DivergedRunDoesNotMoveTheYLimits) {
  const std::string with = (dir_ / "with.h5").string();
  {
    ResultsStore store(with);
    store.Add(TracedRecord("pgs", "p1", 0.7));
    store.Add(TracedRecord("pgs", "p2", 0.8));
    store.Add(TracedRecord("admm", "p1", 0.5));
    store.Add(TracedRecord("admm", "p2", 0.6));
    for (const char* p : {"p1", "p2"}) {
      RunRecord pj = TracedRecord("pj", p, 1e4);  // 1, 1e4, 1e8, ... then infinite
      pj.status = Outcome::kDiverged;
      pj.trace.resize(26);
      pj.trace.back().metrics[Metric::kRes004] = 1e100;
      TracePoint last = pj.trace.back();
      last.iteration += 1;
      last.time_s += 1e-3;
      last.metrics[Metric::kRes004] = INFINITY;
      pj.trace.push_back(last);
      store.Add(pj);
    }
    store.Finalize({});
  }
  const std::string without_png = (dir_ / "without.png").string();
  const std::string with_png = (dir_ / "with.png").string();
  ASSERT_EQ(PlotFile(results_, "", without_png), 0);
  ASSERT_EQ(PlotFile(with, "", with_png), 0);
  const std::string a = Slurp(without_png + ".json"), b = Slurp(with_png + ".json");
  const std::string ylim = R"("ylim": \[\s*([^\]]+)\])";
  ASSERT_FALSE(Find(a, ylim).empty()) << a;
  EXPECT_EQ(Find(a, ylim), Find(b, ylim)) << a << "\n" << b;
  // Below the smallest and above the largest value of the converging runs (1 and 0.5^30).
  const std::string lims = Find(a, ylim);
  const double bottom = std::stod(lims.substr(0, lims.find(',')));
  const double top = std::stod(lims.substr(lims.find(',') + 1));
  EXPECT_LT(bottom, std::pow(0.5, 30));
  EXPECT_GE(top, 1.0);
  EXPECT_LT(top, 1e4);
  EXPECT_GE(std::stoi(Find(b, R"("exits": \{[^}]*"pj": (\d+))")), 1) << b;
  EXPECT_NE(b.find("pj (diverged 2/2)"), std::string::npos) << b;
  EXPECT_EQ(Colour(a, "pgs"), Colour(b, "pgs"));
}

// A run that stopped at the tolerance ends there: alone (--problem) its line ends at its last
// point; in the median the line ends with the solver's longest run, not at the budget.
TEST_F(PlotTest, LinesEndWhereTheRunsStopped) {
  const std::string stopped = (dir_ / "stopped.h5").string();
  {
    ResultsStore store(stopped);
    store.Add(TracedRecord("pgs", "p1", 0.5, "cubes", 10));  // converged after 10 iterations, 11 ms
    store.Add(TracedRecord("pgs", "p2", 0.7, "cubes", 20));
    store.Add(TracedRecord("apgd", "p1", 0.6, "cubes", 30));
    store.Add(TracedRecord("apgd", "p2", 0.6, "cubes", 30));
    store.Finalize({});
  }
  const std::string png = (dir_ / "end.png").string();
  const std::string ends = R"("ends": \{.*?"pgs": \{"iteration": ([0-9.]+), "time_ms": ([0-9.]+))";
  ASSERT_EQ(PlotFile(stopped, "--problem p1", png), 0);
  std::string json = Slurp(png + ".json");
  EXPECT_EQ(Find(json, ends), "10.0") << json;
  std::smatch m;
  ASSERT_TRUE(std::regex_search(json, m, std::regex(ends))) << json;
  EXPECT_NEAR(std::stod(m[2]), 11.0, 1e-9);
  ASSERT_EQ(PlotFile(stopped, "", png), 0);
  json = Slurp(png + ".json");
  ASSERT_TRUE(std::regex_search(json, m, std::regex(ends))) << json;
  EXPECT_EQ(m[1].str(), "20.0");
  EXPECT_NEAR(std::stod(m[2]), 21.0, 1e-9);
}

}  // namespace
}  // namespace ncp
