// Test plug-in: peer solvers that end their own process in the middle of a run, as a library
// can (exit from inside, a crash), marked isolated: a run must record them as failed rows and
// go on (tests/harness/isolated_run_test.cc).
#include <dlfcn.h>

#include <chrono>
#include <csignal>
#include <cstdlib>
#include <fstream>
#include <memory>
#include <thread>

#include "solvers/registry.h"

namespace {

class EndingPeer : public ncp::Solver {
 public:
  explicit EndingPeer(bool crash, bool sleep = false) : crash_(crash), sleep_(sleep) {}
  ncp::Status Setup(const ncp::ContactProblem& p, const ncp::Settings&,
                    const ncp::WarmStart*) override {
    v_ = ncp::Vec::Zero(p.num_dofs());
    lambda_ = ncp::Vec::Zero(p.num_rows());
    return ncp::Status::kRunning;
  }
  ncp::Status Iterate() override {
    if (sleep_) {  // a long job, for a signal to end its parent in the middle
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
      return ncp::Status::kRunning;
    }
    if (++iterations_ == 3) {
      if (crash_) std::raise(SIGSEGV);
      std::_Exit(7);  // as a library's exit() or MPI_Abort would
    }
    return ncp::Status::kRunning;
  }
  void Current(ncp::Vec& v, ncp::Vec& lambda) const override {
    v = v_;
    lambda = lambda_;
  }

 private:
  bool crash_, sleep_;
  int iterations_ = 0;
  ncp::Vec v_, lambda_;
};

}  // namespace

namespace {
// A peer that rebuilds its own plug-in as it runs (a byte appended to the library file), as a
// build finishing in the middle of a run would: the run's next isolated job must not run it.
class RebuildingPeer : public EndingPeer {
 public:
  RebuildingPeer() : EndingPeer(false) {}
  ncp::Status Setup(const ncp::ContactProblem& p, const ncp::Settings& s,
                    const ncp::WarmStart* w) override {
    Dl_info info{};
    if (dladdr(reinterpret_cast<void*>(&Marker), &info) != 0 && info.dli_fname)
      std::ofstream(info.dli_fname, std::ios::app | std::ios::binary) << 'x';
    return EndingPeer::Setup(p, s, w);
  }
  ncp::Status Iterate() override { return ncp::Status::kRunning; }

 private:
  static void Marker() {}
};
}  // namespace

NCP_REGISTER_SOLVER(test_rebuilding_peer,
                    {.name = "test-rebuilding-peer",
                     .description = "test: appends a byte to its own library file in Setup",
                     .make = [] { return std::make_unique<RebuildingPeer>(); },
                     .isolated = true})
NCP_REGISTER_SOLVER(test_exiting_peer, {.name = "test-exiting-peer",
                                        .description = "test: exits its process at iteration 3",
                                        .make = [] { return std::make_unique<EndingPeer>(false); },
                                        .isolated = true})
NCP_REGISTER_SOLVER(test_crashing_peer, {.name = "test-crashing-peer",
                                         .description = "test: crashes (SIGSEGV) at iteration 3",
                                         .make = [] { return std::make_unique<EndingPeer>(true); },
                                         .isolated = true})
NCP_REGISTER_SOLVER(test_sleeping_peer,
                    {.name = "test-sleeping-peer",
                     .description = "test: sleeps 50 ms an iteration",
                     .make = [] { return std::make_unique<EndingPeer>(false, true); },
                     .isolated = true})
