#include "python/py_arrays.h"

#include <fmt/format.h>

#include <cmath>

#include <limits>

#include "common/error.h"
#include "problems/model/validate.h"

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

namespace {

// numpy's cast of a complex array to float64 drops the imaginary part with only a warning.
void RefuseComplex(pyb::handle obj, const std::string& field) {
  if (!pyb::hasattr(obj, "dtype")) return;
  const pyb::object dtype = obj.attr("dtype");
  if (pyb::hasattr(dtype, "kind") && std::string(pyb::str(dtype.attr("kind"))) == "c")
    throw Error(fmt::format("{}: complex values ({}): must be real numbers", field,
                            std::string(pyb::str(dtype))));
}

}  // namespace

Vec ToVec(pyb::handle obj, const std::string& field) {
  if (obj.is_none()) return Vec();
  RefuseComplex(obj, field);
  if (pyb::isinstance<pyb::list>(obj) || pyb::isinstance<pyb::tuple>(obj))
    RefuseComplex(pyb::module_::import("numpy").attr("asarray")(obj), field);
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

Vec ToFiniteVecOfLength(pyb::handle obj, const std::string& field, Eigen::Index length,
                        bool none_ok) {
  Vec x = ToVecOfLength(obj, field, length, none_ok);
  for (Eigen::Index i = 0; i < x.size(); ++i)
    if (!std::isfinite(x[i]))
      throw Error(fmt::format("{}[{}] = {}: must be finite", field, i, x[i]));
  return x;
}

SpMat ToSpMat(pyb::handle obj, const std::string& field, long long vector_sizes) {
  if (obj.is_none()) throw Error(fmt::format("{}: None: a matrix is required", field));
  pyb::module_ sparse = pyb::module_::import("scipy.sparse");
  pyb::object csc;
  RefuseComplex(obj, field);
  // A declared shape far beyond the problem's vectors (one entry in a 1e8 x 1e8 matrix) would
  // have its index arrays allocated by the conversion before any size is compared.
  if (vector_sizes >= 0 && pyb::hasattr(obj, "shape")) {
    std::pair<long long, long long> declared{0, 0};
    bool two_d = true;
    try {
      declared = obj.attr("shape").cast<std::pair<long long, long long>>();
    } catch (const std::exception&) {
      two_d = false;  // the conversion says what is wrong
    }
    const long long limit = 64 * vector_sizes + (1 << 20);
    if (two_d && std::max(declared.first, declared.second) > limit)
      throw Error(
          fmt::format("{}: shape {}x{}: beyond 64 x the problem's vector lengths ({}) + "
                      "2^20: must be the problem's sizes",
                      field, declared.first, declared.second, vector_sizes));
  }
  try {
    // A copy: sorting the indices (Eigen needs them sorted) must not change the caller's matrix.
    csc = sparse.attr("csc_matrix")(obj, pyb::arg("copy") = true);
  } catch (const pyb::error_already_set& e) {
    // One line: pybind's text carries the Python traceback ("\n\nAt:\n ...") after it.
    std::string what = e.what();
    what = what.substr(0, what.find('\n'));
    throw Error(fmt::format("{}: must be a 2-D matrix (scipy.sparse or dense): {}", field, what));
  }
  RefuseComplex(csc, field);
  const auto shape = csc.attr("shape").cast<std::pair<long long, long long>>();
  constexpr long long kMaxIndex = std::numeric_limits<int>::max();
  if (shape.first > kMaxIndex || shape.second > kMaxIndex)
    throw Error(fmt::format("{}: shape {}x{}: each dimension must be at most 2^31 - 1", field,
                            shape.first, shape.second));
  try {
    csc.attr("sum_duplicates")();
  } catch (const pyb::error_already_set& e) {
    throw Error(fmt::format("{}: {}", field, e.what()));
  }
  using Index64 = pyb::array_t<long long, pyb::array::c_style | pyb::array::forcecast>;
  auto data =
      pyb::array_t<double, pyb::array::c_style | pyb::array::forcecast>::ensure(csc.attr("data"));
  auto ind = Index64::ensure(csc.attr("indices"));
  auto ptr = Index64::ensure(csc.attr("indptr"));
  // Checked in 64 bits before the copy to Eigen's int indices: a matrix whose arrays disagree
  // (assembled by hand) would be read out of bounds.
  const long long rows = shape.first, cols = shape.second;
  const long long nnz = ptr.shape(0) == cols + 1 ? ptr.data()[cols] : -1;
  if (ptr.shape(0) != cols + 1 || ptr.data()[0] != 0 || nnz < 0 || data.shape(0) < nnz ||
      ind.shape(0) < nnz)
    throw Error(
        fmt::format("{}: inconsistent sparse arrays (data {}, indices {}, indptr {} for "
                    "{} columns)",
                    field, nnz, ind.shape(0), ptr.shape(0), cols));
  for (long long c = 0; c < cols; ++c)
    if (ptr.data()[c + 1] < ptr.data()[c])
      throw Error(fmt::format("{}: indptr decreases at column {}", field, c));
  for (long long k = 0; k < nnz; ++k)
    if (ind.data()[k] < 0 || ind.data()[k] >= rows)
      throw Error(fmt::format("{}: row index {} out of range [0, {})", field, ind.data()[k], rows));
  SpMat M(rows, cols);
  M.resizeNonZeros(nnz);
  std::copy(data.data(), data.data() + nnz, M.valuePtr());
  std::copy(ind.data(), ind.data() + nnz, M.innerIndexPtr());
  std::copy(ptr.data(), ptr.data() + cols + 1, M.outerIndexPtr());
  return M;
}

std::string PathArg(pyb::handle obj, const std::string& field) {
  pyb::object path;
  try {
    path = pyb::module_::import("os").attr("fspath")(obj);
  } catch (const pyb::error_already_set&) {
  }
  if (!path || !pyb::isinstance<pyb::str>(path))
    throw Error(fmt::format("{}: must be a path (str or os.PathLike), got {}", field,
                            std::string(pyb::str(pyb::type::of(obj).attr("__name__")))));
  return path.cast<std::string>();
}

void CheckProblem(const ContactProblem& p) {
  if (const std::string err = Validate(p); !err.empty())
    throw Error(fmt::format("problem '{}': {}", p.meta.name, err));
}

std::recursive_mutex& FileMutex() {
  static std::recursive_mutex m;
  return m;
}

}  // namespace ncp::py
