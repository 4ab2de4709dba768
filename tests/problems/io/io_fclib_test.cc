// fclib import of the sample files, export and re-import, and the checks that keep malformed
// files away from libfclib (which exits the process on a read error).
#include <fmt/format.h>
#include <gtest/gtest.h>

#include "tests/bitwise.h"
#include "tests/expect_error.h"
#include "tests/fclib_samples.h"
#include "tests/temp_dir_test_base.h"
#include <unistd.h>

#include <cstring>
#include <filesystem>
#include <fstream>

#include "common/error.h"
#include "problems/io/dataset_hdf5.h"
#include "problems/io/fclib_io.h"
#include "problems/io/h5_util.h"

namespace ncp {
namespace {

namespace fs = std::filesystem;
using Triplet = Eigen::Triplet<double, int>;
using testing::ExpectSameSparse;
using testing::ExpectSameVec;
using testing::SameBits;

using testing::FclibSample;

constexpr char kBoxStacks[] = "Box_Stacks-i0035-31-0.hdf5";
constexpr char kCubeH8[] = "CubeH8.hdf5";
constexpr char kLocalTest[] = "local_problem_test.hdf5";
constexpr char kLmgc[] = "LMGC_100_PR_PerioBox-i00361-60-03000.hdf5";

void ExpectSameConstraints(const ContactProblem& a, const ContactProblem& b) {
  ASSERT_EQ(a.constraints.size(), b.constraints.size());
  for (std::size_t i = 0; i < a.constraints.size(); ++i) {
    EXPECT_EQ(a.constraints[i].type, b.constraints[i].type) << i;
    EXPECT_EQ(a.constraints[i].row, b.constraints[i].row) << i;
    EXPECT_TRUE(SameBits(&a.constraints[i].mu, &b.constraints[i].mu, 1)) << i;
  }
}

using testing::ExpectError;

class FclibIoTest : public testing::TempDirTest {
 protected:
  FclibIoTest() : TempDirTest("ncpbench_io_fclib") {}

