#include "solvers/subadmm/subadmm_nobody.h"

#include <algorithm>
#include <cmath>

#include "solvers/common/work_count.h"

namespace ncp {

// A dense Cholesky of a 40-dof rigid chain or a 6-dof body beats CHOLMOD's bookkeeping; an FEM
// piece (300 dofs, K_j ~10% filled) factorizes and solves several times faster sparsely.
bool SubAdmmNobodySolver::UseSparse(Factorization setting, int n, long nnz) {
  if (setting == Factorization::kDense) return false;
  if (setting == Factorization::kSparse) return true;
  return n >= 64 && static_cast<double>(nnz) <= 0.25 * static_cast<double>(n) * n;
}

std::string SubAdmmNobodySolver::BuildSlacks(const Settings& s) {
  set_ = SubAdmmNobodySettings::Table().From(s);
  track_y_ = true;  // 000 stops on its θ of (22); reported in Info()
  const ContactProblem& p = *p_;
  const RowMajorJ Jr = p.J;
  std::vector<int> sub_of_dof(p.num_dofs());
  for (int j = 0; j < nsub_; ++j)
    for (int k = 0; k < sub_n_[j]; ++k) sub_of_dof[sub_begin_[j] + k] = j;
  NumberSlacks(Jr, sub_of_dof);
  const int ns = static_cast<int>(slack_con_.size());
  row_begin_.assign(1, 0), nz_col_.clear(), nz_val_.clear(), slack_lam_.resize(ns);
  for (int s = 0; s < ns; ++s) {
    const int i = slack_con_[s], j = slack_sub_[s];
    const Constraint& c = p.constraints[i];
    slack_lam_[s] = {c.row, c.rows(), con_w_[i]};
    for (int r = 0; r < 3; ++r) {
      if (r < c.rows())  // row-major J: columns ascending
        for (RowMajorJ::InnerIterator it(Jr, c.row + r); it; ++it)
          if (it.value() != 0.0 && sub_of_dof[it.col()] == j) {
            nz_col_.push_back(it.col() - sub_begin_[j]);
            nz_val_.push_back(it.value());
          }
      row_begin_.push_back(static_cast<int>(nz_col_.size()));
    }
  }
  mode_.assign(nsub_, kDense), trace_c_.assign(nsub_, 0.0);
  C_.assign(nsub_, {}), dense_.Reset(nsub_);
  Ks_.assign(nsub_, {}), ka_.assign(nsub_, {}), kc_.assign(nsub_, {});
  chol_.clear(), chol_.resize(nsub_);
  int sparse = 0;
  // The subsystems are independent (each CholmodLLT has its own workspace): shared out over the
  // solver's threads.
#pragma omp parallel num_threads(ThreadsUsed()) if (ThreadsUsed() > 1)
  {
    std::vector<Eigen::Triplet<double>> trip;
#pragma omp for schedule(static) reduction(+ : sparse)
    for (int j = 0; j < nsub_; ++j) sparse += PrepareSubsystem(j, trip);
  }
  sparse_subsystems_ = sparse;
  dense_.Pack();
  return {};
}

// Slacks numbered subsystem by subsystem (constraints ascending within one): a v-step reads
// and writes its slacks' rows, w and z as one contiguous run instead of gathering them from
// the whole slack array (on 10⁵ random contacts that gather cost more than the arithmetic).
// A constraint's slacks keep their order (subsystems ascending), so the λ-step's sums do too.
void SubAdmmNobodySolver::NumberSlacks(const RowMajorJ& Jr, const std::vector<int>& sub_of_dof) {
  const ContactProblem& p = *p_;
  // The (constraint, subsystem) pairs, constraint by constraint, subsystems ascending.
  std::vector<int> pair_con, pair_sub, touched;
  for (int i = 0; i < p.num_constraints(); ++i) {
    const Constraint& c = p.constraints[i];
    touched.clear();
    for (int r = 0; r < c.rows(); ++r)
      for (RowMajorJ::InnerIterator it(Jr, c.row + r); it; ++it)
        if (it.value() != 0.0) touched.push_back(sub_of_dof[it.col()]);
    std::sort(touched.begin(), touched.end());
    touched.erase(std::unique(touched.begin(), touched.end()), touched.end());
    for (int j : touched) pair_con.push_back(i), pair_sub.push_back(j);
  }
  const int ns = static_cast<int>(pair_con.size());
  sub_slack_begin_.assign(nsub_ + 1, 0);
  for (int k = 0; k < ns; ++k) ++sub_slack_begin_[pair_sub[k] + 1];
  for (int j = 0; j < nsub_; ++j) sub_slack_begin_[j + 1] += sub_slack_begin_[j];
  slack_con_.assign(ns, 0), slack_sub_.assign(ns, 0);
  {
    std::vector<int> fill(sub_slack_begin_.begin(), sub_slack_begin_.end() - 1);
    for (int k = 0; k < ns; ++k) {
      const int s = fill[pair_sub[k]]++;
      slack_con_[s] = pair_con[k], slack_sub_[s] = pair_sub[k];
    }
  }
}

bool SubAdmmNobodySolver::PrepareSubsystem(int j, std::vector<Eigen::Triplet<double>>& trip) {
  const ContactProblem& p = *p_;
  const int n = sub_n_[j];
  // K_j has at least its n diagonal entries: a subsystem that would not go sparse even then
  // is dense whatever C_j's pattern, and its C_j is summed in place.
  if (!UseSparse(set_.factorization, n, n)) {
    DenseSubsystem(j);
    return false;
  }
  // C_j = Σ_s ω_i J_sᵀ J_s as triplets (lower triangle, duplicates summed).
  trip.clear();
  ForEachTermOfC(j, [&](int row, int col, double v) { trip.emplace_back(row, col, v); });
  SpMat C(n, n);
  C.setFromTriplets(trip.begin(), trip.end());
  trace_c_[j] = C.diagonal().sum();
  const SpMat Ab = p.A.block(sub_begin_[j], sub_begin_[j], n, n);  // A is block-diagonal
  const SpMat A = Ab.triangularView<Eigen::Lower>();
  const SpMat Ka = A + 0.0 * C, Kc = 0.0 * A + C;  // the union pattern for both
  if (UseSparse(set_.factorization, n, 2 * Ka.nonZeros() - n)) {
    mode_[j] = kSparse;
    Ks_[j] = Ka;
    Ks_[j].makeCompressed();
    ka_[j].assign(Ka.valuePtr(), Ka.valuePtr() + Ka.nonZeros());
    kc_[j].assign(Kc.valuePtr(), Kc.valuePtr() + Kc.nonZeros());
    chol_[j] = std::make_unique<CholmodLLT>(CholmodLLT::Kind::kSimplicial);
    chol_[j]->Analyze(Ks_[j]);
  } else {
    const SpMat full = C.selfadjointView<Eigen::Lower>();
    C_[j] = Eigen::MatrixXd(full);
    dense_.Add(j, sub_A_[j]);
  }
  return mode_[j] == kSparse;
}

// The dense mode's C_j summed in place, in the order the triplets would be (the same sums to
// the bit), and K_j and its factor sized so that Factorize does not allocate. Setup's cost on
// many small subsystems (a 640-link cable: 160 of 24 dofs) was the sparse intermediates.
void SubAdmmNobodySolver::DenseSubsystem(int j) {
  const int n = sub_n_[j];
  Eigen::MatrixXd& C = C_[j];
  C.setZero(n, n);
  ForEachTermOfC(j, [&](int row, int col, double v) { C(row, col) += v; });
  trace_c_[j] = C.diagonal().sum();
  C.triangularView<Eigen::StrictlyUpper>() = C.transpose();
  dense_.Add(j, sub_A_[j]);
}

void SubAdmmNobodySolver::InitialBeta(const Settings&, std::vector<double>& beta) const {
  if (set_.beta_rule == SubAdmmNobodySettings::BetaRule::kDensity) {
    std::fill(beta.begin(), beta.end(), DensityBeta(*p_));
    return;
  }
  // 000:23; a subsystem without constraints keeps the geometric mean of the others (unused).
  double log_sum = 0.0;
  int count = 0;
  for (int j = 0; j < nsub_; ++j) {
    const double tc = trace_c_[j];
    beta[j] = tc > 0 ? sub_A_[j].trace() / tc : 0.0;
    if (beta[j] > 0) log_sum += std::log(beta[j]), ++count;
  }
  const double fallback = count ? std::exp(log_sum / count) : 1.0;
  for (double& b : beta)
    if (!(b > 0)) b = fallback;
}

bool SubAdmmNobodySolver::Factorize(int j, double beta) {
  if (mode_[j] == kSparse) {
    double* k = Ks_[j].valuePtr();
    const std::vector<double>&a = ka_[j], &c = kc_[j];
    for (std::size_t e = 0; e < a.size(); ++e) k[e] = a[e] + beta * c[e];
    return chol_[j]->Factorize(Ks_[j]);
  }
  return dense_.Factorize(j, sub_A_[j], C_[j], beta);
}

void SubAdmmNobodySolver::Solve(int j, const double* rhs, double* v) {
  const int n = sub_n_[j];
  if (mode_[j] == kSparse) {
    chol_[j]->Solve(rhs, v);
    return;
  }
  if (rhs != v) std::copy(rhs, rhs + n, v);
  dense_.Solve(j, v);
}

void SubAdmmNobodySolver::SlackVelocities(int j, const double* v) {
  const int* col = nz_col_.data();
  const double* val = nz_val_.data();
  for (int s = sub_slack_begin_[j]; s < sub_slack_begin_[j + 1]; ++s) {
    for (int r = 0; r < 3; ++r) {
      double acc = 0.0;
      for (int a = row_begin_[3 * s + r]; a < row_begin_[3 * s + r + 1]; ++a)
        acc += val[a] * v[col[a]];
      w_[3 * s + r] = acc;
    }
  }
}

void SubAdmmNobodySolver::Accumulate(int j, double* g, double* h) {
  const int n = sub_n_[j];
  const int* col = nz_col_.data();
  const double* val = nz_val_.data();
  for (int k = 0; k < n; ++k) g[k] = h[k] = 0.0;
  for (int s = sub_slack_begin_[j]; s < sub_slack_begin_[j + 1]; ++s) {
    const SlackRows& sr = slack_lam_[s];
    for (int r = 0; r < sr.rows; ++r) {
      const double l = lambda_[sr.row + r], z = sr.w * z_[3 * s + r];
      for (int a = row_begin_[3 * s + r]; a < row_begin_[3 * s + r + 1]; ++a) {
        g[col[a]] += val[a] * l;
        h[col[a]] += val[a] * z;
      }
    }
  }
}

std::vector<std::pair<std::string, double>> SubAdmmNobodySolver::Info() const {
  auto info = SubAdmmBase::Info();
  info.push_back({"sparse_subsystems", static_cast<double>(sparse_subsystems_)});
  // Sparse pieces' factors, summed: what one refactorization and one solve of each cost.
  double nnz = 0.0, flops = 0.0;
  for (const auto& c : chol_)
    if (c) nnz += c->factor_nonzeros(), flops += c->factor_flops();
  info.push_back({"factor_nnz", nnz});
  info.push_back({"factor_flops", flops});
  return info;
}

// Per subsystem: the solve (CHOLMOD's factor, or the dense one) and the slacks' sparse rows,
// read twice (w = J v̂, then Σ Jᵀλ and Σ Jᵀz: 2 and 4 flops per entry).
WorkCount SubAdmmNobodySolver::SubsystemWork(int j) const {
  using namespace work;
  const double n = sub_n_[j];
  const WorkCount solve =
      mode_[j] == kSparse ? SparseFactorSolve(chol_[j]->factor_nonzeros(), n) : DenseFactorSolve(n);
  const double entries =
      row_begin_[3 * sub_slack_begin_[j + 1]] - row_begin_[3 * sub_slack_begin_[j]];
  return solve + WorkCount{2.0 * entries * (kValue + kIndex), 6.0 * entries};
}

}  // namespace ncp
