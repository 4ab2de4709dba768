// 002 §V-B, Table I and Fig. 6: the virtual node's consistency. A rigid box rests on the floor on
// its four bottom corners and is pushed along +x by a constant force; COND (whose contacts on a
// rigid body are all virtual nodes) for three damping gains γ and two spring-damper penalty models
// (002's ref. [22]; Penalty2 = every gain of Penalty1 × 10) against the analytic motion
// (harness/reproduce/box_push.h: the exact solution of the same time discretisation, so that the
// continuous ½ a t², which differs from it by a dt t / 2 for every model alike, does not mask the
// contact models' errors). The exact complementarity step (nnewton on the original problem) is the
// check that the scene and the reference agree.
//
// Our copy of the paper lost the box's size and mass, μ, the force, the time step, the gains and
// Table I's column heads: the scene's documented values stand in (box_push: 0.2 m, 1 kg, μ 0.5,
// 7 N, dt 1 ms, 1 s), the columns are shown as printed, and the unknowns the penalty claims hang
// on (the time step and the gains) are swept.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "common/error.h"
#include "harness/markdown.h"
#include "harness/reproduce/box_push.h"
#include "harness/reproduce/claim_ledger.h"
#include "harness/reproduce/claim_verdict.h"
#include "harness/reproduce/protocol.h"
#include "harness/reproduce/protocol_records.h"

