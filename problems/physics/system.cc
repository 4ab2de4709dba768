#include "problems/physics/system.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cmath>
#include <map>

#include "common/error.h"
#include "problems/physics/dynamics/spatial.h"

namespace ncp::physics {
namespace {

using Triplet = Eigen::Triplet<double>;

// Appends rows × 6 block `blk` of body `body` times its Jacobian Jb (6 × nv of the instance).
void AddBodyRows(const Eigen::MatrixXd& blk, const Eigen::MatrixXd& Jb, int row, int col0,
                 std::vector<Triplet>& t) {
  const Eigen::MatrixXd rows = blk * Jb;
  for (int r = 0; r < rows.rows(); ++r)
    for (int c = 0; c < rows.cols(); ++c)
      if (rows(r, c) != 0.0) t.emplace_back(row + r, col0 + c, rows(r, c));
}

// An anisotropic geom (mu_y ≥ 0) needs both coefficients positive: the ellipse's rows scale by
// their ratio.
void CheckGeomFriction(const Geom& g) {
  if (g.mu_y >= 0 && !(g.mu > 0 && g.mu_y > 0))
    throw Error(fmt::format("geom friction mu = {}, mu_y = {}: an anisotropic geom needs both > 0",
                            g.mu, g.mu_y));
}

}  // namespace

void MultibodySystem::set_options(const StepOptions& o) {
  ValidateStepOptions(o);
  opt_ = o;
}

int MultibodySystem::AddInstance(std::shared_ptr<const ArticulatedModel> model, VectorXd q,
                                 VectorXd v, PdGains pd, bool self_collision) {
  if (collision_) throw Error("MultibodySystem: AddInstance after Finalize");
  if (q.size() != model->nq || v.size() != model->nv)
    throw Error(
        fmt::format("instance of '{}': wrong argument size: expected q {} and v {}, got "
                    "{} and {}",
                    model->name, model->nq, model->nv, q.size(), v.size()));
  if (pd.kp > 0 && pd.target.size() != model->nq)
    throw Error(fmt::format("instance of '{}': pd.target: wrong argument size: expected {}, got {}",
                            model->name, model->nq, pd.target.size()));
  if (!(pd.kp >= 0) || !(pd.kd >= 0))
    throw Error(fmt::format("instance of '{}': pd gains kp = {}, kd = {}: must be >= 0",
                            model->name, pd.kp, pd.kd));
  Instance in;
  in.model = model;
  in.q = std::move(q);
  in.v = std::move(v);
  in.pd = std::move(pd);
  in.v_offset = ndofs_;
  in.first_body = nbodies_;
  const int id = static_cast<int>(inst_.size());
  for (std::size_t l = 0; l < model->links.size(); ++l) {
    for (Geom g : model->links[l].geoms) {
      CheckGeomFriction(g);
      g.body = nbodies_ + static_cast<int>(l);
      if (!self_collision) g.group = id + 1;
      geoms_.push_back(g);
      owner_.push_back({id, static_cast<int>(l)});
    }
    body_instance_.push_back(id);
    body_link_.push_back(static_cast<int>(l));
  }
  ndofs_ += model->nv;
  nbodies_ += static_cast<int>(model->links.size());
  inst_.push_back(std::move(in));
  sub_first_.push_back(id);
  sub_kind_.emplace_back();
  if (eliminate_) reduce_ = ReductionMap();  // its dofs are kept: the map grows
  return id;
}

int MultibodySystem::AddCoupling(const Coupling& c) {
  const int n = static_cast<int>(couplings_.size());
  if (!(c.body_b >= 0 && c.body_b < nbodies_))
    throw Error(fmt::format("coupling {}: body_b = {}: must be a body index in [0, {})", n,
                            c.body_b, nbodies_));
  if (!(c.body_a >= -1 && c.body_a < nbodies_ && c.body_a != c.body_b))
    throw Error(
        fmt::format("coupling {}: body_a = {}: must be -1 (world) or another body index "
                    "in [0, {})",
                    n, c.body_a, nbodies_));
  for (int r = 0; r < 6; ++r)
    if (!(c.stiffness[r] >= 0 && std::isfinite(c.stiffness[r]) && c.damping[r] >= 0 &&
          std::isfinite(c.damping[r])))
      throw Error(
          fmt::format("coupling {}: row {}: stiffness = {}, damping = {}: must be finite "
                      "and >= 0",
                      n, r, c.stiffness[r], c.damping[r]));
  if (!c.rest.allFinite())
    throw Error(fmt::format("coupling {}: rest = [{}]: must be finite", n,
                            fmt::join(c.rest.data(), c.rest.data() + 6, ", ")));
  if (c.rows == 0 || c.rows > 0x3f)
    throw Error(
        fmt::format("coupling {}: rows = {:#x}: must be a non-empty mask of the six rows "
                    "(bits 0-5)",
                    n, c.rows));
  couplings_.push_back(c);
  return n;
}

int MultibodySystem::AddFrictionJoint(const FrictionJoint& j) {
  const int n = static_cast<int>(friction_joints_.size());
  if (!(j.body_b >= 0 && j.body_b < nbodies_))
    throw Error(fmt::format("friction joint {}: body_b = {}: must be a body index in [0, {})", n,
                            j.body_b, nbodies_));
  if (!(j.body_a >= -1 && j.body_a < nbodies_ && j.body_a != j.body_b))
    throw Error(
        fmt::format("friction joint {}: body_a = {}: must be -1 (world) or another body "
                    "index in [0, {})",
                    n, j.body_a, nbodies_));
  try {
    ValidateFrictionJoint(j);
  } catch (const Error& e) {
    throw Error(fmt::format("friction joint {}: {}", n, e.what()));
  }
  friction_joints_.push_back(j);
  return n;
}

int MultibodySystem::PrescribeJoint(int instance, int link, std::function<double(double)> path) {
  const int n = static_cast<int>(prescribed_.size());
  if (!(instance >= 0 && instance < static_cast<int>(inst_.size())))
    throw Error(fmt::format("prescribed joint {}: instance = {}: must be in [0, {})", n, instance,
                            inst_.size()));
  const ArticulatedModel& m = *inst_[instance].model;
  if (!(link >= 0 && link < static_cast<int>(m.links.size())))
    throw Error(
        fmt::format("prescribed joint {}: link = {}: must be in [0, {})", n, link, m.links.size()));
  const JointType t = m.links[link].joint;
  if (t != JointType::kRevolute && t != JointType::kPrismatic)
    throw Error(
        fmt::format("prescribed joint {}: link {} ('{}'): its joint must be revolute or "
                    "prismatic",
                    n, link, m.links[link].name));
  for (const Prescribed& p : prescribed_)
    if (p.instance == instance && p.link == link)
      throw Error(fmt::format("prescribed joint {}: link {} ('{}'): already prescribed", n, link,
                              m.links[link].name));
  if (!path) throw Error(fmt::format("prescribed joint {}: path: must be a function", n));
  prescribed_.push_back({instance, link, std::move(path)});
  return n;
}

int MultibodySystem::CoupleJoints(int instance, int link_a, int link_b, double ratio) {
  const int n = static_cast<int>(joint_ratios_.size());
  if (!(instance >= 0 && instance < static_cast<int>(inst_.size())))
    throw Error(fmt::format("joint coupling {}: instance = {}: must be in [0, {})", n, instance,
                            inst_.size()));
  const ArticulatedModel& m = *inst_[instance].model;
  for (const auto& [name, link] : {std::pair{"link_a", link_a}, std::pair{"link_b", link_b}}) {
    if (!(link >= 0 && link < static_cast<int>(m.links.size())))
      throw Error(fmt::format("joint coupling {}: {} = {}: must be in [0, {})", n, name, link,
                              m.links.size()));
    const JointType t = m.links[link].joint;
    if (t != JointType::kRevolute && t != JointType::kPrismatic)
      throw Error(
          fmt::format("joint coupling {}: {} = {} ('{}'): its joint must be revolute or "
                      "prismatic",
                      n, name, link, m.links[link].name));
  }
  if (link_a == link_b)
    throw Error(fmt::format("joint coupling {}: link_b = {}: must differ from link_a", n, link_b));
  if (!std::isfinite(ratio))
    throw Error(fmt::format("joint coupling {}: ratio = {}: must be finite", n, ratio));
  joint_ratios_.push_back({instance, link_a, link_b, ratio});
  if (eliminate_) {  // the new coupling must fold like the others
    try {
      EliminateJointCouplings(true);
    } catch (const Error&) {
      joint_ratios_.pop_back();
      throw;
    }
  }
  return n;
}

double MultibodySystem::JointCouplingError() const {
  double worst = 0.0;
  for (const JointRatio& j : joint_ratios_) {
    const Instance& in = inst_[j.instance];
    const auto& l = in.model->links;
    worst =
        std::max(worst, std::abs(in.q[l[j.link_b].q_index] - j.ratio * in.q[l[j.link_a].q_index]));
  }
  return worst;
}

void MultibodySystem::EliminateJointCouplings(bool on) {
  if (on)
    for (std::size_t k = 0; k < joint_ratios_.size(); ++k)
      for (const JointRatio& other : joint_ratios_)
        if (other.instance == joint_ratios_[k].instance && other.link_b == joint_ratios_[k].link_a)
          throw Error(
              fmt::format("joint coupling {}: link_a = {}: is itself coupled (link_b of "
                          "another coupling): a chain cannot be eliminated",
                          k, joint_ratios_[k].link_a));
  eliminate_ = on;
  reduce_ = on ? ReductionMap() : Eigen::SparseMatrix<double>();
}

Eigen::SparseMatrix<double> MultibodySystem::ReductionMap() const {
  std::vector<int> folded(ndofs_, -1);  // eliminated dof → its coupling
  for (std::size_t k = 0; k < joint_ratios_.size(); ++k) {
    const JointRatio& j = joint_ratios_[k];
    folded[inst_[j.instance].v_offset + inst_[j.instance].model->links[j.link_b].v_index] =
        static_cast<int>(k);
  }
  std::vector<int> column(ndofs_, -1);  // kept dof → its column of z
  for (int d = 0, z = 0; d < ndofs_; ++d)
    if (folded[d] < 0) column[d] = z++;
  std::vector<Eigen::Triplet<double>> t;
  for (int d = 0; d < ndofs_; ++d) {
    if (folded[d] < 0) {
      t.emplace_back(d, column[d], 1.0);
      continue;
    }
    const JointRatio& j = joint_ratios_[folded[d]];
    const Instance& in = inst_[j.instance];
    t.emplace_back(d, column[in.v_offset + in.model->links[j.link_a].v_index], j.ratio);
  }
  Eigen::SparseMatrix<double> S(ndofs_, num_dofs());
  S.setFromTriplets(t.begin(), t.end());
  return S;
}

void MultibodySystem::Reduce(ContactProblem& p) const {
  const Eigen::SparseMatrix<double>& S = reduce_;
  const SpMat St = S.transpose();
  p.A = St * p.A * S;
  p.b = St * p.b;
  p.J = p.J * S;
  std::vector<int> before(ndofs_ + 1, 0);  // eliminated dofs before each dof
  for (const JointRatio& j : joint_ratios_) {
    const Instance& in = inst_[j.instance];
    ++before[in.v_offset + in.model->links[j.link_b].v_index + 1];
  }
  for (int d = 0; d < ndofs_; ++d) before[d + 1] += before[d];
  Structure& st = p.structure;
  for (std::size_t s = 0; s < st.subsystems.size(); ++s) {
    Structure::Subsystem& sub = st.subsystems[s];
    const int begin = sub.dof_begin, end = sub.dof_begin + sub.dof_count;
    const int gone = before[end] - before[begin];
    sub.dof_begin = begin - before[begin];
    sub.dof_count -= gone;
    if (gone == 0) continue;
    const Eigen::MatrixXd Ssub(S.block(begin, sub.dof_begin, end - begin, sub.dof_count));
    for (Structure::Body& b : st.bodies) {
      if (b.subsystem != static_cast<int>(s)) continue;
      b.jacobian = b.jacobian * Ssub;
      b.joint_dof = -1, b.joint_dofs = 0;  // a folded joint's body moves with another's dof
    }
  }
}

double MultibodySystem::PrescribedError() const {
  double worst = 0.0;
  for (const Prescribed& p : prescribed_) {
    const Instance& in = inst_[p.instance];
    worst = std::max(worst, std::abs(in.q[in.model->links[p.link].q_index] - p.path(time_)));
  }
  return worst;
}

void MultibodySystem::SetCouplingFrame(int c, const Pose& frame, const Vec3& linear,
                                       const Vec3& angular) {
  if (c < 0 || c >= static_cast<int>(couplings_.size()) || couplings_[c].body_a >= 0)
    throw Error(fmt::format("coupling {}: not a coupling to a world frame", c));
  couplings_[c].frame_a = frame;
  couplings_[c].anchor_linear = linear;
  couplings_[c].anchor_angular = angular;
}

void MultibodySystem::GroupSubsystems(int first, int count, int per_subsystem,
                                      const std::string& kind) {
  const int n = static_cast<int>(inst_.size());
  if (!(first >= 0 && count >= 1 && first + count <= n))
    throw Error(
        fmt::format("instances [{}, {} + {}): must lie in [0, {})", first, first, count, n));
  if (per_subsystem < 1)
    throw Error(fmt::format("per_subsystem = {}: must be >= 1", per_subsystem));
  for (int i = first; i < first + count; ++i) {
    sub_first_[i] = first + (i - first) / per_subsystem * per_subsystem;
    sub_kind_[i] = kind;
  }
}

int MultibodySystem::AddWorldGeom(const Geom& g) {
  if (collision_) throw Error("MultibodySystem: AddWorldGeom after Finalize");
  CheckGeomFriction(g);
  Geom w = g;
  w.body = -1;
  geoms_.push_back(w);
  owner_.push_back({});
  return static_cast<int>(geoms_.size()) - 1;
}

int MultibodySystem::AddKinematicGeom(const Geom& g) {
  const int k = AddWorldGeom(g);
  kinematic_.push_back({k, Vec3::Zero(), Vec3::Zero()});
  return k;
}

void MultibodySystem::SetKinematicPose(int geom, const Pose& pose, const Vec3& linear,
                                       const Vec3& angular) {
  for (KinematicGeom& k : kinematic_)
    if (k.geom == geom) {
      geoms_[geom].local = pose;
      k.linear = linear;
      k.angular = angular;
      return;
    }
  throw Error(fmt::format("geom {}: not a kinematic geom", geom));
}

void MultibodySystem::Finalize() {
  collision_ = std::make_unique<CollisionWorld>(geoms_);
  geom_poses_.resize(geoms_.size());
  UpdateKinematics();
}

const Pose& MultibodySystem::BodyPose(int b) const {
  return inst_[body_instance_[b]].kin.world[body_link_[b]];
}

void MultibodySystem::UpdateKinematics() {
  for (Instance& in : inst_) ForwardKinematics(*in.model, in.q, in.kin);
}

void MultibodySystem::AddSplineBody(const SplineBody& b) {
  const std::size_t n = b.body.size();
  if (n < 2 || b.local.size() != n || b.radius.size() != n)
    throw Error(
        fmt::format("spline body: {} bodies, {} local points, {} radii: need the same "
                    "number, at least 2",
                    n, b.local.size(), b.radius.size()));
  for (int body : b.body)
    if (!(body >= 0 && body < nbodies_))
      throw Error(
          fmt::format("spline body: body = {}: must be a body index in [0, {})", body, nbodies_));
  for (double r : b.radius)
    if (!(r > 0 && std::isfinite(r)))
      throw Error(fmt::format("spline body: radius = {}: must be positive and finite", r));
  if (b.skip < 1) throw Error(fmt::format("spline body: skip = {}: must be ≥ 1", b.skip));
  spline_bodies_.push_back(b);
}

ContactProblem MultibodySystem::BuildProblem(std::vector<ContactPoint>* contacts) {
  if (!collision_) throw Error("MultibodySystem: BuildProblem before Finalize");
  UpdateKinematics();
  const double dt = opt_.dt;
  ContactProblem p;
  p.form = ProblemForm::kGlobal;

  // A and b per instance; structure: one subsystem per instance or per group of instances
  // (GroupSubsystems), one body per link.
  std::vector<Triplet> at;
  p.b.resize(ndofs_);
  std::vector<std::vector<Eigen::MatrixXd>> Jb(inst_.size());
  for (std::size_t i = 0; i < inst_.size(); ++i) {
    const Instance& in = inst_[i];
    const ArticulatedModel& m = *in.model;
    const MatrixXd H = MassMatrix(m, in.kin);
    const VectorXd bias = InverseDynamics(m, in.kin, in.v, VectorXd::Zero(m.nv), opt_.gravity);
    for (int r = 0; r < m.nv; ++r)
      for (int c = 0; c < m.nv; ++c)
        if (H(r, c) != 0.0) at.emplace_back(in.v_offset + r, in.v_offset + c, H(r, c));
    p.b.segment(in.v_offset, m.nv) = H * in.v - (1.0 - opt_.theta) * dt * bias;
    if (sub_first_[i] == static_cast<int>(i)) {
      Structure::Subsystem s;
      s.dof_begin = in.v_offset;
      for (std::size_t k = i; k < inst_.size() && sub_first_[k] == static_cast<int>(i); ++k)
        s.dof_count += inst_[k].model->nv;
      s.kind = !sub_kind_[i].empty() ? sub_kind_[i] : m.links.size() > 1 ? "articulated" : "rigid";
      p.structure.subsystems.push_back(s);
    }
    const Structure::Subsystem& sub = p.structure.subsystems.back();
    const int col0 = in.v_offset - sub.dof_begin;  // the instance's dofs within its subsystem
    Jb[i].resize(m.links.size());
    for (std::size_t l = 0; l < m.links.size(); ++l) {
      BodyJacobian(m, in.kin, static_cast<int>(l), Jb[i][l]);
      Structure::Body body;
      body.subsystem = static_cast<int>(p.structure.subsystems.size()) - 1;
      body.parent = m.links[l].parent < 0 ? -1 : in.first_body + m.links[l].parent;
      body.mass = m.links[l].mass;
      body.inertia = m.links[l].inertia;
      body.com = m.links[l].com;
      body.jacobian = Eigen::MatrixXd::Zero(6, sub.dof_count);
      body.jacobian.middleCols(col0, m.nv) = Jb[i][l];
      body.joint_dof = col0 + m.links[l].v_index;
      body.joint_dofs = ArticulatedModel::Nv(m.links[l].joint);
      if (m.links[l].parent >= 0) body.transform = TwistTransform(in.kin.local[l]);
      p.structure.bodies.push_back(body);
    }
    // The push enters like the bias: its impulse over the step, in the root link's frame.
    if (!in.push.isZero())
      p.b.segment(in.v_offset, m.nv) += (1.0 - opt_.theta) * dt *
                                        Jb[i][0].topRows<3>().transpose() *
                                        (in.kin.world[0].linear().transpose() * in.push);
  }
  p.A.resize(ndofs_, ndofs_);
  p.A.setFromTriplets(at.begin(), at.end());

  std::vector<Triplet> jt;
  std::vector<double> e;
  auto add_block = [&](int ci, int inst, int link, const Eigen::MatrixXd& blk) {
    const Instance& in = inst_[inst];
    AddBodyRows(blk, Jb[inst][link], p.constraints[ci].row, in.v_offset, jt);
    p.structure.blocks.push_back({ci, in.first_body + link, blk});
  };

  // Contacts.
  for (std::size_t g = 0; g < geoms_.size(); ++g) {
    const GeomOwner& o = owner_[g];
    geom_poses_[g] =
        o.instance < 0 ? geoms_[g].local : inst_[o.instance].kin.world[o.link] * geoms_[g].local;
  }
  contacts_.clear();
  collision_->Detect(geom_poses_, opt_.margin, contacts_);
  for (const ContactPoint& c : contacts_) {
    const Geom &ga = geoms_[c.geom_a], &gb = geoms_[c.geom_b];
    Mat3 F = ContactFrame(c.normal);
    double mu = std::sqrt(ga.mu * gb.mu);
    if (ga.mu_y >= 0 || gb.mu_y >= 0) {  // the anisotropic geom's axes
      if (ga.mu_y >= 0 && gb.mu_y >= 0)
        throw Error(
            fmt::format("contact of geoms {} and {}: both anisotropic (one ellipse per "
                        "pair: only one geom of a pair may set mu_y)",
                        c.geom_a, c.geom_b));
      const int g = ga.mu_y >= 0 ? c.geom_a : c.geom_b;
      const double mu_y =
          std::sqrt((ga.mu_y >= 0 ? ga.mu_y : ga.mu) * (gb.mu_y >= 0 ? gb.mu_y : gb.mu));
      if (mu > 0) {  // a frictionless partner (μ = 0) makes the pair frictionless on both axes
        const EllipticFrame ef =
            EllipticContactFrame(c.normal, geom_poses_[g].linear().col(0), mu, mu_y);
        F = ef.rows, mu = ef.mu;
      }
    }
    const int ci = AddConstraint(p.constraints, ConstraintType::kContact, mu);
    Vec3 ew = Vec3::Zero();  // velocity terms of kinematic geoms: u = F (v_b − v_a) + e
    for (const auto& [geom, sign] : {std::pair{c.geom_a, -1.0}, std::pair{c.geom_b, 1.0}}) {
      const GeomOwner& o = owner_[geom];
      if (o.instance < 0) {
        for (const KinematicGeom& k : kinematic_)
          if (k.geom == geom) ew += sign * (k.linear + k.angular.cross(c.position));
        continue;
      }
      const Pose& T = inst_[o.instance].kin.world[o.link];
      // The contact point in the link frame (the frame's origin for a nodal contact).
      const Vec3 pl = geoms_[geom].contact_at_origin ? Vec3::Zero() : T.inverse() * c.position;
      Eigen::Matrix<double, 3, 6> G;
      G << Mat3::Identity(), -Skew(pl);
      add_block(ci, o.instance, o.link, sign * (F * T.linear()) * G);
    }
    const Vec3 ef = F * ew;
    e.push_back(Stabilize(c.gap) + ef[0]);
    e.push_back(ef[1]);
    e.push_back(ef[2]);
  }

  // Spline self-contacts: n·(v_b − v_a) at the contact point, each side moving with its
  // segment's body.
  spline_tubes_.clear();
  spline_contacts_.clear();
  spline_contact_body_.clear();
  for (const SplineBody& sb : spline_bodies_) {
    SplineTube tube{.radius = sb.radius, .skip = sb.skip};
    for (std::size_t k = 0; k < sb.body.size(); ++k)
      tube.nodes.push_back(BodyPose(sb.body[k]) * sb.local[k]);
    const std::size_t first = spline_contacts_.size();
    SplineSelfContacts(tube, opt_.margin, spline_contacts_);
    spline_contact_body_.resize(spline_contacts_.size(), static_cast<int>(spline_tubes_.size()));
    for (std::size_t k = first; k < spline_contacts_.size(); ++k) {
      const SplineContact& c = spline_contacts_[k];
      const int ci = AddConstraint(p.constraints, ConstraintType::kUnilateral);
      for (const auto& [seg, sign] : {std::pair{c.seg_a, -1.0}, std::pair{c.seg_b, 1.0}}) {
        const int body = sb.body[seg];
        const Pose& T = BodyPose(body);
        Eigen::Matrix<double, 3, 6> G;
        G << Mat3::Identity(), -Skew(T.inverse() * c.position);
        add_block(ci, body_instance_[body], body_link_[body],
                  sign * c.normal.transpose() * T.linear() * G);
      }
      e.push_back(Stabilize(c.gap));
    }
    spline_tubes_.push_back(std::move(tube));
  }

  // Joint rows: q̇_j = Sᵀ V_child − Sᵀ X_child V_parent (blocks on the child and its parent).
  auto add_joint_row = [&](int ci, int inst, int link, double sign) {
    const Instance& in = inst_[inst];
    const Link& l = in.model->links[link];
    const Eigen::Matrix<double, 1, 6> St = MotionSubspace(l).transpose();
    add_block(ci, inst, link, sign * St);
    if (l.parent >= 0)
      add_block(ci, inst, l.parent, -sign * St * TwistTransform(in.kin.local[link]));
  };
  for (std::size_t i = 0; i < inst_.size(); ++i) {
    const Instance& in = inst_[i];
    const ArticulatedModel& m = *in.model;
    for (std::size_t l = 0; l < m.links.size(); ++l) {
      const Link& lk = m.links[l];
      if (lk.joint != JointType::kRevolute && lk.joint != JointType::kPrismatic) continue;
      const double q = in.q[lk.q_index];
      if (q - lk.lower < opt_.limit_margin) {
        add_joint_row(AddConstraint(p.constraints, ConstraintType::kUnilateral), i, l, 1.0);
        e.push_back(Stabilize(q - lk.lower));
      }
      if (lk.upper - q < opt_.limit_margin) {
        add_joint_row(AddConstraint(p.constraints, ConstraintType::kUnilateral), i, l, -1.0);
        e.push_back(Stabilize(lk.upper - q));
      }
      const bool prescribed = std::any_of(prescribed_.begin(), prescribed_.end(), [&](auto& p) {
        return p.instance == static_cast<int>(i) && p.link == static_cast<int>(l);
      });
      if (in.pd.kp > 0 && !prescribed) {
        const double k = in.pd.kp * dt, d = in.pd.kd * dt + in.pd.kp * dt * dt;
        add_joint_row(AddConstraint(p.constraints, ConstraintType::kSoft, 0.0, k, d), i, l, 1.0);
        e.push_back(q - in.pd.target[lk.q_index]);
      }
    }
  }
  // Prescribed joints: J v̂ + e = 0 with e = −(q*(t + dt) − q)/dt lands on the path each step.
  for (const Prescribed& pj : prescribed_) {
    const Instance& in = inst_[pj.instance];
    const double q = in.q[in.model->links[pj.link].q_index];
    add_joint_row(AddConstraint(p.constraints, ConstraintType::kBilateral), pj.instance, pj.link,
                  1.0);
    e.push_back(-(pj.path(time_ + dt) - q) / dt);
  }
  // Coupled joints: both joints' rows in one, their blocks summed per link (a joint's parent
  // may be the other joint's link).
  for (const JointRatio& jr : joint_ratios_) {
    if (eliminate_) break;  // folded into the dofs by Reduce
    const Instance& in = inst_[jr.instance];
    const auto& links = in.model->links;
    const int ci = AddConstraint(p.constraints, ConstraintType::kBilateral);
    std::map<int, Eigen::Matrix<double, 1, 6>> blocks;  // link → block
    for (const auto& [link, sign] : {std::pair{jr.link_b, 1.0}, std::pair{jr.link_a, -jr.ratio}}) {
      const Eigen::Matrix<double, 1, 6> St = MotionSubspace(links[link]).transpose();
      blocks.try_emplace(link, Eigen::Matrix<double, 1, 6>::Zero()).first->second += sign * St;
      if (const int parent = links[link].parent; parent >= 0)
        blocks.try_emplace(parent, Eigen::Matrix<double, 1, 6>::Zero()).first->second -=
            sign * St * TwistTransform(in.kin.local[link]);
    }
    for (const auto& [link, blk] : blocks) add_block(ci, jr.instance, link, blk);
    e.push_back(opt_.erp *
                (in.q[links[jr.link_b].q_index] - jr.ratio * in.q[links[jr.link_a].q_index]) / dt);
  }
  // Couplings: soft rows (k = K dt, d = D dt + K dt², e shifted by the world frame's motion so
  // that λ = −k e − d (J v̂ − anchor)), or bilateral rows J v̂ − anchor + erp e/dt = 0.
  for (const Coupling& c : couplings_) {
    const Pose& pose_a = c.body_a >= 0 ? BodyPose(c.body_a) : c.frame_a;  // unused for the world
    const CouplingRows cr = EvaluateCoupling(c, pose_a, BodyPose(c.body_b));
    for (int r = 0; r < 6; ++r) {
      if (!(c.rows >> r & 1u)) continue;
      int ci;
      if (c.hard) {
        ci = AddConstraint(p.constraints, ConstraintType::kBilateral);
        e.push_back(opt_.erp * cr.error[r] / dt - cr.anchor[r]);
      } else {
        if (c.stiffness[r] == 0.0) continue;
        const double k = c.stiffness[r] * dt, d = c.damping[r] * dt + c.stiffness[r] * dt * dt;
        ci = AddConstraint(p.constraints, ConstraintType::kSoft, 0.0, k, d);
        e.push_back(cr.error[r] - d / k * cr.anchor[r]);
      }
      add_block(ci, body_instance_[c.body_b], body_link_[c.body_b], cr.block_b.row(r));
      if (c.body_a >= 0)
        add_block(ci, body_instance_[c.body_a], body_link_[c.body_a], cr.block_a.row(r));
    }
  }
  // Friction joints: five implicit contacts each, the normal row held like a hard coupling's
  // (J_n v̂ + erp gap/dt = 0), the tangent row around the axis with |λ_t| ≤ μ |λ_n|.
  for (const FrictionJoint& j : friction_joints_) {
    const Pose& pose_a = j.body_a >= 0 ? BodyPose(j.body_a) : Pose::Identity();
    const Pose& pose_b = BodyPose(j.body_b);
    for (const ImplicitContactRows& ic : EvaluateFrictionJoint(j, pose_a, pose_b)) {
      const int ci = AddConstraint(p.constraints, ConstraintType::kJointFriction, j.mu);
      e.push_back(opt_.erp * ic.gap / dt);
      e.push_back(0.0);
      add_block(ci, body_instance_[j.body_b], body_link_[j.body_b], ic.block_b);
      if (j.body_a >= 0) add_block(ci, body_instance_[j.body_a], body_link_[j.body_a], ic.block_a);
    }
  }
  p.J.resize(p.num_rows(), ndofs_);
  p.J.setFromTriplets(jt.begin(), jt.end());
  p.e = Eigen::Map<const Vec>(e.data(), static_cast<Eigen::Index>(e.size()));
  p.meta.dt = dt;
  p.meta.params["time"] = time_;
  p.meta.params["theta"] = opt_.theta;
  if (contacts) {
    *contacts = contacts_;
    for (std::size_t k = 0; k < spline_contacts_.size(); ++k) {
      const SplineContact& c = spline_contacts_[k];
      contacts->push_back({.position = c.position,
                           .normal = c.normal,
                           .gap = c.gap,
                           .spline_body = spline_contact_body_[k]});
    }
  }
  if (eliminate_ && !joint_ratios_.empty()) Reduce(p);
  return p;
}

void MultibodySystem::Advance(const Vec& vhat_given) {
  if (vhat_given.size() != num_dofs())
    throw Error(
        fmt::format("v: wrong argument size: expected {}, got {}", num_dofs(), vhat_given.size()));
  const Vec vhat = eliminate_ && !joint_ratios_.empty() ? Vec(reduce_ * vhat_given) : vhat_given;
  for (Instance& in : inst_) {
    const VectorXd vh = vhat.segment(in.v_offset, in.model->nv);
    IntegrateConfiguration(*in.model, in.q, vh, opt_.dt);
    in.v = (vh - opt_.theta * in.v) / (1.0 - opt_.theta);
  }
  for (const KinematicGeom& k : kinematic_) {
    Pose& T = geoms_[k.geom].local;  // advance the prescribed pose with its velocity
    T.translation() += opt_.dt * (k.linear + k.angular.cross(T.translation()));
    T.linear() = ExpSO3(opt_.dt * k.angular) * T.linear();
  }
  for (Coupling& c : couplings_) {
    if (c.body_a >= 0) continue;  // a world frame moves with its velocity (linear at its origin)
    c.frame_a.translation() += opt_.dt * c.anchor_linear;
    c.frame_a.linear() = ExpSO3(opt_.dt * c.anchor_angular) * c.frame_a.linear();
  }
  time_ += opt_.dt;
  UpdateKinematics();
}

}  // namespace ncp::physics
