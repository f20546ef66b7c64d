#!/usr/bin/env bash
# The SPE driver's logic, compiled from the driver's own sources on the
# host with ASan/UBSan.  The portable files (spe_caps.c, spe_format.c,
# spe_aux_window.c, spe_pmbsr.c): capability discovery and intersection, the
# format/ ABI table, event validation and config -> register conversion,
# the Profiling Buffer window in the AUX buffer, PMBSR decoding.  The perf
# glue (spe_core.c, spe_aux.c, spe_irq.c) against host stand-ins of the
# kernel APIs and a backend that records every register access and
# barrier: the register sequences of DDI 0586A §3.5/§3.6, event_init errors,
# the AUX bookkeeping of start/stop/interrupt.  And the PC-sample driver's
# pure logic (drivers/perf/pcsample/pcsample_decode.c): PMPCSR/EDPCSR
# decoding, the power and lock rules, the period and the AUX record; and
# its perf callbacks and sampling round (pcsample_pmu.c, pcsample_round.c)
# over a fake register frame: the order of the reads, no access to a core
# that is off, the Software Lock, the AUX placement and truncation.
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=scripts/lib/tap.sh
. "$top/scripts/lib/tap.sh"

out=$top/build/driver-tests
if ! log=$(make -s -C "$top/drivers/perf/tests" O="$out" 2>&1); then
	tap_fail "driver logic unit tests build with -Wall -Wextra -Werror" "$log"
	tap_done
	exit 1
fi
tap_ok "driver logic unit tests build with -Wall -Wextra -Werror"

for t in "$out"/test_*; do
	[ -x "$t" ] || continue
	tap_sub "$(basename "$t")" "$t"
done
tap_done
