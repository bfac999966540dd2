#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# Builds edge-llm as contrib/edge-llm of an ns-3.46.1 tree with 5G-LENA's nr module (v4.1.1)
# at contrib/nr, runs every edge-llm test suite there with test.py, and runs the scenario
# example and the three study examples over NR. Not run by CI: it takes about an hour on 2
# cores.
#
# usage: utils/check-ns3-nr-tree.sh NS3_SOURCE NR_SOURCE WORK_DIR
#   NS3_SOURCE  an ns-3.46.1 source tree (a checkout of tag ns-3.46.1; the LTE *.fad fading
#               traces may be left out), or its tarball (ns-3.46.1.tar.xz)
#   NR_SOURCE   a 5G-LENA source tree (a checkout of tag v4.1.1), or its tarball
#               (nr-v4.1.1.tar.xz)
#   WORK_DIR    an empty or missing directory; the tree is copied and built there
# Environment: JOBS (default 2) build jobs.
set -eu

if [ $# -ne 3 ]; then
    sed -n '2,15p' "$0" | sed 's/^# \{0,1\}//'
    exit 1
fi
work=$3
jobs=${JOBS:-2}
module=$(cd "$(dirname "$0")/.." && pwd)
if [ -e "$work" ] && [ -n "$(ls -A "$work")" ]; then
    echo "$work: not empty" >&2
    exit 1
fi
mkdir -p "$work"

# A tarball is unpacked under WORK_DIR/sources first, so that both kinds of source are copied
# into the tree the same way below.
source_tree() {
    if [ -d "$1" ]; then
        (cd "$1" && pwd)
        return
    fi
    [ -f "$1" ] || { echo "$1: neither a source tree nor a tarball" >&2; return 1; }
    dest="$work/sources/$2"
    mkdir -p "$dest"
    tar -xf "$1" -C "$dest" || return 1
    set -- "$dest"/*
    if [ $# -ne 1 ] || [ ! -d "$1" ]; then
        echo "$dest: not one top folder" >&2
        return 1
    fi
    (cd "$1" && pwd)
}
ns3_src=$(source_tree "$1" ns-3)
nr_src=$(source_tree "$2" nr)

[ -f "$ns3_src/VERSION" ] || { echo "$ns3_src: no VERSION file, not an ns-3 tree" >&2; exit 1; }
[ -f "$nr_src/CMakeLists.txt" ] || { echo "$nr_src: not a 5G-LENA tree" >&2; exit 1; }
tree="$work/ns-3"
echo "== copying ns-3 $(cat "$ns3_src/VERSION"), nr and edge-llm into $tree"
mkdir -p "$tree"
(cd "$ns3_src" && tar --exclude=.git --exclude=./build --exclude=./cmake-cache -cf - .) |
    (cd "$tree" && tar -xf -)
mkdir -p "$tree/contrib/nr" "$tree/contrib/edge-llm"
(cd "$nr_src" && tar --exclude=.git -cf - .) | (cd "$tree/contrib/nr" && tar -xf -)
if [ -e "$module/.git" ]; then
    (cd "$module" && git archive HEAD) | (cd "$tree/contrib/edge-llm" && tar -xf -)
else
    (cd "$module" && tar --exclude=./build -cf - .) | (cd "$tree/contrib/edge-llm" && tar -xf -)
fi
rm -rf "$work/sources"
cd "$tree"

echo "== without nr enabled, NR support is off"
cmake -S . -B cmake-cache-no-nr -G Ninja -DNS3_ENABLED_MODULES=edge-llm > configure-no-nr.log
grep "edge-llm: NR support OFF" configure-no-nr.log
rm -rf cmake-cache-no-nr

echo "== configure with nr"
./ns3 configure --enable-examples --enable-tests --enable-modules="edge-llm;nr" > configure.log
grep "edge-llm: NR support ON" configure.log

# What the checks below run: test-runner (with every enabled module's tests, nr's and
# edge-llm's among them) and every edge-llm program, with the ns-3 and nr libraries they link.
# ns-3's and nr's own examples are left out: they are half of the tree's build and run nothing
# of edge-llm's.
targets="test-runner $(ninja -C cmake-cache -t targets all | sed -n 's/^\(edge-llm[^:]*\): phony$/\1/p')"
echo "== build ($jobs jobs): $targets"
start=$(date +%s)
# shellcheck disable=SC2086 # one word per target
cmake --build cmake-cache -j "$jobs" --target $targets > build.log 2>&1 ||
    { tail -40 build.log; exit 1; }
echo "built in $(( $(date +%s) - start )) s"

echo "== test.py, each edge-llm suite"
suites=$(./test.py --no-build --list 2>/dev/null | awk '$1 != "example" {print $NF}' | grep '^edge-llm' | sort -u)
failed=0
for suite in $suites; do
    if ./test.py --no-build -s "$suite" > "test-$suite.log" 2>&1; then
        echo "PASS $suite"
    else
        echo "FAIL $suite (see $tree/test-$suite.log)"
        failed=1
    fi
done
[ -n "$suites" ] || { echo "no edge-llm suite listed" >&2; exit 1; }

echo "== the scenario example over NR"
./ns3 run --no-build "edge-llm-scenario --ran=nr --layout=line --cells=3 --ues=1 --quiet" \
    > example-nr.log 2>&1 && tail -5 example-nr.log || { tail -20 example-nr.log; failed=1; }

# Each study over NR, to its verdict: the program's exit code says whether every token arrived
# once and every ledger balanced.
run_study() {
    name=$1
    shift
    echo "== $name $* over NR"
    start=$(date +%s)
    if ./ns3 run --no-build "$name --ran=nr $*" > "example-$name-nr.log" 2>&1; then
        cat "example-$name-nr.log"
    else
        tail -20 "example-$name-nr.log"
        failed=1
    fi
    echo "($name: $(( $(date +%s) - start )) s)"
}
run_study edge-llm-handover --quiet
run_study edge-llm-impactho --runs=1 --quiet
run_study edge-llm-pallas --runs=1 --quiet
exit $failed
