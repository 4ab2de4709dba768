#include "problems/scenarios/random/manufactured.h"

#include <Eigen/Dense>
#include <Eigen/Geometry>
#include <Eigen/SparseCholesky>
#include <cmath>
#include <fmt/format.h>
#include <random>
#include <vector>

#include "common/error.h"
#include "problems/physics/dynamics/joint_contacts.h"
#include "problems/physics/dynamics/spatial.h"

namespace ncp {
namespace {

using Mat3 = Eigen::Matrix3d;
using V3 = Eigen::Vector3d;
using Rng = std::mt19937_64;

double Uniform(Rng& rng, double lo, double hi) {
  return std::uniform_real_distribution<double>(lo, hi)(rng);
}
int UniformInt(Rng& rng, int lo, int hi) {  // inclusive
  return std::uniform_int_distribution<int>(lo, hi)(rng);
}
V3 RandomUnit(Rng& rng) {
  std::normal_distribution<double> g;
  V3 x(g(rng), g(rng), g(rng));
  return x.normalized();
}

// Contact frame [n, t1, t2] as rows, from a random normal.
Mat3 RandomFrame(Rng& rng) {
  const V3 n = RandomUnit(rng);
  V3 t1 = n.unitOrthogonal();
  const double a = Uniform(rng, 0.0, 2.0 * M_PI);
  t1 = Eigen::AngleAxisd(a, n) * t1;
  Mat3 R;
  R.row(0) = n;
  R.row(1) = t1;
  R.row(2) = n.cross(t1);
  return R;
}

// 6×6 SPD block with masses in [1, mass_ratio] and eigenvalue spread `condition`.
Eigen::Matrix<double, 6, 6> RandomMassBlock(Rng& rng, const ManufacturedOptions& o) {
  const double m = std::exp(Uniform(rng, 0.0, std::log(o.mass_ratio)));
  Eigen::Matrix<double, 6, 6> Q =
      Eigen::Matrix<double, 6, 6>::NullaryExpr([&] { return Uniform(rng, -1, 1); });
  Q = Eigen::HouseholderQR<Eigen::Matrix<double, 6, 6>>(Q).householderQ();
  Eigen::Matrix<double, 6, 1> eig;
  for (int k = 0; k < 6; ++k) eig[k] = m * std::pow(o.condition, Uniform(rng, 0.0, 1.0));
  eig[0] = m, eig[5] = m * o.condition;  // pin the spread
  Eigen::Matrix<double, 6, 6> M = Q * eig.asDiagonal() * Q.transpose();
  return 0.5 * (M + M.transpose());
}

// One subsystem as a random tree: body 0 floats (6 dofs, J = I), body t > 0 hangs from a random
// earlier body by a revolute or prismatic joint (local dof 5 + t). Appends bodies with tree data
// and returns A_j = Σ_b J_bᵀ M_b J_b.
Eigen::MatrixXd AddRandomTree(Rng& rng, const ManufacturedOptions& o, int subsystem, int first,
                              int count, Structure& st) {
  const int dofs = 5 + count;
  Eigen::MatrixXd Aj = Eigen::MatrixXd::Zero(dofs, dofs);
  for (int t = 0; t < count; ++t) {
    Structure::Body b;
    b.subsystem = subsystem;
    b.mass = std::exp(Uniform(rng, 0.0, std::log(o.mass_ratio)));
    b.com = V3(Uniform(rng, -0.1, 0.1), Uniform(rng, -0.1, 0.1), Uniform(rng, -0.1, 0.1));
    const Mat3 Q = RandomFrame(rng);  // from the seeded generator: Eigen's Random uses std::rand
    const V3 eig(1.0, std::pow(o.condition, Uniform(rng, 0, 1)), o.condition);
    b.inertia = 0.02 * b.mass * Q * eig.asDiagonal() * Q.transpose();
    b.jacobian = Eigen::MatrixXd::Zero(6, dofs);
    if (t == 0) {
      b.parent = -1, b.joint_dof = 0, b.joint_dofs = 6;
      b.jacobian.leftCols(6).setIdentity();
    } else {
      b.parent = first + UniformInt(rng, 0, t - 1);
      b.joint_dof = 5 + t, b.joint_dofs = 1;
      const Mat3 R =
          Eigen::AngleAxisd(Uniform(rng, 0, 2 * M_PI), RandomUnit(rng)).toRotationMatrix();
      const V3 r = 0.3 * RandomUnit(rng);
      physics::Pose T = physics::Pose::Identity();  // the body's frame in its parent's
      T.linear() = R, T.translation() = r;
      b.transform = physics::TwistTransform(T);
      b.jacobian = b.transform * st.bodies[b.parent].jacobian;
      const V3 axis = RandomUnit(rng);
      const bool revolute = Uniform(rng, 0, 1) < 0.7;
      b.jacobian.col(b.joint_dof) << (revolute ? V3::Zero() : axis), (revolute ? axis : V3::Zero());
    }
    physics::Link link;  // for its spatial inertia about the body origin (004 App. A)
    link.mass = b.mass, link.com = b.com, link.inertia = b.inertia;
    Aj += b.jacobian.transpose() * physics::SpatialInertia(link) * b.jacobian;
    st.bodies.push_back(b);
  }
  return 0.5 * (Aj + Aj.transpose());
}

struct ContactSide {
  int body;
  double sign;  // +1: J gives velocity of this body's point, −1: of the other body
};

}  // namespace

std::string OptionsError(const ManufacturedOptions& o) {
  // Named as the `random` scenario's parameters, which is how users set them.
  auto bad = [](const char* f, double v, const std::string& rule) {
    return fmt::format("{} = {}: {}", f, v, rule);
  };
  if (o.num_bodies < 1) return bad("bodies", o.num_bodies, "must be >= 1");
  if (o.bodies_per_subsystem < 1)
    return bad("bodies_per_subsystem", o.bodies_per_subsystem, "must be >= 1");
  if (o.num_contacts < 0) return bad("contacts", o.num_contacts, "must be >= 0");
  if (o.num_unilateral < 0) return bad("unilateral", o.num_unilateral, "must be >= 0");
  if (o.num_bilateral < 0) return bad("bilateral", o.num_bilateral, "must be >= 0");
  if (o.num_soft < 0) return bad("soft", o.num_soft, "must be >= 0");
  if (o.frac_open < 0 || o.frac_stick < 0 || o.frac_slip < 0 ||
      o.frac_open + o.frac_stick + o.frac_slip <= 0)
    return bad("frac_open+frac_stick+frac_slip", o.frac_open + o.frac_stick + o.frac_slip,
               "fractions must be >= 0 with a positive sum");
  if (o.ground_fraction < 0 || o.ground_fraction > 1)
    return bad("ground_fraction", o.ground_fraction, "must be in [0, 1]");
  if (!(o.mu_min >= 0 && o.mu_max >= o.mu_min))
    return bad("mu_min", o.mu_min, "need 0 <= mu_min <= mu_max");
  if (!(o.mass_ratio >= 1)) return bad("mass_ratio", o.mass_ratio, "must be >= 1");
  if (!(o.condition >= 1 && o.condition <= 1e12))
    return bad("condition", o.condition, "must be in [1, 1e12]");
  if (!(o.coupling >= 0)) return bad("coupling", o.coupling, "must be >= 0");
  if (!(o.body_size > 0)) return bad("body_size", o.body_size, "must be > 0");
  if (o.rows_per_body < 3) return bad("rows_per_body", o.rows_per_body, "must be >= 3");
  if (o.articulated && o.rows_per_body != 5)
    return bad("rows_per_body", o.rows_per_body, "must be 5 with articulated (trees take 3)");
  // A full-rank J (W SPD) needs at most 5 rows per body and hence at most one contact per body;
  // rows_per_body > 5 gives it up on purpose (W singular, λ* one of many).
  const int singles = o.num_unilateral + o.num_bilateral + o.num_soft;
  const int per_body = o.rows_per_body / 3;
  if (o.num_contacts > per_body * o.num_bodies ||
      3 * o.num_contacts + singles > o.rows_per_body * o.num_bodies)
    return bad("bodies", o.num_bodies,
               fmt::format("too few: need >= contacts / {} and {} rows per body (3 per "
                           "contact + 1 per other constraint)",
                           per_body, o.rows_per_body));
  return {};
}

ContactProblem MakeManufacturedProblem(const ManufacturedOptions& o, const std::string& name) {
  if (std::string err = OptionsError(o); !err.empty()) throw Error("manufactured: " + err);
  Rng rng(o.seed);
  const int nb = o.num_bodies;
  ContactProblem p;
  p.form = ProblemForm::kGlobal;
  std::vector<Eigen::Triplet<double>> at;
  std::vector<double> body_mass(nb);
  int n = 0;
  if (o.articulated) {
    // One random tree per subsystem; A is block diagonal with the trees' mass matrices.
    for (int k = 0; k < nb; k += o.bodies_per_subsystem) {
      const int count = std::min(o.bodies_per_subsystem, nb - k);
      const int j = static_cast<int>(p.structure.subsystems.size());
      const Eigen::MatrixXd Aj = AddRandomTree(rng, o, j, k, count, p.structure);
      p.structure.subsystems.push_back({n, static_cast<int>(Aj.rows()), "articulated"});
      for (int r = 0; r < Aj.rows(); ++r)
        for (int c = 0; c < Aj.cols(); ++c) at.emplace_back(n + r, n + c, Aj(r, c));
      n += static_cast<int>(Aj.rows());
    }
    for (int k = 0; k < nb; ++k) body_mass[k] = p.structure.bodies[k].mass;
  } else {
    n = 6 * nb;
    // A: 6×6 mass blocks, plus an SPD coupling between bodies that share a subsystem.
    for (int k = 0; k < nb; ++k) {
      const auto M = RandomMassBlock(rng, o);
      body_mass[k] = M.trace() / 6.0;
      for (int r = 0; r < 6; ++r)
        for (int c = 0; c < 6; ++c) at.emplace_back(6 * k + r, 6 * k + c, M(r, c));
    }
    if (o.coupling > 0) {
      for (int k = 0; k + 1 < nb; ++k) {
        if ((k + 1) % o.bodies_per_subsystem == 0) continue;  // next body is another subsystem
        // c·(x_k − x_{k+1})(x_k − x_{k+1})ᵀ on one random axis: PSD, couples the two bodies.
        const int ax = UniformInt(rng, 0, 5);
        const double c = o.coupling * std::min(body_mass[k], body_mass[k + 1]);
        const int i = 6 * k + ax, j = 6 * (k + 1) + ax;
        at.emplace_back(i, i, c), at.emplace_back(j, j, c);
        at.emplace_back(i, j, -c), at.emplace_back(j, i, -c);
      }
    }
    // Structure: one subsystem per group of bodies, body Jacobian = selection of its 6 dofs.
    for (int k = 0; k < nb; k += o.bodies_per_subsystem) {
      Structure::Subsystem s;
      s.dof_begin = 6 * k;
      s.dof_count = 6 * std::min(o.bodies_per_subsystem, nb - k);
      s.kind = o.bodies_per_subsystem == 1 ? "rigid" : "generic";
      p.structure.subsystems.push_back(s);
    }
    for (int k = 0; k < nb; ++k) {
      Structure::Body b;
      b.subsystem = k / o.bodies_per_subsystem;
      b.parent = k % o.bodies_per_subsystem == 0 ? -1 : k - 1;
      b.mass = body_mass[k];
      b.inertia = body_mass[k] * Mat3::Identity();
      const int first = k - k % o.bodies_per_subsystem;
      b.jacobian = Eigen::MatrixXd::Zero(6, p.structure.subsystems[b.subsystem].dof_count);
      b.jacobian.block(0, 6 * (k - first), 6, 6).setIdentity();
      p.structure.bodies.push_back(b);
    }
  }
  p.A.resize(n, n);
  p.A.setFromTriplets(at.begin(), at.end());

  // Constraints: each acts on one body (against the world) or two; per body the block is
  // R [I −[p]] (004 App. A) with a random frame R and point p.
  std::vector<Eigen::Triplet<double>> jt;
  auto add_rows = [&](int ci, const Mat3& R, int rows, const std::vector<ContactSide>& sides) {
    const Constraint& c = p.constraints[ci];
    for (const ContactSide& s : sides) {
      V3 pt(Uniform(rng, -o.body_size, o.body_size), Uniform(rng, -o.body_size, o.body_size),
            Uniform(rng, -o.body_size, o.body_size));
      Eigen::Matrix<double, 3, 6> G;
      G << Mat3::Identity(), -physics::Skew(pt);
      Eigen::MatrixXd blk = s.sign * (R * G).topRows(rows);
      if (o.articulated) {  // J_ij = J_ib J_bj in the subsystem's columns
        const Structure::Body& body = p.structure.bodies[s.body];
        const int c0 = p.structure.subsystems[body.subsystem].dof_begin;
        const Eigen::MatrixXd rowsJ = blk * body.jacobian;
        for (int r = 0; r < rows; ++r)
          for (int col = 0; col < rowsJ.cols(); ++col)
            if (rowsJ(r, col) != 0.0) jt.emplace_back(c.row + r, c0 + col, rowsJ(r, col));
      } else {
        for (int r = 0; r < rows; ++r)
          for (int col = 0; col < 6; ++col)
            jt.emplace_back(c.row + r, 6 * s.body + col, blk(r, col));
      }
      p.structure.blocks.push_back({ci, s.body, blk});
    }
  };
  // Each constraint's rows are charged to its first body, at most 5 rows per body, so J has full
  // row rank (generically) and W is SPD (λ* is then unique for small enough μ; friction is not
  // monotone, so not always). Not 6: two point contacts on one body span only rank 5 (the
  // squeeze force along the line through both points is indeterminate).
  // Trees: at most 3 rows per body, and fewer rows than dofs per subsystem.
  std::vector<int> capacity(nb, o.articulated ? 3 : o.rows_per_body);
  std::vector<int> sub_capacity;
  for (const auto& sub : p.structure.subsystems)
    sub_capacity.push_back(o.articulated ? sub.dof_count - 1 : 1 << 30);
  auto fits = [&](int body, int rows) {
    return capacity[body] >= rows && sub_capacity[p.structure.bodies[body].subsystem] >= rows;
  };
  auto pick_sides = [&](bool ground, int rows) {
    int first = UniformInt(rng, 0, nb - 1);
    for (int tries = 0; !fits(first, rows) && tries < nb; ++tries) first = (first + 1) % nb;
    if (!fits(first, rows))
      throw Error(
          fmt::format("manufactured: {} bodies cannot carry the constraints: need at "
                      "least one body per 5 constraint rows",
                      nb));
    capacity[first] -= rows;
    sub_capacity[p.structure.bodies[first].subsystem] -= rows;
    std::vector<ContactSide> sides{{first, 1.0}};
    if (!ground && nb > 1) {
      int other = UniformInt(rng, 0, nb - 2);
      if (other >= first) ++other;
      sides.push_back({other, -1.0});
    }
    return sides;
  };

  enum Status { kOpen, kStick, kSlip };
  std::vector<Status> status;
  const double ftot = o.frac_open + o.frac_stick + o.frac_slip;
  for (int i = 0; i < o.num_contacts; ++i) {
    const double u = Uniform(rng, 0.0, ftot);
    status.push_back(u < o.frac_open ? kOpen : u < o.frac_open + o.frac_stick ? kStick : kSlip);
    const int ci =
        AddConstraint(p.constraints, ConstraintType::kContact, Uniform(rng, o.mu_min, o.mu_max));
    add_rows(ci, RandomFrame(rng), 3, pick_sides(Uniform(rng, 0, 1) < o.ground_fraction, 3));
  }
  for (int i = 0; i < o.num_unilateral; ++i) {
    const int ci = AddConstraint(p.constraints, ConstraintType::kUnilateral);
    add_rows(ci, RandomFrame(rng), 1, pick_sides(Uniform(rng, 0, 1) < o.ground_fraction, 1));
  }
  for (int i = 0; i < o.num_bilateral; ++i) {
    const int ci = AddConstraint(p.constraints, ConstraintType::kBilateral);
    add_rows(ci, RandomFrame(rng), 1, pick_sides(false, 1));
  }
  for (int i = 0; i < o.num_soft; ++i) {
    const int ci = AddConstraint(p.constraints, ConstraintType::kSoft, 0.0,
                                 std::exp(Uniform(rng, std::log(1e2), std::log(1e4))),
                                 std::exp(Uniform(rng, std::log(1e0), std::log(1e2))));
    add_rows(ci, RandomFrame(rng), 1, pick_sides(false, 1));
  }
  const int m = p.num_rows();
  p.J.resize(m, n);
  p.J.setFromTriplets(jt.begin(), jt.end());

  // Chosen solution: v* random, λ* and the constraint velocity u = J v* + e by status.
  Vec v(n), lam = Vec::Zero(m), u = Vec::Zero(m);
  for (int i = 0; i < n; ++i) v[i] = Uniform(rng, -1, 1);
  const Vec Jv = p.J * v;
  Vec e(m);
  int next_unilateral_active = 0;
  for (int i = 0; i < p.num_constraints(); ++i) {
    const Constraint& c = p.constraints[i];
    const int r = c.row;
    switch (c.type) {
      case ConstraintType::kContact: {
        const Status s = status[i];
        if (s == kOpen) {
          u[r] = Uniform(rng, 0.1, 1.0);
          u[r + 1] = Uniform(rng, -1, 1), u[r + 2] = Uniform(rng, -1, 1);
        } else {
          const double ln = Uniform(rng, 0.5, 2.0);
          lam[r] = ln;
          const double a = Uniform(rng, 0, 2 * M_PI);
          if (s == kStick) {  // strictly inside the cone, zero relative velocity
            const double rad = Uniform(rng, 0.0, 0.9) * c.mu * ln;
            lam[r + 1] = rad * std::cos(a), lam[r + 2] = rad * std::sin(a);
          } else {  // on the cone boundary, opposing the sliding velocity
            const double speed = Uniform(rng, 0.1, 1.0);
            u[r + 1] = speed * std::cos(a), u[r + 2] = speed * std::sin(a);
            lam[r + 1] = -c.mu * ln * std::cos(a), lam[r + 2] = -c.mu * ln * std::sin(a);
          }
        }
        for (int k = 0; k < 3; ++k) e[r + k] = u[r + k] - Jv[r + k];
        break;
      }
      case ConstraintType::kUnilateral:
        if (next_unilateral_active++ % 2 == 0)
          lam[r] = Uniform(rng, 0.5, 2.0);
        else
          u[r] = Uniform(rng, 0.1, 1.0);
        e[r] = u[r] - Jv[r];
        break;
      case ConstraintType::kBilateral:
        lam[r] = Uniform(rng, -2.0, 2.0);
        e[r] = -Jv[r];
        break;
      case ConstraintType::kSoft:  // λ = −k e − d J v  ⇒  e = −(λ + d J v) / k
        lam[r] = Uniform(rng, -2.0, 2.0);
        e[r] = -(lam[r] + c.damping * Jv[r]) / c.stiffness;
        break;
      case ConstraintType::kJointFriction:  // ManufacturedJointFrictionTree makes these
        throw Error("manufactured: joint-friction constraints are not generated here");
    }
  }
  p.e = e;
  p.b = p.A * v - p.J.transpose() * lam;
  p.reference = Reference{v, lam, "manufactured", 0.0};

  p.meta.name = name;
  p.meta.scenario = "random";
  p.meta.case_name = fmt::format("bodies={} contacts={}", nb, o.num_contacts);
  p.meta.seed = o.seed;
  p.meta.generator_version = 1;
  auto& prm = p.meta.params;
  prm["num_bodies"] = nb, prm["bodies_per_subsystem"] = o.bodies_per_subsystem;
  if (o.rows_per_body != 5) prm["rows_per_body"] = o.rows_per_body;
  prm["num_contacts"] = o.num_contacts, prm["num_unilateral"] = o.num_unilateral;
  prm["num_bilateral"] = o.num_bilateral, prm["num_soft"] = o.num_soft;
  prm["frac_open"] = o.frac_open, prm["frac_stick"] = o.frac_stick, prm["frac_slip"] = o.frac_slip;
  prm["ground_fraction"] = o.ground_fraction, prm["mu_min"] = o.mu_min, prm["mu_max"] = o.mu_max;
  prm["mass_ratio"] = o.mass_ratio, prm["condition"] = o.condition, prm["coupling"] = o.coupling;
  prm["body_size"] = o.body_size;
  if (o.articulated) prm["articulated"] = 1.0;
  return p;
}

std::string OptionsError(const JointFrictionTreeOptions& o) {
  // Named as the `joint_friction` scenario's parameters.
  auto bad = [](const char* f, double v, const std::string& rule) {
    return fmt::format("{} = {}: {}", f, v, rule);
  };
  if (o.bodies < 1) return bad("bodies", o.bodies, "must be >= 1");
  if (!(o.branching >= 0 && o.branching <= 1))
    return bad("branching", o.branching, "must be in [0, 1]");
  if (!(o.mu_min >= 0)) return bad("mu_min", o.mu_min, "must be >= 0");
  if (!(o.mu_max >= o.mu_min && std::isfinite(o.mu_max)))
    return bad("mu_max", o.mu_max, fmt::format("must be finite and >= mu_min ({})", o.mu_min));
  if (!(o.radius_min > 0)) return bad("radius_min", o.radius_min, "must be > 0");
  if (!(o.radius_max >= o.radius_min && std::isfinite(o.radius_max)))
    return bad("radius_max", o.radius_max,
               fmt::format("must be finite and >= radius_min ({})", o.radius_min));
  if (!(o.drift >= 0 && std::isfinite(o.drift))) return bad("drift", o.drift, "must be >= 0");
  if (!(o.frac_stick >= 0 && o.frac_stick <= 1))
    return bad("frac_stick", o.frac_stick, "must be in [0, 1]");
  if (!(o.mass_ratio >= 1 && std::isfinite(o.mass_ratio)))
    return bad("mass_ratio", o.mass_ratio, "must be >= 1");
  if (!(o.body_size > 0 && std::isfinite(o.body_size)))
    return bad("body_size", o.body_size, "must be > 0");
  return {};
}

ContactProblem ManufacturedJointFrictionTree(const JointFrictionTreeOptions& o, std::uint64_t seed,
                                             const std::string& name) {
  if (std::string err = OptionsError(o); !err.empty()) throw Error("joint_friction." + err);
  using physics::Pose;
  Rng rng(seed);
  const int nb = o.bodies, n = 6 * nb;
  auto random_rotation = [&] {
    return Eigen::AngleAxisd(Uniform(rng, 0, 2 * M_PI), RandomUnit(rng)).toRotationMatrix();
  };
  auto random_offset = [&] {
    return V3(Uniform(rng, -o.body_size, o.body_size), Uniform(rng, -o.body_size, o.body_size),
              Uniform(rng, -o.body_size, o.body_size));
  };
  ContactProblem p;
  p.form = ProblemForm::kGlobal;

  // Bodies: mass blocks, poses, and the joints that hang each from its parent (the world for 0).
  std::vector<Eigen::Triplet<double>> at;
  std::vector<Pose> pose(nb);
  std::vector<physics::FrictionJoint> joints(nb);
  std::vector<V3> joint_point(nb), joint_axis(nb);  // world
  for (int k = 0; k < nb; ++k) {
    Structure::Body b;
    b.subsystem = k;
    b.parent = -1;  // free bodies: the joints are constraints, not tree joints
    b.mass = std::exp(Uniform(rng, 0.0, std::log(o.mass_ratio)));
    const Mat3 Q = random_rotation();  // principal axes in the body frame
    const V3 eig(Uniform(rng, 0.5, 1.5), Uniform(rng, 0.5, 1.5), Uniform(rng, 0.5, 1.5));
    b.inertia = 0.4 * b.mass * o.body_size * o.body_size * Q * eig.asDiagonal() * Q.transpose();
    b.inertia = 0.5 * (b.inertia + b.inertia.transpose()).eval();
    b.jacobian = Eigen::MatrixXd::Identity(6, 6);
    b.joint_dof = 0, b.joint_dofs = 6;  // a free joint, as physics::MultibodySystem's free bodies
    for (int r = 0; r < 3; ++r) at.emplace_back(6 * k + r, 6 * k + r, b.mass);
    for (int r = 0; r < 3; ++r)
      for (int c = 0; c < 3; ++c) at.emplace_back(6 * k + 3 + r, 6 * k + 3 + c, b.inertia(r, c));
    p.structure.subsystems.push_back({6 * k, 6, "rigid"});
    p.structure.bodies.push_back(b);

    physics::FrictionJoint& j = joints[k];
    j.body_b = k;
    j.body_a = k == 0 ? -1 : Uniform(rng, 0, 1) < o.branching ? UniformInt(rng, 0, k - 1) : k - 1;
    // The joint frame in the world: near the parent's origin; the child's origin near the joint.
    Pose W = Pose::Identity();
    W.linear() = random_rotation();
    const V3 base = j.body_a >= 0 ? V3(pose[j.body_a].translation()) : V3::Zero();
    W.translation() = base + random_offset();
    pose[k] = Pose::Identity();
    pose[k].linear() = random_rotation();
    pose[k].translation() = W.translation() + random_offset();
    j.frame_b = pose[k].inverse() * W;
    j.frame_a = j.body_a >= 0 ? pose[j.body_a].inverse() * W : W;
    j.radius = Uniform(rng, o.radius_min, o.radius_max);
    j.half_length = j.radius * Uniform(rng, 0.5, 2.0);
    j.mu = Uniform(rng, o.mu_min, o.mu_max);
    physics::ValidateFrictionJoint(j);
    joint_point[k] = W.translation(), joint_axis[k] = W.linear().col(2);
  }
  p.A.resize(n, n);
  p.A.setFromTriplets(at.begin(), at.end());

  // Constraints: five implicit contacts per joint, rows [n; t] on each body it touches.
  std::vector<Eigen::Triplet<double>> jt;
  std::vector<int> first_constraint(nb);
  auto add_block = [&](int ci, int body, const Eigen::Matrix<double, 2, 6>& blk) {
    const int row = p.constraints[ci].row;
    for (int r = 0; r < 2; ++r)
      for (int c = 0; c < 6; ++c)
        if (blk(r, c) != 0.0) jt.emplace_back(row + r, 6 * body + c, blk(r, c));
    p.structure.blocks.push_back({ci, body, Eigen::MatrixXd(blk)});
  };
  for (int k = 0; k < nb; ++k) {
    const physics::FrictionJoint& j = joints[k];
    const Pose& pose_a = j.body_a >= 0 ? pose[j.body_a] : j.frame_a;  // unused for the world
    first_constraint[k] = p.num_constraints();
    for (const physics::ImplicitContactRows& ic :
         physics::EvaluateFrictionJoint(j, pose_a, pose[k])) {
      const int ci = AddConstraint(p.constraints, ConstraintType::kJointFriction, j.mu);
      add_block(ci, k, ic.block_b);
      if (j.body_a >= 0) add_block(ci, j.body_a, ic.block_a);
    }
  }
  const int m = p.num_rows();
  p.J.resize(m, n);
  p.J.setFromTriplets(jt.begin(), jt.end());

  // Statuses and joint rates: a sticking joint does not turn, a sliding one turns at q̇ with
  // tangent speed u_t = r q̇ at all five of its contacts.
  std::vector<char> stick(nb);
  std::vector<double> ut(nb, 0.0);
  for (int k = 0; k < nb; ++k) {
    stick[k] = Uniform(rng, 0, 1) < o.frac_stick;
    if (!stick[k]) ut[k] = (Uniform(rng, 0, 1) < 0.5 ? -1.0 : 1.0) * Uniform(rng, 0.1, 1.0);
  }
  // The tree's motion: spatial twists (ω, velocity of the point at the world origin), each body's
  // its parent's plus its joint's rotation about the axis through the joint point (parents come
  // first), then as body twists [Rᵀ v_origin; Rᵀ ω].
  std::vector<V3> w(nb), vo(nb);
  Vec v(n);
  for (int k = 0; k < nb; ++k) {
    const physics::FrictionJoint& j = joints[k];
    const V3 wj = joint_axis[k] * (ut[k] / j.radius);
    w[k] = wj, vo[k] = joint_point[k].cross(wj);
    if (j.body_a >= 0) w[k] += w[j.body_a], vo[k] += vo[j.body_a];
    const Mat3 Rt = pose[k].linear().transpose();
    v.segment<3>(6 * k) = Rt * (vo[k] + w[k].cross(pose[k].translation()));
    v.segment<3>(6 * k + 3) = Rt * w[k];
  }
  // Drift: random e_n, held by the minimum-norm correction J_n Δv = −e_n (J_n has full row rank:
  // five independent normals per joint, one joint per body).
  std::vector<int> nrows;
  for (const Constraint& c : p.constraints) nrows.push_back(c.row);
  const int mn = static_cast<int>(nrows.size());
  if (o.drift > 0) {
    SpMat S(mn, m);  // selects the normal rows
    for (int i = 0; i < mn; ++i) S.insert(i, nrows[i]) = 1.0;
    const SpMat Jn = S * p.J;
    const SpMat G = Jn * SpMat(Jn.transpose());
    Eigen::SimplicialLDLT<SpMat> ldlt(G);
    if (ldlt.info() != Eigen::Success) throw Error("joint_friction: J_n J_nᵀ is singular");
    Vec en(mn);
    for (int i = 0; i < mn; ++i) en[i] = Uniform(rng, -o.drift, o.drift);
    const Vec y = ldlt.solve(-en);
    v += Jn.transpose() * y;
  }
  // u = [0; u_t] per contact, e = u − J v* (exact u_n = 0 whatever the rounding of Δv).
  Vec u = Vec::Zero(m), lam = Vec::Zero(m);
  for (int k = 0; k < nb; ++k) {
    for (int c = 0; c < physics::kRevoluteContacts; ++c) {
      const Constraint& con = p.constraints[first_constraint[k] + c];
      const int r = con.row;
      u[r + 1] = ut[k];
      const double ln = (Uniform(rng, 0, 1) < 0.5 ? -1.0 : 1.0) * Uniform(rng, 0.5, 2.0);
      const double bound = con.mu * std::abs(ln);
      lam[r] = ln;
      lam[r + 1] = stick[k] ? Uniform(rng, -0.9, 0.9) * bound : (ut[k] > 0 ? -bound : bound);
    }
  }
  p.e = u - p.J * v;
  p.b = p.A * v - p.J.transpose() * lam;
  p.reference = Reference{v, lam, "manufactured", 0.0};

  int sticking = 0;
  for (char s : stick) sticking += s;
  p.meta.name = name;
  p.meta.scenario = "joint_friction";
  p.meta.case_name = fmt::format("bodies={} sticking={}", nb, sticking);
  p.meta.seed = seed;
  p.meta.generator_version = 1;
  auto& prm = p.meta.params;
  prm["bodies"] = nb, prm["branching"] = o.branching;
  prm["mu_min"] = o.mu_min, prm["mu_max"] = o.mu_max;
  prm["radius_min"] = o.radius_min, prm["radius_max"] = o.radius_max;
  prm["drift"] = o.drift, prm["frac_stick"] = o.frac_stick;
  prm["mass_ratio"] = o.mass_ratio, prm["body_size"] = o.body_size;
  return p;
}

}  // namespace ncp
