#include "solvers/common/boxed_lcp.h"

#include <cmath>
#include <limits>
#include <numbers>
#include <fmt/format.h>

#include "common/error.h"

namespace ncp {
namespace {

double Angle(int j, int directions) { return std::numbers::pi * j / directions; }

// Σ_j |cos(θ − θ_j)|: the zonotope's support in the direction θ, per unit half-length.
double Support(double theta, int directions) {
  double s = 0.0;
  for (int j = 0; j < directions; ++j) s += std::abs(std::cos(theta - Angle(j, directions)));
  return s;
}

}  // namespace

double FrictionBoundScale(int directions) {
  if (directions < 2) throw Error(fmt::format("directions = {}: must be ≥ 2", directions));
  // The support is periodic in π/d and piecewise a sum of cosines: its least value is at a
  // direction t_j or halfway between two (one of the two, by the parity of d).
  const double least =
      std::min(Support(0.0, directions), Support(Angle(1, directions) / 2, directions));
  return 1.0 / least;
}

int BoxedRows(const std::vector<Constraint>& cs, int directions) {
  int n = 0;
  for (const Constraint& c : cs) n += c.type == ConstraintType::kContact ? 1 + directions : 1;
  return n;
}

BoxedLcp MakeBoxedLcp(const SpMat& W, const Vec& q, const std::vector<Constraint>& cs,
                      int directions) {
  const double scale = FrictionBoundScale(directions);
  const int m = static_cast<int>(q.size());
  if (W.rows() != m || W.cols() != m)
    throw Error(fmt::format("W: {}×{} for {} rows of q: must be square of q's size", W.rows(),
                            W.cols(), m));
  const double inf = std::numeric_limits<double>::infinity();
  const int n = BoxedRows(cs, directions);
  BoxedLcp out;
  out.lo = Vec::Zero(n);
  out.hi = Vec::Constant(n, inf);
  out.findex.assign(n, -1);
  std::vector<Eigen::Triplet<double>> p;
  int k = 0;
  for (const Constraint& c : cs) {
    if (c.row < 0 || c.row + c.rows() > m)
      throw Error(fmt::format("constraint row = {}: outside the {} rows of q", c.row, m));
    switch (c.type) {
      case ConstraintType::kContact: {
        const int normal = k;
        p.emplace_back(c.row, k++, 1.0);
        for (int j = 0; j < directions; ++j, ++k) {
          const double th = Angle(j, directions);
          // cos(π/2) is 6e-17, not 0: keep P exact where a direction is an axis.
          const double ct = j * 2 == directions ? 0.0 : std::cos(th);
          const double st = j == 0 ? 0.0 : std::sin(th);
          if (ct != 0.0) p.emplace_back(c.row + 1, k, ct);
          if (st != 0.0) p.emplace_back(c.row + 2, k, st);
          out.lo[k] = -scale * c.mu;
          out.hi[k] = scale * c.mu;
          out.findex[k] = normal;
        }
        break;
      }
      case ConstraintType::kUnilateral:
        p.emplace_back(c.row, k++, 1.0);
        break;
      case ConstraintType::kBilateral:
        out.lo[k] = -inf;
        p.emplace_back(c.row, k++, 1.0);
        break;
      case ConstraintType::kSoft:
        throw Error("constraint type = soft: fold soft rows into A and b before the boxed form");
      case ConstraintType::kJointFriction:
        throw Error("constraint type = joint-friction: no boxed-LCP form");
    }
  }
  out.P.resize(m, n);
  out.P.setFromTriplets(p.begin(), p.end());
  const SpMat Pt = out.P.transpose();
  out.A = RowMajorMat(SpMat(Pt * W * out.P));
  out.b = -(Pt * q);
  return out;
}

}  // namespace ncp
