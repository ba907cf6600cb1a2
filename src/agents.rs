//! The agent table: where each coding agent reads skills, in project and user scope.
//!
//! Data, not logic: this is `agents.tsv` of the reference installer (`npx skills` 1.7.4) plus `sisu`,
//! turned into a checked-in table (`tests/fixtures/reference/agents.tsv` keeps the source; a unit test
//! checks that both agree). Paths are templates: `~` is the home directory, `$XDG_CONFIG_HOME` falls back
//! to `~/.config`, and `${VAR:-default}` reads `VAR` with a default, as in a POSIX shell.
//!
//! "Universal" agents read the canonical `.agents/skills` directory themselves, so installing for them
//! needs no extra copy or symlink.

use std::path::{Path, PathBuf};

/// One coding agent and the directories it reads skills from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Agent {
    /// Stable id used by `-a/--agent` and recorded in the lockfile.
    pub id: &'static str,
    pub display_name: &'static str,
    /// Skills directory relative to the project root.
    pub project_dir: &'static str,
    /// Skills directory in user scope (`-g`), a path template; `None` for project-only agents.
    pub global_dir: Option<&'static str>,
    /// Older user-scope directories used instead of `global_dir` when they exist.
    pub global_dir_alternates: &'static [&'static str],
    /// The agent counts as installed when one of these holds.
    pub detect: &'static [Detect],
    /// Reads `.agents/skills` itself.
    pub universal: bool,
    /// Left out of interactive agent lists (still installable by id).
    pub hidden: bool,
}

/// How an agent is detected on this machine or in this project.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Detect {
    /// A path template that exists (`./x` is relative to the project root).
    Path(&'static str),
    /// `./agent` exists and `package.json` depends on `eve`.
    EveProject,
}

/// The canonical project directory every universal agent reads.
pub const CANONICAL_DIR: &str = ".agents/skills";
/// The id of Eve, whose subagents have skills dirs of their own (`agent/subagents/<name>/skills`).
pub const EVE: &str = "eve";
/// Eve's own skills dir, in a project (its `project_dir`).
pub const EVE_PROJECT_DIR: &str = "agent/skills";
/// Where Eve keeps its subagents, in a project.
pub const EVE_SUBAGENTS_DIR: &str = "agent/subagents";

