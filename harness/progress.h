// The progress line of long commands: what is done, the elapsed time and an estimate of the
// time left (elapsed scaled by what is left), so that a user sees a long job move.
#pragma once

#include <string>

namespace ncp {

// "12/60 jobs, 3.1 s elapsed, about 9 s left" (no estimate before the first unit is done).
std::string ProgressText(long done, long total, double elapsed_s, const char* unit = "jobs");

}  // namespace ncp
