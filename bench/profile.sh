#!/usr/bin/env bash
# Where a short call's CPU goes (issue 18, §7 start-up row): builds a release binary with
# symbols and without LTO in its own target folder (the shipped one is stripped), records
# `perf record --call-graph dwarf` over RUNS runs each of `read-file` of a 4 KiB file and
# `list-dir` of a one-file folder, and prints for each the share of samples whose call chain
# passes through the loader, the state store, the global gitignore lookup, clap and the schema,
# the Rust runtime's start-up and the watchdog thread (bench/profile_shares.py).
#
#   bench/profile.sh            # RUNS=60; PROFILE_TARGET=target/profile
#
# Needs perf (linux-perf) with DWARF unwinding. Only reports; shares overlap (a chain can pass
# through several parts) and are of the samples in the agtool process.
set -euo pipefail
cd "$(dirname "$0")/.."
RUNS=${RUNS:-60}
TARGET=${PROFILE_TARGET:-target/profile}
command -v perf >/dev/null || { echo "bench/profile.sh needs perf" >&2; exit 2; }
CARGO_TARGET_DIR=$TARGET CARGO_PROFILE_RELEASE_STRIP=false \
    CARGO_PROFILE_RELEASE_DEBUG=line-tables-only CARGO_PROFILE_RELEASE_LTO=false \
    CARGO_PROFILE_RELEASE_CODEGEN_UNITS=16 cargo build --release --locked --quiet
BIN=$(realpath "$TARGET/release/agtool")
SHARES=$(realpath bench/profile_shares.py)

source bench/startup_ws.sh "$BIN"
for call in "read-file f4k.txt" "list-dir one"; do
    perf record -q -F 20000 --call-graph dwarf,32768 -o "$work/perf.data" -- \
        sh -c "for i in \$(seq $RUNS); do $BIN $call >/dev/null; done" >/dev/null 2>&1
    perf script -i "$work/perf.data" --comm agtool -F comm,ip,sym 2>/dev/null > "$work/chains.txt"
    echo "## agtool $call"
    python3 "$SHARES" "$work/chains.txt"
done
