#include "problems/linalg/cholmod_llt.h"

#include <cstring>
#include <limits>

#include "common/error.h"

namespace ncp {

CholmodLLT::CholmodLLT() {
  cholmod_start(&common_);
  common_.supernodal = CHOLMOD_SUPERNODAL;
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
}

bool CholmodLLT::Factorize(const SpMat& A) {
  if (!L_) Analyze(A);
  cholmod_sparse s = View(A);
  const int ok = cholmod_factorize(&s, L_, &common_);
  return ok && common_.status == CHOLMOD_OK && L_->minor == L_->n;
}

void CholmodLLT::Solve(const Vec& b, Vec& x) {
  cholmod_dense B;
  std::memset(&B, 0, sizeof(B));
  B.nrow = n_, B.ncol = 1, B.nzmax = n_, B.d = n_;
  B.x = const_cast<double*>(b.data());
  B.xtype = CHOLMOD_REAL, B.dtype = CHOLMOD_DOUBLE;
  if (x.size() != n_) throw Error("CholmodLLT::Solve: wrong argument size");
  if (!cholmod_solve2(CHOLMOD_A, L_, &B, nullptr, &X_, nullptr, &Y_, &E_, &common_) || !X_) {
    x.setConstant(std::numeric_limits<double>::quiet_NaN());  // the caller's guards see it
    return;
  }
  std::memcpy(x.data(), X_->x, sizeof(double) * n_);
}

void CholmodLLT::Solve(const Eigen::MatrixXd& Bm, Eigen::MatrixXd& Xm) {
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
