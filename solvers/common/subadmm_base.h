// Common part of the subsystem-based ADMM solvers (000 §III; 004 §VI). The constraint rows are
// split into slacks z_s, one per (constraint, owner) pair — the owner is a subsystem
// (`subadmm-nobody`) or a body (`subadmm`). One iteration:
//   v-step  (per subsystem j, parallel)  (A_j + Σ β JᵀJ) v̂_j = b_j + Σ_s J_sᵀ(β z_s + λ_i)  (34)
//           (β of a slack of constraint i: β_j ω_i, ω_i from the effective masses: row_scaling)
//   λ-step  (per constraint i, parallel) y_s = β J_s v̂ − λ_i,  λ_i = T_{β_i}(x_i) with
//           x_i = −β_i (Σ_s y_s/β_s + e_i), 1/β_i = Σ_s 1/β_s  (= 004:36–38 for one β,
//           000 §III-C for per-subsystem β), z_s = (y_s + λ_i)/β_s,  u_s = −λ_i  (39)
//   residuals θ_p = max_s ‖J_s v̂ − z_s‖, θ_d = max_j ‖A_j v̂_j − b_j − Σ J_sᵀλ‖  (42),
//           θ = Σ_s ‖y_s^{l+1} − y_s^l‖²  (000:22, reported)
//   β ← β √(θ_p/θ_d) when one dominates by γ (43), then every subsystem is refactorized.
#pragma once

#include <algorithm>
#include <array>
#include <cstddef>
#include <Eigen/Dense>
#include <string>
#include <utility>
#include <vector>

#include "solvers/common/adaptive_penalty.h"
#include "solvers/solver.h"
#include "solvers/subadmm/subadmm_settings.h"

namespace ncp {

class SubAdmmBase : public Solver {
 public:
  Status Setup(const ContactProblem& p, const Settings& s, const WarmStart* warm) override;
  Status Iterate() override;
  // Threaded, a chunk runs in one OpenMP region (see the .cc); iterates equal k Iterate() calls.
  Status IterateChunk(int k, int& done) override;
  int MaxChunk() const override { return parallel_ ? kMaxChunk : 1; }
  void Current(Vec& v, Vec& lambda) const override;
  std::vector<std::pair<std::string, double>> Info() const override;
  // θ_p, θ_d of 004:42 as the β adaptation sees them, the geometric mean of the subsystems' β.
  SolverStats Stats() const override;
  int ThreadsUsed() const override { return threads_; }
  // Per iteration: SubsystemWork() of every subsystem; the n-vectors rhs (also θ_d's copy of
  // h), b, h, g and v once each (5 passes, 4 flops per dof); the λ-step's records, its slacks' w
  // read and z written, then read by the accumulation (6 doubles per slack); λ and e (2 passes,
  // about 30 flops per row). The refactorizations after a β change are not counted (the achieved
  // rates are then low, never high).
  WorkCount Work() const override;
  // Geometric mean of the bodies' pseudo-densities: mass over the number of constraint blocks
  // on the body (004 §VI-D); per dof (A_jj over rows) when the problem has no bodies. Public:
  // the rigid-body solvers (solvers/subadmm_rigid/, gpu/) start from the same β.
  static double DensityBeta(const ContactProblem& p);

 protected:
  static constexpr int kAutoParallelSlacks = 4096;
  static constexpr int kMaxChunk = 1 << 16;
  // Fills the slack arrays (slack_con_, slack_sub_) and the derived class' Jacobians; returns ""
  // or the reason the problem is not applicable.
  virtual std::string BuildSlacks(const Settings& s) = 0;
  // Per-subsystem initial β (before the common scale), e.g. 000:23 or 004 §VI-D.
  virtual void InitialBeta(const Settings& s, std::vector<double>& beta) const = 0;
  // K_j = A_j + β_j Σ ω_i J_sᵀ J_s: assemble and factorize; false if not positive definite.
  virtual bool Factorize(int j, double beta) = 0;
  // v̂_j = K_j⁻¹ rhs (both of length n_j; they may alias).
  virtual void Solve(int j, const double* rhs, double* v) = 0;
  // One Solve(), SlackVelocities() and Accumulate() of subsystem j (work_count.h).
  virtual WorkCount SubsystemWork(int j) const = 0;
  // w_s = J_s v̂_j for the slacks of subsystem j.
  virtual void SlackVelocities(int j, const double* v) = 0;
  // g_j = Σ_s J_sᵀ λ_i and h_j = Σ_s ω_i J_sᵀ z_s over the slacks of subsystem j.
  virtual void Accumulate(int j, double* g, double* h) = 0;

