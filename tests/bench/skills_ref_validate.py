#!/usr/bin/env python3
"""skills-ref's validate() over every skill folder under ROOT, in one Python process."""
import os
import sys
import time
from pathlib import Path

from skills_ref import validate

root = Path(sys.argv[1])
dirs = sorted(p.parent for p in root.glob("*/SKILL.md"))
start = time.perf_counter()
invalid = sum(1 for d in dirs if validate(d))
print(f"skills-ref: {len(dirs)} skills, {invalid} invalid, {time.perf_counter() - start:.2f} s", file=sys.stderr)
