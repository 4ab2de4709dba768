// The claims of one reproduction, as it judges them: each claim is a Markdown row of its report
// and a ClaimRecord of its results file (/claims), collected across protocols by `ncpbench
// claims`. A verdict needs a run that can carry it: a run capped by --max-iters, or with fewer
// cases than the protocol declares it needs (Protocol::min_cases), gets "not assessed" with the
// reason instead of the verdict its figures would give.
#pragma once

#include <string>
#include <vector>

#include "harness/reproduce/claim_verdict.h"
#include "harness/reproduce/protocol.h"
#include "harness/run_record.h"

namespace ncp {

// What a claim carries besides its statement, our figure and the verdict (all optional).
struct ClaimDetail {
  std::string paper;  // the paper's figure, where it gives one (e.g. "5.51 ms")
  std::string cause;  // a short measured cause of a verdict other than reproduced
};

class ClaimLedger {
 public:
  // `ran`: the options the protocol measured under (ProtocolRecords::options()).
  ClaimLedger(const Protocol& p, const ReproduceOptions& ran);

  // Records the claim and returns its Markdown row. Below the protocol's support, the verdict
  // is "not assessed (reason)" whatever `v` says.
  std::string Row(const std::string& statement, const std::string& ours, const Judged& v,
                  const ClaimDetail& d = {});
  // A claim the run measured nothing for (no GPU, a scene that did not run): not assessed.
  std::string NotAssessed(const std::string& statement, const std::string& ours,
                          const std::string& reason);

  // Why this run cannot carry verdicts ("" when it can): e.g. "--max-iters 50: capped runs".
  const std::string& unsupported() const { return unsupported_; }
  const std::vector<ClaimRecord>& claims() const { return claims_; }

 private:
  ClaimRecord& Add(const std::string& statement, const std::string& ours, Verdict v,
                   const std::string& held, const std::string& reason, const ClaimDetail& d);

  std::string protocol_, paper_, unsupported_;
  int cases_ = 0, max_iters_ = 0;
  std::vector<ClaimRecord> claims_;
};

// The budget the records of a reproduction ran at, for its report's header: "default cases,
// the protocol's budgets" or "--cases 2, every run capped at 50 iterations without a time limit".
std::string RanAt(const ReproduceOptions& ran);

}  // namespace ncp
