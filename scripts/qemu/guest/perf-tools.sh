# Guest side of scripts/suites/56-guest-perf-tools.sh (busybox sh): the
# perf tools real users run on an SPE PMU (record with a period, snapshot
# mode, report --stats, script, perf mem), over arm_spe_sim.ko.  Every
# output goes to $RESULTS with its exit status; the host judges.
# shellcheck source=scripts/qemu/guest-lib.sh
. /guest/lib.sh
R=$RESULTS

insmod "$MODULES/arm_spe_sim.ko"
echo $? >"$R/insmod.rc"

# 1. An explicit sampling period (perf's -c sets attr.sample_period).
perf record -q -o "$R/period.data" -e arm_spe// -c 2048 -- \
	"$SPIN" 2 >/dev/null 2>"$R/period.log"
echo $? >"$R/period.rc"

# 2. Snapshot mode: the AUX buffer is overwritten in a ring and perf only
# copies it out on SIGUSR2 (twice here), system wide.  perf starts slowly
# under TCG and ignores SIGUSR2 until its events are enabled, so the
# signals wait for the workload to have started.  A snapshot writes only
# the CPUs with new data: the workload stays on CPU 1, so that its CPU has
# some at both signals (unpinned, it once moved from CPU 0 to CPU 1 in
# between, and each CPU had one snapshot).
rm -f /tmp/snap-started
perf record -S -a -o "$R/snap.data" -e arm_spe//u -- \
	sh -c "touch /tmp/snap-started; exec taskset -c 1 $SPIN 5" >/dev/null 2>"$R/snap.log" &
pid=$!
spe_wait_for /tmp/snap-started
sleep 1
kill -USR2 $pid
echo $? >"$R/snap-sig1.rc"
sleep 2
kill -USR2 $pid
echo $? >"$R/snap-sig2.rc"
wait $pid
echo $? >"$R/snap.rc"

# 3. perf report --stats: the AUX and AUXTRACE record counts.
perf report --stats -i "$R/period.data" >"$R/stats.txt" 2>"$R/stats.log"
echo $? >"$R/stats.rc"

# 4. perf script: the samples perf synthesises from the SPE records, every
# group (default) and one instruction sample per record (time and ip, for
# the host's cross-check).
perf script -i "$R/period.data" >"$R/script-default.txt" 2>"$R/script-default.log"
echo $? >"$R/script-default.rc"
perf script --ns --itrace=i1i -F time,ip -i "$R/period.data" \
	>"$R/script-i1i.txt" 2>"$R/script-i1i.log"
echo $? >"$R/script-i1i.rc"

# 5. perf mem: the events it knows here, then loads and stores.  perf
# 6.1 looks for the PMU at /sys/devices/arm_spe_0, where it is only when
# the PMU device has no parent (kernels before 6.8 cannot set one); where
# perf mem record cannot find it, the same event it would open, recorded
# with perf record, is what perf mem report reads.
realpath /sys/bus/event_source/devices/arm_spe_0 >"$R/pmu-path"
perf mem record -e list >"$R/mem-list.txt" 2>&1
perf mem record -o "$R/mem.data" -- "$SPIN" 2 >/dev/null 2>"$R/mem-record.log"
echo $? >"$R/mem-record.rc"
perf mem report --stdio -i "$R/mem.data" >"$R/mem-report.txt" 2>"$R/mem-report.log"
echo $? >"$R/mem-report.rc"
perf record -q -o "$R/memev.data" \
	-e arm_spe_0/ts_enable=1,pa_enable=1,load_filter=1,store_filter=1,min_latency=0/ \
	-- "$SPIN" 2 >/dev/null 2>"$R/memev-record.log"
echo $? >"$R/memev-record.rc"
perf mem report --stdio -i "$R/memev.data" >"$R/memev-report.txt" 2>"$R/memev-report.log"
echo $? >"$R/memev-report.rc"

rmmod arm_spe_sim
echo $? >"$R/rmmod.rc"
