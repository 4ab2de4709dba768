// Co-rotational FEM: the tangent stiffness against finite differences of the elastic forces, rigid
// motions, lumped mass, and a slender cantilever's static tip deflection under its own weight
// against Euler–Bernoulli (w = q L⁴ / (8 E I)).
#include <gtest/gtest.h>

#include <Eigen/SparseCholesky>
#include <Eigen/SparseLU>
#include <cstdio>
#include <random>

#include "problems/physics/dynamics/spatial.h"
#include "problems/physics/fem/corotational_fem.h"

namespace ncp::physics {
namespace {

using Triplet = Eigen::Triplet<double>;

Vec Flatten(const std::vector<Vec3>& nodes) {
  Vec x(3 * nodes.size());
  for (std::size_t i = 0; i < nodes.size(); ++i) x.segment<3>(3 * i) = nodes[i];
  return x;
}

Vec Forces(CorotationalFem& fem, const Vec& x) {
  Vec f = Vec::Zero(x.size());
  fem.UpdateRotations(x);
  fem.AddForces(x, f);
  return f;
}

// −∂f/∂x by central differences.
Eigen::MatrixXd FiniteDifferenceStiffness(CorotationalFem& fem, const Vec& x, double eps) {
  Eigen::MatrixXd K(x.size(), x.size());
  for (Eigen::Index j = 0; j < x.size(); ++j) {
    Vec xp = x, xm = x;
    xp[j] += eps;
    xm[j] -= eps;
    K.col(j) = -(Forces(fem, xp) - Forces(fem, xm)) / (2 * eps);
  }
  return K;
}

// R K_e Rᵀ (+ G when `geometric`) assembled densely at x.
Eigen::MatrixXd Tangent(CorotationalFem& fem, const TetMesh& mesh, const Vec& x, bool geometric) {
  fem.UpdateRotations(x);
  std::vector<Triplet> t;
  fem.AddStiffness(1.0, 0, t);
  SpMat K(x.size(), x.size());
  K.setFromTriplets(t.begin(), t.end());
  Eigen::MatrixXd Kd(K);
  if (geometric)
    for (int e = 0; e < fem.num_tets(); ++e) {
      const Mat12 G = fem.GeometricStiffness(e, x);
      for (int a = 0; a < 4; ++a)
        for (int b = 0; b < 4; ++b)
          Kd.block<3, 3>(3 * mesh.tets[e][a], 3 * mesh.tets[e][b]) += G.block<3, 3>(3 * a, 3 * b);
    }
  return Kd;
}

const FemMaterial kRubber{1e5, 0.3, 1000};

TEST(CorotationalFem, TangentEqualsFiniteDifferencesOfTheForces) {
  const TetMesh mesh = BoxTetMesh(Vec3::Zero(), Vec3(0.2, 0.1, 0.1), {2, 2, 2});
  CorotationalFem fem(mesh, kRubber);
  std::mt19937_64 rng(3);
  std::uniform_real_distribution<double> u(-1, 1);
  const Mat3 R0 = ExpSO3(Vec3(0.4, -0.7, 1.1));
  Vec x = Flatten(mesh.nodes);
  for (Eigen::Index i = 0; i < x.size() / 3; ++i)
    x.segment<3>(3 * i) = R0 * x.segment<3>(3 * i) + Vec3(0.3, -0.1, 0.2) +
                          0.01 * Vec3(u(rng), u(rng), u(rng));  // 20% of a cell
  const Eigen::MatrixXd fd = FiniteDifferenceStiffness(fem, x, 1e-6);
  const Eigen::MatrixXd K = Tangent(fem, mesh, x, true);
  const double rel = (K - fd).norm() / fd.norm();
  const double rel_linear = (Tangent(fem, mesh, x, false) - fd).norm() / fd.norm();
  std::printf("deformed: |R K Rt + G - FD| / |FD| = %.2e (without G: %.2e)\n", rel, rel_linear);
  EXPECT_LT(rel, 1e-6);
  EXPECT_GT(rel_linear, 1e-4);  // the geometric part is really there

  // At a rotated, translated rest shape G vanishes and R K Rᵀ alone is the tangent.
  Vec xr = Flatten(mesh.nodes);
  for (Eigen::Index i = 0; i < xr.size() / 3; ++i) xr.segment<3>(3 * i) = R0 * xr.segment<3>(3 * i);
  const Eigen::MatrixXd fdr = FiniteDifferenceStiffness(fem, xr, 1e-6);
  const double rel_rest = (Tangent(fem, mesh, xr, false) - fdr).norm() / fdr.norm();
  std::printf("rotated rest shape: |R K Rt - FD| / |FD| = %.2e\n", rel_rest);
  EXPECT_LT(rel_rest, 1e-6);
}

TEST(CorotationalFem, RigidMotionsHaveNoForceAndMassIsLumped) {
  const TetMesh mesh = BoxTetMesh(Vec3(-0.1, 0, 0), Vec3(0.3, 0.1, 0.05), {3, 2, 1});
  CorotationalFem fem(mesh, kRubber);
  EXPECT_EQ(fem.num_tets(), 36);
  double volume = 0, mass = 0;
  for (const auto& t : mesh.tets) volume += TetVolume(mesh.nodes, t);
  for (double m : fem.node_mass()) mass += m;
  EXPECT_NEAR(volume, 0.3 * 0.1 * 0.05, 1e-15);
  EXPECT_NEAR(mass, kRubber.density * 0.3 * 0.1 * 0.05, 1e-12);
  Vec x = Flatten(mesh.nodes);
  const Mat3 R = ExpSO3(Vec3(2.0, 0.5, -1.0));
  for (Eigen::Index i = 0; i < x.size() / 3; ++i)
    x.segment<3>(3 * i) = R * x.segment<3>(3 * i) + Vec3(1, 2, 3);
  const double f = Forces(fem, x).cwiseAbs().maxCoeff();
  std::printf("largest force after a rigid motion: %.2e N\n", f);
  EXPECT_LT(f, 1e-9);
}

// Cantilever along x, clamped at x = 0, loaded by its own weight (−z). Linear statics (R = I) and
// co-rotational Newton (R K Rᵀ + G) give the tip deflection; both are compared with
// Euler–Bernoulli (ν = 0; shear adds about 0.8% at L/a = 10). Linear tets lock in bending, so the
// section needs 6 × 6 cells of the 5-tet split (the 6-tet split is 6% stiffer on this grid).
TEST(CorotationalFem, CantileverTipDeflectionMatchesEulerBernoulli) {
  const double L = 0.5, a = 0.05, E = 1e9, rho = 1000, g = 9.81;  // tip sag ≈ L / 1400
  const std::array<int, 3> cells = {100, 6, 6};
  const TetMesh mesh = BoxTetMesh(Vec3(0, -a / 2, -a / 2), Vec3(L, a, a), cells, 5);
  CorotationalFem fem(mesh, {E, 0.0, rho});
  const int n = static_cast<int>(mesh.nodes.size());
  // Free dofs: every node off the clamped face.
  std::vector<int> free_of(3 * n, -1);
  int nf = 0;
  for (int i = 0; i < n; ++i)
    if (mesh.nodes[i].x() > 1e-12)
      for (int c = 0; c < 3; ++c) free_of[3 * i + c] = nf++;
  Vec fext = Vec::Zero(3 * n);
  for (int i = 0; i < n; ++i) fext[3 * i + 2] = -fem.node_mass()[i] * g;
  auto reduce = [&](const std::vector<Triplet>& t) {
    std::vector<Triplet> r;
    for (const Triplet& e : t)
      if (free_of[e.row()] >= 0 && free_of[e.col()] >= 0)
        r.emplace_back(free_of[e.row()], free_of[e.col()], e.value());
    SpMat K(nf, nf);
    K.setFromTriplets(r.begin(), r.end());
    return K;
  };
  auto tip = [&](const Vec& x) {
    double w = 0;
    int count = 0;
    for (int i = 0; i < n; ++i)
      if (mesh.nodes[i].x() > L - 1e-12) w += x[3 * i + 2] - mesh.nodes[i].z(), ++count;
    return w / count;
  };
  const Vec X = Flatten(mesh.nodes);
  // Linear statics: K u = f.
  fem.UpdateRotations(X);
  std::vector<Triplet> t;
  fem.AddStiffness(1.0, 0, t);
  const SpMat K = reduce(t);
  Vec fr(nf);
  for (int d = 0; d < 3 * n; ++d)
    if (free_of[d] >= 0) fr[free_of[d]] = fext[d];
  Eigen::SimplicialLDLT<SpMat> ldlt(K);
  ASSERT_EQ(ldlt.info(), Eigen::Success);
  const Vec ur = ldlt.solve(fr);
  Vec x = X;
  for (int d = 0; d < 3 * n; ++d)
    if (free_of[d] >= 0) x[d] += ur[free_of[d]];
  const double w_linear = -tip(x);
  // Co-rotational Newton from the linear solution.
  double residual = 0;
  for (int it = 0; it < 4; ++it) {
    fem.UpdateRotations(x);
    Vec f = fext;
    fem.AddForces(x, f);
    std::vector<Triplet> kt;
    fem.AddStiffness(1.0, 0, kt);
    for (int e = 0; e < fem.num_tets(); ++e) {
      const Mat12 G = fem.GeometricStiffness(e, x);
      for (int p = 0; p < 12; ++p)
        for (int q = 0; q < 12; ++q)
          kt.emplace_back(3 * mesh.tets[e][p / 3] + p % 3, 3 * mesh.tets[e][q / 3] + q % 3,
                          G(p, q));
    }
    Vec r(nf);
    for (int d = 0; d < 3 * n; ++d)
      if (free_of[d] >= 0) r[free_of[d]] = f[d];
    residual = r.norm() / fr.norm();
    if (residual < 1e-10) break;
    Eigen::SparseLU<SpMat> lu(reduce(kt));
    ASSERT_EQ(lu.info(), Eigen::Success);
    const Vec du = lu.solve(r);
    for (int d = 0; d < 3 * n; ++d)
      if (free_of[d] >= 0) x[d] += du[free_of[d]];
  }
  const double w_corot = -tip(x);
  const double I = a * a * a * a / 12, q = rho * g * a * a;
  const double w_eb = q * L * L * L * L / (8 * E * I);
  std::printf(
      "cantilever L/a = %.0f, %d nodes, %d tets: tip deflection linear %.4f mm, "
      "co-rotational %.4f mm (force residual %.1e), Euler-Bernoulli %.4f mm: errors %.2f%%, "
      "%.2f%%\n",
      L / a, n, fem.num_tets(), 1e3 * w_linear, 1e3 * w_corot, residual, 1e3 * w_eb,
      100 * (w_linear / w_eb - 1), 100 * (w_corot / w_eb - 1));
  EXPECT_NEAR(w_linear / w_eb, 1.0, 0.05);
  EXPECT_NEAR(w_corot / w_eb, 1.0, 0.05);
  EXPECT_LT(residual, 1e-6);
}

}  // namespace
}  // namespace ncp::physics
