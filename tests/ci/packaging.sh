#!/usr/bin/env bash
# `skills` one command away in CI, each way tested with the real tools:
#   1. the Python wheel (maturin, `bindings = "bin"`): built, installed in a fresh venv, run; and
#      run by `uvx` from the wheel file;
#   2. the pre-commit hook (.pre-commit-hooks.yaml): the real `pre-commit` installs it from this
#      repository into a temp git repository and runs it on commits;
#   3. the composite GitHub Action (action.yml): its steps run as a runner runs them
#      (tests/ci/action.py), for `lint` and `frozen`.
#
# Everything is built in the dev profile with the target dir that `cargo test` filled
# (CARGO_TARGET_DIR), so the wheel, the hook's `pip install` and the action's `cargo install`
# reuse the compiled dependencies instead of three release builds (minutes each on 2 cores). The
# source built and run is the same; only optimization differs.
#
# usage: tests/ci/packaging.sh [wheel] [pre-commit] [action]     (default: all three)
# Needs: python3 (with venv), git, cargo. Installs maturin, pre-commit, PyYAML and uv from PyPI
# into a temp venv. pre-commit clones this repository at HEAD: commit before running it locally.
set -euo pipefail
PARTS=" ${*:-wheel pre-commit action} "
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
cd "$ROOT"
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$ROOT/target}"
export CARGO_HOME="${CARGO_HOME:-$HOME/.cargo}" RUSTUP_HOME="${RUSTUP_HOME:-$HOME/.rustup}"
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
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
