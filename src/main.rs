//! The `skills` binary: everything lives in the library so tests and the MCP server share it.

fn main() -> std::process::ExitCode {
    skills::run(std::env::args_os())
}
