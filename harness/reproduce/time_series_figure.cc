#include "harness/reproduce/time_series_figure.h"

#include <fmt/format.h>

#include "common/file_write.h"
#include "harness/reproduce/plot_script.h"

namespace ncp {

std::string TimeSeriesFigure(const ProtocolRecords& rec, const std::string& id,
                             const std::string& out_dir, const std::vector<SeriesColumn>& columns,
                             double first_s, double step_s, const std::string& ylabel,
                             const std::string& title, const std::string& what) {
  std::string csv = "time_s", names;
  for (const SeriesColumn& c : columns) {
    csv += "," + c.name;
    names += (names.empty() ? "" : ",") + c.name;
  }
  csv += "\n";
  auto key = [](const SeriesColumn& c, int k) { return fmt::format("{}_{}", c.key, k); };
  for (int k = 0; !columns.empty() && rec.Has(columns[0].part, key(columns[0], k)); ++k) {
    csv += fmt::format("{:.6g}", first_s + k * step_s);
    for (const SeriesColumn& c : columns)
      csv += rec.Has(c.part, key(c, k))
                 ? fmt::format(",{:.6g}", c.scale * rec.Value(c.part, key(c, k)))
                 : ",";
    csv += "\n";
  }
  const std::string path = out_dir + "/" + id + ".csv", png = out_dir + "/" + id + ".png";
  WriteFileAtomically(path, csv);
  const bool drawn = RunPlotScript("time_series.py", {path, "-o", png, "--x", "time_s", "--y",
                                                      names, "--ylabel", ylabel, "--title", title})
                         .has_value();
  return fmt::format("\n{}: `{}`", what, path) + FigureSentence(drawn, png, "time_series.py");
}

}  // namespace ncp
