#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
#
# The module's tests again, from a clone, in builds of their own beside build/: each step
# configures its build directory with its CMake option, builds it on every core and runs the
# CTests of its label. With no argument every step runs (.ci/run does this); name steps to run
# only those, e.g. test/sanitizers/run.sh sanitize. CXX=clang++ picks clang for a new build
# directory.
#
#   sanitize  build-sanitize, -DEDGE_LLM_SANITIZE=ON (cmake/sanitize.cmake): the ns-3 suites
#             at QUICK and the GoogleTest binary under ASan and UBSan, label "sanitize"
set -euo pipefail
cd "$(dirname "$0")/../.."

# The suites' QUICK cases only, whatever the caller's environment says: their EXTENSIVE cases
# run the same code on longer draws, and take minutes each even without the sanitizers.
export EDGE_LLM_FULLNESS=QUICK

jobs=$(nproc)
all_steps=(sanitize)

# step NAME BUILD_DIR LABEL CMAKE_ARG...: configure, build and test one build directory.
# --no-tests=error: a label that matches nothing must fail, not pass with zero tests.
step() {
    local name=$1 dir=$2 label=$3
    shift 3
    local start=$SECONDS
    echo "$name: configure $dir ($*)"
    cmake -S . -B "$dir" "$@"
    echo "$name: build with -j$jobs"
    cmake --build "$dir" -j"$jobs"
    local built=$SECONDS
    echo "$name: ctest -L $label -j$jobs"
    ctest --test-dir "$dir" -L "$label" -j"$jobs" --output-on-failure --no-tests=error
    echo "$name: done; build $((built - start)) s, tests $((SECONDS - built)) s"
}

if [ "$#" -eq 0 ]; then
    set -- "${all_steps[@]}"
fi
for name in "$@"; do
    case "$name" in
    sanitize) step sanitize build-sanitize sanitize -DEDGE_LLM_SANITIZE=ON ;;
    *)
        echo "run.sh: unknown step '$name'; the steps are: ${all_steps[*]}" >&2
        exit 2
        ;;
    esac
done
