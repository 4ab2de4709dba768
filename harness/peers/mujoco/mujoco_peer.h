// MuJoCo scene peer: the same scene (masses, sizes, friction, time step, initial poses and
// velocities, PD gains) written as MJCF from our MultibodySystem, compiled by MuJoCo from memory
// (its virtual file system) and stepped with MuJoCo's own PGS, CG or Newton solver.
// Built only when libmujoco-dev is found (CMake NCPBENCH_MUJOCO, AUTO).
#pragma once

#include <string>
#include <vector>

#include "problems/scenarios/rigid/scene.h"

struct mjModel_;

namespace ncp::mujoco_peer {

struct MjOptions {
  std::string solver = "newton";  // pgs | cg | newton
  int iterations = 200;           // per-step solver iteration cap
  double tolerance = 1e-10;       // MuJoCo's early exit (relative cost improvement)
  bool elliptic = true;           // elliptic cone = Coulomb's; false: pyramidal
};

// MJCF text of the scene: one body per link of every instance (named "b<body index>", our
// system's body order), free joints for floating roots, hinges/slides with our limits, position
// actuators with our kp plus joint damping kd for PD-held joints, the floor plane, and contact
// exclusions between the links of one instance (our instances do not self-collide).
// Initial joint values are not in the text (MuJoCo bodies are defined at qpos = 0): SetState
// writes them.
std::string SceneToMjcf(const physics::MultibodySystem& sys, const MjOptions& opt);

// Compiles MJCF text from memory; throws ncp::Error with MuJoCo's message on failure. The caller
// frees the model with mj_deleteModel.
mjModel_* CompileMjcf(const std::string& xml);

struct MjRun {
  std::vector<physics::Pose> final_poses;  // per body of our system, after the last step
  double max_penetration = 0.0;            // max over steps and contacts of max(0, −dist) [m]
  double step_ms = 0.0;                    // mean wall time of mj_step
  int max_contacts = 0;
  bool finite = true;  // every qpos finite at the end
};

// Builds the model of `sys` (in its initial state), sets the initial state and runs `steps`
// mj_step calls.
MjRun Run(const physics::MultibodySystem& sys, const MjOptions& opt, int steps);

}  // namespace ncp::mujoco_peer
