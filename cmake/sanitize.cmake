# SPDX-License-Identifier: GPL-2.0-only
#
# EDGE_LLM_SANITIZE: the standalone build compiled and linked with AddressSanitizer and
# UndefinedBehaviorSanitizer (gcc or clang), for test/sanitizers/run.sh. Such a build makes only
# the library and its two test programs (standalone.cmake skips the rest), and its CTests,
# labelled "sanitize", run them with the suppression files of test/sanitizers.
# Included by CMakeLists.txt before standalone.cmake, so its flags reach every target.

option(EDGE_LLM_SANITIZE
       "Build the library and the test programs with ASan and UBSan (CTest label sanitize)" OFF)
if(NOT EDGE_LLM_SANITIZE)
  return()
endif()

if(NOT CMAKE_CXX_COMPILER_ID MATCHES "^(GNU|Clang)$")
  message(FATAL_ERROR "EDGE_LLM_SANITIZE needs gcc or clang (GNU or Clang); the C++ compiler "
                      "is ${CMAKE_CXX_COMPILER_ID}")
endif()
# A build type of its own: line numbers in the reports (-g1, line tables only) and -O1, which
# compiles an instrumented source in half the time of -O2 (and a third of -O2 -g). A build type
# given on the command line still wins (standalone.cmake defaults to Release otherwise).
set(CMAKE_CXX_FLAGS_SANITIZE "-O1 -g1 -DNDEBUG" CACHE STRING
    "C++ flags of the Sanitize build type, beside the sanitizers' own")
if(NOT CMAKE_BUILD_TYPE AND NOT CMAKE_CONFIGURATION_TYPES)
  set(CMAKE_BUILD_TYPE Sanitize CACHE STRING "Build type" FORCE)
endif()

# Undefined behaviour stops the test, as an ASan error does, instead of printing and going on.
set(EDGE_LLM_SANITIZE_FLAGS -fsanitize=address,undefined -fno-sanitize-recover=undefined
                            -fno-omit-frame-pointer)
# A compiler without the sanitizer runtimes (gcc needs libasan and libubsan) is refused here,
# rather than at the first link.
include(CheckCXXSourceCompiles)
set(CMAKE_REQUIRED_FLAGS "${EDGE_LLM_SANITIZE_FLAGS}")
string(REPLACE ";" " " CMAKE_REQUIRED_FLAGS "${CMAKE_REQUIRED_FLAGS}")
set(CMAKE_REQUIRED_LINK_OPTIONS ${EDGE_LLM_SANITIZE_FLAGS})
check_cxx_source_compiles("int main() { return 0; }" EDGE_LLM_SANITIZE_LINKS)
unset(CMAKE_REQUIRED_FLAGS)
unset(CMAKE_REQUIRED_LINK_OPTIONS)
if(NOT EDGE_LLM_SANITIZE_LINKS)
  message(FATAL_ERROR "EDGE_LLM_SANITIZE: ${CMAKE_CXX_COMPILER} cannot link with "
                      "${EDGE_LLM_SANITIZE_FLAGS} (gcc needs libasan and libubsan, Debian's "
                      "g++ has them; clang has them in its runtime)")
endif()
add_compile_options(${EDGE_LLM_SANITIZE_FLAGS})
add_link_options(${EDGE_LLM_SANITIZE_FLAGS})
string(JOIN " " flags ${EDGE_LLM_SANITIZE_FLAGS})
message(STATUS "edge-llm: sanitizers ON (${flags}, ${CMAKE_BUILD_TYPE}); "
               "only the library and the test programs are built, ctest -L sanitize runs them")

set(EDGE_LLM_SANITIZERS_DIR ${PROJECT_SOURCE_DIR}/test/sanitizers)
# halt_on_error and print_stacktrace make a UBSan report a failure with its call stack; the
# leak suppressions are ns-3's own objects, each explained in lsan.supp.
# malloc_context_size=2 records only an allocation's direct caller. Debian's ns-3 is built
# without frame pointers, so the fast unwinder reads junk past an ns-3 frame, and nearly every
# allocation's deeper stack is new to ASan's stack depot, whose lookups then take most of the
# run: the handover suite took 355 s and 2.7 GB with the default 30 frames, 47 s and 1 GB with
# 2 (5.5 s without sanitizers). Rerun one suite with malloc_context_size=30 for the deeper stack
# of a report.
set(EDGE_LLM_SANITIZE_ENVIRONMENT
    "ASAN_OPTIONS=detect_leaks=1:halt_on_error=1:malloc_context_size=2"
    "LSAN_OPTIONS=suppressions=${EDGE_LLM_SANITIZERS_DIR}/lsan.supp:print_suppressions=0"
    "UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1")

# Labels the test programs' CTests (standalone.cmake) "sanitize" and runs them with the
# sanitizers' options: every suite at QUICK (the runner's default) and the GoogleTest binary.
function(edge_llm_sanitize_tests)
  set(tests "")
  foreach(suite ${EDGE_LLM_TEST_SUITES})
    list(APPEND tests ${suite}-suite ${suite}-suite-registered)
  endforeach()
  if(TARGET edge-llm-gtest)
    list(APPEND tests edge-llm-gtest)
  endif()
  # A hang fails after an hour instead of holding CI until its own limit.
  set_tests_properties(${tests} PROPERTIES LABELS sanitize
                                           ENVIRONMENT "${EDGE_LLM_SANITIZE_ENVIRONMENT}"
                                           TIMEOUT 3600)
  # The longest suites first (their seconds at QUICK under the sanitizers, on 2 cores shared
  # with other builds): a fresh build has no timings of its own, and ctest would start them in
  # the list's order, the longest near its end.
  foreach(suite_cost edge-llm-online:235 edge-llm-impactho-road:213 edge-llm-sit:177)
    string(REPLACE ":" ";" suite_cost "${suite_cost}")
    list(GET suite_cost 0 suite)
    list(GET suite_cost 1 cost)
    if(suite IN_LIST EDGE_LLM_TEST_SUITES)
      set_tests_properties(${suite}-suite PROPERTIES COST ${cost})
    endif()
  endforeach()
endfunction()
