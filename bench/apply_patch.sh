#!/usr/bin/env bash
# Benchmark: agtool apply-patch against `git apply` of the equivalent unified diff.
#
#   bench/apply_patch.sh            # release build, then the three sizes below
#   RUNS=7 bench/apply_patch.sh     # more repetitions (the median is reported)
#
# Sizes: 1,000 hunks on a 100,000-line file (target: agtool <= 1x git apply), then 10x the
# hunks, then 10x the file, then both. Each hunk replaces one line with 3 context lines on
# each side. Every run starts from a fresh copy of the file; the copy is not timed. Both tools
# end with the same file, which is checked. agtool's time includes its fsyncs (atomic write);
# git apply does not fsync. git apply grows with lines x hunks, so on the million-line file it
# runs once, and not at all with 10,000 hunks there (it would take many minutes).
set -euo pipefail
cd "$(dirname "$0")/.."
RUNS=${RUNS:-5}
cargo build --release --quiet
AGTOOL=$PWD/target/release/agtool
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT

# gen LINES HUNKS DIR: writes DIR/orig.txt, DIR/patch.txt (agtool format), DIR/diff.patch
# (unified diff) and DIR/expected.txt.
gen() {
    python3 - "$1" "$2" "$3" <<'PY'
import sys
lines, hunks, out = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
text = [f"line {i:07d}: the quick brown fox jumps over the lazy dog {i * 7919 % 10007}" for i in range(lines)]
step = lines // hunks
targets = [k * step + step // 2 for k in range(hunks)]
new = list(text)
agent, unified = ["*** Begin Patch", "*** Update File: big.txt"], ["--- a/big.txt", "+++ b/big.txt"]
for t in targets:
    new[t] = text[t].replace("lazy dog", "sleepy cat")
    lo, hi = max(0, t - 3), min(lines, t + 4)
    agent.append("@@")
    unified.append(f"@@ -{lo + 1},{hi - lo} +{lo + 1},{hi - lo} @@")
    for i in range(lo, hi):
        if i == t:
            agent += ["-" + text[i], "+" + new[i]]
            unified += ["-" + text[i], "+" + new[i]]
        else:
            agent.append(" " + text[i])
            unified.append(" " + text[i])
agent.append("*** End Patch")
for name, body in [("orig.txt", text), ("expected.txt", new), ("patch.txt", agent), ("diff.patch", unified)]:
    with open(f"{out}/{name}", "w") as f:
        f.write("\n".join(body) + "\n")
PY
}

now_ns() { date +%s%N; }

# median_ms DIR RUNS CMD...: runs CMD in a fresh copy of DIR/orig.txt RUNS times, prints the
# median wall time in ms.
median_ms() {
    local dir=$1 runs=$2; shift 2
    local times=()
    for _ in $(seq "$runs"); do
        rm -rf "$dir/ws" && mkdir "$dir/ws" && cp "$dir/orig.txt" "$dir/ws/big.txt"
        local t0 t1
        t0=$(now_ns)
        (cd "$dir/ws" && "$@") >/dev/null
        t1=$(now_ns)
        cmp -s "$dir/ws/big.txt" "$dir/expected.txt" || { echo "wrong result from: $*" >&2; exit 1; }
        times+=($(( (t1 - t0) / 1000 )))
    done
    printf '%s\n' "${times[@]}" | sort -n | awk '{a[NR]=$1} END {printf "%.1f", a[int((NR+1)/2)]/1000}'
}

printf '%-28s %12s %12s %8s\n' "case" "agtool ms" "git ms" "ratio"
declare -A AG
for size in "100000 1000" "100000 10000" "1000000 1000" "1000000 10000"; do
    read -r lines hunks <<<"$size"
    dir="$WORK/$lines-$hunks"
    mkdir -p "$dir"
    gen "$lines" "$hunks" "$dir"
    ag=$(median_ms "$dir" "$RUNS" "$AGTOOL" --root . --no-freshness apply-patch --input ../patch.txt)
    AG[$lines-$hunks]=$ag
    git_runs=$RUNS
    [ "$lines" -ge 1000000 ] && git_runs=1
    if [ "$lines" -ge 1000000 ] && [ "$hunks" -ge 10000 ]; then
        git=-
        ratio=-
    else
        git=$(median_ms "$dir" "$git_runs" git apply ../diff.patch)
        ratio=$(awk -v a="$ag" -v g="$git" 'BEGIN {printf "%.2fx", a / g}')
    fi
    printf '%-28s %12s %12s %8s\n' "$lines lines, $hunks hunks" "$ag" "$git" "$ratio"
done
awk -v a="${AG[100000-1000]}" -v h="${AG[100000-10000]}" -v f="${AG[1000000-1000]}" -v b="${AG[1000000-10000]}" 'BEGIN {
    printf "agtool growth: 10x hunks %.1fx, 10x file %.1fx, both %.1fx (linear = 10x or less)\n", h / a, f / a, b / a
}'
