// Geometry of the pouring scene (004 §VII-C), shared by the scene, its protocol and its tests.
#pragma once

#include <map>
#include <memory>
#include <string>

#include "problems/physics/sdf/dish_sdf.h"
#include "problems/scenarios/rigid/scene.h"

namespace ncp {

struct PouringLayout {
  std::shared_ptr<const physics::DishSdf> bottle;  // frame: O at the bottom center, z up the axis
  std::shared_ptr<const physics::DishSdf> cup;     // on the floor
  physics::Pose cup_pose;
  physics::Vec3 pivot = physics::Vec3(0, 0, 0.22);  // the mouth's center, fixed while tilting
  // World pose of the bottle tilted by `tilt` radians about y (0: upright).
  physics::Pose BottlePose(double tilt) const;
  // Whether a world point lies inside the bottle's wall (between bottom and mouth) / the cup's.
  bool InBottle(const physics::Pose& bottle_pose, const physics::Vec3& x) const;
  bool InCup(const physics::Vec3& x) const;
};

PouringLayout PouringGeometry(const std::map<std::string, double>& params);
Scene MakePouring(const std::map<std::string, double>& params, std::uint64_t seed);

}  // namespace ncp
