#include "solvers/engines/bullet_peers.h"

#include <BulletDynamics/MLCPSolvers/btDantzigSolver.h>
#include <BulletDynamics/MLCPSolvers/btLemkeSolver.h>
#include <BulletDynamics/MLCPSolvers/btSolveProjectedGaussSeidel.h>

#include <algorithm>
#include <cmath>
#include <memory>
#include <vector>
#include <fmt/format.h>

#include "solvers/engines/boxed_lcp_peer.h"

static_assert(sizeof(btScalar) == sizeof(double), "the peers link Bullet's -float64 libraries");

namespace ncp::engines {
namespace {

// The boxed LCP in Bullet's containers (its matrices are row-major, as ours).
struct BulletLcp {
  btMatrixXu A;
  btVectorXu b, x, lo, hi;
  btAlignedObjectArray<int> dependency;

  void Load(const BoxedLcp& lcp, const Vec& x0) {
    const int n = lcp.rows();
    A.resize(n, n);
    std::copy_n(lcp.A.data(), static_cast<std::size_t>(n) * n, A.getBufferPointerWritable());
    b.resize(n);
    x.resize(n);
    lo.resize(n);
    hi.resize(n);
    dependency.resize(n);
    for (int i = 0; i < n; ++i) {
      b[i] = lcp.b[i];
      x[i] = x0[i];
      lo[i] = lcp.lo[i];
      hi[i] = lcp.hi[i];
      dependency[i] = lcp.findex[i];
    }
  }
  void Store(Vec& out) const {
    for (int i = 0; i < out.size(); ++i) out[i] = x[i];
  }
};

// btDantzigSolver: ODE's Dantzig pivoting as Bullet ships it. One Iterate() is the whole solve,
// and ends the run (the method has no iterates to refine).
class BulletDantzig : public BoxedLcpPeer {
 public:
  Status Iterate() override {
    if (solves_ > 0) return Status::kStopped;
    if (lcp_.rows() == 0) return Status::kStopped;
    bt_.Load(lcp_, x_);  // Bullet's Dantzig copies A itself; x is its output
    const bool ok = solver_.solveMLCP(bt_.A, bt_.b, bt_.x, bt_.lo, bt_.hi, bt_.dependency, 1);
    ++solves_;
    bt_.Store(x_);
    if (!ok) {
      message_ = "btDantzigSolver reported failure (no solution, or a non-finite one)";
      return Checked(Status::kFailed);
    }
    return Checked(Status::kStopped);  // the solve is the whole method
  }

 private:
  btDantzigSolver solver_;
  BulletLcp bt_;
};

// btSolveProjectedGaussSeidel: one sweep per iteration; a chunk of k iterations is one call of
// k sweeps, as Bullet makes it (its per-call scan of A's nonzeros is then paid once a chunk).
class BulletPgs : public BoxedLcpPeer {
 public:
  Status Iterate() override {
    int done = 0;
    return IterateChunk(1, done);
  }
  Status IterateChunk(int k, int& done) override {
    done = 0;
    if (lcp_.rows() == 0) return Status::kStopped;
    solver_.solveMLCP(bt_.A, bt_.b, bt_.x, bt_.lo, bt_.hi, bt_.dependency, k);
    done = k;
    solves_ += k;
    bt_.Store(x_);
    return Checked(Status::kRunning);
  }
  int MaxChunk() const override { return 1 << 20; }

