// Scenes: each builds a stepped system from parameters and a seed — a MultibodySystem (rigid and
// articulated scenes, here), a DeformableSystem (FEM scenes, scenarios/deformable/) or a
// CoupledSystem of both (a skeleton in FEM flesh, scenarios/deformable/starfish.cc); the
// harness steps it with a solver and records the per-step problems.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "problems/physics/coupled_system.h"
#include "problems/physics/fem/deformable_system.h"
#include "problems/physics/system.h"
#include "problems/scenarios/params.h"

namespace ncp {

using ParamMap = std::map<std::string, std::string>;

struct Scene {
  std::unique_ptr<physics::MultibodySystem> system;       // rigid and articulated scenes
  std::unique_ptr<physics::DeformableSystem> deformable;  // FEM scenes (system stays empty)
  std::unique_ptr<physics::CoupledSystem> coupled;  // a skeleton in FEM flesh (the others empty)
  // Called before every step (prescribed trajectories); may be empty.
  std::function<void(physics::MultibodySystem&)> before_step;
  std::map<std::string, double> params;  // every parameter used, defaults included
  physics::SteppedSystem& stepped() {
    if (coupled) return *coupled;
    if (system) return *system;
    return *deformable;
  }
};

struct SceneEntry {
  std::string name;
  std::string description;
  std::vector<ParamSpec> params;  // what `build` accepts (unknown keys are errors)
  int default_steps = 480;        // steps simulated by `generate`
  int default_every = 48;         // record every K steps
  std::function<Scene(const std::map<std::string, double>& params, std::uint64_t seed)> build;
  // Reference solves of recorded frames (0 / empty: SimulateOptions' defaults); set where the
  // defaults would make `generate` take minutes per frame.
  int reference_iters = 0;
  std::vector<std::string> reference_solvers;
  // The solver `generate` and `simulate` step the scene with (empty: admm-full at 200
  // iterations a step), for scenes whose steps another solver solves exactly (redmax on springs
  // and loop closures).
  std::string stepper;
  int stepper_iters = 0;
  std::map<std::string, double> defaults() const { return ParamDefaults(params); }
};

const std::vector<SceneEntry>& Scenes();
const SceneEntry* FindScene(const std::string& name);  // nullptr when unknown

// Merges user parameters into the defaults; throws ncp::Error "scene.key = v: ..." on unknown
// keys, non-numbers and values outside the spec (ParseParams).
std::map<std::string, double> SceneParams(const SceneEntry& e, const ParamMap& given);

// Directory of the shipped robot models (assets/); NCPBENCH_ASSETS overrides it.
std::string AssetDir();

// Shared builders.
// A scene with an empty system (step options `opt`) and its parameters recorded.
Scene NewScene(const std::map<std::string, double>& params, physics::StepOptions opt = {});
physics::Geom BoxGeom(const physics::Vec3& half, double mu);
physics::Geom SphereGeom(double radius, double mu);
physics::Mat3 BoxInertia(double mass, const physics::Vec3& half);
// Configuration [p, quaternion w x y z] of a free body at `pose`.
Eigen::VectorXd PoseToQ(const physics::Pose& pose);
// A free box / sphere instance at a pose with a velocity.
int AddBox(physics::MultibodySystem& s, double mass, const physics::Vec3& half, double mu,
           const physics::Pose& pose, const physics::Vec6& velocity = physics::Vec6::Zero());
// inertia_scale multiplies the solid sphere's rotational inertia 0.4 m r².
int AddSphere(physics::MultibodySystem& s, double mass, double radius, double mu,
              const physics::Pose& pose, double inertia_scale = 1.0);
// The floor z = 0 (optionally tilted about the y axis by `incline` radians).
void AddFloor(physics::MultibodySystem& s, double mu, double incline = 0.0);

}  // namespace ncp
