#include "harness/isolated_run.h"

#include <signal.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cctype>
#include <charconv>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fmt/format.h>
#include <fstream>
#include <iterator>
#include <mutex>
#include <optional>
#include <thread>

#include "common/error.h"
#include "common/file_write.h"
#include "common/wait_pid.h"
#include "harness/memory_cap.h"
#include "harness/plugin.h"
#include "harness/results_store.h"
#include "harness/thread_limits.h"
#include "problems/io/dataset_hdf5.h"

extern char** environ;

namespace ncp {
namespace {

namespace fs = std::filesystem;

std::string g_executable;
std::string g_unisolated;  // non-empty: why an isolated entry cannot run here (RefuseIsolated)
bool g_in_job = false;

void WriteVec(std::ofstream& f, const Vec& x) {
  const std::int64_t n = x.size();
  f.write(reinterpret_cast<const char*>(&n), sizeof n);
  f.write(reinterpret_cast<const char*>(x.data()),
          static_cast<std::streamsize>(n * sizeof(double)));
}

bool ReadVec(std::ifstream& f, Vec& x, std::int64_t max_size) {
  std::int64_t n = -1;
  f.read(reinterpret_cast<char*>(&n), sizeof n);
  if (!f || n < 0 || n > max_size) return false;
  x.resize(n);
  f.read(reinterpret_cast<char*>(x.data()), static_cast<std::streamsize>(n * sizeof(double)));
  return static_cast<bool>(f);
}

void WriteWarm(const std::string& path, const WarmStart& w) {
  std::ofstream f(path, std::ios::binary);
  WriteVec(f, w.v);
  WriteVec(f, w.lambda);
  if (!f) throw Error(fmt::format("cannot write '{}'", path));
}

bool ReadWarm(const std::string& path, std::int64_t max_size, WarmStart* w) {
  std::ifstream f(path, std::ios::binary);
  return f && ReadVec(f, w->v, max_size) && ReadVec(f, w->lambda, max_size);
}

// The row of a job that did not come back.
RunRecord FailedRow(const ContactProblem& p, const SolverJob& job, const RunOptions& opt,
                    int repeat, const std::string& message) {
  RunRecord r = JobRow(p, job, opt, repeat);
  r.status = Outcome::kFailed;
  r.message = message;
  return r;
}

// The exit status of a job whose solver's plug-in changed since the run loaded it; the reason
// is in the job folder's refused.txt.
constexpr int kPluginChangedExit = 5;

// The job, one "key=value" a line (values never hold a line break).
void WriteJob(const std::string& path, const SolverJob& job, const RunOptions& opt, int repeat,
              bool has_warm) {
  std::ofstream f(path);
  f << "solver=" << job.entry->name << "\n"
    << "settings=" << job.settings.ToString() << "\n"
    << "iters=" << opt.budget.iters << "\n"
    << fmt::format("time_ms={:.17g}\ntol={:.17g}\nstep_tol={:.17g}\n", opt.budget.time_ms,
                   opt.budget.tol, opt.budget.step_tol)
    << "tol_metric=" << kMetricNames[static_cast<int>(opt.budget.tol_metric)] << "\n"
    << "threads=" << opt.threads << "\n"
    << "trace_every=" << opt.trace_every << "\n"
    << "tol_every=" << opt.tol_every << "\n"
    << "warm=" << ToString(opt.warm) << "\n"
    << "retime=" << (opt.retime_without_tol ? 1 : 0) << "\n"
    << "repeat=" << repeat << "\n"
    << "has_warm=" << (has_warm ? 1 : 0) << "\n";
  // The hash first (no space in it): the job checks that it loads the build the run loaded.
  for (const LoadedPluginFile& plugin : LoadedPlugins())
    f << "plugin=" << plugin.hash << " " << plugin.path << "\n";
  if (!f) throw Error(fmt::format("cannot write '{}'", path));
}

std::map<std::string, std::string> ReadJob(const std::string& path,
                                           std::vector<LoadedPluginFile>* plugins) {
  std::ifstream f(path);
  std::map<std::string, std::string> kv;
  for (std::string line; std::getline(f, line);) {
    const std::size_t eq = line.find('=');
    if (eq == std::string::npos) continue;
    if (line.substr(0, eq) == "plugin") {
      const std::size_t space = line.find(' ', eq + 1);
      if (space == std::string::npos) throw Error("isolated job: a plug-in line without its hash");
      plugins->push_back({line.substr(space + 1), line.substr(eq + 1, space - eq - 1)});
    } else
      kv[line.substr(0, eq)] = line.substr(eq + 1);
  }
  return kv;
}

// The environment without an MPI launcher's variables: the job is no rank of the campaign.
std::vector<std::string> JobEnvironment() {
  std::vector<std::string> env;
  for (char** e = environ; *e != nullptr; ++e) {
    const std::string_view s(*e);
    if (s.starts_with("OMPI_") || s.starts_with("PMIX_") || s.starts_with("PMI_")) continue;
    env.emplace_back(s);
  }
  return env;
}

constexpr std::string_view kJobFolderPrefix = "ncpbench-job-";

// "<host>-": a job folder names its host, so that a temporary folder shared by several hosts
// (their pids are not ours to judge) has only this host's folders swept.
std::string HostTag() {
  char name[256] = {};
  if (gethostname(name, sizeof name - 1) != 0) return "host-";
  std::string tag = name;
  for (char& c : tag)
    if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
  return tag + "-";
}

// The folders of jobs whose parent was killed (SIGKILL, the OOM killer):
// "ncpbench-job-<host>-<pid>-<n>" of this host, of a process that no longer exists, untouched for
// ten minutes. Once per process.
void SweepStaleJobFolders() {
  std::error_code ec;
  const fs::path tmp = fs::temp_directory_path(ec);
  if (ec) return;
  const auto now = fs::file_time_type::clock::now();
  const std::string prefix = std::string(kJobFolderPrefix) + HostTag();
  for (fs::directory_iterator it(tmp, ec), end; !ec && it != end; it.increment(ec)) {
    const std::string name = it->path().filename().string();
    if (name.rfind(prefix, 0) != 0) continue;
    const std::string rest = name.substr(prefix.size());
    long pid = 0;
    const auto [end_of_pid, err] = std::from_chars(rest.data(), rest.data() + rest.size(), pid);
    if (err != std::errc() || end_of_pid == rest.data() + rest.size() || *end_of_pid != '-')
      continue;
    std::error_code e2;
    if (!fs::is_directory(it->symlink_status(e2)) || e2) continue;
    if (LeftByDeadProcess(it->path(), pid, now)) fs::remove_all(it->path(), e2);
  }
}

}  // namespace

bool InIsolatedJob() { return g_in_job; }

void EnableIsolation(const std::string& executable) { g_executable = executable; }

void RefuseIsolated(const std::string& why) { g_unisolated = why; }

double IsolatedMemoryCapBytes() { return MemoryCapBytes(0.5); }

RunRecord RunIsolated(const ContactProblem& p, const Evaluator& ev, const SolverJob& job,
                      const RunOptions& opt, const WarmStart* warm, int repeat,
                      WarmStart* solution) {
  if (g_executable.empty() && !g_in_job && !g_unisolated.empty())
    throw Error(
        fmt::format("solver '{}': runs in a process of its own (a peer library that can "
                    "end its process), and {}",
                    job.entry->name, g_unisolated));
  // Here, in this process: RunOne then runs it itself instead of isolating it again.
  const auto here = [&] {
    const bool was = g_in_job;
    g_in_job = true;
    RunRecord r = RunOne(p, ev, job, opt, warm, repeat, solution);
    g_in_job = was;
    return r;
  };
  if (g_executable.empty() || g_in_job) return here();
  // Python threads may run jobs at once (the GIL released): one folder each.
  static std::atomic<int> counter = 0;
  static std::once_flag swept;
  std::call_once(swept, SweepStaleJobFolders);
  const fs::path dir = fs::temp_directory_path() /
                       fmt::format("{}{}{}-{}", kJobFolderPrefix, HostTag(), getpid(), counter++);
  fs::create_directories(dir);
  struct Cleanup {
    fs::path dir;
    ~Cleanup() {
      std::error_code ec;
      fs::remove_all(dir, ec);
    }
  } cleanup{dir};
  // Ctrl-C or SIGTERM (mpirun's) ends this process without unwinding: the folder goes then too.
  const SignalRemoved held({(dir / "problem.h5").string(), (dir / "warm.bin").string(),
                            (dir / "job.txt").string(), (dir / "row.h5").string(),
                            (dir / "solution.bin").string(), (dir / "refused.txt").string(),
                            dir.string()});
  // Under a name of its own: the problem's may be one no dataset holds (a Python problem's "a/b");
  // the row gets the problem's name back below.
  ContactProblem named = p;
  named.meta.name = "job";
  WriteDataset((dir / "problem.h5").string(), {named}, {});
  if (warm) WriteWarm((dir / "warm.bin").string(), *warm);
  WriteJob((dir / "job.txt").string(), job, opt, repeat, warm != nullptr);

  const double cap = IsolatedMemoryCapBytes();
  const std::vector<std::string> env_strings = JobEnvironment();
  std::vector<char*> env;
  for (const std::string& s : env_strings) env.push_back(const_cast<char*>(s.c_str()));
  env.push_back(nullptr);
  const std::string dir_arg = dir.string();
  char* argv[] = {const_cast<char*>(g_executable.c_str()), const_cast<char*>("isolated-job"),
                  const_cast<char*>(dir_arg.c_str()), nullptr};
  std::fflush(nullptr);
  const pid_t parent = getpid();
  const pid_t pid = fork();
  if (pid < 0) return here();  // no process to spare: in this one (RunOne would fork again)
  if (pid == 0) {
    // Only async-signal-safe calls between fork and exec. The job ends with this process (SIGKILL
    // included), not as an orphan that runs on.
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (getppid() != parent) _exit(127);
    if (cap > 0) {
      const rlimit limit = {static_cast<rlim_t>(cap), static_cast<rlim_t>(cap)};
      setrlimit(RLIMIT_AS, &limit);
    }
    execve(argv[0], argv, env.data());
    _exit(127);
  }
  // A peer call can run far past the budget inside one Iterate(): with a time budget, a job
  // beyond twice it (and a minute) is ended.
  const double limit_s = opt.budget.time_ms > 0 ? 2.0 * opt.budget.time_ms * 1e-3 + 60.0 : 0.0;
  const auto start = std::chrono::steady_clock::now();
  int status = 0;
  bool killed = false;
  auto pause = std::chrono::microseconds(100);
  pid_t waited;
  const SignalKilledChild signal_kills(pid);  // a signal that ends this process ends the job
  double polled_s = 0.0;
  while ((waited = WaitPid(pid, &status, WNOHANG)) == 0) {
    const double spent_s =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (limit_s > 0 && spent_s > limit_s) {
      kill(pid, SIGKILL);
      WaitPid(pid, &status, 0);
      killed = true;
      break;
    }
    // Ctrl-C in Python (the poll raises Interrupted): the job ends with the call.
    if (opt.poll && spent_s >= polled_s + RunOptions::kPollSeconds) {
      polled_s = spent_s;
      try {
        opt.poll();
      } catch (...) {
        kill(pid, SIGKILL);
        WaitPid(pid, &status, 0);
        throw;
      }
    }
    std::this_thread::sleep_for(pause);
    pause = std::min(pause * 2, std::chrono::microseconds(5000));
  }
  // A Ctrl-C that reached the job's process group ended the job: the interrupt is the caller's
  // (Python's KeyboardInterrupt), not a row that a resume would take as done.
  if (waited == pid && WIFSIGNALED(status) && WTERMSIG(status) == SIGINT && opt.poll) opt.poll();
  const int wait_error = waited < 0 ? errno : 0;
  const std::string cap_text = cap > 0 ? fmt::format("{:.1f} GB", cap / 1e9) : "none";
  if (killed) {
    return FailedRow(
        p, job, opt, repeat,
        fmt::format("isolated job ended after {:.0f} s: past twice its time budget and a "
                    "minute (a peer call that did not return)",
                    limit_s));
  }
  std::string unreadable;
  const auto read_row = [&]() -> std::optional<RunRecord> {
    try {
      std::vector<RunRecord> got = ReadResults((dir / "row.h5").string());
      if (got.size() != 1) throw Error("no row");
      got.front().problem = p.meta.name;  // the job's copy was named "job"
      WarmStart sol;
      if (solution &&
          ReadWarm((dir / "solution.bin").string(), p.num_dofs() + p.num_rows() + 1, &sol))
        *solution = std::move(sol);
      return std::move(got.front());
    } catch (const Error& e) {
      unreadable = e.what();
      return std::nullopt;
    }
  };
  if (wait_error != 0) {
    // Reaped by someone else (SIGCHLD ignored or handled by a host program): the job has ended,
    // how is unknown; its row, written last and renamed into place, says whether it finished.
    if (auto row = read_row()) return std::move(*row);
    return FailedRow(p, job, opt, repeat,
                     fmt::format("isolated job's exit status lost ({}) and it left no row ({})",
                                 std::strerror(wait_error), unreadable));
  }
  if (WIFEXITED(status) && WEXITSTATUS(status) == 0) {
    if (auto row = read_row()) return std::move(*row);
    return FailedRow(p, job, opt, repeat,
                     fmt::format("isolated job's row unreadable: {}", unreadable));
  }
  if (WIFEXITED(status) && WEXITSTATUS(status) == 4)
    return FailedRow(p, job, opt, repeat, fmt::format("ran out of memory (cap {})", cap_text));
  // No row: the run stops, and its rerun does the job with the library as it is now.
  if (WIFEXITED(status) && WEXITSTATUS(status) == kPluginChangedExit) {
    std::ifstream refused((dir / "refused.txt").string());
    throw Error(fmt::format(
        "{}: the run stops here (its finished jobs are kept); rerun it to go on with the rebuilt "
        "library (the results then name both builds)",
        std::string(std::istreambuf_iterator<char>(refused), {})));
  }
  if (WIFSIGNALED(status)) {
    return FailedRow(p, job, opt, repeat,
                     fmt::format("the solver ended its process (signal {}, {}; memory cap {})",
                                 WTERMSIG(status), strsignal(WTERMSIG(status)), cap_text));
  }
  return FailedRow(p, job, opt, repeat,
                   fmt::format("the solver ended its process (exit {}, e.g. MPI_Abort in MUMPS; "
                               "memory cap {})",
                               WIFEXITED(status) ? WEXITSTATUS(status) : -1, cap_text));
}

int RunIsolatedJob(const std::string& dir_arg) {
  const fs::path dir(dir_arg);
  g_in_job = true;
  try {
    std::vector<LoadedPluginFile> plugins;
    std::map<std::string, std::string> kv = ReadJob((dir / "job.txt").string(), &plugins);
    // Loaded before the name resolves. The run's rows name the builds it loaded: the job's
    // solver from a plug-in rebuilt since then would be another build (the others' do not run).
    std::string changed;
    for (const LoadedPluginFile& plugin : plugins) {
      const std::string now = PluginFileHash(plugin.path);
      const std::vector<std::string> names = LoadPlugin(plugin.path);
      if (now != plugin.hash && kv.count("solver") &&
          std::find(names.begin(), names.end(), kv.at("solver")) != names.end())
        changed = fmt::format("--plugin = {}: changed since the run loaded it (hash {}, now {})",
                              plugin.path, plugin.hash, now);
    }
    if (!changed.empty()) {
      std::ofstream((dir / "refused.txt").string()) << changed;
      return kPluginChangedExit;
    }
    const auto get = [&](const char* key) {
      const auto it = kv.find(key);
      if (it == kv.end()) throw Error(fmt::format("isolated job: '{}' missing", key));
      return it->second;
    };
    const std::vector<ContactProblem> problems = ReadDataset((dir / "problem.h5").string());
    if (problems.size() != 1) throw Error("isolated job: the problem file holds no single problem");
    const ContactProblem& p = problems.front();
    const SolverEntry& entry = FindSolver(get("solver"));
    SolverJob job{&entry,
                  Settings::Parse(entry.name, entry.settings, ParseKeyValues(get("settings")))};
    RunOptions opt;
    opt.budget.iters = std::stoi(get("iters"));
    opt.budget.time_ms = std::stod(get("time_ms"));
    opt.budget.tol = std::stod(get("tol"));
    opt.budget.step_tol = std::stod(get("step_tol"));
    opt.budget.tol_metric = MetricFromName(get("tol_metric").c_str());
    opt.threads = std::stoi(get("threads"));
    opt.trace_every = std::stoi(get("trace_every"));
    opt.tol_every = std::stoi(get("tol_every"));
    opt.warm = WarmModeFromName(get("warm"));
    opt.retime_without_tol = get("retime") == "1";
    const int repeat = std::stoi(get("repeat"));
    WarmStart warm;
    const bool has_warm = get("has_warm") == "1";
    if (has_warm && !ReadWarm((dir / "warm.bin").string(), p.num_dofs() + p.num_rows() + 1, &warm))
      throw Error("isolated job: unreadable warm start");
    SetSolverThreads(opt.threads);
    const Evaluator ev(p);
    WarmStart solution;
    RunRecord r = RunOne(p, ev, job, opt, has_warm ? &warm : nullptr, repeat, &solution);
    // A results file's rows have keys; the caller gives the row its job's (run_all.cc).
    r.job_key = "isolated-job";
    WriteResults((dir / "row.h5").string(), {r}, {});
    WriteWarm((dir / "solution.bin").string(), solution);
    return 0;
  } catch (const std::bad_alloc&) {
    return 4;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "ncpbench isolated-job: %s\n", e.what());
    return 3;
  }
}

}  // namespace ncp
