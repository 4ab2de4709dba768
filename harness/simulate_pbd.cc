// Simulate's position-based-dynamics path: the scene's system stepped by XpbdStepper.
#include <fmt/format.h>

#include <chrono>
#include <cmath>
#include <cstdio>

#include "common/error.h"
#include "harness/progress.h"
#include "harness/simulate.h"

namespace ncp {

SimulateResult SimulatePbd(const SceneEntry& scene, const ParamMap& params, std::uint64_t seed,
                           const SimulateOptions& opt, const physics::XpbdOptions& pbd) {
  physics::ValidateXpbdOptions(pbd);
  ValidateSteps(opt);
  if (opt.every > 0)
    throw Error(fmt::format("--every = {}: a PBD run forms no problems to record", opt.every));
  SimulateResult res;
  Scene sc = BuildForSteps(scene, params, seed, opt, res);
  if (!sc.system)
    throw Error(
        fmt::format("scene '{}': the PBD stepper steps systems of free bodies; this scene "
                    "is a FEM scene",
                    scene.name));
  physics::MultibodySystem& sys = *sc.system;
  physics::XpbdStepper stepper(sys, pbd);  // refuses what it cannot step, by name
  const int steps = opt.steps > 0 ? opt.steps : scene.default_steps;
  using Clock = std::chrono::steady_clock;
  const Clock::time_point start = Clock::now();
  for (int k = 0; k < steps; ++k) {
    if (sc.before_step) sc.before_step(sys);
    StepStats st;
    st.step = k;
    st.time = sys.time();
    const Clock::time_point t0 = Clock::now();
    const physics::XpbdStepStats ps = stepper.Step(sys);
    st.solve_ms = std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
    st.contacts = ps.contacts;
    st.max_penetration = ps.max_penetration;
    st.iterations = pbd.substeps * pbd.iterations;
    st.status = Outcome::kMaxIterations;
    st.res004 = NAN;
    if (opt.after_step) opt.after_step(sys);
    if (!opt.quiet && (k % 24 == 23 || k + 1 == steps)) {
      const double elapsed = std::chrono::duration<double>(Clock::now() - start).count();
      std::fprintf(stderr, "[%s] %s; t=%.3fs contacts=%d penetration=%.2gmm (pbd)\n",
                   scene.name.c_str(), ProgressText(k + 1, steps, elapsed, "steps").c_str(),
                   sys.time(), st.contacts, st.max_penetration * 1e3);
    }
    res.steps.push_back(st);
  }
  for (int b = 0; b < sys.num_bodies(); ++b) res.final_poses.push_back(sys.BodyPose(b));
  return res;
}

}  // namespace ncp
