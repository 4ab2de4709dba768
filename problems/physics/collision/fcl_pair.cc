#include "problems/physics/collision/fcl_pair.h"

#include <fcl/narrowphase/collision.h>
#include <fcl/narrowphase/distance.h>

namespace ncp::physics {

FclPairContacts::FclPairContacts() {
  // Box–box is the only FCL pair that returns several points (up to 4 for faces).
  collide_request_.num_max_contacts = 4;
  collide_request_.enable_contact = true;
  distance_request_.enable_nearest_points = true;
}

void FclPairContacts::Append(const GeomObject& a, const Shape& shape_a, const GeomObject& b,
                             const Shape& shape_b, double margin, std::vector<ContactPoint>& out) {
  collide_result_.clear();
  fcl::collide(&a, &b, collide_request_, collide_result_);
  if (collide_result_.numContacts() > 0) {
    for (size_t k = 0; k < collide_result_.numContacts(); ++k) {
      const fcl::Contactd& contact = collide_result_.getContact(k);
      ContactPoint c;
      c.gap = -contact.penetration_depth;
      if (c.gap >= margin) continue;
      const double norm = contact.normal.norm();
      // Concentric spheres have no normal: any fixed unit vector keeps the output deterministic.
      c.normal = norm > 1e-12 ? Vec3(contact.normal / norm) : Vec3::UnitZ();
      // FCL's position convention differs between its sphere algorithms; a sphere's deepest point
      // along the normal gives the point halfway between the two surfaces exactly.
      if (shape_a.type == ShapeType::kSphere) {
        c.position = a.getTranslation() + (shape_a.radius + 0.5 * c.gap) * c.normal;
      } else if (shape_b.type == ShapeType::kSphere) {
        c.position = b.getTranslation() - (shape_b.radius + 0.5 * c.gap) * c.normal;
      } else {
        c.position = contact.pos;
      }
      out.push_back(c);
    }
    return;
  }

  distance_result_.clear();
  const double distance = fcl::distance(&a, &b, distance_request_, distance_result_);
  if (!(distance > 0.0) || distance >= margin) return;
  const Vec3& pa = distance_result_.nearest_points[0];
  const Vec3& pb = distance_result_.nearest_points[1];
  const Vec3 diff = pb - pa;
  const double norm = diff.norm();
  if (norm < 1e-12) return;
  ContactPoint c;
  c.position = 0.5 * (pa + pb);
  c.normal = diff / norm;
  c.gap = distance;
  out.push_back(c);
}

}  // namespace ncp::physics
