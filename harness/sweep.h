// Scalability sweep: one scene generated at several values of a size parameter, every solver run
// on each, into one results file (rows carry DOFs, bodies, contacts and times). Generated datasets
// are kept next to the results, so an interrupted sweep resumes without regenerating or rerunning
// what it already has.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "harness/runner.h"
#include "problems/scenarios/rigid/scene.h"

namespace ncp {

struct SweepOptions {
  std::string scene;                // a scene (`list scenarios`) or the `random` scenario
  std::string param;                // the size parameter, e.g. cubes, robots, contacts
  std::vector<std::string> values;  // as given on the command line
  ParamMap params;                  // the other parameters
  int count = 3;                    // problems per size (scenes: recorded frames)
  std::uint64_t seed = 1;
  std::string out;       // results file
  std::string data_dir;  // generated datasets; empty: <out without .h5>.datasets
  bool quiet = false;
};

// Checks every value before anything is generated; throws ncp::Error "field = value: rule".
void CheckSweep(const SweepOptions& s);

// Runs the sweep; returns the number of jobs run now (0 when everything was already done).
int RunSweep(const SweepOptions& s, const std::vector<SolverJob>& jobs, RunOptions opt);

}  // namespace ncp
