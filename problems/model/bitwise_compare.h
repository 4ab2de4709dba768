// Bitwise comparison of the data two problems share (A, b, J, e, W, q, constraint types, rows, μ),
// for round-trip checks such as `ncpbench convert --to fclib --verify`.
#pragma once

#include <string>

#include "problems/model/contact_problem.h"

namespace ncp {

// "" when identical bit for bit, else the first difference ("J: stored entry 12 differs").
std::string FirstBitwiseDifference(const ContactProblem& a, const ContactProblem& b);

}  // namespace ncp
