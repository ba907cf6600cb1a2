#!/usr/bin/env bash
# The npm packages of a release, as a user gets them: the main package `skills-rs` and the
# platform package of this machine (`@skills-rs/linux-x64`), staged from the release archive of
# release/build.sh (npm/stage.mjs), packed with `npm pack`, and installed from the two tarballs
# into a fresh folder with npm offline and its registry pointed at a closed port: nothing but the
# local files. Then, through the launcher (`npx skills-rs` and node_modules/.bin/skills):
#   --version; `add` from a local `git daemon`; the exit codes 0, 1 and 2 of the binary; stdin
#   and stdout passed through (an MCP `initialize` answered by `serve --stdio`); a SIGTERM sent to
#   the launcher reaching the binary, and the launcher dying of it too; and, with the platform
#   package left out, an error that names the platform.
#
# usage: tests/ci/npm.sh ARCHIVE      (ARCHIVE: target/dist/skills-x86_64-unknown-linux-gnu.tar.gz)
# Needs: node and npm, git (with `git daemon`). Loopback only.
set -euo pipefail
ARCHIVE=$(cd "$(dirname "${1:?usage: tests/ci/npm.sh ARCHIVE}")" && pwd)/$(basename "$1")
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
cd "$ROOT"
TMP=$(mktemp -d)
DAEMON_PID=
trap '[ -z "$DAEMON_PID" ] || kill "$DAEMON_PID" 2>/dev/null; rm -rf "$TMP"' EXIT
fail() { echo "FAILED: $*" >&2; exit 1; }
FIXTURES="$ROOT/tests/fixtures/security"
VERSION=$(sed -n '/^\[package\]/,/^\[/s/^version = "\(.*\)"/\1/p' Cargo.toml | head -1)
case "$(uname -m)" in x86_64) TARGET=x86_64-unknown-linux-gnu CPU=x64 ;; aarch64) TARGET=aarch64-unknown-linux-gnu CPU=arm64 ;; *) fail "no npm package for $(uname -m)" ;; esac
case "$ARCHIVE" in *"skills-$TARGET.tar.gz") ;; *) fail "\`$ARCHIVE\` is not the archive for $TARGET" ;; esac

# A hermetic HOME and npm: its own cache, offline, and a registry nobody listens on.
export HOME="$TMP/home" XDG_CONFIG_HOME="$TMP/home/.config" XDG_CACHE_HOME="$TMP/home/.cache"
export GIT_CONFIG_NOSYSTEM=1 GIT_CONFIG_GLOBAL="$TMP/home/.gitconfig" NO_COLOR=1
mkdir -p "$HOME"
export npm_config_cache="$TMP/npm-cache" npm_config_offline=true npm_config_registry="http://127.0.0.1:9/"
export npm_config_audit=false npm_config_fund=false npm_config_update_notifier=false

echo "--- npm: stage and pack skills-rs and @skills-rs/linux-$CPU $VERSION from $(basename "$ARCHIVE")"
tar -xzf "$ARCHIVE" -C "$TMP"
node npm/stage.mjs "$TMP/stage" "$TARGET=$TMP/skills-$TARGET" > /dev/null
mkdir -p "$TMP/tarballs"
(cd "$TMP/tarballs" && npm pack --silent "$TMP/stage/skills-rs" "$TMP/stage/linux-$CPU" > /dev/null)
MAIN="$TMP/tarballs/skills-rs-$VERSION.tgz"
PLATFORM="$TMP/tarballs/skills-rs-linux-$CPU-$VERSION.tgz"
[ -f "$MAIN" ] && [ -f "$PLATFORM" ] || fail "npm pack made: $(ls "$TMP/tarballs")"
listing=$(tar -tzvf "$PLATFORM")
grep -q '^-rwxr-xr-x .* package/bin/skills$' <<< "$listing" || fail "the packed binary is not executable: $listing"
manifest=$(tar -xzOf "$MAIN" package/package.json)
! grep -q '"\(pre\|post\|\)install"' <<< "$manifest" || fail "skills-rs has an install script: $manifest"
echo "npm: $(basename "$MAIN") $(wc -c < "$MAIN") bytes, $(basename "$PLATFORM") $(wc -c < "$PLATFORM") bytes"

echo "--- npm: install both tarballs into a fresh folder, offline"
APP="$TMP/app"
mkdir -p "$APP" && cd "$APP"
echo '{"name": "app", "private": true}' > package.json
npm install --silent "$MAIN" "$PLATFORM" > "$TMP/npm-install.out" 2>&1 || fail "npm install: $(cat "$TMP/npm-install.out")"
[ -x "node_modules/@skills-rs/linux-$CPU/bin/skills" ] || fail "no platform binary installed"
ls node_modules/@skills-rs | grep -qv "^linux-$CPU$" && fail "other platforms installed: $(ls node_modules/@skills-rs)"
cmp "node_modules/@skills-rs/linux-$CPU/bin/skills" "$TMP/skills-$TARGET/skills" || fail "the installed binary is not the release's"

out=$(npx --offline skills-rs --version) || fail "npx skills-rs --version"
[ "$out" = "skills $VERSION" ] || fail "npx skills-rs --version printed \`$out\`"
echo "npm: npx skills-rs --version: $out"
SKILLS="$APP/node_modules/.bin/skills"

