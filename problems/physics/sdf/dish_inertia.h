// Mass properties of a dish (a solid of revolution about z) from its meridian profile, for the
// rigid bodies of the dish scenes: centre of mass on the axis and the inertia about it.
#pragma once

#include <Eigen/Core>

#include "problems/physics/sdf/dish_sdf.h"

namespace ncp::physics {

struct DishMass {
  double mass = 0.0;
  Eigen::Vector3d com = Eigen::Vector3d::Zero();      // dish frame, on the axis
  Eigen::Matrix3d inertia = Eigen::Matrix3d::Zero();  // about com, dish-frame axes
};

// Uniform density chosen so that the solid weighs `mass`. Throws ncp::Error when mass ≤ 0.
DishMass DishMassProperties(const DishSdf& dish, double mass);

}  // namespace ncp::physics
