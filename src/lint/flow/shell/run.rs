//! What a simple command runs, normalised: the program's basename with quotes and escapes
//! removed (`"/bin/s"\h` is `sh`), the wrappers that only start another command unwrapped
//! (`sudo`, `doas`, `env`, `nohup`, `timeout`, `nice`, `ionice`, `exec`, `command`, `builtin`,
//! `stdbuf`, `setsid`, `time`, `busybox`, `xargs`, `flock`, a prompt's `$`), and its arguments.
//!
//! Invariant: unwrapping only drops words from the front, so it ends after at most as many
//! steps as the command has words.

use super::syntax::Word;

/// One argument: its literal text when it has one (constants substituted), its shape (every
/// expansion as `…`), and the word it came from.
#[derive(Debug, Clone)]
pub struct Arg<'w> {
    pub text: Option<String>,
    pub shape: String,
    pub word: &'w Word,
}

impl Arg<'_> {
    /// The text to compare: the literal text, else the shape.
    pub fn str(&self) -> &str {
        self.text.as_deref().unwrap_or(&self.shape)
    }
}

/// A command after unwrapping.
#[derive(Debug, Clone)]
pub struct Run<'w> {
    /// The basename of the program, as the shell finds it.
    pub program: String,
    /// The program word itself (a path to a file it runs).
    pub path: Arg<'w>,
    pub args: Vec<Arg<'w>>,
    /// Whether `xargs` sits in front: what comes in on standard input becomes arguments.
    pub xargs: bool,
    /// `env -S STRING` and the like: a command line given as one string, to parse again.
    pub split: Option<String>,
}

/// The basename of a program word: the last `/`-separated component.
pub fn basename(path: &str) -> &str {
    path.rsplit(['/', '\\']).next().unwrap_or(path)
}

/// Options of wrappers that take a value as the next word.
fn takes_value(wrapper: &str, option: &str) -> bool {
    match wrapper {
        "sudo" => matches!(
            option,
            "-u" | "-g" | "-h" | "-p" | "-C" | "-D" | "-r" | "-t" | "-U" | "-T" | "-R"
        ),
        "doas" => option == "-u" || option == "-C",
        "env" => matches!(option, "-u" | "-C" | "--unset" | "--chdir"),
        "timeout" => matches!(option, "-s" | "-k" | "--signal" | "--kill-after"),
        "nice" => option == "-n" || option == "--adjustment",
        "ionice" => matches!(option, "-c" | "-n" | "-p" | "-P" | "-u"),
        "nsenter" => matches!(
            option,
            "-t" | "--target" | "-S" | "-G" | "--setuid" | "--setgid"
        ),
        "runuser" => matches!(option, "-u" | "-g" | "-G" | "--user" | "--group"),
        "systemd-run" => matches!(
            option,
            "-p" | "--property" | "--unit" | "-u" | "--uid" | "--gid"
        ),
        "watch" => matches!(option, "-n" | "--interval" | "-d"),
        "chroot" => matches!(option, "--userspec" | "--groups"),
        "exec" => option == "-a",
        "stdbuf" => matches!(option, "-i" | "-o" | "-e"),
        "xargs" => matches!(
            option,
            "-I" | "-L" | "-n" | "-P" | "-s" | "-d" | "-E" | "-a" | "--delimiter" | "--max-args"
        ),
        _ => false,
    }
}

/// Wrappers: programs that run the command after their own options.
const WRAPPERS: [&str; 28] = [
    "chroot",
    "nsenter",
    "unshare",
    "runuser",
    "setpriv",
    "systemd-run",
    "watch",
    "sudo",
    "doas",
    "env",
    "nohup",
    "timeout",
    "nice",
    "ionice",
    "exec",
    "command",
    "builtin",
    "stdbuf",
    "setsid",
    "time",
    "busybox",
    "xargs",
    "flock",
    "chronic",
    "unbuffer",
    "caffeinate",
    "torsocks",
    "proxychains4",
];

/// Prompt signs copied from a terminal in front of a command.
const PROMPTS: [&str; 4] = ["$", "%", ">", "PS>"];

