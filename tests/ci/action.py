#!/usr/bin/env python3
"""Runs the composite action of `action.yml` the way a GitHub runner does, so that `.ci/run` tests
its real steps: `run` steps go to `bash --noprofile --norc -eo pipefail` with their `env`,
`working-directory`, `GITHUB_OUTPUT`, `GITHUB_PATH` and `GITHUB_ACTION_PATH`; `${{ }}` expressions
read `inputs`, `steps.<id>.outputs`, `runner` and `github` (`github.action_ref` is the
environment's ACTION_REF: the tag or SHA a workflow would name). `uses` steps (the cache) are
not run and report no outputs: a cache miss.

usage: action.py ACTION_DIR [NAME=VALUE ...]   (inputs; exit status: the failing step's)
"""
import os
import re
import subprocess
import sys
import tempfile

import yaml

EXPRESSION = re.compile(r"\$\{\{\s*([^}]+?)\s*\}\}")


def main():
    action_dir = os.path.abspath(sys.argv[1])
    with open(os.path.join(action_dir, "action.yml")) as f:
        action = yaml.safe_load(f)
    assert action["runs"]["using"] == "composite", "only composite actions"
    inputs = {name: str(spec.get("default", "")) for name, spec in action.get("inputs", {}).items()}
    for arg in sys.argv[2:]:
        name, value = arg.split("=", 1)
        if name not in inputs:
            sys.exit(f"action.yml has no input `{name}`")
        inputs[name] = value
    # The runner's temp folder lives as long as the job: removed when this script exits.
    temp_dir = tempfile.TemporaryDirectory(prefix="action-")
    temp = temp_dir.name
    runner = {"os": "Linux", "arch": "X64", "temp": temp}
    outputs = {}
    github_path = os.path.join(temp, "path")
    open(github_path, "w").close()

    def value(expr):
        parts = expr.split(".")
        if parts[0] == "inputs":
            return inputs[parts[1]]
        if parts[0] == "steps" and parts[2] == "outputs":
            return outputs.get(parts[1], {}).get(parts[3], "")
        if parts[0] == "runner":
            return runner[parts[1]]
        if parts == ["github", "action_path"]:
            return action_dir
        if parts == ["github", "action_ref"]:
            return os.environ.get("ACTION_REF", "")
        sys.exit(f"unsupported expression `{expr}`")

    def expand(text):
        return EXPRESSION.sub(lambda m: value(m.group(1)), str(text))

    for number, step in enumerate(action["runs"]["steps"], 1):
        name = step.get("name", f"step {number}")
        if "uses" in step:
            print(f"--- {name}: `uses: {step['uses']}` is not run here (a cache miss)", flush=True)
            continue
        print(f"--- {name}", flush=True)
        output_file = os.path.join(temp, f"output-{number}")
        open(output_file, "w").close()
        env = dict(os.environ)
        with open(github_path) as f:
            added = [line.strip() for line in f if line.strip()]
        env["PATH"] = os.pathsep.join(list(reversed(added)) + [env["PATH"]])
        env.update({
            "GITHUB_ACTION_PATH": action_dir, "GITHUB_OUTPUT": output_file, "GITHUB_PATH": github_path,
            "RUNNER_OS": runner["os"], "RUNNER_ARCH": runner["arch"], "RUNNER_TEMP": temp,
        })
        env.update({key: expand(val) for key, val in step.get("env", {}).items()})
        cwd = expand(step.get("working-directory", "."))
        shell = step.get("shell")
        assert shell == "bash", f"{name}: composite steps must name their shell (bash here)"
        code = subprocess.call(["bash", "--noprofile", "--norc", "-eo", "pipefail", "-c", expand(step["run"])],
                               cwd=cwd, env=env)
        if code != 0:
            print(f"--- {name} failed with exit status {code}", flush=True)
            sys.exit(code)
        step_outputs = {}
        with open(output_file) as f:
            for line in f:
                if "=" in line:
                    key, val = line.rstrip("\n").split("=", 1)
                    step_outputs[key] = val
        if "id" in step:
            outputs[step["id"]] = step_outputs


if __name__ == "__main__":
    main()
