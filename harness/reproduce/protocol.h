// Paper reproduction protocols: each documents the paper's setting and runs it on our scenes and
// solvers, printing our numbers next to the published ones (stored as CSV in results/papers/).
// A protocol whose scenes or solvers do not exist yet says which capability is missing.
//
// A protocol is two functions. `measure` runs the paper's setting and records every solver run,
// in the results schema, and every other figure it measured (a scene's outcome, a frame's size)
// as an observation (harness/reproduce/protocol_records.h). `report` renders the Markdown (ours
// vs paper) and the figures from those records alone: `reproduce` writes them to <id>.h5, reads
// that file back and reports from what it read, so a report never shows a figure the results
// file does not hold, and `reproduce ID --from FILE` renders an earlier run's report again.
#pragma once

#include <functional>
#include <string>
#include <vector>

namespace ncp {

class ClaimLedger;
class ProtocolRecords;

struct ReproduceOptions {
  std::string out_dir = "results/reproduce";  // Markdown tables, figures and <id>.h5 go here
  int cases = 0;                              // 0: the protocol's default
  bool quiet = false;
  bool traces = true;  // keep per-iteration traces in <id>.h5 (off: small files for baselines)
  // > 0: every measured solver run capped at this many iterations and without its wall-time
  // limit, so that statuses and residuals do not depend on the machine's speed (quick checks,
  // `make regress`); the simulations that record frames or step a task keep their budgets.
  int max_iters = 0;
  // Where the protocol's rows go while it measures; null: nowhere (a protocol's measuring code
  // called on its own, e.g. by a test).
  ProtocolRecords* records = nullptr;
};

// Published numbers: rows "metric,solver1,solver2,..." of results/papers/<id>.csv ('#' comments).
// A paper whose claims are qualitative has no file: its table is empty, and Get throws naming
// the missing file.
struct PublishedTable {
  std::string path;
  std::vector<std::string> columns;
  std::vector<std::pair<std::string, std::vector<double>>> rows;
  double Get(const std::string& metric, const std::string& column) const;
};
PublishedTable ReadPublished(const std::string& id);
// The same from a file named by its path (a missing file: an empty table).
PublishedTable ReadPublishedFile(const std::string& path);

// What a report is rendered from: the records read back from <id>.h5 (with the options the
// measurement ran under, ProtocolRecords::options()), the paper's numbers, the folder its
// figures and CSV files go to,
// and the ledger its claims go to (each claim's row: claims.Row, harness/reproduce/claim_ledger.h).
struct ReportInput {
  const ProtocolRecords& records;
  const PublishedTable& paper;
  std::string out_dir;
  ClaimLedger& claims;
};

struct Protocol {
  std::string id;       // e.g. "004-table2"
  std::string paper;    // the paper whose claims it judges ("": the id's prefix, "004")
  std::string title;    // what the paper reports
  std::string setting;  // scene, sizes, budgets, solvers, metric
  std::string missing;  // non-empty: the capability that must land before it can run
  std::function<void(const ReproduceOptions&, ProtocolRecords&)> measure;
  std::function<std::string(const ReportInput&)> report;  // the Markdown
  // The smallest --cases whose verdicts mean something (the sample the protocol was set up
  // with): a run with fewer, or capped by --max-iters, reports its claims as not assessed.
  int min_cases = 0;
  bool runs() const { return measure && report; }
};

const std::vector<Protocol>& Protocols();
const Protocol& FindProtocol(const std::string& id);  // throws ncp::Error naming the known ids

}  // namespace ncp
