#!/usr/bin/env bash
# Differential test against host perf (perf 6.1, the reference decoder),
# and against perf 6.12 and 7.3 (the build roots' perf) with --perf-version:
# every golden vector, large generated traces of realistic records and
# traces of the SPU model (spe-gen, every profile),
# are wrapped into a perf.data (`spe-decode wrap`, one AUXTRACE record) and
# `perf report -D`'s packet lines are compared with `spe-decode dump` on the
# same bytes (tools/spe-decode/tests/perf-dump-diff.awk: identical for
# every packet perf understands).
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/scripts/lib-decoder.sh"
# shellcheck source=scripts/lib/tap.sh
. "$top/scripts/lib/tap.sh"
# shellcheck source=scripts/lib/buildroot.sh
. "$top/scripts/lib/buildroot.sh"
records=${SPE_PERF_DIFF_RECORDS:-60000}
cmp_awk=$top/tools/spe-decode/tests/perf-dump-diff.awk
gen_awk=$top/tools/spe-decode/tests/gen/realistic.awk

if ! command -v perf >/dev/null || ! perf report --help >/dev/null 2>&1; then
	tap_skip "compare with perf report -D" "host perf not installed (make deps)"
	tap_done
	exit 0
fi
decoder_build || { tap_fail "spe-decode builds"; tap_done; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# The newer perfs: 6.12 and 7.3 (the x86 perf of the trixie and
# trixie-backports build roots, when the cache has them or can get them:
# scripts/fetch-kernels.sh), each the reference of --perf-version=V.
newer_perfs=()
# The newest kernel's build root (with perf 7.3) is one make check makes
# anyway (suites 41-49): fetched here, earlier.  trixie's (perf 6.12) only
# when the build kernels include trixie (make matrix).
# shellcheck source=scripts/lib/kernels.sh
. "$top/scripts/lib/kernels.sh"
for k in newest $(spe_build_kernels | grep -x trixie); do
	"$top/scripts/fetch-kernels.sh" --quiet "$k" >/dev/null 2>&1 ||
		echo "# fetch-kernels.sh $k failed: its perf is not compared" >&2
done
for suite in trixie:6.12 trixie-backports:7.3; do
	env=${SPE_CACHE_DIR:-$top/.cache}/kernels/${suite%%:*}.env
	# shellcheck disable=SC1090
	root=$( [ -f "$env" ] && . "$env" && echo "${TOOLROOT:-}")
	if [ -n "$root" ] && [ -f "$root/.spe-complete" ]; then
		newer_perfs+=("${suite#*:}:$root")
	else
		tap_skip "dump and script against perf ${suite#*:}" "its build root is not in the cache (scripts/fetch-kernels.sh ${suite%%:*})"
	fi
done
# perf_lines ROOT DATA: the packet lines of `perf report -D` on DATA, by
# the perf of build root ROOT (empty: host perf 6.1).
perf_lines() {
	spe_in_root "$1" perf report -D -f -i "$2" 2>/dev/null | grep -a '^\.  [0-9a-f]\{8\}:  '
}

# same_dump WHAT OURS PERF: OURS and PERF (packet lines) agree, through
# perf-dump-diff.awk.
same_dump() {
	local what=$1 ours=$2 perf=$3
	if [ ! -s "$perf" ]; then
		tap_fail "$what" "perf printed no SPE packets"
	elif awk -f "$cmp_awk" "$ours" "$perf" >"$tmp/cmp.log"; then
		tap_ok "$what $(tail -1 "$tmp/cmp.log" | sed 's/^# /(/; s/$/)/')"
	else
		tap_fail "$what" "$(head -30 "$tmp/cmp.log")"
	fi
}

# compare NAME RAW [MIDR]: wrap RAW (zero-padded to 8 bytes, as AUX data
# is; with MIDR as every CPU's, default a Neoverse N1), dump it both ways,
# diff; then against each newer perf with dump --perf-version=V of the
# perf.data (its MIDR says whether perf 7.3 names N1's event 12).
compare() {
	local name=$1 raw=$2 midr=${3:-} size pad vp v
	local what="$name: spe-decode dump equals perf report -D on every packet perf decodes"
	size=$(stat -c %s "$raw")
	pad=$(( (8 - size % 8) % 8 ))
	[ $pad = 0 ] || head -c $pad /dev/zero >>"$raw"
	if ! "$spe_decode" wrap ${midr:+--midr "$midr"} -o "$tmp/$name.data" "$raw" >"$tmp/wrap.log" 2>&1; then
		tap_fail "$name: wrapped into perf.data" "$(cat "$tmp/wrap.log")"
		return
	fi
	if [ -z "$midr" ]; then
		perf_lines "" "$tmp/$name.data" >"$tmp/$name.perf"
		"$spe_decode" dump "$raw" >"$tmp/$name.ours" 2>/dev/null
		same_dump "$what" "$tmp/$name.ours" "$tmp/$name.perf"
	fi
	for vp in "${newer_perfs[@]}"; do
		v=${vp%%:*}
		perf_lines "${vp#*:}" "$tmp/$name.data" >"$tmp/$name.perf"
		"$spe_decode" dump --perf-version="$v" "$tmp/$name.data" 2>/dev/null |
			grep -a '^\.  [0-9a-f]\{8\}:  ' >"$tmp/$name.ours"
		same_dump "$name${midr:+ (MIDR $midr)}: dump --perf-version=$v equals perf $v's report -D" \
			"$tmp/$name.ours" "$tmp/$name.perf"
	done
}

for vec in "$vectors"/*.vec; do
	name=$(basename "$vec" .vec)
	"$spe_decode" encode -o "$tmp/$name.bin" "$vec" || { tap_fail "$name: encoded"; continue; }
	compare "$name" "$tmp/$name.bin"
done
# perf 7.3 names event 12 on a Neoverse N1 only: the vectors with IMPDEF
# events again as a Cortex-A53 wrote them.
for name in events perf-7-3-forms; do
	compare "$name-a53" "$tmp/$name.bin" 0x410fd034
done

# Samples, not only packets: the vectors of records whose samples perf
# releases synthesize differently (tools/spe-decode/tests/vectors), read by
# perf script and spe-decode script on a Neoverse N1 (the common data
# source table) and a Cortex-A53 (data source from the events).  Host perf
# 6.1 is the default's reference, byte for byte; perf 6.12 and 7.3 (the x86
# perf of the trixie and trixie-backports build roots, when the cache
# already has them: scripts/fetch-kernels.sh) that of --perf-version=6.12
# and 7.3: the samples of every group with their fields, the data_src
# values (printed as perf 6.1 prints them, so their text is not compared
# with newer perf's), and the default groups and columns, byte for byte
# (perf 6.5 on pads pid and tid to 7 columns, not 5).
script_vectors="op-sve-other branch-hints load-record"
# data_src's text (from " |OP" up to the ip) left out, blanks squeezed.
no_ds_text() { sed 's/ |OP.*  *\([0-9a-f][0-9a-f]*\)$/ \1/' "$1" | tr -s ' '; }

# same_samples ROOT V FILTER LABEL DATA [ARG...]: perf V (the x86 perf of
# build root ROOT) and spe-decode script --perf-version=V, both given
# ARG... and DATA, print the same once FILTER (a function of a file name)
# has read each output.
same_samples() {
	local root=$1 v=$2 filter=$3 label=$4 data=$5
	shift 5
	spe_in_root "$root" perf script -f -i "$data" "$@" >"$tmp/p.out" 2>/dev/null
	"$spe_decode" script --perf-version="$v" "$@" "$data" >"$tmp/s.out" 2>/dev/null
	if [ -s "$tmp/p.out" ] && cmp -s <("$filter" "$tmp/p.out") <("$filter" "$tmp/s.out"); then
		tap_ok "$label ($(wc -l <"$tmp/p.out") lines)"
	else
		tap_fail "$label" "$(diff <("$filter" "$tmp/p.out") <("$filter" "$tmp/s.out") | head -8)"
	fi
}
for name in $script_vectors; do
	"$spe_decode" encode -o "$tmp/$name.bin" "$vectors/$name.vec" || { tap_fail "$name: encoded"; continue; }
	size=$(stat -c %s "$tmp/$name.bin")
	head -c $(( (8 - size % 8) % 8 )) /dev/zero >>"$tmp/$name.bin"
	for cpu in n1:0x413fd0c1 a53:0x410fd034; do
		d=$tmp/$name-${cpu%%:*}.data
		"$spe_decode" wrap --midr "${cpu#*:}" -o "$d" "$tmp/$name.bin" >/dev/null 2>&1 ||
			{ tap_fail "$name: wrapped (${cpu%%:*})"; continue; }
		what="$name (${cpu%%:*})"
		# The views' memory operations are loads and stores, whatever
		# perf releases take for one.
		if [ "$name" = op-sve-other ] && [ "${cpu%%:*}" = n1 ]; then
			"$spe_decode" report --sort op,data_src "$d" >"$tmp/r.out" 2>/dev/null
			"$spe_decode" report -C 0 "$d" >"$tmp/rc.out" 2>/dev/null
			if grep -q ' load  ' "$tmp/r.out" && ! grep -E ' other  ' "$tmp/r.out" | grep -vq ' other  N/A$' &&
			   grep -A1 '^## Loads: data source' "$tmp/rc.out" | grep -qE '^ +2 100.00%'; then
				tap_ok "$what: report counts loads and stores only (its 2 loads; no data source for \"other\")"
			else
				tap_fail "$what: report counts loads and stores only" "$(grep -E ' (other|load)  ' "$tmp/r.out")"
			fi
		fi
		for it in fmtaM fmtabMi1i; do
			perf script -f -i "$d" --itrace=$it -F event,ip,addr,data_src >"$tmp/p.out" 2>/dev/null
			"$spe_decode" script --branch-miss --itrace=$it -F event,ip,addr,data_src "$d" >"$tmp/s.out" 2>/dev/null
			if [ -s "$tmp/p.out" ] && cmp -s "$tmp/p.out" "$tmp/s.out"; then
				tap_ok "$what: script --itrace=$it equals perf 6.1's ($(wc -l <"$tmp/p.out") samples)"
			else
				tap_fail "$what: script --itrace=$it equals perf 6.1's" "$(diff "$tmp/p.out" "$tmp/s.out" | head -8)"
			fi
		done
		perf script -f -i "$d" >"$tmp/p.out" 2>/dev/null
		"$spe_decode" script --branch-miss --perf-version=6.1 "$d" >"$tmp/s.out" 2>/dev/null
		if [ -s "$tmp/p.out" ] && cmp -s "$tmp/p.out" "$tmp/s.out"; then
			tap_ok "$what: script's default fields equal perf 6.1's ($(wc -l <"$tmp/p.out") samples)"
		else
			tap_fail "$what: script's default fields equal perf 6.1's" "$(diff "$tmp/p.out" "$tmp/s.out" | head -8)"
		fi
		for vp in "${newer_perfs[@]}"; do
			v=${vp%%:*}
			# Every group, and the fields samples carry; data_src apart
			# (its text is perf 6.1's; perf 7.3's values without the
			# common table are its own, not compared).
			same_samples "${vp#*:}" "$v" cat \
				"$what: script --perf-version=$v --itrace=fmtabMi1i: perf $v's samples" \
				"$d" --itrace=fmtabMi1i -F event,ip,addr,phys_addr,period
			if [ "$v" != 7.3 ] || [ "${cpu%%:*}" != a53 ]; then
				same_samples "${vp#*:}" "$v" no_ds_text \
					"$what: script --perf-version=$v: perf $v's data_src values" \
					"$d" --itrace=fmtaM -F event,ip,data_src
			fi
			# Default groups and columns.
			same_samples "${vp#*:}" "$v" cat \
				"$what: script --perf-version=$v: perf $v's default groups and fields" "$d"
		done
	done
done

# Realistic records (tests/perfdata/gen_mixed.py: loads, stores, branches,
# "other") on two CPUs, against the newer perfs (suite 18 has perf 6.1's).
if [ ${#newer_perfs[@]} -gt 0 ] && command -v python3 >/dev/null; then
	python3 "$top/tools/spe-decode/tests/perfdata/gen_mixed.py" 1500 --seed 21 >"$tmp/m0.bin"
	python3 "$top/tools/spe-decode/tests/perfdata/gen_mixed.py" 1500 --seed 22 --ts0 1000050 >"$tmp/m1.bin"
	"$spe_decode" wrap -o "$tmp/mixed.data" --pid 100 --tid 100 --comm prog \
		"$tmp/m0.bin@0" "$tmp/m1.bin@1" >/dev/null 2>&1
	for vp in "${newer_perfs[@]}"; do
		v=${vp%%:*}
		for args in "--itrace=fmtabMi1i -F event,ip,addr,phys_addr,period,weight" ""; do
			# shellcheck disable=SC2086
			same_samples "${vp#*:}" "$v" cat \
				"mixed records: script --perf-version=$v ${args:-(defaults)}: perf $v's samples" \
				"$tmp/mixed.data" $args
		done
	done
fi

awk -v records="$records" -v seed=7 -f "$gen_awk" | "$spe_decode" encode -o "$tmp/generated.bin" -
compare "generated-$records-records" "$tmp/generated.bin"
awk -v records=20000 -v seed=8 -v end=1 -f "$gen_awk" | "$spe_decode" encode -o "$tmp/generated-end.bin" -
compare "generated-20000-end-records" "$tmp/generated-end.bin"

# Traces from the SPU model (tools/spu-model's spe-gen), every profile.
if make -s -C "$top/tools/spu-model" -j2 >"$tmp/model-build.log" 2>&1 &&
   [ -x "$top/build/spu-model/spe-gen" ]; then
	for profile in v1-min n1 v2 full; do
		"$top/build/spu-model/spe-gen" -q -p "$profile" -s 3 -n 1048576 -o "$tmp/model-$profile.bin"
		compare "spe-gen-$profile-1MiB" "$tmp/model-$profile.bin"
	done
else
	tap_skip "spe-gen traces" "the SPU model (tools/spu-model) does not build"
fi

tap_done
