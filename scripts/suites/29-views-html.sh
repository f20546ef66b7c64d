#!/usr/bin/env bash
# spe-decode html: a self-contained page (nothing loaded from outside) that
# a real headless Chromium renders without console errors and whose script
# runs; the numbers in the rendered page equal report's, report --sort
# sym's and c2c's; code without symbols is a row per 4 KiB page, or per
# address with --unresolved address; sorting by a header works in the
# browser; the output is written safely.  A screenshot is kept in build/html-report.png.
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=scripts/lib/tap.sh
. "$top/scripts/lib/tap.sh"
# shellcheck source=scripts/lib/views-fixture.sh
. "$top/scripts/lib/views-fixture.sh"
spe_views_setup tests
spe_views_elf
pcs=$(spe_views_pcs_named)
python3 "$views/gen_c2c.py" "$tmp" 4 "$pcs"
python3 "$gen" 3000 --seed 11 --pad >"$tmp/mixed.bin"
# AUX records of 4 KiB, flagged truncated + collision: the timeline marks.
"$spe" wrap -o "$tmp/h.data" --pid 77 --tid 77 --comm prog --chunk 4096 --aux-flags 0x9 \
	--mmap "0x10000000:0x100000:0:$elf" "$tmp/cpu0.bin@0" "$tmp/cpu1.bin@1" \
	"$tmp/cpu2.bin@2" "$tmp/cpu3.bin@3" "$tmp/mixed.bin@4"

if "$spe" html -o "$tmp/r.html" "$tmp/h.data" 2>"$tmp/err" && [ -s "$tmp/r.html" ]; then
	tap_ok "html -o writes the page"
else
	tap_fail "html -o writes the page" "$(cat "$tmp/err")"
fi
python3 "$views/html_tables.py" "$tmp/r.html" >"$tmp/raw.rows"
if ! grep -q '^EXTERNAL' "$tmp/raw.rows" && ! grep -qiE 'https?://|@import|url\(' "$tmp/r.html"; then
	tap_ok "self-contained: no src/href/link/url() to anything outside the page"
else
	tap_fail "self-contained" "$(grep -m3 -iE '^EXTERNAL|https?://|@import|url\(' "$tmp/raw.rows" "$tmp/r.html")"
fi

# perf's filters choose the samples: the tables of html --cpu 0,1 are
# those of a recording of CPUs 0 and 1 alone (the metadata and the AUX
# timeline are of the whole file, not of samples).
"$spe" wrap -o "$tmp/h01.data" --pid 77 --tid 77 --comm prog --chunk 4096 --aux-flags 0x9 \
	--mmap "0x10000000:0x100000:0:$elf" "$tmp/cpu0.bin@0" "$tmp/cpu1.bin@1"
# tables PAGE: every table row but the metadata's.
tables() { python3 "$views/html_tables.py" "$1" | awk -F'\t' '$1 ~ /-(table|detail)$/ && $1 != "meta-table"'; }
"$spe" html -o "$tmp/w01.html" "$tmp/h01.data" && "$spe" html --cpu 0,1 -o "$tmp/g01.html" "$tmp/h.data" ||
	tap_fail "html --cpu runs"
tables "$tmp/w01.html" >"$tmp/w01.rows"
tables "$tmp/g01.html" >"$tmp/g01.rows"
if grep -q '^c2c-table' "$tmp/w01.rows" && grep -q '^cost-table' "$tmp/w01.rows" &&
   cmp -s "$tmp/w01.rows" "$tmp/g01.rows" && ! cmp -s "$tmp/g01.rows" <(tables "$tmp/r.html"); then
	tap_ok "html --cpu 0,1: every table equals that of a recording of CPUs 0 and 1 alone ($(cut -f1 "$tmp/g01.rows" | sort -u | tr '\n' ' '))"
else
	tap_fail "html --cpu 0,1 tables equal those of CPUs 0 and 1 alone" "$(diff "$tmp/w01.rows" "$tmp/g01.rows" | head -6)"
fi
"$spe" html --tid 1,,2 -o "$tmp/x.html" "$tmp/h.data" 2>"$tmp/err"
[ $? = 2 ] && [ ! -e "$tmp/x.html" ] && grep -q '^spe-decode html: --tid=1,,2: ' "$tmp/err" &&
	tap_ok "html --tid 1,,2: a usage error naming the option, no output" ||
	tap_fail "html --tid 1,,2 is refused" "$(cat "$tmp/err")"

