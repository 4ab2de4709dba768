// The ncpbench dataset file: bitwise round trip of every field, atomic writes, and one-line errors
// for missing, truncated, garbage and schema-broken files.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include "tests/bitwise.h"
#include "tests/expect_error.h"
#include "tests/temp_dir_test_base.h"
#include <unistd.h>

#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>

#include "common/error.h"
#include "problems/io/dataset_hdf5.h"
#include "problems/io/h5_util.h"

namespace ncp {
namespace {

namespace fs = std::filesystem;
using Triplet = Eigen::Triplet<double, int>;
using testing::ExpectSameSparse;
using testing::ExpectSameVec;
using testing::SameBits;

SpMat Sparse(int rows, int cols, const std::vector<Triplet>& t) {
  SpMat m(rows, cols);
  m.setFromTriplets(t.begin(), t.end());
  return m;
}

Eigen::MatrixXd Filled(int rows, int cols, double start) {
  Eigen::MatrixXd m(rows, cols);
  for (int r = 0; r < rows; ++r) {
    for (int c = 0; c < cols; ++c) m(r, c) = start + 0.1 * r - 0.01 * c;
  }
  return m;
}

// Every constraint type, a reference, a structure layer, params, and values that only a bitwise
// copy preserves (NaN, -0.0, a subnormal).
ContactProblem MakeGlobalProblem(const std::string& name) {
  ContactProblem p;
  p.form = ProblemForm::kGlobal;
  const int n = 6;
  std::vector<Triplet> a;
  for (int i = 0; i < n; ++i) a.emplace_back(i, i, 2.0 + i);
  a.emplace_back(0, 1, 0.25);
  a.emplace_back(1, 0, 0.25);
  a.emplace_back(4, 5, 0.0);  // explicit zeros must survive
  a.emplace_back(5, 4, 0.0);
  p.A = Sparse(n, n, a);
  p.b.resize(n);
  p.b << 1.0, -0.0, std::numeric_limits<double>::denorm_min(), -9.81, 1e300, 0.1;

  AddConstraint(p.constraints, ConstraintType::kContact, 0.5);
  AddConstraint(p.constraints, ConstraintType::kUnilateral);
  AddConstraint(p.constraints, ConstraintType::kBilateral);
  AddConstraint(p.constraints, ConstraintType::kSoft, 0.0, 1e4, 12.5);
  const int m = 6;
  p.J = Sparse(m, n,
               {{0, 0, 1.0},
                {1, 1, 1.0},
                {2, 2, -1.0},
                {3, 3, 0.5},
                {4, 0, 1.0},
                {4, 5, -1.0},
                {5, 4, 2.0},
                {0, 3, 1e-17}});
  p.e.resize(m);
  p.e << -0.01, 0.2, std::numeric_limits<double>::quiet_NaN(), 0.0, -1e-9, 3.0;

  Reference ref;
  ref.v = Vec::LinSpaced(n, -1.0, 1.0);
  ref.lambda = Vec::LinSpaced(m, 0.0, 5.0);
  ref.solver = "manufactured";
  ref.res004 = 1.5e-13;
  p.reference = ref;
  // More than ten guesses: their order is not the names' order as strings ("10" < "2").
  for (int k = 0; k < 11; ++k)
    p.guesses.push_back({k % 2 ? Vec() : Vec::Constant(n, 0.5 * k), Vec::Constant(m, -1.0 * k)});

  p.structure.subsystems = {{0, 3, "rigid"}, {3, 3, "articulated"}};
  Structure::Body b0;
  b0.subsystem = 0;
  b0.parent = -1;
  b0.mass = 1.25;
  b0.inertia << 0.1, 0.01, 0.0, 0.01, 0.2, 0.0, 0.0, 0.0, 0.3;
  b0.com << 0.0, 0.5, -0.25;
  b0.jacobian = Filled(6, 3, 1.0);
  Structure::Body b1 = b0;
  b1.subsystem = 1;
  b1.parent = 0;
  b1.mass = 2.5;
  b1.jacobian = Filled(6, 3, -2.0);
  p.structure.bodies = {b0, b1};
  p.structure.blocks = {
      {0, 0, Filled(3, 6, 0.5)}, {1, 1, Filled(1, 6, 0.7)}, {3, 1, Filled(1, 6, -0.3)}};

  p.meta.name = name;
  p.meta.scenario = "unit";
  p.meta.case_name = "case A, ünïcode";
  p.meta.step = 7;
  p.meta.dt = 1e-3;
  p.meta.seed = std::numeric_limits<std::uint64_t>::max();
  p.meta.generator_version = 3;
  p.meta.params = {{"mu", 0.5}, {"mass", 1.25}, {"gravity", -9.81}};
  return p;
}

ContactProblem MakeLocalProblem(const std::string& name) {
  ContactProblem p;
  p.form = ProblemForm::kLocal;
  std::vector<Triplet> w;
  for (int i = 0; i < 6; ++i) w.emplace_back(i, i, 1.0 + i);
  w.emplace_back(0, 3, 0.1);
  w.emplace_back(3, 0, 0.1);
  p.W = Sparse(6, 6, w);
  p.q = Vec::LinSpaced(6, -0.5, 0.5);
  AddConstraint(p.constraints, ConstraintType::kContact, 0.3);
  AddConstraint(p.constraints, ConstraintType::kContact, 0.7);
  p.guesses = {{Vec(), Vec::Constant(6, 0.25)}};  // fclib's local guesses: λ alone
  p.meta.name = name;
  p.meta.scenario = "fclib";
  return p;
}

void ExpectSameMat(const Eigen::MatrixXd& a, const Eigen::MatrixXd& b, const std::string& what) {
  SCOPED_TRACE(what);
  ASSERT_EQ(a.rows(), b.rows());
  ASSERT_EQ(a.cols(), b.cols());
  EXPECT_TRUE(SameBits(a.data(), b.data(), a.size()));
}

void ExpectSameProblem(const ContactProblem& a, const ContactProblem& b) {
  SCOPED_TRACE(a.meta.name);
  EXPECT_EQ(a.form, b.form);
  ExpectSameSparse(a.A, b.A, "A");
  ExpectSameVec(a.b, b.b, "b");
  ExpectSameSparse(a.J, b.J, "J");
  ExpectSameVec(a.e, b.e, "e");
  ExpectSameSparse(a.W, b.W, "W");
  ExpectSameVec(a.q, b.q, "q");
  ASSERT_EQ(a.constraints.size(), b.constraints.size());
  for (std::size_t i = 0; i < a.constraints.size(); ++i) {
    const Constraint &x = a.constraints[i], &y = b.constraints[i];
    EXPECT_EQ(x.type, y.type) << i;
    EXPECT_EQ(x.row, y.row) << i;
    EXPECT_TRUE(SameBits(&x.mu, &y.mu, 1)) << i;
    EXPECT_TRUE(SameBits(&x.stiffness, &y.stiffness, 1)) << i;
    EXPECT_TRUE(SameBits(&x.damping, &y.damping, 1)) << i;
  }
  ASSERT_EQ(a.reference.has_value(), b.reference.has_value());
  if (a.reference) {
    ExpectSameVec(a.reference->v, b.reference->v, "reference.v");
    ExpectSameVec(a.reference->lambda, b.reference->lambda, "reference.lambda");
    EXPECT_EQ(a.reference->solver, b.reference->solver);
    EXPECT_TRUE(SameBits(&a.reference->res004, &b.reference->res004, 1));
  }
  ASSERT_EQ(a.guesses.size(), b.guesses.size());
  for (std::size_t k = 0; k < a.guesses.size(); ++k) {
    ExpectSameVec(a.guesses[k].v, b.guesses[k].v, "guess v");
    ExpectSameVec(a.guesses[k].lambda, b.guesses[k].lambda, "guess lambda");
  }
  const Structure &s = a.structure, &t = b.structure;
  ASSERT_EQ(s.subsystems.size(), t.subsystems.size());
  for (std::size_t i = 0; i < s.subsystems.size(); ++i) {
    EXPECT_EQ(s.subsystems[i].dof_begin, t.subsystems[i].dof_begin);
    EXPECT_EQ(s.subsystems[i].dof_count, t.subsystems[i].dof_count);
    EXPECT_EQ(s.subsystems[i].kind, t.subsystems[i].kind);
  }
  ASSERT_EQ(s.bodies.size(), t.bodies.size());
  for (std::size_t i = 0; i < s.bodies.size(); ++i) {
    EXPECT_EQ(s.bodies[i].subsystem, t.bodies[i].subsystem);
    EXPECT_EQ(s.bodies[i].parent, t.bodies[i].parent);
    EXPECT_TRUE(SameBits(&s.bodies[i].mass, &t.bodies[i].mass, 1));
    ExpectSameMat(s.bodies[i].inertia, t.bodies[i].inertia, "inertia");
    ExpectSameMat(s.bodies[i].com, t.bodies[i].com, "com");
    ExpectSameMat(s.bodies[i].jacobian, t.bodies[i].jacobian, "body jacobian");
  }
  ASSERT_EQ(s.blocks.size(), t.blocks.size());
  for (std::size_t i = 0; i < s.blocks.size(); ++i) {
    EXPECT_EQ(s.blocks[i].constraint, t.blocks[i].constraint);
    EXPECT_EQ(s.blocks[i].body, t.blocks[i].body);
    ExpectSameMat(s.blocks[i].jacobian, t.blocks[i].jacobian, "block jacobian");
  }
  EXPECT_EQ(a.meta.name, b.meta.name);
  EXPECT_EQ(a.meta.scenario, b.meta.scenario);
  EXPECT_EQ(a.meta.case_name, b.meta.case_name);
  EXPECT_EQ(a.meta.step, b.meta.step);
  EXPECT_TRUE(SameBits(&a.meta.dt, &b.meta.dt, 1));
  EXPECT_EQ(a.meta.seed, b.meta.seed);
  EXPECT_EQ(a.meta.generator_version, b.meta.generator_version);
  EXPECT_EQ(a.meta.params, b.meta.params);
}

// Expects ReadDataset(path) to throw an ncp::Error whose message names the file and contains
// `fragment`, on a single line.
void ExpectReadError(const std::string& path, const std::string& fragment) {
  SCOPED_TRACE(path);
  testing::ExpectError([&] { ReadDataset(path); }, {path, fragment});
}

class DatasetIoTest : public testing::TempDirTest {
 protected:
  DatasetIoTest() : TempDirTest("ncpbench_io_dataset") {}

