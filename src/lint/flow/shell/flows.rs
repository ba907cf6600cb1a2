//! Following data through shell programs: what a command fetched from the network, read from a
//! raw connection or decoded, through pipes, variables, files, here-documents, here-strings and
//! command and process substitutions, to the point where an interpreter runs it.
//!
//! The walk keeps one [`State`] for a whole file (its code blocks read in order), so that a file
//! downloaded in one place and run in another — `curl -o f URL; …; sh f`, `chmod +x f && ./f`,
//! a block that fetches and a later block that runs — is one flow. Files are known by their
//! basename, variables by name; a value that holds nothing fetched is forgotten when assigned
//! again. Strings that the shell parses again (`sh -c`, `eval`, `su -c`, `env -S`) are parsed
//! and walked again, at most [`MAX_REPARSE`] levels deep; functions are walked where they are
//! called, within the same budget; so the walk's cost stays linear in the text.

use std::collections::HashMap;

use super::run::{self, Arg, Run};
use super::syntax::{self, Command, List, Part, Pipeline, RedirectOp, Simple, Word};

/// How many times a string is parsed again inside another (`sh -c "eval '…'"`).
pub const MAX_REPARSE: usize = 4;
/// Commands walked per file, function calls and parsed strings included.
const BUDGET: usize = 200_000;

/// What a value carries.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Taint {
    /// The addresses it was fetched from; `""` for one the text does not spell out.
    pub urls: Vec<String>,
    /// Read from a raw connection (`nc`, `socat`, `openssl s_client`, `ssh host cmd`).
    pub raw: bool,
    /// Decoded (`base64 -d`, `xxd -r`).
    pub decoded: bool,
    /// Where it was fetched (file offset).
    pub at: usize,
}

impl Taint {
    pub fn is_remote(&self) -> bool {
        !self.urls.is_empty() || self.raw
    }

    fn is_some(&self) -> bool {
        self.is_remote() || self.decoded
    }

    fn join(&mut self, other: &Taint) {
        if !other.is_some() {
            return;
        }
        if !self.is_some() {
            self.at = other.at;
        }
        for url in &other.urls {
            if !self.urls.contains(url) && self.urls.len() < 8 {
                self.urls.push(url.clone());
            }
        }
        self.raw |= other.raw;
        self.decoded |= other.decoded;
    }
}

/// Fetched or decoded data that runs.
#[derive(Debug, Clone)]
pub struct Flow {
    pub taint: Taint,
    /// What runs it: "`sh` reads it from a pipe".
    pub sink: String,
    /// Offset of the command that runs it.
    pub at: usize,
    /// The index of the unit it runs in.
    pub unit: usize,
}

/// The walk over one file.
#[derive(Default)]
pub struct State {
    vars: HashMap<String, Taint>,
    /// Constant text of variables (`URL=https://…`), to spell out what commands use.
    consts: HashMap<String, String>,
    files: HashMap<String, Taint>,
    /// Folders an archive from the network was extracted into (`""`: the working folder),
    /// with the archive's taint: a file run from one is what was downloaded.
    extracted: Vec<(String, Taint)>,
    funcs: HashMap<String, List>,
    calls: usize,
    /// The text a here-document or here-string gives the command being dispatched: a shell
    /// reading its program from it runs that text.
    stdin_code: Option<String>,
    depth: usize,
    budget: usize,
    /// Offset of the unit being walked in the file, and its index.
    base: usize,
    unit: usize,
    pub flows: Vec<Flow>,
}

/// Interpreters and what in their command line is code.
struct Interp {
    /// Options whose value is code (`-c`, `-e`).
    code: &'static [&'static str],
    /// Options that take a value that is not code.
    values: &'static str,
    /// Whether options may be clustered with the code option (`-lc`).
    shell: bool,
}

fn interpreter(program: &str) -> Option<Interp> {
    let p = program.to_ascii_lowercase();
    let versioned = |name: &str| {
        p.strip_prefix(name)
            .is_some_and(|rest| rest.bytes().all(|b| b.is_ascii_digit() || b == b'.'))
    };
    Some(
        if matches!(
            p.as_str(),
            "sh" | "bash"
                | "zsh"
                | "dash"
                | "ksh"
                | "mksh"
                | "ash"
                | "yash"
                | "fish"
                | "csh"
                | "tcsh"
                | "rbash"
                | "posh"
                | "at"
                | "batch"
        ) {
            Interp {
                code: &["-c"],
                values: "oO",
                shell: true,
            }
        } else if versioned("python") || versioned("pypy") || p == "py" {
            Interp {
                code: &["-c"],
                values: "mWXQ",
                shell: false,
            }
        } else if versioned("perl") || p == "ruby" || p == "lua" || versioned("ruby") {
            Interp {
                code: &["-e", "-E"],
                values: "IM",
                shell: false,
            }
        } else if matches!(
            p.as_str(),
            "node" | "nodejs" | "bun" | "deno" | "tsx" | "ts-node"
        ) {
            Interp {
                code: &["-e", "--eval", "-p", "--print", "eval"],
                values: "r",
                shell: false,
            }
        } else if p == "php" {
            Interp {
                code: &["-r"],
                values: "dc",
                shell: false,
            }
        } else if matches!(p.as_str(), "pwsh" | "powershell") {
            Interp {
                code: &[
                    "-c",
                    "-command",
                    "-Command",
                    "-C",
                    "-EncodedCommand",
                    "-e",
                    "-enc",
                    "-ec",
                ],
                values: "",
                shell: false,
            }
        } else if matches!(
            p.as_str(),
            "osascript" | "tclsh" | "rscript" | "awk" | "gawk"
        ) {
            if matches!(p.as_str(), "awk" | "gawk") {
                return None;
            }
            Interp {
                code: &["-e"],
                values: "",
                shell: false,
            }
        } else {
            return None;
        },
    )
}

