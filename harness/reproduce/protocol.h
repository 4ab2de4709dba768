// Paper reproduction protocols: each documents the paper's setting and runs it on our scenes and
// solvers, printing our numbers next to the published ones (stored as CSV in results/papers/).
// A protocol whose scenes or solvers do not exist yet says which capability is missing.
// Every measured run also goes, as a row of the results schema, to <out_dir>/<id>.h5
// (harness/reproduce/protocol_records.h), so that `compare` and the plots read a reproduction.
#pragma once

#include <functional>
#include <string>
#include <vector>

namespace ncp {

class ProtocolRecords;

struct ReproduceOptions {
  std::string out_dir = "results/reproduce";  // Markdown tables and <id>.h5 are written here
  int cases = 0;                               // 0: the protocol's default
  bool quiet = false;
  bool traces = true;  // keep per-iteration traces in <id>.h5 (off: small files for baselines)
  // > 0: every measured solver run capped at this many iterations and without its wall-time
  // limit, so that statuses and residuals do not depend on the machine's speed (quick checks,
  // `make regress`); the simulations that record frames or step a task keep their budgets.
  int max_iters = 0;
  // Where the protocol's rows go; null: nowhere (a protocol run on its own, e.g. by a test).
  ProtocolRecords* records = nullptr;
};

struct Protocol {
  std::string id;       // e.g. "004-table2"
  std::string title;    // what the paper reports
  std::string setting;  // scene, sizes, budgets, solvers, metric
  std::string missing;  // non-empty: the capability that must land before it can run
  // Returns the Markdown report (ours vs paper).
  std::function<std::string(const ReproduceOptions&)> run;
};

const std::vector<Protocol>& Protocols();
const Protocol& FindProtocol(const std::string& id);  // throws ncp::Error naming the known ids

// Published numbers: rows "metric,solver1,solver2,..." of results/papers/<id>.csv ('#' comments).
struct PublishedTable {
  std::vector<std::string> columns;
  std::vector<std::pair<std::string, std::vector<double>>> rows;
  double Get(const std::string& metric, const std::string& column) const;
};
PublishedTable ReadPublished(const std::string& id);

}  // namespace ncp
