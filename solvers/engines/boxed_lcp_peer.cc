#include "solvers/engines/boxed_lcp_peer.h"

#include <fmt/format.h>

#include "common/error.h"
#include "solvers/common/dual_problem.h"

namespace ncp::engines {

namespace {

SettingsTable<EngineSettings> CommonTable(EngineSettings defaults, int max_directions,
                                          const char* directions_help) {
  SettingsTable<EngineSettings> t(defaults);
  t.Int(&EngineSettings::directions, "directions",
        {.min = 2, .max = static_cast<double>(max_directions)}, directions_help)
      .Int(&EngineSettings::max_rows, "max_rows", {.min = 1, .max = 20000},
           "largest boxed LCP set up: not applicable above (dense matrix, O(n³) pivoting)");
  return t;
}

}  // namespace

const SettingsTable<EngineSettings>& EngineSettings::Table() {
  static const auto t = CommonTable(
      {}, 64, "tangent rows per contact, each bounded by ±c·μ·λ_n (2: the engines' box)");
  return t;
}

const SettingsTable<EngineSettings>& EngineSettings::LemkeTable() {
  // Bullet's Lemke works on a dense 2n × 2n tableau built per solve: a smaller default cap.
  static const auto t = [] {
    // More directions make a contact's tangent rows linearly dependent, and Bullet's Lemke
    // inverts the matrix without pivoting: its answer is then meaningless.
    auto l = CommonTable({.max_rows = 600}, 2,
                         "tangent rows per contact, each bounded by ±μ·λ_n: the engines' box "
                         "only (Bullet's Lemke inverts the LCP matrix without pivoting, which "
                         "more directions make singular)");
    l.Real(&EngineSettings::max_value, "max_value", {.min = 0, .max = 1e30, .min_open = true},
           "Bullet's m_maxValue: a solution beyond it is refused (and the bound given to "
           "unbounded rows, which Bullet's Lemke cannot take)")
        .Int(&EngineSettings::max_loops, "max_loops", {.min = 1, .max = 1000000},
             "Bullet's m_maxLoops: pivots per Lemke solve");
    return l;
  }();
  return t;
}

Status BoxedLcpPeer::Setup(const ContactProblem& p, const Settings& s, const WarmStart* warm) {
  set_ = Table().From(s);
  original_ = &p;
  fold_.reset();
  chol_.reset();
  solves_ = 0;
  const bool global = p.form == ProblemForm::kGlobal;
  if (global) fold_ = std::make_unique<FoldedProblem>(FoldSoftRows(p));
  const ContactProblem& f = global ? fold_->problem : p;
  const int n = BoxedRows(f.constraints, set_.directions);
  if (n > set_.max_rows) {
    message_ = fmt::format("{} boxed-LCP rows > max_rows = {} (a dense {}×{} matrix)", n,
                           set_.max_rows, n, n);
    return Status::kNotApplicable;
  }
  SpMat W;
  Vec q;
  if (global) {
    if (!FactorDynamics(f, chol_, v_free_)) {
      message_ = kNotSpdMessage;
      return Status::kFailed;
    }
    W = AssembleDelassus(f.A, f.J, *chol_);
    q = f.J * v_free_ + f.e;
  } else {
    W = 0.5 * (p.W + SpMat(p.W.transpose()));
    q = p.q;
  }
  try {
    lcp_ = MakeBoxedLcp(W, q, f.constraints, set_.directions);
  } catch (const Error& e) {
    message_ = e.what();
    return Status::kNotApplicable;
  }
  // Warm start: the least-norm x with P x = λ (the tangent rows' directions form a tight frame,
  // Σ t_j t_jᵀ = d/2 I).
  x_ = Vec::Zero(n);
  if (warm && warm->lambda.size() == p.num_rows()) {
    Vec lf(f.num_rows());
    for (int r = 0; r < f.num_rows(); ++r) lf[r] = warm->lambda[global ? fold_->kept_rows[r] : r];
    x_ = lcp_.P.transpose() * lf;
    for (int k = 0; k < n; ++k)
      if (lcp_.findex[k] >= 0) x_[k] *= 2.0 / set_.directions;
    if (!x_.allFinite()) x_.setZero();
  }
  return Prepare();
}

Status BoxedLcpPeer::Checked(Status ok) {
  if (x_.allFinite()) return ok;
  message_ = "non-finite impulse in the engine's solution";
  return Status::kDiverged;
}

void BoxedLcpPeer::Current(Vec& v, Vec& lambda) const {
  const Vec lf = lcp_.P * x_;
  if (!fold_) {
    v.resize(0);
    lambda = lf;
    return;
  }
  v = VelocityOf(fold_->problem.J, *chol_, v_free_, lf);
  lambda = UnfoldMultipliers(*original_, *fold_, lf, v);
}

std::vector<std::pair<std::string, double>> BoxedLcpPeer::Info() const {
  return {{"boxed_rows", lcp_.rows()}, {"directions", set_.directions}, {"engine_solves", solves_}};
}

SolverEntry PeerEntry(PeerSpec spec) {
  return {.name = spec.name,
          .description = std::move(spec.description) + " [" + spec.version + "]",
          .settings = spec.table.Specs(),
          .local = LocalUse::kSymmetricPart,
          .make = std::move(spec.make),
          .deterministic = true,
          .iterate_allocates = std::move(spec.allocates),
          .isolated = spec.isolated,
          .read_back = spec.table.ReadBack()};
}

}  // namespace ncp::engines
