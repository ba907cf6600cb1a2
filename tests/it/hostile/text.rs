//! Hostile text: one-line descriptions of megabytes, a frontmatter that never closes, one word
//! of a megabyte. Every command that reads it finishes in time linear in its size (a generous
//! bound here, where quadratic work would take hours) and never panics.

use std::time::{Duration, Instant};

use crate::common::{TestContext, run, write};

#[test]
fn megabytes_of_one_line_are_read_in_linear_time() {
    let context = TestContext::new();
    let skills = context.project.join(".claude/skills");
    // A 10 MB description on one line, of words and of one word.
    let words = "word ".repeat(2 << 20);
    write(
        &skills.join("words/SKILL.md"),
        format!("---\nname: words\ndescription: {words}\n---\nbody\n"),
    );
    let word = "x".repeat(1 << 20);
    write(
        &skills.join("word/SKILL.md"),
        format!("---\nname: word\ndescription: {word}\n---\nbody\n"),
    );
    // A frontmatter that never closes, 10 MB long.
    write(
        &skills.join("open/SKILL.md"),
        format!("---\nname: open\ndescription: {}", "y: z\n".repeat(2 << 20)),
    );
    let started = Instant::now();
    for args in [
        &["prompt"][..],
        &["prompt", "--format", "json"],
        &["lint", ".claude/skills"],
        &["list"],
        &["list", "--json"],
        &["manifest"],
    ] {
        let output = run(context.command().args(args));
        assert!(
            !output.stderr.contains("panicked"),
            "{args:?}: {}",
            output.stderr
        );
    }
    assert!(started.elapsed() < Duration::from_secs(120));
}

#[test]
fn a_local_source_whose_links_form_a_dag_is_walked_in_bounded_time() {
    use std::os::unix::fs::symlink;
    let context = TestContext::new();
    let source = context.temp.path().join("dag");
    write(
        &source.join("skills/dag/SKILL.md"),
        "---\nname: dag\ndescription: Links. Use when asked.\n---\nbody\n",
    );
    // Thirty levels, each folder linking twice to the next: 2^30 paths through links.
    let levels = 30;
    for level in 0..levels {
        let dir = source.join(format!("skills/dag/l{level}"));
        std::fs::create_dir_all(&dir).unwrap();
        if level + 1 < levels {
            symlink(format!("../l{}", level + 1), dir.join("a")).unwrap();
            symlink(format!("../l{}", level + 1), dir.join("b")).unwrap();
        } else {
            write(&dir.join("leaf.md"), "leaf\n");
        }
    }
    // And the same shape above the skills, where discovery searches.
    for level in 0..levels {
        let dir = source.join(format!("d{level}"));
        std::fs::create_dir_all(&dir).unwrap();
        if level + 1 < levels {
            symlink(format!("../d{}", level + 1), dir.join("a")).unwrap();
            symlink(format!("../d{}", level + 1), dir.join("b")).unwrap();
        }
    }
    let started = Instant::now();
    for args in [
        &["add", "--list"][..],
        &["add", "-s", "*", "-a", "claude-code", "-y"],
    ] {
        let output = run(context.command().args(args).arg(&source));
        assert!(
            !output.stderr.contains("panicked"),
            "{args:?}: {}",
            output.stderr
        );
    }
    assert!(started.elapsed() < Duration::from_secs(120));
}
