// Shared by the scene tests: a scene's first-step problem from its parameters, and row counts.
#pragma once

#include <algorithm>
#include <string>

#include "problems/scenarios/rigid/scene.h"
#include "solvers/settings.h"

namespace ncp::testing {

inline ContactProblem FirstStep(const std::string& scene, const std::string& params) {
  const SceneEntry& e = *FindScene(scene);
  Scene sc = e.build(SceneParams(e, ParseKeyValues(params)), 1);
  return sc.stepped().BuildProblem();
}

inline int CountConstraints(const ContactProblem& p, ConstraintType t) {
  return static_cast<int>(std::count_if(p.constraints.begin(), p.constraints.end(),
                                        [&](const Constraint& c) { return c.type == t; }));
}

}  // namespace ncp::testing
