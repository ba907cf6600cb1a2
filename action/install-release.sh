#!/usr/bin/env bash
# The Action's fast path: put the released `skills` binary for this runner into ROOT/bin,
# verified against the release's checksum. The archive and its checksum are kept in ROOT/release
# (the folder actions/cache saves), and verified again on every run before use.
#
#   action/install-release.sh ROOT
#
# Environment: SKILLS_VERSION (the release, without `v`), RUNNER_OS and RUNNER_ARCH (as GitHub
# sets them), SKILLS_RELEASE_URL (default https://github.com/skills-rs/skills/releases/download;
# the archive is SKILLS_RELEASE_URL/vVERSION/skills-TARGET.tar.gz, or .zip on Windows).
#
# Exit status: 0 installed; 3 no release fits (no archive for this platform or version, or
# GitHub out of reach): the caller builds from source; 2 refused: the archive does not match
# its checksum, the checksum is missing or malformed, or the archive holds no binary. A refused
# download is never run and never replaced by a build: it fails the step.
set -euo pipefail
ROOT=${1:?usage: install-release.sh ROOT}
VERSION=${SKILLS_VERSION:?SKILLS_VERSION is not set}
BASE=${SKILLS_RELEASE_URL:-https://github.com/skills-rs/skills/releases/download}
NO_RELEASE=3
REFUSED=2

refuse() { echo "::error title=skills download refused::$*" >&2; exit $REFUSED; }
no_release() { echo "no release fits: $*" >&2; exit $NO_RELEASE; }

case "${RUNNER_OS:-}-${RUNNER_ARCH:-}" in
    Linux-X64) target=x86_64-unknown-linux-gnu ;;
    Linux-ARM64) target=aarch64-unknown-linux-gnu ;;
    macOS-X64) target=x86_64-apple-darwin ;;
    macOS-ARM64) target=aarch64-apple-darwin ;;
    Windows-X64) target=x86_64-pc-windows-msvc ;;
    *) no_release "no binary is released for ${RUNNER_OS:-?} ${RUNNER_ARCH:-?}" ;;
esac
if [ "$RUNNER_OS" = Linux ] && ls /lib/ld-musl-* >/dev/null 2>&1; then
    no_release "the Linux binaries need glibc, and this runner has musl"
fi
case "$target" in
    *-windows-*) archive="skills-$target.zip" exe=skills.exe ;;
    *) archive="skills-$target.tar.gz" exe=skills ;;
esac
url="$BASE/v$VERSION/$archive"
dir="$ROOT/release/$VERSION"
mkdir -p "$dir"

# Fetches $1 to $2; prints the HTTP status (000 when the host is out of reach).
fetch() {
    curl --silent --show-error --location --retry 3 --connect-timeout 20 --max-time 300 \
        --output "$2.part" --write-out '%{http_code}' "$1" 2>"$2.err" || true
}

if [ -f "$dir/$archive" ] && [ -f "$dir/$archive.sha256" ]; then
    echo "skills $VERSION: $archive from the cache"
else
    rm -f "$dir/$archive" "$dir/$archive.sha256"
    status=$(fetch "$url" "$dir/$archive")
    case "$status" in
        200) mv "$dir/$archive.part" "$dir/$archive" ;;
        404) no_release "no \`$archive\` in release v$VERSION ($url: HTTP 404)" ;;
        *) no_release "\`$url\` answered HTTP $status $(cat "$dir/$archive.err" 2>/dev/null)" ;;
    esac
    status=$(fetch "$url.sha256" "$dir/$archive.sha256")
    [ "$status" = 200 ] || refuse "release v$VERSION has \`$archive\` but no readable \`$archive.sha256\` (HTTP $status): an archive that cannot be verified is not run"
    mv "$dir/$archive.sha256.part" "$dir/$archive.sha256"
    echo "skills $VERSION: downloaded $url"
fi
rm -f "$dir"/*.part "$dir"/*.err

# The checksum file reads `<64 hex digits>  <file name>`, as sha256sum writes it.
read -r expected name _ < "$dir/$archive.sha256" || true
if ! [[ "${expected:-}" =~ ^[0-9a-fA-F]{64}$ ]] || [ "${name#\*}" != "$archive" ]; then
    rm -f "$dir/$archive" "$dir/$archive.sha256"
    refuse "\`$archive.sha256\` of release v$VERSION is not \`<sha256>  $archive\`"
fi
if command -v sha256sum >/dev/null; then actual=$(sha256sum "$dir/$archive"); else actual=$(shasum -a 256 "$dir/$archive"); fi
actual=${actual%% *}
if [ "$(echo "$actual" | tr 'A-F' 'a-f')" != "$(echo "$expected" | tr 'A-F' 'a-f')" ]; then
    rm -f "$dir/$archive" "$dir/$archive.sha256"
    refuse "\`$archive\` of release v$VERSION does not match its checksum: expected sha256 $expected, got $actual ($url). The download is corrupt or was tampered with; it was deleted and not run"
fi
echo "skills $VERSION: sha256 $actual verified"

unpack=$(mktemp -d)
trap 'rm -rf "$unpack"' EXIT
case "$archive" in
    *.zip)  # Git Bash on Windows runners: unzip, else Python's zipfile
        if command -v unzip >/dev/null; then unzip -q "$dir/$archive" -d "$unpack"
        else "$(command -v python3 || command -v python)" -m zipfile -e "$dir/$archive" "$unpack"; fi ;;
    *) tar -xzf "$dir/$archive" -C "$unpack" ;;
esac
binary="$unpack/skills-$target/$exe"
[ -f "$binary" ] || refuse "\`$archive\` holds no \`skills-$target/$exe\`"
mkdir -p "$ROOT/bin"
cp "$binary" "$ROOT/bin/$exe.part"
chmod 755 "$ROOT/bin/$exe.part"
mv -f "$ROOT/bin/$exe.part" "$ROOT/bin/$exe"
echo "skills $VERSION: installed $ROOT/bin/$exe"
