#include "solvers/cond/cond_settings.h"

namespace ncp::cond {

std::vector<SettingSpec> CondSettings::Specs() {
  const CondSettings d;
  return {
      ChoiceSpec<kContactOperators>(
          "operator", d.strict ? ContactOperator::kStrict : ContactOperator::kProximal,
          "contact operator of 002:26: strict (exact Signorini-Coulomb) or proximal (CCP, 002:36)"),
      {.name = "gamma", .default_value = d.gamma, .min = 0.0, .max = 1e12, .min_open = true,
       .help = "virtual-node damping gain (002:14) as a multiple of the contact's effective mass "
               "1/sum_j(J_rj^2/A_jj); larger: smaller constraint perturbation, slower iteration"},
      ChoiceSpec<kStepKinds>(
          "step", d.step,
          "step matrix P (002 §IV-C): Frobenius-norm minimisation, Barzilai-Borwein (bb alternates "
          "BB1/BB2), the safe scalar 1/lambda_max(A) (power iteration), or auto: bb when every "
          "contact is nodal, frobenius when there are virtual nodes"),
      {.name = "step_cap", .default_value = d.step_cap, .min = 0.0, .max = 2.0, .min_open = true,
       .help = "frobenius: P scaled down so that lambda_max(P A) <= step_cap (2: the stability "
               "limit)"},
      ChoiceSpec<kChebyshevModes>(
          "chebyshev", d.chebyshev,
          "Chebyshev acceleration with under-relaxation (002 Alg. 3); auto: on for the frobenius "
          "and power steps, off for the Barzilai-Borwein steps"),
      {.name = "cheb_start", .default_value = static_cast<double>(d.cheb_start), .min = 1.0,
       .max = 1e9, .integer = true, .help = "iteration index S at which the acceleration starts"},
      {.name = "under_relax", .default_value = d.under_relax, .min = 0.0, .max = 1.0,
       .min_open = true, .help = "under-relaxation theta of the Chebyshev update"},
      {.name = "rho_max", .default_value = d.rho_max, .min = 0.0, .max = 1.0, .min_open = true,
       .max_open = true, .help = "cap on the spectral-radius estimate of 002:39"},
  };
}

CondSettings CondSettings::From(const Settings& s) {
  CondSettings c;
  c.strict = s.Choice<ContactOperator>("operator") == ContactOperator::kStrict;
  c.gamma = s.Get("gamma");
  c.step = s.Choice<StepKind>("step");
  c.step_cap = s.Get("step_cap");
  c.chebyshev = s.Choice<ChebyshevMode>("chebyshev");
  c.cheb_start = s.GetInt("cheb_start");
  c.under_relax = s.Get("under_relax");
  c.rho_max = s.Get("rho_max");
  return c;
}

StepKind CondSettings::Resolve(bool has_virtual_nodes) {
  if (step == StepKind::kAuto)
    step = has_virtual_nodes ? StepKind::kFrobenius : StepKind::kBarzilaiBorwein;
  return step;
}

}  // namespace ncp::cond
