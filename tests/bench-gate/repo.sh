#!/usr/bin/env bash
# What the install gate costs `skills add -s '*'` of one real repository (default
# trailofbits/skills: 80 skills, 9.8 MB), served from its snapshot by `git daemon` on loopback:
# the gate and `--no-verify`, for each binary given, run alternately (alternate.py), with the
# median wall time, CPU time and peak RSS of each.
#
# usage: tests/bench-gate/repo.sh RUNS BINARY [BINARY…]          (a label is the binary's path)
#        REPO=obra/superpowers MIRRORS=/work/.mirror tests/bench-gate/repo.sh 11 target/release/skills
set -euo pipefail
cd "$(dirname "$0")/../.."
RUNS=${1:?usage: repo.sh RUNS BINARY [BINARY…]}
shift
REPO=${REPO:-trailofbits/skills}
MIRRORS=${MIRRORS:-/work/.mirror}
W=${WORK:-${TMPDIR:-/tmp}/skills-bench-repo}
rm -rf "$W" && mkdir -p "$W/serve/${REPO%%/*}"
ln -s "$MIRRORS/${REPO%%/*}+${REPO#*/}/repo" "$W/serve/$REPO.git"
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
"$(git --exec-path)/git-daemon" --base-path="$W/serve" --export-all --reuseaddr \
    --listen=127.0.0.1 --port="$port" >"$W/daemon.log" 2>&1 &
daemon=$!
trap 'kill "$daemon" 2>/dev/null || true' EXIT
for _ in $(seq 50); do
    git ls-remote "git://127.0.0.1:$port/$REPO.git" HEAD >/dev/null 2>&1 && break
    sleep 0.1
done
export HOME="$W/home" XDG_CACHE_HOME="$W/cache" SKILLS_CACHE_DIR="$W/skills-cache" NO_COLOR=1
mkdir -p "$HOME"
args="add git://127.0.0.1:$port/$REPO.git -s '*' -a claude-code -y -q"
variants=()
for bin in "$@"; do
    bin=$(cd "$(dirname "$bin")" && pwd)/$(basename "$bin")
    variants+=("$bin gate=$bin $args" "$bin no-verify=$bin $args --no-verify")
done
# One untimed run fills the git cache, so that every timed run reads the same cached fetch.
(mkdir -p "$W/warm" && cd "$W/warm" && eval "${variants[1]#*=}" >/dev/null 2>&1 || true)
echo "== $(uptime)"
python3 tests/bench-gate/alternate.py "$RUNS" "$W/project" -- "${variants[@]}"
echo "== $(uptime)"
