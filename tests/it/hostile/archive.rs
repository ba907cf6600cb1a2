//! Hostile downloads: archives (tar, tar.gz, zip) whose members climb, are absolute, are links
//! out of the skill or links written through, and well-known indexes whose names and `files`
//! are paths. Served over loopback HTTP.

use std::io::Write as _;

use serde_json::json;

use super::{Before, Canary, says, skill_md};
use crate::common::{Output, TestContext, run};
use crate::httpserver::HttpServer;
use crate::web::{gzip, tar, zip};

/// `add URL -s '*' -y` in the project: refused, nothing written, the canary untouched; the
/// output.
fn refused(context: &TestContext, canary: &Canary, url: &str) -> Output {
    let before = Before::of(&context.project);
    let output = run(context
        .command()
        .args(["add", url, "-s", "*", "-a", "claude-code", "-y"])
        .env("SKILLS_HTTP_TIMEOUT", "5"));
    assert_ne!(output.code, 0, "{url}: {}", output.stderr);
    assert!(!output.stderr.contains("panicked"), "{}", output.stderr);
    before.assert_unchanged();
    canary.assert_untouched();
    output
}

/// `path` (absolute) as a member name that climbs to it from wherever the skill lands.
fn climbing(path: &std::path::Path) -> String {
    format!(
        "{}{}",
        "../".repeat(20),
        path.display().to_string().trim_start_matches('/')
    )
}

/// A tar member of any type with a raw name (and a link target for links).
fn member(
    builder: &mut tar::Builder<Vec<u8>>,
    kind: tar::EntryType,
    name: &str,
    link: &str,
    body: &[u8],
) {
    let mut header = tar::Header::new_gnu();
    header.set_entry_type(kind);
    header.set_size(body.len() as u64);
    header.set_mode(0o644);
    let raw = &mut header.as_old_mut().name;
    raw[..name.len()].copy_from_slice(name.as_bytes());
    if !link.is_empty() {
        let raw = &mut header.as_old_mut().linkname;
        raw[..link.len()].copy_from_slice(link.as_bytes());
    }
    header.set_cksum();
    builder.append(&header, body).unwrap();
}

#[test]
fn archives_cannot_write_or_read_outside() {
    let context = TestContext::new();
    let canary = Canary::plant(&context);
    let bashrc = canary.root.join(".bashrc");
    let (absolute, climb) = (bashrc.display().to_string(), climbing(&bashrc));
    let key = canary.root.join(".ssh/id_ed25519").display().to_string();
    let root = canary.root.display().to_string();
    let server = HttpServer::start();
    let skill = skill_md("evil");
    server.file(
        "/climb.tar",
        tar(&[("SKILL.md", skill.as_bytes()), (&climb, b"echo pwned\n")]),
    );
    server.file(
        "/absolute.tgz",
        gzip(&tar(&[
            ("SKILL.md", skill.as_bytes()),
            (&absolute, b"echo pwned\n"),
        ])),
    );
    // A link to a folder outside, then a file written "into" the link.
    let mut through = tar::Builder::new(Vec::new());
    member(
        &mut through,
        tar::EntryType::Regular,
        "SKILL.md",
        "",
        skill.as_bytes(),
    );
    member(&mut through, tar::EntryType::Symlink, "out", &root, b"");
    member(
        &mut through,
        tar::EntryType::Regular,
        "out/.bashrc",
        "",
        b"pwned",
    );
    server.file("/through.tar", through.into_inner().unwrap());
    // A hard link to a secret outside: reading it would copy the key into the skill.
    let mut hard = tar::Builder::new(Vec::new());
    member(
        &mut hard,
        tar::EntryType::Regular,
        "SKILL.md",
        "",
        skill.as_bytes(),
    );
    member(&mut hard, tar::EntryType::Link, "key", &key, b"");
    server.file("/hard.tar", hard.into_inner().unwrap());
    // A `.git` folder member with a config that runs commands.
    server.file(
        "/dotgit.tar",
        tar(&[
            ("SKILL.md", skill.as_bytes()),
            (".GIT/config", b"[core]\n\tfsmonitor = touch ../PWNED\n"),
        ]),
    );
    server.file(
        "/climb.zip",
        zip(&[
            ("SKILL.md", skill.as_bytes(), false),
            (&climb, b"pwned", false),
        ]),
    );
    server.file(
        "/absolute.zip",
        zip(&[
            ("SKILL.md", skill.as_bytes(), false),
            (&absolute, b"pwned", false),
        ]),
    );
    server.file("/link.zip", zip_with_link(&skill, &root));
    for (path, says_what) in [
        ("/climb.tar", "climbs with `..`"),
        ("/absolute.tgz", "is absolute"),
        ("/through.tar", "out"),
        ("/hard.tar", "key"),
        ("/dotgit.tar", ".GIT"),
        ("/climb.zip", "climbs with `..`"),
        ("/absolute.zip", "is absolute"),
        ("/link.zip", "out"),
    ] {
        let output = refused(&context, &canary, &format!("{}{path}", server.url));
        says(&output.stderr, &[says_what]);
    }
}

/// A zip whose `out` is a symlink (unix mode 0o120000) to `target`, then a file under it.
fn zip_with_link(skill: &str, target: &str) -> Vec<u8> {
    let mut writer = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    let options = zip::write::SimpleFileOptions::default();
    writer.start_file("SKILL.md", options).unwrap();
    writer.write_all(skill.as_bytes()).unwrap();
    writer.add_symlink("out", target, options).unwrap();
    writer.start_file("out/.bashrc", options).unwrap();
    writer.write_all(b"pwned").unwrap();
    writer.finish().unwrap().into_inner()
}

#[test]
fn indexes_cannot_name_paths() {
    let context = TestContext::new();
    let canary = Canary::plant(&context);
    let bashrc = canary.root.join(".bashrc").display().to_string();
    let server = HttpServer::start();
    let index = |site: &str, skills: serde_json::Value| {
        server.file(
            &format!("/{site}/.well-known/agent-skills/index.json"),
            json!({ "skills": skills }).to_string(),
        );
    };
    index(
        "name",
        json!([{"name": "../../outside/skills/pdf", "description": "x", "files": ["SKILL.md"]}]),
    );
    index(
        "files",
        json!([{"name": "pdf", "description": "x", "files": ["SKILL.md", "../../../outside/.bashrc"]}]),
    );
    index(
        "absolute",
        json!([{"name": "pdf", "description": "x", "files": ["SKILL.md", bashrc]}]),
    );
    index(
        "git",
        json!([{"name": "pdf", "description": "x", "files": ["SKILL.md", ".git/hooks/post-checkout"]}]),
    );
    for site in ["name", "files", "absolute", "git"] {
        server.file(
            &format!("/{site}/.well-known/agent-skills/pdf/SKILL.md"),
            skill_md("pdf"),
        );
        let output = refused(&context, &canary, &format!("{}/{site}", server.url));
        assert!(
            output.stderr.contains("not a safe relative path")
                || output.stderr.contains("invalid skill name"),
            "{site}: {}",
            output.stderr
        );
    }
}
