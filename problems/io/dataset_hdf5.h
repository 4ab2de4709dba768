// The ncpbench dataset file (schema v1, documented field by field in datasets/README.md): many
// ContactProblems per HDF5 file, readable with h5py without project code.
//
// The reader checks the schema only (groups, datasets, dtypes, dims, CSC consistency, equal
// lengths of parallel arrays); it does not check the mathematics (sizes of b against A, symmetry,
// μ ≥ 0): Validate() does, so that a file with, say, a wrong-length b still loads and is then
// rejected with a precise message.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "problems/model/contact_problem.h"

namespace ncp {

inline constexpr char kDatasetFormat[] = "ncpbench-dataset";
inline constexpr int kDatasetSchemaVersion = 1;

// Writes `problems` (names must be unique, non-empty, without '/') and the string attributes
// `attrs` (not "format" or "schema_version") to `path`. Atomic: the file is written to
// path + ".tmp" and renamed over `path`; on failure the temporary file is removed and an existing
// `path` is left untouched. Throws ncp::Error.
void WriteDataset(const std::string& path, const std::vector<ContactProblem>& problems,
                  const std::map<std::string, std::string>& attrs = {});

// Reads every problem, in the order they were written. Throws ncp::Error with one line naming
// the file, the object and the problem.
std::vector<ContactProblem> ReadDataset(const std::string& path);

// The user attributes passed to WriteDataset (string-valued root attributes other than format and
// schema_version). Throws ncp::Error.
std::map<std::string, std::string> ReadDatasetAttrs(const std::string& path);

// True when `path` is an HDF5 file whose root attribute format is "ncpbench-dataset". Never throws.
bool IsNcpbenchDataset(const std::string& path);

// ReadDataset and ReadFclib read a file through a trusted copy (guarded_read.h): a child reads
// the file and writes what it read with WriteCopy; the caller reads the copy with
// ReadDatasetUnguarded, which runs libhdf5 in the calling process: only for files of the suite's
// own writer, or inside the probe's child.
void WriteCopy(const std::string& in, const std::string& out,
               const std::vector<ContactProblem>& problems,
               const std::map<std::string, std::string>& attrs = {});
std::vector<ContactProblem> ReadDatasetUnguarded(const std::string& path);

}  // namespace ncp
