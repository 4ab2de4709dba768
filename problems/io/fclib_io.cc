#include "problems/io/fclib_io.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <memory>

extern "C" {
#include <fclib.h>
}

#include "common/error.h"
#include "common/file_write.h"
#include "problems/io/dataset_hdf5.h"
#include "problems/io/fclib_solution.h"
#include "problems/io/guarded_read.h"
#include "problems/io/h5_util.h"
#include "problems/model/fold_soft.h"
#include "problems/model/validate.h"

namespace ncp {
namespace {

using h5::Group;
using Triplet = Eigen::Triplet<double, int>;

constexpr int kSpaceDim = 3;
constexpr const char* kLayoutGroup = "ncpbench";
constexpr const char* kLayoutTypes = "constraint_types";

// ---------------------------------------------------------------------------------------------
// Checking a file before libfclib reads it. libfclib allocates every array from the sizes stored
// next to it (m, n, nz, nzmax) and reads whole datasets into those buffers, and it exits the
// process when an HDF5 call fails; so every group and dataset it will touch must exist with the
// right class and fit its allocation.

struct MatrixLayout {
  std::string where;  // "<file>: <group path>", for messages
  int m = 0, n = 0, nz = 0, nzmax = 0;
  std::int64_t i_count = 0, x_count = 0;
};

struct FileLayout {
  bool global = false;
  MatrixLayout M, H, G, W;  // M, H, G (optional) for global; W for local
  bool has_g = false;
  std::string title;
  // ncpbench's own constraint order and types (group /ncpbench of an exported file), which fclib
  // cannot express; empty for foreign files.
  std::vector<std::int32_t> types;
};

void CheckCount(const Group& g, const std::string& name, H5T_class_t cls, std::int64_t expected) {
  const std::int64_t got = g.Count(name, cls);
  if (got != expected) g.Fail(name, fmt::format("wrong size: expected {}, got {}", expected, got));
}

MatrixLayout CheckMatrix(const Group& parent, const std::string& name) {
  Group g = parent.Open(name);
  MatrixLayout s;
  s.where = fmt::format("{}: {}", g.file(), g.path());
  s.m = g.ReadOneInt("m");
  s.n = g.ReadOneInt("n");
  s.nz = g.ReadOneInt("nz");
  s.nzmax = g.ReadOneInt("nzmax");
  if (s.m < 0 || s.n < 0 || s.nzmax < 0) {
    g.Fail("", fmt::format("negative size: m = {}, n = {}, nzmax = {}", s.m, s.n, s.nzmax));
  }
  const std::int64_t p_count = g.Count("p", H5T_INTEGER);
  s.i_count = g.Count("i", H5T_INTEGER);
  s.x_count = g.Count("x", H5T_FLOAT);
  // libfclib allocates nzmax indices and values (12 bytes each) before reading the stored ones,
  // and ends the process when that fails. Exporters may reserve more than they store (Box_Stacks:
  // 744 for 485), never orders of magnitude more than the file holds, even compressed.
  std::error_code ec;
  const auto file_bytes = std::filesystem::file_size(g.file(), ec);
  const double limit = 64.0 * (ec ? 0.0 : static_cast<double>(file_bytes)) + 64e6;
  if (12.0 * s.nzmax > limit && s.nzmax > std::max(s.i_count, s.x_count)) {
    g.Fail("nzmax", fmt::format("nzmax = {} asks for {:.3g} bytes, more than 64 x the file's {} "
                                "bytes + 64 MB, for {} stored values: not a stored matrix",
                                s.nzmax, 12.0 * s.nzmax, ec ? 0 : file_bytes, s.x_count));
  }
  if (s.nz >= 0) {
    if (p_count != s.nz || s.i_count != s.nz) {
      g.Fail("", fmt::format("triplet matrix with nz = {} has {} column (p) and {} row (i) indices",
                             s.nz, p_count, s.i_count));
    }
    if (s.x_count < s.nz || s.x_count > s.nzmax) {
      g.Fail("x", fmt::format("wrong size: {} values for nz = {}, nzmax = {}", s.x_count, s.nz,
                              s.nzmax));
    }
  } else if (s.nz == -1 || s.nz == -2) {
    const bool csc = s.nz == -1;
    const std::int64_t outer = csc ? s.n : s.m;
    if (p_count != outer + 1) {
      g.Fail("p", fmt::format("wrong size: expected {} + 1 = {}, got {}", csc ? "n" : "m",
                              outer + 1, p_count));
    }
    if (s.i_count > s.nzmax || s.x_count > s.nzmax) {
      g.Fail("",
             fmt::format("i ({}) or x ({}) longer than nzmax = {}", s.i_count, s.x_count, s.nzmax));
    }
  } else {
    g.Fail("nz", fmt::format("nz = {} is not a storage kind (-1 CSC, -2 CSR, >= 0 triplet)", s.nz));
  }
  if (g.Has("conditioning")) {  // optional matrix info; libfclib then reads all of it
    CheckCount(g, "conditioning", H5T_FLOAT, 1);
    CheckCount(g, "determinant", H5T_FLOAT, 1);
    CheckCount(g, "rank", H5T_INTEGER, 1);
    if (g.Has("comment")) CheckCount(g, "comment", H5T_STRING, 1);
  }
  return s;
}

std::string Trim(const std::string& s) {
  const auto first = s.find_first_not_of(" \t\r\n");
  if (first == std::string::npos) return "";
  return s.substr(first, s.find_last_not_of(" \t\r\n") - first + 1);
}

// Checks the optional info group and returns its title.
std::string CheckInfo(const Group& main) {
  if (!main.Has("info")) return "";
  Group info = main.Open("info");
  // libfclib reads each with H5LTget_dataset_info into one dimension: a string of rank 2 or
  // more would overwrite its stack, so only a scalar or 1-D string of one element is read.
  for (const char* name : {"title", "description", "math_info"}) {
    if (!info.Has(name)) continue;
    CheckCount(info, name, H5T_STRING, 1);
    if (const std::size_t rank = info.Dims(name, H5T_STRING).size(); rank > 1)
      info.Fail(name, fmt::format("a {}-D string: fclib's info strings are scalar or 1-D", rank));
  }
  return info.Has("title") ? Trim(info.ReadString("title")) : "";
}

void CheckSpaceDim(const Group& main) {
  const int d = main.ReadOneInt("spacedim");
  if (d != kSpaceDim) {
    main.Fail("spacedim",
              fmt::format("spacedim = {} is not supported (only 3-D contact problems)", d));
  }
}

void CheckMultipleOfThree(const Group& main, const std::string& matrix, const char* what,
                          int rows) {
  if (rows % kSpaceDim != 0) {
    main.Fail(matrix, fmt::format("{} = {} is not a multiple of 3", what, rows));
  }
}

FileLayout CheckGlobal(const Group& root) {
  Group main = root.Open("fclib_global");
  FileLayout l;
  l.global = true;
  CheckSpaceDim(main);
  l.M = CheckMatrix(main, "M");
  l.H = CheckMatrix(main, "H");
  l.has_g = main.Has("G");
  if (l.has_g) l.G = CheckMatrix(main, "G");
  CheckMultipleOfThree(main, "H", "number of columns", l.H.n);
  // Shapes before any allocation from them: M is n x n, H and G have M's n rows.
  if (l.M.m != l.M.n) {
    main.Fail("M", fmt::format("M is {} x {}: must be square", l.M.m, l.M.n));
  }
  if (l.H.m != l.M.n) {
    main.Fail("H", fmt::format("H has {} rows but M has {} columns: must be equal", l.H.m, l.M.n));
  }
  if (l.has_g && l.G.m != l.H.m) {
    main.Fail("G", fmt::format("G has {} rows but H has {}", l.G.m, l.H.m));
  }
  Group vectors = main.Open("vectors");
  CheckCount(vectors, "f", H5T_FLOAT, l.M.m);
  CheckCount(vectors, "w", H5T_FLOAT, l.H.n);
  CheckCount(vectors, "mu", H5T_FLOAT, l.H.n / kSpaceDim);
  if (l.has_g) CheckCount(vectors, "b", H5T_FLOAT, l.G.n);
  l.title = CheckInfo(main);
  if (root.HasGroup(kLayoutGroup)) l.types = root.Open(kLayoutGroup).ReadInts(kLayoutTypes);
  return l;
}

FileLayout CheckLocal(const Group& root) {
  Group main = root.Open("fclib_local");
  FileLayout l;
  CheckSpaceDim(main);
  if (main.Has("V") || main.Has("R")) {
    main.Fail("V", "local problems with equality constraints (V, R) are not supported");
  }
  l.W = CheckMatrix(main, "W");
  CheckMultipleOfThree(main, "W", "number of rows", l.W.m);
  if (l.W.m != l.W.n) {
    main.Fail("W", fmt::format("W is {} x {}: must be square", l.W.m, l.W.n));
  }
  Group vectors = main.Open("vectors");
  CheckCount(vectors, "q", H5T_FLOAT, l.W.m);
  CheckCount(vectors, "mu", H5T_FLOAT, l.W.m / kSpaceDim);
  l.title = CheckInfo(main);
  return l;
}

// ---------------------------------------------------------------------------------------------
// Conversion of what libfclib read.

struct GlobalDeleter {
  // fclib_delete_global frees the members but not the struct itself.
  void operator()(fclib_global* g) const {
    fclib_delete_global(g);
    std::free(g);
  }
};

struct LocalDeleter {
  void operator()(fclib_local* l) const {
    fclib_delete_local(l);
    std::free(l);
  }
};

SpMat ToEigen(const fclib_matrix& a, const MatrixLayout& s) {
  auto fail = [&](const std::string& problem) {
    throw Error(fmt::format("{}: {}", s.where, problem));
  };
  std::vector<Triplet> t;
  auto add = [&](int r, int c, double x) {
    if (r < 0 || r >= s.m || c < 0 || c >= s.n) {
      fail(fmt::format("entry ({}, {}) outside the {}×{} matrix", r, c, s.m, s.n));
    }
    t.emplace_back(r, c, x);
  };
  if (s.nz >= 0) {
    // fclib follows CSparse: in a triplet matrix i holds row and p column indices.
    t.reserve(static_cast<std::size_t>(s.nz));
    for (int k = 0; k < s.nz; ++k) add(a.i[k], a.p[k], a.x[k]);
  } else {
    const bool csc = s.nz == -1;
    const int outer = csc ? s.n : s.m;
    if (a.p[0] != 0) fail(fmt::format("p[0] = {}, expected 0", a.p[0]));
    for (int j = 0; j < outer; ++j) {
      if (a.p[j + 1] < a.p[j]) fail(fmt::format("p not monotone at {}", j));
    }
    if (a.p[outer] > std::min(s.i_count, s.x_count)) {
      fail(fmt::format("p[{}] = {} entries, but i has {} and x {}", outer, a.p[outer], s.i_count,
                       s.x_count));
    }
    t.reserve(static_cast<std::size_t>(a.p[outer]));
    for (int j = 0; j < outer; ++j) {
      for (int k = a.p[j]; k < a.p[j + 1]; ++k) {
        if (csc) {
          add(a.i[k], j, a.x[k]);
        } else {
          add(j, a.i[k], a.x[k]);
        }
      }
    }
  }
  SpMat out(s.m, s.n);
  out.setFromTriplets(t.begin(), t.end());  // sums duplicates, as CSparse does
  return out;
}

// A symmetric fclib matrix may be stored as one triangle only (the LMGC90 export CubeH8 keeps
// the upper triangle of M); the model stores both, so a square matrix with entries strictly on
// one side of the diagonal and none on the other is mirrored. Anything else is kept exactly as
// stored: nothing is symmetrized. `mirrored` says whether it was.
SpMat ExpandTriangle(const SpMat& a, bool* mirrored = nullptr) {
  if (mirrored) *mirrored = false;
  if (a.rows() != a.cols()) return a;
  Eigen::Index upper = 0, lower = 0;
  for (int j = 0; j < a.outerSize(); ++j) {
    for (SpMat::InnerIterator it(a, j); it; ++it) {
      upper += it.row() < it.col();
      lower += it.row() > it.col();
    }
  }
  if (mirrored) *mirrored = (upper > 0) != (lower > 0);
  if (upper > 0 && lower == 0) {
    SpMat strict = a.triangularView<Eigen::StrictlyUpper>();
    return a + SpMat(strict.transpose());
  }
  if (lower > 0 && upper == 0) {
    SpMat strict = a.triangularView<Eigen::StrictlyLower>();
    return a + SpMat(strict.transpose());
  }
  return a;
}

Vec ToVec(const double* x, int n) { return Eigen::Map<const Vec>(x, n); }

using RowMap = FclibRowMap;

ContactProblem ConvertGlobal(const std::string& path, const FileLayout& l, RowMap& map) {
  std::unique_ptr<fclib_global, GlobalDeleter> g(fclib_read_global(path.c_str()));
  if (!g) throw Error(fmt::format("{}: libfclib could not read the global problem", path));
  ContactProblem p;
  p.form = ProblemForm::kGlobal;
  p.A = ExpandTriangle(ToEigen(*g->M, l.M));
  // A mass matrix is symmetric; a single-precision export (LMGC90, Siconos) is only nearly so.
  // Beyond rounding (validation's tolerance) its symmetric part is the problem (CHOLMOD reads
  // one triangle anyway); the asymmetry is kept with the problem and warned about when the
  // file is loaded for a run. Rounding-level asymmetry is kept as stored (bitwise round trip).
  if (const double asym = Asymmetry(p.A); asym > ValidateOptions{}.symmetry_tol) {
    p.meta.params["asymmetry_M"] = asym;
    p.A = 0.5 * (p.A + SpMat(p.A.transpose()));
  }
  p.b = ToVec(g->f, l.M.m);

  const int ncols_h = l.H.n;
  const int ncols_g = l.has_g ? l.G.n : 0;
  const int nc_h = ncols_h / kSpaceDim;
  // out_h[j] / out_g[j]: row of J for column j of H / G (−1: dropped), and the constraints.
  std::vector<int> out_h(ncols_h, -1), out_g(ncols_g, -1);
  int rows = 0;
  if (l.types.empty()) {  // fclib's own layout: contacts, then one bilateral row per column of G
    for (int c = 0; c < nc_h; ++c) {
      AddConstraint(p.constraints, ConstraintType::kContact, g->mu[c]);
      for (int k = 0; k < kSpaceDim; ++k) out_h[kSpaceDim * c + k] = rows++;
    }
    for (int j = 0; j < ncols_g; ++j) {
      AddConstraint(p.constraints, ConstraintType::kBilateral);
      out_g[j] = rows++;
    }
  } else {
    const std::string where = fmt::format("{}: /{}/{}", path, kLayoutGroup, kLayoutTypes);
    int hc = 0, gc = 0;
    for (std::size_t i = 0; i < l.types.size(); ++i) {
      const int t = l.types[i];
      if (t == static_cast<int>(ConstraintType::kContact) ||
          t == static_cast<int>(ConstraintType::kUnilateral)) {
        if (hc >= nc_h) throw Error(fmt::format("{}: more contacts than H has ({})", where, nc_h));
        if (t == static_cast<int>(ConstraintType::kContact)) {
          AddConstraint(p.constraints, ConstraintType::kContact, g->mu[hc]);
          for (int k = 0; k < kSpaceDim; ++k) out_h[kSpaceDim * hc + k] = rows++;
        } else {  // a μ = 0 contact whose tangent columns are dropped
          if (g->mu[hc] != 0.0)
            throw Error(fmt::format("{}: constraint {} is unilateral but mu[{}] = {}, expected 0",
                                    where, i, hc, g->mu[hc]));
          AddConstraint(p.constraints, ConstraintType::kUnilateral);
          out_h[kSpaceDim * hc] = rows++;
        }
        ++hc;
      } else if (t == static_cast<int>(ConstraintType::kBilateral)) {
        if (gc >= ncols_g)
          throw Error(fmt::format("{}: more bilateral rows than G has ({})", where, ncols_g));
        AddConstraint(p.constraints, ConstraintType::kBilateral);
        out_g[gc++] = rows++;
      } else {
        throw Error(fmt::format("{}: constraint {} has type {}, expected 0, 1 or 2", where, i, t));
      }
    }
    if (hc != nc_h || gc != ncols_g)
      throw Error(fmt::format("{}: lists {} contacts and {} bilateral rows, the file has {} and {}",
                              where, hc, gc, nc_h, ncols_g));
  }

  // J rows are columns of H and G: gather them as triplets of Jᵀ (n × rows), then transpose.
  std::vector<Triplet> t;
  p.e = Vec::Zero(rows);
  auto gather = [&](const SpMat& X, const std::vector<int>& out, const double* bias) {
    for (int j = 0; j < X.outerSize(); ++j) {
      if (out[j] < 0) {
        if (SpMat::InnerIterator(X, j) || bias[j] != 0.0)
          throw Error(
              fmt::format("{}: column {} of a unilateral contact's tangent is not zero", path, j));
        continue;
      }
      for (SpMat::InnerIterator it(X, j); it; ++it) t.emplace_back(it.row(), out[j], it.value());
      p.e[out[j]] = bias[j];
    }
  };
  gather(ToEigen(*g->H, l.H), out_h, g->w);
  if (l.has_g) gather(ToEigen(*g->G, l.G), out_g, g->b);
  SpMat Jt(l.H.m, rows);
  Jt.setFromTriplets(t.begin(), t.end());
  p.J = SpMat(Jt.transpose());
  map.out_h = std::move(out_h);
  map.out_g = std::move(out_g);
  return p;
}

ContactProblem ConvertLocal(const std::string& path, const FileLayout& l, RowMap& map) {
  std::unique_ptr<fclib_local, LocalDeleter> f(fclib_read_local(path.c_str()));
  if (!f) throw Error(fmt::format("{}: libfclib could not read the local problem", path));
  ContactProblem p;
  p.form = ProblemForm::kLocal;
  bool mirrored = false;
  p.W = ExpandTriangle(ToEigen(*f->W, l.W), &mirrored);
  // A Delassus matrix stored as one triangle is read as symmetric; the warning says so.
  if (mirrored) p.meta.params["W_mirrored"] = 1.0;
  p.q = ToVec(f->q, l.W.m);
  for (int c = 0; c < l.W.m / kSpaceDim; ++c) {
    AddConstraint(p.constraints, ConstraintType::kContact, f->mu[c]);
  }
  // Otherwise W stays as stored, also when it is not symmetric; solvers say what they do with
  // that.
  if (const double asym = Asymmetry(p.W); asym > 0) p.meta.params["asymmetry"] = asym;
  map.out_h.resize(l.W.m);
  for (int r = 0; r < l.W.m; ++r) map.out_h[r] = r;
  return p;
}

// ---------------------------------------------------------------------------------------------
// Export.

// A CSC copy of an Eigen matrix that an fclib_matrix points into. libfclib asserts on null
// arrays, so every buffer is allocated even when empty.
class CscBuffer {
 public:
  explicit CscBuffer(const SpMat& a) {
    SpMat c = a;
    c.makeCompressed();
    const int nnz = static_cast<int>(c.nonZeros());
    p_.assign(c.outerIndexPtr(), c.outerIndexPtr() + c.cols() + 1);
    i_.reserve(std::max(nnz, 1));
    x_.reserve(std::max(nnz, 1));
    i_.assign(c.innerIndexPtr(), c.innerIndexPtr() + nnz);
    x_.assign(c.valuePtr(), c.valuePtr() + nnz);
    mat_.nzmax = nnz;
    mat_.m = static_cast<int>(c.rows());
    mat_.n = static_cast<int>(c.cols());
    mat_.p = p_.data();
    mat_.i = i_.data();
    mat_.x = x_.data();
    mat_.nz = -1;
    mat_.info = nullptr;
  }
  CscBuffer(const CscBuffer&) = delete;
  CscBuffer& operator=(const CscBuffer&) = delete;
  fclib_matrix* get() { return &mat_; }

