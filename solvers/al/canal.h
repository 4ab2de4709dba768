// CANAL (004 §V, Alg. 1): cascaded Newton-based augmented Lagrangian. Each AL iteration solves
// the convex surrogate 004:21–22 (proximal cone operator, de Saxcé perturbation p from the
// previous z) by Newton steps on 004:24 with the exact line search 004:26, then updates z, u
// (004:12) and β (004:27). One Iterate() = one AL iteration. By default the surrogate is
// re-solved with p refreshed from its own z until p's lag is below the AL step, damped when the
// refresh cycles (settings perturbation_*; perturbation_updates = 1 is the published cascade).
#pragma once

#include <memory>

#include "problems/linalg/cholmod_llt.h"
#include "solvers/al/al_base.h"
#include "solvers/al/penalized_matrix.h"

namespace ncp {

// The AL settings, then the refresh of the perturbation p.
struct CanalSettings : AlSettings {
  int perturbation_updates = 30;         // surrogate solves per AL iteration (1: as published)
  double perturbation_tol = 1.0;         // refresh until ‖Δp‖ ≤ this × ‖J v̂ − z‖
  double perturbation_relaxation = 1.0;  // initial ω of the refresh
  // 0.3: on laikago_drop frames (seeds 1–3, 8 and 12 robots) 0.2–0.3 all converge but one of
  // 40; 0.05 leaves the damped refresh too slow on 5 of 16 later frames.
  double min_relaxation = 0.3;
  CholmodLLT::Kind factor = CholmodLLT::Kind::kAuto;  // solvers/common/factor_setting.h
  static const SettingsTable<CanalSettings>& Table();
};

class CanalSolver : public AlSolverBase {
 public:
  Status Setup(const ContactProblem& p, const Settings& s, const WarmStart* warm) override;
  Status Iterate() override;
  // The AL counters plus surrogate solves (one per p refresh) and the refresh's current ω.
  std::vector<std::pair<std::string, double>> Info() const override;

  // The surrogate's pieces, public for tests: r(v̂) of 004:21 (fills λ) and h(v̂) of 004:22 at
  // the current β, u and ẽ; K of 004:24 at v̂.
  double Gradient(const Vec& v, Vec& r);
  double Objective(const Vec& v);
  const SpMat& Hessian(const Vec& v);

 private:
  // Newton steps with exact line search on 004:22 at the current ẽ; k = steps taken.
  Status SolveSurrogate(int& k, bool& solved);
  double UpdatePerturbation(const Vec& z, double omega);

  int perturbation_updates_ = 1;
  double perturbation_tol_ = 0.0, omega_ = 1.0, omega0_ = 1.0, min_omega_ = 0.3;
  int surrogate_solves_ = 0;
  PenalizedMatrix K_;
  std::unique_ptr<CholmodLLT> chol_;  // K's factor
  std::vector<Mat3r> D_;
  Vec z_work_, trial_, r_, d_, Jd_, Av_, Ad_;
};

}  // namespace ncp
