// A protocol's report rendered from its results file: the Markdown (the budget that ran stated
// under its title) and the claims it judged. `reproduce` renders after measuring and `claims`
// renders files written before their claims were stored (/claims), so both judge alike.
#pragma once

#include <string>
#include <vector>

#include "harness/reproduce/protocol.h"
#include "harness/run_record.h"

namespace ncp {

struct RenderedReport {
  std::string md;
  std::vector<ClaimRecord> claims;
};

// Reads the records of `h5` (a results file `reproduce p.id` wrote; ncp::Error otherwise) and
// renders p's report, its figures and CSV files going to `out_dir`.
RenderedReport RenderReport(const Protocol& p, const std::string& h5, const std::string& out_dir);

}  // namespace ncp
