// bolt_nut (004 §VII-A1): single-step cases of an M48×5 steel nut on a fixed bolt. The bolt is the
// analytic thread SDF, the nut a triangle mesh of the matching internal thread; contacts come
// from Frank–Wolfe on every thread triangle within a margin, clustered by k-means to at most 120.
// Cases: `configurations` nut placements along the thread (each pushed onto the bolt's upper
// flanks by a small penetration) × `wrenches` random external wrenches, dt = 1/240 s.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "problems/model/contact_problem.h"
#include "problems/scenarios/params.h"

namespace ncp {

const std::vector<ParamSpec>& BoltNutParams();
std::vector<ContactProblem> GenerateBoltNut(const std::map<std::string, std::string>& params,
                                            int count, std::uint64_t seed);

}  // namespace ncp
