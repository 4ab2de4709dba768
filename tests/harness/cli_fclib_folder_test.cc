// A folder of fclib files as input: every invalid file is named, --skip-invalid runs the rest
// and records what it skipped, a non-symmetric W is warned about once per file, and the
// shipped initial guess warm-starts a solver (--warm guess).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "harness/results_store.h"
#include "problems/io/fclib_io.h"
#include "problems/io/h5_util.h"
#include "problems/model/local_form.h"
#include "tests/test_problems.h"
#include "tests/cli_support.h"

namespace ncp {
namespace {

namespace fs = std::filesystem;

class CliFclibFolder : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = testing::FreshDir(::testing::UnitTest::GetInstance()->current_test_info()->name());
    in_ = dir_ / "in";
    fs::create_directories(in_);
    for (const char* f : {"Rover4493.hdf5", "local_problem_test.hdf5"})
      fs::copy_file(fs::path(NCP_FCLIB_DIR) / f, in_ / f);
  }
  void AddCorrupt(const std::string& name) { std::ofstream(in_ / name) << "not an hdf5 file"; }
  fs::path dir_, in_;
};

TEST_F(CliFclibFolder, RunsEveryFileAndWarnsOnceAboutAsymmetry) {
  const std::string out = (dir_ / "r.h5").string();
  const auto r = testing::RunCli("run " + in_.string() + " -s pgs --iters 5 -o " + out, dir_);
  ASSERT_EQ(r.code, 0) << r.err;
  // Rover4493's W: max|W − Wᵀ|/max|W| = 3.25e-05, one line; local_problem_test's 1.6e-16 is
  // rounding and not warned about.
  EXPECT_NE(r.err.find("Rover4493.hdf5: W is not symmetric: max|W - W^T|/max|W| = 3.25e-05"),
            std::string::npos)
      << r.err;
  std::size_t warnings = 0;
  for (std::size_t at = r.err.find("warning:"); at != std::string::npos;
       at = r.err.find("warning:", at + 1))
    ++warnings;
  EXPECT_EQ(warnings, 1u) << r.err;
  EXPECT_EQ(ReadResults(out).size(), 2u);
}

TEST_F(CliFclibFolder, ListsEveryInvalidFileOrSkipsThem) {
  AddCorrupt("a_bad.hdf5");
  AddCorrupt("z_bad.h5");
  const std::string out = (dir_ / "r.h5").string();
  auto r = testing::RunCli("run " + in_.string() + " -s pgs --iters 5 -q -o " + out, dir_);
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("a_bad.hdf5"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("z_bad.h5"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("2 of 4 inputs are invalid"), std::string::npos) << r.err;
  // One line per bad file, the count on the last one's.
  const std::size_t count_at = r.err.find("2 of 4 inputs are invalid");
  const std::size_t line_start = r.err.rfind('\n', count_at) + 1;
  EXPECT_NE(r.err.substr(line_start, count_at - line_start).find("z_bad.h5"), std::string::npos)
      << r.err;
  EXPECT_FALSE(fs::exists(out));
  r = testing::RunCli("run " + in_.string() + " -s pgs --iters 5 -q --skip-invalid -o " + out,
                      dir_);
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(ReadResults(out).size(), 2u);
  const std::string skipped = ReadRunAttrs(out)["skipped_inputs"];
  EXPECT_NE(skipped.find("a_bad.hdf5"), std::string::npos) << skipped;
  EXPECT_NE(skipped.find("z_bad.h5"), std::string::npos) << skipped;
}

// A local problem whose /guesses holds its exact solution: with --warm guess, pgs' first trace
// point is at the solution (natmap_rel ≤ 1e-10), from zero it is not (≥ 1e-3). (The guess that
// local_problem_test ships does not belong to its W and q: ‖W r + q − u‖ = 0.107 against
// ‖q‖ = 0.0098, so it cannot serve here.)
TEST_F(CliFclibFolder, WarmStartsFromTheShippedGuess) {
  ManufacturedOptions o = testing::AcceptanceOptions(7);
  o.num_bilateral = 0, o.num_contacts = 10, o.num_bodies = 12;
  const ContactProblem local = MakeLocalForm(MakeManufacturedProblem(o, "m"));
  const std::string file = (dir_ / "guessed.hdf5").string();
  WriteFclibLocal(file, local);
  {
    h5::File f = h5::File::OpenReadWrite(file);
    const h5::Group g = f.root().Create("guesses");
    g.WriteInts("number_of_guesses", std::vector<std::int32_t>{1});
    const Vec& lam = local.reference->lambda;
    g.Create("1").WriteDoubles("r", std::span<const double>(lam.data(), lam.size()));
  }
  double first[2];
  int k = 0;
  for (const char* warm : {"none", "guess"}) {
    const std::string out = (dir_ / (std::string(warm) + ".h5")).string();
    const auto r = testing::RunCli(
        "run " + file + " -s pgs --iters 1 --trace 1 -q --warm " + warm + " -o " + out, dir_);
    ASSERT_EQ(r.code, 0) << r.err;
    const auto rows = ReadResults(out);
    ASSERT_EQ(rows.size(), 1u);
    EXPECT_EQ(rows[0].warm_start, warm);
    ASSERT_FALSE(rows[0].trace.empty());
    first[k++] = rows[0].trace.front().metrics[Metric::kNatmapRel];
  }
  EXPECT_GE(first[0], 1e-3);
  EXPECT_LE(first[1], 1e-10);
}

}  // namespace
}  // namespace ncp
