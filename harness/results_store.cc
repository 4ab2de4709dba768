#include "harness/results_store.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <hdf5.h>
#include <sys/file.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>
#include <map>
#include <memory>
#include <optional>
#include <string_view>
#include <type_traits>
#include <utility>

#include "common/error.h"
#include "common/file_kind.h"
#include "common/file_write.h"
#include "common/utf8.h"
#include "harness/results_columns.h"
#include "harness/system_info.h"
#include "problems/io/guarded_read.h"
#include "problems/io/h5_util.h"

namespace ncp {
namespace {

namespace fs = std::filesystem;

// ---------------------------------------------------------------------------------------------
// Column layout of /runs: harness/results_columns.h.

using columns::DescriptorDouble;
using columns::DescriptorInt;
using columns::DoubleField;
using columns::IntField;
using columns::kDescriptorDoubles;
using columns::kDescriptorInts;
using columns::kDoubleFields;
using columns::kIntFields;
using columns::kStringFields;
using columns::StringField;

// The /claims table's columns (a reproduction's judged claims, ClaimRecord).
using ClaimTextField = columns::Column<ClaimRecord, std::string>;
using ClaimIntField = columns::Column<ClaimRecord, int>;
constexpr ClaimTextField kClaimText[] = {{"protocol", &ClaimRecord::protocol},
                                         {"paper", &ClaimRecord::paper},
                                         {"statement", &ClaimRecord::statement},
                                         {"ours", &ClaimRecord::ours},
                                         {"paper_figure", &ClaimRecord::paper_figure},
                                         {"verdict", &ClaimRecord::verdict},
                                         {"held", &ClaimRecord::held},
                                         {"reason", &ClaimRecord::reason},
                                         {"cause", &ClaimRecord::cause}};
constexpr ClaimIntField kClaimInts[] = {{"cases", &ClaimRecord::cases},
                                        {"max_iters", &ClaimRecord::max_iters}};
// Columns added after the first schema: files without them still read (as empty strings).
bool OptionalColumn(const std::string& name) {
  return name == "host" || name == "cpu" || name == "worker" || name == "observations";
}

// The solver's statistics of a trace point (SolverStats), one trace column each, written only
// when some point of that trace reports the field: solvers without statistics add nothing, and
// files without the columns read as "not reported" (NaN, −1), so the schema version stays.
using StatDouble = columns::Column<SolverStats, double>;
using StatInt = columns::Column<SolverStats, int>;
constexpr StatDouble kStatDoubles[] = {{"stat_primal_residual", &SolverStats::primal_residual},
                                       {"stat_dual_residual", &SolverStats::dual_residual},
                                       {"stat_penalty", &SolverStats::penalty}};
constexpr StatInt kStatInts[] = {{"stat_inner_iterations", &SolverStats::inner_iterations},
                                 {"stat_refactorizations", &SolverStats::refactorizations},
                                 {"stat_line_search_steps", &SolverStats::line_search_steps}};

constexpr char kFormatAttr[] = "format";
constexpr char kSchemaAttr[] = "schema_version";

std::string MetricColumn(std::size_t k) { return std::string("final_") + kMetricNames[k]; }
std::string TracePath(std::size_t row) { return "/traces/" + std::to_string(row); }

// ---------------------------------------------------------------------------------------------
// HDF5 plumbing on the suite's one RAII layer (problems/io/h5_util.h).

// Variable-length UTF-8 string type, what h5py writes for str and reads without options.
h5::Handle Utf8StringType() {
  h5::Handle type(H5Tcopy(H5T_C_S1));
  H5Tset_size(type.id(), H5T_VARIABLE);
  H5Tset_cset(type.id(), H5T_CSET_UTF8);
  return type;
}

// File access properties for both reading and writing. Columns are read and written whole, so
// HDF5's data sieve buffer (64 KiB, zeroed on every dataset access) buys nothing and would
// otherwise dominate merging thousands of one-row parts.
h5::Handle FileAccess() {
  h5::Handle fapl(H5Pcreate(H5P_FILE_ACCESS));
  H5Pset_sieve_buf_size(fapl.id(), 4096);
  // The 1.8 object format keeps thousands of small trace groups compact; h5py reads it.
  H5Pset_libver_bounds(fapl.id(), H5F_LIBVER_V18, H5F_LIBVER_LATEST);
  return fapl;
}

// Transfer properties for converting `n` strings. HDF5 zeroes its whole type-conversion buffer
// (1 MiB by default) on every string read or write; sized to the data, one-row parts stay cheap.
h5::Handle StringTransfer(std::size_t n) {
  h5::Handle dxpl(H5Pcreate(H5P_DATASET_XFER));
  H5Pset_buffer(dxpl.id(), std::clamp<std::size_t>(32 * n, 4096, 1 << 20), nullptr, nullptr);
  return dxpl;
}

h5::Handle Space1D(std::size_t n) {
  const hsize_t dims[1] = {static_cast<hsize_t>(n)};
  return h5::Handle(H5Screate_simple(1, dims, nullptr));
}

// Names of a location's attributes; reading happens outside the callback so that nothing throws
// through HDF5's C frames.
herr_t CollectAttrName(hid_t, const char* name, const H5A_info_t*, void* names) {
  static_cast<std::vector<std::string>*>(names)->push_back(name);
  return 0;
}

// Completed parts, in name order; "*.tmp.*" files are unfinished writes and not parts.
std::vector<std::string> PartFiles(const std::string& dir) {
  std::vector<std::string> parts;
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) return parts;
  for (const fs::directory_entry& e : fs::directory_iterator(dir)) {
    if (e.is_regular_file() && e.path().extension() == ".h5") parts.push_back(e.path().string());
  }
  std::sort(parts.begin(), parts.end());
  return parts;
}

// A part holds one row, named by the hash of its job key (ResultsStore::Add): a file that does
// not (a copy of another job's part, a forged or foreign file) is not taken as that job's row.
std::string PartMismatch(const std::string& part, const std::vector<std::string>& keys) {
  if (keys.size() != 1) return fmt::format("{} rows, not 1", keys.size());
  if (fs::path(part).stem().string() != HashHex(keys.front()))
    return fmt::format("its row's job key '{}' is not the one its name stands for", keys.front());
  return {};
}

// ---------------------------------------------------------------------------------------------
// Reading.

class ResultsReader {
 public:
  explicit ResultsReader(std::string path) : path_(std::move(path)) {
    h5::SilenceErrors();  // one-line ncp::Error instead of HDF5's stack printout
    std::error_code ec;
    if (!fs::exists(path_, ec)) Fail("file does not exist");
    file_ = h5::Handle(H5Fopen(path_.c_str(), H5F_ACC_RDONLY, FileAccess().id()));
    if (!file_.valid()) {
      const std::string held = h5::HeldOpenForWriting(path_, H5F_ACC_RDONLY);
      Fail(held.empty() ? "cannot open as HDF5 (truncated, corrupt or not HDF5)" : held);
    }
    CheckFormat();
    // A column or trace linked from elsewhere would be read in place of the file's own.
    if (const std::string link = h5::FirstNonHardLink(file()); !link.empty())
      Fail(link + ": a results file holds its data itself");
  }

