//! Quality of the instructions: body size, a description that says when to use the skill, and
//! relative links that work wherever the skill is installed.

use super::Cx;
use super::links::{self, Resolved};
use super::rules;
use crate::skill::frontmatter::lines;
use crate::skill::{Pos, Skill};

pub const MAX_BODY_LINES: usize = 500;
pub const MAX_BODY_TOKENS: usize = 5_000;

/// Words that say when to use a skill.
const TRIGGERS: &[&str] = &[
    "use when",
    "when ",
    "whenever",
    "use for",
    "use this",
    "use it",
    "use to",
    "trigger",
    "if the user",
    "if you",
    "invoke",
    "activate",
    "for tasks",
    "applies to",
    "helps with",
    "asks",
    "needs to",
    // Other languages: Spanish, French, German.
    "cuando",
    "lorsque",
    "quand ",
    "wenn ",
    // Chinese ("applies to", "when the user"), Japanese ("when", "in case of"),
    // Korean ("when", "in case of"). Chinese "当…时使用" is matched by `says_when_cjk`.
    "适用于",
    "適用於",
    "当用户",
    "當用戶",
    "ときに",
    "場合に",
    "場合は",
    "際に",
    "때 ",
    "때에",
    "경우",
];

/// Chinese and Japanese put "when" (时, 時, 当, 當) and "use" (使用, 调用, 触发, …) apart:
/// "当用户需要…时使用", "…时，应使用此技能".
fn says_when_cjk(description: &str) -> bool {
    ["时", "時", "当", "當"]
        .iter()
        .any(|w| description.contains(w))
        && ["使用", "调用", "調用", "触发", "觸發", "启用", "啟用"]
            .iter()
            .any(|u| description.contains(u))
}

pub fn check(cx: &mut Cx<'_>, skill: &Skill) {
    let body = skill.body();
    if body.trim().is_empty() {
        cx.at(
            &rules::EMPTY_BODY,
            Some(Pos {
                line: skill.body_line,
                col: 1,
            }),
            "SKILL.md has no instructions after the frontmatter".into(),
        )
        .help("the body is what the agent reads when it uses the skill");
    } else {
        let count = lines(body).count();
        if count > MAX_BODY_LINES {
            cx.at(
                &rules::BODY_TOO_LONG,
                Some(Pos {
                    line: skill.body_line + MAX_BODY_LINES,
                    col: 1,
                }),
                format!("the body has {count} lines; keep it under {MAX_BODY_LINES}"),
            )
            .help("move reference material into files under `references/` and link them");
        }
        let tokens = body.chars().count() / 4;
        if tokens > MAX_BODY_TOKENS {
            cx.at(
                &rules::BODY_TOO_MANY_TOKENS,
                Some(Pos {
                    line: skill.body_line,
                    col: 1,
                }),
                format!("the body is about {tokens} tokens; keep it under {MAX_BODY_TOKENS}"),
            )
            .help("move reference material into linked files that are read only when needed");
        }
    }
    if let Some(description) = skill.description() {
        let lower = description.to_lowercase();
        if !TRIGGERS.iter().any(|t| lower.contains(t)) && !says_when_cjk(&description) {
            let pos = skill.frontmatter.key("description").map(|k| k.value_pos);
            cx.at(
                &rules::DESCRIPTION_NO_TRIGGER,
                pos,
                "the description does not say when to use the skill".into(),
            )
            .help("add a sentence such as \"Use when the user asks to …\"");
        }
    }
    let file_rel = skill
        .file
        .file_name()
        .map_or_else(|| "SKILL.md".into(), |n| n.to_string_lossy().into_owned());
    let targets = check_links(cx, &file_rel, body, skill.body_line);
    cx.linked_markdown = targets
        .into_iter()
        .filter(|t| {
            std::path::Path::new(t)
                .extension()
                .is_some_and(|e| e.eq_ignore_ascii_case("md"))
                && *t != file_rel
        })
        .collect();
}

/// Checks the relative links of `text` (the file at skill-relative `rel`); returns the
/// skill-relative files they reach.
pub fn check_links(cx: &mut Cx<'_>, rel: &str, text: &str, first_line: usize) -> Vec<String> {
    let path = cx.dir().join(rel);
    let mut reached = Vec::new();
    let inventory = cx.inventory();
    for link in links::find(text, first_line) {
        let pos = Some(Pos {
            line: link.line,
            col: link.col,
        });
        match links::resolve(rel, &link.target) {
            Resolved::External => {}
            Resolved::Escapes => {
                cx.report(
                    &rules::LINK_ESCAPES,
                    &path,
                    pos,
                    format!("`{}` points outside the skill folder", link.target),
                )
                .help("copy the file into the skill; only the skill folder is installed");
            }
            Resolved::Inside(target) => {
                let prefix = format!("{target}/");
                let exists = target.is_empty()
                    || inventory.get(&target).is_some()
                    || inventory.files.iter().any(|f| f.rel.starts_with(&prefix));
                if exists {
                    reached.push(target);
                } else {
                    cx.report(
                        &rules::BROKEN_LINK,
                        &path,
                        pos,
                        format!(
                            "`{}` does not exist in the skill",
                            link.target.split(['#', '?']).next().unwrap_or_default()
                        ),
                    );
                }
            }
        }
    }
    reached
}

#[cfg(test)]
mod tests {
    use super::*;

    fn says_when(description: &str) -> bool {
        let lower = description.to_lowercase();
        TRIGGERS.iter().any(|t| lower.contains(t)) || says_when_cjk(description)
    }

    #[test]
    fn triggers_in_several_languages() {
        for yes in [
            "Fills PDF forms. Use when the user has a form.",
            "当用户请求为 Slack 创建动画 GIF 时使用",
            "创建演示文稿。在需要制作幻灯片时应使用此技能",
            "撰写内部通讯。在撰写状态报告时，Claude 应使用此技能",
            "适用于处理电子表格",
            "PDF を扱うときに使用する",
            "スライドを作る場合に使います",
            "PDF를 다룰 때 사용합니다",
            "Rellena formularios. Úsala cuando el usuario tenga un PDF.",
            "Remplit des formulaires lorsque l'utilisateur en a un.",
        ] {
            assert!(says_when(yes), "{yes}");
        }
        for no in [
            "Fills PDF forms.",
            "处理 PDF 文件的工具",
            "用于为制品添加主题样式的工具包",
            "PDF を扱うツール",
        ] {
            assert!(!says_when(no), "{no}");
        }
    }
}
