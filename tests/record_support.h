// A results row as the report, comparison and store tests build them: dataset "cubes", settings
// "omega=1", no warm start, the job key "<solver>/<problem>"; each test sets what it checks.
#pragma once

#include <string>

#include "harness/run_record.h"

namespace ncp::testing {

inline RunRecord MadeRow(const std::string& solver, const std::string& problem, double res004,
                         Outcome status, const std::string& budget = "iters=100") {
  RunRecord r;
  r.job_key = solver + "/" + problem;
  r.dataset = "cubes";
  r.problem = problem;
  r.solver = solver;
  r.settings = "omega=1";
  r.budget = budget;
  r.warm_start = "none";
  r.status = status;
  r.final_metrics[Metric::kRes004] = res004;
  return r;
}

}  // namespace ncp::testing
