// The per-element functions of solvers/subadmm_rigid/rigid_math.h, the CPU path `subadmm-rigid-cpu`
// against the CPU `subadmm` iteration by iteration, and (with CUDA and a device) `subadmm-gpu`
// against the CPU path.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <Eigen/Cholesky>
#include <cmath>
#include <functional>
#include <ostream>
#include <cstring>
#include <random>
#include <set>
#include <tuple>

#include "harness/simulate.h"
#include "problems/math/constraint_operator.h"
#include "problems/scenarios/random/manufactured.h"
#include "solvers/registry.h"
#include "solvers/subadmm_rigid/rigid_chunk.h"
#include "solvers/subadmm_rigid/rigid_layout.h"
#include "solvers/subadmm_rigid/rigid_math.h"
#include "solvers/subadmm_rigid/subadmm_rigid_cpu.h"
#include "tests/solver_info.h"
#include "tests/test_problems.h"
#ifdef NCPBENCH_HAVE_CUDA
#include "gpu/cuda/rigid_device.h"
#include "gpu/cuda/workspace_pool.h"
#endif

namespace ncp {
namespace {

// The host-device operator is the solvers' operator, bit for bit, on every type and branch.
TEST(RigidMath, OperatorEqualsConstraintOperatorBitwise) {
  std::mt19937_64 rng(7);
  std::uniform_real_distribution<double> u(-2, 2);
  int checked = 0;
  for (int t = 0; t < 4; ++t)
    for (int cone = 0; cone < 2; ++cone)
      for (int k = 0; k < 500; ++k) {
        Constraint c;
        c.type = static_cast<ConstraintType>(t);
        c.mu = k % 7 == 0 ? 0.0 : std::abs(u(rng));
        c.stiffness = std::abs(u(rng)) * 100, c.damping = std::abs(u(rng)) + 0.1;
        const double beta = std::abs(u(rng)) * 10 + 1e-3;
        double x[3] = {u(rng), u(rng), u(rng)}, e[3] = {u(rng), u(rng), u(rng)};
        if (k % 11 == 0) x[1] = x[2] = 0.0;
        double y1[3] = {}, y2[3] = {};
        ApplyConstraintOperator(c, beta, x, e, y1,
                                cone ? ConeOperator::kProximal : ConeOperator::kStrict);
        gpu::ApplyOperator(static_cast<unsigned char>(t), c.mu, c.stiffness, c.damping, beta, x, e,
                           y2, cone != 0);
        for (int r = 0; r < c.rows(); ++r) EXPECT_EQ(y1[r], y2[r]) << "type " << t << " row " << r;
        ++checked;
      }
  EXPECT_EQ(checked, 4000);
}

// Packed 6×6 Cholesky: the solution of (A + β C) x = r to 1e-13 relative against Eigen's LLT.
TEST(RigidMath, Factor6SolvesLikeEigenLlt) {
  std::mt19937_64 rng(3);
  std::normal_distribution<double> nd;
  double worst = 0.0;
  for (int k = 0; k < 200; ++k) {
    Eigen::Matrix<double, 6, 6> G, H;
    for (int i = 0; i < 36; ++i) G.data()[i] = nd(rng), H.data()[i] = nd(rng);
    const Eigen::Matrix<double, 6, 6> A =
        G * G.transpose() + Eigen::Matrix<double, 6, 6>::Identity();
    const Eigen::Matrix<double, 6, 6> C = H * H.transpose();
    const double beta = std::exp(nd(rng));
    double Ap[gpu::kTri], Cp[gpu::kTri], L[gpu::kTri], x[6];
    for (int r = 0; r < 6; ++r)
      for (int c = 0; c <= r; ++c) Ap[gpu::Tri(r, c)] = A(r, c), Cp[gpu::Tri(r, c)] = C(r, c);
    ASSERT_TRUE(gpu::Factor6(Ap, Cp, beta, L));
    Eigen::Matrix<double, 6, 1> rhs;
    for (int i = 0; i < 6; ++i) rhs[i] = x[i] = nd(rng);
    gpu::Solve6(L, x);
    const Eigen::Matrix<double, 6, 1> ref = (A + beta * C).llt().solve(rhs);
    worst = std::max(worst, (Eigen::Map<Eigen::Matrix<double, 6, 1>>(x) - ref).norm() / ref.norm());
  }
  EXPECT_LE(worst, 1e-13);
  double Ap[gpu::kTri] = {}, Cp[gpu::kTri] = {}, L[gpu::kTri];
  Ap[gpu::Tri(0, 0)] = -1.0;
  EXPECT_FALSE(
      gpu::Factor6(Ap, Cp, 1.0, L));  // not positive definite: reported, no NaN factor used
}

ContactProblem SceneFrame(const char* scene, const char* params, int steps) {
  SimulateOptions o;
  o.steps = steps;
  o.every = steps;
  o.iters = 100;
  o.quiet = true;
  o.reference_solvers.clear();
  SimulateResult r = Simulate(*FindScene(scene), ParseKeyValues(params), 5, o);
  EXPECT_EQ(r.recorded.size(), 1u);
  return std::move(r.recorded.at(0));
}

std::unique_ptr<Solver> Start(const ContactProblem& p, const char* name, const char* settings) {
  const SolverEntry& e = FindSolver(name);
  auto s = e.make();
  const Status st =
      s->Setup(p, Settings::Parse(name, e.settings, ParseKeyValues(settings)), nullptr);
  EXPECT_EQ(st, Status::kRunning) << name << ": " << s->message();
  return s;
}

double Rel(const Vec& a, const Vec& b) {
  const double scale = std::max(b.norm(), 1e-300);
  return (a - b).norm() / scale;
}

struct EquivalenceCase {
  const char* label;
  const char* subadmm_settings;
  const char* rigid_settings;
};

// Worst per-iteration relative difference in v and λ over `iters` iterations of two solvers.
void CompareRuns(const ContactProblem& p, const char* a, const char* sa, const char* b,
                 const char* sb, int iters, double& worst_v, double& worst_l, int& adapt_a,
                 int& adapt_b) {
  auto x = Start(p, a, sa), y = Start(p, b, sb);
  ASSERT_TRUE(x && y);
  worst_v = worst_l = 0.0;
  Vec va, la, vb, lb;
  for (int k = 0; k < iters; ++k) {
    ASSERT_EQ(x->Iterate(), Status::kRunning) << a << " at " << k << ": " << x->message();
    ASSERT_EQ(y->Iterate(), Status::kRunning) << b << " at " << k << ": " << y->message();
    x->Current(va, la), y->Current(vb, lb);
    worst_v = std::max(worst_v, Rel(vb, va));
    worst_l = std::max(worst_l, Rel(lb, la));
  }
  auto refs = [](const Solver& s) {
    for (const auto& [k, v] : s.Info())
      if (k == "refactorizations") return static_cast<int>(v);
    return -1;
  };
  adapt_a = refs(*x), adapt_b = refs(*y);
}

struct ProblemCase {
  const char* label;
  std::function<ContactProblem()> make;
};
void PrintTo(const ProblemCase& c, std::ostream* os) { *os << c.label; }  // readable ctest names

class RigidCpuPath : public ::testing::TestWithParam<ProblemCase> {};

// Acceptance: the CPU path equals `subadmm` (dense per-body factorization, body application,
// contacts and joint rows split over the bodies) to 1e-12 relative in v and λ at every one of
// the first 120 iterations, with the adaptive β rule on (same β⁰, same rule, same
// refactorizations).
TEST_P(RigidCpuPath, EqualsSubAdmmEveryIteration) {
  const ContactProblem p = GetParam().make();
  double wv = 0, wl = 0;
  int ra = 0, rb = 0;
  for (const char* adaptive : {"adaptive=1", "adaptive=0"}) {
    // The rigid path keeps 004's penalty rule (43): subadmm with that rule, not its safe default.
    const std::string sub =
        std::string(
            "factorization=dense;apply=bodies;joint_rows=body;row_scaling=0;balance=paper;") +
        adaptive;
    CompareRuns(p, "subadmm", sub.c_str(), "subadmm-rigid-cpu", adaptive, 120, wv, wl, ra, rb);
    std::printf(
        "%-16s %s: %d contacts, %d constraints: max over 120 iterations |dv|/|v| %.2e, "
        "|dl|/|l| %.2e, refactorizations %d / %d\n",
        GetParam().label, adaptive, p.num_contacts(), p.num_constraints(), wv, wl, ra, rb);
    EXPECT_LE(wv, 1e-12);
    EXPECT_LE(wl, 1e-12);
    EXPECT_EQ(ra, rb);
  }
}

// `subadmm` with its default factorization (tree factorization of the one-body trees, automatic
// application) and 004's penalty rule: the same iterates up to the rounding of its different
// factorization, also within 1e-12.
TEST_P(RigidCpuPath, CloseToDefaultSubAdmm) {
  const ContactProblem p = GetParam().make();
  double wv = 0, wl = 0;
  int ra = 0, rb = 0;
  CompareRuns(p, "subadmm", "joint_rows=body;row_scaling=0;balance=paper", "subadmm-rigid-cpu", "",
              120, wv, wl, ra, rb);
  std::printf("%-16s default subadmm: max |dv|/|v| %.2e, |dl|/|l| %.2e\n", GetParam().label, wv,
              wl);
  EXPECT_LE(wv, 1e-12);
  EXPECT_LE(wl, 1e-12);
}

ContactProblem Manufactured(std::uint64_t seed) {
  return MakeManufacturedProblem(testing::AcceptanceOptions(seed), "m");
}

INSTANTIATE_TEST_SUITE_P(
    Problems, RigidCpuPath,
    ::testing::Values(ProblemCase{"sliding_cubes",
                                  [] { return SceneFrame("sliding_cubes", "cubes=25", 12); }},
                      ProblemCase{"vertical_stacks",
                                  [] { return SceneFrame("vertical_stacks", "stacks=4", 40); }},
                      ProblemCase{"manufactured_1", [] { return Manufactured(41); }},
                      ProblemCase{"manufactured_2", [] { return Manufactured(42); }}),
    [](const auto& info) { return std::string(info.param.label); });

using testing::InfoValue;

// Box scenes store A_b as the paper's 4 numbers (m, Ixx, Iyy, Izz); manufactured bodies with
// dense 6×6 mass blocks the packed triangle. The equivalence tests above cover both forms.
TEST(RigidCpuPath, MassFormFollowsTheProblem) {
  const ContactProblem cubes = SceneFrame("sliding_cubes", "cubes=9", 4);
  EXPECT_EQ(InfoValue(*Start(cubes, "subadmm-rigid-cpu", ""), "diagonal_mass"), 1.0);
  EXPECT_EQ(InfoValue(*Start(Manufactured(46), "subadmm-rigid-cpu", ""), "diagonal_mass"), 0.0);
}

TEST(RigidCpuPath, NotApplicableToArticulatedSubsystems) {
  const ContactProblem p = MakeManufacturedProblem(testing::TreeOptions(2), "t");
  const SolverEntry& e = FindSolver("subadmm-rigid-cpu");
  auto s = e.make();
  EXPECT_EQ(s->Setup(p, Settings::Parse(e.name, e.settings, {}), nullptr), Status::kNotApplicable);
  EXPECT_NE(s->message().find("one rigid body per subsystem"), std::string::npos) << s->message();
}

TEST(RigidCpuPath, NonFiniteInputDiverges) {
  ContactProblem p = Manufactured(43);
  p.b[3] = std::nan("");
  auto s = Start(p, "subadmm-rigid-cpu", "");
  EXPECT_EQ(s->Iterate(), Status::kDiverged);
  EXPECT_EQ(s->message(), "non-finite iterate");
}

// The layout built by 2 threads (the parallel passes run from 2048 constraints) equals the
// sequential one entry for entry, built fresh or over a layout of another problem; without the
// host work arrays only those are left out.
TEST(RigidLayout, ParallelBuildEqualsSequential) {
  const ContactProblem big = SceneFrame("sliding_cubes", "cubes=600", 4);
  ASSERT_GE(big.num_constraints(), 2048);
  gpu::RigidLayout seq, par;
  ASSERT_EQ(gpu::BuildRigidLayout(Manufactured(41), par, {.threads = 2}), "");  // other sizes first
  ASSERT_EQ(gpu::BuildRigidLayout(big, seq), "");
  ASSERT_EQ(gpu::BuildRigidLayout(big, par, {.threads = 2}), "");
  for (const auto& [a, b] : {std::pair{&seq.contacts, &par.contacts}, {&seq.joints, &par.joints}}) {
    EXPECT_EQ(a->n, b->n);
    EXPECT_EQ(a->row, b->row);
    EXPECT_EQ(a->body, b->body);
    EXPECT_EQ(a->type, b->type);
    EXPECT_EQ(a->J, b->J);
    EXPECT_EQ(a->e, b->e);
    EXPECT_EQ(a->mu, b->mu);
    EXPECT_EQ(a->lambda, b->lambda);
    EXPECT_EQ(a->w, b->w);
    EXPECT_EQ(a->z, b->z);
  }
  EXPECT_EQ(seq.mass, par.mass);
  EXPECT_EQ(seq.A, par.A);
  EXPECT_EQ(seq.b, par.b);
  EXPECT_EQ(seq.C, par.C);
  EXPECT_EQ(seq.hold, par.hold);
  EXPECT_EQ(seq.gold, par.gold);
  ASSERT_EQ(gpu::BuildRigidLayout(big, par, {.threads = 2, .host_work = false}), "");
  EXPECT_EQ(par.contacts.body, seq.contacts.body);
  EXPECT_EQ(par.row_place, seq.row_place);
  EXPECT_EQ(par.dof_place, seq.dof_place);
  EXPECT_TRUE(par.C.empty() && par.gold.empty() && par.contacts.w.empty() &&
              par.contacts.J.empty());
}

// The slots' J_{i,b} are J's own entries, each in its place: J rebuilt from the layout (slot by
// slot, row by row) equals the problem's J exactly, whether J's storage is compressed or not.
TEST(RigidLayout, SlotsHoldJExactly) {
  for (const ContactProblem& p0 :
       {SceneFrame("vertical_stacks", "stacks=4", 40), Manufactured(44)}) {
    for (bool compressed : {true, false}) {
      ContactProblem p = p0;
      if (!compressed) p.J.uncompress();
      gpu::RigidLayout lay;
      ASSERT_EQ(gpu::BuildRigidLayout(p, lay), "");
      std::vector<Eigen::Triplet<double>> t;
      for (const gpu::RigidSet* s : {&lay.contacts, &lay.joints})
        for (int k = 0; k < s->n; ++k)
          for (int sl = 0; sl < 2; ++sl) {
            const int b = s->body[sl * s->n + k];
            if (b < 0) continue;
            for (int r = 0; r < s->nr; ++r)
              for (int d = 0; d < 6; ++d)
                t.emplace_back(s->row[k] + r, lay.dof_begin[b] + d,
                               s->J[(sl * s->nr * 6 + 6 * r + d) * s->n + k]);
          }
      SpMat back(p.num_rows(), p.num_dofs());
      back.setFromTriplets(t.begin(), t.end());
      const SpMat diff = (back - p0.J).pruned();
      EXPECT_EQ(diff.nonZeros(), 0) << p0.meta.name << " compressed " << compressed;
    }
  }
}

// A nonzero of J in the columns of a body that none of its constraint's blocks names: J and the
// structure disagree. `col` is the column given the entry.
ContactProblem JOutsideTheBlocks(int& col) {
  ContactProblem p = SceneFrame("sliding_cubes", "cubes=9", 4);
  std::set<int> bodies;
  for (const auto& blk : p.structure.blocks)
    if (blk.constraint == 0) bodies.insert(p.structure.bodies[blk.body].subsystem);
  int other = 0;
  while (bodies.count(other)) ++other;
  col = p.structure.subsystems[other].dof_begin;
  p.J.coeffRef(p.constraints[0].row, col) = 0.5;
  return p;
}

// The layout says where instead of dropping the entry.
TEST(RigidLayout, JOutsideTheBlocksIsRefused) {
  int col = 0;
  const ContactProblem p = JOutsideTheBlocks(col);
  gpu::RigidLayout lay;
  const std::string why = gpu::BuildRigidLayout(p, lay);
  EXPECT_NE(why.find(fmt::format("J column {}", col)), std::string::npos) << why;
}

// A structure whose block names a constraint or body that does not exist is refused with both
// numbers, not read out of bounds.
TEST(RigidLayout, BlockOutOfRangeIsRefused) {
  ContactProblem p = SceneFrame("sliding_cubes", "cubes=9", 4);
  p.structure.blocks.back().constraint = p.num_constraints();
  gpu::RigidLayout lay;
  const std::string why = gpu::BuildRigidLayout(p, lay);
  EXPECT_NE(why.find("out of range"), std::string::npos) << why;
  EXPECT_NE(why.find(std::to_string(p.num_constraints())), std::string::npos) << why;
}

// ---- The device's chunk of iterations (rigid_chunk.h) with emulated threads, on the host -----

// The kernel's phases run for `threads` emulated threads in barrier order (each phase for every
// thread, then the next), the reductions done as the warps' atomics do them. After each β rule
// every thread's scalars must be the same (else the device's threads would part at a barrier).
struct EmulatedChunk {
  gpu::RigidLayout lay;
  gpu::BodyView b;
  gpu::ConstraintView c, j;
  gpu::ChunkScratch x{};
  std::vector<gpu::Scalars> s;
  int n = 0, m = 0;

