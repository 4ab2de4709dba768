// A multibody system: articulated instances (robots, free bodies), world and kinematic geoms.
// Each step builds the frozen ContactProblem of 004:2/004:8 with its structure layer and
// advances with the solver's v̂:
//   A = blockdiag H_j(q),  b = H_j v_k − (1 − θ) dt (C_j(q, v_k) − J_rootᵀ f_push)
//   (C: RNEA bias incl. gravity; f_push: Instance::push),
//   contact rows J_{i,b} = ±R_i [I −[p_i]] (004 App. A), joint-limit rows (unilateral),
//   PD rows (soft, λ = −k e − d J v̂ with k = kp dt, d = kd dt + kp dt²),
//   coupling rows between two bodies or a body and a world frame (rods, grippers; rod_coupling.h),
//   friction joints: a revolute joint between two free bodies (or a body and the world) held by
//   its five implicit contacts (joint-friction rows [n; t], 003 §5.2; joint_contacts.h),
//   spline self-contacts: one frictionless unilateral row each (003 §6; SplineBody),
//   prescribed joints: one bilateral row q̇_j = (q*(t + dt) − q_j)/dt each (003 §4's hybrid
//     dynamics: the joint's path is given, its torque is the row's λ/dt),
//   coupled joints: one bilateral row q̇_b − r q̇_a + erp (q_b − r q_a)/dt = 0 each (003 §4's
//     hyper-reduced coordinates), or eliminated (EliminateJointCouplings),
//   v_{k+1} = (v̂ − θ v_k)/(1 − θ),  q_{k+1} = q_k ⊕ dt v̂.
// Stabilization of a gap g: StabilizeGap (stepped_system.h, documented in datasets/README.md).
#pragma once

#include <Eigen/SparseCore>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "problems/model/contact_problem.h"
#include "problems/physics/collision/collision_world.h"
#include "problems/physics/collision/spline_self_contact.h"
#include "problems/physics/dynamics/dynamics.h"
#include "problems/physics/stepped_system.h"
#include "problems/physics/dynamics/joint_contacts.h"
#include "problems/physics/dynamics/rod_coupling.h"

namespace ncp::physics {

struct PdGains {
  double kp = 0.0, kd = 0.0;  // per actuated joint; kp = 0: no PD rows
  VectorXd target;            // joint targets, size nq of the model (floating entries ignored)
};

struct Instance {
  std::shared_ptr<const ArticulatedModel> model;
  VectorXd q, v;
  PdGains pd;
  // A constant force in the world frame at the origin of the root link (a push, 002 §V-B) [N].
  Vec3 push = Vec3::Zero();
  int v_offset = 0;    // first dof in the system
  int first_body = 0;  // first body (link) index in the system
  Kinematics kin;
};

// A world geom that moves on a prescribed path: its pose and velocity are set before each step.
struct KinematicGeom {
  int geom = -1;  // index in the collision world
  // Spatial velocity in the world frame: a point x moves with linear + angular × x.
  Vec3 linear = Vec3::Zero(), angular = Vec3::Zero();
};

// A slender body's self-collision along the spline through its centerline (003 §6, HAGFISH;
// spline_self_contact.h): node k sits at `local[k]` in the frame of body (link) `body[k]` of the
// system, and segment k (node k to k + 1) moves with body[k]. Each contact is one frictionless
// row (unilateral: 0 ≤ λ ⟂ n·(v_b − v_a) + e ≥ 0 at the contact point).
struct SplineBody {
  std::vector<int> body;
  std::vector<Vec3> local;
  std::vector<double> radius;  // per node
  int skip = 2;                // see SplineTube::skip
};

class MultibodySystem : public SteppedSystem {
 public:
  explicit MultibodySystem(StepOptions opt = {}) { set_options(opt); }
  // Robot/body geoms get group = instance + 1 when `self_collision` is false.
  int AddInstance(std::shared_ptr<const ArticulatedModel> model, VectorXd q, VectorXd v,
                  PdGains pd = {}, bool self_collision = false);
  int AddWorldGeom(const Geom& g);      // returns the geom index
  int AddKinematicGeom(const Geom& g);  // a world geom whose pose is set by SetKinematicPose
  void SetKinematicPose(int geom, const Pose& pose, const Vec3& linear, const Vec3& angular);
  // Six coupling rows between two bodies (or a body and a world frame, body_a = −1); returns the
  // coupling index. Throws ncp::Error on a bad body index or a negative or non-finite gain.
  int AddCoupling(const Coupling& c);
  // Moves the world frame of coupling `c` (body_a = −1); Advance then carries it on with the
  // velocity, like a kinematic geom.
  void SetCouplingFrame(int c, const Pose& frame, const Vec3& linear, const Vec3& angular);
  const std::vector<Coupling>& couplings() const { return couplings_; }
  // A revolute joint with friction between two bodies (or a body and the world, body_a = −1),
  // held by its five implicit contacts: each step appends 5 joint-friction constraints with
  // e = [erp · gap / dt, 0] (the hard couplings' stabilization). Returns the joint index.
  // Throws ncp::Error on a bad body index or a bad joint (ValidateFrictionJoint).
  int AddFrictionJoint(const FrictionJoint& j);
  const std::vector<FrictionJoint>& friction_joints() const { return friction_joints_; }
  // Self-collision of a spline body; throws ncp::Error on a bad body index, sizes that differ, a
  // radius not positive and finite, or skip < 1.
  void AddSplineBody(const SplineBody& b);
  const std::vector<SplineBody>& spline_bodies() const { return spline_bodies_; }
  // Moves 1-dof joint `link` of instance `instance` on `path` (q*(t) in rad or m), one
  // bilateral row per step; the joint's PD row, if any, is dropped. Returns the index of the
  // prescription. Throws ncp::Error on a bad index, a joint that is not revolute or prismatic, a
  // joint prescribed twice or an empty path.
  int PrescribeJoint(int instance, int link, std::function<double(double t)> path);
  // Largest |q_j − q*_j(t)| over the prescribed joints at the current time (0 when none).
  double PrescribedError() const;
  // Hyper-reduced coordinates (003 §4, HAND's DIP = ½ PIP): 1-dof joint `link_b` of instance
  // `instance` moves `ratio` times joint `link_a`, one bilateral row a step
  // q̇_b − ratio q̇_a + erp (q_b − ratio q_a)/dt = 0 (the motion of the reduced system: Gauss's
  // principle, one row more instead of one dof less). Returns its index. Throws ncp::Error on a
  // bad index, a joint that is not revolute or prismatic, a joint coupled to itself or a
  // non-finite ratio.
  int CoupleJoints(int instance, int link_a, int link_b, double ratio);
  // Largest |q_b − ratio q_a| over the coupled joints (0 when none).
  double JointCouplingError() const;
  // The coupled joints eliminated instead (003's own form): v = S z, S the identity but for
  // each coupled joint b, whose column folds into its joint a's (v_b = ratio v_a); the problem in
  // z is SᵀA S, Sᵀb, J S with no coupling rows, each body's Jacobian J_b S without tree data (a
  // coupled joint's body moves with another joint's dof), and Advance takes ẑ. Throws
  // ncp::Error when a coupled joint's link_a is itself coupled (chains are not folded).
  void EliminateJointCouplings(bool on);
  // The spline bodies' tubes and self-contacts of the last BuildProblem, in its row order.
  const std::vector<SplineTube>& spline_tubes() const { return spline_tubes_; }
  const std::vector<SplineContact>& spline_contacts() const { return spline_contacts_; }
  // Structure layer: instances [first, first + count) form subsystems of `per_subsystem`
  // consecutive instances each (the last may hold fewer), of kind `kind` (000 §III-A: several
  // softly coupled bodies per subsystem). Every other instance is a subsystem of its own.
  void GroupSubsystems(int first, int count, int per_subsystem, const std::string& kind);
  // Builds the collision world; call once after all Add* calls.
  void Finalize();

