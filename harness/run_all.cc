// The campaign loop: inputs × solvers × repeats cut into units, handed out by a work queue (one
// process, or the ranks of an MPI job), each finished job written to the results store at once.
#include <omp.h>

#include <chrono>
#include <cstdio>
#include <fmt/format.h>
#include <memory>
#include <optional>
#include <filesystem>
#include <set>

#include "common/error.h"
#include "harness/distribute/cluster.h"
#include "harness/distribute/work_queue.h"
#include "harness/plugin.h"
#include "harness/progress.h"
#include "harness/results_store.h"
#include "harness/runner.h"
#include "harness/machine_peaks.h"
#include "harness/system_info.h"
#include "harness/thread_limits.h"
#include "problems/model/descriptors.h"

namespace ncp {
namespace {

using Clock = std::chrono::steady_clock;

// One solver job on a run of consecutive problems of one input and a range of repeats. With
// --warm previous a problem starts from the previous problem's solution, so the whole sequence
// with all repeats is one unit; otherwise each problem and repeat is its own (small units leave
// little idle time at the end of a campaign shared by several processes).
struct Unit {
  std::size_t data = 0, job = 0, begin = 0, end = 0;
  int rep_begin = 0, rep_end = 1;
};

std::vector<Unit> MakeUnits(const std::vector<DatasetInput>& data, std::size_t jobs, WarmMode warm,
                            int repeat) {
  std::vector<Unit> units;
  for (std::size_t d = 0; d < data.size(); ++d) {
    for (std::size_t j = 0; j < jobs; ++j) {
      const std::size_t n = data[d].problems.size();
      if (warm == WarmMode::kPrevious) {
        units.push_back({d, j, 0, n, 0, repeat});
      } else {
        for (std::size_t i = 0; i < n; ++i)
          for (int rep = 0; rep < repeat; ++rep) units.push_back({d, j, i, i + 1, rep, rep + 1});
      }
    }
  }
  return units;
}

bool Usable(const RunRecord& r) { return RanToEnd(r.status); }

class Campaign {
 public:
  Campaign(const std::vector<DatasetInput>& data, const std::vector<SolverJob>& jobs,
           const RunOptions& opt, ResultsStore& store, bool quiet)
      : data_(data),
        jobs_(jobs),
        opt_(opt),
        store_(store),
        quiet_(quiet),
        host_(Cluster::HostName()),
        cpu_(CpuModel()),
        worker_(WorkerLabel(opt.shard.index, opt.shard.count)),
        start_(Clock::now()) {
    for (const DatasetInput& d : data) {
      hashes_.push_back(FileHash(d.path));
      descriptors_.emplace_back(d.problems.size());
    }
  }

  std::string Key(const Unit& u, std::size_t problem, int rep) const {
    // The dataset's content hash is part of the key: a regenerated file is new work.
    return JobKey(data_[u.data].stem + "@" + hashes_[u.data], data_[u.data].problems[problem],
                  jobs_[u.job], opt_, rep);
  }

  std::size_t Jobs(const Unit& u) const {
    return (u.end - u.begin) * static_cast<std::size_t>(u.rep_end - u.rep_begin);
  }

  // Jobs of the unit that the store already has.
  std::size_t Done(const Unit& u) const {
    std::size_t n = 0;
    for (std::size_t i = u.begin; i < u.end; ++i)
      for (int rep = u.rep_begin; rep < u.rep_end; ++rep) n += store_.Has(Key(u, i, rep)) ? 1 : 0;
    return n;
  }

  void set_total(long total) { total_ = total; }

