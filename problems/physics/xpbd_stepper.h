// Position-based dynamics with small steps (002 §V-E2; its ref. [68], Macklin et al. 2019, "Small
// steps in physics simulation") for rigid bodies, after Müller et al. 2020 ("Detailed rigid body
// simulation with extended position based dynamics"). A step of dt is n substeps of h = dt / n,
// each: predict (gravity, the gyroscopic term), XPBD passes over the couplings (compliance 1/K
// per row, Rayleigh damping D = τ K as XPBD's γ = τ / h; hard couplings: zero compliance) and the
// contacts (non-penetration beyond the system's slop), velocities from the positions, then a
// velocity pass (friction as XpbdFriction says, no restitution). Contacts are found once per
// step within the system's margin and their gaps linearized about where they were found, as
// [68] does.
//
// No complementarity problem is formed: a PBD step is a time stepper of its own, so it compares
// with the NCP solvers at the simulated step (002 §V-E2 does so too), not on frozen problems.
#pragma once

#include <vector>

#include "problems/physics/system.h"

namespace ncp::physics {

// How contacts hold tangentially.
enum class XpbdFriction {
  // [68] and Müller et al. 2020: static friction as a positional constraint (a substep's slip
  // undone while its multiplier stays within μ λ_n), dynamic friction in the velocity pass
  // capped by μ λ_n / h: the paper's PBD.
  kPositional,
  // Coulomb in the velocity pass alone: the slip's velocity stopped, or reduced, by an impulse
  // capped by μ times the substep's net normal impulse (the position pass's and the velocity
  // pass's). Where stiff couplings and contacts fight within a substep's single pass, λ_n
  // overstates the normal force and the positional form over-holds (002-table8 measures it).
  kVelocity,
};

struct XpbdOptions {
  int substeps = 100;  // n: substeps a step
  int iterations = 1;  // passes over the constraints a substep ([68]: one)
  XpbdFriction friction = XpbdFriction::kPositional;
};

// Throws ncp::Error naming the field when a count is below 1 or above 1e6.
void ValidateXpbdOptions(const XpbdOptions& o);

struct XpbdStepStats {
  int contacts = 0;              // found at the start of the step
  double max_penetration = 0.0;  // max(0, −gap) over them [m]
};

class XpbdStepper {
 public:
  // Throws ncp::Error naming the instance or joint when `s` holds anything but single free bodies
  // (one floating link, centre of mass at its frame, positive mass and inertia), friction joints,
  // or anisotropic friction (an isotropic cone only).
  XpbdStepper(const MultibodySystem& s, XpbdOptions opt);

  // One step of s.options().dt from the system's state (call the scene's before_step first):
  // moves the bodies, sets their velocities, and advances the system's clock, world coupling
  // frames and kinematic geoms as MultibodySystem::Advance does. World geoms stay where they
  // are during the step.
  XpbdStepStats Step(MultibodySystem& s);

 private:
  struct Body {
    double inv_mass = 0.0;
    Mat3 inertia = Mat3::Zero(), inv_inertia = Mat3::Zero();  // body frame
    Vec3 x = Vec3::Zero(), v = Vec3::Zero();                  // world position, velocity
    Mat3 R = Mat3::Identity();
    Vec3 w = Vec3::Zero();  // angular velocity, body frame
    Vec3 x_prev = Vec3::Zero();
    Mat3 R_prev = Mat3::Identity();
    Vec3 push = Vec3::Zero();  // Instance::push, a constant world force [N]
  };
  struct Contact {
    int body[2] = {-1, -1};  // side a, b (−1: the world)
    Vec3 local[2];           // the point in each body's frame
    Vec3 at[2];              // its world position when found
    Vec3 n = Vec3::UnitZ();  // from a towards b
    double gap0 = 0.0, mu = 0.0;
    double lambda_n = 0.0;  // this substep's normal multiplier
  };

  Vec3 Point(int body, const Vec3& local, bool previous) const;
  // Moves `body` by the body-frame twist M⁻¹ rowᵀ scale (a 6-vector row in body-twist terms).
  void Apply(int body, const Vec6& row, double scale);
  double InverseMass(int body, const Vec6& row) const;
  Vec6 PointRow(int body, const Vec3& local, const Vec3& dir) const;
  // Coupling c's rows at the current poses, a world frame carried on for τ from the step's start.
  CouplingRows Rows(const Coupling& c, double tau) const;
  void FindContacts(const MultibodySystem& s, XpbdStepStats& st);
  void Predict(double h, const Vec3& gravity);
  void SolveCouplings(const MultibodySystem& s, double tau_h, double h, bool first);
  void SolveContacts(double slop);
  void UpdateVelocities(double h);
  void SolveVelocities(double h);
  // Changes the relative velocity of contact c's points along `dir` by dv, the impulse capped
  // at `cap` in magnitude; returns the impulse applied (signed along `dir`).
  double Impulse(const Contact& c, const Vec3& dir, double dv, double cap);
  // Sets the system's state to ours through its own Advance (clock, prescribed frames).
  void WriteBack(MultibodySystem& s);

  XpbdOptions opt_;
  std::vector<Body> bodies_;
  std::vector<int> first_body_;  // system body index → ours (one body per instance)
  CollisionWorld collision_;
  std::vector<int> geom_body_;  // ours, −1 for world geoms
  std::vector<Pose> geom_poses_;
  std::vector<ContactPoint> points_;
  std::vector<Contact> contacts_;
  std::vector<Coupling> couplings_;    // the system's, world frames moved per substep
  std::vector<Vec6> coupling_lambda_;  // this substep's multipliers
  std::vector<Vec3> x0_;               // the step's starting poses
  std::vector<Mat3> R0_;
  std::vector<Vec6> coupling_start_;  // C at the substep's start (damping)
};

}  // namespace ncp::physics
