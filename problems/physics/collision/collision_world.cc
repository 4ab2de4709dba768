#include "problems/physics/collision/collision_world.h"

#include <fcl/broadphase/broadphase_dynamic_AABB_tree.h>

#include <algorithm>
#include <fmt/format.h>
#include <stdexcept>
#include <string>

#include "common/error.h"
#include "problems/physics/collision/box_box.h"
#include "problems/physics/collision/fcl_pair.h"
#include "problems/physics/collision/fcl_shapes.h"
#include "problems/physics/collision/plane_contacts.h"
#include "problems/physics/collision/sdf_sphere.h"

namespace ncp::physics {
namespace {

struct BroadPhaseData {
  const std::vector<Geom>* geoms;
  std::vector<std::pair<int, int>>* pairs;
};

// Called by the tree for each pair of overlapping boxes; never stops the traversal.
bool CollectPair(fcl::CollisionObjectd* o1, fcl::CollisionObjectd* o2, void* data) {
  auto* d = static_cast<BroadPhaseData*>(data);
  const int i = static_cast<GeomObject*>(o1)->geom();
  const int j = static_cast<GeomObject*>(o2)->geom();
  if (CanCollide((*d->geoms)[i], (*d->geoms)[j])) {
    d->pairs->emplace_back(std::min(i, j), std::max(i, j));
  }
  return false;
}

bool PositionLess(const ContactPoint& a, const ContactPoint& b) {
  if (a.position.x() != b.position.x()) return a.position.x() < b.position.x();
  if (a.position.y() != b.position.y()) return a.position.y() < b.position.y();
  if (a.position.z() != b.position.z()) return a.position.z() < b.position.z();
  return a.gap < b.gap;
}

}  // namespace

bool CanCollide(const Geom& a, const Geom& b) {
  if (a.body < 0 && b.body < 0) return false;
  if (a.body == b.body) return false;
  return a.group == 0 || a.group != b.group;
}

CollisionWorld::CollisionWorld(std::vector<Geom> geoms)
    : geoms_(std::move(geoms)),
      broad_phase_(std::make_unique<fcl::DynamicAABBTreeCollisionManagerd>()),
      fcl_pairs_(std::make_unique<FclPairContacts>()) {
  const int n = static_cast<int>(geoms_.size());
  objects_.resize(n);
  bounding_radius_.resize(n);
  for (int k = 0; k < n; ++k) {
    const Shape& shape = geoms_[k].shape;
    bounding_radius_[k] = BoundingRadius(shape);
    if (shape.type == ShapeType::kPlane) {
      planes_.push_back(k);
    } else if (shape.type == ShapeType::kSdf) {
      if (!shape.sdf || geoms_[k].body >= 0)
        throw std::invalid_argument("geom " + std::to_string(k) +
                                    ": an SDF geom needs a field and must be a world geom");
      sdfs_.push_back(k);
    } else {
      solids_.push_back(k);
      objects_[k] = std::make_unique<GeomObject>(k, MakeFclGeometry(shape));
    }
  }
  for (const int s : sdfs_)
    for (const int k : solids_)
      if (CanCollide(geoms_[s], geoms_[k]) && geoms_[k].shape.type != ShapeType::kSphere)
        throw std::invalid_argument("geom " + std::to_string(k) + ": SDF geom " +
                                    std::to_string(s) + " collides with spheres only");
}

CollisionWorld::~CollisionWorld() = default;
CollisionWorld::CollisionWorld(CollisionWorld&&) noexcept = default;
CollisionWorld& CollisionWorld::operator=(CollisionWorld&&) noexcept = default;

// Farther than this from the origin no scene of the suite reaches (its largest span is metres).
constexpr double kMaxReach = 1e9;

void CollisionWorld::Detect(const std::vector<Pose>& geom_poses, double margin,
                            std::vector<ContactPoint>& out) {
  if (geom_poses.size() != geoms_.size()) {
    throw std::invalid_argument("CollisionWorld::Detect: " + std::to_string(geom_poses.size()) +
                                " poses for " + std::to_string(geoms_.size()) + " geoms");
  }
  const double pad = 0.5 * std::max(margin, 0.0);
  for (const int k : solids_) {
    const fcl::AABBd box = WorldAabb(geoms_[k].shape, geom_poses[k], pad);
    // FCL's tree recurses without end on boxes it cannot split (non-finite, or whose sums
    // overflow): a size, radius or margin far past any physical scale ends here, named.
    const double reach = std::max(box.min_.cwiseAbs().maxCoeff(), box.max_.cwiseAbs().maxCoeff());
    if (!(reach <= kMaxReach))
      throw Error(
          fmt::format("collision: geom {}'s bounding box reaches {:g} m from the origin "
                      "(limit {:g} m): a scene size, radius, margin or speed past any "
                      "physical scale",
                      k, reach, kMaxReach));
    objects_[k]->SetPose(geom_poses[k], box);
  }
  // The tree is built top-down from the first real boxes, then refitted as the geoms move.
  if (!tree_built_) {
    std::vector<fcl::CollisionObjectd*> objects;
    objects.reserve(solids_.size());
    for (const int k : solids_) objects.push_back(objects_[k].get());
    broad_phase_->registerObjects(objects);
    tree_built_ = true;
  } else {
    broad_phase_->update();
  }

  pairs_.clear();
  BroadPhaseData data{&geoms_, &pairs_};
  broad_phase_->collide(&data, &CollectPair);
  for (const int p : planes_) {
    const Vec3 n = geom_poses[p].linear().col(2);
    const Vec3 o = geom_poses[p].translation();
    for (const int k : solids_) {
      if (!CanCollide(geoms_[p], geoms_[k])) continue;
      if (n.dot(geom_poses[k].translation() - o) - bounding_radius_[k] >= margin) continue;
      pairs_.emplace_back(std::min(p, k), std::max(p, k));
    }
  }
  for (const int s : sdfs_) {
    const Vec3 o = geom_poses[s].translation();
    for (const int k : solids_) {
      if (!CanCollide(geoms_[s], geoms_[k])) continue;
      const double centers = (geom_poses[k].translation() - o).norm();
      if (centers - bounding_radius_[s] - bounding_radius_[k] >= margin) continue;
      pairs_.emplace_back(std::min(s, k), std::max(s, k));
    }
  }
  // The tree's traversal order depends on its history: sorting makes the output depend on the
  // input only.
  std::sort(pairs_.begin(), pairs_.end());
  for (const auto& [i, j] : pairs_) Narrow(i, j, geom_poses, margin, out);
}

void CollisionWorld::Narrow(int i, int j, const std::vector<Pose>& poses, double margin,
                            std::vector<ContactPoint>& out) {
  const size_t first = out.size();
  const Shape& si = geoms_[i].shape;
  const Shape& sj = geoms_[j].shape;
  const bool plane_i = si.type == ShapeType::kPlane;
  const bool plane_j = sj.type == ShapeType::kPlane;
  if (plane_i && plane_j) return;
  if (!plane_i && !plane_j) {
    // Broad-phase boxes also overlap near their corners, which the bounding spheres rule out.
    const double centers = (poses[j].translation() - poses[i].translation()).norm();
    if (centers - bounding_radius_[i] - bounding_radius_[j] >= margin) return;
  }
  if (si.type == ShapeType::kSdf) {
    SdfSphereContact(*si.sdf, poses[i], sj.radius, poses[j].translation(), margin, out);
  } else if (sj.type == ShapeType::kSdf) {
    SdfSphereContact(*sj.sdf, poses[j], si.radius, poses[i].translation(), margin, out);
    for (size_t k = first; k < out.size(); ++k) out[k].normal = -out[k].normal;
  } else if (plane_i) {
    PlaneContacts(poses[i], sj, poses[j], margin, out);
  } else if (plane_j) {
    PlaneContacts(poses[j], si, poses[i], margin, out);
    for (size_t k = first; k < out.size(); ++k) out[k].normal = -out[k].normal;
  } else if (si.type == ShapeType::kBox && sj.type == ShapeType::kBox) {
    if (!BoxBoxContacts(si.half_extents, poses[i], sj.half_extents, poses[j], margin, out)) {
      fcl_pairs_->Append(*objects_[i], si, *objects_[j], sj, margin, out);
    }
  } else {
    fcl_pairs_->Append(*objects_[i], si, *objects_[j], sj, margin, out);
  }
  for (size_t k = first; k < out.size(); ++k) {
    out[k].geom_a = i;
    out[k].geom_b = j;
  }
  std::sort(out.begin() + first, out.end(), PositionLess);
}

}  // namespace ncp::physics
