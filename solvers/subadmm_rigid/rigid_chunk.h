// The phases of one GPU SubADMM iteration as the device runs a chunk of them in one cooperative
// kernel (gpu/cuda/rigid_device.cu): each phase is what one thread of a grid does between two
// grid barriers, over the elements tid, tid + stride, ... Host and device share these functions,
// so a host test can run them with emulated threads in barrier order and check what the device
// relies on: every thread keeps the same scalars (same β, same stopping decision, so every
// barrier is met by all), and the iterates equal the CPU path's.
//
// One iteration: Bodies | barrier | Constraints | barrier | Residual | barrier | Adapt (every
// thread), then only when β changed: Factor | barrier | FactorFailed.
#pragma once

#include "solvers/subadmm_rigid/rigid_math.h"

namespace ncp::gpu {

// Reductions and flags shared by the grid, in two slots by the parity of the iteration: slot
// it & 1 is accumulated and read in iteration it while thread 0 clears the other one for it + 1
// (after the barrier that its last readers passed), so reading one iteration's sums needs no
// barrier before the next iteration accumulates.
struct ChunkScratch {
  unsigned long long tp2_bits[2], td_bits[2];
  double ty[2];
  int nonfinite[2];
  int factor_failed;  // sticky: set by any body's refactorization
};

// A value other blocks wrote before the last barrier (device: not from this SM's L1).
template <typename T>
NCP_HD T LoadShared(const T* p) {
#if defined(__CUDA_ARCH__)
  return __ldcg(p);
#else
  return *p;
#endif
}

// A flag an element function set on the thread's copy of the scalars goes to the shared word and
// the copy is cleared: the copies must stay identical across threads.
NCP_HD void PublishFlag(int& local, int* shared) {
  if (local) SetFlag(shared), local = 0;
}

// v̂ per body (001:1).
NCP_HD void ChunkBodies(const BodyView& b, Scalars& s, ChunkScratch* x, int tid, int stride) {
  for (int q = tid; q < b.n; q += stride) BodyStep(b, s, q);
  PublishFlag(s.nonfinite, &x->nonfinite[s.iter & 1]);
}

// Contacts (3 rows) then joints (1 row) as one index range; returns this thread's max ‖J v̂ − z‖²
// and Σ‖Δy‖² in tp2, ty for the caller to reduce into the slot.
NCP_HD void ChunkConstraints(const ConstraintView& c, const ConstraintView& j, const BodyView& b,
                             Scalars& s, ChunkScratch* x, int tid, int stride, double& tp2,
                             double& ty) {
  const int slot = s.iter & 1;
  if (tid == 0) {
    x->tp2_bits[slot ^ 1] = 0, x->td_bits[slot ^ 1] = 0;
    x->ty[slot ^ 1] = 0.0, x->nonfinite[slot ^ 1] = 0;
  }
  tp2 = 0.0, ty = 0.0;
  for (int q = tid; q < c.n + j.n; q += stride) {
    double p2 = 0.0, dy = 0.0;
    if (q < c.n)
      ConstraintStep<3>(c, b, s, q, p2, dy);
    else
      ConstraintStep<1>(j, b, s, q - c.n, p2, dy);
    tp2 = fmax(tp2, p2), ty += dy;
  }
  PublishFlag(s.nonfinite, &x->nonfinite[slot]);
}

// This thread's max θ_d,b (004:42).
NCP_HD double ChunkResidual(const BodyView& b, const Scalars& s, int tid, int stride) {
  double td = 0.0;
  for (int q = tid; q < b.n; q += stride) td = fmax(td, BodyResidual(b, s, q));
  return td;
}

// Every thread: the slot's reductions into its scalars and the β rule. True when the chunk stops
// here (non-finite); s.refactor then says whether the Factor phase follows.
NCP_HD bool ChunkAdapt(Scalars& s, const ChunkScratch* x) {
  const int slot = s.iter & 1;
  s.tp2_bits = LoadShared(&x->tp2_bits[slot]);
  s.td_bits = LoadShared(&x->td_bits[slot]);
  s.ty = LoadShared(&x->ty[slot]);
  s.nonfinite = LoadShared(&x->nonfinite[slot]);
  AdaptStep(s);
  return s.nonfinite != 0;
}

// Refactorization with the new β (only when s.refactor).
NCP_HD void ChunkFactor(const BodyView& b, Scalars& s, ChunkScratch* x, int tid, int stride) {
  for (int q = tid; q < b.n; q += stride) FactorStep(b, s, q);
  PublishFlag(s.factor_failed, &x->factor_failed);
}

// After the barrier that follows ChunkFactor: true when any body's factorization failed.
NCP_HD bool ChunkFactorFailed(Scalars& s, const ChunkScratch* x) {
  s.factor_failed = LoadShared(&x->factor_failed);
  return s.factor_failed != 0;
}

}  // namespace ncp::gpu
