#!/usr/bin/env bash
# `agtool mcp` against one process per call (issue 8, "Benchmark"): N read_file calls of a small
# file through one `agtool mcp` (a client keeping up to INFLIGHT calls unanswered) vs N
# `agtool call read_file` processes run one after the other. Reports both wall times (median
# of RUNS) and their ratio; the target is mcp/call <= 0.2. Then the HTTP row (issue 22): N
# read_file calls one after the other from one session of `agtool mcp --http` vs the same
# through stdio with one call in flight; the target is http/stdio <= 2. Release build.
#
#   bench/mcp.sh
#   N=2000 INFLIGHT=16 RUNS=5 bench/mcp.sh
#
# Speed is never asserted in tests; this script only reports.
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$(pwd)
N=${N:-1000}
INFLIGHT=${INFLIGHT:-8}
RUNS=${RUNS:-3}

cargo build --release --quiet
agtool="$repo/target/release/agtool"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/.git"
for i in $(seq 1 40); do echo "line $i of a small file: fn main() { println!(\"hello\"); }"; done >"$work/small.txt"

median() { sort -n | awk '{a[NR]=$1} END {print (NR % 2) ? a[(NR+1)/2] : (a[NR/2] + a[NR/2+1]) / 2}'; }

mcp_times=() cli_times=() seq_times=() http_times=()
for run in $(seq 1 "$RUNS"); do
    mcp_times+=("$(python3 bench/mcp_client.py mcp "$agtool" "$work" "$N" "$INFLIGHT")")
    cli_times+=("$(python3 bench/mcp_client.py cli "$agtool" "$work" "$N")")
    seq_times+=("$(python3 bench/mcp_client.py mcp "$agtool" "$work" "$N" 1)")
    http_times+=("$(python3 bench/mcp_client.py http "$agtool" "$work" "$N")")
    echo "run $run: mcp ${mcp_times[-1]} s, call ${cli_times[-1]} s, stdio 1 in flight ${seq_times[-1]} s, http ${http_times[-1]} s" >&2
done
seq=$(printf '%s\n' "${seq_times[@]}" | median)
http=$(printf '%s\n' "${http_times[@]}" | median)
mcp=$(printf '%s\n' "${mcp_times[@]}" | median)
cli=$(printf '%s\n' "${cli_times[@]}" | median)
echo "$N read_file calls of a $(wc -c <"$work/small.txt")-byte file (median of $RUNS runs, $(nproc) cores):"
printf '  one agtool mcp, %d in flight: %8.3f s  (%.2f ms a call)\n' "$INFLIGHT" "$mcp" "$(echo "$mcp * 1000 / $N" | bc -l)"
printf '  %d agtool call processes:      %8.3f s  (%.2f ms a call)\n' "$N" "$cli" "$(echo "$cli * 1000 / $N" | bc -l)"
printf '  ratio mcp/call: %.3f (target <= 0.2)\n' "$(echo "$mcp / $cli" | bc -l)"
printf '  stdio, 1 in flight:             %8.3f s  (%.2f ms a call)\n' "$seq" "$(echo "$seq * 1000 / $N" | bc -l)"
printf '  http (one session), 1 in flight: %7.3f s  (%.2f ms a call)\n' "$http" "$(echo "$http * 1000 / $N" | bc -l)"
printf '  ratio http/stdio: %.3f (target <= 2)\n' "$(echo "$http / $seq" | bc -l)"
