#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fmt/format.h>
#include <fstream>
#include <map>
#include <string>
#include <vector>

#include "common/error.h"
#include "common/file_kind.h"
#include "harness/cli/commands.h"
#include "harness/output_lock.h"
#include "harness/output_path.h"
#include "harness/simulate.h"
#include "harness/reproduce/claims_ledger.h"
#include "harness/reproduce/report_render.h"
#include "harness/reproduce/protocol.h"
#include "harness/reproduce/protocol_records.h"
#include "harness/results_store.h"
#include "harness/system_info.h"
#include "common/file_write.h"

namespace ncp::cli {
namespace {

constexpr char kReproduceWallAttr[] = "reproduce_wall_s";  // seconds the protocol took

constexpr char kClaimsRevisionAttr[] = "claims_revision";  // the code that judged them

// Writes the results file `from` to `to` with the judged claims as its /claims, atomically (`to`
// may be `from`: its runs are read first). Claims judged `again`, by this binary from an earlier
// run's file, carry its revision beside the measurement's (attribute claims_revision).
void WriteClaims(const std::string& from, const std::string& to,
                 const std::vector<ClaimRecord>& claims, bool again) {
  ResultsFile f = ReadResultsFile(from);
  if (again) f.attrs[kClaimsRevisionAttr] = BuildRevision();
  WriteResults(to, f.rows, f.attrs, f.observations, claims);
}

// "<id>: cannot run yet: needs <capability>", for a protocol that waits for one.
std::string CannotRunYet(const Protocol& p) {
  return fmt::format("{}: cannot run yet: needs {}", p.id, p.missing);
}

// Before anything is measured: --out is a folder (made when missing), and an <id>.h5 in it is
// that protocol's reproduction file or nothing (a dataset or any other file of the name was
// replaced without a word).
void CheckReproduceOut(const std::string& out_dir, const std::vector<const Protocol*>& protocols) {
  namespace fs = std::filesystem;
  CheckOutputNamed("--out", out_dir);
  CreateOutputFolder("--out", out_dir);
  std::error_code ec;
  for (const Protocol* p : protocols) {
    const std::string h5 = out_dir + "/" + p->id + ".h5";
    if (!fs::exists(fs::symlink_status(h5, ec))) continue;
    const std::string not_its =
        fmt::format("{}: exists and is not {}'s reproduction file", h5, p->id);
    if (const std::string kind = NonRegularKind(h5); !kind.empty())
      throw Error(fmt::format("{} (it is {}): move it or write to another --out", not_its, kind));
    std::map<std::string, std::string> attrs;
    try {
      attrs = ReadRunAttrs(h5);
    } catch (const Error& e) {
      throw Error(fmt::format("{} ({}): move it or write to another --out", not_its, e.what()));
    }
    if (const auto it = attrs.find(kReproduceIdAttr); it == attrs.end() || it->second != p->id)
      throw Error(not_its + ": move it or write to another --out");
  }
}

// Measures into <id>.h5 (every run in the results schema, and the protocol's observations),
// then renders the Markdown from that file. With `from`, only renders, from that file.
int RunProtocol(const Protocol& p, ReproduceOptions o, const std::string& from = "") {
  // A script that runs one protocol must not read "measured nothing" as success.
  if (!p.runs()) throw Error("reproduce " + CannotRunYet(p));
  CheckReproduceOut(o.out_dir, {&p});
  // One run of a protocol into a folder at a time: two would each write its .h5 and .md. Nothing
  // of a run is kept for a rerun, so the lock file goes when the run returns or throws (a
  // signal leaves it, harmless: the flock goes with the process).
  OutputLock lock(o.out_dir + "/" + p.id + ".h5");
  struct Unlock {
    OutputLock& lock;
    ~Unlock() { lock.Release(true); }
  } unlock{lock};
  const std::string path = o.out_dir + "/" + p.id + ".md";
  std::string md, h5 = from;
  std::size_t runs = 0;
  if (from.empty()) {
    ProtocolRecords records(p.id, o.traces);
    records.set_options(o);
    o.records = &records;
    const auto start = std::chrono::steady_clock::now();
    p.measure(o, records);
    const double wall_s =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    h5 = o.out_dir + "/" + p.id + ".h5";
    records.Write(h5, {{kReproduceWallAttr, fmt::format("{:.1f}", wall_s)}});
    runs = records.rows().size();
    const RenderedReport r = RenderReport(p, h5, o.out_dir);
    WriteClaims(h5, h5, r.claims, false);
    md = r.md;
  } else {
    // The claims judged again go with the report, into <out_dir>/<id>.h5 (the file read itself
    // when that is its path: replaced atomically, its runs as they were), for the ledger.
    const RenderedReport r = RenderReport(p, from, o.out_dir);
    h5 = o.out_dir + "/" + p.id + ".h5";
    WriteClaims(from, h5, r.claims, true);
    md = r.md;
  }
  WriteFileAtomically(path, md);
  std::fputs(md.c_str(), stdout);
  if (from.empty())
    std::printf("\nwritten: %s\nwritten: %s (%zu runs)\n", path.c_str(), h5.c_str(), runs);
  else
    std::printf("\nwritten: %s (from %s)\nwritten: %s (claims judged at %s)\n", path.c_str(),
                from.c_str(), h5.c_str(), BuildRevision().c_str());
  return 0;
}

// How long the protocol took the last time it ran into `out_dir` on this machine, for --list:
// "last run here: 3.2 min (--cases 2, 2026-11-24)"; "" when it never ran there.
std::string LastRun(const std::string& out_dir, const std::string& id) {
  const std::string h5 = out_dir + "/" + id + ".h5";
  std::error_code ec;
  if (!std::filesystem::exists(h5, ec)) return "";
  try {
    const auto attrs = ReadRunAttrs(h5);
    const auto wall = attrs.find(kReproduceWallAttr);
    if (wall == attrs.end()) return "";
    const double s = std::stod(wall->second);
    const auto cases = attrs.find("reproduce_cases");
    const auto date = attrs.find("date");
    return fmt::format(
        "; last run here: {} ({}{})",
        s < 120 ? fmt::format("{:.0f} s", s) : fmt::format("{:.1f} min", s / 60),
        cases == attrs.end() || cases->second == "0" ? "default cases" : "--cases " + cases->second,
        date == attrs.end() ? "" : ", " + date->second.substr(0, 10));
  } catch (const std::exception&) {
    return "";  // an unreadable file says nothing about the duration
  }
}

}  // namespace

void AddReproduce(CLI::App& app, Action& action) {
  auto* cmd = app.add_subcommand("reproduce", "reproduce a paper table or figure: ours vs paper");
  struct Opts {
    std::string id, from;
    bool list = false, no_traces = false;
    ReproduceOptions ro;
  };
  auto o = std::make_shared<Opts>();
  cmd->add_option("id", o->id, "protocol id (see --list) or all");
  cmd->add_flag("--list", o->list, "list the protocols with their settings");
  cmd->add_option("-o,--out", o->ro.out_dir, "folder for the Markdown tables and <id>.h5")
      ->capture_default_str();
  cmd->add_option("--cases", o->ro.cases, "cases per scene (0: the protocol's default)");
  cmd->add_flag("-q,--quiet", o->ro.quiet, "no progress lines");
  cmd->add_option("--max-iters", o->ro.max_iters,
                  "cap every measured run at N iterations, without time limits (0: the "
                  "protocol's budgets): statuses and residuals then do not depend on the "
                  "machine's speed");
  cmd->add_option("--from", o->from,
                  "render the report again from a results file an earlier run of this protocol "
                  "wrote (<id>.h5), measuring nothing; the claims judged again go into "
                  "<out>/<id>.h5 for the ledger");
  cmd->add_flag("--no-traces", o->no_traces,
                "store no per-iteration traces in <id>.h5 (small files, e.g. committed baselines)");
  cmd->callback([&action, o] {
    action = [o] {
      if (o->list || o->id.empty()) {
        // The committed ledger's durations (results/claims.csv of the source tree) tell a fresh
        // clone how long each protocol takes before it has run any.
        const std::string ledger = CommittedLedgerPath();
        for (const Protocol& p : Protocols()) {
          const std::string took = LedgerDuration(ledger, p.id);
          std::printf("%-11s %s\n            setting: %s\n            %s\n", p.id.c_str(),
                      p.title.c_str(), p.setting.c_str(),
                      p.runs() ? ("runs" +
                                  (p.min_cases > 0
                                       ? fmt::format("; verdicts need --cases {} or more (or the "
                                                     "default)",
                                                     p.min_cases)
                                       : std::string()) +
                                  (took.empty() ? "" : "; in results/claims.csv: " + took) +
                                  LastRun(o->ro.out_dir, p.id))
                                     .c_str()
                               : ("needs " + p.missing).c_str());
        }
        return 0;
      }
      // generate's and sweep's bound on a set of problems: a case is at least one problem.
      if (o->ro.cases < 0 || o->ro.cases > kMaxGeneratedProblems)
        throw Error(fmt::format("--cases = {}: must be in [0, {}] (0: the protocol's default)",
                                o->ro.cases, kMaxGeneratedProblems));
      if (o->ro.max_iters < 0)
        throw Error(fmt::format("--max-iters = {}: must be >= 0", o->ro.max_iters));
      o->ro.traces = !o->no_traces;
      if (!o->from.empty() && o->id == "all")
        throw Error("--from: renders one protocol's report; name its id, not all");
      if (o->id == "all") {
        std::vector<const Protocol*> all;
        for (const Protocol& p : Protocols())
          if (p.runs()) all.push_back(&p);
        CheckReproduceOut(o->ro.out_dir, all);  // before hours of measuring
        // One protocol's error must not hide the others: report it, go on, exit 2 at the end.
        int failed = 0;
        int pending = 0;
        int kept = 0;
        const MeasuringHost host{BuildRevision(), CpuModel(), std::to_string(HostThreads())};
        for (const Protocol& p : Protocols()) {
          if (!p.runs()) {  // listed with what it needs; not a failure of `all`
            std::printf("%s\n", CannotRunYet(p).c_str());
            ++pending;
            continue;
          }
          // An interrupted `all` resumes: what it finished is kept.
          if (const std::string why = KeptReproduction(o->ro.out_dir, p.id, o->ro, host);
              !why.empty()) {
            std::printf("%s: kept, %s (remove %s/%s.h5 to measure it again)\n", p.id.c_str(),
                        why.c_str(), o->ro.out_dir.c_str(), p.id.c_str());
            ++kept;
            continue;
          }
          try {
            RunProtocol(p, o->ro);
          } catch (const Error& e) {
            std::fprintf(stderr, "ncpbench: error: %s: %s\n", p.id.c_str(), e.what());
            ++failed;
          }
        }
        std::printf(
            "reproduce all: %zu protocols (%d kept from an earlier run), %d failed, %d "
            "cannot run yet\n",
            Protocols().size() - pending, kept, failed, pending);
        return failed ? 2 : 0;
      }
      return RunProtocol(FindProtocol(o->id), o->ro, o->from);
    };
  });
}

}  // namespace ncp::cli
