# shellcheck shell=dash
# Guest script of scripts/suites/53-guest-sim-selftests.sh: load
# arm_spe_sim.ko with profile $SPE_PROFILE (set by the suite above this
# line), run every selftest program $SELFTESTS/test_* (TAP in
# $RESULTS/selftests/<name>.tap, exit status in <name>.rc), then the checks
# only a script can do, as TAP in $RESULTS/selftests/guest.tap:
#   - the module cannot be removed while an event is open, and can after;
R=$RESULTS/selftests
mkdir -p "$R"
insmod "$MODULES/arm_spe_sim.ko" profile="$SPE_PROFILE" >"$R/insmod.log" 2>&1
echo $? >"$R/insmod.rc"

for t in "$SELFTESTS"/test_*; do
	[ -x "$t" ] || continue
	name=$(basename "$t")
	echo "selftest: $name"
	start=$(cut -d' ' -f1 /proc/uptime)
	timeout 90 "$t" >"$R/$name.tap" 2>&1
	echo $? >"$R/$name.rc"
	echo "$start $(cut -d' ' -f1 /proc/uptime)" >"$R/$name.time"
	cat "$R/$name.tap"
done

n=0
tap() {	# tap STATUS NAME [DETAIL FILE]
	n=$((n + 1))
	if [ "$1" = ok ]; then
		echo "ok $n - $2" >>"$R/guest.tap"
	else
		echo "not ok $n - $2" >>"$R/guest.tap"
		[ -z "$3" ] || sed 's/^/# /' "$3" | tail -n 30 >>"$R/guest.tap"
	fi
}
: >"$R/guest.tap"

# Module lifetime: an open event pins arm_spe_sim (the PMU's module ref).
if [ ! -x "$SELFTESTS/test_lifecycle" ]; then
	echo "ok 1 - module unload checks # SKIP test_lifecycle (holds the event) not built" >>"$R/guest.tap"
	n=1
else
"$SELFTESTS/test_lifecycle" --hold 4 >"$R/hold.log" 2>&1 &
hold=$!
sleep 1
if rmmod arm_spe_sim >"$R/rmmod-busy.log" 2>&1; then
	tap "not ok" "rmmod arm_spe_sim is refused while an event is open" "$R/rmmod-busy.log"
else
	tap ok "rmmod arm_spe_sim is refused while an event is open"
fi
wait $hold
echo "hold exit $?" >>"$R/hold.log"
if rmmod arm_spe_sim >"$R/rmmod.log" 2>&1 && [ ! -e /sys/bus/event_source/devices/arm_spe_0 ]; then
	tap ok "rmmod arm_spe_sim succeeds once the event is closed and arm_spe_0 goes"
else
	tap "not ok" "rmmod arm_spe_sim succeeds once the event is closed and arm_spe_0 goes" "$R/rmmod.log"
fi
if insmod "$MODULES/arm_spe_sim.ko" profile="$SPE_PROFILE" >"$R/reinsmod.log" 2>&1 &&
   [ -e /sys/bus/event_source/devices/arm_spe_0 ] && rmmod arm_spe_sim >>"$R/reinsmod.log" 2>&1; then
	tap ok "arm_spe_sim loads again after the unload and unloads"
else
	tap "not ok" "arm_spe_sim loads again after the unload and unloads" "$R/reinsmod.log"
fi
fi

# The kernel log of the whole run is checked on the host (guest-results.sh).
echo "1..$n" >>"$R/guest.tap"
cat "$R/guest.tap"
