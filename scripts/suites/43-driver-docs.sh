#!/usr/bin/env bash
# The driver's device-tree fragments compile and apply, the binding schema
# and the documentation parse, citations name public documents, and the user
# guide covers every format attribute of the driver's table and every message
# its troubleshooting section promises (so documentation and code cannot
# drift apart).
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=scripts/lib/tap.sh
. "$top/scripts/lib/tap.sh"
# shellcheck source=scripts/lib/kernels.sh
. "$top/scripts/lib/kernels.sh"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
guide=$top/Documentation/admin-guide/arm-spe.rst

# QEMU overlay: compile, apply to the real virt DTB, read the node back.
if qemu-system-aarch64 -M virt,gic-version=3 -cpu max,pauth=off -smp 2 -m 1G \
	-nographic -nic none -machine dumpdtb="$tmp/virt.dtb" >/dev/null 2>&1 &&
   dtc -q -@ -I dts -O dtb -o "$tmp/spe.dtbo" "$top/dts/qemu-virt-spe.dtso" &&
   fdtoverlay -i "$tmp/virt.dtb" -o "$tmp/virt-spe.dtb" "$tmp/spe.dtbo" &&
   [ "$(fdtget "$tmp/virt-spe.dtb" /spe-pmu compatible)" = arm,statistical-profiling-extension-v1 ] &&
   [ "$(fdtget "$tmp/virt-spe.dtb" /spe-pmu interrupts)" = "1 5 4" ]; then
	tap_ok "dts/qemu-virt-spe.dtso applies to QEMU's virt DTB: SPE node with PPI 5, level-high"
else
	tap_fail "dts/qemu-virt-spe.dtso applies to QEMU's virt DTB: SPE node with PPI 5, level-high"
fi

# The .dtsi fragments, included from a minimal board with a GICv3 and CPUs.
spe_kernel 6.1
common=$(dirname "$KDIR")/$(basename "$KDIR" | sed 's/-arm64$/-common/')
cat >"$tmp/board.dts" <<'EOT'
/dts-v1/;
/ {
	#address-cells = <2>;
	#size-cells = <2>;
	interrupt-parent = <&gic>;
	cpus {
		#address-cells = <1>;
		#size-cells = <0>;
		cpu0: cpu@0 { device_type = "cpu"; reg = <0>; };
		cpu1: cpu@1 { device_type = "cpu"; reg = <1>; };
		cpu2: cpu@2 { device_type = "cpu"; reg = <2>; };
		cpu3: cpu@3 { device_type = "cpu"; reg = <3>; };
		cpu4: cpu@4 { device_type = "cpu"; reg = <4>; };
		cpu5: cpu@5 { device_type = "cpu"; reg = <5>; };
		cpu6: cpu@6 { device_type = "cpu"; reg = <6>; };
		cpu7: cpu@7 { device_type = "cpu"; reg = <7>; };
	};
	gic: interrupt-controller@2f000000 {
		compatible = "arm,gic-v3";
		#interrupt-cells = <4>;
		interrupt-controller;
		reg = <0x0 0x2f000000 0 0x10000>, <0x0 0x2f100000 0 0x200000>;
	};
};
EOT
for f in fvp-base-spe fvp-big-little-spe; do
	{ cat "$tmp/board.dts"; echo "#include \"$top/dts/$f.dtsi\""; } >"$tmp/$f.dts"
	if cpp -nostdinc -undef -x assembler-with-cpp -P -I "$common/include" \
		"$tmp/$f.dts" >"$tmp/$f.pp.dts" 2>"$tmp/$f.err" &&
	   dtc -q -I dts -O dtb -o "$tmp/$f.dtb" "$tmp/$f.pp.dts" 2>>"$tmp/$f.err"; then
		n=$(fdtget -l "$tmp/$f.dtb" / | grep -c '^spe-pmu')
		tap_ok "dts/$f.dtsi compiles into a board ($n SPE node(s))"
	else
		tap_fail "dts/$f.dtsi compiles into a board" "$(cat "$tmp/$f.err")"
	fi
done

# Binding schema: valid YAML with the compatible, required properties and
# an example using that compatible.
tap_check "DT binding schema parses and requires compatible + interrupts" python3 - \
	"$top/Documentation/devicetree/bindings/perf/arm,statistical-profiling-extension-v1.yaml" <<'EOT'
import sys, yaml
d = yaml.safe_load(open(sys.argv[1]))
assert d["properties"]["compatible"]["const"] == "arm,statistical-profiling-extension-v1"
assert set(d["required"]) == {"compatible", "interrupts"}
assert d["properties"]["interrupts"]["maxItems"] == 1
assert any("arm,statistical-profiling-extension-v1" in e for e in d["examples"])
EOT

