#!/usr/bin/env bash
# The PC-sample PMU (arm_pcsample.ko, drivers/perf/pcsample) builds against
# the Debian arm64 kernels of spe_build_kernels (scripts/lib/kernels.sh)
# with W=1 and sparse and no warnings;
# the module carries its name, the guest kernel's vermagic and both
# device-tree compatibles, depends on no other module (in particular not
# arm_spe), and only the sampler touches the register frames.  Its binding
# schema parses and its device-tree fragment compiles into a board.
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=scripts/lib/tap.sh
. "$top/scripts/lib/tap.sh"
# shellcheck source=scripts/lib/kernels.sh
. "$top/scripts/lib/kernels.sh"

if ! out=$("$top/scripts/fetch-kernels.sh" --quiet 2>&1); then
	tap_skip "arm_pcsample builds" "arm64 kernel headers unavailable: $(echo "$out" | tail -n1)"
	tap_done
	exit 0
fi

for k in $(spe_build_kernels); do
	start=$SECONDS
	# stderr apart: a first build of a kernel also says what it fetches.
	err=$top/build/kmod/arm_pcsample-$k.stderr
	mkdir -p "$(dirname "$err")"
	if ! ko=$("$top/scripts/build-spe-module.sh" "$k" --pcsample --sparse 2>"$err"); then
		tap_fail "$k: arm_pcsample.ko builds with W=1 and sparse, zero warnings" "$(tail -n 30 "$err")"
		continue
	fi
	tap_ok "$k: arm_pcsample.ko builds with W=1 and sparse, zero warnings ($((SECONDS - start)) s)"
	spe_kernel "$k"
	dir=$(dirname "$ko")

	n=$(grep -cE 'CHECK +(.*/)?pcsample_[a-z]*\.c' "$dir/build.log")
	srcs=("$top"/drivers/perf/pcsample/pcsample_*.c)
	if why=$(spe_sparse_unusable "$dir/build.log"); then
		tap_skip "$k: sparse checked every pcsample_*.c" "$why"
	elif [ "$n" -eq "${#srcs[@]}" ]; then
		tap_ok "$k: sparse checked every pcsample_*.c ($n)"
	else
		tap_fail "$k: sparse checked every pcsample_*.c" "$n CHECK lines in $dir/build.log"
	fi

	vm=$(modinfo -F vermagic "$ko")
	if [[ $vm == "$KREL "* ]]; then
		tap_ok "$k: vermagic is the guest kernel's ($KREL)"
	else
		tap_fail "$k: vermagic is the guest kernel's ($KREL)" "$vm"
	fi

	name=$(modinfo -F name "$ko")
	aliases=$(modinfo -F alias "$ko")
	if [ "$name" = arm_pcsample ] &&
	   grep -qx 'of:N\*T\*Carm,pcsample-pmu' <<<"$aliases" &&
	   grep -qx 'of:N\*T\*Carm,pcsample-debug' <<<"$aliases"; then
		tap_ok "$k: module arm_pcsample matches arm,pcsample-pmu and arm,pcsample-debug"
	else
		tap_fail "$k: module arm_pcsample matches arm,pcsample-pmu and arm,pcsample-debug" \
			"name=$name" "$aliases"
	fi

	deps=$(modinfo -F depends "$ko")
	params=$(modinfo -F parm "$ko" | cut -d: -f1 | tr '\n' ' ')
	if [ -z "$deps" ] && [ "$params" = "housekeeping_cpu " ]; then
		tap_ok "$k: no module dependency (not on arm_spe); one parameter, housekeeping_cpu"
	else
		tap_fail "$k: no module dependency (not on arm_spe); one parameter, housekeeping_cpu" \
			"depends=$deps" "params=$params"
	fi

	# The pure logic is the host tests' file: no MMIO, no kernel calls.
	undef=$(aarch64-linux-gnu-nm -u "$dir/pcsample_decode.o" | awk '{print $2}' |
		grep -vE '^(__stack_chk_|__sanitizer|__ubsan|__asan|_mcount|__fentry)' || true)
	if [ -z "$undef" ]; then
		tap_ok "$k: pcsample_decode.o calls nothing outside itself"
	else
		tap_fail "$k: pcsample_decode.o calls nothing outside itself" "$undef"
	fi

done

