#!/usr/bin/env bash
# `skills serve --stdio` at the ecosystem's scale: 1,000, 10,000 and 50,000 generated skills,
# cold (no digest cache: every file is read and hashed) and warm (the cache of the previous run:
# files are only stat'ed). Figures: spawn → first `skills/list` page, → every page (what the
# official SDK's SkillsClient walks), one `resources/read`, and the peak RSS once the first
# build and the watch are set up.
#
# usage: tests/bench/serve_scale.sh [N...]     (default: 1000 10000 50000)
# Skill sets go to tmpfs (/dev/shm) when there is one, as in run.sh.
set -euo pipefail
cd "$(dirname "$0")/../.."
SIZES=("${@:-1000 10000 50000}")
read -r -a SIZES <<<"${SIZES[*]}"
cargo build --release --locked -q
SKILLS=$PWD/target/release/skills
BASE=/dev/shm
[ -d "$BASE" ] && [ -w "$BASE" ] || BASE=target/bench
for N in "${SIZES[@]}"; do
    SET="$BASE/skills-scale-$N"
    [ -d "$SET" ] || python3 tests/bench/gen_skills.py "$SET" "$N" >/dev/null
    # Stamps younger than 2 s are never cached (racy): let the set age.
    sleep 2
    FILES=$(find "$SET" -type f | wc -l)
    BYTES=$(find "$SET" -type f -printf '%s\n' | awk '{s+=$1} END {print s}')
    FIRST=$(LC_ALL=C ls "$SET" | sed -n 1p)  # the first skill in walk order
    CACHE=$(mktemp -d)
    echo "== $N skills, $FILES files, $BYTES bytes"
    REQUESTS='[{"label":"first page","method":"skills/list"},{"label":"all pages","method":"skills/list","walk":true},{"label":"resources/read","method":"resources/read","params":{"uri":"skill://'$FIRST'/references/guide.md"}}]'
    RUNS=5
    [ "$N" -ge 50000 ] && RUNS=3
    echo "-- cold (no digest cache)"
    SKILLS_CACHE_DIR=$CACHE python3 tests/bench/mcp_bench.py "$RUNS" "$REQUESTS" --settle 3 --before "rm -rf $CACHE/serve" \
        -- "$SKILLS" serve --stdio "$SET"
    echo "-- warm (the digest cache of the run before)"
    SKILLS_CACHE_DIR=$CACHE python3 tests/bench/mcp_bench.py "$RUNS" "$REQUESTS" --settle 3 \
        -- "$SKILLS" serve --stdio "$SET"
    echo "-- warm, --no-watch"
    SKILLS_CACHE_DIR=$CACHE python3 tests/bench/mcp_bench.py "$RUNS" "$REQUESTS" \
        -- "$SKILLS" serve --stdio --no-watch "$SET"
    rm -rf "$CACHE"
done