  hid_t file() const { return file_.id(); }

  // String attributes of the root, format included.
  std::map<std::string, std::string> Attrs() const {
    std::vector<std::string> names;
    hsize_t index = 0;
    if (H5Aiterate2(file(), H5_INDEX_NAME, H5_ITER_INC, &index, CollectAttrName, &names) < 0) {
      Fail("cannot list the root attributes");
    }
    std::map<std::string, std::string> attrs;
    for (const std::string& name : names) {
      h5::Handle attr(H5Aopen(file(), name.c_str(), H5P_DEFAULT));
      if (!attr.valid()) Fail("cannot open attribute /" + name);
      h5::Handle type(H5Aget_type(attr.id()));
      if (H5Tget_class(type.id()) == H5T_STRING)
        attrs[name] = ReadStringAttr(attr, type, name);
      else if (name != kSchemaAttr)  // dropped, it would take the report's or compare's check
        Fail(
            fmt::format("root attribute {}: must be a string (the root's attributes are text "
                        "besides {})",
                        name, kSchemaAttr));
    }
    return attrs;
  }

  std::vector<std::string> JobKeys() const { return ReadStrings("/runs/job_key"); }

  // A paper reproduction's file: rows with the protocol's /observations and judged /claims,
  // which a merge or a run into it (rows and traces only) would drop.
  bool IsReproduction() const { return Exists("/observations") || Exists("/claims"); }

  std::vector<RunRecord> Rows(bool with_traces) const {
    const std::vector<std::string> keys = JobKeys();
    std::vector<RunRecord> rows(keys.size());
    for (const StringField& f : kStringFields) {
      if (OptionalColumn(f.name) && !Exists(std::string("/runs/") + f.name)) continue;
      const std::vector<std::string> v = ReadColumn<std::string>(f.name, rows.size());
      for (std::size_t i = 0; i < rows.size(); ++i) rows[i].*f.member = v[i];
    }
    {
      // The one place status strings become outcomes (besides the CLI).
      const std::vector<std::string> v = ReadColumn<std::string>("status", rows.size());
      for (std::size_t i = 0; i < rows.size(); ++i) {
        const std::optional<Outcome> o = OutcomeFromName(v[i]);
        if (!o)
          Fail(fmt::format("/runs/status[{}] = '{}': must be one of {}", i, v[i],
                           fmt::join(kOutcomeNames, ", ")));
        rows[i].status = *o;
      }
    }
    for (const IntField& f : kIntFields) {
      // Columns that came later: files written before them read as "not set".
      if (columns::OptionalColumn(f.name) && !Exists(std::string("/runs/") + f.name)) continue;
      const std::vector<int> v = ReadColumn<int>(f.name, rows.size());
      for (std::size_t i = 0; i < rows.size(); ++i) rows[i].*f.member = v[i];
    }
    for (const DoubleField& f : kDoubleFields) {
      if (columns::OptionalColumn(f.name) && !Exists(std::string("/runs/") + f.name)) continue;
      const std::vector<double> v = ReadColumn<double>(f.name, rows.size());
      for (std::size_t i = 0; i < rows.size(); ++i) rows[i].*f.member = v[i];
    }
    ReadFinalMetrics(rows);
    ReadDescriptors(rows);
    CheckValues(keys, rows);
    if (with_traces) {
      for (std::size_t i = 0; i < rows.size(); ++i) rows[i].trace = ReadTrace(i);
    }
    return rows;
  }

  // The /observations table of a paper reproduction; none in other results files.
  std::vector<Observation> Observations() const {
    std::vector<Observation> out;
    if (!Exists("/observations")) return out;
    const std::vector<std::string> parts = ReadStrings("/observations/part");
    const std::vector<std::string> keys = ReadStrings("/observations/key");
    const std::vector<std::string> texts = ReadStrings("/observations/text");
    const std::vector<double> values = ReadNumbers<double>("/observations/value");
    CheckLength(keys.size(), parts.size(), "/observations/key");
    CheckLength(texts.size(), parts.size(), "/observations/text");
    CheckLength(values.size(), parts.size(), "/observations/value");
    out.resize(parts.size());
    std::map<std::pair<std::string, std::string>, std::size_t> seen;
    for (std::size_t i = 0; i < out.size(); ++i) {
      // One figure per part and key: a second would be read as whichever a lookup meets first.
      if (const auto [it, added] = seen.emplace(std::pair(parts[i], keys[i]), i); !added)
        Fail(
            fmt::format("/observations[{}]: part '{}', key '{}' again (first at {}): one figure "
                        "per part and key",
                        i, parts[i], keys[i], it->second));
      out[i] = {parts[i], keys[i], values[i], texts[i]};
    }
    return out;
  }

  // The /claims table of a paper reproduction; none in other results files.
  std::vector<ClaimRecord> Claims() const {
    std::vector<ClaimRecord> out;
    if (!Exists("/claims")) return out;
    const std::vector<std::string> protocol = ReadStrings("/claims/protocol");
    out.resize(protocol.size());
    for (const auto& [name, field] : kClaimText) {
      const std::vector<std::string> col = ReadStrings(std::string("/claims/") + name);
      CheckLength(col.size(), out.size(), std::string("/claims/") + name);
      for (std::size_t i = 0; i < out.size(); ++i) out[i].*field = col[i];
    }
    for (const auto& [name, field] : kClaimInts) {
      const std::vector<int> col = ReadNumbers<int>(std::string("/claims/") + name);
      CheckLength(col.size(), out.size(), std::string("/claims/") + name);
      for (std::size_t i = 0; i < out.size(); ++i) out[i].*field = col[i];
    }
    return out;
  }

 private:
  [[noreturn]] void Fail(const std::string& what) const {
    throw Error(fmt::format("results file '{}': {}", path_, what));
  }

  void CheckFormat() const {
    const std::map<std::string, std::string> attrs = Attrs();
    const auto format = attrs.find(kFormatAttr);
    if (format == attrs.end() || format->second != kResultsFormat) {
      Fail(fmt::format("root attribute {} is not '{}': not an ncpbench results file", kFormatAttr,
                       kResultsFormat));
    }
    h5::Handle attr(H5Aopen(file(), kSchemaAttr, H5P_DEFAULT));
    if (!attr.valid()) Fail(fmt::format("cannot read root attribute {}", kSchemaAttr));
    // One integer: a float (1.9 read as 1) or an array (read into one int past its end) is
    // no version this build wrote.
    h5::Handle type(H5Aget_type(attr.id())), space(H5Aget_space(attr.id()));
    if (H5Tget_class(type.id()) != H5T_INTEGER || H5Sget_simple_extent_npoints(space.id()) != 1)
      Fail(fmt::format("root attribute {}: must be one integer", kSchemaAttr));
    long long version = 0;
    if (H5Aread(attr.id(), H5T_NATIVE_LLONG, &version) < 0)
      Fail(fmt::format("cannot read root attribute {}", kSchemaAttr));
    if (version < 1) Fail(fmt::format("{} {}: must be >= 1", kSchemaAttr, version));
    if (version > kResultsSchemaVersion) {
      Fail(fmt::format("{} {} is newer than this build reads ({})", kSchemaAttr, version,
                       kResultsSchemaVersion));
    }
  }