# reStructuredText documents parse without warnings.  Plain docutils does
# not know Sphinx's toctree: a stand-in takes the index's entries as they
# are, so the index is checked like any page (its entries just below).
docs=$(cd "$top/Documentation" && find . -name '*.rst' | sed 's|^\./||' | sort)
for doc in $docs; do
	tap_check "Documentation/$doc is valid reStructuredText" python3 - "$top/Documentation/$doc" <<'EOT'
import sys, docutils.core
from docutils.parsers.rst import Directive, directives
class Toctree(Directive):
    has_content = True
    option_spec = {"maxdepth": directives.positive_int}
    def run(self):
        return []
directives.register_directive("toctree", Toctree)
docutils.core.publish_doctree(open(sys.argv[1]).read(), source_path=sys.argv[1],
                              settings_overrides={"halt_level": 2, "report_level": 2})
EOT
done

# The index's toctrees name every page, each once, and only pages that
# exist; there is no Markdown or plain-text page left beside the
# reStructuredText (the YAML schemas replace the old binding texts).
entries=$(sed -n 's/^   \([a-z][a-z-]*\/[a-z0-9-]*\)$/\1.rst/p' "$top/Documentation/index.rst" | sort)
pages=$(grep -vx 'index.rst' <<<"$docs")
md=$(cd "$top/Documentation" && find . -name '*.md' -o -name '*.txt')
if [ -n "$entries" ] && [ "$entries" = "$pages" ] && [ -z "$md" ]; then
	tap_ok "Documentation/index.rst lists every page ($(wc -l <<<"$pages")), no Markdown or .txt left"
else
	tap_fail "Documentation/index.rst lists every page, no Markdown or .txt left" \
		"index: $(echo $entries)" "pages: $(echo $pages)" "left: $md"
fi

# Citations name public documents (Documentation/dev-tools/references.rst), never
# notes or file names a reader cannot obtain.  The pattern is split so that
# this file does not match itself.
hits=$(grep -rnIiE --exclude-dir=.git --exclude-dir=build --exclude-dir=.cache \
	-e 'seed[ _]*0[0-9][0-9]' -e 'spec[-_]notes' "$top" | sed "s|^$top/||")
if [ -z "$hits" ] && grep -q 'DDI 0586A' "$top/Documentation/dev-tools/references.rst" &&
   grep -q 'DDI 0487' "$top/Documentation/dev-tools/references.rst"; then
	tap_ok "every citation names a public document (references.rst lists them)"
else
	tap_fail "every citation names a public document (references.rst lists them)" "$hits"
fi

# Every format attribute of the driver's table is documented.
missing=''
while read -r name; do
	grep -q "\`\`$name\`\`" "$guide" || missing+=" $name"
done < <(sed -n 's/^SPE_FMT(\([a-z_]*\),.*/\1/p' "$top/include/spe/format_table.h")
if [ -z "$missing" ] && [ "$(grep -c '^SPE_FMT(' "$top/include/spe/format_table.h")" -ge 19 ]; then
	tap_ok "user guide documents every format attribute of spe/format_table.h"
else
	tap_fail "user guide documents every format attribute of spe/format_table.h" "missing:$missing"
fi

# Every caps/ file the driver creates is documented.
missing=''
for c in $(sed -n 's/^static DEVICE_ATTR_RO(\([a-z_]*\));/\1/p' "$top/drivers/perf/spe_sysfs.c"); do
	[ "$c" = cpumask ] && continue
	grep -q "\`\`$c\`\`" "$guide" || missing+=" $c"
done
if [ -z "$missing" ]; then
	tap_ok "user guide documents every caps/ file of spe_sysfs.c"
else
	tap_fail "user guide documents every caps/ file of spe_sysfs.c" "missing:$missing"
fi

# The troubleshooting messages are the driver's own words.
for msg in "is an SPI, but PMBIRQ must be a PPI" \
	"profiling buffer inaccessible: the kernel is unmapped at EL0 (KPTI)" \
	"is already bound to driver" \
	"no SPE device described by firmware (device tree or ACPI); nothing to do" \
	"profiling buffer owned by a higher exception level (PMBIDR_EL1.P = 1)" \
	"(ID_AA64DFR0_EL1.PMSVer = 0); no PMU registered" \
	"profiling stopped: " "differs from CPU" \
	"is loaded, the other build of this driver"; do
	if grep -rqF -- "$msg" "$top/drivers/perf"/*.c && grep -qF -- "$msg" "$guide"; then
		tap_ok "message in driver and user guide: $msg"
	else
		tap_fail "message in driver and user guide: $msg"
	fi
done
tap_done
