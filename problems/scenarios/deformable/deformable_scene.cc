#include "problems/scenarios/deformable/deformable_scene.h"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>

#include "common/error.h"

namespace ncp {

physics::StepOptions FemStepOptions() {
  physics::StepOptions so;
  so.dt = 1.0 / 60.0;
  so.margin = 0.002;
  so.slop = 1e-4;
  return so;
}

Scene NewDeformableScene(const std::map<std::string, double>& params, physics::StepOptions opt) {
  Scene sc;
  sc.params = params;
  sc.deformable = std::make_unique<physics::DeformableSystem>(opt);
  return sc;
}

int ScaledCells(const std::map<std::string, double>& p, int base, int min_cells) {
  const double size = p.at("size");
  return std::max(min_cells, static_cast<int>(std::lround(base * size)));
}

physics::FemDamping Damping(const std::map<std::string, double>& p) {
  const double g = p.at("geometric_damping");
  return physics::FemDamping{0.0, p.at("damping"), g == 1.0};
}

double DrawParam(const std::map<std::string, double>& p, const std::string& scene,
                 const std::string& key, std::mt19937_64& rng) {
  const double lo = p.at(key + "_min"), hi = p.at(key + "_max");
  if (!(lo <= hi))
    throw Error(fmt::format("{}.{}_max = {:g}: must be >= {}_min = {:g}", scene, key, hi, key, lo));
  return std::uniform_real_distribution<double>(lo, std::nextafter(hi, hi + 1))(rng);
}

physics::FemMaterial DrawMaterial(const std::map<std::string, double>& p, const std::string& scene,
                                  std::mt19937_64& rng, double& mu) {
  physics::FemMaterial mat;
  mat.youngs = DrawParam(p, scene, "youngs", rng);
  mat.poisson = DrawParam(p, scene, "poisson", rng);
  mu = DrawParam(p, scene, "mu", rng);
  mat.density = p.at("density");
  return mat;
}

}  // namespace ncp
