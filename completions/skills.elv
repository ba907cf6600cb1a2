
use builtin;
use str;

set edit:completion:arg-completer[skills] = {|@words|
    fn spaces {|n|
        builtin:repeat $n ' ' | str:join ''
    }
    fn cand {|text desc|
        edit:complex-candidate $text &display=$text' '(spaces (- 14 (wcswidth $text)))$desc
    }
    var command = 'skills'
    for word $words[1..-1] {
        if (str:has-prefix $word '-') {
            break
        }
        set command = $command';'$word
    }
    var completions = [
        &'skills'= {
            cand --color 'When to use color (`NO_COLOR` is honoured)'
            cand -q 'Print only data and errors'
            cand --quiet 'Print only data and errors'
            cand -v 'Print more about what is done (repeat for more)'
            cand --verbose 'Print more about what is done (repeat for more)'
            cand --no-progress 'Never draw progress bars'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
            cand add 'Install skills from a repository, URL or folder into agent dirs'
            cand a 'Install skills from a repository, URL or folder into agent dirs'
            cand remove 'Remove installed skills and their lock entries'
            cand rm 'Remove installed skills and their lock entries'
            cand list 'List installed skills: name, agents, source, path'
            cand ls 'List installed skills: name, agents, source, path'
            cand find 'Search the skills.sh directory'
            cand install 'Restore every skill in `skills-lock.json` at its locked commit and hash (like `npm ci`)'
            cand check 'Read-only: which locked skills have upstream changes'
            cand update 'Apply upstream changes to locked skills, keeping their agents and copy/symlink mode'
            cand manifest 'Record (or verify) the files and hashes of every installed skill in `skills-lock.json`'
            cand lint 'Validate skills: the open spec, portability, quality, size and security'
            cand init 'Create a new skill that passes `skills lint --strict`'
            cand prompt 'Print the `<available_skills>` block (or one skill''s activation block) for a system prompt'
            cand serve 'Serve skills to MCP clients over stdio (resources, tools, prompts, the Skills extension)'
            cand completions 'Print a shell completion script'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'skills;add'= {
            cand -s 'Skills to install (repeatable, or comma-separated; `*` for all)'
            cand --skill 'Skills to install (repeatable, or comma-separated; `*` for all)'
            cand -a 'Agents to install for, by id (repeatable, or comma-separated; `*` for all) [default: the agents whose dirs exist in the project, plus `.agents/skills`]'
            cand --agent 'Agents to install for, by id (repeatable, or comma-separated; `*` for all) [default: the agents whose dirs exist in the project, plus `.agents/skills`]'
            cand --max-file-size 'Largest file a skill may contain'
            cand --max-skill-size 'Largest total size of a skill'
            cand --max-files 'Most files a skill (or a downloaded archive) may contain'
            cand --max-download-size 'Largest download of a web source (a SKILL.md or an archive)'
            cand --max-extracted-size 'Largest total a downloaded archive may unpack to'
            cand --color 'When to use color (`NO_COLOR` is honoured)'
            cand -g 'Install for the user (`~/.agents/skills`, …) instead of the project'
            cand --global 'Install for the user (`~/.agents/skills`, …) instead of the project'
            cand --copy 'Copy into every agent dir instead of one copy in `.agents/skills` plus symlinks'
            cand -y 'Do not ask for confirmation'
            cand --yes 'Do not ask for confirmation'
            cand --all 'Shorthand for `--skill ''*'' --agent ''*'' --yes`'
            cand -l 'List the skills the source offers and install nothing'
            cand --list 'List the skills the source offers and install nothing'
            cand --dry-run 'Print what would be installed where, and install nothing'
            cand --force 'Replace skill folders that `skills-lock.json` does not know (they may hold your edits)'
            cand --full-depth 'Search the whole source even when its root is a skill'
            cand --json 'Print one JSON document (`"version": 1`)'
            cand -q 'Print only data and errors'
            cand --quiet 'Print only data and errors'
            cand -v 'Print more about what is done (repeat for more)'
            cand --verbose 'Print more about what is done (repeat for more)'
            cand --no-progress 'Never draw progress bars'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'skills;a'= {
            cand -s 'Skills to install (repeatable, or comma-separated; `*` for all)'
            cand --skill 'Skills to install (repeatable, or comma-separated; `*` for all)'
            cand -a 'Agents to install for, by id (repeatable, or comma-separated; `*` for all) [default: the agents whose dirs exist in the project, plus `.agents/skills`]'
            cand --agent 'Agents to install for, by id (repeatable, or comma-separated; `*` for all) [default: the agents whose dirs exist in the project, plus `.agents/skills`]'
            cand --max-file-size 'Largest file a skill may contain'
            cand --max-skill-size 'Largest total size of a skill'
            cand --max-files 'Most files a skill (or a downloaded archive) may contain'
            cand --max-download-size 'Largest download of a web source (a SKILL.md or an archive)'
            cand --max-extracted-size 'Largest total a downloaded archive may unpack to'
            cand --color 'When to use color (`NO_COLOR` is honoured)'
            cand -g 'Install for the user (`~/.agents/skills`, …) instead of the project'
            cand --global 'Install for the user (`~/.agents/skills`, …) instead of the project'
            cand --copy 'Copy into every agent dir instead of one copy in `.agents/skills` plus symlinks'
            cand -y 'Do not ask for confirmation'
            cand --yes 'Do not ask for confirmation'
            cand --all 'Shorthand for `--skill ''*'' --agent ''*'' --yes`'
            cand -l 'List the skills the source offers and install nothing'
            cand --list 'List the skills the source offers and install nothing'
            cand --dry-run 'Print what would be installed where, and install nothing'
            cand --force 'Replace skill folders that `skills-lock.json` does not know (they may hold your edits)'
            cand --full-depth 'Search the whole source even when its root is a skill'
            cand --json 'Print one JSON document (`"version": 1`)'
            cand -q 'Print only data and errors'
            cand --quiet 'Print only data and errors'
            cand -v 'Print more about what is done (repeat for more)'
            cand --verbose 'Print more about what is done (repeat for more)'
            cand --no-progress 'Never draw progress bars'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'skills;remove'= {
            cand -a 'Remove only from these agents (repeatable, or comma-separated)'
            cand --agent 'Remove only from these agents (repeatable, or comma-separated)'
            cand --color 'When to use color (`NO_COLOR` is honoured)'
            cand --all 'Remove every installed skill'
            cand -g 'Remove from the user''s dirs instead of the project''s'
            cand --global 'Remove from the user''s dirs instead of the project''s'
            cand -y 'Do not ask for confirmation'
            cand --yes 'Do not ask for confirmation'
            cand --dry-run 'Print what would be removed, and remove nothing'
            cand --json 'Print one JSON document (`"version": 1`)'
            cand -q 'Print only data and errors'
            cand --quiet 'Print only data and errors'
            cand -v 'Print more about what is done (repeat for more)'
            cand --verbose 'Print more about what is done (repeat for more)'
            cand --no-progress 'Never draw progress bars'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'skills;rm'= {
            cand -a 'Remove only from these agents (repeatable, or comma-separated)'
            cand --agent 'Remove only from these agents (repeatable, or comma-separated)'
            cand --color 'When to use color (`NO_COLOR` is honoured)'
            cand --all 'Remove every installed skill'
            cand -g 'Remove from the user''s dirs instead of the project''s'
            cand --global 'Remove from the user''s dirs instead of the project''s'
            cand -y 'Do not ask for confirmation'
            cand --yes 'Do not ask for confirmation'
            cand --dry-run 'Print what would be removed, and remove nothing'
            cand --json 'Print one JSON document (`"version": 1`)'
            cand -q 'Print only data and errors'
            cand --quiet 'Print only data and errors'
            cand -v 'Print more about what is done (repeat for more)'
            cand --verbose 'Print more about what is done (repeat for more)'
            cand --no-progress 'Never draw progress bars'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'skills;list'= {
            cand -a 'Only skills installed for this agent (an id such as `claude-code`; repeatable)'
            cand --agent 'Only skills installed for this agent (an id such as `claude-code`; repeatable)'
            cand --color 'When to use color (`NO_COLOR` is honoured)'
            cand -g 'List the user''s skills (`~/.agents/skills`, `~/.claude/skills`, …) instead of the project''s'
            cand --global 'List the user''s skills (`~/.agents/skills`, `~/.claude/skills`, …) instead of the project''s'
            cand --json 'Print one JSON document (`"version": 1`)'
            cand -q 'Print only data and errors'
            cand --quiet 'Print only data and errors'
            cand -v 'Print more about what is done (repeat for more)'
            cand --verbose 'Print more about what is done (repeat for more)'
            cand --no-progress 'Never draw progress bars'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'skills;ls'= {
            cand -a 'Only skills installed for this agent (an id such as `claude-code`; repeatable)'
            cand --agent 'Only skills installed for this agent (an id such as `claude-code`; repeatable)'
            cand --color 'When to use color (`NO_COLOR` is honoured)'
            cand -g 'List the user''s skills (`~/.agents/skills`, `~/.claude/skills`, …) instead of the project''s'
            cand --global 'List the user''s skills (`~/.agents/skills`, `~/.claude/skills`, …) instead of the project''s'
            cand --json 'Print one JSON document (`"version": 1`)'
            cand -q 'Print only data and errors'
            cand --quiet 'Print only data and errors'
            cand -v 'Print more about what is done (repeat for more)'
            cand --verbose 'Print more about what is done (repeat for more)'
            cand --no-progress 'Never draw progress bars'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'skills;find'= {
            cand --owner 'Only skills of this GitHub owner'
            cand --limit 'Most results'
            cand --color 'When to use color (`NO_COLOR` is honoured)'
            cand --json 'Print one JSON document (`"version": 1`)'
            cand -q 'Print only data and errors'
            cand --quiet 'Print only data and errors'
            cand -v 'Print more about what is done (repeat for more)'
            cand --verbose 'Print more about what is done (repeat for more)'
            cand --no-progress 'Never draw progress bars'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'skills;install'= {
            cand --max-file-size 'Largest file a skill may contain'
            cand --max-skill-size 'Largest total size of a skill'
            cand --max-files 'Most files a skill (or a downloaded archive) may contain'
            cand --max-download-size 'Largest download of a web source (a SKILL.md or an archive)'
            cand --max-extracted-size 'Largest total a downloaded archive may unpack to'
            cand --color 'When to use color (`NO_COLOR` is honoured)'
            cand --frozen 'Fail (exit 1, nothing written) unless every skill is reproduced exactly as locked'
            cand -g 'Restore the user''s skills (`~/.agents/.skill-lock.json`) instead of the project''s'
            cand --global 'Restore the user''s skills (`~/.agents/.skill-lock.json`) instead of the project''s'
            cand --json 'Print one JSON document (`"version": 1`)'
            cand -q 'Print only data and errors'
            cand --quiet 'Print only data and errors'
            cand -v 'Print more about what is done (repeat for more)'
            cand --verbose 'Print more about what is done (repeat for more)'
            cand --no-progress 'Never draw progress bars'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'skills;check'= {
            cand --max-file-size 'Largest file a skill may contain'
            cand --max-skill-size 'Largest total size of a skill'
            cand --max-files 'Most files a skill (or a downloaded archive) may contain'
            cand --max-download-size 'Largest download of a web source (a SKILL.md or an archive)'
            cand --max-extracted-size 'Largest total a downloaded archive may unpack to'
            cand --color 'When to use color (`NO_COLOR` is honoured)'
            cand --exit-code 'Exit 1 when updates exist'
            cand -g 'Check the user''s skills instead of the project''s'
            cand --global 'Check the user''s skills instead of the project''s'
            cand --json 'Print one JSON document (`"version": 1`)'
            cand -q 'Print only data and errors'
            cand --quiet 'Print only data and errors'
            cand -v 'Print more about what is done (repeat for more)'
            cand --verbose 'Print more about what is done (repeat for more)'
            cand --no-progress 'Never draw progress bars'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'skills;update'= {
            cand --max-file-size 'Largest file a skill may contain'
            cand --max-skill-size 'Largest total size of a skill'
            cand --max-files 'Most files a skill (or a downloaded archive) may contain'
            cand --max-download-size 'Largest download of a web source (a SKILL.md or an archive)'
            cand --max-extracted-size 'Largest total a downloaded archive may unpack to'
            cand --color 'When to use color (`NO_COLOR` is honoured)'
            cand -g 'Update the user''s skills instead of the project''s'
            cand --global 'Update the user''s skills instead of the project''s'
            cand --force 'Replace installed copies that were edited since they were installed'
            cand --json 'Print one JSON document (`"version": 1`)'
            cand -q 'Print only data and errors'
            cand --quiet 'Print only data and errors'
            cand -v 'Print more about what is done (repeat for more)'
            cand --verbose 'Print more about what is done (repeat for more)'
            cand --no-progress 'Never draw progress bars'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'skills;manifest'= {
            cand --color 'When to use color (`NO_COLOR` is honoured)'
            cand --check 'Verify instead of writing: exit 1 when an installed skill differs from the lock'
            cand -g 'Work on the user''s skills and lock instead of the project''s'
            cand --global 'Work on the user''s skills and lock instead of the project''s'
            cand --json 'Print JSON instead of a summary'
            cand -q 'Print only data and errors'
            cand --quiet 'Print only data and errors'
            cand -v 'Print more about what is done (repeat for more)'
            cand --verbose 'Print more about what is done (repeat for more)'
            cand --no-progress 'Never draw progress bars'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'skills;lint'= {
            cand --include 'Only skills whose name matches this glob (repeatable)'
            cand --exclude 'Leave out skills whose name matches this glob (repeatable)'
            cand --format 'Output format'
            cand -A 'Turn a rule or a family off (`quality/body-too-long`, `body-too-long`, `quality`; repeatable)'
            cand --allow 'Turn a rule or a family off (`quality/body-too-long`, `body-too-long`, `quality`; repeatable)'
            cand --explain 'Print the documentation of a rule and exit'
            cand --max-file-size 'Largest size of one file, e.g. `1MiB`, `500KB`, `2000`'
            cand --max-skill-size 'Largest total size of one skill folder'
            cand --max-files 'Largest number of files in one skill folder'
            cand --color 'When to use color (`NO_COLOR` is honoured)'
            cand -g 'Use only the user''s agent dirs (`~/.agents/skills`, `~/.claude/skills`, …)'
            cand --global 'Use only the user''s agent dirs (`~/.agents/skills`, `~/.claude/skills`, …)'
            cand --strict 'Treat warnings as errors'
            cand --list-rules 'Print every rule with its code and default severity and exit'
            cand -q 'Print only data and errors'
            cand --quiet 'Print only data and errors'
            cand -v 'Print more about what is done (repeat for more)'
            cand --verbose 'Print more about what is done (repeat for more)'
            cand --no-progress 'Never draw progress bars'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'skills;init'= {
            cand --color 'When to use color (`NO_COLOR` is honoured)'
            cand -q 'Print only data and errors'
            cand --quiet 'Print only data and errors'
            cand -v 'Print more about what is done (repeat for more)'
            cand --verbose 'Print more about what is done (repeat for more)'
            cand --no-progress 'Never draw progress bars'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'skills;prompt'= {
            cand --include 'Only skills whose name matches this glob (repeatable)'
            cand --exclude 'Leave out skills whose name matches this glob (repeatable)'
            cand --format 'Output format'
            cand --skill 'Print the activation block of this skill instead of the catalog (repeatable)'
            cand --write 'Put the output between `<!-- skills:start -->` and `<!-- skills:end -->` in FILE'
            cand --template 'Render this Jinja2 template instead of a built-in format'
            cand --tools 'Universal tools for templates: a JSON list of MCP tool definitions'
            cand --resources 'Global resources for templates: a JSON list of MCP resources'
            cand --color 'When to use color (`NO_COLOR` is honoured)'
            cand -g 'Use only the user''s agent dirs (`~/.agents/skills`, `~/.claude/skills`, …)'
            cand --global 'Use only the user''s agent dirs (`~/.agents/skills`, `~/.claude/skills`, …)'
            cand --uri 'Show `skill://<name>/SKILL.md` URIs (what `skills serve` exposes) instead of paths'
            cand --strict 'Fail when a skill cannot be read (by default it is skipped with a warning)'
            cand --all 'Include skills hidden from models (`disable-model-invocation: true`, `metadata.internal: true`)'
            cand -q 'Print only data and errors'
            cand --quiet 'Print only data and errors'
            cand -v 'Print more about what is done (repeat for more)'
            cand --verbose 'Print more about what is done (repeat for more)'
            cand --no-progress 'Never draw progress bars'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'skills;serve'= {
            cand --include 'Only skills whose name matches this glob (repeatable)'
            cand --exclude 'Leave out skills whose name matches this glob (repeatable)'
            cand --max-file-size 'Largest file served'
            cand --color 'When to use color (`NO_COLOR` is honoured)'
            cand --stdio 'Speak MCP over stdin and stdout (the only transport; accepted for clarity)'
            cand -g 'Use only the user''s agent dirs (`~/.agents/skills`, `~/.claude/skills`, …)'
            cand --global 'Use only the user''s agent dirs (`~/.agents/skills`, `~/.claude/skills`, …)'
            cand --no-watch 'Do not watch the roots for changes'
            cand -q 'Print only data and errors'
            cand --quiet 'Print only data and errors'
            cand -v 'Print more about what is done (repeat for more)'
            cand --verbose 'Print more about what is done (repeat for more)'
            cand --no-progress 'Never draw progress bars'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'skills;completions'= {
            cand --color 'When to use color (`NO_COLOR` is honoured)'
            cand -q 'Print only data and errors'
            cand --quiet 'Print only data and errors'
            cand -v 'Print more about what is done (repeat for more)'
            cand --verbose 'Print more about what is done (repeat for more)'
            cand --no-progress 'Never draw progress bars'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'skills;help'= {
            cand add 'Install skills from a repository, URL or folder into agent dirs'
            cand remove 'Remove installed skills and their lock entries'
            cand list 'List installed skills: name, agents, source, path'
            cand find 'Search the skills.sh directory'
            cand install 'Restore every skill in `skills-lock.json` at its locked commit and hash (like `npm ci`)'
            cand check 'Read-only: which locked skills have upstream changes'
            cand update 'Apply upstream changes to locked skills, keeping their agents and copy/symlink mode'
            cand manifest 'Record (or verify) the files and hashes of every installed skill in `skills-lock.json`'
            cand lint 'Validate skills: the open spec, portability, quality, size and security'
            cand init 'Create a new skill that passes `skills lint --strict`'
            cand prompt 'Print the `<available_skills>` block (or one skill''s activation block) for a system prompt'
            cand serve 'Serve skills to MCP clients over stdio (resources, tools, prompts, the Skills extension)'
            cand completions 'Print a shell completion script'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'skills;help;add'= {
        }
        &'skills;help;remove'= {
        }
        &'skills;help;list'= {
        }
        &'skills;help;find'= {
        }
        &'skills;help;install'= {
        }
        &'skills;help;check'= {
        }
        &'skills;help;update'= {
        }
        &'skills;help;manifest'= {
        }
        &'skills;help;lint'= {
        }
        &'skills;help;init'= {
        }
        &'skills;help;prompt'= {
        }
        &'skills;help;serve'= {
        }
        &'skills;help;completions'= {
        }
        &'skills;help;help'= {
        }
    ]
    $completions[$command]
}