namespace ncp {
namespace {
namespace table_002_1 {

constexpr double kGammas[] = {10, 100, 1000};     // COND's γ (a multiple of the effective mass)
constexpr double kStiffness[] = {1e3, 1e4, 1e5};  // Penalty1's k [N/m per corner], swept
constexpr double kDefaultStiffness = 1e4;
constexpr double kDts[] = {1e-3, 1e-2};      // time steps swept [s]; the scene's default first
constexpr double kDuration = 1.0;            // simulated time [s]
constexpr int kCondIters = 400;              // COND's fixed budget per step (warm start)
constexpr int kCondConvergedIters = 200000;  // cap of COND run to its formulation's solution
constexpr int kExactIters = 50;              // nnewton iterations per step
constexpr double kExactTol = 1e-10;          // res004 of a converged step

void ObservePush(ProtocolRecords& rec, const std::string& part, const PushRun& r) {
  for (int i = 0; i < 3; ++i) rec.Observe(part, fmt::format("err_{}", "xyz"[i]), r.err[i]);
  rec.Observe(part, "tilt", r.tilt);
  rec.Observe(part, "airborne", r.airborne);
  rec.Observe(part, "iterations", r.iterations);
  rec.Observe(part, "unconverged", r.unconverged);
  rec.Observe(part, "worst_res", r.worst_res);
  rec.Observe(part, "diverged", r.diverged ? 1 : 0);
}

PushRun ReadPush(const ProtocolRecords& rec, const std::string& part) {
  PushRun r;
  for (int i = 0; i < 3; ++i) r.err[i] = rec.Value(part, fmt::format("err_{}", "xyz"[i]));
  r.tilt = rec.Value(part, "tilt");
  r.airborne = static_cast<int>(rec.Value(part, "airborne"));
  r.iterations = rec.Value(part, "iterations");
  r.unconverged = static_cast<int>(rec.Value(part, "unconverged"));
  r.worst_res = rec.Value(part, "worst_res");
  r.diverged = rec.Value(part, "diverged") != 0;
  return r;
}

std::string CondPart(double gamma, double dt) {
  return fmt::format("cond-g{:g}-dt{:g}", gamma, dt);
}
std::string CondBudgetPart(double gamma, double dt) {
  return fmt::format("cond{}-g{:g}-dt{:g}", kCondIters, gamma, dt);
}
std::string FormulationPart(double gamma, double dt) {
  return fmt::format("formulation-g{:g}-dt{:g}", gamma, dt);
}
std::string PenaltyPart(int which, double k, double dt) {
  return fmt::format("penalty{}-k{:g}-dt{:g}", which, k, dt);
}

std::string CondSet(double gamma) { return fmt::format("cond.gamma={:g}", gamma); }

void Measure(const ReproduceOptions& opt, ProtocolRecords& rec) {
  const double mass = BoxPushParams(kDts[0]).at("mass");
  for (double dt : kDts) {
    ObservePush(rec, fmt::format("exact-dt{:g}", dt),
                Push(dt, kDuration, SolverStepper({"nnewton", {}, kExactIters, kExactTol})));
    for (double g : kGammas) {
      ObservePush(rec, FormulationPart(g, dt),
                  Push(dt, kDuration, SolverStepper({"nnewton", {}, kExactIters, kExactTol, g})));
      // COND on its own formulation to the same tolerance: the Frobenius step with Chebyshev,
      // as COND picks when the nodes are virtual.
      ObservePush(rec, CondPart(g, dt),
                  Push(dt, kDuration,
                       SolverStepper({"cond",
                                      {"cond.step=frobenius", "cond.chebyshev=on"},
                                      kCondConvergedIters,
                                      kExactTol,
                                      g})));
      ObservePush(rec, CondBudgetPart(g, dt),
                  Push(dt, kDuration, SolverStepper({"cond", {CondSet(g)}, kCondIters, 0.0})));
    }
    for (double k : kStiffness)
      for (int which : {1, 2}) {
        const physics::PenaltyGains gains = PenaltyOne(k, mass).Scaled(which == 2 ? 10 : 1);
        ObservePush(rec, PenaltyPart(which, k, dt), Push(dt, kDuration, PenaltyStepper(gains)));
      }
  }
  if (!opt.quiet) fmt::print(stderr, "[002-table1] measured\n");
}

std::string Mm(double metres) {
  if (!std::isfinite(metres)) return "diverged";
  return metres < 10 ? fmt::format("{:.4f}", 1e3 * metres) : fmt::format("{:.3g}", 1e3 * metres);
}

void ErrCells(const PushRun& r, std::vector<std::string>& row) {
  for (int i = 0; i < 3; ++i) row.push_back(r.diverged ? "diverged" : Mm(r.err[i]));
  row.push_back(fmt::format("{:.2g}", r.tilt * 180 / M_PI));
  row.push_back(fmt::format("{}", r.airborne));
}

// The paper's Table I beside ours at the default time step and gains.
std::string MainTable(const ProtocolRecords& rec, const PublishedTable& paper, double dt) {
  markdown::Table t(
      {"formulation", "Δx [mm]", "Δy [mm]", "Δz [mm]", "max tilt [deg]", "airborne steps",
       "iterations / step", "steps above tolerance", "paper: columns 1 / 2 / 3 [mm]"},
      "lrrrrrrrl");
  auto paper_cells = [&](const std::string& col) {
    if (paper.columns.empty()) return std::string("—");
    return fmt::format("{:.4f} / {:.4f} / {:.4f}", paper.Get("col1", col), paper.Get("col2", col),
                       paper.Get("col3", col));
  };
  {
    std::vector<std::string> row = {"exact NCP step (nnewton)"};
    const PushRun r = ReadPush(rec, fmt::format("exact-dt{:g}", dt));
    ErrCells(r, row);
    row.push_back(fmt::format("{:.1f}", r.iterations));
    row.push_back(fmt::format("{}", r.unconverged));
    row.push_back("—");
    t.Row(row);
  }
  int i = 0;
  for (double g : kGammas) {
    const std::string paper_row = paper_cells(fmt::format("cond_gamma{}", ++i));
    const std::pair<std::string, std::string> rows[] = {
        {fmt::format("COND (γ = {:g}), to res004 {:g} of its formulation", g, kExactTol),
         CondPart(g, dt)},
        {fmt::format("its formulation (γ = {:g}) solved by nnewton", g), FormulationPart(g, dt)},
        {fmt::format("COND (γ = {:g}), {} iterations a step", g, kCondIters),
         CondBudgetPart(g, dt)}};
    for (const auto& [label, part] : rows) {
      std::vector<std::string> row = {label};
      const PushRun r = ReadPush(rec, part);
      ErrCells(r, row);
      row.push_back(fmt::format("{:.1f}", r.iterations));
      row.push_back(fmt::format("{}", r.unconverged));
      row.push_back(part == CondPart(g, dt) ? paper_row : std::string());
      t.Row(row);
    }
  }
  for (int which : {1, 2}) {
    std::vector<std::string> row = {
        fmt::format("Penalty{} (k = {:g} N/m)", which, kDefaultStiffness * (which == 2 ? 10 : 1))};
    ErrCells(ReadPush(rec, PenaltyPart(which, kDefaultStiffness, dt)), row);
    row.push_back("—");
    row.push_back("—");
    row.push_back(paper_cells(fmt::format("penalty{}", which)));
    t.Row(row);
  }
  return t.str();
}

// Every swept (dt, k): the two penalty models' worst error and airborne steps, COND's beside.
std::string SweepTable(const ProtocolRecords& rec) {
  markdown::Table t(
      {"dt [s]", "k [N/m]", "Penalty1 worst [mm]", "Penalty2 worst [mm]", "Penalty2 airborne steps",
       "Penalty2 > Penalty1", "COND worst, γ = 10 / 100 / 1000 [mm]"},
      "rrrrrll");
  for (double dt : kDts)
    for (double k : kStiffness) {
      const PushRun p1 = ReadPush(rec, PenaltyPart(1, k, dt));
      const PushRun p2 = ReadPush(rec, PenaltyPart(2, k, dt));
      std::string cond;
      for (double g : kGammas)
        cond += (cond.empty() ? "" : " / ") + Mm(ReadPush(rec, CondPart(g, dt)).Worst());
      t.Row({fmt::format("{:g}", dt), fmt::format("{:g}", k), Mm(p1.Worst()), Mm(p2.Worst()),
             fmt::format("{}", p2.airborne), p2.Worst() > p1.Worst() ? "yes" : "no", cond});
    }
  return t.str();
}

// What a fixed budget does to COND as γ grows: the iterations its formulation's solution takes.
std::string BudgetNote(const ProtocolRecords& rec, double dt) {
  std::string its, errs;
  for (double g : kGammas) {
    its += fmt::format("{}{:.0f}", its.empty() ? "" : " / ",
                       ReadPush(rec, CondPart(g, dt)).iterations);
    errs += (errs.empty() ? "" : " / ") + Mm(ReadPush(rec, CondBudgetPart(g, dt)).Worst());
  }
  return fmt::format(
      "\nThe formulation's error falls with γ, and COND run to its formulation's solution "
      "follows it; the cost moves into the iterations: {} a step for γ = 10 / 100 / 1000 (the "
      "virtual nodes' damping rows stiffen Â, and COND's diagonal step P must resolve them). At a "
      "fixed {} iterations a step the error is the iteration budget's: {} mm. Table I's errors "
      "fall tenfold per step of γ, so the paper's runs reached their formulation's solution "
      "(002 stops COND at a residual threshold).\n",
      its, kCondIters, errs);
}

// Geometric mean of COND's error ratio per 10× of γ.
double DecadeRatio(const ProtocolRecords& rec, double dt) {
  const double lo = ReadPush(rec, CondPart(kGammas[0], dt)).Worst();
  const double hi = ReadPush(rec, CondPart(kGammas[std::size(kGammas) - 1], dt)).Worst();
  return std::pow(lo / hi, 1.0 / (std::size(kGammas) - 1));
}

// The heading, the scene and how errors are measured.
std::string SceneParagraph() {
  const std::map<std::string, double> p = BoxPushParams(kDts[0]);
  return markdown::Heading(
             1, "002-table1 — virtual nodes: a pushed box, COND for three γ vs penalty") +
         fmt::format(
             "Scene `box_push`: a {:g} m, {:g} kg box on the floor (μ {:g}), pushed along +x by "
             "{:g} N at its centre for {:g} s, so it slides with a = F/m − μg; its four bottom "
             "corners are the contacts (virtual nodes for COND: a rigid body has no nodes). Errors "
             "are the largest distance of the box's centre from the exact solution of the same "
             "time "
             "discretisation, per axis, over the run. COND is warm-started from the previous step "
             "(002 §V-A5); penalty: explicit spring-damper forces (k per corner in both "
             "directions, "
             "critically "
             "damped for a quarter of the mass; Penalty2 = all gains × 10). Our copy of 002 gives "
             "none of these values, nor Table I's column heads: the paper's three columns are "
             "shown "
             "as printed.\n\n",
             p.at("size"), p.at("mass"), p.at("mu"), p.at("force"), kDuration);
}

// Table I: COND's error per decade of γ, against the paper's.
std::string GammaClaim(const ReportInput& in, const ProtocolRecords& rec) {
  std::vector<double> ratios;
  for (double d : kDts) ratios.push_back(DecadeRatio(rec, d));
  const double paper_ratio = in.paper.columns.empty() ? 10.0
                                                      : in.paper.Get("col3", "cond_gamma1") /
                                                            in.paper.Get("col3", "cond_gamma2");
  return in.claims.Row(
      "002 Table I: COND's error falls as γ grows, tenfold per tenfold γ (0.6131 → 0.0612 → "
      "0.0061 mm) (here: worst axis, within 2× of the paper's factor per decade)",
      fmt::format("{:.1f}× per decade at dt {:g} s, {:.1f}× at dt {:g} s", ratios[0], kDts[0],
                  ratios[1], kDts[1]),
      RatioVerdict(std::min(ratios[0], ratios[1]), paper_ratio, 2.0),
      {.paper = fmt::format("{:.1f}×", paper_ratio)});
}

// COND's worst γ against the better penalty model, over every swept (dt, k).
std::string PenaltyClaim(const ReportInput& in, const ProtocolRecords& rec) {
  int held = 0, total = 0;
  double least = INFINITY;
  for (double d : kDts) {
    const double cond = ReadPush(rec, CondPart(kGammas[0], d)).Worst();
    for (double k : kStiffness) {
      const double pen = std::min(ReadPush(rec, PenaltyPart(1, k, d)).Worst(),
                                  ReadPush(rec, PenaltyPart(2, k, d)).Worst());
      least = std::min(least, pen / cond);
      held += pen > 10 * cond;
      ++total;
    }
  }
  return in.claims.Row(
      "002 §V-B: the penalty models err far more than COND (Table I: ≥ 20× COND's error at its "
      "smallest γ) (here: both penalty models ≥ 10× COND at γ = 10, every swept dt and k)",
      fmt::format("{} of {} (dt, k) pairs; least ratio {:.2g}×", held, total, least),
      held == total ? Judged(Verdict::kReproduced)
      : held > 0
          ? Judged(Verdict::kNotReproduced, fmt::format("holds for {} of {} (dt, k)", held, total))
          : Judged(Verdict::kContradicted));
}

// Penalty2 errs more than Penalty1 and bounces: where over the sweep.
std::string BounceClaim(const ReportInput& in, const ProtocolRecords& rec, double dt) {
  const int total = static_cast<int>(std::size(kDts) * std::size(kStiffness));
  std::string where, fails;
  int holds = 0;
  for (double d : kDts)
    for (double k : kStiffness) {
      const PushRun p1 = ReadPush(rec, PenaltyPart(1, k, d));
      const PushRun p2 = ReadPush(rec, PenaltyPart(2, k, d));
      const std::string at = fmt::format("dt {:g} s k {:g}", d, k);
      if (p2.Worst() > p1.Worst() && p2.airborne > 0) {
        ++holds;
        where += (where.empty() ? "" : ", ") + at;
      } else {
        fails +=
            fmt::format("{}{} (Penalty1 {} mm, Penalty2 {} mm, {} airborne steps)",
                        fails.empty() ? "" : ", ", at, Mm(p1.Worst()), Mm(p2.Worst()), p2.airborne);
      }
    }
  const PushRun p1 = ReadPush(rec, PenaltyPart(1, kDefaultStiffness, dt));
  const PushRun p2 = ReadPush(rec, PenaltyPart(2, kDefaultStiffness, dt));
  return in.claims.Row(
      "002 §V-B: ten times the penalty gains do not reduce the error (Penalty2 63.87 vs Penalty1 "
      "30.23 mm) and make the box bounce (here: Penalty2's worst error above Penalty1's, with "
      "steps where the box is off the floor)",
      fmt::format("at dt {:g} s, k {:g}: Penalty2 {} vs Penalty1 {} mm, {} airborne steps; holds "
                  "at {} of {} (dt, k)",
                  dt, kDefaultStiffness, Mm(p2.Worst()), Mm(p1.Worst()), p2.airborne, holds, total),
      holds == total ? Judged(Verdict::kReproduced)
      : holds > 0    ? Judged(Verdict::kReproduced, fmt::format("for {}; not at {}", where, fails))
                     : Judged(Verdict::kNotReproduced),
      {.cause = holds < total
                    ? "the explicit spring-damper errs more at ×10 gains where those gains pass "
                      "its stability limit (c dt / m and k dt² / m of a corner's mass share); "
                      "where Penalty1 itself is past it, both fail: the paper's dt and gains are "
                      "not in our copy"
                    : std::string()});
}

std::string Report(const ReportInput& in) {
  const ProtocolRecords& rec = in.records;
  const double dt = kDts[0];
  std::string md = SceneParagraph();
  md += fmt::format("At dt = {:g} s and k = {:g} N/m:\n\n", dt, kDefaultStiffness);
  md += MainTable(rec, in.paper, dt);
  md += "\nThe unknowns the penalty models depend on, swept (worst axis, whole run):\n\n";
  md += SweepTable(rec);
  md += BudgetNote(rec, dt);
  md += '\n';
  md += ClaimHeader();  // appended: GCC 12 warns falsely on "\n" + temporary
  md += GammaClaim(in, rec) + PenaltyClaim(in, rec) + BounceClaim(in, rec, dt);
  return md;
}

}  // namespace table_002_1
}  // namespace

Protocol MakeTable002_1() {
  using namespace table_002_1;
  return {.id = "002-table1",
          .title = "COND virtual nodes: a pushed box's error for three γ vs two penalty models",
          .setting =
              "box_push scene (0.2 m, 1 kg, μ 0.5, 7 N, 1 s), COND γ 10/100/1000 (400 "
              "iterations a step), penalty k 1e3–1e5 N/m (×10 for Penalty2), dt 1 ms and 10 ms",
          .measure = Measure,
          .report = Report};
}

}  // namespace ncp
