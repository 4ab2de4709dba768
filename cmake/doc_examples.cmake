# The worked examples of docs/adding_*.md, cut out of the documents at build time
# (scripts/doc_snippet.py) into <build>/doc_examples/ and compiled into the test suite
# (tests/docs/doc_examples_test.cc): a guide whose code stops building fails the build of the tests.
find_program(DOC_PYTHON NAMES python3 REQUIRED)
set(DOC_EXAMPLES_DIR ${CMAKE_BINARY_DIR}/doc_examples)
set(DOC_EXAMPLE_FILES)
# name | document | first line of its code block | further arguments of doc_snippet.py
function(doc_example name doc starts)
  set(out ${DOC_EXAMPLES_DIR}/${name})
  add_custom_command(
    OUTPUT ${out}
    COMMAND ${DOC_PYTHON} ${CMAKE_SOURCE_DIR}/scripts/doc_snippet.py ${CMAKE_SOURCE_DIR}/${doc}
            --starts ${starts} -o ${out} ${ARGN}
    DEPENDS ${CMAKE_SOURCE_DIR}/${doc} ${CMAKE_SOURCE_DIR}/scripts/doc_snippet.py
    COMMENT "doc example ${name} from ${doc}" VERBATIM)
  set(DOC_EXAMPLE_FILES ${DOC_EXAMPLE_FILES} ${out} PARENT_SCOPE)
endfunction()
doc_example(my_settings.inc docs/adding_a_solver.md "struct MySettings")
doc_example(my_entry.inc docs/adding_a_solver.md "SolverEntry MyEntry()")
doc_example(ramp_cubes.cc docs/adding_a_scene.md "// Cubes on a floor tilted")
doc_example(ramp_cubes_entry.inc docs/adding_a_scene.md "Scene MakeRampCubes(" --after ... --rstrip ,)
doc_example(table_example_1.cc docs/adding_a_reproduction.md "// Example paper, Table 1")
doc_example(example-table1.csv docs/adding_a_reproduction.md "# Example paper, Table 1")
target_sources(ncpbench_tests PRIVATE ${DOC_EXAMPLE_FILES})
target_include_directories(ncpbench_tests PRIVATE ${CMAKE_BINARY_DIR})
target_compile_definitions(ncpbench_tests PRIVATE NCPBENCH_DOC_EXAMPLES_DIR="${DOC_EXAMPLES_DIR}")
