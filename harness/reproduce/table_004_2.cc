// 004 Table II: CANAL against AL with a direct semismooth Newton (trust-region dogleg, damped
// Newton) — inner iterations over 10 AL loops, inner failure rate, −log10 residual, on the
// dish-piling single-step cases of 004 §VII-B1 (100 in the paper).
#include <fmt/format.h>

#include <cmath>
#include <cstdio>
#include <iterator>
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
#include "problems/scenarios/scenarios.h"
#include "solvers/settings.h"

namespace ncp {
namespace {
namespace table_004_2 {

constexpr int kLoops = 10;   // AL loops per case (004 §VII-D1)
constexpr int kCases = 100;  // the paper's count: 0 of 1000 inner solves tells a 1.2% rate apart

struct Column {
  const char* label;
  const char* solver;
  const char* settings;
  const char* paper;  // the paper's column
  const char* part;   // suffix of its parts: two columns run canal, with other settings
};

// canal's defaults re-solve each surrogate with p refreshed; the published cascade (one
// surrogate per AL loop) is shown next to it, both against the paper's CANAL.
const Column kColumns[] = {
    {"canal", "canal", "", "canal", "canal"},
    {"canal (published)", "canal", "perturbation_updates=1", "canal", "canal-published"},
    {"al-trdogleg", "al-trdogleg", "", "al-trdogleg", "al-trdogleg"},
    {"al-dampedsn", "al-dampedsn", "", "al-dampedsn", "al-dampedsn"}};

std::string FirstLoopPart(const Column& c) { return fmt::format("first-loop-{}", c.part); }
std::string AllLoopsPart(const Column& c) { return fmt::format("{}-loops-{}", kLoops, c.part); }

void Measure(const ReproduceOptions& opt, ProtocolRecords& rec) {
  const int count = opt.cases > 0 ? opt.cases : kCases;
  const std::vector<ContactProblem> cases = FindScenario("dish_piling").generate({}, count, 1);
  rec.Observe("cases", "contacts", cases.front().num_contacts());
  RunOptions ro, first;
  ro.budget.iters = kLoops;  // as in the paper
  first.budget.iters = 1;    // where the steps go: the cold-started first loop vs the others
  CapBudget(opt, ro.budget);
  for (const Column& c : kColumns) {
    const SolverEntry& e = FindSolver(c.solver);
    const SolverJob job{&e, Settings::Parse(c.solver, e.settings, ParseKeyValues(c.settings))};
    for (const ContactProblem& p : cases) {
      const Evaluator ev(p);
      Record(opt, RunOne(p, ev, job, first, nullptr, 0), FirstLoopPart(c));
      Record(opt, RunOne(p, ev, job, ro, nullptr, 0), AllLoopsPart(c));
    }
    if (!opt.quiet) std::fprintf(stderr, "004-table2: %s done\n", c.label);
  }
}

// The canal column that runs the published cascade (one surrogate per AL loop).
constexpr char kPublished[] = "canal (published)";

// Means over the cases, per column (keyed by its label).
struct Means {
  std::map<std::string, double> inner, failures, residual, first_loop, solves;
  int cases = 0;  // cases per column (the failures' sample: kLoops inner solves each)
  // Inner iterations per loop over loops 2–kLoops, after the cold first one.
  double Later(const std::string& l) { return (inner[l] - first_loop[l]) / (kLoops - 1); }
  // Inner iterations per surrogate solve (ablations: per loop).
  double PerSolve(const std::string& l) {
    return solves[l] > 0 ? inner[l] / solves[l] : inner[l] / kLoops;
  }
};

Means ComputeMeans(const ProtocolRecords& rec) {
  Means m;
  for (const Column& c : kColumns) {
    const std::vector<const RunRecord*> firsts = rec.Part(FirstLoopPart(c));
    for (const RunRecord* r : firsts)
      m.first_loop[c.label] += InfoValue(r->solver_info, "inner_iterations", 0.0) / firsts.size();
    const std::vector<const RunRecord*> runs = rec.Part(AllLoopsPart(c));
    m.cases = static_cast<int>(runs.size());
    for (const RunRecord* r : runs) {
      m.solves[c.label] += InfoValue(r->solver_info, "surrogate_solves", 0.0) / runs.size();
      m.inner[c.label] += InfoValue(r->solver_info, "inner_iterations", 0.0) / runs.size();
      m.failures[c.label] += 100.0 * InfoValue(r->solver_info, "inner_failures", 0.0) /
                             (static_cast<double>(kLoops) * runs.size());
      const double res = r->final_metrics[Metric::kRes004];
      m.residual[c.label] += -std::log10(std::isfinite(res) && res > 0 ? res : 1e300) / runs.size();
    }
  }
  return m;
}

// The title and the setting.
std::string Intro(int count, double contacts) {
  return markdown::Heading(
             1,
             "004 Table II — cascaded Newton (CANAL) vs direct semismooth Newton in the AL loop") +
         fmt::format(
             "Cases: {} single-step cases of `dish_piling` (the settled bowl-bowl-plate-pot stack, "
             "{:.0f} contacts, under random wrenches; the paper used 100). {} AL "
             "iterations per case, defaults of each solver (β₀ = 1e4). Inner iterations: Newton "
             "steps over the {} AL loops; failure: a surrogate not solved to the inner tolerance, "
             "per AL loop (canal counts each re-solve); residual: mean −log10 res004. canal's "
             "defaults re-solve each surrogate with the de Saxcé perturbation refreshed until its "
             "lag is below the AL step (not in the paper); canal (published) refreshes it once per "
             "AL loop, as in Alg. 1. Both paper cells of canal are the paper's CANAL. A failed "
             "surrogate ends its Newton loop early, so few inner iterations together with many "
             "failures are not a sign of efficiency.\n\n",
             count, contacts, kLoops, kLoops);
}

// A metric's two rows: ours and the paper's, per column.
void PaperRows(markdown::Table& t, const PublishedTable& paper, const char* label,
               std::map<std::string, double>& ours, const char* metric, const char* format) {
  std::vector<std::string> row = {fmt::format("{} (ours)", label)};
  for (const Column& c : kColumns) row.push_back(fmt::format(fmt::runtime(format), ours[c.label]));
  t.Row(std::move(row));
  row = {fmt::format("{} (paper)", label)};
  for (const Column& c : kColumns)
    row.push_back(fmt::format(fmt::runtime(format), paper.Get(metric, c.paper)));
  t.Row(std::move(row));
}

// A row the paper does not have: `value` of each column's label.
template <typename Value>
void OursOnlyRow(markdown::Table& t, const std::string& label, Value value) {
  std::vector<std::string> row = {fmt::format("{} (ours)", label)};
  for (const Column& c : kColumns) row.push_back(fmt::format("{:.2f}", value(c.label)));
  t.Row(std::move(row));
}

// The table (a label column, then one per column of kColumns) and the inner iterations relative
// to canal, ours and the paper's.
std::string Results(const PublishedTable& paper, Means& m) {
  std::vector<std::string> header = {""};
  for (const Column& c : kColumns) header.push_back(c.label);
  markdown::Table t(std::move(header), "l" + std::string(std::size(kColumns), 'r'));
  PaperRows(t, paper, "inner iterations", m.inner, "inner_iterations", "{:.2f}");
  PaperRows(t, paper, "failures [%]", m.failures, "failure_percent", "{:.1f}");
  PaperRows(t, paper, "−log10 residual", m.residual, "neg_log10_residual", "{:.4f}");
  // Not in the paper: the split of the inner iterations and canal's surrogate solves.
  OursOnlyRow(t, "inner iterations, AL loop 1",
              [&](const std::string& l) { return m.first_loop[l]; });
  OursOnlyRow(t, fmt::format("inner iterations per loop, loops 2–{}", kLoops),
              [&](const std::string& l) { return m.Later(l); });
  OursOnlyRow(t, "surrogate solves per loop (canal)",
              [&](const std::string& l) { return m.solves[l] / kLoops; });
  OursOnlyRow(t, "inner iterations per solve (ablations: per loop)",
              [&](const std::string& l) { return m.PerSolve(l); });
  std::string md = t.str() + "\nInner iterations relative to canal: ours ";
  for (const Column& c : kColumns)
    md += fmt::format("{} {:.2f}× ", c.label, m.inner[c.label] / m.inner["canal"]);
  md += "; paper ";
  for (const char* s : {"canal", "al-trdogleg", "al-dampedsn"})
    md += fmt::format("{} {:.2f}× ", s,
                      paper.Get("inner_iterations", s) / paper.Get("inner_iterations", "canal"));
  md += "\n";
  return md;
}

// The claims of 004 §VII-D1; `fewest`: the verdict on CANAL's fewest inner iterations.
std::string Claims(ClaimLedger& claims, const PublishedTable& paper, Means& m, Verdict fewest) {
  const std::string pub = kPublished;
  // The measured causes (the split rows of the table): where the ablations' and the published
  // cascade's Newton steps go.
  const std::string no_stall = fmt::format(
      "neither ablation stalls here: after a cold first loop ({:.1f} / {:.1f} steps) TRDogleg / "
      "DampedSN need {:.2f} / {:.2f} steps per loop; the paper puts its {:.1f} / {:.1f} down to "
      "merit-function stalls",
      m.first_loop["al-trdogleg"], m.first_loop["al-dampedsn"], m.Later("al-trdogleg"),
      m.Later("al-dampedsn"), paper.Get("inner_iterations", "al-trdogleg"),
      paper.Get("inner_iterations", "al-dampedsn"));
  const std::string lag = fmt::format(
      "the published cascade's surrogate changes every loop with the lagged de Saxcé term: {:.2f} "
      "steps per loop after a {:.1f}-step first loop, and the lag converges linearly",
      m.Later(pub), m.first_loop[pub]);
  std::string md = ClaimHeader();
  md += claims.Row(
      "004 §VII-D1: the number of inner iterations is significantly lower for CANAL "
      "(published cascade against both ablations)",
      fmt::format("canal (published) {:.2f}, al-trdogleg {:.2f}, al-dampedsn {:.2f}; "
                  "canal (defaults) {:.2f}",
                  m.inner[pub], m.inner["al-trdogleg"], m.inner["al-dampedsn"], m.inner["canal"]),
      fewest, {.cause = no_stall + "; " + lag});
  md += claims.Row(
      "004 §VII-D1: TRDogleg performs better than DampedSN, with half the inner "
      "iterations",
      fmt::format("al-dampedsn {:.2f} vs al-trdogleg {:.2f} ({:.2f}×)", m.inner["al-dampedsn"],
                  m.inner["al-trdogleg"], m.inner["al-dampedsn"] / m.inner["al-trdogleg"]),
      OrderVerdict({m.inner["al-dampedsn"], m.inner["al-trdogleg"]}), {.cause = no_stall});
  md += claims.Row(
      fmt::format("004 §VII-D1: TRDogleg and DampedSN fail occasionally, CANAL never ({:g}% / "
                  "{:g}% / {:g}%)",
                  paper.Get("failure_percent", "al-trdogleg"),
                  paper.Get("failure_percent", "al-dampedsn"),
                  paper.Get("failure_percent", "canal")),
      fmt::format("{:.1f}% / {:.1f}% / {:.1f}% (canal published)", m.failures["al-trdogleg"],
                  m.failures["al-dampedsn"], m.failures[pub]),
      m.failures[pub] == 0.0 && m.failures["al-trdogleg"] > 0 && m.failures["al-dampedsn"] > 0
          ? Verdict::kReproduced
          : Verdict::kNotReproduced,
      {.cause = no_stall +
                fmt::format("; over {} AL loops per solver ({} cases), the paper's rates would "
                            "give {:.1f} and {:.1f} failures, ours {:.0f} and {:.0f}",
                            kLoops * m.cases, m.cases,
                            paper.Get("failure_percent", "al-trdogleg") * kLoops * m.cases / 100,
                            paper.Get("failure_percent", "al-dampedsn") * kLoops * m.cases / 100,
                            m.failures["al-trdogleg"] * kLoops * m.cases / 100,
                            m.failures["al-dampedsn"] * kLoops * m.cases / 100)});
  const double base = 0.5 * (m.residual["al-trdogleg"] + m.residual["al-dampedsn"]);
  // The paper's figure for the baselines: the mean of its two (the verdict takes our two's).
  const double paper_base = 0.5 * (paper.Get("neg_log10_residual", "al-trdogleg") +
                                   paper.Get("neg_log10_residual", "al-dampedsn"));
  md += claims.Row(
      fmt::format("004 §VII-D1: CANAL's residual after {} loops similarly low to the baselines' "
                  "(Table II: {:.2f} vs {:.2f}; here within 0.5 of their mean)",
                  kLoops, paper.Get("neg_log10_residual", "canal"), paper_base),
      fmt::format("−log10 {:.2f} (published) / {:.2f} (defaults) vs {:.2f}, {:.2f}",
                  m.residual[pub], m.residual["canal"], m.residual["al-trdogleg"],
                  m.residual["al-dampedsn"]),
      NearVerdict({m.residual[pub]}, base, 0.5),
      {.cause = fmt::format("{}: −log10 {:.2f} after {} loops; re-solving each surrogate with the "
                            "term refreshed (canal's defaults) reaches {:.2f}",
                            lag, m.residual[pub], kLoops, m.residual["canal"])});
  return md;
}

// Where the inner iterations go, from the split rows of the table.
// `unsupported`: why the run carries no verdict (ClaimLedger::unsupported), "" when it does.
std::string Discussion(const PublishedTable& paper, Means& m, Verdict fewest,
                       const std::string& unsupported) {
  const std::string pub = kPublished;
  return fmt::format(
      "\nThe paper's order (CANAL fewest inner iterations): {} here; the split "
      "above says where the steps go. (1) Neither ablation gets stuck on these cases: after a "
      "cold first loop ({:.1f} / {:.1f} steps) the strict operator's Newton needs {:.2f} / "
      "{:.2f} steps per loop from the previous loop's v̂, with {:.1f} / {:.1f}% failures; the "
      "paper "
      "puts its {:.1f} / {:.1f} down to stalls of the merit function, which these cases do not "
      "show. (2) The published cascade's surrogate changes every loop with the lagged "
      "de Saxcé term p, so even warm-started it needs {:.2f} steps per loop, and p's lag "
      "converges linearly: −log10 residual {:.2f} after {} loops. Its cold first loop takes "
      "{:.1f} steps: the minimum along a Newton direction lies where contacts open or close, "
      "which the Hessian at the current point does not see. (3) canal's defaults re-solve the "
      "surrogate {:.1f} times per loop with p refreshed ({:.2f} steps per solve), which buys the "
      "residual ({:.2f}) at {:.1f}× the published cascade's steps.\n",
      unsupported.empty() ? std::string(ToString(fewest)) : "not assessed (" + unsupported + ")",
      m.first_loop["al-trdogleg"], m.first_loop["al-dampedsn"], m.Later("al-trdogleg"),
      m.Later("al-dampedsn"), m.failures["al-trdogleg"], m.failures["al-dampedsn"],
      paper.Get("inner_iterations", "al-trdogleg"), paper.Get("inner_iterations", "al-dampedsn"),
      m.Later(pub), m.residual[pub], kLoops, m.first_loop[pub], m.solves["canal"] / kLoops,
      m.PerSolve("canal"), m.residual["canal"], m.inner["canal"] / m.inner[pub]);
}

std::string Report(const ReportInput& in) {
  const ProtocolRecords& rec = in.records;
  const int count = rec.options().cases > 0 ? rec.options().cases : kCases;
  Means m = ComputeMeans(rec);
  std::string md = Intro(count, rec.Value("cases", "contacts"));
  md += Results(in.paper, m);
  const Verdict fewest =
      OrderVerdict({std::min(m.inner["al-trdogleg"], m.inner["al-dampedsn"]), m.inner[kPublished]});
  md += Claims(in.claims, in.paper, m, fewest);
  md += Discussion(in.paper, m, fewest, in.claims.unsupported());
  return md;
}

}  // namespace table_004_2
}  // namespace

Protocol MakeTable004_2() {
  using namespace table_004_2;
  return {.id = "004-table2",
          .title =
              "CANAL vs AL with trust-region dogleg / damped semismooth Newton: inner "
              "iterations, failures, residual",
          .setting = fmt::format(
              "{} AL loops per single-step case on dish_piling, {} cases (the paper's count)",
              kLoops, kCases),
          .measure = Measure,
          .report = Report,
          .min_cases = 20};
}

}  // namespace ncp
