// A results file's /runs table as CSV in long format, one row per job, for pandas and
// spreadsheets: the columns of results/README.md (harness/results_columns.h), the status as its
// name, NaN as "nan"; traces are not included (they stay in the HDF5 file).
#pragma once

#include <string>
#include <vector>

#include "harness/run_record.h"

namespace ncp {

std::string RunsCsv(const std::vector<RunRecord>& rows);

}  // namespace ncp