pub static AGENTS: &[Agent] = &[
    Agent {
        id: "aider-desk",
        display_name: "AiderDesk",
        project_dir: ".aider-desk/skills",
        global_dir: Some("~/.aider-desk/skills"),
        global_dir_alternates: &[],
        detect: &[Detect::Path("~/.aider-desk")],
        universal: false,
        hidden: false,
    },
    Agent {
        id: "amp",
        display_name: "Amp",
        project_dir: ".agents/skills",
        global_dir: Some("$XDG_CONFIG_HOME/agents/skills"),
        global_dir_alternates: &[],
        detect: &[Detect::Path("$XDG_CONFIG_HOME/amp")],
        universal: true,
        hidden: false,
    },
    Agent {
        id: "antigravity",
        display_name: "Antigravity",
        project_dir: ".agents/skills",
        global_dir: Some("~/.gemini/antigravity/skills"),
        global_dir_alternates: &[],
        detect: &[Detect::Path("~/.gemini/antigravity")],
        universal: true,
        hidden: true,
    },
    Agent {
        id: "antigravity-cli",
        display_name: "Antigravity CLI",
        project_dir: ".agents/skills",
        global_dir: Some("~/.gemini/antigravity-cli/skills"),
        global_dir_alternates: &[],
        detect: &[Detect::Path("~/.gemini/antigravity-cli")],
        universal: true,
        hidden: true,
    },
    Agent {
        id: "astrbot",
        display_name: "AstrBot",
        project_dir: "data/skills",
        global_dir: Some("~/.astrbot/data/skills"),
        global_dir_alternates: &[],
        detect: &[Detect::Path("./data/skills"), Detect::Path("~/.astrbot")],
        universal: false,
        hidden: false,
    },
    Agent {
        id: "autohand-code",
        display_name: "Autohand Code CLI",
        project_dir: ".autohand/skills",
        global_dir: Some("${AUTOHAND_HOME:-~/.autohand}/skills"),
        global_dir_alternates: &[],
        detect: &[Detect::Path("${AUTOHAND_HOME:-~/.autohand}")],
        universal: false,
        hidden: false,
    },
    Agent {
        id: "augment",
        display_name: "Augment",
        project_dir: ".augment/skills",
        global_dir: Some("~/.augment/skills"),
        global_dir_alternates: &[],
        detect: &[Detect::Path("~/.augment")],
        universal: false,
        hidden: false,
    },
    Agent {
        id: "bob",
        display_name: "IBM Bob",
        project_dir: ".bob/skills",
        global_dir: Some("~/.bob/skills"),
        global_dir_alternates: &[],
        detect: &[Detect::Path("~/.bob")],
        universal: false,
        hidden: false,
    },
    Agent {
        id: "claude-code",
        display_name: "Claude Code",
        project_dir: ".claude/skills",
        global_dir: Some("${CLAUDE_CONFIG_DIR:-~/.claude}/skills"),
        global_dir_alternates: &[],
        detect: &[Detect::Path("${CLAUDE_CONFIG_DIR:-~/.claude}")],
        universal: false,
        hidden: false,
    },
    Agent {
        id: "openclaw",
        display_name: "OpenClaw",
        project_dir: "skills",
        global_dir: Some("~/.openclaw/skills"),
        global_dir_alternates: &["~/.clawdbot/skills", "~/.moltbot/skills"],
        detect: &[
            Detect::Path("~/.openclaw"),
            Detect::Path("~/.clawdbot"),
            Detect::Path("~/.moltbot"),
        ],
        universal: false,
        hidden: false,
    },
    Agent {
        id: "cline",
        display_name: "Cline",
        project_dir: ".agents/skills",
        global_dir: Some("~/.agents/skills"),
        global_dir_alternates: &[],
        detect: &[Detect::Path("~/.cline")],
        universal: true,
        hidden: false,
    },
    Agent {
        id: "codearts-agent",
        display_name: "CodeArts Agent",
        project_dir: ".codeartsdoer/skills",
        global_dir: Some("~/.codeartsdoer/skills"),
        global_dir_alternates: &[],
        detect: &[Detect::Path("~/.codeartsdoer")],
        universal: false,
        hidden: false,
    },
    Agent {
        id: "codebuddy",
        display_name: "CodeBuddy",
        project_dir: ".codebuddy/skills",
        global_dir: Some("~/.codebuddy/skills"),
        global_dir_alternates: &[],
        detect: &[Detect::Path("./.codebuddy"), Detect::Path("~/.codebuddy")],
        universal: false,
        hidden: false,
    },
    Agent {
        id: "codemaker",
        display_name: "Codemaker",
        project_dir: ".codemaker/skills",
        global_dir: Some("~/.codemaker/skills"),
        global_dir_alternates: &[],
        detect: &[Detect::Path("~/.codemaker")],
        universal: false,
        hidden: false,
    },
    Agent {
        id: "codestudio",
        display_name: "Code Studio",
        project_dir: ".codestudio/skills",
        global_dir: Some("~/.codestudio/skills"),
        global_dir_alternates: &[],
        detect: &[Detect::Path("~/.codestudio")],
        universal: false,
        hidden: false,
    },
    Agent {
        id: "codex",
        display_name: "Codex",
        project_dir: ".agents/skills",
        global_dir: Some("~/.agents/skills"),
        global_dir_alternates: &[],
        detect: &[
            Detect::Path("${CODEX_HOME:-~/.codex}"),
            Detect::Path("/etc/codex"),
        ],
        universal: true,
        hidden: false,
    },
    Agent {
        id: "command-code",
        display_name: "Command Code",
        project_dir: ".commandcode/skills",
        global_dir: Some("~/.commandcode/skills"),
        global_dir_alternates: &[],
        detect: &[Detect::Path("~/.commandcode")],
        universal: false,
        hidden: false,
    },
    Agent {
        id: "continue",
        display_name: "Continue",
        project_dir: ".continue/skills",
        global_dir: Some("~/.continue/skills"),
        global_dir_alternates: &[],
        detect: &[Detect::Path("./.continue"), Detect::Path("~/.continue")],
        universal: false,
        hidden: false,
    },
    Agent {
        id: "cortex",
        display_name: "Cortex Code",
        project_dir: ".cortex/skills",
        global_dir: Some("~/.snowflake/cortex/skills"),
        global_dir_alternates: &[],
        detect: &[Detect::Path("~/.snowflake/cortex")],
        universal: false,
        hidden: false,
    },
    Agent {
        id: "crush",
        display_name: "Crush",
        project_dir: ".crush/skills",
        global_dir: Some("~/.config/crush/skills"),
        global_dir_alternates: &[],
        detect: &[Detect::Path("~/.config/crush")],
        universal: false,
        hidden: false,
    },
    Agent {
        id: "cursor",
        display_name: "Cursor",
        project_dir: ".agents/skills",
        global_dir: Some("~/.cursor/skills"),
        global_dir_alternates: &[],
        detect: &[Detect::Path("~/.cursor")],
        universal: true,
        hidden: false,
    },
    Agent {
        id: "deepagents",
        display_name: "Deep Agents",
        project_dir: ".agents/skills",
        global_dir: Some("~/.deepagents/agent/skills"),
        global_dir_alternates: &[],
        detect: &[Detect::Path("~/.deepagents")],
        universal: true,
        hidden: true,
    },
    Agent {
        id: "devin",
        display_name: "Devin for Terminal",
        project_dir: ".devin/skills",
        global_dir: Some("$XDG_CONFIG_HOME/devin/skills"),
        global_dir_alternates: &[],
        detect: &[Detect::Path("$XDG_CONFIG_HOME/devin")],
        universal: false,
        hidden: false,
    },
    Agent {
        id: "dexto",
        display_name: "Dexto",
        project_dir: ".agents/skills",
        global_dir: Some("~/.agents/skills"),
        global_dir_alternates: &[],
        detect: &[Detect::Path("~/.dexto")],
        universal: true,
        hidden: true,
    },
    Agent {
        id: "droid",
        display_name: "Droid",
        project_dir: ".agents/skills",
        global_dir: Some("~/.factory/skills"),
        global_dir_alternates: &[],
        detect: &[Detect::Path("~/.factory")],
        universal: true,
        hidden: false,
    },
    Agent {
        id: "eve",
        display_name: "Eve",
        project_dir: EVE_PROJECT_DIR,
        global_dir: None,
        global_dir_alternates: &[],
        detect: &[Detect::EveProject],
        universal: false,
        hidden: false,
    },
    Agent {
        id: "firebender",
        display_name: "Firebender",
        project_dir: ".agents/skills",
        global_dir: Some("~/.firebender/skills"),
        global_dir_alternates: &[],
        detect: &[Detect::Path("~/.firebender")],
        universal: true,
        hidden: true,
    },
    Agent {
        id: "forgecode",
        display_name: "ForgeCode",
        project_dir: ".forge/skills",
        global_dir: Some("~/.forge/skills"),
        global_dir_alternates: &[],
        detect: &[Detect::Path("~/.forge")],
        universal: false,
        hidden: false,
    },
    Agent {
        id: "fx",
        display_name: "fx",
        project_dir: ".agents/skills",
        global_dir: Some("~/.agents/skills"),
        global_dir_alternates: &[],
        detect: &[Detect::Path("~/.fx")],
        universal: true,
        hidden: false,
    },
    Agent {
        id: "gemini-cli",
        display_name: "Gemini CLI",
        project_dir: ".agents/skills",
        global_dir: Some("~/.gemini/skills"),
        global_dir_alternates: &[],
        detect: &[Detect::Path("~/.gemini")],
        universal: true,
        hidden: false,
    },
    Agent {
        id: "github-copilot",
        display_name: "GitHub Copilot",
        project_dir: ".agents/skills",
        global_dir: Some("~/.copilot/skills"),
        global_dir_alternates: &[],
        detect: &[Detect::Path("~/.copilot")],
        universal: true,
        hidden: false,
    },
    Agent {
        id: "goose",
        display_name: "Goose",
        project_dir: ".goose/skills",
        global_dir: Some("$XDG_CONFIG_HOME/goose/skills"),
        global_dir_alternates: &[],
        detect: &[Detect::Path("$XDG_CONFIG_HOME/goose")],
        universal: false,
        hidden: false,
    },
    Agent {
        id: "grok",
        display_name: "Grok Build",
        project_dir: ".grok/skills",
        global_dir: Some("${GROK_HOME:-~/.grok}/skills"),
        global_dir_alternates: &[],
        detect: &[Detect::Path("${GROK_HOME:-~/.grok}")],
        universal: false,
        hidden: false,
    },
    Agent {
        id: "hermes-agent",
        display_name: "Hermes Agent",
        project_dir: ".hermes/skills",
        global_dir: Some("${HERMES_HOME:-~/.hermes}/skills"),
        global_dir_alternates: &[],
        detect: &[Detect::Path("${HERMES_HOME:-~/.hermes}")],
        universal: false,
        hidden: false,
    },
    Agent {
        id: "inference-sh",
        display_name: "inference.sh",
        project_dir: ".inferencesh/skills",
        global_dir: Some("~/.inferencesh/skills"),
        global_dir_alternates: &[],
        detect: &[Detect::Path("~/.inferencesh")],
        universal: false,
        hidden: false,
    },
    Agent {
        id: "jazz",
        display_name: "Jazz",
        project_dir: ".jazz/skills",
        global_dir: Some("~/.jazz/skills"),
        global_dir_alternates: &[],
        detect: &[Detect::Path("~/.jazz"), Detect::Path("./.jazz")],
        universal: false,
        hidden: false,
    },
    Agent {
        id: "junie",
        display_name: "Junie",
        project_dir: ".junie/skills",
        global_dir: Some("~/.junie/skills"),
        global_dir_alternates: &[],
        detect: &[Detect::Path("~/.junie")],
        universal: false,
        hidden: false,
    },
    Agent {
        id: "iflow-cli",
        display_name: "iFlow CLI",
        project_dir: ".iflow/skills",
        global_dir: Some("~/.iflow/skills"),
        global_dir_alternates: &[],
        detect: &[Detect::Path("~/.iflow")],
        universal: false,
        hidden: false,
    },
    Agent {
        id: "kilo",
        display_name: "Kilo Code",
        project_dir: ".agents/skills",
        global_dir: Some("~/.kilo/skills"),
        global_dir_alternates: &[],
        detect: &[Detect::Path("~/.kilo"), Detect::Path("~/.kilocode")],
        universal: true,
        hidden: false,
    },
    Agent {
        id: "kimchi",
        display_name: "Kimchi",
        project_dir: ".kimchi/skills",
        global_dir: Some("~/.config/kimchi/harness/skills"),
        global_dir_alternates: &[],
        detect: &[Detect::Path("~/.config/kimchi")],
        universal: false,
        hidden: false,
    },
    Agent {
        id: "kimi-code-cli",
        display_name: "Kimi Code CLI",
        project_dir: ".agents/skills",
        global_dir: Some("~/.agents/skills"),
        global_dir_alternates: &[],
        detect: &[Detect::Path("~/.kimi-code"), Detect::Path("~/.kimi")],
        universal: true,
        hidden: false,
    },
    Agent {
        id: "kiro-cli",
        display_name: "Kiro CLI",
        project_dir: ".kiro/skills",
        global_dir: Some("~/.kiro/skills"),
        global_dir_alternates: &[],
        detect: &[Detect::Path("~/.kiro")],
        universal: false,
        hidden: false,
    },
    Agent {
        id: "kode",
        display_name: "Kode",
        project_dir: ".kode/skills",
        global_dir: Some("~/.kode/skills"),
        global_dir_alternates: &[],
        detect: &[Detect::Path("~/.kode")],
        universal: false,
        hidden: false,
    },
    Agent {
        id: "lingma",
        display_name: "Lingma",
        project_dir: ".lingma/skills",
        global_dir: Some("~/.lingma/skills"),
        global_dir_alternates: &[],
        detect: &[Detect::Path("~/.lingma")],
        universal: false,
        hidden: false,
    },
    Agent {
        id: "loaf",
        display_name: "Loaf",
        project_dir: ".agents/skills",
        global_dir: Some("~/.agents/skills"),
        global_dir_alternates: &[],
        detect: &[Detect::Path("~/.loaf")],
        universal: true,
        hidden: true,
    },
    Agent {
        id: "mcpjam",
        display_name: "MCPJam",
        project_dir: ".mcpjam/skills",
        global_dir: Some("~/.mcpjam/skills"),
        global_dir_alternates: &[],
        detect: &[Detect::Path("~/.mcpjam")],
        universal: false,
        hidden: false,
    },
    Agent {
        id: "minimax-code",
        display_name: "MiniMax Code",
        project_dir: ".minimax/skills",
        global_dir: Some("~/.minimax/skills"),
        global_dir_alternates: &[],
        detect: &[
            Detect::Path("~/.minimax"),
            Detect::Path("/Applications/MiniMax Code.app"),
        ],
        universal: false,
        hidden: false,
    },
    Agent {
        id: "mistral-vibe",
        display_name: "Mistral Vibe",
        project_dir: ".vibe/skills",
        global_dir: Some("${VIBE_HOME:-~/.vibe}/skills"),
        global_dir_alternates: &[],
        detect: &[Detect::Path("${VIBE_HOME:-~/.vibe}")],
        universal: false,
        hidden: false,
    },
    Agent {
        id: "moxby",
        display_name: "Moxby",
        project_dir: ".moxby/skills",
        global_dir: Some("~/.moxby/skills"),
        global_dir_alternates: &[],
        detect: &[Detect::Path("~/.moxby")],
        universal: false,
        hidden: false,
    },
    Agent {
        id: "mux",
        display_name: "Mux",
        project_dir: ".mux/skills",
        global_dir: Some("~/.mux/skills"),
        global_dir_alternates: &[],
        detect: &[Detect::Path("~/.mux")],
        universal: false,
        hidden: false,
    },
    Agent {
        id: "opencode",
        display_name: "OpenCode",
        project_dir: ".agents/skills",
        global_dir: Some("$XDG_CONFIG_HOME/opencode/skills"),
        global_dir_alternates: &[],
        detect: &[Detect::Path("$XDG_CONFIG_HOME/opencode")],
        universal: true,
        hidden: false,
    },
    Agent {
        id: "openhands",
        display_name: "OpenHands",
        project_dir: ".openhands/skills",
        global_dir: Some("~/.openhands/skills"),
        global_dir_alternates: &[],
        detect: &[Detect::Path("~/.openhands")],
        universal: false,
        hidden: false,
    },
    Agent {
        id: "ona",
        display_name: "Ona",
        project_dir: ".ona/skills",
        global_dir: Some("~/.ona/skills"),
        global_dir_alternates: &[],
        detect: &[Detect::Path("~/.ona")],
        universal: false,
        hidden: false,
    },
    Agent {
        id: "pi",
        display_name: "Pi",
        project_dir: ".agents/skills",
        global_dir: Some("~/.agents/skills"),
        global_dir_alternates: &[],
        detect: &[Detect::Path("~/.pi/agent")],
        universal: true,
        hidden: false,
    },
    Agent {
        id: "posit-assistant",
        display_name: "Posit Assistant",
        project_dir: ".posit/assistant/skills",
        global_dir: Some("~/.posit/assistant/skills"),
        global_dir_alternates: &[],
        detect: &[
            Detect::Path("~/.posit/assistant"),
            Detect::Path("~/.positai"),
        ],
        universal: false,
        hidden: false,
    },
    Agent {
        id: "qoder",
        display_name: "Qoder",
        project_dir: ".qoder/skills",
        global_dir: Some("~/.qoder/skills"),
        global_dir_alternates: &[],
        detect: &[Detect::Path("~/.qoder")],
        universal: false,
        hidden: false,
    },
    Agent {
        id: "qoder-cn",
        display_name: "Qoder CN",
        project_dir: ".qoder/skills",
        global_dir: Some("~/.qoder-cn/skills"),
        global_dir_alternates: &[],
        detect: &[Detect::Path("~/.qoder-cn")],
        universal: false,
        hidden: false,
    },
    Agent {
        id: "qwen-code",
        display_name: "Qwen Code",
        project_dir: ".qwen/skills",
        global_dir: Some("~/.qwen/skills"),
        global_dir_alternates: &[],
        detect: &[Detect::Path("~/.qwen")],
        universal: false,
        hidden: false,
    },
    Agent {
        id: "replit",
        display_name: "Replit",
        project_dir: ".agents/skills",
        global_dir: Some("$XDG_CONFIG_HOME/agents/skills"),
        global_dir_alternates: &[],
        detect: &[Detect::Path("./.replit")],
        universal: false,
        hidden: false,
    },
    Agent {
        id: "reasonix",
        display_name: "Reasonix",
        project_dir: ".reasonix/skills",
        global_dir: Some("~/.reasonix/skills"),
        global_dir_alternates: &[],
        detect: &[Detect::Path("~/.reasonix")],
        universal: false,
        hidden: false,
    },
    Agent {
        id: "rovodev",
        display_name: "Rovo Dev",
        project_dir: ".rovodev/skills",
        global_dir: Some("~/.rovodev/skills"),
        global_dir_alternates: &[],
        detect: &[Detect::Path("~/.rovodev")],
        universal: false,
        hidden: false,
    },
    Agent {
        id: "roo",
        display_name: "Roo Code",
        project_dir: ".roo/skills",
        global_dir: Some("~/.roo/skills"),
        global_dir_alternates: &[],
        detect: &[Detect::Path("~/.roo")],
        universal: false,
        hidden: false,
    },
    Agent {
        id: "sarvam-code",
        display_name: "Sarvam Code",
        project_dir: ".agents/skills",
        global_dir: Some("~/.agents/skills"),
        global_dir_alternates: &[],
        detect: &[Detect::Path("${SARVAM_HOME:-~/.sarvam}")],
        universal: true,
        hidden: true,
    },
    Agent {
        id: "tabnine-cli",
        display_name: "Tabnine CLI",
        project_dir: ".tabnine/agent/skills",
        global_dir: Some("~/.tabnine/agent/skills"),
        global_dir_alternates: &[],
        detect: &[Detect::Path("~/.tabnine")],
        universal: false,
        hidden: false,
    },
    Agent {
        id: "terramind",
        display_name: "Terramind",
        project_dir: ".terramind/skills",
        global_dir: Some("~/.terramind/skills"),
        global_dir_alternates: &[],
        detect: &[Detect::Path("~/.terramind")],
        universal: false,
        hidden: false,
    },
    Agent {
        id: "tinycloud",
        display_name: "Tinycloud",
        project_dir: ".tinycloud/skills",
        global_dir: Some("~/.tinycloud/skills"),
        global_dir_alternates: &[],
        detect: &[Detect::Path("~/.tinycloud")],
        universal: false,
        hidden: false,
    },
    Agent {
        id: "trae",
        display_name: "Trae",
        project_dir: ".trae/skills",
        global_dir: Some("~/.trae/skills"),
        global_dir_alternates: &[],
        detect: &[Detect::Path("~/.trae")],
        universal: false,
        hidden: false,
    },
    Agent {
        id: "trae-cn",
        display_name: "Trae CN",
        project_dir: ".trae/skills",
        global_dir: Some("~/.trae-cn/skills"),
        global_dir_alternates: &[],
        detect: &[Detect::Path("~/.trae-cn")],
        universal: false,
        hidden: false,
    },
    Agent {
        id: "warp",
        display_name: "Warp",
        project_dir: ".agents/skills",
        global_dir: Some("~/.agents/skills"),
        global_dir_alternates: &[],
        detect: &[Detect::Path("~/.warp")],
        universal: true,
        hidden: false,
    },
    Agent {
        id: "windsurf",
        display_name: "Windsurf",
        project_dir: ".windsurf/skills",
        global_dir: Some("~/.codeium/windsurf/skills"),
        global_dir_alternates: &[],
        detect: &[Detect::Path("~/.codeium/windsurf")],
        universal: false,
        hidden: false,
    },
    Agent {
        id: "zed",
        display_name: "Zed",
        project_dir: ".agents/skills",
        global_dir: Some("~/.agents/skills"),
        global_dir_alternates: &[],
        detect: &[
            Detect::Path("$XDG_CONFIG_HOME/zed"),
            Detect::Path("%APPDATA%/Zed"),
            Detect::Path("$FLATPAK_XDG_CONFIG_HOME/zed"),
        ],
        universal: true,
        hidden: false,
    },
    Agent {
        id: "zcode",
        display_name: "ZCode",
        project_dir: ".zcode/skills",
        global_dir: Some("~/.zcode/skills"),
        global_dir_alternates: &[],
        detect: &[
            Detect::Path("~/.zcode"),
            Detect::Path("/Applications/ZCode.app"),
        ],
        universal: false,
        hidden: false,
    },
    Agent {
        id: "zencoder",
        display_name: "Zencoder",
        project_dir: ".zencoder/skills",
        global_dir: Some("~/.zencoder/skills"),
        global_dir_alternates: &[],
        detect: &[Detect::Path("~/.zencoder")],
        universal: false,
        hidden: false,
    },
    Agent {
        id: "zenflow",
        display_name: "Zenflow",
        project_dir: ".zencoder/skills",
        global_dir: Some("~/.zencoder/skills"),
        global_dir_alternates: &[],
        detect: &[Detect::Path("~/.zencoder")],
        universal: false,
        hidden: false,
    },
    Agent {
        id: "neovate",
        display_name: "Neovate",
        project_dir: ".neovate/skills",
        global_dir: Some("~/.neovate/skills"),
        global_dir_alternates: &[],
        detect: &[Detect::Path("~/.neovate")],
        universal: false,
        hidden: false,
    },
    Agent {
        id: "pochi",
        display_name: "Pochi",
        project_dir: ".pochi/skills",
        global_dir: Some("~/.pochi/skills"),
        global_dir_alternates: &[],
        detect: &[Detect::Path("~/.pochi")],
        universal: false,
        hidden: false,
    },
    Agent {
        id: "promptscript",
        display_name: "PromptScript",
        project_dir: ".agents/skills",
        global_dir: None,
        global_dir_alternates: &[],
        detect: &[
            Detect::Path("./.promptscript"),
            Detect::Path("./promptscript.yaml"),
        ],
        universal: true,
        hidden: true,
    },
    Agent {
        id: "adal",
        display_name: "AdaL",
        project_dir: ".adal/skills",
        global_dir: Some("~/.adal/skills"),
        global_dir_alternates: &[],
        detect: &[Detect::Path("~/.adal")],
        universal: false,
        hidden: false,
    },
    Agent {
        id: "universal",
        display_name: "Universal",
        project_dir: ".agents/skills",
        global_dir: Some("$XDG_CONFIG_HOME/agents/skills"),
        global_dir_alternates: &[],
        detect: &[],
        universal: false,
        hidden: false,
    },
    Agent {
        id: "sisu",
        display_name: "SISU",
        project_dir: ".sisu/skills",
        global_dir: Some("~/.sisu/skills"),
        global_dir_alternates: &[],
        detect: &[Detect::Path("./.sisu"), Detect::Path("~/.sisu")],
        universal: false,
        hidden: false,
    },
];

