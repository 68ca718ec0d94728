"""Drives `agtool mcp` with the Python `mcp` package's client, as an MCP host would.

Run by tests/mcp_client.rs:  python client.py SCENARIO AGTOOL WORKSPACE [MARKER]
Each scenario asserts what it checks, prints `ok SCENARIO` and exits 0; a failed check
raises (non-zero exit, traceback on stderr).
"""

import os
import sys
import time

import anyio
from mcp import Client
from mcp.client.stdio import StdioServerParameters


def server(agtool: str, workspace: str, groups: str) -> StdioServerParameters:
    home = os.path.join(workspace, "..", "home")
    return StdioServerParameters(
        command=agtool,
        args=["--groups", groups, "mcp"],
        cwd=workspace,
        env={
            "AGTOOL_ROOT": workspace,
            "HOME": home,
            "XDG_CONFIG_HOME": os.path.join(home, ".config"),
        },
    )


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


async def basics(agtool: str, workspace: str) -> None:
    """Connect (both lifecycles), list tools, call read_file, a refusal, two bad arguments."""
    for mode in ("auto", "legacy"):
        async with Client(server(agtool, workspace, "files"), mode=mode) as client:
            version = client.protocol_version
            if mode == "legacy":
                assert version in ("2025-06-18", "2025-11-25"), version
            else:
                assert version == "2026-07-28", f"server/discover was not used: {version}"
            info = client.server_info
            assert info is None or info.name == "agtool", info
            tools = (await client.list_tools()).tools
            names = [t.name for t in tools]
            assert names == ["read_file", "list_dir", "glob", "grep", "diagnostics"], names
            read = tools[0]
            assert read.annotations.read_only_hint is True, read.annotations
            # path or paths (spec 09): neither is required on its own.
            assert "path" in read.input_schema["properties"], read.input_schema
            assert "paths" in read.input_schema["properties"], read.input_schema

            result = await client.call_tool("read_file", {"path": "hello.txt"})
            assert result.is_error is False, result
            text = text_of(result)
            assert text.startswith("[hello.txt#"), text
            assert "L1: hello from agtool" in text, text

            refused = await client.call_tool("read_file", {"path": "missing.txt"})
            assert refused.is_error is True, refused
            assert text_of(refused).startswith("Error: "), refused

            bad = await client.call_tool("read_file", {"path": 42, "limit": "ten"})
            assert bad.is_error is True, bad
            message = text_of(bad)
            assert "/path" in message and "/limit" in message, message
        print(f"ok basics ({mode}: {version})")


async def cancel(agtool: str, workspace: str, marker: str) -> None:
    """An exec cancelled mid-way: its process tree is killed, the session goes on."""
    async with Client(server(agtool, workspace, "files,exec")) as client:
        outcome = {}

        async def slow_call() -> None:
            try:
                outcome["result"] = await client.call_tool(
                    "exec", {"command": ["sh", "-c", f"sleep {marker} & sleep {marker}; echo done"],
                             "timeout_ms": 60000}
                )
            except anyio.get_cancelled_exc_class():
                outcome["cancelled"] = True
                raise

        async with anyio.create_task_group() as tg:
            tg.start_soon(slow_call)
            await wait_until(lambda: len(processes_with(marker)) >= 2)
            tg.cancel_scope.cancel()
        assert outcome == {"cancelled": True}, outcome
        # The client sent notifications/cancelled; the server kills the tree.
        await wait_until(lambda: not processes_with(marker), 5.0)
        after = await client.call_tool("list_dir", {})
        assert after.is_error is False, after
    print("ok cancel")


async def concurrent(agtool: str, workspace: str, marker: str) -> None:
    """A slow exec never delays a read_file sent after it."""
    async with Client(server(agtool, workspace, "files,exec")) as client:
        done = []

        # About two seconds, with an argument no other process has.
        seconds = "2." + marker.split(".", 1)[1]

        async def slow() -> None:
            r = await client.call_tool("exec", {"command": ["sleep", seconds]})
            assert r.is_error is False and "Exit code: 0" in text_of(r), r
            done.append("exec")

        async def fast() -> None:
            await wait_until(lambda: processes_with(f"sleep {seconds}"))
            r = await client.call_tool("read_file", {"path": "hello.txt"})
            assert r.is_error is False, r
            done.append("read_file")

        started = time.monotonic()
        async with anyio.create_task_group() as tg:
            tg.start_soon(slow)
            tg.start_soon(fast)
        assert done == ["read_file", "exec"], done
        assert time.monotonic() - started < 15, "took too long"
    print("ok concurrent")


async def image(agtool: str, workspace: str, width: str, height: str) -> None:
    """read_file of an image: one text line, then an `image` content item (spec 09)."""
    import base64
    import struct

    async with Client(server(agtool, workspace, "files")) as client:
        result = await client.call_tool("read_file", {"path": "shot.png"})
        assert result.is_error is False, result
        assert len(result.content) == 2, result
        line, picture = result.content
        assert line.type == "text" and line.text.startswith("Image: shot.png (PNG, "), line
        assert picture.type == "image", picture
        assert picture.mime_type == "image/png", picture.mime_type
        data = base64.b64decode(picture.data)
        assert data[:8] == b"\x89PNG\r\n\x1a\n", data[:8]
        w, h = struct.unpack(">II", data[16:24])
        assert (w, h) == (int(width), int(height)), (w, h)
        assert f"sent as {w}x{h}" in line.text, line.text
        assert len(data) <= 5 * 1024 * 1024
        # A broken image is one `Error:` text item, marked as an error.
        result = await client.call_tool("read_file", {"path": "broken.png"})
        assert result.is_error is True, result
        assert text_of(result).startswith("Error: broken.png cannot be read as an image"), result
    print("ok image")


SCENARIOS = {"basics": basics, "cancel": cancel, "concurrent": concurrent, "image": image}

if __name__ == "__main__":
    name, agtool, workspace, *rest = sys.argv[1:]
    anyio.run(SCENARIOS[name], agtool, workspace, *rest)
