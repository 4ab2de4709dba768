// `ncpbench compare`: exit 0 on identical results, 1 on a degraded one, 2 on bad input.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <vector>

#include "harness/results_store.h"
#include "problems/io/dataset_hdf5.h"
#include "problems/io/h5_util.h"
#include "tests/cli_support.h"
#include "tests/test_problems.h"
#include "tests/record_support.h"

namespace ncp {
namespace {

// Rewrites the first entry of /runs/status in place (fixed-length strings of the file's width).
void OverwriteFirstStatus(const std::string& path, const std::string& status) {
  const h5::Handle file(H5Fopen(path.c_str(), H5F_ACC_RDWR, H5P_DEFAULT));
  ASSERT_TRUE(file.valid());
  const h5::Handle data(H5Dopen2(file.id(), "/runs/status", H5P_DEFAULT));
  ASSERT_TRUE(data.valid());
  const h5::Handle type(H5Dget_type(data.id())), space(H5Dget_space(data.id()));
  const std::size_t width = H5Tget_size(type.id());
  const auto rows = static_cast<std::size_t>(H5Sget_simple_extent_npoints(space.id()));
  std::vector<char> text(width * rows);
  ASSERT_GE(H5Dread(data.id(), type.id(), H5S_ALL, H5S_ALL, H5P_DEFAULT, text.data()), 0);
  std::fill(text.begin(), text.begin() + width, '\0');
  std::copy(status.begin(), status.begin() + std::min(width, status.size()), text.begin());
  ASSERT_GE(H5Dwrite(data.id(), type.id(), H5S_ALL, H5S_ALL, H5P_DEFAULT, text.data()), 0);
}

namespace fs = std::filesystem;

RunRecord CliRow(const std::string& solver, const std::string& problem, double res, double time_s) {
  RunRecord r = testing::MadeRow(solver, problem, res, Outcome::kConverged,
                                 "iters=100;time_ms=0;tol=0;tol_metric=res004");
  r.iterations = 40;
  r.total_time_s = time_s;
  r.final_metrics[Metric::kNatmapAbs] = 10 * res;
  return r;
}

class CliCompare : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = testing::FreshDir(::testing::UnitTest::GetInstance()->current_test_info()->name());
    rows_ = {CliRow("pgs", "p1", 1e-5, 0.01), CliRow("pgs", "p2", 1e-6, 0.02),
             CliRow("admm-full", "p1", 1e-9, 0.03)};
    base_ = Write("base.h5", rows_);
  }
  std::string Write(const std::string& name, const std::vector<RunRecord>& rows) {
    const std::string path = (dir_ / name).string();
    WriteResults(path, rows, {{"date", "2024-01-01T00:00:00Z"}});
    return path;
  }
  testing::CliResult Compare(const std::string& a, const std::string& b,
                             const std::string& extra = "") {
    return testing::RunCli("compare " + a + " " + b + " " + extra, dir_);
  }
  static int Lines(const std::string& s) { return std::count(s.begin(), s.end(), '\n'); }
  // The failure contract for bad input: exit 2, one line naming `needle`.
  void ExpectBadInput(const testing::CliResult& r, const std::string& needle) {
    EXPECT_EQ(r.code, 2) << r.out << r.err;
    EXPECT_EQ(Lines(r.err), 1) << r.err;
    EXPECT_NE(r.err.find(needle), std::string::npos) << r.err;
  }
  fs::path dir_;
  std::vector<RunRecord> rows_;
  std::string base_;
};

TEST_F(CliCompare, IdenticalExitsZero) {
  const auto r = Compare(base_, Write("same.h5", rows_));
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("| dataset | problem | solver | status |"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("compare: 3 jobs, 0 regressions"), std::string::npos) << r.out;
}

TEST_F(CliCompare, WorseResidualExitsOne) {
  std::vector<RunRecord> now = rows_;
  now[2].final_metrics[Metric::kRes004] = 1e-8;  // +1 decade
  const auto r = Compare(base_, Write("worse.h5", now));
  EXPECT_EQ(r.code, 1) << r.out << r.err;
  EXPECT_NE(r.out.find("1 regressions (status 0, res004 1, natmap 0"), std::string::npos) << r.out;
  // Tolerated with a wider tolerance; caught on natmap alone when only natmap degrades.
  EXPECT_EQ(Compare(base_, (dir_ / "worse.h5").string(), "--tol-decades 1.5").code, 0);
  now = rows_;
  now[0].final_metrics[Metric::kNatmapAbs] = 1.0;
  EXPECT_EQ(Compare(base_, Write("natmap.h5", now)).code, 1);
  EXPECT_EQ(Compare(base_, (dir_ / "natmap.h5").string(), "--metrics res004").code, 0);
}

