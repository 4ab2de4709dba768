// 001 Table I: GPU SubADMM (one rigid body per subsystem) on sliding cubes (100–2000), vertical
// and oblique stacks and card houses at the paper's iteration counts and time steps. CPU rows for
// `subadmm` and the CPU path `subadmm-rigid-cpu` always; `subadmm-gpu` rows when it is built and
// a device exists, else "no GPU". Time per step = setup + iterations (best of 3), residuals
// θ_p, θ_d of 004:42 (max norms) from the evaluator, averaged over the frames.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>

#include "harness/markdown.h"
#include "harness/metrics/evaluator.h"
#include "harness/reproduce/budget_cap.h"
#include "harness/reproduce/claim_ledger.h"
#include "harness/reproduce/claim_verdict.h"
#include "harness/reproduce/protocol.h"
#include "harness/reproduce/protocol_records.h"
#include "harness/reproduce/solver_info.h"
#include "harness/runner.h"
#include "harness/simulate.h"
#include "solvers/registry.h"

namespace ncp {
namespace {
namespace table_001_1 {

struct Case {
  const char* column;  // of results/papers/001-table1.csv
  const char* label;
  const char* scene;
  ParamMap params;
  int iters;
  double dt;
};

const Case kCases[] = {
    {"cubes100", "Sliding 100 cubes", "sliding_cubes", {{"cubes", "100"}}, 120, 0.005},
    {"cubes500", "Sliding 500 cubes", "sliding_cubes", {{"cubes", "500"}}, 120, 0.005},
    {"cubes1000", "Sliding 1000 cubes", "sliding_cubes", {{"cubes", "1000"}}, 120, 0.005},
    {"cubes1500", "Sliding 1500 cubes", "sliding_cubes", {{"cubes", "1500"}}, 120, 0.005},
    {"cubes2000", "Sliding 2000 cubes", "sliding_cubes", {{"cubes", "2000"}}, 120, 0.005},
    {"vertical_stacks", "Vertical stacks", "vertical_stacks", {}, 200, 0.005},
    {"oblique_stacks", "Oblique stacks", "oblique_stacks", {}, 150, 0.005},
    {"card_houses", "Card houses", "card_houses", {}, 300, 0.001},
};

const char* kSolvers[] = {"subadmm", "subadmm-rigid-cpu", "subadmm-gpu"};

bool Registered(const char* name) {
  for (const SolverEntry& e : Solvers())
    if (e.name == name) return true;
  return false;
}

constexpr int kRepeat = 3;  // runs per frame: its time is the best of them

// Why a solver has no number in a case (not built, no device, failed): a note of the case's part.
std::string NoteKey(const char* solver) { return fmt::format("{}_note", solver); }

void Measure(const ReproduceOptions& opt, ProtocolRecords& rec) {
  const int frames_wanted = opt.cases > 0 ? opt.cases : 2;
  const int every = 10;
  for (const Case& c : kCases) {
    SimulateOptions so;
    so.solver = "subadmm";
    so.iters = c.iters;
    so.dt = c.dt;
    so.every = every;
    so.steps = every * frames_wanted;
    so.reference_solvers.clear();
    so.quiet = true;
    if (!opt.quiet) std::fprintf(stderr, "001-table1: %s: simulating\n", c.label);
    const std::vector<ContactProblem> frames =
        Simulate(*FindScene(c.scene), c.params, 1, so).recorded;
    int dofs = 0, cmax = 0;
    double cavg = 0;
    for (const ContactProblem& p : frames) {
      dofs = p.num_dofs(), cmax = std::max(cmax, p.num_contacts());
      cavg += static_cast<double>(p.num_contacts()) / frames.size();
    }
    rec.Observe(c.column, "frames", static_cast<double>(frames.size()));
    rec.Observe(c.column, "dofs", dofs);
    rec.Observe(c.column, "contacts_avg", cavg);
    rec.Observe(c.column, "contacts_max", cmax);
    RunOptions ro;
    ro.budget.iters = c.iters;
    CapBudget(opt, ro.budget);
    for (const char* name : kSolvers) {
      if (!Registered(name)) {
        rec.Note(c.column, NoteKey(name), "no GPU (built without CUDA)");
        continue;
      }
      if (!opt.quiet) std::fprintf(stderr, "001-table1: %s: %s\n", c.label, name);
      const SolverEntry& e = FindSolver(name);
      const SolverJob job{&e, Settings::Parse(name, e.settings, {})};
      for (const ContactProblem& p : frames) {
        const Evaluator ev(p);
        RunRecord last;
        for (int k = 0; k < kRepeat; ++k) {
          last = RunOne(p, ev, job, ro, nullptr, k);
          Record(opt, last, c.column);
        }
        if (last.status == Outcome::kNotApplicable || last.status == Outcome::kFailed) {
          rec.Note(c.column, NoteKey(name),
                   last.message == "no CUDA device"
                       ? "no GPU (no CUDA device)"
                       : fmt::format("{}: {}", ToString(last.status), last.message));
          break;
        }
      }
    }
  }
}

struct Cell {
  bool ran = false;
  std::string note;  // why there is no number
  double time_ms = 0, primal = 0, dual = 0;
  int threads = 0;
};

// A solver's means over a case's frames, from its rows: kRepeat per frame, in frame order.
Cell ReadCell(const ProtocolRecords& rec, const Case& c, const char* name) {
  Cell cell;
  if (rec.Has(c.column, NoteKey(name))) {
    cell.note = rec.Text(c.column, NoteKey(name));
    return cell;
  }
  const double frames = rec.Value(c.column, "frames");
  const std::vector<const RunRecord*> rows = rec.Part(c.column, name);
  for (std::size_t f = 0; f + kRepeat <= rows.size(); f += kRepeat) {
    double best = 1e300;
    for (int k = 0; k < kRepeat; ++k) best = std::min(best, rows[f + k]->total_time_s);
    const RunRecord& last = *rows[f + kRepeat - 1];
    cell.ran = true;
    cell.threads = last.threads_used;
    cell.time_ms += 1e3 * best / frames;
    cell.primal += last.final_metrics[Metric::kPrimal] / frames;
    cell.dual += last.final_metrics[Metric::kDual] / frames;
  }
  return cell;
}

// Where a GPU step's time goes, from the fastest run of each frame: the host layout, packing it
// into pinned memory, the one copy to the device and the setup kernel (the solver's own
// account, solver_info), the rest of the setup (workspace, scalars), and the iterations (one
// chunk: one launch and one wait).
std::string GpuBreakdown(const ProtocolRecords& rec) {
  markdown::Table t({"scenario", "upload [MB]", "layout", "pack", "copy", "setup kernel", "other",
                     "setup", "iterations", "per iteration [µs]"},
                    "lrrrrrrrrr");
  for (const Case& c : kCases) {
    const std::vector<const RunRecord*> runs = rec.Part(c.column, "subadmm-gpu");
    if (rec.Has(c.column, NoteKey("subadmm-gpu")) || runs.size() < kRepeat) continue;
    double layout = 0, pack = 0, copy = 0, kernel = 0, setup = 0, iters = 0, mb = 0;
    int frames = 0;
    for (std::size_t f = 0; f + kRepeat <= runs.size(); f += kRepeat, ++frames) {
      const RunRecord* best = runs[f];
      for (int k = 1; k < kRepeat; ++k)
        if (runs[f + k]->total_time_s < best->total_time_s) best = runs[f + k];
      const std::string& info = best->solver_info;
      layout += InfoValue(info, "setup_layout_ms", NAN),
          pack += InfoValue(info, "setup_pack_ms", NAN);
      copy += InfoValue(info, "setup_copy_ms", NAN),
          kernel += InfoValue(info, "setup_kernel_ms", NAN);
      mb += InfoValue(info, "upload_mb", NAN);
      setup += 1e3 * best->setup_time_s, iters += 1e3 * best->solve_time_s;
    }
    const double n = frames;
    auto ms = [n](double total) { return fmt::format("{:.3f}", total / n); };
    t.Row({c.label, fmt::format("{:.2f}", mb / n), ms(layout), ms(pack), ms(copy), ms(kernel),
           ms(setup - layout - pack - copy - kernel), ms(setup), ms(iters),
           fmt::format("{:.2f}", 1e3 * iters / n / c.iters)});
  }
  if (t.empty()) return {};
  return "\n" + markdown::Heading(2, "subadmm-gpu: where a step's time goes") +
         "Means over the frames of the fastest of the 3 runs of each frame, in ms. Setup: the host "
         "layout built from the problem, packed into pinned memory, one copy to the device, one "
         "setup kernel (assembly, factorization, slacks; CUDA events), and the rest (workspace, "
         "scalars, waits). Iterations: all of a case's iterations as one chunk, one cooperative "
         "launch and one wait.\n\n" +
         t.str();
}

using Cells = std::map<std::string, std::map<std::string, Cell>>;  // case column, solver

// One row per case and solver: the case's columns and the paper's on its first row only.
std::string ResultsTable(const ProtocolRecords& rec, const PublishedTable& paper, Cells& all) {
  markdown::Table t(
      {"scenario", "DOFs", "contacts avg (max)", "it.", "dt [ms]", "solver", "time/step [ms]",
       "θ_p", "θ_d", "paper time [ms]", "paper r_primal", "paper r_dual"},
      "lrrrrlrrrrrr");
  for (const Case& c : kCases) {
    bool first = true;
    for (const char* name : kSolvers) {
      const Cell& cell = all[c.column][name] = ReadCell(rec, c, name);
      std::vector<std::string> row(5);
      if (first)
        row = {c.label, fmt::format("{:.0f}", rec.Value(c.column, "dofs")),
               fmt::format("{:.0f} ({:.0f})", rec.Value(c.column, "contacts_avg"),
                           rec.Value(c.column, "contacts_max")),
               fmt::format("{}", c.iters), fmt::format("{:g}", 1e3 * c.dt)};
      if (cell.ran)
        row.insert(
            row.end(),
            {fmt::format("{} ({} thr.)", name, cell.threads), fmt::format("{:.3f}", cell.time_ms),
             fmt::format("{:.2e}", cell.primal), fmt::format("{:.2e}", cell.dual)});
      else
        row.insert(row.end(), {name, cell.note, "", ""});
      if (first)
        row.insert(row.end(), {fmt::format("{:.2f}", paper.Get("time_ms", c.column)),
                               fmt::format("{:.2e}", paper.Get("r_primal", c.column)),
                               fmt::format("{:.2e}", paper.Get("r_dual", c.column))});
      else
        row.insert(row.end(), 3, "");
      t.Row(std::move(row));
      first = false;
    }
  }
  return t.str();
}

// The growth of the time per step from 100 to 2000 cubes, the paper's and each solver's.
std::string Growth(const PublishedTable& paper, Cells& all) {
  std::string md = fmt::format(
      "\nGrowth of the time per step from 100 to 2000 cubes (paper: {:.2f} → {:.2f} ms, "
      "{:.2f}×, sub-linear in the 20× more bodies):",
      paper.Get("time_ms", "cubes100"), paper.Get("time_ms", "cubes2000"),
      paper.Get("time_ms", "cubes2000") / paper.Get("time_ms", "cubes100"));
  for (const char* name : kSolvers) {
    const Cell& a = all["cubes100"][name];
    const Cell& b = all["cubes2000"][name];
    if (a.ran && b.ran)
      md += fmt::format(" {} {:.3f} → {:.3f} ms ({:.2f}×);", name, a.time_ms, b.time_ms,
                        b.time_ms / a.time_ms);
    else
      md += fmt::format(" {}: {};", name, a.note.empty() ? b.note : a.note);
  }
  md.back() = '.';
  return md + "\n";
}

// 001's statement is about its GPU solver; the CPU rows are context, not its test. 20× the
// bodies in under 20× the time is sub-linear; 20× or more contradicts it.
std::string Claims(const ReportInput& in, Cells& all) {
  const PublishedTable& paper = in.paper;
  const Cell& a = all["cubes100"]["subadmm-gpu"];
  const Cell& b = all["cubes2000"]["subadmm-gpu"];
  const double paper_ratio = paper.Get("time_ms", "cubes2000") / paper.Get("time_ms", "cubes100");
  const std::string claim = fmt::format(
      "001: GPU SubADMM's time per step grows sub-linearly from 100 to 2000 cubes ({:.2f}× "
      "for 20× the bodies)",
      paper_ratio);
  std::string md = ClaimHeader();
  if (!(a.ran && b.ran))  // no GPU (or no CUDA build) here: nothing was measured to judge
    return md + in.claims.NotAssessed(claim, "subadmm-gpu did not run",
                                      a.note.empty() ? b.note : a.note);
  return md +
         in.claims.Row(claim,
                       fmt::format("subadmm-gpu {:.3f} → {:.3f} ms ({:.2f}×)", a.time_ms, b.time_ms,
                                   b.time_ms / a.time_ms),
                       b.time_ms / a.time_ms < 20.0 ? Verdict::kReproduced : Verdict::kContradicted,
                       {.paper = fmt::format("{:.2f} → {:.2f} ms", paper.Get("time_ms", "cubes100"),
                                             paper.Get("time_ms", "cubes2000"))});
}

std::string Report(const ReportInput& in) {
  Cells all;
  std::string md =
      markdown::Heading(1, "001 Table I — GPU SubADMM, one rigid body per subsystem") +
      "Frames: each scene stepped with `subadmm` at the case's iterations and time step, a frame "
      "recorded every 10 steps. Per frame: time per step = setup + iterations (best of 3), "
      "θ_p = max ‖J v − z‖ and θ_d = ‖A v − b − Jᵀλ‖_∞ of 004:42 from the evaluator; means over "
      "the frames. Paper: RTX 4080, averages over the scenario.\n\n";
  md += ResultsTable(in.records, in.paper, all);
  md += Growth(in.paper, all);
  md += GpuBreakdown(in.records);
  md += Claims(in, all);
  return md;
}

}  // namespace table_001_1
}  // namespace

Protocol MakeTable001_1() {
  using namespace table_001_1;
  return {.id = "001-table1",
          .title = "GPU SubADMM time per step and residuals",
          .setting =
              "sliding_cubes 100–2000 (120 it.), vertical_stacks (200), oblique_stacks (150), "
              "card_houses (300); subadmm, subadmm-rigid-cpu, subadmm-gpu",
          .measure = Measure,
          .report = Report,
          .min_cases = 2};
}

}  // namespace ncp
