# SPDX-License-Identifier: GPL-2.0-only
#
# libFuzzer targets of the wire parsers (EDGE_LLM_FUZZ=ON). Each target compiles only the
# few sources it needs, with -fsanitize=fuzzer,address,undefined, against the installed
# ns-3's core and network libraries; the rest of the project is not built, so a fuzz build
# takes well under a minute. Each target has a CTest (label fuzz) that runs it for a bounded
# time on a copy of its seed corpus, test/fuzz/corpus/<target>/, and fails on any crash.

if(NOT CMAKE_CXX_COMPILER_ID STREQUAL "Clang")
  message(FATAL_ERROR "EDGE_LLM_FUZZ needs clang (libFuzzer is part of clang's runtime); "
                      "the C++ compiler is ${CMAKE_CXX_COMPILER_ID} ${CMAKE_CXX_COMPILER}. "
                      "Configure a new build directory with -DCMAKE_CXX_COMPILER=clang++ "
                      "(Debian: apt-get install clang libclang-rt-14-dev)")
endif()

set(CMAKE_CXX_STANDARD 17)
set(CMAKE_CXX_STANDARD_REQUIRED ON)
set(CMAKE_CXX_EXTENSIONS OFF)
if(NOT CMAKE_BUILD_TYPE)
  set(CMAKE_BUILD_TYPE RelWithDebInfo CACHE STRING "Build type" FORCE)
endif()

set(EDGE_LLM_FUZZ_SECONDS 20 CACHE STRING "How long each fuzz CTest runs its target, in s")

find_package(ns3 REQUIRED)
include(${CMAKE_CURRENT_LIST_DIR}/edge-llm-ns3-targets.cmake)
_edge_llm_ns3_targets(edge_llm_ns3_targets edge_llm_ns3_missing)
set(EDGE_LLM_FUZZ_NS3 "")
foreach(module core network)
  if(TARGET ns3::lib${module})
    list(APPEND EDGE_LLM_FUZZ_NS3 ns3::lib${module})
  elseif(TARGET ns3::${module})
    list(APPEND EDGE_LLM_FUZZ_NS3 ns3::${module})
  else()
    message(FATAL_ERROR "ns-3 module '${module}' not found; install it, e.g. "
                        "apt-get install libns3-dev")
  endif()
endforeach()

# The parsers, instrumented for coverage but without libFuzzer's main, shared by the targets.
add_library(edge-llm-fuzz-parsers OBJECT
  model/kv-transfer-header.cc
  model/kv-transfer-stream-parser.cc
  model/control-message.cc
  model/edge-llm-uplink-header.cc
  model/edge-llm-downlink-header.cc
  model/edge-llm-relay-header.cc
  model/input-checks.cc
)
# NS3_LOG_ENABLE as Debian's ns-3 was built (some classes change their layout with it);
# NS3_ASSERT_ENABLE so that ns-3's inline buffer reads check their bounds here too.
set(edge_llm_fuzz_definitions NS3_LOG_ENABLE NS3_ASSERT_ENABLE)
set(edge_llm_fuzz_sanitizers address,undefined)
target_compile_definitions(edge-llm-fuzz-parsers PUBLIC ${edge_llm_fuzz_definitions})
target_include_directories(edge-llm-fuzz-parsers PUBLIC ${PROJECT_SOURCE_DIR}/model)
target_compile_options(edge-llm-fuzz-parsers PUBLIC
                       -fsanitize=${edge_llm_fuzz_sanitizers} -fno-sanitize-recover=all
                       -fno-omit-frame-pointer PRIVATE -fsanitize=fuzzer-no-link)
target_link_libraries(edge-llm-fuzz-parsers PUBLIC ${EDGE_LLM_FUZZ_NS3})

enable_testing()
set(EDGE_LLM_FUZZ_TARGETS kv-transfer-header kv-transfer-stream uplink-header downlink-header
                          relay-header control-stream)
foreach(target ${EDGE_LLM_FUZZ_TARGETS})
  add_executable(edge-llm-fuzz-${target} test/fuzz/${target}-fuzz.cc)
  target_link_libraries(edge-llm-fuzz-${target} PRIVATE edge-llm-fuzz-parsers)
  target_compile_options(edge-llm-fuzz-${target} PRIVATE -fsanitize=fuzzer)
  target_link_options(edge-llm-fuzz-${target} PRIVATE
                      -fsanitize=fuzzer,${edge_llm_fuzz_sanitizers})
  add_test(NAME fuzz-${target}
           COMMAND ${CMAKE_COMMAND} -DFUZZER=$<TARGET_FILE:edge-llm-fuzz-${target}>
                   -DCORPUS=${PROJECT_SOURCE_DIR}/test/fuzz/corpus/${target}
                   -DWORK_DIR=${PROJECT_BINARY_DIR}/fuzz-work/${target}
                   -DSECONDS=${EDGE_LLM_FUZZ_SECONDS}
                   -P ${PROJECT_SOURCE_DIR}/test/fuzz/run-fuzzer.cmake)
  set_tests_properties(fuzz-${target} PROPERTIES LABELS fuzz
                                                 TIMEOUT 300)
endforeach()

# The seed corpus is what its generator writes today.
find_package(Python3 COMPONENTS Interpreter)
if(Python3_FOUND)
  add_test(NAME fuzz-corpus-current
           COMMAND ${Python3_EXECUTABLE} ${PROJECT_SOURCE_DIR}/test/fuzz/make-corpus.py --check
                   ${PROJECT_SOURCE_DIR}/test/fuzz/corpus)
  set_tests_properties(fuzz-corpus-current PROPERTIES LABELS fuzz)
endif()
