//! A skill added at a commit (`SOURCE#<40-hex>`) stays followable: `check` reads the pin as a
//! commit, not as a branch or tag of that name.

use crate::add::fixture;
use crate::common::{TestContext, run};
use crate::gitfixture::Upstream;

#[test]
fn check_follows_an_entry_pinned_by_commit() {
    let context = TestContext::new();
    // Inside the project: a project lock's `file://` sources stay in its folder.
    let upstream = Upstream::from_dir(
        &context.project.join("upstream"),
        "acme/flat",
        &fixture("flat"),
    );
    let pinned = upstream.head();
    upstream.commit("later", |work| {
        std::fs::write(work.join("NEWS.md"), "later\n").unwrap();
    });
    let source = format!("{}#{pinned}", upstream.file_url());
    let output = run(context.command().args([
        "add",
        &source,
        "--skill",
        "csv-tools",
        "-a",
        "claude-code",
        "-y",
    ]));
    assert_eq!(output.code, 0, "{}", output.stderr);
    let output = run(context.command().args(["check", "--json"]));
    assert_eq!(output.code, 0, "{}{}", output.stdout, output.stderr);
    assert_eq!(output.stderr, "", "not unreachable, nor anything else");
    let document: serde_json::Value = serde_json::from_str(&output.stdout).unwrap();
    let skill = &document["skills"][0];
    assert_eq!(skill["status"], "up-to-date", "{document}");
    assert_eq!(
        skill["upstreamCommit"],
        pinned.as_str(),
        "the pin, not the later tip"
    );
}
