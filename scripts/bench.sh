#!/usr/bin/env bash
# Run every benchmark in scripts/bench.d/ (each prints its own table).
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
for b in "$top"/scripts/bench.d/*.sh; do
	[ -e "$b" ] || continue
	echo "== $(basename "$b" .sh)"
	bash "$b"
done
