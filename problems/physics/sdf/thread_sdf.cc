#include "problems/physics/sdf/thread_sdf.h"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>

#include "common/error.h"

namespace ncp::physics {

ThreadSdf::ThreadSdf(double major_diameter, double pitch, double z0, double z1)
    : r_major_(0.5 * major_diameter), pitch_(pitch), z0_(z0), z1_(z1) {
  if (!(pitch > 0)) throw Error(fmt::format("thread.pitch = {}: must be > 0", pitch));
  const double H = std::sqrt(3.0) / 2.0 * pitch;
  r_minor_ = r_major_ - 5.0 * H / 8.0;
  if (!(r_minor_ > 0))
    throw Error(
        fmt::format("thread.major_diameter = {}: too small for pitch {}", major_diameter, pitch));
  if (!(z1 > z0)) throw Error(fmt::format("thread.z1 = {}: must exceed z0 = {}", z1, z0));
}

double ThreadSdf::ProfileRadius(double zeta) const {
  const double P = pitch_;
  const double a = std::abs(zeta - P * std::round(zeta / P));  // |ζ| folded into [0, P/2]
  if (a <= P / 16.0) return r_major_;                          // crest flat, width P/8
  if (a >= P / 2.0 - P / 8.0) return r_minor_;                 // root flat, width P/4
  return r_major_ - std::sqrt(3.0) * (a - P / 16.0);           // flank at 30° from radial
}

double ThreadSdf::Eval2d(double r, double zeta, double* dr, double* dzeta) const {
  const double P = pitch_;
  const double k = std::round(zeta / P);
  const double z = zeta - k * P;  // in [−P/2, P/2]
  // Boundary segments of one period and its neighbours: root flat, flank, crest, flank.
  double best = 1e300, br = 0.0, bz = 0.0;
  auto segment = [&](double r0, double z0, double r1, double z1) {
    const double er = r1 - r0, ez = z1 - z0;
    const double t = std::clamp(((r - r0) * er + (z - z0) * ez) / (er * er + ez * ez), 0.0, 1.0);
    const double cr = r0 + t * er, cz = z0 + t * ez;
    const double d = std::hypot(r - cr, z - cz);
    if (d < best) best = d, br = r - cr, bz = z - cz;
  };
  for (int j = -1; j <= 1; ++j) {
    const double o = j * P;
    const double c0 = o - P / 16.0, c1 = o + P / 16.0;                        // crest ends
    const double f0 = o - (P / 2.0 - P / 8.0), f1 = o + (P / 2.0 - P / 8.0);  // flank feet
    segment(r_minor_, o - P / 2.0, r_minor_, f0);
    segment(r_minor_, f0, r_major_, c0);
    segment(r_major_, c0, r_major_, c1);
    segment(r_major_, c1, r_minor_, f1);
    segment(r_minor_, f1, r_minor_, o + P / 2.0);
  }
  const bool inside = r < ProfileRadius(z);
  const double sign = inside ? -1.0 : 1.0;
  if (dr && dzeta) {
    if (best > 0) {
      *dr = sign * br / best, *dzeta = sign * bz / best;
    } else {
      *dr = 1.0, *dzeta = 0.0;
    }
  }
  return sign * best;
}

double ThreadSdf::Eval(const Eigen::Vector3d& p, Eigen::Vector3d* grad) const {
  const double r = std::hypot(p.x(), p.y());
  const double theta = std::atan2(p.y(), p.x());
  const double zeta = p.z() - pitch_ * theta / (2.0 * M_PI);
  double gr = 0.0, gz = 0.0;
  double phi = Eval2d(r, zeta, &gr, &gz);
  // ζ depends on θ: ∂ζ/∂p = e_z − P/(2π r) e_θ. The field is used as a distance in (r, ζ).
  Eigen::Vector3d g = Eigen::Vector3d::UnitZ();
  if (grad) {
    const Eigen::Vector3d er =
        r > 0 ? Eigen::Vector3d(p.x() / r, p.y() / r, 0.0) : Eigen::Vector3d::UnitX();
    const Eigen::Vector3d et(-er.y(), er.x(), 0.0);
    const double dzeta_dtheta = r > 0 ? -pitch_ / (2.0 * M_PI * r) : 0.0;
    g = gr * er + gz * (Eigen::Vector3d::UnitZ() + dzeta_dtheta * et);
  }
  // Caps: intersect with the slab z0 ≤ z ≤ z1 (max of signed distances, exact outside corners
  // only approximately; the contact region is the threaded length).
  const double below = z0_ - p.z(), above = p.z() - z1_;
  if (below > phi && below >= above) {
    phi = below;
    g = -Eigen::Vector3d::UnitZ();
  } else if (above > phi) {
    phi = above;
    g = Eigen::Vector3d::UnitZ();
  }
  if (grad) *grad = g;
  return phi;
}

}  // namespace ncp::physics
