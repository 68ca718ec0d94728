#!/usr/bin/env python3
"""A/B pairs for bench/all.sh: every comparison of issue 10 in one run, one table.

Each comparison runs agtool (A) and its peer (B) as PAIRS pairs, alternating which goes first,
each run after its own untimed preparation. A run is timed from spawn to reap (posix_spawn,
wait4), which also gives its CPU time and peak RSS. The table shows the median of each side and
the median of the per-pair ratios (what the target is about), with CPU times beside, since on a
shared machine CPU time moves less than wall time.

Usage: bench/ab.py --agtool PATH [--pairs N] [--big-mib N] [--work DIR]
"""

import argparse
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

NULL = os.devnull


def which(name):
    path = shutil.which(name)
    if path is None:
        sys.exit(f"missing {name}")
    return path


def run(argv, cwd, env, stdout=NULL):
    """Runs argv once; returns (wall s, cpu s, peak RSS KiB, exit status). The RSS is only
    right through `peak_rss` (a child spawned from this Python process starts with its
    high-water mark)."""
    exe = argv[0] if "/" in argv[0] else which(argv[0])
    actions = [
        (os.POSIX_SPAWN_OPEN, 0, NULL, os.O_RDONLY, 0),
        (os.POSIX_SPAWN_OPEN, 1, stdout, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644),
        (os.POSIX_SPAWN_OPEN, 2, NULL, os.O_WRONLY, 0),
    ]
    old = os.getcwd()
    os.chdir(cwd)
    try:
        t0 = time.perf_counter_ns()
        pid = os.posix_spawn(exe, argv, env, file_actions=actions)
        _, status, ru = os.wait4(pid, 0)
        t1 = time.perf_counter_ns()
    finally:
        os.chdir(old)
    return (t1 - t0) / 1e9, ru.ru_utime + ru.ru_stime, ru.ru_maxrss, os.waitstatus_to_exitcode(status)


def peak_rss(argv, cwd, env):
    """Peak RSS in KiB of one run of argv, through GNU time (a small parent, so the child's
    high-water mark is its own)."""
    out = os.path.join(tempfile.gettempdir(), f"agtool-bench-rss-{os.getpid()}")
    result = run(["/usr/bin/time", "-f", "%M", "-o", out] + argv, cwd, env)
    if result[3] != 0:
        sys.exit(f"{' '.join(argv)} exited with {result[3]}")
    with open(out) as f:
        kib = int(f.read().split()[-1])
    os.remove(out)
    return kib


class Row:
    def __init__(self, name, target, kind):
        self.name, self.target, self.kind = name, target, kind
        self.a, self.b, self.ratios, self.rss = [], [], [], []

    def cells(self):
        a_wall = statistics.median(r[0] for r in self.a)
        a_cpu = statistics.median(r[1] for r in self.a)
        b_wall = statistics.median(r[0] for r in self.b) if self.b else None
        b_cpu = statistics.median(r[1] for r in self.b) if self.b else None
        rss = statistics.median(self.rss) if self.rss else None
        if self.kind == "ratio":
            value = statistics.median(self.ratios)
            shown, met = f"{value:.2f}x", value <= self.target
            target = f"<= {self.target:g}x"
        elif self.kind == "overhead_ms":
            value = statistics.median(self.ratios)
            shown, met = f"+{value:.2f} ms", value <= self.target
            target = f"<= +{self.target:g} ms"
        elif self.kind == "rss_mib":
            value = rss / 1024
            shown, met = f"{value:.1f} MiB", value <= self.target
            target = f"<= {self.target:g} MiB"
        else:  # rss_x: peak RSS as a multiple of a size (bytes) kept in self.size
            value = rss * 1024 / self.size
            shown, met = f"{value:.2f}x file", value <= self.target
            target = f"<= {self.target:g}x file"
        ms = lambda s: "" if s is None else f"{s * 1000:.1f}"
        return [self.name, ms(a_wall), ms(b_wall), shown, target, "yes" if met else "NO",
                ms(a_cpu), ms(b_cpu), "" if rss is None else f"{rss / 1024:.1f}", str(len(self.a))]


