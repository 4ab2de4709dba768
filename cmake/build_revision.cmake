# Writes OUT (build_revision.h) with the source tree's revision at build time: "abc1234", with
# "-dirty" when tracked files differ from it, "unknown" without git. Rewritten only when it
# changes, so an unchanged revision rebuilds nothing. Run at every build (cmake -P).
set(rev unknown)
execute_process(COMMAND git -C "${SRC}" rev-parse --short HEAD OUTPUT_VARIABLE head
                RESULT_VARIABLE rc OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
if(rc EQUAL 0 AND NOT head STREQUAL "")
  set(rev "${head}")
  execute_process(COMMAND git -C "${SRC}" status --porcelain --untracked-files=no
                  OUTPUT_VARIABLE changes RESULT_VARIABLE rc OUTPUT_STRIP_TRAILING_WHITESPACE
                  ERROR_QUIET)
  if(rc EQUAL 0 AND NOT changes STREQUAL "")
    set(rev "${rev}-dirty")
  endif()
endif()
set(text "// Generated at build time by cmake/build_revision.cmake.\n#pragma once\n#define NCPBENCH_BUILD_REVISION \"${rev}\"\n")
set(old "")
if(EXISTS "${OUT}")
  file(READ "${OUT}" old)
endif()
if(NOT old STREQUAL text)
  file(WRITE "${OUT}" "${text}")
endif()
