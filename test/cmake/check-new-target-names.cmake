# SPDX-License-Identifier: GPL-2.0-only
#
# Configures and builds edge-llm against an ns-3 that offers only the ns-3.43 target names
# (the fixture in ns3-new-target-names/), then runs the edge-llm TestSuite of that build.
# Run with: cmake -DSOURCE_DIR=<repo> -DWORK_DIR=<scratch> -P check-new-target-names.cmake

file(REMOVE_RECURSE ${WORK_DIR})
execute_process(
  COMMAND ${CMAKE_COMMAND} -S ${SOURCE_DIR} -B ${WORK_DIR}
          -Dns3_DIR=${SOURCE_DIR}/test/cmake/ns3-new-target-names
          -DEDGE_LLM_GTEST=OFF -DEDGE_LLM_BENCHMARKS=OFF
  OUTPUT_VARIABLE out ERROR_VARIABLE err RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "configure failed:\n${out}\n${err}")
endif()
if(NOT out MATCHES "ns-3 3\\.43, linking ns3::core;ns3::network;[^\n]*ns3::lte")
  message(FATAL_ERROR "the build did not pick the new target names:\n${out}")
endif()
execute_process(COMMAND ${CMAKE_COMMAND} --build ${WORK_DIR} --target edge-llm-test-runner -j 2
                OUTPUT_VARIABLE out ERROR_VARIABLE err RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "build failed:\n${out}\n${err}")
endif()
execute_process(COMMAND ${WORK_DIR}/edge-llm-test-runner --suite=edge-llm
                OUTPUT_VARIABLE out ERROR_VARIABLE err RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "edge-llm suite failed:\n${out}\n${err}")
endif()
message(STATUS "ns-3.43 target names: configured, built and passed")
