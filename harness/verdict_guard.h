// When a verdict (the recommended, fastest, most accurate or most robust solver of a dataset)
// has too little behind it to be drawn: one rule for the report, its summary and the profiles,
// which then print "not assessed" and why instead of a winner.
#pragma once

#include <string>

namespace ncp {

// Fewer problems than this on a dataset: no verdict on it.
inline constexpr int kSmallSample = 5;

// "" when a verdict among `solvers` solver variants over `problems` problems can be drawn, else
// why not: "2 problems, fewer than 5", "one solver: nothing to compare".
std::string SampleTooSmall(int problems, int solvers);

// "" when runs stopped at the tolerance `run_tol` (NaN: none) can show which solver reaches
// `verdict_tol`, else why not: runs stopped at 1e-4 say nothing about who reaches 1e-6 first.
std::string StoppedShortOf(double run_tol, double verdict_tol);

}  // namespace ncp