  std::string ReadStringAttr(const h5::Handle& attr, const h5::Handle& type,
                             const std::string& name) const {
    // One string: an array would be read into a buffer sized for one (past its end).
    h5::Handle space(H5Aget_space(attr.id()));
    const hssize_t points = H5Sget_simple_extent_npoints(space.id());
    if (points != 1)
      Fail(fmt::format("root attribute {}: holds {} strings: must be one string", name, points));
    std::string value;
    if (H5Tis_variable_str(type.id()) > 0) {
      h5::Handle mem = Utf8StringType();
      char* text = nullptr;
      if (H5Aread(attr.id(), mem.id(), &text) < 0) Fail("cannot read attribute /" + name);
      value = text != nullptr ? text : "";
      H5free_memory(text);
    } else {
      CheckPlausible(attr.id(), 1, H5Tget_size(type.id()), "attribute /" + name);
      std::string buffer(H5Tget_size(type.id()), '\0');
      if (H5Aread(attr.id(), type.id(), buffer.data()) < 0) Fail("cannot read attribute /" + name);
      value = buffer.substr(0, buffer.find('\0'));
    }
    if (!ValidUtf8(value))
      Fail(fmt::format("root attribute {}: not UTF-8 text (the schema's strings are UTF-8)", name));
    return value;
  }

  h5::Handle OpenDataset(const std::string& object) const {
    h5::Handle ds(H5Dopen2(file(), object.c_str(), H5P_DEFAULT));
    if (!ds.valid()) Fail("missing or unreadable dataset " + object);
    return ds;
  }

  // A corrupt header can declare any extent or string width: refused before allocating.
  void CheckPlausible(hid_t loc, std::size_t n, std::size_t element_bytes,
                      const std::string& object) const {
    const std::string why =
        h5::ImplausibleSize(loc, static_cast<double>(n), std::max<std::size_t>(element_bytes, 8));
    if (!why.empty()) Fail(object + " " + why);
  }

  std::size_t Length(const h5::Handle& ds, const std::string& object) const {
    h5::Handle space(H5Dget_space(ds.id()));
    hsize_t dims[1] = {0};
    if (H5Sget_simple_extent_ndims(space.id()) != 1 ||
        H5Sget_simple_extent_dims(space.id(), dims, nullptr) < 0) {
      Fail(object + " is not a 1-D dataset");
    }
    return static_cast<std::size_t>(dims[0]);
  }

  std::vector<std::string> ReadStrings(const std::string& object) const {
    h5::Handle ds = OpenDataset(object);
    const std::size_t n = Length(ds, object);
    h5::Handle type(H5Dget_type(ds.id()));
    if (H5Tget_class(type.id()) != H5T_STRING) Fail(object + " does not hold strings");
    CheckPlausible(ds.id(), n, H5Tget_size(type.id()), object);
    std::vector<std::string> out(n);
    if (n == 0) return out;
    if (H5Tis_variable_str(type.id()) > 0) {
      h5::Handle mem = Utf8StringType();
      std::vector<char*> text(n, nullptr);
      if (H5Dread(ds.id(), mem.id(), H5S_ALL, H5S_ALL, StringTransfer(n).id(), text.data()) < 0) {
        Fail("cannot read " + object);
      }
      for (std::size_t i = 0; i < n; ++i) out[i] = text[i] != nullptr ? text[i] : "";
      h5::Handle space(H5Dget_space(ds.id()));
      H5Dvlen_reclaim(mem.id(), space.id(), H5P_DEFAULT, text.data());
      CheckUtf8(out, object);
      return out;
    }
    const std::size_t width = H5Tget_size(type.id());
    std::string buffer(n * width, '\0');
    if (H5Dread(ds.id(), type.id(), H5S_ALL, H5S_ALL, H5P_DEFAULT, buffer.data()) < 0) {
      Fail("cannot read " + object);
    }
    for (std::size_t i = 0; i < n; ++i) {
      const std::string cell = buffer.substr(i * width, width);
      out[i] = cell.substr(0, cell.find('\0'));
    }
    CheckUtf8(out, object);
    return out;
  }

  // Reports and CSV files copy these strings out: bytes that are not UTF-8 would make them
  // invalid text.
  void CheckUtf8(const std::vector<std::string>& cells, const std::string& object) const {
    for (std::size_t i = 0; i < cells.size(); ++i)
      if (!ValidUtf8(cells[i])) Fail(fmt::format("{}[{}]: not UTF-8 text", object, i));
  }

  template <typename T>
  std::vector<T> ReadNumbers(const std::string& object) const {
    h5::Handle ds = OpenDataset(object);
    const std::size_t n = Length(ds, object);
    CheckPlausible(ds.id(), n, sizeof(T), object);
    // Integers from integer datasets only, read as 64 bits and range-checked (HDF5's conversion
    // truncates 100.7 and clamps 2^33 without a word); numbers from integers or floats.
    h5::Handle type(H5Dget_type(ds.id()));
    const H5T_class_t cls = H5Tget_class(type.id());
    if (cls != H5T_INTEGER && (std::is_same_v<T, int> || cls != H5T_FLOAT))
      Fail(fmt::format("{} holds {}: must hold {}", object,
                       cls == H5T_FLOAT ? "floating-point numbers" : "no numbers",
                       std::is_same_v<T, int> ? "integers" : "numbers"));
    std::vector<T> out(n);
    if constexpr (std::is_same_v<T, int>) {
      std::vector<long long> wide(n);
      if (!wide.empty() &&
          H5Dread(ds.id(), H5T_NATIVE_LLONG, H5S_ALL, H5S_ALL, H5P_DEFAULT, wide.data()) < 0)
        Fail("cannot read " + object + " as numbers");
      for (std::size_t i = 0; i < n; ++i) {
        if (wide[i] < std::numeric_limits<int>::min() || wide[i] > std::numeric_limits<int>::max())
          Fail(fmt::format("{}[{}] = {}: must be in [-2^31, 2^31 - 1]", object, i, wide[i]));
        out[i] = static_cast<int>(wide[i]);
      }
    } else if (!out.empty() &&
               H5Dread(ds.id(), H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, out.data()) < 0) {
      Fail("cannot read " + object + " as numbers");
    }
    return out;
  }

  template <typename T>
  std::vector<T> ReadColumn(const std::string& name, std::size_t rows) const {
    const std::string object = "/runs/" + name;
    std::vector<T> v;
    if constexpr (std::is_same_v<T, std::string>) {
      v = ReadStrings(object);
    } else {
      v = ReadNumbers<T>(object);
    }
    // The row count is /runs/job_key's: a short key column is named as such, not the next one.
    if (v.size() != rows)
      Fail(fmt::format("{} has {} entries, /runs/job_key {}: the columns must be equally long",
                       object, v.size(), rows));
    return v;
  }

