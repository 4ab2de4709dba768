#include "solvers/siconos/siconos_method.h"

#include <Friction_cst.h>
#include <SolverOptions.h>

#include <fmt/format.h>

#include "common/error.h"

namespace ncp::siconos {

const std::vector<Method>& Methods() {
  static const std::vector<Method> m = {
      {"nsgs", SICONOS_FRICTION_3D_NSGS, Form::kLocal, 1,
       "Siconos fc3d NSGS: nonsmooth Gauss-Seidel on (W, q), one-contact projection local solver"},
      {"prox", SICONOS_FRICTION_3D_PROX, Form::kLocal, 10,
       "Siconos fc3d PROX: proximal point iterations with an inner nonsmooth Newton solver"},
      {"nsn-ac", SICONOS_FRICTION_3D_NSN_AC, Form::kLocal, 1,
       "Siconos fc3d NSN-AC: nonsmooth Newton on the Alart-Curnier function, line search"},
      {"nsn-fb", SICONOS_FRICTION_3D_NSN_FB, Form::kLocal, 1,
       "Siconos fc3d NSN-FB: nonsmooth Newton on the Fischer-Burmeister function"},
      {"vi-eg", SICONOS_FRICTION_3D_VI_EG, Form::kLocal, 10,
       "Siconos fc3d VI-EG: extra-gradient on the variational inequality, self-adaptive step"},
      {"admm", SICONOS_FRICTION_3D_ADMM, Form::kLocal, 100,
       "Siconos fc3d ADMM: alternating direction method of multipliers, adaptive rho"},
      {"g-nsgs-wr", SICONOS_FRICTION_3D_NSGS, Form::kWr, 1,
       "Siconos gfc3d NSGS-WR: Siconos' reformulation of (M, H, f, w) to (W, q), then fc3d NSGS"},
      {"g-prox-wr", SICONOS_FRICTION_3D_PROX, Form::kWr, 10,
       "Siconos gfc3d PROX-WR: Siconos' reformulation of (M, H, f, w) to (W, q), then fc3d PROX"},
      {"g-nsn-ac", SICONOS_GLOBAL_FRICTION_3D_NSN_AC, Form::kGlobal, 1,
       "Siconos gfc3d NSN-AC: nonsmooth Newton (Alart-Curnier) on the global form"},
      {"g-admm", SICONOS_GLOBAL_FRICTION_3D_ADMM, Form::kGlobal, 100,
       "Siconos gfc3d ADMM: ADMM on the global form (M, H, f, w), adaptive rho"},
  };
  return m;
}

namespace {

SettingsTable<SiconosSettings> MakeTable(const Method& m) {
  using S = SiconosSettings;
  SettingsTable<S> t(S{.chunk = m.default_chunk});
  t.Int(&S::chunk, "chunk", {.min = 1, .max = 1e6},
        "Siconos iterations per harness iteration (warm-started from the previous reaction)")
      .Int(&S::max_iter, "max_iter", {.min = 1, .max = 1e9},
           "cap on the total number of Siconos iterations (max-iterations when reached)")
      .Real(&S::tol, "tol", {.min = 0, .max = 1, .min_open = true},
            "Siconos' own stopping tolerance inside a chunk (the harness applies its own)");
  if (m.id == SICONOS_FRICTION_3D_NSGS)
    t.Real(&S::omega, "omega", {.min = 0, .max = 2, .min_open = true, .max_open = true},
           "over-relaxation of the sweep (1: none)")
        .Choice<kShuffles>(&S::shuffle, "shuffle",
                           "contact order: fixed, shuffled once, or reshuffled every sweep");
  if (m.id == SICONOS_FRICTION_3D_PROX)
    t.Int(&S::max_rows, "max_rows", {.min = 3, .max = 1e9},
          "larger problems are not-applicable: PROX's inner solver needs GBs beyond ~1000 rows");
  if (m.id == SICONOS_FRICTION_3D_ADMM || m.id == SICONOS_GLOBAL_FRICTION_3D_ADMM)
    t.Choice<kAccelerations>(&S::acceleration, "acceleration",
                             "ADMM acceleration (Siconos default: with restart)");
  return t;
}

}  // namespace

const SettingsTable<SiconosSettings>& Table(const Method& m) {
  static const std::vector<SettingsTable<SiconosSettings>> tables = [] {
    std::vector<SettingsTable<SiconosSettings>> out;
    for (const Method& x : Methods()) out.push_back(MakeTable(x));
    return out;
  }();
  for (std::size_t i = 0; i < Methods().size(); ++i)
    if (Methods()[i].name == m.name) return tables[i];
  throw Error("siconos: unknown method " + m.name);
}

namespace {

int ShuffleParam(Shuffle c) {
  switch (c) {
    case Shuffle::kNo:
      return SICONOS_FRICTION_3D_NSGS_SHUFFLE_FALSE;
    case Shuffle::kOnce:
      return SICONOS_FRICTION_3D_NSGS_SHUFFLE_TRUE;
    case Shuffle::kEachSweep:
      return SICONOS_FRICTION_3D_NSGS_SHUFFLE_TRUE_EACH_LOOP;
  }
  return SICONOS_FRICTION_3D_NSGS_SHUFFLE_FALSE;
}

int AccelerationParam(Acceleration c) {
  switch (c) {
    case Acceleration::kNone:
      return SICONOS_FRICTION_3D_ADMM_NO_ACCELERATION;
    case Acceleration::kNesterov:
      return SICONOS_FRICTION_3D_ADMM_ACCELERATION;
    case Acceleration::kNesterovRestart:
      return SICONOS_FRICTION_3D_ADMM_ACCELERATION_AND_RESTART;
  }
  return SICONOS_FRICTION_3D_ADMM_ACCELERATION_AND_RESTART;
}

}  // namespace

void ApplySettings(const Method& m, const SiconosSettings& s, SolverOptions* o) {
  o->dparam[SICONOS_DPARAM_TOL] = s.tol;
  if (m.id == SICONOS_FRICTION_3D_NSGS) {
    const double omega = s.omega;
    o->iparam[SICONOS_FRICTION_3D_NSGS_RELAXATION] =
        omega != 1.0 ? SICONOS_FRICTION_3D_NSGS_RELAXATION_TRUE
                     : SICONOS_FRICTION_3D_NSGS_RELAXATION_FALSE;
    o->dparam[SICONOS_FRICTION_3D_NSGS_RELAXATION_VALUE] = omega;
    o->iparam[SICONOS_FRICTION_3D_NSGS_SHUFFLE] = ShuffleParam(s.shuffle);
  }
  if (m.id == SICONOS_FRICTION_3D_ADMM || m.id == SICONOS_GLOBAL_FRICTION_3D_ADMM)
    o->iparam[SICONOS_FRICTION_3D_ADMM_IPARAM_ACCELERATION] = AccelerationParam(s.acceleration);
}

std::string Unsupported(const std::vector<Constraint>& constraints) {
  for (std::size_t i = 0; i < constraints.size(); ++i)
    if (constraints[i].type != ConstraintType::kContact)
      return fmt::format("constraint {} is {}: Siconos' fc3d/gfc3d take 3-row contacts only", i,
                         ToString(constraints[i].type));
  return "";
}

}  // namespace ncp::siconos
