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