  const ContactProblem* p_ = nullptr;
  int nsub_ = 0;
  std::vector<int> sub_begin_, sub_n_;
  std::vector<Eigen::MatrixXd> sub_A_;  // dense A_j
  // Slacks: constraint, subsystem, w = J_s v̂, z, y (3 numbers each, rows used).
  std::vector<int> slack_con_, slack_sub_;
  std::vector<double> w_, z_, y_;
  // Per constraint: the weight ω_i of β in its slacks' penalties β_j ω_i, and 1/ω_i (all 1
  // without row_scaling). Σ_s β_s J_sᵀJ_s and h_j = Σ_s ω_i J_sᵀ z_s carry it.
  std::vector<double> con_w_, con_iw_;
  bool track_y_ = false;  // keep y_s for the residual of 000:22 (subadmm-nobody)
  Vec lambda_;
  // v̂ after iteration i is vbuf_[i % 2]: a v-step writes the other buffer, so a threaded
  // iteration may start its v-steps before the last one has been ended (its finite test, its β)
  // and still stop on the iterate that failed the test (IterateChunk).
  std::array<Vec, 2> vbuf_;

 private:
  void VelocityStep(int j, Vec& v);
  // kScales: also the largest max(‖w_s‖², ‖z_s‖²) over the step's slacks into ps2 (the relative
  // rule's primal scale, fused into the pass that writes z_s).
  template <int NR, bool kScales = false>
  void ConstraintStepRows(int i, double& theta_p, double& theta_y, double& ps2);
  // The λ-step's arrays as locals (w, z, λ): stores through members' pointers would otherwise
  // make the compiler reload them.
  struct Arrays {
    const double* w;
    double* z;
    double* lam;
  };
  Arrays StepArrays() { return {w_.data(), z_.data(), lambda_.data()}; }
  template <bool kScales = false>
  void ContactSteps(std::size_t k0, std::size_t k1, double& theta_p, double& ps2);
  template <bool kScales = false>
  void SoftSteps(std::size_t k0, std::size_t k1, double& theta_p, double& ps2);
  // The λ-steps of [b, e) of each kind's records: a thread's share (StepBegin), or all of them
  // in one thread ({} to AllSteps()).
  struct StepShare {
    std::size_t contacts = 0, softs = 0, con3 = 0, con1 = 0;
  };
  template <bool kScales>
  void ConstraintStepShare(const StepShare& b, const StepShare& e, double& theta_p, double& theta_y,
                           double& ps2);
  StepShare AllSteps() const {
    return {contacts_.size(), softs_.size(), con3_.size(), con1_.size()};
  }
  // Whether the λ rows of [b, e)'s constraints are finite (AllFinite's test).
  bool StepRowsFinite(const StepShare& b, const StepShare& e) const;
  // Thread t's first records of a team of nt: step_begin_[t] for the team of threads_ that
  // ShareConstraintSteps ordered them for, else equal shares of each kind.
  StepShare StepBegin(int t, int nt) const;
  // Orders each kind's records by the thread whose subsystems hold their constraint's first slack
  // (SubsystemShare): that thread's v-step wrote the slack's w and its subsystem step reads the
  // λ and z the record writes, so these stay in its cache instead of crossing to another core
  // twice an iteration. The λ-step is order-free: the iterates do not change.
  void ShareConstraintSteps();
  void SubsystemStep(int j, double& theta_d);
  // What an iteration's passes reduce: θ_p² (largest over slacks), Σ‖Δy‖², θ_d, the relative
  // rule's scales (squared) and whether v and λ are finite. Per thread and iteration parity in
  // partial_ (a cache line each) when threaded.
  struct alignas(64) Reduced {
    double tp2 = 0.0, ty = 0.0, td = 0.0, ps2 = 0.0, ds2 = 0.0;
    bool finite = true;
  };
  bool ScalesDue(const PenaltyAdapter& adapter, int iter) const;
  Status IterateSerial();
  // The team's partial results of one iteration, reduced in thread order.
  static Reduced Reduce(const Reduced* slots, int nt);
  Status EndIteration(bool scales, const Reduced& r, PenaltyAdapter& adapter, double& scale,
                      int& iter, bool owner, bool& changed);
  void ApplyScale(double scale);  // β_j and the records' β for a new scale
  Status RefactorizationFailed();
  // Factorize() of every subsystem at its β: RefactorizeAll() in a region of its own (or none
  // with one thread); FactorizeShare() is its loop, shared out over the calling team, into
  // factorized_, which Factorized() reads after the loop's barrier.
  bool RefactorizeAll();
  void FactorizeShare();
  bool Factorized() const;
  // Thread t's subsystems of a team of nt, [first, second): WorkShare() of SubsystemWork(), so
  // that robots with more contacts than others do not leave a thread waiting at the barrier.
  // Any split gives the same iterates.
  std::pair<int, int> SubsystemShare(int t, int nt) const;
  void SetSubsystemShares();
  // The relative rule's scales (squared): of a slack, max(‖w_s‖², ‖z_s‖²) (its 3 numbers; inline,
  // it runs in the λ-steps' loops); of subsystem j, max(‖b_j‖², ‖g_j‖²).
  static double SlackScale2(const double* w, const double* z) {
    double w2 = 0.0, z2 = 0.0;
    for (int r = 0; r < 3; ++r) w2 += w[r] * w[r], z2 += z[r] * z[r];
    return std::max(w2, z2);
  }
  double SubsystemScale2(int j) const;
  void UpdateConstraintBetas();

