//! `skills list`: what is installed where, and where it came from.

use crate::common::{TestContext, run, write};
use crate::snapshot;

#[test]
fn table_and_json() {
    let context = TestContext::new();
    context.skill(".agents/skills/pdf", "pdf");
    #[cfg(unix)]
    {
        std::fs::create_dir_all(context.project.join(".claude/skills")).unwrap();
        std::os::unix::fs::symlink(
            "../../.agents/skills/pdf",
            context.project.join(".claude/skills/pdf"),
        )
        .unwrap();
    }
    context.skill(".claude/skills/review", "review");
    context.skill(".sisu/skills/review", "review");
    context.write(
        "skills-lock.json",
        r#"{"version": 1, "skills": {"pdf": {"source": "acme/skills", "sourceType": "github", "ref": "main",
            "commit": "0123456789abcdef0123456789abcdef01234567",
            "computedHash": "799cb59755eb15ba60969619c8f0334ea22fb555783bc2b7f78c2c869c770c11"}}}"#,
    );
    snapshot!(context, context.command().arg("list"), @"
    exit: 0
    ----- stdout -----
    pdf	universal, claude-code	acme/skills	main (0123456789ab)	.agents/skills/pdf	Does pdf things. Use when the user asks for pdf.
    review	claude-code	local		.claude/skills/review	Does review things. Use when the user asks for review.
    review (shadowed)	sisu	local		.sisu/skills/review	Does review things. Use when the user asks for review.
    ----- stderr -----
    ");
    snapshot!(context, context.command().args(["ls", "--json"]), @r#"
    exit: 0
    ----- stdout -----
    {
      "version": 1,
      "skills": [
        {
          "name": "pdf",
          "path": "[TEMP]/project/.agents/skills/pdf",
          "scope": "project",
          "agents": [
            "Amp",
            "Antigravity",
            "Antigravity CLI",
            "Cline",
            "Codex",
            "Cursor",
            "Deep Agents",
            "Dexto",
            "Droid",
            "Firebender",
            "fx",
            "Gemini CLI",
            "GitHub Copilot",
            "Kilo Code",
            "Kimi Code CLI",
            "Loaf",
            "OpenCode",
            "Pi",
            "Replit",
            "Sarvam Code",
            "Warp",
            "Zed",
            "PromptScript",
            "Claude Code"
          ],
          "source": "acme/skills",
          "sourceUrl": null,
          "sourceType": "github",
          "description": "Does pdf things. Use when the user asks for pdf.",
          "agentIds": [
            "amp",
            "antigravity",
            "antigravity-cli",
            "cline",
            "codex",
            "cursor",
            "deepagents",
            "dexto",
            "droid",
            "firebender",
            "fx",
            "gemini-cli",
            "github-copilot",
            "kilo",
            "kimi-code-cli",
            "loaf",
            "opencode",
            "pi",
            "replit",
            "sarvam-code",
            "warp",
            "zed",
            "promptscript",
            "universal",
            "claude-code"
          ],
          "ref": "main",
          "commit": "0123456789abcdef0123456789abcdef01234567"
        },
        {
          "name": "review",
          "path": "[TEMP]/project/.claude/skills/review",
          "scope": "project",
          "agents": [
            "Claude Code"
          ],
          "source": null,
          "sourceUrl": null,
          "sourceType": null,
          "description": "Does review things. Use when the user asks for review.",
          "agentIds": [
            "claude-code"
          ]
        },
        {
          "name": "review",
          "path": "[TEMP]/project/.sisu/skills/review",
          "scope": "project",
          "agents": [
            "SISU"
          ],
          "source": null,
          "sourceUrl": null,
          "sourceType": null,
          "description": "Does review things. Use when the user asks for review.",
          "agentIds": [
            "sisu"
          ],
          "shadowedBy": ".claude/skills/review"
        }
      ]
    }
    ----- stderr -----
    "#);
    let output = run(context.command().args(["list", "--json", "-a", "sisu"]));
    let json: serde_json::Value = serde_json::from_str(&output.stdout).unwrap();
    assert_eq!(json["skills"].as_array().unwrap().len(), 1);
    assert_eq!(json["skills"][0]["shadowedBy"], ".claude/skills/review");
}

#[test]
fn global_scope_and_empty() {
    let context = TestContext::new();
    snapshot!(context, context.command().arg("list"), @"
    exit: 0
    ----- stdout -----
    ----- stderr -----
    No skills installed in this project
    hint: `skills list -g` lists the user's skills; `skills add owner/repo` installs some
    ");
    write(
        &context.home.join(".claude/skills/mine/SKILL.md"),
        "---\nname: mine\ndescription: Mine. Use when asked.\n---\nbody\n",
    );
    let output = run(context.command().args(["list", "-g", "--json"]));
    let json: serde_json::Value = serde_json::from_str(&output.stdout).unwrap();
    assert_eq!(json["skills"][0]["name"], "mine");
    assert_eq!(
        json["skills"][0]["agentIds"],
        serde_json::json!(["claude-code"])
    );
    assert_eq!(
        json["skills"][0]["agents"],
        serde_json::json!(["Claude Code"])
    );
    assert_eq!(json["skills"][0]["scope"], "global");
    let output = run(context.command().args(["list", "-a", "nope"]));
    assert_eq!(output.code, 2);
}

#[test]
fn broken_lock_is_an_error() {
    let context = TestContext::new();
    context.skill(".agents/skills/pdf", "pdf");
    context.write("skills-lock.json", r#"{"version": 1, "skills": {"pdf": {"source": "x", "sourceType": "svn", "computedHash": "x"}}}"#);
    snapshot!(context, context.command().arg("list"), @"
    exit: 2
    ----- stdout -----
    ----- stderr -----
    error: `[TEMP]/project/skills-lock.json`: entry `pdf` has an unknown `sourceType` `svn`

    hint: fix the file by hand or restore it from version control; `skills` never drops entries it cannot read
    ");
}

/// `list -g` reads the user's lock: a skill added with `add -g` shows its source, not `local`
/// (the user's lock used to be ignored).
#[test]
fn global_skills_show_their_source() {
    let context = TestContext::new();
    let source = context.skill("src/pdf", "pdf");
    let added = run(context
        .command()
        .args(["add", "-g", "-y", "-a", "claude-code"])
        .arg(source.parent().unwrap()));
    assert_eq!(added.code, 0, "{}", added.stderr);
    let output = run(context.command().args(["list", "-g", "--json"]));
    let json: serde_json::Value = serde_json::from_str(&output.stdout).unwrap();
    // Not `local`, the word for a skill no lock knows: the path it was added from.
    let source = json["skills"][0]["source"].as_str().unwrap();
    assert!(source.ends_with("/src/pdf"), "{source}");
}
