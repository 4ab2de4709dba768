// Registers `subadmm-gpu` when the program starts. gpu/ sits above solvers/, so the registry
// cannot list it; the build links the gpu library whole, so that this initializer is kept.
#include <memory>

#include "gpu/cuda/subadmm_gpu.h"
#include "solvers/registry.h"
#include "solvers/subadmm_rigid/subadmm_rigid_cpu.h"

NCP_REGISTER_SOLVER(
    subadmm_gpu,
    {.name = "subadmm-gpu",
     .description = "GPU SubADMM, CUDA kernels, one rigid body per subsystem (001 §II)",
     .settings = ::ncp::gpu::GpuSettings::Table().Specs(),
     .local = ::ncp::LocalUse::kNone,
     .make = [] { return std::make_unique<::ncp::gpu::SubAdmmGpu>(); },
     .read_back = ::ncp::gpu::GpuSettings::Table().ReadBack()})