  // Values no run can have written: a forged or damaged file would print them as results (a
  // zero time as a 10^15 speed ratio, a negative residual as solved, one job counted twice).
  // NaN is "not set" (a metric undefined for the row); ±∞ a residual that overflowed.
  void CheckValues(const std::vector<std::string>& keys, const std::vector<RunRecord>& rows) const {
    std::map<std::string, std::size_t> seen;
    for (std::size_t i = 0; i < rows.size(); ++i) {
      if (const auto [it, added] = seen.emplace(keys[i], i); !added)
        Fail(fmt::format("/runs/job_key[{}] = '{}': the key of row {} too (one row per job)", i,
                         keys[i], it->second));
      const RunRecord& r = rows[i];
      for (const DoubleField& f : kDoubleFields) {
        // −1: not set (a time before the job ran, lambda_err without a reference); the work
        // counts are NaN where not counted.
        const double x = r.*f.member;
        const bool time = std::string_view(f.name).ends_with("_time_s");
        const bool ok = time ? std::isfinite(x) && (x >= 0 || x == -1.0) : !(x < 0) || x == -1.0;
        if (!ok)
          Fail(fmt::format("/runs/{}[{}] = {}: must be {}", f.name, i, x,
                           time ? "finite and >= 0 (-1: not set)" : ">= 0 (-1 or NaN: not set)"));
      }
      if (r.iterations > 0 && r.total_time_s == 0)  // a clock read in ns: iterations take time
        Fail(fmt::format("/runs/total_time_s[{}] = 0 after {} iterations: must be > 0", i,
                         r.iterations));
      if (r.iterations < -1)  // −1: not set (a row that failed before its job ran)
        Fail(fmt::format("/runs/iterations[{}] = {}: must be >= 0 (-1: not set)", i, r.iterations));
      if (r.repeat < 0) Fail(fmt::format("/runs/repeat[{}] = {}: must be >= 0", i, r.repeat));
      if (keys[i].empty())
        Fail(fmt::format("/runs/job_key[{}] is empty: every row has its key", i));
      // Sizes and thread counts: 0 or more (-1: not set, a file written before the column).
      for (const IntField& f : kIntFields)
        if (r.*f.member < -1)
          Fail(
              fmt::format("/runs/{}[{}] = {}: must be >= 0 (-1: not set)", f.name, i, r.*f.member));
      // Difficulty descriptors: sizes, ratios, a condition number, μ: >= 0 (inf: a singular W),
      // NaN where not computed.
      for (const DescriptorDouble& f : kDescriptorDoubles)
        if (r.descriptors.*f.member < 0)
          Fail(fmt::format("/runs/{}[{}] = {}: must be >= 0 (or NaN: not computed)", f.name, i,
                           r.descriptors.*f.member));
      for (std::size_t k = 0; k < kNumMetrics; ++k)
        if (static_cast<Metric>(k) != Metric::kFbAA && r.final_metrics.value[k] < 0)
          Fail(fmt::format("/runs/{}[{}] = {}: must be >= 0 (or NaN: not computed)",
                           MetricColumn(k), i, r.final_metrics.value[k]));
    }
  }

  void CheckLength(std::size_t got, std::size_t want, const std::string& object) const {
    if (got != want) Fail(fmt::format("{} has {} entries, expected {}", object, got, want));
  }

  bool Exists(const std::string& object) const {
    return H5Lexists(file(), object.c_str(), H5P_DEFAULT) > 0;
  }

  // Metric columns are optional so that files written before a metric was added still read.
  void ReadFinalMetrics(std::vector<RunRecord>& rows) const {
    for (std::size_t k = 0; k < kNumMetrics; ++k) {
      if (!Exists("/runs/" + MetricColumn(k))) continue;
      const std::vector<double> v = ReadColumn<double>(MetricColumn(k), rows.size());
      for (std::size_t i = 0; i < rows.size(); ++i) rows[i].final_metrics.value[k] = v[i];
    }
  }

  // Descriptor columns came later: without them a row keeps "not computed" (NaN, −1).
  void ReadDescriptors(std::vector<RunRecord>& rows) const {
    for (RunRecord& r : rows) r.descriptors.contacts = r.num_contacts, r.descriptors.rows = -1;
    for (const DescriptorInt& f : kDescriptorInts) {
      if (!Exists(std::string("/runs/") + f.name)) continue;
      const std::vector<int> v = ReadColumn<int>(f.name, rows.size());
      for (std::size_t i = 0; i < rows.size(); ++i) rows[i].descriptors.*f.member = v[i];
    }
    for (const DescriptorDouble& f : kDescriptorDoubles) {
      if (!Exists(std::string("/runs/") + f.name)) continue;
      const std::vector<double> v = ReadColumn<double>(f.name, rows.size());
      for (std::size_t i = 0; i < rows.size(); ++i) rows[i].descriptors.*f.member = v[i];
    }
  }

  std::vector<TracePoint> ReadTrace(std::size_t row) const {
    const std::string group = TracePath(row);
    if (!Exists("/traces") || !Exists(group)) Fail("missing trace group " + group);
    const std::vector<int> iterations = ReadNumbers<int>(group + "/iteration");
    const std::vector<double> times = ReadNumbers<double>(group + "/time_s");
    CheckLength(times.size(), iterations.size(), group + "/time_s");
    std::vector<TracePoint> trace(iterations.size());
    for (std::size_t j = 0; j < trace.size(); ++j) {
      // A trace runs forward: iterations and times from 0 on, never back.
      const bool back = j > 0 && (iterations[j] < iterations[j - 1] || times[j] < times[j - 1]);
      if (iterations[j] < 0 || !(std::isfinite(times[j]) && times[j] >= 0) || back)
        Fail(
            fmt::format("{}: point {} (iteration {}, time {} s): iterations and times must be "
                        ">= 0, finite and non-decreasing",
                        group, j, iterations[j], times[j]));
      trace[j].iteration = iterations[j];
      trace[j].time_s = times[j];
    }
    for (std::size_t k = 0; k < kNumMetrics; ++k) {
      const std::string object = group + "/" + kMetricNames[k];
      if (!Exists(object)) continue;
      const std::vector<double> v = ReadNumbers<double>(object);
      CheckLength(v.size(), trace.size(), object);
      for (std::size_t j = 0; j < trace.size(); ++j) {
        // As the final columns: a residual is >= 0 or NaN (not computed); only AA is a log.
        if (static_cast<Metric>(k) != Metric::kFbAA && v[j] < 0)
          Fail(fmt::format("{}[{}] = {}: must be >= 0 (or NaN: not computed)", object, j, v[j]));
        trace[j].metrics.value[k] = v[j];
      }
    }
    for (const StatDouble& f : kStatDoubles) {
      const std::string object = group + "/" + f.name;
      if (!Exists(object)) continue;
      const std::vector<double> v = ReadNumbers<double>(object);
      CheckLength(v.size(), trace.size(), object);
      for (std::size_t j = 0; j < trace.size(); ++j) trace[j].stats.*f.member = v[j];
    }
    for (const StatInt& f : kStatInts) {
      const std::string object = group + "/" + f.name;
      if (!Exists(object)) continue;
      const std::vector<int> v = ReadNumbers<int>(object);
      CheckLength(v.size(), trace.size(), object);
      for (std::size_t j = 0; j < trace.size(); ++j) trace[j].stats.*f.member = v[j];
    }
    return trace;
  }

