# SPDX-License-Identifier: GPL-2.0-only
#
# The module's two test programs (the ns-3 TestSuite runner and the GoogleTest binary) and
# their CTests. Included by standalone.cmake; a sanitizer build (sanitize.cmake) builds only
# these.

# ns-3 TestSuites, compiled into the runner itself: a separate test library could be dropped
# by --as-needed linking, and the runner would then pass with zero tests.
add_executable(edge-llm-test-runner test/edge-llm-test-runner.cc ${EDGE_LLM_TEST_SOURCES})
target_link_libraries(edge-llm-test-runner PRIVATE ns3-edge-llm)
target_compile_definitions(edge-llm-test-runner PRIVATE NS_TEST_SOURCEDIR="test")
# Every TestSuite of the module: each runs as its own CTest, and a second CTest checks that
# the runner lists it, since --suite= with a missing name would prove nothing. Each runs its
# QUICK cases; EDGE_LLM_FULLNESS=EXTENSIVE in ctest's environment adds the long ones (the
# runner's --fullness), e.g. EDGE_LLM_FULLNESS=EXTENSIVE ctest -R edge-llm-online-suite.
set(EDGE_LLM_TEST_SUITES edge-llm edge-llm-kv-transfer edge-llm-kv-transfer-ledger
                         edge-llm-kv-transfer-hardening edge-llm-server-input
                         edge-llm-kv-transfer-open edge-llm-ran edge-llm-engine
                         edge-llm-engine-mixed edge-llm-engine-forecast edge-llm-client
                         edge-llm-serving edge-llm-handover edge-llm-contract
                         edge-llm-backhaul edge-llm-scenario edge-llm-ue-airtime
                         edge-llm-online edge-llm-sit edge-llm-lte-radio edge-llm-impactho
                         edge-llm-impactho-road edge-llm-predictor edge-llm-pallas
                         edge-llm-faults edge-llm-handover-failure edge-llm-rlf
                         edge-llm-online-faults edge-llm-online-grouper edge-llm-soak
                         edge-llm-control-plane edge-llm-control-prepare
                         edge-llm-control-reserve
                         edge-llm-control-budget edge-llm-relay-paths)
# And the other way round: a suite the runner has but no CTest runs would pass unseen.
string(REPLACE ";" " " edge_llm_suite_words "${EDGE_LLM_TEST_SUITES}")
add_test(NAME edge-llm-suites-all-run
         COMMAND sh -c "missing=$(\"$0\" --list | while read -r s; do case \" $1 \" in *\" $s \"*) ;; *) echo \"$s\" ;; esac; done); if [ -n \"$missing\" ]; then echo \"suites with no CTest (add them to EDGE_LLM_TEST_SUITES): $missing\"; exit 1; fi"
                 $<TARGET_FILE:edge-llm-test-runner> "${edge_llm_suite_words}")
foreach(suite ${EDGE_LLM_TEST_SUITES})
  add_test(NAME ${suite}-suite
           COMMAND sh -c "exec \"$0\" --suite=${suite} --verbose --fullness=\"\${EDGE_LLM_FULLNESS:-QUICK}\""
                   $<TARGET_FILE:edge-llm-test-runner>)
  add_test(NAME ${suite}-suite-registered COMMAND edge-llm-test-runner --list)
  set_tests_properties(${suite}-suite-registered PROPERTIES PASS_REGULAR_EXPRESSION
                                                            "(^|\n)${suite}(\r?\n|$)")
endforeach()

if(EDGE_LLM_GTEST)
  find_package(GTest REQUIRED)
  add_executable(edge-llm-gtest
    test/gtest/fault-config-test.cc
    test/gtest/kv-cache-profile-test.cc
    test/gtest/llm-compute-model-test.cc
    test/gtest/ctho-solver-test.cc
    test/gtest/ctho-solver-random-test.cc
    test/gtest/impact-accuracy-model-test.cc
    test/gtest/impact-water-filling-test.cc
    test/gtest/impact-clairvoyant-bound-test.cc
    test/gtest/impact-ho-scheduler-test.cc
    test/gtest/impact-ho-baselines-test.cc
    test/gtest/impact-slot-reference-test.cc
    test/gtest/pallas-window-model-test.cc
    test/gtest/pallas-scheduler-test.cc
    test/gtest/handover-prediction-test.cc
    test/gtest/handover-predictor-death-test.cc
    test/gtest/kv-cache-model-death-test.cc
    test/gtest/kv-transfer-header-test.cc
    test/gtest/kv-transfer-policy-test.cc
    test/gtest/range-set-test.cc
    test/gtest/migration-test.cc
    test/gtest/edge-llm-header-test.cc
    test/gtest/edge-llm-relay-header-test.cc
    test/gtest/kv-transfer-stream-parser-test.cc
    test/gtest/control-message-test.cc
    test/gtest/control-plane-flag-test.cc
    test/gtest/token-reorder-buffer-test.cc
    test/gtest/token-timing-stats-test.cc
    test/gtest/sit-breakdown-test.cc
    test/gtest/llm-engine-death-test.cc
    test/gtest/edge-llm-client-death-test.cc
    test/gtest/kv-transfer-sender-death-test.cc
    test/gtest/edge-llm-line-scenario-death-test.cc
    test/gtest/handover-scheduler-test.cc
    test/gtest/handover-contract-death-test.cc
    test/gtest/cell-layout-test.cc
    test/gtest/ran-stack-test.cc
    test/gtest/ue-trajectory-test.cc
    test/gtest/ue-mobility-test.cc
    test/gtest/lte-measurement-reports-death-test.cc
    test/gtest/attribute-input-test.cc
    test/gtest/explaining-checker-test.cc
    test/gtest/flag-checks-test.cc
    test/gtest/cross-attribute-death-test.cc
  )
  target_link_libraries(edge-llm-gtest PRIVATE ns3-edge-llm GTest::gmock GTest::gtest_main
                                               ${CMAKE_DL_LIBS})
  # The table of every attribute's allowed, refused and accepted values.
  target_compile_definitions(edge-llm-gtest PRIVATE
    EDGE_LLM_INVALID_INPUTS="${PROJECT_SOURCE_DIR}/test/invalid-inputs.csv")
  add_test(NAME edge-llm-gtest COMMAND edge-llm-gtest)
endif()
