#!/usr/bin/env bash
# Interop: the official MCP Inspector CLI (pinned in package.json) against `skills serve --stdio`,
# in both protocol eras: the legacy `initialize` handshake and stateless 2026-07-28.
#
# Usage: tests/mcp-inspector/check.sh [path to the skills binary]
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
repo="$(cd "$here/../.." && pwd)"
binary="${1:-${CARGO_TARGET_DIR:-$repo/target}/debug/skills}"

if ! command -v npm >/dev/null; then
    echo "npm not found: installing it with apt" >&2
    sudo_if_needed=""
    [ "$(id -u)" -eq 0 ] || sudo_if_needed="sudo"
    $sudo_if_needed apt-get update -qq
    $sudo_if_needed apt-get install -y -qq npm >/dev/null
fi
npm ci --prefix "$here" --no-audit --no-fund --loglevel=error

# The Inspector wants Node >= 22.19: the pinned one from npm, else the system's.
node="$(ls "$here"/node_modules/node-linux-*/bin/node 2>/dev/null | head -n1 || true)"
node="${node:-node}"
inspector="$here/node_modules/@modelcontextprotocol/inspector/clients/launcher/build/index.js"

scratch="$(mktemp -d)"
trap 'rm -rf "$scratch"' EXIT
mkdir -p "$scratch/home"
# Served: the repository's own skills plus fixtures shaped like real ones: folded and literal
# descriptions as the last key, CRLF, a name that differs from its folder, nested folders, a file
# name with a space, a binary asset; and three that break a rule of the Skills extension (an
# overlong description, non-string metadata), served as resources but never listed.
mkdir -p "$scratch/skills"
cp -R "$repo/skills/." "$repo/tests/fixtures/serve/." "$scratch/skills/"
cat >"$scratch/mcp.json" <<JSON
{"mcpServers": {
  "legacy": {"command": "$binary", "args": ["serve", "--stdio", "$scratch/skills"], "env": {"HOME": "$scratch/home"}, "protocolEra": "legacy"},
  "modern": {"command": "$binary", "args": ["serve", "--stdio", "$scratch/skills"], "env": {"HOME": "$scratch/home"}, "protocolEra": "modern"}
}}
JSON

failures=0
# check NAME EXPECTED-SUBSTRING INSPECTOR-ARGS...: the call must succeed and print EXPECTED.
check() {
    local name="$1" expected="$2"
    shift 2
    local output
    if output="$(HOME="$scratch/home" MCP_INSPECTOR_SECRET_STORE=memory "$node" "$inspector" --cli \
        --config "$scratch/mcp.json" "$@" --format json -q 2>&1)" && [[ "$output" == *"$expected"* ]]; then
        echo "ok    $name"
    else
        echo "FAIL  $name: expected \`$expected\` in:" >&2
        echo "$output" | head -c 2000 >&2
        echo >&2
        failures=$((failures + 1))
    fi
}

skill_count="$(find "$scratch/skills" -mindepth 2 -maxdepth 2 -name SKILL.md | wc -l | tr -d ' ')"
skill_count=$((skill_count - 3)) # internal, overlong, typed: not listed
for era in legacy modern; do
    echo "--- MCP Inspector $("$node" "$inspector" --cli --version), $era era"
    check "$era skills/list --verify --require-digests" '"outcome":"verified"' \
        --server "$era" --method skills/list --verify --require-digests
    check "$era skills/get --verify" '"name":"folded-last"' \
        --server "$era" --method skills/get --uri skill://folded-last/SKILL.md --verify --require-digests
    check "$era resources/read (not listed, still served)" '# Overlong' \
        --server "$era" --method resources/read --uri skill://overlong/SKILL.md
    check "$era resources/list" '"uri":"skill://folded/_manifest"' --server "$era" --method resources/list
    check "$era resources/read (text)" '"text":"# deep' \
        --server "$era" --method resources/read --uri skill://folded/references/deep/x.md
    check "$era resources/read (blob)" '"mimeType":"image/png","blob":"iVBORw0KGgo' \
        --server "$era" --method resources/read --uri skill://folded/assets/logo.png
    check "$era resources/read (catalog)" '<name>typed</name>' \
        --server "$era" --method resources/read --uri skill://prompt-xml
    check "$era tools/list --strict" '"name":"get_skill_related_file"' --server "$era" --method tools/list --strict
    check "$era tools/call load_skill" 'name: typed' \
        --server "$era" --method tools/call --tool-name load_skill --tool-arg skillName=typed
    check "$era tools/call get_skill_related_file" '"structuredContent":{"result":"a\tb\n"}' \
        --server "$era" --method tools/call --tool-name get_skill_related_file \
        --tool-arg skill_name=folded "relative_path=references/with space.txt" return_type=content
    check "$era prompts/get" '<skill_content name=\"folded\">' --server "$era" --method prompts/get --prompt-name folded
done
# Every listed skill was verified, not just some: one report line per skill in each era.
verified="$(HOME="$scratch/home" MCP_INSPECTOR_SECRET_STORE=memory "$node" "$inspector" --cli --config "$scratch/mcp.json" \
    --server modern --method skills/list --verify --require-digests -q 2>/dev/null | grep -c '"outcome":"verified"' || true)"
if [ "$verified" != "$skill_count" ]; then
    echo "FAIL  verified $verified of $skill_count skills" >&2
    failures=$((failures + 1))
fi

if [ "$failures" -ne 0 ]; then
    echo "$failures Inspector checks failed" >&2
    exit 1
fi
echo "all Inspector checks passed ($skill_count skills, both eras)"