  std::string path_;
  h5::Handle file_;
};

// ---------------------------------------------------------------------------------------------
// Writing.

class ResultsWriter {
 public:
  explicit ResultsWriter(std::string path) : path_(std::move(path)) {
    h5::SilenceErrors();  // one-line ncp::Error instead of HDF5's stack printout
    // Built in memory, written to disk by Close() (h5::CreateInMemory).
    errno = 0;
    file_ = h5::Handle(h5::CreateInMemory(path_, H5P_DEFAULT, FileAccess()));
    if (!file_.valid())  // the OS's reason where there is one (a full disk: no space left)
      Fail(errno != 0 ? fmt::format("cannot create the file: {}", std::strerror(errno))
                      : "cannot create the file");
    runs_ = CreateGroup(file_.id(), "runs");
    traces_ = CreateGroup(file_.id(), "traces");
  }

  void WriteAttrs(const std::map<std::string, std::string>& run_attrs) {
    WriteStringAttr(kFormatAttr, kResultsFormat);
    h5::Handle space(H5Screate(H5S_SCALAR));
    h5::Handle attr(
        H5Acreate2(file_.id(), kSchemaAttr, H5T_STD_I32LE, space.id(), H5P_DEFAULT, H5P_DEFAULT));
    if (!attr.valid() || H5Awrite(attr.id(), H5T_NATIVE_INT, &kResultsSchemaVersion) < 0) {
      Fail(std::string("cannot write attribute ") + kSchemaAttr);
    }
    for (const auto& [key, value] : run_attrs) {
      if (key == kFormatAttr || key == kSchemaAttr) {
        throw Error(fmt::format("run attribute '{}' is reserved by the results format", key));
      }
      WriteStringAttr(key, value);
    }
  }

  void WriteRuns(const std::vector<RunRecord>& rows) {
    for (const StringField& f : kStringFields) {
      std::vector<std::string> v;
      for (const RunRecord& r : rows) v.push_back(r.*f.member);
      WriteStrings(runs_.id(), f.name, v);
    }
    {
      std::vector<std::string> v;
      for (const RunRecord& r : rows) v.push_back(ToString(r.status));
      WriteStrings(runs_.id(), "status", v);
    }
    for (const IntField& f : kIntFields) {
      std::vector<int> v;
      for (const RunRecord& r : rows) v.push_back(r.*f.member);
      WriteNumbers(runs_.id(), f.name, v);
    }
    for (const DoubleField& f : kDoubleFields) {
      std::vector<double> v;
      for (const RunRecord& r : rows) v.push_back(r.*f.member);
      WriteNumbers(runs_.id(), f.name, v);
    }
    for (std::size_t k = 0; k < kNumMetrics; ++k) {
      std::vector<double> v;
      for (const RunRecord& r : rows) v.push_back(r.final_metrics.value[k]);
      WriteNumbers(runs_.id(), MetricColumn(k), v);
    }
    for (const DescriptorInt& f : kDescriptorInts) {
      std::vector<int> v;
      for (const RunRecord& r : rows) v.push_back(r.descriptors.*f.member);
      WriteNumbers(runs_.id(), f.name, v);
    }
    for (const DescriptorDouble& f : kDescriptorDoubles) {
      std::vector<double> v;
      for (const RunRecord& r : rows) v.push_back(r.descriptors.*f.member);
      WriteNumbers(runs_.id(), f.name, v);
    }
  }

  void WriteTrace(std::size_t row, const std::vector<TracePoint>& trace) {
    h5::Handle group = CreateGroup(traces_.id(), std::to_string(row));
    std::vector<int> iterations;
    std::vector<double> times;
    for (const TracePoint& p : trace) {
      iterations.push_back(p.iteration);
      times.push_back(p.time_s);
    }
    WriteNumbers(group.id(), "iteration", iterations);
    WriteNumbers(group.id(), "time_s", times);
    for (std::size_t k = 0; k < kNumMetrics; ++k) {
      std::vector<double> v;
      for (const TracePoint& p : trace) v.push_back(p.metrics.value[k]);
      WriteNumbers(group.id(), kMetricNames[k], v);
    }
    for (const StatDouble& f : kStatDoubles) {
      std::vector<double> v;
      bool reported = false;
      for (const TracePoint& p : trace) {
        v.push_back(p.stats.*f.member);
        reported |= !std::isnan(v.back());
      }
      if (reported) WriteNumbers(group.id(), f.name, v);
    }
    for (const StatInt& f : kStatInts) {
      std::vector<int> v;
      bool reported = false;
      for (const TracePoint& p : trace) {
        v.push_back(p.stats.*f.member);
        reported |= v.back() >= 0;
      }
      if (reported) WriteNumbers(group.id(), f.name, v);
    }
  }

  void WriteObservations(const std::vector<Observation>& obs) {
    h5::Handle group = CreateGroup(file_.id(), "observations");
    std::vector<std::string> parts, keys, texts;
    std::vector<double> values;
    for (const Observation& o : obs) {
      parts.push_back(o.part);
      keys.push_back(o.key);
      texts.push_back(o.text);
      values.push_back(o.value);
    }
    WriteStrings(group.id(), "part", parts);
    WriteStrings(group.id(), "key", keys);
    WriteStrings(group.id(), "text", texts);
    WriteNumbers(group.id(), "value", values);
  }

  void WriteClaims(const std::vector<ClaimRecord>& claims) {
    h5::Handle group = CreateGroup(file_.id(), "claims");
    for (const auto& [name, field] : kClaimText) {
      std::vector<std::string> col;
      for (const ClaimRecord& c : claims) col.push_back(c.*field);
      WriteStrings(group.id(), name, col);
    }
    for (const auto& [name, field] : kClaimInts) {
      std::vector<int> col;
      for (const ClaimRecord& c : claims) col.push_back(c.*field);
      WriteNumbers(group.id(), name, col);
    }
  }

  // Copies a stored trace group without decoding it, so merging costs no memory per trace.
  void CopyTrace(hid_t source_file, std::size_t source_row, std::size_t row) {
    const std::string from = TracePath(source_row);
    if (H5Ocopy(source_file, from.c_str(), traces_.id(), std::to_string(row).c_str(), H5P_DEFAULT,
                H5P_DEFAULT) < 0) {
      Fail("cannot copy trace " + from + " to " + TracePath(row));
    }
  }

  void Close() {
    traces_.Reset();
    runs_.Reset();
    h5::CloseWritten(file_, path_);
  }

 private:
  [[noreturn]] void Fail(const std::string& what) const {
    throw Error(fmt::format("results file '{}': {}", path_, what));
  }

  h5::Handle CreateGroup(hid_t loc, const std::string& name) {
    h5::Handle group(H5Gcreate2(loc, name.c_str(), H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT));
    if (!group.valid()) Fail("cannot create group " + name);
    return group;
  }

