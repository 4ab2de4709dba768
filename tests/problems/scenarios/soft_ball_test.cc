// 002 §V-C4's soft ball: a frame with the fingers squeezing it loads in every registered solver,
// and each either runs to the end of its budget with finite results or says why it is not
// applicable (issue: "the soft ball frames load in every solver").
#include <gtest/gtest.h>

#include <cmath>

#include "harness/runner.h"
#include "harness/simulate.h"
#include "solvers/registry.h"

namespace ncp {
namespace {

TEST(SoftBall, AGraspedFrameRunsInEverySolverOrSaysWhyNot) {
  // Size 0.3: the smallest mesh (4 cells across); the second frame is at step 40 (0.67 s), after
  // the fingers closed (0.4 s), so it has finger contacts besides the floor's.
  const std::vector<ContactProblem> frames =
      GenerateProblems("soft_ball", {{"size", "0.3"}}, 2, 1, false, true);
  ASSERT_EQ(frames.size(), 2u);
  const ContactProblem& p = frames[1];
  // The fingers push along x: a contact whose normal row weighs a node's x coordinate most (the
  // ball's dofs are its nodes' x, y, z in turn) is a finger's.
  const SpMat rows = p.J.transpose();
  int finger = 0;
  for (const Constraint& c : p.constraints) {
    if (c.type != ConstraintType::kContact) continue;
    int arg = -1;
    double best = 0.0;
    for (SpMat::InnerIterator it(rows, c.row); it; ++it)
      if (std::abs(it.value()) > best)
        best = std::abs(it.value()), arg = static_cast<int>(it.index());
    finger += arg >= 0 && arg % 3 == 0;
  }
  EXPECT_GT(finger, 0) << p.num_contacts() << " contacts, none of them a finger's";
  ASSERT_GT(p.num_contacts(), 0);
  const Evaluator ev(p);
  RunOptions opt;
  opt.budget.iters = 20;
  opt.budget.time_ms = 20000;
  int ran = 0, refused = 0;
  for (const SolverEntry& e : Solvers()) {
    if (e.name.rfind("test-", 0) == 0) continue;  // the tests' own stand-ins
    const RunRecord r =
        RunOne(p, ev, SolverJob{&e, Settings::Parse(e.name, e.settings, {})}, opt, nullptr, 0);
    if (r.status == Outcome::kNotApplicable) {
      ++refused;
      EXPECT_FALSE(r.message.empty()) << e.name << " refused without a reason";
      continue;
    }
    ++ran;
    EXPECT_TRUE(RanToEnd(r.status)) << e.name << ": " << ToString(r.status) << " " << r.message;
    EXPECT_TRUE(std::isfinite(r.final_metrics[Metric::kRes004])) << e.name;
  }
  EXPECT_GE(ran, 20) << refused << " refused";  // 28 ran and 5 refused with Siconos and engines
}

}  // namespace
}  // namespace ncp
