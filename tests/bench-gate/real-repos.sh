#!/usr/bin/env bash
# The install gate on popular public skill repositories: does `skills add … -s '*' -y` install
# every skill that the reference `npx skills` installs, with byte-identical trees?
#
# The repositories are local snapshots (bare git dirs, as the search tool's `fetch` leaves them
# under MIRRORS/<owner>+<name>/repo), served by `git daemon` on loopback; nothing is fetched
# from the network but the reference CLI itself (from the npm registry, once, cached).
# Each repository goes into a fresh project with its own HOME, XDG dirs and cache:
#   skills add git://127.0.0.1:PORT/<owner>/<name>.git -s '*' -y --json
#   npx -y skills@1.7.4 add git://127.0.0.1:PORT/<owner>/<name>.git --skill '*' -y
# and the canonical copies (`.agents/skills/<name>`) are compared: file list, modes and bytes.
#
# usage: tests/bench-gate/real-repos.sh SKILLS_BINARY [MIRRORS]     (MIRRORS: /work/.mirror)
#        NPX=0 tests/bench-gate/real-repos.sh …    skip the reference (no Node needed)
#        REPOS="anthropics/skills obra/superpowers" tests/bench-gate/real-repos.sh …
# The reference needs Node ≥ 22; when the `node` on PATH is older, Node 22 is installed from the
# npm registry (the `node@22` package) into the work dir, once.
# Prints one block per repository and a summary table; exits 1 when a skill the reference
# installs is refused or differs, 0 otherwise.
set -euo pipefail

SKILLS=${1:?usage: real-repos.sh SKILLS_BINARY [MIRRORS]}
SKILLS=$(cd "$(dirname "$SKILLS")" && pwd)/$(basename "$SKILLS")
MIRRORS=${2:-/work/.mirror}
REPOS=${REPOS:-"anthropics/skills openai/skills trailofbits/skills obra/superpowers vercel-labs/agent-skills supabase/agent-skills remotion-dev/skills ComposioHQ/awesome-claude-skills"}
NPX=${NPX:-1}
REFERENCE=skills@1.7.4
W=${WORK:-${TMPDIR:-/tmp}/skills-real-repos}
mkdir -p "$W"
"$SKILLS" --version >&2

# --- the reference CLI: Node ≥ 22, npm's cache kept between runs
if [ "$NPX" = 1 ]; then
    major=$(node --version 2>/dev/null | sed -E 's/^v([0-9]+).*/\1/' || echo 0)
    if [ "${major:-0}" -lt 22 ]; then
        if [ ! -x "$W/node22/node_modules/.bin/node" ]; then
            echo "== node ${major:-none} < 22: installing node@22 from the npm registry into $W/node22" >&2
            mkdir -p "$W/node22"
            npm install --prefix "$W/node22" --no-audit --no-fund --silent node@22 >&2
        fi
        export PATH="$W/node22/node_modules/.bin:$PATH"
    fi
    echo "== reference: npx $REFERENCE on node $(node --version)" >&2
    export npm_config_cache="$W/npm-cache" npm_config_update_notifier=false
    # The reference reports installs to its own service unless told not to.
    export DISABLE_TELEMETRY=1 DO_NOT_TRACK=1
fi

# --- git daemon on loopback over the snapshots
serve="$W/serve"
rm -rf "$serve"
for repo in $REPOS; do
    dir="$MIRRORS/${repo%%/*}+${repo#*/}/repo"
    [ -d "$dir" ] || { echo "no snapshot of $repo at $dir (fetch it first)" >&2; exit 2; }
    mkdir -p "$serve/${repo%%/*}"
    ln -s "$dir" "$serve/$repo.git"
done
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
"$(git --exec-path)/git-daemon" --base-path="$serve" --export-all --reuseaddr \
    --listen=127.0.0.1 --port="$port" >"$W/daemon.log" 2>&1 &
daemon=$!
trap 'kill "$daemon" 2>/dev/null || true' EXIT
for _ in $(seq 50); do
    git ls-remote "git://127.0.0.1:$port/${REPOS%% *}.git" HEAD >/dev/null 2>&1 && break
    sleep 0.1
done

# A fresh, hermetic place to run one installer in: prints the project folder.
fresh() {
    local root="$W/runs/$1"
    rm -rf "$root"
    mkdir -p "$root/project" "$root/home" "$root/xdg/config" "$root/xdg/cache" "$root/xdg/data" "$root/xdg/state"
    echo "$root"
}
hermetic() {
    local root=$1
    shift
    (cd "$root/project" && env HOME="$root/home" XDG_CONFIG_HOME="$root/xdg/config" \
        XDG_CACHE_HOME="$root/xdg/cache" XDG_DATA_HOME="$root/xdg/data" XDG_STATE_HOME="$root/xdg/state" \
        SKILLS_CACHE_DIR="$root/cache" GIT_CONFIG_NOSYSTEM=1 GIT_CONFIG_GLOBAL="$root/gitconfig" \
        NO_COLOR=1 "$@")
}
# The tree of one skill folder: path, mode, sha256 of every file (links followed, as installed).
tree_of() {
    (cd "$1" && find -L . -type f -printf '%P %m\n' | sort | while read -r path mode; do
        printf '%s %s %s\n' "$path" "$mode" "$(sha256sum <"$path" | cut -c1-64)"
    done)
}
seconds() { python3 -c 'import time; print(f"{time.time():.3f}")'; }

