// ContactProblem: one frozen per-step frictional contact problem in the primal form of 004:8,
//   A v = b + Σ_i J_iᵀ λ_i,   (J_i v + e_i, λ_i) ∈ S_i  for every constraint i,
// or, for fclib local problems that have no primal form, the dual form u = W λ + q.
#pragma once

#include <Eigen/Core>
#include <Eigen/SparseCore>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace ncp {

using Vec = Eigen::VectorXd;
using SpMat = Eigen::SparseMatrix<double, Eigen::ColMajor, int>;

// Stored as integers in datasets: never renumber.
enum class ConstraintType : std::uint8_t {
  kContact = 0,     // 3 rows [n, t1, t2], Signorini–Coulomb (004:5), friction mu
  kUnilateral = 1,  // 1 row, 0 ≤ λ ⟂ J v + e ≥ 0 (004:3)
  kBilateral = 2,   // 1 row, J v + e = 0, λ free
  kSoft = 3,        // 1 row, λ = −k e − d J v (004:4), k = stiffness, d = damping
  // 2 rows [n, t]: an implicit contact of a joint (003 §5.2), bilateral in n (J_n v + e_n = 0,
  // λ_n free: the joint cannot come apart) with friction |λ_t| ≤ μ |λ_n| of maximal dissipation
  // along t (λ_t = clamp(λ_t − u_t, ±μ|λ_n|), 003:12's box, exact for a 1-dof joint).
  kJointFriction = 4,
};
inline constexpr int kMaxConstraintType = 4;

inline int RowsOf(ConstraintType t) {
  return t == ConstraintType::kContact ? 3 : t == ConstraintType::kJointFriction ? 2 : 1;
}
const char* ToString(ConstraintType t);

struct Constraint {
  ConstraintType type = ConstraintType::kContact;
  int row = 0;             // first row of this constraint in J (rows are contiguous)
  double mu = 0.0;         // friction coefficient (contact and joint friction)
  double stiffness = 0.0;  // k (soft only)
  double damping = 0.0;    // d (soft only)
  int rows() const { return RowsOf(type); }
};

enum class ProblemForm : std::uint8_t { kGlobal = 0, kLocal = 1 };

// Optional structure layer (subsystems, bodies, per-body Jacobian blocks) used by the
// subsystem-based solvers. J must equal Σ_b J_{i,b} J_{b,j} placed in subsystem j's columns, on
// the columns of subsystems that have bodies (an `fem` subsystem has none: its dofs are nodal
// velocities, and its columns of J are the whole description).
struct Structure {
  struct Subsystem {
    int dof_begin = 0;
    int dof_count = 0;
    std::string kind;  // rigid | articulated | fem | cable | generic
  };
  struct Body {
    int subsystem = 0;
    int parent = -1;  // body index within the problem, −1 for a root
    double mass = 0.0;
    Eigen::Matrix3d inertia = Eigen::Matrix3d::Zero();  // about the com, body frame
    Eigen::Vector3d com = Eigen::Vector3d::Zero();
    Eigen::MatrixXd jacobian;  // J_{b,j}: 6 × subsystem dof_count (spatial velocity of the body)
    // Optional tree data (kinematic trees): the body's own joint owns subsystem-local dofs
    // [joint_dof, joint_dof + joint_dofs), and its twist is V_b = X V_parent + S q̇_joint with
    // S = jacobian.middleCols(joint_dof, joint_dofs) and X = transform. joint_dof = −1: unknown.
    int joint_dof = -1;
    int joint_dofs = 0;
    Eigen::Matrix<double, 6, 6> transform = Eigen::Matrix<double, 6, 6>::Identity();
    bool has_tree() const { return joint_dof >= 0; }
  };
  struct Block {
    int constraint = 0;
    int body = 0;
    Eigen::MatrixXd jacobian;  // J_{i,b}: rows of constraint × 6
  };
  std::vector<Subsystem> subsystems;
  std::vector<Body> bodies;
  std::vector<Block> blocks;
  bool empty() const { return subsystems.empty(); }
  // Every body of subsystem j carries tree data (and there is at least one body).
  bool IsTree(int j) const;
};

// High-accuracy solution stored with the problem (or the exact one of a manufactured problem).
struct Reference {
  Vec v;
  Vec lambda;
  std::string solver;    // "manufactured" for exact solutions
  double res004 = -1.0;  // residual of (v, λ), −1 when unknown
};

// An initial guess shipped with a problem (fclib /guesses, e.g. the previous step's solution).
struct Guess {
  Vec v;  // empty when the file has none (local problems)
  Vec lambda;
};

struct Metadata {
  std::string name;      // unique within a dataset
  std::string scenario;  // generator name, or "fclib"
  std::string case_name;
  int step = 0;
  double dt = 0.0;
  std::uint64_t seed = 0;
  int generator_version = 0;
  std::map<std::string, double> params;  // physical and generator parameters
};

struct ContactProblem {
  ProblemForm form = ProblemForm::kGlobal;
  // Global form.
  SpMat A;  // n × n, symmetric positive definite (both triangles stored)
  Vec b;    // n
  SpMat J;  // m × n
  // Local form (fclib local): u = W λ + q.
  SpMat W;  // m × m
  Vec q;    // m
  // Both forms.
  Vec e;  // m, bias per row (global form only; empty in the local form)
  std::vector<Constraint> constraints;
  Structure structure;
  std::optional<Reference> reference;
  std::vector<Guess> guesses;
  Metadata meta;

  int num_dofs() const { return form == ProblemForm::kGlobal ? static_cast<int>(A.rows()) : 0; }
  int num_rows() const;
  int num_constraints() const { return static_cast<int>(constraints.size()); }
  int num_contacts() const;
};

// Appends a constraint at the next free row; returns its index.
int AddConstraint(std::vector<Constraint>& cs, ConstraintType type, double mu = 0.0,
                  double stiffness = 0.0, double damping = 0.0);

}  // namespace ncp