  // The CPU path's setup (the device's setup kernel does the same steps).
  EmulatedChunk(const ContactProblem& p, int threads) {
    EXPECT_EQ(gpu::BuildRigidLayout(p, lay), "");
    n = p.num_dofs(), m = p.num_rows();
    lay.SetState(Vec::Zero(n), Vec::Zero(m));
    b = lay.Bodies(), c = lay.contacts.View(), j = lay.joints.View();
    const SolverEntry& e = FindSolver("subadmm-rigid-cpu");
    gpu::Scalars s0 = gpu::InitialScalars(p, Settings::Parse(e.name, e.settings, {}));
    EXPECT_TRUE(gpu::SetupOnHost(b, c, j, s0));
    s.assign(threads, s0);
  }

  // Bit patterns, so that equal NaNs (a stopped chunk's residuals) compare equal.
  static auto Key(const gpu::Scalars& t) {
    auto bits = [](double d) {
      std::uint64_t u;
      std::memcpy(&u, &d, sizeof u);
      return u;
    };
    return std::make_tuple(bits(t.beta), bits(t.inv_beta), bits(t.scale), t.iter, t.refactor,
                           t.refactorizations, t.nonfinite, t.factor_failed, t.spacing,
                           t.next_change, t.last_dir, bits(t.theta_p), bits(t.theta_d),
                           bits(t.theta_y));
  }
  void ExpectUniform(const char* where) {
    for (const gpu::Scalars& t : s)
      ASSERT_TRUE(Key(t) == Key(s[0])) << where << " at " << s[0].iter;
  }

