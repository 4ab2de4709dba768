#include "solvers/subadmm/subadmm_settings.h"

namespace ncp {

std::vector<SettingSpec> SubAdmmCommonSettings::Specs() {
  constexpr SubAdmmCommonSettings d{};
  std::vector<SettingSpec> specs = {
          {.name = "beta", .default_value = d.beta, .min = 0.0, .max = 1e12,
           .help = "initial penalty β for every subsystem; 0 = the solver's rule"},
          {.name = "adaptive", .default_value = d.adaptive, .min = 0.0, .max = 1.0, .integer = true,
           .help = "1: adapt β by 004:43"},
          {.name = "row_scaling", .default_value = d.row_scaling, .min = 0.0, .max = 1.0,
           .integer = true,
           .help = "1: a slack of constraint i has penalty β_j m_i/m̄ (m_i the constraint's "
                   "effective mass 1/max_r Σ_k J_rk²/A_kk, m̄ their geometric mean, β_j = m̄/10 at "
                   "the start unless beta is given), so that constraints whose effective masses "
                   "differ by orders (a cable's contacts and its links' twists: 2e-4 and 5e-10) "
                   "each get a penalty of their own scale; 0: β_j for every slack of subsystem j "
                   "(004:34)"},
      };
  for (SettingSpec& x : AdaptationSpecs(d.balance, d.gamma, d.adapt_every, " every subsystem"))
    specs.push_back(x);
  specs.push_back(
          {.name = "threads", .default_value = d.threads, .min = 0.0, .max = 1024.0,
           .integer = true,
           .help = "OpenMP threads over subsystems and constraints; 0 = OMP_NUM_THREADS from 4096 "
                   "slacks on, else 1"});
  return specs;
}

SubAdmmCommonSettings SubAdmmCommonSettings::From(const Settings& s) {
  SubAdmmCommonSettings c;
  c.beta = s.Get("beta");
  c.adaptive = s.GetBool("adaptive");
  c.row_scaling = s.GetBool("row_scaling");
  c.balance = s.Choice<PenaltyRule>("balance");
  c.gamma = s.Get("gamma");
  c.adapt_every = s.GetInt("adapt_every");
  c.threads = s.GetInt("threads");
  return c;
}

std::vector<SettingSpec> SubAdmmSettings::Specs() {
  constexpr SubAdmmSettings d{};
  std::vector<SettingSpec> s = SubAdmmCommonSettings::Specs();
  s.push_back(ChoiceSpec<kFactorizations>(
      "factorization", d.factorization,
      "K_j of 004:40: crba = composite-rigid-body assembly + branch-induced LTDL, aba = "
      "articulated-body recursion (004 Remark 1), dense = Cholesky of the assembled K_j"));
  s.push_back(ChoiceSpec<kApplies>(
      "apply", d.apply,
      "how J_s v and J_sᵀλ are applied per subsystem: through body twists and the tree, "
      "through each slack's joint-space row, or whichever costs fewer operations"));
  s.push_back(ChoiceSpec<kJointRows>(
      "joint_rows", d.joint_rows,
      "1-row constraints on a single joint coordinate: joint = one joint-space slack "
      "(a diagonal term of K_j), body = split over the bodies like contacts (004:31)"));
  return s;
}

SubAdmmSettings SubAdmmSettings::From(const Settings& s) {
  SubAdmmSettings c;
  c.factorization = s.Choice<Factorization>("factorization");
  c.apply = s.Choice<Apply>("apply");
  c.joint_rows = s.Choice<JointRows>("joint_rows");
  return c;
}

std::vector<SettingSpec> SubAdmmNobodySettings::Specs() {
  constexpr SubAdmmNobodySettings d{};
  std::vector<SettingSpec> s = SubAdmmCommonSettings::Specs();
  s.push_back(ChoiceSpec<kBetaRules>(
      "beta_rule", d.beta_rule,
      "initial β with row_scaling=0 (with row scaling β starts from the effective masses): trace "
      "= Tr(A_j)/Tr(Σ J_ijᵀJ_ij) per subsystem (000:23), density = geometric mean of body "
      "pseudo-densities (004 §VI-D)"));
  s.push_back(ChoiceSpec<kFactorizations>(
      "factorization", d.factorization,
      "K_j = A_j + β Σ J_ijᵀJ_ij: dense = Eigen Cholesky; sparse = CHOLMOD, symbolic analysis "
      "once, numeric refactorization per β change; auto = sparse for K_j of at least 64 dofs "
      "filled to at most 25%, dense otherwise"));
  return s;
}

SubAdmmNobodySettings SubAdmmNobodySettings::From(const Settings& s) {
  SubAdmmNobodySettings c;
  c.beta_rule = s.Choice<BetaRule>("beta_rule");
  c.factorization = s.Choice<Factorization>("factorization");
  return c;
}

}  // namespace ncp
