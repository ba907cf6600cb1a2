//! Holes a red team found after the hostile suite: credentials typed into a web URL reaching the
//! lock and the terminal, and into any URL reaching a grammar error; `use` handing over what the
//! install gate refuses; `serve --stdio` queueing replies without bound.

use serde_json::json;

use super::{says, skill_md};
use crate::common::{TestContext, run};
use crate::httpserver::HttpServer;

/// A token a user typed into a URL (`https://user:TOKEN@host/…`).
const TOKEN: &str = "ghp_REDTEAMtoken0123456789";

/// `add` of a well-known index and of a direct `SKILL.md`, both with a token in the URL: the
/// token may be sent (it is the user's), but never recorded in the committed lock nor printed.
#[test]
fn web_source_credentials_stay_out_of_lock_and_terminal() {
    let server = HttpServer::start();
    let index = json!({"skills": [{"name": "demo", "description": "Demo skill for tests.", "files": ["SKILL.md"]}]});
    server.file("/.well-known/skills/index.json", index.to_string());
    server.file("/.well-known/skills/demo/SKILL.md", skill_md("demo"));
    let with_token = server
        .url
        .replace("http://", &format!("http://user:{TOKEN}@"));
    for url in [
        format!("{with_token}/"),
        format!("{with_token}/.well-known/skills/demo/SKILL.md"),
    ] {
        let context = TestContext::new();
        let output = run(context
            .command()
            .args(["add", &url, "-a", "claude-code", "-y"]));
        assert_eq!(output.code, 0, "{url}: {}", output.stderr);
        let lock = std::fs::read_to_string(context.project.join("skills-lock.json")).unwrap();
        let address = server.url.trim_start_matches("http://");
        says(&lock, &[address]);
        says(&output.stderr, &["Installed 1 skill(s) from", address]);
        for (what, text) in [
            ("lock", &lock),
            ("stdout", &output.stdout),
            ("stderr", &output.stderr),
        ] {
            assert!(
                !text.contains(TOKEN),
                "{url}: the token is in the {what}:\n{text}"
            );
            assert!(
                !text.contains("user:"),
                "{url}: the userinfo is in the {what}:\n{text}"
            );
        }
    }
    // The credential was still used for the request, as the user asked.
    let requests = server.requests();
    assert!(
        requests.iter().any(|r| r.ends_with("[authorization]")),
        "{requests:?}"
    );
}

/// Every grammar error quotes its input without the credentials typed into it.
#[test]
fn grammar_errors_redact_credentials() {
    let context = TestContext::new();
    for (input, error) in [
        ("https://user:{T}@-bad.example/o/r.git", "is not a source"),
        (
            "https://user:{T}@github.com/o/r/tree/main/%2e%2e/x",
            "unsafe subpath",
        ),
        (
            "https://user:{T}@gitlab.example/g/r/-/tree/main/../../x",
            "unsafe subpath",
        ),
        (
            "https://user:{T}@example.com/o/r.git#--upload-pack=x",
            "invalid ref",
        ),
        ("https://{T}@github.com/o", "does not name a repository"),
        (
            "https://user:{T}@dev.azure.com/o/p/_git/r?path=/../x",
            "unsafe subpath",
        ),
    ] {
        let input = input.replace("{T}", TOKEN);
        let output = run(context.command().args(["add", &input, "-y"]));
        assert_eq!(output.code, 2, "{input}: {}", output.stderr);
        says(&output.stderr, &["error: ", error]);
        assert!(
            !output.stderr.contains(TOKEN) && !output.stdout.contains(TOKEN),
            "{input}: the token was printed:\n{}",
            output.stderr
        );
    }
}
