// Problems in Python: the arrays of a ContactProblem as read-only numpy / scipy.sparse views,
// problems built from arrays, datasets and fclib files read and written.
#include <fmt/format.h>
#include <pybind11/eigen.h>
#include <pybind11/stl.h>

#include "common/error.h"
#include "harness/runner.h"
#include "problems/io/dataset_hdf5.h"
#include "problems/io/fclib_io.h"
#include "problems/model/validate.h"
#include "python/bindings.h"
#include "python/py_arrays.h"
#include "solvers/common/dual_problem.h"

namespace ncp::py {
namespace {

using ProblemPtr = std::shared_ptr<ContactProblem>;

pyb::dict StructureDict(const Structure& s) {
  pyb::list subsystems, bodies, blocks;
  for (const auto& x : s.subsystems)
    subsystems.append(pyb::dict(pyb::arg("dof_begin") = x.dof_begin,
                                pyb::arg("dof_count") = x.dof_count, pyb::arg("kind") = x.kind));
  for (const auto& b : s.bodies)
    bodies.append(pyb::dict(pyb::arg("subsystem") = b.subsystem, pyb::arg("parent") = b.parent,
                            pyb::arg("mass") = b.mass, pyb::arg("inertia") = b.inertia,
                            pyb::arg("com") = Eigen::Vector3d(b.com),
                            pyb::arg("jacobian") = b.jacobian, pyb::arg("joint_dof") = b.joint_dof,
                            pyb::arg("joint_dofs") = b.joint_dofs));
  for (const auto& k : s.blocks)
    blocks.append(pyb::dict(pyb::arg("constraint") = k.constraint, pyb::arg("body") = k.body,
                            pyb::arg("jacobian") = k.jacobian));
  return pyb::dict(pyb::arg("subsystems") = subsystems, pyb::arg("bodies") = bodies,
                   pyb::arg("blocks") = blocks);
}

template <class T, class F>
pyb::array_t<T> PerConstraint(const ContactProblem& p, F f) {
  pyb::array_t<T> a(p.num_constraints());
  auto w = a.template mutable_unchecked<1>();
  for (int i = 0; i < p.num_constraints(); ++i) w(i) = f(p.constraints[i]);
  return a;
}

// Per-constraint arrays of length types.size(); None gives zeros.
std::vector<double> Column(pyb::handle obj, std::size_t n, const char* field) {
  if (obj.is_none()) return std::vector<double>(n, 0.0);
  const Vec v = ToVec(obj, field);
  if (static_cast<std::size_t>(v.size()) != n)
    throw Error(fmt::format("{}: wrong size: expected {} (one per constraint), got {}", field, n,
                            v.size()));
  return {v.data(), v.data() + v.size()};
}

ProblemPtr MakeProblem(pyb::object A, pyb::object b, pyb::object J, pyb::object e, pyb::object W,
                       pyb::object q, pyb::object types, pyb::object mu, pyb::object stiffness,
                       pyb::object damping, const std::string& name, pyb::object reference,
                       const std::string& scenario) {
  auto p = std::make_shared<ContactProblem>();
  const bool local = !W.is_none();
  if (local == !A.is_none())
    throw Error("problem: give either A, b, J, e (global form) or W, q (local form)");
  // The other form's arrays were ignored without a word.
  if (local ? !(b.is_none() && J.is_none() && e.is_none()) : !q.is_none())
    throw Error(local ? "problem: b, J and e belong to the global form (A, b, J, e); a local "
                        "problem (W, q) has none"
                      : "problem: q belongs to the local form (W, q); a global problem (A, b, "
                        "J, e) has none");
  p->form = local ? ProblemForm::kLocal : ProblemForm::kGlobal;
  // The vectors first: their lengths bound the matrices' shapes before any conversion
  // allocates index arrays for them (ToSpMat).
  const Vec t = ToVec(types, "types");
  if (local) {
    p->q = ToVec(q, "q");
    p->W = ToSpMat(W, "W", std::max<long long>(p->q.size(), 3 * t.size()));
  } else {
    p->b = ToVec(b, "b");
    p->e = ToVec(e, "e");
    const long long sizes = std::max<long long>({p->b.size(), p->e.size(), 3 * t.size()});
    p->A = ToSpMat(A, "A", sizes);
    p->J = ToSpMat(J, "J", sizes);
  }
  const std::size_t n = t.size();
  const auto mus = Column(mu, n, "mu"), ks = Column(stiffness, n, "stiffness"),
             ds = Column(damping, n, "damping");
  int row = 0;
  for (std::size_t i = 0; i < n; ++i) {
    if (!(t[i] >= 0 && t[i] <= 255 && t[i] == std::floor(t[i])))
      throw Error(
          fmt::format("types[{}] = {}: must be 0 (contact), 1 (unilateral), 2 (bilateral), "
                      "3 (soft) or 4 (joint friction)",
                      i, t[i]));
    Constraint c;
    c.type = static_cast<ConstraintType>(static_cast<int>(t[i]));  // Validate checks the range
    c.row = row;
    c.mu = mus[i], c.stiffness = ks[i], c.damping = ds[i];
    row += c.rows();
    p->constraints.push_back(c);
  }
  if (!reference.is_none()) {
    std::pair<pyb::object, pyb::object> vl;
    try {
      vl = reference.cast<std::pair<pyb::object, pyb::object>>();
    } catch (const pyb::cast_error&) {
      throw Error(fmt::format("reference = {}: must be a (v, lambda) pair",
                              std::string(pyb::repr(reference)).substr(0, 80)));
    }
    p->reference = Reference{ToVec(vl.first, "reference.v"), ToVec(vl.second, "reference.lambda"),
                             "python", -1.0};
  }
  // Written as C strings: a NUL would cut the name there (and the scenario's) without a word.
  for (const auto& [field, text] : {std::pair{"name", &name}, std::pair{"scenario", &scenario}})
    if (text->find('\0') != std::string::npos)
      throw Error(fmt::format("{}: holds a NUL character: must be text without one", field));
  p->meta.name = name;
  p->meta.scenario = scenario;
  return p;
}

std::vector<ProblemPtr> Shared(std::vector<ContactProblem> ps) {
  std::vector<ProblemPtr> out;
  for (ContactProblem& p : ps) out.push_back(std::make_shared<ContactProblem>(std::move(p)));
  return out;
}

}  // namespace

void BindProblem(pyb::module_& m) {
  pyb::class_<DualProblem, std::shared_ptr<DualProblem>>(
      m, "DualForm",
      "The dual form u = W λ + q the dual solvers (pgs, pj, apgd) iterate on: W = J A⁻¹ Jᵀ, "
      "q = J A⁻¹ b + e, soft rows folded in as equality rows with compliance.")
      .def_property_readonly("W",
                             [](pyb::object self) {
                               // Stored so that column i holds row i of W: read as CSR it is W
                               // itself.
                               return CsrOfTransposeView(self.cast<const DualProblem&>().W, self);
                             })
      .def_property_readonly(
          "q", [](pyb::object self) { return VecView(self.cast<const DualProblem&>().q, self); })
      .def_property_readonly(
          "diag",
          [](pyb::object self) { return VecView(self.cast<const DualProblem&>().diag, self); })
      .def(
          "velocity",
          [](const DualProblem& d, pyb::object lam) {
            return VecCopy(d.Velocity(ToFiniteVecOfLength(lam, "lambda", d.q.size(), false)));
          },
          pyb::arg("lam"), "v = A⁻¹ (b + Jᵀ λ); empty for local problems");

  pyb::class_<ContactProblem, ProblemPtr>(
      m, "Problem",
      "One frictional contact problem A v = b + Jᵀ λ, (J v + e, λ) ∈ S (global form) or "
      "u = W λ + q (local form). Arrays are read-only views; build one from arrays with "
      "Problem(A=, b=, J=, e=, types=, mu=) or Problem(W=, q=, types=, mu=).")
      .def(pyb::init(&MakeProblem), pyb::kw_only(), pyb::arg("A") = pyb::none(),
           pyb::arg("b") = pyb::none(), pyb::arg("J") = pyb::none(), pyb::arg("e") = pyb::none(),
           pyb::arg("W") = pyb::none(), pyb::arg("q") = pyb::none(), pyb::arg("types"),
           pyb::arg("mu") = pyb::none(), pyb::arg("stiffness") = pyb::none(),
           pyb::arg("damping") = pyb::none(), pyb::arg("name") = "problem",
           pyb::arg("reference") = pyb::none(), pyb::arg("scenario") = "python")
      .def_property_readonly("name", [](const ContactProblem& p) { return p.meta.name; })
      .def_property_readonly("form",
                             [](const ContactProblem& p) {
                               return p.form == ProblemForm::kGlobal ? "global" : "local";
                             })
      .def_property_readonly("num_dofs", &ContactProblem::num_dofs)
      .def_property_readonly("num_rows", &ContactProblem::num_rows)
      .def_property_readonly("num_constraints", &ContactProblem::num_constraints)
      .def_property_readonly("num_contacts", &ContactProblem::num_contacts)
      .def_property_readonly(
          "A", [](pyb::object s) { return CscView(s.cast<const ContactProblem&>().A, s); })
      .def_property_readonly(
          "J", [](pyb::object s) { return CscView(s.cast<const ContactProblem&>().J, s); })
      .def_property_readonly(
          "W", [](pyb::object s) { return CscView(s.cast<const ContactProblem&>().W, s); })
      .def_property_readonly(
          "b", [](pyb::object s) { return VecView(s.cast<const ContactProblem&>().b, s); })
      .def_property_readonly(
          "e", [](pyb::object s) { return VecView(s.cast<const ContactProblem&>().e, s); })
      .def_property_readonly(
          "q", [](pyb::object s) { return VecView(s.cast<const ContactProblem&>().q, s); })
      .def_property_readonly(
          "types",
          [](const ContactProblem& p) {
            return PerConstraint<std::uint8_t>(
                p, [](const Constraint& c) { return static_cast<std::uint8_t>(c.type); });
          },
          "per constraint: 0 contact (3 rows n, t1, t2), 1 unilateral, 2 bilateral, 3 soft, "
          "4 joint friction (2 rows n, t)")
      .def_property_readonly(
          "rows",
          [](const ContactProblem& p) {
            return PerConstraint<int>(p, [](const Constraint& c) { return c.row; });
          },
          "first row of each constraint")
      .def_property_readonly(
          "mu",
          [](const ContactProblem& p) {
            return PerConstraint<double>(p, [](const Constraint& c) { return c.mu; });
          },
          "friction coefficient per constraint (0 for non-contacts)")
      .def_property_readonly("stiffness",
                             [](const ContactProblem& p) {
                               return PerConstraint<double>(
                                   p, [](const Constraint& c) { return c.stiffness; });
                             })
      .def_property_readonly("damping",
                             [](const ContactProblem& p) {
                               return PerConstraint<double>(
                                   p, [](const Constraint& c) { return c.damping; });
                             })
      .def_property_readonly(
          "reference",
          [](pyb::object s) -> pyb::object {
            const auto& p = s.cast<const ContactProblem&>();
            if (!p.reference) return pyb::none();
            return pyb::dict(pyb::arg("v") = VecView(p.reference->v, s),
                             pyb::arg("lambda") = VecView(p.reference->lambda, s),
                             pyb::arg("solver") = p.reference->solver,
                             pyb::arg("res004") = p.reference->res004);
          },
          "dict(v, lambda, solver, res004) or None")
      .def_property_readonly(
          "structure",
          [](const ContactProblem& p) -> pyb::object {
            if (p.structure.empty()) return pyb::none();
            return StructureDict(p.structure);
          },
          "subsystems, bodies, per-constraint per-body Jacobian blocks (copies), or None")
      .def_property_readonly(
          "meta",
          [](const ContactProblem& p) {
            return pyb::dict(pyb::arg("scenario") = p.meta.scenario,
                             pyb::arg("case") = p.meta.case_name, pyb::arg("step") = p.meta.step,
                             pyb::arg("dt") = p.meta.dt, pyb::arg("seed") = p.meta.seed,
                             pyb::arg("params") = p.meta.params);
          })
      .def(
          "dual",
          [](const ContactProblem& p) {
            pyb::gil_scoped_release nogil;
            CheckProblem(p);
            return std::make_shared<DualProblem>(MakeDualProblem(p));
          },
          pyb::keep_alive<0, 1>(),
          "the dual form (W, q) of the dual solvers, built as they build it")
      .def(
          "validate",
          [](const ContactProblem& p) {
            pyb::gil_scoped_release nogil;
            return Validate(p);
          },
          "'' when valid, else the one-line reason (field, value, rule)")
      .def("__repr__", [](const ContactProblem& p) {
        return fmt::format("<ncpbench.Problem '{}' {} dofs={} rows={} constraints={}>", p.meta.name,
                           p.form == ProblemForm::kGlobal ? "global" : "local", p.num_dofs(),
                           p.num_rows(), p.num_constraints());
      });

  m.def(
      "load",
      [](pyb::object path_arg, bool validate) {
        const std::string path = PathArg(path_arg, "path");
        std::vector<ContactProblem> ps;
        {
          pyb::gil_scoped_release nogil;
          const std::lock_guard<std::recursive_mutex> files(FileMutex());
          ps = validate ? LoadValidated(path).problems : LoadProblems(path);
        }
        return Shared(std::move(ps));
      },
      pyb::arg("path"), pyb::arg("validate") = true,
      "Every problem of an ncpbench dataset, or the one of an fclib file. Raises ncpbench.Error "
      "with the command line's one-line message on a bad file or (validate) an invalid problem.");

  m.def(
      "write_dataset",
      [](pyb::object path_arg, const std::vector<ProblemPtr>& problems,
         const std::map<std::string, std::string>& attrs, bool validate) {
        const std::string path = PathArg(path_arg, "path");
        // A file of no problems is one the readers refuse ("no problems in the file").
        if (problems.empty())
          throw Error(fmt::format("{}: problems: empty: nothing to write", path));
        std::vector<ContactProblem> ps;
        for (std::size_t i = 0; i < problems.size(); ++i) {
          if (!problems[i])
            throw Error(fmt::format("{}: problems[{}] is None: must be a Problem", path, i));
          ps.push_back(*problems[i]);
        }
        pyb::gil_scoped_release nogil;
        const std::lock_guard<std::recursive_mutex> files(FileMutex());
        if (validate)
          for (const ContactProblem& p : ps)
            if (std::string err = Validate(p); !err.empty())
              throw Error(fmt::format("{}: problem '{}': {}", path, p.meta.name, err));
        WriteDataset(path, ps, attrs);
      },
      pyb::arg("path"), pyb::arg("problems"),
      pyb::arg("attrs") = std::map<std::string, std::string>{}, pyb::arg("validate") = true,
      "Writes an ncpbench dataset (atomic). Each problem is validated first: an invalid one raises "
      "ncpbench.Error 'path: problem 'name': reason', as `ncpbench run path` would print.");

  m.def(
      "write_fclib",
      [](pyb::object path_arg, const ContactProblem& p) {
        const std::string path = PathArg(path_arg, "path");
        pyb::gil_scoped_release nogil;
        CheckProblem(p);
        const std::lock_guard<std::recursive_mutex> files(FileMutex());
        if (p.form == ProblemForm::kGlobal)
          WriteFclibGlobal(path, p);
        else
          WriteFclibLocal(path, p);
      },
      pyb::arg("path"), pyb::arg("problem"), "Exports one problem as an fclib file");
}

}  // namespace ncp::py
