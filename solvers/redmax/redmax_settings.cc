#include "solvers/redmax/redmax_settings.h"

namespace ncp {

std::vector<SettingSpec> RedmaxSettings::Specs() {
  constexpr RedmaxSettings d{};
  return {ChoiceSpec<kLinears>(
              "linear", d.linear,
              "solver of A' = A + J_sᵀ D J_s: pcg-pbj = matrix-free PCG with the projected "
              "block-Jacobi preconditioner (003 §3, needs tree subsystems whose A is the bodies' "
              "inertia), cholmod = sparse Cholesky, dense = dense Cholesky"),
          {.name = "pcg_tol", .default_value = d.pcg_tol, .min = 0.0, .max = 1.0,
           .min_open = true, .max_open = true,
           .help = "PCG stops when ‖r‖ ≤ pcg_tol ‖rhs‖: in the first outer iteration rhs = b' + "
                   "Gᵀλ (003 §6, from the current v), in later ones their starting residual (each "
                   "refines by about this factor)"},
          {.name = "pcg_max_iters", .default_value = static_cast<double>(d.pcg_max_iters),
           .min = 1.0, .max = 1e7, .integer = true,
           .help = "most PCG iterations per solve; reaching it without pcg_tol fails the run"}};
}

RedmaxSettings RedmaxSettings::From(const Settings& s) {
  RedmaxSettings r;
  r.linear = s.Choice<Linear>("linear");
  r.pcg_tol = s.Get("pcg_tol");
  r.pcg_max_iters = s.GetInt("pcg_max_iters");
  return r;
}

}  // namespace ncp
