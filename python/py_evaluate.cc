// The harness evaluator from Python: every metric for any (v, λ), computed by the same code
// that scores the built-in solvers' results.
#include <pybind11/stl.h>

#include "harness/metrics/evaluator.h"
#include "python/bindings.h"
#include "python/py_arrays.h"

namespace ncp::py {
namespace {

pyb::dict ToDict(const Metrics& m) {
  pyb::dict d;
  for (std::size_t i = 0; i < kNumMetrics; ++i) d[kMetricNames[i]] = m.value[i];
  return d;
}

// v of num_dofs entries (None for a local problem, which has none), λ of num_rows: a wrong
// length is an error, not a row of NaN metrics.
Vec CheckedV(const ContactProblem& p, pyb::handle v) {
  return ToFiniteVecOfLength(v, "v", p.num_dofs(), p.form == ProblemForm::kLocal);
}
Vec CheckedLambda(const ContactProblem& p, pyb::handle lam) {
  return ToFiniteVecOfLength(lam, "lambda", p.num_rows(), false);
}

}  // namespace

void BindEvaluate(pyb::module_& m) {
  m.def(
      "metrics", [] { return std::vector<std::string>(kMetricNames.begin(), kMetricNames.end()); },
      "names of the metrics, in the results files' column order");

  pyb::class_<Evaluator>(m, "Evaluator",
                         "Scores (v, λ) on one problem; A is factorized once, at construction.")
      .def(pyb::init([](const ContactProblem& p) {
             pyb::gil_scoped_release nogil;
             CheckProblem(p);
             return std::make_unique<Evaluator>(p);
           }),
           pyb::arg("problem"), pyb::keep_alive<1, 2>())
      .def(
          "evaluate",
          [](const Evaluator& ev, pyb::object v, pyb::object lam) {
            const Vec vv = CheckedV(ev.problem(), v), ll = CheckedLambda(ev.problem(), lam);
            Metrics out;
            {
              pyb::gil_scoped_release nogil;
              out = ev.Evaluate(vv, ll);
            }
            return ToDict(out);
          },
          pyb::arg("v"), pyb::arg("lam"),
          "dict metric -> value; v may be None for local problems (u = W λ + q)")
      .def(
          "constraint_velocity",
          [](const Evaluator& ev, pyb::object lam) {
            return VecCopy(ev.ConstraintVelocity(CheckedLambda(ev.problem(), lam)));
          },
          pyb::arg("lam"), "u = J v̂ + e with v̂ = A⁻¹(b + Jᵀλ), or W λ + q");

  m.def(
      "evaluate",
      [](const ContactProblem& p, pyb::object v, pyb::object lam) {
        const Vec vv = CheckedV(p, v), ll = CheckedLambda(p, lam);
        Metrics out;
        {
          pyb::gil_scoped_release nogil;
          CheckProblem(p);
          out = Evaluator(p).Evaluate(vv, ll);
        }
        return ToDict(out);
      },
      pyb::arg("problem"), pyb::arg("v"), pyb::arg("lam"),
      "Every metric of (v, λ) on `problem`, as the harness computes it for every solver.");
}

}  // namespace ncp::py
