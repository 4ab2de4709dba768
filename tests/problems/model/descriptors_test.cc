// Describe(): every descriptor on problems whose W is known in closed form, the rank of a
// manufactured problem against a dense reference W = J A⁻¹ Jᵀ, and the size cut-off.
#include "problems/model/descriptors.h"

#include <gtest/gtest.h>

#include <Eigen/Dense>
#include <cmath>

#include "tests/test_problems.h"

namespace ncp {
namespace {

SpMat Sparse(const Eigen::MatrixXd& d) { return d.sparseView(); }

// Two contacts on one 6-dof body with A = diag(m, m, m, I, I, I); `shared` puts both contacts
// on the same three translational dofs (W = [[B, B], [B, B]], rank 3 of 6).
ContactProblem TwoContacts(double mass, double inertia, bool shared) {
  ContactProblem p;
  AddConstraint(p.constraints, ConstraintType::kContact, 0.3);
  AddConstraint(p.constraints, ConstraintType::kContact, 0.5);
  Eigen::VectorXd diag(6);
  diag << mass, mass, mass, inertia, inertia, inertia;
  p.A = Sparse(Eigen::MatrixXd(diag.asDiagonal()));
  Eigen::MatrixXd j = Eigen::MatrixXd::Zero(6, 6);
  j.topLeftCorner(3, 3).setIdentity();
  if (shared)
    j.bottomLeftCorner(3, 3).setIdentity();
  else
    j.bottomRightCorner(3, 3).setIdentity();
  p.J = Sparse(j);
  p.b = Vec::Zero(6);
  p.e = Vec::Zero(6);
  return p;
}

TEST(Descriptors, GlobalFullRank) {
  // W = diag(1/2 ×3, 1/8 ×3): rank 6, condition 4; mass ratio of diag(A) = 8/2.
  const ProblemDescriptors d = Describe(TwoContacts(2.0, 8.0, false));
  EXPECT_EQ(d.contacts, 2);
  EXPECT_EQ(d.rows, 6);
  EXPECT_EQ(d.rank, 6);
  EXPECT_DOUBLE_EQ(d.rank_ratio, 1.0);
  EXPECT_NEAR(d.condition, 4.0, 1e-12);
  EXPECT_DOUBLE_EQ(d.mass_ratio, 4.0);
  EXPECT_DOUBLE_EQ(d.contact_density, 1.0);  // 3·2 / 6
  EXPECT_DOUBLE_EQ(d.mu_min, 0.3);
  EXPECT_DOUBLE_EQ(d.mu_max, 0.5);
  EXPECT_EQ(d.asymmetry, 0.0);
}

TEST(Descriptors, GlobalRankDeficientAndBodyMasses) {
  // W = [[B, B], [B, B]] with B = I/2: eigenvalues 1 (×3) and 0 (×3).
  ContactProblem p = TwoContacts(2.0, 8.0, true);
  ProblemDescriptors d = Describe(p);
  EXPECT_EQ(d.rank, 3);
  EXPECT_DOUBLE_EQ(d.rank_ratio, 0.5);
  EXPECT_NEAR(d.condition, 1.0, 1e-12);  // on the numerical range only
  // With a structure layer the mass ratio is over the body masses, not diag(A).
  p.structure.subsystems.push_back({0, 6, "rigid"});
  for (double m : {0.5, 50.0, 5.0}) {
    Structure::Body b;
    b.mass = m;
    p.structure.bodies.push_back(b);
  }
  d = Describe(p);
  EXPECT_DOUBLE_EQ(d.mass_ratio, 100.0);
}

TEST(Descriptors, GlobalRankMatchesDenseReference) {
  // A manufactured problem with every row type, against W formed densely.
  const ContactProblem p = MakeManufacturedProblem(testing::AcceptanceOptions(5), "m");
  const Eigen::MatrixXd a(p.A), j(p.J);
  const Eigen::MatrixXd w = j * a.llt().solve(j.transpose());
  Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> es(0.5 * (w + w.transpose()));
  const Eigen::VectorXd ev = es.eigenvalues();
  int rank = 0;
  for (int i = 0; i < ev.size(); ++i) rank += ev(i) > kRankRelTol * ev(ev.size() - 1);
  const ProblemDescriptors d = Describe(p);
  EXPECT_EQ(d.rows, static_cast<int>(w.rows()));
  EXPECT_EQ(d.rank, rank);
  EXPECT_GT(d.rank, 0);
  double smallest = ev(ev.size() - 1);
  for (int i = 0; i < ev.size(); ++i)
    if (ev(i) > kRankRelTol * ev(ev.size() - 1)) smallest = std::min(smallest, ev(i));
  EXPECT_NEAR(d.condition, ev(ev.size() - 1) / smallest, 1e-6 * d.condition);
  EXPECT_NEAR(d.contact_density, 3.0 * p.num_contacts() / p.num_dofs(), 1e-15);
}

TEST(Descriptors, LocalAsymmetryAndNoMassRatio) {
  ContactProblem p;
  p.form = ProblemForm::kLocal;
  AddConstraint(p.constraints, ConstraintType::kContact, 0.7);
  Eigen::MatrixXd w = Eigen::MatrixXd::Zero(3, 3);
  w.diagonal() << 4.0, 2.0, 1e-14;  // the last direction is below the rank tolerance
  w(0, 1) = 0.2;                    // W − Wᵀ has 0.2 at (0, 1): asymmetry 0.2 / 4
  p.W = Sparse(w);
  p.q = Vec::Constant(3, -1.0);
  const ProblemDescriptors d = Describe(p);
  EXPECT_NEAR(d.asymmetry, 0.05, 1e-15);
  EXPECT_EQ(d.rank, 2);
  EXPECT_NEAR(d.rank_ratio, 2.0 / 3.0, 1e-15);
  EXPECT_TRUE(std::isnan(d.mass_ratio));
  EXPECT_TRUE(std::isnan(d.contact_density));
  EXPECT_DOUBLE_EQ(d.mu_min, 0.7);
  // Eigenvalues of the symmetric part [[4, .1], [.1, 2]]: 3 ± sqrt(1.01).
  EXPECT_NEAR(d.condition, (3 + std::sqrt(1.01)) / (3 - std::sqrt(1.01)), 1e-12);
}

TEST(Descriptors, AboveTheSizeLimitRankIsNotComputed) {
  const ProblemDescriptors d = Describe(TwoContacts(2.0, 8.0, false), /*max_rows=*/5);
  EXPECT_EQ(d.rank, -1);
  EXPECT_TRUE(std::isnan(d.rank_ratio));
  EXPECT_TRUE(std::isnan(d.condition));
  EXPECT_DOUBLE_EQ(d.mass_ratio, 4.0);  // cheap descriptors are still there
  const ProblemDescriptors local = Describe(testing::OneContactLocalProblem(), 2);
  EXPECT_TRUE(std::isnan(local.rank_ratio));
  EXPECT_EQ(local.asymmetry, 0.0);
}

}  // namespace
}  // namespace ncp
