// Host storage of the structure-of-arrays layout of rigid_math.h, built from a problem whose
// subsystems are single 6-dof rigid bodies (001 §II-B). The CPU path iterates on it directly; the
// GPU solver copies it to the device once.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "solvers/subadmm_rigid/rigid_math.h"
#include "problems/model/contact_problem.h"

namespace ncp::gpu {

// Constraints of one row count: contacts (3) or 1-row joints (unilateral, bilateral, soft).
struct RigidSet {
  explicit RigidSet(int rows) : nr(rows) {}
  int nr;
  int n = 0;
  std::vector<int> row;   // first row in the problem's λ
  std::vector<int> body;  // 2 × n
  std::vector<unsigned char> type;
  std::vector<double> J, e, mu, stiffness, damping, lambda, w, y, z;
  ConstraintView View();
};

struct RigidLayout {
  int nb = 0;
  std::vector<int> dof_begin;   // per body: first dof of its subsystem
  std::vector<double> mass, A;  // one of them: see BodyView
  std::vector<double> C, L, b, v, g, h, hold, gold;
  RigidSet contacts{3}, joints{1};
  // Places of J's dofs and rows in the layout (JSource).
  std::vector<int> dof_place, row_place;
  // Of the build: body per subsystem, subsystem per body, the constraints of each
  // set in order.
  std::vector<int> scratch_body_of_sub, scratch_sub_of_body;
  std::vector<int> scratch_contact_of, scratch_joint_of;
  BodyView Bodies();
  // The problem's J with this layout's places (the problem must outlive the view).
  JSource Source(const ContactProblem& p) const;
  // Scatter/gather between the problem's (v, λ) and the layout.
  void SetState(const Vec& v0, const Vec& lambda0);
  void GetState(Vec& v_out, Vec& lambda_out) const;
};

// J's entries (compressed columns) as a JSource without places (RigidLayout::Source adds them).
JSource JEntries(const SpMat& J);

struct LayoutOptions {
  // OpenMP threads of the per-body and per-constraint passes (used from 2048 constraints).
  int threads = 1;
  // false: leave J, C, L, g, h, hold and the slacks w, y, z empty: the device scatters J from
  // the problem's (ScatterColumn) and clears its own work arrays.
  bool host_work = true;
};

// Returns "" and fills `out`, or the reason the problem does not fit one body per subsystem.
// A layout built before is overwritten in place, its arrays' capacity kept.
std::string BuildRigidLayout(const ContactProblem& p, RigidLayout& out,
                             const LayoutOptions& opt = {});

// The Info() of both rigid solvers (CPU path and GPU): penalty, residuals, sizes.
std::vector<std::pair<std::string, double>> RigidInfo(const Scalars& sc, const RigidLayout& lay);

}  // namespace ncp::gpu
