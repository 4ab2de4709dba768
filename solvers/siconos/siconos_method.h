// The Siconos Numerics solvers ncpbench exposes, and the settings they share. A Siconos solver runs
// its own loop, so one harness Iterate() runs a chunk of `chunk` Siconos iterations warm-started
// from the previous reaction; solver state other than the reaction (PROX's σ, ADMM's ρ and dual
// variable, VI-EG's step) restarts with each chunk, which is why the chunk is a setting. ADMM
// suffers most from restarts (on local_problem_test: converged within 900 iterations in chunks
// of 100, not within 20000 in chunks of 10), hence its larger default chunk.
#pragma once

#include <string>
#include <vector>

#include "problems/model/contact_problem.h"
#include "solvers/settings.h"
#include "solvers/settings_table.h"

struct SolverOptions;

namespace ncp::siconos {

enum class Form {
  kLocal,   // fc3d on (W, q) from our Delassus operator, or an fclib local problem
  kWr,      // "with reformulation": Siconos' own global → local reformulation (once, in Setup),
            // then fc3d; Siconos' gfc3d *_WR drivers do the same but reformulate on every call
  kGlobal,  // gfc3d on (M, H, f, w)
};

struct Method {
  std::string name;  // ncpbench name without the "siconos:" prefix
  int id = 0;        // fc3d id (kLocal, kWr) or gfc3d id (kGlobal)
  Form form = Form::kLocal;
  int default_chunk = 1;  // Siconos iterations per Iterate()
  std::string description;
};

const std::vector<Method>& Methods();

// NSGS contact order and ADMM acceleration, in the order of their Siconos constants.
enum class Shuffle { kNo, kOnce, kEachSweep };
inline constexpr auto kShuffles = ChoiceNames<Shuffle>(
    {{Shuffle::kNo, "no"}, {Shuffle::kOnce, "once"}, {Shuffle::kEachSweep, "each-sweep"}});
enum class Acceleration { kNone, kNesterov, kNesterovRestart };
inline constexpr auto kAccelerations =
    ChoiceNames<Acceleration>({{Acceleration::kNone, "none"},
                               {Acceleration::kNesterov, "nesterov"},
                               {Acceleration::kNesterovRestart, "nesterov-restart"}});

// chunk, max_iter, tol, plus the method's own options: omega and shuffle (NSGS), max_rows
// (PROX), acceleration (the ADMMs). A method's table lists only those it reads.
struct SiconosSettings {
  int chunk = 1;  // the method's default_chunk
  int max_iter = 1000000;
  double tol = 1e-14;
  double omega = 1.0;
  Shuffle shuffle = Shuffle::kNo;
  // Measured with Siconos 4.4 on a 1458-row sliding_cubes frame: one chunk of PROX took 2.5 GB
  // (local) and 10 GB (-wr) in its inner Newton solver; larger problems are refused unless asked.
  int max_rows = 1200;
  Acceleration acceleration = Acceleration::kNesterovRestart;
};
const SettingsTable<SiconosSettings>& Table(const Method& m);

// Copies the validated settings into Siconos' iparam/dparam (all but chunk and max_iter, which
// the solver applies per chunk).
void ApplySettings(const Method& m, const SiconosSettings& s, SolverOptions* o);

// "" when every constraint is a 3-row contact, else why Siconos cannot take the problem.
std::string Unsupported(const std::vector<Constraint>& constraints);

}  // namespace ncp::siconos
