//! Size limits: per file, per skill, and the number of files.

use super::Cx;
use super::rules;
use crate::skill::inventory::FileKind;

pub fn check(cx: &mut Cx<'_>) {
    let (max_file, max_skill, max_files) = (
        cx.config.max_file_size,
        cx.config.max_skill_size,
        cx.config.max_files,
    );
    let inventory = cx.inventory();
    let large: Vec<_> = inventory
        .files
        .iter()
        .filter(|f| f.kind == FileKind::File && f.size > max_file)
        .map(|f| (f.path.clone(), f.size))
        .collect();
    let count = inventory.files.len() as u64;
    let total = inventory.total_size();
    let truncated = inventory.truncated;
    for (path, size) in large {
        cx.report(
            &rules::FILE_TOO_LARGE,
            &path,
            None,
            format!("{} is over the limit of {}", human(size), human(max_file)),
        )
        .help("keep large data outside the skill, or raise --max-file-size");
    }
    let dir = cx.dir().to_path_buf();
    if total > max_skill {
        cx.report(
            &rules::SKILL_TOO_LARGE,
            &dir,
            None,
            format!(
                "the skill weighs {}, over the limit of {}",
                human(total),
                human(max_skill)
            ),
        )
        .help("raise --max-skill-size if this is intended");
    }
    if count > max_files {
        let shown = if truncated {
            format!("more than {count}")
        } else {
            count.to_string()
        };
        cx.report(
            &rules::TOO_MANY_FILES,
            &dir,
            None,
            format!("the skill has {shown} files, over the limit of {max_files}"),
        )
        .help("raise --max-files if this is intended");
    }
}

/// `1.5 MiB`, `12 KiB`, `300 B`.
pub fn human(bytes: u64) -> String {
    #[expect(clippy::cast_precision_loss, reason = "a size shown to one decimal")]
    let value = bytes as f64;
    if bytes >= 1 << 30 {
        format!("{:.1} GiB", value / f64::from(1u32 << 30))
    } else if bytes >= 1 << 20 {
        format!("{:.1} MiB", value / f64::from(1u32 << 20))
    } else if bytes >= 1 << 10 {
        format!("{:.1} KiB", value / f64::from(1u32 << 10))
    } else {
        format!("{bytes} B")
    }
}
