#!/usr/bin/env bash
# Every speed comparison of issue 10 in one run, printed as one table with the target beside
# each row (harness: bench/ab.py, medians of A/B pairs):
#   read-file --limit 2000 and --tail 100 of a 1 GiB file vs cksum (<= 1x), its peak RSS;
#   read-file of a 4 KiB file vs cat (<= 2x: start-up); the same with one no-op hook (<= +5 ms);
#   edit-file of one line in a 60 MB file (the in-memory edit limit is 64 MiB) vs sed -i (<= 1x, peak RSS <= 1.5x the file);
#   apply-patch of 1,000 hunks on a 100,000-line file vs GNU patch -p1 (<= 1x);
#   grep vs rg, glob and list-dir vs fd on a generated tree with ignore rules;
#   exec -- true (sandboxed, the default) vs a bare spawn (<= +3 ms), and sandboxed vs
#   exec.sandbox = "off" (the sandbox's own cost, spec 08: <= +3 ms), exec's peak RSS under
#   1 GiB of output (<= 16 MiB).
# agtool's writes fsync the file and its folder (durable); sed -i and patch do not.
#
#   bench/all.sh                  # 11 pairs per comparison (50 for the start-up rows)
#   PAIRS=5 BIG_MIB=256 bench/all.sh
#
# Installs its peers with apt-get when missing, builds the release binary, needs ~2.5 GiB of
# free space in $TMPDIR. Speed is never asserted in tests; this script only reports.
set -euo pipefail
cd "$(dirname "$0")/.."

need=()
command -v rg >/dev/null || need+=(ripgrep)
command -v fd >/dev/null || command -v fdfind >/dev/null || need+=(fd-find)
command -v patch >/dev/null || need+=(patch)
command -v python3 >/dev/null || need+=(python3)
command -v cksum >/dev/null || need+=(coreutils)
command -v sed >/dev/null || need+=(sed)
[[ -x /usr/bin/time ]] || need+=(time)
if ((${#need[@]})); then
    echo "== installing ${need[*]}" >&2
    apt-get install -y "${need[@]}" >/dev/null 2>&1 ||
        { apt-get update >/dev/null && apt-get install -y "${need[@]}" >/dev/null; }
fi

echo "== building agtool (release)" >&2
cargo build --release --locked --quiet
exec python3 bench/ab.py --agtool "${CARGO_TARGET_DIR:-target}/release/agtool" --pairs "${PAIRS:-11}" --big-mib "${BIG_MIB:-1024}"