/// Looks an agent up by id.
pub fn find(id: &str) -> Option<&'static Agent> {
    AGENTS.iter().find(|agent| agent.id == id)
}

/// Project skill directories in index order: the canonical dir, Claude Code, SISU, then the rest of
/// the table, each once.
pub fn project_dirs() -> Vec<&'static str> {
    let mut dirs = vec![CANONICAL_DIR, ".claude/skills", ".sisu/skills"];
    for agent in AGENTS {
        if !dirs.contains(&agent.project_dir) {
            dirs.push(agent.project_dir);
        }
    }
    dirs
}

/// User-scope skill directories in index order (canonical `~/.agents/skills` first), each once.
pub fn global_dirs() -> Vec<PathBuf> {
    let mut dirs: Vec<PathBuf> = Vec::new();
    let canonical = expand("~/.agents/skills");
    for dir in canonical
        .into_iter()
        .chain(find("claude-code").and_then(Agent::global_path))
        .chain(find("sisu").and_then(Agent::global_path))
        .chain(AGENTS.iter().filter_map(Agent::global_path))
    {
        if !dirs.contains(&dir) {
            dirs.push(dir);
        }
    }
    dirs
}

impl Agent {
    /// The user-scope skills directory, with `~` and variables expanded; an existing alternate wins.
    pub fn global_path(&self) -> Option<PathBuf> {
        let primary = expand(self.global_dir?)?;
        if primary.exists() {
            return Some(primary);
        }
        self.global_dir_alternates
            .iter()
            .filter_map(|alt| expand(alt))
            .find(|alt| alt.exists())
            .or(Some(primary))
    }

