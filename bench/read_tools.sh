#!/usr/bin/env bash
# Benchmarks of the read tools against their peers (issue 2, "Benchmarks"): medians from
# hyperfine and their ratios, plus read-file's peak memory on a 1 GiB file.
#
#   bench/read_tools.sh                 # corpus: ~/.cargo/registry/src
#   CORPUS=/some/tree PATTERN=fn bench/read_tools.sh
#
# Environment: CORPUS (a source tree; generated when missing), PATTERN (grep pattern, default
# PathBuf), RUNS (hyperfine runs per command, default 20), BIG_MIB (size of the big file in
# MiB, default 1024), SKIP_INSTALL=1 (do not apt-get the peers).
# Speed is never asserted in tests; this script only reports.
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$(pwd)

PATTERN=${PATTERN:-PathBuf}
RUNS=${RUNS:-20}
BIG_MIB=${BIG_MIB:-1024}
CORPUS=${CORPUS:-$HOME/.cargo/registry/src}

say() { printf '\n== %s\n' "$*" >&2; }

# --- peers -------------------------------------------------------------------------------
if [[ ${SKIP_INSTALL:-0} != 1 ]]; then
    missing=()
    command -v rg >/dev/null || missing+=(ripgrep)
    command -v fd >/dev/null || command -v fdfind >/dev/null || missing+=(fd-find)
    command -v hyperfine >/dev/null || missing+=(hyperfine)
    [[ -x /usr/bin/time ]] || missing+=(time)
    if ((${#missing[@]})); then
        say "installing ${missing[*]}"
        apt-get install -y "${missing[@]}" >/dev/null 2>&1 ||
            { apt-get update >/dev/null && apt-get install -y "${missing[@]}" >/dev/null; }
    fi
fi
FD=$(command -v fd || command -v fdfind)
for tool in rg "$FD" hyperfine python3 cksum /usr/bin/time; do
    command -v "$tool" >/dev/null || { echo "missing $tool" >&2; exit 1; }
done

# --- agtool ------------------------------------------------------------------------------
say "building agtool (release)"
cargo build --release --locked --quiet
AGTOOL=$repo/target/release/agtool

# --- corpus ------------------------------------------------------------------------------
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
if [[ ! -d $CORPUS ]] || [[ $(find "$CORPUS" -name '*.rs' | head -1000 | wc -l) -lt 1000 ]]; then
    say "no corpus at $CORPUS: generating one"
    CORPUS=$work/corpus
    python3 - "$CORPUS" <<'EOF'
import os, random, sys
root = sys.argv[1]
random.seed(7)
words = "fn let mut match impl struct enum trait use pub self PathBuf String Vec Option Result".split()
for d in range(300):
    for f in range(100):
        p = os.path.join(root, f"crate{d:03}", "src", f"m{f:03}.rs")
        os.makedirs(os.path.dirname(p), exist_ok=True)
        with open(p, "w") as out:
            for _ in range(random.randint(20, 400)):
                out.write(" ".join(random.choices(words, k=8)) + "\n")
EOF
fi
files=$(find "$CORPUS" -type f | wc -l)
rs_files=$(find "$CORPUS" -name '*.rs' | wc -l)
bytes=$(du -sb "$CORPUS" | cut -f1)

# Workspace for read-file: its own root, so the state database lives there.
mkdir -p "$work/ws"
BIG=$work/ws/big.txt
SMALL=$work/ws/small.txt
say "writing a ${BIG_MIB} MiB text file"
# `yes` dies of SIGPIPE when head has enough: not a failure.
(set +o pipefail; yes 'the quick brown fox jumps over the lazy dog 0123456789 ABCDEFGHIJKLMNOP' |
    head -c $((BIG_MIB * 1024 * 1024)) >"$BIG")
head -c 4096 "$repo/src/tools/grep.rs" >"$SMALL"

results=$work/results.tsv
: >"$results"

# bench NAME TARGET DIR AGTOOL_CMD PEER_CMD: hyperfine both, record medians and the ratio.
bench() {
    local name=$1 target=$2 dir=$3 ours=$4 peer=$5
    say "$name"
    (cd "$dir" && AGTOOL_ROOT=$dir hyperfine -N --warmup 3 --runs "$RUNS" \
        --export-json "$work/$name.json" "$ours" "$peer" >&2)
    python3 - "$work/$name.json" "$name" "$target" >>"$results" <<'EOF'
import json, sys
data = json.load(open(sys.argv[1]))["results"]
ours, peer = data[0]["median"], data[1]["median"]
cpu = [r["user"] + r["system"] for r in data]
print(f"{sys.argv[2]}\t{ours*1000:.1f}\t{peer*1000:.1f}\t{ours/peer:.2f}\t{sys.argv[3]}\t"
      f"{cpu[0]*1000:.1f}\t{cpu[1]*1000:.1f}\t{data[0]['command']}\t{data[1]['command']}")
EOF
}

bench grep-files 0.7 "$CORPUS" "$AGTOOL grep $PATTERN" "rg --files-with-matches --sortr=modified $PATTERN"
bench grep-content 1.2 "$CORPUS" "$AGTOOL grep $PATTERN --output content" "rg -n $PATTERN"
bench glob 1.2 "$CORPUS" "$AGTOOL glob **/*.rs" "$FD -e rs"
bench read-big 2 "$work/ws" "$AGTOOL read-file $BIG --limit 2000" "cksum $BIG"
bench read-small 5 "$work/ws" "$AGTOOL read-file $SMALL" "cat $SMALL"

say "peak memory of read-file on the big file"
rss_kib=$(cd "$work/ws" && AGTOOL_ROOT=$work/ws /usr/bin/time -v "$AGTOOL" read-file "$BIG" --limit 2000 2>&1 >/dev/null |
    awk -F: '/Maximum resident set size/ {gsub(/ /, "", $2); print $2}')

# --- report ------------------------------------------------------------------------------
echo
echo "machine: $(nproc) cores, $(uname -sr), load average $(cut -d' ' -f1-3 /proc/loadavg)"
echo "corpus: $CORPUS ($files files, $rs_files .rs, $((bytes / 1024 / 1024)) MiB); pattern: $PATTERN; big file: $BIG_MIB MiB"
echo
# Wall-clock medians are what the targets are about; CPU time (user + system, means) is shown
# too because it hardly moves when other work shares the machine.
printf '%-13s %10s %10s %7s %8s %4s  %9s %9s %7s\n' comparison "agtool ms" "peer ms" ratio target met \
    "agt cpu" "peer cpu" "cpu x"
while IFS=$'\t' read -r name ours peer ratio target cpu_ours cpu_peer cmd_ours cmd_peer; do
    met=$(python3 -c "print('yes' if $ratio <= $target else 'NO')")
    cpu_ratio=$(python3 -c "print(f'{$cpu_ours / $cpu_peer:.2f}')")
    printf '%-13s %10s %10s %7s %8s %4s  %9s %9s %7s   (vs %s)\n' "$name" "$ours" "$peer" "$ratio" \
        "<= $target" "$met" "$cpu_ours" "$cpu_peer" "$cpu_ratio" "${cmd_peer%% /*}"
done <"$results"
rss_mib=$(python3 -c "print(f'{$rss_kib/1024:.1f}')")
met=$(python3 -c "print('yes' if $rss_kib <= 16*1024 else 'NO')")
printf '%-13s %10s %10s %7s %8s %4s\n' "read-big RSS" "$rss_mib MiB" "" "" "<= 16" "$met"
