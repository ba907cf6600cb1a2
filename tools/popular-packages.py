#!/usr/bin/env python3
"""Build the popular-package lists the install gate ships (src/lint/flow/popular/*.txt).

The typosquat rule flags a package installed by name that is one edit away from a popular
package and is not popular itself; these lists say which names are popular. They come from
public download counts: the workplace's package lists (PyPI: rank among the 15,000 most
downloaded; npm: downloads a month), top N per ecosystem, one normalized name a line, most
popular first. Deterministic: the same input gives the same bytes.

usage: tools/popular-packages.py [PACKAGES_DIR] [N]
       (default /work/.library/env/packages, 15000)
"""
import csv
import os
import re
import sys

csv.field_size_limit(1 << 30)


def pypi_norm(name):
    return re.sub(r"[-_.]+", "-", name).lower()


def pypi(path, n):
    ranked = []
    with open(path, encoding="utf-8", errors="replace", newline="") as f:
        rows = csv.reader(f, delimiter="\t", quoting=csv.QUOTE_NONE)
        next(rows)
        for row in rows:
            if len(row) < 4 or not row[3].strip().isdigit():
                continue
            ranked.append((int(row[3]), pypi_norm(row[0])))
    ranked.sort()
    return unique(name for _, name in ranked)[:n]


def npm(path, n):
    counted = []
    with open(path, encoding="utf-8", errors="replace", newline="") as f:
        rows = csv.reader(f, delimiter="\t", quoting=csv.QUOTE_NONE)
        next(rows)
        for row in rows:
            if len(row) < 3 or not row[2].strip().isdigit():
                continue
            counted.append((-int(row[2]), row[0].lower()))
    counted.sort()
    return unique(name for _, name in counted)[:n]


def unique(names):
    seen, out = set(), []
    for name in names:
        if name and name not in seen and "\n" not in name:
            seen.add(name)
            out.append(name)
    return out


def main():
    src = sys.argv[1] if len(sys.argv) > 1 else "/work/.library/env/packages"
    n = int(sys.argv[2]) if len(sys.argv) > 2 else 15000
    out = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "src", "lint", "flow", "popular")
    os.makedirs(out, exist_ok=True)
    for eco, build in (("pypi", pypi), ("npm", npm)):
        names = build(os.path.join(src, f"{eco}.tsv"), n)
        with open(os.path.join(out, f"{eco}.txt"), "w", encoding="utf-8", newline="\n") as f:
            f.write("\n".join(names) + "\n")
        print(f"{eco}: {len(names)} names", file=sys.stderr)


if __name__ == "__main__":
    main()
