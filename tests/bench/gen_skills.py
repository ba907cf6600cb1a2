#!/usr/bin/env python3
"""Generate N synthetic, real-world-shaped skills for benchmarks.

Each skill: a ~250-line SKILL.md (frontmatter, headings, lists, code blocks, links), a script in
scripts/, and a reference file in references/. With --defects P, about P% of the skills carry a
typical problem (a name with uppercase or `_`, a description without a trigger, a flow list, a broken
link, an overlong body, a client extension, a hidden character) so that lint has something to
count. Deterministic: the same arguments give the same bytes.

usage: gen_skills.py OUT_DIR [N] [--defects P]
"""
import os
import random
import sys

WORDS = ("data report table chart pdf invoice deploy review test lint format parse build cloud "
         "query schema migrate audit export import render image audio video text email calendar "
         "summarize translate classify search index cache monitor alert backup restore").split()


def body(rng, name, lines):
    out = [f"# {name.replace('-', ' ').title()}", "", "## When to use", ""]
    while len(out) < lines:
        kind = rng.random()
        if kind < 0.15:
            out += ["", f"## {rng.choice(WORDS).title()} {rng.choice(WORDS)}", ""]
        elif kind < 0.30:
            out += ["```bash", f"python scripts/run.py --{rng.choice(WORDS)} input.{rng.choice(['csv', 'json', 'md'])}",
                    f"{rng.choice(WORDS)} --verbose | tee out.log", "```"]
        elif kind < 0.40:
            out.append(f"- See [the {rng.choice(WORDS)} guide](references/guide.md) for details.")
        else:
            n = rng.randint(8, 16)
            out.append(f"{rng.randint(1, 9)}. " + " ".join(rng.choice(WORDS) for _ in range(n)) + ".")
    return out[:lines]


def skill(rng, root, i, defect):
    name = f"{rng.choice(WORDS)}-{rng.choice(WORDS)}-{i}"
    description = (f"{rng.choice(WORDS).title()} and {rng.choice(WORDS)} {rng.choice(WORDS)} files. "
                   f"Use when the user asks to {rng.choice(WORDS)} or {rng.choice(WORDS)} them.")
    fm = [f"name: {name}", f"description: {description}", "license: MIT",
          "metadata:", "  author: bench", f'  version: "1.{i % 10}"']
    lines = 250
    folder = name
    if defect == "uppercase":
        fm[0] = f"name: {name.title()}"
    elif defect == "underscore":
        fm[0] = f"name: {name.replace('-', '_')}"
        folder = name.replace('-', '_')
    elif defect == "no-trigger":
        fm[1] = f"description: {rng.choice(WORDS).title()} {rng.choice(WORDS)} files."
    elif defect == "flow-list":
        fm.append("allowed-tools: [Read, Bash]")
    elif defect == "extension":
        fm.append("disable-model-invocation: true")
    elif defect == "long":
        lines = 620
    elif defect == "hidden":
        fm[1] = fm[1] + "\u200b"
    text = "---\n" + "\n".join(fm) + "\n---\n" + "\n".join(body(rng, name, lines)) + "\n"
    if defect == "broken-link":
        text += "\nAlso read [the missing notes](references/missing.md).\n"
    d = os.path.join(root, folder)
    os.makedirs(os.path.join(d, "scripts"), exist_ok=True)
    os.makedirs(os.path.join(d, "references"), exist_ok=True)
    with open(os.path.join(d, "SKILL.md"), "w", encoding="utf-8") as f:
        f.write(text)
    with open(os.path.join(d, "scripts", "run.py"), "w") as f:
        f.write("#!/usr/bin/env python3\nimport sys\n\n" +
                "\n".join(f"def step_{k}(x):\n    return x * {k}\n" for k in range(20)) +
                "\nif __name__ == '__main__':\n    print(step_1(len(sys.argv)))\n")
    with open(os.path.join(d, "references", "guide.md"), "w") as f:
        f.write(f"# {name} guide\n\n" + "\n".join(" ".join(rng.choice(WORDS) for _ in range(12)) for _ in range(60)) + "\n")


def main():
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    defects = 0.0
    if "--defects" in sys.argv:
        defects = float(sys.argv[sys.argv.index("--defects") + 1]) / 100
        args = [a for a in args if a != sys.argv[sys.argv.index("--defects") + 1]]
    root, n = args[0], int(args[1]) if len(args) > 1 else 10000
    rng = random.Random(42)
    kinds = ["uppercase", "underscore", "no-trigger", "flow-list", "extension", "long", "hidden", "broken-link"]
    os.makedirs(root, exist_ok=True)
    for i in range(n):
        defect = rng.choice(kinds) if rng.random() < defects else None
        skill(rng, root, i, defect)


if __name__ == "__main__":
    main()
