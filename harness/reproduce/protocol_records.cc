#include "harness/reproduce/protocol_records.h"

#include <fmt/format.h>

#include <cmath>
#include <cstdlib>
#include <filesystem>

#include "common/error.h"
#include "harness/reproduce/solver_info.h"
#include "harness/results_store.h"
#include "harness/machine_peaks.h"
#include "harness/system_info.h"

namespace ncp {
namespace {
namespace protocol_records {

constexpr char kCasesAttr[] = "reproduce_cases";
constexpr char kMaxItersAttr[] = "reproduce_max_iters";
constexpr char kTracesAttr[] = "reproduce_traces";

int IntAttr(const std::map<std::string, std::string>& attrs, const char* key,
            const std::string& path) {
  // Required: read as 0 (the protocol's defaults), a capped or small run's file with these
  // removed would carry verdicts it cannot.
  const auto it = attrs.find(key);
  if (it == attrs.end())
    throw Error(
        fmt::format("results file '{}': attribute {} is missing: a reproduction's file "
                    "records the cases and the iteration cap it ran with",
                    path, key));
  char* end = nullptr;
  const long v = std::strtol(it->second.c_str(), &end, 10);
  if (it->second.empty() || *end != '\0' || v < 0 || v > (1 << 30))
    throw Error(fmt::format("results file '{}': attribute {} = '{}': must be a whole number >= 0",
                            path, key, it->second));
  return static_cast<int>(v);
}

}  // namespace protocol_records
}  // namespace

ProtocolRecords ProtocolRecords::Read(const std::string& path) {
  using namespace protocol_records;
  ResultsFile file = ReadResultsFile(path);
  const std::map<std::string, std::string>& attrs = file.attrs;
  const auto id = attrs.find(kReproduceIdAttr);
  if (id == attrs.end())
    throw Error(
        fmt::format("results file '{}': attribute {} is missing: not written by "
                    "`ncpbench reproduce`",
                    path, kReproduceIdAttr));
  const auto traces = attrs.find(kTracesAttr);
  ProtocolRecords r(id->second, traces == attrs.end() || traces->second != "no");
  r.options_.cases = IntAttr(attrs, kCasesAttr, path);
  r.options_.max_iters = IntAttr(attrs, kMaxItersAttr, path);
  r.options_.traces = r.traces_;
  r.rows_ = std::move(file.rows);
  r.observations_ = std::move(file.observations);
  return r;
}

std::string SameMeasurement(const std::string& path, const std::string& id,
                            const ReproduceOptions& o, const MeasuringHost& host) {
  using namespace protocol_records;
  const std::string& revision = host.revision;
  if (revision.empty() || revision == "unknown" || revision.find("dirty") != std::string::npos)
    return "";
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec)) return "";
  std::map<std::string, std::string> attrs;
  try {
    attrs = ReadRunAttrs(path);
  } catch (const Error&) {
    return "";  // measured again, and replaced
  }
  const auto is = [&attrs](const char* key, const std::string& value) {
    const auto it = attrs.find(key);
    return it != attrs.end() && it->second == value;
  };
  if (!is(kReproduceIdAttr, id) || !is(kRunAttrGitRevision, revision) ||
      !is(kRunAttrCpu, host.cpu) || !is(kRunAttrHostThreads, host.threads) ||
      !is(kCasesAttr, std::to_string(o.cases)) || !is(kMaxItersAttr, std::to_string(o.max_iters)) ||
      !is(kTracesAttr, o.traces ? "yes" : "no"))
    return "";
  const auto date = attrs.find(kRunAttrDate);
  return fmt::format(
      "finished {}by revision {} on this CPU with the same threads, cases, iteration cap and "
      "traces",
      date == attrs.end() ? "" : date->second + " ", revision);
}

std::string KeptReproduction(const std::string& out_dir, const std::string& id,
                             const ReproduceOptions& o, const MeasuringHost& host) {
  namespace fs = std::filesystem;
  const std::string h5 = out_dir + "/" + id + ".h5", md = out_dir + "/" + id + ".md";
  std::error_code ec1, ec2;
  if (!fs::is_regular_file(md, ec1)) return "";
  const auto md_time = fs::last_write_time(md, ec1), h5_time = fs::last_write_time(h5, ec2);
  if (ec1 || ec2 || md_time < h5_time) return "";
  return SameMeasurement(h5, id, o, host);
}

