// The host layout and the device arrays of `subadmm-gpu`, kept between solver objects: the
// harness makes a solver per problem, and a scene's next step should find its pinned buffers,
// device arena and stream already there (001 measures a step, not a process start). A solver
// takes a workspace in Setup and gives it back when it is destroyed; concurrent solvers take
// different ones.
#pragma once

#include <memory>

#include "gpu/cuda/rigid_device.h"
#include "solvers/subadmm_rigid/rigid_layout.h"

namespace ncp::gpu {

struct GpuWorkspace {
  RigidLayout lay;
  DeviceSolver dev;
};

struct ReturnWorkspace {
  void operator()(GpuWorkspace* w) const;
};
using WorkspaceLease = std::unique_ptr<GpuWorkspace, ReturnWorkspace>;

// A free workspace of this process, or a new one.
WorkspaceLease TakeWorkspace();

}  // namespace ncp::gpu
