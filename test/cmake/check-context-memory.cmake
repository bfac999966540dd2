# SPDX-License-Identifier: GPL-2.0-only
#
# KV payloads are virtual, so a session's context must not cost memory: runs one scaling point
# at a short and at a long context, each in its own process, and fails if the long one keeps
# more memory. Two measures:
#  - the heap in use when the run is over, which is exact and repeatable: state kept per
#    context token or per KV byte shows here whole (8 bytes a token would add 768 kB);
#  - the peak RSS, the process's high-water mark, which also catches state that is freed
#    before the end, but moves with the allocator's timing (tcmalloc takes memory from the
#    system in spans: 2.5 MB apart on a loaded machine, 0.5 MB idle) and with ns-3's TCP,
#    whose cancelled retransmission timers stay queued for the 1 s minimum RTO, so its margin
#    is coarser: 4 MB, some 42 bytes a token held at once.
# Both contexts keep the backhaul busy for over a second, and both migrations end well before
# the run does, so neither measure sees a transfer still in flight.
# Run with: cmake -DBENCH=<edge-llm-bench-scale> -P check-context-memory.cmake
# (optional: -DSHORT_CONTEXT= -DLONG_CONTEXT= -DSIM_TIME= -DHEAP_MARGIN_KB= -DRSS_MARGIN_KB=)

if(NOT DEFINED SHORT_CONTEXT)
  set(SHORT_CONTEXT 32768)
endif()
if(NOT DEFINED LONG_CONTEXT)
  set(LONG_CONTEXT 131072)
endif()
if(NOT DEFINED SIM_TIME)
  set(SIM_TIME 22)
endif()
if(NOT DEFINED HEAP_MARGIN_KB)
  set(HEAP_MARGIN_KB 256)
endif()
if(NOT DEFINED RSS_MARGIN_KB)
  set(RSS_MARGIN_KB 4096)
endif()

# Sets <prefix>_KV_BYTES, <prefix>_MIGRATED, <prefix>_RSS_KB and <prefix>_HEAP_KB from one
# point's CSV line.
function(run_point context prefix)
  execute_process(COMMAND ${BENCH} --ues=1 --cells=2 --context=${context} --simTime=${SIM_TIME}
                  OUTPUT_VARIABLE out ERROR_VARIABLE err RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "--context=${context} failed:\n${out}\n${err}")
  endif()
  string(STRIP "${out}" line)
  string(REPLACE "," ";" fields "${line}")
  list(LENGTH fields n)
  if(NOT n EQUAL 18)
    message(FATAL_ERROR "--context=${context}: expected 18 CSV fields, got:\n${out}")
  endif()
  # run,ues,cells,context,sim_s,events,radio_packets,backhaul_packets,backhaul_bytes,kv_bytes,
  # tokens,handovers,migrated,run_wall_s,total_wall_s,peak_rss_kb,heap_end_kb,layout
  list(GET fields 9 kv)
  list(GET fields 12 migrated)
  list(GET fields 15 rss)
  list(GET fields 16 heap)
  message(STATUS "context ${context}: ${kv} KV bytes migrated, peak RSS ${rss} kB, "
                 "heap at the end ${heap} kB")
  set(${prefix}_KV_BYTES ${kv} PARENT_SCOPE)
  set(${prefix}_MIGRATED ${migrated} PARENT_SCOPE)
  set(${prefix}_RSS_KB ${rss} PARENT_SCOPE)
  set(${prefix}_HEAP_KB ${heap} PARENT_SCOPE)
endfunction()

run_point(${SHORT_CONTEXT} SHORT)
run_point(${LONG_CONTEXT} LONG)

# The check means something only if both sessions migrated and the long one moved more KV.
if(NOT SHORT_MIGRATED EQUAL 1 OR NOT LONG_MIGRATED EQUAL 1)
  message(FATAL_ERROR "each run must migrate its one session (migrated: ${SHORT_MIGRATED}, "
                      "${LONG_MIGRATED}); raise SIM_TIME")
endif()
math(EXPR twice "2 * ${SHORT_KV_BYTES}")
if(NOT LONG_KV_BYTES GREATER twice)
  message(FATAL_ERROR "the long context moved ${LONG_KV_BYTES} KV bytes, not clearly more than "
                      "the short one's ${SHORT_KV_BYTES}")
endif()
# A heap of 0 is another allocator's count (glibc's, of a program on tcmalloc): no measure.
if(NOT SHORT_HEAP_KB GREATER 0 OR NOT LONG_HEAP_KB GREATER 0)
  message(FATAL_ERROR "the heap at the end reads ${SHORT_HEAP_KB} and ${LONG_HEAP_KB} kB: "
                      "the program does not count its own allocator's heap")
endif()
math(EXPR tokens "${LONG_CONTEXT} - ${SHORT_CONTEXT}")
math(EXPR heapGrowth "${LONG_HEAP_KB} - ${SHORT_HEAP_KB}")
if(heapGrowth GREATER HEAP_MARGIN_KB)
  message(FATAL_ERROR "the heap left at the end grew by ${heapGrowth} kB (margin "
                      "${HEAP_MARGIN_KB} kB) for ${tokens} more context tokens: something "
                      "keeps state per token or per KV byte")
endif()
math(EXPR rssGrowth "${LONG_RSS_KB} - ${SHORT_RSS_KB}")
if(rssGrowth GREATER RSS_MARGIN_KB)
  message(FATAL_ERROR "peak RSS grew by ${rssGrowth} kB (margin ${RSS_MARGIN_KB} kB) for "
                      "${tokens} more context tokens: something holds state per token or per "
                      "KV byte while the session runs")
endif()
message(STATUS "for ${tokens} more context tokens: heap at the end ${heapGrowth} kB "
               "(margin ${HEAP_MARGIN_KB}), peak RSS ${rssGrowth} kB (margin ${RSS_MARGIN_KB})")
