#include "problems/scenarios/sdf/bolt_nut.h"

#include <cmath>
#include <fmt/format.h>
#include <random>

#include "common/error.h"
#include "problems/physics/dynamics/spatial.h"
#include "problems/physics/sdf/nut_mesh.h"
#include "problems/physics/sdf/sdf_contacts.h"
#include "problems/physics/sdf/thread_sdf.h"
#include "problems/scenarios/sdf/single_step.h"

namespace ncp {
namespace {

using physics::Mat3;
using physics::Pose;
using physics::Vec3;

struct Params {
  int configurations, wrenches, segments_per_turn, max_contacts;
  double clearance, penetration, margin, mu, force, torque, density, dt, erp;
};

Params Parse(const std::map<std::string, std::string>& given) {
  const std::map<std::string, double> v = ParseParams("bolt_nut", BoltNutParams(), given);
  Params p;
  p.configurations = static_cast<int>(v.at("configurations"));
  p.wrenches = static_cast<int>(v.at("wrenches"));
  p.segments_per_turn = static_cast<int>(v.at("segments_per_turn"));
  p.max_contacts = static_cast<int>(v.at("max_contacts"));
  p.clearance = v.at("clearance"), p.penetration = v.at("penetration"), p.margin = v.at("margin");
  p.mu = v.at("mu"), p.force = v.at("force"), p.torque = v.at("torque");
  p.density = v.at("density"), p.dt = v.at("dt"), p.erp = v.at("erp");
  return p;
}

}  // namespace

const std::vector<ParamSpec>& BoltNutParams() {
  static const std::vector<ParamSpec> specs = {
      WholeParam("configurations", 10, 1, 1e6, "nut placements along the thread"),
      WholeParam("wrenches", 10, 1, 1e6, "random external wrenches per placement"),
      NonNegativeParam("clearance", 1e-4, "radial opening of the nut's thread [m]"),
      // At 0 the nut only touches: every gap is >= 0, so v = 0 satisfies all the normal
      // constraints and the case has a solution. With penetrations the bias asks every contact to
      // separate, which the SDF's radial normals at the bolt's crest corners can make impossible
      // for a rigid nut (no velocity separates them all).
      NonNegativeParam("penetration", 0.0, "deepest penetration of each placement [m]"),
      PositiveParam("margin", 5e-5, "contact candidates up to this gap [m] (the loaded flanks)"),
      // At 64 (4036 triangles) a chord dips 29 µm below the helix, less than the clearance; at 32
      // it dips 115 µm and the nut's root cuts the bolt's crest all around. The nut mesh needs 8.
      WholeParam("segments_per_turn", 64, 8, 1e4, "nut mesh segments per thread turn"),
      WholeParam("max_contacts", 120, 1, 1e6,
                 "k-means clusters the contacts above this (004 §VII-A)"),
      NonNegativeParam("mu", 0.3, "friction coefficient"),
      NonNegativeParam("force", 200.0,
                       "random external force, uniform in a ball of this radius [N]"),
      NonNegativeParam("torque", 10.0, "random external torque, ball radius [N·m]"),
      PositiveParam("density", 7850.0, "nut density (steel) [kg/m³]"),
      PositiveParam("dt", 1.0 / 240.0, "time step [s]"),
      RealParam("erp", 0.2, 0, 1, "share of a penetration removed per step", true),
  };
  return specs;
}

std::vector<ContactProblem> GenerateBoltNut(const std::map<std::string, std::string>& given,
                                            int count, std::uint64_t seed) {
  const Params prm = Parse(given);
  const physics::ThreadSdf bolt = physics::ThreadSdf::M48x5(0.2);
  physics::NutOptions no;
  no.clearance = prm.clearance;
  no.segments_per_turn = prm.segments_per_turn;
  const physics::NutMesh nut = physics::MakeNut(bolt, no);
  const double mass = prm.density * nut.volume;
  const Mat3 Ic = mass * nut.unit_inertia;
  physics::Link link;  // the nut as one link, for its spatial inertia about the nut origin
  link.mass = mass, link.com = nut.com, link.inertia = Ic;
  const physics::Mat6 M = physics::SpatialInertia(link);
  const double P = bolt.pitch();

  std::vector<ContactProblem> out;
  std::mt19937_64 rng(seed);
  for (int k = 0; static_cast<int>(out.size()) < count; ++k) {
    // Placement k: turned by φ along the helix at one of three depths, then lowered by δ until
    // the deepest thread vertex penetrates the bolt by `penetration` (bisection on δ). The
    // chords of the mesh dip below its vertices, so δ is then corrected by Newton steps on the
    // deepest Frank–Wolfe contact, whose gap grows with δ at the rate n_z of its normal.
    const double phi = 2.0 * M_PI * (k % prm.configurations) / prm.configurations + 0.1 * k;
    const double base = 0.05 + P * (k % 3) + P * phi / (2.0 * M_PI);
    auto pose_at = [&](double delta) {
      Pose T = Pose::Identity();
      T.linear() = Eigen::AngleAxisd(phi, Vec3::UnitZ()).toRotationMatrix();
      T.translation() = Vec3(0.0, 0.0, base + delta);
      return T;
    };
    auto deepest_vertex = [&](double delta) {
      const Pose T = pose_at(delta);
      double d = 1e300;
      for (int t = 0; t < nut.thread_triangles; ++t)
        for (int c = 0; c < 3; ++c)
          d = std::min(d, bolt.Eval(T * nut.mesh.vertices[nut.mesh.triangles[t][c]], nullptr));
      return d;
    };
    double lo = -P / 4, hi = 0.0;  // deepest(hi) > −penetration ≥ deepest(lo)
    for (int it = 0; it < 60; ++it) {
      const double mid = 0.5 * (lo + hi);
      (deepest_vertex(mid) > -prm.penetration ? hi : lo) = mid;
    }
    // Flank contacts (n_z > 0.1) steer δ; the others lie where the flank meets the bolt's crest
    // and report its radial normal: lifting the nut does not open them, so they must not be
    // deeper than the flanks. The target keeps 10 nm of the requested depth in hand.
    const double target = -prm.penetration + 1e-8;
    auto contacts_at = [&](double delta) {
      return physics::SdfMeshContacts(bolt, nut.mesh, pose_at(delta), prm.margin, 0,
                                      nut.thread_triangles);
    };
    std::vector<physics::ContactPoint> found = contacts_at(hi);  // always those at δ = hi
    for (int it = 0; it < 8; ++it) {
      const physics::ContactPoint* d = nullptr;
      for (const physics::ContactPoint& c : found)
        if (c.normal.z() > 0.1 && (!d || c.gap < d->gap)) d = &c;
      if (!d || std::abs(d->gap - target) < 1e-9) break;
      hi += (target - d->gap) / d->normal.z();
      found = contacts_at(hi);
    }
    for (const physics::ContactPoint& c : found)
      if (c.gap < -prm.penetration - 1e-9)
        throw Error(fmt::format(
            "bolt_nut.segments_per_turn = {}: the nut mesh cuts the bolt by {:.3g} m where lifting "
            "the nut cannot open it (normal z {:.2f}); raise segments_per_turn or clearance = {:g} "
            "m",
            prm.segments_per_turn, -c.gap, c.normal.z(), prm.clearance));
    const Pose T = pose_at(hi);
    const int candidates = static_cast<int>(found.size());
    found = physics::ClusterContacts(found, prm.max_contacts, seed + static_cast<std::uint64_t>(k));
    for (int w = 0; w < prm.wrenches && static_cast<int>(out.size()) < count; ++w) {
      ContactProblem p;
      p.form = ProblemForm::kGlobal;
      p.A = M.sparseView();
      // b = M v⁰ + dt (gravity + external wrench), v⁰ = 0; wrenches in the nut frame.
      const Mat3 Rt = T.linear().transpose();
      const Vec3 f = Rt * (Vec3(0, 0, -9.81 * mass) + InBall(rng, prm.force));
      const Vec3 n = nut.com.cross(Rt * Vec3(0, 0, -9.81 * mass)) + Rt * InBall(rng, prm.torque);
      p.b.resize(6);
      p.b << prm.dt * f, prm.dt * n;
      Structure::Subsystem sub{0, 6, "rigid"};
      p.structure.subsystems.push_back(sub);
      Structure::Body body;
      body.mass = mass, body.inertia = Ic, body.com = nut.com;
      body.jacobian = Eigen::MatrixXd::Identity(6, 6);
      body.joint_dof = 0, body.joint_dofs = 6;
      p.structure.bodies.push_back(body);
      std::vector<Eigen::Triplet<double>> jt;
      std::vector<double> e;
      for (const physics::ContactPoint& c : found) {
        const int ci = AddConstraint(p.constraints, ConstraintType::kContact, prm.mu);
        const Mat3 F = physics::ContactFrame(c.normal);
        const Eigen::MatrixXd blk = RigidContactRows(F, T, c.position);
        for (int r = 0; r < 3; ++r)
          for (int col = 0; col < 6; ++col) jt.emplace_back(3 * ci + r, col, blk(r, col));
        p.structure.blocks.push_back({ci, 0, blk});
        e.push_back(NormalBias(c.gap, prm.dt, prm.erp));
        e.push_back(0.0), e.push_back(0.0);
      }
      p.J.resize(p.num_rows(), 6);
      p.J.setFromTriplets(jt.begin(), jt.end());
      p.e = Eigen::Map<const Vec>(e.data(), static_cast<Eigen::Index>(e.size()));
      p.meta.name = fmt::format("bolt_nut-c{:02d}-w{:02d}", k, w);
      p.meta.scenario = "bolt_nut";
      p.meta.case_name = fmt::format("placement {} wrench {}", k, w);
      p.meta.dt = prm.dt;
      p.meta.seed = seed;
      p.meta.generator_version = 1;
      auto& mp = p.meta.params;
      mp["mass"] = mass, mp["mu"] = prm.mu, mp["candidates"] = candidates;
      mp["contacts"] = static_cast<double>(found.size()), mp["clearance"] = prm.clearance;
      mp["penetration"] = prm.penetration, mp["margin"] = prm.margin;
      mp["nut_triangles"] = static_cast<double>(nut.mesh.triangles.size());
      mp["segments_per_turn"] = prm.segments_per_turn;
      out.push_back(std::move(p));
    }
  }
  return out;
}

}  // namespace ncp
