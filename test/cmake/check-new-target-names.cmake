# SPDX-License-Identifier: GPL-2.0-only
#
# edge-llm against an ns-3 that offers only the ns-3.43 target names (the fixture in
# ns3-new-target-names/), without compiling the module a second time:
#  1. the standalone build configures and generates against the fixture, picks the new names,
#     and links the library and the test runner to every fixture library (CMake's file API
#     gives each target's link line); a target that named an old ns3::lib<module> would stop
#     the generation, one that missed a module would miss its library;
#  2. the main build, installed into a scratch prefix, serves a small program (test/consumer/)
#     built through find_package(edge-llm) with only the fixture's ns-3, which is run.
# Run with: cmake -DSOURCE_DIR=<repo> -DBUILD_DIR=<main build> -DWORK_DIR=<scratch>
#                 -DCXX=<compiler> -P check-new-target-names.cmake

cmake_minimum_required(VERSION 3.21)

set(fixture ${SOURCE_DIR}/test/cmake/ns3-new-target-names)
set(module_dir ${WORK_DIR}/module)
set(consumer_dir ${WORK_DIR}/consumer)
set(prefix ${WORK_DIR}/prefix)
file(REMOVE_RECURSE ${WORK_DIR})

function(run what)
  execute_process(COMMAND ${ARGN} OUTPUT_VARIABLE out ERROR_VARIABLE err RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${what} failed (${rc}):\n${ARGN}\n${out}\n${err}")
  endif()
  set(out "${out}" PARENT_SCOPE)
endfunction()

# link_fragments(<build-dir> <target> <out-var>): the target's link command fragments, from the
# codemodel reply of a build directory configured with the query codemodel_query() wrote.
function(codemodel_query dir)
  file(WRITE ${dir}/.cmake/api/v1/query/codemodel-v2 "")
endfunction()
function(link_fragments dir target out_var)
  file(GLOB index ${dir}/.cmake/api/v1/reply/index-*.json)
  list(LENGTH index n)
  if(NOT n EQUAL 1)
    message(FATAL_ERROR "${dir}: expected one file-API index, found '${index}'")
  endif()
  file(READ ${index} json)
  string(JSON codemodel GET "${json}" reply codemodel-v2 jsonFile)
  file(READ ${dir}/.cmake/api/v1/reply/${codemodel} json)
  string(JSON targets GET "${json}" configurations 0 targets)
  string(JSON count LENGTH "${targets}")
  math(EXPR last "${count} - 1")
  set(target_json "")
  foreach(i RANGE ${last})
    string(JSON name GET "${targets}" ${i} name)
    if(name STREQUAL target)
      string(JSON target_json GET "${targets}" ${i} jsonFile)
    endif()
  endforeach()
  if(NOT target_json)
    message(FATAL_ERROR "${dir}: no target ${target} in the codemodel")
  endif()
  file(READ ${dir}/.cmake/api/v1/reply/${target_json} json)
  string(JSON fragments GET "${json}" link commandFragments)
  string(JSON count LENGTH "${fragments}")
  math(EXPR last "${count} - 1")
  set(result "")
  foreach(i RANGE ${last})
    string(JSON fragment GET "${fragments}" ${i} fragment)
    list(APPEND result "${fragment}")
  endforeach()
  set(${out_var} "${result}" PARENT_SCOPE)
endfunction()

# check_links_fixture(<build-dir> <target>): the target links every library the fixture's
# targets stand for, as the fixture found it (its cache entries EDGE_LLM_FIXTURE_<module>).
set(fixture_modules core network internet traffic-control mobility applications point-to-point
                    propagation spectrum lte)
function(check_links_fixture dir target)
  link_fragments(${dir} ${target} fragments)
  foreach(module ${fixture_modules})
    load_cache(${dir} READ_WITH_PREFIX cached_ EDGE_LLM_FIXTURE_${module})
    set(library "${cached_EDGE_LLM_FIXTURE_${module}}")
    if(NOT library OR NOT library IN_LIST fragments)
      message(FATAL_ERROR "${dir}: ${target} does not link ns3::${module} ('${library}'); its "
                          "link line:\n${fragments}")
    endif()
  endforeach()
endfunction()

# 1. The standalone build, configured and generated only.
codemodel_query(${module_dir})
run("configure" ${CMAKE_COMMAND} -S ${SOURCE_DIR} -B ${module_dir} -Dns3_DIR=${fixture}
    -DEDGE_LLM_GTEST=OFF -DEDGE_LLM_BENCHMARKS=OFF)
if(NOT out MATCHES "ns-3 3\\.43, linking ns3::core;ns3::network;[^\n]*ns3::lte")
  message(FATAL_ERROR "the build did not pick the new target names:\n${out}")
endif()
check_links_fixture(${module_dir} ns3-edge-llm)
check_links_fixture(${module_dir} edge-llm-test-runner)
message(STATUS "standalone build: configured with ns3::core ... ns3::lte, and links them")

# 2. The main build's library, installed, in a program built against the fixture.
run("install" ${CMAKE_COMMAND} --install ${BUILD_DIR} --prefix ${prefix})
codemodel_query(${consumer_dir})
run("consumer configure" ${CMAKE_COMMAND} -S ${SOURCE_DIR}/test/consumer -B ${consumer_dir}
    -Dns3_DIR=${fixture} -DCMAKE_PREFIX_PATH=${prefix} -DCMAKE_CXX_COMPILER=${CXX}
    -DCMAKE_BUILD_TYPE=Release)
check_links_fixture(${consumer_dir} consumer)
run("consumer build" ${CMAKE_COMMAND} --build ${consumer_dir})
run("consumer" ${consumer_dir}/consumer)
if(NOT out MATCHES "ns3::LlmEngine KvCapacityTokens [0-9]+")
  message(FATAL_ERROR "the consumer printed:\n${out}")
endif()
message(STATUS "ns-3.43 target names: the build configures with them, and the installed "
               "package serves a program built with them: ${out}")
