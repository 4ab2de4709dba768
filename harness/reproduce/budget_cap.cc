#include "harness/reproduce/budget_cap.h"

#include <algorithm>

namespace ncp {

void CapBudget(const ReproduceOptions& opt, Budget& b) {
  if (opt.max_iters <= 0) return;
  b.iters = std::min(b.iters, opt.max_iters);
  b.time_ms = 0.0;  // a time limit ends a run where the machine's speed says
}

}  // namespace ncp
