# SPDX-License-Identifier: GPL-2.0-only
#
# EDGE_LLM_ALLOCATOR: the malloc that the example programs and the benchmarks link. A run
# allocates and frees a packet, its tags and its events per hop, and glibc's malloc is about a
# tenth of the ImpactHO road's run time more than tcmalloc's (the manual's Performance
# section); the results are the same to the last digit. The library, the test programs, the
# Python module and a sanitizer build (whose runtime is the allocator) keep the system's.

set(EDGE_LLM_ALLOCATOR "auto" CACHE STRING
    "malloc of the example programs and benchmarks: auto (tcmalloc if found, else the \
system's), tcmalloc, or system")
set_property(CACHE EDGE_LLM_ALLOCATOR PROPERTY STRINGS auto tcmalloc system)
if(NOT EDGE_LLM_ALLOCATOR MATCHES "^(auto|tcmalloc|system)$")
  message(FATAL_ERROR "EDGE_LLM_ALLOCATOR = ${EDGE_LLM_ALLOCATOR} is invalid; allowed: auto, "
                      "tcmalloc or system")
endif()

set(EDGE_LLM_ALLOCATOR_LINK "")
set(EDGE_LLM_ALLOCATOR_USED "system")
if(NOT EDGE_LLM_ALLOCATOR STREQUAL "system")
  # Debian's libtcmalloc-minimal4 ships the versioned file only; the unversioned name is the
  # development package's.
  find_library(EDGE_LLM_TCMALLOC_LIBRARY NAMES tcmalloc_minimal libtcmalloc_minimal.so.4)
  if(EDGE_LLM_TCMALLOC_LIBRARY)
    # Kept by --as-needed linking: a program calls malloc, not a symbol only tcmalloc has.
    set(EDGE_LLM_ALLOCATOR_LINK "$<$<PLATFORM_ID:Linux>:-Wl,--push-state,--no-as-needed>"
                                ${EDGE_LLM_TCMALLOC_LIBRARY}
                                "$<$<PLATFORM_ID:Linux>:-Wl,--pop-state>")
    set(EDGE_LLM_ALLOCATOR_USED "tcmalloc")
  elseif(EDGE_LLM_ALLOCATOR STREQUAL "tcmalloc")
    message(FATAL_ERROR "EDGE_LLM_ALLOCATOR = tcmalloc: libtcmalloc_minimal not found (Debian: "
                        "apt-get install libtcmalloc-minimal4); use auto or system")
  endif()
endif()
if(EDGE_LLM_ALLOCATOR_USED STREQUAL "tcmalloc")
  message(STATUS "edge-llm: the example programs and benchmarks use tcmalloc "
                 "(${EDGE_LLM_TCMALLOC_LIBRARY}; EDGE_LLM_ALLOCATOR=system for glibc's)")
else()
  message(STATUS "edge-llm: the example programs and benchmarks use the system's malloc")
endif()

# Links a program with the chosen malloc.
function(edge_llm_link_allocator target)
  target_link_libraries(${target} PRIVATE ${EDGE_LLM_ALLOCATOR_LINK})
endfunction()