  // Writes one global and one local problem to `name` and returns the path.
  std::string WriteSample(const std::string& name) const {
    const std::string path = Path(name);
    WriteDataset(path, {MakeGlobalProblem("p0"), MakeLocalProblem("p1")});
    return path;
  }
};

TEST_F(DatasetIoTest, RoundTripIsBitwiseExact) {
  const std::string path = Path("round_trip.h5");
  const std::vector<ContactProblem> problems = {MakeGlobalProblem("global"),
                                                MakeLocalProblem("local")};
  const std::map<std::string, std::string> attrs = {{"generator", "unit test"},
                                                    {"git_revision", "abc123"}};
  WriteDataset(path, problems, attrs);
  const std::vector<ContactProblem> back = ReadDataset(path);
  ASSERT_EQ(back.size(), problems.size());
  for (std::size_t i = 0; i < problems.size(); ++i) ExpectSameProblem(problems[i], back[i]);
  EXPECT_EQ(ReadDatasetAttrs(path), attrs);
  EXPECT_TRUE(IsNcpbenchDataset(path));
}

TEST_F(DatasetIoTest, KeepsWriteOrder) {
  const std::string path = Path("order.h5");
  WriteDataset(path, {MakeLocalProblem("zeta"), MakeLocalProblem("alpha"), MakeGlobalProblem("mid"),
                      MakeLocalProblem("beta")});
  const std::vector<ContactProblem> back = ReadDataset(path);
  ASSERT_EQ(back.size(), 4u);
  EXPECT_EQ(back[0].meta.name, "zeta");
  EXPECT_EQ(back[1].meta.name, "alpha");
  EXPECT_EQ(back[2].meta.name, "mid");
  EXPECT_EQ(back[3].meta.name, "beta");
}

TEST_F(DatasetIoTest, EmptyDatasetRoundTrips) {
  const std::string path = Path("empty.h5");
  WriteDataset(path, {});
  EXPECT_TRUE(ReadDataset(path).empty());
  EXPECT_TRUE(ReadDatasetAttrs(path).empty());
}

TEST_F(DatasetIoTest, LargeArraysRoundTripThroughCompression) {
  ContactProblem p = MakeGlobalProblem("large");
  const int n = 20000;
  std::vector<Triplet> t;
  for (int i = 0; i < n; ++i) t.emplace_back(i, i, 1.0 + 1e-3 * i);
  p.A = Sparse(n, n, t);
  p.b = Vec::LinSpaced(n, -1.0, 1.0);
  const std::string path = Path("large.h5");
  WriteDataset(path, {p});
  ExpectSameProblem(p, ReadDataset(path).at(0));
}

TEST_F(DatasetIoTest, AtomicWriteLeavesNoTmp) {
  const std::string path = Path("atomic.h5");
  WriteDataset(path, {MakeGlobalProblem("first")});
  EXPECT_FALSE(fs::exists(path + ".tmp"));
  WriteDataset(path, {MakeLocalProblem("second")});  // replaces the existing file
  EXPECT_FALSE(fs::exists(path + ".tmp"));
  const std::vector<ContactProblem> back = ReadDataset(path);
  ASSERT_EQ(back.size(), 1u);
  EXPECT_EQ(back[0].meta.name, "second");
}

TEST_F(DatasetIoTest, FailedWriteKeepsExistingFileAndRemovesTmp) {
  const std::string path = Path("keep.h5");
  WriteDataset(path, {MakeGlobalProblem("original")});

  EXPECT_THROW(WriteDataset(path, {MakeLocalProblem("x"), MakeLocalProblem("x")}), Error);
  // This one fails halfway through, after the temporary file was created.
  ContactProblem bad = MakeLocalProblem("bad");
  bad.meta.params[""] = 1.0;
  try {
    WriteDataset(path, {MakeLocalProblem("ok"), bad});
    ADD_FAILURE() << "no error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("/problems/bad/params"), std::string::npos) << e.what();
  }
  EXPECT_FALSE(fs::exists(path + ".tmp"));
  const std::vector<ContactProblem> back = ReadDataset(path);
  ASSERT_EQ(back.size(), 1u);
  EXPECT_EQ(back[0].meta.name, "original");
}

TEST_F(DatasetIoTest, RejectsUnusableNamesAndReservedAttrs) {
  const std::string path = Path("names.h5");
  EXPECT_THROW(WriteDataset(path, {MakeLocalProblem("")}), Error);
  EXPECT_THROW(WriteDataset(path, {MakeLocalProblem("a/b")}), Error);
  EXPECT_THROW(WriteDataset(path, {MakeLocalProblem("a")}, {{"format", "x"}}), Error);
  EXPECT_FALSE(fs::exists(path));
  EXPECT_FALSE(fs::exists(path + ".tmp"));
}

TEST_F(DatasetIoTest, MissingFileThrowsWithPath) {
  const std::string path = Path("does_not_exist.h5");
  ExpectReadError(path, "cannot open");
  EXPECT_FALSE(IsNcpbenchDataset(path));
}

TEST_F(DatasetIoTest, TruncatedFileThrowsWithPath) {
  const std::string good = WriteSample("good.h5");
  const std::string path = Path("truncated.h5");
  fs::copy_file(good, path);
  fs::resize_file(path, fs::file_size(path) / 2);
  ExpectReadError(path, "truncated or corrupt");
  EXPECT_FALSE(IsNcpbenchDataset(path));
}

TEST_F(DatasetIoTest, GarbageFileThrowsWithPath) {
  const std::string path = Path("garbage.h5");
  std::ofstream(path) << "this is not an HDF5 file, just some text\n";
  ExpectReadError(path, "not an HDF5 file");
  EXPECT_FALSE(IsNcpbenchDataset(path));
}

TEST_F(DatasetIoTest, HdfFileWithoutFormatIsNotADataset) {
  const std::string path = Path("plain.h5");
  h5::File::Create(path).Close();
  ExpectReadError(path, "not an ncpbench dataset");
  EXPECT_FALSE(IsNcpbenchDataset(path));
}

TEST_F(DatasetIoTest, UnsupportedSchemaVersionThrows) {
  const std::string path = WriteSample("future.h5");
  {
    h5::File f = h5::File::OpenReadWrite(path);
    f.root().SetInt("schema_version", 2);
    f.Close();
  }
  ExpectReadError(path, "unsupported schema_version 2");
}

// Integer attributes are read in the sign they were stored with (h5py writes int64): HDF5's
// conversion clamped a seed of -1 to 0 and a cast cut a step of 2^40 to 0.
TEST_F(DatasetIoTest, IntegerAttributesOutOfTheirRangeThrow) {
  const auto with = [&](const std::string& name, auto set) {
    const std::string path = WriteSample(name + ".h5");
    h5::File f = h5::File::OpenReadWrite(path);
    set(f.root().Open("problems").Open("p0"));
    f.Close();
    return path;
  };
  ExpectReadError(with("seed", [](const h5::Group& g) { g.SetInt("seed", -1); }),
                  "/problems/p0: attribute 'seed' = -1: must be >= 0");
  ExpectReadError(with("step", [](const h5::Group& g) { g.SetInt("step", 1LL << 40); }),
                  "attribute 'step' = 1099511627776: must be in [-2^31, 2^31 - 1]");
  ExpectReadError(with("form", [](const h5::Group& g) { g.SetUInt64("form", ~0ULL); }),
                  "attribute 'form' = 18446744073709551615: must be at most 2^63 - 1");
  // In range, either sign reads as the value.
  const std::vector<ContactProblem> back = ReadDataset(with("signed", [](const h5::Group& g) {
    g.SetInt("seed", 7);
    g.SetUInt64("step", 3);
  }));
  EXPECT_EQ(back.at(0).meta.seed, 7u);
  EXPECT_EQ(back.at(0).meta.step, 3);
}

TEST_F(DatasetIoTest, MissingDatasetThrowsWithObjectPath) {
  const std::string path = WriteSample("missing_b.h5");
  {
    h5::File f = h5::File::OpenReadWrite(path);
    ASSERT_GE(H5Ldelete(f.root().id(), "problems/p0/b", H5P_DEFAULT), 0);
    f.Close();
  }
  ExpectReadError(path, "/problems/p0/b: missing dataset");
}

TEST_F(DatasetIoTest, WrongDtypeThrows) {
  const std::string path = WriteSample("dtype.h5");
  {
    h5::File f = h5::File::OpenReadWrite(path);
    h5::Group g = f.root().Open("problems").Open("p0");
    ASSERT_GE(H5Ldelete(g.id(), "constraint_row", H5P_DEFAULT), 0);
    g.WriteDoubles("constraint_row", std::vector<double>{0, 3, 4, 5});
    f.Close();
  }
  ExpectReadError(path, "/problems/p0/constraint_row: wrong dtype: expected integer, got float");
}

TEST_F(DatasetIoTest, WrongDimsThrows) {
  const std::string path = WriteSample("dims.h5");
  {
    h5::File f = h5::File::OpenReadWrite(path);
    h5::Group g = f.root().Open("problems").Open("p0");
    ASSERT_GE(H5Ldelete(g.id(), "e", H5P_DEFAULT), 0);
    g.WriteDoubles2D("e", std::vector<double>(6, 0.0), 2, 3);
    f.Close();
  }
  ExpectReadError(path, "/problems/p0/e: wrong dims: expected 1-D, got 2-D");
}

TEST_F(DatasetIoTest, NonMonotoneColptrThrows) {
  const std::string path = WriteSample("colptr.h5");
  {
    h5::File f = h5::File::OpenReadWrite(path);
    h5::Group j = f.root().Open("problems").Open("p0").Open("J");
    std::vector<std::int32_t> colptr = j.ReadInts("colptr");
    std::swap(colptr[2], colptr[3]);
    ASSERT_GE(H5Ldelete(j.id(), "colptr", H5P_DEFAULT), 0);
    j.WriteInts("colptr", colptr);
    f.Close();
  }
  ExpectReadError(path, "/problems/p0/J/colptr: not monotone");
}

TEST_F(DatasetIoTest, RowIndexOutOfRangeThrows) {
  const std::string path = WriteSample("rowind.h5");
  {
    h5::File f = h5::File::OpenReadWrite(path);
    h5::Group a = f.root().Open("problems").Open("p0").Open("A");
    std::vector<std::int32_t> rowind = a.ReadInts("rowind");
    rowind.back() = 6;
    ASSERT_GE(H5Ldelete(a.id(), "rowind", H5P_DEFAULT), 0);
    a.WriteInts("rowind", rowind);
    f.Close();
  }
  ExpectReadError(path, "/problems/p0/A/rowind: row index 6 out of range [0, 6)");
}

TEST_F(DatasetIoTest, CscSizeMismatchThrows) {
  const std::string path = WriteSample("values.h5");
  {
    h5::File f = h5::File::OpenReadWrite(path);
    h5::Group w = f.root().Open("problems").Open("p1").Open("W");
    std::vector<double> values = w.ReadDoubles("values");
    values.pop_back();
    ASSERT_GE(H5Ldelete(w.id(), "values", H5P_DEFAULT), 0);
    w.WriteDoubles("values", values);
    f.Close();
  }
  ExpectReadError(path, "/problems/p1/W/values: wrong size");
}

TEST_F(DatasetIoTest, UnequalConstraintArraysThrow) {
  const std::string path = WriteSample("constraints.h5");
  {
    h5::File f = h5::File::OpenReadWrite(path);
    h5::Group g = f.root().Open("problems").Open("p0");
    ASSERT_GE(H5Ldelete(g.id(), "mu", H5P_DEFAULT), 0);
    g.WriteDoubles("mu", std::vector<double>{0.5, 0.0});
    f.Close();
  }
  ExpectReadError(path, "/problems/p0: constraint arrays of unequal length");
}

TEST_F(DatasetIoTest, UnknownConstraintTypeThrows) {
  const std::string path = WriteSample("ctype.h5");
  {
    h5::File f = h5::File::OpenReadWrite(path);
    h5::Group g = f.root().Open("problems").Open("p0");
    ASSERT_GE(H5Ldelete(g.id(), "constraint_type", H5P_DEFAULT), 0);
    g.WriteBytes("constraint_type", std::vector<std::uint8_t>{0, 1, 9, 3});
    f.Close();
  }
  ExpectReadError(path, "value 9 at index 2 is not a constraint type");
}

// Sizes are Validate()'s business: a wrong-length b must load so that it can be rejected there
// with a precise message.
TEST_F(DatasetIoTest, WrongLengthBStillLoads) {
  ContactProblem p = MakeGlobalProblem("short_b");
  p.b.conservativeResize(4);
  const std::string path = Path("short_b.h5");
  WriteDataset(path, {p});
  const std::vector<ContactProblem> back = ReadDataset(path);
  ASSERT_EQ(back.size(), 1u);
  EXPECT_EQ(back[0].b.size(), 4);
  EXPECT_EQ(back[0].A.rows(), 6);
}

TEST_F(DatasetIoTest, FclibFileIsNotADataset) {
  const std::string fclib = std::string(NCP_FCLIB_DIR) + "/Box_Stacks-i0035-31-0.hdf5";
  EXPECT_FALSE(IsNcpbenchDataset(fclib));
  ExpectReadError(fclib, "not an ncpbench dataset");
}

}  // namespace
}  // namespace ncp
