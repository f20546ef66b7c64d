# shellcheck shell=bash
# What host perf's packet dump (`perf report -D`) shows of a perf.data's SPE
# data.  Where host perf is the independent reference a suite judges the
# driver or a writer by, it is perf's own text that is read, and it is read
# here only: one awk program, run once per file (its facts are kept beside
# the file, in DATA.facts, until the file changes).
#
#   perf_dump_facts DATA     the facts, one "KEY [ARG...] N" line each:
#     records N              SPE records (lines with a PC packet)
#     ts N                   TS (timestamp) packets
#     ts_backwards N         timestamps below the previous one of their CPU
#     bad N                  lines (stdout or stderr) saying bad packet,
#                            unknown packet or error
#     pc_el EL N             PC packets at exception level EL (el0..el3)
#     context EL HEX N       CONTEXT packets of value HEX at EL
#     aux FLAGS N            PERF_RECORD_AUX records with these flags (hex)
#     auxtrace CPU N         PERF_RECORD_AUXTRACE records of CPU
#     op ld|st|b_cond N      operation-type packets of loads, stores and
#                            conditional branches
#     pa N                   physical-address packets
#     ds VALUE N             DATA-SOURCE packets of this (decimal) value
#     sve ld|st|other EVLEN pred|nopred sg|nosg N
#                            SVE operation-type packets (those with an
#                            EVLEN) of this kind, vector length and flags
#     switch_cpu_wide N      PERF_RECORD_SWITCH_CPU_WIDE records
#                            (perf record -a --switch-events)
#   perf_dump_sum DATA KEY [ARG...]   the sum of N over the lines of KEY ARG...
#   perf_dump_max DATA KEY [ARG...]   the largest N among them (0 if none)
#   perf_dump_list DATA KEY [ARG...]  the field after KEY ARG... of each, sorted
#   perf_dump_addrs DATA PC|VA        every PC (or data virtual address)
#                                     packet's value, "0x..." one a line, in
#                                     the dump's order (not kept: a new dump)
# perf's exit status is not judged here (a file perf cannot read gives
# records 0): the suites check what they expect to find.  A missing DATA
# is an error, and all its sums are 0.

# The perf that reads the recordings ("host perf" above and in the
# suites): this machine's (Debian 12's perf 6.1), or, for a guest of a
# newer release, that release's own x86 perf, in the build root of its
# kernel (scripts/fetch-kernels.sh): a guest's perf 7.x writes perf.data
# that perf 6.1 calls an "incompatible file format".  An older release's
# recordings (bullseye's perf 5.10) are read by this machine's perf, as
# perf reads older files; perf 5.10's own decoder knows fewer SPE packets
# and synthesizes no instruction samples.
#   spe_ref_perf_for KERNEL   choose it for the guest kernel KERNEL
#   ref_perf ARG...           run it
spe_top=${spe_top:-$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)}
# shellcheck source=scripts/lib/kernels.sh
. "$spe_top/scripts/lib/kernels.sh"
SPE_REF_PERF_ROOT=${SPE_REF_PERF_ROOT:-} SPE_REF_PERF=${SPE_REF_PERF:-perf}

spe_ref_perf_for() {
	spe_kernel "$1"
	SPE_REF_PERF_ROOT='' SPE_REF_PERF=perf
	# What matters is the release of the perf that wrote the files.
	if [ -n "$TOOLROOT" ] &&
	   spe_release_is_newer "$(spe_suite_release "$(spe_guest_perf_suite)")"; then
		SPE_REF_PERF_ROOT=$TOOLROOT
	fi
}

ref_perf() {
	spe_in_root "$SPE_REF_PERF_ROOT" "$SPE_REF_PERF" "$@"
}

