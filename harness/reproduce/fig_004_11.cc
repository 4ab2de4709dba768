// 004 Fig. 11: pouring with 9, 18, 27, 36 and 45 particles at a fixed iteration budget per step
// (5 CANAL, 100 SubADMM and PGS iterations); average time per step and average residual over
// the whole task against the system DOF. The paper prints no numbers for the figure: its text's
// statements are the published data (results/papers/004-fig11.csv). The figure is drawn by
// plots/size_panels.py from the CSV this protocol writes. The claims are tested against ours
// (claim_verdict.h), and the residual gap of subadmm to pgs is measured on shared frames.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>

#include "common/error.h"
#include "harness/compare.h"
#include "harness/metrics/evaluator.h"
#include "harness/reproduce/claim_verdict.h"
#include "harness/reproduce/fit.h"
#include "harness/reproduce/protocol.h"
#include "harness/reproduce/protocol_records.h"
#include "harness/reproduce/thread_scope.h"
#include "harness/runner.h"
#include "harness/simulate.h"
#include "problems/math/constraint_operator.h"
#include "problems/scenarios/rigid/pouring.h"
#include "solvers/settings.h"

namespace ncp {
namespace {

struct Budgeted {
  const char* solver;
  int iters;
};
const Budgeted kSolvers[] = {{"canal", 5}, {"subadmm", 100}, {"pgs", 100}};
const int kParticles[] = {9, 18, 27, 36, 45};

struct Cell {
  int dofs = 0;
  double time_ms = 0.0, residual = 0.0, penetration_mm = 0.0;
  int in_cup = 0, in_bottle = 0, particles = 0;
  std::string failure;  // non-empty: the simulation stopped (solver diverged or failed)
  Outcome status = Outcome::kFailed;  // the worst status of the steps' solves
};

Cell Measure(const Budgeted& b, int particles, const std::vector<std::string>& extra = {}) {
  SimulateOptions so;
  so.solver = b.solver;
  so.iters = b.iters;
  so.reference_solvers.clear();  // the figure measures the per-step solves only
  so.quiet = true;
  // SubADMM picks its own thread count from the problem size unless told.
  if (std::string(b.solver) == "subadmm") so.sets = {"subadmm.threads=1"};
  so.sets.insert(so.sets.end(), extra.begin(), extra.end());
  Cell c;
  c.particles = particles;
  c.dofs = 6 * particles;
  try {
    const SimulateResult r =
        Simulate(*FindScene("pouring"), {{"particles", std::to_string(particles)}}, 1, so);
    int counted = 0;
    for (const StepStats& s : r.steps) {
      c.penetration_mm = std::max(c.penetration_mm, 1e3 * s.max_penetration);
      if (s.contacts == 0) continue;
      c.time_ms += s.solve_ms;
      c.residual += s.res004;
      ++counted;
    }
    c.status = Outcome::kConverged;
    for (const StepStats& s : r.steps)
      if (s.contacts > 0 && StatusRank(s.status) > StatusRank(c.status)) c.status = s.status;
    c.time_ms /= std::max(1, counted);
    c.residual /= std::max(1, counted);
    const PouringLayout layout = PouringGeometry(r.params);
    const physics::Pose bottle = layout.BottlePose(r.params.at("tilt_deg") * M_PI / 180.0);
    for (const physics::Pose& x : r.final_poses) {
      c.in_cup += layout.InCup(x.translation());
      c.in_bottle += layout.InBottle(bottle, x.translation());
    }
  } catch (const Error& e) {
    c.failure = e.what();
  }
  return c;
}

// One row per solver and size: the whole task as one run, its time and res004 the means per
// step with contacts (the figure's values), its status the worst of the steps'.
RunRecord AsRecord(const Budgeted& b, const Cell& c) {
  const SolverEntry& e = FindSolver(b.solver);
  const std::map<std::string, std::string> given =
      std::string(b.solver) == "subadmm" ? std::map<std::string, std::string>{{"threads", "1"}}
                                         : std::map<std::string, std::string>{};
  Budget budget;
  budget.iters = b.iters;
  RunRecord r;
  r.problem = fmt::format("pouring-particles{}", c.particles);
  r.solver = b.solver;
  r.settings = Settings::Parse(b.solver, e.settings, given).ToString();
  r.budget = budget.ToString();
  r.warm_start = ToString(WarmMode::kNone);
  r.status = c.failure.empty() ? c.status : Outcome::kFailed;
  r.message = c.failure;
  r.iterations = b.iters;
  r.threads_given = 1;
  r.num_dofs = c.dofs;
  if (c.failure.empty()) {
    r.total_time_s = r.solve_time_s = 1e-3 * c.time_ms;
    r.final_metrics[Metric::kRes004] = c.residual;
  }
  return r;
}

std::string Num(double v, const char* fmt_spec = "{:.3g}") {
  return std::isfinite(v) ? fmt::format(fmt::runtime(fmt_spec), v) : "—";
}


// Why subadmm's mean residual is above pgs's: every solver on the same frames (recorded from a
// pgs-driven run of the smallest size, each solved from zero like a step of the simulation), the
// mean and median res004 at 100 iterations, the share of subadmm's residual on the contacts with
// the kinematic bottle or cup (one body: inside one subsystem) and on the particle–particle
// contacts (two subsystems: the split's coupling), and the settings that move it.
struct Diagnosis {
  std::string md;
  double fix_ratio = NAN;  // subadmm row_scaling=0 / pgs, mean res004 over the same frames
};

Diagnosis Diagnose(int particles, const ReproduceOptions& opt) {
  SimulateOptions so;
  so.solver = "pgs";
  so.iters = 100;
  so.every = 12;
  so.reference_solvers.clear();
  so.quiet = true;
  const SimulateResult sim =
      Simulate(*FindScene("pouring"), {{"particles", std::to_string(particles)}}, 1, so);
  struct Config {
    const char* label;
    const char* solver;
    std::vector<std::string> sets;
    int iters;
  };
  const std::vector<Config> configs = {
      {"pgs", "pgs", {}, 100},
      {"admm-full", "admm-full", {}, 100},
      {"subadmm (defaults)", "subadmm", {"subadmm.threads=1"}, 100},
      {"subadmm row_scaling=0 (one β per subsystem, 004:34)", "subadmm",
       {"subadmm.threads=1", "subadmm.row_scaling=0"}, 100},
      {"subadmm adaptive=0", "subadmm", {"subadmm.threads=1", "subadmm.adaptive=0"}, 100},
      {"subadmm (defaults), 1000 iterations", "subadmm", {"subadmm.threads=1"}, 1000}};
  std::vector<std::unique_ptr<Evaluator>> evs;
  for (const ContactProblem& p : sim.recorded) evs.push_back(std::make_unique<Evaluator>(p));
  std::string md = fmt::format(
      "\n## Why subadmm's residual is above pgs's\n\n{} frames of a pgs-driven run with {} "
      "particles (every 12th step; {}–{} contacts), every solver from zero on the same frames "
      "(as the simulation solves each step), single thread. Wall share: the part of the summed "
      "res004 on contacts with the kinematic bottle or cup (one body, inside one subsystem); the "
      "rest is on particle–particle contacts, which couple two subsystems.\n\n"
      "| solver | iterations | mean res004 | median res004 | mean / pgs's | wall share |\n"
      "|---|---:|---:|---:|---:|---:|\n",
      sim.recorded.size(), particles,
      sim.recorded.empty() ? 0 : std::min_element(sim.recorded.begin(), sim.recorded.end(), [](const auto& a, const auto& b) { return a.num_contacts() < b.num_contacts(); })->num_contacts(),
      sim.recorded.empty() ? 0 : std::max_element(sim.recorded.begin(), sim.recorded.end(), [](const auto& a, const auto& b) { return a.num_contacts() < b.num_contacts(); })->num_contacts());
  Diagnosis d;
  double pgs_mean = NAN;
  std::map<std::string, double> means, medians, walls, worst;
  for (const Config& c : configs) {
    const SolverJob job = MakeSolverJobs({c.solver}, c.sets).front();
    RunOptions ro;
    ro.budget.iters = c.iters;
    std::vector<double> res;
    double wall = 0.0, total = 0.0;
    for (std::size_t f = 0; f < sim.recorded.size(); ++f) {
      const ContactProblem& p = sim.recorded[f];
      WarmStart sol;
      const RunRecord r = RunOne(p, *evs[f], job, ro, nullptr, 0, &sol);
      res.push_back(r.final_metrics[Metric::kRes004]);
      if (sol.lambda.size() != p.num_rows() || !sol.lambda.allFinite()) continue;
      // Bodies per constraint from the structure layer's blocks.
      std::vector<int> bodies(p.constraints.size(), 0);
      for (const auto& b : p.structure.blocks) ++bodies[b.constraint];
      const Vec u = evs[f]->ConstraintVelocity(sol.lambda);
      for (std::size_t i = 0; i < p.constraints.size(); ++i) {
        const Constraint& ct = p.constraints[i];
        const int nr = ct.rows();
        double x[3], y[3], s2 = 0.0;
        for (int k = 0; k < nr; ++k) x[k] = sol.lambda[ct.row + k] - u[ct.row + k];
        ApplyConstraintOperator(ct, 1.0, x, p.e.data() + ct.row, y);
        for (int k = 0; k < nr; ++k) s2 += (sol.lambda[ct.row + k] - y[k]) * (sol.lambda[ct.row + k] - y[k]);
        total += std::sqrt(s2);
        if (bodies[i] <= 1) wall += std::sqrt(s2);
      }
    }
    double mean = 0.0;
    for (double r : res) mean += r / std::max<std::size_t>(1, res.size());
    if (std::string(c.label) == "pgs") pgs_mean = mean;
    if (c.sets.size() == 2 && c.sets[1] == "subadmm.row_scaling=0") d.fix_ratio = mean / pgs_mean;
    // The part of the mean from the worst tenth of the frames.
    std::vector<double> sorted = res;
    std::sort(sorted.rbegin(), sorted.rend());
    double top = 0.0, all = 0.0;
    for (std::size_t k = 0; k < sorted.size(); ++k)
      all += sorted[k], top += k < std::max<std::size_t>(1, sorted.size() / 10) ? sorted[k] : 0.0;
    means[c.label] = mean, medians[c.label] = MedianBest(res);
    walls[c.label] = total > 0 ? wall / total : NAN, worst[c.label] = all > 0 ? top / all : NAN;
    md += fmt::format("| {} | {} | {:.2e} | {:.2e} | {:.3g} | {:.0f}% |\n", c.label, c.iters, mean,
                      MedianBest(res), mean / pgs_mean, total > 0 ? 100.0 * wall / total : NAN);
    if (!opt.quiet) std::fprintf(stderr, "004-fig11: diagnosis, %s done\n", c.label);
  }
  const std::string sub = "subadmm (defaults)";
  md += fmt::format(
      "\nMeasured reason: the gap is subadmm's first-order convergence on the few frames where "
      "the particles pile up, not the body split and not the bottle. On the same frames subadmm's "
      "mean res004 is {:.3g}× pgs's while its median is {:.2e} against pgs's {:.2e}; the worst "
      "tenth of the frames carries {:.0f}% of subadmm's mean. {:.0f}% of its residual is on "
      "particle–particle contacts (two subsystems), {:.0f}% on the one-body contacts with the "
      "kinematic bottle and cup, so the wall contacts do not defeat the split. admm-full, with no "
      "split at all, is also {:.3g}× pgs's mean. β: one β per subsystem as in 004:34 "
      "(row_scaling=0) gives {:.3g}×, a fixed β (adaptive=0) {:.3g}×: neither closes it. With 1000 "
      "iterations subadmm reaches {:.2e} ({:.2g}× pgs's at 100). pgs does well because our "
      "system holds the particles only (the bottle follows a prescribed trajectory): {}-dof "
      "problems with at most a few dozen contacts, which 100 Gauss–Seidel sweeps solve to round-off "
      "on most frames; the paper's system couples them to a 28-DOF arm under a strong grasp, "
      "where it reports PGS unstable. Every step is solved from zero here (the simulation carries "
      "no warm start), for all three solvers alike.\n",
      means[sub] / pgs_mean, medians[sub], medians["pgs"], 100.0 * worst[sub],
      100.0 * (1.0 - walls[sub]), 100.0 * walls[sub], means["admm-full"] / pgs_mean,
      d.fix_ratio, means["subadmm adaptive=0"] / pgs_mean,
      means["subadmm (defaults), 1000 iterations"],
      means["subadmm (defaults), 1000 iterations"] / pgs_mean, 6 * particles);
  d.md = md;
  return d;
}

std::string Run(const ReproduceOptions& opt) {
  const int sizes = std::clamp(opt.cases > 0 ? opt.cases : 5, 1, 5);
  std::map<std::string, std::vector<Cell>> cells;
  {
    const SolverThreadScope threads(1);
    for (int k = 0; k < sizes; ++k)
      for (const Budgeted& b : kSolvers) {
        cells[b.solver].push_back(Measure(b, kParticles[k]));
        Record(opt, AsRecord(b, cells[b.solver].back()), "pouring");
        if (!opt.quiet)
          std::fprintf(stderr, "004-fig11: %s, %d particles done\n", b.solver, kParticles[k]);
      }
  }

  std::filesystem::create_directories(opt.out_dir);
  const std::string csv = opt.out_dir + "/004-fig11.csv", png = opt.out_dir + "/004-fig11.png";
  {
    std::ofstream f(csv + ".tmp");
    f << "solver,particles,dofs,time_ms,residual\n";
    for (const Budgeted& b : kSolvers)
      for (const Cell& c : cells[b.solver])
        if (c.failure.empty())
          f << fmt::format("{},{},{},{:.6g},{:.6g}\n", b.solver, c.particles, c.dofs, c.time_ms,
                           c.residual);
  }
  std::filesystem::rename(csv + ".tmp", csv);
  const std::string draw =
      fmt::format("/usr/bin/python3 {}/plots/size_panels.py {} -o {} > /dev/null",
                  NCPBENCH_SOURCE_DIR, csv, png);
  const bool drawn = std::system(draw.c_str()) == 0;

  const PublishedTable paper = ReadPublished("004-fig11");
  std::string md = fmt::format(
      "# 004 Fig. 11 — pouring: 5 CANAL vs 100 SubADMM / PGS iterations per step\n\n"
      "`pouring` with {} particle count(s) (the paper: 9, 18, 27, 36, 45), r = 5 mm, 10 g/cm³, in "
      "an SDF bottle (004 App. B profile) tilted by {:g}° on a prescribed gripper trajectory so "
      "that they pour into a cup; {} steps of 1/240 s. Every step is solved with the fixed "
      "budget (canal 5, subadmm 100, pgs 100 iterations), single thread. Time: setup + "
      "iterations per step, averaged over the steps with contacts; residual: res004 of each "
      "step's solve, averaged likewise. Each solver drives its own simulation, so the averages are "
      "over different trajectories: the last column says whether the task succeeded (particles "
      "in the cup / still in the bottle at the end). System DOF = 6 × particles (the paper adds "
      "its 28-DOF dual-arm robot, replaced here by its trajectory).\n\n"
      "| solver | particles | DOF | time per step [ms] | mean res004 | max penetration [mm] | "
      "in cup / left in bottle |\n|---|---:|---:|---:|---:|---:|---:|\n",
      sizes, FindScene("pouring")->defaults().at("tilt_deg"), FindScene("pouring")->default_steps);
  for (const Budgeted& b : kSolvers)
    for (const Cell& c : cells[b.solver])
      md += c.failure.empty()
                ? fmt::format("| {} | {} | {} | {:.3f} | {:.2e} | {:.2f} | {} / {} |\n", b.solver,
                              c.particles, c.dofs, c.time_ms, c.residual, c.penetration_mm,
                              c.in_cup, c.in_bottle)
                : fmt::format("| {} | {} | {} | failed: {} | | | |\n", b.solver, c.particles,
                              c.dofs, c.failure);

  // The paper's statements next to ours.
  std::map<std::string, LineFit> growth;
  std::map<std::string, double> mean_res;
  for (const Budgeted& b : kSolvers) {
    std::vector<double> dofs, times;
    double logsum = 0;
    int ok = 0;
    for (const Cell& c : cells[b.solver])
      if (c.failure.empty()) {
        dofs.push_back(c.dofs), times.push_back(c.time_ms);
        logsum += std::log10(std::max(c.residual, 1e-300)), ++ok;
      }
    growth[b.solver] = FitPowerLaw(dofs, times);
    mean_res[b.solver] = ok ? std::pow(10.0, logsum / ok) : NAN;
  }
  md += "\n| | canal | subadmm | pgs |\n|---|---:|---:|---:|\n";
  auto line = [&](const std::string& label, auto get) {
    md += "| " + label + " |";
    for (const Budgeted& b : kSolvers) md += " " + get(b.solver) + " |";
    md += "\n";
  };
  line("iterations per step (paper)",
       [&](const char* s) { return Num(paper.Get("iterations_per_step", s)); });
  line("residual (ours: geometric mean over sizes)",
       [&](const char* s) { return Num(mean_res[s], "{:.2e}"); });
  line("residual below (paper)",
       [&](const char* s) { return Num(paper.Get("residual_below", s), "{:.0e}"); });
  line("residual / pgs residual (ours)",
       [&](const char* s) { return Num(mean_res[s] / mean_res["pgs"], "{:.2g}"); });
  line("residual / pgs residual (paper)",
       [&](const char* s) { return Num(paper.Get("residual_over_pgs", s), "{:.2g}"); });
  line("time ∝ DOF^k: k (ours)", [&](const char* s) {
    return growth[s].valid ? fmt::format("{:.2f} (R² {:.3f})", growth[s].slope, growth[s].r2)
                           : std::string("—");
  });
  line("time growth rank, 1 = slowest (paper)",
       [&](const char* s) { return Num(paper.Get("time_growth_rank", s), "{:.0f}"); });
  md +=
      "\nPaper (§VII-C): time grows with DOF as SubADMM < PGS < CANAL (CANAL superlinear "
      "from its Hessian factorization, well below 3); CANAL reaches a residual under 1e-5 in "
      "5 iterations; SubADMM about 0.1 × the residual of PGS; the residual hardly depends on "
      "the particle count. Our residual is res004 averaged over all constraints.\n";
  // The claims, each against our figures.
  md += ClaimHeader();
  {
    double canal_worst = 0.0;
    for (const Cell& c : cells["canal"])
      canal_worst = std::max(canal_worst, c.failure.empty() ? c.residual : INFINITY);
    md += ClaimRow("004 §VII-C: CANAL's residual under 1e-5 within 5 iterations",
                   fmt::format("largest mean res004 over the sizes {:.2e}", canal_worst),
                   AtMostVerdict(canal_worst, paper.Get("residual_below", "canal")));
    const double ratio = mean_res["subadmm"] / mean_res["pgs"];
    md += ClaimRow(fmt::format("004 §VII-C: SubADMM \"approximately {:g} times the residual of "
                               "PGS\" (within 3×; above 1 is the reverse)",
                               paper.Get("residual_over_pgs", "subadmm")),
                   fmt::format("{:.3g}× ({:.2e} / {:.2e})", ratio, mean_res["subadmm"],
                               mean_res["pgs"]),
                   RatioVerdict(ratio, paper.Get("residual_over_pgs", "subadmm"), 3.0));
    const bool fits = growth["canal"].valid && growth["pgs"].valid && growth["subadmm"].valid;
    md += ClaimRow("004 §VII-C: time grows with DOF as SubADMM < PGS < CANAL",
                   fits ? fmt::format("k: canal {:.2f} > pgs {:.2f} > subadmm {:.2f}",
                                      growth["canal"].slope, growth["pgs"].slope,
                                      growth["subadmm"].slope)
                        : std::string("needs two sizes or more (--cases ≥ 2)"),
                   fits ? OrderVerdict({growth["canal"].slope, growth["pgs"].slope,
                                        growth["subadmm"].slope})
                        : Verdict::kNotReproduced);
    // "not significantly affected by the number of particles": every size within half a decade
    // of the solver's geometric mean.
    std::string spread;
    bool flat = sizes >= 2;
    for (const Budgeted& b : kSolvers) {
      double lo = INFINITY, hi = 0.0;
      for (const Cell& c : cells[b.solver])
        if (c.failure.empty()) lo = std::min(lo, c.residual), hi = std::max(hi, c.residual);
      spread += fmt::format("{}{} {:.2g}×", spread.empty() ? "" : ", ", b.solver, hi / lo);
      flat &= hi / lo <= std::sqrt(10.0);
    }
    md += ClaimRow("004 §VII-C: the residual is not significantly affected by the particle count "
                   "(largest / smallest over the sizes ≤ √10)",
                   sizes >= 2 ? spread : std::string("needs two sizes or more (--cases ≥ 2)"),
                   flat ? Verdict::kReproduced : Verdict::kNotReproduced);
  }
  const Diagnosis why = Diagnose(kParticles[0], opt);
  md += why.md;
  md += drawn ? fmt::format(
                    "\nFigure: `{}` (left: time per step over DOF; right: residual over "
                    "DOF). Data: `{}`.\n",
                    png, csv)
              : fmt::format(
                    "\nData: `{}` (the figure needs /usr/bin/python3 with matplotlib: "
                    "plots/size_panels.py).\n",
                    csv);
  return md;
}

}  // namespace

Protocol MakeFig004_11() {
  return {"004-fig11", "pouring: 5 CANAL vs 100 SubADMM/PGS iterations: time and residual vs DOF",
          "pouring with 9, 18, 27, 36, 45 particles (--cases k: the first k counts), 360 steps; "
          "canal 5, subadmm 100, pgs 100 iterations per step; single thread (about 6 min of CPU "
          "for the five sizes)",
          "", Run};
}

}  // namespace ncp
