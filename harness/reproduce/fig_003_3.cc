// 003 §6, Fig. 3: HAGFISH. 003 models the animal with 100 alternating Z-revolute and XY-universal
// joints, finds its self-collisions "by passing a spline curve through the length of the animal
// and finding the colliding points with Newton's method", turns them into the inequality rows of
// a quadratic program (its Eq. 5) and models no friction; Fig. 3c–d shows the simulated body
// knotted. 003 prints no figure of the experiment.
//
// Ours (scene hagfish): the same joints and the spline search (spline_self_contact.h), each
// contact one frictionless unilateral row. 003 does not give the controller that knots the body
// (it calls how the animal forms its knot an open problem): PD servos coil ours into a helix of
// 1.25 turns until the tail rests on the body, which loads the self-contact the experiment is
// about but is not a knot. Checked here: the Newton search against sampling on every contact of
// every step and on every region of overlap, the penetration over the motion at the default servo
// stiffness and at 4× and 16× it, and the last recorded frames with self-contact frozen and run
// by every solver of the registry to res004 1e-6 (or its reason for not applying).
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>

#include "common/error.h"
#include "harness/markdown.h"
#include "harness/reproduce/claim_ledger.h"
#include "harness/reproduce/claim_verdict.h"
#include "harness/reproduce/protocol.h"
#include "harness/reproduce/protocol_records.h"
#include "harness/reproduce/scene_frames.h"
#include "harness/reproduce/time_series_figure.h"
#include "harness/simulate.h"
#include "problems/scenarios/rigid/scene.h"
#include "solvers/registry.h"

