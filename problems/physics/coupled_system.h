// An articulated skeleton two-way coupled to deformable flesh (003 §4, Eq. 7's attachment
// G_m J_mr q̇_r + G_d q̇_d = 0; STARFISH, Fig. 1c): a MultibodySystem and a DeformableSystem
// stepped as one problem, v = [skeleton dofs; flesh dofs],
//   A = blockdiag(A_skeleton, A_flesh),  b = [b_skeleton; b_flesh],
//   J = the two systems' rows side by side, then per attached node 3 bilateral rows
//       v_node − R_b [I −[r]] V_b + erp (x_node − T_b r)/dt = 0
//   (r: the node's point in body b's frame, fixed when attached; V_b = J_b v its twist), so the
//   flesh moves the skeleton and the skeleton the flesh within one solve (implicitly, both ways).
// Both systems share the step options (θ = 0: the flesh's scheme has none).
#pragma once

#include <memory>
#include <vector>

#include "problems/physics/fem/deformable_system.h"
#include "problems/physics/system.h"

namespace ncp::physics {

class CoupledSystem : public SteppedSystem {
 public:
  // The skeleton must be finalized (MultibodySystem::Finalize) before the first BuildProblem.
  CoupledSystem(std::unique_ptr<MultibodySystem> skeleton, std::unique_ptr<DeformableSystem> flesh,
                StepOptions opt = {});

  MultibodySystem& skeleton() { return *skeleton_; }
  const MultibodySystem& skeleton() const { return *skeleton_; }
  DeformableSystem& flesh() { return *flesh_; }
  const DeformableSystem& flesh() const { return *flesh_; }

  // Attaches flesh node `node` (global index) to skeleton body `body` where the node is now.
  // Throws ncp::Error on a bad index or a node attached twice.
  void Attach(int body, int node);
  int num_attachments() const { return static_cast<int>(attached_.size()); }
  int attachment_body(int a) const { return attached_.at(a).body; }
  // Largest distance between an attached node and its point on the skeleton [m].
  double AttachmentError() const;

  // `contacts`: the skeleton's contact points, the flesh's, then the skeleton's spline
  // self-contacts (the rows' order); geom indices are each system's own.
  ContactProblem BuildProblem(std::vector<ContactPoint>* contacts = nullptr) override;
  void Advance(const Vec& vhat) override;
  double time() const override { return skeleton_->time(); }
  const StepOptions& options() const override { return opt_; }
  void set_options(const StepOptions& opt) override;
  int num_dofs() const { return skeleton_->num_dofs() + flesh_->num_dofs(); }

 private:
  struct Attachment {
    int body = 0, node = 0;
    Vec3 local = Vec3::Zero();  // r in the body's frame
  };
  std::unique_ptr<MultibodySystem> skeleton_;
  std::unique_ptr<DeformableSystem> flesh_;
  std::vector<Attachment> attached_;
  StepOptions opt_;
};

}  // namespace ncp::physics
