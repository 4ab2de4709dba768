#include "harness/progress.h"

#include <fmt/format.h>

namespace ncp {

std::string ProgressText(long done, long total, double elapsed_s, const char* unit) {
  std::string text = fmt::format("{}/{} {}, {:.1f} s elapsed", done, total, unit, elapsed_s);
  if (done > 0 && total >= done)
    text += fmt::format(", about {:.0f} s left", elapsed_s / done * (total - done));
  return text;
}

}  // namespace ncp
