// `subadmm-gpu` (001): GPU SubADMM with one rigid body per subsystem; the CPU path
// `subadmm-rigid-cpu` runs the same per-element functions. Built only with CUDA; without a device
// at run time Setup returns not-applicable, "no CUDA device".
#pragma once

#include "gpu/cuda/workspace_pool.h"
#include "solvers/subadmm_rigid/rigid_layout.h"
#include "solvers/subadmm_rigid/subadmm_rigid_cpu.h"
#include "solvers/solver.h"

namespace ncp::gpu {

// The settings of subadmm-rigid-cpu and `block`, the kernels' threads per block.
// The rigid settings and the kernels' block size.
struct GpuSettings : RigidSettings {
  enum class Block { k256, k128, k64, k32 };
  static constexpr auto kBlockNames = ChoiceNames<Block>(
      {{Block::k256, "256"}, {Block::k128, "128"}, {Block::k64, "64"}, {Block::k32, "32"}});
  Block block = Block::k64;
  int BlockThreads() const { return 256 >> static_cast<int>(block); }
  static const SettingsTable<GpuSettings>& Table();
};

class SubAdmmGpu : public Solver {
 public:
  Status Setup(const ContactProblem& p, const Settings& s, const WarmStart* warm) override;
  Status Iterate() override;
  // A chunk is one kernel launch and one wait (the β rule runs on the device).
  Status IterateChunk(int k, int& done) override;
  int MaxChunk() const override { return kMaxChunk; }
  void Current(Vec& v, Vec& lambda) const override;
  std::vector<std::pair<std::string, double>> Info() const override;
  // Host threads of the setup (layout and pack); the iterations run on the device.
  int ThreadsUsed() const override { return threads_; }

  // Bounds one launch's length, so that a time budget is checked now and then.
  static constexpr int kMaxChunk = 4096;

 private:
  WorkspaceLease ws_;  // host mirror (v̂ and λ copied into it by Current()) and device arrays
  Scalars sc_;
  int n_ = 0, m_ = 0, threads_ = 1;
  double layout_ms_ = 0;   // host: the layout built from the problem
  bool uploaded_ = false;  // the workspace holds this problem
};

}  // namespace ncp::gpu