void ProtocolRecords::set_options(const ReproduceOptions& o) {
  options_ = o;
  options_.records = nullptr;
  traces_ = o.traces;
}

void ProtocolRecords::Add(RunRecord r, const std::string& part, const std::string& problem) {
  if (part.empty()) throw Error(fmt::format("{}: a recorded run needs a part name", id_));
  if (!problem.empty()) r.problem = problem;
  if (r.problem.empty()) r.problem = "case";
  r.dataset = id_ + "/" + part;
  const std::string job =
      fmt::format("{}|{}|{}|{}|{}|warm={}|threads={}", r.dataset, r.problem, r.solver, r.settings,
                  r.budget, r.warm_start, r.threads_given);
  r.repeat = repeats_[job]++;
  r.job_key = fmt::format("{}|repeat={}", job, r.repeat);
  if (!traces_) r.trace.clear();
  rows_.push_back(std::move(r));
}

const Observation* ProtocolRecords::Find(const std::string& part, const std::string& key) const {
  for (const Observation& o : observations_)
    if (o.part == part && o.key == key) return &o;
  return nullptr;
}

Observation& ProtocolRecords::Slot(const std::string& part, const std::string& key) {
  for (Observation& o : observations_)
    if (o.part == part && o.key == key) return o;
  return observations_.emplace_back(Observation{part, key, NAN, ""});
}

void ProtocolRecords::Observe(const std::string& part, const std::string& key, double value) {
  Slot(part, key).value = value;
}

void ProtocolRecords::Note(const std::string& part, const std::string& key,
                           const std::string& text) {
  Slot(part, key).text = text;
}

std::vector<const RunRecord*> ProtocolRecords::Part(const std::string& part) const {
  const std::string dataset = id_ + "/" + part;
  std::vector<const RunRecord*> out;
  for (const RunRecord& r : rows_)
    if (r.dataset == dataset) out.push_back(&r);
  return out;
}

std::vector<const RunRecord*> ProtocolRecords::Part(const std::string& part,
                                                    const std::string& solver) const {
  std::vector<const RunRecord*> out;
  for (const RunRecord* r : Part(part))
    if (r->solver == solver) out.push_back(r);
  return out;
}

bool ProtocolRecords::Has(const std::string& part, const std::string& key) const {
  return Find(part, key) != nullptr;
}

double ProtocolRecords::Value(const std::string& part, const std::string& key) const {
  const Observation* o = Find(part, key);
  if (!o)
    throw Error(fmt::format("{}: no observation '{}' of part '{}' in its records", id_, key, part));
  return o->value;
}

double ProtocolRecords::ValueOr(const std::string& part, const std::string& key,
                                double missing) const {
  const Observation* o = Find(part, key);
  return o ? o->value : missing;
}

const std::string& ProtocolRecords::Text(const std::string& part, const std::string& key) const {
  const Observation* o = Find(part, key);
  if (!o)
    throw Error(fmt::format("{}: no observation '{}' of part '{}' in its records", id_, key, part));
  return o->text;
}

void ProtocolRecords::Write(const std::string& path,
                            const std::map<std::string, std::string>& attrs) const {
  using namespace protocol_records;
  std::map<std::string, std::string> all = HostRunAttrs(NCPBENCH_SOURCE_DIR);
  AddPeakAttrs(all);
  all[kReproduceIdAttr] = id_;
  all[kCasesAttr] = std::to_string(options_.cases);
  all[kMaxItersAttr] = std::to_string(options_.max_iters);
  all[kTracesAttr] = traces_ ? "yes" : "no";
  for (const auto& [k, v] : attrs) all[k] = v;
  WriteResults(path, rows_, all, observations_);
}

void Record(const ReproduceOptions& opt, RunRecord r, const std::string& part,
            const std::string& problem) {
  if (opt.records) opt.records->Add(std::move(r), part, problem);
}

void ObserveRun(RunRecord& r, const std::string& key, double value) {
  r.observations += fmt::format("{}{}={:.17g}", r.observations.empty() ? "" : ";", key, value);
}

double RunObservation(const RunRecord& r, const std::string& key, double missing) {
  return InfoValue(r.observations, key, missing);
}

}  // namespace ncp