# Saturated counters (4095) are left out of the shared lines' cost and
# mean latency, as c2c and report --sort leave them out: line E's stores
# all saturate, its 200 loads take 9 cycles each.
python3 "$views/gen_c2c.py" "$tmp" 4 "$pcs" --sat
"$spe" wrap -o "$tmp/sat.data" --pid 77 --tid 77 --comm prog \
	--mmap "0x10000000:0x100000:0:$elf" "$tmp/cpu0.bin@0" "$tmp/cpu1.bin@1" \
	"$tmp/cpu2.bin@2" "$tmp/cpu3.bin@3"
"$spe" html -o "$tmp/sat.html" "$tmp/sat.data" 2>"$tmp/err"
python3 "$views/html_tables.py" "$tmp/sat.html" >"$tmp/sat.rows"
"$spe" c2c "$tmp/sat.data" | awk '/^## Shared cache lines/ {f = 1; getline; next}
	f && /^ *[0-9]/ {print $1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13} /^$/ {f = 0}' >"$tmp/sat.want"
awk -F'\t' '$1 == "c2c-table" {print $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14}' \
	"$tmp/sat.rows" >"$tmp/sat.got"
e_cost=$(awk '$2 == "0x80005000" {print $1, $4}' "$tmp/sat.got")
e_mean=$(awk -F'\t' '$1 == "c2c-detail" && $2 == "0x10" && $9 ~ /spe_symbols_lookup/ {print $7}' "$tmp/sat.rows")
if [ "$e_cost" = "3 1800" ] && [ "$e_mean" = "9.0" ] && cmp -s "$tmp/sat.want" "$tmp/sat.got"; then
	tap_ok "shared lines leave saturated counters out of cost (line E: 1800, last) and mean (9.0), as c2c"
else
	tap_fail "saturated counters in the shared lines" "line E: $e_cost, mean $e_mean" \
		"$(diff "$tmp/sat.want" "$tmp/sat.got" | head -5)"
fi

# The timeline: two CPUs 33.7 ms apart, so its bins are widened.  Its
# slices times their width is the span the axis ends at, and the bars of
# the last slice reach the end of the row.
python3 "$gen" 200 --seed 3 --ts0 1000000 >"$tmp/t0.bin"
python3 "$gen" 200 --seed 4 --ts0 34700000 >"$tmp/t1.bin"
"$spe" wrap -o "$tmp/tl.data" "$tmp/t0.bin@0" "$tmp/t1.bin@1"
"$spe" html -o "$tmp/tl.html" "$tmp/tl.data" 2>"$tmp/err"
tl=$(python3 - "$tmp/tl.html" <<'PY'
import re, sys
page = open(sys.argv[1]).read()
n, w = re.search(r'\((\d+) slices of ([\d.]+) ms', page).groups()
end = float(re.search(r'text-anchor=end>([\d.]+) ms<', page).group(1))
row = re.search(r'<rect x=([\d.]+) y=\d+ width=([\d.]+) height=\d+ fill="#f4f4f4"', page)
right = float(row.group(1)) + float(row.group(2))
bars = [float(x) + float(bw) for x, bw in
        re.findall(r'<rect x=([\d.]+) y=\d+ width=([\d.]+) height=\d+ fill="#1565c0"', page)]
span = re.search(r'time span</th><td class=k>([\d.]+) s', page).group(1)
print(int(n), w, end, "%.3f" % (int(n) * float(w)), "%.1f" % (100 * (max(bars) - float(row.group(1))) /
                                                  (right - float(row.group(1)))), "%.3f" % (float(span) * 1e3))
PY
)
read -r n w end prod reach span <<<"$tl"
if [ -n "$tl" ] && awk -v e="$end" -v p="$prod" -v s="$span" -v r="$reach" \
	'BEGIN {exit !(e - p < 0.001 && p - e < 0.001 && e >= s && e - s < p / '"${n:-1}"' + 0.001 && r >= 99.9)}'; then
	tap_ok "timeline: $n slices of $w ms = the axis's $end ms (recording $span ms), bars reach $reach% of the row"
else
	tap_fail "timeline: slices and axis span the same time" "slices $n x $w ms = $prod ms, axis $end ms," \
		"recording $span ms, last bar at $reach% of the row"
fi

browser=$(command -v chromium || command -v chromium-browser || true)
if [ -z "$browser" ]; then
	tap_skip "the page in headless Chromium" "chromium not installed"
	tap_done
	exit