# Only pcsample_mmio.c reads or writes a register frame, the seam the
# host tests replace (the MMIO accessors are inline, so the sources are
# searched, not the objects).
mmio='\<(read|write)[lq](_relaxed)?\(|\<io(read|write)(32|64)\('
pcs=$top/drivers/perf/pcsample
others=$(grep -lE "$mmio" "$pcs"/*.[ch] | grep -v '/pcsample_mmio\.c$' || true)
if [ -z "$others" ] && grep -qE "$mmio" "$pcs/pcsample_mmio.c"; then
	tap_ok "only pcsample_mmio.c accesses the register frames"
else
	tap_fail "only pcsample_mmio.c accesses the register frames" "also in: $others"
fi

tap_check "DT binding arm,pcsample.yaml parses: compatibles, reg/cpus required, example" python3 - \
	"$top/Documentation/devicetree/bindings/perf/arm,pcsample.yaml" <<'EOT'
import sys, yaml
d = yaml.safe_load(open(sys.argv[1]))
assert d["properties"]["compatible"]["enum"] == ["arm,pcsample-pmu", "arm,pcsample-debug"]
assert set(d["required"]) == {"compatible", "reg", "cpus"}
assert d["properties"]["arm,pcsr-64bit-atomic"]["type"] == "boolean"
assert d["additionalProperties"] is False
assert any("arm,pcsample-pmu" in e and "cpus" in e for e in d["examples"])
EOT

# Every compatible of the driver is in the binding, and the reverse.
drv=$(sed -n 's/.*\.compatible = "\([^"]*\)".*/\1/p' "$top/drivers/perf/pcsample/pcsample_main.c" | sort | tr '\n' ' ')
bind=$(python3 -c 'import sys, yaml; print(" ".join(sorted(yaml.safe_load(open(sys.argv[1]))["properties"]["compatible"]["enum"])) + " ")' \
	"$top/Documentation/devicetree/bindings/perf/arm,pcsample.yaml")
if [ "$drv" = "$bind" ]; then
	tap_ok "driver and binding list the same compatibles ($drv)"
else
	tap_fail "driver and binding list the same compatibles" "driver: $drv" "binding: $bind"
fi

# The guide's troubleshooting messages are the driver's own words, and it
# documents the module parameter, the record layout and what is not done.
guide=$top/Documentation/admin-guide/arm-pcsample.rst
for msg in 'no "cpus" property: which CPU each frame belongs to is unknown' \
	'CPUs in "cpus" but' 'is the housekeeping CPU and is not sampled' \
	'is not an online CPU' 'PMDEVID.PCSample is not 1: no PMPCSR in this PMU block' \
	'EDDEVID.PCSample is not 3' 'EDDEVID1.PCSROffset is reserved' \
	'CONFIG_PID_IN_CONTEXTIDR is off: samples carry no PID'; do
	# In C the quotes are escaped.
	if grep -qF -- "${msg//\"/\\\"}" "$top"/drivers/perf/pcsample/*.c &&
	   grep -qF -- "$msg" "$guide"; then
		tap_ok "message in driver and guide: $msg"
	else
		tap_fail "message in driver and guide: $msg"
	fi
done
magic=$(sed -n 's/^#define PCS_RECORD_MAGIC[[:space:]]*\(0x[0-9a-f]*\)u.*/\1/p' \
	"$top/include/pcsample/record.h")
stats=$(sed -n 's/.*seq_puts(m, "\(cpu [a-z0-9_ ]*\)\\n");/\1/p' \
	"$top/drivers/perf/pcsample/pcsample_debugfs.c")
if [ -n "$magic" ] && grep -q "$magic" "$guide" && grep -q '``housekeeping_cpu``' "$guide" &&
   [ -n "$stats" ] && grep -qF "    $stats" "$guide" && grep -q '^Not done yet' "$guide"; then
	tap_ok "guide documents housekeeping_cpu, the record magic ($magic), the stats columns, what is not done"
else
	tap_fail "guide documents housekeeping_cpu, the record magic, the stats columns, what is not done" \
		"magic=$magic" "stats=$stats"
fi

# The fragment, included from a minimal board with four CPUs: reg and
# cpus are parallel lists of four.
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cat >"$tmp/board.dts" <<'EOT'
/dts-v1/;
/ {
	#address-cells = <2>;
	#size-cells = <2>;
	cpus {
		#address-cells = <1>;
		#size-cells = <0>;
		cpu0: cpu@0 { device_type = "cpu"; reg = <0>; };
		cpu1: cpu@1 { device_type = "cpu"; reg = <1>; };
		cpu2: cpu@2 { device_type = "cpu"; reg = <2>; };
		cpu3: cpu@3 { device_type = "cpu"; reg = <3>; };
	};
};
EOT
{ cat "$tmp/board.dts"; echo "#include \"$top/dts/pcsample-example.dtsi\""; } >"$tmp/b.dts"
if cpp -nostdinc -undef -x assembler-with-cpp -P "$tmp/b.dts" >"$tmp/b.pp.dts" 2>"$tmp/err" &&
   dtc -q -I dts -O dtb -o "$tmp/b.dtb" "$tmp/b.pp.dts" 2>>"$tmp/err" &&
   [ "$(fdtget "$tmp/b.dtb" /pc-sample compatible)" = arm,pcsample-pmu ] &&
   [ "$(fdtget -t x "$tmp/b.dtb" /pc-sample reg | wc -w)" -eq 16 ] &&
   [ "$(fdtget -t x "$tmp/b.dtb" /pc-sample cpus | wc -w)" -eq 4 ]; then
	tap_ok "dts/pcsample-example.dtsi compiles into a board: 4 frames, 4 CPUs"
else
	tap_fail "dts/pcsample-example.dtsi compiles into a board: 4 frames, 4 CPUs" "$(cat "$tmp/err")"
fi
tap_done
