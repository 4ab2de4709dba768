// Settings of the COND solver (002 Alg. 1–3): flat, defaulted, validated by Settings::Parse.
#pragma once

#include <vector>

#include "solvers/settings.h"
#include "solvers/settings_table.h"

namespace ncp::cond {

enum class StepKind { kFrobenius = 0, kBarzilaiBorwein, kBB1, kBB2, kPower, kAuto };
inline constexpr auto kStepKinds = ChoiceNames<StepKind>({{StepKind::kFrobenius, "frobenius"},
                                                          {StepKind::kBarzilaiBorwein, "bb"},
                                                          {StepKind::kBB1, "bb1"},
                                                          {StepKind::kBB2, "bb2"},
                                                          {StepKind::kPower, "power"},
                                                          {StepKind::kAuto, "auto"}});
enum class ContactOperator { kStrict, kProximal };
inline constexpr auto kContactOperators = ChoiceNames<ContactOperator>(
    {{ContactOperator::kStrict, "strict"}, {ContactOperator::kProximal, "proximal"}});
enum class ChebyshevMode { kOff, kOn, kAuto };
inline constexpr auto kChebyshevModes = ChoiceNames<ChebyshevMode>(
    {{ChebyshevMode::kOff, "off"}, {ChebyshevMode::kOn, "on"}, {ChebyshevMode::kAuto, "auto"}});

struct CondSettings {
  // Contact operator (002:26).
  ContactOperator op = ContactOperator::kStrict;  // strict (exact SCC) or proximal (CCP, 002:36)
  // Invertible contact (002 §III-E1, 002:37): R_i = regularization · d_i on every hard
  // constraint (d_i: Jacobi estimate of its Delassus diagonal, cond::Regularization), solved by
  // using W̃_i + R_i in the surrogate (002:23). With the proximal operator λ_i is then the
  // projection of −(J_i v + e_i)/R_i: the impulse follows from the velocity alone. 0: off.
  double regularization = 0.0;
  // Virtual nodes (002 §III-A2).
  double gamma = 100.0;  // damping gain as a multiple of the contact's effective mass
  // Step matrix P (002 §IV-C).
  // auto: Barzilai–Borwein when every contact is nodal (on the FEM scenes it needs 2–3× fewer
  // iterations than the accelerated Frobenius step), Frobenius when there are virtual nodes (their
  // stiff damping rows make BB's non-monotone steps stall). 002 §IV-C: either can win, by scene.
  StepKind step = StepKind::kAuto;
  double step_cap = 1.9;  // Frobenius P scaled down so that λ_max(PÂ) ≤ step_cap
  // Chebyshev acceleration (002 §III-G, Alg. 3).
  // auto: on for the stationary steps (Frobenius, power), off for BB, whose step changes every
  // iteration (Chebyshev's ω recursion assumes a fixed iteration matrix).
  ChebyshevMode chebyshev = ChebyshevMode::kAuto;
  // The step and acceleration actually used, once the nodalization is known.
  StepKind Resolve(bool has_virtual_nodes);
  bool UseChebyshev() const {
    return chebyshev == ChebyshevMode::kOn ||
           (chebyshev == ChebyshevMode::kAuto &&
            (step == StepKind::kFrobenius || step == StepKind::kPower));
  }
  int cheb_start = 10;       // S: iterations before acceleration starts
  double under_relax = 0.9;  // θ
  double rho_max = 0.999;    // cap on the estimated spectral radius

  static const SettingsTable<CondSettings>& Table();
};

}  // namespace ncp::cond
