#!/usr/bin/env bash
# Where agtool's start-up goes (issue 18, §7 start-up row): the relative relocations the
# dynamic loader applies at every start and the size of `.data.rel.ro` they land in (readelf),
# then CPU time and page faults (perf stat) of `cat`, of `agtool read-file --help` (no work),
# of `agtool list-dir` on a one-file folder (no state store) and of `agtool read-file` of a
# 4 KiB file.
#
#   bench/startup.sh                       # builds the release binary
#   AGTOOL=/path/to/agtool bench/startup.sh  # another build (say, a non-PIE one to compare)
#
# Environment: AGTOOL (binary; default: target/release/agtool, built), RUNS (perf stat
# repeats, default 40). Needs readelf (binutils) and perf (linux-perf). Only reports.
set -euo pipefail
cd "$(dirname "$0")/.."

RUNS=${RUNS:-40}
for tool in readelf perf; do
    command -v "$tool" >/dev/null || { echo "bench/startup.sh needs $tool" >&2; exit 2; }
done
if [[ -z "${AGTOOL:-}" ]]; then
    cargo build --release --locked --quiet
    AGTOOL="${CARGO_TARGET_DIR:-target}/release/agtool"
fi
AGTOOL=$(realpath "$AGTOOL")

relocs=$(readelf -r -W "$AGTOOL" | grep -c R_X86_64_RELATIVE || true)
relro_hex=$(readelf -S -W "$AGTOOL" | sed 's/^ *\[ *[0-9]*\]//' | awk '$1 == ".data.rel.ro" { print $5 }')
relro=$((16#${relro_hex:-0}))
echo "binary: $AGTOOL ($(stat -c %s "$AGTOOL") bytes)"
echo "relative relocations: $relocs; .data.rel.ro: $relro bytes"

source bench/startup_ws.sh "$AGTOOL"

printf '\n| command | CPU ms | page faults |\n| --- | --- | --- |\n'
measure() {
    local label=$1
    shift
    local out clock faults
    out=$(perf stat -r "$RUNS" -x, -e task-clock,page-faults "$@" 2>&1 >/dev/null)
    clock=$(awk -F, '$3 ~ /task-clock/ { printf "%.2f", $1 }' <<<"$out")
    faults=$(awk -F, '$3 ~ /page-faults/ { print $1 }' <<<"$out")
    echo "| $label | $clock | $faults |"
}
measure "cat (4 KiB)" cat f4k.txt
measure "agtool read-file --help" "$AGTOOL" read-file --help
measure "agtool list-dir (one file)" "$AGTOOL" list-dir one
measure "agtool read-file (4 KiB)" "$AGTOOL" read-file f4k.txt
