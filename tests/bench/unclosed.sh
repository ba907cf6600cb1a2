#!/usr/bin/env bash
# A crafted SKILL.md whose frontmatter never closes: 64 MiB of `key: value` lines after `---`.
# `prompt`, `list` and `serve` read a SKILL.md only up to its closing `---`; reading such a
# file must cost what reading it costs (one pass), not a rescan per chunk (it once took >60 s).
#
# usage: tests/bench/unclosed.sh [MiB]        Needs: python3, hyperfine.
set -euo pipefail
cd "$(dirname "$0")/../.."
command -v hyperfine >/dev/null || apt-get install -y hyperfine >/dev/null
cargo build --release --locked -q
SKILLS=$PWD/target/release/skills
MIB=${1:-64}
WORK=$(mktemp -d "${TMPDIR:-/tmp}/skills-unclosed-XXXX")
trap 'rm -rf "$WORK"' EXIT
mkdir -p "$WORK/skills/big" "$WORK/home"
python3 - "$WORK/skills/big/SKILL.md" "$MIB" <<'PY'
import sys
line = b"key: " + b"v" * 58 + b"\n"
with open(sys.argv[1], "wb") as out:
    out.write(b"---\nname: big\n")
    for _ in range(int(sys.argv[2]) * (1 << 20) // len(line)):
        out.write(line)
PY
export HOME="$WORK/home" SKILLS_CACHE_DIR="$WORK/cache"
hyperfine --warmup 1 --runs 5 -i -N "$SKILLS prompt $WORK/skills" "$SKILLS lint $WORK/skills"
