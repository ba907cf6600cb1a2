#!/usr/bin/env bash
# What the install gate costs `skills add` of 1,000 skills (tests/bench/run.sh's set): the same
# release binary with the gate (the default) and without it (`--no-verify`), and, when BASE names
# one, a binary built before the gate existed; all run alternately in one sitting
# (alternate.py), from a folder and from a `file://` repository. Percentages are against the
# first variant: the binary before the gate when BASE is given, else the gate itself.
#
# usage: tests/bench-gate/add.sh [RUNS]          (default 15 runs per variant)
#        BASE=/path/to/old/skills tests/bench-gate/add.sh
#        SKILLS=/path/to/skills tests/bench-gate/add.sh   (a binary built already)
# Build a BASE from an older commit without touching the work tree, e.g.:
#   git archive 4d9205b | tar -x -C /tmp/skills-base && \
#     CARGO_TARGET_DIR=$PWD/target cargo build --release --locked --manifest-path /tmp/skills-base/Cargo.toml && \
#     cp target/release/skills /tmp/skills-before-gate
set -euo pipefail
cd "$(dirname "$0")/../.."
RUNS=${1:-15}
if [ -z "${SKILLS:-}" ]; then
    cargo build --release --locked -q
    SKILLS=$PWD/target/release/skills
fi
W=target/bench-gate
if [ -d /dev/shm ] && [ -w /dev/shm ]; then W=/dev/shm/skills-gate-bench; fi
mkdir -p "$W"
if [ ! -d "$W/src" ]; then
    python3 tests/bench/gen_skills.py "$W/src" 1000
    (cd "$W/src" && git init -q && git add -A && git -c user.email=b@b -c user.name=b commit -qm init && git clone -q --bare . ../src.git)
fi
export HOME="$W/home" SKILLS_CACHE_DIR="$W/cache"
echo "== $(uptime)"
for source in "$W/src" "file://$W/src.git"; do
    echo "== skills add $source --skill '*' -a claude-code -y ($RUNS runs each, alternating)"
    args="add $source --skill '*' -a claude-code -y -q"
    variants=("gate=$SKILLS $args" "no-verify=$SKILLS $args --no-verify")
    if [ -n "${BASE:-}" ]; then variants=("before the gate=$BASE $args" "${variants[@]}"); fi
    python3 tests/bench-gate/alternate.py "$RUNS" "$W/project" -- "${variants[@]}"
done
echo "== $(uptime)"
