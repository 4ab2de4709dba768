// Checks of a command's output path, made before any work: a path must name something, and an
// output must not be one of the command's inputs (compared as files, by device and inode, so a
// different spelling, a link or a bind mount of the input is caught too).
#pragma once

#include <string>
#include <vector>

#include "problems/model/contact_problem.h"

namespace ncp {

// Throws Error "<option> = '': must name a file" for an empty path.
void CheckOutputNamed(const std::string& option, const std::string& out);

// Creates the folder `dir` (and those above it) unless it is one; throws Error "<option> = dir:
// is a file: must be a folder" (or a FIFO, a device…) or "cannot create it: <why>".
void CreateOutputFolder(const std::string& option, const std::string& dir);

// Whether two paths name one file: the same absolute path once normalized (also for a file not
// made yet), or an existing file reached both ways (a link, a hard link, a bind mount).
bool SamePath(const std::string& a, const std::string& b);

// Throws Error when `out` exists and is the same file as one of `inputs`.
void CheckOutputNotAnInput(const std::string& option, const std::string& out,
                           const std::vector<std::string>& inputs);

// Throws Error when a problem about to be written to `out` would be refused by the readers
// (Validate): a generator never writes a file its own reader refuses. `made_from` names what
// generated them ("joint_friction with radius_max=1e300"), so that the message points at the
// parameter rather than only at the field that came out wrong.
void CheckWritable(const std::string& out, const std::vector<ContactProblem>& problems,
                   const std::string& made_from = "");

// Warns on stderr when problems about to be written to `out` have no constraint rows: valid,
// but a scene whose parameters left every body apart (e.g. bolt_nut margin=1e-9) says so.
void WarnProblemsWithoutRows(const std::string& out, const std::vector<ContactProblem>& problems);

}  // namespace ncp
