// ReproduceOptions::max_iters applied to a run's budget: one rule for every protocol.
#pragma once

#include "harness/reproduce/protocol.h"
#include "harness/runner.h"

namespace ncp {

// With opt.max_iters > 0: b.iters = min(b.iters, max_iters) and no wall-time limit.
void CapBudget(const ReproduceOptions& opt, Budget& b);

}  // namespace ncp
