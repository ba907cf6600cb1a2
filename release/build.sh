#!/usr/bin/env bash
# Builds the release archive of `skills` for one target: the one definition that the release
# workflow (.github/workflows/release.yml) runs on each platform's runner and `.ci/run` runs for
# Linux x86_64.
#
#   release/build.sh TARGET [OUT_DIR]      (OUT_DIR: target/dist by default)
#
# TARGET is a Rust target triple. Linux (`*-unknown-linux-gnu`) is built with cargo-zigbuild
# against glibc $SKILLS_GLIBC (2.17 by default: RHEL/CentOS 7, Debian 8, Ubuntu 14.04 and every
# later distribution), so one binary runs on every glibc Linux from the last ten years; zig
# and cargo-zigbuild come from PyPI (`ziglang`, `cargo-zigbuild`), installed here when missing, so
# a machine that reaches only the package registries can build it. Other targets are built by
# cargo natively (macOS and Windows runners).
#
# Writes OUT_DIR/skills-TARGET.tar.gz (.zip on Windows) holding skills-TARGET/ with the binary,
# completions/, man/, README.md, the licences and THIRD-PARTY-LICENSES.txt, plus
# OUT_DIR/skills-TARGET.tar.gz.sha256 (`<hex>  <file name>`, what `sha256sum -c` reads).
# Prints the archive's path as the last line.
set -euo pipefail
TARGET=${1:?usage: release/build.sh TARGET [OUT_DIR]}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
cd "$ROOT"
OUT=$(mkdir -p "${2:-target/dist}" && cd "${2:-target/dist}" && pwd)
GLIBC=${SKILLS_GLIBC:-2.17}
CARGO_TARGET_DIR=${CARGO_TARGET_DIR:-$ROOT/target}
export CARGO_TARGET_DIR
PYTHON=$(command -v python3 || command -v python)
# zlib compiled in, not linked from the system (libz-sys would take a libz.so it finds).
export LIBZ_SYS_STATIC=1

case "$TARGET" in
    *-windows-*) exe=skills.exe ;;
    *) exe=skills ;;
esac

case "$TARGET" in
    *-unknown-linux-gnu)
        # zig (the C compiler and linker that pins the glibc version) and cargo-zigbuild, both as
        # wheels from PyPI into a venv of our own: seconds, where compiling cargo-zigbuild takes
        # minutes on 2 cores. cargo-zigbuild runs zig as `python -m ziglang` from that venv.
        ZIG_VENV="$CARGO_TARGET_DIR/release-tools"
        if [ ! -x "$ZIG_VENV/bin/cargo-zigbuild" ]; then
            echo "--- release: installing zig and cargo-zigbuild (PyPI) into $ZIG_VENV" >&2
            "$PYTHON" -m venv "$ZIG_VENV"
            "$ZIG_VENV/bin/pip" install -q --disable-pip-version-check "ziglang==0.15.2" "cargo-zigbuild==0.24.1"
        fi
        echo "--- release: cargo zigbuild --release --target $TARGET.$GLIBC" >&2
        PATH="$ZIG_VENV/bin:$PATH" cargo zigbuild --release --locked --target "$TARGET.$GLIBC"
        ;;
    *)
        echo "--- release: cargo build --release --target $TARGET" >&2
        cargo build --release --locked --target "$TARGET"
        ;;
esac
BINARY="$CARGO_TARGET_DIR/$TARGET/release/$exe"
[ -f "$BINARY" ] || { echo "error: no binary at \`$BINARY\`" >&2; exit 2; }
case "$TARGET" in
    *-linux-gnu)  # the promise of the glibc floor, checked on the symbols the binary imports
        newest=$(objdump -T "$BINARY" | grep -o 'GLIBC_[0-9.]*' | sed 's/GLIBC_//' | sort -V | tail -1 || true)
        if [ "$(printf '%s\n%s\n' "${newest:-0}" "$GLIBC" | sort -V | tail -1)" != "$GLIBC" ]; then
            echo "error: \`$BINARY\` needs glibc $newest, newer than $GLIBC" >&2
            exit 2
        fi
        echo "--- release: the binary needs glibc $newest at most (floor $GLIBC)" >&2
        # Nothing beyond glibc and libgcc_s (unwinding) may be loaded from the system.
        extra=$(objdump -p "$BINARY" | awk '/NEEDED/ {print $2}' \
            | grep -Ev '^(libc|libm|libpthread|libdl|librt|libgcc_s)\.so\.[0-9]+$|^ld-linux' || true)
        if [ -n "$extra" ]; then
            echo "error: \`$BINARY\` links system libraries beyond glibc: $extra" >&2
            exit 2
        fi
        ;;
esac

NAME="skills-$TARGET"
STAGE=$(mktemp -d)
trap 'rm -rf "$STAGE"' EXIT
mkdir -p "$STAGE/$NAME"
cp "$BINARY" "$STAGE/$NAME/$exe"
cp -R completions man "$STAGE/$NAME/"
cp README.md LICENSE-MIT LICENSE-APACHE "$STAGE/$NAME/"
"$PYTHON" release/third-party-licenses.py "$TARGET" > "$STAGE/$NAME/THIRD-PARTY-LICENSES.txt"

case "$TARGET" in
    *-windows-*)
        ARCHIVE="$OUT/$NAME.zip"
        rm -f "$ARCHIVE"
        (cd "$STAGE" && "$PYTHON" -m zipfile -c "$ARCHIVE" "$NAME")
        ;;
    *)
        ARCHIVE="$OUT/$NAME.tar.gz"
        # Owner, group and times fixed so that the archive depends on its content only.
        if tar --version 2>/dev/null | grep -q GNU; then
            reproducible=(--owner=0 --group=0 --numeric-owner --mtime=@0 --sort=name)
        else
            reproducible=(--uid 0 --gid 0)  # bsdtar (macOS)
        fi
        (cd "$STAGE" && tar "${reproducible[@]}" -cf - "$NAME") | gzip -n -9 > "$ARCHIVE"
        ;;
esac
if command -v sha256sum >/dev/null; then sum=$(sha256sum "$ARCHIVE"); else sum=$(shasum -a 256 "$ARCHIVE"); fi
echo "${sum%% *}  $(basename "$ARCHIVE")" > "$ARCHIVE.sha256"
echo "--- release: $(basename "$ARCHIVE") ($(wc -c < "$ARCHIVE" | tr -d ' ') bytes; binary $(wc -c < "$BINARY" | tr -d ' ') bytes)" >&2
echo "$ARCHIVE"