/// Normalises a command line, `None` when nothing runs (`command -v x`, an empty line).
pub fn unwrap(mut args: Vec<Arg<'_>>) -> Option<Run<'_>> {
    let mut xargs = false;
    let mut split = None;
    loop {
        let first = args.first()?;
        let program = basename(first.str()).to_owned();
        if PROMPTS.contains(&first.str()) {
            args.remove(0);
            continue;
        }
        let program = program.strip_suffix(".exe").unwrap_or(&program).to_owned();
        if !WRAPPERS.contains(&program.as_str()) {
            let path = args.remove(0);
            return Some(Run {
                program,
                path,
                args,
                xargs,
                split,
            });
        }
        let wrapper = args.remove(0);
        if program == "command" || program == "builtin" {
            // `command -v x` and `-V` only say where `x` is.
            if args.first().is_some_and(|a| matches!(a.str(), "-v" | "-V")) {
                return None;
            }
        }
        if program == "xargs" {
            xargs = true;
        }
        if program == "timeout" || program == "chroot" {
            skip_options(&program, &mut args, &mut split);
            // Its duration, or the new root.
            if !args.is_empty() {
                args.remove(0);
            }
            continue;
        }
        if program == "flock" {
            skip_options(&program, &mut args, &mut split);
            // Its lock file.
            if !args.is_empty() {
                args.remove(0);
            }
            continue;
        }
        skip_options(&program, &mut args, &mut split);
        if program == "env" || program == "sudo" || program == "doas" {
            // `NAME=value` settings before the command.
            while args.first().is_some_and(|a| {
                let s = a.str();
                s.split_once('=').is_some_and(|(name, _)| {
                    !name.is_empty() && name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_')
                })
            }) {
                args.remove(0);
            }
        }
        if split.is_some() {
            // `env -S 'cmd args'`: the string is the command line.
            return Some(Run {
                program,
                path: wrapper,
                args,
                xargs,
                split,
            });
        }
    }
}

fn skip_options(wrapper: &str, args: &mut Vec<Arg<'_>>, split: &mut Option<String>) {
    while let Some(first) = args.first() {
        let s = first.str().to_owned();
        if s == "--" {
            args.remove(0);
            return;
        }
        if !s.starts_with('-') || s == "-" {
            return;
        }
        if wrapper == "nice" && s[1..].bytes().all(|b| b.is_ascii_digit()) {
            args.remove(0);
            continue;
        }
        args.remove(0);
        if wrapper == "env" && (s == "-S" || s == "--split-string") {
            if !args.is_empty() {
                let string = args.remove(0);
                *split = Some(string.str().to_owned());
            }
            return;
        }
        if let Some(rest) = s
            .strip_prefix("-S")
            .filter(|r| wrapper == "env" && !r.is_empty())
        {
            *split = Some(rest.to_owned());
            return;
        }
        if takes_value(wrapper, &s) && !args.is_empty() {
            args.remove(0);
        }
    }
}

/// An option: its name, the argument that gave its value, and the value.
pub type Flag<'a, 'w> = (String, Option<&'a Arg<'w>>, Option<String>);

/// Options of a command as `(flag, value)` pairs and its operands, given which short and long
/// options take a value: short clusters are split (`-sLO` is `-s -L -O`; `-qO-` gives `-O`
/// the value `-`), `--name=value` is split at `=`.
pub fn options<'a, 'w>(
    args: &'a [Arg<'w>],
    short_values: &str,
    long_values: &[&str],
) -> (Vec<Flag<'a, 'w>>, Vec<&'a Arg<'w>>) {
    let mut flags = Vec::new();
    let mut operands = Vec::new();
    let mut i = 0;
    let mut only_operands = false;
    while i < args.len() {
        let arg = &args[i];
        let s = arg.str();
        i += 1;
        if only_operands || !s.starts_with('-') || s == "-" {
            operands.push(arg);
            continue;
        }
        if s == "--" {
            only_operands = true;
            continue;
        }
        if let Some(long) = s.strip_prefix("--") {
            match long.split_once('=') {
                Some((name, value)) => {
                    flags.push((format!("--{name}"), None, Some(value.to_owned())));
                }
                None if long_values.contains(&long) => {
                    let value = args.get(i);
                    i += 1;
                    flags.push((s.to_owned(), value, value.map(|v| v.str().to_owned())));
                }
                None => flags.push((s.to_owned(), None, None)),
            }
            continue;
        }
        let cluster: Vec<char> = s[1..].chars().collect();
        for (k, c) in cluster.iter().enumerate() {
            if short_values.contains(*c) {
                let rest: String = cluster[k + 1..].iter().collect();
                if rest.is_empty() {
                    let value = args.get(i);
                    i += 1;
                    flags.push((format!("-{c}"), value, value.map(|v| v.str().to_owned())));
                } else {
                    flags.push((format!("-{c}"), None, Some(rest)));
                }
                break;
            }
            flags.push((format!("-{c}"), None, None));
        }
    }
    (flags, operands)
}
