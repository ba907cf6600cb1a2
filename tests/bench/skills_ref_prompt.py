#!/usr/bin/env python3
"""skills-ref's to_prompt() over every skill folder under ROOT, in one Python process."""
import sys
import time
from pathlib import Path

from skills_ref import to_prompt

root = Path(sys.argv[1])
dirs = sorted(p.parent for p in root.glob("*/SKILL.md"))
start = time.perf_counter()
out = to_prompt(dirs)
sys.stdout.write(out + "\n")
print(f"skills-ref to_prompt: {len(dirs)} skills, {time.perf_counter() - start:.2f} s", file=sys.stderr)
