// soft_mat (002 §V-C3): a co-rotational FEM mat lying on the floor is folded by a gripper on a
// prescribed trajectory: two finger boxes pinch one edge, lift it, and carry it over the mat while
// turning it half a turn, so that the mat folds onto itself. Young's modulus, Poisson ratio and μ
// are drawn from ranges with the seed. Self-contact is not modelled: the folded layer is held
// above the lower one rather than laid on it.
#include <algorithm>
#include <cmath>
#include <fmt/format.h>
#include <random>

#include "common/error.h"
#include "problems/scenarios/deformable/deformable_scene.h"

namespace ncp {

using namespace physics;

namespace {

constexpr double kSide = 0.5;        // mat side [m]
constexpr double kThickness = 0.02;  // [m]
constexpr int kCells =
    21;  // cells per side at size 1: 21 × 21 × 2 cells of 5 tets: 1452 nodes, 4410 tets

// The gripper frame: center c(t) on the mid-plane of the gripped strip, turned by θ(t) about y;
// the fingers sit at offsets ±d along the gripper's z axis.
struct GripperPath {
  double t_pinch = 0.2, t_lift = 0.7, t_carry = 1.7;  // ends of the phases [s]
  Vec3 c0, c1, c2;                                    // center at 0, t_pinch..t_lift, t_carry
  double top0 = 0, top1 = 0, bottom = 0;              // finger offsets (top closes while pinching)

  // Center, its velocity, θ, θ' and the top finger offset with its rate at time t.
  void At(double t, Vec3& c, Vec3& vc, double& th, double& w, double& top, double& vtop) const {
    vc.setZero();
    th = w = vtop = 0;
    c = c0;
    top = top1;
    if (t < t_pinch) {
      top = top0 + (top1 - top0) * t / t_pinch;
      vtop = (top1 - top0) / t_pinch;
    } else if (t < t_lift) {
      vc = (c1 - c0) / (t_lift - t_pinch);
      c = c0 + (t - t_pinch) * vc;
    } else if (t < t_carry) {
      const double T = t_carry - t_lift;
      vc = (c2 - c1) / T;
      c = c1 + (t - t_lift) * vc;
      w = M_PI / T;
      th = (t - t_lift) * w;
    } else {
      c = c2;
      th = M_PI;
    }
  }

  KinematicState Finger(double t, bool top_finger) const {
    Vec3 c, vc;
    double th, w, top, vtop;
    At(t, c, vc, th, w, top, vtop);
    const Mat3 R = Eigen::AngleAxisd(th, Vec3::UnitY()).toRotationMatrix();
    const Vec3 off = R * Vec3(0, 0, top_finger ? top : bottom);
    const Vec3 omega(0, w, 0);
    KinematicState s;
    s.pose.linear() = R;
    s.pose.translation() = c + off;
    s.linear = vc + omega.cross(off);
    if (top_finger) s.linear += R * Vec3(0, 0, vtop);
    s.angular = omega;
    return s;
  }
};

}  // namespace

Scene MakeSoftMat(const std::map<std::string, double>& p, std::uint64_t seed) {
  const int n = ScaledCells(p, kCells, 4);
  // Cell layers through the thickness: by default they scale with size like the in-plane cells
  // (2 at size 1); a fixed count refines the mat in-plane only, which keeps its thinnest elements,
  // and so the stiffness conditioning, the same across sizes.
  const double lp = p.at("layers");
  const int layers =
      lp > 0 ? static_cast<int>(lp) : std::max(1, static_cast<int>(std::lround(2 * p.at("size"))));
  std::mt19937_64 rng(seed);
  double mu = 0.0;
  const FemMaterial mat = DrawMaterial(p, "soft_mat", rng, mu);
  Scene sc = NewDeformableScene(p);
  DeformableSystem& s = *sc.deformable;
  const TetMesh mesh = BoxTetMesh(Vec3(-kSide / 2, -kSide / 2, 0), Vec3(kSide, kSide, kThickness),
                                  {n, n, layers}, 5);
  s.AddBody(mesh, mat, mu, Damping(p));
  s.SetParam("youngs", mat.youngs);
  s.SetParam("poisson", mat.poisson);
  s.SetParam("mu", mu);
  s.AddPlane(Vec3::UnitZ(), 0.0, mu);

  // Fingers: plates 2 cm thick over the whole edge, gripping a strip two cells wide at size 1.
  // The strip keeps that width at every size, so that sizes differ in resolution only (a strip of
  // two cells at every size grips less of a finer mat, and changes the load with the size).
  const double cell = kSide / n, strip = 2 * kSide / kCells, hf = 0.01, squeeze = 0.25 * kThickness;
  auto path = std::make_shared<GripperPath>();
  path->c0 = Vec3(-kSide / 2 + strip / 2, 0, kThickness / 2);
  path->c1 = path->c0 + Vec3(0, 0, 0.12);
  path->c2 = Vec3(kSide / 2 - strip / 2 - 0.02, 0, 0.08);
  path->top0 = kThickness / 2 + 0.003 + hf;
  path->top1 = kThickness / 2 - squeeze + hf;
  path->bottom = -(kThickness / 2 + hf);
  const Vec3 half(strip / 2 + cell / 4, kSide / 2 + 0.01, hf);
  s.AddBox(half, mu, [path](double t) { return path->Finger(t, true); });
  s.AddBox(half, mu, [path](double t) { return path->Finger(t, false); });
  return sc;
}

}  // namespace ncp
