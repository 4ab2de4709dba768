#include "problems/io/fclib_solution.h"

#include <fmt/format.h>

#include <Eigen/SparseCholesky>
#include <cmath>

#include "common/error.h"
#include "problems/io/h5_util.h"

namespace ncp {
namespace {

using h5::Group;

constexpr const char* kSolution = "solution";
// Set (in the problem's metadata, through the trusted copy) on a global reference whose v
// CompleteReferenceVelocity must solve for; erased there.
constexpr const char* kVelocityPending = "reference_v_pending";
constexpr const char* kGuesses = "guesses";

// A float vector of `expected` entries, or empty when the group has no such dataset.
Vec ReadOptional(const Group& g, const char* name, std::size_t expected) {
  if (!g.Has(name)) return Vec();
  // The size is checked before anything is read, so a corrupt length allocates nothing.
  const std::int64_t got = g.Count(name, H5T_FLOAT);
  if (got != static_cast<std::int64_t>(expected))
    g.Fail(name, fmt::format("wrong size: expected {}, got {}", expected, got));
  const std::vector<double> x = g.ReadDoublesFlat(name);  // N or N × 1, as libfclib reads it
  for (std::size_t k = 0; k < x.size(); ++k)
    if (!std::isfinite(x[k])) g.Fail(name, fmt::format("[{}] = {}: must be finite", k, x[k]));
  return Eigen::Map<const Vec>(x.data(), static_cast<Eigen::Index>(x.size()));
}

struct FclibVectors {
  Vec v, lambda;
  bool any_force = false;  // some entry of r or l is not zero
};

// One fclib_solution group (the solution or one guess) in ncpbench's rows.
FclibVectors ReadVectors(const Group& g, const FclibRowMap& map, const ContactProblem& p) {
  FclibVectors out;
  const Vec r = ReadOptional(g, "r", map.out_h.size());
  const Vec l = ReadOptional(g, "l", map.out_g.size());
  out.lambda = Vec::Zero(p.num_rows());
  for (Eigen::Index j = 0; j < r.size(); ++j) {
    if (r[j] != 0.0) out.any_force = true;
    if (map.out_h[j] >= 0) out.lambda[map.out_h[j]] = r[j];
  }
  for (Eigen::Index j = 0; j < l.size(); ++j) {
    if (l[j] != 0.0) out.any_force = true;
    out.lambda[map.out_g[j]] = l[j];
  }
  if (p.form == ProblemForm::kGlobal) out.v = ReadOptional(g, "v", p.A.rows());
  return out;
}

// v = A⁻¹(b + Jᵀλ): the velocity that goes with λ when the file stores none.
Vec VelocityOf(const ContactProblem& p, const Vec& lambda) {
  Eigen::SimplicialLDLT<SpMat> ldlt(p.A);
  if (ldlt.info() != Eigen::Success) return Vec();
  Vec v = ldlt.solve(p.b + p.J.transpose() * lambda);
  return ldlt.info() == Eigen::Success && v.allFinite() ? v : Vec();
}

}  // namespace

void CompleteReferenceVelocity(ContactProblem& p) {
  if (p.meta.params.erase(kVelocityPending) == 0 || !p.reference) return;
  p.reference->v = VelocityOf(p, p.reference->lambda);
  if (p.reference->v.size() != p.A.rows()) p.reference.reset();  // A not factorizable: none
}

void ReadFclibSolutions(const std::string& path, const FclibRowMap& map, ContactProblem& p) {
  h5::File f = h5::File::OpenReadOnly(path);
  const Group& root = f.root();
  const bool global = p.form == ProblemForm::kGlobal;
  if (root.HasGroup(kSolution)) {
    FclibVectors s = ReadVectors(root.Open(kSolution), map, p);
    // Writers that have no solution leave r all zeros: then there is no reference.
    if (s.any_force) {
      // v left empty when the file has none: CompleteReferenceVelocity solves for it outside
      // the reader's time limit, which is sized for the file, not for a factorization.
      if (global && s.v.size() != 0 && s.v.isZero(0.0)) s.v.resize(0);
      if (global && s.v.size() == 0) p.meta.params[kVelocityPending] = 1.0;
      Reference ref;
      ref.v = std::move(s.v);  // empty or A's size: ReadOptional checked it
      ref.lambda = std::move(s.lambda);
      ref.solver = "fclib /solution";
      p.reference = std::move(ref);
    }
  }
  if (root.HasGroup(kGuesses)) {
    const Group g = root.Open(kGuesses);
    const int count = g.ReadOneInt("number_of_guesses");
    if (count < 0) g.Fail("number_of_guesses", fmt::format("{}: must be >= 0", count));
    for (int k = 1; k <= count; ++k) {
      const std::string name = std::to_string(k);
      if (!g.HasGroup(name)) g.Fail(name, fmt::format("missing (number_of_guesses = {})", count));
      const Group guess = g.Open(name);
      // u alone says nothing of λ or v: read as a zero guess it would start from nothing.
      if (!guess.Has("r") && !guess.Has("l") && !guess.Has("v"))
        g.Fail(name, "holds none of r, l and v: a guess needs the reactions or the velocity");
      FclibVectors s = ReadVectors(guess, map, p);
      p.guesses.push_back({std::move(s.v), std::move(s.lambda)});
    }
  }
}

namespace {

// One fclib_solution group from (v, λ) in ncpbench's rows: v (global problems with one), u and r
// in the columns of H (or W), l in those of G. u = J v + e (global, with a v) or W λ + q (local).
void WriteSolutionGroup(const Group& s, const ContactProblem& p, const Vec& v, const Vec& lambda,
                        const std::vector<int>& contact_rows,
                        const std::vector<int>& bilateral_rows) {
  const bool global = p.form == ProblemForm::kGlobal;
  const bool has_u = !global || v.size() == p.A.rows();
  const Vec u = !has_u ? Vec() : global ? Vec(p.J * v + p.e) : Vec(p.W * lambda + p.q);
  std::vector<double> r(contact_rows.size(), 0.0), uc(contact_rows.size(), 0.0), l;
  for (std::size_t k = 0; k < contact_rows.size(); ++k) {
    if (contact_rows[k] < 0) continue;
    r[k] = lambda[contact_rows[k]];
    if (has_u) uc[k] = u[contact_rows[k]];
  }
  for (int row : bilateral_rows) l.push_back(lambda[row]);
  if (global && v.size() != 0) s.WriteDoubles("v", std::span<const double>(v.data(), v.size()));
  if (has_u) s.WriteDoubles("u", uc);
  s.WriteDoubles("r", r);
  if (!l.empty()) s.WriteDoubles("l", l);
}

}  // namespace

void WriteFclibSolution(const std::string& path, const ContactProblem& p,
                        const std::vector<int>& contact_rows,
                        const std::vector<int>& bilateral_rows) {
  if (!p.reference && p.guesses.empty()) return;
  h5::File f = h5::File::OpenReadWrite(path);
  if (p.reference)
    WriteSolutionGroup(f.root().Create(kSolution), p, p.reference->v, p.reference->lambda,
                       contact_rows, bilateral_rows);
  // The guesses a problem came with (fclib /guesses 1..N), so that a round trip keeps them.
  if (p.guesses.empty()) return;
  const Group g = f.root().Create(kGuesses);
  const std::int32_t count = static_cast<std::int32_t>(p.guesses.size());
  g.WriteInts("number_of_guesses", std::span<const std::int32_t>(&count, 1));
  for (std::size_t k = 0; k < p.guesses.size(); ++k)
    WriteSolutionGroup(g.Create(std::to_string(k + 1)), p, p.guesses[k].v, p.guesses[k].lambda,
                       contact_rows, bilateral_rows);
}

}  // namespace ncp
