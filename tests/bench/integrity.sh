#!/usr/bin/env bash
# What confined writes, journaled commits and the local-edit check cost (issue 18): `add` of
# 1,000 skills from a folder and from a `file://` repository, and `install --frozen` of the
# same 1,000 locked skills into an empty project and into one where everything is in place —
# the release binary of this tree against BASE (a binary built before the change), alternating
# run by run in one sitting (tests/bench-gate/alternate.py).
#
# usage: BASE=/path/to/old/skills tests/bench/integrity.sh [RUNS]     (default 15)
#        SKILLS=/path/to/skills ... (a binary built already)
#        BUSY=1 ... (one core kept busy the whole time, as by a build beside it)
# Build BASE without touching the work tree, e.g.:
#   git archive 349738b | tar -x -C /tmp/skills-base && \
#     cargo build --release --locked --manifest-path /tmp/skills-base/Cargo.toml
set -euo pipefail
cd "$(dirname "$0")/../.."
RUNS=${1:-15}
: "${BASE:?set BASE to a skills binary built before the change}"
if [ -z "${SKILLS:-}" ]; then
    cargo build --release --locked -q
    SKILLS=$PWD/target/release/skills
fi
W=target/bench-integrity
if [ -d /dev/shm ] && [ -w /dev/shm ]; then W=/dev/shm/skills-integrity-bench; fi
mkdir -p "$W"
if [ ! -d "$W/src" ]; then
    python3 tests/bench/gen_skills.py "$W/src" 1000
    (cd "$W/src" && git init -q && git add -A && git -c user.email=b@b -c user.name=b commit -qm init && git clone -q --bare . ../src.git)
fi
export HOME="$W/home" SKILLS_CACHE_DIR="$W/cache"
alternate=$PWD/tests/bench-gate/alternate.py
if [ -n "${BUSY:-}" ]; then
    yes >/dev/null &
    trap 'kill $!' EXIT
    echo "== one core kept busy (yes > /dev/null)"
fi
echo "== $(uptime)"
for source in "$W/src" "file://$W/src.git"; do
    echo "== skills add $source --skill '*' -a claude-code -y ($RUNS runs each, alternating)"
    args="add $source --skill '*' -a claude-code -y -q"
    python3 "$alternate" "$RUNS" "$W/project" -- "before=$BASE $args" "after=$SKILLS $args"
done
# A lock of the 1,000 skills from a file:// repository inside the project (a lock's local
# sources must stay in its project, SECURITY.md), and the installed folders. Made at the
# project's own path, so that the lock's `file://` URL holds wherever it is copied back.
rm -rf "$W/project" "$W/locked" && mkdir -p "$W/project" && cp -a "$W/src.git" "$W/project/src.git"
(cd "$W/project" && "$SKILLS" add "file://$W/project/src.git" --skill '*' -a claude-code -y -q)
mv "$W/project" "$W/locked"
echo "== skills install --frozen: 1,000 locked skills into an empty project"
python3 "$alternate" "$RUNS" "$W/project" --setup "cp -a $W/locked/src.git $W/locked/skills-lock.json ." -- \
    "before=$BASE install --frozen -q" "after=$SKILLS install --frozen -q"
echo "== skills install --frozen: 1,000 locked skills, all in place"
python3 "$alternate" "$RUNS" "$W/project" --setup "cp -a $W/locked/. ." -- \
    "before=$BASE install --frozen -q" "after=$SKILLS install --frozen -q"
echo "== $(uptime)"
