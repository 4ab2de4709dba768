// 004 Fig. 7: the bolt-nut single-step cases (10 placements × 10 random wrenches in the paper),
// residual against time and time against iteration for every applicable solver, and a table of
// the median time to reach res004 1e-4, 1e-6 and 1e-8 (harness/reproduce/trace_study.h).
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>

#include "common/parse_number.h"
#include "harness/markdown.h"
#include "harness/reproduce/claim_ledger.h"
#include "harness/reproduce/claim_verdict.h"
#include "harness/reproduce/protocol.h"
#include "harness/reproduce/trace_study.h"
#include "problems/scenarios/scenarios.h"
#include "solvers/settings.h"

namespace ncp {
namespace {
namespace fig_004_7 {

// The budget of every run: the Measure call and the report's text both read it.
constexpr int kIters = 5000;
constexpr double kTimeMs = 500;

// subadmm's imbalance ratio γ of 004:43, which 004 does not give (ours defaults to 10): the
// "reaches 1e-8" claim is also judged over these, on the same cases and budget (part "gamma").
constexpr double kSubadmmGammas[] = {1.5, 2, 3, 30};
constexpr char kGammaPart[] = "gamma";

// pgs against the paper's "struggles past 1e-4", from the traces: a floor shows as cases that
// never reach 1e-8; without one, the sweeps from 1e-4 to 1e-8 give pgs's rate, and where pgs
// stands by the time canal and subadmm are done is what a residual-over-time plot shows.
std::string PgsNote(const TraceStudy& s, const ProtocolRecords& rec) {
  auto median_to = [&](const std::string& solver, int t) {  // [ms]
    const auto it = s.reach.find(solver);
    return it == s.reach.end() ? INFINITY : 1e3 * Median(it->second[t]);
  };
  auto median_of = [](const std::map<std::string, std::vector<double>>& m) {
    const auto it = m.find("pgs");
    return it == m.end() ? INFINITY : Median(it->second);
  };
  const auto it = s.reach.find("pgs");
  const int reached = it == s.reach.end() ? 0 : static_cast<int>(it->second[2].size());
  const double sweeps = median_of(s.sweeps_4_to_8);
  // The window: twice the later of canal's and subadmm's median times to 1e-8.
  const double window_ms = 2.0 * std::max(median_to("canal", 2), median_to("subadmm", 2));
  const std::vector<double> by = BestByTime(s, "pgs", 1e-3 * window_ms);
  const auto above = std::count_if(by.begin(), by.end(), [](double r) { return r > 1e-4; });
  const bool near = !by.empty() && Median(by) > 1e-5;  // within a digit of 1e-4, or above it
  // A ratio of two times to 1e-8 where neither solver got there says nothing.
  auto ratio = [](double a, double b) {
    return std::isfinite(a) || std::isfinite(b) ? fmt::format("{:.1f}", a / b) : std::string("—");
  };
  const std::string window =
      s.has_traces
          ? fmt::format(
                "Within {:.3g} ms, twice the later of those, pgs's median best res004 is {:.2g} "
                "and {}/{} cases are still above 1e-4: {}.",
                window_ms, Median(by), above, by.size(),
                near ? "on a residual-over-time plot of that span pgs sits near 1e-4 while the "
                       "other two are done, the paper's picture; over a longer span it keeps "
                       "converging"
                     : "pgs is past 1e-4 by then, so not even the time view shows the paper's "
                       "stall")
          : "Where pgs stands within a time window needs the traces, which this results file "
            "does not hold (--no-traces).";
  return fmt::format(
      "\npgs against the paper: {}/{} cases reach 1e-8, a median {:.0f} sweeps after 1e-4 "
      "(res004 × {:.2f} per sweep): {}. Its setup, the Delassus operator W = J A⁻¹ Jᵀ ({} × {} "
      "from {} contacts on {} dofs), takes a median {:.3g} ms and each sweep {:.3g} µs; it reaches "
      "1e-4 at {:.3g} ms and 1e-8 at {:.3g} ms, {}× canal's and {}× subadmm's time to "
      "1e-8 ({:.3g} and {:.3g} ms). {}\n",
      reached, s.cases, sweeps, std::pow(1e-4, 1.0 / sweeps),
      reached >= 0.9 * s.cases ? "no floor near 1e-4 here" : "a floor, as in the paper",
      rec.Value("cases", "rows_0"), rec.Value("cases", "rows_0"), rec.Value("cases", "contacts_0"),
      rec.Value("cases", "dofs_0"), 1e3 * median_of(s.setup), 1e6 * median_of(s.per_iter),
      median_to("pgs", 0), median_to("pgs", 2), ratio(median_to("pgs", 2), median_to("canal", 2)),
      ratio(median_to("pgs", 2), median_to("subadmm", 2)), median_to("canal", 2),
      median_to("subadmm", 2), window);
}

// The runs of `solver` (its default settings) that stayed above `tol`: each one's problem, best
// res004, iterations and how it ended — the measured cause of a "reaches tol" claim that misses.
std::string MissedCases(const ProtocolRecords& rec, const std::string& solver, double tol) {
  std::string out;
  for (const RunRecord* r : rec.Part("cases", solver)) {
    if (StudyLabel(r->solver, r->settings) != solver) continue;
    const double best = RunObservation(*r, "best_res004", INFINITY);
    if (best <= tol) continue;
    out += fmt::format("{}{}: best {:.2e} after {} iterations ({})", out.empty() ? "" : "; ",
                       r->problem, best, r->iterations, ToString(r->status));
  }
  return out.empty() ? "" : "above " + fmt::format("{:.0e}", tol) + ": " + out;
}

// The "reaches 1e-8" claim at each γ of kSubadmmGammas (part "gamma") and at the default.
std::vector<AtValue> GammaSweep(const ProtocolRecords& rec) {
  std::map<double, std::vector<double>> best;
  auto add = [&](const RunRecord& r) {
    const auto kv = ParseKeyValues(r.settings);
    double g = 0;
    if (const auto it = kv.find("gamma"); it != kv.end() && ParseDecimal(it->second, &g))
      best[g].push_back(RunObservation(r, "best_res004", INFINITY));
  };
  for (const RunRecord* r : rec.Part(kGammaPart, "subadmm")) add(*r);
  for (const RunRecord* r : rec.Part("cases", "subadmm"))  // the default γ
    if (StudyLabel(r->solver, r->settings) == "subadmm") add(*r);
  std::vector<AtValue> sweep;
  for (const auto& [g, b] : best) sweep.push_back({g, ReachesVerdict(b, 1e-8)});
  return sweep.size() > 1 ? sweep : std::vector<AtValue>{};
}

// 004 §VII-B1's statements on bolt-nut, each tested on our traces.
std::string Claims(const TraceStudy& s, const ProtocolRecords& rec, ClaimLedger& claims) {
  auto get = [](const std::map<std::string, std::vector<double>>& m, const char* solver) {
    const auto it = m.find(solver);
    return it == m.end() ? std::vector<double>{} : it->second;
  };
  std::string md = ClaimHeader();
  for (const char* solver : {"canal", "subadmm"}) {
    const std::vector<double> best = get(s.best_res, solver);
    const auto hit = std::count_if(best.begin(), best.end(), [](double r) { return r <= 1e-8; });
    Judged j = ReachesVerdict(best, 1e-8);
    if (std::string(solver) == "subadmm") j = RangeVerdict(j, "subadmm's γ", GammaSweep(rec));
    md += claims.Row(
        fmt::format("004: {} achieves residuals of 1e-8 or less", solver),
        fmt::format("{}/{} cases, median best {:.2e}", hit, best.size(), MedianBest(best)), j,
        {.cause = MissedCases(rec, solver, 1e-8)});
  }
  // "PGS struggles to converge quickly past 1e-4": where pgs stands when canal and subadmm are
  // done (twice the later of their median times to 1e-8); a decade or more below 1e-4 by then
  // contradicts it.
  {
    auto median_to = [&](const char* solver) {
      const auto it = s.reach.find(solver);
      return it == s.reach.end() ? INFINITY : Median(it->second[2]);
    };
    const double window = 2.0 * std::max(median_to("canal"), median_to("subadmm"));
    const std::vector<double> by = BestByTime(s, "pgs", window);
    md += claims.Row("004: PGS struggles to converge quickly past 1e-4",
                     s.has_traces
                         ? fmt::format("median best res004 {:.2e} within {:.3g} ms (twice canal's "
                                       "and subadmm's time to 1e-8)",
                                       MedianBest(by), 1e3 * window)
                         : "not measured: the results file holds no traces (--no-traces)",
                     s.has_traces ? FloorVerdict(by, 1e-4) : Verdict::kNotReproduced);
  }
  {
    const double it = Median(get(s.iters_to_1e8, "canal"));
    md += claims.Row(
        "004: CANAL converges completely in about 10 iterations (here: median "
        "iterations to 1e-8 ≤ 20)",
        fmt::format("median {:.0f} iterations to 1e-8", it), AtMostVerdict(it, 20));
  }
  {
    const double sub = Median(get(s.per_iter, "subadmm")), canal = Median(get(s.per_iter, "canal")),
                 pgs = Median(get(s.per_iter, "pgs"));
    md += claims.Row(
        "004: SubADMM's time per iteration is significantly less than CANAL's and "
        "PGS's; CANAL's more than PGS's",
        fmt::format("canal {:.3g} > pgs {:.3g} > subadmm {:.3g} µs", 1e6 * canal, 1e6 * pgs,
                    1e6 * sub),
        OrderVerdict({canal, pgs, sub}));
  }
  return md;
}

const std::vector<StudySolver> kSolvers = {"canal",     "subadmm", "pgs",
                                           "admm-full", "apgd",    "nnewton"};

void Measure(const ReproduceOptions& opt, ProtocolRecords& rec) {
  const int cases = opt.cases > 0 ? opt.cases : 20;
  const int placements = std::min(10, cases);
  const int wrenches = (cases + placements - 1) / placements;
  rec.Observe("cases", "placements", placements);
  rec.Observe("cases", "wrenches", wrenches);
  const std::vector<ContactProblem> problems =
      FindScenario("bolt_nut")
          .generate({{"configurations", std::to_string(placements)},
                     {"wrenches", std::to_string(wrenches)}},
                    cases, 1);
  MeasureTraceStudy("004-fig7", problems, kSolvers, opt, kIters, kTimeMs);
  std::vector<StudySolver> gammas;
  for (double g : kSubadmmGammas)
    gammas.push_back({"subadmm", {{"gamma", fmt::format("{:g}", g)}}});
  MeasureTraceStudy("004-fig7", problems, gammas, opt, kIters, kTimeMs, kGammaPart);
}

std::string Report(const ReportInput& in) {
  const ProtocolRecords& rec = in.records;
  const TraceStudy s = ReportTraceStudy(rec, in.out_dir);
  std::string md =
      markdown::Heading(1, "004 Fig. 7 — bolt-nut single-step cases") +
      fmt::format(
          "{} cases of `bolt_nut` ({} placements × {} random wrenches; the paper used 10 × 10), "
          "{}–{} contacts each after k-means, {} dofs. Every solver with its defaults, single "
          "thread, at most {} iterations or {:g} ms (the first-order solvers need hundreds to "
          "thousands of iterations to 1e-8 here), stopping at res004 ≤ 1e-10; res004 evaluated "
          "after every iteration (not timed). Median time to reach each tolerance over the cases "
          "that reached it, with how many did; time per iteration and best res004 are medians "
          "over cases.\n\n",
          s.cases, rec.Value("cases", "placements"), rec.Value("cases", "wrenches"),
          rec.Value("cases", "contacts_0"),
          rec.Value("cases", fmt::format("contacts_{}", s.cases - 1)), rec.Value("cases", "dofs_0"),
          kIters, kTimeMs);
  md += TraceTable(s);
  md +=
      "\nPaper (qualitative): CANAL and SubADMM reach 1e-8 or less while PGS struggles past "
      "1e-4; CANAL converges superlinearly in about 10 iterations; SubADMM reaches moderate "
      "accuracy fastest and has the cheapest iterations; CANAL's time per iteration falls as "
      "its warm-started Newton loops shorten.\n";
  md += PgsNote(s, rec);
  md += Claims(s, rec, in.claims);
  md += TraceFigureNote(s);
  return md;
}

}  // namespace fig_004_7
}  // namespace

Protocol MakeFig004_7() {
  using namespace fig_004_7;
  return {
      .id = "004-fig7",
      .title = "bolt-nut: residual vs time, time vs iteration, time to 1e-4/1e-6/1e-8",
      .setting =
          "bolt_nut single-step cases (paper: 10 placements × 10 wrenches = 100; default here 20, "
          "--cases 100 for the paper's count); canal, subadmm, pgs, admm-full, apgd, nnewton",
      .measure = Measure,
      .report = Report,
      .min_cases = 20};
}

}  // namespace ncp