  ContactProblem BuildProblem(std::vector<ContactPoint>* contacts = nullptr) override;
  void Advance(const Vec& vhat) override;

  // The problem's dofs (fewer than the instances' when joint couplings are eliminated).
  int num_dofs() const {
    return ndofs_ - (eliminate_ ? static_cast<int>(joint_ratios_.size()) : 0);
  }
  int num_bodies() const { return nbodies_; }
  double time() const override { return time_; }
  const StepOptions& options() const override { return opt_; }
  void set_options(const StepOptions& opt) override;
  std::vector<Instance>& instances() { return inst_; }
  const std::vector<Instance>& instances() const { return inst_; }
  // Instance owning geom `g` (−1 for world geoms).
  int GeomInstance(int g) const { return owner_[g].instance; }
  // World pose of body (link) `b` of the system.
  const Pose& BodyPose(int b) const;
  // Every geom: instance geoms (GeomInstance ≥ 0) and world geoms (GeomInstance = −1, `local`
  // in the world frame).
  const std::vector<Geom>& geoms() const { return geoms_; }

 private:
  struct GeomOwner {
    int instance = -1, link = -1;  // −1: world
  };
  double Stabilize(double gap) const { return StabilizeGap(gap, opt_); }
  void UpdateKinematics();

  StepOptions opt_;
  std::vector<Instance> inst_;
  std::vector<Geom> geoms_;
  std::vector<GeomOwner> owner_;
  std::vector<KinematicGeom> kinematic_;
  std::vector<Coupling> couplings_;
  std::vector<FrictionJoint> friction_joints_;
  std::vector<SplineBody> spline_bodies_;
  struct Prescribed {
    int instance = 0, link = 0;
    std::function<double(double)> path;
  };
  std::vector<Prescribed> prescribed_;
  struct JointRatio {
    int instance = 0, link_a = 0, link_b = 0;
    double ratio = 1.0;
  };
  std::vector<JointRatio> joint_ratios_;
  bool eliminate_ = false;
  // v = S z while eliminating (ndofs_ × num_dofs()), from the couplings' dof indices; kept in
  // reduce_, rebuilt when an instance or a coupling is added.
  Eigen::SparseMatrix<double> ReductionMap() const;
  Eigen::SparseMatrix<double> reduce_;
  // The full problem (ndofs_ dofs) folded into z: A, b, J, the structure's dofs and Jacobians.
  void Reduce(ContactProblem& p) const;
  std::vector<SplineTube> spline_tubes_;
  std::vector<SplineContact> spline_contacts_;
  std::vector<int> spline_contact_body_;  // the spline body of each self-contact
  // Per instance: the first instance of its subsystem, and the subsystem's kind (empty: from the
  // model, rigid or articulated).
  std::vector<int> sub_first_;
  std::vector<std::string> sub_kind_;
  std::vector<Pose> world_geom_pose_;  // poses of world geoms (kinematic ones updated)
  std::vector<int> body_instance_, body_link_;
  std::unique_ptr<CollisionWorld> collision_;
  std::vector<Pose> geom_poses_;
  std::vector<ContactPoint> contacts_;
  int ndofs_ = 0, nbodies_ = 0;
  double time_ = 0.0;
};

}  // namespace ncp::physics
