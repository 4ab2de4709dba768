// Shared builders of the deformable (FEM) scenes.
#pragma once

#include <random>
#include <string>

#include "problems/scenarios/rigid/scene.h"

namespace ncp {

// The FEM scenes' step: dt 1/60 s, contacts within 2 mm, 0.1 mm resting slop.
physics::StepOptions FemStepOptions();

// A scene with an empty DeformableSystem (step options `opt`) and its parameters recorded.
Scene NewDeformableScene(const std::map<std::string, double>& params,
                         physics::StepOptions opt = FemStepOptions());

// Cells along a side: round(base · size), at least `min_cells` (the spec keeps size in (0, 64]).
int ScaledCells(const std::map<std::string, double>& p, int base, int min_cells);

// Element damping from `damping` (β [s] of D = β Σ R K_e Rᵀ) and `geometric_damping` (0 or 1:
// add the projected geometric stiffness, 002 §II-A).
physics::FemDamping Damping(const std::map<std::string, double>& p);

// Uniform draw from [key_min, key_max]; throws unless min ≤ max.
double DrawParam(const std::map<std::string, double>& p, const std::string& scene,
                 const std::string& key, std::mt19937_64& rng);

// Young's modulus, Poisson ratio and then μ (into `mu`) drawn from their ranges in that order,
// the density as given.
physics::FemMaterial DrawMaterial(const std::map<std::string, double>& p, const std::string& scene,
                                  std::mt19937_64& rng, double& mu);

}  // namespace ncp
