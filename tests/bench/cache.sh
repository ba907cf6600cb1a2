#!/usr/bin/env bash
# Benchmark of restoring a project from the cache: 170 skills from 8 repositories served by a
# loopback `git daemon`, restored by `skills install --frozen` cold (empty cache) and warm (the
# shared store filled), online and offline (`--offline`, `SKILLS_GITHUB_URL` unreachable), with
# every folder already in place, and against `cp -r` of the same folders. Each run starts after
# `sync`, so that the writeback of the previous run (or of the `rm -rf` before it) is not timed.
#
# usage: tests/bench/cache.sh        Needs: git, hyperfine, python3.
set -euo pipefail
cd "$(dirname "$0")/../.."
command -v hyperfine >/dev/null || apt-get install -y hyperfine >/dev/null
cargo build --release --locked -q
SKILLS=$PWD/target/release/skills
WORK=$(mktemp -d "${TMPDIR:-/tmp}/skills-cache-XXXX")
[ -d /dev/shm ] && [ -w /dev/shm ] && rmdir "$WORK" && WORK=$(mktemp -d /dev/shm/skills-cache-XXXX)
trap 'kill $DAEMON 2>/dev/null || true; rm -rf "$WORK"' EXIT
export HOME="$WORK/home" SKILLS_CACHE_DIR="$WORK/cache" GIT_CONFIG_NOSYSTEM=1 GIT_CONFIG_GLOBAL=/dev/null
mkdir -p "$HOME" "$WORK/repos/acme" "$WORK/project"
git_() { git -c init.defaultBranch=main -c user.name=b -c user.email=b@b "$@"; }

# 170 generated skills (SKILL.md of ~250 lines, a script, a reference), dealt to 8 repositories.
python3 tests/bench/gen_skills.py "$WORK/gen" 170 >/dev/null
i=0
for dir in "$WORK"/gen/*/; do
    r=$((i % 8))
    mkdir -p "$WORK/src/r$r/skills"
    mv "$dir" "$WORK/src/r$r/skills/"
    i=$((i + 1))
done
for r in $(seq 0 7); do
    (cd "$WORK/src/r$r" && git_ init -q && git_ add -A && git_ commit -qm init && git_ clone -q --bare . "$WORK/repos/acme/r$r.git")
done
PORT=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
git daemon --reuseaddr --export-all --base-path="$WORK/repos" --listen=127.0.0.1 --port="$PORT" \
    --log-destination=stderr "$WORK/repos" 2>"$WORK/daemon.log" &
DAEMON=$!
sleep 0.5
ONLINE="git://127.0.0.1:$PORT"
DOWN="git://127.0.0.1:$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')"

P="$WORK/project"
cd "$P"
for r in $(seq 0 7); do
    SKILLS_GITHUB_URL=$ONLINE "$SKILLS" add "acme/r$r" --skill '*' -a claude-code -y -q
done
echo "project: $(ls .claude/skills | wc -l) skills, $(find .claude/skills -type f | wc -l) files, $(du -sh .claude/skills | cut -f1)"

hyperfine --warmup 1 --runs 10 --export-markdown "$WORK/cache.md" \
    -n "install --frozen, cold cache, online" \
    --prepare "rm -rf '$P/.claude' '$SKILLS_CACHE_DIR'; sync" \
    "SKILLS_GITHUB_URL=$ONLINE $SKILLS install --frozen -q" \
    -n "install --frozen, warm cache, online" \
    --prepare "rm -rf '$P/.claude'; sync" \
    "SKILLS_GITHUB_URL=$ONLINE $SKILLS install --frozen -q" \
    -n "install --frozen --offline, warm cache, network down" \
    --prepare "rm -rf '$P/.claude'; sync" \
    "SKILLS_GITHUB_URL=$DOWN $SKILLS install --frozen --offline -q" \
    -n "install --frozen, every folder in place, network down" \
    --prepare "sync" \
    "SKILLS_GITHUB_URL=$DOWN $SKILLS install --frozen -q" \
    -n "cp -r of the same folders" \
    --prepare "rm -rf '$WORK/copy'; mkdir -p '$WORK/copy'; sync" \
    "cp -r '$P/.claude' '$WORK/copy/'"
cat "$WORK/cache.md"
