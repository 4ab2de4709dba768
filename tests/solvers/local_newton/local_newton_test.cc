// local-newton (Alart–Curnier nonsmooth Newton with proximal fallback): solves fclib local
// problems (rank-deficient and non-symmetric W), perturbed non-symmetric W and manufactured
// problems in global and local form to natmap_rel ≤ 1e-8, measured by the harness evaluator.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <limits>
#include <string>

#include "harness/metrics/evaluator.h"
#include "problems/io/fclib_io.h"
#include "solvers/common/dual_problem.h"
#include "solvers/local_newton/local_newton.h"
#include "solvers/registry.h"
#include "tests/fclib_samples.h"
#include "tests/solver_info.h"
#include "tests/test_problems.h"

namespace ncp {
namespace {

constexpr double kTol = 1e-8;  // natmap_rel, the target of the task (Acary et al. 2018)

struct NewtonOutcome {
  Status status = Status::kRunning;
  int iterations = 0;
  double natmap_rel = std::numeric_limits<double>::infinity();
  Vec lambda;
  double prox_entries = 0.0;
};

using testing::InfoValue;

// Plain loop of Iterate() until natmap_rel ≤ tol, a non-running status or max_iters.
NewtonOutcome SolveNewton(const ContactProblem& p, int max_iters, const std::string& settings = "",
                          const WarmStart* warm = nullptr) {
  const SolverEntry& e = FindSolver("local-newton");
  auto solver = e.make();
  NewtonOutcome o;
  o.status =
      solver->Setup(p, Settings::Parse("local-newton", e.settings, ParseKeyValues(settings)), warm);
  if (o.status != Status::kRunning) return o;
  const Evaluator ev(p);
  Vec v;
  for (o.iterations = 0; o.iterations <= max_iters; ++o.iterations) {
    solver->Current(v, o.lambda);
    o.natmap_rel = ev.Evaluate(v, o.lambda)[Metric::kNatmapRel];
    if (o.natmap_rel <= kTol || o.iterations == max_iters) break;
    o.status = solver->Iterate();
    if (o.status != Status::kRunning) break;
  }
  o.prox_entries = InfoValue(*solver, "prox_entries");
  return o;
}

double Asymmetry(const SpMat& W) {
  const SpMat D = W - SpMat(W.transpose());
  return D.coeffs().cwiseAbs().maxCoeff() / W.coeffs().cwiseAbs().maxCoeff();
}

class Fclib : public ::testing::TestWithParam<const char*> {};

TEST_P(Fclib, SolvesToNatmap1e8) {
  const ContactProblem p = ReadFclib(testing::FclibSample(GetParam()));
  ASSERT_EQ(p.form, ProblemForm::kLocal);
  const NewtonOutcome o = SolveNewton(p, 300);
  std::printf("%s: %d iterations, natmap_rel %.3e, prox entries %g, asymmetry %.1e\n", GetParam(),
              o.iterations, o.natmap_rel, o.prox_entries, Asymmetry(p.W));
  EXPECT_EQ(o.status, Status::kRunning);
  EXPECT_LE(o.natmap_rel, kTol);
}

INSTANTIATE_TEST_SUITE_P(LocalSamples, Fclib,
                         ::testing::Values("LMGC_100_PR_PerioBox-i00361-60-03000.hdf5",
                                           "local_problem_test.hdf5", "Rover4493.hdf5"),
                         [](const auto& info) {
                           std::string s = info.param;
                           s = s.substr(0, s.find('.'));
                           for (char& c : s)
                             if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
                           return s;
                         });

TEST(LocalNewton, RoverWIsNotSymmetric) {
  // The sample matters because its W is not symmetric: the solver must use W as stored.
  const ContactProblem p = ReadFclib(std::string(NCP_FCLIB_DIR) + "/Rover4493.hdf5");
  EXPECT_GT(Asymmetry(p.W), 1e-7);
}

// The local (Delassus) form of a contacts-only global problem: W = J A⁻¹ Jᵀ, q = J A⁻¹ b + e.
ContactProblem LocalForm(const ContactProblem& g) {
  const DualProblem d = MakeDualProblem(g);
  ContactProblem p;
  p.form = ProblemForm::kLocal;
  p.constraints = g.constraints;
  p.W = d.W;
  p.q = d.q;
  p.reference = g.reference;
  return p;
}

// Each contact of g repeated `copies` times (same rows of J and e): rows exceed dofs, W is rank
// deficient, and splitting each λ*_i evenly over its copies is an exact solution.
ContactProblem Replicated(const ContactProblem& g, int copies) {
  ContactProblem p;
  p.form = ProblemForm::kGlobal;
  p.A = g.A;
  p.b = g.b;
  const int m = g.num_rows(), n = g.num_dofs();
  std::vector<Eigen::Triplet<double>> t;
  p.e = Vec(m * copies);
  Vec lambda(m * copies);
  for (const Constraint& c : g.constraints) {
    for (int k = 0; k < copies; ++k) {
      const int at = AddConstraint(p.constraints, c.type, c.mu, c.stiffness, c.damping);
      const int row = p.constraints[at].row;
      for (int a = 0; a < c.rows(); ++a) {
        p.e[row + a] = g.e[c.row + a];
        lambda[row + a] = g.reference->lambda[c.row + a] / copies;
      }
    }
  }
  std::vector<std::vector<std::pair<int, double>>> rows(m);  // row r of J: (column, value)
  for (int k = 0; k < g.J.outerSize(); ++k)
    for (SpMat::InnerIterator it(g.J, k); it; ++it)
      rows[it.row()].push_back({it.col(), it.value()});
  int out = 0;
  for (const Constraint& c : g.constraints)
    for (int k = 0; k < copies; ++k)
      for (int a = 0; a < c.rows(); ++a, ++out)
        for (const auto& [col, v] : rows[c.row + a]) t.emplace_back(out, col, v);
  p.J = SpMat(m * copies, n);
  p.J.setFromTriplets(t.begin(), t.end());
  p.reference = Reference{g.reference->v, lambda, "manufactured", -1.0};
  return p;
}

ManufacturedOptions ContactsOnly(std::uint64_t seed, int bodies, int contacts, double mass_ratio) {
  ManufacturedOptions o;
  o.seed = seed;
  o.num_bodies = bodies;
  o.num_contacts = contacts;
  o.num_unilateral = o.num_bilateral = o.num_soft = 0;
  o.mass_ratio = mass_ratio;
  return o;
}

// Entries of W perturbed by ε · max|W| · (uniform in [−1, 1], independently per entry, fixed
// LCG), so W loses its symmetry by about ε.
void Perturb(SpMat& W, double eps) {
  const double wmax = W.coeffs().cwiseAbs().maxCoeff();
  std::uint64_t state = 12345;
  for (int k = 0; k < W.outerSize(); ++k)
    for (SpMat::InnerIterator it(W, k); it; ++it) {
      state = state * 6364136223846793005ULL + 1442695040888963407ULL;
      const double unit = static_cast<double>(state >> 11) * 0x1.0p-53 * 2.0 - 1.0;
      it.valueRef() += eps * wmax * unit;
    }
}

// The Delassus form of a manufactured problem (W SPD, dense: 90 rows on 240 dofs) and the
// Rover4493 export, perturbed; natmap measured on the perturbed W.
class Perturbed : public ::testing::TestWithParam<double> {};

TEST_P(Perturbed, NonSymmetricWSolved) {
  const double eps = GetParam();
  ContactProblem manufactured =
      LocalForm(MakeManufacturedProblem(ContactsOnly(8, 40, 30, 10.0), "p"));
  ContactProblem rover = ReadFclib(std::string(NCP_FCLIB_DIR) + "/Rover4493.hdf5");
  for (ContactProblem* p : {&manufactured, &rover}) {
    Perturb(p->W, eps);
    ASSERT_GT(Asymmetry(p->W), 0.1 * eps);
    const NewtonOutcome o = SolveNewton(*p, 200);
    std::printf("eps %.0e %s: %d iterations, natmap_rel %.3e, prox entries %g\n", eps,
                p == &rover ? "Rover4493" : "manufactured", o.iterations, o.natmap_rel,
                o.prox_entries);
    EXPECT_EQ(o.status, Status::kRunning);
    EXPECT_LE(o.natmap_rel, kTol) << (p == &rover ? "Rover4493" : "manufactured");
  }
}

INSTANTIATE_TEST_SUITE_P(Eps, Perturbed, ::testing::Values(1e-8, 1e-6, 1e-4, 1e-2),
                         [](const auto& info) {
                           return "eps1em" + std::to_string(static_cast<int>(
                                                 std::lround(-std::log10(info.param))));
                         });

double RelError(const Vec& x, const Vec& ref) {
  return (x - ref).lpNorm<Eigen::Infinity>() / ref.lpNorm<Eigen::Infinity>();
}

TEST(LocalNewton, ManufacturedGlobalEveryRowTypeMatchesKnownSolution) {
  for (std::uint64_t seed : {1, 2, 3}) {
    for (const char* solver : {"linear_solver=dense", "linear_solver=sparse"}) {
      const ContactProblem p = MakeManufacturedProblem(testing::AcceptanceOptions(seed), "a");
      const NewtonOutcome o = SolveNewton(p, 100, solver);
      std::printf("global seed %llu %s: %d iterations, natmap_rel %.3e, |λ−λ*|/|λ*| %.2e\n",
                  static_cast<unsigned long long>(seed), solver, o.iterations, o.natmap_rel,
                  RelError(o.lambda, p.reference->lambda));
      EXPECT_LE(o.natmap_rel, kTol) << "seed " << seed << " " << solver;
      // J has full row rank (170 rows, 360 dofs): W is SPD and λ* is the unique solution.
      EXPECT_LE(RelError(o.lambda, p.reference->lambda), 1e-6) << "seed " << seed;
    }
  }
}

TEST(LocalNewton, ManufacturedLocalFormMassRatio1e4MatchesKnownSolution) {
  for (std::uint64_t seed : {4, 5}) {
    const ContactProblem g = MakeManufacturedProblem(ContactsOnly(seed, 40, 30, 1e4), "m");
    const ContactProblem p = LocalForm(g);
    const NewtonOutcome o = SolveNewton(p, 100);
    std::printf("local seed %llu (mass ratio 1e4): %d iterations, natmap_rel %.3e, err %.2e\n",
                static_cast<unsigned long long>(seed), o.iterations, o.natmap_rel,
                RelError(o.lambda, p.reference->lambda));
    EXPECT_LE(o.natmap_rel, kTol) << "seed " << seed;
    EXPECT_LE(RelError(o.lambda, p.reference->lambda), 1e-5) << "seed " << seed;
  }
}

TEST(LocalNewton, RankDeficientMassRatio1e4GlobalAndLocal) {
  // 8 bodies (48 dofs), 8 contacts, each repeated 3 times: 72 contact rows on 48 dofs.
  for (std::uint64_t seed : {6, 7}) {
    const ContactProblem g0 = MakeManufacturedProblem(ContactsOnly(seed, 8, 8, 1e4), "r");
    const ContactProblem g = Replicated(g0, 3);
    ASSERT_GT(g.num_rows(), g.num_dofs());
    {  // the constructed λ* is exact
      const Evaluator ev(g);
      EXPECT_LE(ev.Evaluate(Vec(), g.reference->lambda)[Metric::kNatmapRel], 1e-10);
    }
    for (const ContactProblem& p : {g, LocalForm(g)}) {
      const NewtonOutcome o = SolveNewton(p, 300);
      std::printf("rank-deficient seed %llu %s: %d iterations, natmap_rel %.3e, prox %g\n",
                  static_cast<unsigned long long>(seed),
                  p.form == ProblemForm::kLocal ? "local" : "global", o.iterations, o.natmap_rel,
                  o.prox_entries);
      EXPECT_EQ(o.status, Status::kRunning);
      EXPECT_LE(o.natmap_rel, kTol) << "seed " << seed;
    }
  }
}

TEST(LocalNewton, ProximalModeAloneConverges) {
  // Proximal mode from the first iteration: its iterates must reach a solution of the
  // original problem (σ shrinks, the center follows).
  const ContactProblem p = ReadFclib(std::string(NCP_FCLIB_DIR) + "/local_problem_test.hdf5");
  const NewtonOutcome o = SolveNewton(p, 300, "proximal=always");
  std::printf("forced prox: %d iterations, natmap_rel %.3e, prox entries %g\n", o.iterations,
              o.natmap_rel, o.prox_entries);
  EXPECT_GE(o.prox_entries, 1.0);
  EXPECT_LE(o.natmap_rel, kTol);
}

TEST(LocalNewton, NonFiniteInputsGiveDiverged) {
  ContactProblem p = testing::OneContactLocalProblem();
  const SolverEntry& e = FindSolver("local-newton");
  const Settings s = Settings::Parse("local-newton", e.settings, {});
  {
    p.W.coeffRef(0, 0) = std::nan("");
    LocalNewtonSolver solver;
    const Status st = solver.Setup(p, s, nullptr);
    if (st == Status::kRunning) {
      EXPECT_EQ(solver.Iterate(), Status::kDiverged);
      EXPECT_FALSE(solver.message().empty());
    } else {
      EXPECT_EQ(st, Status::kFailed);
    }
  }
  {
    const ContactProblem q = testing::OneContactLocalProblem();
    WarmStart warm;
    warm.lambda = Vec::Constant(3, std::numeric_limits<double>::infinity());
    LocalNewtonSolver solver;
    ASSERT_EQ(solver.Setup(q, s, &warm), Status::kRunning);
    EXPECT_EQ(solver.Iterate(), Status::kDiverged);
    EXPECT_NE(solver.message().find("non-finite"), std::string::npos) << solver.message();
  }
}

TEST(LocalNewton, SettingsValidated) {
  const SolverEntry& e = FindSolver("local-newton");
  EXPECT_ANY_THROW(Settings::Parse("local-newton", e.settings, {{"prox_shrink", "1.5"}}));
  EXPECT_ANY_THROW(Settings::Parse("local-newton", e.settings, {{"nonmonotone", "0"}}));
  EXPECT_ANY_THROW(Settings::Parse("local-newton", e.settings, {{"linear_solver", "qr"}}));
}

}  // namespace
}  // namespace ncp
