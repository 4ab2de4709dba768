#include "problems/physics/coupled_system.h"

#include <fmt/format.h>

#include <algorithm>

#include "common/error.h"
#include "problems/physics/dynamics/spatial.h"

namespace ncp::physics {

CoupledSystem::CoupledSystem(std::unique_ptr<MultibodySystem> skeleton,
                             std::unique_ptr<DeformableSystem> flesh, StepOptions opt)
    : skeleton_(std::move(skeleton)), flesh_(std::move(flesh)) {
  if (!skeleton_ || !flesh_) throw Error("coupled system: skeleton and flesh: must both be given");
  set_options(opt);
}

void CoupledSystem::set_options(const StepOptions& opt) {
  flesh_->set_options(opt);  // refuses θ ≠ 0
  skeleton_->set_options(opt);
  opt_ = opt;
}

void CoupledSystem::Attach(int body, int node) {
  if (!(body >= 0 && body < skeleton_->num_bodies()))
    throw Error(fmt::format("attachment {}: body = {}: must be a skeleton body in [0, {})",
                            attached_.size(), body, skeleton_->num_bodies()));
  if (!(node >= 0 && node < flesh_->num_nodes()))
    throw Error(fmt::format("attachment {}: node = {}: must be a flesh node in [0, {})",
                            attached_.size(), node, flesh_->num_nodes()));
  for (const Attachment& a : attached_)
    if (a.node == node)
      throw Error(
          fmt::format("attachment {}: node = {}: already attached", attached_.size(), node));
  const Vec3 x = flesh_->positions().segment<3>(3 * node);
  attached_.push_back({body, node, skeleton_->BodyPose(body).inverse() * x});
}

double CoupledSystem::AttachmentError() const {
  double worst = 0.0;
  for (const Attachment& a : attached_)
    worst = std::max(
        worst, (flesh_->positions().segment<3>(3 * a.node) - skeleton_->BodyPose(a.body) * a.local)
                   .norm());
  return worst;
}

ContactProblem CoupledSystem::BuildProblem(std::vector<ContactPoint>* contacts) {
  std::vector<ContactPoint> cs, cf;
  ContactProblem s = skeleton_->BuildProblem(contacts ? &cs : nullptr);
  ContactProblem f = flesh_->BuildProblem(contacts ? &cf : nullptr);
  const int ns = s.num_dofs(), nf = f.num_dofs(), ms = s.num_rows(), mf = f.num_rows();
  const int na = static_cast<int>(attached_.size());
  using Triplet = Eigen::Triplet<double>;

  ContactProblem p;
  p.meta = f.meta;
  for (const auto& [k, v] : s.meta.params) p.meta.params[k] = v;
  p.meta.params["attachments"] = na;

  std::vector<Triplet> t;
  t.reserve(s.A.nonZeros() + f.A.nonZeros());
  for (int c = 0; c < ns; ++c)
    for (SpMat::InnerIterator it(s.A, c); it; ++it) t.emplace_back(it.row(), c, it.value());
  for (int c = 0; c < nf; ++c)
    for (SpMat::InnerIterator it(f.A, c); it; ++it)
      t.emplace_back(ns + it.row(), ns + c, it.value());
  p.A.resize(ns + nf, ns + nf);
  p.A.setFromTriplets(t.begin(), t.end());
  p.b.resize(ns + nf);
  p.b << s.b, f.b;

  // Rows: the skeleton's, the flesh's, then the attachments'.
  t.clear();
  for (int c = 0; c < ns; ++c)
    for (SpMat::InnerIterator it(s.J, c); it; ++it) t.emplace_back(it.row(), c, it.value());
  for (int c = 0; c < nf; ++c)
    for (SpMat::InnerIterator it(f.J, c); it; ++it)
      t.emplace_back(ms + it.row(), ns + c, it.value());
  p.constraints = s.constraints;
  for (Constraint c : f.constraints) {
    c.row += ms;
    p.constraints.push_back(c);
  }
  p.e.resize(ms + mf + 3 * na);
  p.e.head(ms) = s.e;
  p.e.segment(ms, mf) = f.e;

  Structure& st = p.structure;
  st = s.structure;
  const int skeleton_subsystems = static_cast<int>(st.subsystems.size());
  const int skeleton_bodies = static_cast<int>(st.bodies.size());
  const int skeleton_constraints = s.num_constraints();
  for (Structure::Subsystem sub : f.structure.subsystems) {
    sub.dof_begin += ns;
    st.subsystems.push_back(sub);
  }
  for (Structure::Body b : f.structure.bodies) {
    b.subsystem += skeleton_subsystems;
    if (b.parent >= 0) b.parent += skeleton_bodies;
    st.bodies.push_back(b);
  }
  for (Structure::Block blk : f.structure.blocks) {
    blk.constraint += skeleton_constraints, blk.body += skeleton_bodies;
    st.blocks.push_back(blk);
  }

  const double dt = opt_.dt;
  const Vec& x = flesh_->positions();
  for (int a = 0; a < na; ++a) {
    const Attachment& at = attached_[a];
    const Pose& T = skeleton_->BodyPose(at.body);
    const Structure::Body& body = s.structure.bodies[at.body];
    const int col0 = s.structure.subsystems[body.subsystem].dof_begin;
    Eigen::Matrix<double, 3, 6> G;
    G << Mat3::Identity(), -Skew(at.local);
    const Eigen::Matrix<double, 3, 6> blk = -T.linear() * G;  // on the body's twist
    const Eigen::MatrixXd on_dofs = blk * body.jacobian;      // on its subsystem's dofs
    const Vec3 err = x.segment<3>(3 * at.node) - T * at.local;
    for (int k = 0; k < 3; ++k) {
      const int ci = AddConstraint(p.constraints, ConstraintType::kBilateral);
      const int row = p.constraints[ci].row;
      t.emplace_back(row, ns + 3 * at.node + k, 1.0);
      for (int c = 0; c < on_dofs.cols(); ++c)
        if (on_dofs(k, c) != 0.0) t.emplace_back(row, col0 + c, on_dofs(k, c));
      p.e[row] = opt_.erp * err[k] / dt;
      st.blocks.push_back({ci, at.body, blk.row(k)});
    }
  }
  p.J.resize(p.num_rows(), ns + nf);
  p.J.setFromTriplets(t.begin(), t.end());

  if (contacts) {
    contacts->clear();
    const auto spline = std::find_if(cs.begin(), cs.end(),
                                     [](const ContactPoint& c) { return c.spline_body >= 0; });
    contacts->insert(contacts->end(), cs.begin(), spline);
    contacts->insert(contacts->end(), cf.begin(), cf.end());
    contacts->insert(contacts->end(), spline, cs.end());
  }
  return p;
}

void CoupledSystem::Advance(const Vec& vhat) {
  if (vhat.size() != num_dofs())
    throw Error(
        fmt::format("v: wrong argument size: expected {}, got {}", num_dofs(), vhat.size()));
  const int ns = skeleton_->num_dofs();
  skeleton_->Advance(vhat.head(ns));
  flesh_->Advance(vhat.tail(flesh_->num_dofs()));
}

}  // namespace ncp::physics