/// The shell command of `osascript`'s `do shell script "…"` in `script`, unescaped.
fn do_shell_script(script: &str) -> Option<String> {
    let lower = script.to_ascii_lowercase();
    let at = lower.find("do shell script")? + "do shell script".len();
    let rest = script[at..].trim_start().strip_prefix('"')?;
    let mut command = String::new();
    let mut chars = rest.chars();
    while let Some(c) = chars.next() {
        match c {
            '"' => return Some(command),
            '\\' => command.extend(chars.next()),
            c => command.push(c),
        }
    }
    Some(command)
}

/// Programs that write what they read (or the files they are given) to their output.
fn passes_files(program: &str) -> bool {
    matches!(
        program,
        "cat"
            | "tac"
            | "head"
            | "tail"
            | "sed"
            | "awk"
            | "gawk"
            | "grep"
            | "egrep"
            | "cut"
            | "sort"
            | "uniq"
            | "tr"
            | "rev"
            | "base64"
            | "base32"
            | "xxd"
            | "gunzip"
            | "zcat"
            | "gzip"
            | "bzip2"
            | "bzcat"
            | "xz"
            | "xzcat"
            | "zstd"
            | "zstdcat"
            | "openssl"
            | "iconv"
            | "dd"
            | "jq"
            | "yq"
            | "strings"
            | "fold"
            | "tee"
            | "uudecode"
            | "less"
            | "more"
    )
}

/// Programs whose output is not what they read: checksums, counts, archives extracted.
fn consumes(program: &str) -> bool {
    matches!(
        program,
        "sha256sum"
            | "sha512sum"
            | "sha1sum"
            | "md5sum"
            | "shasum"
            | "wc"
            | "tar"
            | "unzip"
            | "true"
            | "false"
            | "test"
            | "["
            | "cmp"
            | "diff"
            | "gpg"
            | "minisign"
            | "cosign"
    )
}