  // Strings are written fixed-length (width of the longest, NUL-padded, UTF-8): variable-length
  // ones live in HDF5's global heap, whose reader (H5HG_read) crashes or loops on a corrupt
  // file. Files written before keep reading (ResultsReader takes both, in a guarded child).
  void WriteStringAttr(const std::string& name, const std::string& value) {
    h5::Handle type = h5::FixedStringType(value.size());
    h5::Handle space(H5Screate(H5S_SCALAR));
    h5::Handle attr(
        H5Acreate2(file_.id(), name.c_str(), type.id(), space.id(), H5P_DEFAULT, H5P_DEFAULT));
    std::string buffer = value;
    buffer.resize(H5Tget_size(type.id()), '\0');
    if (!attr.valid() || H5Awrite(attr.id(), type.id(), buffer.data()) < 0) {
      Fail("cannot write attribute " + name);
    }
  }

  void WriteStrings(hid_t loc, const std::string& name, const std::vector<std::string>& v) {
    std::size_t width = 0;
    for (const std::string& s : v) width = std::max(width, s.size());
    h5::Handle type = h5::FixedStringType(width);
    width = H5Tget_size(type.id());
    h5::Handle space = Space1D(v.size());
    h5::Handle ds(H5Dcreate2(loc, name.c_str(), type.id(), space.id(), H5P_DEFAULT, H5P_DEFAULT,
                             H5P_DEFAULT));
    std::string buffer(v.size() * width, '\0');
    for (std::size_t i = 0; i < v.size(); ++i) v[i].copy(buffer.data() + i * width, width);
    if (!ds.valid() || (!v.empty() && H5Dwrite(ds.id(), type.id(), H5S_ALL, H5S_ALL, H5P_DEFAULT,
                                               buffer.data()) < 0)) {
      Fail("cannot write dataset " + name);
    }
  }

  template <typename T>
  void WriteNumbers(hid_t loc, const std::string& name, const std::vector<T>& v) {
    constexpr bool kInt = std::is_same_v<T, int>;
    const hid_t file_type = kInt ? H5T_STD_I32LE : H5T_IEEE_F64LE;
    const hid_t mem_type = kInt ? H5T_NATIVE_INT : H5T_NATIVE_DOUBLE;
    h5::Handle space = Space1D(v.size());
    h5::Handle ds(H5Dcreate2(loc, name.c_str(), file_type, space.id(), H5P_DEFAULT, H5P_DEFAULT,
                             H5P_DEFAULT));
    if (!ds.valid() ||
        (!v.empty() && H5Dwrite(ds.id(), mem_type, H5S_ALL, H5S_ALL, H5P_DEFAULT, v.data()) < 0)) {
      Fail("cannot write dataset " + name);
    }
  }

  std::string path_;
  h5::Handle file_;
  h5::Handle runs_;
  h5::Handle traces_;
};

// Runs `write` on a fresh results file at `tmp` and publishes it as `path`; on failure the
// temporary file is removed and `path` is left as it was.
template <typename WriteFn>
void WriteAtomically(const std::string& path, WriteFn write) {
  ReplaceFile(path, [&](const std::string& tmp) {
    ResultsWriter writer(tmp);
    write(writer);
    writer.Close();
  });
}

// Reading a corrupt file's variable-length strings can crash libhdf5 itself (H5HG_read trusts
// the sizes in the global heap), and a read that does not crash can still damage libhdf5's heap:
// a results file that did not come from this process is read in a child, which writes what it
// read to a fresh file, and this process reads only that copy (problems/io/guarded_read.h). The
// store's own parts are not copied: thousands of forks would dominate a resume.
void CopyResults(const std::string& in, const std::string& out) {
  const ResultsReader reader(in);
  std::map<std::string, std::string> attrs = reader.Attrs();
  attrs.erase(kFormatAttr);
  const std::vector<RunRecord> rows = reader.Rows(true);
  try {
    WriteResults(out, rows, attrs, reader.Observations(), reader.Claims());
  } catch (const Error& e) {
    ThrowCopyNotWritten(in, out, "rows", e.what());
  }
}

std::unique_ptr<TrustedCopy> CopyOf(const std::string& path) {
  return std::make_unique<TrustedCopy>(path, CopyResults, ProbeTimeLimit(path));
}

// Why a part cannot stand for its job's row ("" when it can): read whole (row, values, trace)
// as any reader reads a results file, and its key against its name.
std::string PartRejection(const std::string& part) {
  try {
    const ResultsReader reader(part);
    reader.Rows(true);
    return PartMismatch(part, reader.JobKeys());
  } catch (const Error& e) {
    return fmt::format("unreadable: {}", e.what());
  }
}

// The parts a run finds when it starts were written by an earlier process, or planted: a forged
// part can crash libhdf5 (a variable-length string) or hold what no run writes, and a part is
// merged by copying its trace as it is. So they are read in a forked child, as any file that
// did not come from this process: `in` is one part, every part of its folder is checked, and
// `out` lists the rejected ones, a line "<file name>\t<why>" each.
void CheckPartsOfFolder(const std::string& in, const std::string& out) {
  std::string rejected;
  for (const std::string& part : PartFiles(fs::path(in).parent_path().string()))
    if (const std::string why = PartRejection(part); !why.empty())
      rejected += fs::path(part).filename().string() + "\t" + why + "\n";
  WriteFileAtomically(out, rejected);
}

// One part on its own (when a part ended the folder's check): "" or its one line.
void CheckOnePart(const std::string& in, const std::string& out) {
  const std::string why = PartRejection(in);
  WriteFileAtomically(out, why.empty() ? "" : fs::path(in).filename().string() + "\t" + why + "\n");
}

// "<file name>\t<why>" lines into a map.
void ReadRejections(const std::string& listing, std::map<std::string, std::string>& rejected) {
  std::ifstream in(listing);
  std::string line;
  while (std::getline(in, line)) {
    const std::size_t tab = line.find('\t');
    if (tab != std::string::npos) rejected[line.substr(0, tab)] = line.substr(tab + 1);
  }
}

// The rejected parts of `parts` (all of one folder), by file name: one child for the folder,
// and where a part ends that child (a crash inside libhdf5), one child per part.
std::map<std::string, std::string> RejectedParts(const std::vector<std::string>& parts) {
  std::map<std::string, std::string> rejected;
  if (parts.empty()) return rejected;
  // A part reads in milliseconds: a twentieth of one file's limit each, one file's at least.
  double limit = 0.0;
  for (const std::string& part : parts) limit += ProbeTimeLimit(part) / 20;
  limit = std::max(limit, ProbeTimeLimit(parts.front()));
  try {
    const TrustedCopy check(parts.front(), CheckPartsOfFolder, limit);
    ReadRejections(check.path(), rejected);
  } catch (const Error&) {
    for (const std::string& part : parts) {
      try {
        const TrustedCopy check(part, CheckOnePart, ProbeTimeLimit(part));
        ReadRejections(check.path(), rejected);
      } catch (const Error& e) {
        rejected[fs::path(part).filename().string()] = fmt::format("unreadable: {}", e.what());
      }
    }
  }
  return rejected;
}

}  // namespace

// ---------------------------------------------------------------------------------------------

