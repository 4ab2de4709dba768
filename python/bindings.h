// The parts of the `ncpbench` Python module, one Bind* per file (python/module.cc calls them).
#pragma once

#include <pybind11/pybind11.h>

namespace ncp::py {

void BindProblem(pybind11::module_& m);   // Problem, DualForm, load, write_dataset, validate
void BindGenerate(pybind11::module_& m);  // scenarios, generate
void BindEvaluate(pybind11::module_& m);  // metrics, Evaluator, evaluate
void BindRun(pybind11::module_& m);       // solvers, solve, run, load_plugin

}  // namespace ncp::py
