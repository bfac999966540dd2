# SPDX-License-Identifier: GPL-2.0-only
#
# Test fixture: presents the installed ns-3 libraries under the target names of ns-3.43 and
# later (ns3::core, ns3::lte, ...), and not under the older ns3::libcore, ..., so that the
# standalone build's handling of the new names is exercised.

find_path(EDGE_LLM_FIXTURE_INCLUDE ns3/core-module.h REQUIRED)
foreach(module core network internet traffic-control mobility applications point-to-point
                propagation spectrum lte)
  find_library(EDGE_LLM_FIXTURE_${module} NAMES ns3-${module} REQUIRED)
  add_library(ns3::${module} SHARED IMPORTED)
  set_target_properties(ns3::${module} PROPERTIES
    IMPORTED_LOCATION "${EDGE_LLM_FIXTURE_${module}}"
    INTERFACE_INCLUDE_DIRECTORIES "${EDGE_LLM_FIXTURE_INCLUDE}")
endforeach()
