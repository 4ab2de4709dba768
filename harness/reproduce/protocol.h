// Paper reproduction protocols: each documents the paper's setting and runs it on our scenes and
// solvers, printing our numbers next to the published ones (stored as CSV in results/papers/).
// A protocol whose scenes or solvers do not exist yet says which capability is missing.
#pragma once

#include <functional>
#include <string>
#include <vector>

namespace ncp {

struct ReproduceOptions {
  std::string out_dir = "results/reproduce";  // Markdown tables are written here
  int cases = 0;                               // 0: the protocol's default
  bool quiet = false;
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