fi
# chrome URL [extra flags...]: headless, offline, a fresh profile.
chrome() {
	local url=$1
	shift
	rm -rf "$tmp/profile"
	timeout 120 "$browser" --headless --no-sandbox --disable-gpu --disable-background-networking \
		--disable-component-update --disable-sync --no-first-run --user-data-dir="$tmp/profile" \
		--enable-logging=stderr --v=0 "$@" "$url"
}
chrome "file://$tmp/r.html" --dump-dom >"$tmp/dom.html" 2>"$tmp/chrome.err"
python3 "$views/html_tables.py" "$tmp/dom.html" >"$tmp/rows"
if grep -q "^BODY	1$" "$tmp/rows" && ! grep -q 'CONSOLE' "$tmp/chrome.err"; then
	tap_ok "Chromium renders it, its script runs, no console messages"
else
	tap_fail "Chromium renders it without console errors" "$(grep -m5 CONSOLE "$tmp/chrome.err")" \
		"$(grep -m1 '^BODY' "$tmp/rows")"
fi

"$spe" report "$tmp/h.data" >"$tmp/rep.out"
want=$(sed -n 's/^# SPE records: \([0-9]*\)  (load \([0-9]*\), store \([0-9]*\), branch \([0-9]*\), other \([0-9]*\))/\1 \2 \3 \4 \5/p' "$tmp/rep.out")
got=$(awk -F'\t' '$1 == "meta-table" && ($2 == "SPE records" || $2 == "load" || $2 == "store" || $2 == "branch" || $2 == "other") {printf "%s ", $3}' "$tmp/rows" | sed 's/ $//')
[ -n "$want" ] && [ "$want" = "$got" ] && tap_ok "records per operation type equal report's ($want)" ||
	tap_fail "record counts" "report: $want" "page: $got"
awk '/^## Latency percentiles/ {f = 1; getline; next} f && NF == 8 {print $1, $2, $3, $4, $5, $6, $7, $8} f && !NF {exit}' \
	"$tmp/rep.out" >"$tmp/lat.want"
awk -F'\t' '$1 == "latency-table" {print $2, $3, $4, $5, $6, $7, $8, $9}' "$tmp/rows" >"$tmp/lat.got"
[ -s "$tmp/lat.want" ] && cmp -s "$tmp/lat.want" "$tmp/lat.got" &&
	tap_ok "latency percentiles per operation equal report's ($(wc -l <"$tmp/lat.want") rows)" ||
	tap_fail "latency percentiles" "$(diff "$tmp/lat.want" "$tmp/lat.got" | head -5)"
# The page's table is by latency (report's default is perf's order).
"$spe" report --sort sym --order latency --top 200 "$tmp/h.data" |
	awk '/^ *[0-9]/ {line = $0; for (i = 0; i < 16; i++) sub(/^ *[^ ]+/, "", line); sub(/^  /, "", line);
	     print $1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, line}' >"$tmp/cost.want"
awk -F'\t' '$1 == "cost-table" {print $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18}' \
	"$tmp/rows" >"$tmp/cost.got"
[ -s "$tmp/cost.want" ] && cmp -s "$tmp/cost.want" "$tmp/cost.got" &&
	tap_ok "the cost table equals report --sort sym ($(wc -l <"$tmp/cost.want") rows, every column)" ||
	tap_fail "cost table" "$(diff "$tmp/cost.want" "$tmp/cost.got" | head -5)"
"$spe" c2c "$tmp/h.data" | awk '/^## Shared cache lines/ {f = 1; getline; next}
	f && /^ *[0-9]/ {print $1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13} /^$/ {f = 0}' >"$tmp/c2c.want"
awk -F'\t' '$1 == "c2c-table" {print $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14}' "$tmp/rows" >"$tmp/c2c.got"
[ -s "$tmp/c2c.want" ] && cmp -s "$tmp/c2c.want" "$tmp/c2c.got" &&
	tap_ok "the shared-lines table equals c2c's ($(wc -l <"$tmp/c2c.want") lines)" ||
	tap_fail "c2c table" "$(diff "$tmp/c2c.want" "$tmp/c2c.got" | head -5)"
marks=$(grep -o 'class="mark-truncated"' "$tmp/dom.html" | wc -l)
auxrec=$(sed -n 's/^  AUX records \([0-9]*\): truncated \([0-9]*\),.*/\2/p' "$tmp/rep.out")
[ -n "$auxrec" ] && [ "$auxrec" -gt 0 ] && [ "$marks" = "$auxrec" ] &&
	tap_ok "the timeline marks each of the $auxrec truncated AUX records" ||
	tap_fail "timeline marks" "marks $marks, report $auxrec"