def pairs(row, n, a, b, cwd, env, prep_a=None, prep_b=None, check_a=None, check_b=None):
    """Runs n A/B pairs of argv lists a and b, alternating the order, after one untimed run
    of each (the binaries and their files in the page cache)."""
    for argv, prep in ((a, prep_a), (b, prep_b)):
        if prep:
            prep()
        run(argv, cwd, env)
    for i in range(n):
        order = [("a", a, prep_a, check_a), ("b", b, prep_b, check_b)]
        if i % 2:
            order.reverse()
        got = {}
        for side, argv, prep, check in order:
            if prep:
                prep()
            result = run(argv, cwd, env)
            if result[3] != 0:
                sys.exit(f"{row.name}: {' '.join(argv)} exited with {result[3]}")
            if check:
                check()
            got[side] = result
        row.a.append(got["a"])
        row.b.append(got["b"])
        if row.kind == "overhead_ms":
            row.ratios.append((got["a"][0] - got["b"][0]) * 1000)
        else:
            row.ratios.append(got["a"][0] / got["b"][0])


def singles(row, n, a, cwd, env, prep=None):
    """n runs of a for its peak RSS (through GNU time) and its time."""
    for _ in range(n):
        if prep:
            prep()
        row.rss.append(peak_rss(a, cwd, env))
        if prep:
            prep()
        result = run(a, cwd, env)
        if result[3] != 0:
            sys.exit(f"{row.name}: {' '.join(a)} exited with {result[3]}")
        row.a.append(result)


def write_lines(path, count, fmt):
    with open(path, "w") as f:
        f.writelines(fmt(i) + "\n" for i in range(count))