TEST_F(CliCompare, WorseStatusExitsOne) {
  std::vector<RunRecord> now = rows_;
  now[1].status = Outcome::kMaxIterations;
  const auto r = Compare(base_, Write("status.h5", now));
  EXPECT_EQ(r.code, 1) << r.out << r.err;
  EXPECT_NE(r.out.find("converged → max-iterations"), std::string::npos) << r.out;
}

TEST_F(CliCompare, SlowerButAsAccurateExitsZero) {
  std::vector<RunRecord> now = rows_;
  for (RunRecord& row : now) row.total_time_s *= 4;
  const auto r = Compare(base_, Write("slow.h5", now));
  EXPECT_EQ(r.code, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("median time ratio 4"), std::string::npos) << r.out;
}

// Regression tracking must not pass when a solver silently disappears: a baseline job missing
// from the new results exits 1 (named in the table) unless --allow-missing.
TEST_F(CliCompare, ASolverMissingFromTheNewResultsExitsOne) {
  std::vector<RunRecord> now = rows_;
  now.pop_back();  // admm-full gone
  const std::string fewer = Write("fewer.h5", now);
  const auto r = Compare(base_, fewer);
  EXPECT_EQ(r.code, 1) << r.out << r.err;
  EXPECT_NE(r.out.find("1 missing from the new results"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("- cubes | p1 | admm-full (omega=1)"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find(": FAIL"), std::string::npos) << r.out;
  const auto allowed = Compare(base_, fewer, "--allow-missing");
  EXPECT_EQ(allowed.code, 0) << allowed.out;
  EXPECT_NE(allowed.out.find("(allowed)"), std::string::npos) << allowed.out;
  // A job only in the new results is no regression.
  EXPECT_EQ(Compare(fewer, base_).code, 0);
}

// A folder of baselines (one file per dataset) compares against a folder or a file of new rows.
TEST_F(CliCompare, FoldersOfBaselines) {
  fs::create_directories(dir_ / "base" / "x");
  std::vector<RunRecord> pgs(rows_.begin(), rows_.begin() + 2),
      admm(rows_.begin() + 2, rows_.end());
  Write("base/a.h5", pgs);
  Write("base/b.h5", admm);
  const auto r = Compare((dir_ / "base").string(), Write("all.h5", rows_));
  EXPECT_EQ(r.code, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("compare: 3 jobs, 0 regressions"), std::string::npos) << r.out;
  fs::remove(dir_ / "base" / "b.h5");
  EXPECT_EQ(Compare(base_, (dir_ / "base").string()).code, 1);  // admm-full missing
  ExpectBadInput(Compare((dir_ / "base" / "x").string(), base_), "holds no results file");
}

TEST_F(CliCompare, WritesTheTableWithOut) {
  const std::string md = (dir_ / "cmp.md").string();
  ASSERT_EQ(Compare(base_, base_, "-o " + md).code, 0);
  const std::string text = testing::Slurp(md);
  EXPECT_NE(text.find("| cubes | p1 | pgs | converged |"), std::string::npos) << text;
  EXPECT_NE(text.find(": OK"), std::string::npos) << text;
}

TEST_F(CliCompare, BadInputExitsTwoWithOneLine) {
  ExpectBadInput(Compare(base_, (dir_ / "missing.h5").string()), "missing.h5");
  // A dataset is an HDF5 file but not a results file.
  const std::string data = (dir_ / "data.h5").string();
  WriteDataset(data, {MakeManufacturedProblem(testing::AcceptanceOptions(1), "p0")});
  ExpectBadInput(Compare(base_, data), "data.h5");
  std::vector<RunRecord> other = rows_;
  for (RunRecord& row : other) row.dataset = "spheres";
  ExpectBadInput(Compare(base_, Write("other.h5", other)), "no job overlaps");
  // A status no version of the suite writes: refused when the file is read.
  const std::string odd = Write("odd.h5", rows_);
  OverwriteFirstStatus(odd, "exploded");
  ExpectBadInput(Compare(base_, odd), "/runs/status[0] = 'exploded'");
  ExpectBadInput(Compare(base_, base_, "--tol-decades -1"), "--tol-decades = -1");
  ExpectBadInput(Compare(base_, base_, "--metrics res004,nope"), "nope");
}

}  // namespace
}  // namespace ncp
