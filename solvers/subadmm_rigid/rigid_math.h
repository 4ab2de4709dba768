// Per-element math of GPU SubADMM (001 §II) with one rigid body per subsystem, shared by the CUDA
// kernels (gpu/cuda/) and the CPU path (`subadmm-rigid-cpu`), so the CPU tests cover the same
// arithmetic the kernels run. Plain C++ when not compiled by nvcc; the cone and constraint
// operators are the problem layer's (problems/math/), not a copy.
//
// Layout: structure of arrays, element k of field f at f[q * n + k] for component q, so
// consecutive threads (elements) read consecutive addresses. Per body (6 dofs, spatial order
// [linear, angular] as in 004 App. A): A_b and C_b = Σ JᵀJ and the Cholesky factor of
// A_b + β C_b as packed lower triangles (21 numbers), b, v̂, g = Σ Jᵀλ, h = Σ Jᵀz, h of the previous
// iteration. Per constraint (a set of contacts, NR = 3, or of 1-row joints, NR = 1): up to two
// bodies (slots), J_{i,b} (NR × 6 per slot), e, λ, and per slot w = J v̂, y, z (u = −λ, 004:39).
//
// One iteration, in this order (001 Fig. 3): BodyStep (per body) → ConstraintStep (per contact,
// per joint; accumulates g, h with atomics) → BodyResidual (per body) → AdaptStep (one thread)
// → FactorStep (per body, only when β changed).
#pragma once

#include <math.h>
#include <string.h>

#include "problems/math/constraint_operator_core.h"
#include "problems/math/host_device.h"