  // Up to k ≥ 1 iterations in the kernel's order (gpu/cuda/rigid_device.cu); returns how many
  // ran (the last one may have stopped the chunk).
  int Run(int k) {
    const int T = static_cast<int>(s.size());
    for (int t = 0; t < T; ++t) gpu::ChunkBodies(b, s[t], &x, t, T);
    int it = 0;
    for (; it < k; ++it) {
      const int slot = gpu::Slot(s[0].iter);
      const bool next = it + 1 < k;
      for (int t = 0; t < T; ++t) {
        double tp2 = 0.0, ty = 0.0;
        gpu::ChunkConstraints(c, j, b, s[t], &x, t, T, tp2, ty);
        gpu::MaxTo(&x.tp2_bits[slot], tp2), gpu::AddTo(&x.ty[slot], ty);
      }
      for (int t = 0; t < T; ++t)
        gpu::MaxTo(&x.td_bits[slot], gpu::ChunkResidual(b, s[t], &x, t, T, next));
      bool stop = false;
      for (int t = 0; t < T; ++t) stop = gpu::ChunkAdapt(s[t], &x);
      ExpectUniform("after the beta rule");
      if (stop) return it + 1;
      if (s[0].refactor) {
        for (int t = 0; t < T; ++t) gpu::ChunkFactor(b, s[t], &x, t, T, next);
        for (int t = 0; t < T; ++t) stop = gpu::ChunkFactorFailed(s[t], &x);
        ExpectUniform("after the refactorization");
        if (stop) return it + 1;
        if (next)
          for (int t = 0; t < T; ++t) gpu::ChunkRedoBodies(b, s[t], &x, t, T);
      }
    }
    return it;
  }
  void Current(Vec& v, Vec& l) {
    v.resize(n), l.resize(m);
    lay.GetState(v, l);
  }
};

// The device's chunk logic (slots, flags, every thread's own β rule, the refactorization
// barrier), run for 1, 3 and 64 emulated threads in two chunks of 60: the CPU path's iterates
// after 120 iterations to 1e-12 (only the accumulation order differs), the same β changes.
TEST(RigidChunkPhases, EmulatedThreadsEqualTheCpuPath) {
  int most_refactorizations = 0;
  for (const ContactProblem& p : {SceneFrame("sliding_cubes", "cubes=25", 12),
                                  SceneFrame("vertical_stacks", "stacks=4", 40), Manufactured(41)})
    for (int threads : {1, 3, 64}) {
      EmulatedChunk chunk(p, threads);
      EXPECT_EQ(chunk.Run(60), 60);
      EXPECT_EQ(chunk.Run(60), 60);
      auto cpu = Start(p, "subadmm-rigid-cpu", "");
      for (int k = 0; k < 120; ++k) ASSERT_EQ(cpu->Iterate(), Status::kRunning);
      Vec va, la, vb, lb;
      cpu->Current(va, la), chunk.Current(vb, lb);
      EXPECT_LE(Rel(vb, va), 1e-12) << p.meta.name << " " << threads << " threads";
      EXPECT_LE(Rel(lb, la), 1e-12) << p.meta.name << " " << threads << " threads";
      EXPECT_EQ(chunk.s[0].refactorizations, InfoValue(*cpu, "refactorizations")) << p.meta.name;
      EXPECT_EQ(chunk.s[0].iter, 120);
      most_refactorizations = std::max(most_refactorizations, chunk.s[0].refactorizations);
    }
  EXPECT_GT(most_refactorizations, 1);  // the β rule's refactorization barrier was exercised
}

// A non-finite value stops the chunk after the iteration that produced it, on every thread.
TEST(RigidChunkPhases, NonFiniteStopsEveryThreadAfterOneIteration) {
  ContactProblem p = Manufactured(43);
  p.b[3] = std::nan("");
  EmulatedChunk chunk(p, 5);
  EXPECT_EQ(chunk.Run(50), 1);
  for (const gpu::Scalars& t : chunk.s) EXPECT_EQ(t.nonfinite, 1);
}

// ---- GPU: needs a CUDA build and a device; skipped with the reason otherwise. ----------------

bool GpuAvailable(std::string& why) {
#ifdef NCPBENCH_HAVE_CUDA
  if (gpu::CudaDeviceName().empty()) {
    why = "no CUDA device: the GPU comparison needs one";
    return false;
  }
  return true;
#else
  why = "built without CUDA (NCPBENCH_CUDA=OFF or no nvcc): subadmm-gpu does not exist";
  return false;
#endif
}

TEST(SubAdmmGpu, WithoutDeviceIsNotApplicable) {
#ifndef NCPBENCH_HAVE_CUDA
  GTEST_SKIP() << "built without CUDA: subadmm-gpu is not registered";
#else
  if (!gpu::CudaDeviceName().empty()) GTEST_SKIP() << "a CUDA device is present";
  const SolverEntry& e = FindSolver("subadmm-gpu");
  auto s = e.make();
  const ContactProblem p = Manufactured(44);
  EXPECT_EQ(s->Setup(p, Settings::Parse(e.name, e.settings, {}), nullptr), Status::kNotApplicable);
  EXPECT_EQ(s->message(), "no CUDA device");
#endif
}

// The workspace a solver gives back is the one the next solver takes (its buffers and device
// arrays are reused), and two solvers alive at once hold two. No device needed.
TEST(GpuWorkspacePool, GivenBackIsTakenAgain) {
#ifndef NCPBENCH_HAVE_CUDA
  GTEST_SKIP() << "built without CUDA: no GPU workspaces";
#else
  gpu::GpuWorkspace* first = nullptr;
  {
    gpu::WorkspaceLease a = gpu::TakeWorkspace();
    first = a.get();
    gpu::WorkspaceLease b = gpu::TakeWorkspace();
    EXPECT_NE(a.get(), b.get());
  }
  gpu::WorkspaceLease c = gpu::TakeWorkspace(), d = gpu::TakeWorkspace();
  EXPECT_TRUE(c.get() == first || d.get() == first);
  EXPECT_NE(c.get(), d.get());
#endif
}

class GpuVsCpuPath : public ::testing::TestWithParam<ProblemCase> {};

// Acceptance (GPU): after 120 iterations the GPU iterate equals the CPU path's to 1e-9 relative
// (atomic accumulation order is the only difference).
TEST_P(GpuVsCpuPath, EqualsCpuPathAfter120Iterations) {
  std::string why;
  if (!GpuAvailable(why)) GTEST_SKIP() << why;
  const ContactProblem p = GetParam().make();
  auto cpu = Start(p, "subadmm-rigid-cpu", ""), dev = Start(p, "subadmm-gpu", "");
  ASSERT_TRUE(cpu && dev);
  for (int k = 0; k < 120; ++k) {
    ASSERT_EQ(cpu->Iterate(), Status::kRunning);
    ASSERT_EQ(dev->Iterate(), Status::kRunning) << dev->message();
  }
  Vec va, la, vb, lb;
  cpu->Current(va, la), dev->Current(vb, lb);
  std::printf("%-16s gpu vs cpu path after 120 iterations: |dv|/|v| %.2e, |dl|/|l| %.2e\n",
              GetParam().label, Rel(vb, va), Rel(lb, la));
  EXPECT_LE(Rel(vb, va), 1e-9);
  EXPECT_LE(Rel(lb, la), 1e-9);
}

INSTANTIATE_TEST_SUITE_P(
    Problems, GpuVsCpuPath,
    ::testing::Values(ProblemCase{"sliding_cubes",
                                  [] { return SceneFrame("sliding_cubes", "cubes=100", 12); }},
                      ProblemCase{"vertical_stacks",
                                  [] { return SceneFrame("vertical_stacks", "stacks=4", 40); }},
                      ProblemCase{"manufactured", [] { return Manufactured(45); }}),
    [](const auto& info) { return std::string(info.param.label); });

// Iterate(k): one launch of k iterations equals k launches of one (atomic accumulation order
// aside), with the same β decisions, on every problem of the comparison above.
TEST(SubAdmmGpu, ChunkEqualsSingleIterations) {
  std::string why;
  if (!GpuAvailable(why)) GTEST_SKIP() << why;
  for (const ContactProblem& p :
       {SceneFrame("sliding_cubes", "cubes=100", 12), SceneFrame("vertical_stacks", "stacks=4", 40),
        Manufactured(45)}) {
    auto single = Start(p, "subadmm-gpu", ""), chunk = Start(p, "subadmm-gpu", "");
    ASSERT_TRUE(single && chunk);
    for (int k = 0; k < 120; ++k) ASSERT_EQ(single->Iterate(), Status::kRunning);
    int done = 0;
    ASSERT_EQ(chunk->IterateChunk(120, done), Status::kRunning) << chunk->message();
    EXPECT_EQ(done, 120);
    Vec va, la, vb, lb;
    single->Current(va, la), chunk->Current(vb, lb);
    std::printf("%-16s chunk of 120 vs 120 single iterations: |dv|/|v| %.2e, |dl|/|l| %.2e\n",
                p.meta.name.c_str(), Rel(vb, va), Rel(lb, la));
    EXPECT_LE(Rel(vb, va), 1e-9);
    EXPECT_LE(Rel(lb, la), 1e-9);
    EXPECT_EQ(InfoValue(*single, "refactorizations"), InfoValue(*chunk, "refactorizations"));
  }
}

// The device scatters J itself: the same disagreement makes subadmm-gpu not applicable.
TEST(SubAdmmGpu, JOutsideTheBlocksIsNotApplicable) {
  std::string why;
  if (!GpuAvailable(why)) GTEST_SKIP() << why;
  int col = 0;
  const ContactProblem p = JOutsideTheBlocks(col);
  const SolverEntry& e = FindSolver("subadmm-gpu");
  auto s = e.make();
  EXPECT_EQ(s->Setup(p, Settings::Parse(e.name, e.settings, {}), nullptr), Status::kNotApplicable);
  EXPECT_NE(s->message().find("structure blocks"), std::string::npos) << s->message();
}

// A chunk stops after the iteration that produced a non-finite value, as single calls do.
TEST(SubAdmmGpu, ChunkStopsWhereSingleIterationsStop) {
  std::string why;
  if (!GpuAvailable(why)) GTEST_SKIP() << why;
  ContactProblem p = Manufactured(43);
  p.b[3] = std::nan("");
  auto single = Start(p, "subadmm-gpu", ""), chunk = Start(p, "subadmm-gpu", "");
  EXPECT_EQ(single->Iterate(), Status::kDiverged);
  int done = 0;
  EXPECT_EQ(chunk->IterateChunk(50, done), Status::kDiverged);
  EXPECT_EQ(done, 1);
  EXPECT_EQ(chunk->message(), "non-finite iterate");
}

// The device arrays kept between solvers: a larger problem, then a smaller and a larger one
// again, each still equal to the CPU path (nothing of the previous problem leaks in).
TEST(SubAdmmGpu, WorkspaceReusedAcrossSizes) {
  std::string why;
  if (!GpuAvailable(why)) GTEST_SKIP() << why;
  for (const ContactProblem& p : {SceneFrame("sliding_cubes", "cubes=100", 12), Manufactured(47),
                                  SceneFrame("sliding_cubes", "cubes=49", 12),
                                  SceneFrame("sliding_cubes", "cubes=100", 12)}) {
    auto cpu = Start(p, "subadmm-rigid-cpu", ""), dev = Start(p, "subadmm-gpu", "");
    ASSERT_TRUE(cpu && dev);
    int done = 0;
    for (int k = 0; k < 60; ++k) ASSERT_EQ(cpu->Iterate(), Status::kRunning);
    ASSERT_EQ(dev->IterateChunk(60, done), Status::kRunning) << dev->message();
    Vec va, la, vb, lb;
    cpu->Current(va, la), dev->Current(vb, lb);
    EXPECT_LE(Rel(vb, va), 1e-9) << p.meta.name;
    EXPECT_LE(Rel(lb, la), 1e-9) << p.meta.name;
  }
}

}  // namespace
}  // namespace ncp
