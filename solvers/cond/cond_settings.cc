#include "solvers/cond/cond_settings.h"

namespace ncp::cond {

std::vector<SettingSpec> CondSettings::Specs() {
  const CondSettings d;
  return {
      {"operator", 0.0, 0, 0, false, false, false, {"strict", "proximal"},
       "contact operator of 002:26: strict (exact Signorini-Coulomb) or proximal (CCP, 002:36)"},
      {"gamma", d.gamma, 0.0, 1e12, true, false, false, {},
       "virtual-node damping gain (002:14) as a multiple of the contact's effective mass "
       "1/sum_j(J_rj^2/A_jj); larger: smaller constraint perturbation, slower iteration"},
      {"step", 5.0, 0, 0, false, false, false, {"frobenius", "bb", "bb1", "bb2", "power", "auto"},
       "step matrix P (002 §IV-C): Frobenius-norm minimisation, Barzilai-Borwein (bb alternates "
       "BB1/BB2), the safe scalar 1/lambda_max(A) (power iteration), or auto: bb when every "
       "contact is nodal, frobenius when there are virtual nodes"},
      {"step_cap", d.step_cap, 0.0, 2.0, true, false, false, {},
       "frobenius: P scaled down so that lambda_max(P A) <= step_cap (2: the stability limit)"},
      {"chebyshev", 2.0, 0, 0, false, false, false, {"off", "on", "auto"},
       "Chebyshev acceleration with under-relaxation (002 Alg. 3); auto: on for the frobenius and "
       "power steps, off for the Barzilai-Borwein steps"},
      {"cheb_start", static_cast<double>(d.cheb_start), 1.0, 1e9, false, false, true, {},
       "iteration index S at which the acceleration starts"},
      {"under_relax", d.under_relax, 0.0, 1.0, true, false, false, {},
       "under-relaxation theta of the Chebyshev update"},
      {"rho_max", d.rho_max, 0.0, 1.0, true, true, false, {},
       "cap on the spectral-radius estimate of 002:39"},
  };
}

CondSettings CondSettings::From(const Settings& s) {
  CondSettings c;
  c.strict = s.GetInt("operator") == 0;
  c.gamma = s.Get("gamma");
  c.step = static_cast<StepKind>(s.GetInt("step"));
  c.step_cap = s.Get("step_cap");
  c.chebyshev = s.GetInt("chebyshev");
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
