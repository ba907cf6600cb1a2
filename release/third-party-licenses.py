#!/usr/bin/env python3
"""Prints the licences of everything compiled into the `skills` binary for one target: each crate
of its normal dependency graph, and the C libraries that `-sys` and `-src` crates vendor into it
(libgit2 sits inside libgit2-sys). The release archives
carry the result as THIRD-PARTY-LICENSES.txt, since MIT, BSD and Apache-2.0 ask for their
notices to travel with the binary.

usage: third-party-licenses.py TARGET   (reads `cargo metadata`; needs the crates fetched)
"""
import json
import os
import subprocess
import sys

NOTICE_PREFIXES = ("license", "licence", "copying", "notice", "unlicense")
# Vendored C sources whose licence files live below the crate's root.
VENDORED = {"libgit2-sys": "libgit2"}


def notices(folder):
    found = []
    for entry in sorted(os.listdir(folder)):
        path = os.path.join(folder, entry)
        if os.path.isfile(path) and entry.lower().startswith(NOTICE_PREFIXES):
            found.append(path)
    return found


def main():
    target = sys.argv[1]
    meta = json.loads(subprocess.check_output(
        ["cargo", "metadata", "--locked", "--format-version", "1", "--filter-platform", target]))
    packages = {p["id"]: p for p in meta["packages"]}
    nodes = {n["id"]: n for n in meta["resolve"]["nodes"]}
    root = meta["resolve"]["root"]
    seen, todo = set(), [root]
    while todo:
        node = nodes[todo.pop()]
        for dep in node["deps"]:
            kinds = {k["kind"] for k in dep["dep_kinds"]}
            name = packages[dep["pkg"]]["name"]
            shipped = None in kinds or ("build" in kinds and name.endswith("-src"))
            if shipped and dep["pkg"] not in seen:
                seen.add(dep["pkg"])
                todo.append(dep["pkg"])
    texts = {}  # licence text -> the packages that carry it
    listing = []
    for pkg in sorted((packages[i] for i in seen), key=lambda p: (p["name"], p["version"])):
        folder = os.path.dirname(pkg["manifest_path"])
        files = notices(folder)
        if pkg["name"] in VENDORED and os.path.isdir(os.path.join(folder, VENDORED[pkg["name"]])):
            files += notices(os.path.join(folder, VENDORED[pkg["name"]]))
        label = f"{pkg['name']} {pkg['version']}"
        listing.append(f"{label}: {pkg.get('license') or 'see its licence file'}"
                       + (f" <{pkg['repository']}>" if pkg.get("repository") else ""))
        for path in files:
            with open(path, encoding="utf-8", errors="replace") as f:
                texts.setdefault(f.read().strip(), []).append(f"{label} ({os.path.relpath(path, folder)})")
    out = ["Third-party software compiled into `skills` for " + target,
           "", f"{len(listing)} crates (name, version, licence expression):", ""]
    out += listing
    for text, users in texts.items():
        out += ["", "=" * 78, "Used by: " + ", ".join(users), "=" * 78, "", text]
    sys.stdout.write("\n".join(out) + "\n")


if __name__ == "__main__":
    main()