echo "--- npm: exit codes through the launcher"
mkdir -p "$TMP/lint"
cp -r "$FIXTURES/benign/pdf" "$TMP/lint/pdf"
status() { set +e; "$@" > "$TMP/out" 2> "$TMP/err"; echo $?; set -e; }
[ "$(status npx --offline skills-rs lint "$TMP/lint/pdf")" = 0 ] || fail "lint of a clean skill: $(cat "$TMP/out" "$TMP/err")"
[ "$(status npx --offline skills-rs lint "$FIXTURES/malicious/weather")" = 1 ] || fail "lint of a malicious skill did not exit 1: $(cat "$TMP/out" "$TMP/err")"
grep -q 'error\[security/remote-exec\]' "$TMP/out" || fail "the finding did not reach stdout: $(cat "$TMP/out")"
[ "$(status "$SKILLS" --no-such-flag)" = 2 ] || fail "a usage error did not exit 2"
grep -q "unexpected argument '--no-such-flag'" "$TMP/err" || fail "the usage error did not reach stderr: $(cat "$TMP/err")"
echo "npm: exit codes 0, 1 and 2 pass through; stdout and stderr stay apart"

echo "--- npm: stdin and stdout through the launcher (serve --stdio answers initialize)"
printf '%s\n' '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"npm-test","version":"1"}}}' \
    | "$SKILLS" serve --stdio "$TMP/lint" > "$TMP/out" 2> "$TMP/err" || fail "serve --stdio: $(cat "$TMP/err")"
python3 - "$TMP/out" <<'PY' || fail "serve --stdio through the launcher answered: $(cat "$TMP/out")"
import json, sys
lines = [json.loads(line) for line in open(sys.argv[1]) if line.strip()]
assert len(lines) == 1 and lines[0]["id"] == 1, lines
assert lines[0]["result"]["serverInfo"]["name"] == "skills", lines
PY
echo "npm: a JSON-RPC request on stdin got its answer on stdout"

echo "--- npm: a signal sent to the launcher reaches the binary"
mkfifo "$TMP/stdin"
"$SKILLS" serve --stdio "$TMP/lint" < "$TMP/stdin" > /dev/null 2>&1 &
LAUNCHER=$!
exec 3> "$TMP/stdin"  # keeps the server's stdin open: it serves until told otherwise
CHILD=
for _ in $(seq 100); do CHILD=$(pgrep -P "$LAUNCHER" -x skills || true); [ -n "$CHILD" ] && break; sleep 0.1; done
[ -n "$CHILD" ] || fail "the launcher started no skills process"
kill -TERM "$LAUNCHER"
set +e; wait "$LAUNCHER"; code=$?; set -e
exec 3>&-
[ "$code" = 143 ] || fail "the launcher exited $code after SIGTERM, not 143 (killed by SIGTERM)"
for _ in $(seq 50); do kill -0 "$CHILD" 2>/dev/null || break; sleep 0.1; done
! kill -0 "$CHILD" 2>/dev/null || { kill -KILL "$CHILD"; fail "the binary outlived the launcher's SIGTERM"; }
echo "npm: SIGTERM to the launcher ended the binary, and the launcher reported it (143)"

echo "--- npm: add from a local git daemon through the launcher"
UPSTREAM="$TMP/upstream"
mkdir -p "$UPSTREAM/work/skills" "$UPSTREAM/repos/acme"
cp -r "$FIXTURES/benign/pdf" "$UPSTREAM/work/skills/pdf"
git -C "$UPSTREAM/work" init -q -b main
git -C "$UPSTREAM/work" add -A
git -C "$UPSTREAM/work" -c user.name=CI -c user.email=ci@example.invalid -c commit.gpgSign=false commit -qm skills
git clone -q --bare "$UPSTREAM/work" "$UPSTREAM/repos/acme/skills.git"
PORT=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
"$(git --exec-path)/git-daemon" --reuseaddr --export-all --enable=upload-pack --base-path="$UPSTREAM/repos" \
    --listen=127.0.0.1 --port="$PORT" "$UPSTREAM/repos" 2> "$TMP/daemon.log" &
DAEMON_PID=$!
for _ in $(seq 50); do (exec 3<>"/dev/tcp/127.0.0.1/$PORT") 2>/dev/null && break; sleep 0.1; done
# The folder npm installed into is the project, as with `npm i -D skills-rs` in a real one.
PROJECT="$APP"
(cd "$PROJECT" && SKILLS_GITHUB_URL="git://127.0.0.1:$PORT" SKILLS_CACHE_DIR="$TMP/skills-cache" \
    npx --offline skills-rs add acme/skills -a claude-code -y > "$TMP/out" 2> "$TMP/err") \
    || fail "add through the launcher: $(cat "$TMP/out" "$TMP/err")"
[ -f "$PROJECT/.claude/skills/pdf/SKILL.md" ] || fail "add installed nothing: $(cat "$TMP/err")"
python3 - "$PROJECT/skills-lock.json" <<'PY' || fail "the lock: $(cat "$PROJECT/skills-lock.json")"
import json, sys
entry = json.load(open(sys.argv[1]))["skills"]["pdf"]
assert entry["source"] == "acme/skills" and len(entry["commit"]) == 40, entry
PY
echo "npm: add acme/skills from git://127.0.0.1:$PORT installed pdf and locked its commit"

echo "--- npm: without the platform package, an error that names the platform"
cd "$TMP" && rm -rf app2 && mkdir app2 && cd app2
echo '{"name": "app2", "private": true}' > package.json
npm install --silent --omit=optional "$MAIN" > "$TMP/npm-install.out" 2>&1 || fail "npm install: $(cat "$TMP/npm-install.out")"
[ "$(status npx --offline skills-rs --version)" = 2 ] || fail "no platform binary: not exit 2: $(cat "$TMP/out" "$TMP/err")"
grep -q "^error: the package \`@skills-rs/linux-$CPU\`, which holds the binary for this platform (linux-$CPU (glibc)), is not installed" "$TMP/err" \
    || fail "the error without a platform package: $(cat "$TMP/err")"
echo "npm: without @skills-rs/linux-$CPU: $(head -1 "$TMP/err")"
