#include "harness/reproduce/protocol_records.h"

#include <fmt/format.h>

#include "common/error.h"
#include "harness/results_store.h"
#include "harness/system_info.h"

namespace ncp {

void ProtocolRecords::Add(RunRecord r, const std::string& part, const std::string& problem) {
  if (part.empty()) throw Error(fmt::format("{}: a recorded run needs a part name", id_));
  if (!problem.empty()) r.problem = problem;
  if (r.problem.empty()) r.problem = "case";
  r.dataset = id_ + "/" + part;
  const std::string job =
      fmt::format("{}|{}|{}|{}|{}|warm={}|threads={}", r.dataset, r.problem, r.solver, r.settings,
                  r.budget, r.warm_start, r.threads_given);
  r.repeat = repeats_[job]++;
  r.job_key = fmt::format("{}|repeat={}", job, r.repeat);
  if (!traces_) r.trace.clear();
  rows_.push_back(std::move(r));
}

void ProtocolRecords::Write(const std::string& path,
                            const std::map<std::string, std::string>& attrs) const {
  std::map<std::string, std::string> all = HostRunAttrs(NCPBENCH_SOURCE_DIR);
  all["reproduce"] = id_;
  for (const auto& [k, v] : attrs) all[k] = v;
  WriteResults(path, rows_, all);
}

void Record(const ReproduceOptions& opt, RunRecord r, const std::string& part,
            const std::string& problem) {
  if (opt.records) opt.records->Add(std::move(r), part, problem);
}

}  // namespace ncp
