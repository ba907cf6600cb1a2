#!/usr/bin/env bash
# `skills` one command away in CI, each way tested with the real tools:
#   1. the Python wheel (maturin, `bindings = "bin"`): built, installed in a fresh venv, run; and
#      run by `uvx` from the wheel file;
#   2. the pre-commit hook (.pre-commit-hooks.yaml): the real `pre-commit` installs it from this
#      repository into a temp git repository and runs it on commits;
#   3. the composite GitHub Action (action.yml): its steps run as a runner runs them
#      (tests/ci/action.py), for `lint` and `frozen`, building from source;
#   4. the Action's download of a release (action-release, when SKILLS_RELEASE_ARCHIVE names the
#      archive that release/build.sh made): served by a local HTTP server on loopback, a good
#      archive is verified and run, a corrupted one or one without a checksum is refused with a
#      clear error, and a release without this platform falls back to building.
#
# Everything is built in the dev profile with the target dir that `cargo test` filled
# (CARGO_TARGET_DIR), so the wheel, the hook's `pip install` and the action's `cargo install`
# reuse the compiled dependencies instead of three release builds (minutes each on 2 cores). The
# source built and run is the same; only optimization differs.
#
# usage: tests/ci/packaging.sh [wheel] [pre-commit] [action] [action-release]
#        (default: all, action-release only with SKILLS_RELEASE_ARCHIVE set)
# Needs: python3 (with venv), git, cargo. Installs maturin, pre-commit, PyYAML and uv from PyPI
# into a temp venv. pre-commit clones this repository at HEAD: commit before running it locally.
set -euo pipefail
PARTS=" ${*:-wheel pre-commit action ${SKILLS_RELEASE_ARCHIVE:+action-release}} "
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
cd "$ROOT"
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$ROOT/target}"
export CARGO_HOME="${CARGO_HOME:-$HOME/.cargo}" RUSTUP_HOME="${RUSTUP_HOME:-$HOME/.rustup}"
TMP=$(mktemp -d)
SERVER_PID=
trap '[ -z "$SERVER_PID" ] || kill "$SERVER_PID" 2>/dev/null; rm -rf "$TMP"' EXIT
FIXTURES="$ROOT/tests/fixtures/security"
fail() { echo "FAILED: $*" >&2; exit 1; }

if ! python3 -m venv "$TMP/tools" >/dev/null 2>&1; then
    apt-get update -qq && apt-get install -y -qq python3-venv >/dev/null
    python3 -m venv "$TMP/tools"
fi
"$TMP/tools/bin/pip" install -q --disable-pip-version-check \
    "maturin==1.16.0" "pre-commit==4.7.0" "pyyaml==6.0.3" "uv==0.13.8"
export PATH="$TMP/tools/bin:$PATH"

part() { [[ "$PARTS" == *" $1 "* ]]; }

if part wheel; then
echo "--- wheel: maturin build (bindings = bin, dev profile)"
maturin build --locked --profile dev --out "$TMP/wheels"
WHEEL=$(ls "$TMP"/wheels/skills_rs-*.whl)
python3 -c 'import sys, zipfile; sys.exit(not any(n.endswith(".data/scripts/skills") for n in zipfile.ZipFile(sys.argv[1]).namelist()))' "$WHEEL" \
    || fail "the wheel carries no skills binary"
python3 -m venv "$TMP/wheel-venv"
"$TMP/wheel-venv/bin/pip" install -q --disable-pip-version-check "$WHEEL"
"$TMP/wheel-venv/bin/skills" --version
"$TMP/wheel-venv/bin/skills" lint skills/ --strict
if "$TMP/wheel-venv/bin/skills" lint "$FIXTURES/malicious/weather" > "$TMP/out"; then
    fail "the wheel's skills let a remote-exec through"
fi
grep -q 'error\[security/remote-exec\]' "$TMP/out" || fail "no remote-exec finding: $(cat "$TMP/out")"
echo "--- wheel: uvx --from the wheel"
UV_CACHE_DIR="$TMP/uv-cache" UV_PYTHON_DOWNLOADS=never uvx --offline --from "$WHEEL" skills --version
fi

if part pre-commit; then

echo "--- pre-commit: the skills-lint hook, installed from this repository, on a temp repository"
REV=$(git rev-parse HEAD)
[ -z "$(git status --porcelain)" ] || echo "note: uncommitted changes are not seen: pre-commit clones $REV"
REPO="$TMP/repo"
mkdir -p "$REPO/skills"
cp -r "$FIXTURES/benign/pdf" "$REPO/skills/pdf"
echo "# A project" > "$REPO/README.md"
cat > "$REPO/.pre-commit-config.yaml" <<YAML
repos:
  - repo: $ROOT
    rev: $REV
    hooks:
      - id: skills-lint
