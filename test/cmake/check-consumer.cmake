# SPDX-License-Identifier: GPL-2.0-only
#
# Installs the standalone build into a scratch prefix, then builds test/consumer/ against it
# twice, through the CMake package and through edge-llm.pc, and runs both; then once more
# against the build tree itself, nothing installed (edge-llm_DIR=<build>). The program names
# edge-llm only by TypeId, so it also checks that the library survives --as-needed linking;
# a control build with a plain -lns3-edge-llm must lose it, or the check would prove nothing.
# Run with: cmake -DBUILD_DIR=<build> -DSOURCE_DIR=<repo> -DWORK_DIR=<scratch> -DLIBDIR=<lib>
#                 -DCXX=<compiler> -DPKG_CONFIG=<pkg-config> -P check-consumer.cmake

set(prefix ${WORK_DIR}/prefix)
set(main ${SOURCE_DIR}/test/consumer/main.cc)
set(expected "ns3::LlmEngine KvCapacityTokens [0-9]+")
file(REMOVE_RECURSE ${WORK_DIR})
file(MAKE_DIRECTORY ${WORK_DIR})

function(run what)
  execute_process(COMMAND ${ARGN} OUTPUT_VARIABLE out ERROR_VARIABLE err RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${what} failed (${rc}):\n${ARGN}\n${out}\n${err}")
  endif()
  set(out "${out}" PARENT_SCOPE)
endfunction()

run("install" ${CMAKE_COMMAND} --install ${BUILD_DIR} --prefix ${prefix})
foreach(file ${LIBDIR}/cmake/edge-llm/edge-llm-config.cmake
             ${LIBDIR}/cmake/edge-llm/edge-llm-config-version.cmake
             ${LIBDIR}/pkgconfig/edge-llm.pc include/ns3/edge-llm-module.h
             include/ns3/llm-engine.h)
  if(NOT EXISTS ${prefix}/${file})
    message(FATAL_ERROR "not installed: ${prefix}/${file}")
  endif()
endforeach()

# --as-needed is Debian's default; asked for here so the check holds where it is not.
set(as_needed -Wl,--as-needed)

# test/consumer/ through find_package(edge-llm) + edge-llm::edge-llm, configured with the
# given way to the package, built in WORK_DIR/<dir> and run.
function(consumer_through_cmake what dir)
  run("consumer configure (${what})" ${CMAKE_COMMAND} -S ${SOURCE_DIR}/test/consumer
      -B ${WORK_DIR}/${dir} ${ARGN} -DCMAKE_CXX_COMPILER=${CXX}
      -DCMAKE_EXE_LINKER_FLAGS=${as_needed} -DCMAKE_BUILD_TYPE=Release)
  run("consumer build (${what})" ${CMAKE_COMMAND} --build ${WORK_DIR}/${dir})
  run("consumer (${what})" ${WORK_DIR}/${dir}/consumer)
  if(NOT out MATCHES "${expected}")
    message(FATAL_ERROR "consumer (${what}) printed:\n${out}")
  endif()
  message(STATUS "${what}: ${out}")
endfunction()

# 1. The installed CMake package.
consumer_through_cmake("CMake package" cmake-build -DCMAKE_PREFIX_PATH=${prefix})

# 2. g++ ... $(pkg-config --cflags --libs edge-llm), as README shows it. Run by a shell: ns-3's
# own .pc files give flags with a ';' in them, which a CMake list would split.
set(ENV{PKG_CONFIG_PATH} ${prefix}/${LIBDIR}/pkgconfig)
run("pkg-config --libs" ${PKG_CONFIG} --libs edge-llm)
if(NOT out MATCHES "--no-as-needed -lns3-edge-llm")
  message(FATAL_ERROR "edge-llm.pc's Libs do not keep the library: ${out}")
endif()
set(pc "'${PKG_CONFIG}'")
run("compile (pkg-config)"
    sh -c "'${CXX}' -std=c++17 $(${pc} --cflags edge-llm) -c '${main}' -o '${WORK_DIR}/main.o'")
run("link (pkg-config)" sh -c "'${CXX}' ${as_needed} '${WORK_DIR}/main.o' \
$(${pc} --libs edge-llm) -o '${WORK_DIR}/consumer-pc'")
set(ENV{LD_LIBRARY_PATH} ${prefix}/${LIBDIR})
run("consumer (pkg-config)" ${WORK_DIR}/consumer-pc)
if(NOT out MATCHES "${expected}")
  message(FATAL_ERROR "consumer (pkg-config) printed:\n${out}")
endif()
message(STATUS "pkg-config: ${out}")

# 3. Control: the same program with the library's link flags taken out must lose it.
run("link (control)" sh -c "'${CXX}' ${as_needed} '${WORK_DIR}/main.o' \
$(${pc} --libs edge-llm | sed -e 's/-Wl,--push-state,--no-as-needed//' -e 's/-Wl,--pop-state//') \
-o '${WORK_DIR}/consumer-plain'")
execute_process(COMMAND ${WORK_DIR}/consumer-plain OUTPUT_VARIABLE out ERROR_VARIABLE err
                RESULT_VARIABLE rc)
if(rc EQUAL 0)
  message(FATAL_ERROR "the control, linked with a plain -lns3-edge-llm under --as-needed, "
                      "still found ns3::LlmEngine; the check does not exercise --as-needed:\n"
                      "${out}")
endif()
message(STATUS "control without the flags: ${err}")

# 4. The build tree itself as the package, with nothing installed: edge-llm_DIR names it.
unset(ENV{LD_LIBRARY_PATH})
consumer_through_cmake("build tree" tree-build -Dedge-llm_DIR=${BUILD_DIR})
