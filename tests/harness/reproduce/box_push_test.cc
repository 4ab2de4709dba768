// The pushed box of 002 §V-B (Table I) against its analytic path: the exact complementarity step
// follows it to rounding, COND's formulation errs by a perturbation that falls tenfold per
// tenfold γ (002 Prop. 2), COND iterated to its formulation's solution agrees with the
// formulation solved by Newton, and the spring-damper model sinks by the weight over its
// stiffness.
#include "harness/reproduce/box_push.h"

#include <gtest/gtest.h>

namespace ncp {
namespace {

constexpr double kDt = 1e-3, kDuration = 0.1;  // 100 steps: long enough for a steady slide

TEST(BoxPush, ExactStepFollowsTheAnalyticPath) {
  const PushRun r = Push(kDt, kDuration, SolverStepper({"nnewton", {}, 50, 1e-12}));
  ASSERT_FALSE(r.diverged);
  EXPECT_LE(r.Worst(), 1e-9);  // metres, over 100 steps of ~2 mm each
  EXPECT_EQ(r.airborne, 0);
}

TEST(BoxPush, FormulationErrorFallsTenfoldPerTenfoldGamma) {
  double err[3];
  const double gammas[3] = {10, 100, 1000};
  for (int i = 0; i < 3; ++i) {
    const PushRun r = Push(kDt, kDuration, SolverStepper({"nnewton", {}, 50, 1e-10, gammas[i]}));
    ASSERT_FALSE(r.diverged) << gammas[i];
    err[i] = r.Worst();
  }
  EXPECT_GT(err[0], 1e-7);  // the perturbation is there to measure
  for (int i = 0; i + 1 < 3; ++i) {
    EXPECT_GT(err[i] / err[i + 1], 7.0) << gammas[i];
    EXPECT_LT(err[i] / err[i + 1], 13.0) << gammas[i];
  }
}

TEST(BoxPush, CondConvergedAgreesWithItsFormulationSolvedByNewton) {
  const PushRun newton = Push(kDt, kDuration, SolverStepper({"nnewton", {}, 50, 1e-10, 10}));
  const PushRun cond =
      Push(kDt, kDuration,
           SolverStepper({"cond", {"cond.step=frobenius", "cond.chebyshev=on"}, 20000, 1e-10, 10}));
  ASSERT_FALSE(cond.diverged);
  EXPECT_EQ(cond.unconverged, 0);
  for (int i = 0; i < 3; ++i) EXPECT_NEAR(cond.err[i], newton.err[i], 1e-8) << i;
}

TEST(BoxPush, PenaltySinksByTheWeightOverItsStiffness) {
  const double k = 1e4;
  const std::map<std::string, double> p = BoxPushParams(kDt);
  const PushRun r = Push(kDt, 0.5, PenaltyStepper(PenaltyOne(k, p.at("mass"))));
  ASSERT_FALSE(r.diverged);
  const double sink = p.at("mass") * 9.81 / (4 * k);  // each corner carries a quarter
  EXPECT_GT(r.err[2], 0.95 * sink);
  EXPECT_LT(r.err[2], 1.2 * sink);
}

}  // namespace
}  // namespace ncp