 private:
  Status Prepare() override {
    bt_.Load(lcp_, x_);
    bt_.A.rowComputeNonZeroElements();  // sizes Bullet's per-row lists, which every call refills
    return Status::kRunning;
  }
  btSolveProjectedGaussSeidel solver_;
  BulletLcp bt_;
};

// btLemkeSolver takes fixed bounds (it ignores limitDependency) and no infinite one: each
// iteration is one Lemke solve with the friction bounds ±c·μ·λ_n of the previous iterate (the
// first: frictionless), a fixed point on the bounds (Tresca iterations); unbounded rows get
// ±max_value, Bullet's own cap on a solution. Rows whose bounds are equal (friction of a zero
// normal, μ = 0) are fixed there and left out of the solve: Bullet's Lemke returns a wrong answer,
// and reports success, when a row's bounds coincide (measured on random SPD problems).
class BulletLemke : public BoxedLcpPeer {
 public:
  Status Iterate() override {
    const int n = lcp_.rows();
    if (n == 0) return Status::kStopped;
    // Bounds of this solve.
    for (int i = 0; i < n; ++i) {
      const int k = lcp_.findex[i];
      const double bound = k >= 0 ? lcp_.hi[i] * std::max(x_[k], 0.0) : 0.0;
      lo_[i] = k >= 0 ? -bound : std::max(lcp_.lo[i], -set_.max_value);
      hi_[i] = k >= 0 ? bound : std::min(lcp_.hi[i], set_.max_value);
    }
    // Bounds closer than rounding of the impulses' size (a friction bound from λ_n ≈ 1e-17)
    // are fixed too: Bullet's Lemke fails on them as on equal ones.
    double normal = impulse_scale_;
    for (int i = 0; i < n; ++i)
      if (lcp_.findex[i] >= 0) normal = std::max(normal, std::abs(x_[lcp_.findex[i]]));
    free_.clear(), fixed_.clear();
    for (int i = 0; i < n; ++i) {
      if (hi_[i] - lo_[i] > kFixedWidth * normal) {
        free_.push_back(i);
      } else {
        fixed_.push_back(i);
        x_[i] = 0.5 * (lo_[i] + hi_[i]);
      }
    }
    const int f = static_cast<int>(free_.size());
    btMatrixXu A(f, f);
    btVectorXu b(f), x(f), lo(f), hi(f);
    btAlignedObjectArray<int> none;
    none.resize(f, -1);
    for (int r = 0; r < f; ++r) {
      const int i = free_[r];
      double bi = lcp_.b[i];
      for (const int j : fixed_) bi -= lcp_.A(i, j) * x_[j];
      for (int c = 0; c < f; ++c) A.setElem(r, c, lcp_.A(i, free_[c]));
      b[r] = bi;
      x[r] = 0.0;
      lo[r] = lo_[i];
      hi[r] = hi_[i];
    }
    const bool ok = f == 0 || solver_.solveMLCP(A, b, x, lo, hi, none, 1);
    ++solves_;
    if (!ok) {
      message_ = fmt::format(
          "btLemkeSolver reported failure (no solution within {} pivots, or one beyond "
          "max_value = {})",
          set_.max_loops, set_.max_value);
      return Status::kFailed;
    }
    // Bullet's Lemke ignores its own failure flag (a ray, or max_loops pivots) and then returns
    // the unconstrained solve: an answer outside its bounds is that failure. A row on its bound
    // comes back as A⁻¹(y + b), within rounding of the data's size, not of the answer's (all
    // zero when every contact separates): the tolerance is relative to the larger of the two,
    // and what passes is put on the bound.
    double scale = impulse_scale_, outside = 0.0;
    for (int r = 0; r < f; ++r) {
      scale = std::max(scale, std::abs(x[r]));
      outside = std::max({outside, lo[r] - x[r], x[r] - hi[r]});
    }
    if (std::isfinite(scale) && !(outside <= kOutsideBounds * std::max(scale, 1e-300))) {
      message_ = fmt::format(
          "btLemkeSolver returned impulses {:.3e} outside their bounds (largest {:.3e}): no "
          "solution within {} pivots (max_loops), or a ray",
          outside, scale, set_.max_loops);
      return Status::kFailed;
    }
    for (int r = 0; r < f; ++r) x_[free_[r]] = std::clamp<double>(x[r], lo[r], hi[r]);
    return Checked(Status::kRunning);
  }

 private:
  // Bound width, relative to the impulses' size (the largest normal impulse or |b_i| / A_ii),
  // below which a row is fixed.
  static constexpr double kFixedWidth = 1e-12;
  // Bound violation, relative to the impulses' size (the largest impulse or |b_i| / A_ii),
  // beyond which a solve has failed.
  static constexpr double kOutsideBounds = 1e-9;

  const SettingsTable<EngineSettings>& Table() const override {
    return EngineSettings::LemkeTable();
  }
  Status Prepare() override {
    solver_.m_maxValue = set_.max_value;
    solver_.m_maxLoops = set_.max_loops;
    solver_.m_useLoHighBounds = true;
    lo_ = Vec::Zero(lcp_.rows());
    hi_ = Vec::Zero(lcp_.rows());
    // The impulses' size from the data: the largest |b_i| / A_ii.
    impulse_scale_ = 0.0;
    for (int i = 0; i < lcp_.rows(); ++i)
      if (lcp_.A(i, i) > 0)
        impulse_scale_ = std::max(impulse_scale_, std::abs(lcp_.b[i]) / lcp_.A(i, i));
    free_.reserve(lcp_.rows());
    fixed_.reserve(lcp_.rows());
    return Status::kRunning;
  }
  btLemkeSolver solver_;
  Vec lo_, hi_;
  double impulse_scale_ = 0.0;
  std::vector<int> free_, fixed_;  // this solve's rows: solved, and held at their bounds
};

// The library as built in: the version its headers declare, and the precision of btScalar.
std::string BulletVersion() {
  return fmt::format("Bullet {}.{:02d}, double precision", BT_BULLET_VERSION / 100,
                     BT_BULLET_VERSION % 100);
}

}  // namespace

std::vector<SolverEntry> BulletEntries() {
  const auto& t = EngineSettings::Table();
  const std::string v = BulletVersion();
  return {
      PeerEntry({"bullet:dantzig",
                 "Bullet's btDantzigSolver (ODE's Dantzig pivoting) on the boxed LCP", v, t,
                 [] { return std::make_unique<BulletDantzig>(); }, true}),
      PeerEntry({"bullet:lemke",
                 "Bullet's btLemkeSolver on the boxed LCP, friction bounds from the previous "
                 "iterate's normals",
                 v, EngineSettings::LemkeTable(), [] { return std::make_unique<BulletLemke>(); },
                 true, "Bullet builds its 2n×2n Lemke tableau per solve"}),
      PeerEntry({"bullet:pgs", "Bullet's btSolveProjectedGaussSeidel on the boxed LCP", v, t,
                 [] { return std::make_unique<BulletPgs>(); }}),
  };
}

}  // namespace ncp::engines
