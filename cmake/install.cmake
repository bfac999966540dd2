# SPDX-License-Identifier: GPL-2.0-only
#
# cmake --install of the standalone build: the library, its headers (include/ns3/), a CMake
# package (find_package(edge-llm), target edge-llm::edge-llm) and a pkg-config file
# (edge-llm.pc), both relocatable.

include(CMakePackageConfigHelpers)

set(EDGE_LLM_CMAKE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/edge-llm)

set_target_properties(ns3-edge-llm PROPERTIES EXPORT_NAME ns3-edge-llm)
install(TARGETS ns3-edge-llm edge-llm EXPORT edge-llm-targets
        LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
        RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(DIRECTORY ${EDGE_LLM_INCLUDE_DIR}/ns3 DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(EXPORT edge-llm-targets NAMESPACE edge-llm:: DESTINATION ${EDGE_LLM_CMAKE_DIR})

configure_package_config_file(${CMAKE_CURRENT_LIST_DIR}/edge-llm-config.cmake.in
                              ${PROJECT_BINARY_DIR}/edge-llm-config.cmake
                              INSTALL_DESTINATION ${EDGE_LLM_CMAKE_DIR})
# Before 1.0 a minor release may break the interface.
write_basic_package_version_file(${PROJECT_BINARY_DIR}/edge-llm-config-version.cmake
                                 COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/edge-llm-config.cmake
              ${PROJECT_BINARY_DIR}/edge-llm-config-version.cmake
              ${CMAKE_CURRENT_LIST_DIR}/edge-llm-ns3-targets.cmake
        DESTINATION ${EDGE_LLM_CMAKE_DIR})
# The build tree is a package too: find_package(edge-llm) with edge-llm_DIR (or
# CMAKE_PREFIX_PATH) naming it finds the library as built, its headers in the build tree.
export(EXPORT edge-llm-targets NAMESPACE edge-llm:: FILE ${PROJECT_BINARY_DIR}/edge-llm-targets.cmake)
configure_file(${CMAKE_CURRENT_LIST_DIR}/edge-llm-ns3-targets.cmake
               ${PROJECT_BINARY_DIR}/edge-llm-ns3-targets.cmake COPYONLY)

# pkg-config: the prefix is found from the .pc file's own place, so that
# cmake --install --prefix <anywhere> gives a working file.
if(IS_ABSOLUTE "${CMAKE_INSTALL_LIBDIR}")
  set(EDGE_LLM_PC_LIBDIR "${CMAKE_INSTALL_LIBDIR}")
else()
  set(EDGE_LLM_PC_LIBDIR "\${prefix}/${CMAKE_INSTALL_LIBDIR}")
endif()
if(IS_ABSOLUTE "${CMAKE_INSTALL_INCLUDEDIR}")
  set(EDGE_LLM_PC_INCLUDEDIR "${CMAKE_INSTALL_INCLUDEDIR}")
else()
  set(EDGE_LLM_PC_INCLUDEDIR "\${prefix}/${CMAKE_INSTALL_INCLUDEDIR}")
endif()
file(RELATIVE_PATH EDGE_LLM_PC_UP /root/${CMAKE_INSTALL_LIBDIR}/pkgconfig /root)
set(EDGE_LLM_PC_PREFIX "\${pcfiledir}/${EDGE_LLM_PC_UP}")
string(REGEX REPLACE "/$" "" EDGE_LLM_PC_PREFIX "${EDGE_LLM_PC_PREFIX}")
if(EDGE_LLM_NS3_LOG)
  set(EDGE_LLM_PC_CFLAGS "-DNS3_LOG_ENABLE")
else()
  set(EDGE_LLM_PC_CFLAGS "")
endif()
# ns-3 through its own pkg-config files (Debian ships ns3-core.pc, ...) when there are any;
# otherwise its libraries and include directories are written out.
set(EDGE_LLM_PC_REQUIRES "")
foreach(module ${EDGE_LLM_NS3_MODULES})
  list(APPEND EDGE_LLM_PC_REQUIRES ns3-${module})
endforeach()
find_package(PkgConfig QUIET)
set(EDGE_LLM_PC_NS3_FOUND FALSE)
if(PKG_CONFIG_FOUND)
  execute_process(COMMAND ${PKG_CONFIG_EXECUTABLE} --exists ${EDGE_LLM_PC_REQUIRES}
                  RESULT_VARIABLE rc OUTPUT_QUIET ERROR_QUIET)
  if(rc EQUAL 0)
    set(EDGE_LLM_PC_NS3_FOUND TRUE)
  endif()
endif()
if(EDGE_LLM_PC_NS3_FOUND)
  list(JOIN EDGE_LLM_PC_REQUIRES " " EDGE_LLM_PC_REQUIRES)
  set(EDGE_LLM_PC_NS3_LIBS "")
  set(EDGE_LLM_PC_NS3_CFLAGS "")
else()
  message(STATUS "edge-llm: no pkg-config files of ns-3; edge-llm.pc lists its libraries")
  set(EDGE_LLM_PC_REQUIRES "")
  set(EDGE_LLM_PC_NS3_LIBS "")
  foreach(target ${EDGE_LLM_NS3_TARGETS})
    string(APPEND EDGE_LLM_PC_NS3_LIBS " $<TARGET_LINKER_FILE:${target}>")
  endforeach()
  list(GET EDGE_LLM_NS3_TARGETS 0 core)
  set(EDGE_LLM_PC_NS3_CFLAGS
      " $<$<BOOL:$<TARGET_PROPERTY:${core},INTERFACE_INCLUDE_DIRECTORIES>>:-I$<JOIN:$<TARGET_PROPERTY:${core},INTERFACE_INCLUDE_DIRECTORIES>, -I>>")
endif()
configure_file(${CMAKE_CURRENT_LIST_DIR}/edge-llm.pc.in ${PROJECT_BINARY_DIR}/edge-llm.pc.in
               @ONLY)
file(GENERATE OUTPUT ${PROJECT_BINARY_DIR}/edge-llm.pc INPUT ${PROJECT_BINARY_DIR}/edge-llm.pc.in)
install(FILES ${PROJECT_BINARY_DIR}/edge-llm.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
