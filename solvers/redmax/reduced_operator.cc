#include "solvers/redmax/reduced_operator.h"

namespace ncp {

SpMat SelectRows(const SpMat& J, const std::vector<int>& rows) {
  std::vector<int> where(J.rows(), -1);
  for (std::size_t r = 0; r < rows.size(); ++r) where[rows[r]] = static_cast<int>(r);
  std::vector<Eigen::Triplet<double>> t;
  for (int c = 0; c < J.outerSize(); ++c)
    for (SpMat::InnerIterator it(J, c); it; ++it)
      if (where[it.row()] >= 0) t.emplace_back(where[it.row()], c, it.value());
  SpMat out(static_cast<Eigen::Index>(rows.size()), J.cols());
  out.setFromTriplets(t.begin(), t.end());
  return out;
}

void ReducedOperator::Init(const ContactProblem& p, const std::vector<int>& soft) {
  A_ = &p.A;
  const int ms = static_cast<int>(soft.size());
  std::vector<int> rows(ms);
  k_.resize(ms), d_.resize(ms), ke_.resize(ms);
  for (int s = 0; s < ms; ++s) {
    const Constraint& c = p.constraints[soft[s]];
    rows[s] = c.row;
    k_[s] = c.stiffness;
    d_[s] = c.damping;
    ke_[s] = c.stiffness * p.e[c.row];
  }
  Js_ = SelectRows(p.J, rows);
  Jst_ = Js_.transpose();
  tmp_ = Vec::Zero(ms);
  rhs_ = p.b;
  rhs_.noalias() -= Jst_ * ke_;
}

void ReducedOperator::Apply(const Vec& x, Vec& y) const {
  y.noalias() = *A_ * x;
  if (d_.size() == 0) return;
  tmp_.noalias() = Js_ * x;
  tmp_.array() *= d_.array();
  y.noalias() += Jst_ * tmp_;
}

void ReducedOperator::SoftMultipliers(const Vec& v, Vec& lambda_s) const {
  lambda_s.noalias() = Js_ * v;
  lambda_s.array() = -ke_.array() - d_.array() * lambda_s.array();
}

void ReducedOperator::SoftMultipliersFromRates(const double* u, Vec& lambda_s) const {
  const Eigen::Map<const Vec> rate(u, d_.size());
  lambda_s.array() = -ke_.array() - d_.array() * rate.array();
}

SpMat ReducedOperator::Assemble() const {
  SpMat out = *A_;
  if (d_.size() > 0) {
    const SpMat DJ = d_.asDiagonal() * Js_;
    out += SpMat(Js_.transpose() * DJ);
  }
  return out;
}

}  // namespace ncp
