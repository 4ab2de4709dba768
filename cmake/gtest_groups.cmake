# Registers the GoogleTest binary's tests with CTest in groups: one CTest test per run of at most
# CHUNK tests of one suite (`Suite [k/n]`), each a process with --gtest_filter naming its tests.
# A process per test (gtest_discover_tests) spent about 45 ms of a 2-core machine's CPU on
# starting each of the suite's ~1000 processes (dynamic linking of a hundred libraries) — a
# sixth of the suite's CPU; a group still runs in parallel with the others, and a failure prints
# its test's name in the group's output. Run at build time (POST_BUILD) as:
#   cmake -D EXE=<test binary> -D OUT=<file.cmake> -D CHUNK=8 -D GPU_FILTER=<pattern:...>
#         -D ENV=<VAR=value> -P gtest_groups.cmake
# GPU_FILTER: tests (gtest patterns) that need a CUDA device, grouped apart with the label `gpu`.
cmake_minimum_required(VERSION 3.20)
execute_process(COMMAND "${EXE}" --gtest_list_tests OUTPUT_VARIABLE listing RESULT_VARIABLE rc
                TIMEOUT 60)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "gtest_groups: ${EXE} --gtest_list_tests failed (${rc})")
endif()

# Each "Suite." line opens a suite; each indented line is one of its tests. Comments
# ("  # GetParam() = ...") are not part of the names.
string(REPLACE ";" "\\;" listing "${listing}")
string(REPLACE "\n" ";" lines "${listing}")
set(suites)
set(suite)
foreach(line IN LISTS lines)
  string(REGEX REPLACE "[ ]*#.*$" "" line "${line}")
  if(line MATCHES "^([^ ].*)\\.$")
    set(suite "${CMAKE_MATCH_1}")
    list(APPEND suites "${suite}")
    set(tests_${suite})
  elseif(line MATCHES "^  ([^ ]+)$" AND suite)
    list(APPEND tests_${suite} "${suite}.${CMAKE_MATCH_1}")
  endif()
endforeach()

# Whether a test matches one of GPU_FILTER's ':'-separated patterns ('*' any text).
set(gpu_regexes)
string(REPLACE ":" ";" patterns "${GPU_FILTER}")
foreach(p IN LISTS patterns)
  string(REGEX REPLACE "([.+?^$()\\[\\]{}|\\\\])" "\\\\\\1" r "${p}")
  string(REPLACE "*" ".*" r "${r}")
  list(APPEND gpu_regexes "^${r}$")
endforeach()

set(script "")
# One CTest test for the tests of `group` (a list), named `name`.
macro(add_group name group labels)
  list(JOIN ${group} ":" filter)
  string(APPEND script "add_test([==[${name}]==] [==[${EXE}]==] [==[--gtest_filter=${filter}]==])\n"
         "set_tests_properties([==[${name}]==] PROPERTIES TIMEOUT 600 ENVIRONMENT [==[${ENV}]==])\n")
  if(NOT "${labels}" STREQUAL "")
    # Only the exit code decides (a group skipped by GTEST_SKIP passes; gtest's output says which
    # tests skipped): a skip pattern would hide a failing test of the same group.
    string(APPEND script "set_tests_properties([==[${name}]==] PROPERTIES LABELS ${labels})\n")
  endif()
endmacro()
foreach(suite IN LISTS suites)
  set(cpu)
  set(gpu)
  foreach(t IN LISTS tests_${suite})
    set(is_gpu FALSE)
    foreach(r IN LISTS gpu_regexes)
      if(t MATCHES "${r}")
        set(is_gpu TRUE)
      endif()
    endforeach()
    if(is_gpu)
      list(APPEND gpu "${t}")
    else()
      list(APPEND cpu "${t}")
    endif()
  endforeach()
  foreach(kind cpu gpu)
    list(LENGTH ${kind} n)
    if(n EQUAL 0)
      continue()
    endif()
    math(EXPR parts "(${n} + ${CHUNK} - 1) / ${CHUNK}")
    set(label "")
    if(kind STREQUAL "gpu")
      set(label "gpu")
    endif()
    math(EXPR last "${parts} - 1")
    foreach(k RANGE ${last})
      math(EXPR first "${k} * ${n} / ${parts}")
      math(EXPR end "(${k} + 1) * ${n} / ${parts}")
      math(EXPR len "${end} - ${first}")
      list(SUBLIST ${kind} ${first} ${len} group)
      set(name "${suite}")
      if(kind STREQUAL "gpu")
        string(APPEND name " (gpu)")
      endif()
      if(parts GREATER 1)
        math(EXPR k1 "${k} + 1")
        string(APPEND name " [${k1}/${parts}]")
      endif()
      add_group("${name}" group "${label}")
    endforeach()
  endforeach()
endforeach()
file(WRITE "${OUT}.tmp" "${script}")
file(RENAME "${OUT}.tmp" "${OUT}")
