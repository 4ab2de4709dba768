#include "problems/linalg/cholmod_llt.h"

#include <algorithm>
#include <cstring>
#include <limits>

#include <omp.h>

#include "common/error.h"

namespace ncp {

namespace {

// CHOLMOD's supernodal factorization opens OpenMP regions with the thread count fixed when the
// library was built (num_threads(CHOLMOD_OMP_NUM_THREADS): 4 in Debian's), whatever the caller's
// limit. Those regions only clear, copy and scatter arrays, index by index, between the BLAS calls
// that do the arithmetic (on BLAS's own threads, as SetSolverThreads sets them); on a 2-core
// machine their 4 threads contend with the caller's and with BLAS's for the cores: the soft mat's A
// (4356 dofs) took 20 ms of wall time for 12 ms of CPU with one solver thread, 26 ms with two.
// With dynamic adjustment on, libgomp gives a region at most the caller's nthreads-var, so with
// nthreads-var 1 for the call the regions run on the calling thread: 7.1 ms either way. The
// factor's bits do not depend on those regions' thread count.
class RegionsOnCallingThread {
 public:
  RegionsOnCallingThread() : dynamic_(omp_get_dynamic()), threads_(omp_get_max_threads()) {
    omp_set_dynamic(1);
    omp_set_num_threads(1);
  }
  ~RegionsOnCallingThread() {
    omp_set_dynamic(dynamic_);
    omp_set_num_threads(threads_);
  }
  RegionsOnCallingThread(const RegionsOnCallingThread&) = delete;
  RegionsOnCallingThread& operator=(const RegionsOnCallingThread&) = delete;