 private:
  std::vector<int> p_, i_;
  std::vector<double> x_;
  fclib_matrix mat_{};
};

std::vector<double> Buffer(const Vec& v) {
  std::vector<double> out;
  out.reserve(std::max<Eigen::Index>(v.size(), 1));
  out.assign(v.data(), v.data() + v.size());
  return out;
}

// Columns `rows` of Jᵀ, i.e. the selected rows of J transposed: an n × rows.size() matrix.
SpMat SelectTransposed(const SpMat& Jt, const std::vector<int>& rows) {
  std::vector<Triplet> t;
  for (std::size_t k = 0; k < rows.size(); ++k) {
    if (rows[k] < 0) continue;  // a zero column
    for (SpMat::InnerIterator it(Jt, rows[k]); it; ++it) {
      t.emplace_back(it.row(), static_cast<int>(k), it.value());
    }
  }
  SpMat out(Jt.rows(), static_cast<int>(rows.size()));
  out.setFromTriplets(t.begin(), t.end());
  return out;
}

struct InfoBuffer {
  explicit InfoBuffer(const ContactProblem& p)
      : title(p.meta.case_name.empty() ? p.meta.name : p.meta.case_name),
        description(fmt::format("ncpbench export of '{}' (scenario {}, case {}, step {})",
                                p.meta.name, p.meta.scenario, p.meta.case_name, p.meta.step)) {
    info.title = title.data();
    info.description = description.data();
    info.math_info = math_info.data();
  }
  InfoBuffer(const InfoBuffer&) = delete;
  InfoBuffer& operator=(const InfoBuffer&) = delete;
  std::string title, description, math_info;
  fclib_info info{};
};

void CheckSize(const std::string& path, const char* what, Eigen::Index got, Eigen::Index expected) {
  if (got != expected) {
    throw Error(fmt::format("{}: {}: wrong size: expected {}, got {}", path, what, expected, got));
  }
}

// libfclib opens an existing file for appending (and refuses one that already holds a problem),
// so it always writes to a fresh temporary path that is then renamed over `path`.
template <typename WriteFn>
void WriteAtomically(const std::string& path, WriteFn write) {
  h5::SilenceErrors();
  CreateParentFolders(path);
  ReplaceFile(path, [&](const std::string& tmp) {
    if (write(tmp.c_str()) != 1)
      throw Error(fmt::format("{}: libfclib could not write the file", path));
  });
}

}  // namespace

namespace {

ContactProblem ReadFclibInProcess(const std::string& path) {
  FileLayout layout;
  bool both = false;
  {
    h5::File f = h5::File::OpenReadOnly(path);
    const Group& root = f.root();
    both = root.HasGroup("fclib_global") && root.HasGroup("fclib_local");
    if (root.HasGroup("fclib_global")) {
      layout = CheckGlobal(root);
    } else if (root.HasGroup("fclib_local")) {
      layout = CheckLocal(root);
    } else {
      root.Fail("", "not an fclib file (no /fclib_global or /fclib_local group)");
    }
  }
  RowMap map;
  ContactProblem p =
      layout.global ? ConvertGlobal(path, layout, map) : ConvertLocal(path, layout, map);
  ReadFclibSolutions(path, map, p);
  // libfclib writes one of the two; with both, the global one (it has the dynamics) is read and
  // the warning says so.
  if (both) p.meta.params["fclib_local_ignored"] = 1.0;
  p.meta.scenario = "fclib";
  p.meta.name = std::filesystem::path(path).stem().string();
  p.meta.case_name = layout.title;
  return p;
}

// The conversion a trusted copy of an fclib file is made by (in the probe's child).
void CopyFclib(const std::string& in, const std::string& out) {
  WriteCopy(in, out, {ReadFclibInProcess(in)});
}

}  // namespace

ContactProblem ReadFclib(const std::string& path) {
  const TrustedCopy copy(path, CopyFclib, ProbeTimeLimit(path));
  std::vector<ContactProblem> problems = ReadDatasetUnguarded(copy.path());
  CompleteReferenceVelocity(problems.at(0));
  return std::move(problems.at(0));
}

void WriteFclibGlobal(const std::string& path, const ContactProblem& p) {
  if (p.form != ProblemForm::kGlobal) {
    throw Error(fmt::format("{}: fclib global export needs a global problem; '{}' is local", path,
                            p.meta.name));
  }
  const Eigen::Index n = p.A.rows();
  if (n == 0 || p.A.cols() != n) {
    throw Error(
        fmt::format("{}: A: expected a non-empty square matrix, got {}×{}", path, n, p.A.cols()));
  }
  CheckSize(path, "b", p.b.size(), n);
  CheckSize(path, "J columns", p.J.cols(), n);
  CheckSize(path, "e", p.e.size(), p.J.rows());

  for (std::size_t i = 0; i < p.constraints.size(); ++i) {
    const Constraint& c = p.constraints[i];
    if (c.row < 0 || c.row + c.rows() > p.J.rows()) {
      throw Error(fmt::format("{}: constraint {}: rows {}..{} outside J ({} rows)", path, i, c.row,
                              c.row + c.rows() - 1, p.J.rows()));
    }
  }
  for (std::size_t i = 0; i < p.constraints.size(); ++i)
    if (p.constraints[i].type == ConstraintType::kJointFriction)  // no friction on fclib's G
      throw Error(
          fmt::format("{}: constraint {} is {}: fclib holds contacts and bilateral rows "
                      "only",
                      path, i, ToString(p.constraints[i].type)));
  // fclib has no soft rows: they are folded into M and f (identity without soft rows).
  const FoldedProblem folded = FoldSoftRows(p);
  const ContactProblem& q = folded.problem;
  // Rows of J in H's columns (−1: a zero column) and in G's columns.
  std::vector<int> contact_rows, bilateral_rows;
  std::vector<double> mu;
  std::vector<std::int32_t> types;
  for (const Constraint& c : q.constraints) {
    types.push_back(static_cast<std::int32_t>(c.type));
    if (c.type == ConstraintType::kContact) {
      for (int r = 0; r < 3; ++r) contact_rows.push_back(c.row + r);
      mu.push_back(c.mu);
    } else if (c.type == ConstraintType::kUnilateral) {  // a μ = 0 contact, zero tangent rows
      contact_rows.insert(contact_rows.end(), {c.row, -1, -1});
      mu.push_back(0.0);
    } else {  // bilateral (joint-friction rows are refused above)
      bilateral_rows.push_back(c.row);
    }
  }
  if (contact_rows.empty()) {
    throw Error(fmt::format("{}: fclib export needs at least one contact constraint", path));
  }

  const SpMat Jt = q.J.transpose();
  CscBuffer M(q.A);
  CscBuffer H(SelectTransposed(Jt, contact_rows));
  std::unique_ptr<CscBuffer> G;
  if (!bilateral_rows.empty())
    G = std::make_unique<CscBuffer>(SelectTransposed(Jt, bilateral_rows));
  std::vector<double> f = Buffer(q.b);
  Vec w_vec(contact_rows.size()), b_vec(bilateral_rows.size());
  for (std::size_t k = 0; k < contact_rows.size(); ++k)
    w_vec[k] = contact_rows[k] < 0 ? 0.0 : q.e[contact_rows[k]];
  for (std::size_t k = 0; k < bilateral_rows.size(); ++k) b_vec[k] = q.e[bilateral_rows[k]];
  std::vector<double> w = Buffer(w_vec), b = Buffer(b_vec);
  InfoBuffer info(p);

  fclib_global g{};
  g.M = M.get();
  g.H = H.get();
  g.G = G ? G->get() : nullptr;
  g.mu = mu.data();
  g.f = f.data();
  g.b = G ? b.data() : nullptr;
  g.w = w.data();
  g.spacedim = kSpaceDim;
  g.info = &info.info;
  WriteAtomically(path, [&](const char* file) {
    const int ok = fclib_write_global(&g, file);
    if (ok == 1) {  // fclib readers ignore the extra group
      {
        h5::File out = h5::File::OpenReadWrite(file);
        out.root().Create(kLayoutGroup).WriteInts(kLayoutTypes, types);
      }
      WriteFclibSolution(file, q, contact_rows, bilateral_rows);
    }
    return ok;
  });
}

void WriteFclibLocal(const std::string& path, const ContactProblem& p) {
  if (p.form != ProblemForm::kLocal) {
    throw Error(fmt::format("{}: fclib local export needs a local problem; '{}' is global", path,
                            p.meta.name));
  }
  const Eigen::Index m = p.W.rows();
  if (m == 0 || p.W.cols() != m) {
    throw Error(
        fmt::format("{}: W: expected a non-empty square matrix, got {}×{}", path, m, p.W.cols()));
  }
  CheckSize(path, "q", p.q.size(), m);
  std::vector<double> mu;
  for (std::size_t i = 0; i < p.constraints.size(); ++i) {
    const Constraint& c = p.constraints[i];
    if (c.type != ConstraintType::kContact) {
      throw Error(
          fmt::format("{}: constraint {}: type {} cannot be exported to an fclib local "
                      "problem (only contact)",
                      path, i, ToString(c.type)));
    }
    if (c.row != static_cast<int>(3 * i)) {
      throw Error(fmt::format("{}: constraint {}: row {}, expected {} (contacts in row order)",
                              path, i, c.row, 3 * i));
    }
    mu.push_back(c.mu);
  }
  CheckSize(path, "W rows (3 per contact)", m, static_cast<Eigen::Index>(3 * mu.size()));
  // A W with stored entries on one side of the diagonal only is read back (by us, as by fclib's
  // users) as one triangle of a symmetric matrix: another problem. Refused, not written.
  bool one_sided = false;
  ExpandTriangle(p.W, &one_sided);
  if (one_sided)
    throw Error(fmt::format(
        "{}: W of '{}': stored entries on one side of the diagonal only: an fclib reader takes "
        "such a W for one triangle of a symmetric matrix, so it cannot be written faithfully",
        path, p.meta.name));

  CscBuffer W(p.W);
  std::vector<double> q = Buffer(p.q);
  InfoBuffer info(p);
  fclib_local l{};
  l.W = W.get();
  l.V = nullptr;
  l.R = nullptr;
  l.mu = mu.data();
  l.q = q.data();
  l.s = nullptr;
  l.spacedim = kSpaceDim;
  l.info = &info.info;
  std::vector<int> rows(static_cast<std::size_t>(m));
  for (int r = 0; r < m; ++r) rows[r] = r;
  WriteAtomically(path, [&](const char* file) {
    const int ok = fclib_write_local(&l, file);
    if (ok == 1) WriteFclibSolution(file, p, rows, {});
    return ok;
  });
}

bool IsFclibFile(const std::string& path) {
  try {
    if (!h5::File::IsHdf5(path)) return false;
    h5::File f = h5::File::OpenReadOnly(path);
    return f.root().HasGroup("fclib_global") || f.root().HasGroup("fclib_local");
  } catch (const Error&) {
    return false;
  }
}

std::vector<ContactProblem> LoadProblems(const std::string& path) {
  // Which kind of file it is, read in the probe's child too: even its root can be corrupt.
  const TrustedCopy copy(
      path,
      [](const std::string& in, const std::string& out) {
        bool dataset = false, fclib = false;
        {
          // Opening first gives the precise reason for a missing, non-HDF5 or truncated file.
          h5::File f = h5::File::OpenReadOnly(in);
          dataset = f.root().HasAttr("format");
          fclib = f.root().HasGroup("fclib_global") || f.root().HasGroup("fclib_local");
        }
        if (dataset) {
          WriteCopy(in, out, ReadDatasetUnguarded(in));
        } else if (fclib) {
          CopyFclib(in, out);
        } else {
          throw Error(
              fmt::format("{}: neither an ncpbench dataset (root attribute 'format') nor an fclib "
                          "file (group /fclib_global or /fclib_local)",
                          in));
        }
      },
      ProbeTimeLimit(path));
  std::vector<ContactProblem> problems = ReadDatasetUnguarded(copy.path());
  for (ContactProblem& p : problems) CompleteReferenceVelocity(p);
  return problems;
}

}  // namespace ncp
