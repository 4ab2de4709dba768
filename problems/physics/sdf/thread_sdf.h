// An ISO metric external thread (ISO 68-1 basic profile) as a signed distance field about the z
// axis: fundamental triangle of height H = √3/2 P, crest flat P/8 at the major radius d/2, root
// flat P/4 at the minor radius d/2 − 5H/8, flanks at ±30° from the radial direction, right-hand
// helix of lead P. The field is the 2-D distance in the helical section (r, ζ = z − Pθ/2π): exact
// on the crest and root cylinders; on the flanks it differs from the 3-D distance only through
// the lead angle, by a small relative amount (M48×5: measured ≤ 0.34 µm up to 1 mm away).
// Outside the threaded length [z0, z1] the bolt is capped by planes.
#pragma once

#include "problems/physics/sdf/sdf.h"

namespace ncp::physics {

class ThreadSdf final : public Sdf {
 public:
  // d: nominal (major) diameter, pitch P, threaded from z0 to z1; throws ncp::Error naming the
  // field when the geometry is invalid.
  ThreadSdf(double major_diameter, double pitch, double z0, double z1);
  static ThreadSdf M48x5(double length = 0.1) { return ThreadSdf(0.048, 0.005, 0.0, length); }

  double Eval(const Eigen::Vector3d& p, Eigen::Vector3d* grad) const override;
  // Radius of the profile at helical coordinate ζ (periodic in P).
  double ProfileRadius(double zeta) const;
  double major_radius() const { return r_major_; }
  double minor_radius() const { return r_minor_; }
  double pitch() const { return pitch_; }

 private:
  // Signed distance in the (r, ζ) half-plane to the periodic profile, and its gradient.
  double Eval2d(double r, double zeta, double* dr, double* dzeta) const;

  double r_major_, r_minor_, pitch_, z0_, z1_;
};

}  // namespace ncp::physics
