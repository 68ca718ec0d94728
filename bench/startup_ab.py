#!/usr/bin/env python3
"""Start-up of several binaries side by side (issue 18 §7, start-up row): N rounds, each running
every named command once in a shuffled order (after 5 untimed rounds), each timed from spawn to
reap (posix_spawn, wait4). Prints, per name, the median wall and CPU time in ms and their ratio
to the last name's. Interleaving keeps a busy machine's drift out of the comparison, which
bench/ab.py's A/B pairs of one binary cannot do for two builds.

    cd <folder with f4k.txt> && python3 bench/startup_ab.py 400 \
        old="/path/old/agtool read-file f4k.txt" new="/path/new/agtool read-file f4k.txt" \
        cat="/bin/cat f4k.txt"

Commands get the environment without AGTOOL_* and no stdin or output; a failing one stops it.
Treat the binaries alike first (a freshly copied file measures slower until its pages are
cached: `sync; echo 3 > /proc/sys/vm/drop_caches`, then read each binary once)."""
import os, sys, random, statistics, time, shlex
n = int(sys.argv[1]); cmds = [a.split("=", 1) for a in sys.argv[2:]]
env = {k: v for k, v in os.environ.items() if not k.startswith("AGTOOL_")}
NULL = os.devnull
res = {name: ([], []) for name, _ in cmds}
acts = [(os.POSIX_SPAWN_OPEN, 0, NULL, os.O_RDONLY, 0), (os.POSIX_SPAWN_OPEN, 1, NULL, os.O_WRONLY, 0), (os.POSIX_SPAWN_OPEN, 2, NULL, os.O_WRONLY, 0)]
rng = random.Random(1)
for i in range(n + 5):
    order = list(cmds); rng.shuffle(order)
    for name, cmd in order:
        argv = shlex.split(cmd)
        t0 = time.perf_counter_ns(); pid = os.posix_spawn(argv[0], argv, env, file_actions=acts)
        _, st, ru = os.wait4(pid, 0); t1 = time.perf_counter_ns()
        if os.waitstatus_to_exitcode(st) != 0: sys.exit(f"{name} failed")
        if i >= 5:
            res[name][0].append((t1 - t0) / 1e6); res[name][1].append((ru.ru_utime + ru.ru_stime) * 1e3)
ref = cmds[-1][0]
rw = statistics.median(res[ref][0]); rc = statistics.median(res[ref][1])
for name, _ in cmds:
    w = statistics.median(res[name][0]); c = statistics.median(res[name][1])
    print(f"{name:8} wall {w:6.3f} ms ({w/rw:4.2f}x)  cpu {c:6.3f} ms ({c/rc:4.2f}x)")
