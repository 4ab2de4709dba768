# Precompiled headers: Eigen, fmt and the standard library (and GoogleTest for the tests) are
# parsed once per target instead of once per source file, which about halves the compile time of
# a typical source here (a 2-core machine builds the suite in minutes less). Off:
# -DNCPBENCH_PCH=OFF (e.g. to check that every file includes what it uses).
option(NCPBENCH_PCH "precompile the heavy third-party headers" ON)
function(ncp_precompile_headers target)
  if(NCPBENCH_PCH)
    target_precompile_headers(${target} PRIVATE
      <algorithm> <cmath> <functional> <map> <memory> <string> <vector>
      <Eigen/Dense> <Eigen/Sparse> <fmt/format.h> ${ARGN})
  endif()
endfunction()
