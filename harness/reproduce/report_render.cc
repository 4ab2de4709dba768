#include "harness/reproduce/report_render.h"

#include <fmt/format.h>

#include "common/error.h"
#include "harness/reproduce/claim_ledger.h"
#include "harness/reproduce/protocol_records.h"

namespace ncp {

RenderedReport RenderReport(const Protocol& p, const std::string& h5, const std::string& out_dir) {
  const ProtocolRecords records = ProtocolRecords::Read(h5);
  if (records.id() != p.id)
    throw Error(
        fmt::format("results file '{}': written by reproduce {}, not {}", h5, records.id(), p.id));
  const PublishedTable paper = ReadPublished(p.id);
  ClaimLedger ledger(p, records.options());
  std::string md = p.report({records, paper, out_dir, ledger});
  std::string ran = "\nRan at: " + RanAt(records.options()) + ".";
  if (!ledger.unsupported().empty())
    ran += " Its verdicts are not assessed (" + ledger.unsupported() + ").";
  const std::size_t title_end = md.find('\n');
  md.insert(title_end == std::string::npos ? md.size() : title_end + 1, ran + "\n");
  return {md, ledger.claims()};
}

}  // namespace ncp
