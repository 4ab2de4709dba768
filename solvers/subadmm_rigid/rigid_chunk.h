// The phases of one GPU SubADMM iteration as the device runs a chunk of them in one cooperative
// kernel (gpu/cuda/rigid_device.cu): each phase is what one thread of a grid does between two
// grid barriers, over the elements tid, tid + stride, ... Host and device share these functions,
// so a host test can run them with emulated threads in barrier order and check what the device
// relies on: every thread keeps the same scalars (same β, same stopping decision, so every
// barrier is met by all), and the iterates equal the CPU path's.
//
// A chunk: Bodies | barrier, then per iteration: Constraints | barrier | Residual and the next
// iteration's Bodies | barrier | Adapt (every thread); only when β changed: Factor | barrier |
// FactorFailed | RedoBodies | barrier. The next v̂ is computed before the β rule has run, with
// the β in hand (two barriers an iteration instead of three); when β changes, it is computed
// again from the kept g and h. The last iteration of a chunk computes no next v̂, so a chunk ends
// on the state single iterations leave.
#pragma once

#include "solvers/subadmm_rigid/rigid_math.h"

namespace ncp::gpu {

// Reductions and flags shared by the grid, in three slots by iteration: slot Slot(it) is
// accumulated during iteration it (its v̂ in the Residual phase of it − 1) and read by every
// thread right after it; thread 0 clears Slot(it + 1) in the Constraints phase of it, two
// barriers after the last reads of that slot (iteration it − 2) and a barrier before its first
// writes. So reading one iteration's sums needs no barrier before the next one accumulates.
constexpr int kChunkSlots = 3;
NCP_HD int Slot(int iter) { return iter % kChunkSlots; }

struct ChunkScratch {
  unsigned long long tp2_bits[kChunkSlots], td_bits[kChunkSlots];
  double ty[kChunkSlots];
  int nonfinite[kChunkSlots];
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

// v̂ per body (001:1): the first iteration of a chunk.
NCP_HD void ChunkBodies(const BodyView& b, Scalars& s, ChunkScratch* x, int tid, int stride) {
  for (int q = tid; q < b.n; q += stride) BodyStep(b, s, q);
  PublishFlag(s.nonfinite, &x->nonfinite[Slot(s.iter)]);
}

// Contacts (3 rows) then joints (1 row) as one index range; returns this thread's max ‖J v̂ − z‖²
// and Σ‖Δy‖² in tp2, ty for the caller to reduce into the slot.
NCP_HD void ChunkConstraints(const ConstraintView& c, const ConstraintView& j, const BodyView& b,
                             Scalars& s, ChunkScratch* x, int tid, int stride, double& tp2,
                             double& ty) {
  const int slot = Slot(s.iter), next = Slot(s.iter + 1);
  if (tid == 0)
    x->tp2_bits[next] = 0, x->td_bits[next] = 0, x->ty[next] = 0.0, x->nonfinite[next] = 0;
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

// This thread's max θ_d,b (004:42); with `next`, then each body's v̂ of the next iteration
// (BodyStep reads h before clearing it, after the residual read it).
NCP_HD double ChunkResidual(const BodyView& b, Scalars& s, ChunkScratch* x, int tid, int stride,
                            bool next) {
  double td = 0.0;
  for (int q = tid; q < b.n; q += stride) {
    td = fmax(td, BodyResidual(b, s, q));
    if (next) BodyStep(b, s, q);
  }
  PublishFlag(s.nonfinite, &x->nonfinite[Slot(s.iter + 1)]);
  return td;
}

// Every thread: the slot's reductions into its scalars and the β rule. True when the chunk stops
// here (non-finite); s.refactor then says whether the Factor phase follows.
NCP_HD bool ChunkAdapt(Scalars& s, const ChunkScratch* x) {
  const int slot = Slot(s.iter);
  s.tp2_bits = LoadShared(&x->tp2_bits[slot]);
  s.td_bits = LoadShared(&x->td_bits[slot]);
  s.ty = LoadShared(&x->ty[slot]);
  s.nonfinite = LoadShared(&x->nonfinite[slot]);
  AdaptStep(s);
  return s.nonfinite != 0;
}

// Refactorization with the new β (only when s.refactor). With `next`, thread 0 clears the flag
// the next v̂ computed with the old β may have set; RedoBodies sets it again where it holds.
NCP_HD void ChunkFactor(const BodyView& b, Scalars& s, ChunkScratch* x, int tid, int stride,
                        bool next) {
  for (int q = tid; q < b.n; q += stride) FactorStep(b, s, q);
  PublishFlag(s.factor_failed, &x->factor_failed);
  if (next && tid == 0) x->nonfinite[Slot(s.iter)] = 0;  // s.iter: already the next iteration
}

// After the barrier that follows ChunkFactor: true when any body's factorization failed.
NCP_HD bool ChunkFactorFailed(Scalars& s, const ChunkScratch* x) {
  s.factor_failed = LoadShared(&x->factor_failed);
  return s.factor_failed != 0;
}

// After a refactorization: the next v̂ again, with the new β and factor.
NCP_HD void ChunkRedoBodies(const BodyView& b, Scalars& s, ChunkScratch* x, int tid, int stride) {
  for (int q = tid; q < b.n; q += stride) RedoBodyStep(b, s, q);
  PublishFlag(s.nonfinite, &x->nonfinite[Slot(s.iter)]);
}

}  // namespace ncp::gpu
