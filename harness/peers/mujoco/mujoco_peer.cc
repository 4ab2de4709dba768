#include "harness/peers/mujoco/mujoco_peer.h"

#include <mujoco/mujoco.h>

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstring>
#include <memory>

#include "common/error.h"

namespace ncp::mujoco_peer {

using namespace physics;

namespace {

std::string V3(const Vec3& v) {
  return fmt::format("{:.17g} {:.17g} {:.17g}", v.x(), v.y(), v.z());
}

std::string PoseAttr(const Pose& T) {
  const Eigen::Quaterniond q(T.linear());
  return fmt::format("pos=\"{}\" quat=\"{:.17g} {:.17g} {:.17g} {:.17g}\"", V3(T.translation()),
                     q.w(), q.x(), q.y(), q.z());
}

std::string GeomXml(const Geom& g) {
  // condim 3: normal + two tangent directions (Coulomb friction, no torsion or rolling).
  const std::string fr = fmt::format("friction=\"{:.17g} 0 0\" condim=\"3\"", g.mu);
  const std::string pose = PoseAttr(g.local);
  switch (g.shape.type) {
    case ShapeType::kPlane:
      return fmt::format("<geom type=\"plane\" size=\"0 0 1\" {} {}/>", pose, fr);
    case ShapeType::kSphere:
      return fmt::format("<geom type=\"sphere\" size=\"{:.17g}\" {} {}/>", g.shape.radius, pose,
                         fr);
    case ShapeType::kBox:
      return fmt::format("<geom type=\"box\" size=\"{}\" {} {}/>", V3(g.shape.half_extents), pose,
                         fr);
    case ShapeType::kCapsule:
      return fmt::format("<geom type=\"capsule\" size=\"{:.17g} {:.17g}\" {} {}/>", g.shape.radius,
                         g.shape.half_length, pose, fr);
    case ShapeType::kCylinder:
      return fmt::format("<geom type=\"cylinder\" size=\"{:.17g} {:.17g}\" {} {}/>", g.shape.radius,
                         g.shape.half_length, pose, fr);
    case ShapeType::kSdf:
      throw Error("mujoco peer: SDF geoms have no MuJoCo counterpart");
  }
  throw Error("mujoco peer: unknown shape type");
}

std::string LinkName(int body) { return fmt::format("b{}", body); }

// The body of link `l` of instance `in` and its children, recursively.
void EmitLink(const Instance& in, int l, std::string& xml, std::string& actuators, int depth) {
  const ArticulatedModel& m = *in.model;
  const Link& link = m.links[l];
  const int body = in.first_body + l;
  const std::string pad(2 * depth, ' ');
  const Pose frame = link.parent < 0 ? in.kin.world[l] : link.parent_to_joint;
  xml += fmt::format("{}<body name=\"{}\" {}>\n", pad, LinkName(body), PoseAttr(frame));
  const std::string jn = fmt::format("j{}", body);
  switch (link.joint) {
    case JointType::kFloating:
      xml += fmt::format("{}  <freejoint name=\"{}\"/>\n", pad, jn);
      break;
    case JointType::kRevolute:
    case JointType::kPrismatic: {
      const bool limited = link.lower > -1e29 && link.upper < 1e29;
      std::string lim = limited ? fmt::format(" limited=\"true\" range=\"{:.17g} {:.17g}\"",
                                              link.lower, link.upper)
                                : std::string(" limited=\"false\"");
      const bool pd = in.pd.kp > 0;
      xml += fmt::format("{}  <joint name=\"{}\" type=\"{}\" axis=\"{}\"{}{}/>\n", pad, jn,
                         link.joint == JointType::kRevolute ? "hinge" : "slide", V3(link.axis), lim,
                         pd ? fmt::format(" damping=\"{:.17g}\"", in.pd.kd) : std::string());
      if (pd)
        actuators += fmt::format(
            "    <position name=\"a{}\" joint=\"{}\" kp=\"{:.17g}\" ctrllimited=\"false\"/>\n",
            body, jn, in.pd.kp);
      break;
    }
    case JointType::kFixed:
      break;
  }
  if (link.mass > 0) {
    const Mat3& I = link.inertia;
    xml += fmt::format(
        "{}  <inertial pos=\"{}\" mass=\"{:.17g}\" fullinertia=\"{:.17g} {:.17g} {:.17g} {:.17g} "
        "{:.17g} {:.17g}\"/>\n",
        pad, V3(link.com), link.mass, I(0, 0), I(1, 1), I(2, 2), I(0, 1), I(0, 2), I(1, 2));
  }
  for (const Geom& g : link.geoms) xml += pad + "  " + GeomXml(g) + "\n";
  for (int c = 0; c < static_cast<int>(m.links.size()); ++c)
    if (m.links[c].parent == l) EmitLink(in, c, xml, actuators, depth + 1);
  xml += pad + "</body>\n";
}

struct ModelDeleter {
  void operator()(mjModel* m) const { mj_deleteModel(m); }
};
struct DataDeleter {
  void operator()(mjData* d) const { mj_deleteData(d); }
};

Pose PoseFrom(const mjtNum* pos, const mjtNum* quat) {
  Pose T(Eigen::Quaterniond(quat[0], quat[1], quat[2], quat[3]).normalized());
  T.translation() = Vec3(pos[0], pos[1], pos[2]);
  return T;
}

}  // namespace

std::string SceneToMjcf(const MultibodySystem& sys, const MjOptions& opt) {
  const char* solver = opt.solver == "pgs"      ? "PGS"
                       : opt.solver == "cg"     ? "CG"
                       : opt.solver == "newton" ? "Newton"
                                                : nullptr;
  if (!solver)
    throw Error(fmt::format("mujoco solver '{}': must be pgs, cg or newton", opt.solver));
  if (opt.iterations < 1)
    throw Error(fmt::format("mujoco iterations = {}: must be >= 1", opt.iterations));
  const StepOptions& so = sys.options();
  std::string xml = fmt::format(
      "<mujoco model=\"ncpbench\">\n"
      "  <compiler angle=\"radian\" inertiafromgeom=\"false\" boundmass=\"0\" "
      "boundinertia=\"0\"/>\n"
      "  <option timestep=\"{:.17g}\" gravity=\"{}\" integrator=\"Euler\" solver=\"{}\" "
      "iterations=\"{}\" tolerance=\"{:.17g}\" cone=\"{}\" noslip_iterations=\"0\"/>\n"
      "  <size njmax=\"{}\" nconmax=\"{}\"/>\n"
      "  <worldbody>\n",
      so.dt, V3(so.gravity), solver, opt.iterations, opt.tolerance,
      opt.elliptic ? "elliptic" : "pyramidal",
      3 * (16 * sys.num_bodies() + 100) + 2 * sys.num_dofs(), 16 * sys.num_bodies() + 100);
  const std::vector<Geom>& geoms = sys.geoms();
  for (int g = 0; g < static_cast<int>(geoms.size()); ++g)
    if (sys.GeomInstance(g) < 0) xml += "    " + GeomXml(geoms[g]) + "\n";
  std::string actuators, exclude;
  for (const Instance& in : sys.instances()) {
    const int nl = static_cast<int>(in.model->links.size());
    for (int l = 0; l < nl; ++l)
      if (in.model->links[l].parent < 0) EmitLink(in, l, xml, actuators, 2);
    // Our instances do not self-collide: exclude every pair of links with geoms (MuJoCo already
    // skips parent–child pairs, and an excluded pair it would skip anyway is harmless).
    std::vector<int> with;
    for (int l = 0; l < nl; ++l)
      if (!in.model->links[l].geoms.empty()) with.push_back(l);
    for (std::size_t a = 0; a < with.size(); ++a)
      for (std::size_t b = a + 1; b < with.size(); ++b)
        exclude +=
            fmt::format("    <exclude body1=\"{}\" body2=\"{}\"/>\n",
                        LinkName(in.first_body + with[a]), LinkName(in.first_body + with[b]));
  }
  xml += "  </worldbody>\n";
  if (!exclude.empty()) xml += "  <contact>\n" + exclude + "  </contact>\n";
  if (!actuators.empty()) xml += "  <actuator>\n" + actuators + "  </actuator>\n";
  xml += "</mujoco>\n";
  return xml;
}

mjModel* CompileMjcf(const std::string& xml) {
  auto vfs = std::make_unique<mjVFS>();
  mj_defaultVFS(vfs.get());
  const char* name = "ncpbench_scene.xml";
  if (mj_makeEmptyFileVFS(vfs.get(), name, static_cast<int>(xml.size())) != 0)
    throw Error("mujoco: cannot create the in-memory MJCF file");
  const int i = mj_findFileVFS(vfs.get(), name);
  std::memcpy(vfs->filedata[i], xml.data(), xml.size());
  char err[1000] = "";
  mjModel* m = mj_loadXML(name, vfs.get(), err, sizeof(err));
  mj_deleteVFS(vfs.get());
  if (!m) throw Error(fmt::format("mujoco: MJCF does not compile: {}", err));
  return m;
}

MjRun Run(const MultibodySystem& sys, const MjOptions& opt, int steps) {
  std::unique_ptr<mjModel, ModelDeleter> m(CompileMjcf(SceneToMjcf(sys, opt)));
  std::unique_ptr<mjData, DataDeleter> d(mj_makeData(m.get()));
  // Initial state: our q per joint; our free-body twist [v; ω] is in the body frame, MuJoCo's
  // free-joint velocity is [world linear; body angular].
  for (const Instance& in : sys.instances()) {
    const ArticulatedModel& am = *in.model;
    for (int l = 0; l < static_cast<int>(am.links.size()); ++l) {
      const Link& link = am.links[l];
      if (link.joint == JointType::kFixed) continue;
      const int body = in.first_body + l;
      const int j = mj_name2id(m.get(), mjOBJ_JOINT, fmt::format("j{}", body).c_str());
      if (j < 0) throw Error(fmt::format("mujoco: joint of body {} missing", body));
      mjtNum* qpos = d->qpos + m->jnt_qposadr[j];
      mjtNum* qvel = d->qvel + m->jnt_dofadr[j];
      if (link.joint == JointType::kFloating) {
        for (int k = 0; k < 7; ++k) qpos[k] = in.q[link.q_index + k];
        const Eigen::Quaterniond r(in.q[link.q_index + 3], in.q[link.q_index + 4],
                                   in.q[link.q_index + 5], in.q[link.q_index + 6]);
        const Vec3 lin = r.normalized() * Vec3(in.v.segment<3>(link.v_index));
        for (int k = 0; k < 3; ++k) qvel[k] = lin[k], qvel[3 + k] = in.v[link.v_index + 3 + k];
      } else {
        qpos[0] = in.q[link.q_index];
        qvel[0] = in.v[link.v_index];
        if (in.pd.kp > 0) {
          const int a = mj_name2id(m.get(), mjOBJ_ACTUATOR, fmt::format("a{}", body).c_str());
          if (a >= 0) d->ctrl[a] = in.pd.target[link.q_index];
        }
      }
    }
  }
  mj_forward(m.get(), d.get());
  MjRun out;
  double total = 0.0;
  for (int s = 0; s < steps; ++s) {
    const auto t0 = std::chrono::steady_clock::now();
    mj_step(m.get(), d.get());
    total += std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    out.max_contacts = std::max(out.max_contacts, d->ncon);
    for (int c = 0; c < d->ncon; ++c)
      out.max_penetration = std::max(out.max_penetration, -d->contact[c].dist);
  }
  out.step_ms = steps > 0 ? 1e3 * total / steps : 0.0;
  for (int k = 0; k < m->nq; ++k) out.finite = out.finite && std::isfinite(d->qpos[k]);
  out.final_poses.resize(sys.num_bodies(), Pose::Identity());
  for (int b = 0; b < sys.num_bodies(); ++b) {
    const int id = mj_name2id(m.get(), mjOBJ_BODY, LinkName(b).c_str());
    if (id < 0) throw Error(fmt::format("mujoco: body {} missing", b));
    out.final_poses[b] = PoseFrom(d->xpos + 3 * id, d->xquat + 4 * id);
  }
  return out;
}

}  // namespace ncp::mujoco_peer
