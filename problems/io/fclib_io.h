// fclib (https://frictionalcontactlibrary.github.io) import and export through libfclib, and
// LoadProblems, which accepts either an ncpbench dataset or an fclib file.
//
// Mapping (DESIGN.md): fclib global  M v = H r + G λ + f,  u = Hᵀ v + w,  Gᵀ v + b = 0  becomes
//   A = M, b = f, J = [Hᵀ; Gᵀ], e = [w; b_fclib],
// contacts first (3 rows [n, t1, t2] each, μ from mu), then one bilateral constraint per column
// of G. An fclib local problem (W, q, mu) becomes the local form, all constraints contacts.
#pragma once

#include <string>
#include <vector>

#include "problems/model/contact_problem.h"

namespace ncp {

// Reads a global or local fclib problem (detected from the /fclib_global or /fclib_local group).
// Matrices stored CSC, CSR or as triplets are converted; a symmetric matrix stored as one
// triangle is expanded to both. Metadata: scenario "fclib", name = file stem, case_name = the
// fclib info title. An exported file's /ncpbench/constraint_types restores ncpbench's order and
// unilateral rows (see WriteFclibGlobal). Throws ncp::Error (spacedim other than 3, local problems
// with V/R equality blocks, malformed files); files are checked before libfclib sees them, since it
// exits the process on a read error.
ContactProblem ReadFclib(const std::string& path);

// Exports a global problem: soft rows folded into M and f (fold_soft.h), contacts to H, unilateral
// rows to H as μ = 0 contacts with zero tangent columns, bilateral rows to G, each in constraint
// order. The constraint types in order go to /ncpbench/constraint_types (ignored by fclib
// readers), so that ReadFclib restores the rows and types exactly: export → import is bitwise the
// identity on hard-only problems and gives the folded problem otherwise. Atomic: written to
// path + ".tmp", then renamed over `path`.
void WriteFclibGlobal(const std::string& path, const ContactProblem& p);

// Exports a local problem (W, q, mu; contacts only). Atomic like WriteFclibGlobal.
void WriteFclibLocal(const std::string& path, const ContactProblem& p);

// True when `path` is an HDF5 file with an /fclib_global or /fclib_local group. Never throws.
bool IsFclibFile(const std::string& path);

// Every problem of an ncpbench dataset, or the single problem of an fclib file, chosen by
// content. Throws ncp::Error with one line for a missing, non-HDF5, truncated or unknown file.
std::vector<ContactProblem> LoadProblems(const std::string& path);

}  // namespace ncp
