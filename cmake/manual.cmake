# SPDX-License-Identifier: GPL-2.0-only
#
# The manual, doc/edge-llm.rst: CTest builds it with Sphinx, any warning an error, and checks
# that its Traces table lists every trace source of the module. Included by standalone.cmake
# after Python3 was looked for.

find_program(EDGE_LLM_SPHINX_BUILD NAMES sphinx-build)
if(EDGE_LLM_SPHINX_BUILD)
  # -E reads every source again: a kept environment would skip an unchanged manual, and a
  # warning that failed one run would not be seen by the next.
  add_test(NAME edge-llm-manual
           COMMAND ${EDGE_LLM_SPHINX_BUILD} -W --keep-going -q -E -b html
                   -d ${PROJECT_BINARY_DIR}/doc/doctrees
                   ${PROJECT_SOURCE_DIR}/doc ${PROJECT_BINARY_DIR}/doc/html)
else()
  message(STATUS "edge-llm: sphinx-build not found; the manual is not built "
                 "(apt-get install python3-sphinx)")
endif()

if(Python3_FOUND)
  add_test(NAME edge-llm-manual-traces
           COMMAND ${Python3_EXECUTABLE} ${PROJECT_SOURCE_DIR}/test/check-manual-traces.py
                   ${PROJECT_SOURCE_DIR})
endif()
