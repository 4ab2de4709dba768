// 000 Table I: PGS, PJ, full ADMM, NNewton and SubADMM (000's SubADMM has no body splitting:
// subadmm-nobody) at 30/60/90 iterations (NNewton at 3/6/9) on the stir, cable and FEM-beam
// scenes: average time per step and average accuracy AA (mean −log10 Fischer–Burmeister error).
// The paper steps each scene with each solver; here every solver runs on the same frozen frames
// (recorded from one simulation per scene), which isolates the solver from the trajectory.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>

#include "harness/reproduce/claim_verdict.h"
#include "harness/reproduce/protocol.h"
#include "harness/reproduce/scene_frames.h"

namespace ncp {
namespace {

struct SolverCol {
  const char* name;
  int iters[3];
};
const SolverCol kSolvers[] = {{"pgs", {30, 60, 90}},
                              {"pj", {30, 60, 90}},
                              {"admm-full", {30, 60, 90}},
                              {"nnewton", {3, 6, 9}},
                              {"subadmm-nobody", {30, 60, 90}}};

struct SceneRow {
  const char* key;    // row prefix in the CSV
  const char* scene;
  ParamMap params;
  const char* stepper;  // solver that steps the simulation the frames are recorded from
  int stepper_iters;
};

std::string Run(const ReproduceOptions& opt) {
  const int frames = opt.cases > 0 ? opt.cases : 3;
  // admm-full stalls on the cable (its soft rows make the full Delassus matrix ill-conditioned)
  // and pgs diverges there; nnewton steps it to res004 ~1e-4 in 20 iterations.
  const std::vector<SceneRow> scenes = {{"stir", "stir", {}, "admm-full", 200},
                                        {"cable", "cable", {{"variant", "0"}}, "nnewton", 20},
                                        {"beam", "fem_beam", {}, "admm-full", 200}};
  const PublishedTable paper = ReadPublished("000-table1");
  std::string md =
      "# 000 Table I — time and accuracy at 30/60/90 iterations\n\n" +
      fmt::format("{} frames per scene, recorded from a simulation stepped by admm-full (200 "
                  "iterations a step; the cable by nnewton, 20 iterations); every solver from a cold start at a fixed iteration count, single thread. "
                  "AT: mean setup + iterations [ms]; AA: mean −log10 of the mean per-constraint "
                  "Fischer–Burmeister error (bigger is better). The paper's value follows each "
                  "of ours after a slash; — : the paper's simulation failed.\n\n",
                  frames) +
      "| scene | | ";
  for (const SolverCol& s : kSolvers)
    for (int it : s.iters) md += fmt::format("{}@{} | ", s.name, it);
  md += "\n|---|---|";
  for (int i = 0; i < 15; ++i) md += "---:|";
  md += "\n";
  struct Cell {
    double at = NAN, aa = NAN;
    long diverged = 0;
  };
  std::map<std::string, std::map<std::string, Cell>> got;  // scene key → solver@iters
  for (const SceneRow& row : scenes) {
    SimulateOptions sim;
    sim.solver = row.stepper;
    sim.iters = row.stepper_iters;
    sim.quiet = true;
    sim.reference_solvers.clear();
    sim.every = FindScene(row.scene)->default_every;
    if (!opt.quiet) std::fprintf(stderr, "000-table1: simulating %s\n", row.scene);
    const std::vector<ContactProblem> f = SceneFrames(row.scene, row.params, frames, sim);
    std::string at = fmt::format("| {} ({} DOF, {} contacts) | AT |", row.key,
                                 f.front().num_dofs(), f.front().num_contacts());
    std::string aa = "| | AA |";
    for (const SolverCol& s : kSolvers)
      for (int it : s.iters) {
        const FrameSummary r = RunOnFrames(f, s.name, {}, 0.0, it, 0.0, opt, row.key);
        const std::string col = fmt::format("{}@{}", s.name, it);
        auto pub = [&](const char* m) {
          const double v = paper.Get(fmt::format("{}_{}", row.key, m), col);
          return std::isnan(v) ? std::string("—") : fmt::format("{:.4g}", v);
        };
        at += fmt::format(" {:.4g} / {} |", r.total_ms, pub("AT"));
        const auto diverged = std::count(r.statuses.begin(), r.statuses.end(), Outcome::kDiverged);
        got[row.key][col] = {r.total_ms, r.fb_aa, static_cast<long>(diverged)};
        if (diverged > 0 || !std::isfinite(r.fb_aa))  // a blown-up iterate has no accuracy
          aa += fmt::format(" diverged {}/{} / {} |", diverged, r.frames, pub("AA"));
        else
          aa += fmt::format(" {:.3f} / {} |", r.fb_aa, pub("AA"));
      }
    md += at + "\n" + aa + "\n";
    if (!opt.quiet) std::fprintf(stderr, "000-table1: %s done\n", row.scene);
  }
  md += "\nPaper (qualitative): SubADMM is the fastest on cable and beam with comparable accuracy; "
        "PJ fails on cable and beam; FADMM beats PGS/PJ when the Delassus assembly is expensive.\n";
  md += ClaimHeader();
  auto col = [](const SolverCol& s, int k) { return fmt::format("{}@{}", s.name, s.iters[k]); };
  for (const char* key : {"cable", "beam"}) {
    auto& g = got[key];
    // Fastest: subadmm-nobody's time below every other solver's at the same budget index.
    bool fastest = true, slowest = true;
    std::string ours;
    for (int k = 0; k < 3; ++k) {
      const double sub = g[col(kSolvers[4], k)].at;
      double best_other = INFINITY;
      for (int j = 0; j < 4; ++j) {
        const Cell& c = g[col(kSolvers[j], k)];
        if (c.diverged > 0 || !std::isfinite(c.aa)) continue;  // a failed run is not faster
        best_other = std::min(best_other, c.at);
        slowest &= sub > c.at;
      }
      fastest &= sub < best_other;
      ours += fmt::format("{}{:.3g} vs best other {:.3g} ms", k ? "; " : "", sub, best_other);
    }
    md += ClaimRow(fmt::format("000: SubADMM is the fastest on {} (at 30/60/90 iterations)", key),
                   ours,
                   fastest ? Verdict::kReproduced
                           : slowest ? Verdict::kContradicted : Verdict::kNotReproduced);
    // Comparable accuracy: within 0.5 digit of the most accurate run at 90 iterations (9 NNewton).
    double best_aa = -INFINITY;
    for (int j = 0; j < 4; ++j)
      if (g[col(kSolvers[j], 2)].diverged == 0) best_aa = std::max(best_aa, g[col(kSolvers[j], 2)].aa);
    const double sub_aa = g[col(kSolvers[4], 2)].aa;
    md += ClaimRow(fmt::format("000: with accuracy comparable to the others on {} (AA at 90 "
                               "iterations within 0.5 of the best other)", key),
                   fmt::format("AA {:.3f} vs best other {:.3f}", sub_aa, best_aa),
                   NearVerdict({sub_aa}, best_aa, 0.5));
    // PJ fails: a diverged frame or an accuracy a digit below subadmm-nobody's; PJ as accurate
    // as subadmm-nobody (within 0.5) does what the paper says it cannot.
    const Cell& pj = g[col(kSolvers[1], 2)];
    md += ClaimRow(fmt::format("000: PJ fails on {}", key),
                   fmt::format("pj@90: {} diverged frames, AA {:.3f} (subadmm-nobody {:.3f})",
                               pj.diverged, pj.aa, sub_aa),
                   pj.diverged > 0 || !std::isfinite(pj.aa) || pj.aa <= sub_aa - 1.0
                       ? Verdict::kReproduced
                   : pj.aa >= sub_aa - 0.5 ? Verdict::kContradicted
                                           : Verdict::kNotReproduced);
    // FADMM beats PGS where the Delassus assembly is expensive (cable, beam in the paper).
    std::vector<double> order;
    std::string fo;
    bool beats = true, loses = true;
    for (int k = 0; k < 3; ++k) {
      const double f = g[col(kSolvers[2], k)].at, pg = g[col(kSolvers[0], k)].at;
      beats &= f < pg, loses &= f > pg;
      fo += fmt::format("{}admm-full {:.3g} vs pgs {:.3g} ms", k ? "; " : "", f, pg);
    }
    md += ClaimRow(fmt::format("000: FADMM faster than PGS on {} (expensive Delassus assembly)", key),
                   fo,
                   beats ? Verdict::kReproduced
                         : loses ? Verdict::kContradicted : Verdict::kNotReproduced);
  }
  return md;
}

}  // namespace

Protocol MakeTable000_1() {
  return {"000-table1", "PGS, PJ, FADMM, NNewton, SubADMM at 30/60/90 iterations: time, −log FB error",
          "stir, cable (640 bodies, 4 per subsystem), fem_beam (20 subsystems); 3 frames each "
          "(--cases N); single thread", "", Run};
}

}  // namespace ncp
