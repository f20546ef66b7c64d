#!/usr/bin/env bash
# The Kconfig files (top-level Kconfig sourcing drivers/perf/Kconfig) parse
# with the kernel's own kconfig tool (Debian linux-kbuild-6.1) and their
# dependencies say what Kbuild assumes:
#   - allmodconfig builds arm_spe as a module, and arm_spe_sim only exists
#     without it (the two share objects, which Kbuild refuses to link
#     into two modules of one build);
#   - with the in-tree ARM_SPE_PMU built in, neither can be selected (only
#     one driver can own the SPE device);
#   - arm_pcsample is a module of its own beside them;
#   - without ARM64 or PERF_EVENTS, none exists.
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=scripts/lib/tap.sh
. "$top/scripts/lib/tap.sh"

conf=$(ls /usr/lib/linux-kbuild-*/scripts/kconfig/conf 2>/dev/null | head -n 1)
if [ -z "$conf" ]; then
	tap_fail "kconfig's conf tool is installed (linux-kbuild)"
	tap_done
	exit 1
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/drivers/perf"
cp "$top/Kconfig" "$work/Kconfig.spe"
cp "$top/drivers/perf/Kconfig" "$work/drivers/perf/Kconfig"

# A stand-in for the kernel's own symbols the driver depends on.
# $1: ARM64 and PERF_EVENTS value (y/n), $2: ARM_SPE_PMU default (m/y).
configure() {
	cat >"$work/Kconfig" <<-EOF
	config MODULES
		def_bool y
		modules
	config ARM64
		def_bool $1
	config PERF_EVENTS
		def_bool $1
	config HIGH_RES_TIMERS
		def_bool y
	config ARM_SPE_PMU
		tristate "in-tree SPE driver"
		default $2
	source "Kconfig.spe"
	EOF
	(cd "$work" && rm -f .config &&
	 srctree=$work KCONFIG_CONFIG=$work/.config "$conf" --"$3" Kconfig >/dev/null 2>"$work/err") ||
		{ cat "$work/err"; return 1; }
}

has() { grep -qx "$1" "$work/.config"; }

if configure y m allmodconfig; then
	tap_ok "Kconfig and drivers/perf/Kconfig parse with kconfig"
	if has CONFIG_ARM_SPE_PERF=m && ! grep -q 'ARM_SPE_PERF_SIM=' "$work/.config"; then
		tap_ok "allmodconfig: arm_spe is a module, arm_spe_sim is not built with it"
	else
		tap_fail "allmodconfig: arm_spe is a module, arm_spe_sim is not built with it" \
			"$(grep SPE "$work/.config")"
	fi
	if has CONFIG_ARM_PCSAMPLE_PERF=m; then
		tap_ok "allmodconfig: arm_pcsample is a module beside arm_spe (no shared objects)"
	else
		tap_fail "allmodconfig: arm_pcsample is a module beside arm_spe (no shared objects)" \
			"$(grep PCSAMPLE "$work/.config")"
	fi
	# ARM_SPE_PERF=n is the one way to get the simulated module.
	echo "CONFIG_ARM_SPE_PERF=n" >"$work/frag"
	if (cd "$work" && rm -f .config &&
	    srctree=$work KCONFIG_CONFIG=$work/.config KCONFIG_ALLCONFIG=$work/frag \
		"$conf" --allmodconfig Kconfig >/dev/null 2>"$work/err") &&
	   has CONFIG_ARM_SPE_PERF_SIM=m && ! has CONFIG_ARM_SPE_PERF=m; then
		tap_ok "ARM_SPE_PERF=n: arm_spe_sim is a module"
	else
		tap_fail "ARM_SPE_PERF=n: arm_spe_sim is a module" "$(grep SPE "$work/.config")" "$(cat "$work/err")"
	fi
else
	tap_fail "Kconfig and drivers/perf/Kconfig parse with kconfig" "$(cat "$work/err")"
fi

# alldefconfig keeps ARM_SPE_PMU at its default y: the new driver must yield.
if configure y y alldefconfig && ! grep -q 'ARM_SPE_PERF' "$work/.config" &&
   has CONFIG_ARM_SPE_PMU=y; then
	tap_ok "in-tree ARM_SPE_PMU=y: ARM_SPE_PERF and ARM_SPE_PERF_SIM unavailable"
else
	tap_fail "in-tree ARM_SPE_PMU=y: ARM_SPE_PERF and ARM_SPE_PERF_SIM unavailable" "$(grep SPE "$work/.config")"
fi

if configure n m allmodconfig && ! grep -qE 'ARM_SPE_PERF|ARM_PCSAMPLE_PERF' "$work/.config"; then
	tap_ok "without ARM64/PERF_EVENTS none of the symbols exists"
else
	tap_fail "without ARM64/PERF_EVENTS none of the symbols exists" "$(grep -E 'SPE|PCSAMPLE' "$work/.config")"
fi
tap_done
