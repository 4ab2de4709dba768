#include "problems/model/validate.h"

#include <Eigen/SparseCholesky>
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <iterator>
#include <vector>
#include <fmt/format.h>

namespace ncp {
namespace {

std::string SizeError(const char* field, long expected, long got) {
  return fmt::format("{}: wrong size: expected {}, got {}", field, expected, got);
}

std::string CheckFinite(const char* field, const Vec& x) {
  for (Eigen::Index i = 0; i < x.size(); ++i)
    if (!std::isfinite(x[i])) return fmt::format("{}[{}] = {}: must be finite", field, i, x[i]);
  return {};
}

std::string CheckFinite(const char* field, const SpMat& M) {
  for (int k = 0; k < M.outerSize(); ++k)
    for (SpMat::InnerIterator it(M, k); it; ++it)
      if (!std::isfinite(it.value()))
        return fmt::format("{}({},{}) = {}: must be finite", field, it.row(), it.col(), it.value());
  return {};
}

std::string CheckSymmetric(const char* field, const SpMat& M, double tol) {
  if (M.rows() != M.cols())
    return fmt::format("{}: must be square, got {}x{}", field, M.rows(), M.cols());
  double scale = 0.0;
  for (int k = 0; k < M.outerSize(); ++k)
    for (SpMat::InnerIterator it(M, k); it; ++it) scale = std::max(scale, std::abs(it.value()));
  SpMat D = SpMat(M.transpose()) - M;
  for (int k = 0; k < D.outerSize(); ++k)
    for (SpMat::InnerIterator it(D, k); it; ++it)
      if (std::abs(it.value()) > tol * std::max(scale, 1e-300))
        return fmt::format("{}: not symmetric: {}({},{}) differs from {}({},{}) by {:.3e}", field,
                           field, it.row(), it.col(), field, it.col(), it.row(), it.value());
  return {};
}

std::string CheckConstraints(const ContactProblem& p, int rows) {
  std::int64_t next = 0;  // 64-bit: a corrupt row near INT_MAX must not overflow the sum
  for (int i = 0; i < p.num_constraints(); ++i) {
    const Constraint& c = p.constraints[i];
    if (static_cast<int>(c.type) > kMaxConstraintType)
      return fmt::format("constraint[{}].type = {}: must be 0..{}", i, static_cast<int>(c.type),
                         kMaxConstraintType);
    if (c.row != next)
      return fmt::format("constraint[{}].row = {}: must be {} (rows are contiguous, in order)", i,
                         c.row, next);
    next += c.rows();
    // mu, stiffness and damping are unused on some rows, but a NaN or ∞ there is a corrupt file
    if (!std::isfinite(c.mu)) return fmt::format("constraint[{}].mu = {}: must be finite", i, c.mu);
    if (!std::isfinite(c.stiffness))
      return fmt::format("constraint[{}].stiffness = {}: must be finite", i, c.stiffness);
    if (!std::isfinite(c.damping))
      return fmt::format("constraint[{}].damping = {}: must be finite", i, c.damping);
    if ((c.type == ConstraintType::kContact || c.type == ConstraintType::kJointFriction) &&
        !(c.mu >= 0.0 && std::isfinite(c.mu)))
      return fmt::format("constraint[{}].mu = {}: must be finite and >= 0", i, c.mu);
    if (c.type == ConstraintType::kSoft) {
      if (!(c.stiffness > 0.0 && std::isfinite(c.stiffness)))
        return fmt::format("constraint[{}].stiffness = {}: must be finite and > 0", i, c.stiffness);
      if (!(c.damping > 0.0 && std::isfinite(c.damping)))
        return fmt::format("constraint[{}].damping = {}: must be finite and > 0", i, c.damping);
    }
  }
  if (next != rows)
    return fmt::format("constraints: cover {} rows, but the problem has {} rows", next, rows);
  return {};
}

std::string CheckSpd(const char* field, const SpMat& M) {
  Eigen::SimplicialLLT<SpMat> llt(M);
  if (llt.info() != Eigen::Success)
    return fmt::format("{}: not symmetric positive definite (Cholesky failed)", field);
  return {};
}

// Tree data, when present: the joint's dofs lie inside the subsystem, the parent precedes the
// body in the same subsystem, and J_b = X J_parent + S E_joint (what the tree solvers rely on).
std::string CheckTree(const Structure& s, int k, double tol) {
  const Structure::Body& body = s.bodies[k];
  if (!body.has_tree()) return {};
  const int cols = static_cast<int>(body.jacobian.cols());
  // 64-bit: a corrupt joint_dof near INT_MAX must not wrap the sum back into range
  if (body.joint_dofs < 0 || std::int64_t{body.joint_dof} + body.joint_dofs > cols)
    return fmt::format(
        "structure.bodies[{}].joint_dof = {} (+{} dofs): outside the subsystem's "
        "{} dofs",
        k, body.joint_dof, body.joint_dofs, cols);
  if (body.parent >= 0 && (body.parent >= k || s.bodies[body.parent].subsystem != body.subsystem))
    return fmt::format(
        "structure.bodies[{}].parent = {}: a tree body needs an earlier parent in "
        "its own subsystem",
        k, body.parent);
  Eigen::MatrixXd expect = Eigen::MatrixXd::Zero(6, cols);
  if (body.parent >= 0) expect = body.transform * s.bodies[body.parent].jacobian;
  expect.middleCols(body.joint_dof, body.joint_dofs) +=
      body.jacobian.middleCols(body.joint_dof, body.joint_dofs);
  const double worst = (expect - body.jacobian).cwiseAbs().maxCoeff();
  const double scale = std::max(1.0, body.jacobian.cwiseAbs().maxCoeff());
  if (worst > tol * scale)
    return fmt::format(
        "structure.bodies[{}].transform: jacobian differs from X J_parent + S by "
        "{:.3e} (> {:.0e})",
        k, worst, tol * scale);
  return {};
}

// Every chain of parents ends at a root: a cycle would make any walk up the tree endless.
// Each body is walked once (state: 0 not seen, 1 on the current chain, 2 known to end at a root).
std::string CheckParentsAcyclic(const Structure& s) {
  const int nb = static_cast<int>(s.bodies.size());
  std::vector<unsigned char> state(nb, 0);
  for (int k = 0; k < nb; ++k) {
    int b = k;
    while (b >= 0 && state[b] == 0) state[b] = 1, b = s.bodies[b].parent;
    if (b >= 0 && state[b] == 1)
      return fmt::format(
          "structure.bodies[{}].parent = {}: the parents form a cycle through body {}", b,
          s.bodies[b].parent, b);
    for (b = k; b >= 0 && state[b] == 1; b = s.bodies[b].parent) state[b] = 2;
  }
  return {};
}

std::string CheckStructure(const ContactProblem& p, double tol) {
  const Structure& s = p.structure;
  const int n = p.num_dofs();
  std::int64_t covered = 0;  // 64-bit: corrupt counts near INT_MAX must not wrap back to n
  for (std::size_t j = 0; j < s.subsystems.size(); ++j) {
    const auto& sub = s.subsystems[j];
    if (sub.dof_begin != covered || sub.dof_count <= 0)
      return fmt::format(
          "structure.subsystems[{}]: dof range [{}, +{}) must start at {} and be "
          "non-empty",
          j, sub.dof_begin, sub.dof_count, covered);
    covered += sub.dof_count;
    static const char* const kKinds[] = {"rigid", "articulated", "fem", "cable", "generic"};
    if (std::find(std::begin(kKinds), std::end(kKinds), sub.kind) == std::end(kKinds))
      return fmt::format(
          "structure.subsystems[{}].kind = '{}': must be rigid, articulated, fem, "
          "cable or generic",
          j, sub.kind);
  }
  if (covered != n)
    return fmt::format("structure.subsystems: cover {} dofs, but A is {}x{}", covered, n, n);
  for (std::size_t k = 0; k < s.bodies.size(); ++k) {
    const auto& body = s.bodies[k];
    if (body.subsystem < 0 || body.subsystem >= static_cast<int>(s.subsystems.size()))
      return fmt::format("structure.bodies[{}].subsystem = {}: out of range", k, body.subsystem);
    if (body.parent < -1 || body.parent >= static_cast<int>(s.bodies.size()))
      return fmt::format("structure.bodies[{}].parent = {}: out of range", k, body.parent);
    if (!(body.mass > 0.0 && std::isfinite(body.mass)))
      return fmt::format("structure.bodies[{}].mass = {}: must be finite and > 0", k, body.mass);
    if (!body.inertia.allFinite() || !body.com.allFinite() || !body.transform.allFinite() ||
        !body.jacobian.allFinite())
      return fmt::format(
          "structure.bodies[{}]: inertia, com, transform or jacobian has a "
          "non-finite entry",
          k);
    const int cols = s.subsystems[body.subsystem].dof_count;
    if (body.jacobian.rows() != 6 || body.jacobian.cols() != cols)
      return fmt::format(
          "structure.bodies[{}].jacobian: wrong argument size: expected 6x{}, got "
          "{}x{}",
          k, cols, body.jacobian.rows(), body.jacobian.cols());
    if (std::string err = CheckTree(s, static_cast<int>(k), tol); !err.empty()) return err;
  }
  if (std::string err = CheckParentsAcyclic(s); !err.empty()) return err;
  // Rebuild J from the blocks (sparse) and compare entry by entry on the columns of subsystems
  // that have bodies; a subsystem without bodies (an FEM piece: its dofs are nodal velocities)
  // is described by J itself.
  std::vector<int> col_sub(n, -1);
  std::vector<char> described(s.subsystems.size(), 0);
  for (const auto& body : s.bodies) described[body.subsystem] = 1;
  for (std::size_t j = 0; j < s.subsystems.size(); ++j)
    for (int c = 0; c < s.subsystems[j].dof_count; ++c)
      col_sub[s.subsystems[j].dof_begin + c] = static_cast<int>(j);
  std::vector<Eigen::Triplet<double>> trip;
  for (std::size_t k = 0; k < s.blocks.size(); ++k) {
    const auto& blk = s.blocks[k];
    if (blk.constraint < 0 || blk.constraint >= p.num_constraints())
      return fmt::format("structure.blocks[{}].constraint = {}: out of range", k, blk.constraint);
    if (blk.body < 0 || blk.body >= static_cast<int>(s.bodies.size()))
      return fmt::format("structure.blocks[{}].body = {}: out of range", k, blk.body);
    const Constraint& c = p.constraints[blk.constraint];
    if (!blk.jacobian.allFinite())
      return fmt::format("structure.blocks[{}].jacobian: a non-finite entry", k);
    if (blk.jacobian.rows() != c.rows() || blk.jacobian.cols() != 6)
      return fmt::format(
          "structure.blocks[{}].jacobian: wrong argument size: expected {}x6, got "
          "{}x{}",
          k, c.rows(), blk.jacobian.rows(), blk.jacobian.cols());
    const auto& body = s.bodies[blk.body];
    const auto& sub = s.subsystems[body.subsystem];
    const Eigen::MatrixXd prod = blk.jacobian * body.jacobian;
    for (int r = 0; r < prod.rows(); ++r)
      for (int col = 0; col < prod.cols(); ++col)
        trip.emplace_back(c.row + r, sub.dof_begin + col, prod(r, col));
  }
  SpMat Jd(p.J.rows(), p.J.cols());
  Jd.setFromTriplets(trip.begin(), trip.end());
  const SpMat diff = Jd - p.J;
  double scale = 1.0, worst = 0.0;
  int r = 0, col = 0;
  for (int k = 0; k < p.J.outerSize(); ++k)
    for (SpMat::InnerIterator it(p.J, k); it; ++it) scale = std::max(scale, std::abs(it.value()));
  for (int k = 0; k < diff.outerSize(); ++k) {
    if (!described[col_sub[k]]) continue;
    for (SpMat::InnerIterator it(diff, k); it; ++it)
      if (std::abs(it.value()) > worst) {
        worst = std::abs(it.value());
        r = static_cast<int>(it.row());
        col = k;
      }
  }
  if (worst > tol * scale)
    return fmt::format(
        "structure: J({},{}) = {} but the product of structure blocks gives {} "
        "(differs by {:.3e} > {:.0e})",
        r, col, p.J.coeff(r, col), Jd.coeff(r, col), worst, tol * scale);
  return {};
}

// W = J A⁻¹ Jᵀ is positive semidefinite: no negative diagonal, and not zero. A zero diagonal is
// allowed (the tangent rows of a unilateral row exported as a μ = 0 contact).
std::string CheckDelassusDiagonal(const SpMat& W) {
  double largest = 0.0;
  for (int i = 0; i < W.rows(); ++i) {
    const double d = W.coeff(i, i);
    if (d < 0.0)
      return fmt::format("W({},{}) = {}: a Delassus matrix has no negative diagonal entry", i, i,
                         d);
    largest = std::max(largest, d);
  }
  if (W.rows() > 0 && !(largest > 0.0)) return "W: zero diagonal: not a Delassus matrix";
  return {};
}

}  // namespace

double Asymmetry(const SpMat& M) {
  if (M.rows() != M.cols() || M.nonZeros() == 0) return 0.0;
  double scale = 0.0, worst = 0.0;
  for (int k = 0; k < M.outerSize(); ++k)
    for (SpMat::InnerIterator it(M, k); it; ++it) scale = std::max(scale, std::abs(it.value()));
  const SpMat D = SpMat(M.transpose()) - M;
  for (int k = 0; k < D.outerSize(); ++k)
    for (SpMat::InnerIterator it(D, k); it; ++it) worst = std::max(worst, std::abs(it.value()));
  return scale > 0 ? worst / scale : 0.0;
}

std::string ValidateFinite(const ContactProblem& p) {
  std::string err;
  if (!(err = CheckFinite("A", p.A)).empty() || !(err = CheckFinite("b", p.b)).empty() ||
      !(err = CheckFinite("J", p.J)).empty() || !(err = CheckFinite("e", p.e)).empty())
    return err;
  return {};
}

namespace {

// Sizes and values of the shipped initial guesses: v empty or n (none in the local form), λ m.
std::string CheckGuesses(const ContactProblem& p, int n, int m) {
  for (std::size_t k = 0; k < p.guesses.size(); ++k) {
    const Guess& g = p.guesses[k];
    const std::string v = fmt::format("guesses[{}].v", k),
                      lambda = fmt::format("guesses[{}].lambda", k);
    if (g.v.size() != 0 && g.v.size() != n) return SizeError(v.c_str(), n, g.v.size());
    if (g.lambda.size() != m) return SizeError(lambda.c_str(), m, g.lambda.size());
    if (!g.v.allFinite() || !g.lambda.allFinite())
      return fmt::format("guesses[{}]: v or lambda has a non-finite entry", k);
  }
  return {};
}

}  // namespace

std::string Validate(const ContactProblem& p, const ValidateOptions& opt) {
  if (!(std::isfinite(p.meta.dt) && p.meta.dt >= 0.0))
    return fmt::format("meta.dt = {}: must be finite and >= 0", p.meta.dt);
  for (const auto& [key, value] : p.meta.params)
    if (!std::isfinite(value))
      return fmt::format("meta.params.{} = {}: must be finite", key, value);
  if (p.reference && !(std::isfinite(p.reference->res004) &&
                       (p.reference->res004 >= 0.0 || p.reference->res004 == -1.0)))
    return fmt::format("reference.res004 = {}: must be finite and >= 0 (-1: unknown)",
                       p.reference->res004);
  const int m = p.num_rows();
  std::string err = CheckConstraints(p, p.form == ProblemForm::kGlobal ? p.J.rows() : p.W.rows());
  if (!err.empty()) return err;
  if (p.form == ProblemForm::kLocal) {
    if (p.W.rows() != p.W.cols())
      return fmt::format("W: must be square, got {}x{}", p.W.rows(), p.W.cols());
    if (p.W.rows() != m) return SizeError("W", m, p.W.rows());
    if (p.q.size() != m) return SizeError("q", m, p.q.size());
    if (!(err = CheckFinite("W", p.W)).empty() || !(err = CheckFinite("q", p.q)).empty())
      return err;
    if (!(err = CheckDelassusDiagonal(p.W)).empty()) return err;
    if (p.reference && p.reference->lambda.size() != m)
      return SizeError("reference.lambda", m, p.reference->lambda.size());
    if (p.reference && !p.reference->lambda.allFinite())
      return "reference.lambda: a non-finite entry";
    return CheckGuesses(p, 0, m);
  }
  const int n = p.A.rows();
  if (n == 0) return "A: empty (0x0): a global problem needs at least one dof";
  if (p.A.cols() != n) return fmt::format("A: must be square, got {}x{}", n, p.A.cols());
  if (p.b.size() != n) return SizeError("b", n, p.b.size());
  if (p.J.cols() != n) return SizeError("J columns", n, p.J.cols());
  if (p.e.size() != m) return SizeError("e", m, p.e.size());
  if (!(err = CheckFinite("A", p.A)).empty() || !(err = CheckFinite("b", p.b)).empty() ||
      !(err = CheckFinite("J", p.J)).empty() || !(err = CheckFinite("e", p.e)).empty())
    return err;
  if (!(err = CheckSymmetric("A", p.A, opt.symmetry_tol)).empty()) return err;
  if (opt.check_spd && !(err = CheckSpd("A", p.A)).empty()) return err;
  if (p.reference) {
    if (p.reference->v.size() != n) return SizeError("reference.v", n, p.reference->v.size());
    if (p.reference->lambda.size() != m)
      return SizeError("reference.lambda", m, p.reference->lambda.size());
    if (!p.reference->v.allFinite() || !p.reference->lambda.allFinite())
      return "reference: v or lambda has a non-finite entry";
  }
  if (!(err = CheckGuesses(p, n, m)).empty()) return err;
  if (!p.structure.empty()) return CheckStructure(p, opt.structure_tol);
  return {};
}

}  // namespace ncp
