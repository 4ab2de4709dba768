// Test plug-in: peer solvers that end their own process in the middle of a run, as a library
// can (exit from inside, a crash), marked isolated: a run must record them as failed rows and
// go on (tests/harness/isolated_run_test.cc).
#include <csignal>
#include <cstdlib>
#include <memory>

#include "solvers/registry.h"

namespace {

class EndingPeer : public ncp::Solver {
 public:
  explicit EndingPeer(bool crash) : crash_(crash) {}
  ncp::Status Setup(const ncp::ContactProblem& p, const ncp::Settings&,
                    const ncp::WarmStart*) override {
    v_ = ncp::Vec::Zero(p.num_dofs());
    lambda_ = ncp::Vec::Zero(p.num_rows());
    return ncp::Status::kRunning;
  }
  ncp::Status Iterate() override {
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
  bool crash_;
  int iterations_ = 0;
  ncp::Vec v_, lambda_;
};

}  // namespace

NCP_REGISTER_SOLVER(test_exiting_peer, {.name = "test-exiting-peer",
                                        .description = "test: exits its process at iteration 3",
                                        .make = [] { return std::make_unique<EndingPeer>(false); },
                                        .isolated = true})
NCP_REGISTER_SOLVER(test_crashing_peer, {.name = "test-crashing-peer",
                                         .description = "test: crashes (SIGSEGV) at iteration 3",
                                         .make = [] { return std::make_unique<EndingPeer>(true); },
                                         .isolated = true})
