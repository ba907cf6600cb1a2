#!/usr/bin/env python3
"""Time an MCP stdio server the way a host uses it: spawn → first response (initialize), then
requests, each timed from write to reply; peak RSS read from /proc before stdin is closed.

usage: mcp_bench.py RUNS REQUESTS_JSON -- COMMAND...
  REQUESTS_JSON: [{"label": "skills/list", "method": "skills/list", "params": {}}, ...]
Prints one JSON object: {"first_response_ms": [...], "<label>_ms": [...], "rss_kb": [...]}.
"""
import json
import os
import subprocess
import sys
import time

INIT = {"protocolVersion": "2025-11-25", "capabilities": {"extensions": {"io.modelcontextprotocol/skills": {}}},
        "clientInfo": {"name": "bench", "version": "0"}}


def run_once(command, requests):
    out = {}
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
        call(request["method"], request.get("params", {}))
        out[request["label"] + "_ms"] = (time.perf_counter() - began) * 1000
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
    command = sys.argv[sys.argv.index("--") + 1:]
    results = {}
    for _ in range(runs):
        for key, value in run_once(command, requests).items():
            results.setdefault(key, []).append(value)
    summary = {key: sorted(values)[len(values) // 2] for key, values in results.items()}
    print(json.dumps({"median": summary, "runs": runs}))


if __name__ == "__main__":
    sys.exit(main())
