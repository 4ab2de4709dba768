# Precompiled headers: Eigen, fmt and the standard library (and GoogleTest for the tests) are
# parsed once per target instead of once per source file, which about halves the compile time of
# a typical source here (a 2-core machine builds the suite in minutes less). Off:
# -DNCPBENCH_PCH=OFF (e.g. to check that every file includes what it uses).
#   ncp_precompile_headers(target [REUSE_FROM owner] [header ...])
# REUSE_FROM takes the owner's precompiled header instead of making one (6 s each here): the
# owner must be compiled with the same code-generation flags, OpenMP's among them (-fopenmp
# defines _OPENMP, which Eigen's headers read); other definitions may differ as long as those
# headers do not read them (GCC's rule; -Winvalid-pch says when it refuses one).
option(NCPBENCH_PCH "precompile the heavy third-party headers" ON)
function(ncp_precompile_headers target)
  cmake_parse_arguments(P "" "REUSE_FROM" "" ${ARGN})
  if(NOT NCPBENCH_PCH)
    return()
  endif()
  if(P_REUSE_FROM)
    target_precompile_headers(${target} REUSE_FROM ${P_REUSE_FROM})
  else()
    target_precompile_headers(${target} PRIVATE
      <algorithm> <cmath> <functional> <map> <memory> <string> <vector>
      <Eigen/Dense> <Eigen/Sparse> <fmt/format.h> ${P_UNPARSED_ARGUMENTS})
  endif()
endfunction()
