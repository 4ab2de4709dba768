// Scenario generators from Python: the manufactured `random` problems and every scene, with the
// parameters `ncpbench generate -p` takes.
#include <fmt/format.h>
#include <pybind11/stl.h>

#include "common/error.h"
#include "harness/simulate.h"
#include "problems/scenarios/rigid/scene.h"
#include "problems/scenarios/scenarios.h"
#include "python/bindings.h"
#include "python/py_arrays.h"

namespace ncp::py {
namespace {

// What `ncpbench generate` does (GenerateProblems), with the count checked as the CLI checks it.
std::vector<ContactProblem> Generate(const std::string& name,
                                     const std::map<std::string, std::string>& params, int count,
                                     std::uint64_t seed) {
  CheckProblemCount("n", count);
  return GenerateProblems(name, params, count, seed, true, true);
}

}  // namespace

void BindGenerate(pyb::module_& m) {
  m.def(
      "scenarios",
      [] {
        std::vector<std::pair<std::string, std::string>> out;
        for (const ScenarioEntry& s : Scenarios()) out.emplace_back(s.name, s.description);
        for (const SceneEntry& s : Scenes()) {
          bool listed = false;
          for (const auto& [name, d] : out) listed |= name == s.name;
          if (!listed) out.emplace_back(s.name, s.description);
        }
        return out;
      },
      "(name, description) of every scenario generator (`ncpbench list scenarios`)");

  m.def(
      "generate",
      [](const std::string& scenario, int n, std::uint64_t seed, pyb::dict params) {
        std::map<std::string, std::string> kv;
        for (auto [k, v] : params) {
          // Python's True/False as the command line spells them.
          kv[pyb::str(k)] = pyb::isinstance<pyb::bool_>(v) ? (v.cast<bool>() ? "1" : "0")
                                                           : std::string(pyb::str(v));
        }
        std::vector<ContactProblem> ps;
        {
          pyb::gil_scoped_release nogil;
          ps = Generate(scenario, kv, n, seed);
        }
        std::vector<std::shared_ptr<ContactProblem>> out;
        for (ContactProblem& p : ps) out.push_back(std::make_shared<ContactProblem>(std::move(p)));
        return out;
      },
      pyb::arg("scenario"), pyb::arg("n") = 1, pyb::arg("seed") = 1,
      pyb::arg("params") = pyb::dict(),
      "Problems of a scenario, as `ncpbench generate <scenario> -n N --seed S -p k=v,...`; "
      "e.g. generate('random', 2, params={'contacts': 20, 'bodies': 30}).");
}

}  // namespace ncp::py
