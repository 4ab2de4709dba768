// The records of a reproduction, in the results schema (harness/run_record.h), written next to
// its Markdown as <out_dir>/<id>.h5 and read back for its report. A row's dataset is
// "<id>/<part>" (part: the scene, size or variant of the protocol the run belongs to) and its job
// key names protocol, part, problem, solver, settings, budget, warm start and threads, so that
// two runs of the same id pair up row by row in `ncpbench compare`. Runs of the same job (rounds
// for the best time) become repeats. Figures that belong to no single run are observations
// (/observations: part, key, value or text); a run's own extra figures go in its row
// (RunRecord::observations, "key=value;...").
#pragma once

#include <map>
#include <string>
#include <vector>

#include "harness/reproduce/protocol.h"
#include "harness/run_record.h"

namespace ncp {

// The root attribute of a reproduction's results file that names its protocol.
inline constexpr char kReproduceIdAttr[] = "reproduce";

// The machine a measurement is taken as the same on: CPU model and the threads the process
// could use.
struct MeasuringHost {
  std::string revision, cpu, threads;
};
// How `path` holds protocol `id`'s finished measurement by the code at host.revision with
// options `o` on the same CPU and thread count — "finished <date> by revision <rev> on this CPU
// with the same threads, cases, iteration cap and traces" — or "" when it does not: missing,
// unreadable, another protocol, revision, option, CPU or thread count, or a revision that does
// not pin the code (one with local changes, "-dirty", or "unknown"). What `reproduce all` keeps
// rather than measuring again (with the report written after it).
std::string SameMeasurement(const std::string& path, const std::string& id,
                            const ReproduceOptions& o, const MeasuringHost& host);
// SameMeasurement of <out_dir>/<id>.h5 when <out_dir>/<id>.md was written after it (a run ended
// between the two leaves the last run's report beside a new file), else "".
std::string KeptReproduction(const std::string& out_dir, const std::string& id,
                             const ReproduceOptions& o, const MeasuringHost& host);

class ProtocolRecords {
 public:
  explicit ProtocolRecords(std::string id, bool traces = true)
      : id_(std::move(id)), traces_(traces) {}

  // Reads a results file written by Write; throws ncp::Error naming the file when it is not a
  // reproduction's (no `reproduce` attribute) or cannot be read.
  static ProtocolRecords Read(const std::string& path);

  // Adds `r` under `part` (non-empty, e.g. "stir" or "8robots-1thread"); sets its dataset, job
  // key and repeat (the number of earlier rows of the same job). `problem` overrides r.problem
  // when the run's problem has no name of its own. Without traces, drops r.trace.
  void Add(RunRecord r, const std::string& part, const std::string& problem = "");

  // An observation; the same part and key again replaces it.
  void Observe(const std::string& part, const std::string& key, double value);
  void Note(const std::string& part, const std::string& key, const std::string& text);

  const std::vector<RunRecord>& rows() const { return rows_; }
  const std::string& id() const { return id_; }
  const std::vector<Observation>& observations() const { return observations_; }

  // The rows of `part` in the order they were added (the order is kept through the file).
  std::vector<const RunRecord*> Part(const std::string& part) const;
  // The rows of `part` run by `solver`.
  std::vector<const RunRecord*> Part(const std::string& part, const std::string& solver) const;
  // Whether an observation exists; its value; its text. Value and Text throw ncp::Error naming
  // the protocol, part and key when it is missing (a report of another version's file).
  bool Has(const std::string& part, const std::string& key) const;
  double Value(const std::string& part, const std::string& key) const;
  const std::string& Text(const std::string& part, const std::string& key) const;
  // Value, or `missing` when there is none.
  double ValueOr(const std::string& part, const std::string& key, double missing) const;

  // The options the protocol measured under (cases, max_iters, traces): kept in the file.
  const ReproduceOptions& options() const { return options_; }
  void set_options(const ReproduceOptions& o);

  // Every row and observation written to `path` atomically, with the host's run attributes,
  // the options and `attrs`.
  void Write(const std::string& path, const std::map<std::string, std::string>& attrs) const;

 private:
  const Observation* Find(const std::string& part, const std::string& key) const;
  Observation& Slot(const std::string& part, const std::string& key);  // found or added

  std::string id_;
  bool traces_;
  ReproduceOptions options_;
  std::vector<RunRecord> rows_;
  std::vector<Observation> observations_;
  std::map<std::string, int> repeats_;  // job key without the repeat → rows so far
};

// Adds `r` to opt.records when the protocol is recording; a no-op otherwise.
void Record(const ReproduceOptions& opt, RunRecord r, const std::string& part,
            const std::string& problem = "");

// Adds "key=value" (17 significant digits: read back exactly) to a run's observations.
void ObserveRun(RunRecord& r, const std::string& key, double value);
// A run's observation `key`, or `missing`.
double RunObservation(const RunRecord& r, const std::string& key, double missing = NAN);

}  // namespace ncp
