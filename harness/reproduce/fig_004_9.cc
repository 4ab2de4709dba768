// 004 Fig. 9: the dish-piling single-step cases (one bowl-bowl-plate-pot stack × 100 random
// wrenches in the paper), residual against time and time against iteration, the median time to
// reach res004 1e-4, 1e-6 and 1e-8 per solver, and the paper's claims (results/papers/
// 004-fig9.csv) checked against ours: CANAL under 1e-8, SubADMM down to about 1e-6, and the
// per-iteration cost order CANAL > PGS > SubADMM.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <iterator>

#include "harness/markdown.h"
#include "harness/reproduce/claim_ledger.h"
#include "harness/reproduce/claim_verdict.h"
#include "harness/reproduce/protocol.h"
#include "harness/reproduce/trace_study.h"
#include "problems/scenarios/scenarios.h"

namespace ncp {
namespace {
namespace fig_004_9 {

// The budget of every run: the Measure call and the report's text both read it.
constexpr int kIters = 5000;
constexpr double kTimeMs = 500;
// SubADMM with its penalty fixed at the start (no 004:43 adaptation): the variant that measures
// where the "struggles below 1e-6" of the paper comes from.
const StudySolver kFixedPenalty{"subadmm", {{"adaptive", "0"}}};
// SubADMM with 004:43 as published (raw θ_p/θ_d, up to 10× a step; ours balances the residuals
// relative to their scales): the paper's variant of the rule, beside our default.
const StudySolver kPaperPenalty{"subadmm", {{"balance", "paper"}}};

// The stack's touching pairs, bottom up, as named in the problems' params.
const char* kPairs[][2] = {{"bowl0_ground", "bowl0–ground"},
                           {"bowl1_bowl0", "bowl1–bowl0"},
                           {"plate_bowl1", "plate–bowl1"},
                           {"pot_plate", "pot–plate"}};

// Each case's contacts per touching pair, observed while measuring.
void ObservePairs(const std::vector<ContactProblem>& problems, ProtocolRecords& rec) {
  for (std::size_t k = 0; k < problems.size(); ++k) {
    const ContactProblem& p = problems[k];
    rec.Note("pairs", fmt::format("name_{}", k), p.meta.name);
    for (const auto& pr : kPairs)
      rec.Observe("pairs", fmt::format("{}_{}", pr[0], k),
                  p.meta.params.at(std::string("contacts_") + pr[0]));
    rec.Observe("pairs", fmt::format("candidates_{}", k), p.meta.params.at("candidates"));
  }
}

std::string PairTable(const ProtocolRecords& rec, int cases) {
  std::vector<std::string> head = {"case", "contacts"};
  for (const auto& pr : kPairs) head.push_back(pr[1]);
  head.push_back("other pairs");
  head.push_back("candidates");
  markdown::Table t(std::move(head), "l" + std::string(std::size(kPairs) + 3, 'r'));
  for (int k = 0; k < cases; ++k) {
    double adjacent = 0;
    const double contacts = rec.Value("cases", fmt::format("contacts_{}", k));
    std::vector<std::string> row = {rec.Text("pairs", fmt::format("name_{}", k)),
                                    fmt::format("{}", contacts)};
    for (const auto& pr : kPairs) {
      const double c = rec.Value("pairs", fmt::format("{}_{}", pr[0], k));
      adjacent += c;
      row.push_back(fmt::format("{:.0f}", c));
    }
    row.push_back(fmt::format("{:.0f}", contacts - adjacent));
    row.push_back(fmt::format("{:.0f}", rec.Value("pairs", fmt::format("candidates_{}", k))));
    t.Row(std::move(row));
  }
  return t.str();
}

void Measure(const ReproduceOptions& opt, ProtocolRecords& rec) {
  const int cases = opt.cases > 0 ? opt.cases : 20;
  const std::vector<ContactProblem> problems = FindScenario("dish_piling").generate({}, cases, 1);
  ObservePairs(problems, rec);
  MeasureTraceStudy("004-fig9", problems,
                    {"canal", "subadmm", "subadmm-nobody", "pgs", "admm-full", "apgd", "nnewton",
                     kFixedPenalty, kPaperPenalty},
                    opt, kIters, kTimeMs);
}

// SubADMM: "struggles to achieve residuals under 1e-6" — a floor near 1e-6; ours going a
// decade or more below it contradicts the claim.
std::string SubAdmmFloorClaim(const ReportInput& in, const TraceStudy& s) {
  const PublishedTable& paper = in.paper;
  const double n = s.cases;
  const double floor = paper.Get("best_res004", "subadmm");
  const auto& best = s.best_res.at("subadmm");
  const std::string fixed = StudyLabel("subadmm", "adaptive=0");
  const std::string published = StudyLabel("subadmm", "balance=paper");
  ClaimDetail cause;
  if (const auto it = s.best_res.find(fixed); it != s.best_res.end())
    cause.cause = fmt::format(
        "with β fixed at its start (adaptive=0) the median best is {:.2e}: the stall is a fixed "
        "penalty's; with 004:43's adaptation β follows the residuals down",
        MedianBest(it->second));
  if (const auto it = s.best_res.find(published); it != s.best_res.end())
    cause.cause += fmt::format(
        "{}with 004:43 as published (balance=paper) the median best is {:.2e} (our default's "
        "{:.2e}): the published rule {}",
        cause.cause.empty() ? "" : "; ", MedianBest(it->second), MedianBest(best),
        FloorVerdict(it->second, floor) == Verdict::kContradicted ? "does not stall here either"
                                                                  : "stops near the floor");
  return in.claims.Row(
      fmt::format("004 §VII-B1: subadmm struggles below res004 {:.0e} (its best is "
                  "about {:.0e})",
                  floor, floor),
      fmt::format("median best {:.2e} over {:.0f} cases", MedianBest(best), n),
      FloorVerdict(best, floor), cause);
}

std::string Report(const ReportInput& in) {
  const TraceStudy s = ReportTraceStudy(in.records, in.out_dir);
  const PublishedTable& paper = in.paper;
  std::string md =
      markdown::Heading(1, "004 Fig. 9 — dish-piling single-step cases") +
      fmt::format(
          "{} cases of `dish_piling` (one settled bowl-bowl-plate-pot stack, masses 0.1/0.1/0.1/5 "
          "kg, × random wrenches on every dish; the paper used 100), {} contacts after k-means, {} "
          "dofs (4 free bodies). Every solver with its defaults, single thread, at most {} "
          "iterations or {:g} ms (the first-order solvers need thousands of iterations here), "
          "stopping at res004 ≤ 1e-10; res004 evaluated after every iteration (not timed). Median "
          "time to reach each tolerance over the cases that reached it, with how many did; time "
          "per iteration and best res004 are medians over cases.\n\n",
          s.cases, in.records.Value("cases", "contacts_0"), in.records.Value("cases", "dofs_0"),
          kIters, kTimeMs);
  md += TraceTable(s);
  md += ClaimHeader();
  const double n = s.cases;
  // CANAL: "reaches residuals under 1e-8" — every case must get there.
  {
    const double tol = paper.Get("best_res004", "canal");
    const auto& best = s.best_res.at("canal");
    const double hit = static_cast<double>(
        std::count_if(best.begin(), best.end(), [&](double r) { return r <= tol; }));
    md += in.claims.Row(
        fmt::format("004 §VII-B1: canal reaches res004 ≤ {:.0e}", tol),
        fmt::format("{:.0f}/{:.0f} cases, median best {:.2e}", hit, n, MedianBest(best)),
        ReachesVerdict(best, tol));
  }
  md += SubAdmmFloorClaim(in, s);
  std::vector<std::pair<double, std::string>> rank;
  for (const char* solver : {"canal", "pgs", "subadmm"})
    rank.emplace_back(paper.Get("per_iteration_cost_rank", solver), solver);
  std::sort(rank.begin(), rank.end());
  std::string claim, ours;
  std::vector<double> costs;
  for (std::size_t i = 0; i < rank.size(); ++i) {
    const double t = Median(s.per_iter.at(rank[i].second));
    claim += (i ? " > " : "") + rank[i].second;
    ours += fmt::format("{}{} {:.3g} µs", i ? " > " : "", rank[i].second, 1e6 * t);
    costs.push_back(t);
  }
  md += in.claims.Row("004 §VII-B1: per-iteration cost " + claim, ours, OrderVerdict(costs));
  md +=
      "\nPaper (qualitative, §VII-B1): CANAL and SubADMM reach far better accuracy than PGS in "
      "less time; CANAL reaches residuals under 1e-8 with faster-than-linear convergence; "
      "SubADMM (first order) struggles below 1e-6; the mass ratio (5 kg pot on 0.1 kg dishes) "
      "widens the gap between the solvers compared with bolt-nut; per-iteration cost CANAL > "
      "PGS > SubADMM, CANAL's falling as the iterations proceed.\n";
  md += TraceFigureNote(s);
  md += "\n" + markdown::Heading(2, "Contacts per dish pair") +
        "Every case is the same stack, so the contacts are the same in every case; only the "
        "wrenches (b) differ.\n\n";
  md += PairTable(in.records, s.cases);
  return md;
}

}  // namespace fig_004_9
}  // namespace

Protocol MakeFig004_9() {
  using namespace fig_004_9;
  return {.id = "004-fig9",
          .title = "dish piling: residual vs time, time vs iteration, time to 1e-4/1e-6/1e-8",
          .setting =
              "dish_piling single-step cases (paper: one stack × 100 wrenches; default here 20, "
              "--cases 100 for the paper's count); canal, subadmm, subadmm-nobody, pgs, admm-full, "
              "apgd, nnewton",
          .measure = Measure,
          .report = Report,
          .min_cases = 20};
}

}  // namespace ncp
