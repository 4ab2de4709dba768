// Results in HDF5, long format (one row per RunRecord) plus per-iteration traces; the layout is
// documented field by field in results/README.md.
//
// A run is resumable: every finished job is written at once as its own small part file under
// `<path>.parts/` (written to a temporary name, then renamed), so a crash at any moment leaves
// only complete parts, and a restarted run skips the jobs whose key it already finds.
// Finalize() merges the parts into `<path>` the same way.
#pragma once

#include <cstddef>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "harness/output_lock.h"
#include "harness/run_record.h"

namespace ncp {

inline constexpr char kResultsFormat[] = "ncpbench-results";
inline constexpr int kResultsSchemaVersion = 1;

// Run attribute keys that reports read; callers may add any other string attribute.
inline constexpr char kRunAttrVersion[] = "version";
inline constexpr char kRunAttrGitRevision[] = "git_revision";
inline constexpr char kRunAttrDate[] = "date";
inline constexpr char kRunAttrCpu[] = "cpu";
inline constexpr char kRunAttrThreads[] = "threads";
inline constexpr char kRunAttrHostThreads[] = "host_threads";
inline constexpr char kRunAttrOpenMpEnv[] = "openmp_env";  // OpenMpEnvironment()
inline constexpr char kRunAttrVersionCompiler[] = "version_compiler";
inline constexpr char kRunAttrVersionSiconos[] = "version_siconos";
inline constexpr char kRunAttrVersionMujoco[] = "version_mujoco";
inline constexpr char kRunAttrVersionBullet[] = "version_bullet";
inline constexpr char kRunAttrVersionDart[] = "version_dart";
// One per loaded solver plug-in: "plugin:<canonical path>" = the hash of its bytes when loaded.
inline constexpr char kRunAttrPluginPrefix[] = "plugin:";
// The machine's measured peaks (harness/machine_peaks.h): bandwidth, flop rate, threads, date.
inline constexpr char kRunAttrPeakBandwidth1[] = "peak_bandwidth_gbs_1thread";
inline constexpr char kRunAttrPeakBandwidth[] = "peak_bandwidth_gbs";
inline constexpr char kRunAttrPeakFlops1[] = "peak_gflops_1thread";
inline constexpr char kRunAttrPeakFlops[] = "peak_gflops";
inline constexpr char kRunAttrPeakThreads[] = "peak_threads";
inline constexpr char kRunAttrPeaksMeasured[] = "peaks_measured";

struct MergeStats {
  std::size_t rows = 0;      // rows of the merged file
  std::size_t repeated = 0;  // job keys found in more than one input (the later one kept)
};

class TrustedCopy;  // problems/io/guarded_read.h

class ResultsStore {
 public:
  // kOwner takes the output's lock and alone may Finalize or Merge. kContributor is a further
  // process of the same run (another MPI rank): it adds parts next to the owner's, no lock.
  enum class Access { kOwner, kContributor };

  // Takes the output's lock (`path + ".lock"`, released when the store is destroyed or the
  // process ends, however), then loads the job keys of the existing results file `path` and of
  // the completed parts in `path + ".parts/"`. Throws ncp::Error naming the file when another
  // process holds the lock or the results file cannot be read; an unreadable part is removed
  // (its job runs again) with a warning.
  explicit ResultsStore(std::string path, Access access = Access::kOwner);
  ~ResultsStore();
  ResultsStore(const ResultsStore&) = delete;
  ResultsStore& operator=(const ResultsStore&) = delete;

  // Whether a row with this job key is in the results file or a completed part.
  bool Has(const std::string& job_key) const;

  // Writes `r` as one part file "<parts>/<hash of job_key>.h5"; adding a key again replaces its
  // row. Add, Has and size may be called from several threads; the serial HDF5 library is not
  // thread-safe, so nothing else may use HDF5 meanwhile. Throws ncp::Error on an empty key or a
  // failed write.
  void Add(const RunRecord& r);

  // Merges the rows of the results file and of every part (a part replaces a row with the same
  // key), sorted by job key, into `path + ".tmp"`, renames it onto `path` and removes the parts
  // folder with any leftover temporary files. Root attributes are those of the existing file
  // updated with `run_attrs`.
  void Finalize(const std::map<std::string, std::string>& run_attrs);

  // Finalize with the rows of further results files (e.g. the shards of a campaign) merged in,
  // in the order given; the root attributes gather each distinct value ("a; b"). The inputs
  // are not changed. Throws ncp::Error when an input is unreadable or is the output itself.
  MergeStats Merge(const std::vector<std::string>& inputs);

  // Finalize keeps only the rows with these keys; the others are dropped, with a warning.
  void KeepOnly(std::set<std::string> keys);

  // The jobs of the run now writing: Finalize names the parts it merges that are none of them
  // (an interrupted run's with other arguments, kept as a finished run's rows would be).
  void PlannedJobs(std::set<std::string> keys);

  // Root attributes every part this process writes carries: its loaded plug-ins'
  // `plugin:<path>` hashes, which Finalize gathers from the existing file, the parts and the
  // run ("a; b"), so that rows of two builds of one plug-in show both.
  void SetPartAttrs(std::map<std::string, std::string> attrs) { part_attrs_ = std::move(attrs); }

  // Number of distinct job keys known.
  std::size_t size() const;

  const std::string& path() const { return path_; }
  std::string parts_dir() const { return path_ + ".parts"; }

 private:
  MergeStats MergeSources(const std::vector<std::string>& inputs,
                          const std::map<std::string, std::string>& run_attrs);

  std::string path_;
  std::unique_ptr<OutputLock> lock_;  // the owner's; null for a contributor or once released
  bool finished_ = false;  // Finalize or Merge wrote the output: the lock file is removed
  void ReleaseLock();
  std::unique_ptr<TrustedCopy> existing_;  // the results file there was, as a trusted copy
  std::set<std::string> keys_;
  std::optional<std::set<std::string>> keep_;      // KeepOnly's keys
  std::optional<std::set<std::string>> planned_;   // PlannedJobs' keys
  std::map<std::string, std::string> part_attrs_;  // SetPartAttrs
  mutable std::mutex mutex_;  // HDF5 (serial build) and keys_ are not thread-safe
};

// Every row of a results file with its trace. Throws ncp::Error (one line naming the file and
// the object) when the file is missing, not a results file, or corrupt.
std::vector<RunRecord> ReadResults(const std::string& path);

// Whether a run into `output` left finished jobs beside it (<output>.parts/, ResultsStore's).
bool HasFinishedParts(const std::string& output);

// The string attributes of a results file's root, without format and schema_version.
std::map<std::string, std::string> ReadRunAttrs(const std::string& path);

// Writes `rows` with `run_attrs` (and a paper reproduction's `observations`) as a complete
// results file, atomically (temporary file, then rename).
void WriteResults(const std::string& path, const std::vector<RunRecord>& rows,
                  const std::map<std::string, std::string>& run_attrs,
                  const std::vector<Observation>& observations = {},
                  const std::vector<ClaimRecord>& claims = {});

// The whole of a results file, read once: the root attributes (as ReadRunAttrs), every row with
// its trace (as ReadResults) and a paper reproduction's /observations (none in other results
// files). Throws ncp::Error like ReadResults.
struct ResultsFile {
  std::map<std::string, std::string> attrs;
  std::vector<RunRecord> rows;
  std::vector<Observation> observations;
  std::vector<ClaimRecord> claims;  // a reproduction's judged claims (/claims)
};
ResultsFile ReadResultsFile(const std::string& path);

}  // namespace ncp
