# Sourced by the decoder suites and benchmark: build spe-decode once,
# quietly, and name the binaries.  $top must be set.
# shellcheck shell=bash
decoder_build() {
	local san=${1:-0} log
	log=$(make -C "$top/tools/spe-decode" -j2 SAN="$san" all tests 2>&1) || {
		echo "$log" | tail -20 | sed 's/^/# /'
		return 1
	}
}
spe_decode="$top/build/spe-decode/spe-decode"
spe_decode_san="$top/build/spe-decode-san/spe-decode"
vectors="$top/tools/spe-decode/tests/vectors"