perf_dump_facts() {
	local data=$1 facts=$1.facts
	if [ ! -f "$data" ] || [ ! -r "$data" ]; then
		echo "perf_dump_facts: $data: no such readable file" >&2
		return 1
	fi
	if [ ! -s "$facts" ] || [ "$data" -nt "$facts" ]; then
		# awk opens the error file only at the end of the dump, when
		# perf has exited and written all of it.
		# shellcheck disable=SC2094
		ref_perf report -D -i "$data" 2>"$facts.err" | awk '
			/PERF_RECORD_AUXTRACE / {
				for (i = 1; i < NF; i++) if ($i == "cpu:") cpu = $(i + 1)
				auxtrace[cpu]++
			}
			/PERF_RECORD_AUX offset:/ {
				# perf prints flags with %#x: a zero as "0", anything else as 0x...
				for (i = 1; i < NF; i++) if ($i == "flags:") aux[$(i + 1) == "0" ? "0x0" : $(i + 1)]++
			}
			/ PC 0x/ {
				records++
				for (i = 1; i <= NF; i++) if ($i ~ /^el[0-3]$/) { pc_el[$i]++; break }
			}
			/PERF_RECORD_SWITCH_CPU_WIDE/ { switch_cw++ }
			/ PA 0x/ { pa++ }
			/ DATA-SOURCE [0-9]+$/ { ds[$NF]++ }
			/ EVLEN [0-9]+/ {
				k = index($0, "SVE-OTHER") ? "other" : index($0, "LD ") ? "ld" : index($0, "ST ") ? "st" : "unknown"
				for (i = 1; i < NF; i++) if ($i == "EVLEN") e = $(i + 1)
				sve[k " " e " " (index($0, " PRED") ? "pred" : "nopred") " " (index($0, " SG") ? "sg" : "nosg")]++
			}
			index($0, "LD ") { op["ld"]++ }
			index($0, "ST ") { op["st"]++ }
			index($0, "B COND") { op["b_cond"]++ }
			/ CONTEXT 0x/ {
				for (i = 1; i < NF; i++) if ($i == "CONTEXT") context[$(i + 2) " " substr($(i + 1), 3)]++
			}
			/ TS [0-9]+$/ {
				ts++
				t = $NF + 0
				if (cpu in last && t < last[cpu]) backwards++
				last[cpu] = t
			}
			tolower($0) ~ /bad packet|unknown packet|error/ { bad++ }
			END {
				printf "records %d\nts %d\nts_backwards %d\nbad %d\npa %d\nswitch_cpu_wide %d\n",
					records, ts, backwards, bad, pa, switch_cw
				for (k in op) print "op", k, op[k]
				for (k in pc_el) print "pc_el", k, pc_el[k]
				for (k in context) print "context", k, context[k]
				for (k in aux) print "aux", k, aux[k]
				for (k in auxtrace) print "auxtrace", k, auxtrace[k]
				for (k in ds) print "ds", k, ds[k]
				for (k in sve) print "sve", k, sve[k]
			}' - "$facts.err" | sort >"$facts.tmp" && mv "$facts.tmp" "$facts"
	fi
	cat "$facts"
}

# perf_dump__select OP DATA KEY [ARG...]: the lines of KEY ARG..., then OP.
perf_dump__select() {
	local op=$1 data=$2
	shift 2
	perf_dump_facts "$data" | awk -v op="$op" -v want="$*" '
		{ line = $0; sub(/ [^ ]+$/, "", line) }
		substr(line, 1, length(want)) == want &&
		(length(line) == length(want) || substr(line, length(want) + 1, 1) == " ") {
			n = $NF + 0
			sum += n
			if (n > max) max = n
			rest = substr(line, length(want) + 2)
			if (rest != "") { split(rest, f, " "); list[f[1]] = 1 }
		}
		END {
			if (op == "sum") print sum + 0
			else if (op == "max") print max + 0
			else for (k in list) print k
		}' | sort
}

perf_dump_sum() { perf_dump__select sum "$@"; }
perf_dump_max() { perf_dump__select max "$@"; }
perf_dump_list() { perf_dump__select list "$@"; }

perf_dump_addrs() {
	local data=$1 kind=$2
	case $kind in
	PC | VA) ;;
	*) echo "perf_dump_addrs: $kind: not PC or VA" >&2; return 1 ;;
	esac
	ref_perf report -D -i "$data" 2>/dev/null |
		awk -v k="$kind" '{ for (i = 1; i < NF; i++) if ($i == k && $(i + 1) ~ /^0x[0-9a-f]+$/) { print $(i + 1); break } }'
}
