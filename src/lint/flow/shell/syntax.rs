//! Shell syntax as the shell reads it: lists of pipelines of commands, words made of parts
//! (literal text with its quotes and escapes removed, parameters, command and process
//! substitutions), redirections and here-documents, and compound commands (`{ }`, `( )`, `if`,
//! `while`, `until`, `for`, `case`, functions) whose bodies are lists again.
//!
//! Invariants: [`parse`] never fails and never panics — what it cannot read (an unclosed quote,
//! a stray `fi`, a placeholder such as `<your-token>`) is read as far as it goes, as an
//! interactive shell would before it complained, and the rest goes on; every byte is looked at
//! a bounded number of times (backquoted text is read twice, once to find its end and once as a
//! list), and nesting deeper than [`MAX_DEPTH`] is skipped, not parsed, so that hostile text
//! costs linear time and bounded stack.

/// How deep substitutions, groups and compound commands nest before the rest is skipped.
pub const MAX_DEPTH: usize = 48;

/// A program: what runs, in order.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct List {
    pub pipelines: Vec<Pipeline>,
}

/// Commands whose outputs feed the next one's input (`a | b | c`).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Pipeline {
    pub commands: Vec<Command>,
    /// Offset of its first byte in the text parsed.
    pub at: usize,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Command {
    Simple(Simple),
    /// A group, a subshell, or the lists of a compound command, with the redirections that
    /// apply to all of it.
    Group(List, Vec<Redirect>),
    /// `name() { … }`, `function name { … }`.
    Function(String, List),
}

#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Simple {
    /// `NAME=value` words before the command.
    pub assigns: Vec<(String, Word)>,
    pub words: Vec<Word>,
    pub redirects: Vec<Redirect>,
    pub at: usize,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Redirect {
    /// The file descriptor written before the operator (`2>`), if any.
    pub fd: Option<u32>,
    pub op: RedirectOp,
    /// The file (or here-string, or here-document body).
    pub target: Word,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RedirectOp {
    /// `<`
    Input,
    /// `>`, `>|`, `&>`
    Output,
    /// `>>`, `&>>`
    Append,
    /// `<<`, `<<-`: the target is the body.
    HereDoc,
    /// `<<<`
    HereString,
    /// `<&`, `>&`, `<>`
    Dup,
}

/// A word: its parts, in order, and its byte range.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Word {
    pub parts: Vec<Part>,
    pub start: usize,
    pub end: usize,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Part {
    /// Text as the shell passes it on: quotes removed, escapes resolved (`$'\x73h'` is `sh`).
    Lit(String),
    /// `$name`, `${name…}`, `$1`, `$@`.
    Param(String),
    /// `${name:-default}` or `${name-default}` (`false`), `${name:=default}` or
    /// `${name=default}` (`true`: the default is assigned too), with the default's text.
    Default(String, String, bool),
    /// `$(…)` or `` `…` ``.
    Command(List),
    /// `<(…)` (`true`: the command's output is read) or `>(…)`.
    Process(List, bool),
    /// Arithmetic, or what nests too deep to be read.
    Other,
}

impl Word {
    /// The word's text when it is all literal.
    pub fn literal(&self) -> Option<String> {
        let mut out = String::new();
        for part in &self.parts {
            match part {
                Part::Lit(text) => out.push_str(text),
                _ => return None,
            }
        }
        Some(out)
    }

    /// The word's literal text with every expansion replaced by `…`.
    pub fn shape(&self) -> String {
        let mut out = String::new();
        for part in &self.parts {
            match part {
                Part::Lit(text) => out.push_str(text),
                _ => out.push('…'),
            }
        }
        out
    }
}

/// Parses `text` as a shell program. Here-document bodies are read at the line end that follows
/// their operator, as the shell does.
pub fn parse(text: &str) -> List {
    let mut parser = Parser {
        text,
        bytes: text.as_bytes(),
        i: 0,
        depth: 0,
        pending: Vec::new(),
    };
    let mut list = List::default();
    loop {
        parser.list_into(&mut list, Stop::Top);
        if parser.i >= parser.bytes.len() {
            break;
        }
        // A closer nobody opened (`fi`, `done`, `)`, `;;`): skip it and go on.
        parser.skip_stray();
    }
    list
}

/// What ends a list.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Stop {
    /// The end of the text.
    Top,
    /// `)`.
    Paren,
    /// A reserved word closing a compound command, or `;;` in `case`.
    Word,
    /// A backquote (the text given is the inside of the backquotes).
    End,
}

const CLOSERS: [&str; 8] = ["}", "fi", "done", "esac", "then", "else", "elif", "do"];

