# SPDX-License-Identifier: GPL-2.0-only
#
# KV payloads are virtual, so a session's context must not cost memory: runs one scaling point
# at a short and at a long context, each in its own process (peak RSS is a per-process
# high-water mark), and fails if the long one's peak RSS is more than MARGIN_KB above the
# short one's. Both contexts are long enough for the migration to keep the backhaul busy past
# TCP's 1 s minimum RTO: until then ns-3's scheduler still holds the cancelled retransmission
# timers of the first second of ACKs, a transient of a few MB that would otherwise differ
# between the two.
# Run with: cmake -DBENCH=<edge-llm-bench-scale> -P check-context-memory.cmake
# (optional: -DSHORT_CONTEXT= -DLONG_CONTEXT= -DSIM_TIME= -DMARGIN_KB=)

if(NOT DEFINED SHORT_CONTEXT)
  set(SHORT_CONTEXT 36864)
endif()
if(NOT DEFINED LONG_CONTEXT)
  set(LONG_CONTEXT 73728)
endif()
if(NOT DEFINED SIM_TIME)
  set(SIM_TIME 12)
endif()
if(NOT DEFINED MARGIN_KB)
  set(MARGIN_KB 256)
endif()

# Sets <prefix>_RSS_KB, <prefix>_KV_BYTES and <prefix>_MIGRATED from one point's CSV line.
function(run_point context prefix)
  execute_process(COMMAND ${BENCH} --ues=1 --cells=2 --context=${context} --simTime=${SIM_TIME}
                  OUTPUT_VARIABLE out ERROR_VARIABLE err RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "--context=${context} failed:\n${out}\n${err}")
  endif()
  string(STRIP "${out}" line)
  string(REPLACE "," ";" fields "${line}")
  list(LENGTH fields n)
  if(NOT n EQUAL 15)
    message(FATAL_ERROR "--context=${context}: expected 15 CSV fields, got:\n${out}")
  endif()
  # ues,cells,context,sim_s,events,radio_packets,backhaul_packets,backhaul_bytes,kv_bytes,
  # tokens,handovers,migrated,run_wall_s,total_wall_s,peak_rss_kb
  list(GET fields 8 kv)
  list(GET fields 11 migrated)
  list(GET fields 14 rss)
  message(STATUS "context ${context}: ${kv} KV bytes migrated, peak RSS ${rss} kB")
  set(${prefix}_KV_BYTES ${kv} PARENT_SCOPE)
  set(${prefix}_MIGRATED ${migrated} PARENT_SCOPE)
  set(${prefix}_RSS_KB ${rss} PARENT_SCOPE)
endfunction()

run_point(${SHORT_CONTEXT} SHORT)
run_point(${LONG_CONTEXT} LONG)

# The check means something only if both sessions migrated and the long one moved more KV.
if(NOT SHORT_MIGRATED EQUAL 1 OR NOT LONG_MIGRATED EQUAL 1)
  message(FATAL_ERROR "each run must migrate its one session (migrated: ${SHORT_MIGRATED}, "
                      "${LONG_MIGRATED}); raise SIM_TIME")
endif()
math(EXPR twice "2 * ${SHORT_KV_BYTES} * 3 / 4")
if(NOT LONG_KV_BYTES GREATER twice)
  message(FATAL_ERROR "the long context moved ${LONG_KV_BYTES} KV bytes, not clearly more than "
                      "the short one's ${SHORT_KV_BYTES}")
endif()
math(EXPR growth "${LONG_RSS_KB} - ${SHORT_RSS_KB}")
if(growth GREATER MARGIN_KB)
  math(EXPR tokens "${LONG_CONTEXT} - ${SHORT_CONTEXT}")
  message(FATAL_ERROR "peak RSS grew by ${growth} kB (margin ${MARGIN_KB} kB) for ${tokens} "
                      "more context tokens: something keeps state per token or per KV byte")
endif()
message(STATUS "peak RSS grew by ${growth} kB for a longer context (margin ${MARGIN_KB} kB)")