namespace ncp {
namespace {
namespace fig_003_3 {

constexpr int kSteps = 480;      // 2 s at dt 1/240: the coil closes within the 1 s ramp
constexpr int kEvery = 24;       // a frame recorded every 0.1 s
constexpr int kStepIters = 200;  // admm-full iterations a step (the scene's stepping default)
constexpr int kGrid = 48;        // the sampling check's grid per segment pair
constexpr int kSeriesEvery = 4;  // steps between the figure's points
constexpr int kFrames = 6;       // the last recorded frames with self-contact run by every solver
constexpr double kTol = 1e-6;    // res004 every solver runs to on the frames
constexpr int kMaxIters = 2000;
constexpr double kTimeMs = 1000;
constexpr int kMissEvery = 8;  // steps between the searches for overlaps Newton missed
constexpr int kMissGrid = 8;
constexpr double kExcessTol = 1e-9;  // Newton's gap may exceed the best sample's by this [m]
// The servos' stiffness [N·m/rad] (damping a tenth of it): 003 gives no controller, so the
// penetration is measured at the scene's default and at 4× and 16× its push.
constexpr double kServoKp[] = {0.5, 2.0, 8.0};

// What the steps' self-contacts showed, accumulated over the motion.
struct Motion {
  int steps = 0, contact_steps = 0, contacts = 0, max_contacts = 0;
  int newton_max = 0, unconverged = 0, overlap_regions = 0, missed = 0;
  double newton_sum = 0, max_pen = 0, excess = -INFINITY, deepest_missed = 0;
  std::vector<int> per_step;       // self-contacts of each step
  std::vector<double> pen_series;  // penetration every kSeriesEvery steps
};

// The overlapping pairs (sampled) fall into regions of neighbouring pairs; each region must hold
// a contact, on one of its pairs or next to one, at least as deep as the region's deepest sample:
// else Newton missed a colliding point.
void FindMissedOverlaps(const physics::SplineTube& tube,
                        const std::vector<physics::SplineContact>& contacts, Motion& m) {
  const int segs = static_cast<int>(tube.nodes.size()) - 1;
  std::map<std::pair<int, int>, double> overlap;  // pair → sampled gap < 0
  for (int a = 0; a < segs; ++a)
    for (int b = a + tube.skip; b < segs; ++b) {
      const double reach = (tube.nodes[a + 1] - tube.nodes[a]).norm() +
                           (tube.nodes[b + 1] - tube.nodes[b]).norm() + tube.radius[a] +
                           tube.radius[a + 1] + tube.radius[b] + tube.radius[b + 1];
      if ((tube.nodes[a] - tube.nodes[b]).norm() > reach) continue;  // far: no overlap
      if (const double g = physics::SampledSegmentGap(tube, a, b, kMissGrid); g < 0)
        overlap[{a, b}] = g;
    }
  while (!overlap.empty()) {  // one region at a time, grown from any of its pairs
    std::vector<std::pair<int, int>> region = {overlap.begin()->first}, todo = region;
    double deepest = overlap.begin()->second;
    overlap.erase(overlap.begin());
    while (!todo.empty()) {
      const auto [a, b] = todo.back();
      todo.pop_back();
      for (int da = -1; da <= 1; ++da)
        for (int db = -1; db <= 1; ++db)
          if (auto it = overlap.find({a + da, b + db}); it != overlap.end()) {
            deepest = std::min(deepest, it->second);
            region.push_back(it->first), todo.push_back(it->first);
            overlap.erase(it);
          }
    }
    bool held = false;
    for (const physics::SplineContact& c : contacts)
      for (const auto& [a, b] : region)
        held |= std::abs(c.seg_a - a) <= 1 && std::abs(c.seg_b - b) <= 1 &&
                c.gap <= deepest + kExcessTol;
    ++m.overlap_regions;
    if (!held) ++m.missed, m.deepest_missed = std::min(m.deepest_missed, deepest);
  }
}

void ObserveStep(const physics::MultibodySystem& sys, Motion& m) {
  const auto& contacts = sys.spline_contacts();
  const physics::SplineTube& tube = sys.spline_tubes().at(0);
  double pen = 0;
  for (const physics::SplineContact& c : contacts) {
    m.newton_max = std::max(m.newton_max, c.newton_iters);
    m.newton_sum += c.newton_iters;
    m.unconverged += !c.converged;
    pen = std::max(pen, -c.gap);
    if (c.gap < 0)  // a colliding point (the rest are the margin's speculative rows)
      m.excess =
          std::max(m.excess, c.gap - physics::SampledSegmentGap(tube, c.seg_a, c.seg_b, kGrid));
  }
  if (m.steps % kMissEvery == 0) FindMissedOverlaps(tube, contacts, m);
  const int n = static_cast<int>(contacts.size());
  m.contacts += n;
  m.contact_steps += n > 0;
  m.max_contacts = std::max(m.max_contacts, n);
  m.max_pen = std::max(m.max_pen, pen);
  if (m.steps % kSeriesEvery == 0) m.pen_series.push_back(pen);
  m.per_step.push_back(n);
  ++m.steps;
}

std::string Part(double kp) {
  return kp == kServoKp[0] ? "motion" : fmt::format("motion_kp{:g}", kp);
}

void RecordMotion(const Motion& m, const SimulateResult& res, ProtocolRecords& rec,
                  const std::string& part) {
  double res004 = 0;
  for (const StepStats& s : res.steps) res004 = std::max(res004, s.res004);
  const std::pair<const char*, double> obs[] = {
      {"steps", m.steps},
      {"contact_steps", m.contact_steps},
      {"contacts", m.contacts},
      {"max_contacts", m.max_contacts},
      {"newton_max", m.newton_max},
      {"newton_mean", m.contacts > 0 ? m.newton_sum / m.contacts : NAN},
      {"unconverged", m.unconverged},
      {"excess_m", std::isfinite(m.excess) ? m.excess : NAN},  // NaN: no colliding contact
      {"overlap_regions", m.overlap_regions},
      {"missed", m.missed},
      {"deepest_missed_m", m.deepest_missed},
      {"max_penetration_m", m.max_pen},
      {"max_step_res004", res004},
      {"tail_radius_m", res.params.at("tail_radius")},
      {"joints", res.params.at("joints")},
      {"turns", res.params.at("turns")},
      {"length_m", res.params.at("length")},
      {"radius_m", res.params.at("radius")},
      {"bend_limit_deg", res.params.at("bend_limit")},
      {"twist_limit_deg", res.params.at("twist_limit")},
      {"ramp_s", res.params.at("ramp")},
      {"dt_s", res.params.at("dt")}};
  for (const auto& [key, value] : obs) rec.Observe(part, key, value);
  if (part != "motion") return;
  for (std::size_t k = 0; k < m.pen_series.size(); ++k) {
    rec.Observe("series", fmt::format("pen_{}", k), m.pen_series[k]);
    rec.Observe("series", fmt::format("contacts_{}", k), m.per_step[k * kSeriesEvery]);
  }
}

// The recorded frames with self-contact, the last `count` of them.
std::vector<ContactProblem> ContactFrames(const SimulateResult& res, const Motion& m, int count) {
  std::vector<ContactProblem> frames;
  for (const ContactProblem& p : res.recorded)
    if (p.meta.step < static_cast<int>(m.per_step.size()) && m.per_step[p.meta.step] > 0)
      frames.push_back(p);
  if (static_cast<int>(frames.size()) > count) frames.erase(frames.begin(), frames.end() - count);
  return frames;
}

// The scene coiled by servos of stiffness kp for `steps` steps, frames recorded every kEvery.
Motion Coil(double kp, int steps, ProtocolRecords& rec, SimulateResult& res) {
  const SceneEntry* scene = FindScene("hagfish");
  if (!scene) throw Error("003-fig3: scene 'hagfish' not found");
  SimulateOptions sim = SteppingOptions("admm-full", kStepIters, steps);
  sim.every = kEvery;
  Motion m;
  sim.after_step = [&m](const physics::SteppedSystem& s) {
    ObserveStep(dynamic_cast<const physics::MultibodySystem&>(s), m);
  };
  res = Simulate(*scene, {{"kp", fmt::format("{:g}", kp)}, {"kd", fmt::format("{:g}", kp / 10)}}, 1,
                 sim);
  RecordMotion(m, res, rec, Part(kp));
  return m;
}

// --cases N: N steps of each coil (a quick check; the coil needs the protocol's steps);
// --max-iters caps the solvers' iterations on the frames.
void Measure(const ReproduceOptions& opt, ProtocolRecords& rec) {
  const int steps = opt.cases > 0 ? std::min(opt.cases, kSteps) : kSteps;
  SimulateResult res;
  for (double kp : kServoKp)
    if (kp != kServoKp[0]) Coil(kp, steps, rec, res);
  const Motion m = Coil(kServoKp[0], steps, rec, res);
  const std::vector<ContactProblem> frames = ContactFrames(res, m, kFrames);
  rec.Observe("motion", "frames", static_cast<double>(frames.size()));
  if (frames.empty()) return;
  rec.Observe("motion", "frame_rows", frames.back().num_rows());
  rec.Observe("motion", "frame_dofs", frames.back().num_dofs());
  for (const SolverEntry& e : Solvers()) {
    const int iters = opt.max_iters > 0 ? std::min(opt.max_iters, kMaxIters) : kMaxIters;
    RunOnFrames(frames, e.name, {}, kTol, iters, kTimeMs, opt, "frames");
    if (!opt.quiet) fmt::print(stderr, "[003-fig3] {} done\n", e.name);
  }
}

std::string MotionTable(const ProtocolRecords& rec, const PublishedTable& paper) {
  auto v = [&rec](const char* key) { return rec.Value("motion", key); };
  markdown::Table t({"", "ours", "003"}, "lrr");
  t.Row({"joints (alternating Z / XY)", fmt::format("{:.0f}", v("joints")),
         fmt::format("{:g}", paper.Get("joints", "paper"))});
  t.Row({"friction of the self-contact", "0 (unilateral rows)",
         fmt::format("{:g}", paper.Get("self_contact_friction", "paper"))});
  t.Row({"steps (with self-contact)",
         fmt::format("{:.0f} ({:.0f})", v("steps"), v("contact_steps")), "—"});
  t.Row({"self-contacts per step, most", fmt::format("{:.0f}", v("max_contacts")), "—"});
  t.Row({"Newton iterations per contact, mean / most",
         fmt::format("{:.2f} / {:.0f}", v("newton_mean"), v("newton_max")), "—"});
  t.Row({"contacts whose Newton search did not converge", fmt::format("{:.0f}", v("unconverged")),
         "—"});
  t.Row({"a colliding contact's gap − the best of a 49×49 sampling, most [m]",
         fmt::format("{:.2e}", v("excess_m")), "—"});
  t.Row({fmt::format("regions of sampled overlap (every {} steps) without a contact as deep",
                     kMissEvery),
         fmt::format("{:.0f} of {:.0f}", v("missed"), v("overlap_regions")), "—"});
  t.Row({"largest penetration over the motion [mm]",
         fmt::format("{:.4f}", 1e3 * v("max_penetration_m")), "—"});
  t.Row({"largest res004 of a step's solve", fmt::format("{:.1e}", v("max_step_res004")), "—"});
  return t.str();
}

std::string SolversTable(const ProtocolRecords& rec) {
  return FramesBySolverSection(
      rec, "frames",
      fmt::format("the last {:.0f} recorded frames with self-contact ({:.0f} rows, {:.0f} dofs in "
                  "the last)",
                  rec.ValueOr("motion", "frames", 0), rec.ValueOr("motion", "frame_rows", 0),
                  rec.ValueOr("motion", "frame_dofs", 0)),
      kTol, kMaxIters, kTimeMs);
}

// Contacts and penetration per step as CSV and, with matplotlib, the figure.
std::string Figure(const ProtocolRecords& rec, const std::string& out_dir) {
  const double dt = rec.Value("motion", "dt_s");
  return TimeSeriesFigure(rec, "003-fig3", out_dir,
                          {{"contacts", "contacts", 1.0}, {"penetration_mm", "pen", 1e3}}, 0.0,
                          kSeriesEvery * dt, "self-contacts / penetration [mm]",
                          "003 Fig. 3: hagfish self-contact along the spline",
                          "Self-contacts and penetration per step");
}

// The Newton search over every coil: contacts, not converged, worst excess over sampling and
// overlaps missed, summed or maximized over the servo sweep.
struct SearchCheck {
  double contacts = 0, unconverged = 0, newton_max = 0, excess = -INFINITY, missed = 0,
         overlaps = 0;
};
SearchCheck CheckSearch(const ProtocolRecords& rec) {
  SearchCheck c;
  for (double kp : kServoKp) {
    const std::string part = Part(kp);
    c.contacts += rec.Value(part, "contacts");
    c.unconverged += rec.Value(part, "unconverged");
    c.newton_max = std::max(c.newton_max, rec.Value(part, "newton_max"));
    if (const double e = rec.Value(part, "excess_m"); std::isfinite(e))
      c.excess = std::max(c.excess, e);
    c.missed += rec.Value(part, "missed");
    c.overlaps += rec.Value(part, "overlap_regions");
  }
  return c;
}

std::string SweepTable(const ProtocolRecords& rec) {
  markdown::Table t(
      {"servo stiffness [N·m/rad]", "steps with self-contact", "contacts",
       "colliding: Newton − sampled gap, most [m]", "overlap regions missed (deepest [mm])",
       "largest penetration [mm]", "largest res004 of a step"},
      "rrrrrrr");
  for (double kp : kServoKp) {
    const std::string part = Part(kp);
    t.Row(
        {fmt::format("{:g}{}", kp, kp == kServoKp[0] ? " (default)" : ""),
         fmt::format("{:.0f}", rec.Value(part, "contact_steps")),
         fmt::format("{:.0f}", rec.Value(part, "contacts")),
         fmt::format("{:.1e}", rec.Value(part, "excess_m")),
         fmt::format("{:.0f} of {:.0f} ({:.4f})", rec.Value(part, "missed"),
                     rec.Value(part, "overlap_regions"), 1e3 * rec.Value(part, "deepest_missed_m")),
         fmt::format("{:.4f}", 1e3 * rec.Value(part, "max_penetration_m")),
         fmt::format("{:.1e}", rec.Value(part, "max_step_res004"))});
  }
  return "\n\nThe same coil at stiffer servos (damping a tenth of the stiffness): the tail arrives "
         "faster and presses harder.\n\n" +
         t.str();
}

std::string SearchClaim(const ReportInput& in) {
  const SearchCheck c = CheckSearch(in.records);
  return in.claims.Row(
      "003 §6: the colliding points of the spline through the body are found by Newton's method "
      "(here, over the three coils: every contact's search converges, a colliding contact's gap is "
      "no larger than the smallest of a 49×49 sampling of its segment pair, and every region of "
      "sampled overlap holds a contact as deep)",
      fmt::format("{:.0f} contacts; {:.0f} not converged; most {:.0f} iterations; Newton − sampled "
                  "gap of a colliding one at most {:.1e} m; {:.0f} of {:.0f} overlap regions "
                  "missed",
                  c.contacts, c.unconverged, c.newton_max, c.excess, c.missed, c.overlaps),
      c.contacts == 0                                                 ? Verdict::kNotAssessed
      : c.unconverged == 0 && c.excess <= kExcessTol && c.missed == 0 ? Verdict::kReproduced
                                                                      : Verdict::kNotReproduced);
}

std::string PenetrationClaim(const ReportInput& in) {
  const double bound = 0.1 * in.records.Value("motion", "tail_radius_m");
  std::vector<AtValue> sweep;
  std::string ours;
  for (double kp : kServoKp) {
    const double pen = in.records.Value(Part(kp), "max_penetration_m");
    sweep.push_back({kp, in.records.Value(Part(kp), "contacts") > 0 ? AtMostVerdict(pen, bound)
                                                                    : Verdict::kNotAssessed});
    ours += fmt::format("{}{:.4f} mm at {:g} N·m/rad", ours.empty() ? "" : ", ", 1e3 * pen, kp);
  }
  const Judged at = RangeVerdict({sweep.front().verdict}, "the servo stiffness", sweep);
  return in.claims.Row(
      "003 §6: the self-collisions, as the inequality rows of a QP without friction (Eq. 5), keep "
      "the body from passing through itself (here: the largest penetration over the motion is "
      "at most a tenth of the thinnest radius)",
      fmt::format("largest penetration {} (bound {:.2f} mm)", ours, 1e3 * bound), at);
}

std::string Claims(const ReportInput& in) {
  std::string md = "\n";
  md += ClaimHeader();
  md += SearchClaim(in) + PenetrationClaim(in);
  md += in.claims.NotAssessed(
      "003 Fig. 3c–d: the simulated hagfish forms a knot with its body",
      fmt::format("a helix of {:g} turns, not a knot", in.records.Value("motion", "turns")),
      "003 does not give the controller that knots the body; ours coils it");
  return md;
}

std::string Report(const ReportInput& in) {
  auto v = [&in](const char* key) { return in.records.Value("motion", key); };
  std::string md = markdown::Heading(1, "003-fig3 — HAGFISH: self-collision along a spline");
  md += fmt::format(
      "The hagfish scene at its defaults: {:.0f} joints alternating Z-revolute and XY-universal "
      "({:.0f} dofs), no gravity, PD servos coiling the body {:g} turns into a helix over {:g} s, "
      "stepped by admm-full ({} iterations a step, dt {:.4g} s) for {:.0f} steps. Self-contacts "
      "come from the Newton search on the Catmull–Rom spline through the joints, one "
      "frictionless unilateral row each. 003 gives no controller and no figure for this "
      "experiment; the length, radii, mass and joint limits it took from measurements are not "
      "printed, so ours are chosen ({:g} cm, radius {:g} mm tapering to {:g} mm, ±{:g}° bending, "
      "±{:g}° twist).\n\n",
      v("joints"), v("joints") + std::floor(v("joints") / 2), v("turns"), v("ramp_s"), kStepIters,
      v("dt_s"), v("steps"), 100 * v("length_m"), 1e3 * v("radius_m"), 1e3 * v("tail_radius_m"),
      v("bend_limit_deg"), v("twist_limit_deg"));
  md += MotionTable(in.records, in.paper) + SweepTable(in.records) + SolversTable(in.records) +
        Figure(in.records, in.out_dir) + Claims(in);
  return md;
}

}  // namespace fig_003_3
}  // namespace

Protocol MakeFig003_3() {
  using namespace fig_003_3;
  return {.id = "003-fig3",
          .title =
              "HAGFISH: 100 alternating revolute/universal joints, self-collision along a spline "
              "by Newton's method (Fig. 3)",
          .setting =
              "hagfish scene coiled by PD servos (003 gives no controller) of 3 stiffnesses, "
              "480 steps each stepped by admm-full 200; Newton search checked against sampling; "
              "up to the last 6 frames with self-contact (frictionless unilateral rows) run by "
              "every solver to res004 1e-6",
          .measure = Measure,
          .report = Report,
          .min_cases = kSteps};
}

}  // namespace ncp