// Opens and locks `lock`: true when this process holds the lock of the file at that name.
// Never through a link, and only a plain file of one name: a link or hard link planted at the
// lock's name (in a shared folder such as /tmp) must not make the pid written into it overwrite
// another file.
ResultsStore::ResultsStore(std::string path, Access access) : path_(std::move(path)) {
  RefuseNulInPath(path_);  // the lock, the parts and the existing file would be another's
  if (access == Access::kContributor) {
    // Another process owns the output: read what is done, take no lock, remove nothing.
    std::error_code ec;
    if (fs::exists(path_, ec)) {
      for (std::string& key : ResultsReader(CopyOf(path_)->path()).JobKeys())
        keys_.insert(std::move(key));
    }
    // Judged as the owner judges them (RejectedParts): a part the owner removes and redoes
    // must not count as done here, or no rank would run its job again.
    const std::vector<std::string> parts = PartFiles(parts_dir());
    const std::map<std::string, std::string> rejected = RejectedParts(parts);
    for (const std::string& part : parts) {
      if (rejected.count(fs::path(part).filename().string())) continue;
      try {
        std::vector<std::string> keys = ResultsReader(part).JobKeys();
        if (PartMismatch(part, keys).empty()) keys_.insert(std::move(keys.front()));
      } catch (const Error&) {
        // The owner removes it and its job runs again.
      }
    }
    return;
  }
  // One run per output at a time: two would merge and remove each other's parts.
  lock_ = std::make_unique<OutputLock>(path_);
  std::error_code ec;
  if (fs::exists(path_, ec)) {
    try {
      existing_ = CopyOf(path_);  // read again by Finalize
      const ResultsReader reader(existing_->path());
      if (reader.IsReproduction())
        throw Error(
            fmt::format("{}: is a paper reproduction's results file: writing runs into it "
                        "would drop its observations and claims; write to another path",
                        path_));
      for (std::string& key : reader.JobKeys()) keys_.insert(std::move(key));
    } catch (...) {
      ReleaseLock();  // the destructor does not run for a constructor that throws
      throw;
    }
  }
  // The parts live beside the output: a link at their folder's name would put them, and the
  // removal after the merge, elsewhere.
  if (fs::is_symlink(fs::symlink_status(parts_dir(), ec))) {
    lock_->Release(true);  // not ReleaseLock(): its removal of an empty folder takes the link
    lock_.reset();
    throw Error(
        fmt::format("{}: is a link: a run's parts are a folder beside its output; "
                    "remove the link",
                    parts_dir()));
  }
  // Parts are renamed into place whole, so one that does not read whole is damage from outside
  // (a full disk, a copy cut short, a forged file): its job runs again instead of blocking every
  // rerun or reaching the merged file.
  const std::vector<std::string> parts = PartFiles(parts_dir());
  const std::map<std::string, std::string> rejected = RejectedParts(parts);
  for (const std::string& part : parts) {
    std::vector<std::string> keys;
    std::string why;
    if (const auto it = rejected.find(fs::path(part).filename().string()); it != rejected.end()) {
      why = it->second;
    } else {
      try {
        keys = ResultsReader(part).JobKeys();
        why = PartMismatch(part, keys);
      } catch (const Error& e) {
        why = fmt::format("unreadable: {}", e.what());
      }
    }
    if (!why.empty()) {
      std::fprintf(stderr, "warning: %s: removed, its job runs again (%s)\n", part.c_str(),
                   why.c_str());
      fs::remove(part, ec);
      continue;
    }
    keys_.insert(std::move(keys.front()));
  }
}

ResultsStore::~ResultsStore() { ReleaseLock(); }

void ResultsStore::ReleaseLock() {
  if (!lock_) return;
  // A finished output's lock file goes with it, and so does a refused one's (no parts written:
  // it left <out>.lock behind); an interrupted run's stays beside its parts (its flock does not).
  std::error_code ec;
  fs::remove(parts_dir(), ec);  // only when empty (a run refused before its first job)
  lock_->Release(finished_ || !fs::exists(parts_dir(), ec));
  lock_.reset();
}

bool ResultsStore::Has(const std::string& job_key) const {
  std::lock_guard<std::mutex> lock(mutex_);
  return keys_.count(job_key) > 0;
}

void ResultsStore::KeepOnly(std::set<std::string> keys) {
  std::lock_guard<std::mutex> lock(mutex_);
  keep_ = std::move(keys);
}

std::size_t ResultsStore::size() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return keys_.size();
}

void ResultsStore::Add(const RunRecord& r) {
  if (r.job_key.empty()) throw Error("RunRecord.job_key is empty: every result needs a job key");
  std::lock_guard<std::mutex> lock(mutex_);
  std::error_code ec;
  fs::create_directories(parts_dir(), ec);
  if (ec) throw Error(fmt::format("cannot create '{}': {}", parts_dir(), ec.message()));
  const std::string part = parts_dir() + "/" + HashHex(r.job_key) + ".h5";
  // Something other than a file at the part's name (a folder left by hand) would fail the rename
  // on every rerun.
  if (const fs::file_status at = fs::symlink_status(part, ec);
      fs::exists(at) && !fs::is_regular_file(at))
    fs::remove_all(part, ec);
  WriteAtomically(part, [&](ResultsWriter& w) {
    w.WriteAttrs(part_attrs_);
    w.WriteRuns({r});
    w.WriteTrace(0, r.trace);
  });
  keys_.insert(r.job_key);
}

void ResultsStore::PlannedJobs(std::set<std::string> keys) { planned_ = std::move(keys); }

void ResultsStore::Finalize(const std::map<std::string, std::string>& run_attrs) {
  MergeSources({}, run_attrs);
}

MergeStats ResultsStore::Merge(const std::vector<std::string>& inputs) {
  return MergeSources(inputs, {});
}

