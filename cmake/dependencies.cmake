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
# checks of an API that changed (model/enum-accessor.h). An ns-3 tree names it NS3_VER; the
# installed package, ns3_VERSION.
if(DEFINED NS3_VER)
  set(edge_llm_ns3_release "${NS3_VER}")
else()
  set(edge_llm_ns3_release "${ns3_VERSION}")
endif()
if(NOT edge_llm_ns3_release MATCHES "^([0-9]+)\\.([0-9]+)")
  message(FATAL_ERROR "edge-llm: cannot read the ns-3 release from '${edge_llm_ns3_release}'")
endif()
math(EXPR EDGE_LLM_NS3_VERSION "${CMAKE_MATCH_1} * 100 + ${CMAKE_MATCH_2}")
add_compile_definitions(EDGE_LLM_NS3_VERSION=${EDGE_LLM_NS3_VERSION})
