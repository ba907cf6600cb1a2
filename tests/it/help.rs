//! Every `--help` page, snapshotted: the CLI's documentation is part of its interface.

use clap::CommandFactory;

use crate::common::{TestContext, run};
use crate::snapshot_output;

#[test]
fn help_pages() {
    let context = TestContext::new();
    let command = skills::cli::Cli::command();
    let mut pages = vec![("skills".to_owned(), vec!["--help".to_owned()])];
    for sub in command.get_subcommands() {
        let name = sub.get_name().to_owned();
        pages.push((format!("skills-{name}"), vec![name, "--help".to_owned()]));
    }
    for (name, args) in pages {
        let output = run(context.command().args(&args));
        assert_eq!(output.code, 0, "{name}: {}", output.stderr);
        assert!(output.stderr.is_empty(), "{name}: help goes to stdout");
        insta::assert_snapshot!(name, output.stdout);
    }
}

#[test]
fn version() {
    let context = TestContext::new();
    let output = run(context.command().arg("--version"));
    assert_eq!(
        output.stdout,
        format!("skills {}\n", env!("CARGO_PKG_VERSION"))
    );
}

#[test]
fn usage_errors_exit_2() {
    let context = TestContext::new();
    let output = run(context.command().arg("no-such-command"));
    assert_eq!(output.code, 2);
    snapshot_output!(context, output);
    let output = run(context.command().args(["lint", "--format", "xml"]));
    assert_eq!(output.code, 2);
    snapshot_output!(context, output);
}
