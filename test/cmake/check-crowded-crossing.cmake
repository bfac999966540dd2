# SPDX-License-Identifier: GPL-2.0-only
#
# 60 UEs cross one boundary within a second or so, and the target's engine starts some of
# their prefills while the GPU is free, before the cycle group they belong to is re-planned.
# A re-plan must leave those members as they are: it stopped the run when it tried to resize
# a prefill that was already running. Runs one scaling point and fails unless it ends, every
# UE handed over, and every handover's session migrated.
# Run with: cmake -DBENCH=<edge-llm-bench-scale> -P check-crowded-crossing.cmake

set(UES 60)
execute_process(COMMAND ${BENCH} --ues=${UES} --cells=2 --context=1024 --simTime=5 --header
                OUTPUT_VARIABLE out ERROR_VARIABLE err RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "--ues=${UES} failed (${rc}):\n${out}\n${err}")
endif()
string(REGEX MATCH "module,[^\n]*" row "${out}")
if(row STREQUAL "")
  message(FATAL_ERROR "no CSV row in:\n${out}")
endif()
string(REPLACE "," ";" fields "${row}")
# run,ues,cells,context,sim_s,events,radio_packets,backhaul_packets,backhaul_bytes,kv_bytes,
# tokens,handovers,migrated,...
list(GET fields 11 handovers)
list(GET fields 12 migrated)
if(NOT handovers EQUAL UES OR NOT migrated EQUAL UES)
  message(FATAL_ERROR "${handovers} handovers and ${migrated} migrated of ${UES} UEs:\n${row}")
endif()
message(STATUS "${UES} UEs: ${handovers} handovers, ${migrated} migrated")
