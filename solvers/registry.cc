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
#include "solvers/common/lifted_solver.h"
#include "solvers/cond/cond.h"
#include "solvers/local_newton/local_newton.h"
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

const char* Describe(LocalUse u) {
  switch (u) {
    case LocalUse::kAsStored: return "local (W, q): W as stored";
    case LocalUse::kLifted: return "local (W, q): lifted form of W's symmetric part";
    case LocalUse::kNone: return "global form only";
  }
  return "global form only";
}

namespace {

// A global-form solver that also runs on local (W, q) problems through their lifted form; global
// problems reach it unchanged.
template <class S, class... Args>
std::unique_ptr<Solver> Lifted(Args... args) {
  return std::make_unique<LiftedSolver>(std::make_unique<S>(args...));
}

std::vector<SolverEntry> MakeEntries() {
  std::vector<SolverEntry> entries = {
      {"pgs", "projected Gauss-Seidel on the dual, strict operator, SOR / NNCG options (004 §VII, 000 §IV-B1)",
       PgsSettings::Specs(), LocalUse::kAsStored, [] { return std::make_unique<PgsSolver>(); }},
      {"pj", "projected Jacobi on the dual, parallel (000 §IV-B2)", PjSolver::Specs(), LocalUse::kAsStored,
       [] { return std::make_unique<PjSolver>(); }},
      {"apgd", "accelerated projected gradient descent, adaptive step and restart (002 §V-C1)",
       ApgdSolver::Specs(), LocalUse::kAsStored, [] { return std::make_unique<ApgdSolver>(); }},
      {"admm-full", "full-system ADMM with adaptive beta (004:28, 004:43; 000 FADMM)",
       AdmmFullSolver::Specs(), LocalUse::kLifted, [] { return Lifted<AdmmFullSolver>(); }},
      {"subadmm", "subsystem ADMM with body splitting, tree factorization, adaptive beta (004 §VI)",
       SubAdmmSolver::Specs(), LocalUse::kNone, [] { return std::make_unique<SubAdmmSolver>(); }},
      {"subadmm-nobody", "subsystem ADMM without body splitting (000 eqs. 15-23; 004 Table III No Body)",
       SubAdmmNobodySolver::Specs(), LocalUse::kNone, [] { return std::make_unique<SubAdmmNobodySolver>(); }},
      {"canal", "cascaded Newton augmented Lagrangian, exact line search, beta schedule (004 §V, Alg. 1)",
       CanalSolver::Specs(), LocalUse::kLifted, [] { return Lifted<CanalSolver>(); }},
      {"al-trdogleg", "AL with semismooth Newton on 004:19, trust-region dogleg (004 §VII-D1 ablation)",
       AlSemismoothSolver::Specs(), LocalUse::kLifted,
       [] { return Lifted<AlSemismoothSolver>(AlSemismoothSolver::Globalization::kTrustRegionDogleg); }},
      {"al-dampedsn", "AL with damped semismooth Newton on 004:19, Armijo backtracking (004 §VII-D1 ablation)",
       AlSemismoothSolver::Specs(), LocalUse::kLifted,
       [] { return Lifted<AlSemismoothSolver>(AlSemismoothSolver::Globalization::kDampedNewton); }},
      {"nnewton", "nonsmooth Newton on Fischer-Burmeister (normal) and natural-map (friction) functions, sparse LU, Armijo line search (000 §IV-B4)",
       NNewtonSolver::Specs(), LocalUse::kLifted, [] { return Lifted<NNewtonSolver>(); }},
      {"local-newton", "Alart–Curnier nonsmooth Newton with line search and proximal-point fallback",
       LocalNewtonSolver::Specs(), LocalUse::kAsStored,
       [] { return std::make_unique<LocalNewtonSolver>(); }},
      {"cond", "contact nodalization and diagonalization: V-FPI with virtual nodes, strict/proximal operator, Frobenius/BB step, Chebyshev acceleration (002 Alg. 1-3)",
       cond::CondSolver::Specs(), LocalUse::kLifted, [] { return Lifted<cond::CondSolver>(); }},
      {"subadmm-rigid-cpu", "CPU path of the GPU SubADMM: one rigid body per subsystem, the kernels' per-element functions in their order (001 §II)",
       gpu::RigidSpecs(), LocalUse::kNone, [] { return std::make_unique<gpu::RigidSubAdmmCpu>(); }},
#ifdef NCPBENCH_HAVE_CUDA
      {"subadmm-gpu", "GPU SubADMM, CUDA kernels, one rigid body per subsystem (001 §II)",
       gpu::RigidSpecs(), LocalUse::kNone, [] { return std::make_unique<gpu::SubAdmmGpu>(); }},
#endif
  };
#ifdef NCP_WITH_SICONOS
  for (SolverEntry& e : siconos::Entries()) entries.push_back(std::move(e));
#endif
  return entries;
}

// Built on first use, so that a static initializer elsewhere may register into it.
std::vector<SolverEntry>& Registry() {
  static std::vector<SolverEntry> entries = MakeEntries();
  return entries;
}

}  // namespace

const std::vector<SolverEntry>& Solvers() { return Registry(); }

void RegisterSolver(SolverEntry entry) {
  if (entry.name.empty()) throw Error("solver name = '': must not be empty");
  if (!entry.make)
    throw Error(fmt::format("solver '{}': make = null: must be a factory", entry.name));
  for (const SolverEntry& e : Registry())
    if (e.name == entry.name)
      throw Error(
          fmt::format("solver '{}': already registered (names must be unique)", entry.name));
  Registry().push_back(std::move(entry));
}

namespace {
std::vector<std::string>& LoadErrors() {
  static std::vector<std::string> errors;
  return errors;
}
}  // namespace

bool RegisterSolverAtLoad(SolverEntry entry) noexcept {
  try {
    RegisterSolver(std::move(entry));
    return true;
  } catch (const std::exception& e) {
    LoadErrors().push_back(e.what());
    return false;
  }
}

std::string TakeRegistrationError() {
  std::string first = LoadErrors().empty() ? "" : LoadErrors().front();
  LoadErrors().clear();
  return first;
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