  // Runs the unit's jobs that the store does not have yet; returns how many ran.
  int Run(const Unit& u) {
    const DatasetInput& d = data_[u.data];
    const SolverJob& job = jobs_[u.job];
    std::optional<WarmStart> previous;
    int ran = 0;
    for (std::size_t i = u.begin; i < u.end; ++i) {
      const ContactProblem& p = d.problems[i];
      std::unique_ptr<Evaluator> ev;
      for (int rep = u.rep_begin; rep < u.rep_end; ++rep) {
        const std::string key = Key(u, i, rep);
        if (!ev) ev = std::make_unique<Evaluator>(p);
        const bool last_rep = rep == opt_.repeat - 1;
        if (store_.Has(key)) {
          // A resumed run must warm-start the next problem as the uninterrupted one did:
          // recompute this (deterministic) job's solution without recording it again.
          if (opt_.warm == WarmMode::kPrevious && last_rep) {
            WarmStart solution;
            const RunRecord r =
                RunOne(p, *ev, job, opt_, previous ? &*previous : nullptr, rep, &solution);
            if (Usable(r))
              previous = std::move(solution);
            else
              previous.reset();
          }
          continue;
        }
        if (opt_.between_jobs) opt_.between_jobs();
        WarmStart ws;
        const WarmStart* warm = nullptr;
        if (opt_.warm == WarmMode::kReference && p.reference) {
          ws = {p.reference->v, p.reference->lambda};
          warm = &ws;
        } else if (opt_.warm == WarmMode::kPrevious && previous) {
          warm = &*previous;
        } else if (opt_.warm == WarmMode::kGuess && !p.guesses.empty()) {
          ws = {p.guesses.front().v, p.guesses.front().lambda};
          warm = &ws;
        }
        WarmStart solution;
        RunRecord r = RunOne(p, *ev, job, opt_, warm, rep, &solution);
        r.job_key = key;
        r.dataset = d.stem;
        r.host = host_;
        r.cpu = cpu_;
        r.worker = worker_;
        std::optional<ProblemDescriptors>& desc = descriptors_[u.data][i];
        // Descriptors are a property of the problem: computed (untimed) the first time one of
        // its jobs actually runs, then shared by every job on it.
        if (!desc) desc = Describe(p);
        r.descriptors = *desc;
        ++ran;
        if (!quiet_) PrintLine(d, p, job, r);
        store_.Add(r);
        if (last_rep && opt_.warm == WarmMode::kPrevious) {
          if (Usable(r))
            previous = std::move(solution);
          else
            previous.reset();
        }
      }
    }
    return ran;
  }

 private:
  void PrintLine(const DatasetInput& d, const ContactProblem& p, const SolverJob& job,
                 const RunRecord& r) {
    // The tolerance metric too when it is another one (profiles to natmap_rel).
    const Metric tm = opt_.budget.tol_metric;
    const std::string extra =
        tm == Metric::kRes004
            ? ""
            : fmt::format(" {}={:.3g}", kMetricNames[static_cast<int>(tm)], r.final_metrics[tm]);
    // One process counts its own jobs; in an MPI job rank 0 prints the joint progress.
    ++done_;
    const double elapsed = std::chrono::duration<double>(Clock::now() - start_).count();
    const std::string where = Cluster::active() ? fmt::format("rank {}", Cluster::rank())
                                                : ProgressText(done_, total_, elapsed);
    std::fprintf(stderr, "[%s] %s %s %-10s %-15s it=%-5d t=%.3gms res004=%.3g%s\n", where.c_str(),
                 d.stem.c_str(), p.meta.name.c_str(), job.entry->name.c_str(), ToString(r.status),
                 r.iterations, r.total_time_s * 1e3, r.final_metrics[Metric::kRes004],
                 extra.c_str());
  }

