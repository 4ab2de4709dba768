// Device side of `subadmm-gpu`: the layout of solvers/subadmm_rigid/rigid_math.h resident on
// the GPU across iterations, one iteration launched asynchronously on two streams (001 Fig. 3).
// Plain C++ interface (no CUDA or Eigen types) so that only rigid_device.cu is compiled by nvcc.
#pragma once

#include <memory>
#include <string>

#include "solvers/subadmm_rigid/rigid_math.h"

namespace ncp::gpu {

// Name of CUDA device 0, or "" when the runtime reports no usable device.
std::string CudaDeviceName();

class DeviceSolver {
 public:
  DeviceSolver();
  ~DeviceSolver();
  DeviceSolver(const DeviceSolver&) = delete;
  DeviceSolver& operator=(const DeviceSolver&) = delete;
  // Copies the host views (host pointers) to the device, assembles C_b with atomics, factorizes
  // and initializes the slacks from v̂⁰, λ⁰. Returns "" or a one-line error.
  std::string Upload(const BodyView& bodies, const ConstraintView& contacts,
                     const ConstraintView& joints, const Scalars& sc);
  // One iteration; waits only for the scalars (residuals, β, flags) copied back at its end.
  std::string Iterate(Scalars& out);
  // v̂ and λ back into the host views' arrays.
  std::string Download(const BodyView& bodies, const ConstraintView& contacts,
                       const ConstraintView& joints) const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace ncp::gpu
