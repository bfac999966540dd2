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