  const std::vector<DatasetInput>& data_;
  const std::vector<SolverJob>& jobs_;
  const RunOptions& opt_;
  ResultsStore& store_;
  bool quiet_;
  std::string host_, cpu_, worker_;
  Clock::time_point start_;
  std::vector<std::string> hashes_;
  std::vector<std::vector<std::optional<ProblemDescriptors>>> descriptors_;
  long done_ = 0, total_ = 0;
};

}  // namespace

int RunAll(const std::vector<DatasetInput>& data, const std::vector<SolverJob>& jobs,
           const RunOptions& given, const std::string& results_path, bool quiet) {
  RunOptions opt = given;
  // A warm start that a problem cannot supply would start it cold under the mode's name.
  for (const DatasetInput& d : data)
    for (const ContactProblem& p : d.problems) {
      if (opt.warm == WarmMode::kGuess && p.guesses.empty())
        throw Error(
            fmt::format("--warm guess: problem '{}' of {} ships no guesses (only fclib "
                        "files with /guesses do): use none, previous or reference",
                        p.meta.name, d.path));
      if (opt.warm == WarmMode::kReference && !p.reference)
        throw Error(fmt::format("--warm reference: problem '{}' of {} has no reference solution",
                                p.meta.name, d.path));
      CheckToleranceMetric(p, opt.budget, d.path);
    }
  if (Cluster::active() && opt.threads <= 0) {
    // One solver job per core: each rank's threads are set, equal on every rank (they are part
    // of the job key) and recorded in every row.
    opt.threads = Cluster::Broadcast(std::max(1, HostThreads() / Cluster::local_size()));
  }
  SetSolverThreads(opt.threads);
  // Rank 0 owns the output (its lock); the other ranks only add parts next to it.
  ResultsStore store(results_path, Cluster::leader() ? ResultsStore::Access::kOwner
                                                     : ResultsStore::Access::kContributor);
  // Solvers from plug-ins are code outside the revision: which files, and which build of them,
  // in every part and in the file.
  std::map<std::string, std::string> plugins;
  for (const LoadedPluginFile& f : LoadedPlugins()) plugins[kRunAttrPluginPrefix + f.path] = f.hash;
  store.SetPartAttrs(plugins);
  Campaign campaign(data, jobs, opt, store, quiet);
  const std::vector<Unit> units = MakeUnits(data, jobs.size(), opt.warm, opt.repeat);
  if (Cluster::active()) {
    // The same arguments can still plan other jobs (a dataset path that holds another file on
    // another host): rank 0 hands out unit numbers of its own plan, so the plans must agree.
    std::uint64_t h = kFnvOffset;
    // Each piece with its NUL: "ab","c" and "a","bc" differ.
    const auto mix = [&h](const std::string& text) {
      h = Fnv1a(std::string_view(text.c_str(), text.size() + 1), h);
    };
    mix(std::filesystem::absolute(results_path).lexically_normal().string());
    for (const Unit& u : units)
      for (std::size_t i = u.begin; i < u.end; ++i)
        for (int rep = u.rep_begin; rep < u.rep_end; ++rep) mix(campaign.Key(u, i, rep));
    if (!Cluster::SameOnEveryRank(h))
      throw EveryRankError(
          "mpirun: the ranks planned different jobs (their input files differ, e.g. a dataset "
          "path that holds another file on another host): every rank must read the same files");
  }
  UnitCounts counts;
  long skipped = 0, selected = 0;
  if (Cluster::leader()) {
    for (std::size_t u = 0; u < units.size(); ++u) {
      // The shard is chosen by the unit's first job key, which no input order changes.
      if (!opt.shard.Selects(campaign.Key(units[u], units[u].begin, units[u].rep_begin))) continue;
      ++selected;
      const std::size_t done = campaign.Done(units[u]), all = campaign.Jobs(units[u]);
      skipped += static_cast<long>(done);
      if (done < all) {
        counts.pending.push_back(static_cast<long>(u));
        counts.total_jobs += static_cast<long>(all - done);
      }
    }
  }
  campaign.set_total(counts.total_jobs);
  // A slice can be empty (slices go by a hash of the job keys): said, so that a shard file
  // without rows is explained.
  if (Cluster::leader() && !opt.shard.all() && selected == 0)
    std::fprintf(stderr,
                 "shard %d/%d: no jobs: the hashes of the job keys (%zu groups) put every one in "
                 "another shard; its file holds no rows\n",
                 opt.shard.index, opt.shard.count, units.size());
  int ran = 0;
  {
    const std::unique_ptr<WorkQueue> queue = MakeWorkQueue(counts, quiet);
    int finished = 0;
    for (long u; (u = queue->Next(finished)) >= 0;) {
      finished = campaign.Run(units[static_cast<std::size_t>(u)]);
      ran += finished;
    }
  }  // rank 0: every other rank has finished its last unit (and written its parts)
  ran = static_cast<int>(Cluster::SumToLeader(ran));
  if (!Cluster::leader()) return ran;
  {
    std::set<std::string> keys;
    for (const Unit& u : units)
      for (std::size_t i = u.begin; i < u.end; ++i)
        for (int rep = u.rep_begin; rep < u.rep_end; ++rep) keys.insert(campaign.Key(u, i, rep));
    if (opt.only_these_jobs)
      store.KeepOnly(std::move(keys));
    else
      store.PlannedJobs(std::move(keys));
  }
  std::map<std::string, std::string> attrs = HostRunAttrs(NCPBENCH_SOURCE_DIR);
  attrs.insert(plugins.begin(), plugins.end());
  AddPeakAttrs(attrs);
  attrs[kRunAttrThreads] = std::to_string(opt.threads > 0 ? opt.threads : omp_get_max_threads());
  attrs["budget"] = opt.budget.ToString();
  if (Cluster::active()) attrs["mpi_ranks"] = std::to_string(Cluster::size());
  if (!opt.shard.all()) attrs["shard"] = fmt::format("{}/{}", opt.shard.index, opt.shard.count);
  for (const DatasetInput& d : data) attrs["dataset_hash:" + d.stem] = FileHash(d.path);
  for (const auto& [k, v] : opt.run_attrs) attrs[k] = v;
  store.Finalize(attrs);
  if (!quiet && skipped)
    std::fprintf(stderr, "resumed: %ld jobs already done, %ld run now\n", skipped,
                 counts.total_jobs);
  return ran;
}

}  // namespace ncp
