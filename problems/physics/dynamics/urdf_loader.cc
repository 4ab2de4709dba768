#include "problems/physics/dynamics/urdf_loader.h"

#include <fmt/format.h>
#include <urdf_parser/urdf_parser.h>

#include <filesystem>

#include "common/error.h"
#include "problems/physics/dynamics/spatial.h"

namespace ncp::physics {
namespace {

Pose ToPose(const urdf::Pose& p) {
  Pose T = Pose::Identity();
  T.linear() = Eigen::Quaterniond(p.rotation.w, p.rotation.x, p.rotation.y, p.rotation.z)
                   .normalized()
                   .toRotationMatrix();
  T.translation() = Vec3(p.position.x, p.position.y, p.position.z);
  return T;
}

// Adds a body (mass m, com c and inertia Ic in frame F, F's pose T in the link frame) to the
// link's inertial properties, by the parallel-axis theorem.
void MergeInertia(Link& l, double m, const Vec3& c_F, const Mat3& Ic_F, const Pose& T) {
  if (!(m > 0)) return;  // massless links (common "base" links) add nothing, and 0/0 is NaN
  const Vec3 c = T * c_F;
  const Mat3 Ic = T.linear() * Ic_F * T.linear().transpose();
  const double M = l.mass + m;
  const Vec3 com = (l.mass * l.com + m * c) / M;
  auto shift = [](double mass, const Vec3& d) {  // inertia of a point mass about the new com
    return mass * (d.squaredNorm() * Mat3::Identity() - d * d.transpose());
  };
  l.inertia = l.inertia + shift(l.mass, l.com - com) + Ic + shift(m, c - com);
  l.com = com;
  l.mass = M;
}

void AddLinkContent(const std::string& file, const urdf::Link& u, const Pose& T, double mu,
                    Link& l) {
  if (u.inertial) {
    const auto& in = *u.inertial;
    Mat3 I;
    I << in.ixx, in.ixy, in.ixz, in.ixy, in.iyy, in.iyz, in.ixz, in.iyz, in.izz;
    const Pose Ti = T * ToPose(in.origin);
    MergeInertia(l, in.mass, Ti.translation(), Ti.linear() * I * Ti.linear().transpose(),
                 Pose::Identity());
  }
  for (const auto& col : u.collision_array) {
    if (!col || !col->geometry) continue;
    Geom g;
    g.local = T * ToPose(col->origin);
    g.mu = mu;
    switch (col->geometry->type) {
      case urdf::Geometry::SPHERE:
        g.shape.type = ShapeType::kSphere;
        g.shape.radius = static_cast<const urdf::Sphere&>(*col->geometry).radius;
        break;
      case urdf::Geometry::BOX: {
        const auto& d = static_cast<const urdf::Box&>(*col->geometry).dim;
        g.shape.type = ShapeType::kBox;
        g.shape.half_extents = 0.5 * Vec3(d.x, d.y, d.z);
        break;
      }
      case urdf::Geometry::CYLINDER: {
        const auto& c = static_cast<const urdf::Cylinder&>(*col->geometry);
        g.shape.type = ShapeType::kCylinder;
        g.shape.radius = c.radius;
        g.shape.half_length = 0.5 * c.length;
        break;
      }
      default:
        throw Error(
            fmt::format("{}: link '{}': collision mesh: only box, sphere and cylinder "
                        "are supported",
                        file, u.name));
    }
    l.geoms.push_back(g);
  }
}

// Depth-first: a fixed child joins `link` (pose T relative to it); a moving child starts a link.
void Visit(const std::string& file, const urdf::Link& u, const Pose& T, int link,
           const UrdfOptions& opt, ArticulatedModel& m) {
  AddLinkContent(file, u, T, opt.mu, m.links[link]);
  for (const auto& child : u.child_links) {
    const urdf::Joint& j = *child->parent_joint;
    const Pose Tj = T * ToPose(j.parent_to_joint_origin_transform);
    if (j.type == urdf::Joint::FIXED) {
      Visit(file, *child, Tj, link, opt, m);
      continue;
    }
    Link l;
    l.name = child->name;
    l.parent = link;
    l.parent_to_joint = Tj;
    l.axis = Vec3(j.axis.x, j.axis.y, j.axis.z).normalized();
    switch (j.type) {
      case urdf::Joint::REVOLUTE:
      case urdf::Joint::CONTINUOUS:
        l.joint = JointType::kRevolute;
        break;
      case urdf::Joint::PRISMATIC:
        l.joint = JointType::kPrismatic;
        break;
      default:
        throw Error(
            fmt::format("{}: joint '{}': type {}: only revolute, continuous, prismatic "
                        "and fixed joints are supported",
                        file, j.name, static_cast<int>(j.type)));
    }
    if (j.limits && j.type != urdf::Joint::CONTINUOUS) {
      l.lower = j.limits->lower;
      l.upper = j.limits->upper;
    }
    m.links.push_back(l);
    Visit(file, *child, Pose::Identity(), static_cast<int>(m.links.size()) - 1, opt, m);
  }
}

}  // namespace

ArticulatedModel LoadUrdf(const std::string& path, const UrdfOptions& opt) {
  if (!std::filesystem::exists(path)) throw Error(fmt::format("{}: cannot open", path));
  const urdf::ModelInterfaceSharedPtr u = urdf::parseURDFFile(path);
  if (!u || !u->getRoot()) throw Error(fmt::format("{}: not a valid URDF", path));
  ArticulatedModel m;
  m.name = u->getName();
  Link root;
  root.name = u->getRoot()->name;
  root.joint = opt.floating_base ? JointType::kFloating : JointType::kFixed;
  m.links.push_back(root);
  Visit(path, *u->getRoot(), Pose::Identity(), 0, opt, m);
  m.Finalize();
  return m;
}

}  // namespace ncp::physics
