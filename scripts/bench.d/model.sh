#!/usr/bin/env bash
# SPU model throughput in userspace: operations stepped per second at the
# profile's minimum interval, and records / bytes written per second with
# every operation sampled.  There is no reference tool to run beside it:
# the issue's targets are printed instead (>= 20 M ops/s, >= 200 MB/s).
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
make -s -C "$top/tools/spu-model" >/dev/null
echo "target: >= 20 M ops/s stepped, >= 200 MB/s of records written"
for p in v1-min n1 v2 full; do
	"$top/build/spu-model/spu-bench" "$p" "${SPU_BENCH_SECONDS:-1}"
done
