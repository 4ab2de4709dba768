// Dynamics of articulated models against independent references: the kinetic-energy Hessian,
// the Lagrange equations by finite differences, finite differences of point positions, and the
// conservation laws of a free spinning body.
#include <gtest/gtest.h>

#include <random>

#include "problems/physics/dynamics/dynamics.h"
#include "problems/physics/dynamics/spatial.h"
#include "problems/physics/dynamics/urdf_loader.h"

namespace ncp::physics {
namespace {

std::string LaikagoPath() { return std::string(NCP_SOURCE_DIR) + "/assets/laikago/laikago.urdf"; }

Mat3 RandomInertia(std::mt19937_64& rng) {
  std::uniform_real_distribution<double> u(0.5, 2.0);
  const Mat3 R = Eigen::Quaterniond::UnitRandom().toRotationMatrix();
  return R * Eigen::Vector3d(u(rng), u(rng), u(rng)).asDiagonal() * R.transpose() * 0.01;
}

// A fixed-base chain of 5 links with mixed revolute/prismatic joints and offset coms.
ArticulatedModel Chain(bool floating) {
  std::mt19937_64 rng(3);
  std::uniform_real_distribution<double> u(-0.3, 0.3);
  ArticulatedModel m;
  m.name = "chain";
  for (int i = 0; i < 5; ++i) {
    Link l;
    l.name = "l" + std::to_string(i);
    l.parent = i - 1;
    l.joint = i == 0 ? (floating ? JointType::kFloating : JointType::kRevolute)
                     : (i == 3 ? JointType::kPrismatic : JointType::kRevolute);
    l.parent_to_joint = Pose::Identity();
    l.parent_to_joint.translation() = Vec3(u(rng), u(rng), 0.4);
    l.parent_to_joint.linear() = Eigen::Quaterniond::UnitRandom().toRotationMatrix();
    l.axis = Vec3(u(rng), u(rng), 1).normalized();
    l.mass = 1.0 + i;
    l.com = Vec3(u(rng), u(rng), u(rng));
    l.inertia = RandomInertia(rng);
    m.links.push_back(l);
  }
  m.Finalize();
  return m;
}

VectorXd RandomConfiguration(const ArticulatedModel& m, std::mt19937_64& rng) {
  std::normal_distribution<double> g;
  VectorXd q = m.NeutralConfiguration();
  for (int i = 0; i < m.nq; ++i) q[i] += 0.5 * g(rng);
  for (const Link& l : m.links)
    if (l.joint == JointType::kFloating) q.segment<4>(l.q_index + 3).normalize();
  return q;
}

TEST(Crba, EqualsKineticEnergyHessianAndSumOfJtMJ) {
  for (const ArticulatedModel& m : {Chain(false), Chain(true), LoadUrdf(LaikagoPath())}) {
    std::mt19937_64 rng(1);
    const VectorXd q = RandomConfiguration(m, rng);
    Kinematics k;
    ForwardKinematics(m, q, k);
    const MatrixXd H = MassMatrix(m, k);
    // KE is quadratic in v: its Hessian by central differences is exact up to rounding.
    MatrixXd Hfd(m.nv, m.nv);
    const double h = 1e-3;
    for (int i = 0; i < m.nv; ++i)
      for (int j = 0; j < m.nv; ++j) {
        VectorXd v = VectorXd::Zero(m.nv);
        auto ke = [&](double a, double b) {
          v.setZero();
          v[i] += a, v[j] += b;
          return KineticEnergy(m, k, v);
        };
        Hfd(i, j) = (ke(h, h) - ke(h, -h) - ke(-h, h) + ke(-h, -h)) / (4 * h * h);
      }
    EXPECT_LE((H - Hfd).cwiseAbs().maxCoeff(), 1e-8 * H.cwiseAbs().maxCoeff()) << m.name;
    MatrixXd Hj = MatrixXd::Zero(m.nv, m.nv), J;
    for (std::size_t b = 0; b < m.links.size(); ++b) {
      BodyJacobian(m, k, static_cast<int>(b), J);
      Hj += J.transpose() * SpatialInertia(m.links[b]) * J;
    }
    EXPECT_LE((H - Hj).cwiseAbs().maxCoeff(), 1e-12 * H.cwiseAbs().maxCoeff()) << m.name;
  }
}

TEST(Rnea, MatchesLagrangeEquationsByFiniteDifferences) {
  // Fixed-base chain (q̇ = v): τ = H a + Ḣ v − ∂/∂q(½ vᵀ H v) + ∂V/∂q.
  const ArticulatedModel m = Chain(false);
  const Vec3 g(0.3, -0.2, -9.81);
  std::mt19937_64 rng(2);
  std::normal_distribution<double> nd;
  const VectorXd q = RandomConfiguration(m, rng);
  VectorXd v(m.nv), a(m.nv);
  for (int i = 0; i < m.nv; ++i) v[i] = nd(rng), a[i] = nd(rng);
  auto H_at = [&](const VectorXd& qq) {
    Kinematics k;
    ForwardKinematics(m, qq, k);
    return MassMatrix(m, k);
  };
  auto potential = [&](const VectorXd& qq) {
    Kinematics k;
    ForwardKinematics(m, qq, k);
    double V = 0;
    for (std::size_t b = 0; b < m.links.size(); ++b)
      V -= m.links[b].mass * g.dot(k.world[b] * m.links[b].com);
    return V;
  };
  const double h = 1e-6;
  const MatrixXd Hdot = (H_at(q + h * v) - H_at(q - h * v)) / (2 * h);
  VectorXd dT(m.nv), dV(m.nv);
  for (int i = 0; i < m.nv; ++i) {
    VectorXd dq = VectorXd::Zero(m.nv);
    dq[i] = h;
    dT[i] = 0.5 * v.dot((H_at(q + dq) - H_at(q - dq)) * v) / (2 * h);
    dV[i] = (potential(q + dq) - potential(q - dq)) / (2 * h);
  }
  const VectorXd expected = H_at(q) * a + Hdot * v - dT + dV;
  Kinematics k;
  ForwardKinematics(m, q, k);
  const VectorXd tau = InverseDynamics(m, k, v, a, g);
  EXPECT_LE((tau - expected).cwiseAbs().maxCoeff(), 1e-6 * expected.cwiseAbs().maxCoeff());
}

TEST(Rnea, FreeBodyIsNewtonEuler) {
  std::mt19937_64 rng(4);
  const Mat3 I = RandomInertia(rng);
  const ArticulatedModel m = MakeFreeBody("b", 2.0, I, {});
  VectorXd q = m.NeutralConfiguration();
  q.segment<4>(3) = Eigen::Vector4d(0.9, 0.1, -0.3, 0.2).normalized();
  VectorXd v(6), a = VectorXd::Zero(6);
  v << 0.3, -1.0, 0.5, 2.0, -1.0, 0.7;
  Kinematics k;
  ForwardKinematics(m, q, k);
  const Vec3 g(0, 0, -9.81);
  const VectorXd tau = InverseDynamics(m, k, v, a, g);
  const Vec3 w = v.tail<3>(), lin = v.head<3>();
  const Mat3 R = k.world[0].linear();
  // Body frame: m (ω × v − Rᵀ g), ω × I ω.
  EXPECT_LE((tau.head<3>() - 2.0 * (w.cross(lin) - R.transpose() * g)).norm(), 1e-12);
  EXPECT_LE((tau.tail<3>() - w.cross(I * w)).norm(), 1e-12);
}

TEST(BodyJacobian, PointVelocityMatchesFiniteDifferences) {
  for (const ArticulatedModel& m : {Chain(true), LoadUrdf(LaikagoPath())}) {
    std::mt19937_64 rng(5);
    std::normal_distribution<double> nd;
    const VectorXd q = RandomConfiguration(m, rng);
    VectorXd v(m.nv);
    for (auto& x : v) x = nd(rng);
    Kinematics k0, k1, km;
    ForwardKinematics(m, q, k0);
    const double h = 1e-6;
    VectorXd qp = q, qm = q;
    IntegrateConfiguration(m, qp, v, h);
    IntegrateConfiguration(m, qm, v, -h);
    ForwardKinematics(m, qp, k1);
    ForwardKinematics(m, qm, km);
    MatrixXd J;
    for (std::size_t b = 0; b < m.links.size(); ++b) {
      const Vec3 p(0.1, -0.05, 0.2);  // a point fixed on the link
      BodyJacobian(m, k0, static_cast<int>(b), J);
      Eigen::Matrix<double, 3, 6> G;
      G << Mat3::Identity(), -Skew(p);
      const Vec3 analytic = k0.world[b].linear() * G * J * v;
      const Vec3 fd = (k1.world[b] * p - km.world[b] * p) / (2 * h);
      EXPECT_LE((analytic - fd).norm(), 1e-6 * std::max(1.0, fd.norm())) << m.name << " link " << b;
    }
  }
}

// Free spinning body, no gravity: the step of 004:2 (θ = 0, bias at v_k) conserves energy and
// world angular momentum to first order — the error halves with dt.
TEST(FreeBody, SpinConservesEnergyAndMomentumToFirstOrder) {
  std::mt19937_64 rng(6);
  const Mat3 I = Eigen::Vector3d(1.0, 2.0, 3.0).asDiagonal() * 0.1;
  const ArticulatedModel m = MakeFreeBody("b", 1.0, I, {});
  auto drift = [&](double dt) {
    VectorXd q = m.NeutralConfiguration(), v(6);
    v << 0, 0, 0, 1.0, 0.2, 3.0;  // near the unstable middle axis: a demanding motion
    Kinematics k;
    ForwardKinematics(m, q, k);
    const double e0 = KineticEnergy(m, k, v);
    const Vec3 L0 = k.world[0].linear() * I * v.tail<3>();
    double de = 0, dL = 0;
    for (double t = 0; t < 1.0 - 1e-12; t += dt) {
      ForwardKinematics(m, q, k);
      const MatrixXd H = MassMatrix(m, k);
      const VectorXd bias = InverseDynamics(m, k, v, VectorXd::Zero(6), Vec3::Zero());
      const VectorXd vn = H.ldlt().solve(H * v - dt * bias);
      IntegrateConfiguration(m, q, vn, dt);
      v = vn;
      ForwardKinematics(m, q, k);
      de = std::max(de, std::abs(KineticEnergy(m, k, v) - e0) / e0);
      dL = std::max(dL, (k.world[0].linear() * I * v.tail<3>() - L0).norm() / L0.norm());
    }
    return std::pair{de, dL};
  };
  const auto [e1, l1] = drift(1e-3);
  const auto [e2, l2] = drift(5e-4);
  EXPECT_LT(e1, 0.05);
  EXPECT_LT(l1, 0.05);
  EXPECT_NEAR(e1 / e2, 2.0, 0.3);  // first order
  EXPECT_NEAR(l1 / l2, 2.0, 0.3);
  std::printf(
      "free spin over 1 s: energy drift %.2e (dt 1e-3), %.2e (dt 5e-4); momentum %.2e, %.2e\n", e1,
      e2, l1, l2);
}

TEST(Urdf, LaikagoHas18DofsAndPrimitiveGeoms) {
  const ArticulatedModel m = LoadUrdf(LaikagoPath());
  EXPECT_EQ(m.nv, 18);
  EXPECT_EQ(m.nq, 19);
  EXPECT_EQ(m.links.size(), 13u);
  double mass = 0;
  int geoms = 0;
  for (const Link& l : m.links) mass += l.mass, geoms += static_cast<int>(l.geoms.size());
  EXPECT_NEAR(mass, 13.733 + 4 * (1.096 + 1.528 + 0.241 + 0.06), 1e-9);
  EXPECT_GE(geoms, 13);
}

TEST(Urdf, MissingFileIsAnError) {
  EXPECT_THROW(LoadUrdf("/nonexistent.urdf"), std::runtime_error);
}

}  // namespace
}  // namespace ncp::physics
