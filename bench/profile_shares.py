"""Shares of perf samples by part of a short agtool call (see bench/profile.sh).

Reads `perf script -F comm,ip,sym` output with call chains; prints, for each part, the share of
the agtool process's samples whose chain holds one of the part's frames. Shares overlap.
"""
import sys

PARTS = [
    ("dynamic loader", ["_dl_start", "_dl_relocate_object", "dl_main"]),
    ("state store (SQLite)", ["StateStore", "sqlite3"]),
    ("global gitignore lookup", ["git_global", "build_global", "gitconfig_excludes_path"]),
    ("clap command for the tool", ["command_for"]),
    ("argument schema", ["cached_schema"]),
    ("Rust runtime start-up", ["std::rt::init", "pthread_getattr_np"]),
    ("watchdog thread", ["clone3", "thread_start"]),
    ("the listing", ["search::listing::listing"]),
    ("the read", ["read_file::read_one"]),
    ("page faults (any part)", ["exc_page_fault"]),
]

def main(path):
    chains = [c for c in open(path, errors="replace").read().split("\n\n")
              if c.strip().startswith("agtool")]
    if not chains:
        sys.exit("no agtool samples")
    for name, frames in PARTS:
        n = sum(1 for c in chains if any(f in c for f in frames))
        print(f"{100 * n / len(chains):5.1f}%  {name}")
    print(f"({len(chains)} samples)")

main(sys.argv[1])
