// Frees the matrices a Siconos 4.4 driver makes during one call and then drops.
//
// gfc3d_ADMM makes H_full (an n x m sparse matrix, 11 kB on Box_Stacks) with NM_create on every
// call and never frees it, nor does anything keep it (valgrind: "definitely lost"). The suite's
// binaries define NM_create and NM_clear: Siconos' calls reach its own through them (the
// executable's symbols come first, as for dmumps_c in mumps_instances.h), and inside a
// DriverMatrixScope they record which matrices were made and which were cleared. When the scope
// closes, the matrices made inside it and never cleared are freed, except those the problem
// holds then (`kept`): a driver may replace problem->M or H with a copy of its own.
//
// Only for drivers whose source shows that nothing made in a call outlives it (gfc3d ADMM):
// a driver that keeps a matrix in its options between calls must not run in such a scope.
// Where the definitions are not the ones Siconos binds to, the scope sees nothing and frees
// nothing.
#pragma once

#include <array>
#include <initializer_list>

struct NumericsMatrix;

namespace ncp::siconos {

class DriverMatrixScope {
 public:
  // `kept`: where the problem's matrix pointers live, read when the scope closes.
  explicit DriverMatrixScope(std::initializer_list<NumericsMatrix**> kept);
  ~DriverMatrixScope();  // frees the matrices made inside, never cleared, and not kept
  DriverMatrixScope(const DriverMatrixScope&) = delete;
  DriverMatrixScope& operator=(const DriverMatrixScope&) = delete;

  // After a call that aborted: its matrices may be half-built, so they are left as they are.
  void Abandon() { made_.fill(nullptr); }

  // Called by the NM_create / NM_clear definitions for the innermost open scope of the thread.
  void Made(NumericsMatrix* m);
  void Cleared(NumericsMatrix* m);

 private:
  // A fixed table, so that a call allocates nothing here; a matrix that finds it full is not
  // tracked (and not freed): the scope never frees what it did not see made.
  std::array<NumericsMatrix*, 32> made_{};
  std::array<NumericsMatrix**, 4> kept_{};
  DriverMatrixScope* outer_;
};

// Matrices freed by scopes so far (for tests and diagnostics).
long FreedDriverMatrices();

}  // namespace ncp::siconos
