#include "problems/physics/fem/deformable_system.h"

#include <fmt/format.h>

#include <cmath>
#include <limits>

#include "common/error.h"

namespace ncp::physics {

using Triplet = Eigen::Triplet<double>;

void DeformableSystem::set_options(const StepOptions& o) {
  ValidateStepOptions(o);
  if (o.theta != 0.0)
    throw Error(fmt::format("theta = {}: must be 0 for deformable systems", o.theta));
  opt_ = o;
}

int DeformableSystem::AddBody(const TetMesh& mesh, const FemMaterial& material, double mu,
                              FemDamping damping) {
  if (!(mu >= 0 && std::isfinite(mu))) throw Error(fmt::format("body mu = {}: must be >= 0", mu));
  if (!(damping.mass >= 0) || !(damping.stiffness >= 0))
    throw Error(fmt::format("body damping (mass {}, stiffness {}): must be >= 0", damping.mass,
                            damping.stiffness));
  Body b{CorotationalFem(mesh, material), {}, num_nodes_, mu, damping};
  for (int s : mesh.surface) b.surface.push_back(num_nodes_ + s);
  const int n = static_cast<int>(mesh.nodes.size());
  x_.conservativeResize(3 * (num_nodes_ + n));
  v_.conservativeResize(3 * (num_nodes_ + n));
  for (int i = 0; i < n; ++i) {
    x_.segment<3>(3 * (num_nodes_ + i)) = mesh.nodes[i];
    v_.segment<3>(3 * (num_nodes_ + i)).setZero();
  }
  rest_ = x_;
  num_nodes_ += n;
  bodies_.push_back(std::move(b));
  return num_bodies() - 1;
}

int DeformableSystem::num_tets() const {
  int n = 0;
  for (const Body& b : bodies_) n += b.fem.num_tets();
  return n;
}

int DeformableSystem::AddPlane(const Vec3& normal, double offset, double mu) {
  if (!(normal.norm() > 0)) throw Error("plane normal: must be non-zero");
  Obstacle o;
  o.normal = normal.normalized();
  o.offset = offset;
  o.mu = mu;
  obstacles_.push_back(o);
  return static_cast<int>(obstacles_.size()) - 1;
}

int DeformableSystem::AddBox(const Vec3& half, double mu, Trajectory trajectory) {
  if (!(half.minCoeff() > 0))
    throw Error(
        fmt::format("box half extents ({}, {}, {}): must be > 0", half[0], half[1], half[2]));
  Obstacle o;
  o.plane = false;
  o.half = half;
  o.mu = mu;
  o.trajectory = std::move(trajectory);
  obstacles_.push_back(o);
  return static_cast<int>(obstacles_.size()) - 1;
}

int DeformableSystem::AddRigidBox(const Vec3& half, double mass, double mu, const Pose& pose) {
  if (!(half.minCoeff() > 0) || !half.allFinite())
    throw Error(
        fmt::format("rigid box half extents ({}, {}, {}): must be > 0", half[0], half[1], half[2]));
  if (!(mass > 0) || !std::isfinite(mass))
    throw Error(fmt::format("rigid box mass = {}: must be > 0", mass));
  if (!(mu >= 0) || !std::isfinite(mu))
    throw Error(fmt::format("rigid box mu = {}: must be >= 0", mu));
  RigidBox b;
  b.half = half;
  b.mass = mass;
  b.mu = mu;
  const Vec3 s2 = (2 * half).cwiseProduct(2 * half);
  b.inertia = mass / 12.0 * Vec3(s2[1] + s2[2], s2[0] + s2[2], s2[0] + s2[1]);
  b.state.pose = pose;
  rigid_.push_back(b);
  return num_rigid_boxes() - 1;
}

int DeformableSystem::AddSliderBox(const Vec3& half, double mass, double mu, PrismaticDrive drive) {
  if (!(half.minCoeff() > 0) || !half.allFinite())
    throw Error(fmt::format("slider box half extents ({}, {}, {}): must be > 0", half[0], half[1],
                            half[2]));
  if (!(mass > 0) || !std::isfinite(mass))
    throw Error(fmt::format("slider box mass = {}: must be > 0", mass));
  if (!(mu >= 0) || !std::isfinite(mu))
    throw Error(fmt::format("slider box mu = {}: must be >= 0", mu));
  if (!(drive.kp >= 0 && std::isfinite(drive.kp)) || !(drive.kd >= 0 && std::isfinite(drive.kd)))
    throw Error(fmt::format("slider drive gains (kp {}, kd {}): must be >= 0 and finite", drive.kp,
                            drive.kd));
  if (!drive.frame || !drive.target) throw Error("slider drive: frame and target must be given");
  if (!(drive.axis.norm() > 0) || !drive.axis.allFinite())
    throw Error("slider drive axis: must be non-zero and finite");
  drive.axis.normalize();
  SliderBox b;
  b.half = half;
  b.mass = mass;
  b.mu = mu;
  b.s = drive.target(0.0);
  if (!std::isfinite(b.s))
    throw Error(fmt::format("slider drive target(0) = {}: must be finite", b.s));
  b.drive = std::move(drive);
  sliders_.push_back(std::move(b));
  return num_slider_boxes() - 1;
}

KinematicState DeformableSystem::SliderBox::State(double t, Vec3& axis_world) const {
  KinematicState f = drive.frame(t);
  axis_world = f.pose.linear() * drive.axis;
  const Vec3 offset = s * axis_world;
  f.pose.translation() += offset;
  f.linear += f.angular.cross(offset);
  return f;
}

double DeformableSystem::SliderPosition(int k) const {
  if (k < 0 || k >= num_slider_boxes()) throw Error(fmt::format("slider box {}: out of range", k));
  return sliders_[k].s;
}

double DeformableSystem::SliderRate(int k) const {
  if (k < 0 || k >= num_slider_boxes()) throw Error(fmt::format("slider box {}: out of range", k));
  return sliders_[k].rate;
}

KinematicState DeformableSystem::RigidBoxState(int k) const {
  if (k < 0 || k >= num_rigid_boxes()) throw Error(fmt::format("rigid box {}: out of range", k));
  return rigid_[k].state;
}

void DeformableSystem::AddTie(int ba, int a, int bb, int b) {
  for (auto [body, node] : {std::pair{ba, a}, std::pair{bb, b}})
    if (body < 0 || body >= num_bodies() || node < 0 || node >= bodies_[body].fem.num_nodes())
      throw Error(fmt::format("tie: body {} node {}: out of range", body, node));
  ties_.push_back({node_offset(ba) + a, node_offset(bb) + b});
}

void DeformableSystem::AddDriver(int body, std::vector<int> nodes,
                                 std::function<Vec3(double t)> displacement) {
  if (body < 0 || body >= num_bodies())
    throw Error(fmt::format("driver: body {}: out of range", body));
  for (int& n : nodes) {
    if (n < 0 || n >= bodies_[body].fem.num_nodes())
      throw Error(fmt::format("driver: node {}: out of range", n));
    n += node_offset(body);
  }
  drivers_.push_back({std::move(nodes), std::move(displacement)});
}

namespace {

// Gap, normal (box → p) and surface velocity at p of a box with half extents `half` moving as s.
void BoxDistance(const Vec3& half, const KinematicState& s, const Vec3& p, double& gap, Vec3& n,
                 Vec3& vel) {
  const Mat3 R = s.pose.linear();
  const Vec3 c = s.pose.translation();
  const Vec3 pl = R.transpose() * (p - c);
  const Vec3 q = pl.cwiseAbs() - half;
  Vec3 nl;
  if (q.maxCoeff() > 0) {  // outside: distance to the closest surface point
    const Vec3 d = pl - pl.cwiseMax(-half).cwiseMin(half);
    gap = d.norm();
    nl = d / gap;
  } else {  // inside: leave through the nearest face
    int k = 0;
    gap = q.maxCoeff(&k);
    nl = Vec3::Zero();
    nl[k] = pl[k] >= 0 ? 1.0 : -1.0;
  }
  n = R * nl;
  vel = s.linear + s.angular.cross(p - c);
}

}  // namespace

void DeformableSystem::Distance(const Obstacle& o, const KinematicState& s, const Vec3& p,
                                double& gap, Vec3& n, Vec3& vel) const {
  if (!o.plane) return BoxDistance(o.half, s, p, gap, n, vel);
  gap = o.normal.dot(p) - o.offset;
  n = o.normal;
  vel.setZero();
}

Vec DeformableSystem::ElasticForces() {
  Vec f = Vec::Zero(3 * num_nodes_);
  for (Body& b : bodies_) {
    const int n = b.fem.num_nodes();
    const Vec xb = x_.segment(3 * b.first_node, 3 * n);
    Vec fb = Vec::Zero(3 * n);
    b.fem.UpdateRotations(xb);
    b.fem.AddForces(xb, fb);
    f.segment(3 * b.first_node, 3 * n) = fb;
  }
  return f;
}

ContactProblem DeformableSystem::BuildProblem(std::vector<ContactPoint>* contacts) {
  if (bodies_.empty()) throw Error("DeformableSystem: BuildProblem without bodies");
  const double h = opt_.dt;
  const int ndofs = num_dofs();
  ContactProblem p;
  p.form = ProblemForm::kGlobal;

  // A and b, one subsystem per body (002:9).
  std::vector<Triplet> at;
  p.b.resize(ndofs);
  const Vec f_el = ElasticForces();  // also updates every body's rotations
  for (const Body& b : bodies_) {
    const int n = b.fem.num_nodes(), off = 3 * b.first_node;
    b.fem.AddStiffness(h * h + h * b.damping.stiffness, off, at);
    Vec diag = Vec::Zero(3 * n);
    for (int i = 0; i < n; ++i)
      diag.segment<3>(3 * i).setConstant((1 + h * b.damping.mass) * b.fem.node_mass()[i]);
    if (b.damping.geometric)
      b.fem.AddProjectedGeometricStiffness(x_.segment(off, 3 * n), h * h, diag);
    for (int r = 0; r < 3 * n; ++r) at.emplace_back(off + r, off + r, diag[r]);
    for (int i = 0; i < n; ++i) {
      const double m = b.fem.node_mass()[i];
      const int r = off + 3 * i;
      p.b.segment<3>(r) = m * v_.segment<3>(r) + h * m * opt_.gravity + h * f_el.segment<3>(r);
    }
    p.structure.subsystems.push_back({off, 3 * n, "fem"});
  }
  for (int k = 0; k < num_rigid_boxes(); ++k) {
    const RigidBox& rb = rigid_[k];
    const int off = RigidOffset(k);
    const Mat3 R = rb.state.pose.linear();
    const Mat3 I = R * rb.inertia.asDiagonal() * R.transpose();
    for (int c = 0; c < 3; ++c) at.emplace_back(off + c, off + c, rb.mass);
    for (int r = 0; r < 3; ++r)
      for (int c = 0; c < 3; ++c) at.emplace_back(off + 3 + r, off + 3 + c, I(r, c));
    const Vec3 L = I * rb.state.angular;
    p.b.segment<3>(off) = rb.mass * (rb.state.linear + h * opt_.gravity);
    p.b.segment<3>(off + 3) = L - h * rb.state.angular.cross(L);
    p.structure.subsystems.push_back({off, 6, "generic"});
  }
  // Slides: the implicit PD drive, f = k_p (s* − s − h ṡ) + k_d (ṡ* − ṡ) at the step's end.
  std::vector<Vec3> slider_axes(sliders_.size());
  std::vector<KinematicState> slider_states(sliders_.size());
  for (int k = 0; k < num_slider_boxes(); ++k) {
    const SliderBox& sb = sliders_[k];
    const PrismaticDrive& d = sb.drive;
    const int off = SliderOffset(k);
    slider_states[k] = sb.State(time_, slider_axes[k]);
    const double target = d.target(time_ + h), rate = (target - d.target(time_)) / h;
    if (!std::isfinite(target) || !std::isfinite(rate))
      throw Error(fmt::format("slider {} drive target at t = {}: {}: must be finite", k, time_ + h,
                              target));
    at.emplace_back(off, off, sb.mass + h * d.kd + h * h * d.kp);
    p.b[off] = sb.mass * sb.rate + h * d.kp * (target - sb.s) + h * d.kd * rate +
               h * sb.mass * opt_.gravity.dot(slider_axes[k]);
    p.structure.subsystems.push_back({off, 1, "generic"});
  }
  p.A.resize(ndofs, ndofs);
  p.A.setFromTriplets(at.begin(), at.end());

  std::vector<Triplet> jt;
  std::vector<double> e;
  auto add_node_rows = [&](int row, int node, const Mat3& F) {
    for (int r = 0; r < 3; ++r)
      for (int c = 0; c < 3; ++c)
        if (F(r, c) != 0.0) jt.emplace_back(row + r, 3 * node + c, F(r, c));
  };

  // Rows −F [I, −[r]×] on rigid box k: minus the velocity of its point at r from its centre.
  auto add_box_rows = [&](int row, int k, const Mat3& F, const Vec3& r) {
    const int off = RigidOffset(k);
    Mat3 rx;
    rx << 0, -r.z(), r.y(), r.z(), 0, -r.x(), -r.y(), r.x(), 0;
    const Mat3 Fw = F * rx;  // −F · (−[r]×)
    for (int a = 0; a < 3; ++a)
      for (int c = 0; c < 3; ++c) {
        if (F(a, c) != 0.0) jt.emplace_back(row + a, off + c, -F(a, c));
        if (Fw(a, c) != 0.0) jt.emplace_back(row + a, off + 3 + c, Fw(a, c));
      }
  };

  // Contacts: the deepest obstacle of every surface node within the margin.
  std::vector<KinematicState> states(obstacles_.size());
  for (std::size_t o = 0; o < obstacles_.size(); ++o)
    if (!obstacles_[o].plane) states[o] = obstacles_[o].trajectory(time_);
  std::vector<ContactPoint> found;
  for (const Body& b : bodies_)
    for (int node : b.surface) {
      const Vec3 x = x_.segment<3>(3 * node);
      int best = -1;
      double best_gap = opt_.margin;
      Vec3 best_n, best_vel;
      const std::size_t first_slider = obstacles_.size() + rigid_.size();
      for (std::size_t o = 0; o < first_slider + sliders_.size(); ++o) {
        double gap;
        Vec3 n, vel;
        if (o < obstacles_.size()) {
          Distance(obstacles_[o], states[o], x, gap, n, vel);
        } else if (o < first_slider) {
          const RigidBox& rb = rigid_[o - obstacles_.size()];
          BoxDistance(rb.half, rb.state, x, gap, n, vel);
        } else {  // vel: the joint frame's motion; the slide's rate is in J
          BoxDistance(sliders_[o - first_slider].half, slider_states[o - first_slider], x, gap, n,
                      vel);
        }
        if (gap < best_gap) {
          best = static_cast<int>(o);
          best_gap = gap;
          best_n = n;
          best_vel = vel;
        }
      }
      if (best < 0) continue;
      const Mat3 F = ContactFrame(best_n);
      const int slider = best - static_cast<int>(obstacles_.size() + rigid_.size());   // ≥ 0: one
      const int rigid = slider < 0 ? best - static_cast<int>(obstacles_.size()) : -1;  // ≥ 0: one
      const double mu_other = slider >= 0  ? sliders_[slider].mu
                              : rigid >= 0 ? rigid_[rigid].mu
                                           : obstacles_[best].mu;
      const int ci =
          AddConstraint(p.constraints, ConstraintType::kContact, std::sqrt(b.mu * mu_other));
      add_node_rows(p.constraints[ci].row, node, F);
      // u = F (v_node − v_obstacle) + stabilization; a rigid box's velocity and a slide's rate
      // are in J, a kinematic obstacle's (and a slider's frame's) motion in e.
      Vec3 ef = Vec3::Zero();
      if (rigid >= 0) {
        add_box_rows(p.constraints[ci].row, rigid, F, x - rigid_[rigid].state.pose.translation());
      } else {
        ef = -(F * best_vel);
        if (slider >= 0) {
          const Vec3 col = -(F * slider_axes[slider]);
          for (int a = 0; a < 3; ++a)
            if (col[a] != 0.0)
              jt.emplace_back(p.constraints[ci].row + a, SliderOffset(slider), col[a]);
        }
      }
      e.push_back(StabilizeGap(best_gap, opt_) + ef[0]);
      e.push_back(ef[1]);
      e.push_back(ef[2]);
      found.push_back({best, node, x, best_n, best_gap});
    }

  // Rigid boxes' corners on the planes: rows on the box alone, u = −F v_corner (the plane is
  // body a, the box b: F's normal points from the plane to the box, so flip the sign).
  for (int k = 0; k < num_rigid_boxes(); ++k) {
    const RigidBox& rb = rigid_[k];
    for (int corner = 0; corner < 8; ++corner) {
      const Vec3 local((corner & 1 ? 1 : -1) * rb.half.x(), (corner & 2 ? 1 : -1) * rb.half.y(),
                       (corner & 4 ? 1 : -1) * rb.half.z());
      const Vec3 x = rb.state.pose * local;
      for (std::size_t o = 0; o < obstacles_.size(); ++o) {
        const Obstacle& ob = obstacles_[o];
        if (!ob.plane) continue;
        const double gap = ob.normal.dot(x) - ob.offset;
        if (gap >= opt_.margin) continue;
        const Mat3 F = ContactFrame(ob.normal);
        const int ci =
            AddConstraint(p.constraints, ConstraintType::kContact, std::sqrt(rb.mu * ob.mu));
        add_box_rows(p.constraints[ci].row, k, -F, x - rb.state.pose.translation());
        e.push_back(StabilizeGap(gap, opt_));
        e.push_back(0.0);
        e.push_back(0.0);
        found.push_back({static_cast<int>(o), -1 - k, x, ob.normal, gap});
      }
    }
  }

  // Ties and drivers: 3 bilateral rows each (one per axis).
  for (const auto& [a, b] : ties_) {
    const Vec3 drift = x_.segment<3>(3 * a) - x_.segment<3>(3 * b);
    for (int c = 0; c < 3; ++c) {
      const int ci = AddConstraint(p.constraints, ConstraintType::kBilateral);
      jt.emplace_back(p.constraints[ci].row, 3 * a + c, 1.0);
      jt.emplace_back(p.constraints[ci].row, 3 * b + c, -1.0);
      e.push_back(opt_.erp * drift[c] / h);
    }
  }
  for (const Driver& d : drivers_) {
    const Vec3 disp = d.displacement(time_ + h);
    for (int node : d.nodes) {
      const Vec3 err = x_.segment<3>(3 * node) - (rest_.segment<3>(3 * node) + disp);
      for (int c = 0; c < 3; ++c) {
        const int ci = AddConstraint(p.constraints, ConstraintType::kBilateral);
        jt.emplace_back(p.constraints[ci].row, 3 * node + c, 1.0);
        e.push_back(err[c] / h);
      }
    }
  }
  p.J.resize(p.num_rows(), ndofs);
  p.J.setFromTriplets(jt.begin(), jt.end());
  p.e = Eigen::Map<const Vec>(e.data(), static_cast<Eigen::Index>(e.size()));
  p.meta.dt = h;
  p.meta.params["time"] = time_;
  p.meta.params["nodes"] = num_nodes_;
  p.meta.params["tets"] = num_tets();
  for (const auto& [k, v] : params_) p.meta.params[k] = v;
  if (contacts) *contacts = std::move(found);
  return p;
}

void DeformableSystem::Advance(const Vec& vhat) {
  if (vhat.size() != num_dofs())
    throw Error(
        fmt::format("v: wrong argument size: expected {}, got {}", num_dofs(), vhat.size()));
  const int nodal = 3 * num_nodes_;
  v_ = vhat.head(nodal);
  x_ += opt_.dt * v_;
  for (int k = 0; k < num_rigid_boxes(); ++k) {
    KinematicState& s = rigid_[k].state;
    s.linear = vhat.segment<3>(RigidOffset(k));
    s.angular = vhat.segment<3>(RigidOffset(k) + 3);
    s.pose.translation() += opt_.dt * s.linear;
    const double angle = opt_.dt * s.angular.norm();
    Eigen::Quaterniond q(s.pose.linear());
    if (angle > 0) q = Eigen::AngleAxisd(angle, s.angular.normalized()) * q;
    s.pose.linear() = q.normalized().toRotationMatrix();
  }
  for (int k = 0; k < num_slider_boxes(); ++k) {
    sliders_[k].rate = vhat[SliderOffset(k)];
    sliders_[k].s += opt_.dt * sliders_[k].rate;
  }
  time_ += opt_.dt;
}

}  // namespace ncp::physics