YAML
(
    cd "$REPO"
    export PRE_COMMIT_HOME="$TMP/pre-commit-home" MATURIN_PEP517_ARGS="--profile dev"
    git init -q
    git config user.email ci@example.invalid && git config user.name CI && git config commit.gpgSign false
    pre-commit install
    git add -A
    git commit -qm "a clean skill" || fail "the hook refused a clean skill"
    cp -r "$FIXTURES/malicious/weather" skills/weather
    git add -A
    if git commit -qm "a skill that pipes a download into bash" > "$TMP/hook.out" 2>&1; then
        fail "the hook let a remote-exec through"
    fi
    grep -q 'skills/weather/scripts/setup.sh:4:[0-9]*: error\[security/remote-exec\]' "$TMP/hook.out" \
        || fail "the hook did not name the finding: $(cat "$TMP/hook.out")"
    git reset -q HEAD skills/weather && rm -rf skills/weather
    echo "More." >> README.md
    git commit -qam "a change outside skills" || fail "the hook refused a change outside skills"
    echo "pre-commit: clean commits pass, the remote-exec was refused"
)
fi

if part action; then

echo "--- GitHub Action: the steps of action.yml"
PROJECT="$TMP/action-project"
mkdir -p "$PROJECT/skills" "$TMP/home"
cp -r "$FIXTURES/benign/pdf" "$PROJECT/skills/pdf"
export HOME="$TMP/home"
run_action() { python3 tests/ci/action.py "$ROOT" working-directory="$PROJECT" cargo-install-args="--locked --debug" "$@"; }
run_action command=lint paths=skills lint-args=--strict > "$TMP/action.out" || fail "lint of a clean skill: $(cat "$TMP/action.out")"
cp -r "$FIXTURES/malicious/weather" "$PROJECT/skills/weather"
if run_action command=lint paths=skills > "$TMP/action.out"; then fail "the action let a remote-exec through"; fi
grep -q '^::error file=skills/weather/scripts/setup.sh,line=4' "$TMP/action.out" \
    || fail "no annotation for the finding: $(cat "$TMP/action.out")"
# frozen: a project that installed `pdf` from a vendored folder.
rm -rf "$PROJECT/skills" && mkdir -p "$PROJECT/vendor" && cp -r "$FIXTURES/benign/pdf" "$PROJECT/vendor/pdf"
SKILLS="$HOME/.cache/skills-action/bin/skills"
(cd "$PROJECT" && "$SKILLS" add ./vendor/pdf -a claude-code -y -q)
run_action command=frozen > "$TMP/action.out" || fail "frozen on a faithful install: $(cat "$TMP/action.out")"
echo "changed upstream" >> "$PROJECT/vendor/pdf/forms.md"
# The installed copy is still as locked: frozen compares the disk with the lock and leaves the
# source alone (`skills check` is what asks the source).
run_action command=frozen > "$TMP/action.out" 2>&1 || fail "frozen of a project in place: $(cat "$TMP/action.out")"
# A checkout without the copy (a fresh CI machine): the source must reproduce the lock.
rm -rf "$PROJECT/.claude/skills/pdf"
if run_action command=frozen > "$TMP/action.out" 2>&1; then fail "frozen reproduced a skill that changed"; fi
grep -q 'cannot be reproduced exactly' "$TMP/action.out" || fail "frozen said: $(cat "$TMP/action.out")"
echo "action: lint annotates and fails on errors; frozen passes in place, and fails on a fresh checkout once the source moved"
fi

if part action-release; then

echo "--- GitHub Action: the download of a release, from a local HTTP server"
ARCHIVE=${SKILLS_RELEASE_ARCHIVE:?action-release needs SKILLS_RELEASE_ARCHIVE: the archive of release/build.sh}
[ -f "$ARCHIVE.sha256" ] || fail "no \`$ARCHIVE.sha256\` beside the archive"
NAME=$(basename "$ARCHIVE")
VERSION=$(sed -n '/^\[package\]/,/^\[/s/^version = "\(.*\)"/\1/p' Cargo.toml | head -1)
SITE="$TMP/site"
# good: the release as built; corrupt: one byte of the archive changed, checksum kept;
# unsigned: no checksum; other-platforms: a release without this runner's archive.
mkdir -p "$SITE"/{good,corrupt,unsigned,other-platforms}/"v$VERSION"
cp "$ARCHIVE" "$ARCHIVE.sha256" "$SITE/good/v$VERSION/"
cp "$ARCHIVE" "$ARCHIVE.sha256" "$SITE/corrupt/v$VERSION/"
python3 - "$SITE/corrupt/v$VERSION/$NAME" <<'PY'
import sys
with open(sys.argv[1], "r+b") as f:
    f.seek(4096)
    byte = f.read(1)
    f.seek(4096)
    f.write(bytes([byte[0] ^ 0xFF]))
PY
cp "$ARCHIVE" "$SITE/unsigned/v$VERSION/"
cp "$ARCHIVE.sha256" "$SITE/other-platforms/v$VERSION/skills-aarch64-apple-darwin.tar.gz.sha256"
python3 - "$SITE" "$TMP/port" 2>"$TMP/http.log" <<'PY' &
import functools, http.server, os, sys
handler = functools.partial(http.server.SimpleHTTPRequestHandler, directory=sys.argv[1])
server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
with open(sys.argv[2] + ".tmp", "w") as f:
    f.write(str(server.server_port))
