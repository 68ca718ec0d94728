"""Drives `agtool mcp --http` with the Python `mcp` package's Streamable HTTP client.

Run by tests/mcp_http.rs:  python http_client.py SCENARIO URL TOKEN [MARKER]
(TOKEN is "-" for none). The server is started by the Rust test on a loopback port of its
workspace. Each scenario asserts what it checks, prints `ok SCENARIO` and exits 0; a failed
check raises (non-zero exit, traceback on stderr).
"""

import os
import sys
import time

import anyio
from mcp import Client
from mcp.client.streamable_http import streamable_http_client
from mcp.shared._httpx_utils import create_mcp_http_client


def connect(url: str, token: str, mode: str = "auto") -> Client:
    headers = {} if token == "-" else {"Authorization": f"Bearer {token}"}
    transport = streamable_http_client(url, http_client=create_mcp_http_client(headers=headers))
    return Client(transport, mode=mode)


def text_of(result) -> str:
    assert len(result.content) == 1, result
    return result.content[0].text


def processes_with(marker: str) -> list[int]:
    """Live (non-zombie) processes whose command line holds `marker`."""
    found = []
    for pid in os.listdir("/proc"):
        if not pid.isdigit() or int(pid) == os.getpid():
            continue
        try:
            with open(f"/proc/{pid}/cmdline", "rb") as f:
                cmd = f.read().replace(b"\0", b" ").decode(errors="replace")
            with open(f"/proc/{pid}/stat") as f:
                state = f.read().rsplit(")", 1)[1].split()[0]
        except OSError:
            continue
        if marker in cmd and state != "Z":
            found.append(int(pid))
    return found


async def wait_until(check, seconds: float = 20.0) -> None:
    end = time.monotonic() + seconds
    while not check():
        assert time.monotonic() < end, "timed out waiting"
        await anyio.sleep(0.02)


async def basics(url: str, token: str) -> None:
    """Connect (both lifecycles' clients), list tools, call read_file, a refusal, bad arguments."""
    for mode in ("auto", "legacy"):
        async with connect(url, token, mode) as client:
            assert client.protocol_version in ("2025-06-18", "2025-11-25"), client.protocol_version
            tools = (await client.list_tools()).tools
            names = [t.name for t in tools]
            assert names[:4] == ["read_file", "list_dir", "glob", "grep"], names
            result = await client.call_tool("read_file", {"path": "hello.txt"})
            assert result.is_error is False, result
            text = text_of(result)
            assert text.startswith("[hello.txt#") and "L1: hello from agtool" in text, text
            refused = await client.call_tool("read_file", {"path": "missing.txt"})
            assert refused.is_error is True and text_of(refused).startswith("Error: "), refused
            bad = await client.call_tool("read_file", {"path": 42})
            assert bad.is_error is True and "/path" in text_of(bad), bad
    print("ok basics")


async def cancel(url: str, token: str, marker: str) -> None:
    """An exec cancelled mid-way: its process tree is killed, the session goes on."""
    async with connect(url, token) as client:
        outcome = {}

        async def slow_call() -> None:
            try:
                outcome["result"] = await client.call_tool(
                    "exec",
                    {"command": ["sh", "-c", f"sleep {marker} & sleep {marker}; echo done"],
                     "timeout_ms": 60000},
                )
            except anyio.get_cancelled_exc_class():
                outcome["cancelled"] = True
                raise

        async with anyio.create_task_group() as tg:
            tg.start_soon(slow_call)
            await wait_until(lambda: len(processes_with(marker)) >= 2)
            tg.cancel_scope.cancel()
        assert outcome == {"cancelled": True}, outcome
        await wait_until(lambda: not processes_with(marker), 5.0)
        after = await client.call_tool("list_dir", {})
        assert after.is_error is False, after
    print("ok cancel")


async def agents(url: str, token: str) -> None:
    """Two sessions are two agents: what one read, the other may not edit unread."""
    async with connect(url, token) as first, connect(url, token) as second:
        read = await first.call_tool("read_file", {"path": "hello.txt"})
        assert read.is_error is False, read
        other = await second.call_tool(
            "edit_file", {"path": "hello.txt", "old": "hello", "new": "bye"})
        assert other.is_error is True, other
        assert "read" in text_of(other).lower(), text_of(other)
        own = await first.call_tool(
            "edit_file", {"path": "hello.txt", "old": "hello", "new": "hi"})
        assert own.is_error is False, own
    print("ok agents")


async def progress(url: str, token: str) -> None:
    """A call with a progress token hears from the server while it runs."""
    async with connect(url, token) as client:
        heard = []

        async def on_progress(progress, total, message) -> None:
            heard.append((progress, message))

        result = await client.call_tool(
            "exec", {"command": ["sleep", "2.6"]}, progress_callback=on_progress)
        assert result.is_error is False, result
        assert len(heard) >= 2, heard
        assert heard[0][1].startswith("exec running for"), heard
    print("ok progress")


SCENARIOS = {"basics": basics, "cancel": cancel, "agents": agents, "progress": progress}

if __name__ == "__main__":
    name, url, token, *rest = sys.argv[1:]
    anyio.run(SCENARIOS[name], url, token, *rest)
