#!/usr/bin/env bash
# Reproducible benchmarks of `skills` against the floor (`cat` of the same files) and the
# reference tools. Figures go to the README's performance section.
#
# usage: tests/bench/run.sh [N]     (default N=10000 skills)
# Needs: hyperfine (apt), python3; installs skills-ref into target/bench/venv.
set -euo pipefail
cd "$(dirname "$0")/../.."
N=${1:-10000}
WORK=target/bench
mkdir -p "$WORK"
command -v hyperfine >/dev/null || { sudo apt-get install -y hyperfine 2>/dev/null || apt-get install -y hyperfine; }
[ -x "$WORK/venv/bin/python" ] || python3 -m venv "$WORK/venv"
"$WORK/venv/bin/python" -c 'import skills_ref' 2>/dev/null || "$WORK/venv/bin/pip" install -q skills-ref

cargo build --release --locked -q
SKILLS=$PWD/target/release/skills

SET="$WORK/skills-$N"
if [ ! -d "$SET" ]; then
    python3 tests/bench/gen_skills.py "$SET" "$N"
fi
FILES=$(find "$SET" -type f | wc -l)
BYTES=$(du -sb "$SET" | cut -f1)
echo "== $N skills, $FILES files, $BYTES bytes (warm page cache)"

# Warm the cache, then time.
cat $(find "$SET" -type f) >/dev/null 2>&1 || find "$SET" -type f -exec cat {} + >/dev/null
hyperfine --warmup 2 --runs 10 --export-markdown "$WORK/lint-$N.md" \
    -n "cat (floor)" "find $SET -type f -print0 | xargs -0 cat > /dev/null" \
    -n "skills lint" "$SKILLS lint $SET --format json > /dev/null || true"
echo "== skills-ref validate(), in one process"
/usr/bin/time -f "skills-ref: %e s wall, %M KB max RSS" "$WORK/venv/bin/python" tests/bench/skills_ref_validate.py "$SET"
echo "== skills lint peak memory"
/usr/bin/time -f "skills lint: %e s wall, %M KB max RSS" "$SKILLS" lint "$SET" --format json >/dev/null || true
