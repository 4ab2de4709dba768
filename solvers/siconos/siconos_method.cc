#include "solvers/siconos/siconos_method.h"

#include <Friction_cst.h>
#include <SolverOptions.h>

#include <fmt/format.h>

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

std::vector<SettingSpec> Specs(const Method& m) {
  std::vector<SettingSpec> s = {
      {.name = "chunk", .default_value = static_cast<double>(m.default_chunk), .min = 1, .max = 1e6,
       .integer = true,
       .help = "Siconos iterations per harness iteration (warm-started from the previous "
               "reaction)"},
      {.name = "max_iter", .default_value = 1e6, .min = 1, .max = 1e9, .integer = true,
       .help = "cap on the total number of Siconos iterations (max-iterations when reached)"},
      {.name = "tol", .default_value = 1e-14, .min = 0, .max = 1, .min_open = true,
       .help = "Siconos' own stopping tolerance inside a chunk (the harness applies its own)"},
  };
  if (m.id == SICONOS_FRICTION_3D_NSGS) {
    s.push_back({.name = "omega", .default_value = 1.0, .min = 0, .max = 2, .min_open = true,
                 .max_open = true, .help = "over-relaxation of the sweep (1: none)"});
    s.push_back(ChoiceSpec<kShuffles>(
        "shuffle", Shuffle::kNo, "contact order: fixed, shuffled once, or reshuffled every sweep"));
  }
  if (m.id == SICONOS_FRICTION_3D_PROX)
    // Measured with Siconos 4.4 on a 1458-row sliding_cubes frame: one chunk of PROX took 2.5 GB
    // (local) and 10 GB (-wr) in its inner Newton solver; larger problems are refused unless asked.
    s.push_back({.name = "max_rows", .default_value = 1200, .min = 3, .max = 1e9, .integer = true,
                 .help = "larger problems are not-applicable: PROX's inner solver needs GBs beyond "
                         "~1000 rows"});
  if (m.id == SICONOS_FRICTION_3D_ADMM || m.id == SICONOS_GLOBAL_FRICTION_3D_ADMM)
    s.push_back(ChoiceSpec<kAccelerations>("acceleration", Acceleration::kNesterovRestart,
                                           "ADMM acceleration (Siconos default: with restart)"));
  return s;
}

namespace {

int ShuffleParam(Shuffle c) {
  switch (c) {
    case Shuffle::kNo: return SICONOS_FRICTION_3D_NSGS_SHUFFLE_FALSE;
    case Shuffle::kOnce: return SICONOS_FRICTION_3D_NSGS_SHUFFLE_TRUE;
    case Shuffle::kEachSweep: return SICONOS_FRICTION_3D_NSGS_SHUFFLE_TRUE_EACH_LOOP;
  }
  return SICONOS_FRICTION_3D_NSGS_SHUFFLE_FALSE;
}

int AccelerationParam(Acceleration c) {
  switch (c) {
    case Acceleration::kNone: return SICONOS_FRICTION_3D_ADMM_NO_ACCELERATION;
    case Acceleration::kNesterov: return SICONOS_FRICTION_3D_ADMM_ACCELERATION;
    case Acceleration::kNesterovRestart: return SICONOS_FRICTION_3D_ADMM_ACCELERATION_AND_RESTART;
  }
  return SICONOS_FRICTION_3D_ADMM_ACCELERATION_AND_RESTART;
}

}  // namespace

void ApplySettings(const Method& m, const Settings& s, SolverOptions* o) {
  o->dparam[SICONOS_DPARAM_TOL] = s.Get("tol");
  if (m.id == SICONOS_FRICTION_3D_NSGS) {
    const double omega = s.Get("omega");
    o->iparam[SICONOS_FRICTION_3D_NSGS_RELAXATION] =
        omega != 1.0 ? SICONOS_FRICTION_3D_NSGS_RELAXATION_TRUE : SICONOS_FRICTION_3D_NSGS_RELAXATION_FALSE;
    o->dparam[SICONOS_FRICTION_3D_NSGS_RELAXATION_VALUE] = omega;
    o->iparam[SICONOS_FRICTION_3D_NSGS_SHUFFLE] = ShuffleParam(s.Choice<Shuffle>("shuffle"));
  }
  if (m.id == SICONOS_FRICTION_3D_ADMM || m.id == SICONOS_GLOBAL_FRICTION_3D_ADMM)
    o->iparam[SICONOS_FRICTION_3D_ADMM_IPARAM_ACCELERATION] =
        AccelerationParam(s.Choice<Acceleration>("acceleration"));
}

std::string Unsupported(const std::vector<Constraint>& constraints) {
  for (std::size_t i = 0; i < constraints.size(); ++i)
    if (constraints[i].type != ConstraintType::kContact)
      return fmt::format("constraint {} is {}: Siconos' fc3d/gfc3d take 3-row contacts only",
                         i, ToString(constraints[i].type));
  return "";
}

}  // namespace ncp::siconos
