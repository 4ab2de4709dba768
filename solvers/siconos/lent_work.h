// Work memory the adapter lends to the Siconos 4.4 drivers that lose their own on every call.
//
// - gfc3d NSN-AC callocs its work arrays into the options and then overwrites options->dWork
//   with another array, losing the first (31 kB per call on Box_Stacks). Marked as allocated
//   (SICONOS_FRICTION_3D_NSN_MEMORY_ALLOCATED), the arrays are taken from the options instead.
// - gfc3d ADMM makes its state (options->solverData, nine arrays) in gfc3d_ADMM_init and frees it
//   in gfc3d_ADMM_free, which forgets the array `u` (m doubles, 4.3 kB per call on Box_Stacks).
//   It skips both when options->dWork already holds 2m + n doubles, and then works in
//   options->solverData as it finds it: lent here, laid out as Siconos' Gfc3d_ADDM_data.
//
// Lent arrays are zeroed before each call, as calloc gives them to a fresh call, so results are
// those of Siconos' own allocation. Both layouts were checked against the Siconos 4.4 binary
// (Debian 4.4.0+dfsg-2); the NSN-AC arrays carry a 2x margin.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

struct SolverOptions;

namespace ncp::siconos {

class LentWork {
 public:
  // Sizes the arrays for the Siconos solver `solver_id` on a problem with n dofs and m contact
  // rows; methods not listed above get none and Lend/TakeBack do nothing for them.
  void Prepare(int solver_id, std::size_t n, std::size_t m);
  // Hands the zeroed arrays to `o` before a driver call.
  void Lend(SolverOptions* o);
  // Takes them back after the call, so that freeing the options leaves them alone.
  void TakeBack(SolverOptions* o);

 private:
  // Siconos 4.4's Gfc3d_ADDM_data (gfc3d_ADMM.c): nine arrays, in this order.
  struct AdmmData {
    double* reaction_hat;
    double* reaction_k;
    double* u_hat;
    double* u_k;
    double* u;
    double* b_full;
    double* u_old;
    double* sliding_direction;
    double* sliding_direction_old;
  };
  static_assert(sizeof(AdmmData) == 0x48, "gfc3d_ADMM_init mallocs 0x48 bytes for its data");

  int solver_id_ = -1;
  std::vector<double> dwork_;
  std::vector<std::int64_t> iwork_;  // NSN-AC's CSparse indices
  std::vector<double> admm_arrays_;  // the nine ADMM arrays, end to end
  AdmmData admm_{};
};

}  // namespace ncp::siconos
