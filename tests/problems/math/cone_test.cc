// Property tests of the friction-cone operators on 10⁵ random points (order [n, t1, t2]).
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "problems/math/cone.h"

namespace ncp {
namespace {

constexpr int kDraws = 100000;
constexpr double kConeTol = 1e-12;

struct Sample {
  double mu;
  double x[3];
};

// Mixed scales and all regions (inside, polar cone, in between, on the axis).
Sample DrawSample(std::mt19937_64& rng) {
  std::normal_distribution<double> g;
  std::uniform_real_distribution<double> u(-3, 3);
  Sample s;
  s.mu = std::uniform_real_distribution<double>(0.0, 2.0)(rng);
  const double scale = std::pow(10.0, u(rng));
  for (double& v : s.x) v = scale * g(rng);
  if (rng() % 10 == 0) s.x[1] = s.x[2] = 0.0;
  return s;
}

bool InCone(double mu, const double* y, double tol) {
  return y[0] >= -tol && std::hypot(y[1], y[2]) <= mu * y[0] + tol;
}

double Dot(const double* a, const double* b) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }
double Norm(const double* a) { return std::sqrt(Dot(a, a)); }

// y = Π(x) of sample k lies in the cone and Π(y) = y, both to kConeTol relative to ‖x‖.
template <typename Project>
void ExpectInsideAndIdempotent(Project project, const Sample& s, int k, double* y) {
  double yy[3];
  project(s.mu, s.x, y);
  const double scale = std::max(1.0, Norm(s.x));
  ASSERT_TRUE(InCone(s.mu, y, kConeTol * scale)) << "sample " << k;
  project(s.mu, y, yy);
  for (int i = 0; i < 3; ++i) ASSERT_NEAR(yy[i], y[i], kConeTol * scale) << "sample " << k;
}

TEST(ProximalProjection, InsideIdempotentOrthogonal) {
  std::mt19937_64 rng(1);
  for (int k = 0; k < kDraws; ++k) {
    const Sample s = DrawSample(rng);
    double y[3];
    ASSERT_NO_FATAL_FAILURE(ExpectInsideAndIdempotent(ProjectProximal, s, k, y));
    const double scale = std::max(1.0, Norm(s.x));
    // Moreau: x − Π(x) lies in the polar cone and is orthogonal to Π(x).
    const double r[3] = {s.x[0] - y[0], s.x[1] - y[1], s.x[2] - y[2]};
    ASSERT_NEAR(Dot(r, y), 0.0, kConeTol * scale * scale) << "sample " << k;
    // Variational inequality against random cone members: ⟨x − Πx, c − Πx⟩ ≤ 0.
    std::uniform_real_distribution<double> u(0, 1);
    const double cn = u(rng) * scale, ang = 6.283185307179586 * u(rng), rad = u(rng) * s.mu * cn;
    const double c[3] = {cn - y[0], rad * std::cos(ang) - y[1], rad * std::sin(ang) - y[2]};
    ASSERT_LE(Dot(r, c), kConeTol * scale * scale) << "sample " << k;
  }
}

TEST(ProximalProjection, MatchesNearestPointOnBoundaryRay) {
  // Against an independent computation: the nearest point of the cone is either x, 0, or the
  // nearest point on the boundary ray through x's tangential direction.
  std::mt19937_64 rng(2);
  for (int k = 0; k < kDraws; ++k) {
    const Sample s = DrawSample(rng);
    double y[3];
    ProjectProximal(s.mu, s.x, y);
    const double tn = std::hypot(s.x[1], s.x[2]);
    double best[3] = {0, 0, 0};
    if (InCone(s.mu, s.x, 0)) {
      for (int i = 0; i < 3; ++i) best[i] = s.x[i];
    } else if (tn > 0) {
      // Ray direction d = (1, μ t/‖t‖)/√(1+μ²); projection onto the ray, clamped at 0.
      const double d[3] = {1.0 / std::sqrt(1 + s.mu * s.mu),
                           s.mu * s.x[1] / tn / std::sqrt(1 + s.mu * s.mu),
                           s.mu * s.x[2] / tn / std::sqrt(1 + s.mu * s.mu)};
      const double a = std::max(0.0, Dot(s.x, d));
      for (int i = 0; i < 3; ++i) best[i] = a * d[i];
    }
    const double scale = std::max(1.0, Norm(s.x));
    for (int i = 0; i < 3; ++i) ASSERT_NEAR(y[i], best[i], 1e-10 * scale) << "sample " << k;
  }
}

TEST(StrictOperator, InsideAndIdempotent) {
  std::mt19937_64 rng(3);
  for (int k = 0; k < kDraws; ++k) {
    const Sample s = DrawSample(rng);
    double y[3];
    ASSERT_NO_FATAL_FAILURE(ExpectInsideAndIdempotent(ProjectStrict, s, k, y));
  }
}

// Prop. 2 of 004: λ = Π_strict(λ*) solves βz = βJv̂ + u + λ with (z, λ) ∈ S_c (004:13 with 004:5),
// i.e. with w = (λ − λ*)/β standing for (z_n + e_n, z_t):
//   0 ≤ λ_n ⟂ w_n ≥ 0,  0 ≤ δ ⟂ μλ_n − ‖λ_t‖ ≥ 0,  δ λ_t + μ λ_n w_t = 0 for some δ.
TEST(StrictOperator, SolvesSurrogateConditionsOf004Eq13) {
  std::mt19937_64 rng(4);
  for (int k = 0; k < kDraws; ++k) {
    const Sample s = DrawSample(rng);
    const double beta = std::pow(10.0, std::uniform_real_distribution<double>(-3, 3)(rng));
    double y[3];
    ProjectStrict(s.mu, s.x, y);
    const double w[3] = {(y[0] - s.x[0]) / beta, (y[1] - s.x[1]) / beta, (y[2] - s.x[2]) / beta};
    const double scale = std::max(1.0, Norm(s.x));
    const double tol = 1e-12 * scale * std::max(1.0, 1.0 / beta);
    ASSERT_GE(y[0], 0.0);
    ASSERT_GE(w[0], -tol) << "sample " << k;
    ASSERT_NEAR(y[0] * w[0], 0.0, tol * scale) << "sample " << k;
    const double gap = s.mu * y[0] - std::hypot(y[1], y[2]);
    ASSERT_GE(gap, -tol) << "sample " << k;
    const double mln = s.mu * y[0];
    if (gap > 1e-9 * scale) {
      // Interior: δ = 0, so μλ_n w_t = 0 ⇒ w_t = 0 (λ_n > 0 here).
      ASSERT_NEAR(w[1], 0.0, tol) << "sample " << k;
      ASSERT_NEAR(w[2], 0.0, tol) << "sample " << k;
    } else if (mln > 1e-9 * scale) {
      // Boundary: w_t = −(δ / μλ_n) λ_t with δ ≥ 0, recovered by least squares.
      const double tt = y[1] * y[1] + y[2] * y[2];
      const double delta = -mln * (w[1] * y[1] + w[2] * y[2]) / tt;
      ASSERT_GE(delta, -tol * scale) << "sample " << k;
      ASSERT_NEAR(delta * y[1] + mln * w[1], 0.0, 1e-9 * scale * scale) << "sample " << k;
      ASSERT_NEAR(delta * y[2] + mln * w[2], 0.0, 1e-9 * scale * scale) << "sample " << k;
    }
  }
}

// Uniqueness (Prop. 2): every (λ, w) that satisfies the conditions, built by status (open,
// stick, slip), is recovered from λ* = λ − β w — no other solution exists for that λ*.
TEST(StrictOperator, RecoversEveryConstructedSolution) {
  std::mt19937_64 rng(5);
  std::uniform_real_distribution<double> u(0, 1);
  for (int k = 0; k < kDraws; ++k) {
    const double mu = 2 * u(rng), beta = std::pow(10.0, 6 * u(rng) - 3);
    const double ang = 6.283185307179586 * u(rng), c = std::cos(ang), sn = std::sin(ang);
    double lam[3] = {0, 0, 0}, w[3] = {0, 0, 0};
    switch (k % 3) {
      case 0:  // open: λ = 0, w_n > 0, any w_t
        w[0] = u(rng), w[1] = u(rng) - 0.5, w[2] = u(rng) - 0.5;
        break;
      case 1:  // stick: λ strictly inside, w = 0
        lam[0] = u(rng) + 0.1, lam[1] = 0.9 * u(rng) * mu * lam[0] * c,
        lam[2] = 0.9 * u(rng) * mu * lam[0] * sn;
        break;
      case 2:  // slip: λ on the boundary, w_n = 0, w_t = −γ λ_t with γ > 0
        lam[0] = u(rng) + 0.1, lam[1] = mu * lam[0] * c, lam[2] = mu * lam[0] * sn;
        {
          const double gamma = u(rng) + 0.01;
          w[1] = -gamma * lam[1], w[2] = -gamma * lam[2];
          break;
        }
    }
    const double x[3] = {lam[0] - beta * w[0], lam[1] - beta * w[1], lam[2] - beta * w[2]};
    double y[3];
    ProjectStrict(mu, x, y);
    const double scale = std::max({1.0, beta, Norm(x)});
    for (int i = 0; i < 3; ++i) ASSERT_NEAR(y[i], lam[i], 1e-12 * scale) << "sample " << k;
  }
}

}  // namespace
}  // namespace ncp

namespace ncp {
namespace {

// μ = 0: the cone is the ray t = 0, n ≥ 0; a pulling normal force is never inside it.
TEST(ProximalProjection, FrictionlessConeNeverPulls) {
  const double x[3] = {-0.04, 0.0, 0.0};
  double y[3];
  ProjectProximal(0.0, x, y);
  EXPECT_EQ(y[0], 0.0);
  const double z[3] = {2.0, 1.0, -1.0};
  ProjectProximal(0.0, z, y);
  EXPECT_EQ(y[0], 2.0);
  EXPECT_EQ(y[1], 0.0);
  EXPECT_EQ(y[2], 0.0);
}

}  // namespace
}  // namespace ncp
