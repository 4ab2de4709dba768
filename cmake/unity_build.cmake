# Unity builds: a library's sources compiled in batches of 8, so that the headers and the
# templates they share (Eigen's kernels above all) are parsed, instantiated and optimized once a
# batch instead of once a file: a fresh build of the command-line tool and the Python module took
# 297 s instead of 431 s on 2 cores. Files listed under EXCLUDE (a folder whose files use the same
# names by design) compile on their own; elsewhere a name in a file's anonymous namespace must not
# clash with one of its batch's (the compiler says which; files that share names by design, the
# protocols of harness/reproduce/, keep theirs in a namespace named for the file). Off: -DNCPBENCH_UNITY=OFF (e.g. to
# check that every file includes what it uses, or for the fastest rebuild after editing one file).
option(NCPBENCH_UNITY "compile each library's sources in batches" ON)
function(ncp_unity_build target)
  cmake_parse_arguments(U "" "" "EXCLUDE" ${ARGN})
  if(NOT NCPBENCH_UNITY)
    return()
  endif()
  set_target_properties(${target} PROPERTIES UNITY_BUILD ON UNITY_BUILD_BATCH_SIZE 8)
  get_target_property(sources ${target} SOURCES)
  foreach(dir ${U_EXCLUDE})
    set(skipped ${sources})
    list(FILTER skipped INCLUDE REGEX "^${CMAKE_SOURCE_DIR}/${dir}/")
    if(skipped)
      set_source_files_properties(${skipped} TARGET_DIRECTORY ${target}
                                  PROPERTIES SKIP_UNITY_BUILD_INCLUSION ON)
    endif()
  endforeach()
endfunction()
