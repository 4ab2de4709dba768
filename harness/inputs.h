// The inputs of a run: files and folders of datasets or fclib problems, loaded and validated
// together so that every invalid file is named (not only the first), or skipped on request.
#pragma once

#include <string>
#include <vector>

#include "harness/runner.h"

namespace ncp {

struct SkippedInput {
  std::string path;
  std::string reason;  // the one-line error that made it invalid
};

struct LoadedInputs {
  std::vector<DatasetInput> data;     // valid inputs, in the order given (folders sorted)
  std::vector<SkippedInput> skipped;  // invalid inputs (only with skip_invalid)
};

// Files with the endings .h5 and .hdf5 directly inside a folder, sorted by name; a path that is
// not a folder is returned as it is. Throws ncp::Error for a folder without such files. A
// command's `output` (and its shards, <stem>.shard-K-of-N.h5) found in a folder is no input: a
// results file written into the datasets' folder would refuse the next run's resume.
std::vector<std::string> ExpandInputPaths(const std::vector<std::string>& paths,
                                          const std::string& output = "");

// Expands folders, loads and validates every file. An invalid file either makes the whole call
// throw one ncp::Error that lists every invalid file, one line each (skip_invalid false), or
// lands in `skipped` (skip_invalid true; it still throws when no valid input remains).
// Warns once per file on stderr about a local W that is not exactly symmetric (unless quiet:
// the CLI always warns, -q only hides its progress lines).
LoadedInputs LoadInputs(const std::vector<std::string>& paths, bool skip_invalid,
                        bool quiet = false, const std::string& output = "");

// Keeps, in every input, only the problems whose name is in `names` (as `ncpbench info` lists
// them), and drops the inputs left without one; an empty `names` keeps everything. Throws one
// ncp::Error naming the first name that matches no problem of the inputs.
void KeepNamedProblems(std::vector<DatasetInput>& data, const std::vector<std::string>& names);

// One warning line on stderr per way the problems of `path` were read otherwise than as stored:
// matrices not exactly symmetric, as exported (used as stored; solvers say how in `ncpbench list
// solvers`; the figure is kept in their metadata), a triangle mirrored, or an fclib file holding
// both forms. Every command that reads datasets says it (run, convert, info).
void WarnHowRead(const std::string& path, const std::vector<ContactProblem>& problems);

// "path: reason" lines, for the results file's root attribute `skipped_inputs`.
std::string SkippedAttr(const std::vector<SkippedInput>& skipped);

}  // namespace ncp
