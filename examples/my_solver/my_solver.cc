// my-solver: a template for a solver that lives outside the suite. It is built as a plug-in
// (CMakeLists.txt next to it) and run with
//   ncpbench run data.h5 --plugin build/my_solver.so -s my-solver,pgs
// The algorithm is a projected gradient on the dual u = W λ + q with one scalar step
// step_scale / ‖W‖∞ (a Gershgorin bound on W's largest eigenvalue) and the strict operator of
// the built-in dual solvers: replace Setup and Iterate with your own.
#include <algorithm>
#include <cmath>
#include <memory>

#include "problems/math/cone.h"
#include "solvers/common/dual_problem.h"
#include "solvers/common/dual_update.h"
#include "solvers/registry.h"
#include "solvers/settings_table.h"

namespace {

using ncp::Status;

// The settings, declared once: the members' initializers are the defaults, and the table binds
// each member to its name, range and help (solvers/settings_table.h). Specs(), parsing and the
// read-back all come from it, so a default cannot drift from its spec.
struct MySettings {
  double step_scale = 1.0;
  static const ncp::SettingsTable<MySettings>& Table() {
    static const auto t = ncp::SettingsTable<MySettings>().Real(
        &MySettings::step_scale, "step_scale",
        {.min = 0.0, .max = 2.0, .min_open = true, .max_open = true},
        "step = step_scale / ||W||_inf (< 2 for convergence of the linear part)");
    return t;
  }
};

class MySolver : public ncp::Solver {
 public:
  // Timed by the harness: factorizations and assembly belong here.
  Status Setup(const ncp::ContactProblem& p, const ncp::Settings& s,
               const ncp::WarmStart* warm) override {
    dual_ = ncp::MakeDualProblem(p);  // throws ncp::Error on a non-SPD A: the job fails
    const int m = dual_.rows();
    lambda_ = warm && warm->lambda.size() == m ? warm->lambda : ncp::Vec::Zero(m);
    u_ = ncp::Vec::Zero(m);
    double norm = 0.0;  // ‖W‖∞ = max row sum; W is stored so that column i is row i
    for (int i = 0; i < m; ++i) {
      double row = 0.0;
      for (ncp::SpMat::InnerIterator it(dual_.W, i); it; ++it) row += std::abs(it.value());
      norm = std::max(norm, row);
    }
    if (!(norm > 0)) {
      message_ = "W = 0: nothing to solve";
      return Status::kNotApplicable;
    }
    step_ = MySettings::Table().From(s).step_scale / norm;
    return Status::kRunning;
  }

  // One outer iteration, timed; no heap allocation.
  Status Iterate() override {
    const int m = dual_.rows();
    for (int r = 0; r < m; ++r) u_[r] = dual_.q[r] + ncp::RowDot(dual_.W, r, lambda_);
    for (const ncp::Constraint& c : *dual_.constraints) {
      const int r = c.row;
      if (c.type == ncp::ConstraintType::kContact) {
        const double x[3] = {lambda_[r] - step_ * u_[r], lambda_[r + 1] - step_ * u_[r + 1],
                             lambda_[r + 2] - step_ * u_[r + 2]};
        ncp::ProjectStrict(c.mu, x, &lambda_[r]);
      } else {  // unilateral rows stay ≥ 0; bilateral and (folded) soft rows are free
        const double x = lambda_[r] - step_ * u_[r];
        lambda_[r] = c.type == ncp::ConstraintType::kUnilateral ? std::max(x, 0.0) : x;
      }
    }
    if (!ncp::AllFinite(lambda_)) {
      message_ = "non-finite or exploding multiplier";
      return Status::kDiverged;
    }
    return Status::kRunning;  // the harness decides when to stop (budgets, tolerance)
  }

  // Not timed: the harness evaluates every metric from (v, λ).
  void Current(ncp::Vec& v, ncp::Vec& lambda) const override {
    lambda = lambda_;
    v = dual_.Velocity(lambda_);
  }

  std::vector<std::pair<std::string, double>> Info() const override { return {{"step", step_}}; }

 private:
  ncp::DualProblem dual_;
  ncp::Vec lambda_, u_;
  double step_ = 0.0;
};

}  // namespace

// Runs when the plug-in is loaded; a name already taken is reported as bad input.
NCP_REGISTER_SOLVER(
    my_solver, {.name = "my-solver",
                .description = "projected gradient on the dual, scalar step (plug-in template)",
                .settings = MySettings::Table().Specs(),
                .local = ncp::LocalUse::kAsStored,
                .make = [] { return std::make_unique<MySolver>(); },
                .read_back = MySettings::Table().ReadBack()})
