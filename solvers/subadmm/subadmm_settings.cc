#include "solvers/subadmm/subadmm_settings.h"

namespace ncp {

template <typename S>
void AddSubAdmmCommon(SettingsTable<S>& t) {
  t.Real(&S::beta, "beta", {.min = 0.0, .max = 1e12},
         "initial penalty β for every subsystem; 0 = the solver's rule")
      .Flag(&S::adaptive, "adaptive", "1: adapt β by 004:43")
      .Flag(&S::row_scaling, "row_scaling",
            "1: a slack of constraint i has penalty β_j m_i/m̄ (m_i the constraint's effective "
            "mass 1/max_r Σ_k J_rk²/A_kk, m̄ their geometric mean, β_j = m̄/10 at the start "
            "unless beta is given), so that constraints whose effective masses differ by orders "
            "(a cable's contacts and its links' twists: 2e-4 and 5e-10) each get a penalty of "
            "their own scale; 0: β_j for every slack of subsystem j (004:34)");
  AddAdaptation(t, " every subsystem");
  t.Int(&S::threads, "threads", {.min = 0.0, .max = 1024.0},
        "OpenMP threads over subsystems and constraints (a given count threads the set-up's "
        "per-subsystem work too); 0 = OMP_NUM_THREADS from 4096 slacks on, else 1");
}

const SettingsTable<SubAdmmCommonSettings>& SubAdmmCommonSettings::Table() {
  static const auto t = [] {
    SettingsTable<SubAdmmCommonSettings> t;
    AddSubAdmmCommon(t);
    return t;
  }();
  return t;
}

const SettingsTable<SubAdmmSettings>& SubAdmmSettings::Table() {
  using S = SubAdmmSettings;
  static const auto t = [] {
    SettingsTable<S> t;
    AddSubAdmmCommon(t);
    t.Choice<kFactorizations>(&S::factorization, "factorization",
                              "K_j of 004:40: crba = composite-rigid-body assembly + "
                              "branch-induced LTDL, aba = articulated-body recursion (004 Remark "
                              "1), dense = Cholesky of the assembled K_j")
        .Choice<kApplies>(&S::apply, "apply",
                          "how J_s v and J_sᵀλ are applied per subsystem: through body twists "
                          "and the tree, through each slack's joint-space row, or whichever costs "
                          "fewer operations")
        .Choice<kJointRows>(&S::joint_rows, "joint_rows",
                            "1-row constraints on a single joint coordinate: joint = one "
                            "joint-space slack (a diagonal term of K_j), body = split over the "
                            "bodies like contacts (004:31)");
    return t;
  }();
  return t;
}

const SettingsTable<SubAdmmNobodySettings>& SubAdmmNobodySettings::Table() {
  using S = SubAdmmNobodySettings;
  static const auto t = [] {
    SettingsTable<S> t;
    AddSubAdmmCommon(t);
    t.Choice<kBetaRules>(&S::beta_rule, "beta_rule",
                         "initial β with row_scaling=0 (with row scaling β starts from the "
                         "effective masses): trace = Tr(A_j)/Tr(Σ J_ijᵀJ_ij) per subsystem "
                         "(000:23), density = geometric mean of body pseudo-densities (004 §VI-D)")
        .Choice<kFactorizations>(&S::factorization, "factorization",
                                 "K_j = A_j + β Σ J_ijᵀJ_ij: dense = Eigen Cholesky; sparse = "
                                 "CHOLMOD, symbolic analysis once, numeric refactorization per β "
                                 "change; auto = sparse for K_j of at least 64 dofs filled to at "
                                 "most 25%, dense otherwise");
    return t;
  }();
  return t;
}

}  // namespace ncp
