# SPDX-License-Identifier: GPL-2.0-only
#
# Runs one libFuzzer target for SECONDS on a copy of its seed corpus, so that the repository's
# corpus is never written to, and fails on any crash, leak, timeout or memory blow-up.
#   cmake -DFUZZER=<binary> -DCORPUS=<seed dir> -DWORK_DIR=<scratch dir> -DSECONDS=<s>
#         -P run-fuzzer.cmake

foreach(var FUZZER CORPUS WORK_DIR SECONDS)
  if(NOT DEFINED ${var})
    message(FATAL_ERROR "run-fuzzer.cmake: -D${var}=... is required")
  endif()
endforeach()
if(NOT IS_DIRECTORY "${CORPUS}")
  message(FATAL_ERROR "run-fuzzer.cmake: no seed corpus at ${CORPUS}")
endif()

file(REMOVE_RECURSE "${WORK_DIR}")
file(MAKE_DIRECTORY "${WORK_DIR}/artifacts")
file(COPY "${CORPUS}/" DESTINATION "${WORK_DIR}/corpus")
execute_process(
  COMMAND "${FUZZER}" -max_total_time=${SECONDS} -timeout=10 -rss_limit_mb=2048
          -print_final_stats=1 -artifact_prefix=${WORK_DIR}/artifacts/ "${WORK_DIR}/corpus"
  RESULT_VARIABLE rc
  OUTPUT_VARIABLE out
  ERROR_VARIABLE out)
string(REGEX MATCH "stat::number_of_executed_units: *[0-9]+" runs "${out}")
string(REGEX MATCH "stat::average_exec_per_sec: *[0-9]+" rate "${out}")
message(STATUS "${FUZZER}: ${runs}, ${rate}")
if(NOT rc EQUAL 0)
  file(GLOB crashes "${WORK_DIR}/artifacts/*")
  message(FATAL_ERROR "the fuzzer failed (exit ${rc}); inputs kept: ${crashes}\n${out}")
endif()