  // A writable copy of a sample file.
  std::string Copy(const std::string& sample) const {
    const std::string path = Path(sample);
    fs::copy_file(FclibSample(sample), path);
    fs::permissions(path, fs::perms::owner_read | fs::perms::owner_write);
    return path;
  }
};

// ---------------------------------------------------------------------------------------------
// The four sample files.

struct SampleCase {
  const char* file;
  ProblemForm form;
  int contacts;
  int rows;  // rows of J (global) or W (local)
  int dofs;  // rows of A (global only)
};

class FclibSampleTest : public ::testing::TestWithParam<SampleCase> {};

TEST_P(FclibSampleTest, LoadsWithExpectedFormAndSizes) {
  const SampleCase& c = GetParam();
  const std::string path = FclibSample(c.file);
  ASSERT_TRUE(IsFclibFile(path));
  EXPECT_FALSE(IsNcpbenchDataset(path));
  const ContactProblem p = ReadFclib(path);
  EXPECT_EQ(p.form, c.form);
  EXPECT_EQ(p.num_contacts(), c.contacts);
  EXPECT_EQ(p.num_constraints(), c.contacts);  // no G in any sample
  EXPECT_EQ(p.num_rows(), c.rows);
  if (c.form == ProblemForm::kGlobal) {
    EXPECT_EQ(p.A.rows(), c.dofs);
    EXPECT_EQ(p.A.cols(), c.dofs);
    EXPECT_EQ(p.b.size(), c.dofs);
    EXPECT_EQ(p.J.rows(), c.rows);
    EXPECT_EQ(p.J.cols(), c.dofs);
    EXPECT_EQ(p.e.size(), c.rows);
    EXPECT_EQ(p.W.size(), 0);
  } else {
    EXPECT_EQ(p.W.rows(), c.rows);
    EXPECT_EQ(p.W.cols(), c.rows);
    EXPECT_EQ(p.q.size(), c.rows);
    EXPECT_EQ(p.A.size(), 0);
    EXPECT_EQ(p.e.size(), 0);
  }
  for (const Constraint& k : p.constraints) {
    EXPECT_EQ(k.type, ConstraintType::kContact);
    EXPECT_GT(k.mu, 0.0);
  }
  EXPECT_EQ(p.meta.scenario, "fclib");
  EXPECT_EQ(p.meta.name, fs::path(path).stem().string());

  const std::vector<ContactProblem> loaded = LoadProblems(path);
  ASSERT_EQ(loaded.size(), 1u);
  EXPECT_EQ(loaded[0].num_rows(), c.rows);
}

INSTANTIATE_TEST_SUITE_P(Samples, FclibSampleTest,
                         ::testing::Values(SampleCase{kLocalTest, ProblemForm::kLocal, 48, 144, 0},
                                           SampleCase{kLmgc, ProblemForm::kLocal, 60, 180, 0},
                                           SampleCase{kBoxStacks, ProblemForm::kGlobal, 31, 93,
                                                      450},
                                           SampleCase{kCubeH8, ProblemForm::kGlobal, 1, 3, 162}),
                         [](const ::testing::TestParamInfo<SampleCase>& info) {
                           std::string name = fs::path(info.param.file).stem().string();
                           for (char& ch : name) {
                             if (!std::isalnum(static_cast<unsigned char>(ch))) ch = '_';
                           }
                           return name;
                         });

TEST(FclibSamples, BoxStacksMetadataAndFriction) {
  const ContactProblem p = ReadFclib(FclibSample(kBoxStacks));
  EXPECT_EQ(p.meta.case_name, "Box_stacks");
  for (const Constraint& c : p.constraints) EXPECT_EQ(c.mu, 0.3);
}

TEST(FclibSamples, LmgcHasTwoFrictionCoefficients) {
  const ContactProblem p = ReadFclib(FclibSample(kLmgc));
  int mu03 = 0, mu05 = 0;
  for (const Constraint& c : p.constraints) {
    mu03 += c.mu == 0.3;
    mu05 += c.mu == 0.5;
  }
  EXPECT_GT(mu03, 0);
  EXPECT_GT(mu05, 0);
  EXPECT_EQ(mu03 + mu05, 60);
}

// CubeH8 stores only the upper triangle of M (as triplets); the import mirrors it.
TEST(FclibSamples, CubeH8UpperTriangleIsExpanded) {
  const ContactProblem p = ReadFclib(FclibSample(kCubeH8));
  EXPECT_EQ(p.A.nonZeros(), 2 * 3168 - 162);
  const SpMat asym = p.A - SpMat(p.A.transpose());
  EXPECT_EQ(asym.norm(), 0.0);
}

// Full symmetric matrices are kept exactly as stored.
TEST(FclibSamples, FullLocalMatrixIsKeptAsStored) {
  EXPECT_EQ(ReadFclib(FclibSample(kLocalTest)).W.nonZeros(), 4896);
  EXPECT_EQ(ReadFclib(FclibSample(kLmgc)).W.nonZeros(), 9576);
}

// ---------------------------------------------------------------------------------------------
// Export and re-import.

void ExpectGlobalRoundTrip(const ContactProblem& a, const ContactProblem& b) {
  EXPECT_EQ(b.form, ProblemForm::kGlobal);
  ExpectSameSparse(a.A, b.A, "A");
  ExpectSameVec(a.b, b.b, "b");
  ExpectSameSparse(a.J, b.J, "J");
  ExpectSameVec(a.e, b.e, "e");
  ExpectSameConstraints(a, b);
}

TEST_F(FclibIoTest, BoxStacksExportRoundTrip) {
  const ContactProblem p = ReadFclib(FclibSample(kBoxStacks));
  const std::string path = Path("box_stacks_export.hdf5");
  WriteFclibGlobal(path, p);
  EXPECT_FALSE(testing::TempFileLeftBeside(path));
  ASSERT_TRUE(IsFclibFile(path));
  const ContactProblem back = ReadFclib(path);
  ExpectGlobalRoundTrip(p, back);
  EXPECT_EQ(back.meta.case_name, "Box_stacks");
}

TEST_F(FclibIoTest, CubeH8ExportRoundTrip) {
  const ContactProblem p = ReadFclib(FclibSample(kCubeH8));
  const std::string path = Path("cube.hdf5");
  WriteFclibGlobal(path, p);
  ExpectGlobalRoundTrip(p, ReadFclib(path));
}

TEST_F(FclibIoTest, LocalExportRoundTrip) {
  const ContactProblem p = ReadFclib(FclibSample(kLocalTest));
  const std::string path = Path("local.hdf5");
  WriteFclibLocal(path, p);
  EXPECT_FALSE(testing::TempFileLeftBeside(path));
  const ContactProblem back = ReadFclib(path);
  EXPECT_EQ(back.form, ProblemForm::kLocal);
  ExpectSameSparse(p.W, back.W, "W");
  ExpectSameVec(p.q, back.q, "q");
  ExpectSameConstraints(p, back);
}

// Contacts and a bilateral row interleaved: the export puts contacts in H and the bilateral row
// in G; the re-import restores the order from /ncpbench/constraint_types, and a file without
// that group (a foreign fclib file) lists contacts first, then the bilateral row.
TEST_F(FclibIoTest, BilateralRowsGoToG) {
  ContactProblem p;
  const int n = 6;
  std::vector<Triplet> a;
  for (int i = 0; i < n; ++i) a.emplace_back(i, i, 1.0 + i);
  p.A.resize(n, n);
  p.A.setFromTriplets(a.begin(), a.end());
  p.b = Vec::LinSpaced(n, -1.0, 1.0);
  AddConstraint(p.constraints, ConstraintType::kContact, 0.4);  // rows 0-2
  AddConstraint(p.constraints, ConstraintType::kBilateral);     // row 3
  AddConstraint(p.constraints, ConstraintType::kContact, 0.6);  // rows 4-6
  std::vector<Triplet> j = {{0, 0, 1.0},  {1, 1, 1.0}, {2, 2, 1.0}, {3, 0, 1.0},
                            {3, 3, -1.0}, {4, 3, 1.0}, {5, 4, 1.0}, {6, 5, 1.0}};
  p.J.resize(7, n);
  p.J.setFromTriplets(j.begin(), j.end());
  p.e = Vec::LinSpaced(7, 0.0, 0.6);

  const std::string path = Path("bilateral.hdf5");
  WriteFclibGlobal(path, p);
  {
    h5::File f = h5::File::OpenReadOnly(path);
    EXPECT_TRUE(f.root().Open("fclib_global").HasGroup("G"));
  }
  const ContactProblem same = ReadFclib(path);
  ExpectSameSparse(p.J, same.J, "J");
  ExpectSameVec(p.e, same.e, "e");
  ExpectSameConstraints(p, same);
  {
    h5::File f = h5::File::OpenReadWrite(path);
    ASSERT_GE(H5Ldelete(f.root().id(), "ncpbench", H5P_DEFAULT), 0);
  }
  const ContactProblem back = ReadFclib(path);
  ASSERT_EQ(back.num_constraints(), 3);
  EXPECT_EQ(back.constraints[0].type, ConstraintType::kContact);
  EXPECT_EQ(back.constraints[1].type, ConstraintType::kContact);
  EXPECT_EQ(back.constraints[2].type, ConstraintType::kBilateral);
  EXPECT_EQ(back.constraints[0].mu, 0.4);
  EXPECT_EQ(back.constraints[1].mu, 0.6);
  ExpectSameSparse(p.A, back.A, "A");
  ExpectSameVec(p.b, back.b, "b");
  const std::vector<int> order = {0, 1, 2, 4, 5, 6, 3};  // original row of each re-imported row
  const Eigen::MatrixXd J = p.J, Jb = back.J;
  ASSERT_EQ(Jb.rows(), 7);
  for (int r = 0; r < 7; ++r) {
    EXPECT_EQ(Jb.row(r), J.row(order[r])) << r;
    EXPECT_EQ(back.e[r], p.e[order[r]]) << r;
  }
}

TEST_F(FclibIoTest, ExportReplacesExistingFile) {
  ContactProblem p = ReadFclib(FclibSample(kBoxStacks));
  const std::string path = Path("replace.hdf5");
  WriteFclibGlobal(path, p);
  p.b *= 2.0;
  WriteFclibGlobal(path, p);  // libfclib alone would refuse: the file already holds a problem
  EXPECT_FALSE(testing::TempFileLeftBeside(path));
  ExpectSameVec(ReadFclib(path).b, p.b, "b");
}

// Soft rows are folded into M and f; a unilateral row becomes a μ = 0 contact in H with zero
// tangent columns and comes back as a unilateral row.
TEST_F(FclibIoTest, ExportFoldsSoftRowsAndKeepsUnilateralRows) {
  ContactProblem p = ReadFclib(FclibSample(kBoxStacks));
  // Constraint 2 becomes a unilateral row (its normal row) and 3 a soft row: re-lay the rows.
  ContactProblem q = p;
  q.constraints.clear();
  std::vector<int> rows;
  for (int i = 0; i < p.num_constraints(); ++i) {
    const Constraint& c = p.constraints[i];
    const ConstraintType t = i == 2   ? ConstraintType::kUnilateral
                             : i == 3 ? ConstraintType::kSoft
                                      : ConstraintType::kContact;
    AddConstraint(q.constraints, t, t == ConstraintType::kContact ? c.mu : 0.0, 50.0, 2.0);
    for (int r = 0; r < RowsOf(t); ++r) rows.push_back(c.row + r);
  }
  SpMat S(static_cast<int>(rows.size()), p.J.rows());
  std::vector<Triplet> t;
  for (std::size_t r = 0; r < rows.size(); ++r) t.emplace_back(static_cast<int>(r), rows[r], 1.0);
  S.setFromTriplets(t.begin(), t.end());
  q.J = S * p.J;
  q.e = S * p.e;
  const std::string path = Path("mixed.hdf5");
  WriteFclibGlobal(path, q);
  const ContactProblem back = ReadFclib(path);
  ASSERT_EQ(back.num_constraints(), q.num_constraints() - 1);  // the soft row is folded away
  EXPECT_EQ(back.constraints[2].type, ConstraintType::kUnilateral);
  EXPECT_EQ(back.constraints[3].type, ConstraintType::kContact);
  const SpMat Js = q.J.middleRows(q.constraints[3].row, 1);
  const SpMat A_folded = q.A + SpMat(2.0 * SpMat(Js.transpose()) * Js);
  EXPECT_LE((Eigen::MatrixXd(back.A) - Eigen::MatrixXd(A_folded)).norm(), 1e-14 * A_folded.norm());
  const Vec b_folded = q.b - 50.0 * q.e[q.constraints[3].row] * Vec(Js.transpose() * Vec::Ones(1));
  EXPECT_LE((back.b - b_folded).norm(), 1e-14 * b_folded.norm());
  {  // in the file: a μ = 0 contact with zero tangent columns
    h5::File f = h5::File::OpenReadOnly(path);
    const auto mu = f.root().Open("fclib_global").Open("vectors").ReadDoubles("mu");
    EXPECT_EQ(mu[2], 0.0);
  }
}

TEST_F(FclibIoTest, ExportRejectsWrongForm) {
  const std::string path = Path("form.hdf5");
  ExpectError([&] { WriteFclibGlobal(path, ReadFclib(FclibSample(kLocalTest))); }, {"is local"});
  ExpectError([&] { WriteFclibLocal(path, ReadFclib(FclibSample(kBoxStacks))); }, {"is global"});
}

// ---------------------------------------------------------------------------------------------
// Malformed files are rejected with one-line errors before libfclib could exit the process.

TEST_F(FclibIoTest, RejectsSpaceDimOtherThanThree) {
  const std::string path = Copy(kBoxStacks);
  {
    h5::File f = h5::File::OpenReadWrite(path);
    h5::Group g = f.root().Open("fclib_global");
    ASSERT_GE(H5Ldelete(g.id(), "spacedim", H5P_DEFAULT), 0);
    g.WriteInts("spacedim", std::vector<std::int32_t>{2});
    f.Close();
  }
  ExpectError([&] { ReadFclib(path); }, {path, "/fclib_global/spacedim", "spacedim = 2"});
}

TEST_F(FclibIoTest, MissingVectorThrows) {
  const std::string path = Copy(kBoxStacks);
  {
    h5::File f = h5::File::OpenReadWrite(path);
    ASSERT_GE(H5Ldelete(f.root().id(), "fclib_global/vectors/w", H5P_DEFAULT), 0);
    f.Close();
  }
  ExpectError([&] { ReadFclib(path); }, {path, "/fclib_global/vectors/w: missing dataset"});
}

TEST_F(FclibIoTest, OversizedIndexArrayThrows) {
  const std::string path = Copy(kLocalTest);
  {
    h5::File f = h5::File::OpenReadWrite(path);
    h5::Group w = f.root().Open("fclib_local").Open("W");
    std::vector<std::int32_t> i = w.ReadInts("i");
    i.resize(i.size() + 10, 0);
    ASSERT_GE(H5Ldelete(w.id(), "i", H5P_DEFAULT), 0);
    w.WriteInts("i", i);
    f.Close();
  }
  ExpectError([&] { ReadFclib(path); }, {path, "/fclib_local/W", "nzmax"});
}

TEST_F(FclibIoTest, IndexOutOfRangeThrows) {
  const std::string path = Copy(kBoxStacks);
  {
    h5::File f = h5::File::OpenReadWrite(path);
    h5::Group h = f.root().Open("fclib_global").Open("H");
    std::vector<std::int32_t> i = h.ReadInts("i");
    i[0] = 450;
    ASSERT_GE(H5Ldelete(h.id(), "i", H5P_DEFAULT), 0);
    h.WriteInts("i", i);
    f.Close();
  }
  ExpectError([&] { ReadFclib(path); }, {path, "/fclib_global/H", "outside the 450×93 matrix"});
}

TEST_F(FclibIoTest, LoadProblemsDispatchesByContent) {
  const std::string dataset = Path("dataset.h5");
  WriteDataset(dataset, {ReadFclib(FclibSample(kBoxStacks)), ReadFclib(FclibSample(kLocalTest))});
  EXPECT_FALSE(IsFclibFile(dataset));
  EXPECT_EQ(LoadProblems(dataset).size(), 2u);
  EXPECT_EQ(LoadProblems(FclibSample(kCubeH8)).size(), 1u);

  const std::string plain = Path("plain.h5");
  h5::File::Create(plain).Close();
  ExpectError([&] { LoadProblems(plain); }, {plain, "neither an ncpbench dataset"});
  ExpectError([&] { ReadFclib(plain); }, {plain, "not an fclib file"});

  const std::string garbage = Path("garbage.hdf5");
  std::ofstream(garbage) << "garbage";
  ExpectError([&] { LoadProblems(garbage); }, {garbage, "not an HDF5 file"});
  EXPECT_FALSE(IsFclibFile(garbage));

  const std::string missing = Path("missing.hdf5");
  ExpectError([&] { LoadProblems(missing); }, {missing, "cannot open"});
  EXPECT_FALSE(IsFclibFile(missing));
}

}  // namespace
}  // namespace ncp
