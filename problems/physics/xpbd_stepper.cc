#include "problems/physics/xpbd_stepper.h"

#include <fmt/format.h>

#include <Eigen/Cholesky>
#include <algorithm>
#include <cmath>

#include "common/error.h"
#include "problems/physics/dynamics/spatial.h"

namespace ncp::physics {

namespace {

Pose MakePose(const Vec3& x, const Mat3& R) {
  Pose T = Pose::Identity();
  T.linear() = R;
  T.translation() = x;
  return T;
}

// A world frame carried on with its velocity for τ seconds (MultibodySystem::Advance's rule).
Pose Carried(const Coupling& c, const Pose& start, double tau) {
  Pose T = start;
  T.translation() += tau * c.anchor_linear;
  T.linear() = ExpSO3(tau * c.anchor_angular) * start.linear();
  return T;
}

bool RowActive(const Coupling& c, int r) {
  return (c.rows >> r & 1u) && (c.hard || c.stiffness[r] > 0.0);
}

}  // namespace

void ValidateXpbdOptions(const XpbdOptions& o) {
  if (o.substeps < 1 || o.substeps > 1000000)
    throw Error(fmt::format("pbd substeps (--pbd) = {}: must be in [1, 1e6]", o.substeps));
  if (o.iterations < 1 || o.iterations > 1000000)
    throw Error(
        fmt::format("pbd passes a substep (--pbd-passes) = {}: must be in [1, 1e6]", o.iterations));
}

XpbdStepper::XpbdStepper(const MultibodySystem& s, XpbdOptions opt)
    : opt_(opt), collision_(s.geoms()) {
  ValidateXpbdOptions(opt);
  if (!s.friction_joints().empty())
    throw Error(fmt::format("pbd: {} friction joints: the PBD stepper steps free bodies only",
                            s.friction_joints().size()));
  const std::vector<Instance>& inst = s.instances();
  first_body_.assign(s.num_bodies(), -1);
  bodies_.resize(inst.size());
  for (std::size_t i = 0; i < inst.size(); ++i) {
    const ArticulatedModel& m = *inst[i].model;
    if (m.links.size() != 1 || m.links[0].joint != JointType::kFloating)
      throw Error(
          fmt::format("pbd: instance {} ('{}') has {} links: the PBD stepper steps "
                      "single free bodies only",
                      i, m.name, m.links.size()));
    const Link& l = m.links[0];
    const Eigen::LLT<Mat3> llt(l.inertia);
    if (!(l.mass > 0) || !std::isfinite(l.mass) || llt.info() != Eigen::Success ||
        !l.inertia.allFinite() || l.com.norm() > 1e-12)
      throw Error(
          fmt::format("pbd: instance {} ('{}'): mass = {}, com = [{}, {}, {}]: must have "
                      "a positive mass, a positive definite inertia and its centre of "
                      "mass at its frame",
                      i, m.name, l.mass, l.com.x(), l.com.y(), l.com.z()));
    bodies_[i].inv_mass = 1.0 / l.mass;
    bodies_[i].inertia = l.inertia;
    bodies_[i].inv_inertia = llt.solve(Mat3::Identity());
    first_body_[inst[i].first_body] = static_cast<int>(i);
  }
  const std::vector<Geom>& g = s.geoms();
  geom_body_.resize(g.size());
  for (std::size_t k = 0; k < g.size(); ++k) {
    if (g[k].mu_y >= 0)
      throw Error(
          fmt::format("pbd: geom {}: mu_y = {}: the PBD stepper has isotropic friction "
                      "only",
                      k, g[k].mu_y));
    geom_body_[k] = s.GeomInstance(static_cast<int>(k));
  }
  geom_poses_.resize(g.size());
  coupling_lambda_.resize(s.couplings().size());
  coupling_start_.resize(s.couplings().size());
}

Vec3 XpbdStepper::Point(int body, const Vec3& local, bool previous) const {
  const Body& b = bodies_[body];
  return previous ? Vec3(b.x_prev + b.R_prev * local) : Vec3(b.x + b.R * local);
}

Vec6 XpbdStepper::PointRow(int body, const Vec3& local, const Vec3& dir) const {
  // d(dir · p)/dξ for p = x + R local and a body-frame twist ξ = [δv; δω]: [Rᵀ dir; local × Rᵀ
  // dir].
  const Vec3 d = bodies_[body].R.transpose() * dir;
  Vec6 row;
  row << d, local.cross(d);
  return row;
}

double XpbdStepper::InverseMass(int body, const Vec6& row) const {
  if (body < 0) return 0.0;
  const Body& b = bodies_[body];
  return b.inv_mass * row.head<3>().squaredNorm() +
         row.tail<3>().dot(b.inv_inertia * row.tail<3>());
}

void XpbdStepper::Apply(int body, const Vec6& row, double scale) {
  if (body < 0) return;
  Body& b = bodies_[body];
  b.x += b.R * (b.inv_mass * scale * row.head<3>());
  b.R = b.R * ExpSO3(scale * (b.inv_inertia * row.tail<3>()));
}

void XpbdStepper::FindContacts(const MultibodySystem& s, XpbdStepStats& st) {
  const std::vector<Geom>& g = s.geoms();
  for (std::size_t k = 0; k < g.size(); ++k) {
    const int b = geom_body_[k];
    geom_poses_[k] = b < 0 ? g[k].local : MakePose(bodies_[b].x, bodies_[b].R) * g[k].local;
  }
  points_.clear();
  collision_.Detect(geom_poses_, s.options().margin, points_);
  contacts_.clear();
  for (const ContactPoint& p : points_) {
    Contact c;
    const int geom[2] = {p.geom_a, p.geom_b};
    for (int k = 0; k < 2; ++k) {
      c.body[k] = geom_body_[geom[k]];
      if (c.body[k] < 0) {
        c.at[k] = p.position;
        continue;
      }
      const Body& b = bodies_[c.body[k]];
      c.local[k] =
          g[geom[k]].contact_at_origin ? Vec3::Zero() : Vec3(b.R.transpose() * (p.position - b.x));
      c.at[k] = b.x + b.R * c.local[k];
    }
    c.n = p.normal;
    c.gap0 = p.gap;
    c.mu = std::sqrt(g[p.geom_a].mu * g[p.geom_b].mu);
    st.max_penetration = std::max(st.max_penetration, -p.gap);
    contacts_.push_back(c);
  }
  st.contacts = static_cast<int>(contacts_.size());
}

void XpbdStepper::Predict(double h, const Vec3& gravity) {
  for (Body& b : bodies_) {
    b.x_prev = b.x;
    b.R_prev = b.R;
    b.v += h * (gravity + b.inv_mass * b.push);
    b.w += h * (b.inv_inertia * (-b.w.cross(b.inertia * b.w)));
    b.x += h * b.v;
    b.R = b.R * ExpSO3(h * b.w);
  }
}

CouplingRows XpbdStepper::Rows(const Coupling& c, double tau) const {
  Coupling at = c;
  if (c.body_a < 0) at.frame_a = Carried(c, c.frame_a, tau);
  const int a = c.body_a < 0 ? -1 : first_body_[c.body_a], b = first_body_[c.body_b];
  const Pose pa = a < 0 ? Pose::Identity() : MakePose(bodies_[a].x, bodies_[a].R);
  return EvaluateCoupling(at, pa, MakePose(bodies_[b].x, bodies_[b].R));
}

void XpbdStepper::SolveCouplings(const MultibodySystem& s, double tau_h, double h, bool first) {
  const std::vector<Coupling>& given = s.couplings();
  for (std::size_t k = 0; k < given.size(); ++k) {
    const Coupling& c = given[k];
    const int a = c.body_a < 0 ? -1 : first_body_[c.body_a], b = first_body_[c.body_b];
    const CouplingRows cr = Rows(c, tau_h);
    if (first) coupling_lambda_[k].setZero();
    // W = B_b M_b⁻¹ B_bᵀ + B_a M_a⁻¹ B_aᵀ, the blocks in body-twist terms.
    Eigen::Matrix<double, 6, 6> W = Eigen::Matrix<double, 6, 6>::Zero();
    for (const auto& [body, blk] : {std::pair{b, &cr.block_b}, std::pair{a, &cr.block_a}}) {
      if (body < 0) continue;
      Eigen::Matrix<double, 6, 6> MinvBt;
      MinvBt.topRows<3>() = bodies_[body].inv_mass * blk->leftCols<3>().transpose();
      MinvBt.bottomRows<3>() = bodies_[body].inv_inertia * blk->rightCols<3>().transpose();
      W.noalias() += *blk * MinvBt;
    }
    Eigen::Matrix<double, 6, 6> A = W;
    Vec6 rhs = Vec6::Zero();
    for (int r = 0; r < 6; ++r) {
      if (!RowActive(c, r)) {
        A.row(r).setZero();
        A.col(r).setZero();
        A(r, r) = 1.0;
        continue;
      }
      // XPBD: α̃ = 1 / (K h²), γ = α̃ β̃ / h = τ / h with D = τ K; hard rows: α̃ = γ = 0.
      const double alpha = c.hard ? 0.0 : 1.0 / (c.stiffness[r] * h * h);
      const double gamma =
          c.hard || c.stiffness[r] == 0.0 ? 0.0 : c.damping[r] / c.stiffness[r] / h;
      A.row(r) *= 1.0 + gamma;
      A(r, r) += alpha;
      rhs[r] = -(cr.error[r] + alpha * coupling_lambda_[k][r] +
                 gamma * (cr.error[r] - coupling_start_[k][r]));
    }
    const Vec6 dl = A.ldlt().solve(rhs);
    coupling_lambda_[k] += dl;
    for (const auto& [body, blk] : {std::pair{b, &cr.block_b}, std::pair{a, &cr.block_a}})
      if (body >= 0) Apply(body, blk->transpose() * dl, 1.0);
  }
}

void XpbdStepper::SolveContacts(double slop) {
  for (Contact& c : contacts_) {
    const int a = c.body[0], b = c.body[1];
    const auto point = [&](int k, bool prev) {
      return c.body[k] < 0 ? c.at[k] : Point(c.body[k], c.local[k], prev);
    };
    const double g = c.gap0 + c.n.dot((point(1, false) - c.at[1]) - (point(0, false) - c.at[0]));
    if (g + slop >= 0) continue;
    const Vec6 ra = a < 0 ? Vec6::Zero() : PointRow(a, c.local[0], c.n);
    const Vec6 rb = b < 0 ? Vec6::Zero() : PointRow(b, c.local[1], c.n);
    const double w = InverseMass(a, ra) + InverseMass(b, rb);
    if (!(w > 0)) continue;
    const double dl = -(g + slop) / w;
    c.lambda_n += dl;
    Apply(b, rb, dl);
    Apply(a, ra, -dl);
    if (opt_.friction != XpbdFriction::kPositional) continue;
    // Static friction: undo the points' tangential slip of this substep while its multiplier
    // stays inside the cone.
    const Vec3 d = (point(1, false) - point(1, true)) - (point(0, false) - point(0, true));
    const Vec3 dt = d - c.n.dot(d) * c.n;
    const double slip = dt.norm();
    if (!(slip > 0)) continue;
    const Vec3 t = dt / slip;
    const Vec6 ta = a < 0 ? Vec6::Zero() : PointRow(a, c.local[0], t);
    const Vec6 tb = b < 0 ? Vec6::Zero() : PointRow(b, c.local[1], t);
    const double wt = InverseMass(a, ta) + InverseMass(b, tb);
    if (!(wt > 0)) continue;
    const double lt = slip / wt;
    if (lt > c.mu * c.lambda_n) continue;
    Apply(b, tb, -lt);
    Apply(a, ta, lt);
  }
}

void XpbdStepper::UpdateVelocities(double h) {
  for (Body& b : bodies_) {
    b.v = (b.x - b.x_prev) / h;
    b.w = LogSO3(b.R_prev.transpose() * b.R) / h;
  }
}

void XpbdStepper::SolveVelocities(double h) {
  for (const Contact& c : contacts_) {
    if (!(c.lambda_n > 0)) continue;
    const auto velocity = [&](int k) {
      if (c.body[k] < 0) return Vec3(Vec3::Zero());
      const Body& b = bodies_[c.body[k]];
      return Vec3(b.v + b.R * b.w.cross(c.local[k]));
    };
    const Vec3 u = velocity(1) - velocity(0);
    const double un = c.n.dot(u);
    const Vec3 ut = u - un * c.n;
    const double slide = ut.norm();
    // No restitution: a contact that pushed this substep ends it with no normal velocity.
    const double pn = Impulse(c, c.n, -un, INFINITY);
    // Dynamic friction as an impulse: what stops the points' slip, capped by μ times a normal
    // impulse. kPositional (Müller et al. 2020 eq. (30)): the position pass's λ_n / h. kVelocity:
    // the substep's net normal impulse, λ_n / h and this pass's pn; λ_n alone misreads both
    // ways, a Gauss–Seidel pass that leaves part of the weight to this pass under-brakes (10% on
    // a sliding box) and a push-out this pass takes back over-brakes (a cable around a post).
    const double normal = opt_.friction == XpbdFriction::kPositional
                              ? c.lambda_n / h
                              : std::max(c.lambda_n / h + pn, 0.0);
    if (slide > 0) Impulse(c, ut / slide, -slide, c.mu * normal);
  }
}

double XpbdStepper::Impulse(const Contact& c, const Vec3& dir, double dv, double cap) {
  const int a = c.body[0], b = c.body[1];
  const Vec6 ra = a < 0 ? Vec6::Zero() : PointRow(a, c.local[0], dir);
  const Vec6 rb = b < 0 ? Vec6::Zero() : PointRow(b, c.local[1], dir);
  const double w = InverseMass(a, ra) + InverseMass(b, rb);
  if (!(w > 0) || dv == 0.0) return 0.0;
  const double p = std::copysign(std::min(std::abs(dv) / w, cap), dv);
  for (const auto& [body, row, sign] : {std::tuple{b, rb, 1.0}, std::tuple{a, ra, -1.0}}) {
    if (body < 0) continue;
    Body& x = bodies_[body];
    x.v += x.R * (sign * p * x.inv_mass * row.head<3>());
    x.w += sign * p * (x.inv_inertia * row.tail<3>());
  }
  return p;
}

void XpbdStepper::WriteBack(MultibodySystem& s) {
  const std::vector<Vec3>& x0 = x0_;
  const std::vector<Mat3>& R0 = R0_;
  const double dt = s.options().dt;
  // v̂ such that the system's own update (x += dt R v̂_lin, R ← R Exp(dt v̂_ang)) lands on our
  // poses; the velocities are ours, set after.
  Vec vhat(s.num_dofs());
  std::vector<Instance>& inst = s.instances();
  for (std::size_t i = 0; i < bodies_.size(); ++i) {
    const Body& b = bodies_[i];
    vhat.segment<3>(inst[i].v_offset) = R0[i].transpose() * (b.x - x0[i]) / dt;
    vhat.segment<3>(inst[i].v_offset + 3) = LogSO3(R0[i].transpose() * b.R) / dt;
  }
  s.Advance(vhat);
  for (std::size_t i = 0; i < bodies_.size(); ++i) {
    inst[i].v.head<3>() = bodies_[i].R.transpose() * bodies_[i].v;
    inst[i].v.tail<3>() = bodies_[i].w;
  }
}

XpbdStepStats XpbdStepper::Step(MultibodySystem& s) {
  const double dt = s.options().dt, h = dt / opt_.substeps;
  const std::vector<Instance>& inst = s.instances();
  x0_.resize(bodies_.size());
  R0_.resize(bodies_.size());
  for (std::size_t i = 0; i < bodies_.size(); ++i) {
    const Eigen::VectorXd& q = inst[i].q;
    Body& b = bodies_[i];
    b.x = q.head<3>();
    b.R = Eigen::Quaterniond(q[3], q[4], q[5], q[6]).normalized().toRotationMatrix();
    b.v = b.R * inst[i].v.head<3>();
    b.w = inst[i].v.tail<3>();
    b.push = inst[i].push;
    x0_[i] = b.x, R0_[i] = b.R;
  }
  XpbdStepStats st;
  FindContacts(s, st);
  const std::vector<Coupling>& couplings = s.couplings();
  const StepOptions& so = s.options();
  for (int k = 0; k < opt_.substeps; ++k) {
    // The couplings' values at the substep's start, for their damping (XPBD's ∇C (x − xⁿ)).
    for (std::size_t j = 0; j < couplings.size(); ++j)
      coupling_start_[j] = Rows(couplings[j], k * h).error;
    Predict(h, so.gravity);
    for (Contact& c : contacts_) c.lambda_n = 0.0;
    for (int it = 0; it < opt_.iterations; ++it) {
      SolveCouplings(s, (k + 1) * h, h, it == 0);
      SolveContacts(so.slop);
    }
    UpdateVelocities(h);
    SolveVelocities(h);
  }
  for (const Body& b : bodies_)
    if (!b.x.allFinite() || !b.R.allFinite() || !b.v.allFinite() || !b.w.allFinite())
      throw Error(fmt::format("pbd: step at t = {}: a body's state is not finite", s.time()));
  WriteBack(s);
  return st;
}

}  // namespace ncp::physics
