#!/usr/bin/env bash
# The sandbox's name scan (spec 08, src/sandbox/mounts.rs SCAN_BUDGET): what each command pays
# per 1,000 entries in the write roots. Times `agtool exec -- true` (median of RUNS) in an empty
# workspace and in one holding N files (100 folders of N/100 files, as a node_modules would),
# and prints the difference per 1,000 entries.
# usage: bench/sandbox_scan.sh [path/to/agtool] [N=100000] [RUNS=11]
set -euo pipefail
AGTOOL=${1:-target/release/agtool}
AGTOOL=$(realpath "$AGTOOL")
N=${2:-100000}
RUNS=${3:-11}
work=$(mktemp -d /var/tmp/agtool-scan-bench.XXXXXX)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/empty/.git" "$work/full/.git"
python3 - "$work/full" "$N" <<'PY'
import os, sys
root, n = sys.argv[1], int(sys.argv[2])
per = max(1, n // 100)
for d in range(100):
    p = os.path.join(root, "node_modules", f"p{d}")
    os.makedirs(p)
    for f in range(per):
        open(os.path.join(p, f"f{f}.js"), "w").close()
PY
# Median wall time in seconds of RUNS calls from folder $1 (perf_counter: /usr/bin/time has
# 10 ms steps).
time_in() {
  ( cd "$1" && AGTOOL_SANDBOX_SCAN_BUDGET=$((N * 2)) python3 - "$AGTOOL" "$RUNS" <<'PY'
import statistics, subprocess, sys, time
agtool, runs = sys.argv[1], int(sys.argv[2])
took = []
for _ in range(runs):
    t = time.perf_counter()
    subprocess.run([agtool, "exec", "--", "true"], stdout=subprocess.DEVNULL, check=True)
    took.append(time.perf_counter() - t)
print(statistics.median(took))
PY
  )
}
empty=$(time_in "$work/empty")
full=$(time_in "$work/full")
awk -v e="$empty" -v f="$full" -v n="$N" 'BEGIN {
  printf "exec -- true: %.1f ms empty, %.1f ms with %d entries: %.3f ms per 1,000 entries\n",
    e * 1000, f * 1000, n, (f - e) * 1000 / (n / 1000) }'
