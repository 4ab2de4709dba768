#include "problems/scenarios/sdf/dish_piling.h"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>
#include <limits>
#include <numeric>
#include <random>

#include "common/error.h"
#include "problems/physics/dynamics/articulated_model.h"
#include "problems/physics/sdf/dish_inertia.h"
#include "problems/physics/sdf/sdf_contacts.h"
#include "problems/scenarios/sdf/single_step.h"

namespace ncp {
namespace {

using physics::Mat3;
using physics::Pose;
using physics::Vec3;

struct DishSetting {
  double mass_bowl, mass_plate, mass_pot, penetration, margin, mesh_step;
  int segments, max_contacts;
  double mu, force, torque, dt, erp;
};

DishSetting ParseSetting(const std::map<std::string, std::string>& given) {
  const std::map<std::string, double> v = ParseParams("dish_piling", DishPilingParams(), given);
  DishSetting p;
  p.mass_bowl = v.at("mass_bowl"), p.mass_plate = v.at("mass_plate"), p.mass_pot = v.at("mass_pot");
  p.penetration = v.at("penetration"), p.margin = v.at("margin"), p.mesh_step = v.at("mesh_step");
  p.segments = static_cast<int>(v.at("segments"));
  p.max_contacts = static_cast<int>(v.at("max_contacts"));
  p.mu = v.at("mu"), p.force = v.at("force"), p.torque = v.at("torque");
  p.dt = v.at("dt"), p.erp = v.at("erp");
  // A dish at rest penetrates less than the candidate margin, or its resting contacts are missed.
  if (!(p.penetration < p.margin))
    throw Error(fmt::format("dish_piling.penetration = {}: must be in (0, margin = {})",
                            p.penetration, p.margin));
  return p;
}

struct Dish {
  const char* name;
  physics::DishSdf sdf;
  physics::TriangleMesh mesh;
  physics::DishMass mass;
  Pose pose = Pose::Identity();
};

// The deepest signed distance of `mesh` at `pose` into `sdf` at `sdf_pose`, +∞ beyond the margin.
double Deepest(const physics::Sdf& sdf, const Pose& sdf_pose, const physics::TriangleMesh& mesh,
               const Pose& pose, double margin) {
  double d = std::numeric_limits<double>::infinity();
  for (const physics::ContactPoint& c :
       physics::SdfMeshContacts(sdf, mesh, sdf_pose.inverse() * pose, margin))
    d = std::min(d, c.gap);
  return d;
}

// Max–min fair shares of k contacts between pairs with n[i] candidates: a pair with fewer than an
// equal share keeps them all, the rest is split between the others.
std::vector<int> Shares(const std::vector<int>& n, int k) {
  std::vector<int> order(n.size()), q(n.size(), 0);
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return n[a] < n[b]; });
  int pairs = static_cast<int>(std::count_if(n.begin(), n.end(), [](int x) { return x > 0; }));
  for (int i : order) {
    if (n[i] == 0) continue;
    q[i] = std::min(n[i], k / pairs);
    k -= q[i], --pairs;
  }
  return q;
}

}  // namespace

const std::vector<ParamSpec>& DishPilingParams() {
  static const std::vector<ParamSpec> specs = {
      PositiveParam("mass_bowl", 0.1, "mass of each bowl [kg] (004 §VII-B)"),
      PositiveParam("mass_plate", 0.1, "mass of the plate [kg]"),
      PositiveParam("mass_pot", 5.0, "mass of the pot [kg]"),
      PositiveParam("penetration", 5e-5, "deepest penetration of each dish at rest [m] (< margin)"),
      PositiveParam("margin", 1e-3, "contact candidates up to this gap [m]"),
      // The bound keeps the meshes' size (rings ~ dish size / step) reasonable.
      RealParam("mesh_step", 0.004, 1e-4, kNoLimit, "meridian resolution of the dish meshes [m]"),
      WholeParam("segments", 48, 8, 1e4, "sectors of the dish meshes"),
      WholeParam("max_contacts", 120, 1, 1e6,
                 "contacts over the whole stack, k-means above it (004 §VII-A)"),
      NonNegativeParam("mu", 0.3, "friction coefficient"),
      NonNegativeParam("force", 0.5,
                       "random force on a dish: uniform in a ball of this many of its weights"),
      NonNegativeParam("torque", 0.2,
                       "random torque: ball of this many weights × the dish's radius"),
      PositiveParam("dt", 1.0 / 240.0, "time step [s]"),
      RealParam("erp", 0.2, 0, 1, "share of a penetration removed per step", true),
  };
  return specs;
}

