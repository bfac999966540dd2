#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# Compiles every edge-llm source (the library, every test suite and every example) as
# contrib/edge-llm of an ns-3.46.1 tree with 5G-LENA's nr module (v4.1.1) at contrib/nr, NR
# support on. Only edge-llm's object files are built: nothing is linked and nothing runs, so
# it takes minutes where utils/check-ns3-nr-tree.sh takes an hour.
#
# usage: utils/compile-ns3-nr.sh TREES WORK_DIR
#   TREES     a folder with ns-3.46.1.tar.xz and nr-v4.1.1.tar.xz (and their SHA256SUMS)
#   WORK_DIR  an empty or missing directory outside this clone; the tree is unpacked there
# The module is copied from the clone's HEAD commit (uncommitted changes are left out).
# Environment: JOBS (default 2) compile jobs.
set -eu

if [ $# -ne 2 ]; then
    sed -n '2,13p' "$0" | sed 's/^# \{0,1\}//'
    exit 1
fi
trees=$(cd "$1" && pwd)
work=$2
jobs=${JOBS:-2}
module=$(cd "$(dirname "$0")/.." && pwd)
ns3_tarball=ns-3.46.1.tar.xz
nr_tarball=nr-v4.1.1.tar.xz

for f in "$ns3_tarball" "$nr_tarball"; do
    [ -f "$trees/$f" ] || { echo "$trees: no $f" >&2; exit 1; }
done
if [ -f "$trees/SHA256SUMS" ]; then
    (cd "$trees" && sha256sum --quiet -c SHA256SUMS)
fi
if [ -e "$work" ] && [ -n "$(ls -A "$work")" ]; then
    echo "$work: not empty" >&2
    exit 1
fi
mkdir -p "$work"
work=$(cd "$work" && pwd)
case "$work/" in
"$module"/*)
    # ns-3 would find the module's own CMakeLists.txt above the tree.
    echo "$work: inside the module; use a directory outside it" >&2
    exit 1
    ;;
esac

start=$(date +%s)
echo "== unpacking $ns3_tarball and $nr_tarball into $work"
tar -xJf "$trees/$ns3_tarball" -C "$work"
tar -xJf "$trees/$nr_tarball" -C "$work"
tree="$work/ns-3.46.1"
mv "$work/nr-v4.1.1" "$tree/contrib/nr"
mkdir "$tree/contrib/edge-llm"
if [ -d "$module/.git" ] || [ -f "$module/.git" ]; then
    (cd "$module" && git archive HEAD) | (cd "$tree/contrib/edge-llm" && tar -xf -)
else
    (cd "$module" && tar --exclude='./build*' -cf - .) | (cd "$tree/contrib/edge-llm" && tar -xf -)
fi

echo "== configure with nr, tests and examples"
# The debug profile compiles fastest (-O0) and keeps asserts and logging, as test.py needs.
# Warnings are not errors here: the full build (utils/check-ns3-nr-tree.sh) is the one with
# ns-3's default profile, and optimiser-dependent warnings at -O0 say little.
cmake -S "$tree" -B "$tree/cmake-cache" -G Ninja -DCMAKE_BUILD_TYPE=debug \
    -DCMAKE_CXX_FLAGS_DEBUG=-O0 -DNS3_WARNINGS_AS_ERRORS=OFF -DNS3_PRECOMPILE_HEADERS=OFF \
    -DNS3_ENABLED_MODULES="edge-llm;nr" -DNS3_EXAMPLES=ON -DNS3_TESTS=ON \
    > "$work/configure.log" 2>&1 || { tail -40 "$work/configure.log"; exit 1; }
grep "edge-llm: NR support ON" "$work/configure.log" ||
    { echo "configure did not turn NR support on (see $work/configure.log)" >&2; exit 1; }

cd "$tree/cmake-cache"
# The object files of edge-llm's targets: the library, edge-llm-test and one per example.
# Their order-only dependencies are other modules' generated headers, not their objects or
# libraries, so nothing of ns-3 or nr is compiled.
objects=$(ninja -t targets all | sed -n 's|^\(contrib/edge-llm/[^:]*\.cc\.o\): .*|\1|p' | sort -u)
expected=$(cd "$tree/contrib/edge-llm" &&
           sed -n 's/^ *\(\(model\|helper\|test\)\/[^ ]*\.cc\) *$/\1/p' CMakeLists.txt | wc -l)
examples=$(sed -n '/^set(EDGE_LLM_EXAMPLES/,/^)/p' "$tree/contrib/edge-llm/examples/CMakeLists.txt" |
           grep -c '^ *edge-llm-')
found=$(printf '%s\n' "$objects" | grep -c .)
# Every listed source, NR's among them, is compiled: a source left out of the build (NR off,
# a target renamed by ns-3) would otherwise pass unseen.
if [ "$found" -ne $((expected + examples)) ]; then
    echo "found $found edge-llm object files, expected $expected sources + $examples examples" >&2
    exit 1
fi

echo "== compiling $found edge-llm sources ($jobs jobs)"
compile_start=$(date +%s)
# shellcheck disable=SC2086
if ! ninja -k 0 -j "$jobs" $objects > "$work/compile.log" 2>&1; then
    grep -E 'error|FAILED' "$work/compile.log" | head -60
    echo "compile failed: $(grep -c '^FAILED' "$work/compile.log") edge-llm source(s);" \
         "see $work/compile.log" >&2
    exit 1
fi
echo "compiled in $(( $(date +%s) - compile_start )) s"
# Had ns-3 or nr been compiled too, the step would take the better part of an hour.
others=$(grep 'Building CXX object' "$work/compile.log" | grep -vc ' contrib/edge-llm/' || true)
if [ "$others" -ne 0 ]; then
    echo "note: $others objects outside edge-llm were compiled as well" >&2
fi
# A header that 3.46 no longer has would still be found in an installed ns-3's
# /usr/include/ns3, and the compile would pass against the wrong version.
# shellcheck disable=SC2086
if ninja -t deps $objects | grep -q '/usr/include/ns3/'; then
    echo "edge-llm sources include an installed ns-3's headers (/usr/include/ns3):" >&2
    ninja -t deps $objects | grep '/usr/include/ns3/' | sort -u | head -20 >&2
    exit 1
fi
warnings=$(grep -c 'warning:' "$work/compile.log" || true)
echo "$warnings compiler warning(s)"
grep 'warning:' "$work/compile.log" | sed "s|$tree/||" | sort | uniq -c | head -20
echo "== edge-llm compiles in ns-3.46.1 with nr v4.1.1, in $(( $(date +%s) - start )) s"
