// The M48×5 thread field against brute force on a dense sampling of the helicoidal thread surface
// and against finite differences.
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "common/error.h"
#include "problems/physics/sdf/thread_sdf.h"

namespace ncp::physics {
namespace {

using V3 = Eigen::Vector3d;

// A boundary point of the profile in the helical section, by arc parameter u ∈ [0, 1) per
// period (root flat, rising flank, crest flat, falling flank), shifted by whole periods.
Eigen::Vector2d ProfilePoint(const ThreadSdf& t, double u) {
  const double P = t.pitch(), k = std::floor(u);
  const double zeta = (u - k) * P - P / 2.0 + k * P;
  return {t.ProfileRadius(zeta), zeta};
}

// Distance from p to the surface S(θ, u) = (ρ cos θ, ρ sin θ, ζ + Pθ/2π), by a coarse sweep and
// a fine one around the best sample (steps 40 µm, then 1 µm in arc length).
double BruteForce(const ThreadSdf& t, const V3& p) {
  const double P = t.pitch(), rp = std::hypot(p.x(), p.y()), tp = std::atan2(p.y(), p.x());
  const double zeta_p = p.z() - P * tp / (2.0 * M_PI);
  auto dist = [&](double th, double u) {
    const Eigen::Vector2d q = ProfilePoint(t, u);
    const V3 s(q.x() * std::cos(th), q.x() * std::sin(th), q.y() + P * th / (2.0 * M_PI));
    return (s - p).norm();
  };
  double best = 1e300, bt = tp, bu = 0.0;
  auto sweep = [&](double th0, double th1, double dth, double u0, double u1, double du) {
    for (double th = th0; th <= th1; th += dth)
      for (double u = u0; u <= u1; u += du)
        if (const double d = dist(th, u); d < best) best = d, bt = th, bu = u;
  };
  const double u_c = (zeta_p + P / 2.0) / P;  // the section's own period
  sweep(tp - 0.15, tp + 0.15, 40e-6 / rp, u_c - 1.0, u_c + 1.0, 40e-6 / P);
  sweep(bt - 60e-6 / rp, bt + 60e-6 / rp, 1e-6 / rp, bu - 60e-6 / P, bu + 60e-6 / P, 0.25e-6 / P);
  return best;
}

TEST(ThreadSdf, M48x5ProfileHasTheIsoDiameters) {
  const ThreadSdf t = ThreadSdf::M48x5();
  EXPECT_NEAR(2 * t.major_radius(), 0.048, 1e-15);
  EXPECT_NEAR(2 * t.minor_radius(), 0.048 - 1.082532 * 0.005, 1e-8);  // ISO 724 basic d1
  // The pitch diameter d2 = d − 0.649519 P is where the flank width equals the groove width.
  const double r2 = 0.5 * (0.048 - 0.649519 * 0.005);
  EXPECT_NEAR(t.ProfileRadius(0.005 / 4.0), r2, 1e-8);
}

// Acceptance: within 1e-6 m of brute force for points up to 1 mm from the surface.
TEST(ThreadSdf, DistanceMatchesBruteForceNearTheSurface) {
  const ThreadSdf t = ThreadSdf::M48x5();
  std::mt19937_64 rng(12);
  std::uniform_real_distribution<double> ang(-M_PI, M_PI), z(0.03, 0.07), u(0.0, 1.0),
      off(0.2e-3, 1.0e-3), side(-1.0, 1.0);
  double worst = 0.0;
  for (int k = 0; k < 12; ++k) {
    // A surface point, pushed off along the field's gradient by 0.2–1 mm to either side.
    const double th = ang(rng), zz = z(rng);
    const double zeta = zz - t.pitch() * th / (2 * M_PI);
    const double r = t.ProfileRadius(zeta);
    V3 p(r * std::cos(th), r * std::sin(th), zz), g;
    t.Eval(p, &g);
    p += (side(rng) < 0 ? -1.0 : 1.0) * off(rng) * g.normalized();
    const double phi = t.Eval(p, nullptr), brute = BruteForce(t, p);
    worst = std::max(worst, std::abs(std::abs(phi) - brute));
  }
  std::printf("thread: worst | |sdf| - brute force | = %.2e m over 12 points 0.2-1 mm off\n",
              worst);
  EXPECT_LE(worst, 1e-6);
}

TEST(ThreadSdf, GradientMatchesFiniteDifferences) {
  const ThreadSdf t = ThreadSdf::M48x5();
  std::mt19937_64 rng(13);
  std::uniform_real_distribution<double> xy(-0.026, 0.026), z(0.01, 0.09);
  double worst = 0.0;
  int checked = 0;
  for (int k = 0; k < 400 && checked < 300; ++k) {
    const V3 p(xy(rng), xy(rng), z(rng));
    V3 g, fd;
    const double phi = t.Eval(p, &g);
    const double h = 1e-8;
    for (int i = 0; i < 3; ++i) {
      V3 e = V3::Zero();
      e[i] = h;
      fd[i] = (t.Eval(p + e, nullptr) - t.Eval(p - e, nullptr)) / (2 * h);
    }
    // Away from the kinks (medial axis of the profile, the axis): the field is smooth there, so
    // a step of 1e-6 in every direction changes it by the gradient's amount.
    bool smooth = std::hypot(p.x(), p.y()) > 1e-3;
    for (int i = 0; i < 3 && smooth; ++i) {
      V3 e = V3::Zero();
      e[i] = 1e-6;
      smooth = std::abs(t.Eval(p + e, nullptr) - phi - g[i] * 1e-6) < 1e-9;
    }
    if (!smooth) continue;
    worst = std::max(worst, (g - fd).norm());
    ++checked;
  }
  std::printf("thread: worst |grad - finite differences| = %.2e over %d points\n", worst, checked);
  EXPECT_GE(checked, 250);
  EXPECT_LE(worst, 1e-6);
}

TEST(ThreadSdf, RejectsBadGeometry) {
  EXPECT_THROW(ThreadSdf(0.048, 0.0, 0.0, 0.1), Error);
  EXPECT_THROW(ThreadSdf(0.001, 0.005, 0.0, 0.1), Error);
  EXPECT_THROW(ThreadSdf(0.048, 0.005, 0.1, 0.1), Error);
}

}  // namespace
}  // namespace ncp::physics