MergeStats ResultsStore::MergeSources(const std::vector<std::string>& inputs,
                                      const std::map<std::string, std::string>& run_attrs) {
  if (!lock_) throw Error(fmt::format("{}: only the owner of the output writes it", path_));
  std::lock_guard<std::mutex> lock(mutex_);
  // Where each job's row comes from; later sources replace earlier rows with the same key:
  // the existing file, then the inputs in the order given, then the parts.
  struct Source {
    RunRecord row;
    const ResultsReader* reader = nullptr;  // an open file, or null for a part
    std::string part;
    std::size_t row_in_source = 0;
  };
  std::map<std::string, Source> merged;  // ordered by job key
  std::map<std::string, std::string> attrs;
  std::vector<std::unique_ptr<ResultsReader>> open;
  MergeStats stats;
  std::error_code ec;
  // A plug-in's hashes are gathered, not replaced: rows of every build may be here. Hash by
  // hash ("h1; h2" and "h2; h1" give "h1; h2").
  const auto gather_plugin = [&attrs](const std::string& key, const std::string& value) {
    if (key.rfind(kRunAttrPluginPrefix, 0) != 0) return false;
    std::string& mine = attrs[key];
    for (std::size_t at = 0; at <= value.size();) {
      const std::size_t end = std::min(value.find("; ", at), value.size());
      const std::string hash = value.substr(at, end - at);
      if (!hash.empty() && ("; " + mine + "; ").find("; " + hash + "; ") == std::string::npos)
        mine += (mine.empty() ? "" : "; ") + hash;
      at = end + 2;
    }
    return true;
  };
  const auto add_file = [&](const std::string& file, const std::string& named, bool is_input) {
    open.push_back(std::make_unique<ResultsReader>(file));
    const ResultsReader& reader = *open.back();
    if (reader.IsReproduction())
      throw Error(
          fmt::format("merge: '{}' is a paper reproduction's results file: a merge keeps "
                      "rows and traces and would drop its observations and claims "
                      "(`ncpbench claims` reads several of them as they are)",
                      named));
    std::map<std::string, std::string> file_attrs = reader.Attrs();
    file_attrs.erase(kFormatAttr);
    for (const auto& [key, value] : file_attrs) {
      if (gather_plugin(key, value)) continue;
      // Inputs measured elsewhere (other shards, hosts, dates) keep every distinct value.
      std::string& mine = attrs[key];
      if (mine.empty())
        mine = value;
      else if (is_input && ("; " + mine + "; ").find("; " + value + "; ") == std::string::npos)
        mine += "; " + value;
    }
    std::vector<RunRecord> rows = reader.Rows(false);
    for (std::size_t i = 0; i < rows.size(); ++i) {
      const std::string key = rows[i].job_key;
      const bool seen = merged.count(key) > 0;
      if (is_input && seen) ++stats.repeated;
      merged[key] = {std::move(rows[i]), &reader, "", i};
    }
  };
  if (existing_) add_file(existing_->path(), path_, false);
  std::vector<std::unique_ptr<TrustedCopy>> copies;
  for (const std::string& input : inputs) {
    if (fs::equivalent(input, path_, ec)) {
      throw Error(fmt::format("merge: input '{}' is the output itself", input));
    }
    copies.push_back(CopyOf(input));
    add_file(copies.back()->path(), input, true);
  }
  std::map<std::string, int> foreign;  // "solver (budget)" → parts of jobs not planned now
  for (const std::string& part : PartFiles(parts_dir())) {
    const ResultsReader part_reader(part);
    std::vector<RunRecord> rows = part_reader.Rows(false);
    std::vector<std::string> keys;
    for (const RunRecord& r : rows) keys.push_back(r.job_key);
    if (const std::string why = PartMismatch(part, keys); !why.empty()) {
      std::fprintf(stderr, "warning: %s: not merged (%s)\n", part.c_str(), why.c_str());
      continue;
    }
    if (planned_ && !keep_ && planned_->count(keys.front()) == 0)
      ++foreign[fmt::format("{} on {} ({})", rows.front().solver, rows.front().dataset,
                            rows.front().budget)];
    if (!keep_ || keep_->count(keys.front()))
      for (const auto& [key, value] : part_reader.Attrs()) gather_plugin(key, value);
    merged[keys.front()] = {std::move(rows.front()), nullptr, part, 0};
  }
  if (!foreign.empty()) {
    int n = 0;
    std::vector<std::string> what;
    for (const auto& [label, count] : foreign)
      n += count, what.push_back(fmt::format("{} × {}", count, label));
    std::fprintf(stderr,
                 "warning: %s: %d finished jobs of an interrupted run with other arguments (%s) "
                 "are merged from %s, as that run's rows would be had it finished; remove %s "
                 "before a rerun to leave them out\n",
                 path_.c_str(), n, fmt::format("{}", fmt::join(what, "; ")).c_str(),
                 parts_dir().c_str(), parts_dir().c_str());
  }
  if (keep_) {
    std::size_t dropped = 0;
    for (auto it = merged.begin(); it != merged.end();)
      if (keep_->count(it->first) == 0) {
        it = merged.erase(it);
        ++dropped;
      } else {
        ++it;
      }
    if (dropped > 0)
      std::fprintf(stderr,
                   "%s: %zu rows of other jobs (an earlier run's, with other arguments) dropped\n",
                   path_.c_str(), dropped);
  }
  for (const auto& [key, value] : run_attrs)
    if (!gather_plugin(key, value)) attrs[key] = value;
  // Every job this store saw done must have its row: parts removed during the run (a cleaner
  // sweeping the folder) would otherwise leave a file with rows missing and exit 0. The parts
  // that remain stay, so the rerun redoes only the lost jobs.
  if (inputs.empty()) {
    std::size_t missing = 0;
    for (const std::string& key : keys_)
      missing += merged.count(key) == 0 && (!keep_ || keep_->count(key) > 0);
    if (missing > 0)
      throw Error(
          fmt::format("{}: {} of {} finished jobs have no row (their part files under {} "
                      "were removed during the run); nothing merged: run the same command "
                      "again to redo them",
                      path_, missing, keys_.size(), parts_dir()));
  }

  WriteAtomically(path_, [&](ResultsWriter& w) {
    w.WriteAttrs(attrs);
    std::vector<RunRecord> rows;
    for (const auto& [key, source] : merged) rows.push_back(source.row);
    w.WriteRuns(rows);
    std::size_t row = 0;
    for (const auto& [key, source] : merged) {
      if (source.reader != nullptr) {
        w.CopyTrace(source.reader->file(), source.row_in_source, row++);
      } else {
        w.CopyTrace(ResultsReader(source.part).file(), source.row_in_source, row++);
      }
    }
    open.clear();  // closed before the new file is renamed onto the old one
  });
  fs::remove_all(parts_dir(), ec);
  // Gone already (removed from outside after the merge): the output is complete all the same.
  if (ec && ec != std::errc::no_such_file_or_directory)
    throw Error(fmt::format("cannot remove '{}': {}", parts_dir(), ec.message()));
  for (const auto& [key, source] : merged) keys_.insert(key);
  stats.rows = merged.size();
  finished_ = true;
  return stats;
}

bool HasFinishedParts(const std::string& output) { return !PartFiles(output + ".parts").empty(); }

std::vector<RunRecord> ReadResults(const std::string& path) {
  return ResultsReader(CopyOf(path)->path()).Rows(true);
}

std::map<std::string, std::string> ReadRunAttrs(const std::string& path) {
  std::map<std::string, std::string> attrs = ResultsReader(CopyOf(path)->path()).Attrs();
  attrs.erase(kFormatAttr);
  return attrs;
}

void WriteResults(const std::string& path, const std::vector<RunRecord>& rows,
                  const std::map<std::string, std::string>& run_attrs,
                  const std::vector<Observation>& observations,
                  const std::vector<ClaimRecord>& claims) {
  WriteAtomically(path, [&](ResultsWriter& w) {
    w.WriteAttrs(run_attrs);
    w.WriteRuns(rows);
    for (std::size_t i = 0; i < rows.size(); ++i) w.WriteTrace(i, rows[i].trace);
    if (!observations.empty()) w.WriteObservations(observations);
    if (!claims.empty()) w.WriteClaims(claims);
  });
}

ResultsFile ReadResultsFile(const std::string& path) {
  const std::unique_ptr<TrustedCopy> copy = CopyOf(path);
  const ResultsReader reader(copy->path());
  ResultsFile f{reader.Attrs(), reader.Rows(true), reader.Observations(), reader.Claims()};
  f.attrs.erase(kFormatAttr);
  return f;
}

}  // namespace ncp
