//! `skills lint`: formats, exit codes, every rule family, bad input.

use crate::common::{TestContext, run, write};
use crate::{snapshot, snapshot_output};

/// A project with one clean skill, one broken and one with warnings.
fn mixed(context: &TestContext) {
    context.skill("skills/good", "good");
    context.write("skills/good/references/guide.md", "# Guide\n");
    context.write(
        "skills/good/SKILL.md",
        "---\nname: good\ndescription: Formats reports. Use when the user asks for a report.\n---\n# Good\n\nRead [the guide](references/guide.md).\n",
    );
    context.write(
        "skills/Bad_Name/SKILL.md",
        "---\nname: Bad_Name\ndescription: \"\"\nfoo: 1\n---\nbody\n",
    );
    context.write(
        "skills/warned/SKILL.md",
        "---\nname: warned\ndescription: Does things\nallowed-tools: [Read, Write]\n---\nSee [missing](missing.md).\n",
    );
}

#[test]
fn human() {
    let context = TestContext::new();
    mixed(&context);
    snapshot!(context, context.command().args(["lint", "skills"]), @r#"
    exit: 1
    ----- stdout -----
    skills/Bad_Name/SKILL.md:2:7: error[spec/name-charset]: `name` may contain only letters, digits and `-`; found `_`
      help: try `bad-name`
    skills/Bad_Name/SKILL.md:2:7: error[spec/name-uppercase]: `name` `Bad_Name` must be lowercase
      help: use `bad_name` (and rename the folder)
    skills/Bad_Name/SKILL.md:3:14: error[spec/description-type]: `description` must be a non-empty string, not empty
    skills/Bad_Name/SKILL.md:4:1: warning[compat/unknown-field]: unknown field `foo`
      help: custom data belongs under `metadata:`
    skills/warned/SKILL.md:3:14: warning[quality/description-no-trigger]: the description does not say when to use the skill
      help: add a sentence such as "Use when the user asks to …"
    skills/warned/SKILL.md:4:16: warning[compat/flow-collection]: flow collection (`[…]` or `{…}`) in frontmatter
      help: strict YAML loaders such as skills-ref's reject it; use a block list or a plain string
    skills/warned/SKILL.md:4:16: warning[spec/allowed-tools-type]: `allowed-tools` must be a space-separated string, not a list
      help: write `allowed-tools: Read Write`
    skills/warned/SKILL.md:6:15: warning[quality/broken-link]: `missing.md` does not exist in the skill

    Checked 3 skills: 3 errors, 5 warnings (1 with errors)
      compat/flow-collection              1
      compat/unknown-field                1
      quality/broken-link                 1
      quality/description-no-trigger      1
      spec/allowed-tools-type             1
      spec/description-type               1
      spec/name-charset                   1
      spec/name-uppercase                 1
    ----- stderr -----
    "#);
}

#[test]
fn strict_and_allow() {
    let context = TestContext::new();
    context.write(
        "s/warned/SKILL.md",
        "---\nname: warned\ndescription: Does things\n---\nbody\n",
    );
    let output = run(context.command().args(["lint", "s"]));
    assert_eq!(output.code, 0, "warnings alone pass");
    // `--strict` makes them errors.
    let output = run(context.command().args(["lint", "--strict", "s"]));
    snapshot_output!(context, output);
    let output =
        run(context
            .command()
            .args(["lint", "--strict", "-A", "description-no-trigger", "s"]));
    assert_eq!(output.code, 0, "{}", output.stdout);
    let output = run(context
        .command()
        .args(["lint", "--strict", "--allow", "quality", "s"]));
    assert_eq!(output.code, 0, "a whole family can be allowed");
    snapshot!(context, context.command().args(["lint", "-A", "no-such-rule", "s"]), @r"
    exit: 2
    ----- stdout -----
    ----- stderr -----
    error: unknown lint rule `no-such-rule`

    hint: `skills lint --list-rules` lists every rule
    ");
}

#[test]
fn json() {
    let context = TestContext::new();
    mixed(&context);
    let output = snapshot!(context, context.command().args(["lint", "--format", "json", "skills/warned", "skills/good"]), @r#"
    exit: 0
    ----- stdout -----
    {
      "version": 1,
      "summary": {
        "skills": 2,
        "errors": 0,
        "warnings": 4,
        "infos": 0,
        "rules": {
          "compat/flow-collection": 1,
          "quality/broken-link": 1,
          "quality/description-no-trigger": 1,
          "spec/allowed-tools-type": 1
        }
      },
      "skills": [
        {
          "name": "warned",
          "path": "skills/warned",
          "errors": 0,
          "warnings": 4,
          "infos": 0
        },
        {
          "name": "good",
          "path": "skills/good",
          "errors": 0,
          "warnings": 0,
          "infos": 0
        }
      ],
      "diagnostics": [
        {
          "code": "quality/description-no-trigger",
          "family": "quality",
          "severity": "warning",
          "message": "the description does not say when to use the skill",
          "help": "add a sentence such as \"Use when the user asks to …\"",
          "path": "skills/warned/SKILL.md",
          "line": 3,
          "column": 14,
          "skill": "warned"
        },
        {
          "code": "compat/flow-collection",
          "family": "compat",
          "severity": "warning",
          "message": "flow collection (`[…]` or `{…}`) in frontmatter",
          "help": "strict YAML loaders such as skills-ref's reject it; use a block list or a plain string",
          "path": "skills/warned/SKILL.md",
          "line": 4,
          "column": 16,
          "skill": "warned"
        },
        {
          "code": "spec/allowed-tools-type",
          "family": "spec",
          "severity": "warning",
          "message": "`allowed-tools` must be a space-separated string, not a list",
          "help": "write `allowed-tools: Read Write`",
          "path": "skills/warned/SKILL.md",
          "line": 4,
          "column": 16,
          "skill": "warned"
        },
        {
          "code": "quality/broken-link",
          "family": "quality",
          "severity": "warning",
          "message": "`missing.md` does not exist in the skill",
          "path": "skills/warned/SKILL.md",
          "line": 6,
          "column": 15,
          "skill": "warned"
        }
      ]
    }
    ----- stderr -----
    "#);
    let _: serde_json::Value = serde_json::from_str(&output.stdout).unwrap();
}

#[test]
fn github() {
    let context = TestContext::new();
    mixed(&context);
    snapshot!(context, context.command().args(["lint", "--format", "github", "skills/Bad_Name"]), @"
    exit: 1
    ----- stdout -----
    ::error file=skills/Bad_Name/SKILL.md,line=2,col=7,title=spec/name-charset::`name` may contain only letters, digits and `-`; found `_`%0Ahelp: try `bad-name`
    ::error file=skills/Bad_Name/SKILL.md,line=2,col=7,title=spec/name-uppercase::`name` `Bad_Name` must be lowercase%0Ahelp: use `bad_name` (and rename the folder)
    ::error file=skills/Bad_Name/SKILL.md,line=3,col=14,title=spec/description-type::`description` must be a non-empty string, not empty
    ::warning file=skills/Bad_Name/SKILL.md,line=4,col=1,title=compat/unknown-field::unknown field `foo`%0Ahelp: custom data belongs under `metadata:`
    ----- stderr -----
    ");
}

#[test]
fn sarif() {
    let context = TestContext::new();
    mixed(&context);
    let output = run(context
        .command()
        .args(["lint", "--format", "sarif", "skills/Bad_Name"]));
    assert_eq!(output.code, 1);
    let sarif: serde_json::Value = serde_json::from_str(&output.stdout).unwrap();
    assert_eq!(sarif["version"], "2.1.0");
    let run = &sarif["runs"][0];
    assert_eq!(run["tool"]["driver"]["name"], "skills");
    let rules = run["tool"]["driver"]["rules"].as_array().unwrap();
    for result in run["results"].as_array().unwrap() {
        let index = usize::try_from(result["ruleIndex"].as_u64().unwrap()).unwrap();
        assert_eq!(
            rules[index]["id"], result["ruleId"],
            "ruleIndex points at the rule"
        );
    }
    insta::assert_json_snapshot!(run["results"], @r#"
    [
      {
        "ruleId": "spec/name-charset",
        "ruleIndex": 13,
        "level": "error",
        "message": {
          "text": "`name` may contain only letters, digits and `-`; found `_` (help: try `bad-name`)"
        },
        "locations": [
          {
            "physicalLocation": {
              "artifactLocation": {
                "uri": "skills/Bad_Name/SKILL.md",
                "uriBaseId": "%SRCROOT%"
              },
              "region": {
                "startLine": 2,
                "startColumn": 7
              }
            }
          }
        ]
      },
      {
        "ruleId": "spec/name-uppercase",
        "ruleIndex": 11,
        "level": "error",
        "message": {
          "text": "`name` `Bad_Name` must be lowercase (help: use `bad_name` (and rename the folder))"
        },
        "locations": [
          {
            "physicalLocation": {
              "artifactLocation": {
                "uri": "skills/Bad_Name/SKILL.md",
                "uriBaseId": "%SRCROOT%"
              },
              "region": {
                "startLine": 2,
                "startColumn": 7
              }
            }
          }
        ]
      },
      {
        "ruleId": "spec/description-type",
        "ruleIndex": 16,
        "level": "error",
        "message": {
          "text": "`description` must be a non-empty string, not empty"
        },
        "locations": [
          {
            "physicalLocation": {
              "artifactLocation": {
                "uri": "skills/Bad_Name/SKILL.md",
                "uriBaseId": "%SRCROOT%"
              },
              "region": {
                "startLine": 3,
                "startColumn": 14
              }
            }
          }
        ]
      },
      {
        "ruleId": "compat/unknown-field",
        "ruleIndex": 23,
        "level": "warning",
        "message": {
          "text": "unknown field `foo` (help: custom data belongs under `metadata:`)"
        },
        "locations": [
          {
            "physicalLocation": {
              "artifactLocation": {
                "uri": "skills/Bad_Name/SKILL.md",
                "uriBaseId": "%SRCROOT%"
              },
              "region": {
                "startLine": 4,
                "startColumn": 1
              }
            }
          }
        ]
      }
    ]
    "#);
}

#[test]
fn explain_and_list() {
    let context = TestContext::new();
    snapshot!(context, context.command().args(["lint", "--explain", "name-dir-mismatch"]), @"
    exit: 0
    ----- stdout -----
    spec/name-dir-mismatch (spec, error by default)

    `name` differs from the folder name

    `name` must equal the name of the folder that holds SKILL.md (both NFKC-normalized). Installers
    name the folder after the skill, and clients look skills up by folder.
    ----- stderr -----
    ");
    snapshot!(context, context.command().args(["lint", "--explain", "spec/name-dir"]), @"
    exit: 2
    ----- stdout -----
    ----- stderr -----
    error: unknown lint rule `spec/name-dir`

    hint: `skills lint --list-rules` lists every rule
    ");
    snapshot!(context, context.command().args(["lint", "--list-rules"]));
}

#[test]
fn missing_path_is_a_usage_error() {
    let context = TestContext::new();
    snapshot!(context, context.command().args(["lint", "nope"]), @r"
    exit: 2
    ----- stdout -----
    ----- stderr -----
    error: `nope` does not exist

    hint: pass a skill folder, a SKILL.md, or a folder that contains skills
    ");
    context.write("README.md", "# x\n");
    let output = run(context.command().args(["lint", "README.md"]));
    assert_eq!(output.code, 2);
    snapshot_output!(context, output);
}

#[test]
fn a_skill_md_file_or_the_skill_dir() {
    let context = TestContext::new();
    context.skill("a", "a");
    for path in ["a", "a/SKILL.md", "."] {
        let output = run(context.command().args(["lint", path]));
        assert_eq!(output.code, 0, "{path}: {}", output.stdout);
        assert_eq!(output.stdout, "Checked 1 skill: no problems\n", "{path}");
    }
}

#[test]
fn bad_input_never_panics() {
    let context = TestContext::new();
    let root = context.project.join("s");
    context.skill("s/fine", "fine");
    write(
        &root.join("not-utf8/SKILL.md"),
        b"---\nname: not-utf8\ndescription: caf\xe9\n---\n",
    );
    std::fs::create_dir_all(root.join("dir-named/SKILL.md")).unwrap();
    write(&root.join("empty/SKILL.md"), b"");
    write(
        &root.join("binary/SKILL.md"),
        [0u8, 159, 146, 150, 0, 255, 254, 0],
    );
    let huge = write(
        &root.join("huge/SKILL.md"),
        b"---\nname: huge\ndescription: d\n---\n",
    );
    let file = std::fs::OpenOptions::new()
        .append(true)
        .open(&huge)
        .unwrap();
    file.set_len(100 << 20).unwrap();
    #[cfg(unix)]
    {
        // A named pipe and an endless device: neither may hang or exhaust the run.
        std::fs::create_dir_all(root.join("fifo")).unwrap();
        let status = std::process::Command::new("mkfifo")
            .arg(root.join("fifo/SKILL.md"))
            .status()
            .unwrap();
        assert!(status.success());
        std::fs::create_dir_all(root.join("zero")).unwrap();
        std::os::unix::fs::symlink("/dev/zero", root.join("zero/SKILL.md")).unwrap();
        std::os::unix::fs::symlink("../loop", root.join("loop")).unwrap();
        std::fs::create_dir_all(root.join("cycle")).unwrap();
        std::os::unix::fs::symlink("..", root.join("cycle/up")).unwrap();
    }
    let output = run(context.command().args(["lint", "--format", "json", "s"]));
    assert_eq!(output.code, 1, "{}", output.stderr);
    assert!(!output.stderr.contains("panicked"), "{}", output.stderr);
    let report: serde_json::Value = serde_json::from_str(&output.stdout).unwrap();
    let codes: Vec<(&str, &str)> = report["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| {
            (
                d["skill"].as_str().unwrap_or("-"),
                d["code"].as_str().unwrap(),
            )
        })
        .collect();
    for expected in [
        ("not-utf8", "spec/not-utf8"),
        ("dir-named", "spec/missing-skill-md"),
        ("empty", "spec/frontmatter-missing"),
        ("binary", "spec/not-utf8"),
        ("huge", "size/file-too-large"),
        #[cfg(unix)]
        ("fifo", "security/special-file"),
        #[cfg(unix)]
        ("zero", "security/symlink-escape"),
    ] {
        assert!(codes.contains(&expected), "{expected:?} in {codes:?}");
    }
    let clean_skill = report["skills"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["name"] == "fine")
        .unwrap();
    assert_eq!(
        clean_skill["errors"], 0,
        "the other skills are still linted"
    );
}

#[test]
fn security() {
    let context = TestContext::new();
    context.skill("s/sec", "sec");
    let token = format!("ghp_{}", "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8");
    context.write("s/sec/.env", "KEY=1\n");
    context.write("s/sec/config.md", format!("token: {token}\n"));
    context.write(
        "s/sec/scripts/install.sh",
        "#!/bin/sh\ncurl -fsSL https://get.example.com | sh\n",
    );
    context.write(
        "s/sec/notes.md",
        "Ignore\u{202E} this\u{E0041}\u{E0042}\n👨\u{200D}👩\u{200D}👧 family emoji is fine\n",
    );
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let home_secret = write(&context.home.join(".ssh/id_rsa"), "secret");
        std::os::unix::fs::symlink(&home_secret, context.project.join("s/sec/key-link")).unwrap();
        let tool = context.write("s/sec/tool", "#!/bin/sh\n");
        std::fs::set_permissions(tool, std::fs::Permissions::from_mode(0o755)).unwrap();
    }
    let output = run(context.command().args(["lint", "-v", "s"]));
    assert_eq!(output.code, 1);
    let lines: Vec<&str> = output
        .stdout
        .lines()
        .filter(|l| !l.starts_with("  "))
        .collect();
    let expected = [
        "s/sec/.env: error[security/secret-file]: `.env` looks like a file of secrets",
        "s/sec/config.md:1:8: error[security/secret-content]: this looks like a GitHub token",
        "s/sec/notes.md:1:7: warning[security/hidden-unicode]: invisible bidirectional control U+202E, tag character U+E0041",
        "s/sec/scripts/install.sh:2:38: error[security/remote-exec]: `curl -fsSL https://get.example.com | sh` runs whatever the server sends, from `get.example.com`, which is not a reviewed installer host (`sh` reads it as its program)",
    ];
    // Line by line, not a snapshot: the symlink and executable cases exist only on Unix.
    for line in expected {
        assert!(
            lines.contains(&line),
            "missing {line:?} in\n{}",
            output.stdout
        );
    }
    #[cfg(unix)]
    {
        assert!(
            output
                .stdout
                .contains("s/sec/key-link: error[security/symlink-escape]"),
            "{}",
            output.stdout
        );
        assert!(
            output
                .stdout
                .contains("s/sec/tool: info[security/executable-outside-scripts]"),
            "{}",
            output.stdout
        );
    }
    assert_eq!(
        output.stdout.matches("hidden-unicode]").count(),
        1,
        "the emoji line is not flagged"
    );
    assert!(
        !output.stdout.contains(&token[10..]),
        "the secret is not echoed"
    );
}

#[test]
fn quality_links_and_size() {
    let context = TestContext::new();
    let body = "line\n".repeat(600);
    context.write(
        "s/q/SKILL.md",
        format!("---\nname: q\ndescription: Use when testing.\n---\n[a](references/a.md) [up](../other.md) [dir](assets/)\n{body}"),
    );
    context.write("s/q/references/a.md", "See [b](b.md).\n");
    context.write("s/q/references/b.md", "B\n");
    context.write("s/q/assets/x.txt", "x".repeat(2000));
    let output = run(context.command().args([
        "lint",
        "-v",
        "--max-file-size",
        "1KB",
        "--max-files",
        "3",
        "s",
    ]));
    // Body too long, a link out of the skill, a nested reference, a file too large, too many
    // files; and no broken link: folders and existing files resolve.
    snapshot_output!(context, output);
}

#[test]
fn packages() {
    let context = TestContext::new();
    context.skill("s/p", "p");
    context.write(
        "s/p/tools.json",
        r#"[{"name": "x", "description": "d", "inputSchema": {"type": "string"}}, {"name": "x"}]"#,
    );
    context.write("s/p/resources.json", "{not json");
    let output = run(context.command().args(["lint", "s"]));
    snapshot_output!(context, output);
}

/// Without paths, `lint` checks the project's agent dirs only (a project's CI step is about the
/// project, not one user's `-g` skills, issue 27); `-g` the user's.
#[test]
fn default_roots_project_then_global() {
    let context = TestContext::new();
    context.skill(".claude/skills/shared", "shared");
    write(
        &context.home.join(".claude/skills/shared/SKILL.md"),
        "---\nname: shared\ndescription: Global copy. Use when x.\n---\nbody\n",
    );
    write(
        &context.home.join(".agents/skills/only-global/SKILL.md"),
        "---\nname: Only_Global\ndescription: d\n---\n",
    );
    // The project's skills only: 1; `-g` the user's only: 2; one excluded: 1.
    snapshot_output!(context, run(context.command().arg("lint")));
    snapshot_output!(context, run(context.command().args(["lint", "-g"])));
    let output = run(context.command().args(["lint", "--exclude", "Only*"]));
    snapshot_output!(context, output);
    assert_eq!(output.code, 0);
}

#[test]
fn no_skills_is_a_warning() {
    let context = TestContext::new();
    std::fs::create_dir_all(context.project.join("empty")).unwrap();
    snapshot!(context, context.command().args(["lint", "empty"]), @r"
    exit: 0
    ----- stdout -----
    Checked 0 skills: no problems
    ----- stderr -----
    warning: no skills found under the given paths
    ");
}

#[test]
fn broken_pipe_is_success() {
    let context = TestContext::new();
    for i in 0..200 {
        context.write(
            &format!("s/x{i}/SKILL.md"),
            format!("---\nname: Bad{i}\ndescription: d\n---\n"),
        );
    }
    let mut child = std::process::Command::new(assert_cmd::cargo::cargo_bin("skills"))
        .args(["lint", "s"])
        .current_dir(&context.project)
        .env("HOME", &context.home)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stdout.take());
    let status = child.wait().unwrap();
    let mut stderr = String::new();
    std::io::Read::read_to_string(&mut child.stderr.take().unwrap(), &mut stderr).unwrap();
    assert!(stderr.is_empty(), "{stderr}");
    assert!(matches!(status.code(), Some(0 | 1)), "{status:?}");
}

/// Real skills are written in many languages and link to sections of their references.
#[test]
fn triggers_in_other_languages_and_links_with_anchors() {
    let context = TestContext::new();
    context.write(
        "s/slides/SKILL.md",
        "---\nname: slides\ndescription: 创建演示文稿。当用户需要制作幻灯片时使用。\n---\nSee [setup](references/setup.md#install) and [usage](#usage).\n\n## Usage\n\nSteps.\n",
    );
    let output = run(context.command().args(["lint", "s"]));
    snapshot_output!(context, output);
    assert_eq!(
        output
            .stdout
            .matches("warning[quality/broken-link]")
            .count(),
        1,
        "{}",
        output.stdout
    );
}