def make_corpus(root):
    """A source tree of 10,000 files in 100 crates, a .git folder and ignore rules, so the walks
    of agtool, rg and fd all skip the same things."""
    rng = random.Random(7)
    words = "fn let mut match impl struct enum trait use pub self PathBuf String Vec Option Result".split()
    os.makedirs(os.path.join(root, ".git"))
    with open(os.path.join(root, ".gitignore"), "w") as f:
        f.write("target/\n*.log\n")
    for d in range(100):
        for sub in ("src", "target"):
            os.makedirs(os.path.join(root, f"crate{d:03}", sub))
        for k in range(100):
            ext = "rs" if k % 4 else "md"
            with open(os.path.join(root, f"crate{d:03}", "src", f"m{k:03}.{ext}"), "w") as f:
                for _ in range(rng.randint(20, 300)):
                    f.write(" ".join(rng.choices(words, k=8)) + "\n")
        for k in range(10):  # ignored: build output and logs
            with open(os.path.join(root, f"crate{d:03}", "target", f"out{k}.rs"), "w") as f:
                f.write("fn PathBuf() {}\n" * 50)
            with open(os.path.join(root, f"crate{d:03}", f"run{k}.log"), "w") as f:
                f.write("PathBuf\n" * 50)


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--agtool", required=True)
    p.add_argument("--pairs", type=int, default=11)
    p.add_argument("--big-mib", type=int, default=1024)
    p.add_argument("--work")
    args = p.parse_args()
    ag = os.path.abspath(args.agtool)
    n = args.pairs
    work = args.work or tempfile.mkdtemp(prefix="agtool-bench-")
    env = {k: v for k, v in os.environ.items() if not k.startswith("AGTOOL_")}
    env["NO_COLOR"] = "1"
    fd = shutil.which("fd") or which("fdfind")
    rows = []

    def say(msg):
        print(f"== {msg}", file=sys.stderr, flush=True)

    # --- read-file on a 1 GiB file: head window and tail, vs cksum -------------------------
    ws = os.path.join(work, "read")
    os.makedirs(os.path.join(ws, ".git"))
    big = os.path.join(ws, "big.txt")
    say(f"writing a {args.big_mib} MiB text file")
    line = b"the quick brown fox jumps over the lazy dog 0123456789 ABCDEFGHIJKLMNOP\n"
    block = line * (1024 * 1024 // len(line) + 1)
    with open(big, "wb") as f:
        left = args.big_mib * 1024 * 1024
        while left:
            f.write(block[: min(left, len(block))])
            left -= min(left, len(block))
    small = os.path.join(ws, "small.txt")
    with open(small, "w") as f:
        f.write("".join(f"line {i:04d} of a small file, as a model would read it\n" for i in range(200))[:4096])
    run(["cat", big], ws, env)  # into the page cache

    say("read-file --limit 2000 vs cksum (1 GiB)")
    gib = f"{args.big_mib / 1024:g} GiB"
    r = Row(f"read-file {gib} --limit 2000 vs cksum", 1, "ratio")
    pairs(r, n, [ag, "read-file", "big.txt", "--limit", "2000"], ["cksum", "big.txt"], ws, env)
    rows.append(r)
    say("read-file --tail 100 vs cksum (1 GiB)")
    r = Row(f"read-file {gib} --tail 100 vs cksum", 1, "ratio")
    pairs(r, n, [ag, "read-file", "big.txt", "--tail", "100"], ["cksum", "big.txt"], ws, env)
    rows.append(r)
    r = Row(f"read-file {gib} --limit 2000 peak RSS", 16, "rss_mib")
    singles(r, 3, [ag, "read-file", "big.txt", "--limit", "2000"], ws, env)
    rows.append(r)
    say("read-file of a 4 KiB file vs cat")
    r = Row("read-file 4 KiB vs cat (start-up)", 2, "ratio")
    pairs(r, max(n, 50), [ag, "read-file", "small.txt"], ["cat", "small.txt"], ws, env)
    rows.append(r)
    say("read-file of a 4 KiB file with one no-op pre hook vs none (spec 10)")
    hook_cfg = os.path.join(work, "hook.toml")
    with open(hook_cfg, "w") as f:
        f.write('[[hooks.pre_tool_use]]\ncommand = ["true"]\n')
    r = Row("read-file 4 KiB: one no-op hook vs none", 5, "overhead_ms")
    pairs(r, max(n, 50), [ag, "--config", hook_cfg, "read-file", "small.txt"],
          [ag, "read-file", "small.txt"], ws, env)
    rows.append(r)
    os.remove(big)

    # --- edit-file of one line in a 60 MB file vs sed -i (edits in memory stop at 64 MiB) -----
    say("edit-file of one line in 60 MB vs sed -i")
    ws = os.path.join(work, "edit")
    os.makedirs(os.path.join(ws, ".git"))
    orig = os.path.join(work, "edit-orig.txt")
    count = 60 * 1000 * 1000 // 76
    write_lines(orig, count, lambda i: f"line {i:09d}: the quick brown fox jumps over the lazy dog, again")
    mid = f"line {count // 2:09d}:"
    target = os.path.join(ws, "big.txt")
    expected = os.path.join(work, "edit-expected.txt")
    shutil.copyfile(orig, target)
    subprocess.run(["sed", "-i", f"s/^{mid}/& EDITED/", target], check=True)
    os.rename(target, expected)

    # Each timed run starts with no dirty pages of the last one waiting to be written.
    def prep_edit():
        shutil.copyfile(orig, target)
        run([ag, "read-file", "big.txt", "--limit", "1"], ws, env)
        os.sync()

    def prep_sed():
        shutil.copyfile(orig, target)
        os.sync()

    def check():
        if not filecmp_same(target, expected):
            sys.exit("edit: the result differs from the expected file")

    r = Row("edit-file 1 line of 60 MB vs sed -i", 1, "ratio")
    pairs(r, n, [ag, "edit-file", "big.txt", "--old", mid, "--new", f"{mid} EDITED"],
          ["sed", "-i", f"s/^{mid}/& EDITED/", "big.txt"], ws, env, prep_edit, prep_sed, check, check)
    rows.append(r)
    r2 = Row("edit-file 60 MB peak RSS", 1.5, "rss_x")
    r2.size = os.path.getsize(orig)
    singles(r2, 3, [ag, "edit-file", "big.txt", "--old", mid, "--new", f"{mid} EDITED"], ws, env, prep_edit)
    rows.append(r2)
    for f in (orig, expected, target):
        os.remove(f)

    # --- apply-patch: 1,000 hunks on a 100,000-line file vs GNU patch -----------------------
    say("apply-patch 1,000 hunks on 100,000 lines vs patch -p1")
    ws = os.path.join(work, "patch")
    os.makedirs(os.path.join(ws, ".git"))
    text = [f"line {i:07d}: the quick brown fox jumps over the lazy dog {i * 7919 % 10007}" for i in range(100_000)]
    new = list(text)
    agent = ["*** Begin Patch", "*** Update File: big.txt"]
    unified = ["--- a/big.txt", "+++ b/big.txt"]
    for k in range(1000):
        t = k * 100 + 50
        new[t] = text[t].replace("lazy dog", "sleepy cat")
        lo, hi = t - 3, t + 4
        agent.append("@@")
        unified.append(f"@@ -{lo + 1},{hi - lo} +{lo + 1},{hi - lo} @@")
        for i in range(lo, hi):
            if i == t:
                agent += ["-" + text[i], "+" + new[i]]
                unified += ["-" + text[i], "+" + new[i]]
            else:
                agent.append(" " + text[i])
                unified.append(" " + text[i])
    agent.append("*** End Patch")
    files = {"orig.txt": text, "expected.txt": new, "patch.txt": agent, "diff.patch": unified}
    for name, body in files.items():
        with open(os.path.join(work, name), "w") as f:
            f.write("\n".join(body) + "\n")
    target = os.path.join(ws, "big.txt")
    expected = os.path.join(work, "expected.txt")

    def prep_patch_ag():
        shutil.copyfile(os.path.join(work, "orig.txt"), target)
        run([ag, "read-file", "big.txt", "--limit", "1"], ws, env)
        os.sync()

    def prep_patch_gnu():
        shutil.copyfile(os.path.join(work, "orig.txt"), target)
        os.sync()

    def check_patch():
        if not filecmp_same(target, expected):
            sys.exit("apply-patch: the result differs from the expected file")

    r = Row("apply-patch 1,000 hunks vs patch -p1", 1, "ratio")
    pairs(r, n, [ag, "apply-patch", "--input", "../patch.txt"],
          ["patch", "-p1", "-s", "-i", "../diff.patch"], ws, env,
          prep_patch_ag, prep_patch_gnu, check_patch, check_patch)
    rows.append(r)

    # --- grep, glob, list-dir vs rg and fd ---------------------------------------------------
    say("generating a 10,000-file corpus")
    corpus = os.path.join(work, "corpus")
    make_corpus(corpus)
    say("grep / glob / list-dir vs rg / fd")
    r = Row("grep files vs rg -l --sortr=modified", 0.7, "ratio")
    pairs(r, n, [ag, "grep", "PathBuf"], ["rg", "--files-with-matches", "--sortr=modified", "PathBuf"], corpus, env)
    rows.append(r)
    r = Row("grep content vs rg -n", 1, "ratio")
    pairs(r, n, [ag, "grep", "PathBuf", "--output", "content"], ["rg", "-n", "PathBuf"], corpus, env)
    rows.append(r)
    r = Row("glob **/*.rs vs fd -e rs", 1, "ratio")
    pairs(r, n, [ag, "glob", "**/*.rs"], [fd, "-e", "rs"], corpus, env)
    rows.append(r)
    r = Row("list-dir whole tree vs fd", 1, "ratio")
    pairs(r, n, [ag, "list-dir", ".", "--depth", "100", "--limit", "1000000", "--hidden", "false"],
          [fd, "--max-depth", "100"], corpus, env)
    rows.append(r)

    # --- exec ----------------------------------------------------------------------------------
    say("exec -- true vs true; exec under 1 GiB of output")
    ws = os.path.join(work, "exec")
    os.makedirs(os.path.join(ws, ".git"))
    r = Row("exec -- true (sandboxed) vs a bare spawn of true", 3, "overhead_ms")
    pairs(r, max(n, 50), [ag, "exec", "--", "true"], ["true"], ws, env)
    rows.append(r)
    # The sandbox's own cost (spec 08): the default workspace-write sandbox against
    # exec.sandbox = "off" from a --config file.
    off = os.path.join(work, "sandbox-off.toml")
    with open(off, "w") as f:
        f.write('[exec]\nsandbox = "off"\n')
    r = Row("exec -- true: sandboxed vs sandbox off", 3, "overhead_ms")
    pairs(r, max(n, 50), [ag, "exec", "--", "true"], [ag, "--config", off, "exec", "--", "true"], ws, env)
    rows.append(r)
    r = Row("exec of 1 GiB of output: peak RSS", 16, "rss_mib")
    singles(r, 3, [ag, "exec", "--timeout-ms", "600000", "--", "sh", "-c", "head -c 1073741824 /dev/zero"], ws, env)
    rows.append(r)

    # --- the table ---------------------------------------------------------------------------
    head = ["comparison", "agtool ms", "peer ms", "result", "target", "met", "agt cpu ms",
            "peer cpu ms", "agt RSS MiB", "runs"]
    table = [head] + [row.cells() for row in rows]
    widths = [max(len(r[i]) for r in table) for i in range(len(head))]
    load = open("/proc/loadavg").read().split()[:3]
    print(f"\nagtool {ag}; {os.cpu_count()} cores; load average {' '.join(load)}; "
          f"medians of A/B pairs (result: median of the per-pair ratios)")
    for i, r in enumerate(table):
        print("| " + " | ".join(c.ljust(w) for c, w in zip(r, widths)) + " |")
        if i == 0:
            print("|" + "|".join("-" * (w + 2) for w in widths) + "|")
    if not args.work:
        shutil.rmtree(work, ignore_errors=True)


def filecmp_same(a, b):
    import filecmp
    return filecmp.cmp(a, b, shallow=False)


if __name__ == "__main__":
    main()