namespace ncp::gpu {

constexpr int kTri = 21;  // packed lower triangle of a 6×6 matrix
NCP_HD int Tri(int r, int c) { return r * (r + 1) / 2 + c; }  // r ≥ c

// ---- atomics: device atomics under nvcc's device pass, plain updates on the host ----------------

NCP_HD void AddTo(double* p, double x) {
#if defined(__CUDA_ARCH__)
  atomicAdd(p, x);
#else
  *p += x;
#endif
}

// Max of non-negative doubles through their bit patterns (monotonic for x ≥ 0; NaN wins).
NCP_HD void MaxTo(unsigned long long* p, double x) {
#if defined(__CUDA_ARCH__)
  atomicMax(p, static_cast<unsigned long long>(__double_as_longlong(x)));
#else
  unsigned long long bits;
  memcpy(&bits, &x, sizeof bits);
  if (bits > *p) *p = bits;
#endif
}

NCP_HD double FromBits(unsigned long long bits) {
#if defined(__CUDA_ARCH__)
  return __longlong_as_double(static_cast<long long>(bits));
#else
  double x;
  memcpy(&x, &bits, sizeof x);
  return x;
#endif
}

NCP_HD void SetFlag(int* p) { *p = 1; }  // every writer writes 1: a benign race

// T of 004:18 on the layout's fields (type code of ConstraintType, the proximal flag of Scalars).
NCP_HD void ApplyOperator(unsigned char type, double mu, double stiffness, double damping,
                          double beta, const double* x, const double* e, double* y, bool proximal) {
  ApplyConstraintOperator(type, mu, stiffness, damping, beta, x, e, y,
                          proximal ? ConeOperator::kProximal : ConeOperator::kStrict);
}

// ---- 6×6 symmetric positive definite: K = A + β C, Cholesky, solve
// -------------------------------

// L L ᵀ = A + β C (packed lower triangles); false when not positive definite.
NCP_HD bool Factor6(const double* A, const double* C, double beta, double* L) {
  for (int t = 0; t < kTri; ++t) L[t] = A[t] + beta * C[t];
  for (int j = 0; j < 6; ++j) {
    double d = L[Tri(j, j)];
    for (int k = 0; k < j; ++k) d -= L[Tri(j, k)] * L[Tri(j, k)];
    if (!(d > 0.0)) return false;
    d = sqrt(d);
    L[Tri(j, j)] = d;
    for (int i = j + 1; i < 6; ++i) {
      double s = L[Tri(i, j)];
      for (int k = 0; k < j; ++k) s -= L[Tri(i, k)] * L[Tri(j, k)];
      L[Tri(i, j)] = s / d;
    }
  }
  return true;
}

// x ← (L Lᵀ)⁻¹ x.
NCP_HD void Solve6(const double* L, double* x) {
  for (int i = 0; i < 6; ++i) {
    double s = x[i];
    for (int k = 0; k < i; ++k) s -= L[Tri(i, k)] * x[k];
    x[i] = s / L[Tri(i, i)];
  }
  for (int i = 5; i >= 0; --i) {
    double s = x[i];
    for (int k = i + 1; k < 6; ++k) s -= L[Tri(k, i)] * x[k];
    x[i] = s / L[Tri(i, i)];
  }
}

// ---- views on the structure-of-arrays storage ------------------------------------------------

struct BodyView {
  int n = 0;
  // A_b: the 4 numbers of 001 §II-B (m, Ixx, Iyy, Izz; diagonal, body frame at the com) when
  // every body's is diagonal, else the packed lower triangle (e.g. manufactured 6×6 blocks).
  const double* mass = nullptr;  // 4 × n, or null
  const double* A = nullptr;     // 21 × n, or null when `mass` is set
  double* C = nullptr;           // 21 × n: Σ J_{i,b}ᵀ J_{i,b}
  double* L = nullptr;           // 21 × n: factor of A + β C
  const double* b = nullptr;     // 6 × n
  double* v = nullptr;           // 6 × n
  double* g = nullptr;           // 6 × n: Σ Jᵀλ
  double* h = nullptr;           // 6 × n: Σ Jᵀz
  double* hold = nullptr;        // 6 × n: h of the previous iteration
  double* gold = nullptr;  // 6 × n: g of the previous iteration (a v̂ step redone: RedoBodyStep)
};

struct ConstraintView {
  int n = 0;
  const int* body = nullptr;            // 2 × n, −1: no body in that slot (the world)
  const double* J = nullptr;            // 2 × (NR·6) × n, row-major NR × 6 per slot
  const double* e = nullptr;            // NR × n
  const unsigned char* type = nullptr;  // n
  const double* mu = nullptr;           // n
  const double* stiffness = nullptr;    // n
  const double* damping = nullptr;      // n
  double* lambda = nullptr;             // NR × n
  double* w = nullptr;                  // 2 × NR × n
  double* y = nullptr;                  // 2 × NR × n
  double* z = nullptr;                  // 2 × NR × n
};

// J of the problem in compressed columns, the source of the constraints' J_{i,b}: each dof's
// place (6 × body + dof within the body) and each row's (set index k, set, row within the
// constraint: k · 8 + set · 4 + r, set 0 = contacts, 1 = joints; −1: no constraint's row).
struct JSource {
  int cols = 0, rows = 0;
  const int* col_begin = nullptr;  // cols + 1
  const int* col_count = nullptr;  // cols, or null when J is compressed (begin[c+1] − begin[c])
  const int* row = nullptr;        // per entry
  const double* value = nullptr;   // per entry
  const int* dof_place = nullptr;  // cols
  const int* row_place = nullptr;  // rows of J
};
NCP_HD int RowPlace(int k, int set, int r) { return k * 8 + set * 4 + r; }

// Scatters column `col` of J into the slots of the constraints it meets (the sets' J, cleared
// before): entry (row, col) goes to slot s of constraint k where the slot's body owns col. Each
// entry has its own place, so columns scatter in any order, in parallel. Returns false when a
// nonzero entry's body is neither of its constraint's (J and the structure's blocks disagree).
NCP_HD bool ScatterColumn(const JSource& src, const ConstraintView& contacts,
                          const ConstraintView& joints, int col) {
  const int begin = src.col_begin[col];
  const int end = src.col_count ? begin + src.col_count[col] : src.col_begin[col + 1];
  const int body = src.dof_place[col] / 6, d = src.dof_place[col] % 6;
  if (src.dof_place[col] < 0) {  // a dof of no body: J must be empty there
    for (int o = begin; o < end; ++o)
      if (src.value[o] != 0.0) return false;
    return true;
  }
  bool ok = true;
  for (int o = begin; o < end; ++o) {
    const double x = src.value[o];
    const int place = src.row_place[src.row[o]];
    if (x == 0.0) continue;
    if (place < 0) {
      ok = false;
      continue;
    }
    const int k = place >> 3, r = place & 3;
    const ConstraintView& c = (place & 4) ? joints : contacts;
    const int nr = (place & 4) ? 1 : 3;
    const int s = c.body[k] == body ? 0 : (c.body[c.n + k] == body ? 1 : -1);
    if (s < 0) {
      ok = false;
      continue;
    }
    // The layout's own J, built here before any step reads it.
    const_cast<double*>(c.J)[(s * nr * 6 + 6 * r + d) * c.n + k] = x;
  }
  return ok;
}

// Scalars resident with the data (on the device for the GPU solver): β, the adaptive rule's
// state, this iteration's reductions and the last iteration's results.
struct Scalars {
  double beta = 1.0, inv_beta = 1.0, beta_base = 1.0, scale = 1.0, gamma = 10.0;
  int adaptive = 1, adapt_every = 1, proximal = 0;
  int spacing = 1, next_change = 1, last_dir = 0;  // the back-off of PenaltyAdapter
  int iter = 0, refactor = 1, refactorizations = 0;
  int nonfinite = 0, factor_failed = 0;
  int j_mismatch = 0;  // setup: a nonzero of J outside its constraint's bodies (ScatterColumn)
  unsigned long long tp2_bits = 0, td_bits = 0;  // running max of ‖J v̂ − z‖², θ_d,b
  double ty = 0.0;                               // running Σ ‖Δy‖² (000:22)
  double theta_p = 0.0, theta_d = 0.0, theta_y = 0.0;
};

// ---- per-element steps
// ---------------------------------------------------------------------------

// C_b += J_{i,b}ᵀ J_{i,b} for slot s of constraint i (setup; atomics: bodies share constraints).
template <int NR>
NCP_HD void AssembleElement(const ConstraintView& c, const BodyView& bd, int i, int s) {
  const int b = c.body[s * c.n + i];
  if (b < 0) return;
  double J[NR * 6];
  for (int q = 0; q < NR * 6; ++q) J[q] = c.J[(s * NR * 6 + q) * c.n + i];
  for (int r = 0; r < 6; ++r)
    for (int col = 0; col <= r; ++col) {
      double x = 0.0;
      for (int k = 0; k < NR; ++k) x += J[6 * k + r] * J[6 * k + col];
      AddTo(bd.C + Tri(r, col) * bd.n + b, x);
    }
}

// L_b = chol(A_b + β C_b) when β changed (or at setup).
NCP_HD void FactorStep(const BodyView& bd, Scalars& sc, int b) {
  if (!sc.refactor) return;
  double A[kTri], C[kTri], L[kTri];
  for (int t = 0; t < kTri; ++t) C[t] = bd.C[t * bd.n + b];
  if (bd.mass) {
    for (int t = 0; t < kTri; ++t) A[t] = 0.0;
    A[Tri(0, 0)] = A[Tri(1, 1)] = A[Tri(2, 2)] = bd.mass[b];
    for (int k = 0; k < 3; ++k) A[Tri(3 + k, 3 + k)] = bd.mass[(1 + k) * bd.n + b];
  } else {
    for (int t = 0; t < kTri; ++t) A[t] = bd.A[t * bd.n + b];
  }
  if (!Factor6(A, C, sc.beta, L)) SetFlag(&sc.factor_failed);
  for (int t = 0; t < kTri; ++t) bd.L[t * bd.n + b] = L[t];
}

// x ← L⁻ᵀ L⁻¹ x into v̂_b, flagging a non-finite result.
NCP_HD void SolveBody(const BodyView& bd, Scalars& sc, int b, double* x) {
  const int n = bd.n;
  double L[kTri];
  for (int t = 0; t < kTri; ++t) L[t] = bd.L[t * n + b];
  Solve6(L, x);
  bool finite = true;
  for (int k = 0; k < 6; ++k) bd.v[k * n + b] = x[k], finite = finite && isfinite(x[k]);
  if (!finite) SetFlag(&sc.nonfinite);
}

// v̂_b = (A_b + β C_b)⁻¹ (b_b + β h_b + g_b)  (001:1); keeps h (dual residual) and g (a redo)
// and clears both for this iteration's accumulation.
NCP_HD void BodyStep(const BodyView& bd, Scalars& sc, int b) {
  const int n = bd.n;
  double x[6];
  for (int k = 0; k < 6; ++k) {
    const double h = bd.h[k * n + b], g = bd.g[k * n + b];
    x[k] = bd.b[k * n + b] + sc.beta * h + g;
    bd.hold[k * n + b] = h, bd.gold[k * n + b] = g;
    bd.h[k * n + b] = 0.0, bd.g[k * n + b] = 0.0;
  }
  SolveBody(bd, sc, b, x);
}

// BodyStep again from the kept h, g, after β and the factor changed (the device computes v̂ before
// it knows whether β changes; rigid_chunk.h).
NCP_HD void RedoBodyStep(const BodyView& bd, Scalars& sc, int b) {
  const int n = bd.n;
  double x[6];
  for (int k = 0; k < 6; ++k)
    x[k] = bd.b[k * n + b] + sc.beta * bd.hold[k * n + b] + bd.gold[k * n + b];
  SolveBody(bd, sc, b, x);
}

// g_b += J_{i,b}ᵀ λ_i and h_b += J_{i,b}ᵀ z_{i,b} for both slots of constraint i.
template <int NR>
NCP_HD void AccumulateElement(const ConstraintView& c, const BodyView& bd, int i) {
  double l[NR];
  for (int k = 0; k < NR; ++k) l[k] = c.lambda[k * c.n + i];
  for (int s = 0; s < 2; ++s) {
    const int b = c.body[s * c.n + i];
    if (b < 0) continue;
    double J[NR * 6], z[NR];
    for (int q = 0; q < NR * 6; ++q) J[q] = c.J[(s * NR * 6 + q) * c.n + i];
    for (int k = 0; k < NR; ++k) z[k] = c.z[(s * NR + k) * c.n + i];
    for (int col = 0; col < 6; ++col) {
      double fg = J[col] * l[0], fh = J[col] * z[0];
      if constexpr (NR == 3) {
        fg = J[col] * l[0] + J[6 + col] * l[1] + J[12 + col] * l[2];
        fh = J[col] * z[0] + J[6 + col] * z[1] + J[12 + col] * z[2];
      }
      AddTo(bd.g + col * bd.n + b, fg);
      AddTo(bd.h + col * bd.n + b, fh);
    }
  }
}

// Setup of slot velocities from v̂⁰: w = z = J v̂⁰ (no primal residual), y = β w − λ (u⁰ = −λ⁰),
// then g, h from λ⁰, z⁰.
template <int NR>
NCP_HD void InitElement(const ConstraintView& c, const BodyView& bd, const Scalars& sc, int i) {
  for (int s = 0; s < 2; ++s) {
    const int b = c.body[s * c.n + i];
    if (b < 0) continue;
    for (int r = 0; r < NR; ++r) {
      const double* a = c.J + (s * NR * 6 + 6 * r) * c.n + i;
      double w = 0.0;
      for (int col = 0; col < 6; ++col) w += a[col * c.n] * bd.v[col * bd.n + b];
      const int q = (s * NR + r) * c.n + i;
      c.w[q] = w, c.z[q] = w;
      c.y[q] = sc.beta * w - c.lambda[r * c.n + i];
    }
  }
  AccumulateElement<NR>(c, bd, i);
}

// Steps 2–4 of 001 §II-A for constraint i: w = J v̂ per slot, y = β w + u with u = −λ,
// λ = T_{β_i}(−β_i (Σ y_s/β_s + e)) with 1/β_i = Σ 1/β_s, z = (y + λ)/β per slot; the primal
// residual max_s ‖w − z‖² (tp2) and Σ‖Δy‖² (ty) for the caller to reduce; then g, h of both
// bodies.
template <int NR>
NCP_HD void ConstraintStep(const ConstraintView& c, const BodyView& bd, Scalars& sc, int i,
                           double& tp2, double& ty_out) {
  const int n = c.n;
  double lam[NR], e[NR], ysum[NR], w[2][NR], y[2][NR];
  for (int k = 0; k < NR; ++k) lam[k] = c.lambda[k * n + i], e[k] = c.e[k * n + i], ysum[k] = 0.0;
  int body[2];
  double inv_sum = 0.0, ty = 0.0;
  const double bs = sc.beta, ibs = sc.inv_beta;
  for (int s = 0; s < 2; ++s) {
    body[s] = c.body[s * n + i];
    if (body[s] < 0) continue;
    double V[6];
    for (int k = 0; k < 6; ++k) V[k] = bd.v[k * bd.n + body[s]];
    inv_sum += ibs;
    for (int r = 0; r < NR; ++r) {
      const double* a = c.J + (s * NR * 6 + 6 * r) * n + i;
      w[s][r] = a[0] * V[0] + a[n] * V[1] + a[2 * n] * V[2] + a[3 * n] * V[3] + a[4 * n] * V[4] +
                a[5 * n] * V[5];
      const double yn = bs * w[s][r] - lam[r];
      const double dy = yn - c.y[(s * NR + r) * n + i];
      ty += dy * dy;
      y[s][r] = yn;
      ysum[r] += yn * ibs;
    }
  }
  const double beta_i = 1.0 / inv_sum;
  double x[3] = {0.0, 0.0, 0.0}, ee[3] = {0.0, 0.0, 0.0}, ln[3] = {0.0, 0.0, 0.0};
  for (int k = 0; k < NR; ++k) x[k] = -beta_i * (ysum[k] + e[k]), ee[k] = e[k];
  ApplyOperator(c.type[i], c.mu[i], c.stiffness[i], c.damping[i], beta_i, x, ee, ln,
                sc.proximal != 0);
  bool finite = true;
  for (int k = 0; k < NR; ++k) c.lambda[k * n + i] = ln[k], finite = finite && isfinite(ln[k]);
  if (!finite) SetFlag(&sc.nonfinite);
  double tp = 0.0;
  for (int s = 0; s < 2; ++s) {
    if (body[s] < 0) continue;
    double prim2 = 0.0;
    for (int r = 0; r < NR; ++r) {
      const int q = (s * NR + r) * n + i;
      const double z = (y[s][r] + ln[r]) * ibs;
      c.w[q] = w[s][r], c.y[q] = y[s][r], c.z[q] = z;
      const double d = w[s][r] - z;
      prim2 += d * d;
    }
    tp = prim2 > tp ? prim2 : tp;
  }
  tp2 = tp, ty_out = ty;
  AccumulateElement<NR>(c, bd, i);
}

// θ_d,b = β ‖h_b^l − h_b^{l+1}‖ = ‖A v̂ − b − Σ Jᵀλ‖ of body b (004:42; see SubAdmmBase).
NCP_HD double BodyResidual(const BodyView& bd, const Scalars& sc, int b) {
  double d2 = 0.0;
  for (int k = 0; k < 6; ++k) {
    const double d = bd.hold[k * bd.n + b] - bd.h[k * bd.n + b];
    d2 += d * d;
  }
  return sc.beta * sqrt(d2);
}

NCP_HD double Clamp(double x, double lo, double hi) { return x < lo ? lo : (x > hi ? hi : x); }

// One thread: closes the iteration's reductions and applies the adaptive rule of 004:43 with the
// bounded steps and the back-off of SubAdmmBase (PenaltyAdapter: each reversal of β's direction
// doubles the spacing of changes); sets `refactor` for FactorStep.
NCP_HD void AdaptStep(Scalars& sc) {
  const double tp = sqrt(FromBits(sc.tp2_bits)), td = FromBits(sc.td_bits);
  sc.theta_p = tp, sc.theta_d = td, sc.theta_y = sc.ty;
  sc.tp2_bits = 0, sc.td_bits = 0, sc.ty = 0.0;
  ++sc.iter;
  sc.refactor = 0;
  if (!isfinite(tp) || !isfinite(td)) sc.nonfinite = 1;
  if (sc.nonfinite) return;
  if (sc.adaptive && sc.iter >= sc.next_change && tp > 0 && td > 0 &&
      (tp > sc.gamma * td || td > sc.gamma * tp)) {
    const double factor = Clamp(sqrt(tp / td), 0.1, 10.0);
    const double scale = Clamp(sc.scale * factor, 1e-8, 1e8);
    if (scale == sc.scale) return;
    const int dir = scale > sc.scale ? 1 : -1;
    if (sc.last_dir != 0 && dir != sc.last_dir && sc.spacing < (1 << 20)) sc.spacing *= 2;
    sc.last_dir = dir;
    sc.next_change = sc.iter + sc.spacing;
    sc.scale = scale;
    sc.beta = sc.scale * sc.beta_base, sc.inv_beta = 1.0 / sc.beta;
    sc.refactor = 1;
    ++sc.refactorizations;
  }
}

}  // namespace ncp::gpu
