#include "solvers/cond/cond_settings.h"

namespace ncp::cond {

const SettingsTable<CondSettings>& CondSettings::Table() {
  using C = CondSettings;
  static const auto t =
      SettingsTable<C>()
          .Choice<kContactOperators>(&C::op, "operator",
                                     "contact operator of 002:26: strict (exact Signorini-Coulomb) "
                                     "or proximal (CCP, 002:36)")
          .Real(&C::regularization, "regularization", {.min = 0.0, .max = 1e12},
                "invertible contact (002:37): R_i = regularization x the constraint's Jacobi "
                "Delassus estimate, added to the surrogate W_i; 0: off")
          .Real(&C::gamma, "gamma", {.min = 0.0, .max = 1e12, .min_open = true},
                "virtual-node damping gain (002:14) as a multiple of the contact's effective mass "
                "1/sum_j(J_rj^2/A_jj); larger: smaller constraint perturbation, slower iteration")
          .Choice<kStepKinds>(&C::step, "step",
                              "step matrix P (002 §IV-C): Frobenius-norm minimisation, "
                              "Barzilai-Borwein (bb alternates BB1/BB2), the safe scalar "
                              "1/lambda_max(A) (power iteration), or auto: bb when every contact "
                              "is nodal, frobenius when there are virtual nodes")
          .Real(&C::step_cap, "step_cap", {.min = 0.0, .max = 2.0, .min_open = true},
                "frobenius: P scaled down so that lambda_max(P A) <= step_cap (2: the stability "
                "limit)")
          .Choice<kChebyshevModes>(&C::chebyshev, "chebyshev",
                                   "Chebyshev acceleration with under-relaxation (002 Alg. 3); "
                                   "auto: on for the frobenius and power steps, off for the "
                                   "Barzilai-Borwein steps")
          .Int(&C::cheb_start, "cheb_start", {.min = 1.0, .max = 1e9},
               "iteration index S at which the acceleration starts")
          .Real(&C::under_relax, "under_relax", {.min = 0.0, .max = 1.0, .min_open = true},
                "under-relaxation theta of the Chebyshev update")
          .Real(&C::rho_max, "rho_max",
                {.min = 0.0, .max = 1.0, .min_open = true, .max_open = true},
                "cap on the spectral-radius estimate of 002:39");
  return t;
}

StepKind CondSettings::Resolve(bool has_virtual_nodes) {
  if (step == StepKind::kAuto)
    step = has_virtual_nodes ? StepKind::kFrobenius : StepKind::kBarzilaiBorwein;
  return step;
}

}  // namespace ncp::cond
