// The rows a reproduction measured, in the results schema (harness/run_record.h), written next
// to its Markdown as <out_dir>/<id>.h5. A row's dataset is "<id>/<part>" (part: the scene, size
// or variant of the protocol the run belongs to) and its job key names protocol, part, problem,
// solver, settings, budget, warm start and threads, so that two runs of the same id pair up row
// by row in `ncpbench compare`. Runs of the same job (rounds for the best time) become repeats.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "harness/reproduce/protocol.h"
#include "harness/run_record.h"

namespace ncp {

class ProtocolRecords {
 public:
  explicit ProtocolRecords(std::string id, bool traces = true)
      : id_(std::move(id)), traces_(traces) {}

  // Adds `r` under `part` (non-empty, e.g. "stir" or "8robots-1thread"); sets its dataset, job
  // key and repeat (the number of earlier rows of the same job). `problem` overrides r.problem
  // when the run's problem has no name of its own. Without traces, drops r.trace.
  void Add(RunRecord r, const std::string& part, const std::string& problem = "");

  const std::vector<RunRecord>& rows() const { return rows_; }
  const std::string& id() const { return id_; }

  // Writes every row to `path` atomically, with the host's run attributes and `attrs`.
  void Write(const std::string& path, const std::map<std::string, std::string>& attrs) const;

 private:
  std::string id_;
  bool traces_;
  std::vector<RunRecord> rows_;
  std::map<std::string, int> repeats_;  // job key without the repeat → rows so far
};

// Adds `r` to opt.records when the protocol is recording; a no-op otherwise.
void Record(const ReproduceOptions& opt, RunRecord r, const std::string& part,
            const std::string& problem = "");

}  // namespace ncp