# Sorting, in the browser: a copy of the page clicks "p99" and notes the order.
sed 's#</body>#<script>document.querySelectorAll("\#cost-table th")[7].click();document.body.setAttribute("data-sorted",Array.prototype.map.call(document.querySelectorAll("\#cost-table tbody tr"),function(r){return r.cells[7].textContent;}).join(" "));</script></body>#' \
	"$tmp/r.html" >"$tmp/sort.html"
chrome "file://$tmp/sort.html" --dump-dom 2>/dev/null | sed -n 's/.*data-sorted="\([^"]*\)".*/\1/p' | tr ' ' '\n' >"$tmp/sorted"
if [ "$(wc -l <"$tmp/sorted")" -gt 3 ] && sort -n -r -c "$tmp/sorted" 2>/dev/null &&
   ! sort -n -r -c <(awk -F'\t' '$1 == "cost-table" {print $9}' "$tmp/rows") 2>/dev/null; then
	tap_ok "a click on a header sorts the cost table in the browser (p99, descending)"
else
	tap_fail "sorting in the browser" "$(head -5 "$tmp/sorted")"
fi

# Code without symbols: the cost table's rows are report --sort sym's
# pages, the data sources' symbols pages of them; by address, neither
# names a page, and each table is as long as --top lets it (2399 addresses).
spe_views_unresolved
if "$spe" html --kallsyms /dev/null -o "$tmp/un.html" "$tmp/un.data" &&
   "$spe" html --kallsyms /dev/null --unresolved address -o "$tmp/una.html" "$tmp/un.data"; then
	python3 "$views/html_tables.py" "$tmp/un.html" >"$tmp/un.rows"
	python3 "$views/html_tables.py" "$tmp/una.html" >"$tmp/una.rows"
	"$spe" report --sort sym --kallsyms /dev/null "$tmp/un.data" |
		awk '/^ *[0-9]/ && NF == 18 {print $17, $18}' | sort >"$tmp/un.want"
	awk -F'\t' '$1 == "cost-table" {print $18}' "$tmp/un.rows" | sort >"$tmp/un.cost"
	awk -F'\t' '$1 == "datasrc-table" {print $2}' "$tmp/un.rows" | sort >"$tmp/un.ds"
	awk '{print $2}' "$tmp/un.want" >"$tmp/un.names"
	ncost=$(awk -F'\t' '$1 == "cost-table"' "$tmp/una.rows" | wc -l)
	nds=$(awk -F'\t' '$1 == "datasrc-table"' "$tmp/una.rows" | wc -l)
	if [ "$(wc -l <"$tmp/un.want")" = 10 ] && cmp -s "$tmp/un.cost" "$tmp/un.want" &&
	   [ -s "$tmp/un.ds" ] && [ -z "$(comm -23 "$tmp/un.ds" "$tmp/un.names")" ] &&
	   ! grep -q 'unknown-page@' "$tmp/una.html" && [ "$ncost" = 200 ] && [ "$nds" = 50 ]; then
		tap_ok "code without symbols: a row per 4 KiB page (10, as report --sort sym) in the cost table and the data sources; per address with --unresolved address"
	else
		tap_fail "html of code without symbols" "$(diff "$tmp/un.cost" "$tmp/un.want" | head -4)" \
			"data sources: $(head -3 "$tmp/un.ds")" "by address: $ncost cost rows, $nds data-source rows"
	fi
else
	tap_fail "html of code without symbols"
fi

mkdir -p "$top/build"
chrome "file://$tmp/r.html" --screenshot="$top/build/html-report.png" --window-size=1280,2600 \
	>/dev/null 2>&1
[ -s "$top/build/html-report.png" ] && tap_ok "screenshot in build/html-report.png" ||
	tap_fail "screenshot"

spe_views_output_checks html m.html "$tmp/h.data"
cp "$tmp/r.html" "$tmp/old.html"
printf 'not a perf.data' >"$tmp/bad.data"
"$spe" html -o "$tmp/r.html" "$tmp/bad.data" 2>/dev/null
[ $? -ne 0 ] && cmp -s "$tmp/r.html" "$tmp/old.html" && [ -z "$(find "$tmp" -maxdepth 1 -name '.r.html.*')" ] &&
	tap_ok "a failed run leaves the existing page and no temporary file" || tap_fail "failed run keeps the page"
tap_done
