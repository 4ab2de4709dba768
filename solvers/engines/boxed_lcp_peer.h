// Base of the engine peers (Bullet, ODE, DART): sets a contact problem up in the boxed-LCP form
// of solvers/common/boxed_lcp.h and reports the solution in the problem's own rows, so that the
// evaluator measures every peer on the exact (Coulomb) problem, not on its relaxation.
//
// Global problems: soft rows folded into A and b (fold_soft.h), W = J A⁻¹ Jᵀ and q = J A⁻¹ b + e
// assembled in setup (timed: an engine forms its matrix too), v recovered as A⁻¹ (b + Jᵀλ).
// Local problems: W's symmetric part ½(W + Wᵀ), since the pivoting methods factor a symmetric
// matrix (fclib's single-precision exports are not exactly symmetric).
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "problems/linalg/cholmod_llt.h"
#include "solvers/registry.h"
#include "problems/model/fold_soft.h"
#include "solvers/common/boxed_lcp.h"
#include "solvers/settings_table.h"
#include "solvers/solver.h"

namespace ncp::engines {

struct EngineSettings {
  int directions = 2;      // tangent rows per contact (2: the engines' box)
  int max_rows = 3000;     // largest boxed form set up (dense n × n, O(n³) pivoting)
  double max_value = 1e5;  // bullet:lemke: Bullet's m_maxValue, also the bound of unbounded rows
  int max_loops = 1000;    // bullet:lemke: Bullet's m_maxLoops (pivots per solve)
  // The settings of every peer, and of bullet:lemke (which adds its two).
  static const SettingsTable<EngineSettings>& Table();
  static const SettingsTable<EngineSettings>& LemkeTable();
};

class BoxedLcpPeer : public Solver {
 public:
  Status Setup(const ContactProblem& p, const Settings& s, const WarmStart* warm) final;
  void Current(Vec& v, Vec& lambda) const override;
  std::vector<std::pair<std::string, double>> Info() const override;

 protected:
  virtual const SettingsTable<EngineSettings>& Table() const { return EngineSettings::Table(); }
  // Called at the end of Setup with lcp_ and x_ ready: the engine's own data.
  virtual Status Prepare() { return Status::kRunning; }
  // kDiverged with a message when x_ holds a non-finite value, else `ok`.
  Status Checked(Status ok);

  EngineSettings set_;
  BoxedLcp lcp_;
  Vec x_;  // the boxed unknowns
  int solves_ = 0;

 private:
  const ContactProblem* original_ = nullptr;
  std::unique_ptr<FoldedProblem> fold_;  // global problems
  std::unique_ptr<CholmodLLT> chol_;     // A (folded), to recover v
  Vec v_free_;
};

// The registry entry of a peer: its description tagged with the library's version, local
// problems on W's symmetric part, iterates independent of the thread count.
struct PeerSpec {
  const char* name;
  std::string description;
  std::string version;  // e.g. "Bullet 3.24, double precision"
  const SettingsTable<EngineSettings>& table;
  std::function<std::unique_ptr<Solver>()> make;
  bool isolated = false;       // pivoting: a failed assertion or a runaway pivot stays in a child
  std::string allocates = "";  // SolverEntry::iterate_allocates
};
SolverEntry PeerEntry(PeerSpec spec);

}  // namespace ncp::engines
