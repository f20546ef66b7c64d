#!/usr/bin/env bash
# Regenerate Documentation/admin-guide/images/spe-decode-html.png: spe-decode html on a
# generated recording (a contended workload on 4 CPUs plus mixed records
# on a fifth, AUX records flagged truncated), rendered by headless Chromium.
# Usage: scripts/html-screenshot.sh [OUT.png]
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
out=${1:-$top/Documentation/admin-guide/images/spe-decode-html.png}
bld="$top/build/spe-decode"
spe="$bld/spe-decode"
views="$top/tools/spe-decode/tests/views"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
make -s -C "$top/tools/spe-decode" -j2 tests >/dev/null
mkdir -p "$tmp/symfs/usr/bin" "$tmp/work"
cp "$bld/tests/test_symbols" "$tmp/symfs/usr/bin/app"
pcs=$(nm "$tmp/symfs/usr/bin/app" | python3 -c '
import sys
want = ["spe_symbols_new", "spe_symbols_free", "spe_symbols_event", "spe_symbols_comm",
        "spe_symbols_lookup", "feed"]
syms = {l.split()[2]: int(l.split()[0], 16) for l in sys.stdin if len(l.split()) == 3}
print(",".join("%x" % (syms[w] + 0x10000000 + 8) for w in want))')
python3 "$views/gen_c2c.py" "$tmp" 4 "$pcs"
python3 "$top/tools/spe-decode/tests/perfdata/gen_mixed.py" 3000 --seed 11 --pad >"$tmp/mixed.bin"
cd "$tmp/work"
"$spe" wrap -o perf.data --pid 77 --tid 77 --comm app --chunk 16384 --aux-flags 0x1 \
	--mmap "0x10000000:0x10000:0:/usr/bin/app" "$tmp/cpu0.bin@0" "$tmp/cpu1.bin@1" \
	"$tmp/cpu2.bin@2" "$tmp/cpu3.bin@3" "$tmp/mixed.bin@4"
"$spe" html --top 12 --symfs "$tmp/symfs" -o report.html perf.data
mkdir -p "$(dirname "$out")"
timeout 120 chromium --headless --no-sandbox --disable-gpu --disable-background-networking \
	--disable-component-update --disable-sync --no-first-run --user-data-dir="$tmp/profile" \
	--hide-scrollbars --screenshot="$out" --window-size=1100,2600 "file://$tmp/work/report.html" \
	>/dev/null 2>&1
echo "$out"
