// Settings of the subsystem ADMM solvers (`subadmm`, `subadmm-nobody`): flat, defaulted, read once
// in Setup, validated by Settings::Parse.
#pragma once

#include <vector>

#include "solvers/common/adaptive_penalty.h"
#include "solvers/settings.h"
#include "solvers/settings_table.h"

namespace ncp {

// The settings both solvers share (SubAdmmBase).
struct SubAdmmCommonSettings {
  double beta = 0.0;  // initial β of every subsystem; 0: the solver's rule
  bool adaptive = true;
  bool row_scaling = true;
  PenaltyRule balance = PenaltyRule::kRelative;
  double gamma = 10.0;
  int adapt_every = 1;
  int threads = 0;  // 0: auto

  // The common settings alone (what SubAdmmBase reads).
  static const SettingsTable<SubAdmmCommonSettings>& Table();
};

// `subadmm`'s own: how K_j is factorized and J_s applied (SubAdmmBase reads the common ones).
struct SubAdmmSettings : SubAdmmCommonSettings {
  enum class Factorization { kCrba, kAba, kDense };
  static constexpr auto kFactorizations =
      ChoiceNames<Factorization>({{Factorization::kCrba, "crba"},
                                  {Factorization::kAba, "aba"},
                                  {Factorization::kDense, "dense"}});
  enum class Apply { kAuto, kBodies, kRows };
  static constexpr auto kApplies = ChoiceNames<Apply>(
      {{Apply::kAuto, "auto"}, {Apply::kBodies, "bodies"}, {Apply::kRows, "rows"}});
  enum class JointRows { kJoint, kBody };
  static constexpr auto kJointRows =
      ChoiceNames<JointRows>({{JointRows::kJoint, "joint"}, {JointRows::kBody, "body"}});

  Factorization factorization = Factorization::kCrba;
  Apply apply = Apply::kAuto;
  JointRows joint_rows = JointRows::kJoint;

  static const SettingsTable<SubAdmmSettings>& Table();  // the common ones, then these
};

// `subadmm-nobody`'s own: the initial β rule and the factorization of K_j.
struct SubAdmmNobodySettings : SubAdmmCommonSettings {
  enum class BetaRule { kTrace, kDensity };  // 000:23 trace ratio, 004 §VI-D density
  static constexpr auto kBetaRules =
      ChoiceNames<BetaRule>({{BetaRule::kTrace, "trace"}, {BetaRule::kDensity, "density"}});
  enum class Factorization { kAuto, kDense, kSparse };
  static constexpr auto kFactorizations =
      ChoiceNames<Factorization>({{Factorization::kAuto, "auto"},
                                  {Factorization::kDense, "dense"},
                                  {Factorization::kSparse, "sparse"}});

  BetaRule beta_rule = BetaRule::kTrace;
  Factorization factorization = Factorization::kAuto;

  static const SettingsTable<SubAdmmNobodySettings>& Table();  // the common ones, then these
};

}  // namespace ncp
