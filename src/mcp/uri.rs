//! `skill://` URIs: how a skill's files are named to clients, and how those names are read back.
//!
//! A URI is `skill://<name>/<path>` with every path segment percent-encoded as RFC 3986's
//! unreserved set requires; reading one back decodes it and refuses stray `%` and escapes that are
//! not UTF-8. A decoded path is only ever looked up in the snapshot, never used as a file path.

/// What a URI path segment escapes: everything but RFC 3986's unreserved characters.
const SEGMENT: &percent_encoding::AsciiSet = &percent_encoding::NON_ALPHANUMERIC
    .remove(b'-')
    .remove(b'.')
    .remove(b'_')
    .remove(b'~');

/// Whether `name` can be a URI path segment as it is (nothing in it needs escaping).
pub fn unreserved(name: &str) -> bool {
    let encoded = std::borrow::Cow::from(percent_encoding::utf8_percent_encode(name, SEGMENT));
    matches!(encoded, std::borrow::Cow::Borrowed(_))
}

/// `skill://<name>/<rel>` with every segment of `rel` percent-encoded as needed.
pub fn uri(name: &str, rel: &str) -> String {
    let segments: Vec<String> = rel
        .split('/')
        .map(|segment| percent_encoding::utf8_percent_encode(segment, SEGMENT).to_string())
        .collect();
    format!("skill://{name}/{}", segments.join("/"))
}

/// Splits `skill://<name>/<rest>` into the name and the decoded path; `None` for anything else,
/// including a `%` not followed by two hex digits and escapes that do not decode to UTF-8.
pub fn parse_uri(uri: &str) -> Option<(String, String)> {
    let rest = uri.strip_prefix("skill://")?;
    let (name, path) = rest.split_once('/').unwrap_or((rest, ""));
    let escapes_valid = path.split('%').skip(1).all(|after| {
        after
            .get(..2)
            .is_some_and(|hex| hex.bytes().all(|b| b.is_ascii_hexdigit()))
    });
    if !escapes_valid {
        return None;
    }
    let path = percent_encoding::percent_decode_str(path)
        .decode_utf8()
        .ok()?;
    Some((name.to_owned(), path.trim_end_matches('/').to_owned()))
}

/// A MIME type from the file name.
pub fn mime(rel: &str) -> &'static str {
    let extension = rel
        .rsplit_once('.')
        .map(|(_, e)| e.to_ascii_lowercase())
        .unwrap_or_default();
    match extension.as_str() {
        "md" | "markdown" => "text/markdown",
        "txt" | "text" => "text/plain",
        "json" => "application/json",
        "yaml" | "yml" => "application/yaml",
        "toml" => "application/toml",
        "xml" => "application/xml",
        "html" | "htm" => "text/html",
        "css" => "text/css",
        "csv" => "text/csv",
        "js" | "mjs" | "cjs" => "text/javascript",
        "ts" => "text/x-typescript",
        "py" => "text/x-python",
        "sh" | "bash" | "zsh" => "text/x-shellscript",
        "rb" => "text/x-ruby",
        "rs" => "text/x-rust",
        "go" => "text/x-go",
        "java" => "text/x-java",
        "sql" => "application/sql",
        "svg" => "image/svg+xml",
        "png" => "image/png",
        "jpg" | "jpeg" => "image/jpeg",
        "gif" => "image/gif",
        "webp" => "image/webp",
        "pdf" => "application/pdf",
        "zip" => "application/zip",
        "gz" | "tgz" => "application/gzip",
        "" if rel
            .rsplit('/')
            .next()
            .is_some_and(|n| n == "LICENSE" || n == "Makefile" || n == "Dockerfile") =>
        {
            "text/plain"
        }
        _ => "application/octet-stream",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn uris_round_trip_and_refuse_oddities() {
        assert_eq!(
            uri("pdf", "references/a b.md"),
            "skill://pdf/references/a%20b.md"
        );
        assert_eq!(
            parse_uri("skill://pdf/references/a%20b.md"),
            Some(("pdf".into(), "references/a b.md".into()))
        );
        assert_eq!(
            parse_uri("skill://pdf/%2e%2e/x"),
            Some(("pdf".into(), "../x".into())),
            "decoded, then not found"
        );
        assert_eq!(parse_uri("skill://pdf/%zz"), None);
        assert_eq!(parse_uri("skill://pdf/%+1"), None);
        assert_eq!(parse_uri("skill://pdf/%ff"), None, "not UTF-8");
        assert_eq!(uri("pdf", "r/é~_-.md"), "skill://pdf/r/%C3%A9~_-.md");
        assert_eq!(
            parse_uri(&uri("pdf", "r/é (1)#?.md")),
            Some(("pdf".into(), "r/é (1)#?.md".into()))
        );
        assert!(unreserved("my-skill_2.0~x") && !unreserved("my skill") && !unreserved("é"));
        assert_eq!(parse_uri("file:///etc/passwd"), None);
        assert_eq!(mime("SKILL.md"), "text/markdown");
        assert_eq!(mime("logo.PNG"), "image/png");
    }
}
