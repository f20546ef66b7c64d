#!/usr/bin/env bash
# The main job: produce an SPE recording and print what spe-decode makes of it.
#
# With no argument it generates a Neoverse-N1-like trace with the SPU model
# (spe-gen), wraps it into a perf.data exactly as `perf record -e arm_spe//`
# would store it, and prints `spe-decode report` and the first samples of
# `spe-decode script`.  Everything lands in build/demo/.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
out="$top/build/demo"
mkdir -p "$out"

make -s -C "$top/tools/spu-model" >/dev/null
gen="$top/build/spu-model/spe-gen"
dec="$top/build/spe-decode/spe-decode"

echo "== generating 8 MiB of SPE records with the SPU model (profile n1)"
"$gen" -p n1 -s 1 -n 8M -o "$out/trace.bin"
"$dec" wrap -o "$out/perf.data" "$out/trace.bin"
echo
echo "== spe-decode report $out/perf.data"
"$dec" report "$out/perf.data"
echo
echo "== spe-decode script (first 10 samples)"
"$dec" script "$out/perf.data" | sed -n 1,10p
