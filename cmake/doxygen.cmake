# SPDX-License-Identifier: GPL-2.0-only
#
# The API reference of the public headers, built by Doxygen (Debian's doxygen package). The
# CTest edge-llm-doxygen fails on any warning, so every class, member, parameter and return
# value of model/*.h and helper/*.h stays documented; the target edge-llm-doxygen-html writes
# the HTML to build/doc/doxygen/html.

find_package(Doxygen QUIET)
if(NOT DOXYGEN_FOUND)
  message(STATUS "edge-llm: no doxygen found; the API reference is not built nor checked "
                 "(apt-get install doxygen)")
  return()
endif()

set(EDGE_LLM_DOXYGEN_OUTPUT_DIR ${PROJECT_BINARY_DIR}/doc/doxygen)
# The headers' version checks see EDGE_LLM_NS3_VERSION (dependencies.cmake), as the sources do.
configure_file(${PROJECT_SOURCE_DIR}/doc/Doxyfile.in ${PROJECT_BINARY_DIR}/doc/Doxyfile @ONLY)
message(STATUS "edge-llm: doxygen ${DOXYGEN_VERSION}; CTest edge-llm-doxygen checks the API "
               "reference, target edge-llm-doxygen-html builds it")

# WARN_AS_ERROR=FAIL_ON_WARNINGS makes doxygen exit non-zero after a warning; the expression
# also fails a doxygen that ignores that setting.
add_test(NAME edge-llm-doxygen
         COMMAND ${DOXYGEN_EXECUTABLE} ${PROJECT_BINARY_DIR}/doc/Doxyfile
         WORKING_DIRECTORY ${PROJECT_BINARY_DIR}/doc)
set_tests_properties(edge-llm-doxygen PROPERTIES FAIL_REGULAR_EXPRESSION "warning:|error:")

add_custom_target(edge-llm-doxygen-html
                  COMMAND ${DOXYGEN_EXECUTABLE} ${PROJECT_BINARY_DIR}/doc/Doxyfile
                  WORKING_DIRECTORY ${PROJECT_BINARY_DIR}/doc
                  COMMENT "Doxygen: API reference in ${EDGE_LLM_DOXYGEN_OUTPUT_DIR}/html"
                  VERBATIM)
