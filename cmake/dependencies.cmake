# SPDX-License-Identifier: GPL-2.0-only
#
# Libraries of the module beyond ns-3, for both builds (CMakeLists.txt, standalone.cmake).

# GLPK solves ImpactHO's clairvoyant bound (Debian: libglpk-dev); Boost.Math's root finders,
# header-only, serve the ImpactHO solvers and the handover predictor (libboost-dev).
find_path(EDGE_LLM_GLPK_INCLUDE_DIR glpk.h)
find_library(EDGE_LLM_GLPK_LIBRARY glpk)
if(NOT EDGE_LLM_GLPK_INCLUDE_DIR OR NOT EDGE_LLM_GLPK_LIBRARY)
  message(FATAL_ERROR "edge-llm needs GLPK (glpk.h and libglpk); install it, e.g. "
                      "apt-get install libglpk-dev")
endif()
find_path(EDGE_LLM_BOOST_MATH_INCLUDE_DIR boost/math/tools/roots.hpp)
if(NOT EDGE_LLM_BOOST_MATH_INCLUDE_DIR)
  message(FATAL_ERROR "edge-llm needs Boost.Math (boost/math/tools/roots.hpp); install it, "
                      "e.g. apt-get install libboost-dev")
endif()

# The ns-3 release built against, as major * 100 + minor (3.37 -> 337), for the sources' few
# checks of an API that changed (model/enum-accessor.h). An ns-3 tree names it NS3_VER. An
# installed ns-3's headers say it in ns3/version-defines.h, which is what the sources compile
# against; the package's version is the fallback.
if(DEFINED NS3_VER)
  set(edge_llm_ns3_release "${NS3_VER}")
  # A tree has its own ns3/version-defines.h only when it embeds its build version; otherwise
  # the run records' ns-3 version would come from an installed ns-3's header (Debian's 3.37
  # in /usr/include), so the tree's release is passed to the sources instead.
  set(edge_llm_ns3_full_release "${NS3_VER}")
  if(edge_llm_ns3_full_release MATCHES "^[0-9]+\\.[0-9]+$")
    string(APPEND edge_llm_ns3_full_release ".0")
  endif()
  add_compile_definitions(EDGE_LLM_NS3_RELEASE="${edge_llm_ns3_full_release}")
else()
  set(edge_llm_ns3_release "${ns3_VERSION}")
  list(GET EDGE_LLM_NS3_TARGETS 0 edge_llm_core_target)
  get_target_property(edge_llm_core_includes ${edge_llm_core_target} INTERFACE_INCLUDE_DIRECTORIES)
  foreach(dir ${edge_llm_core_includes})
    if(NOT dir MATCHES "\\$<" AND EXISTS "${dir}/ns3/version-defines.h")
      file(STRINGS "${dir}/ns3/version-defines.h" edge_llm_version_lines
           REGEX "^#define NS3_VERSION_(MAJOR|MINOR) [0-9]+")
      string(REGEX REPLACE ".*MAJOR ([0-9]+).*MINOR ([0-9]+).*" "\\1.\\2" edge_llm_headers_release
             "${edge_llm_version_lines}")
      if(edge_llm_headers_release MATCHES "^[0-9]+\\.[0-9]+$")
        set(edge_llm_ns3_release "${edge_llm_headers_release}")
      endif()
      break()
    endif()
  endforeach()
endif()
if(NOT edge_llm_ns3_release MATCHES "^([0-9]+)\\.([0-9]+)")
  message(FATAL_ERROR "edge-llm: cannot read the ns-3 release from '${edge_llm_ns3_release}'")
endif()
math(EXPR EDGE_LLM_NS3_VERSION "${CMAKE_MATCH_1} * 100 + ${CMAKE_MATCH_2}")
add_compile_definitions(EDGE_LLM_NS3_VERSION=${EDGE_LLM_NS3_VERSION})
message(STATUS "edge-llm: the sources' version checks see ns-3 ${edge_llm_ns3_release} "
               "(EDGE_LLM_NS3_VERSION=${EDGE_LLM_NS3_VERSION})")
