//! Skill packages: `tools.json` and `resources.json` must be valid MCP tool and resource lists.

use super::Cx;
use super::rules::{self, Rule};
use crate::skill::Pos;
use crate::skill::package::{Package, ProblemKind, RESOURCES_FILE, TOOLS_FILE};

pub fn check(cx: &mut Cx<'_>) {
    let inventory = cx.inventory();
    if inventory.get(TOOLS_FILE).is_none() && inventory.get(RESOURCES_FILE).is_none() {
        return;
    }
    let (_, problems) = Package::load(cx.dir());
    for problem in problems {
        let rule: &'static Rule = match problem.kind {
            ProblemKind::InvalidJson => &rules::PACKAGE_JSON,
            ProblemKind::ToolFields => &rules::TOOL_FIELDS,
            ProblemKind::ToolDuplicate => &rules::TOOL_DUPLICATE,
            ProblemKind::ToolSchema => &rules::TOOL_SCHEMA,
            ProblemKind::ResourceFields => &rules::RESOURCE_FIELDS,
        };
        let path = cx.dir().join(problem.file);
        cx.report(
            rule,
            &path,
            Some(Pos {
                line: problem.line,
                col: problem.col,
            }),
            problem.message,
        );
    }
}
