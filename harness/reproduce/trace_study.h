// The single-step trace study of 004 Figs. 7 and 9: every solver on every case with res004
// evaluated after each iteration, the traces as CSV, the two-panel figure (plots/trace_panels.py)
// and the table of median time to reach res004 1e-4, 1e-6 and 1e-8.
#pragma once

#include <array>
#include <map>
#include <string>
#include <vector>

#include "harness/reproduce/protocol.h"
#include "harness/reproduce/protocol_records.h"
#include "harness/run_record.h"
#include "harness/runner.h"
#include "problems/model/contact_problem.h"

namespace ncp {

struct TraceStudy {
  static constexpr double kTols[3] = {1e-4, 1e-6, 1e-8};
  int cases = 0;
  std::vector<std::string> solvers;
  std::map<std::string, std::array<std::vector<double>, 3>> reach;  // times [s] to each tolerance
  std::map<std::string, std::vector<double>> per_iter;              // solve time / iterations [s]
  std::map<std::string, std::vector<double>> iters_to_1e8, best_res;
  std::map<std::string, std::vector<double>> setup;          // setup time [s] per case
  std::map<std::string, std::vector<double>> sweeps_4_to_8;  // iterations from 1e-4 to 1e-8
  // Per solver and case: (time [s], res004) after each iteration, setup included.
  std::map<std::string, std::vector<std::vector<std::pair<double, double>>>> traces;
  std::string csv, png;
  bool has_traces = false;  // the records hold traces (not written with --no-traces)
  bool drawn = false;
};

// Keeps a run's trace at every iteration up to 100, then every 10th and the last: the traces
// only draw figures (thousands of first-order iterations × a hundred cases would be tens of MB).
void ThinTrace(RunRecord& r);

// A traced study's budget: `iters` iterations or `time_ms`, stopping at res004 ≤ 1e-10, res004
// after every iteration, one thread, capped by opt.max_iters (budget_cap.h).
RunOptions StudyRunOptions(const ReproduceOptions& opt, int iters, double time_ms);

// A solver of the study: its defaults, or the settings given (a variant, e.g. the paper's).
struct StudySolver {
  StudySolver(const char* n) : name(n) {}  // NOLINT: implicit, so that {"pgs", "apgd"} works
  StudySolver(std::string n, std::map<std::string, std::string> s)
      : name(std::move(n)), settings(std::move(s)) {}
  std::string name;
  std::map<std::string, std::string> settings;
};

// A run's name in a study's tables and figure: the solver, followed by the settings that differ
// from its defaults, e.g. "subadmm (adaptive=0)".
std::string StudyLabel(const std::string& solver, const std::string& settings);

// Measures: each solver with its settings (defaults unless a variant gives some), single thread, at
// most `iters` iterations or `time_ms` per case, stopping at res004 ≤ 1e-10 (a reference solution's
// accuracy: what follows is no longer progress, and AL solvers whose β keeps growing past it only
// lose accuracy). Every run is recorded under part "cases" (solver-major, cases in order) with its
// trace thinned to every iteration up to 100, then every 10th and the last, and, as the run's
// observations, what the study reads off the whole trace: best res004 and, per tolerance t of
// kTols, the time (reach_s_<t>) and iteration (reach_iter_<t>) it was first met. Observations of
// part "cases": `cases`, and of each case k the problem's `rows_k`, `contacts_k`, `dofs_k`.
// Another `part` keeps runs out of the study's tables and figure (e.g. a sweep of a setting the
// paper does not give), measured alike.
void MeasureTraceStudy(const std::string& id, const std::vector<ContactProblem>& problems,
                       const std::vector<StudySolver>& solvers, const ReproduceOptions& opt,
                       int iters = 500, double time_ms = 500, const std::string& part = "cases");

// The study's numbers from its recorded runs (part "cases"), keyed by StudyLabel; writes the traces
// as <out_dir>/<id>-traces.csv and draws <out_dir>/<id>.png from them.
TraceStudy ReportTraceStudy(const ProtocolRecords& records, const std::string& out_dir);

double Median(std::vector<double> v);  // +∞ for none
// Per case, the best res004 a solver reached within `time_s` (+∞ before its first iterate).
std::vector<double> BestByTime(const TraceStudy& s, const std::string& solver, double time_s);

// Markdown: the table (one row per solver) and the figure's note.
std::string TraceTable(const TraceStudy& s);
std::string TraceFigureNote(const TraceStudy& s);

}  // namespace ncp
