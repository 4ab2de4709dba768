// Conversions between the suite's Eigen types and numpy / scipy.sparse. Views share memory with
// their owner (a Python object kept alive as the array's base) and are read-only, so that a
// problem cannot be changed behind the solvers' back; inputs are copied into Eigen.
#pragma once

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <mutex>
#include <string>

#include "problems/model/contact_problem.h"

namespace ncp::py {

namespace pyb = pybind11;

// Read-only numpy view of x, kept alive by `owner`.
pyb::array VecView(const Vec& x, pyb::handle owner);
// Owning numpy copy of x.
pyb::array VecCopy(const Vec& x);
// scipy.sparse.csc_matrix viewing a compressed M (copies when M is not compressed).
pyb::object CscView(const SpMat& M, pyb::handle owner);
// The same storage read as CSR: the transpose of M, without a copy.
pyb::object CsrOfTransposeView(const SpMat& M, pyb::handle owner);

// A 1-D float64 array (anything numpy converts) into a Vec; None gives an empty Vec. Throws
// ncp::Error "field: must be a 1-D array of numbers" otherwise.
Vec ToVec(pyb::handle obj, const std::string& field);
// ToVec of exactly `length` entries (None too when `none_ok`: an empty Vec). Throws ncp::Error
// "field: wrong length: expected N, got K" otherwise.
Vec ToVecOfLength(pyb::handle obj, const std::string& field, Eigen::Index length, bool none_ok);
// ToVecOfLength whose entries must also be finite (an iterate to score or start from).
Vec ToFiniteVecOfLength(pyb::handle obj, const std::string& field, Eigen::Index length,
                        bool none_ok);
// Any scipy.sparse matrix or dense 2-D array into a compressed SpMat (a dense array's zeros are
// not stored). Throws ncp::Error naming the field otherwise, and where a dimension or an index
// does not fit the suite's 32-bit indices.
SpMat ToSpMat(pyb::handle obj, const std::string& field, long long vector_sizes = -1);

// The problem as the command line would accept it (Validate, A's Cholesky included): sizes that
// disagree would be read out of bounds by the solvers and the evaluator. Throws ncp::Error
// "problem '<name>': <reason>".
void CheckProblem(const ContactProblem& p);

// A path argument: a str or an os.PathLike (pathlib.Path), as Python's own file functions take;
// anything else raises ncpbench.Error naming `field`.
std::string PathArg(pyb::handle obj, const std::string& field);

// Held (with the GIL released) by every call that reads or writes files: the HDF5 library is
// built without thread safety, and a reader forked while another thread is inside it inherits
// its half-done state (two threads' load() calls stalled the forked readers). Recursive: a
// Python solver run by run() may load a file itself.
std::recursive_mutex& FileMutex();

}  // namespace ncp::py