std::vector<ContactProblem> GenerateDishPiling(const std::map<std::string, std::string>& given,
                                               int count, std::uint64_t seed) {
  const DishSetting prm = ParseSetting(given);
  const double g = 9.81;
  std::vector<Dish> dishes;
  for (const auto& [name, sdf, mass] :
       {std::tuple{"bowl0", physics::DishSdf::Bowl(), prm.mass_bowl},
        std::tuple{"bowl1", physics::DishSdf::Bowl(), prm.mass_bowl},
        std::tuple{"plate", physics::DishSdf::Plate(), prm.mass_plate},
        std::tuple{"pot", physics::DishSdf::Pot(), prm.mass_pot}})
    dishes.push_back({name, sdf, sdf.Triangulate(prm.mesh_step, prm.segments),
                      physics::DishMassProperties(sdf, mass)});
  const physics::PlaneSdf ground;
  // Supports of dish k: the ground (index −1) and every dish below it.
  auto support = [&](int j) -> const physics::Sdf& {
    return j < 0 ? static_cast<const physics::Sdf&>(ground) : dishes[j].sdf;
  };
  auto support_pose = [&](int j) { return j < 0 ? Pose::Identity() : dishes[j].pose; };

  // The stack, bottom up: lower each dish along the axis until it rests (see the header).
  for (int k = 0; k < static_cast<int>(dishes.size()); ++k) {
    Dish& d = dishes[k];
    const double z0 = k == 0 ? 0.0 : dishes[k - 1].pose.translation().z();
    auto pose_at = [&](double z) {
      Pose T = Pose::Identity();
      T.linear() = Eigen::AngleAxisd(0.3 * k, Vec3::UnitZ()).toRotationMatrix();
      T.translation() = Vec3(0.0, 0.0, z);
      return T;
    };
    auto deepest = [&](double z) {
      double m = std::numeric_limits<double>::infinity();
      for (int j = -1; j < k; ++j)
        m = std::min(m, Deepest(support(j), support_pose(j), d.mesh, pose_at(z), prm.margin));
      return m;
    };
    // At the height of the dish below (or on the ground at z = 0) the solids overlap by more
    // than `penetration`; half a metre higher nothing touches.
    double lo = z0, hi = z0 + 0.5;
    if (!(deepest(lo) < -prm.penetration) || deepest(hi) < std::numeric_limits<double>::infinity())
      throw Error(fmt::format("dish_piling.penetration = {}: no rest height for the {}",
                              prm.penetration, d.name));
    for (int it = 0; it < 50; ++it) {
      const double mid = 0.5 * (lo + hi);
      (deepest(mid) > -prm.penetration ? hi : lo) = mid;
    }
    d.pose = pose_at(hi);
  }

  // Candidates per (upper, lower) pair, in world coordinates, then the k-means shares.
  struct Pair {
    int upper, lower;
    std::vector<physics::ContactPoint> contacts;
  };
  std::vector<Pair> pairs;
  std::vector<int> candidates;
  for (int k = 0; k < static_cast<int>(dishes.size()); ++k)
    for (int j = -1; j < k; ++j) {
      const Pose S = support_pose(j);
      std::vector<physics::ContactPoint> found = physics::SdfMeshContacts(
          support(j), dishes[k].mesh, S.inverse() * dishes[k].pose, prm.margin);
      for (physics::ContactPoint& c : found)
        c.position = S * c.position, c.normal = S.linear() * c.normal;
      candidates.push_back(static_cast<int>(found.size()));
      pairs.push_back({k, j, std::move(found)});
    }
  // Each touching pair keeps at least one contact: below one per pair the shares round to 0,
  // which kept every candidate (max_contacts = 1 gave 1681 contacts).
  const int touching = static_cast<int>(
      std::count_if(candidates.begin(), candidates.end(), [](int c) { return c > 0; }));
  if (prm.max_contacts < touching)
    throw Error(
        fmt::format("dish_piling.max_contacts = {}: must be at least the {} touching pairs "
                    "of the pile (one contact each at the least)",
                    prm.max_contacts, touching));
  const std::vector<int> share = Shares(candidates, prm.max_contacts);
  for (std::size_t i = 0; i < pairs.size(); ++i)
    if (share[i] > 0)
      pairs[i].contacts = physics::ClusterContacts(pairs[i].contacts, share[i], seed + i);

  const int nd = static_cast<int>(dishes.size()), n = 6 * nd;
  std::vector<physics::Mat6> M(nd);
  for (int k = 0; k < nd; ++k) {
    physics::Link link;  // the dish as one link, for its spatial inertia about the dish origin
    link.mass = dishes[k].mass.mass, link.com = dishes[k].mass.com,
    link.inertia = dishes[k].mass.inertia;
    M[k] = physics::SpatialInertia(link);
  }
  std::mt19937_64 rng(seed);
  std::vector<ContactProblem> out;
  for (int w = 0; w < count; ++w) {
    ContactProblem p;
    p.form = ProblemForm::kGlobal;
    std::vector<Eigen::Triplet<double>> at, jt;
    p.b.resize(n);
    for (int k = 0; k < nd; ++k) {
      const Dish& d = dishes[k];
      for (int r = 0; r < 6; ++r)
        for (int c = 0; c < 6; ++c)
          if (M[k](r, c) != 0.0) at.emplace_back(6 * k + r, 6 * k + c, M[k](r, c));
      // b = M v⁰ + dt (gravity + external wrench), v⁰ = 0 (at rest); wrenches in the dish frame.
      const Mat3 Rt = d.pose.linear().transpose();
      const double weight = g * d.mass.mass;
      const Vec3 fg = Rt * Vec3(0, 0, -weight);
      const Vec3 f = fg + Rt * InBall(rng, prm.force * weight);
      const Vec3 tau = d.mass.com.cross(fg) + Rt * InBall(rng, prm.torque * weight * d.sdf.b().x());
      p.b.segment<3>(6 * k) = prm.dt * f;
      p.b.segment<3>(6 * k + 3) = prm.dt * tau;
      p.structure.subsystems.push_back({6 * k, 6, "rigid"});
      Structure::Body body;
      body.subsystem = k;
      body.mass = d.mass.mass, body.inertia = d.mass.inertia, body.com = d.mass.com;
      body.jacobian = Eigen::MatrixXd::Identity(6, 6);
      body.joint_dof = 0, body.joint_dofs = 6;
      p.structure.bodies.push_back(body);
    }
    p.A.resize(n, n);
    p.A.setFromTriplets(at.begin(), at.end());
    std::vector<double> e;
    for (const Pair& pr : pairs)
      for (const physics::ContactPoint& c : pr.contacts) {
        const int ci = AddConstraint(p.constraints, ConstraintType::kContact, prm.mu);
        const Mat3 F = physics::ContactFrame(c.normal);
        // The normal leaves the lower solid: the upper dish's velocity counts +, the lower's −.
        for (const auto& [body, sign] : {std::pair{pr.upper, 1.0}, std::pair{pr.lower, -1.0}}) {
          if (body < 0) continue;  // the ground
          const Eigen::MatrixXd blk = sign * RigidContactRows(F, dishes[body].pose, c.position);
          for (int r = 0; r < 3; ++r)
            for (int col = 0; col < 6; ++col)
              jt.emplace_back(3 * ci + r, 6 * body + col, blk(r, col));
          p.structure.blocks.push_back({ci, body, blk});
        }
        e.push_back(NormalBias(c.gap, prm.dt, prm.erp));
        e.push_back(0.0), e.push_back(0.0);
      }
    p.J.resize(p.num_rows(), n);
    p.J.setFromTriplets(jt.begin(), jt.end());
    p.e = Eigen::Map<const Vec>(e.data(), static_cast<Eigen::Index>(e.size()));
    p.meta.name = fmt::format("dish_piling-w{:03d}", w);
    p.meta.scenario = "dish_piling";
    p.meta.case_name = fmt::format("bowl-bowl-plate-pot stack, wrench {}", w);
    p.meta.dt = prm.dt;
    p.meta.seed = seed;
    p.meta.generator_version = 1;
    auto& mp = p.meta.params;
    mp["mu"] = prm.mu, mp["margin"] = prm.margin, mp["penetration"] = prm.penetration;
    mp["force"] = prm.force, mp["torque"] = prm.torque, mp["max_contacts"] = prm.max_contacts;
    mp["segments"] = prm.segments, mp["mesh_step"] = prm.mesh_step;
    mp["candidates"] = std::accumulate(candidates.begin(), candidates.end(), 0.0);
    mp["contacts"] = p.num_contacts();
    for (const Dish& d : dishes) {
      mp[fmt::format("mass_{}", d.name)] = d.mass.mass;
      mp[fmt::format("z_{}", d.name)] = d.pose.translation().z();
    }
    for (const Pair& pr : pairs)
      mp[fmt::format("contacts_{}_{}", dishes[pr.upper].name,
                     pr.lower < 0 ? "ground" : dishes[pr.lower].name)] =
          static_cast<double>(pr.contacts.size());
    out.push_back(std::move(p));
  }
  return out;
}

}  // namespace ncp
