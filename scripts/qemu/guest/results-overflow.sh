# shellcheck shell=dash
# Guest script of suite 50-guest-boot's overflow check: results larger than
# the results disk the host gives (run-guest.sh --results-size 2): a 3 MiB
# file between two small ones.  run-guest.sh must refuse the cut tar.
echo first >"$RESULTS/first"
dd if=/dev/zero of="$RESULTS/big" bs=1M count=3 2>/dev/null
echo last >"$RESULTS/last"