os.rename(sys.argv[2] + ".tmp", sys.argv[2])
server.serve_forever()
PY
SERVER_PID=$!
for _ in $(seq 100); do [ -f "$TMP/port" ] && break; sleep 0.1; done
URL="http://127.0.0.1:$(cat "$TMP/port")"
PROJECT="$TMP/release-project"
mkdir -p "$PROJECT/skills"
cp -r "$FIXTURES/benign/pdf" "$PROJECT/skills/pdf"
fresh_home() { rm -rf "$TMP/home" && mkdir -p "$TMP/home"; export HOME="$TMP/home"; }
INSTALLED="$TMP/home/.cache/skills-action/bin/skills"
run_release() { python3 tests/ci/action.py "$ROOT" working-directory="$PROJECT" cargo-install-args="--locked --debug" "$@"; }

# A good release, named by the version input, then found from the tag the action is used at.
fresh_home
run_release command=lint paths=skills version="$VERSION" release-url="$URL/good" > "$TMP/action.out" 2>&1 \
    || fail "a good release: $(cat "$TMP/action.out")"
grep -q "sha256 [0-9a-f]\{64\} verified" "$TMP/action.out" || fail "no verification said: $(cat "$TMP/action.out")"
! grep -q "Compiling\|Installing.*skills-action" "$TMP/action.out" || fail "a good release was built from source: $(cat "$TMP/action.out")"
tar -xzf "$ARCHIVE" -C "$TMP" && cmp "$INSTALLED" "$TMP/${NAME%.tar.gz}/skills" || fail "the installed binary is not the release's"
fresh_home
ACTION_REF="v$VERSION" run_release command=lint paths=skills release-url="$URL/good" > "$TMP/action.out" 2>&1 \
    || fail "a good release at tag v$VERSION: $(cat "$TMP/action.out")"
grep -q "downloaded $URL/good/v$VERSION/$NAME" "$TMP/action.out" || fail "the tag did not choose the release: $(cat "$TMP/action.out")"
# The archive stays in the cached folder and is verified again on the next run.
run_release command=lint paths=skills version="$VERSION" release-url="$URL/good" > "$TMP/action.out" 2>&1 \
    || fail "a cached release: $(cat "$TMP/action.out")"
grep -q "from the cache" "$TMP/action.out" || fail "the cached archive was not used: $(cat "$TMP/action.out")"
echo "action-release: a good release is verified and run (by version, by tag, from the cache)"

# A corrupted archive: refused, with the reason, deleted, never run nor replaced by a build.
fresh_home
if run_release command=lint paths=skills version="$VERSION" release-url="$URL/corrupt" > "$TMP/action.out" 2>&1; then
    fail "a corrupted archive was accepted: $(cat "$TMP/action.out")"
fi
grep -q "::error title=skills download refused::\`$NAME\` of release v$VERSION does not match its checksum" "$TMP/action.out" \
    || fail "no clear error for a corrupted archive: $(cat "$TMP/action.out")"
[ ! -e "$INSTALLED" ] || fail "a corrupted archive left a binary"
! grep -q "Compiling\|Installing" "$TMP/action.out" || fail "a corrupted archive fell back to a build"
ls "$TMP/home/.cache/skills-action/release/$VERSION/" | grep -q . && fail "the corrupted archive stayed in the cache"
# Without a checksum: refused too.
fresh_home
if run_release command=lint paths=skills version="$VERSION" release-url="$URL/unsigned" > "$TMP/action.out" 2>&1; then
    fail "an archive without a checksum was accepted: $(cat "$TMP/action.out")"
fi
grep -q "no readable \`$NAME.sha256\`" "$TMP/action.out" || fail "no clear error without a checksum: $(cat "$TMP/action.out")"
[ ! -e "$INSTALLED" ] || fail "an archive without a checksum left a binary"
echo "action-release: a corrupted archive and one without a checksum are refused"

# A release without this platform: built from the action's source, and run.
fresh_home
run_release command=lint paths=skills version="$VERSION" release-url="$URL/other-platforms" > "$TMP/action.out" 2>&1 \
    || fail "the fallback build: $(cat "$TMP/action.out")"
grep -q "::notice::no release of skills $VERSION fits Linux X64: building" "$TMP/action.out" \
    || fail "no notice of the fallback: $(cat "$TMP/action.out")"
[ -x "$INSTALLED" ] && ! cmp -s "$INSTALLED" "$TMP/${NAME%.tar.gz}/skills" || fail "the fallback did not build"
grep -q "GET /other-platforms/v$VERSION/$NAME HTTP/1.1\" 404" "$TMP/http.log" || fail "the server was not asked: $(cat "$TMP/http.log")"
echo "action-release: a release without this platform falls back to building from source"
fi
