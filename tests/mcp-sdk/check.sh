#!/usr/bin/env bash
# Interop: the official MCP TypeScript SDK's SkillsClient (pinned in package.json) lists, gets,
# reads and verifies every skill `skills serve --stdio` serves, in both protocol eras, over the
# repository's own skills and the real-world-shaped fixtures of tests/fixtures/serve.
#
# Usage: tests/mcp-sdk/check.sh [path to the skills binary]
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
repo="$(cd "$here/../.." && pwd)"
binary="${1:-${CARGO_TARGET_DIR:-$repo/target}/debug/skills}"
command -v npm >/dev/null || { echo "npm not found (tests/mcp-inspector/check.sh installs it)" >&2; exit 1; }
npm ci --prefix "$here" --no-audit --no-fund --loglevel=error
scratch="$(mktemp -d)"
trap 'rm -rf "$scratch"' EXIT
mkdir -p "$scratch/home" "$scratch/skills"
cp -R "$repo/skills/." "$repo/tests/fixtures/serve/." "$scratch/skills/"
# Fixtures that break a rule of the Skills extension: served as resources, never listed.
unlisted="internal,overlong,typed"
total="$(find "$scratch/skills" -mindepth 2 -maxdepth 2 -name SKILL.md | wc -l | tr -d ' ')"
expected=$((total - 3))
# A skill the live check edits while the server watches.
mkdir -p "$scratch/live/live"
printf -- '---\nname: live\ndescription: Before. Use when live.\n---\n# Live\n' >"$scratch/live/live/SKILL.md"
node="$(ls "$repo"/tests/mcp-inspector/node_modules/node-linux-*/bin/node 2>/dev/null | head -n1 || true)"
HOME="$scratch/home" SKILLS_CACHE_DIR="$scratch/cache" "${node:-node}" "$here/check.mjs" \
    "$binary" "$scratch/skills" "$expected" "$unlisted" "$scratch/live"
