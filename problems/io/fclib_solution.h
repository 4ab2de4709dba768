// fclib's /solution and /guesses groups (fclib.h: struct fclib_solution): read as the problem's
// reference and initial guesses, written from a problem's reference on export. fclib orders
// r and u by the columns of H (or W) and l by the columns of G; the row map says where each
// column lands in ncpbench's rows.
#pragma once

#include <string>
#include <vector>

#include "problems/model/contact_problem.h"

namespace ncp {

struct FclibRowMap {
  std::vector<int> out_h;  // row of J (or W) for column j of H (or W), −1 where dropped
  std::vector<int> out_g;  // row of J for column j of G
};

// Reads /solution into p.reference (unless it is absent or r and l are all zeros, as many
// writers leave it) and /guesses into p.guesses. A global reference without v (or with v all
// zeros) keeps an empty v for CompleteReferenceVelocity. Throws ncp::Error naming the dataset
// for wrong sizes or non-finite values.
void ReadFclibSolutions(const std::string& path, const FclibRowMap& map, ContactProblem& p);

// A global reference ReadFclibSolutions left without v gets v = A⁻¹(b + Jᵀλ) (the reference is
// dropped when A cannot be factorized); any other problem is left as it is. Run on the trusted
// copy, after the guarded reader: the solve's time grows with the problem, not with the file's
// size, which sizes the reader's limit.
void CompleteReferenceVelocity(ContactProblem& p);

// Appends p.reference as /solution and p.guesses as /guesses to the fclib file at `path` (v, u, r
// and, with bilateral rows, l), in fclib's column order. `contact_rows` / `bilateral_rows` are the
// rows of J behind the columns of H / G (−1: a zero column). Local problems: v is left out.
void WriteFclibSolution(const std::string& path, const ContactProblem& p,
                        const std::vector<int>& contact_rows,
                        const std::vector<int>& bilateral_rows);

}  // namespace ncp
