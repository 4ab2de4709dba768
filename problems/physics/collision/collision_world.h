// Collision detection for the rigid-body simulator: a broad phase over the geoms' margin-inflated
// boxes (FCL's dynamic AABB tree) and a narrow phase that returns contact manifolds where resting
// stability needs several points (plane against any shape, box against box) and FCL's one-point
// contacts elsewhere.
#pragma once

#include <memory>
#include <utility>
#include <vector>

#include "problems/physics/geometry.h"

namespace fcl {
template <typename S>
class DynamicAABBTreeCollisionManager;
}  // namespace fcl

namespace ncp::physics {

class GeomObject;
class FclPairContacts;

// Whether two geoms may touch: not on the same body, not both fixed in the world, and not sharing
// a non-zero group.
bool CanCollide(const Geom& a, const Geom& b);

class CollisionWorld {
 public:
  // Builds one FCL collision object per non-plane geom and the broad-phase tree over them. Planes
  // stay out of the tree (their infinite box would cover every node) and are tested against every
  // other geom with a bounding-sphere check instead; so are SDF geoms (few, large, and only
  // against spheres). Throws std::invalid_argument for an SDF geom on a body, without a field,
  // or able to touch a geom that is not a sphere.
  explicit CollisionWorld(std::vector<Geom> geoms);
  ~CollisionWorld();
  CollisionWorld(CollisionWorld&&) noexcept;
  CollisionWorld& operator=(CollisionWorld&&) noexcept;

  // geom_poses[k]: world pose of geom k's shape frame (body pose * geom.local).
  // Appends every contact point with gap < margin between geoms that CanCollide, geom_a < geom_b,
  // normal unit from a towards b, gap < 0 when penetrating, position halfway between the surfaces.
  // Points come sorted by (geom_a, geom_b, position x, y, z): the same input gives the same output.
  // The broad phase grows each geom's tight world box by margin/2 on every side, so any pair closer
  // than the margin has overlapping boxes.
  void Detect(const std::vector<Pose>& geom_poses, double margin, std::vector<ContactPoint>& out);

  const std::vector<Geom>& geoms() const { return geoms_; }

 private:
  // Narrow phase of the pair i < j; appends its points sorted.
  void Narrow(int i, int j, const std::vector<Pose>& poses, double margin,
              std::vector<ContactPoint>& out);

  std::vector<Geom> geoms_;
  std::vector<std::unique_ptr<GeomObject>> objects_;  // null for planes
  std::vector<int> planes_;                           // indices of plane geoms
  std::vector<int> sdfs_;                             // indices of SDF geoms
  std::vector<int> solids_;                           // indices of the other geoms
  std::vector<double> bounding_radius_;
  std::unique_ptr<fcl::DynamicAABBTreeCollisionManager<double>> broad_phase_;
  bool tree_built_ = false;
  std::unique_ptr<FclPairContacts> fcl_pairs_;
  std::vector<std::pair<int, int>> pairs_;  // candidate pairs of the current call
};

}  // namespace ncp::physics
