#include "problems/io/dataset_hdf5.h"

#include <fmt/format.h>

#include <algorithm>
#include <climits>
#include <filesystem>
#include <string_view>
#include <set>
#include <span>
#include <utility>

#include "common/error.h"
#include "common/file_write.h"
#include "problems/io/guarded_read.h"
#include "problems/io/h5_util.h"

namespace ncp {
namespace {

using h5::Group;

// ---------------------------------------------------------------------------------------------
// Sparse matrices: a group with attrs nrows, ncols and datasets colptr, rowind, values (CSC).

bool Present(const SpMat& m) { return m.rows() > 0 || m.cols() > 0; }

void WriteCsc(const Group& parent, const std::string& name, const SpMat& m) {
  SpMat compressed;
  const SpMat* c = &m;
  if (!m.isCompressed()) {
    compressed = m;
    compressed.makeCompressed();
    c = &compressed;
  }
  Group g = parent.Create(name);
  g.SetInt("nrows", c->rows());
  g.SetInt("ncols", c->cols());
  std::vector<std::int32_t> colptr(static_cast<std::size_t>(c->cols()) + 1, 0);
  if (c->outerIndexPtr() != nullptr) {
    std::copy_n(c->outerIndexPtr(), colptr.size(), colptr.begin());
  }
  const std::size_t nnz = static_cast<std::size_t>(colptr.back());
  g.WriteInts("colptr", colptr);
  g.WriteInts("rowind", std::span<const std::int32_t>(c->innerIndexPtr(), nnz));
  g.WriteDoubles("values", std::span<const double>(c->valuePtr(), nnz));
}

SpMat ReadCsc(const Group& parent, const std::string& name) {
  Group g = parent.Open(name);
  const std::int64_t nrows = g.GetInt("nrows");
  const std::int64_t ncols = g.GetInt("ncols");
  if (nrows < 0 || ncols < 0 || nrows > INT_MAX || ncols > INT_MAX) {
    g.Fail("", fmt::format("matrix dims out of range: {}×{}", nrows, ncols));
  }
  const std::vector<std::int32_t> colptr = g.ReadInts("colptr");
  const std::vector<std::int32_t> rowind = g.ReadInts("rowind");
  const std::vector<double> values = g.ReadDoubles("values");
  if (static_cast<std::int64_t>(colptr.size()) != ncols + 1) {
    g.Fail("colptr",
           fmt::format("wrong size: expected ncols + 1 = {}, got {}", ncols + 1, colptr.size()));
  }
  if (colptr[0] != 0) g.Fail("colptr", fmt::format("colptr[0] = {}, expected 0", colptr[0]));
  for (std::int64_t j = 0; j < ncols; ++j) {
    if (colptr[j + 1] < colptr[j]) {
      g.Fail("colptr", fmt::format("not monotone: colptr[{}] = {} > colptr[{}] = {}", j, colptr[j],
                                   j + 1, colptr[j + 1]));
    }
  }
  const std::int64_t nnz = colptr.back();
  if (static_cast<std::int64_t>(rowind.size()) != nnz) {
    g.Fail("rowind",
           fmt::format("wrong size: expected colptr[ncols] = {}, got {}", nnz, rowind.size()));
  }
  if (static_cast<std::int64_t>(values.size()) != nnz) {
    g.Fail("values",
           fmt::format("wrong size: expected colptr[ncols] = {}, got {}", nnz, values.size()));
  }
  for (std::int64_t j = 0; j < ncols; ++j) {
    for (std::int32_t k = colptr[j]; k < colptr[j + 1]; ++k) {
      if (rowind[k] < 0 || rowind[k] >= nrows) {
        g.Fail("rowind",
               fmt::format("row index {} out of range [0, {}) in column {}", rowind[k], nrows, j));
      }
      if (k > colptr[j] && rowind[k] <= rowind[k - 1]) {
        g.Fail("rowind", fmt::format("row indices not strictly increasing in column {}", j));
      }
    }
  }
  SpMat m(static_cast<int>(nrows), static_cast<int>(ncols));
  m.resizeNonZeros(static_cast<Eigen::Index>(nnz));
  std::copy(colptr.begin(), colptr.end(), m.outerIndexPtr());
  std::copy(rowind.begin(), rowind.end(), m.innerIndexPtr());
  std::copy(values.begin(), values.end(), m.valuePtr());
  return m;
}

std::span<const double> AsSpan(const Vec& v) {
  return {v.data(), static_cast<std::size_t>(v.size())};
}

Vec ReadVec(const Group& g, const std::string& name) {
  const std::vector<double> v = g.ReadDoubles(name);
  return Eigen::Map<const Vec>(v.data(), static_cast<Eigen::Index>(v.size()));
}

// ---------------------------------------------------------------------------------------------
// Structure layer. Jacobian blocks of varying shapes are stored flat: jacobian_rows/cols (int32),
// jacobian_offset (int64, count + 1, into jacobian_values), jacobian_values (row-major).

void WriteJacobians(const Group& g, const std::vector<const Eigen::MatrixXd*>& mats) {
  std::vector<std::int32_t> rows, cols;
  std::vector<std::int64_t> offset{0};
  std::vector<double> values;
  for (const Eigen::MatrixXd* m : mats) {
    rows.push_back(static_cast<std::int32_t>(m->rows()));
    cols.push_back(static_cast<std::int32_t>(m->cols()));
    for (Eigen::Index r = 0; r < m->rows(); ++r) {
      for (Eigen::Index c = 0; c < m->cols(); ++c) values.push_back((*m)(r, c));
    }
    offset.push_back(static_cast<std::int64_t>(values.size()));
  }
  g.WriteInts("jacobian_rows", rows);
  g.WriteInts("jacobian_cols", cols);
  g.WriteInt64s("jacobian_offset", offset);
  g.WriteDoubles("jacobian_values", values);
}

std::vector<Eigen::MatrixXd> ReadJacobians(const Group& g, std::size_t count) {
  const std::vector<std::int32_t> rows = g.ReadInts("jacobian_rows");
  const std::vector<std::int32_t> cols = g.ReadInts("jacobian_cols");
  const std::vector<std::int64_t> offset = g.ReadInt64s("jacobian_offset");
  const std::vector<double> values = g.ReadDoubles("jacobian_values");
  if (rows.size() != count || cols.size() != count || offset.size() != count + 1) {
    g.Fail("", fmt::format("jacobian arrays of unequal length: {} entries, jacobian_rows {}, "
                           "jacobian_cols {}, jacobian_offset {} (expected {})",
                           count, rows.size(), cols.size(), offset.size(), count + 1));
  }
  if (offset[0] != 0 || offset[count] != static_cast<std::int64_t>(values.size())) {
    g.Fail("jacobian_offset",
           fmt::format("must run from 0 to jacobian_values size {}, got {} to {}", values.size(),
                       offset[0], offset[count]));
  }
  std::vector<Eigen::MatrixXd> out(count);
  for (std::size_t i = 0; i < count; ++i) {
    if (rows[i] < 0 || cols[i] < 0 ||
        offset[i + 1] - offset[i] != static_cast<std::int64_t>(rows[i]) * cols[i]) {
      g.Fail("jacobian_offset", fmt::format("entry {}: {}×{} does not match offsets {}..{}", i,
                                            rows[i], cols[i], offset[i], offset[i + 1]));
    }
    out[i].resize(rows[i], cols[i]);
    const double* p = values.data() + offset[i];
    for (int r = 0; r < rows[i]; ++r) {
      for (int c = 0; c < cols[i]; ++c) out[i](r, c) = p[r * cols[i] + c];
    }
  }
  return out;
}

void WriteStructure(const Group& parent, const Structure& s) {
  Group g = parent.Create("structure");
  {
    Group ss = g.Create("subsystems");
    std::vector<std::int32_t> begin, count;
    std::vector<std::string> kind;
    for (const Structure::Subsystem& x : s.subsystems) {
      begin.push_back(x.dof_begin);
      count.push_back(x.dof_count);
      kind.push_back(x.kind);
    }
    ss.WriteInts("dof_begin", begin);
    ss.WriteInts("dof_count", count);
    ss.WriteStrings("kind", kind);
  }
  {
    Group bg = g.Create("bodies");
    std::vector<std::int32_t> subsystem, parent_body;
    std::vector<double> mass, inertia, com;
    std::vector<const Eigen::MatrixXd*> jac;
    for (const Structure::Body& b : s.bodies) {
      subsystem.push_back(b.subsystem);
      parent_body.push_back(b.parent);
      mass.push_back(b.mass);
      for (int r = 0; r < 3; ++r) {
        for (int c = 0; c < 3; ++c) inertia.push_back(b.inertia(r, c));
      }
      for (int r = 0; r < 3; ++r) com.push_back(b.com(r));
      jac.push_back(&b.jacobian);
    }
    const auto n = static_cast<std::int64_t>(s.bodies.size());
    bg.WriteInts("subsystem", subsystem);
    bg.WriteInts("parent", parent_body);
    bg.WriteDoubles("mass", mass);
    bg.WriteDoubles2D("inertia", inertia, n, 9);
    bg.WriteDoubles2D("com", com, n, 3);
    WriteJacobians(bg, jac);
    // Tree data is optional (schema v1 files without it stay readable).
    bool any_tree = false;
    for (const Structure::Body& b : s.bodies) any_tree = any_tree || b.has_tree();
    if (any_tree) {
      std::vector<std::int32_t> joint_dof, joint_dofs;
      std::vector<double> transform;
      for (const Structure::Body& b : s.bodies) {
        joint_dof.push_back(b.joint_dof);
        joint_dofs.push_back(b.joint_dofs);
        for (int r = 0; r < 6; ++r)
          for (int c = 0; c < 6; ++c) transform.push_back(b.transform(r, c));
      }
      bg.WriteInts("joint_dof", joint_dof);
      bg.WriteInts("joint_dofs", joint_dofs);
      bg.WriteDoubles2D("transform", transform, n, 36);
    }
  }
  {
    Group kg = g.Create("blocks");
    std::vector<std::int32_t> constraint, body;
    std::vector<const Eigen::MatrixXd*> jac;
    for (const Structure::Block& k : s.blocks) {
      constraint.push_back(k.constraint);
      body.push_back(k.body);
      jac.push_back(&k.jacobian);
    }
    kg.WriteInts("constraint", constraint);
    kg.WriteInts("body", body);
    WriteJacobians(kg, jac);
  }
}

void CheckLength(const Group& g, const std::string& name, std::size_t got, std::size_t expected,
                 const char* reference) {
  if (got != expected) {
    g.Fail(name, fmt::format("wrong size: expected {} (as {}), got {}", expected, reference, got));
  }
}

Structure ReadStructure(const Group& parent) {
  Group g = parent.Open("structure");
  Structure s;
  {
    Group ss = g.Open("subsystems");
    const auto begin = ss.ReadInts("dof_begin");
    const auto count = ss.ReadInts("dof_count");
    const auto kind = ss.ReadStrings("kind");
    CheckLength(ss, "dof_count", count.size(), begin.size(), "dof_begin");
    CheckLength(ss, "kind", kind.size(), begin.size(), "dof_begin");
    s.subsystems.resize(begin.size());
    for (std::size_t i = 0; i < begin.size(); ++i) {
      s.subsystems[i] = {begin[i], count[i], kind[i]};
    }
  }
  {
    Group bg = g.Open("bodies");
    const auto subsystem = bg.ReadInts("subsystem");
    const std::size_t n = subsystem.size();
    const auto parent_body = bg.ReadInts("parent");
    const auto mass = bg.ReadDoubles("mass");
    std::int64_t inertia_rows = 0, com_rows = 0;
    const auto inertia = bg.ReadDoubles2D("inertia", 9, &inertia_rows);
    const auto com = bg.ReadDoubles2D("com", 3, &com_rows);
    CheckLength(bg, "parent", parent_body.size(), n, "subsystem");
    CheckLength(bg, "mass", mass.size(), n, "subsystem");
    CheckLength(bg, "inertia", static_cast<std::size_t>(inertia_rows), n, "subsystem");
    CheckLength(bg, "com", static_cast<std::size_t>(com_rows), n, "subsystem");
    std::vector<Eigen::MatrixXd> jac = ReadJacobians(bg, n);
    s.bodies.resize(n);
    for (std::size_t i = 0; i < n; ++i) {
      Structure::Body& b = s.bodies[i];
      b.subsystem = subsystem[i];
      b.parent = parent_body[i];
      b.mass = mass[i];
      for (int r = 0; r < 3; ++r) {
        for (int c = 0; c < 3; ++c) b.inertia(r, c) = inertia[9 * i + 3 * r + c];
      }
      for (int r = 0; r < 3; ++r) b.com(r) = com[3 * i + r];
      b.jacobian = std::move(jac[i]);
    }
    if (bg.Has("joint_dof")) {
      const auto joint_dof = bg.ReadInts("joint_dof");
      const auto joint_dofs = bg.ReadInts("joint_dofs");
      std::int64_t transform_rows = 0;
      const auto transform = bg.ReadDoubles2D("transform", 36, &transform_rows);
      CheckLength(bg, "joint_dof", joint_dof.size(), n, "subsystem");
      CheckLength(bg, "joint_dofs", joint_dofs.size(), n, "subsystem");
      CheckLength(bg, "transform", static_cast<std::size_t>(transform_rows), n, "subsystem");
      for (std::size_t i = 0; i < n; ++i) {
        Structure::Body& b = s.bodies[i];
        b.joint_dof = joint_dof[i];
        b.joint_dofs = joint_dofs[i];
        for (int r = 0; r < 6; ++r)
          for (int c = 0; c < 6; ++c) b.transform(r, c) = transform[36 * i + 6 * r + c];
      }
    }
  }
  {
    Group kg = g.Open("blocks");
    const auto constraint = kg.ReadInts("constraint");
    const auto body = kg.ReadInts("body");
    CheckLength(kg, "body", body.size(), constraint.size(), "constraint");
    std::vector<Eigen::MatrixXd> jac = ReadJacobians(kg, constraint.size());
    s.blocks.resize(constraint.size());
    for (std::size_t i = 0; i < constraint.size(); ++i) {
      s.blocks[i] = {constraint[i], body[i], std::move(jac[i])};
    }
  }
  return s;
}

// ---------------------------------------------------------------------------------------------
// Constraints: parallel arrays, one entry per constraint.

void WriteConstraints(const Group& g, const std::vector<Constraint>& cs) {
  std::vector<std::uint8_t> type;
  std::vector<std::int32_t> row;
  std::vector<double> mu, stiffness, damping;
  for (const Constraint& c : cs) {
    type.push_back(static_cast<std::uint8_t>(c.type));
    row.push_back(c.row);
    mu.push_back(c.mu);
    stiffness.push_back(c.stiffness);
    damping.push_back(c.damping);
  }
  g.WriteBytes("constraint_type", type);
  g.WriteInts("constraint_row", row);
  g.WriteDoubles("mu", mu);
  g.WriteDoubles("stiffness", stiffness);
  g.WriteDoubles("damping", damping);
}

std::vector<Constraint> ReadConstraints(const Group& g) {
  const auto type = g.ReadBytes("constraint_type");
  const auto row = g.ReadInts("constraint_row");
  const auto mu = g.ReadDoubles("mu");
  const auto stiffness = g.ReadDoubles("stiffness");
  const auto damping = g.ReadDoubles("damping");
  const std::size_t n = type.size();
  if (row.size() != n || mu.size() != n || stiffness.size() != n || damping.size() != n) {
    g.Fail("", fmt::format("constraint arrays of unequal length: constraint_type {}, "
                           "constraint_row {}, mu {}, stiffness {}, damping {}",
                           n, row.size(), mu.size(), stiffness.size(), damping.size()));
  }
  std::vector<Constraint> cs(n);
  for (std::size_t i = 0; i < n; ++i) {
    if (type[i] > kMaxConstraintType) {
      g.Fail("constraint_type", fmt::format("value {} at index {} is not a constraint type (0..{})",
                                            type[i], i, kMaxConstraintType));
    }
    cs[i].type = static_cast<ConstraintType>(type[i]);
    cs[i].row = row[i];
    cs[i].mu = mu[i];
    cs[i].stiffness = stiffness[i];
    cs[i].damping = damping[i];
  }
  return cs;
}

// ---------------------------------------------------------------------------------------------
// One problem: group /problems/<name>.

void WriteProblem(const Group& problems, const ContactProblem& p, int index) {
  Group g = problems.Create(p.meta.name);
  g.SetInt("index", index);
  g.SetInt("form", static_cast<int>(p.form));
  g.SetString("name", p.meta.name);
  g.SetString("scenario", p.meta.scenario);
  g.SetString("case_name", p.meta.case_name);
  g.SetInt("step", p.meta.step);
  g.SetDouble("dt", p.meta.dt);
  g.SetUInt64("seed", p.meta.seed);
  g.SetInt("generator_version", p.meta.generator_version);
  {
    Group params = g.Create("params");
    for (const auto& [key, value] : p.meta.params) params.SetDouble(key, value);
  }

  // The form's own fields are always written; the others only when set (e.g. a lifted primal
  // form stored next to a local problem).
  const bool global = p.form == ProblemForm::kGlobal;
  if (global || Present(p.A)) WriteCsc(g, "A", p.A);
  if (global || p.b.size() > 0) g.WriteDoubles("b", AsSpan(p.b));
  if (global || Present(p.J)) WriteCsc(g, "J", p.J);
  if (global || p.e.size() > 0) g.WriteDoubles("e", AsSpan(p.e));
  if (!global || Present(p.W)) WriteCsc(g, "W", p.W);
  if (!global || p.q.size() > 0) g.WriteDoubles("q", AsSpan(p.q));
  WriteConstraints(g, p.constraints);

  if (p.reference) {
    Group r = g.Create("reference");
    r.WriteDoubles("v", AsSpan(p.reference->v));
    r.WriteDoubles("lambda", AsSpan(p.reference->lambda));
    r.SetString("solver", p.reference->solver);
    r.SetDouble("res004", p.reference->res004);
  }
  if (!p.guesses.empty()) {
    Group gs = g.Create("guesses");
    for (std::size_t k = 0; k < p.guesses.size(); ++k) {
      Group x = gs.Create(std::to_string(k));
      if (p.guesses[k].v.size() > 0) x.WriteDoubles("v", AsSpan(p.guesses[k].v));
      x.WriteDoubles("lambda", AsSpan(p.guesses[k].lambda));
    }
  }
  const Structure& s = p.structure;
  if (!s.subsystems.empty() || !s.bodies.empty() || !s.blocks.empty()) WriteStructure(g, s);
}

ContactProblem ReadProblem(const Group& g) {
  ContactProblem p;
  const std::int64_t form = g.GetInt("form");
  if (form != 0 && form != 1) {
    g.Fail("", fmt::format("attribute 'form' = {}, expected 0 (global) or 1 (local)", form));
  }
  p.form = static_cast<ProblemForm>(form);
  p.meta.name = g.GetString("name");
  p.meta.scenario = g.GetString("scenario");
  p.meta.case_name = g.GetString("case_name");
  p.meta.step = g.GetInt32("step");
  p.meta.dt = g.GetDouble("dt");
  p.meta.seed = g.GetUInt64("seed");
  p.meta.generator_version = g.GetInt32("generator_version");
  {
    Group params = g.Open("params");
    for (const std::string& key : params.AttrNames()) p.meta.params[key] = params.GetDouble(key);
  }

  const bool global = p.form == ProblemForm::kGlobal;
  if (global || g.Has("A")) p.A = ReadCsc(g, "A");
  if (global || g.Has("b")) p.b = ReadVec(g, "b");
  if (global || g.Has("J")) p.J = ReadCsc(g, "J");
  if (global || g.Has("e")) p.e = ReadVec(g, "e");
  if (!global || g.Has("W")) p.W = ReadCsc(g, "W");
  if (!global || g.Has("q")) p.q = ReadVec(g, "q");
  p.constraints = ReadConstraints(g);

  if (g.Has("reference")) {
    Group r = g.Open("reference");
    Reference ref;
    ref.v = ReadVec(r, "v");
    ref.lambda = ReadVec(r, "lambda");
    ref.solver = r.GetString("solver");
    ref.res004 = r.GetDouble("res004");
    p.reference = std::move(ref);
  }
  if (g.Has("guesses")) {
    Group gs = g.Open("guesses");
    const std::size_t count = gs.Children().size();
    for (std::size_t k = 0; k < count; ++k) {
      const std::string name = std::to_string(k);
      if (!gs.Has(name))
        gs.Fail(name, fmt::format("missing: {} guesses are named 0..{}", count, count - 1));
      Group x = gs.Open(name);
      Guess guess;
      if (x.Has("v")) guess.v = ReadVec(x, "v");
      guess.lambda = ReadVec(x, "lambda");
      p.guesses.push_back(std::move(guess));
    }
  }
  if (g.Has("structure")) p.structure = ReadStructure(g);
  return p;
}

void CheckNames(const std::string& path, const std::vector<ContactProblem>& problems,
                const std::map<std::string, std::string>& attrs) {
  std::set<std::string> seen;
  for (std::size_t i = 0; i < problems.size(); ++i) {
    const std::string& name = problems[i].meta.name;
    if (name.empty() || name == "." || name.find('/') != std::string::npos) {
      throw Error(
          fmt::format("{}: problems[{}]: name '{}' is not usable as a group name "
                      "(must be non-empty, without '/')",
                      path, i, name));
    }
    if (!seen.insert(name).second) {
      throw Error(fmt::format("{}: problems[{}]: duplicate name '{}'", path, i, name));
    }
  }
  for (const auto& [key, value] : attrs) {
    if (key.empty() || key == "format" || key == "schema_version") {
      throw Error(fmt::format("{}: attribute name '{}' is reserved", path, key));
    }
  }
}

// Opens `path` and checks the root attributes that make it an ncpbench dataset.
h5::File OpenDataset(const std::string& path) {
  h5::File f = h5::File::OpenReadOnly(path);
  const Group& root = f.root();
  if (!root.HasAttr("format")) {
    root.Fail("", "not an ncpbench dataset (root attribute 'format' is missing)");
  }
  const std::string format = root.GetString("format");
  if (format != kDatasetFormat) {
    root.Fail("", fmt::format("not an ncpbench dataset (format is '{}', expected '{}')", format,
                              kDatasetFormat));
  }
  const std::int64_t version = root.GetInt("schema_version");
  if (version != kDatasetSchemaVersion) {
    root.Fail("", fmt::format("unsupported schema_version {} (this build reads {})", version,
                              kDatasetSchemaVersion));
  }
  return f;
}

}  // namespace

void WriteDataset(const std::string& path, const std::vector<ContactProblem>& problems,
                  const std::map<std::string, std::string>& attrs) {
  CheckNames(path, problems, attrs);
  ReplaceFile(path, [&](const std::string& tmp) {
    h5::File f = h5::File::Create(tmp);
    {
      const Group& root = f.root();
      root.SetString("format", kDatasetFormat);
      root.SetInt("schema_version", kDatasetSchemaVersion);
      for (const auto& [key, value] : attrs) root.SetString(key, value);
      Group group = root.Create("problems");
      for (std::size_t i = 0; i < problems.size(); ++i) {
        WriteProblem(group, problems[i], static_cast<int>(i));
      }
    }
    f.Close();
  });
}

namespace {

std::vector<ContactProblem> ReadDatasetInProcess(const std::string& path) {
  h5::File f = OpenDataset(path);
  std::vector<std::pair<std::int64_t, ContactProblem>> indexed;
  {
    Group group = f.root().Open("problems");
    for (const std::string& name : group.Children()) {
      Group g = group.Open(name);
      indexed.emplace_back(g.GetInt("index"), ReadProblem(g));
    }
  }
  std::stable_sort(indexed.begin(), indexed.end(),
                   [](const auto& a, const auto& b) { return a.first < b.first; });
  for (std::size_t i = 1; i < indexed.size(); ++i) {
    if (indexed[i].first == indexed[i - 1].first) {
      throw Error(fmt::format("{}: /problems: problems '{}' and '{}' have the same index {}", path,
                              indexed[i - 1].second.meta.name, indexed[i].second.meta.name,
                              indexed[i].first));
    }
  }
  std::vector<ContactProblem> out;
  out.reserve(indexed.size());
  for (auto& [index, p] : indexed) out.push_back(std::move(p));
  return out;
}

std::map<std::string, std::string> ReadDatasetAttrsInProcess(const std::string& path) {
  h5::File f = OpenDataset(path);
  std::map<std::string, std::string> attrs;
  for (const std::string& key : f.root().AttrNames()) {
    if (key == "format" || key == "schema_version" || !f.root().AttrIsString(key)) continue;
    attrs[key] = f.root().GetString(key);
  }
  return attrs;
}

// The probe child's side of ReadDataset and ReadDatasetAttrs (guarded_read.h, TrustedCopy).
void CopyDataset(const std::string& in, const std::string& out) {
  WriteCopy(in, out, ReadDatasetInProcess(in), ReadDatasetAttrsInProcess(in));
}
void CopyDatasetAttrs(const std::string& in, const std::string& out) {
  WriteCopy(in, out, {}, ReadDatasetAttrsInProcess(in));
}

}  // namespace

void WriteCopy(const std::string& in, const std::string& out,
               const std::vector<ContactProblem>& problems,
               const std::map<std::string, std::string>& attrs) {
  try {
    WriteDataset(out, problems, attrs);
  } catch (const Error& e) {
    ThrowCopyNotWritten(in, out, "problems", e.what());
  }
}

std::vector<ContactProblem> ReadDatasetUnguarded(const std::string& path) {
  return ReadDatasetInProcess(path);
}

std::vector<ContactProblem> ReadDataset(const std::string& path) {
  const TrustedCopy copy(path, CopyDataset, ProbeTimeLimit(path));
  return ReadDatasetUnguarded(copy.path());
}

std::map<std::string, std::string> ReadDatasetAttrs(const std::string& path) {
  const TrustedCopy copy(path, CopyDatasetAttrs, ProbeTimeLimit(path));
  return ReadDatasetAttrsInProcess(copy.path());
}

bool IsNcpbenchDataset(const std::string& path) {
  try {
    if (!h5::File::IsHdf5(path)) return false;
    OpenDataset(path);
    return true;
  } catch (const Error&) {
    return false;
  }
}

}  // namespace ncp
