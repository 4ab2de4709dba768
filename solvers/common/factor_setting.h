// CHOLMOD's factor as a solver setting, `factor`, for the solvers that factor a sparse SPD matrix
// during their iterations (admm-full when β changes, canal at every Newton step).
#pragma once

#include <string>

#include "problems/linalg/cholmod_llt.h"
#include "solvers/settings_table.h"

namespace ncp {

inline constexpr auto kFactorKinds =
    ChoiceNames<CholmodLLT::Kind>({{CholmodLLT::Kind::kSupernodal, "supernodal"},
                                   {CholmodLLT::Kind::kSimplicial, "simplicial"},
                                   {CholmodLLT::Kind::kAuto, "auto"}});

// Adds `factor` (member m of S); `when` prefixes the help (e.g. "linear=cholmod: ").
template <typename S>
void AddFactorSetting(SettingsTable<S>& t, CholmodLLT::Kind S::*m, const std::string& when = "") {
  t.template Choice<kFactorKinds>(
      m, "factor",
      when +
          "CHOLMOD's factor: supernodal (dense blocks through BLAS), simplicial (column by "
          "column, no BLAS) or auto = simplicial unless the factorization does ≥ 40 flops per "
          "nonzero of L (CHOLMOD's rule): on small or very sparse factors it avoids BLAS's "
          "per-call cost and thread pool");
}

}  // namespace ncp