summary="$W/summary.tsv"
printf 'repo\tfound\tinstalled\trefused\treference\tmissing\tdiffer\n' >"$summary"
failed=0
for repo in $REPOS; do
    url="git://127.0.0.1:$port/$repo.git"
    slug=${repo/\//+}
    ours=$(fresh "$slug-skills")
    t0=$(seconds)
    set +e
    hermetic "$ours" "$SKILLS" add "$url" -s '*' -y --json >"$ours/out.json" 2>"$ours/err.txt"
    code=$?
    set -e
    t1=$(seconds)
    echo
    echo "== $repo"
    if ! python3 -c 'import json,sys; json.load(open(sys.argv[1]))' "$ours/out.json" 2>/dev/null; then
        echo "   skills add failed (exit $code):"
        sed 's/^/   | /' "$ours/err.txt"
        printf '%s\t-\t-\t-\t-\t-\t-\n' "$repo" >>"$summary"
        failed=1
        continue
    fi
    python3 - "$ours/out.json" "$ours/err.txt" "$code" "$(python3 -c "print(round($t1-$t0,2))")" <<'EOF'
import json, sys
doc = json.load(open(sys.argv[1]))
skills = doc["skills"]
installed = [s["name"] for s in skills if s["status"] == "installed"]
other = [s for s in skills if s["status"] != "installed"]
print(f"   skills add: exit {sys.argv[3]}, {sys.argv[4]} s: {len(skills)} found, {len(installed)} installed, {len(other)} not installed")
findings, current = {}, None
for line in open(sys.argv[2]).read().splitlines():
    if line.startswith("error: refused `"):
        current = line[len("error: refused `"):].split("`")[0]
    elif current and line.startswith("  ") and not line.startswith("  caused by"):
        findings.setdefault(current, []).append(line.strip())
    elif line:
        current = None
for s in other:
    print(f"   - {s['name']}: {s['status']}: {s.get('reason') or ''}")
    for f in findings.get(s["name"], []):
        print(f"       {f}")
EOF
    found=$(python3 -c 'import json,sys; print(len(json.load(open(sys.argv[1]))["skills"]))' "$ours/out.json")
    inst=$(python3 -c 'import json,sys; print(sum(s["status"]=="installed" for s in json.load(open(sys.argv[1]))["skills"]))' "$ours/out.json")
    refused=$((found - inst))
    ref="-" missing="-" differ="-"
    if [ "$NPX" = 1 ]; then
        theirs=$(fresh "$slug-npx")
        t0=$(seconds)
        set +e
        hermetic "$theirs" npx -y "$REFERENCE" add "$url" --skill '*' -y >"$theirs/out.txt" 2>&1
        rcode=$?
        set -e
        t1=$(seconds)
        ref=0 missing=0 differ=0
        names=$(ls "$theirs/project/.agents/skills" 2>/dev/null || true)
        for name in $names; do
            ref=$((ref + 1))
            if [ ! -d "$ours/project/.agents/skills/$name" ]; then
                missing=$((missing + 1))
                echo "   ! reference installs $name; skills does not"
            elif ! diff <(tree_of "$theirs/project/.agents/skills/$name") <(tree_of "$ours/project/.agents/skills/$name") >"$theirs/diff-$name.txt"; then
                differ=$((differ + 1))
                echo "   ! $name differs (< reference, > skills):"
                sed 's/^/       /' "$theirs/diff-$name.txt" | head -20
            fi
        done
        for name in $(ls "$ours/project/.agents/skills" 2>/dev/null || true); do
            [ -d "$theirs/project/.agents/skills/$name" ] || echo "   + skills installs $name; the reference does not"
        done
        echo "   npx $REFERENCE: exit $rcode, $(python3 -c "print(round($t1-$t0,2))") s: $ref installed; $missing of them missing from skills, $differ with different trees"
        [ "$rcode" -eq 0 ] || tail -20 "$theirs/out.txt" | sed 's/^/   | /'
        [ "$missing" -eq 0 ] && [ "$differ" -eq 0 ] || failed=1
    fi
    printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$repo" "$found" "$inst" "$refused" "$ref" "$missing" "$differ" >>"$summary"
done

echo
echo "== summary (found/installed/refused: skills add; reference: what npx $REFERENCE installs; missing/differ: of those)"
column -t -s $'\t' "$summary"
exit "$failed"