fn decodes(program: &str, args: &[Arg<'_>]) -> bool {
    let has = |f: &str| args.iter().any(|a| a.str() == f);
    match program {
        "base64" | "base32" => {
            has("-d")
                || has("--decode")
                || has("-D")
                || args.iter().any(|a| {
                    a.str().starts_with('-') && !a.str().starts_with("--") && a.str().contains('d')
                })
        }
        "xxd" => args
            .iter()
            .any(|a| a.str().starts_with('-') && a.str().contains('r')),
        "openssl" => has("-d") || has("base64") && has("-d"),
        "uudecode" | "rev" => true,
        // Filler deleted (`tr -d Q`) or letters rotated (`tr 'A-Za-z' 'N-ZA-Mn-za-m'`).
        "tr" => {
            let sets: Vec<&str> = args
                .iter()
                .map(super::run::Arg::str)
                .filter(|a| !a.starts_with('-'))
                .collect();
            (has("-d")
                && sets.len() == 1
                && sets[0].len() <= 3
                && sets[0].chars().all(|c| c.is_ascii_alphanumeric()))
                || sets
                    .iter()
                    .any(|s| s.contains("N-ZA-M") || s.contains("n-za-m"))
        }
        // Text spelled in escapes: `printf '\x63\x75…'`, `echo -e '\143…'`.
        "printf" | "echo" => args.iter().any(|a| escapes(a.str()) >= 4),
        "perl" | "ruby" => args
            .iter()
            .any(|a| a.str().contains("pack(") || a.str().contains("pack \"")),
        _ => false,
    }
}

/// How many characters of `s` are spelled as escapes that `printf` and `echo -e` decode:
/// `\x63`, `\143`, `\0143`, `\u0063`.
fn escapes(s: &str) -> usize {
    let b = s.as_bytes();
    let mut count = 0;
    let mut i = 0;
    while i + 1 < b.len() {
        if b[i] != b'\\' {
            i += 1;
            continue;
        }
        let next = b[i + 1];
        let digits =
            |from: usize, ok: fn(&u8) -> bool| b[from..].iter().take_while(|c| ok(c)).count();
        let used = match next {
            b'x' => digits(i + 2, u8::is_ascii_hexdigit).min(2),
            b'u' => digits(i + 2, u8::is_ascii_hexdigit).min(4),
            b'0'..=b'7' => digits(i + 1, |c| (b'0'..=b'7').contains(c)).min(4),
            _ => 0,
        };
        if used >= 2 {
            count += 1;
        }
        i += 2;
    }
    count
}

/// Where a URL literal is in an argument: the argument itself, or `host/path` without a scheme.
fn url_in(s: &str) -> Option<String> {
    if let Some(at) = s.find("://") {
        // The scheme starts after the last character that cannot be in one; that character may
        // be wider than a byte.
        let start = s[..at]
            .char_indices()
            .rev()
            .find(|&(_, c)| !c.is_ascii_alphanumeric() && c != '+' && c != '-' && c != '.')
            .map_or(0, |(i, c)| i + c.len_utf8());
        return Some(s[start..].to_owned());
    }
    None
}

/// Long options of curl and wget that take a value.
const CURL: &[&str] = &[
    "output",
    "data",
    "header",
    "request",
    "user",
    "user-agent",
    "referer",
    "form",
    "max-time",
    "proxy",
    "cookie",
    "config",
    "upload-file",
    "data-binary",
    "data-raw",
    "data-urlencode",
    "connect-timeout",
    "retry",
    "proto",
    "output-dir",
    "cacert",
    "cert",
    "key",
    "url",
];
const WGET: &[&str] = &[
    "output-document",
    "output-file",
    "directory-prefix",
    "user-agent",
    "header",
    "tries",
    "timeout",
    "post-data",
    "post-file",
    "user",
    "password",
    "execute",
];

impl State {
    pub fn new() -> State {
        let mut state = State::default();
        // `$SHELL` (and `${SHELL##*/}`) is the user's shell: a command it names is run by a
        // shell, whichever one it is.
        state
            .consts
            .insert("SHELL".to_owned(), "/bin/sh".to_owned());
        state
    }

    /// Walks one unit of code at `base` in the file (its `index` among the file's units).
    pub fn unit(&mut self, text: &str, base: usize, index: usize) {
        self.unit_parsed(&syntax::parse(text), base, index);
    }

    /// [`State::unit`] of a unit parsed already.
    pub fn unit_parsed(&mut self, list: &List, base: usize, index: usize) {
        self.base = base;
        self.unit = index;
        self.list(list, &Taint::default());
    }

    fn spend(&mut self) -> bool {
        self.budget += 1;
        self.budget <= BUDGET
    }

    fn flow(&mut self, taint: &Taint, sink: String, at: usize) {
        if self.flows.len() < 256 {
            self.flows.push(Flow {
                taint: taint.clone(),
                sink,
                at: self.base + at,
                unit: self.unit,
            });
        }
    }

    fn list(&mut self, list: &List, stdin: &Taint) -> Taint {
        let mut out = Taint::default();
        for p in &list.pipelines {
            out.join(&self.pipeline(p, stdin));
        }
        out
    }

    fn pipeline(&mut self, p: &Pipeline, stdin: &Taint) -> Taint {
        let mut input = stdin.clone();
        for command in &p.commands {
            input = self.command(command, &input, p.at);
        }
        input
    }

    fn command(&mut self, command: &Command, stdin: &Taint, at: usize) -> Taint {
        if !self.spend() {
            return Taint::default();
        }
        match command {
            Command::Simple(simple) => self.simple(simple, stdin),
            Command::Group(list, redirects) => {
                let input = self.redirected_input(redirects, stdin);
                let out = self.list(list, &input);
                self.redirect_output(redirects, &out, at)
            }
            Command::Function(name, body) => {
                if self.funcs.len() < 256 {
                    self.funcs.insert(name.clone(), body.clone());
                }
                Taint::default()
            }
        }
    }

    /// The taint of a word's expansions, walking the commands it substitutes.
    fn word_taint(&mut self, word: &Word) -> Taint {
        let mut taint = Taint::default();
        for part in &word.parts {
            match part {
                Part::Command(list) | Part::Process(list, true) => {
                    taint.join(&self.list(list, &Taint::default()));
                }
                Part::Param(name) | Part::Default(name, ..) => {
                    if let Some(t) = self.vars.get(name) {
                        taint.join(&t.clone());
                    }
                }
                Part::Process(list, false) => {
                    self.list(list, &Taint::default());
                }
                Part::Lit(_) | Part::Other => {}
            }
        }
        taint
    }

    /// A word's literal text with the constants it names substituted.
    fn text_of(&self, word: &Word) -> Option<String> {
        let mut out = String::new();
        for part in &word.parts {
            match part {
                Part::Lit(s) => out.push_str(s),
                Part::Param(name) => out.push_str(self.consts.get(name)?),
                Part::Default(name, default, _) => {
                    out.push_str(self.consts.get(name).unwrap_or(default));
                }
                _ => return None,
            }
        }
        Some(out)
    }

    /// The text of `word` up to its first part no constant spells (`${MIRROR}/${ARCH}/i` with
    /// `MIRROR` known: `https://releases.example.net/`).
    fn spelled_prefix(&self, word: &Word) -> String {
        let mut out = String::new();
        for part in &word.parts {
            match part {
                Part::Lit(s) => out.push_str(s),
                Part::Param(name) => match self.consts.get(name) {
                    Some(value) => out.push_str(value),
                    None => break,
                },
                Part::Default(name, default, _) => {
                    out.push_str(self.consts.get(name).unwrap_or(default));
                }
                _ => break,
            }
        }
        out
    }

    fn arg<'w>(&self, word: &'w Word) -> Arg<'w> {
        Arg {
            text: self.text_of(word),
            shape: word.shape(),
            word,
        }
    }

    fn file_taint(&self, path: &str) -> Option<&Taint> {
        let path = path.trim_end_matches(['"', '\'']);
        let name = run::basename(path);
        if name.is_empty() {
            return None;
        }
        self.files.get(name).or_else(|| self.extracted_taint(path))
    }

    /// The taint of the archive `path` came out of: a path under a folder an archive from the
    /// network was extracted into (any relative path for the working folder; not an option,
    /// not a bare word).
    fn extracted_taint(&self, path: &str) -> Option<&Taint> {
        let path = path.trim_start_matches("./");
        // Not an option, an assignment (`CXX=/opt/cc`), an address or a bare word.
        if path.starts_with('-') || path.contains(['=', ':']) || !path.contains(['/', '.']) {
            return None;
        }
        self.extracted.iter().find_map(|(dir, taint)| {
            let dir = dir.trim_start_matches("./").trim_end_matches('/');
            let under = if dir.is_empty() {
                // The working folder: any relative path but the skill's own folders, which a
                // skill's steps name as often as the files an archive brought.
                let first = path.split('/').next().unwrap_or("");
                !path.starts_with(['/', '~', '$'])
                    && !matches!(first, "scripts" | "references" | "assets" | "agents")
            } else {
                path.strip_prefix(dir).is_some_and(|r| r.starts_with('/'))
            };
            under.then_some(taint)
        })
    }

    fn set_file(&mut self, path: &str, taint: &Taint) {
        let name = run::basename(path);
        if name.is_empty() || matches!(path, "/dev/null" | "/dev/stdout" | "/dev/stderr") {
            return;
        }
        if taint.is_some() {
            if self.files.len() < 4096 {
                self.files.insert(name.to_owned(), taint.clone());
            }
        } else {
            self.files.remove(name);
        }
    }

    fn redirected_input(&mut self, redirects: &[syntax::Redirect], stdin: &Taint) -> Taint {
        let mut input = stdin.clone();
        for r in redirects {
            if r.fd.is_some_and(|fd| fd != 0) {
                continue;
            }
            match r.op {
                RedirectOp::Input => {
                    let mut t = self.word_taint(&r.target);
                    if let Some(path) = self.text_of(&r.target)
                        && let Some(file) = self.file_taint(&path)
                    {
                        t.join(&file.clone());
                    }
                    input = t;
                }
                RedirectOp::HereDoc | RedirectOp::HereString => {
                    input = self.word_taint(&r.target);
                }
                _ => {}
            }
        }
        input
    }

    /// Output redirected to a file (or a process) leaves the pipe: the file holds it now.
    fn redirect_output(&mut self, redirects: &[syntax::Redirect], out: &Taint, at: usize) -> Taint {
        let mut out = out.clone();
        for r in redirects {
            if r.fd.is_some_and(|fd| fd != 1)
                || !matches!(r.op, RedirectOp::Output | RedirectOp::Append)
            {
                continue;
            }
            if let Some(Part::Process(list, false)) = r.target.parts.first() {
                let t = self.list(list, &out);
                let _ = (t, at);
            } else if let Some(path) = self.text_of(&r.target)
                && (r.op == RedirectOp::Output || out.is_some())
            {
                self.set_file(&path, &out);
            }
            out = Taint::default();
        }
        out
    }

    fn simple(&mut self, simple: &Simple, stdin: &Taint) -> Taint {
        // `: "${CW_T:=cu}"` assigns its default where the name has no value yet.
        for word in &simple.words {
            for part in &word.parts {
                if let Part::Default(name, default, true) = part
                    && !self.consts.contains_key(name)
                    && self.consts.len() < 4096
                {
                    self.consts.insert(name.clone(), default.clone());
                }
            }
        }
        let at = simple.at;
        for (name, value) in &simple.assigns {
            let taint = self.word_taint(value);
            self.assign(name, value, &taint);
        }
        let stdin = self.redirected_input(&simple.redirects, stdin);
        let stdin_code = simple
            .redirects
            .iter()
            .rev()
            .find(|r| matches!(r.op, RedirectOp::HereDoc | RedirectOp::HereString))
            .map(|r| r.target.shape());
        // An unquoted expansion is split into words: `FETCH="curl -sSfL"; $FETCH $URL | sh`
        // runs curl with its options (make's `$(FETCH)` too).
        if let Some(first) = simple.words.first()
            && let [Part::Param(name)] = first.parts.as_slice()
            && let Some(value) = self.consts.get(name)
            && value.trim().contains(char::is_whitespace)
            && let Some(rest) = simple.words[1..]
                .iter()
                .map(|w| self.text_of(w))
                .collect::<Option<Vec<String>>>()
        {
            let mut line = value.clone();
            for word in rest {
                line.push_str(" '");
                line.push_str(&word.replace('\'', "'\\''"));
                line.push('\'');
            }
            let out = self.reparse(&line, &stdin, at);
            return self.redirect_output(&simple.redirects, &out, at);
        }
        let mut arg_taints = Vec::with_capacity(simple.words.len());
        for word in &simple.words {
            arg_taints.push(self.word_taint(word));
        }
        let args: Vec<Arg<'_>> = simple.words.iter().map(|w| self.arg(w)).collect();
        let Some(run) = run::unwrap(args) else {
            return Taint::default();
        };
        let taint_of = |arg: &Arg<'_>, state: &State| -> Taint {
            let index = simple
                .words
                .iter()
                .position(|w| std::ptr::eq(w, arg.word))
                .unwrap_or(usize::MAX);
            let mut t = arg_taints.get(index).cloned().unwrap_or_default();
            if let Some(file) = state.file_taint(arg.str()) {
                t.join(&file.clone());
            }
            t
        };
        self.stdin_code = stdin_code;
        let out = self.dispatch(&run, &stdin, &taint_of, at);
        self.stdin_code = None;
        self.redirect_output(&simple.redirects, &out, at)
    }

    fn assign(&mut self, name: &str, value: &Word, taint: &Taint) {
        if taint.is_some() {
            if self.vars.len() < 4096 {
                self.vars.insert(name.to_owned(), taint.clone());
            }
        } else {
            self.vars.remove(name);
        }
        match self.text_of(value) {
            Some(text) if self.consts.len() < 4096 && text.len() < 4096 => {
                self.consts.insert(name.to_owned(), text);
            }
            _ => {
                self.consts.remove(name);
            }
        }
    }

    /// Parses `code` again and walks it with `stdin`, within the depth bound.
    fn reparse(&mut self, code: &str, stdin: &Taint, at: usize) -> Taint {
        if self.depth >= MAX_REPARSE || code.len() > 1 << 20 {
            return Taint::default();
        }
        self.depth += 1;
        let list = syntax::parse(code);
        // Offsets inside the string point at the command that holds it.
        let list = relocate(list, at);
        let out = self.list(&list, stdin);
        self.depth -= 1;
        out
    }

    #[expect(clippy::too_many_lines, reason = "one case per kind of program")]
    fn dispatch(
        &mut self,
        run: &Run<'_>,
        stdin: &Taint,
        taint_of: &dyn Fn(&Arg<'_>, &State) -> Taint,
        at: usize,
    ) -> Taint {
        if let Some(split) = &run.split {
            return self.reparse(split, stdin, at);
        }
        let program = run.program.as_str();
        let path_taint = taint_of(&run.path, self);
        // The program is a file fetched earlier (`./tool`, `"$TMP/tool"`).
        if path_taint.is_remote() && interpreter(program).is_none() {
            self.flow(
                &path_taint,
                format!("`{}` runs the downloaded file", excerpt(run.path.str())),
                at,
            );
            return Taint::default();
        }
        if run.xargs && stdin.is_some() {
            // What comes in becomes the arguments of the program.
            if interpreter(program).is_some() || program == "eval" {
                self.flow(stdin, format!("`xargs {program}` runs it"), at);
                return Taint::default();
            }
        }
        if let Some(function) = self.funcs.get(program).cloned() {
            self.calls += 1;
            if self.calls <= 1024 && self.depth < MAX_REPARSE {
                self.depth += 1;
                let out = self.list(&function, stdin);
                self.depth -= 1;
                return out;
            }
        }
        match program {
            "curl" | "wget" | "wget2" | "fetch" | "aria2c" | "http" | "https" | "xh"
            | "lwp-request" | "GET" | "lwp-download" | "curlie" => {
                return self.fetch(run, at);
            }
            _ if matches!(
                program.to_ascii_lowercase().as_str(),
                "invoke-restmethod" | "invoke-webrequest" | "irm" | "iwr"
            ) =>
            {
                return self.fetch(run, at);
            }
            // A program the text does not name (a variable no constant of the file holds, as
            // `GET := $(shell … echo curl -fsSL || echo wget -qO-)` leaves it) given an address:
            // what it prints is what that address serves.
            _ if program.starts_with('…')
                && run
                    .args
                    .iter()
                    .any(|a| url_in(&self.spelled_prefix(a.word)).is_some()) =>
            {
                let urls = run
                    .args
                    .iter()
                    .filter_map(|a| url_in(&self.spelled_prefix(a.word)))
                    .collect();
                return Taint {
                    urls,
                    at: self.base + at,
                    ..Taint::default()
                };
            }
            "nc" | "ncat" | "netcat" | "socat" | "telnet" => {
                return Taint {
                    raw: true,
                    at: self.base + at,
                    ..Taint::default()
                };
            }
            "openssl" if run.args.first().is_some_and(|a| a.str() == "s_client") => {
                return Taint {
                    raw: true,
                    at: self.base + at,
                    ..Taint::default()
                };
            }
            "ssh" => {
                let (_, operands) = run::options(&run.args, "bcDEeFIiJLlmOopQRSWw", &[]);
                return if operands.len() >= 2 {
                    Taint {
                        raw: true,
                        at: self.base + at,
                        ..Taint::default()
                    }
                } else {
                    Taint::default()
                };
            }
            "eval" => {
                let mut t = Taint::default();
                for a in &run.args {
                    t.join(&taint_of(a, self));
                }
                if t.is_some() {
                    self.flow(&t, "`eval` runs it".into(), at);
                    return Taint::default();
                }
                let code: Vec<&str> = run.args.iter().map(Arg::str).collect();
                return self.reparse(&code.join(" "), stdin, at);
            }
            "source" | "." => {
                if let Some(file) = run.args.first() {
                    let mut t = taint_of(file, self);
                    if matches!(file.str(), "/dev/stdin" | "-" | "/proc/self/fd/0") {
                        t.join(stdin);
                    }
                    if t.is_some() {
                        self.flow(&t, format!("`{program}` runs it in the shell"), at);
                    }
                }
                return Taint::default();
            }
            "read" | "mapfile" | "readarray" => {
                let (_, operands) = run::options(&run.args, "adinNpptu", &[]);
                for name in operands {
                    if stdin.is_some() {
                        self.vars.insert(name.str().to_owned(), stdin.clone());
                    }
                }
                if operands_empty_reply(&run.args) && stdin.is_some() {
                    self.vars.insert("REPLY".into(), stdin.clone());
                    self.vars.insert("MAPFILE".into(), stdin.clone());
                }
                return Taint::default();
            }
            "export" | "local" | "declare" | "typeset" | "readonly" => {
                for a in &run.args {
                    if let Some(Part::Lit(first)) = a.word.parts.first()
                        && let Some((name, _)) = first.split_once('=')
                    {
                        let name = name.trim_end_matches('+').to_owned();
                        let t = taint_of(a, self);
                        let rest = strip_name(a.word, &name);
                        self.assign(&name, &rest, &t);
                    }
                }
                return Taint::default();
            }
            "mv" | "cp" | "install" | "ln" => {
                let (_, operands) = run::options(&run.args, "mgotS", &[]);
                if let [sources @ .., target] = operands.as_slice() {
                    let mut t = Taint::default();
                    for s in sources {
                        t.join(&taint_of(s, self));
                    }
                    if t.is_some() {
                        let target = target.str().to_owned();
                        if target.ends_with('/') {
                            for s in sources {
                                let name = s.str().to_owned();
                                self.set_file(&format!("{target}{}", run::basename(&name)), &t);
                            }
                        } else {
                            self.set_file(&target, &t);
                        }
                    }
                }
                return Taint::default();
            }
            "tee" => {
                for a in &run.args {
                    if let Some(Part::Process(list, false)) = a.word.parts.first() {
                        self.list(list, stdin);
                    } else if !a.str().starts_with('-') {
                        let path = a.str().to_owned();
                        self.set_file(&path, stdin);
                    }
                }
                return stdin.clone();
            }
            "echo" | "printf" => {
                let mut t = Taint::default();
                for a in &run.args {
                    t.join(&taint_of(a, self));
                }
                // `printf '\x63\x75…'`: text spelled in escapes is decoded text.
                if decodes(program, &run.args) {
                    if !t.is_some() {
                        t.at = self.base + at;
                    }
                    t.decoded = true;
                }
                return t;
            }
            "su" | "runuser" | "script" => {
                let (flags, _) = run::options(&run.args, "cgGsl", &["command"]);
                if let Some(code) = flags
                    .iter()
                    .find(|(f, ..)| f == "-c" || f == "--command")
                    .and_then(|(_, arg, _)| *arg)
                {
                    let t = taint_of(code, self);
                    if t.is_some() {
                        self.flow(&t, format!("`{program} -c` runs it"), at);
                        return Taint::default();
                    }
                    let code = code.str().to_owned();
                    return self.reparse(&code, stdin, at);
                }
                return Taint::default();
            }
            _ => {}
        }
        if let Some(interp) = interpreter(program) {
            return self.interpret(run, &interp, stdin, taint_of, at);
        }
        if consumes(program) {
            // A checksum or signature checked pins what was downloaded: it is what the skill
            // ships, as if inside it.
            let checks = run.args.iter().any(|a| {
                matches!(
                    a.str(),
                    "-c" | "--check" | "--verify" | "-V" | "verify-blob"
                )
            });
            if checks && program != "tar" && program != "unzip" {
                self.files.clear();
                self.extracted.clear();
            }
            // An archive from the network extracted: what comes out of it is downloaded too.
            if matches!(program, "unzip" | "tar" | "bsdtar" | "7z" | "7za")
                && self.extracted.len() < 64
            {
                let mut archive = Taint::default();
                for a in &run.args {
                    archive.join(&taint_of(a, self));
                }
                if archive.is_remote() {
                    // `-d DIR` (unzip), `-C DIR` or `--directory=DIR` (tar), `-oDIR` (7z).
                    let mut args = run.args.iter().map(super::run::Arg::str);
                    let mut dir = String::new();
                    while let Some(a) = args.next() {
                        if matches!(a, "-d" | "-C" | "--directory") {
                            args.next().unwrap_or_default().clone_into(&mut dir);
                        } else if let Some(d) = a.strip_prefix("--directory=") {
                            d.clone_into(&mut dir);
                        } else if let Some(d) = a
                            .strip_prefix("-o")
                            .filter(|d| !d.is_empty() && program.starts_with("7z"))
                        {
                            d.clone_into(&mut dir);
                        }
                    }
                    self.extracted.push((dir, archive));
                }
            }
            return Taint::default();
        }
        let mut out = stdin.clone();
        if passes_files(program) {
            for a in &run.args {
                out.join(&taint_of(a, self));
            }
        }
        if decodes(program, &run.args) && out.is_some() {
            out.decoded = true;
        }
        if decodes(program, &run.args) && !out.is_some() {
            out = Taint {
                decoded: true,
                at: self.base + at,
                ..Taint::default()
            };
        }
        out
    }

    fn interpret(
        &mut self,
        run: &Run<'_>,
        interp: &Interp,
        stdin: &Taint,
        taint_of: &dyn Fn(&Arg<'_>, &State) -> Taint,
        at: usize,
    ) -> Taint {
        let program = run.program.as_str();
        let mut i = 0;
        let args = &run.args;
        let mut stdin_program = true;
        let mut reads_stdin_anyway = false;
        // `deno run URL`, `bun run FILE`: the subcommand comes first.
        if matches!(program, "deno" | "bun")
            && args.first().is_some_and(|a| matches!(a.str(), "run" | "x"))
        {
            i = 1;
        }
        while i < args.len() {
            let a = &args[i];
            let s = a.str();
            i += 1;
            let code_flag = interp.code.contains(&s)
                || (interp.shell
                    && s.starts_with('-')
                    && !s.starts_with("--")
                    && s.len() > 2
                    && s[1..].contains('c')
                    && !s.contains('o'));
            if code_flag {
                let Some(code) = args.get(i) else { break };
                if code.str() == "-" {
                    reads_stdin_anyway = true;
                    break;
                }
                let t = taint_of(code, self);
                if t.is_remote() || t.decoded {
                    self.flow(&t, format!("`{program} {s}` runs it"), at);
                    return Taint::default();
                }
                if interp.shell {
                    let code = code.str().to_owned();
                    return self.reparse(&code, stdin, at);
                }
                // `osascript`'s `do shell script "…"` runs its string with `sh -c`, in any of
                // the script's `-e` lines.
                if program == "osascript" {
                    let shell: Vec<String> = args[i..]
                        .iter()
                        .filter_map(|a| do_shell_script(a.str()))
                        .collect();
                    if !shell.is_empty() {
                        return self.reparse(&shell.join("\n"), stdin, at);
                    }
                }
                return Taint::default();
            }
            if s == "-" || s == "/dev/stdin" {
                reads_stdin_anyway = true;
                break;
            }
            if interp.shell && s == "-s" {
                reads_stdin_anyway = true;
                break;
            }
            if s.starts_with('-') {
                let short = s.len() == 2
                    && s.strip_prefix('-')
                        .is_some_and(|c| interp.values.contains(c));
                if short {
                    i += 1;
                }
                continue;
            }
            // The script: a file, a process substitution, or an address (`deno run https://…`).
            let mut t = taint_of(a, self);
            if matches!(program, "deno" | "bun")
                && let Some(url) = url_in(s)
            {
                t.join(&Taint {
                    urls: vec![url],
                    at: self.base + at,
                    ..Taint::default()
                });
            }
            if t.is_some() {
                self.flow(&t, format!("`{program}` runs it as its script"), at);
                return Taint::default();
            }
            stdin_program = false;
            break;
        }
        if (stdin_program || reads_stdin_anyway) && stdin.is_some() {
            self.flow(stdin, format!("`{program}` reads it as its program"), at);
            return Taint::default();
        }
        if (stdin_program || reads_stdin_anyway)
            && interp.shell
            && let Some(code) = self.stdin_code.take()
        {
            return self.reparse(&code, &Taint::default(), at);
        }
        Taint::default()
    }

    /// A download: to the output, or to a file named by `-o`, `-O`, or the URL.
    fn fetch(&mut self, run: &Run<'_>, at: usize) -> Taint {
        let program = run.program.as_str();
        let (short, long): (&str, &[&str]) = match program {
            "curl" | "curlie" => ("oTdHXuAeFmwxbcKrECYyzQtU", CURL),
            "wget" | "wget2" => ("OoPUetTwaiBQ", WGET),
            "aria2c" => ("odx", &["out", "dir"]),
            "fetch" => ("o", &["output"]),
            _ => ("", &[]),
        };
        let (flags, operands) = run::options(&run.args, short, long);
        let mut urls = Vec::new();
        for op in &operands {
            if let Some(url) = url_in(op.str()) {
                urls.push(url);
            } else if op.text.is_none() || (program == "curl" && op.str().contains('.')) {
                // An address the text does not spell out, or `curl host/path`.
                let s = op.str();
                urls.push(if op.text.is_some() && !s.contains('…') {
                    format!("https://{s}")
                } else {
                    String::new()
                });
            }
        }
        for (flag, _, value) in &flags {
            if flag == "--url"
                && let Some(v) = value
            {
                urls.push(url_in(v).unwrap_or_default());
            }
        }
        if urls.is_empty() {
            return Taint::default();
        }
        let taint = Taint {
            urls: urls.clone(),
            at: self.base + at,
            ..Taint::default()
        };
        let value = |names: &[&str]| {
            flags
                .iter()
                .filter(|(f, ..)| names.contains(&f.as_str()))
                .find_map(|(_, _, v)| v.clone())
        };
        let remote_name = |url: &str| -> String {
            let path = url.split(['?', '#']).next().unwrap_or(url);
            let path = path.split_once("://").map_or(path, |(_, rest)| rest);
            path.split_once('/')
                .map(|(_, p)| run::basename(p).to_owned())
                .filter(|n| !n.is_empty())
                .unwrap_or_else(|| "index.html".into())
        };
        match program {
            "curl" | "curlie" => {
                if let Some(file) = value(&["-o", "--output"]) {
                    if file == "-" {
                        return taint;
                    }
                    self.set_file(&file, &taint);
                    return Taint::default();
                }
                if flags
                    .iter()
                    .any(|(f, ..)| f == "-O" || f == "--remote-name" || f == "--remote-name-all")
                {
                    for url in &urls {
                        let name = remote_name(url);
                        self.set_file(&name, &taint);
                    }
                    return Taint::default();
                }
                taint
            }
            "wget" | "wget2" => match value(&["-O", "--output-document"]) {
                Some(file) if file == "-" || file == "/dev/stdout" => taint,
                Some(file) => {
                    self.set_file(&file, &taint);
                    Taint::default()
                }
                None => {
                    for url in &urls {
                        let name = remote_name(url);
                        self.set_file(&name, &taint);
                    }
                    Taint::default()
                }
            },
            "aria2c" | "lwp-download" | "fetch" => {
                if let Some(file) = value(&["-o", "--out", "--output"]) {
                    self.set_file(&file, &taint);
                } else if let Some(last) = operands
                    .last()
                    .filter(|_| program == "lwp-download" && operands.len() > 1)
                {
                    let file = last.str().to_owned();
                    self.set_file(&file, &taint);
                } else {
                    for url in &urls {
                        let name = remote_name(url);
                        self.set_file(&name, &taint);
                    }
                }
                if program == "fetch" && value(&["-o"]).as_deref() == Some("-") {
                    return taint;
                }
                Taint::default()
            }
            _ => taint,
        }
    }
}

fn operands_empty_reply(args: &[Arg<'_>]) -> bool {
    args.iter().all(|a| a.str().starts_with('-'))
}

/// The word `NAME=value` without its `NAME=`.
fn strip_name(word: &Word, name: &str) -> Word {
    let mut parts = word.parts.clone();
    if let Some(Part::Lit(first)) = parts.first_mut() {
        let cut = first.find('=').map_or(name.len(), |i| i + 1);
        first.replace_range(..cut.min(first.len()), "");
        if first.is_empty() {
            parts.remove(0);
        }
    }
    Word {
        parts,
        start: word.start,
        end: word.end,
    }
}

/// A list parsed from a string, its offsets set to `at` (where the string's command is).
fn relocate(mut list: List, at: usize) -> List {
    syntax::map_offsets(&mut list, &|_| at);
    list
}

/// At most 60 characters of a word, for a message.
fn excerpt(s: &str) -> String {
    if s.chars().count() <= 60 {
        s.to_owned()
    } else {
        let cut: String = s.chars().take(59).collect();
        format!("{cut}…")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn applescript_runs_the_string_of_do_shell_script() {
        assert_eq!(
            do_shell_script(
                r#"do shell script "curl -s \"$U\" | sh" with administrator privileges"#
            )
            .as_deref(),
            Some(r#"curl -s "$U" | sh"#)
        );
        assert_eq!(do_shell_script(r#"tell application "Dock" to quit"#), None);
    }
}
