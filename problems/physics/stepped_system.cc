#include "problems/physics/stepped_system.h"

#include <fmt/format.h>

#include "common/error.h"

namespace ncp::physics {

void ValidateStepOptions(const StepOptions& o) {
  if (!(o.dt > 0)) throw Error(fmt::format("dt = {}: must be > 0", o.dt));
  if (!(o.theta >= 0 && o.theta < 1))
    throw Error(fmt::format("theta = {}: must be in [0, 1)", o.theta));
  if (!(o.margin >= 0)) throw Error(fmt::format("margin = {}: must be >= 0", o.margin));
  if (!(o.slop >= 0)) throw Error(fmt::format("slop = {}: must be >= 0", o.slop));
  if (!(o.erp > 0 && o.erp <= 1)) throw Error(fmt::format("erp = {}: must be in (0, 1]", o.erp));
}

double StabilizeGap(double gap, const StepOptions& o) {
  const double g = gap + o.slop;
  return g >= 0 ? g / o.dt : o.erp * g / o.dt;
}

}  // namespace ncp::physics
