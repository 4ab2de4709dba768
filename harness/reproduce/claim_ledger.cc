#include "harness/reproduce/claim_ledger.h"

#include <fmt/format.h>

#include "harness/markdown.h"

namespace ncp {
namespace {
namespace claim_ledger {

// Why a run with these options cannot carry the protocol's verdicts; "" when it can.
std::string Unsupported(const Protocol& p, const ReproduceOptions& ran) {
  // Every reason that applies, not only the first.
  std::string why;
  if (ran.max_iters > 0)
    why = fmt::format(
        "--max-iters {}: every run capped at {} iterations, not the protocol's "
        "budgets",
        ran.max_iters, ran.max_iters);
  if (ran.cases > 0 && ran.cases < p.min_cases)
    why += fmt::format("{}--cases {}: below the {} cases its verdicts need",
                       why.empty() ? "" : "; ", ran.cases, p.min_cases);
  return why;
}

}  // namespace claim_ledger
}  // namespace

ClaimLedger::ClaimLedger(const Protocol& p, const ReproduceOptions& ran)
    : protocol_(p.id),
      paper_(p.paper.empty() ? p.id.substr(0, p.id.find('-')) : p.paper),
      unsupported_(claim_ledger::Unsupported(p, ran)),
      cases_(ran.cases),
      max_iters_(ran.max_iters) {}

ClaimRecord& ClaimLedger::Add(const std::string& statement, const std::string& ours, Verdict v,
                              const std::string& held, const std::string& reason,
                              const ClaimDetail& d) {
  ClaimRecord& c = claims_.emplace_back();
  c.protocol = protocol_;
  c.paper = paper_;
  c.statement = statement;
  c.ours = ours;
  c.paper_figure = d.paper;
  c.verdict = ToString(v);
  c.held = held;
  c.reason = reason;
  c.cause = d.cause;
  c.cases = cases_;
  c.max_iters = max_iters_;
  return c;
}

std::string ClaimLedger::Row(const std::string& statement, const std::string& ours, const Judged& j,
                             const ClaimDetail& d) {
  if (!unsupported_.empty() && j.verdict != Verdict::kNotAssessed)
    return NotAssessed(statement, ours, unsupported_);
  const ClaimRecord& c = Add(statement, ours, j.verdict, j.held, "", d);
  std::string verdict = c.verdict;
  if (!c.held.empty()) verdict += ": " + c.held;
  if (!c.cause.empty()) verdict += "; cause: " + c.cause;
  return markdown::RowOf({statement, ours, verdict});
}

std::string ClaimLedger::NotAssessed(const std::string& statement, const std::string& ours,
                                     const std::string& reason) {
  Add(statement, ours, Verdict::kNotAssessed, "", reason, {});
  return markdown::RowOf({statement, ours, "not assessed (" + reason + ")"});
}

std::string RanAt(const ReproduceOptions& ran) {
  return fmt::format("{}, {}",
                     ran.cases > 0 ? fmt::format("--cases {}", ran.cases)
                                   : std::string("the protocol's default cases"),
                     ran.max_iters > 0
                         ? fmt::format("every measured run capped at {} iterations without a "
                                       "time limit (--max-iters {})",
                                       ran.max_iters, ran.max_iters)
                         : std::string("the protocol's iteration and time budgets"));
}

}  // namespace ncp