    /// Whether the agent's project skills dir is its own: under a dot-folder (`.claude/skills`).
    /// `skills/` (`OpenClaw`), `data/skills` (`AstrBot`) and `agent/skills` (Eve) are names any
    /// project may use for its own things (this repository keeps its skill sources in
    /// `skills/`), so their existence alone does not show the agent.
    pub fn owns_project_dir(&self) -> bool {
        self.project_dir.starts_with('.')
    }

    /// Whether the agent looks installed for this project or this user.
    pub fn is_detected(&self, project_root: &Path) -> bool {
        self.detect.iter().any(|detect| match detect {
            Detect::Path(template) => match template.strip_prefix("./") {
                Some(relative) => project_root.join(relative).exists(),
                None => expand(template).is_some_and(|path| path.exists()),
            },
            Detect::EveProject => {
                project_root.join("agent").is_dir()
                    && fs_err::read_to_string(project_root.join("package.json"))
                        .is_ok_and(|json| json.contains("\"eve\""))
            }
        })
    }
}

/// Expands a path template from the table: `~/…`, `$XDG_CONFIG_HOME/…`, `${VAR:-default}/…`.
///
/// Returns `None` when the home directory is unknown or the template uses a variable we cannot
/// resolve on this platform (e.g. `%APPDATA%`).
pub fn expand(template: &str) -> Option<PathBuf> {
    let home = dirs::home_dir()?;
    expand_with(template, &home, &|name| {
        std::env::var_os(name).filter(|v| !v.is_empty())
    })
}

