#include "problems/physics/penalty_contact.h"

#include <fmt/format.h>

#include <Eigen/SparseCholesky>
#include <cmath>

#include "common/error.h"

namespace ncp::physics {

void ValidatePenaltyGains(const PenaltyGains& g) {
  const std::pair<const char*, double> fields[] = {
      {"kn", g.kn}, {"cn", g.cn}, {"kt", g.kt}, {"ct", g.ct}};
  for (const auto& [name, value] : fields)
    if (!(value >= 0) || !std::isfinite(value))
      throw Error(fmt::format("penalty gain {} = {}: must be finite and >= 0", name, value));
}

PenaltyContact::PenaltyContact(PenaltyGains g) : g_(g) { ValidatePenaltyGains(g_); }

Vec PenaltyContact::Step(const ContactProblem& p, const std::vector<ContactPoint>& contacts,
                         const Vec& v) {
  if (p.form != ProblemForm::kGlobal || v.size() != p.num_dofs())
    throw Error(fmt::format("penalty contact: v: wrong argument size: expected {}, got {}",
                            p.num_dofs(), v.size()));
  if (static_cast<int>(contacts.size()) != p.num_constraints())
    throw Error(fmt::format(
        "penalty contact: {} contact points for {} constraints: only contact rows are modelled",
        contacts.size(), p.num_constraints()));
  if (!(p.meta.dt > 0))
    throw Error(fmt::format("penalty contact: dt = {}: must be > 0", p.meta.dt));
  if (anchor_.size() != contacts.size()) {
    anchor_.assign(contacts.size(), Eigen::Vector2d::Zero());
    touching_.assign(contacts.size(), false);
  }
  const double dt = p.meta.dt;
  const Vec u = p.J * v;  // contact-point velocities [n, t1, t2] at the start of the step
  Vec impulse = Vec::Zero(p.num_rows());
  for (std::size_t i = 0; i < contacts.size(); ++i) {
    const Constraint& c = p.constraints[i];
    if (c.type != ConstraintType::kContact)
      throw Error(fmt::format("penalty contact: constraint {} is not a frictional contact", i));
    const double g = contacts[i].gap;
    if (g >= 0) {  // not touching: the anchor is released
      touching_[i] = false;
      anchor_[i].setZero();
      continue;
    }
    const Eigen::Vector2d ut(u[c.row + 1], u[c.row + 2]);
    if (touching_[i]) anchor_[i] += dt * ut;  // the spring stretches with the point's slide
    touching_[i] = true;
    const double fn = std::max(0.0, -g_.kn * g - g_.cn * u[c.row]);
    Eigen::Vector2d ft = -g_.kt * anchor_[i] - g_.ct * ut;
    const double cap = c.mu * fn, norm = ft.norm();
    if (norm > cap) {
      // Slip: the force lies on the cone and the anchor follows so the spring carries it.
      ft *= norm > 0 ? cap / norm : 0.0;
      if (g_.kt > 0) anchor_[i] = -(ft + g_.ct * ut) / g_.kt;
    }
    impulse[c.row] = dt * fn;
    impulse.segment<2>(c.row + 1) = dt * ft;
  }
  Eigen::SimplicialLDLT<SpMat> llt(p.A);
  if (llt.info() != Eigen::Success) throw Error("penalty contact: A is not positive definite");
  Vec vhat = llt.solve(p.b + p.J.transpose() * impulse);
  if (!vhat.allFinite()) throw Error("penalty contact: the step's velocity is not finite");
  return vhat;
}

}  // namespace ncp::physics
