// Deformable bodies (co-rotational FEM, one subsystem each) in contact with world planes and
// kinematic boxes, stepped with the linearized implicit scheme of 002:9 (v = nodal velocities):
//   A = M + h D + h² Σ_e R K_e Rᵀ,   b = M v_k + h M g + h f_el(q_k),
//   f_el = −Σ_e Jₑᵀ K_e e(q_k) = −Σ_e R K_e (Rᵀ x_e − X_e),
// damping D = α M + β Σ_e R K_e Rᵀ (Rayleigh-like, user constants) + h·Π(G) when `geometric` is
// set (002 §II-A policy 2: the geometric stiffness projected on SPD matrices by diagonal absolute
// column sums; being diagonal it also drags every node against the world frame, strongly for
// stiff strained bodies). The elastic forces are folded into A and b, so J carries only hard rows:
//   contacts: one per surface node in contact (the deepest obstacle), rows F_i (3 × 3) on that
//     node's 3 dofs — exactly nodal; e = StabilizeGap(gap) on the normal row, and −F_i v_obstacle
//     (the obstacle's surface velocity at the node) on all three rows;
//   ties (bilateral, 3 rows): v_a − v_b + erp (x_a − x_b)/h = 0 joins the duplicated interface
//     nodes of a body split into pieces (000 §III-A);
//   drivers (bilateral, 3 rows per node): v − (X + d(t + h) − x)/h = 0 moves a node set on a
//     prescribed displacement d(t).
//   free rigid boxes (6 dofs each after the nodes': linear and angular velocity in the world
//     frame, A = diag(m I, R I_b Rᵀ), b with gravity and the explicit gyroscopic term): a surface
//     node against a box gets rows F_i on the node and −F_i [I, −[r]×] on the box (r from the
//     box's centre to the node), so a contact between a node and a dynamic body is not nodal
//     (002's virtual nodes); a box's corners touch the planes with rows on the box alone.
//   boxes on prismatic joints (1 dof each, after the rigid boxes': the slide rate ṡ along the
//     joint's axis a, whose frame follows a kinematic trajectory), driven toward a target s*(t)
//     by an implicit PD drive: A = m + h k_d + h² k_p, b = m ṡ + h k_p (s*(t + h) − s)
//     + h k_d ṡ* + h m g·a; a surface node against one gets rows F_i on the node and −F_i a on
//     the slide (the frame's own motion in e), so those contacts too are not nodal.
// Advance: v_{k+1} = v̂, x_{k+1} = x_k + h v̂ (a box: c += h v, R ← exp(h ω) R; a slide:
// s += h ṡ).
#pragma once

#include <functional>
#include <map>
#include <string>
#include <vector>

#include "problems/physics/fem/corotational_fem.h"
#include "problems/physics/stepped_system.h"

namespace ncp::physics {

struct FemDamping {
  double mass = 0.0;       // α [1/s]
  double stiffness = 0.0;  // β [s]
  bool geometric = false;  // add h · Π(G)
};

// Pose and velocity of a kinematic box at a time: its surface point p moves with
// linear + angular × (p − pose.translation()).
struct KinematicState {
  Pose pose = Pose::Identity();
  Vec3 linear = Vec3::Zero(), angular = Vec3::Zero();
};
using Trajectory = std::function<KinematicState(double t)>;

// A prismatic joint with a PD drive: the joint frame follows `frame`; the box slides along
// `axis` (unit, in the joint frame) by s, driven toward target(t) with gains kp [N/m] and
// kd [N·s/m] (s = 0 puts the box at the frame's origin).
struct PrismaticDrive {
  Trajectory frame;
  Vec3 axis = Vec3::UnitX();
  std::function<double(double t)> target;
  double kp = 0.0, kd = 0.0;
};

class DeformableSystem : public SteppedSystem {
 public:
  explicit DeformableSystem(StepOptions opt = {}) { set_options(opt); }