fn expand_with(
    template: &str,
    home: &Path,
    var: &dyn Fn(&str) -> Option<std::ffi::OsString>,
) -> Option<PathBuf> {
    if let Some(inner) = template
        .strip_prefix("${")
        .and_then(|t| t.split_once('}').map(|(i, _)| i))
    {
        return expand_braced(inner, template, home, var);
    }
    let (head, rest) = match template.find('/') {
        Some(slash) => (&template[..slash], &template[slash + 1..]),
        None => (template, ""),
    };
    let base = if head == "~" {
        home.to_path_buf()
    } else if head == "$XDG_CONFIG_HOME" {
        var("XDG_CONFIG_HOME").map_or_else(|| home.join(".config"), PathBuf::from)
    } else if head.starts_with('$') || head.starts_with('%') {
        return None;
    } else if template.starts_with('/') {
        return Some(PathBuf::from(template));
    } else {
        return None;
    };
    Some(if rest.is_empty() {
        base
    } else {
        base.join(rest)
    })
}

fn expand_braced(
    inner: &str,
    template: &str,
    home: &Path,
    var: &dyn Fn(&str) -> Option<std::ffi::OsString>,
) -> Option<PathBuf> {
    let (name, default) = inner.split_once(":-")?;
    // The default may contain `/` (`~/.claude`), so find the end of `${…}` in the whole template.
    let close = template.find('}')?;
    let rest = template[close + 1..].trim_start_matches('/');
    let base = match var(name) {
        Some(value) => PathBuf::from(value),
        None => expand_with(default, home, var)?,
    };
    Some(if rest.is_empty() {
        base
    } else {
        base.join(rest)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn no_vars(_: &str) -> Option<std::ffi::OsString> {
        None
    }

    #[test]
    fn templates_expand() {
        let home = Path::new("/h");
        let claude = |n: &str| (n == "CLAUDE_CONFIG_DIR").then(|| "/c".into());
        assert_eq!(
            expand_with("~/.x/skills", home, &no_vars),
            Some("/h/.x/skills".into())
        );
        assert_eq!(
            expand_with("$XDG_CONFIG_HOME/goose/skills", home, &no_vars),
            Some("/h/.config/goose/skills".into())
        );
        assert_eq!(
            expand_with("${CLAUDE_CONFIG_DIR:-~/.claude}/skills", home, &no_vars),
            Some("/h/.claude/skills".into())
        );
        assert_eq!(
            expand_with("${CLAUDE_CONFIG_DIR:-~/.claude}/skills", home, &claude),
            Some("/c/skills".into())
        );
        assert_eq!(expand_with("%APPDATA%/Zed", home, &no_vars), None);
        assert_eq!(
            expand_with("/etc/codex", home, &no_vars),
            Some("/etc/codex".into())
        );
    }

    /// The checked-in table is the TSV of the reference installer, row for row.
    #[test]
    fn table_matches_tsv() {
        let tsv = include_str!("../tests/fixtures/reference/agents.tsv");
        let rows: Vec<Vec<&str>> = tsv
            .lines()
            .filter(|line| !line.starts_with('#') && !line.starts_with("id\t"))
            .map(|line| line.split('\t').collect())
            .collect();
        assert_eq!(rows.len(), AGENTS.len());
        for (row, agent) in rows.iter().zip(AGENTS) {
            assert_eq!(row[0], agent.id);
            assert_eq!(row[1], agent.display_name);
            assert_eq!(row[2], agent.project_dir, "{}", agent.id);
            match agent.global_dir {
                Some(dir) => assert!(row[3].starts_with(dir), "{}", agent.id),
                None => assert!(row[3].starts_with('—'), "{}", agent.id),
            }
            let notes = row.get(5).copied().unwrap_or_default();
            assert_eq!(
                agent.universal,
                notes.contains("universal") && !notes.contains("not in universal list"),
                "{}",
                agent.id
            );
            assert_eq!(
                agent.hidden,
                notes.contains("hidden in prompt"),
                "{}",
                agent.id
            );
        }
        let mut ids: Vec<_> = AGENTS.iter().map(|a| a.id).collect();
        ids.sort_unstable();
        ids.dedup();
        assert_eq!(ids.len(), AGENTS.len(), "agent ids are unique");
    }
}