 private:
  int dynamic_, threads_;
};

}  // namespace

CholmodLLT::CholmodLLT(Kind kind) {
  cholmod_start(&common_);
  common_.supernodal = kind == Kind::kSupernodal   ? CHOLMOD_SUPERNODAL
                       : kind == Kind::kSimplicial ? CHOLMOD_SIMPLICIAL
                                                   : CHOLMOD_AUTO;
  common_.final_ll = 1;  // keep LLᵀ (a simplicial factor is LDLᵀ by default)
  common_.print = 0;
  common_.error_handler = nullptr;
}

CholmodLLT::~CholmodLLT() {
  if (L_) cholmod_free_factor(&L_, &common_);
  if (X_) cholmod_free_dense(&X_, &common_);
  if (Y_) cholmod_free_dense(&Y_, &common_);
  if (E_) cholmod_free_dense(&E_, &common_);
  cholmod_finish(&common_);
}

cholmod_sparse CholmodLLT::View(const SpMat& A) const {
  if (!A.isCompressed()) throw Error("CholmodLLT: matrix must be compressed");
  cholmod_sparse s;
  std::memset(&s, 0, sizeof(s));
  s.nrow = A.rows();
  s.ncol = A.cols();
  s.nzmax = A.nonZeros();
  s.p = const_cast<int*>(A.outerIndexPtr());
  s.i = const_cast<int*>(A.innerIndexPtr());
  s.x = const_cast<double*>(A.valuePtr());
  s.stype = -1;  // symmetric, lower triangle used
  s.itype = CHOLMOD_INT;
  s.xtype = CHOLMOD_REAL;
  s.dtype = CHOLMOD_DOUBLE;
  s.sorted = 1;
  s.packed = 1;
  return s;
}

void CholmodLLT::Analyze(const SpMat& A) {
  if (L_) cholmod_free_factor(&L_, &common_);
  cholmod_sparse s = View(A);
  L_ = cholmod_analyze(&s, &common_);
  if (!L_) throw Error("CholmodLLT: symbolic analysis failed");
  n_ = static_cast<int>(A.rows());
  factor_nonzeros_ = common_.lnz, factor_flops_ = common_.fl;
  work_.assign(n_, 0.0);
}

bool CholmodLLT::Factorize(const SpMat& A) {
  if (!L_) Analyze(A);
  cholmod_sparse s = View(A);
  const RegionsOnCallingThread one_thread;
  const int ok = cholmod_factorize(&s, L_, &common_);
  return ok && common_.status == CHOLMOD_OK && L_->minor == L_->n;
}

void CholmodLLT::Solve(const Vec& b, Vec& x) {
  if (x.size() != n_ || b.size() != n_) throw Error("CholmodLLT::Solve: wrong argument size");
  Solve(b.data(), x.data());
}

void CholmodLLT::Solve(const double* b, double* x) {
  if (L_ && !L_->is_super && L_->is_ll && L_->xtype == CHOLMOD_REAL && L_->itype == CHOLMOD_INT &&
      L_->minor == L_->n) {
    // P A Pᵀ = L Lᵀ, the diagonal first in each column of L: x = Pᵀ L⁻ᵀ L⁻¹ P b.
    const int* Lp = static_cast<const int*>(L_->p);
    const int* Li = static_cast<const int*>(L_->i);
    const int* Lnz = static_cast<const int*>(L_->nz);
    const double* Lx = static_cast<const double*>(L_->x);
    const int* perm = static_cast<const int*>(L_->Perm);
    double* y = work_.data();
    for (int k = 0; k < n_; ++k) y[k] = b[perm ? perm[k] : k];
    for (int j = 0; j < n_; ++j) {
      const int p0 = Lp[j], p1 = Lp[j] + Lnz[j];
      const double yj = y[j] /= Lx[p0];
      for (int q = p0 + 1; q < p1; ++q) y[Li[q]] -= Lx[q] * yj;
    }
    for (int j = n_ - 1; j >= 0; --j) {
      const int p0 = Lp[j], p1 = Lp[j] + Lnz[j];
      double yj = y[j];
      for (int q = p0 + 1; q < p1; ++q) yj -= Lx[q] * y[Li[q]];
      y[j] = yj / Lx[p0];
    }
    for (int k = 0; k < n_; ++k) x[perm ? perm[k] : k] = y[k];
    return;
  }
  if (x == b) {  // cholmod_solve2 reads b while it writes its own X: copy through work_
    std::copy(b, b + n_, work_.begin());
    b = work_.data();
  }
  cholmod_dense B;
  std::memset(&B, 0, sizeof(B));
  B.nrow = n_, B.ncol = 1, B.nzmax = n_, B.d = n_;
  B.x = const_cast<double*>(b);
  B.xtype = CHOLMOD_REAL, B.dtype = CHOLMOD_DOUBLE;
  if (!L_ || !cholmod_solve2(CHOLMOD_A, L_, &B, nullptr, &X_, nullptr, &Y_, &E_, &common_) || !X_) {
    std::fill(x, x + n_, std::numeric_limits<double>::quiet_NaN());  // the caller's guards see it
    return;
  }
  std::memcpy(x, X_->x, sizeof(double) * n_);
}

void CholmodLLT::Solve(const Eigen::MatrixXd& Bm, Eigen::MatrixXd& Xm) {
  if (Bm.cols() == 0) {  // a problem without constraints: nothing to solve (CHOLMOD refuses it)
    Xm.resize(n_, 0);
    return;
  }
  cholmod_dense B;
  std::memset(&B, 0, sizeof(B));
  B.nrow = n_, B.ncol = Bm.cols(), B.nzmax = Bm.size(), B.d = n_;
  B.x = const_cast<double*>(Bm.data());
  B.xtype = CHOLMOD_REAL, B.dtype = CHOLMOD_DOUBLE;
  cholmod_dense* X = cholmod_solve(CHOLMOD_A, L_, &B, &common_);
  if (!X) throw Error("CholmodLLT::Solve: CHOLMOD could not solve (out of memory?)");
  Xm.resize(n_, Bm.cols());
  std::memcpy(Xm.data(), X->x, sizeof(double) * Bm.size());
  cholmod_free_dense(&X, &common_);
}

}  // namespace ncp
