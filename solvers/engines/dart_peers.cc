#include "solvers/engines/dart_peers.h"

#include <dart/config.hpp>
#include <dart/constraint/DantzigBoxedLcpSolver.hpp>
#include <dart/constraint/PgsBoxedLcpSolver.hpp>
#include <dart/external/odelcpsolver/lcp.h>

#include <algorithm>
#include <cstdarg>
#include <memory>
#include <string>
#include <utility>
#include <vector>
#include <fmt/format.h>

#include "solvers/engines/boxed_lcp_peer.h"

namespace ncp::engines {
namespace {

namespace ode = dart::external::ode;
static_assert(sizeof(ode::dReal) == sizeof(double), "DART's ODE solver is built in double");

// ODE's layout: row-major with rows padded to a multiple of 4 (dPAD), as dSolveLCP indexes them.
int Skip(int n) { return dPAD(n); }

// The arrays ODE's pivoting overwrites (it permutes A, b, bounds and friction indices in place):
// filled anew from the boxed LCP before every solve.
struct OdeArrays {
  std::vector<double> A, b, x, w, lo, hi;
  std::vector<int> findex;

  void Reserve(int n) {
    A.assign(static_cast<std::size_t>(n) * Skip(n), 0.0);
    b.resize(n);
    x.resize(n);
    w.resize(n);
    lo.resize(n);
    hi.resize(n);
    findex.resize(n);
  }
  void Load(const BoxedLcp& lcp) {
    const int n = lcp.rows(), skip = Skip(n);
    for (int i = 0; i < n; ++i) {
      std::copy_n(lcp.A.row(i).data(), n, A.data() + static_cast<std::size_t>(i) * skip);
      b[i] = lcp.b[i];
      lo[i] = lcp.lo[i];
      hi[i] = lcp.hi[i];
      findex[i] = lcp.findex[i];
    }
    std::fill(x.begin(), x.end(), 0.0);
  }
};

// ODE reports what its pivoting had to work around ("LCP internal error, s <= 0" on a singular
// principal block) through dMessage, which prints to stderr: counted instead, per solve, and
// reported in the run's info.
thread_local int ode_messages = 0;
void CountMessage(int, const char*, va_list) { ++ode_messages; }

// One Iterate() is the whole Dantzig solve, and ends the run.
class Dantzig : public BoxedLcpPeer {
 public:
  explicit Dantzig(bool through_dart) : through_dart_(through_dart) {}
  Status Iterate() override {
    const int n = lcp_.rows();
    if (solves_ > 0 || n == 0) return Status::kStopped;
    ode_.Load(lcp_);
    ode::dSetMessageHandler(CountMessage);
    ode_messages = 0;
    const bool ok =
        through_dart_
            ? dart_.solve(n, ode_.A.data(), ode_.x.data(), ode_.b.data(), 0, ode_.lo.data(),
                          ode_.hi.data(), ode_.findex.data(), false)
            : ode::dSolveLCP(n, ode_.A.data(), ode_.x.data(), ode_.b.data(), ode_.w.data(), 0,
                             ode_.lo.data(), ode_.hi.data(), ode_.findex.data(), false);
    ++solves_;
    messages_ = ode_messages;
    for (int i = 0; i < n; ++i) x_[i] = ode_.x[i];
    if (!ok) {
      message_ = "ODE's dSolveLCP reported failure";
      return Checked(Status::kFailed);
    }
    return Checked(Status::kStopped);  // the solve is the whole method
  }
  std::vector<std::pair<std::string, double>> Info() const override {
    auto info = BoxedLcpPeer::Info();
    info.emplace_back("ode_messages", messages_);
    return info;
  }

 private:
  Status Prepare() override {
    ode_.Reserve(lcp_.rows());
    messages_ = 0;
    return Status::kRunning;
  }
  bool through_dart_;
  int messages_ = 0;
  dart::constraint::DantzigBoxedLcpSolver dart_;
  OdeArrays ode_;
};

// PgsBoxedLcpSolver with one sweep per call (mMaxIteration = 1 runs its first sweep alone, which
// leaves A and b as they are); its early exit is the harness', so every sweep runs.
class DartPgs : public BoxedLcpPeer {
 public:
  Status Iterate() override {
    const int n = lcp_.rows();
    if (n == 0) return Status::kStopped;
    solver_.solve(n, ode_.A.data(), ode_.x.data(), ode_.b.data(), 0, ode_.lo.data(), ode_.hi.data(),
                  ode_.findex.data(), false);
    ++solves_;
    for (int i = 0; i < n; ++i) x_[i] = ode_.x[i];
    return Checked(Status::kRunning);
  }

 private:
  Status Prepare() override {
    const int n = lcp_.rows();
    ode_.Reserve(n);
    ode_.Load(lcp_);
    for (int i = 0; i < n; ++i) ode_.x[i] = x_[i];
    dart::constraint::PgsBoxedLcpSolver::Option o;
    o.mMaxIteration = 1;
    solver_.setOption(o);
    return Status::kRunning;
  }
  dart::constraint::PgsBoxedLcpSolver solver_;
  OdeArrays ode_;
};

const std::string& DartVersion() {
  static const std::string v = fmt::format("DART {}, double precision", DART_VERSION);
  return v;
}

}  // namespace

std::vector<SolverEntry> DartEntries() {
  const auto& t = EngineSettings::Table();
  const std::string& v = DartVersion();
  return {
      PeerEntry({"ode:dantzig",
                 "ODE's Dantzig pivoting (dSolveLCP) on the boxed LCP, from DART's copy", v, t,
                 [] { return std::make_unique<Dantzig>(false); }, true}),
      PeerEntry({"dart:dantzig",
                 "DART's DantzigBoxedLcpSolver (the same ODE code, through DART's interface) on "
                 "the boxed LCP",
                 v, t, [] { return std::make_unique<Dantzig>(true); }, true}),
      PeerEntry({"dart:pgs", "DART's PgsBoxedLcpSolver on the boxed LCP", v, t,
                 [] { return std::make_unique<DartPgs>(); }}),
  };
}

}  // namespace ncp::engines