/// A here-document whose body is still to be read: where its word goes, its delimiter, whether
/// leading tabs are stripped and whether the body expands.
struct Pending {
    delimiter: String,
    strip_tabs: bool,
    expands: bool,
}

struct Parser<'a> {
    text: &'a str,
    bytes: &'a [u8],
    i: usize,
    depth: usize,
    /// Here-documents opened on the current line, whose bodies start at its end
    /// ([`Parser::newline_into`] reads them into the redirects left empty for them).
    pending: Vec<Pending>,
}

fn is_meta(b: u8) -> bool {
    matches!(
        b,
        b' ' | b'\t' | b'\n' | b'\r' | b';' | b'&' | b'|' | b'<' | b'>' | b'(' | b')'
    )
}

fn is_name_start(b: u8) -> bool {
    b.is_ascii_alphabetic() || b == b'_'
}

fn is_name(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_'
}

impl Parser<'_> {
    fn peek(&self) -> Option<u8> {
        self.bytes.get(self.i).copied()
    }

    fn at(&self, k: usize) -> Option<u8> {
        self.bytes.get(self.i + k).copied()
    }

    fn starts(&self, s: &str) -> bool {
        self.bytes[self.i.min(self.bytes.len())..].starts_with(s.as_bytes())
    }

    /// Blanks, line continuations and comments.
    fn blanks(&mut self) {
        while let Some(b) = self.peek() {
            match b {
                b' ' | b'\t' | b'\r' => self.i += 1,
                b'\\' if self.at(1) == Some(b'\n') => self.i += 2,
                b'#' => {
                    self.i = memchr::memchr(b'\n', &self.bytes[self.i..])
                        .map_or(self.bytes.len(), |e| self.i + e);
                }
                _ => break,
            }
        }
    }

    /// The word at the start of the command position, when it is a reserved word.
    fn reserved(&self) -> Option<&'static str> {
        const WORDS: [&str; 17] = [
            "}", "fi", "done", "esac", "then", "else", "elif", "do", "{", "if", "while", "until",
            "for", "select", "case", "function", "!",
        ];
        let rest = &self.bytes[self.i..];
        // Most commands start with a byte no reserved word starts with.
        if !matches!(
            rest.first(),
            Some(b'}' | b'f' | b'd' | b'e' | b't' | b'{' | b'i' | b'w' | b'u' | b's' | b'c' | b'!')
        ) {
            return None;
        }
        WORDS.iter().copied().find(|w| {
            rest.starts_with(w.as_bytes())
                && rest
                    .get(w.len())
                    .is_none_or(|b| is_meta(*b) || (*w == "!" && *b == b'('))
        })
    }

    fn skip_stray(&mut self) {
        if let Some(word) = self.reserved() {
            self.i += word.len();
        } else if self.starts(";;") {
            self.i += 2;
        } else {
            self.i += 1;
        }
        while self.i < self.bytes.len() && !self.text.is_char_boundary(self.i) {
            self.i += 1;
        }
    }

    /// Pipelines into `list` until `stop`; the closer is left for the caller.
    fn list_into(&mut self, list: &mut List, stop: Stop) {
        loop {
            self.blanks();
            let Some(b) = self.peek() else { return };
            match b {
                b'\n' => {
                    self.newline_into(list);
                    continue;
                }
                b';' if self.at(1) == Some(b';') => return,
                b')' if stop == Stop::Paren || stop == Stop::Top || stop == Stop::Word => return,
                b';' | b'&' | b')' => {
                    self.i += 1;
                    continue;
                }
                _ => {}
            }
            if let Some(word) = self.reserved()
                && CLOSERS.contains(&word)
            {
                if stop == Stop::End {
                    self.i += word.len();
                    continue;
                }
                return;
            }
            let before = self.i;
            let pipeline = self.pipeline();
            if !pipeline.commands.is_empty() {
                list.pipelines.push(pipeline);
            }
            if self.i == before {
                // Nothing could be read here (`|` at a line start): skip the byte.
                self.skip_stray();
            }
        }
    }

    /// A newline inside `list`: here-document bodies are read into the commands just pushed.
    fn newline_into(&mut self, list: &mut List) {
        self.i += 1;
        if self.pending.is_empty() {
            return;
        }
        let pending = std::mem::take(&mut self.pending);
        let bodies: Vec<Word> = pending.iter().map(|d| self.heredoc_body(d)).collect();
        let mut bodies = bodies.into_iter();
        // The here-documents belong to the last pipelines pushed, in the order opened.
        let mut slots: Vec<&mut Word> = Vec::new();
        for pipeline in list.pipelines.iter_mut().rev().take(8) {
            for command in pipeline.commands.iter_mut().rev() {
                collect_heredocs(command, &mut slots);
            }
        }
        slots.reverse();
        let empty: Vec<&mut Word> = slots
            .into_iter()
            .filter(|w| w.parts.is_empty() && w.end == usize::MAX)
            .collect();
        for slot in empty {
            match bodies.next() {
                Some(body) => *slot = body,
                None => break,
            }
        }
    }

    fn heredoc_body(&mut self, doc: &Pending) -> Word {
        let start = self.i;
        let mut end = self.bytes.len();
        let mut next = self.bytes.len();
        let mut at = self.i;
        while at < self.bytes.len() {
            let line_end =
                memchr::memchr(b'\n', &self.bytes[at..]).map_or(self.bytes.len(), |e| at + e);
            let mut line = &self.text[at..line_end];
            line = line.strip_suffix('\r').unwrap_or(line);
            if doc.strip_tabs {
                line = line.trim_start_matches('\t');
            }
            if line == doc.delimiter {
                end = at;
                next = (line_end + 1).min(self.bytes.len());
                break;
            }
            at = line_end + 1;
        }
        let end = end.min(self.bytes.len());
        let body = &self.text[start..end];
        self.i = next;
        let parts = if doc.expands {
            let mut inner = Parser {
                text: body,
                bytes: body.as_bytes(),
                i: 0,
                depth: self.depth + 1,
                pending: Vec::new(),
            };
            inner.double_quoted_until(None)
        } else {
            vec![Part::Lit(body.to_owned())]
        };
        Word {
            parts: shift(parts, start),
            start,
            end,
        }
    }

    fn pipeline(&mut self) -> Pipeline {
        let at = self.i;
        let mut commands = Vec::new();
        loop {
            self.blanks();
            let before = self.i;
            if let Some(command) = self.command() {
                commands.push(command);
            }
            self.blanks();
            if self.peek() == Some(b'|') && self.at(1) != Some(b'|') {
                self.i += if self.at(1) == Some(b'&') { 2 } else { 1 };
                // A pipe goes on across line ends and comments.
                loop {
                    self.blanks();
                    if self.peek() == Some(b'\n') {
                        self.i += 1;
                    } else {
                        break;
                    }
                }
                continue;
            }
            if self.starts("&&") || self.starts("||") {
                // The next pipeline is a separate one; its input is its own.
                self.i += 2;
                return Pipeline { commands, at };
            }
            if self.i == before {
                break;
            }
            break;
        }
        Pipeline { commands, at }
    }

    fn command(&mut self) -> Option<Command> {
        self.blanks();
        let b = self.peek()?;
        if self.depth >= MAX_DEPTH {
            self.skip_balanced_line();
            return None;
        }
        if b == b'(' {
            if self.at(1) == Some(b'(') {
                self.i += 2;
                self.skip_until_double_paren();
                return None;
            }
            self.i += 1;
            let list = self.nested_list(Stop::Paren);
            if self.peek() == Some(b')') {
                self.i += 1;
            }
            let redirects = self.trailing_redirects();
            return Some(Command::Group(list, redirects));
        }
        match self.reserved() {
            Some("!") => {
                self.i += 1;
                return self.command();
            }
            Some("{") => {
                self.i += 1;
                let list = self.nested_list(Stop::Word);
                self.expect_word("}");
                let redirects = self.trailing_redirects();
                return Some(Command::Group(list, redirects));
            }
            Some(word @ ("if" | "while" | "until")) => {
                self.i += word.len();
                let mut list = self.nested_list(Stop::Word);
                let closer = if word == "if" { "fi" } else { "done" };
                for _ in 0..64 {
                    match self.reserved() {
                        Some(w @ ("then" | "else" | "elif" | "do")) => {
                            self.i += w.len();
                            let more = self.nested_list(Stop::Word);
                            list.pipelines.extend(more.pipelines);
                        }
                        _ => break,
                    }
                }
                self.expect_word(closer);
                let redirects = self.trailing_redirects();
                return Some(Command::Group(list, redirects));
            }
            Some(word @ ("for" | "select")) => {
                self.i += word.len();
                // The loop's words, up to `do`.
                let mut loop_words = Vec::new();
                loop {
                    self.blanks();
                    match self.peek() {
                        None => break,
                        Some(b'(') if self.at(1) == Some(b'(') => {
                            self.i += 2;
                            self.skip_until_double_paren();
                        }
                        Some(b';' | b'\n') => self.i += 1,
                        Some(_) if self.reserved() == Some("do") => break,
                        Some(b) if is_meta(b) => self.i += 1,
                        Some(_) => loop_words.push(self.word()),
                    }
                }
                let mut list = List::default();
                if self.reserved() == Some("do") {
                    self.i += 2;
                    list = self.nested_list(Stop::Word);
                    self.expect_word("done");
                }
                // `for x in $(curl …)`: the words' substitutions run too.
                let loop_command = Simple {
                    words: loop_words,
                    at: self.i,
                    ..Simple::default()
                };
                list.pipelines.insert(
                    0,
                    Pipeline {
                        commands: vec![Command::Simple(loop_command)],
                        at: self.i,
                    },
                );
                let redirects = self.trailing_redirects();
                return Some(Command::Group(list, redirects));
            }
            Some("case") => {
                self.i += 4;
                return Some(self.case());
            }
            Some("function") => {
                self.i += "function".len();
                self.blanks();
                let name = self.word().shape();
                self.blanks();
                if self.starts("()") {
                    self.i += 2;
                }
                return Some(self.function_body(name));
            }
            Some(_) => return None,
            None => {}
        }
        self.simple()
    }

    fn function_body(&mut self, name: String) -> Command {
        loop {
            self.blanks();
            if self.peek() == Some(b'\n') {
                self.i += 1;
            } else {
                break;
            }
        }
        match self.command() {
            Some(Command::Group(list, _)) => Command::Function(name, list),
            Some(other) => Command::Function(
                name,
                List {
                    pipelines: vec![Pipeline {
                        commands: vec![other],
                        at: self.i,
                    }],
                },
            ),
            None => Command::Function(name, List::default()),
        }
    }

    /// `case WORD in PATTERN) LIST ;; … esac`, its lists as one group.
    fn case(&mut self) -> Command {
        self.blanks();
        let subject = self.word();
        let mut list = List::default();
        list.pipelines.push(Pipeline {
            commands: vec![Command::Simple(Simple {
                words: vec![subject],
                at: self.i,
                ..Simple::default()
            })],
            at: self.i,
        });
        self.blanks();
        if self.starts("in") && self.at(2).is_none_or(is_meta) {
            self.i += 2;
        }
        for _ in 0..4096 {
            // Blank lines and separators, then `esac` or a pattern up to `)`.
            loop {
                self.blanks();
                match self.peek() {
                    Some(b'\n' | b';') => self.i += 1,
                    _ => break,
                }
            }
            if self.peek().is_none() || self.reserved() == Some("esac") {
                break;
            }
            let line_end = memchr::memchr(b'\n', &self.bytes[self.i..])
                .map_or(self.bytes.len(), |e| self.i + e);
            match memchr::memchr(b')', &self.bytes[self.i..line_end]) {
                Some(close) => self.i += close + 1,
                None => break,
            }
            let before = self.i;
            let body = self.nested_list(Stop::Word);
            list.pipelines.extend(body.pipelines);
            if self.starts(";;") {
                self.i += 2;
                if matches!(self.peek(), Some(b'&')) {
                    self.i += 1;
                }
            } else if self.starts(";&") {
                self.i += 2;
            } else if self.i == before && self.reserved() != Some("esac") {
                break;
            }
        }
        self.expect_word("esac");
        let redirects = self.trailing_redirects();
        Command::Group(list, redirects)
    }

    fn expect_word(&mut self, word: &str) {
        self.blanks();
        if self.reserved() == Some(word) {
            self.i += word.len();
        }
    }

    fn nested_list(&mut self, stop: Stop) -> List {
        let mut list = List::default();
        self.depth += 1;
        self.list_into(&mut list, stop);
        self.depth -= 1;
        list
    }

    fn trailing_redirects(&mut self) -> Vec<Redirect> {
        let mut out = Vec::new();
        loop {
            self.blanks();
            match self.redirect() {
                Some(r) => out.push(r),
                None => return out,
            }
        }
    }

    /// Skips to the end of the line, or of the `(` … `)` that encloses the position, when
    /// nesting is too deep to parse.
    fn skip_balanced_line(&mut self) {
        let mut depth = 0usize;
        while let Some(b) = self.peek() {
            match b {
                b'(' => depth += 1,
                b')' | b'\n' if depth == 0 => return,
                b')' => depth -= 1,
                _ => {}
            }
            self.i += 1;
        }
    }

    fn skip_until_double_paren(&mut self) {
        match memchr::memmem::find(&self.bytes[self.i..], b"))") {
            Some(e) => self.i += e + 2,
            None => self.i = self.bytes.len(),
        }
    }

    fn simple(&mut self) -> Option<Command> {
        let at = self.i;
        let mut simple = Simple {
            at,
            ..Simple::default()
        };
        loop {
            self.blanks();
            let Some(b) = self.peek() else { break };
            if let Some(r) = self.redirect() {
                simple.redirects.push(r);
                continue;
            }
            let process = matches!(b, b'<' | b'>') && self.at(1) == Some(b'(');
            if is_meta(b) && !process {
                if b == b'(' && simple.words.len() == 1 && simple.assigns.is_empty() {
                    // `name() { … }`
                    let rest = &self.bytes[self.i + 1..];
                    let close = rest.iter().position(|c| !matches!(c, b' ' | b'\t'));
                    if close.is_some_and(|c| rest[c] == b')') {
                        self.i += 2 + close.unwrap_or(0);
                        let name = simple.words[0].shape();
                        return Some(self.function_body(name));
                    }
                }
                break;
            }
            if simple.words.is_empty()
                && let Some((name, value)) = self.assignment()
            {
                simple.assigns.push((name, value));
                continue;
            }
            let before = self.i;
            let word = self.word();
            if self.i == before {
                self.i += 1;
                continue;
            }
            simple.words.push(word);
        }
        (!(simple.words.is_empty() && simple.assigns.is_empty() && simple.redirects.is_empty()))
            .then_some(Command::Simple(simple))
    }

    /// `NAME=value`, `NAME+=value`, `NAME[i]=value` at the command position.
    fn assignment(&mut self) -> Option<(String, Word)> {
        let rest = &self.bytes[self.i..];
        if !rest.first().copied().is_some_and(is_name_start) {
            return None;
        }
        let name_len = rest.iter().take_while(|b| is_name(**b)).count();
        let mut eq = name_len;
        if rest.get(eq) == Some(&b'[') {
            eq += rest[eq..].iter().position(|b| *b == b']')? + 1;
        }
        if rest.get(eq) == Some(&b'+') {
            eq += 1;
        }
        if rest.get(eq) != Some(&b'=') {
            return None;
        }
        let name = self.text[self.i..self.i + name_len].to_owned();
        self.i += eq + 1;
        let value = if self.peek() == Some(b'(') {
            // An array: its words as one.
            self.i += 1;
            let start = self.i;
            let mut parts = Vec::new();
            loop {
                self.blanks();
                match self.peek() {
                    None => break,
                    Some(b')') => {
                        self.i += 1;
                        break;
                    }
                    Some(b'\n') => self.i += 1,
                    Some(b) if is_meta(b) => self.i += 1,
                    Some(_) => {
                        if !parts.is_empty() {
                            parts.push(Part::Lit(" ".into()));
                        }
                        parts.extend(self.word().parts);
                    }
                }
            }
            Word {
                parts,
                start,
                end: self.i,
            }
        } else {
            self.word()
        };
        Some((name, value))
    }

    fn redirect(&mut self) -> Option<Redirect> {
        let start = self.i;
        let digits = self.bytes[self.i..]
            .iter()
            .take_while(|b| b.is_ascii_digit())
            .count();
        let fd = (digits > 0 && digits < 4)
            .then(|| self.text[self.i..self.i + digits].parse().ok())
            .flatten();
        let op_at = self.i + if fd.is_some() { digits } else { 0 };
        let rest = &self.bytes[op_at..];
        let (op, len) = if rest.starts_with(b"<<<") {
            (RedirectOp::HereString, 3)
        } else if rest.starts_with(b"<<-") {
            (RedirectOp::HereDoc, 3)
        } else if rest.starts_with(b"<<") {
            (RedirectOp::HereDoc, 2)
        } else if rest.starts_with(b"<(") || rest.starts_with(b">(") {
            return None;
        } else if rest.starts_with(b"&>>") {
            (RedirectOp::Append, 3)
        } else if rest.starts_with(b"&>") {
            (RedirectOp::Output, 2)
        } else if rest.starts_with(b">>") {
            (RedirectOp::Append, 2)
        } else if rest.starts_with(b">&") || rest.starts_with(b"<&") || rest.starts_with(b"<>") {
            (RedirectOp::Dup, 2)
        } else if rest.starts_with(b">|") {
            (RedirectOp::Output, 2)
        } else if rest.starts_with(b">") {
            (RedirectOp::Output, 1)
        } else if rest.starts_with(b"<") {
            (RedirectOp::Input, 1)
        } else {
            self.i = start;
            return None;
        };
        self.i = op_at + len;
        self.blanks();
        if op == RedirectOp::HereDoc {
            let strip_tabs = len == 3;
            let delimiter = self.word();
            let quoted = self.text[delimiter.start..delimiter.end.min(self.bytes.len())]
                .contains(['\'', '"', '\\']);
            self.pending.push(Pending {
                delimiter: delimiter.shape(),
                strip_tabs,
                expands: !quoted,
            });
            // Filled at the line end (`newline_into`): marked empty until then.
            return Some(Redirect {
                fd,
                op,
                target: Word {
                    parts: Vec::new(),
                    start: self.i,
                    end: usize::MAX,
                },
            });
        }
        if self
            .peek()
            .is_none_or(|b| is_meta(b) && b != b'<' && b != b'>')
        {
            return Some(Redirect {
                fd,
                op,
                target: Word::default(),
            });
        }
        let target = self.word();
        Some(Redirect { fd, op, target })
    }

    /// One word at the position: quotes removed, escapes resolved, expansions as parts.
    fn word(&mut self) -> Word {
        let start = self.i;
        let mut parts: Vec<Part> = Vec::new();
        let mut lit = String::new();
        while let Some(b) = self.peek() {
            match b {
                b'<' | b'>' if self.at(1) == Some(b'(') => {
                    self.i += 2;
                    flush(&mut lit, &mut parts);
                    let inner = self.nested_list(Stop::Paren);
                    if self.peek() == Some(b')') {
                        self.i += 1;
                    }
                    parts.push(Part::Process(inner, b == b'<'));
                }
                _ if is_meta(b) => break,
                b'\\' => match self.at(1) {
                    Some(b'\n') => self.i += 2,
                    Some(_) => {
                        let c = self.char_at(self.i + 1);
                        lit.push(c);
                        self.i += 1 + c.len_utf8();
                    }
                    None => self.i += 1,
                },
                b'\'' => {
                    let end = memchr::memchr(b'\'', &self.bytes[self.i + 1..])
                        .map_or(self.bytes.len(), |e| self.i + 1 + e);
                    lit.push_str(&self.text[self.i + 1..end]);
                    self.i = (end + 1).min(self.bytes.len());
                }
                b'"' => {
                    self.i += 1;
                    flush(&mut lit, &mut parts);
                    parts.extend(self.double_quoted_until(Some(b'"')));
                    if self.peek() == Some(b'"') {
                        self.i += 1;
                    }
                }
                b'$' if self.at(1) == Some(b'\'') => {
                    self.i += 2;
                    lit.push_str(&self.ansi_c());
                }
                b'$' if self.at(1) == Some(b'"') => {
                    // A translated string reads as a double-quoted one.
                    self.i += 1;
                }
                b'$' | b'`' => {
                    if let Some(part) = self.expansion() {
                        flush(&mut lit, &mut parts);
                        parts.push(part);
                    } else {
                        lit.push('$');
                        self.i += 1;
                    }
                }
                _ => {
                    // A run of plain bytes, whole characters.
                    let run = self.bytes[self.i..]
                        .iter()
                        .position(|c| {
                            is_meta(*c) || matches!(c, b'\\' | b'\'' | b'"' | b'$' | b'`')
                        })
                        .map_or(self.bytes.len(), |e| self.i + e);
                    let run = if run == self.i { self.i + 1 } else { run };
                    let run = self.ceil(run);
                    lit.push_str(&self.text[self.i..run]);
                    self.i = run;
                }
            }
        }
        flush(&mut lit, &mut parts);
        Word {
            parts,
            start,
            end: self.i,
        }
    }

    fn ceil(&self, mut i: usize) -> usize {
        while i < self.bytes.len() && !self.text.is_char_boundary(i) {
            i += 1;
        }
        i.min(self.bytes.len())
    }

    fn char_at(&self, i: usize) -> char {
        self.text
            .get(i..)
            .and_then(|s| s.chars().next())
            .unwrap_or('\u{FFFD}')
    }

    /// The parts of double-quoted text up to `close` (or the end): `$…` and backquotes expand,
    /// a backslash escapes only `$`, `` ` ``, `"`, `\` and a line end.
    fn double_quoted_until(&mut self, close: Option<u8>) -> Vec<Part> {
        let mut parts = Vec::new();
        let mut lit = String::new();
        while let Some(b) = self.peek() {
            if Some(b) == close {
                break;
            }
            match b {
                b'\\' => {
                    match self.at(1) {
                        Some(b'$' | b'`' | b'"' | b'\\') => {
                            lit.push(char::from(self.bytes[self.i + 1]));
                        }
                        Some(b'\n') => {}
                        Some(_) => {
                            lit.push('\\');
                            let c = self.char_at(self.i + 1);
                            lit.push(c);
                            self.i += c.len_utf8() - 1;
                        }
                        None => lit.push('\\'),
                    }
                    self.i += 2.min(self.bytes.len() - self.i);
                }
                b'$' | b'`' => {
                    if let Some(part) = self.expansion() {
                        flush(&mut lit, &mut parts);
                        parts.push(part);
                    } else {
                        lit.push('$');
                        self.i += 1;
                    }
                }
                _ => {
                    let run = self.bytes[self.i..]
                        .iter()
                        .position(|c| matches!(c, b'\\' | b'$' | b'`') || Some(*c) == close)
                        .map_or(self.bytes.len(), |e| self.i + e);
                    let run = self.ceil(run.max(self.i + 1));
                    lit.push_str(&self.text[self.i..run]);
                    self.i = run;
                }
            }
        }
        flush(&mut lit, &mut parts);
        parts
    }

    /// `$'…'` after its opening quote: C escapes resolved.
    fn ansi_c(&mut self) -> String {
        let mut out = String::new();
        while let Some(b) = self.peek() {
            match b {
                b'\'' => {
                    self.i += 1;
                    break;
                }
                b'\\' => {
                    self.i += 1;
                    let Some(e) = self.peek() else { break };
                    self.i += 1;
                    let digits = |p: &mut Self, radix: u32, max: usize| {
                        let mut value = 0u32;
                        let mut n = 0;
                        while n < max
                            && let Some(d) = p.peek().and_then(|c| char::from(c).to_digit(radix))
                        {
                            value = value * radix + d;
                            p.i += 1;
                            n += 1;
                        }
                        (n > 0).then_some(value)
                    };
                    let c = match e {
                        b'n' => Some('\n'),
                        b't' => Some('\t'),
                        b'r' => Some('\r'),
                        b'a' => Some('\u{7}'),
                        b'b' => Some('\u{8}'),
                        b'e' | b'E' => Some('\u{1b}'),
                        b'f' => Some('\u{c}'),
                        b'v' => Some('\u{b}'),
                        b'x' => digits(self, 16, 2).and_then(char::from_u32),
                        b'u' => digits(self, 16, 4).and_then(char::from_u32),
                        b'U' => digits(self, 16, 8).and_then(char::from_u32),
                        b'0'..=b'7' => {
                            self.i -= 1;
                            digits(self, 8, 3).and_then(char::from_u32)
                        }
                        b'c' => {
                            // `\cX`: a control character; X may be wider than a byte, or absent.
                            if self.i < self.bytes.len() {
                                self.i += self.char_at(self.i).len_utf8();
                            }
                            None
                        }
                        _ => {
                            self.i -= 1;
                            let c = self.char_at(self.i);
                            self.i += c.len_utf8();
                            Some(c)
                        }
                    };
                    if let Some(c) = c {
                        out.push(c);
                    }
                }
                _ => {
                    let c = self.char_at(self.i);
                    out.push(c);
                    self.i += c.len_utf8();
                }
            }
        }
        out
    }

    /// An expansion at `$` or a backquote, `None` when the `$` is literal.
    fn expansion(&mut self) -> Option<Part> {
        if self.peek() == Some(b'`') {
            self.i += 1;
            let start = self.i;
            let mut inner = String::new();
            let mut unescaped = false;
            while let Some(b) = self.peek() {
                match b {
                    b'`' => break,
                    b'\\' if matches!(self.at(1), Some(b'`' | b'\\' | b'$')) => {
                        inner.push(char::from(self.bytes[self.i + 1]));
                        self.i += 2;
                        unescaped = true;
                    }
                    _ => {
                        let c = self.char_at(self.i);
                        inner.push(c);
                        self.i += c.len_utf8();
                    }
                }
            }
            self.i = (self.i + 1).min(self.bytes.len());
            if self.depth + 1 >= MAX_DEPTH {
                return Some(Part::Other);
            }
            let mut nested = Parser {
                text: &inner,
                bytes: inner.as_bytes(),
                i: 0,
                depth: self.depth + 1,
                pending: Vec::new(),
            };
            let mut list = List::default();
            while nested.i < nested.bytes.len() {
                nested.list_into(&mut list, Stop::End);
                if nested.i < nested.bytes.len() {
                    nested.skip_stray();
                }
            }
            if unescaped {
                // Each `\\`, `` \` `` or `\$` is a byte shorter inside: offsets past one would
                // drift, so everything nested points at the backquote.
                map_offsets(&mut list, &|_| start);
            } else {
                shift_list(&mut list, start);
            }
            return Some(Part::Command(list));
        }
        let next = self.at(1)?;
        match next {
            b'(' if self.at(2) == Some(b'(') => {
                self.i += 3;
                self.skip_until_double_paren();
                Some(Part::Other)
            }
            b'(' => {
                self.i += 2;
                let list = self.nested_list(Stop::Paren);
                if self.peek() == Some(b')') {
                    self.i += 1;
                }
                Some(Part::Command(list))
            }
            b'{' => {
                self.i += 2;
                let start = self.i;
                let mut depth = 1usize;
                let mut name_end = None;
                while let Some(b) = self.peek() {
                    match b {
                        b'{' => depth += 1,
                        b'}' => {
                            depth -= 1;
                            if depth == 0 {
                                break;
                            }
                        }
                        _ => {}
                    }
                    if name_end.is_none()
                        && !(is_name(b) || (self.i == start && matches!(b, b'!' | b'#')))
                    {
                        name_end = Some(self.i);
                    }
                    self.i += 1;
                }
                let end = self.i.min(self.bytes.len());
                let name_end = name_end.unwrap_or(end).min(end);
                let name = self.text[start..name_end]
                    .trim_start_matches(['!', '#'])
                    .to_owned();
                self.i = (self.i + 1).min(self.bytes.len());
                // `${CW_T:=cu}`: a default, assigned or not (a name is ASCII, so `name_end` is
                // on a character boundary).
                let rest = &self.text[name_end..end];
                let default = [(":=", true), ("=", true), (":-", false), ("-", false)]
                    .into_iter()
                    .find_map(|(op, assigns)| rest.strip_prefix(op).map(|d| (d, assigns)));
                match default {
                    Some((text, assigns))
                        if !name.is_empty() && !text.contains("$(") && !text.contains('`') =>
                    {
                        let text = text.trim_matches(['"', '\'']).to_owned();
                        Some(Part::Default(name, text, assigns))
                    }
                    _ => Some(Part::Param(name)),
                }
            }
            b if is_name_start(b) => {
                let start = self.i + 1;
                let len = self.bytes[start..]
                    .iter()
                    .take_while(|c| is_name(**c))
                    .count();
                self.i = start + len;
                Some(Part::Param(self.text[start..self.i].to_owned()))
            }
            b'0'..=b'9' | b'@' | b'*' | b'#' | b'?' | b'-' | b'$' | b'!' => {
                self.i += 2;
                Some(Part::Param(char::from(next).to_string()))
            }
            _ => None,
        }
    }
}

