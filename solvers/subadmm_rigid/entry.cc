#include "solvers/subadmm_rigid/entry.h"

#include <memory>

#include "solvers/subadmm_rigid/subadmm_rigid_cpu.h"

namespace ncp {

SolverEntry SubAdmmRigidCpuEntry() {
  return WithSettings(
      gpu::RigidSettings::Table(),
      {.name = "subadmm-rigid-cpu",
       .description =
           "CPU path of the GPU SubADMM: one rigid body per subsystem, the kernels' per-element "
           "functions in their order (001 §II)",
       .local = LocalUse::kNone,
       .make = [] { return std::make_unique<gpu::RigidSubAdmmCpu>(); },
       .deterministic = true});
}

}  // namespace ncp
