// `subadmm-gpu` (001): GPU SubADMM with one rigid body per subsystem; the CPU path
// `subadmm-rigid-cpu` runs the same per-element functions. Built only with CUDA; without a device
// at run time Setup returns not-applicable, "no CUDA device".
#pragma once

#include <memory>

#include "gpu/cuda/rigid_device.h"
#include "solvers/subadmm_rigid/rigid_layout.h"
#include "solvers/solver.h"

namespace ncp::gpu {

class SubAdmmGpu : public Solver {
 public:
  Status Setup(const ContactProblem& p, const Settings& s, const WarmStart* warm) override;
  Status Iterate() override;
  void Current(Vec& v, Vec& lambda) const override;
  std::vector<std::pair<std::string, double>> Info() const override;

 private:
  mutable RigidLayout lay_;  // host mirror: v̂ and λ are copied into it by Current()
  std::unique_ptr<DeviceSolver> dev_;
  Scalars sc_;
  int n_ = 0, m_ = 0;
};

}  // namespace ncp::gpu
