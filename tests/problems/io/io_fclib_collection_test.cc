// What the field's fclib files need: a W that is not exactly symmetric loads (asymmetry kept
// with the problem, warned about once per file), /solution becomes the reference and /guesses
// the initial guesses, export keeps a reference, and the local (Delassus) form of a global
// problem is the same problem.
#include <gtest/gtest.h>

#include <filesystem>
#include <Eigen/Eigenvalues>
#include <random>

#include "common/error.h"
#include "harness/metrics/evaluator.h"
#include "problems/io/fclib_io.h"
#include "problems/io/h5_util.h"
#include "problems/model/fold_soft.h"
#include "problems/model/local_form.h"
#include "problems/model/validate.h"
#include "tests/bitwise.h"
#include "tests/fclib_samples.h"
#include "tests/temp_dir_test_base.h"
#include "tests/test_problems.h"

namespace ncp {
namespace {

namespace fs = std::filesystem;

using testing::FclibSample;

// Rover4493 as published: W dense 12×12 with max|W − Wᵀ|/max|W| = 3.3e-5 (README of the
// samples); it must load, validate, and carry that figure.
TEST(FclibCollection, NonSymmetricWLoadsWithItsAsymmetry) {
  const ContactProblem p = ReadFclib(FclibSample("Rover4493.hdf5"));
  EXPECT_EQ(Validate(p), "");
  ASSERT_TRUE(p.meta.params.count("asymmetry"));
  EXPECT_NEAR(p.meta.params.at("asymmetry"), 3.3e-5, 0.1e-5);
  EXPECT_NEAR(Asymmetry(p.W), p.meta.params.at("asymmetry"), 1e-18);
  // A double-precision export is symmetric to rounding (LMGC90's: 1.6e-16).
  const ContactProblem lmgc = ReadFclib(FclibSample("LMGC_100_PR_PerioBox-i00361-60-03000.hdf5"));
  EXPECT_LT(lmgc.meta.params.count("asymmetry") ? lmgc.meta.params.at("asymmetry") : 0.0, 1e-14);
}

TEST(FclibCollection, PerturbedWValidatesButNaNIsRefusedInOneLine) {
  ContactProblem p = ReadFclib(FclibSample("LMGC_100_PR_PerioBox-i00361-60-03000.hdf5"));
  std::mt19937 rng(3);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  const double scale = p.W.coeffs().cwiseAbs().maxCoeff();
  for (double eps : {1e-8, 1e-6, 1e-4, 1e-2}) {
    ContactProblem q = p;
    for (int k = 0; k < q.W.outerSize(); ++k)
      for (SpMat::InnerIterator it(q.W, k); it; ++it) it.valueRef() += eps * scale * u(rng);
    EXPECT_EQ(Validate(q), "") << eps;
    EXPECT_GT(Asymmetry(q.W), 0.1 * eps) << eps;
    EXPECT_LT(Asymmetry(q.W), 2.0 * eps) << eps;
  }
  p.W.coeffs()[5] = std::nan("");
  const std::string err = Validate(p);
  EXPECT_NE(err.find("W("), std::string::npos) << err;
  EXPECT_NE(err.find("must be finite"), std::string::npos) << err;
  EXPECT_EQ(err.find('\n'), std::string::npos) << err;
  ContactProblem neg = ReadFclib(FclibSample("Rover4493.hdf5"));
  neg.constraints[1].mu = -0.1;
  EXPECT_NE(Validate(neg).find("constraint[1].mu = -0.1"), std::string::npos) << Validate(neg);
}

// local_problem_test ships r = 0 in /solution (no reference) and one guess with forces.
TEST(FclibCollection, ZeroSolutionIsNoReferenceAndGuessesLoad) {
  const ContactProblem p = ReadFclib(FclibSample("local_problem_test.hdf5"));
  EXPECT_FALSE(p.reference.has_value());
  ASSERT_EQ(p.guesses.size(), 1u);
  EXPECT_EQ(p.guesses[0].lambda.size(), 144);
  EXPECT_EQ(p.guesses[0].v.size(), 0);
  h5::File f = h5::File::OpenReadOnly(FclibSample("local_problem_test.hdf5"));
  const std::vector<double> r = f.root().Open("guesses").Open("1").ReadDoubles("r");
  for (int k = 0; k < 144; ++k) EXPECT_EQ(p.guesses[0].lambda[k], r[k]) << k;
  // Box_Stacks: a global file whose solution and guess are all zeros.
  const ContactProblem g = ReadFclib(FclibSample("Box_Stacks-i0035-31-0.hdf5"));
  EXPECT_FALSE(g.reference.has_value());
  ASSERT_EQ(g.guesses.size(), 1u);
  EXPECT_EQ(g.guesses[0].v.size(), 450);
}

class FclibSolutionTest : public testing::TempDirTest {
 protected:
  FclibSolutionTest() : TempDirTest("ncpbench_fclib_solution") {}
};

// The manufactured problem's exact solution survives export and re-import as the reference
// (soft rows folded: λ on the kept rows, the same v).
TEST_F(FclibSolutionTest, GlobalExportKeepsTheReference) {
  ManufacturedOptions o = testing::AcceptanceOptions(5);
  o.num_contacts = 12, o.num_bodies = 14;
  const ContactProblem p = MakeManufacturedProblem(o, "m");
  ASSERT_TRUE(p.reference.has_value());
  const std::string path = Path("m.hdf5");
  WriteFclibGlobal(path, p);
  const ContactProblem back = ReadFclib(path);
  const FoldedProblem folded = FoldSoftRows(p);
  ASSERT_TRUE(back.reference.has_value());
  EXPECT_EQ(back.reference->solver, "fclib /solution");
  testing::ExpectSameVec(back.reference->lambda, folded.problem.reference->lambda, "lambda");
  testing::ExpectSameVec(back.reference->v, p.reference->v, "v");
  EXPECT_EQ(Validate(back), "");
}

// An exported M that is not symmetric beyond rounding: its symmetric part is the problem, and
// the asymmetry (here 1e-6 of max|M|) is recorded.
TEST_F(FclibSolutionTest, NonSymmetricMIsSymmetrizedAndRecorded) {
  ManufacturedOptions o = testing::AcceptanceOptions(8);
  o.num_contacts = 6, o.num_bodies = 8, o.num_bilateral = 0, o.num_soft = 0;  // A as written
  ContactProblem p = MakeManufacturedProblem(o, "m");
  p.reference.reset();
  const double scale = p.A.coeffs().cwiseAbs().maxCoeff();
  p.A.coeffRef(1, 0) += 1e-6 * scale;
  const std::string path = Path("m.hdf5");
  WriteFclibGlobal(path, p);
  const ContactProblem back = ReadFclib(path);
  ASSERT_TRUE(back.meta.params.count("asymmetry_M"));
  EXPECT_NEAR(back.meta.params.at("asymmetry_M"), 1e-6, 1e-9);
  EXPECT_EQ(Asymmetry(back.A), 0.0);
  EXPECT_EQ(Validate(back), "");
}

// The local form of a problem with contacts, unilateral and soft rows is the same problem: the
// exact solution's λ solves it (natmap_rel at rounding level), and W = J A⁻¹ Jᵀ.
TEST_F(FclibSolutionTest, LocalFormIsTheSameProblemAndRoundTrips) {
  ManufacturedOptions o = testing::AcceptanceOptions(6);
  o.num_bilateral = 0;
  o.num_contacts = 15, o.num_bodies = 16;
  const ContactProblem p = MakeManufacturedProblem(o, "m");
  const ContactProblem local = MakeLocalForm(p);
  EXPECT_EQ(Validate(local), "");
  EXPECT_EQ(local.num_contacts(), o.num_contacts + o.num_unilateral);
  ASSERT_TRUE(local.reference.has_value());
  const Evaluator ev_local(local), ev_global(p);
  const Metrics m = ev_local.Evaluate(Vec(), local.reference->lambda);
  EXPECT_LT(m[Metric::kNatmapRel], 1e-10);
  EXPECT_NEAR(m[Metric::kNatmapRel],
              ev_global.Evaluate(p.reference->v, p.reference->lambda)[Metric::kNatmapRel], 1e-10);
  EXPECT_EQ(Asymmetry(local.W), 0.0);
  const std::string path = Path("local.hdf5");
  WriteFclibLocal(path, local);
  const ContactProblem back = ReadFclib(path);
  testing::ExpectSameSparse(back.W, local.W, "W");
  testing::ExpectSameVec(back.q, local.q, "q");
  ASSERT_TRUE(back.reference.has_value());
  testing::ExpectSameVec(back.reference->lambda, local.reference->lambda, "ref");
  // Bilateral rows have no local fclib form.
  EXPECT_THROW(MakeLocalForm(MakeManufacturedProblem(testing::AcceptanceOptions(6), "b")), Error);
}

// More contact rows than dofs (rows_per_body = 12: up to 4 contacts on a 6-dof body, mass
// ratio 1e4): W is rank-deficient, and the manufactured (v*, λ*) still solves the local form.
TEST(FclibCollection, RankDeficientManufacturedLocalForm) {
  ManufacturedOptions o;
  o.seed = 4, o.num_bodies = 12, o.num_contacts = 40, o.rows_per_body = 12;
  o.num_unilateral = o.num_bilateral = o.num_soft = 0;
  o.mass_ratio = 1e4;
  const ContactProblem local = MakeLocalForm(MakeManufacturedProblem(o, "rd"));
  ASSERT_EQ(local.num_rows(), 120);
  const Eigen::MatrixXd W(local.W);
  Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> eig(W);
  const double top = eig.eigenvalues().maxCoeff();
  int rank = 0;
  for (double l : eig.eigenvalues()) rank += l > 1e-12 * top;
  EXPECT_LE(rank, 72);
  const Evaluator ev(local);
  EXPECT_LT(ev.Evaluate(Vec(), local.reference->lambda)[Metric::kNatmapRel], 1e-10);
  o.rows_per_body = 2;
  EXPECT_NE(OptionsError(o).find("rows_per_body = 2"), std::string::npos) << OptionsError(o);
}

}  // namespace
}  // namespace ncp