  // A body at rest in its mesh's rest shape; returns its index (= its subsystem).
  int AddBody(const TetMesh& mesh, const FemMaterial& material, double mu, FemDamping damping = {});
  // The half-space n·x ≤ offset is solid (n is normalized).
  int AddPlane(const Vec3& normal, double offset, double mu);
  // A box with half extents `half`, posed by `trajectory` (a constant one for a fixed box).
  int AddBox(const Vec3& half, double mu, Trajectory trajectory);
  // A free rigid box of `mass` (uniform) with half extents `half` at `pose`, at rest; returns its
  // index. Its faces are obstacles to the bodies' surface nodes, its corners touch the planes
  // (not the kinematic boxes nor other rigid boxes).
  int AddRigidBox(const Vec3& half, double mass, double mu, const Pose& pose);
  // A box of `mass` with half extents `half` on the prismatic joint `drive`, starting at
  // s = target(0) at rest; returns its index. Its faces are obstacles to the bodies' surface
  // nodes (it does not touch the planes nor other boxes).
  int AddSliderBox(const Vec3& half, double mass, double mu, PrismaticDrive drive);
  // Joins node a of body ba to node b of body bb (3 bilateral rows).
  void AddTie(int ba, int a, int bb, int b);
  // Moves `nodes` of body `body` to rest position + displacement(t) (3 bilateral rows each).
  void AddDriver(int body, std::vector<int> nodes, std::function<Vec3(double t)> displacement);
  // Recorded in every problem's params (e.g. the drawn material).
  void SetParam(const std::string& key, double value) { params_[key] = value; }

  // `contacts`: geom_a = obstacle index (rigid box k: obstacles + k; slider box k: obstacles +
  // rigid boxes + k), geom_b = global node index
  // (a box's corner on a plane: −1 − k), position = the node (the corner).
  ContactProblem BuildProblem(std::vector<ContactPoint>* contacts = nullptr) override;
  void Advance(const Vec& vhat) override;
  double time() const override { return time_; }
  const StepOptions& options() const override { return opt_; }
  // theta must be 0 (the scheme above has no θ).
  void set_options(const StepOptions& opt) override;

  int num_dofs() const {
    return 3 * num_nodes_ + 6 * static_cast<int>(rigid_.size()) + static_cast<int>(sliders_.size());
  }
  int num_rigid_boxes() const { return static_cast<int>(rigid_.size()); }
  int num_slider_boxes() const { return static_cast<int>(sliders_.size()); }
  // Pose and velocity of rigid box k.
  KinematicState RigidBoxState(int k) const;
  // Slide s [m] and its rate ṡ of slider box k.
  double SliderPosition(int k) const;
  double SliderRate(int k) const;
  int num_nodes() const { return num_nodes_; }
  int num_tets() const;
  int num_bodies() const { return static_cast<int>(bodies_.size()); }
  int node_offset(int body) const { return bodies_[body].first_node; }  // global node index
  const Vec& positions() const { return x_; }  // 3 per node, bodies in order
  const Vec& velocities() const { return v_; }
  const CorotationalFem& fem(int body) const { return bodies_[body].fem; }
  // Elastic forces of every body at the current positions (3 per node).
  Vec ElasticForces();

 private:
  struct Body {
    CorotationalFem fem;
    std::vector<int> surface;  // global node indices
    int first_node = 0;
    double mu = 0.0;
    FemDamping damping;
  };
  struct Obstacle {
    bool plane = true;
    Vec3 normal = Vec3::UnitZ();
    double offset = 0.0;
    Vec3 half = Vec3::Zero();
    Trajectory trajectory;
    double mu = 0.0;
  };
  struct RigidBox {
    Vec3 half = Vec3::Zero();
    double mass = 0.0, mu = 0.0;
    Vec3 inertia = Vec3::Zero();  // principal moments about the box's axes
    KinematicState state;         // pose, linear and angular velocity (world frame)
  };
  struct SliderBox {
    Vec3 half = Vec3::Zero();
    double mass = 0.0, mu = 0.0;
    PrismaticDrive drive;
    double s = 0.0, rate = 0.0;
    // At time t: the box's pose, its surface velocity without the slide (the frame's motion),
    // and the slide's direction in the world.
    KinematicState State(double t, Vec3& axis_world) const;
  };
  struct Driver {
    std::vector<int> nodes;  // global
    std::function<Vec3(double)> displacement;
  };
  int RigidOffset(int k) const { return 3 * num_nodes_ + 6 * k; }  // first dof of rigid box k
  int SliderOffset(int k) const { return RigidOffset(num_rigid_boxes()) + k; }  // its one dof
  // Gap, normal (obstacle → node) and surface velocity of obstacle o at point p.
  void Distance(const Obstacle& o, const KinematicState& s, const Vec3& p, double& gap, Vec3& n,
                Vec3& vel) const;

  StepOptions opt_;
  std::vector<Body> bodies_;
  std::vector<Obstacle> obstacles_;
  std::vector<RigidBox> rigid_;
  std::vector<SliderBox> sliders_;
  std::vector<std::array<int, 2>> ties_;  // global node pairs
  std::vector<Driver> drivers_;
  std::map<std::string, double> params_;
  Vec x_, v_, rest_;
  int num_nodes_ = 0;
  double time_ = 0.0;
};

}  // namespace ncp::physics
