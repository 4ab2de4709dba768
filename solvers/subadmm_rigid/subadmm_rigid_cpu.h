// `subadmm-rigid-cpu`: the CPU path of the GPU SubADMM (001 §II): one rigid body per subsystem,
// the per-element functions of rigid_math.h run sequentially in the kernels' order. It is the
// reference the CUDA solver (gpu/cuda/) is tested against, and equals `subadmm` restricted to
// rigid bodies up to rounding (tests/gpu/gpu_rigid_test.cc).
#pragma once

#include "solvers/subadmm_rigid/rigid_layout.h"
#include "solvers/settings_table.h"
#include "solvers/solver.h"

namespace ncp::gpu {

// Settings shared with `subadmm-gpu` (same meaning as in `subadmm`).
struct RigidSettings {
  double beta = 0.0;  // 0: the density rule of subadmm
  bool adaptive = true;
  double gamma = 10.0;
  int adapt_every = 1;
  static const SettingsTable<RigidSettings>& Table();
};
// The rigid settings of a table, first wherever they appear (S derives from RigidSettings).
template <typename S>
void AddRigidCommon(SettingsTable<S>& t) {
  t.Real(&S::beta, "beta", {.min = 0.0, .max = 1e12},
         "initial penalty β; 0 = the density rule of subadmm (004 §VI-D)")
      .Flag(&S::adaptive, "adaptive", "1: adapt β by 004:43")
      .Real(&S::gamma, "gamma", {.min = 1.0, .max = 1e6, .min_open = true},
            "imbalance ratio γ > 1 of 004:43")
      .Int(&S::adapt_every, "adapt_every", {.min = 1.0, .max = 1e6},
           "iterations between β checks (each change refactorizes every body)");
}
// β⁰, the adaptive rule's parameters and refactor = 1, from the settings and the problem.
Scalars InitialScalars(const ContactProblem& p, const Settings& s);
// The setup on the host, in the device's order: C_b per constraint slot, the factors (false,
// with sc.factor_failed, when one is not positive definite), then the slacks from v̂⁰ and λ⁰.
bool SetupOnHost(const BodyView& b, const ConstraintView& contacts, const ConstraintView& joints,
                 Scalars& sc);

class RigidSubAdmmCpu : public Solver {
 public:
  Status Setup(const ContactProblem& p, const Settings& s, const WarmStart* warm) override;
  Status Iterate() override;
  void Current(Vec& v, Vec& lambda) const override;
  std::vector<std::pair<std::string, double>> Info() const override;

 private:
  RigidLayout lay_;
  BodyView bodies_;
  ConstraintView contacts_, joints_;
  Scalars sc_;
  int n_ = 0, m_ = 0;
};

}  // namespace ncp::gpu
