// Settings of `redmax`: how A' = A + J_sᵀ D J_s (soft rows folded in) is solved, and the PCG's
// stopping rule. Flat, defaulted, read once in Setup, validated by Settings::Parse.
#pragma once

#include <vector>

#include "solvers/settings.h"
#include "solvers/settings_table.h"

namespace ncp {

struct RedmaxSettings {
  // pcg-pbj: matrix-free PCG with the projected block-Jacobi preconditioner (003 §3);
  // cholmod: sparse Cholesky of the assembled A'; dense: Eigen LLT of the dense A'.
  enum class Linear { kPcgPbj, kCholmod, kDense };
  static constexpr auto kLinears = ChoiceNames<Linear>(
      {{Linear::kPcgPbj, "pcg-pbj"}, {Linear::kCholmod, "cholmod"}, {Linear::kDense, "dense"}});

  Linear linear = Linear::kPcgPbj;
  double pcg_tol = 1e-6;     // ‖r‖ ≤ pcg_tol ‖rhs‖ (003 §6 uses 1e-6)
  int pcg_max_iters = 1000;  // per PCG solve; reaching it without pcg_tol fails the solve

  static const SettingsTable<RedmaxSettings>& Table();
};

}  // namespace ncp
