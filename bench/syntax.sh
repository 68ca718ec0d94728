#!/usr/bin/env bash
# Rough timing of the syntax gate on a generated 10,000-line Rust file.
# Usage: bench/syntax.sh [--release]   (default: the dev profile, whose dependencies, the
# tree-sitter C parsers included, are built at opt-level 1; --release builds everything
# optimised, which takes minutes the first time).
set -euo pipefail
cd "$(dirname "$0")/.."
profile=()
if [[ "${1:-}" == "--release" ]]; then
    profile=(--release)
fi
cargo run --quiet "${profile[@]}" --example syntax_bench
