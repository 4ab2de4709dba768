#include "solvers/pgs/pgs.h"

#include <omp.h>

#include "solvers/common/dual_update.h"
#include "solvers/common/work_count.h"
#include "solvers/pgs/colouring.h"

namespace ncp {

const SettingsTable<PgsSettings>& PgsSettings::Table() {
  static const auto t =
      SettingsTable<PgsSettings>()
          .Real(&PgsSettings::omega, "omega",
                {.min = 0.0, .max = 2.0, .min_open = true, .max_open = true},
                "over-relaxation factor")
          .Flag(&PgsSettings::nncg, "nncg",
                "1: nonsmooth nonlinear conjugate-gradient acceleration (000 §IV-B1)")
          .Choice<kOrders>(&PgsSettings::order, "order",
                           "sweep order: sequential = constraint order; colour = colour by colour "
                           "of W's constraint graph, each colour's constraints in parallel");
  return t;
}

Status PgsSolver::Setup(const ContactProblem& p, const Settings& s, const WarmStart* warm) {
  set_ = PgsSettings::Table().From(s);
  if (!SetupDual(p, warm)) return Status::kFailed;
  TangentSteps(dual_, tangent_step_);
  prev_ = lambda_;
  dir_ = Vec::Zero(dual_.rows());
  prev_norm2_ = 0.0;
  restarts_ = 0;
  colouring_ = {};
  if (set_.order == PgsSettings::Order::kColour)
    colouring_ = ColourConstraints(dual_.W, *dual_.constraints);
  return Status::kRunning;
}

// Threads pay when there are rows enough and colours wide enough for a barrier per colour.
bool PgsSolver::Parallel() const {
  if (colouring_.order.empty() || dual_.rows() < kParallelRows) return false;
  return static_cast<int>(colouring_.order.size()) >= 64 * colouring_.colours();
}

int PgsSolver::ThreadsUsed() const { return Parallel() ? omp_get_max_threads() : 1; }

// Inlined into both sweeps: a call per constraint costs the sequential sweep a few percent.
[[gnu::always_inline]] inline void PgsSolver::Update(std::size_t i) {
  GaussSeidelUpdate(dual_, (*dual_.constraints)[i], tangent_step_[i], set_.omega, lambda_);
}

void PgsSolver::Sweep() {
  if (colouring_.order.empty()) {
    for (std::size_t i = 0; i < dual_.constraints->size(); ++i) Update(i);
    return;
  }
  const int colours = colouring_.colours();
  const int* order = colouring_.order.data();
  const int* begin = colouring_.begin.data();
#pragma omp parallel if (Parallel())
  for (int k = 0; k < colours; ++k) {
    // No two constraints of a colour share an entry of W: any split of it gives the same λ.
#pragma omp for schedule(static)
    for (int t = begin[k]; t < begin[k + 1]; ++t) Update(order[t]);
  }
}

Status PgsSolver::Iterate() {
  if (!set_.nncg) {
    Sweep();
  } else {
    // NNCG: the PGS step r = x⁺ − x acts as a negative gradient; Fletcher–Reeves on it,
    // restarting when the ratio exceeds one.
    prev_ = lambda_;
    Sweep();
    double norm2 = 0.0;
    for (Eigen::Index k = 0; k < lambda_.size(); ++k) {
      const double rk = lambda_[k] - prev_[k];
      norm2 += rk * rk;
    }
    const double beta = prev_norm2_ > 0 ? norm2 / prev_norm2_ : 0.0;
    if (beta > 1.0 || prev_norm2_ == 0.0) {
      if (prev_norm2_ > 0) ++restarts_;
      for (Eigen::Index k = 0; k < lambda_.size(); ++k) dir_[k] = lambda_[k] - prev_[k];
    } else {
      for (Eigen::Index k = 0; k < lambda_.size(); ++k) {
        const double rk = lambda_[k] - prev_[k];
        dir_[k] = beta * dir_[k] + rk;    // p ← β p + r
        lambda_[k] = prev_[k] + dir_[k];  // x ← x⁺ + β p_old = x + p
      }
    }
    prev_norm2_ = norm2;
  }
  ++iterations_;
  return CheckFinite();
}

// Per sweep: W once (each row's dot product reads its column); the vectors q, diag and λ (read
// and written in place), once each: 3 passes, about 6 flops per row. NNCG adds prev_ and dir_
// (2 passes; its copy, norm and update: 6 flops).
WorkCount PgsSolver::Work() const {
  return iterations_ * (set_.nncg ? DualWork(1, 5, 12) : DualWork(1, 3, 6));
}

std::vector<std::pair<std::string, double>> PgsSolver::Info() const {
  std::vector<std::pair<std::string, double>> info = {
      {"nncg_restarts", static_cast<double>(restarts_)}};
  if (!colouring_.order.empty())
    info.push_back({"colours", static_cast<double>(colouring_.colours())});
  return info;
}

}  // namespace ncp
