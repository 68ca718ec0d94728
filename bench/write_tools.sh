#!/usr/bin/env bash
# Write-tool benchmarks (issue 3), release build, whole processes:
#   1. edit-file of one line in a 100 MB file vs `cp` of that file (target <= 3x) and peak RSS
#      (target <= 4x the file size), with `cp` + `sync` of the file shown too: agtool's atomic
#      write fsyncs the file and its folder, which plain `cp` does not;
#   2. write-file of a small new file vs `cp` of a small file (target <= 5x).
# Usage: bench/write_tools.sh [SIZE_MB]   (default 100). Needs hyperfine and GNU time; installs
# them with apt-get when missing. Builds with `cargo build --release` first (minutes when cold).
set -euo pipefail
cd "$(dirname "$0")/.."
size_mb="${1:-100}"

need() { command -v "$1" >/dev/null 2>&1; }
if ! need hyperfine || [[ ! -x /usr/bin/time ]]; then
    apt-get update -qq && apt-get install -y -qq hyperfine time >/dev/null
fi

cargo build --release --quiet
bin="$PWD/target/release/agtool"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
ws="$work/ws"
mkdir -p "$ws/.git"
cd "$ws"

echo "== generating a ${size_mb} MB file"
awk -v limit=$((size_mb * 1024 * 1024)) 'BEGIN {
    n = 0; total = 0
    while (total < limit) {
        line = sprintf("line %09d: the quick brown fox jumps over the lazy dog, again and again", n)
        print line; total += length(line) + 1; n++
    }
}' > "$work/orig.txt"
bytes=$(stat -c %s "$work/orig.txt")
lines=$(wc -l < "$work/orig.txt")
mid=$(printf 'line %09d:' $((lines / 2)))
echo "   $bytes bytes, $lines lines; editing the line starting '$mid'"

# Every edit run starts from the original file, freshly read (prepare is not timed).
prepare="cp $work/orig.txt big.txt && $bin read-file big.txt --limit 1 >/dev/null"
edit="$bin edit-file big.txt --old '$mid' --new '$mid EDITED' >/dev/null"

echo "== 1. edit-file of one line vs cp"
hyperfine --style basic --warmup 1 --runs 10 --export-json "$work/edit.json" \
    --prepare "rm -f copy.txt; sync" "cp $work/orig.txt copy.txt" \
    --prepare "rm -f copy.txt; sync" "cp $work/orig.txt copy.txt && sync copy.txt" \
    --prepare "$prepare; sync" "$edit"

eval "$prepare"
/usr/bin/time -v sh -c "$edit" 2> "$work/time.txt"
rss_kb=$(awk -F: '/Maximum resident set size/ {gsub(/ /, "", $2); print $2}' "$work/time.txt")
grep -q "EDITED" big.txt || { echo "the edit did not land"; exit 1; }

echo "== 2. write-file of a small new file vs cp"
printf 'small file\nwith three\nlines\n' > "$work/small.txt"
# No shell (-N): at this size a shell's own start-up would be a good part of the time.
hyperfine -N --style basic --warmup 3 --runs 50 --export-json "$work/small.json" \
    --prepare "rm -f small-copy.txt" "cp $work/small.txt small-copy.txt" \
    --prepare "rm -f small-new.txt" "$bin write-file small-new.txt --content 'small file'"

python3 - "$work/edit.json" "$work/small.json" "$bytes" "$rss_kb" <<'EOF'
import json, sys
edit = json.load(open(sys.argv[1]))["results"]
small = json.load(open(sys.argv[2]))["results"]
size, rss = int(sys.argv[3]), int(sys.argv[4]) * 1024
cp, cp_sync, ed = (r["median"] for r in edit)
s_cp, s_write = (r["median"] for r in small)
print()
print("== summary (medians)")
print(f"edit-file 1 line in {size / 1e6:.0f} MB: {ed * 1000:.0f} ms; cp {cp * 1000:.0f} ms -> {ed / cp:.2f}x (target <= 3x); "
      f"cp+sync {cp_sync * 1000:.0f} ms -> {ed / cp_sync:.2f}x")
print(f"edit-file peak RSS: {rss / 1e6:.0f} MB = {rss / size:.2f}x the file (target <= 4x)")
print(f"write-file small new file: {s_write * 1000:.1f} ms; cp {s_cp * 1000:.1f} ms -> {s_write / s_cp:.2f}x (target <= 5x)")
EOF