  std::vector<int> con_begin_, con_slacks_;          // CSR: constraint → its slacks
  std::vector<double> beta_base_, beta_, inv_beta_;  // per subsystem: initial, current, 1/β
  std::vector<double> con_beta_;                     // per constraint: β_i
  std::vector<double> soft_alpha_, soft_kappa_;      // per soft row: its affine λ-step
  std::vector<int> con3_, con1_;                     // constraints with 3 rows, with 1 row
  // The common kinds in flat records, so their λ-step reads one record and its slacks' w, z:
  // contacts with one or two slacks, and soft rows with one slack (joint drives). The β fields
  // follow every β change (UpdateConstraintBetas). con3_ and con1_ keep the others.
  struct ContactRecord {
    int con, row, slack[2], nslacks;
    double mu, beta, ibs[2], max_ibs;
  };
  struct SoftRecord {
    int con, row, slack;
    double alpha, kappa, beta, ibs;
  };
  std::vector<ContactRecord> contacts_;
  std::vector<SoftRecord> softs_;
  double scale_ = 1.0;
  bool adaptive_ = true;
  PenaltyAdapter adapter_;
  Vec g_, h_, rhs_;
  std::vector<double> theta_d_sub_;
  std::vector<double> b_norm2_;  // per subsystem: ‖b_j‖², fixed for the problem
  double theta_p_ = 0.0, theta_d_ = 0.0, theta_y_ = 0.0;
  std::vector<char> factorized_;       // per subsystem: its last Factorize() succeeded
  std::vector<Reduced> partial_;       // 2 × threads_: [iteration parity][thread]
  std::vector<double> work_prefix_;    // Σ of the subsystems' work before j (nsub_ + 1 entries)
  std::vector<StepShare> step_begin_;  // threaded: threads_ + 1 entries (ShareConstraintSteps)
  int iter_ = 0, refactorizations_ = 0, threads_ = 1;
  bool parallel_ = false;
};

}  // namespace ncp
