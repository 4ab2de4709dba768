#include "python/py_arrays.h"

#include <fmt/format.h>

#include "common/error.h"

namespace ncp::py {

namespace {

template <class T>
pyb::array ReadOnly(pyb::array_t<T> a) {
  a.attr("setflags")(pyb::arg("write") = false);
  return a;
}

pyb::object Sparse(const char* kind, const SpMat& M, bool transpose, pyb::handle owner) {
  pyb::object base = pyb::reinterpret_borrow<pyb::object>(owner);
  const SpMat* s = &M;
  if (!M.isCompressed()) {  // views need the compressed arrays: copy, and own the copy
    auto* held = new SpMat(M);
    held->makeCompressed();
    base = pyb::capsule(held, [](void* p) { delete static_cast<SpMat*>(p); });
    s = held;
  }
  const pyb::ssize_t nnz = s->nonZeros(), outer = s->outerSize();
  auto data = ReadOnly(pyb::array_t<double>({nnz}, {sizeof(double)}, s->valuePtr(), base));
  auto inner = ReadOnly(pyb::array_t<int>({nnz}, {sizeof(int)}, s->innerIndexPtr(), base));
  auto ptr = ReadOnly(pyb::array_t<int>({outer + 1}, {sizeof(int)}, s->outerIndexPtr(), base));
  const pyb::tuple shape =
      transpose ? pyb::make_tuple(s->cols(), s->rows()) : pyb::make_tuple(s->rows(), s->cols());
  pyb::object ctor = pyb::module_::import("scipy.sparse").attr(kind);
  return ctor(pyb::make_tuple(data, inner, ptr), pyb::arg("shape") = shape,
              pyb::arg("copy") = false);
}

}  // namespace

pyb::array VecView(const Vec& x, pyb::handle owner) {
  return ReadOnly(pyb::array_t<double>({static_cast<pyb::ssize_t>(x.size())}, {sizeof(double)},
                                       x.data(), owner));
}

pyb::array VecCopy(const Vec& x) {
  return pyb::array_t<double>({static_cast<pyb::ssize_t>(x.size())}, {sizeof(double)}, x.data());
}

pyb::object CscView(const SpMat& M, pyb::handle owner) {
  return Sparse("csc_matrix", M, false, owner);
}

pyb::object CsrOfTransposeView(const SpMat& M, pyb::handle owner) {
  return Sparse("csr_matrix", M, true, owner);
}

Vec ToVec(pyb::handle obj, const std::string& field) {
  if (obj.is_none()) return Vec();
  pyb::array_t<double, pyb::array::c_style | pyb::array::forcecast> a;
  try {
    a = pyb::array_t<double, pyb::array::c_style | pyb::array::forcecast>::ensure(obj);
  } catch (const pyb::error_already_set&) {
  }
  if (!a || a.ndim() != 1)
    throw Error(fmt::format("{}: must be a 1-D array of numbers (got {})", field,
                            std::string(pyb::str(pyb::type::of(obj).attr("__name__")))));
  return Eigen::Map<const Vec>(a.data(), a.shape(0));
}

Vec ToVecOfLength(pyb::handle obj, const std::string& field, Eigen::Index length, bool none_ok) {
  if (obj.is_none()) {
    if (none_ok) return Vec();
    throw Error(fmt::format("{}: None: must be an array of {} numbers", field, length));
  }
  Vec x = ToVec(obj, field);
  if (x.size() != length)
    throw Error(fmt::format("{}: wrong length: expected {}, got {}", field, length, x.size()));
  return x;
}

SpMat ToSpMat(pyb::handle obj, const std::string& field) {
  pyb::module_ sparse = pyb::module_::import("scipy.sparse");
  pyb::object csc;
  try {
    // A copy: sorting the indices (Eigen needs them sorted) must not change the caller's matrix.
    csc = sparse.attr("csc_matrix")(obj, pyb::arg("copy") = true);
    csc.attr("sum_duplicates")();
  } catch (const pyb::error_already_set& e) {
    throw Error(
        fmt::format("{}: must be a 2-D matrix (scipy.sparse or dense): {}", field, e.what()));
  }
  const auto shape = csc.attr("shape").cast<std::pair<long, long>>();
  auto data =
      pyb::array_t<double, pyb::array::c_style | pyb::array::forcecast>::ensure(csc.attr("data"));
  auto ind =
      pyb::array_t<int, pyb::array::c_style | pyb::array::forcecast>::ensure(csc.attr("indices"));
  auto ptr =
      pyb::array_t<int, pyb::array::c_style | pyb::array::forcecast>::ensure(csc.attr("indptr"));
  SpMat M(shape.first, shape.second);
  M.resizeNonZeros(data.shape(0));
  std::copy(data.data(), data.data() + data.shape(0), M.valuePtr());
  std::copy(ind.data(), ind.data() + ind.shape(0), M.innerIndexPtr());
  std::copy(ptr.data(), ptr.data() + ptr.shape(0), M.outerIndexPtr());
  return M;
}

}  // namespace ncp::py
