#include "solvers/subadmm/subadmm_nobody.h"

#include <cmath>

namespace ncp {

std::vector<SettingSpec> SubAdmmNobodySolver::Specs() {
  std::vector<SettingSpec> s = CommonSpecs();
  s.push_back({"beta_rule", 0.0, 0.0, 1.0, false, false, true, {"trace", "density"},
               "initial β: trace = Tr(A_j)/Tr(Σ J_ijᵀJ_ij) per subsystem (000:23), density = "
               "geometric mean of body pseudo-densities (004 §VI-D)"});
  return s;
}

std::string SubAdmmNobodySolver::BuildSlacks(const Settings& s) {
  beta_rule_ = s.GetInt("beta_rule");
  track_y_ = true;  // 000 stops on its θ of (22); reported in Info()
  const ContactProblem& p = *p_;
  const Eigen::SparseMatrix<double, Eigen::RowMajor, int> Jr = p.J;
  std::vector<int> sub_of_dof(p.num_dofs());
  for (int j = 0; j < nsub_; ++j)
    for (int k = 0; k < sub_n_[j]; ++k) sub_of_dof[sub_begin_[j] + k] = j;
  slack_off_.clear(), jv_.clear();
  std::vector<int> touched;
  for (int i = 0; i < p.num_constraints(); ++i) {
    const Constraint& c = p.constraints[i];
    touched.clear();
    for (int r = 0; r < c.rows(); ++r)
      for (decltype(Jr)::InnerIterator it(Jr, c.row + r); it; ++it)
        if (it.value() != 0.0) touched.push_back(sub_of_dof[it.col()]);
    std::sort(touched.begin(), touched.end());
    touched.erase(std::unique(touched.begin(), touched.end()), touched.end());
    for (int j : touched) {
      slack_con_.push_back(i);
      slack_sub_.push_back(j);
      slack_off_.push_back(static_cast<int>(jv_.size()));
      const std::size_t at = jv_.size();
      jv_.resize(at + static_cast<std::size_t>(c.rows()) * sub_n_[j], 0.0);
      for (int r = 0; r < c.rows(); ++r)
        for (decltype(Jr)::InnerIterator it(Jr, c.row + r); it; ++it)
          if (sub_of_dof[it.col()] == j)
            jv_[at + static_cast<std::size_t>(r) * sub_n_[j] + (it.col() - sub_begin_[j])] =
                it.value();
    }
  }
  const int ns = static_cast<int>(slack_con_.size());
  sub_slack_begin_.assign(nsub_ + 1, 0);
  for (int k = 0; k < ns; ++k) ++sub_slack_begin_[slack_sub_[k] + 1];
  for (int j = 0; j < nsub_; ++j) sub_slack_begin_[j + 1] += sub_slack_begin_[j];
  sub_slacks_.assign(ns, 0);
  std::vector<int> fill(sub_slack_begin_.begin(), sub_slack_begin_.end() - 1);
  for (int k = 0; k < ns; ++k) sub_slacks_[fill[slack_sub_[k]]++] = k;
  C_.resize(nsub_), K_.resize(nsub_), llt_.resize(nsub_);
  for (int j = 0; j < nsub_; ++j) {
    const int n = sub_n_[j];
    C_[j] = Eigen::MatrixXd::Zero(n, n);
    for (int t = sub_slack_begin_[j]; t < sub_slack_begin_[j + 1]; ++t) {
      const int sl = sub_slacks_[t], rows = p.constraints[slack_con_[sl]].rows();
      const Eigen::Map<const Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>>
          Js(jv_.data() + slack_off_[sl], rows, n);
      C_[j].noalias() += Js.transpose() * Js;
    }
    K_[j] = Eigen::MatrixXd::Zero(n, n);
    llt_[j].compute(sub_A_[j]);  // sizes the factor once, so Factorize does not allocate
  }
  return {};
}

void SubAdmmNobodySolver::InitialBeta(const Settings&, std::vector<double>& beta) const {
  if (beta_rule_ == 1) {
    std::fill(beta.begin(), beta.end(), DensityBeta(*p_));
    return;
  }
  // 000:23; a subsystem without constraints keeps the geometric mean of the others (unused).
  double log_sum = 0.0;
  int count = 0;
  for (int j = 0; j < nsub_; ++j) {
    const double tc = C_[j].trace();
    beta[j] = tc > 0 ? sub_A_[j].trace() / tc : 0.0;
    if (beta[j] > 0) log_sum += std::log(beta[j]), ++count;
  }
  const double fallback = count ? std::exp(log_sum / count) : 1.0;
  for (double& b : beta)
    if (!(b > 0)) b = fallback;
}

bool SubAdmmNobodySolver::Factorize(int j, double beta) {
  K_[j] = sub_A_[j];
  K_[j] += beta * C_[j];
  llt_[j].compute(K_[j]);
  return llt_[j].info() == Eigen::Success;
}

void SubAdmmNobodySolver::Solve(int j, const double* rhs, double* v) {
  Eigen::Map<Vec> x(v, sub_n_[j]);
  if (rhs != v) x = Eigen::Map<const Vec>(rhs, sub_n_[j]);
  llt_[j].solveInPlace(x);
}

void SubAdmmNobodySolver::SlackVelocities(int j, const double* v) {
  const int n = sub_n_[j];
  for (int t = sub_slack_begin_[j]; t < sub_slack_begin_[j + 1]; ++t) {
    const int s = sub_slacks_[t], rows = p_->constraints[slack_con_[s]].rows();
    const double* J = jv_.data() + slack_off_[s];
    for (int r = 0; r < rows; ++r) {
      double acc = 0.0;
      for (int k = 0; k < n; ++k) acc += J[r * n + k] * v[k];
      w_[3 * s + r] = acc;
    }
  }
}

void SubAdmmNobodySolver::Accumulate(int j, double* g, double* h) {
  const int n = sub_n_[j];
  for (int k = 0; k < n; ++k) g[k] = h[k] = 0.0;
  for (int t = sub_slack_begin_[j]; t < sub_slack_begin_[j + 1]; ++t) {
    const int s = sub_slacks_[t];
    const Constraint& c = p_->constraints[slack_con_[s]];
    const double* J = jv_.data() + slack_off_[s];
    for (int r = 0; r < c.rows(); ++r) {
      const double l = lambda_[c.row + r], z = z_[3 * s + r];
      for (int k = 0; k < n; ++k) {
        g[k] += J[r * n + k] * l;
        h[k] += J[r * n + k] * z;
      }
    }
  }
}

}  // namespace ncp
