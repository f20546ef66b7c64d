#!/usr/bin/env bash
# Usage: qemu/tests/check-series-constants.sh [PATCH...]
#
# The QEMU series (qemu/patches/*.patch by default) takes every SPE system
# register's name and encoding from include/spe/regs.h and every offset of
# the PC sample frame from include/pcsample/regs.h, the headers the drivers
# are built with: scripts/fetch-qemu.sh copies them into QEMU's tree.  A
# number typed again in a patch could drift from the header unnoticed (the
# guest would then reach another register than the driver names).  This
# prints each line a patch adds to a C file that types one again, as
#   PATCH:LINE: WHAT: TEXT
# and exits 1 if there is any (0 if none, 2 on a usage error):
#   - a cpreg encoding field (.opc0/.opc1/.crn/.crm/.opc2) given a number:
#     the only assignments are the tuple-expanding macro's, which take
#     the numbers from an SPE_SYS_<NAME> tuple;
#   - ENCODE_AA64_CP_REG() given numbers instead of a tuple;
#   - the five numbers of a register's SPE_SYS_<NAME> tuple, in order;
#   - a register of the header's SPE_SYSREGS list as a string literal
#     (its name comes from the macro argument, #NAME);
#   - a #define or case label whose hex value is an offset of the PC
#     sample frame that include/pcsample/regs.h defines (PCS_PMU_*,
#     PCS_DBG_*, PCS_LAR, PCS_LSR), or its lock key.
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
spe_regs=$top/include/spe/regs.h
pcs_regs=$top/include/pcsample/regs.h

if [ $# -eq 0 ]; then
	# shellcheck source=scripts/lib/qemu-series.sh
	. "$top/scripts/lib/qemu-series.sh"
	# shellcheck disable=SC2154 # set by qemu-series.sh
	set -- "$spe_qemu_patches"/*.patch
fi
for p in "$@"; do
	[ -f "$p" ] || { echo "${0##*/}: no such patch: $p" >&2; exit 2; }
done

# The registers' tuples, as "NAME op0 op1 CRn CRm op2" lines.
mapfile -t tuples < <(sed -n -E \
	's/^#define SPE_SYS_([A-Z0-9_]+)[[:space:]]+([0-9]+), *([0-9]+), *([0-9]+), *([0-9]+), *([0-9]+).*/\1 \2 \3 \4 \5 \6/p' \
	"$spe_regs")
# The register names of the SPE_SYSREGS(X) list.
mapfile -t names < <(sed -n -E 's/^[[:space:]]*X\(([A-Z0-9_]+), [A-Z0-9]+\).*/\1/p' "$spe_regs")
# The frame's offsets and lock key, as numbers.
mapfile -t offsets < <(sed -n -E \
	's/^#define PCS_(PMU_[A-Z0-9_]+|DBG_[A-Z0-9_]+|LAR|LSR|LAR_KEY)[[:space:]]+(0x[0-9a-fA-F]+)u?([[:space:]].*)?$/\2/p' \
	"$pcs_regs")
if [ ${#tuples[@]} -lt 10 ] || [ ${#names[@]} -lt 10 ] || [ ${#offsets[@]} -lt 10 ]; then
	echo "${0##*/}: could not read the encodings from $spe_regs and $pcs_regs" \
		"(${#tuples[@]} tuples, ${#names[@]} names, ${#offsets[@]} offsets)" >&2
	exit 2
fi

tuple_res=()
for t in "${tuples[@]}"; do
	read -r _ a b c d e <<<"$t"
	tuple_res+=("(^|[^0-9x])$a *, *$b *, *$c *, *$d *, *$e([^0-9]|$)")
done
declare -A is_offset=()
for o in "${offsets[@]}"; do
	is_offset[$((o))]=1
done

bad=0
report() {
	echo "$1:$2: $3: $4"
	bad=1
}

for p in "$@"; do
	file='' n=0 where=$p
	while IFS= read -r line; do
		n=$((n + 1))
		case $line in
		'diff --git '*) file=${line##* b/}; continue ;;
		'+++ '*) continue ;;
		+*) ;;
		*) continue ;;
		esac
		case $file in
		*.c|*.h|*.c.inc) ;;
		*) continue ;;
		esac
		text=${line#+}
		if [[ $text =~ \.(opc0|opc1|crn|crm|opc2)[[:space:]]*=[[:space:]]*[0-9] ]]; then
			report "$where" $n "cpreg encoding field given a number" "$text"
		fi
		if [[ $text =~ ENCODE_AA64_CP_REG[[:space:]]*\([[:space:]]*[0-9] ]]; then
			report "$where" $n "ENCODE_AA64_CP_REG given numbers" "$text"
		fi
		for i in "${!tuple_res[@]}"; do
			if [[ $text =~ ${tuple_res[$i]} ]]; then
				report "$where" $n "SPE_SYS_${tuples[$i]%% *} typed again" "$text"
			fi
		done
		for name in "${names[@]}"; do
			if [[ $text == *\""$name"\"* ]]; then
				report "$where" $n "register name $name typed again" "$text"
			fi
		done
		# Offsets are written in hex (decimal latencies and sizes are not
		# offsets).
		if [[ $text =~ ^[[:space:]]*#[[:space:]]*define[[:space:]]+[A-Za-z0-9_]+[[:space:]]+\(?(0[xX][0-9a-fA-F]+)[uUlL]*\)?([[:space:]]|$) ]] ||
		   [[ $text =~ ^[[:space:]]*case[[:space:]]+(0[xX][0-9a-fA-F]+)[uUlL]*[[:space:]]*: ]]; then
			v=${BASH_REMATCH[1]}
			if [ -n "${is_offset[$((v))]:-}" ]; then
				report "$where" $n "include/pcsample/regs.h value $v typed again" "$text"
			fi
		fi
	done <"$p"
done
exit $bad
