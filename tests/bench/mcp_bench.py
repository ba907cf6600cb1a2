#!/usr/bin/env python3
"""Time an MCP stdio server the way a host uses it: spawn → first response (initialize), then
requests, each timed from write to reply; peak RSS read from /proc before stdin is closed.

usage: mcp_bench.py RUNS REQUESTS_JSON [--settle SECONDS] [--before CMD] -- COMMAND...
  REQUESTS_JSON: [{"label": "skills/list", "method": "skills/list", "params": {}}, ...]
    "walk": true follows nextCursor to the last page (what SDK clients do); the time is that
    of all pages.
  --settle: wait that long before reading the peak RSS (background work such as the watch).
  --before: a shell command run before each spawn (e.g. to delete a cache for cold runs).
Prints one JSON object with the median of each figure: "first_response_ms", "<label>_ms"
(write to reply), "<label>_since_spawn_ms", "rss_kb" (VmHWM).
"""
import json
import os
import subprocess
import sys
import time

INIT = {"protocolVersion": "2025-11-25", "capabilities": {"extensions": {"io.modelcontextprotocol/skills": {}}},
        "clientInfo": {"name": "bench", "version": "0"}}


def run_once(command, requests, settle=0.0, before=None):
    out = {}
    if before:
        subprocess.run(before, shell=True, check=True)
    start = time.perf_counter()
    child = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    next_id = 0

    def call(method, params):
        nonlocal next_id
        next_id += 1
        message = {"jsonrpc": "2.0", "id": next_id, "method": method, "params": params}
        child.stdin.write((json.dumps(message) + "\n").encode())
        child.stdin.flush()
        while True:
            line = child.stdout.readline()
            if not line:
                raise SystemExit(f"server closed stdout during {method}")
            reply = json.loads(line)
            if reply.get("id") == next_id:
                if "error" in reply:
                    raise SystemExit(f"{method}: {reply['error']}")
                return reply["result"]

    call("initialize", INIT)
    out["first_response_ms"] = (time.perf_counter() - start) * 1000
    child.stdin.write(b'{"jsonrpc":"2.0","method":"notifications/initialized"}\n')
    child.stdin.flush()
    for request in requests:
        began = time.perf_counter()
        params = dict(request.get("params", {}))
        result = call(request["method"], params)
        while request.get("walk") and result.get("nextCursor"):
            params["cursor"] = result["nextCursor"]
            result = call(request["method"], params)
        now = time.perf_counter()
        out[request["label"] + "_ms"] = (now - began) * 1000
        out[request["label"] + "_since_spawn_ms"] = (now - start) * 1000
    if settle:
        time.sleep(settle)
    with open(f"/proc/{child.pid}/status") as status:
        for line in status:
            if line.startswith("VmHWM:"):
                out["rss_kb"] = int(line.split()[1])
    child.stdin.close()
    child.wait(timeout=30)
    return out


def main():
    runs = int(sys.argv[1])
    requests = json.loads(sys.argv[2])
    options = sys.argv[3:sys.argv.index("--")]
    settle = float(options[options.index("--settle") + 1]) if "--settle" in options else 0.0
    before = options[options.index("--before") + 1] if "--before" in options else None
    command = sys.argv[sys.argv.index("--") + 1:]
    results = {}
    for _ in range(runs):
        for key, value in run_once(command, requests, settle, before).items():
            results.setdefault(key, []).append(value)
    summary = {key: sorted(values)[len(values) // 2] for key, values in results.items()}
    print(json.dumps({"median": summary, "runs": runs}))


if __name__ == "__main__":
    sys.exit(main())
