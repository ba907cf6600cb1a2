#!/usr/bin/env python3
"""Time commands alternately: run i of every variant before run i+1 of any, in a rotating
order, so that a machine whose speed drifts during the sitting (other builds, page cache) drifts
for all variants alike. Each run starts from an empty project folder.

usage: alternate.py RUNS PROJECT [--setup COMMAND] -- LABEL=COMMAND [LABEL=COMMAND ...]
`--setup` runs (untimed) in the fresh project folder before each timed run: a lockfile to
restore, skills already in place.
Prints, per variant, the median / min / max wall time, the median peak RSS and the median CPU
time (user + system, wait4), and the medians relative to the first variant. CPU time is the
steadier figure on a machine shared with other work; wall time is what a user waits.
"""
import os
import shutil
import statistics
import subprocess
import sys
import time


def run_once(command, project, setup=None):
    shutil.rmtree(project, ignore_errors=True)
    os.makedirs(project)
    if setup:
        subprocess.run(setup, shell=True, cwd=project, check=True)
    start = time.perf_counter()
    proc = subprocess.Popen(command, shell=True, cwd=project,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    # Read stderr to its end before waiting: a command that writes more than a pipe holds
    # would otherwise block on the write while we block on the wait.
    stderr = proc.stderr.read().decode(errors="replace")
    proc.stderr.close()
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - start
    if os.waitstatus_to_exitcode(status) != 0:
        sys.exit(f"`{command}` failed:\n{stderr}")
    return wall, usage.ru_maxrss, usage.ru_utime + usage.ru_stime  # KiB on Linux


def main():
    runs, project = int(sys.argv[1]), sys.argv[2]
    setup = None
    if "--setup" in sys.argv[:sys.argv.index("--")]:
        setup = sys.argv[sys.argv.index("--setup") + 1]
    variants = [arg.split("=", 1) for arg in sys.argv[sys.argv.index("--") + 1:]]
    results = {label: [] for label, _ in variants}
    for label, command in variants:  # one warm-up each
        run_once(command, project, setup)
    for i in range(runs):
        order = variants[i % len(variants):] + variants[:i % len(variants)]
        for label, command in order:
            results[label].append(run_once(command, project, setup))
    base = statistics.median(w for w, _, _ in results[variants[0][0]])
    base_cpu = statistics.median(c for _, _, c in results[variants[0][0]])
    print(f"| variant | median | min | max | peak RSS (median) | vs `{variants[0][0]}` "
          f"| CPU time (median) | CPU vs `{variants[0][0]}` |")
    print("|---|---|---|---|---|---|---|---|")
    for label, _ in variants:
        walls = [w for w, _, _ in results[label]]
        rss = statistics.median(r for _, r, _ in results[label])
        cpu = statistics.median(c for _, _, c in results[label])
        median = statistics.median(walls)
        print(f"| {label} | {median * 1000:.0f} ms | {min(walls) * 1000:.0f} ms | "
              f"{max(walls) * 1000:.0f} ms | {rss / 1024:.1f} MB | {100 * (median / base - 1):+.1f} % "
              f"| {cpu * 1000:.0f} ms | {100 * (cpu / base_cpu - 1):+.1f} % |")


if __name__ == "__main__":
    main()
