#include "solvers/siconos/numerics_matrix.h"

#include <NumericsMatrix.h>
#include <SolverOptions.h>
#include <NumericsVerbose.h>
#include <NumericsSparseMatrix.h>

#include <cstdlib>
#include <cstring>
#include <vector>
#include <fmt/format.h>

#include "common/error.h"

namespace ncp::siconos {

NumericsMatrix* ToNumerics(const SpMat& a) {
  NumericsMatrix* m = NM_create(NM_SPARSE, static_cast<int>(a.rows()), static_cast<int>(a.cols()));
  NM_triplet_alloc(m, static_cast<CS_INT>(a.nonZeros()));
  m->matrix2->origin = NSM_TRIPLET;
  // Siconos' CSparse LU, not its default MUMPS: Siconos 4.4 leaves the MUMPS instances it
  // creates for a matrix unterminated (fc3d ADMM kept ~53 kB more per call on Box_Stacks).
  NM_setSparseSolver(m, NSM_CSPARSE);
  for (int k = 0; k < a.outerSize(); ++k)
    for (SpMat::InnerIterator it(a, k); it; ++it)
      NM_entry(m, static_cast<int>(it.row()), static_cast<int>(it.col()), it.value());
  return m;
}

double* MallocCopy(const Vec& x) {
  double* p =
      static_cast<double*>(std::malloc(sizeof(double) * std::max<Eigen::Index>(1, x.size())));
  if (x.size() > 0) std::memcpy(p, x.data(), sizeof(double) * x.size());
  return p;
}

namespace {

// `o` and its internal solvers' options, depth first.
void CollectOptions(SolverOptions* o, std::vector<SolverOptions*>& out) {
  out.push_back(o);
  for (std::size_t i = 0; o->internalSolvers && i < o->numberOfInternalSolvers; ++i)
    if (o->internalSolvers[i]) CollectOptions(o->internalSolvers[i], out);
}

}  // namespace

// Siconos 4.4's solver_options_delete frees what the options point to, its internal solvers'
// included, but not the structs themselves, which solver_options_create malloc'ed (120 bytes
// each, lost per driver call for the global methods, which take fresh options per call).
void OptionsDeleter::operator()(SolverOptions* o) const {
  std::vector<SolverOptions*> structs;
  CollectOptions(o, structs);
  solver_options_delete(o);
  for (SolverOptions* s : structs) std::free(s);
}

OptionsPtr MakeOptions(int solver_id) {
  SolverOptions* o = solver_options_create(solver_id);
  if (!o)
    throw Error(fmt::format("siconos solver id = {}: unknown to Siconos Numerics", solver_id));
  return OptionsPtr(o);
}

void Silence() { numerics_set_verbose(0); }

}  // namespace ncp::siconos
