#!/bin/sh
# Random routes on a grid must not hand their UEs over in step: every handover of the run
# starts at an instant of its own. Usage: check-staggered-routes.sh SCENARIO-BINARY OUT-DIR
set -e
binary=$1
out=$2
rm -rf "$out"
"$binary" --layout=grid --columns=3 --rows=3 --spacing=200 --mobility=routes --speed=40 \
    --ues=6 --scheme=detour --simTime=8 --quiet --outDir="$out" > /dev/null
awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "ho_start_s") c = i; next }
         { n++; if (!($c in seen)) u++; seen[$c] = 1 }
         END { if (n >= 6 && u == n) print "staggered-ok: " n " handovers, " u " instants";
               else print "in step: " n " handovers at " u " instants" }' "$out/handovers.csv"
