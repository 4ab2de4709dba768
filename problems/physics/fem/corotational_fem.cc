#include "problems/physics/fem/corotational_fem.h"

#include <fmt/format.h>

#include <Eigen/LU>
#include <Eigen/SVD>
#include <algorithm>
#include <cmath>

#include "common/error.h"
#include "problems/physics/dynamics/spatial.h"

namespace ncp::physics {
namespace {

// Shape matrix [x1 − x0, x2 − x0, x3 − x0] of a tet from its gathered 12-vector.
Mat3 ShapeMatrix(const Vec12& xe) {
  Mat3 D;
  for (int a = 0; a < 3; ++a) D.col(a) = xe.segment<3>(3 * (a + 1)) - xe.segment<3>(0);
  return D;
}

// R (block-diagonal over 4 nodes) times a 12-vector.
Vec12 BlockRotate(const Mat3& R, const Vec12& y) {
  Vec12 out;
  for (int a = 0; a < 4; ++a) out.segment<3>(3 * a) = R * y.segment<3>(3 * a);
  return out;
}

// Gradients of the 4 shape functions (columns) from Dm⁻¹: g_a = row a−1 of Dm⁻¹, g_0 = −Σ g_a.
Eigen::Matrix<double, 3, 4> Gradients(const Mat3& dm_inv) {
  Eigen::Matrix<double, 3, 4> g;
  g.rightCols<3>() = dm_inv.transpose();
  g.col(0) = -g.rightCols<3>().rowwise().sum();
  return g;
}

}  // namespace

CorotationalFem::CorotationalFem(const TetMesh& mesh, const FemMaterial& m) {
  if (!(m.youngs > 0 && std::isfinite(m.youngs)))
    throw Error(fmt::format("youngs = {}: must be finite and > 0", m.youngs));
  if (!(m.poisson >= 0 && m.poisson < 0.5))
    throw Error(fmt::format("poisson = {}: must be in [0, 0.5)", m.poisson));
  if (!(m.density > 0 && std::isfinite(m.density)))
    throw Error(fmt::format("density = {}: must be finite and > 0", m.density));
  num_nodes_ = static_cast<int>(mesh.nodes.size());
  tets_ = mesh.tets;
  const double lame_mu = m.youngs / (2 * (1 + m.poisson));
  const double lame_lambda = m.youngs * m.poisson / ((1 + m.poisson) * (1 - 2 * m.poisson));
  mass_.assign(num_nodes_, 0.0);
  for (std::size_t t = 0; t < tets_.size(); ++t) {
    for (int a = 0; a < 4; ++a)
      if (tets_[t][a] < 0 || tets_[t][a] >= num_nodes_)
        throw Error(fmt::format("tet {} node {} = {}: out of range", t, a, tets_[t][a]));
    const double vol = TetVolume(mesh.nodes, tets_[t]);
    if (!(vol > 0))
      throw Error(
          fmt::format("tet {}: rest volume {:g} must be > 0 (degenerate or inverted)", t, vol));
    Vec12 X;
    for (int a = 0; a < 4; ++a) X.segment<3>(3 * a) = mesh.nodes[tets_[t][a]];
    const Mat3 dm_inv = ShapeMatrix(X).inverse();
    const auto g = Gradients(dm_inv);
    Mat12 K;
    for (int a = 0; a < 4; ++a)
      for (int b = 0; b < 4; ++b)
        K.block<3, 3>(3 * a, 3 * b) = vol * (lame_lambda * g.col(a) * g.col(b).transpose() +
                                             lame_mu * g.col(b) * g.col(a).transpose() +
                                             lame_mu * g.col(a).dot(g.col(b)) * Mat3::Identity());
    for (int a = 0; a < 4; ++a) mass_[tets_[t][a]] += 0.25 * m.density * vol;
    dm_inv_.push_back(dm_inv);
    rest_.push_back(X);
    ke_.push_back(K);
  }
  rot_.assign(tets_.size(), Mat3::Identity());
  stretch_.assign(tets_.size(), Mat3::Identity());
}

Vec12 CorotationalFem::Gather(const Vec& x, int t) const {
  Vec12 xe;
  for (int a = 0; a < 4; ++a) xe.segment<3>(3 * a) = x.segment<3>(3 * tets_[t][a]);
  return xe;
}

void CorotationalFem::UpdateRotations(const Vec& x) {
  for (int t = 0; t < num_tets(); ++t) {
    const Mat3 F = ShapeMatrix(Gather(x, t)) * dm_inv_[t];
    Eigen::JacobiSVD<Mat3> svd(F, Eigen::ComputeFullU | Eigen::ComputeFullV);
    Mat3 U = svd.matrixU();
    Vec3 sigma = svd.singularValues();
    if ((U * svd.matrixV().transpose()).determinant() < 0) {  // inverted: keep R a rotation
      U.col(2) *= -1;
      sigma[2] *= -1;
    }
    rot_[t] = U * svd.matrixV().transpose();
    stretch_[t] = svd.matrixV() * sigma.asDiagonal() * svd.matrixV().transpose();
  }
}

void CorotationalFem::AddForces(const Vec& x, Vec& f) const {
  for (int t = 0; t < num_tets(); ++t) {
    const Mat3& R = rot_[t];
    const Vec12 e = BlockRotate(R.transpose(), Gather(x, t)) - rest_[t];
    const Vec12 fe = -BlockRotate(R, ke_[t] * e);
    for (int a = 0; a < 4; ++a) f.segment<3>(3 * tets_[t][a]) += fe.segment<3>(3 * a);
  }
}

void CorotationalFem::AddStiffness(double scale, int offset,
                                   std::vector<Eigen::Triplet<double>>& out) const {
  for (int t = 0; t < num_tets(); ++t) {
    const Mat3& R = rot_[t];
    for (int a = 0; a < 4; ++a)
      for (int b = 0; b < 4; ++b) {
        const Mat3 blk = scale * R * ke_[t].block<3, 3>(3 * a, 3 * b) * R.transpose();
        const int ra = offset + 3 * tets_[t][a], cb = offset + 3 * tets_[t][b];
        for (int r = 0; r < 3; ++r)
          for (int c = 0; c < 3; ++c) out.emplace_back(ra + r, cb + c, blk(r, c));
      }
  }
}

Mat12 CorotationalFem::GeometricStiffness(int t, const Vec& x) const {
  // F = R S, dF = dR S + R dS: Rᵀ dF − dFᵀ R = Ω S + S Ω with Ω = Rᵀ dR = [ω]×, and
  // [ω]× S + S [ω]× = [(tr(S) I − S) ω]× for symmetric S, so ω = (tr(S) I − S)⁻¹ vee(·).
  const Mat3& R = rot_[t];
  const Mat3& S = stretch_[t];
  const Mat3 P = S.trace() * Mat3::Identity() - S;
  Mat12 G = Mat12::Zero();
  const Eigen::FullPivLU<Mat3> lu(P);
  if (std::abs(P.determinant()) < 1e-12 * std::pow(std::max(1e-300, S.norm()), 3)) return G;
  const Vec12 xe = Gather(x, t);
  const Vec12 ke_e = ke_[t] * (BlockRotate(R.transpose(), xe) - rest_[t]);
  const auto g = Gradients(dm_inv_[t]);
  for (int a = 0; a < 4; ++a)
    for (int c = 0; c < 3; ++c) {
      const Mat3 dF = Vec3::Unit(c) * g.col(a).transpose();
      const Mat3 W = R.transpose() * dF - dF.transpose() * R;
      const Vec3 omega = lu.solve(Vec3(W(2, 1), W(0, 2), W(1, 0)));
      const Mat3 dR = R * Skew(omega);
      // −df = dR K_e e + R K_e dRᵀ x_e (the R K_e Rᵀ dx part is the linear stiffness).
      G.col(3 * a + c) =
          BlockRotate(dR, ke_e) + BlockRotate(R, ke_[t] * BlockRotate(dR.transpose(), xe));
    }
  return G;
}

void CorotationalFem::AddProjectedGeometricStiffness(const Vec& x, double scale, Vec& diag) const {
  for (int t = 0; t < num_tets(); ++t) {
    const Mat12 G = GeometricStiffness(t, x);
    for (int a = 0; a < 4; ++a)
      for (int c = 0; c < 3; ++c)
        diag[3 * tets_[t][a] + c] += scale * G.col(3 * a + c).cwiseAbs().sum();
  }
}

}  // namespace ncp::physics
