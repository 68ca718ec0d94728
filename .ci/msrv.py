"""The minimum Rust version (Cargo.toml `rust-version`) checked without another toolchain.

Only the current stable toolchain can be fetched here, so the check is in two parts:
clippy's `incompatible_msrv` lint (on by default, `-D warnings` in .ci/run) refuses uses of
std APIs newer than `rust-version` in our code, and this script refuses a dependency in
Cargo.lock whose own `rust-version` is newer than ours (`cargo metadata`, offline).

  python3 .ci/msrv.py
"""

import json
import subprocess
import sys


def version(v: str) -> tuple:
    return tuple(int(p) for p in v.split("."))


meta = json.loads(subprocess.run(
    ["cargo", "metadata", "--locked", "--format-version", "1"],
    check=True, capture_output=True, text=True).stdout)
ours = next(p for p in meta["packages"] if p["id"] in meta["workspace_members"])
msrv = version(ours["rust_version"])
used = {n["id"] for n in meta["resolve"]["nodes"]}
newer = [f'{p["name"]} {p["version"]} needs Rust {p["rust_version"]}'
         for p in meta["packages"]
         if p["id"] in used and p.get("rust_version") and version(p["rust_version"]) > msrv]
if newer:
    sys.exit(f"rust-version {ours['rust_version']} is too old for:\n  " + "\n  ".join(newer))
print(f"rust-version {ours['rust_version']}: no dependency needs a newer Rust")
