"""Timing client for bench/mcp.sh (standard library only).

  python3 bench/mcp_client.py mcp AGTOOL WORKSPACE N INFLIGHT
      one `agtool mcp`, N read_file calls, at most INFLIGHT unanswered at a time
  python3 bench/mcp_client.py cli AGTOOL WORKSPACE N
      N `agtool call read_file` processes, one after the other
  python3 bench/mcp_client.py http AGTOOL WORKSPACE N
      one `agtool mcp --http 127.0.0.1:0`, one session, N read_file calls one after the other
      on one kept-alive connection (compare with `mcp ... N 1`)

Prints the wall time in seconds (handshake and process start included for mcp).
"""

import json
import subprocess
import sys
import time

ARGS = {"path": "small.txt"}


def bench_mcp(agtool: str, workspace: str, n: int, inflight: int) -> float:
    start = time.perf_counter()
    p = subprocess.Popen([agtool, "mcp"], cwd=workspace, stdin=subprocess.PIPE,
                         stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)

    def send(msg: dict) -> None:
        p.stdin.write((json.dumps(msg) + "\n").encode())

    send({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
        "protocolVersion": "2025-11-25", "capabilities": {},
        "clientInfo": {"name": "bench", "version": "1"}}})
    p.stdin.flush()
    json.loads(p.stdout.readline())
    send({"jsonrpc": "2.0", "method": "notifications/initialized"})
    sent = answered = 0
    while answered < n:
        while sent < n and sent - answered < inflight:
            sent += 1
            send({"jsonrpc": "2.0", "id": sent, "method": "tools/call",
                  "params": {"name": "read_file", "arguments": ARGS}})
        p.stdin.flush()
        reply = json.loads(p.stdout.readline())
        result = reply.get("result") or {}
        if result.get("isError") is not False:
            sys.exit(f"unexpected reply: {reply}")
        answered += 1
    p.stdin.close()
    p.wait()
    return time.perf_counter() - start


def bench_cli(agtool: str, workspace: str, n: int) -> float:
    data = json.dumps(ARGS).encode()
    start = time.perf_counter()
    for _ in range(n):
        r = subprocess.run([agtool, "call", "read_file"], cwd=workspace, input=data,
                           stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        if r.returncode != 0:
            sys.exit(f"agtool call failed: {r.stdout!r}")
    return time.perf_counter() - start


def bench_http(agtool: str, workspace: str, n: int) -> float:
    import http.client
    start = time.perf_counter()
    p = subprocess.Popen([agtool, "mcp", "--http", "127.0.0.1:0"], cwd=workspace,
                         stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                         stderr=subprocess.PIPE)
    line = p.stderr.readline().decode()
    host_port = line.strip().split("http://", 1)[1].split("/", 1)[0]
    host, port = host_port.rsplit(":", 1)
    conn = http.client.HTTPConnection(host, int(port))
    headers = {"content-type": "application/json",
               "accept": "application/json, text/event-stream"}

    def post(msg: dict):
        conn.request("POST", "/mcp", json.dumps(msg), headers)
        r = conn.getresponse()
        body = r.read().decode()
        for data in body.splitlines():
            if data.startswith("data:") and data[5:].strip().startswith("{"):
                return r, json.loads(data[5:])
        return r, None

    r, _ = post({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
        "protocolVersion": "2025-11-25", "capabilities": {},
        "clientInfo": {"name": "bench", "version": "1"}}})
    headers["mcp-session-id"] = r.getheader("mcp-session-id")
    headers["mcp-protocol-version"] = "2025-11-25"
    post({"jsonrpc": "2.0", "method": "notifications/initialized"})
    for i in range(1, n + 1):
        _, reply = post({"jsonrpc": "2.0", "id": i, "method": "tools/call",
                         "params": {"name": "read_file", "arguments": ARGS}})
        result = (reply or {}).get("result") or {}
        if result.get("isError") is not False:
            sys.exit(f"unexpected reply: {reply}")
    conn.close()
    p.terminate()
    p.wait()
    return time.perf_counter() - start


if __name__ == "__main__":
    mode, agtool, workspace, n = sys.argv[1:5]
    if mode == "mcp":
        seconds = bench_mcp(agtool, workspace, int(n), int(sys.argv[5]))
    elif mode == "http":
        seconds = bench_http(agtool, workspace, int(n))
    else:
        seconds = bench_cli(agtool, workspace, int(n))
    print(f"{seconds:.3f}")