fn flush(lit: &mut String, parts: &mut Vec<Part>) {
    if !lit.is_empty() {
        match parts.last_mut() {
            Some(Part::Lit(prev)) => prev.push_str(lit),
            _ => parts.push(Part::Lit(std::mem::take(lit))),
        }
        lit.clear();
    }
}

fn collect_heredocs<'l>(command: &'l mut Command, out: &mut Vec<&'l mut Word>) {
    let redirects = match command {
        Command::Simple(s) => &mut s.redirects,
        Command::Group(_, r) => r,
        Command::Function(..) => return,
    };
    for r in redirects.iter_mut().rev() {
        if r.op == RedirectOp::HereDoc {
            out.push(&mut r.target);
        }
    }
}

/// Offsets of nested text (a backquoted list, a here-document body) made offsets of the
/// enclosing text.
fn shift(parts: Vec<Part>, by: usize) -> Vec<Part> {
    parts
        .into_iter()
        .map(|p| match p {
            Part::Command(mut list) => {
                shift_list(&mut list, by);
                Part::Command(list)
            }
            Part::Process(mut list, input) => {
                shift_list(&mut list, by);
                Part::Process(list, input)
            }
            other => other,
        })
        .collect()
}

fn shift_list(list: &mut List, by: usize) {
    map_offsets(list, &|at| at.saturating_add(by));
}

/// `f` applied to every offset of `list`: its pipelines and commands, and those of the
/// substitutions in their words, assignments and redirect targets, at every depth (a `$(…)`
/// inside backquotes or a here-document is in the same text as the command around it).
pub fn map_offsets(list: &mut List, f: &dyn Fn(usize) -> usize) {
    for p in &mut list.pipelines {
        p.at = f(p.at);
        for c in &mut p.commands {
            match c {
                Command::Simple(s) => {
                    s.at = f(s.at);
                    let words = s
                        .words
                        .iter_mut()
                        .chain(s.assigns.iter_mut().map(|(_, w)| w))
                        .chain(s.redirects.iter_mut().map(|r| &mut r.target));
                    for w in words {
                        for part in &mut w.parts {
                            if let Part::Command(l) | Part::Process(l, _) = part {
                                map_offsets(l, f);
                            }
                        }
                    }
                }
                Command::Group(l, _) | Command::Function(_, l) => map_offsets(l, f),
            }
        }
    }
}
