#include "solvers/siconos/siconos_solver.h"

#include <FrictionContactProblem.h>
#include <Friction_cst.h>
#include <GlobalFrictionContactProblem.h>
#include <NonSmoothDrivers.h>
#include <NumericsMatrix.h>
#include <SolverOptions.h>

#include <algorithm>
#include <cstdlib>
#include <optional>
#include <fmt/format.h>

#include "solvers/common/dual_problem.h"
#include "solvers/siconos/abort_guard.h"
#include "solvers/siconos/driver_matrices.h"
#include "solvers/siconos/mumps_instances.h"

namespace ncp::siconos {
namespace {

double* MuArray(const std::vector<Constraint>& cs) {
  Vec mu(cs.size());
  for (std::size_t i = 0; i < cs.size(); ++i) mu[i] = cs[i].mu;
  return MallocCopy(mu);
}

}  // namespace

SiconosSolver::~SiconosSolver() { Release(); }

void SiconosSolver::Release() {
  if (aborted_) {  // Siconos' half-updated state may not be freed safely: leak it
    fc_ = nullptr;
    gfc_ = nullptr;
    options_.release();
    return;
  }
  if (fc_) frictionContactProblem_free(fc_);
  if (gfc_) globalFrictionContact_free(gfc_);
  fc_ = nullptr;
  gfc_ = nullptr;
}

Status SiconosSolver::SetupGlobal(const ContactProblem& f) {
  const int nc = f.num_constraints();
  if (!FactorDynamics(f, chol_, v_free_)) {
    message_ = kNotSpdMessage;
    return Status::kFailed;
  }
  if (method_.form == Form::kLocal) {
    // Our Delassus operator W = J A⁻¹ Jᵀ, q = J A⁻¹ b + e (soft rows already folded into A, b).
    fc_ = frictionContactProblem_new_with_data(
        3, nc, ToNumerics(AssembleDelassus(f.A, f.J, *chol_)), MallocCopy(f.J * v_free_ + f.e),
        MuArray(f.constraints));
    return Status::kRunning;
  }
  gfc_ = globalFrictionContactProblem_new();
  gfc_->dimension = 3;
  gfc_->numberOfContacts = nc;
  gfc_->M = ToNumerics(f.A);
  gfc_->H = ToNumerics(SpMat(f.J.transpose()));
  gfc_->q = MallocCopy(f.b);
  gfc_->b = MallocCopy(f.e);
  gfc_->norm_q = f.b.norm();
  gfc_->norm_b = f.e.norm();
  gfc_->mu = MuArray(f.constraints);
  if (method_.form == Form::kWr) {
    fc_ = globalFrictionContact_reformulation_FrictionContact(gfc_);
    if (!fc_) {
      message_ = "Siconos' global-to-local reformulation failed";
      return Status::kFailed;
    }
  }
  return Status::kRunning;
}

Status SiconosSolver::Setup(const ContactProblem& p, const Settings& s, const WarmStart* warm) {
  Release();
  Silence();
  original_ = &p;
  const bool global = p.form == ProblemForm::kGlobal;
  if (!global && method_.form != Form::kLocal) {
    message_ = "form = local: this Siconos method needs the global form (M, H, f, w)";
    return Status::kNotApplicable;
  }
  const ContactProblem* f = &p;
  if (global) {
    fold_ = std::make_unique<FoldedProblem>(FoldSoftRows(p));
    f = &fold_->problem;
  }
  if (f->num_constraints() == 0) {  // Siconos' drivers expect at least one contact
    message_ = "no contacts: nothing for Siconos to solve";
    return Status::kNotApplicable;
  }
  if (std::string why = Unsupported(f->constraints); !why.empty()) {
    message_ = why;
    return Status::kNotApplicable;
  }
  const int m = f->num_rows();
  settings_ = Table(method_).From(s);
  if (method_.id == SICONOS_FRICTION_3D_PROX && m > settings_.max_rows) {
    message_ =
        fmt::format("{} rows > max_rows = {}: Siconos' PROX needs GBs of memory at this size", m,
                    settings_.max_rows);
    return Status::kNotApplicable;
  }
  if (global) {
    if (Status st = SetupGlobal(*f); st != Status::kRunning) return st;
  } else {
    fc_ = frictionContactProblem_new_with_data(3, f->num_constraints(), ToNumerics(p.W),
                                               MallocCopy(p.q), MuArray(p.constraints));
  }
  options_ = MakeOptions(method_.id);
  ApplySettings(method_, settings_, options_.get());
  chunk_ = settings_.chunk;
  max_iter_ = settings_.max_iter;
  done_ = calls_ = last_info_ = 0;
  aborted_ = false;
  last_error_ = -1.0;
  r_ = Vec::Zero(m);
  u_ = Vec::Zero(m);
  if (warm && warm->lambda.size() == p.num_rows()) {
    if (fold_)
      for (int k = 0; k < m; ++k) r_[k] = warm->lambda[fold_->kept_rows[k]];
    else
      r_ = warm->lambda;
  }
  v_ = Vec::Zero(f->num_dofs());
  if (gfc_ && warm && warm->v.size() == v_.size()) v_ = warm->v;
  r_before_.resize(r_.size()), u_before_.resize(u_.size()), v_before_.resize(v_.size());
  lent_.Prepare(method_.id, f->num_dofs(), m);
  return Status::kRunning;
}

Status SiconosSolver::Iterate() {
  if (aborted_) return Status::kFailed;
  if (done_ >= max_iter_) return Status::kStopped;  // its max_iter setting, not the run's budget
  if (method_.form == Form::kGlobal && calls_ > 0) {
    // Siconos 4.4's gfc3d drivers keep pointers into work memory they freed during the previous
    // call (valgrind: NM_norm_inf's transpose, read again by NSN-AC): fresh options per call.
    options_ = MakeOptions(method_.id);
    ApplySettings(method_, settings_, options_.get());
  }
  options_->iparam[SICONOS_IPARAM_MAX_ITER] = std::min(chunk_, max_iter_ - done_);
  options_->iparam[SICONOS_IPARAM_ITER_DONE] = 0;
  lent_.Lend(options_.get());
  r_before_ = r_, u_before_ = u_, v_before_ = v_;
  MumpsInstanceScope mumps;  // ends the MUMPS instances Siconos leaves running in this call
  // gfc3d ADMM drops a matrix it makes on every call (driver_matrices.h); the problem's own are
  // kept, whatever the driver put there.
  std::optional<DriverMatrixScope> matrices;
  if (method_.id == SICONOS_GLOBAL_FRICTION_3D_ADMM) matrices.emplace({&gfc_->M, &gfc_->H});
  const bool ok = RunGuarded(
      [this] {
        return method_.form == Form::kGlobal
                   ? gfc3d_driver(gfc_, r_.data(), u_.data(), v_.data(), options_.get())
                   : fc3d_driver(fc_, r_.data(), u_.data(), options_.get());
      },
      &last_info_);
  ++calls_;
  lent_.TakeBack(options_.get());
  if (!ok) {
    mumps.Abandon();
    if (matrices) matrices->Abandon();
    aborted_ = true;
    message_ = "Siconos aborted inside its driver (a failed internal assertion)";
    return Status::kFailed;
  }
  done_ += options_->iparam[SICONOS_IPARAM_ITER_DONE];
  last_error_ = options_->dparam[SICONOS_DPARAM_RESIDU];
  if (!r_.allFinite() || !u_.allFinite()) {
    message_ = "non-finite reaction or velocity from Siconos";
    return Status::kDiverged;
  }
  // Repeating a call that changed nothing, short of Siconos' own tolerance, would change nothing
  // again, to the budget's end (at the tolerance an unchanged iterate is a solved one: PROX).
  const bool short_of_tol = !(last_error_ <= options_->dparam[SICONOS_DPARAM_TOL]);
  if (last_info_ != 0 && short_of_tol && r_ == r_before_ && u_ == u_before_ && v_ == v_before_) {
    // NSN-AC stops this way on a singular Newton system; NSGS with its light error evaluation
    // when an increment of 0 drives its adjusted tolerance to 0 ("tolerance has to be positive").
    message_ = fmt::format(
        "Siconos' {} changed nothing in a call of {} iterations and returned info = {}, error "
        "{:.3g} (stuck: a repeated call changes nothing either{})",
        method_.name, options_->iparam[SICONOS_IPARAM_MAX_ITER], last_info_, last_error_,
        method_.name.find("nsn") != std::string::npos ? "; its Newton system is singular" : "");
    return Status::kFailed;
  }
  return Status::kRunning;
}

void SiconosSolver::Current(Vec& v, Vec& lambda) const {
  if (!fold_) {  // local problem
    v.resize(0);
    lambda = r_;
    return;
  }
  if (method_.form == Form::kGlobal) {
    v = v_;
  } else {
    v = VelocityOf(fold_->problem.J, *chol_, v_free_, r_);
  }
  lambda = UnfoldMultipliers(*original_, *fold_, r_, v);
}

std::vector<std::pair<std::string, double>> SiconosSolver::Info() const {
  return {{"siconos_iterations", done_},
          {"driver_calls", calls_},
          {"siconos_info", last_info_},
          {"siconos_error", last_error_}};
}

}  // namespace ncp::siconos
