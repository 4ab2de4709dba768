// A Siconos Numerics frictional-contact solver behind ncpbench's Solver interface.
//
// Problems: 3-row contacts only (after folding soft rows into A and b, see fold_soft.h);
// unilateral and bilateral rows give kNotApplicable, since fc3d/gfc3d have neither and a μ = 0
// contact with zero tangent rows has a singular diagonal block that breaks their local solvers.
// Local-form methods also run on fclib local problems; global-form methods need (M, H, f, w).
//
// Budgets: Siconos runs its own loop, so one Iterate() is one driver call of `chunk` Siconos
// iterations warm-started from the previous reaction (see siconos_method.h). A harness
// `--iters N` is thus N·chunk Siconos iterations; `max_iter` caps the Siconos count itself.
// Iterate() allocates inside Siconos (its drivers build work arrays on every call). A failed
// assertion inside Siconos becomes kFailed (abort_guard.h), not the end of the process.
#pragma once

#include <memory>
#include <vector>

#include "problems/linalg/cholmod_llt.h"
#include "problems/model/fold_soft.h"
#include "solvers/siconos/lent_work.h"
#include "solvers/siconos/numerics_matrix.h"
#include "solvers/siconos/siconos_method.h"
#include "solvers/solver.h"

struct FrictionContactProblem;
struct GlobalFrictionContactProblem;

namespace ncp::siconos {

class SiconosSolver : public Solver {
 public:
  explicit SiconosSolver(const Method& m) : method_(m) {}
  ~SiconosSolver() override;
  Status Setup(const ContactProblem& p, const Settings& s, const WarmStart* warm) override;
  Status Iterate() override;
  void Current(Vec& v, Vec& lambda) const override;
  std::vector<std::pair<std::string, double>> Info() const override;

  // The Siconos problems, for tests that call Siconos' own error functions (null when unused).
  FrictionContactProblem* local_problem() const { return fc_; }
  GlobalFrictionContactProblem* global_problem() const { return gfc_; }
  const Vec& reaction() const { return r_; }
  const Vec& local_velocity() const { return u_; }
  double last_error() const { return last_error_; }

 private:
  Status SetupGlobal(const ContactProblem& folded);
  void Release();

  Method method_;
  const ContactProblem* original_ = nullptr;
  std::unique_ptr<FoldedProblem> fold_;  // global problems
  std::unique_ptr<CholmodLLT> chol_;     // A_f, to recover v from the reaction
  Vec v_free_;                           // A_f⁻¹ b_f
  FrictionContactProblem* fc_ = nullptr;
  GlobalFrictionContactProblem* gfc_ = nullptr;
  OptionsPtr options_;
  SiconosSettings settings_;
  Vec r_, u_, v_;  // reaction, local velocity, global velocity (kGlobal)
  // r_, u_, v_ before a driver call: a call that changes none of them and does not report
  // success is stuck (NSN-AC's Newton system singular: it breaks out of its loop at once).
  Vec r_before_, u_before_, v_before_;
  LentWork lent_;  // work memory for the drivers that lose their own (g-nsn-ac, g-admm)
  int chunk_ = 1, max_iter_ = 0, done_ = 0, last_info_ = 0, calls_ = 0;
  double last_error_ = -1.0;
  bool aborted_ = false;
};

}  // namespace ncp::siconos
