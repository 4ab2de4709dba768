#include "solvers/redmax/redmax_settings.h"

namespace ncp {

const SettingsTable<RedmaxSettings>& RedmaxSettings::Table() {
  static const auto t =
      SettingsTable<RedmaxSettings>()
          .Choice<kLinears>(&RedmaxSettings::linear, "linear",
                            "solver of A' = A + J_sᵀ D J_s: pcg-pbj = matrix-free PCG with the "
                            "projected block-Jacobi preconditioner (003 §3, needs tree subsystems "
                            "whose A is the bodies' inertia), cholmod = sparse Cholesky, dense = "
                            "dense Cholesky")
          .Real(&RedmaxSettings::pcg_tol, "pcg_tol",
                {.min = 0.0, .max = 1.0, .min_open = true, .max_open = true},
                "PCG stops when ‖r‖ ≤ pcg_tol ‖rhs‖: in the first outer iteration rhs = b' + Gᵀλ "
                "(003 §6, from the current v), in later ones their starting residual (each refines "
                "by about this factor)")
          .Int(&RedmaxSettings::pcg_max_iters, "pcg_max_iters", {.min = 1.0, .max = 1e7},
               "most PCG iterations per solve; reaching it without pcg_tol fails the run");
  return t;
}

}  // namespace ncp
