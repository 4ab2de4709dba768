// A protocol's per-step series as a figure: a column's records part holds one value per
// recorded point k under "<key>_<k>"; the CSV has a time column and one column per series (blank
// where a part has no point k), and plots/time_series.py draws it.
#pragma once

#include <string>
#include <vector>

#include "harness/reproduce/protocol_records.h"

namespace ncp {

struct SeriesColumn {
  std::string name;    // the CSV column (with its unit)
  std::string key;     // the records' key prefix
  double scale = 1.0;  // record × scale is the column's value
  std::string part = "series";
};

// Writes <out_dir>/<id>.csv (time_s = first_s + k · step_s, then the columns, for every k the
// first column's key has) and, where matplotlib is there, <id>.png. Returns the report's
// sentence: "\n<what>: `<csv>`; figure: `<png>`.\n" (or why there is no figure).
std::string TimeSeriesFigure(const ProtocolRecords& rec, const std::string& id,
                             const std::string& out_dir, const std::vector<SeriesColumn>& columns,
                             double first_s, double step_s, const std::string& ylabel,
                             const std::string& title, const std::string& what);

}  // namespace ncp
