#!/usr/bin/env bash
# Content-tag throughput (spec 01, "Content tag"): the raw FNV-1a 32 speed (block path vs the
# plain byte loop), then read-file on a big file, which tags the whole file, against `cksum` (the
# issue's target: at most 2x) and `cat` (the cost of just reading it).
#
#   bench/tag.sh                 # 1 GiB file, 10 runs each
#   BIG_MIB=256 RUNS=5 bench/tag.sh
#
# Environment: BIG_MIB (size of the big file in MiB, default 1024), RUNS (hyperfine runs per
# command, default 10), SKIP_RAW=1 (skip the raw-hash measurement, which builds the release test
# binary). Speed is never asserted in tests; this script only reports.
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$(pwd)

BIG_MIB=${BIG_MIB:-1024}
RUNS=${RUNS:-10}

say() { printf '\n== %s\n' "$*" >&2; }

command -v hyperfine >/dev/null || { echo "missing hyperfine (apt-get install -y hyperfine)" >&2; exit 1; }

say "building agtool (release)"
cargo build --release --locked --quiet
AGTOOL=$repo/target/release/agtool

raw=""
if [[ ${SKIP_RAW:-0} != 1 ]]; then
    say "raw hash throughput (release unit test, 256 MB of random bytes)"
    raw=$(cargo test --release --locked --quiet --lib text::tag::tests::throughput -- \
        --ignored --nocapture 2>/dev/null | grep '^fnv1a32' | tail -1)
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/ws"
BIG=$work/ws/big.txt
say "writing a ${BIG_MIB} MiB text file"
# Same content as bench/read_tools.sh. `yes` dies of SIGPIPE when head has enough: not a failure.
(set +o pipefail; yes 'the quick brown fox jumps over the lazy dog 0123456789 ABCDEFGHIJKLMNOP' |
    head -c $((BIG_MIB * 1024 * 1024)) >"$BIG")

say "read-file vs cksum vs cat"
(cd "$work/ws" && AGTOOL_ROOT=$work/ws hyperfine -N --warmup 2 --runs "$RUNS" \
    --export-json "$work/read.json" \
    "$AGTOOL read-file $BIG --limit 2000" "cksum $BIG" "cat $BIG" >&2)

echo
echo "machine: $(nproc) cores, $(uname -sr), load average $(cut -d' ' -f1-3 /proc/loadavg)"
[[ -n $raw ]] && echo "$raw"
python3 - "$work/read.json" "$BIG_MIB" <<'EOF2'
import json, sys
r = json.load(open(sys.argv[1]))["results"]
mib = int(sys.argv[2])
names = ["agtool read-file --limit 2000", "cksum", "cat"]
for name, x in zip(names, r):
    cpu = x["user"] + x["system"]
    print(f"{name:30} median {x['median']*1000:8.1f} ms  {mib*1.048576/x['median']:7.0f} MB/s"
          f"  cpu {cpu*1000:7.1f} ms")
ours, cksum, cat = (x["median"] for x in r)
print(f"read-file / cksum = {ours/cksum:.2f} (target <= 2)   read-file / cat = {ours/cat:.2f}")
EOF2
