// 000 Fig. 2: SubADMM's time for 60 iterations as the number of subsystems grows — spheres of
// the stir scene and links of the cable scene — with the R² of a linear fit (0.9993 and
// 0.9998 in the paper). Each family is an `ncpbench sweep` of its scene's size parameter; the
// figure is plots/scalability.py on the sweep's rows, written back from the records. A family
// whose scene does not exist yet is listed and skipped, so the cable row runs as soon as that
// scene is registered.
#include <fmt/format.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <map>
#include <memory>

#include "common/error.h"
#include "common/file_write.h"
#include "harness/markdown.h"
#include "harness/reproduce/budget_cap.h"
#include "harness/reproduce/fit.h"
#include "harness/reproduce/protocol.h"
#include "harness/reproduce/protocol_records.h"
#include "harness/thread_limits.h"
#include "harness/reproduce/claim_ledger.h"
#include "harness/reproduce/claim_verdict.h"
#include "harness/reproduce/plot_script.h"
#include "harness/results_store.h"
#include "harness/sweep.h"
#include "problems/scenarios/rigid/scene.h"

namespace ncp {
namespace {
namespace fig_000_2 {

struct Family {
  const char* scene;
  const char* param;  // the size parameter swept
  std::vector<std::string> values;
  ParamMap params;           // the scene's other parameters
  const char* paper_column;  // column of results/papers/000-fig2.csv
};

// cable variant 0 is 000 §IV-A2's cable (4 links per subsystem); 640 links is the paper's.
const Family kFamilies[] = {
    {"stir", "spheres", {"27", "64", "125", "216", "343"}, {}, "stir"},
    {"cable", "links", {"80", "160", "320", "640"}, {{"variant", "0"}}, "cable"},
};
const char* kSolvers[] = {"subadmm", "subadmm-nobody"};

struct Size {
  double bodies = 0, dofs = 0, contacts = 0, time_ms = 0;
  int problems = 0;
};

// A size's part: the sweep's dataset name, e.g. "stir-spheres27".
std::string SizePart(const Family& f, const std::string& value) {
  return fmt::format("{}-{}{}", f.scene, f.param, value);
}

// Per solver, per size (part): means over the problems of the best time over repeats.
std::map<std::string, std::map<std::string, Size>> Collect(const ProtocolRecords& rec,
                                                           const Family& f) {
  std::map<std::string, std::map<std::string, Size>> out;
  for (const std::string& v : f.values) {
    const std::string part = SizePart(f, v);
    std::map<std::string, std::map<std::string, double>> best;  // solver → problem → s
    for (const RunRecord* r : rec.Part(part)) {
      if (r->status == Outcome::kFailed || r->status == Outcome::kNotApplicable ||
          !(r->total_time_s > 0))
        continue;
      auto [it, fresh] = best[r->solver].emplace(r->problem, r->total_time_s);
      if (!fresh) it->second = std::min(it->second, r->total_time_s);
      Size& s = out[r->solver][part];
      if (fresh) {
        s.bodies += r->num_bodies, s.dofs += r->num_dofs, s.contacts += r->num_contacts;
        ++s.problems;
      }
    }
    for (const auto& [solver, times] : best) {
      Size& s = out[solver][part];
      for (const auto& [problem, t] : times) s.time_ms += 1e3 * t;
      s.bodies /= s.problems, s.dofs /= s.problems, s.contacts /= s.problems;
      s.time_ms /= s.problems;
    }
  }
  return out;
}

// A family's sweep as a results file, in a folder of its own: the output folder's <id>.h5 files
// are the reproductions, which `ncpbench claims results/reproduce/*.h5` reads. Its writers
// create the folder (RunSweep; WriteFamilyResults, which may write to another output folder).
std::string FamilyResultsPath(const std::string& out_dir, const std::string& scene) {
  return out_dir + "/000-fig2-sweeps/" + scene + ".h5";
}

// Observations of part <scene>: `registered` (0: the scene or its size parameter does not
// exist, nothing ran), or the text `failed` (the error that stopped the family).
void MeasureFamily(const Family& f, const ReproduceOptions& opt, ProtocolRecords& rec) {
  const SceneEntry* scene = FindScene(f.scene);
  const bool registered = scene && scene->defaults().count(f.param);
  rec.Observe(f.scene, "registered", registered ? 1.0 : 0.0);
  if (!registered) return;
  SweepOptions s;
  s.scene = f.scene;
  s.param = f.param;
  s.values = f.values;
  s.params = f.params;
  s.count = opt.cases > 0 ? opt.cases : 3;
  s.out = FamilyResultsPath(opt.out_dir, f.scene);
  s.quiet = opt.quiet;
  // The datasets are kept (same seed and sizes: reused); the times are always measured anew.
  std::filesystem::remove(s.out);
  RunOptions ro;
  ro.budget.iters = 60;
  ro.repeat = 5;
  ro.threads = 1;
  CapBudget(opt, ro.budget);
  {
    const SolverThreadScope threads(1);
    RunSweep(s,
             MakeSolverJobs({kSolvers[0], kSolvers[1]},
                            {"subadmm.threads=1", "subadmm-nobody.threads=1"}),
             ro);
  }
  // The sweep's rows, one part per size (its dataset).
  for (const RunRecord& r : ReadResults(s.out)) Record(opt, r, r.dataset);
}

void Measure(const ReproduceOptions& opt, ProtocolRecords& rec) {
  for (const Family& f : kFamilies) {
    // One family's failure (its scene's generation or a solver) must not hide the other's rows.
    try {
      MeasureFamily(f, opt, rec);
    } catch (const Error& e) {
      rec.Note(f.scene, "failed", e.what());
    }
  }
}

// The family's rows as a results file for plots/scalability.py, where the sweep wrote them while
// measuring. Returns its path.
std::string WriteFamilyResults(const ProtocolRecords& rec, const Family& f,
                               const std::string& out_dir) {
  std::vector<RunRecord> rows;
  for (const std::string& v : f.values)
    for (const RunRecord* r : rec.Part(SizePart(f, v))) rows.push_back(*r);
  const std::string path = FamilyResultsPath(out_dir, f.scene);
  CreateParentFolders(path);
  WriteResults(path, rows, {{"sweep_scene", f.scene}, {"sweep_param", f.param}});
  return path;
}

// Per solver, per size (part): Collect's means.
using SolverSizes = std::map<std::string, std::map<std::string, Size>>;

// The family's heading and its table of sizes: bodies, DOF, contacts and each solver's time.
std::string SizeTable(const Family& f, const SolverSizes& data, int count) {
  std::string values;
  for (std::size_t k = 0; k < f.values.size(); ++k) values += (k ? ", " : "") + f.values[k];
  std::vector<std::string> header = {"size", "bodies", "DOF", "contacts"};
  for (const char* solver : kSolvers) header.push_back(fmt::format("{} [ms]", solver));
  const std::string align(header.size(), 'r');
  markdown::Table t(std::move(header), align);
  for (const std::string& v : f.values) {
    const std::string part = SizePart(f, v);
    const auto& first =
        data.count(kSolvers[0]) ? data.at(kSolvers[0]) : std::map<std::string, Size>{};
    const Size ref = first.count(part) ? first.at(part) : Size{};
    std::vector<std::string> row = {v, fmt::format("{:.0f}", ref.bodies),
                                    fmt::format("{:.0f}", ref.dofs),
                                    fmt::format("{:.0f}", ref.contacts)};
    for (const char* solver : kSolvers) {
      const bool has = data.count(solver) && data.at(solver).count(part);
      row.push_back(has ? fmt::format("{:.3f}", data.at(solver).at(part).time_ms) : "—");
    }
    t.Row(std::move(row));
  }
  return "\n" +
         markdown::Heading(2, fmt::format("{} (sweep of `{}` over {} = {}; {} frames per size)",
                                          f.scene, f.scene, f.param, values, count)) +
         t.str();
}

// The fit table's Markdown and subadmm's fits, which its claim reads.
struct Fits {
  std::string md;
  LineFit sub_lin, sub_pw;
};

// Each solver's linear and log-log fits of time against bodies, as a table.
Fits FitTable(const Family& f, const PublishedTable& paper, const SolverSizes& data) {
  Fits out;
  markdown::Table t({"solver", "linear fit: time [ms] per body", "R² (linear)", "paper R²",
                     "log-log slope (time ∝ bodies^k)", "R² (log-log)"},
                    "lrrrrr");
  for (const char* solver : kSolvers) {
    std::vector<double> bodies, times;
    if (data.count(solver))
      for (const auto& [part, sz] : data.at(solver))
        bodies.push_back(sz.bodies), times.push_back(sz.time_ms);
    const LineFit lin = FitLine(bodies, times), pw = FitPowerLaw(bodies, times);
    const std::string paper_r2 =
        std::string(solver) == "subadmm"
            ? fmt::format("{:.4f}", paper.Get("r_squared_linear", f.paper_column))
            : "—";
    if (lin.valid)
      t.Row({solver, fmt::format("{:.4f}", lin.slope), fmt::format("{:.4f}", lin.r2), paper_r2,
             fmt::format("{:.3f}", pw.slope), fmt::format("{:.4f}", pw.r2)});
    else
      t.Row({solver, "—", "—", paper_r2, "—", "—"});
    if (std::string(solver) == "subadmm") out.sub_lin = lin, out.sub_pw = pw;
  }
  out.md = "\n" + t.str();
  return out;
}

// The family's claim row of linear complexity, from subadmm's fits.
std::string LinearClaim(const Family& f, const ReportInput& in, const Fits& fits) {
  const LineFit& sub_lin = fits.sub_lin;
  const LineFit& sub_pw = fits.sub_pw;
  // "linear complexity" (000 §IV-C, R² of a linear fit): the log-log slope decides.
  const std::string linear_claim =
      fmt::format("000: SubADMM's time is linear in the size ({}: R² {:.4f})", f.scene,
                  in.paper.Get("r_squared_linear", f.paper_column));
  if (!sub_lin.valid)
    return in.claims.NotAssessed(linear_claim, "no fit", "fewer than two sizes ran");
  return in.claims.Row(
      linear_claim,
      fmt::format("R² (linear) {:.4f}, log-log slope {:.3f}", sub_lin.r2, sub_pw.slope),
      LinearGrowthVerdict(sub_pw.slope, sub_lin.r2));
}

// Writes the family's results and draws them with plots/scalability.py; returns the paragraph
// that names the figure (with the fits it printed) or, without one, the results file.
std::string FigureNote(const ProtocolRecords& rec, const Family& f, const std::string& out_dir) {
  const std::string results = WriteFamilyResults(rec, f, out_dir);
  const std::string png = out_dir + "/000-fig2-" + f.scene + ".png";
  const std::optional<std::string> printed = RunPlotScript("scalability.py", {results, "-o", png});
  return printed ? fmt::format(
                       "\nFigure: `{}` (plots/scalability.py: time against DOFs, contacts "
                       "and bodies, log-log). Its fits:\n\n```\n{}```\n",
                       png, *printed)
                 : fmt::format(
                       "\nResults: `{}` (the figure needs /usr/bin/python3 with matplotlib "
                       "and h5py: plots/scalability.py).\n",
                       results);
}

// `claims`: the family's claim row is appended (the table goes after every family's section).
std::string ReportFamily(const Family& f, const ReportInput& in, std::string& claims) {
  const ProtocolRecords& rec = in.records;
  const PublishedTable& paper = in.paper;
  if (rec.Has(f.scene, "failed")) {
    claims += in.claims.NotAssessed(
        fmt::format("000: SubADMM's time is linear in the size ({})", f.scene), "failed",
        "the scene failed: " + rec.Text(f.scene, "failed"));
    return "\n" + markdown::Heading(2, f.scene) +
           fmt::format("Failed: {}\n", rec.Text(f.scene, "failed"));
  }
  if (rec.Value(f.scene, "registered") == 0)
    return "\n" + markdown::Heading(2, f.scene) +
           fmt::format(
               "Not run: no `{}` scene with a `{}` parameter is registered yet (paper: R² "
               "{:.4f}).\n",
               f.scene, f.param, paper.Get("r_squared_linear", f.paper_column));
  const int count = rec.options().cases > 0 ? rec.options().cases : 3;
  const auto data = Collect(rec, f);

  std::string md = SizeTable(f, data, count);
  const Fits fits = FitTable(f, paper, data);
  md += fits.md;
  claims += LinearClaim(f, in, fits);
  md += FigureNote(rec, f, in.out_dir);
  return md;
}

std::string Report(const ReportInput& in) {
  std::string md =
      markdown::Heading(1, "000 Fig. 2 — SubADMM scalability with the number of subsystems") +
      "Each scene generated at several sizes by `ncpbench sweep` (frames recorded from an "
      "admm-full run), then subadmm and subadmm-nobody with 60 iterations per frame (the "
      "paper's budget), single thread, best of 5 runs; time = setup + iterations, mean over "
      "the frames of a size. In stir every sphere is one rigid body and one subsystem (the "
      "stirrer is kinematic); in cable (variant 0, 000 §IV-A2) four links make a subsystem, so "
      "fits against bodies are fits against subsystems. The paper reports linear complexity: "
      "R² of a linear fit of time against the size, 0.9993 (stir) and 0.9998 (cable).\n";
  std::string claims;
  for (const Family& f : kFamilies) md += ReportFamily(f, in, claims);
  return md + ClaimHeader() + claims;
}

}  // namespace fig_000_2
}  // namespace

Protocol MakeFig000_2() {
  using namespace fig_000_2;
  return {.id = "000-fig2",
          .title = "SubADMM scalability with subsystems: time of 60 iterations vs size, R²",
          .setting =
              "stir with 27–343 spheres, cable (variant 0) with 80–640 links; subadmm, "
              "subadmm-nobody; 60 iterations; --cases: frames per size (default 3)",
          .measure = Measure,
          .report = Report,
          .min_cases = 3};
}

}  // namespace ncp
