# SPDX-License-Identifier: GPL-2.0-only
#
# The ns-3 targets edge-llm links, once find_package(ns3) has run. Shared by the standalone
# build (cmake/standalone.cmake) and the installed package (edge-llm-config.cmake), so a
# program built against the installed module resolves ns-3 the same way the module did.

# The ns-3 modules edge-llm uses.
set(EDGE_LLM_NS3_MODULES core network internet traffic-control mobility applications
                          point-to-point propagation spectrum lte)

# _edge_llm_ns3_targets(<targets-var> <missing-var>)
# Sets <targets-var> to the ns-3 targets of EDGE_LLM_NS3_MODULES (ns3::libcore, ... up to
# ns-3.42; ns3::core, ... from 3.43 on) and <missing-var> to the modules found under neither
# name.
function(_edge_llm_ns3_targets targets_var missing_var)
  # Debian's ns-3 package lists /usr/include/python3.11 among every target's include
  # directories, but those headers come only with libpython3.11-dev, and CMake refuses a
  # target whose include directory is missing. Drop the missing ones.
  get_directory_property(imported IMPORTED_TARGETS)
  foreach(target ${imported})
    if(NOT target MATCHES "^ns3::")
      continue()
    endif()
    get_target_property(dirs ${target} INTERFACE_INCLUDE_DIRECTORIES)
    if(NOT dirs)
      continue()
    endif()
    set(kept "")
    foreach(dir ${dirs})
      if(EXISTS "${dir}" OR dir MATCHES "\\$<")
        list(APPEND kept "${dir}")
      elseif(NOT dir IN_LIST dropped)
        list(APPEND dropped "${dir}")
        message(STATUS "edge-llm: ignoring ${dir}, an include directory of ns-3's package "
                       "that does not exist here")
      endif()
    endforeach()
    set_target_properties(${target} PROPERTIES INTERFACE_INCLUDE_DIRECTORIES "${kept}")
  endforeach()

  set(targets "")
  set(missing "")
  foreach(module ${EDGE_LLM_NS3_MODULES})
    if(TARGET ns3::lib${module})
      list(APPEND targets ns3::lib${module})
    elseif(TARGET ns3::${module})
      list(APPEND targets ns3::${module})
    else()
      list(APPEND missing ${module})
    endif()
  endforeach()
  set(${targets_var} "${targets}" PARENT_SCOPE)
  set(${missing_var} "${missing}" PARENT_SCOPE)
endfunction()
