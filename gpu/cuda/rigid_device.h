// Device side of `subadmm-gpu`: the layout of solvers/subadmm_rigid/rigid_math.h resident on
// the GPU across iterations (001 §II-C). A whole chunk of iterations is one cooperative kernel
// whose phases (bodies, constraints, residual, β rule, refactorization) are separated by grid
// barriers, so a chunk costs one launch and one wait instead of a launch and a host round trip
// per iteration. Plain C++ interface (no CUDA or Eigen types) so that only rigid_device.cu is
// compiled by nvcc.
#pragma once

#include <memory>
#include <string>

#include "solvers/subadmm_rigid/rigid_math.h"

namespace ncp::gpu {

// Name of CUDA device 0, or "" when the runtime reports no usable device (asked once a process).
std::string CudaDeviceName();

// Where the last Upload's time went, in milliseconds: packing the host arrays into pinned
// memory, the one host-to-device copy, and the one setup kernel (device clocks, CUDA events).
struct UploadTimes {
  double pack_ms = 0, copy_ms = 0, kernel_ms = 0;
  double bytes = 0;  // copied to the device
};

class DeviceSolver {
 public:
  DeviceSolver();
  ~DeviceSolver();
  DeviceSolver(const DeviceSolver&) = delete;
  DeviceSolver& operator=(const DeviceSolver&) = delete;
  // Copies the host views (host pointers; their J left empty) and the problem's J (`src`) to the
  // device in one transfer, scatters J into the constraints' slots, assembles C_b, factorizes and
  // initializes the slacks from v̂⁰, λ⁰ in one kernel; `sc` comes back with the setup's flags
  // (`j_mismatch`, `factor_failed`). The stream, the pinned staging and the device arrays are kept
  // for the next Upload (grown when a problem needs more), so a scene's later steps allocate
  // nothing. Returns "" or a one-line error. `threads` host threads pack the staging buffer;
  // `block` threads per block (32, 64, 128 or 256) run the kernels.
  std::string Upload(const BodyView& bodies, const ConstraintView& contacts,
                     const ConstraintView& joints, const JSource& src, Scalars& sc, int threads,
                     int block);
  // Up to k iterations in one launch; stops after the iteration that sets `nonfinite` or
  // `factor_failed`, as single iterations would. `out` is the scalars after it (out.iter counts
  // the iterations run since the upload).
  std::string Iterate(int k, Scalars& out);
  // v̂ and λ back into the host views' arrays.
  std::string Download(const BodyView& bodies, const ConstraintView& contacts,
                       const ConstraintView& joints) const;
  const UploadTimes& upload_times() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace ncp::gpu
