#!/usr/bin/env bash
# Benchmarks of the lock lifecycle: `skills check` on 100 skills from 10 sources over a loopback
# `git daemon` (nothing to update), and `skills manifest --check` on 1,000 installed skills.
#
# usage: tests/bench/lifecycle.sh        Needs: git, hyperfine, python3.
set -euo pipefail
cd "$(dirname "$0")/../.."
command -v hyperfine >/dev/null || apt-get install -y hyperfine >/dev/null
cargo build --release --locked -q
SKILLS=$PWD/target/release/skills
WORK=$(mktemp -d "${TMPDIR:-/tmp}/skills-lifecycle-XXXX")
[ -d /dev/shm ] && [ -w /dev/shm ] && WORK=$(mktemp -d /dev/shm/skills-lifecycle-XXXX)
trap 'kill $DAEMON 2>/dev/null || true; rm -rf "$WORK"' EXIT
export HOME="$WORK/home" SKILLS_CACHE_DIR="$WORK/cache" GIT_CONFIG_NOSYSTEM=1 GIT_CONFIG_GLOBAL=/dev/null
mkdir -p "$HOME" "$WORK/repos/acme" "$WORK/project"
git_() { git -c init.defaultBranch=main -c user.name=b -c user.email=b@b "$@"; }
for r in $(seq 0 9); do
    src="$WORK/src/r$r"
    for k in $(seq 0 9); do
        mkdir -p "$src/skills/s$r-k$k"
        printf -- '---\nname: s%s-k%s\ndescription: Skill %s %s. Use when testing.\n---\nbody\n' "$r" "$k" "$r" "$k" >"$src/skills/s$r-k$k/SKILL.md"
    done
    (cd "$src" && git_ init -q && git_ add -A && git_ commit -qm init && git_ clone -q --bare . "$WORK/repos/acme/r$r.git")
done
PORT=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
git daemon --reuseaddr --export-all --base-path="$WORK/repos" --listen=127.0.0.1 --port="$PORT" \
    --verbose --log-destination=stderr "$WORK/repos" 2>"$WORK/daemon.log" &
DAEMON=$!
until grep -q "Ready to rumble" "$WORK/daemon.log"; do sleep 0.05; done
export SKILLS_GITHUB_URL="git://127.0.0.1:$PORT"
cd "$WORK/project"
for r in $(seq 0 9); do "$SKILLS" add "acme/r$r" --skill '*' -a claude-code -y -q; done
before=$(grep -c "Request upload-pack" "$WORK/daemon.log")
"$SKILLS" check --exit-code -q >/dev/null
after=$(grep -c "Request upload-pack" "$WORK/daemon.log")
echo "== skills check: 100 skills, 10 sources: $((after - before)) ref advertisements"
hyperfine -N --warmup 2 --runs 20 "$SKILLS check --exit-code -q"
echo "== skills manifest --check: 1,000 installed skills"
mkdir -p "$WORK/big/.claude/skills"
python3 "$OLDPWD/tests/bench/gen_skills.py" "$WORK/big/.claude/skills" 1000 >/dev/null
cd "$WORK/big" && "$SKILLS" manifest -q
hyperfine -N --warmup 2 --runs 20 "$SKILLS manifest --check -q"
/usr/bin/time -f "manifest --check: %e s, %M KB" "$SKILLS" manifest --check -q
