#!/usr/bin/env bash
# The official MCP conformance suite (@modelcontextprotocol/conformance, server scenarios)
# against `agtool mcp --http` on a loopback port of a temp workspace.
#
#   .ci/conformance.sh CONFORMANCE_DIR AGTOOL [all]
#
# CONFORMANCE_DIR holds node_modules with `node` (22+) and the suite (.ci/run installs them).
# The scenarios that must pass are REQUIRED; with `all`, every server scenario is run too and
# its outcome printed (the others need the suite's own tools, resources or prompts: README).
set -euo pipefail
conf=$(cd "$1" && pwd)
agtool=$(cd "$(dirname "$2")" && pwd)/$(basename "$2")
REQUIRED=(server-initialize ping tools-list dns-rebinding-protection)
node="$conf/node_modules/.bin/node"
suite="$conf/node_modules/.bin/conformance"
work=$(mktemp -d)
mkdir -p "$work/ws/.git" "$work/home"
echo "hello" >"$work/ws/hello.txt"
(cd "$work/ws" && HOME="$work/home" XDG_CONFIG_HOME="$work/home/.config" \
    exec "$agtool" --groups all mcp --http 127.0.0.1:0 2>"$work/server.log") &
server=$!
# `|| true`: the server ends by the signal (143), and errexit holds inside the trap too.
trap 'kill $server 2>/dev/null; wait $server 2>/dev/null || true; rm -rf "$work"' EXIT
for _ in $(seq 100); do
    grep -q 'listening on' "$work/server.log" 2>/dev/null && break
    sleep 0.1
done
url=$(sed -n 's/^agtool mcp: listening on //p' "$work/server.log" | head -1)
[ -n "$url" ] || { cat "$work/server.log"; echo "the server did not start"; exit 1; }
failed=()
for s in "${REQUIRED[@]}"; do
    if "$node" "$suite" server --url "$url" --scenario "$s" >"$work/$s.out" 2>&1; then
        echo "conformance $s: pass"
    else
        echo "conformance $s: FAIL"
        cat "$work/$s.out"
        failed+=("$s")
    fi
done
if [ "${3:-}" = all ]; then
    "$node" "$suite" server --url "$url" --suite all 2>&1 | tail -60 || true
fi
[ ${#failed[@]} -eq 0 ] || { echo "conformance failures: ${failed[*]}"; exit 1; }
