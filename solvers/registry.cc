#include "solvers/registry.h"

#include <fmt/format.h>

#include "common/error.h"
#include "gpu/subadmm_rigid_cpu.h"
#ifdef NCPBENCH_HAVE_CUDA
#include "gpu/cuda/subadmm_gpu.h"
#endif
#include "solvers/admm/admm_full.h"
#include "solvers/al/al_semismooth.h"
#include "solvers/al/canal.h"
#include "solvers/apgd/apgd.h"
#include "solvers/cond/cond.h"
#include "solvers/nnewton/nnewton.h"
#include "solvers/pgs/pgs.h"
#include "solvers/pj/pj.h"
#include "solvers/subadmm/subadmm.h"
#include "solvers/subadmm/subadmm_nobody.h"
#ifdef NCP_WITH_SICONOS
#include "solvers/siconos/siconos_entries.h"
#endif

namespace ncp {

const char* ToString(Status s) {
  switch (s) {
    case Status::kRunning: return "running";
    case Status::kConverged: return "converged";
    case Status::kMaxIterations: return "max-iterations";
    case Status::kTimeLimit: return "time-limit";
    case Status::kDiverged: return "diverged";
    case Status::kFailed: return "failed";
    case Status::kNotApplicable: return "not-applicable";
  }
  return "unknown";
}

namespace {

std::vector<SolverEntry> MakeEntries() {
  std::vector<SolverEntry> entries = {
      {"pgs", "projected Gauss-Seidel on the dual, strict operator, SOR / NNCG options (004 §VII, 000 §IV-B1)",
       PgsSettings::Specs(), true, [] { return std::make_unique<PgsSolver>(); }},
      {"pj", "projected Jacobi on the dual, parallel (000 §IV-B2)", PjSolver::Specs(), true,
       [] { return std::make_unique<PjSolver>(); }},
      {"apgd", "accelerated projected gradient descent, adaptive step and restart (002 §V-C1)",
       ApgdSolver::Specs(), true, [] { return std::make_unique<ApgdSolver>(); }},
      {"admm-full", "full-system ADMM with adaptive beta (004:28, 004:43; 000 FADMM)",
       AdmmFullSolver::Specs(), false, [] { return std::make_unique<AdmmFullSolver>(); }},
      {"subadmm", "subsystem ADMM with body splitting, tree factorization, adaptive beta (004 §VI)",
       SubAdmmSolver::Specs(), false, [] { return std::make_unique<SubAdmmSolver>(); }},
      {"subadmm-nobody", "subsystem ADMM without body splitting (000 eqs. 15-23; 004 Table III No Body)",
       SubAdmmNobodySolver::Specs(), false, [] { return std::make_unique<SubAdmmNobodySolver>(); }},
      {"canal", "cascaded Newton augmented Lagrangian, exact line search, beta schedule (004 §V, Alg. 1)",
       CanalSolver::Specs(), false, [] { return std::make_unique<CanalSolver>(); }},
      {"al-trdogleg", "AL with semismooth Newton on 004:19, trust-region dogleg (004 §VII-D1 ablation)",
       AlSemismoothSolver::Specs(), false,
       [] { return std::make_unique<AlSemismoothSolver>(AlSemismoothSolver::Globalization::kTrustRegionDogleg); }},
      {"al-dampedsn", "AL with damped semismooth Newton on 004:19, Armijo backtracking (004 §VII-D1 ablation)",
       AlSemismoothSolver::Specs(), false,
       [] { return std::make_unique<AlSemismoothSolver>(AlSemismoothSolver::Globalization::kDampedNewton); }},
      {"nnewton", "nonsmooth Newton on Fischer-Burmeister (normal) and natural-map (friction) functions, sparse LU, Armijo line search (000 §IV-B4)",
       NNewtonSolver::Specs(), false, [] { return std::make_unique<NNewtonSolver>(); }},
      {"cond", "contact nodalization and diagonalization: V-FPI with virtual nodes, strict/proximal operator, Frobenius/BB step, Chebyshev acceleration (002 Alg. 1-3)",
       cond::CondSolver::Specs(), false, [] { return std::make_unique<cond::CondSolver>(); }},
      {"subadmm-rigid-cpu", "CPU path of the GPU SubADMM: one rigid body per subsystem, the kernels' per-element functions in their order (001 §II)",
       gpu::RigidSpecs(), false, [] { return std::make_unique<gpu::RigidSubAdmmCpu>(); }},
#ifdef NCPBENCH_HAVE_CUDA
      {"subadmm-gpu", "GPU SubADMM, CUDA kernels, one rigid body per subsystem (001 §II)",
       gpu::RigidSpecs(), false, [] { return std::make_unique<gpu::SubAdmmGpu>(); }},
#endif
  };
#ifdef NCP_WITH_SICONOS
  for (SolverEntry& e : siconos::Entries()) entries.push_back(std::move(e));
#endif
  return entries;
}

}  // namespace

const std::vector<SolverEntry>& Solvers() {
  static const std::vector<SolverEntry> entries = MakeEntries();
  return entries;
}

const SolverEntry& FindSolver(const std::string& name) {
  std::string known;
  for (const SolverEntry& e : Solvers()) {
    if (e.name == name) return e;
    known += (known.empty() ? "" : ", ") + e.name;
  }
  throw Error(fmt::format("solver '{}': unknown (known: {})", name, known));
}

}  // namespace ncp
