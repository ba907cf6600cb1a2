
using namespace System.Management.Automation
using namespace System.Management.Automation.Language

Register-ArgumentCompleter -Native -CommandName 'skills' -ScriptBlock {
    param($wordToComplete, $commandAst, $cursorPosition)

    $commandElements = $commandAst.CommandElements
    $command = @(
        'skills'
        for ($i = 1; $i -lt $commandElements.Count; $i++) {
            $element = $commandElements[$i]
            if ($element -isnot [StringConstantExpressionAst] -or
                $element.StringConstantType -ne [StringConstantType]::BareWord -or
                $element.Value.StartsWith('-') -or
                $element.Value -eq $wordToComplete) {
                break
        }
        $element.Value
    }) -join ';'

    $completions = @(switch ($command) {
        'skills' {
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use color (`NO_COLOR` is honoured)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only data and errors')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only data and errors')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Print more about what is done (repeat for more)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Print more about what is done (repeat for more)')
            [CompletionResult]::new('--no-progress', '--no-progress', [CompletionResultType]::ParameterName, 'Never draw progress bars')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('add', 'add', [CompletionResultType]::ParameterValue, 'Install skills from a repository, URL or folder into agent dirs')
            [CompletionResult]::new('a', 'a', [CompletionResultType]::ParameterValue, 'Install skills from a repository, URL or folder into agent dirs')
            [CompletionResult]::new('remove', 'remove', [CompletionResultType]::ParameterValue, 'Remove installed skills and their lock entries')
            [CompletionResult]::new('rm', 'rm', [CompletionResultType]::ParameterValue, 'Remove installed skills and their lock entries')
            [CompletionResult]::new('r', 'r', [CompletionResultType]::ParameterValue, 'Remove installed skills and their lock entries')
            [CompletionResult]::new('list', 'list', [CompletionResultType]::ParameterValue, 'List installed skills: name, agents, source, path')
            [CompletionResult]::new('ls', 'ls', [CompletionResultType]::ParameterValue, 'List installed skills: name, agents, source, path')
            [CompletionResult]::new('find', 'find', [CompletionResultType]::ParameterValue, 'Search the skills.sh directory')
            [CompletionResult]::new('search', 'search', [CompletionResultType]::ParameterValue, 'Search the skills.sh directory')
            [CompletionResult]::new('f', 'f', [CompletionResultType]::ParameterValue, 'Search the skills.sh directory')
            [CompletionResult]::new('s', 's', [CompletionResultType]::ParameterValue, 'Search the skills.sh directory')
            [CompletionResult]::new('install', 'install', [CompletionResultType]::ParameterValue, 'Restore every skill in `skills-lock.json` at its locked commit and hash (like `npm ci`); with a SOURCE, the same as `skills add SOURCE`')
            [CompletionResult]::new('i', 'i', [CompletionResultType]::ParameterValue, 'Restore every skill in `skills-lock.json` at its locked commit and hash (like `npm ci`); with a SOURCE, the same as `skills add SOURCE`')
            [CompletionResult]::new('check', 'check', [CompletionResultType]::ParameterValue, 'Read-only: which locked skills have upstream changes')
            [CompletionResult]::new('update', 'update', [CompletionResultType]::ParameterValue, 'Apply upstream changes to locked skills, keeping their agents and copy/symlink mode')
            [CompletionResult]::new('upgrade', 'upgrade', [CompletionResultType]::ParameterValue, 'Apply upstream changes to locked skills, keeping their agents and copy/symlink mode')
            [CompletionResult]::new('use', 'use', [CompletionResultType]::ParameterValue, 'Print the activation prompt of one skill of a source, without installing it')
            [CompletionResult]::new('sync', 'sync', [CompletionResultType]::ParameterValue, 'Install the skills that packages in `node_modules` ship into agent dirs')
            [CompletionResult]::new('manifest', 'manifest', [CompletionResultType]::ParameterValue, 'Record (or verify) the files and hashes of every installed skill in `skills-lock.json`')
            [CompletionResult]::new('doctor', 'doctor', [CompletionResultType]::ParameterValue, 'Find what is wrong with installed skills: broken links, lock drift, shadowing, stale cache')
            [CompletionResult]::new('lint', 'lint', [CompletionResultType]::ParameterValue, 'Validate skills: the open spec, portability, quality, size and security')
            [CompletionResult]::new('init', 'init', [CompletionResultType]::ParameterValue, 'Create a new skill that passes `skills lint --strict`')
            [CompletionResult]::new('prompt', 'prompt', [CompletionResultType]::ParameterValue, 'Print the `<available_skills>` block (or one skill''s activation block) for a system prompt')
            [CompletionResult]::new('serve', 'serve', [CompletionResultType]::ParameterValue, 'Serve skills to MCP clients over stdio (resources, tools, prompts, the Skills extension)')
            [CompletionResult]::new('cache', 'cache', [CompletionResultType]::ParameterValue, 'Show, clean or prune the cache shared by every project (git clones and the file store)')
            [CompletionResult]::new('completions', 'completions', [CompletionResultType]::ParameterValue, 'Print a shell completion script')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'skills;add' {
            [CompletionResult]::new('-s', '-s', [CompletionResultType]::ParameterName, 'Skills to install (repeatable, or comma-separated; `*` for all)')
            [CompletionResult]::new('--skill', '--skill', [CompletionResultType]::ParameterName, 'Skills to install (repeatable, or comma-separated; `*` for all)')
            [CompletionResult]::new('--subagent', '--subagent', [CompletionResultType]::ParameterName, 'Eve subagents to install for (`agent/subagents/NAME/skills`; `root` for `agent/skills`)')
            [CompletionResult]::new('--metadata', '--metadata', [CompletionResultType]::ParameterName, 'Accepted for `npx skills` scripts and ignored: it only feeds telemetry, and `skills` sends none (the value must still be JSON)')
            [CompletionResult]::new('--max-file-size', '--max-file-size', [CompletionResultType]::ParameterName, 'Largest file a skill may contain')
            [CompletionResult]::new('--max-skill-size', '--max-skill-size', [CompletionResultType]::ParameterName, 'Largest total size of a skill')
            [CompletionResult]::new('--max-files', '--max-files', [CompletionResultType]::ParameterName, 'Most files a skill (or a downloaded archive) may contain')
            [CompletionResult]::new('--max-download-size', '--max-download-size', [CompletionResultType]::ParameterName, 'Largest download of a web source (a SKILL.md or an archive)')
            [CompletionResult]::new('--max-extracted-size', '--max-extracted-size', [CompletionResultType]::ParameterName, 'Largest total a downloaded archive may unpack to')
            [CompletionResult]::new('--allow', '--allow', [CompletionResultType]::ParameterName, 'Install even with findings of this rule (`security/remote-exec`; repeatable, or comma-separated); recorded per skill in `skills-lock.json`')
            [CompletionResult]::new('-a', '-a', [CompletionResultType]::ParameterName, 'Agents to install for, by id (repeatable, or comma-separated; `*` for all) [default: the agents whose dirs exist in the project, plus `.agents/skills`]')
            [CompletionResult]::new('--agent', '--agent', [CompletionResultType]::ParameterName, 'Agents to install for, by id (repeatable, or comma-separated; `*` for all) [default: the agents whose dirs exist in the project, plus `.agents/skills`]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use color (`NO_COLOR` is honoured)')
            [CompletionResult]::new('--offline', '--offline', [CompletionResultType]::ParameterName, 'Open the source from this machine only, never the network: a git repository as the last run that fetched it saw it (its default branch, or the `#ref`), or a folder (also `SKILLS_OFFLINE=1`)')
            [CompletionResult]::new('-g', '-g', [CompletionResultType]::ParameterName, 'Work on the user''s skills (`~/.agents/skills`, …) instead of the project''s')
            [CompletionResult]::new('--global', '--global', [CompletionResultType]::ParameterName, 'Work on the user''s skills (`~/.agents/skills`, …) instead of the project''s')
            [CompletionResult]::new('--copy', '--copy', [CompletionResultType]::ParameterName, 'Copy into every agent dir instead of one copy in `.agents/skills` plus symlinks')
            [CompletionResult]::new('-y', '-y', [CompletionResultType]::ParameterName, 'Do not ask for confirmation')
            [CompletionResult]::new('--yes', '--yes', [CompletionResultType]::ParameterName, 'Do not ask for confirmation')
            [CompletionResult]::new('--all', '--all', [CompletionResultType]::ParameterName, 'Shorthand for `--skill ''*'' --agent ''*'' --yes`')
            [CompletionResult]::new('-l', '-l', [CompletionResultType]::ParameterName, 'List the skills the source offers and install nothing')
            [CompletionResult]::new('--list', '--list', [CompletionResultType]::ParameterName, 'List the skills the source offers and install nothing')
            [CompletionResult]::new('--dry-run', '--dry-run', [CompletionResultType]::ParameterName, 'Print what would be installed where, and install nothing')
            [CompletionResult]::new('--force', '--force', [CompletionResultType]::ParameterName, 'Replace skill folders that `skills-lock.json` does not know (they may hold your edits)')
            [CompletionResult]::new('--full-depth', '--full-depth', [CompletionResultType]::ParameterName, 'Search the whole source even when its root is a skill')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print one JSON document (`"version": 1`)')
            [CompletionResult]::new('--no-verify', '--no-verify', [CompletionResultType]::ParameterName, 'Do not check skills before writing them (for this run only; not recorded)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only data and errors')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only data and errors')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Print more about what is done (repeat for more)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Print more about what is done (repeat for more)')
            [CompletionResult]::new('--no-progress', '--no-progress', [CompletionResultType]::ParameterName, 'Never draw progress bars')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'skills;a' {
            [CompletionResult]::new('-s', '-s', [CompletionResultType]::ParameterName, 'Skills to install (repeatable, or comma-separated; `*` for all)')
            [CompletionResult]::new('--skill', '--skill', [CompletionResultType]::ParameterName, 'Skills to install (repeatable, or comma-separated; `*` for all)')
            [CompletionResult]::new('--subagent', '--subagent', [CompletionResultType]::ParameterName, 'Eve subagents to install for (`agent/subagents/NAME/skills`; `root` for `agent/skills`)')
            [CompletionResult]::new('--metadata', '--metadata', [CompletionResultType]::ParameterName, 'Accepted for `npx skills` scripts and ignored: it only feeds telemetry, and `skills` sends none (the value must still be JSON)')
            [CompletionResult]::new('--max-file-size', '--max-file-size', [CompletionResultType]::ParameterName, 'Largest file a skill may contain')
            [CompletionResult]::new('--max-skill-size', '--max-skill-size', [CompletionResultType]::ParameterName, 'Largest total size of a skill')
            [CompletionResult]::new('--max-files', '--max-files', [CompletionResultType]::ParameterName, 'Most files a skill (or a downloaded archive) may contain')
            [CompletionResult]::new('--max-download-size', '--max-download-size', [CompletionResultType]::ParameterName, 'Largest download of a web source (a SKILL.md or an archive)')
            [CompletionResult]::new('--max-extracted-size', '--max-extracted-size', [CompletionResultType]::ParameterName, 'Largest total a downloaded archive may unpack to')
            [CompletionResult]::new('--allow', '--allow', [CompletionResultType]::ParameterName, 'Install even with findings of this rule (`security/remote-exec`; repeatable, or comma-separated); recorded per skill in `skills-lock.json`')
            [CompletionResult]::new('-a', '-a', [CompletionResultType]::ParameterName, 'Agents to install for, by id (repeatable, or comma-separated; `*` for all) [default: the agents whose dirs exist in the project, plus `.agents/skills`]')
            [CompletionResult]::new('--agent', '--agent', [CompletionResultType]::ParameterName, 'Agents to install for, by id (repeatable, or comma-separated; `*` for all) [default: the agents whose dirs exist in the project, plus `.agents/skills`]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use color (`NO_COLOR` is honoured)')
            [CompletionResult]::new('--offline', '--offline', [CompletionResultType]::ParameterName, 'Open the source from this machine only, never the network: a git repository as the last run that fetched it saw it (its default branch, or the `#ref`), or a folder (also `SKILLS_OFFLINE=1`)')
            [CompletionResult]::new('-g', '-g', [CompletionResultType]::ParameterName, 'Work on the user''s skills (`~/.agents/skills`, …) instead of the project''s')
            [CompletionResult]::new('--global', '--global', [CompletionResultType]::ParameterName, 'Work on the user''s skills (`~/.agents/skills`, …) instead of the project''s')
            [CompletionResult]::new('--copy', '--copy', [CompletionResultType]::ParameterName, 'Copy into every agent dir instead of one copy in `.agents/skills` plus symlinks')
            [CompletionResult]::new('-y', '-y', [CompletionResultType]::ParameterName, 'Do not ask for confirmation')
            [CompletionResult]::new('--yes', '--yes', [CompletionResultType]::ParameterName, 'Do not ask for confirmation')
            [CompletionResult]::new('--all', '--all', [CompletionResultType]::ParameterName, 'Shorthand for `--skill ''*'' --agent ''*'' --yes`')
            [CompletionResult]::new('-l', '-l', [CompletionResultType]::ParameterName, 'List the skills the source offers and install nothing')
            [CompletionResult]::new('--list', '--list', [CompletionResultType]::ParameterName, 'List the skills the source offers and install nothing')
            [CompletionResult]::new('--dry-run', '--dry-run', [CompletionResultType]::ParameterName, 'Print what would be installed where, and install nothing')
            [CompletionResult]::new('--force', '--force', [CompletionResultType]::ParameterName, 'Replace skill folders that `skills-lock.json` does not know (they may hold your edits)')
            [CompletionResult]::new('--full-depth', '--full-depth', [CompletionResultType]::ParameterName, 'Search the whole source even when its root is a skill')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print one JSON document (`"version": 1`)')
            [CompletionResult]::new('--no-verify', '--no-verify', [CompletionResultType]::ParameterName, 'Do not check skills before writing them (for this run only; not recorded)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only data and errors')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only data and errors')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Print more about what is done (repeat for more)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Print more about what is done (repeat for more)')
            [CompletionResult]::new('--no-progress', '--no-progress', [CompletionResultType]::ParameterName, 'Never draw progress bars')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'skills;remove' {
            [CompletionResult]::new('-s', '-s', [CompletionResultType]::ParameterName, 'Skills to remove, as with NAME (repeatable, or comma-separated; `*` for all)')
            [CompletionResult]::new('--skill', '--skill', [CompletionResultType]::ParameterName, 'Skills to remove, as with NAME (repeatable, or comma-separated; `*` for all)')
            [CompletionResult]::new('-a', '-a', [CompletionResultType]::ParameterName, 'Remove only from these agents (repeatable, or comma-separated)')
            [CompletionResult]::new('--agent', '--agent', [CompletionResultType]::ParameterName, 'Remove only from these agents (repeatable, or comma-separated)')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use color (`NO_COLOR` is honoured)')
            [CompletionResult]::new('--all', '--all', [CompletionResultType]::ParameterName, 'Remove every skill the lockfile lists, with its links (implies `--yes`); a folder no lock lists is removed only by name')
            [CompletionResult]::new('-g', '-g', [CompletionResultType]::ParameterName, 'Remove from the user''s dirs instead of the project''s')
            [CompletionResult]::new('--global', '--global', [CompletionResultType]::ParameterName, 'Remove from the user''s dirs instead of the project''s')
            [CompletionResult]::new('-y', '-y', [CompletionResultType]::ParameterName, 'Do not ask for confirmation')
            [CompletionResult]::new('--yes', '--yes', [CompletionResultType]::ParameterName, 'Do not ask for confirmation')
            [CompletionResult]::new('--dry-run', '--dry-run', [CompletionResultType]::ParameterName, 'Print what would be removed, and remove nothing')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print one JSON document (`"version": 1`)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only data and errors')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only data and errors')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Print more about what is done (repeat for more)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Print more about what is done (repeat for more)')
            [CompletionResult]::new('--no-progress', '--no-progress', [CompletionResultType]::ParameterName, 'Never draw progress bars')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'skills;rm' {
            [CompletionResult]::new('-s', '-s', [CompletionResultType]::ParameterName, 'Skills to remove, as with NAME (repeatable, or comma-separated; `*` for all)')
            [CompletionResult]::new('--skill', '--skill', [CompletionResultType]::ParameterName, 'Skills to remove, as with NAME (repeatable, or comma-separated; `*` for all)')
            [CompletionResult]::new('-a', '-a', [CompletionResultType]::ParameterName, 'Remove only from these agents (repeatable, or comma-separated)')
            [CompletionResult]::new('--agent', '--agent', [CompletionResultType]::ParameterName, 'Remove only from these agents (repeatable, or comma-separated)')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use color (`NO_COLOR` is honoured)')
            [CompletionResult]::new('--all', '--all', [CompletionResultType]::ParameterName, 'Remove every skill the lockfile lists, with its links (implies `--yes`); a folder no lock lists is removed only by name')
            [CompletionResult]::new('-g', '-g', [CompletionResultType]::ParameterName, 'Remove from the user''s dirs instead of the project''s')
            [CompletionResult]::new('--global', '--global', [CompletionResultType]::ParameterName, 'Remove from the user''s dirs instead of the project''s')
            [CompletionResult]::new('-y', '-y', [CompletionResultType]::ParameterName, 'Do not ask for confirmation')
            [CompletionResult]::new('--yes', '--yes', [CompletionResultType]::ParameterName, 'Do not ask for confirmation')
            [CompletionResult]::new('--dry-run', '--dry-run', [CompletionResultType]::ParameterName, 'Print what would be removed, and remove nothing')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print one JSON document (`"version": 1`)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only data and errors')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only data and errors')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Print more about what is done (repeat for more)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Print more about what is done (repeat for more)')
            [CompletionResult]::new('--no-progress', '--no-progress', [CompletionResultType]::ParameterName, 'Never draw progress bars')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'skills;r' {
            [CompletionResult]::new('-s', '-s', [CompletionResultType]::ParameterName, 'Skills to remove, as with NAME (repeatable, or comma-separated; `*` for all)')
            [CompletionResult]::new('--skill', '--skill', [CompletionResultType]::ParameterName, 'Skills to remove, as with NAME (repeatable, or comma-separated; `*` for all)')
            [CompletionResult]::new('-a', '-a', [CompletionResultType]::ParameterName, 'Remove only from these agents (repeatable, or comma-separated)')
            [CompletionResult]::new('--agent', '--agent', [CompletionResultType]::ParameterName, 'Remove only from these agents (repeatable, or comma-separated)')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use color (`NO_COLOR` is honoured)')
            [CompletionResult]::new('--all', '--all', [CompletionResultType]::ParameterName, 'Remove every skill the lockfile lists, with its links (implies `--yes`); a folder no lock lists is removed only by name')
            [CompletionResult]::new('-g', '-g', [CompletionResultType]::ParameterName, 'Remove from the user''s dirs instead of the project''s')
            [CompletionResult]::new('--global', '--global', [CompletionResultType]::ParameterName, 'Remove from the user''s dirs instead of the project''s')
            [CompletionResult]::new('-y', '-y', [CompletionResultType]::ParameterName, 'Do not ask for confirmation')
            [CompletionResult]::new('--yes', '--yes', [CompletionResultType]::ParameterName, 'Do not ask for confirmation')
            [CompletionResult]::new('--dry-run', '--dry-run', [CompletionResultType]::ParameterName, 'Print what would be removed, and remove nothing')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print one JSON document (`"version": 1`)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only data and errors')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only data and errors')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Print more about what is done (repeat for more)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Print more about what is done (repeat for more)')
            [CompletionResult]::new('--no-progress', '--no-progress', [CompletionResultType]::ParameterName, 'Never draw progress bars')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'skills;list' {
            [CompletionResult]::new('-a', '-a', [CompletionResultType]::ParameterName, 'Only skills these agents read, by id (`-a claude-code codex`, repeatable, or comma-separated)')
            [CompletionResult]::new('--agent', '--agent', [CompletionResultType]::ParameterName, 'Only skills these agents read, by id (`-a claude-code codex`, repeatable, or comma-separated)')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use color (`NO_COLOR` is honoured)')
            [CompletionResult]::new('-g', '-g', [CompletionResultType]::ParameterName, 'List the user''s skills (`~/.agents/skills`, `~/.claude/skills`, …) instead of the project''s')
            [CompletionResult]::new('--global', '--global', [CompletionResultType]::ParameterName, 'List the user''s skills (`~/.agents/skills`, `~/.claude/skills`, …) instead of the project''s')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print one JSON document (`"version": 1`)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only data and errors')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only data and errors')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Print more about what is done (repeat for more)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Print more about what is done (repeat for more)')
            [CompletionResult]::new('--no-progress', '--no-progress', [CompletionResultType]::ParameterName, 'Never draw progress bars')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'skills;ls' {
            [CompletionResult]::new('-a', '-a', [CompletionResultType]::ParameterName, 'Only skills these agents read, by id (`-a claude-code codex`, repeatable, or comma-separated)')
            [CompletionResult]::new('--agent', '--agent', [CompletionResultType]::ParameterName, 'Only skills these agents read, by id (`-a claude-code codex`, repeatable, or comma-separated)')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use color (`NO_COLOR` is honoured)')
            [CompletionResult]::new('-g', '-g', [CompletionResultType]::ParameterName, 'List the user''s skills (`~/.agents/skills`, `~/.claude/skills`, …) instead of the project''s')
            [CompletionResult]::new('--global', '--global', [CompletionResultType]::ParameterName, 'List the user''s skills (`~/.agents/skills`, `~/.claude/skills`, …) instead of the project''s')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print one JSON document (`"version": 1`)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only data and errors')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only data and errors')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Print more about what is done (repeat for more)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Print more about what is done (repeat for more)')
            [CompletionResult]::new('--no-progress', '--no-progress', [CompletionResultType]::ParameterName, 'Never draw progress bars')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'skills;find' {
            [CompletionResult]::new('--owner', '--owner', [CompletionResultType]::ParameterName, 'Only skills of this GitHub owner')
            [CompletionResult]::new('--limit', '--limit', [CompletionResultType]::ParameterName, 'Most results')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use color (`NO_COLOR` is honoured)')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print one JSON document (`"version": 1`)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only data and errors')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only data and errors')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Print more about what is done (repeat for more)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Print more about what is done (repeat for more)')
            [CompletionResult]::new('--no-progress', '--no-progress', [CompletionResultType]::ParameterName, 'Never draw progress bars')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'skills;search' {
            [CompletionResult]::new('--owner', '--owner', [CompletionResultType]::ParameterName, 'Only skills of this GitHub owner')
            [CompletionResult]::new('--limit', '--limit', [CompletionResultType]::ParameterName, 'Most results')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use color (`NO_COLOR` is honoured)')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print one JSON document (`"version": 1`)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only data and errors')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only data and errors')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Print more about what is done (repeat for more)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Print more about what is done (repeat for more)')
            [CompletionResult]::new('--no-progress', '--no-progress', [CompletionResultType]::ParameterName, 'Never draw progress bars')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'skills;f' {
            [CompletionResult]::new('--owner', '--owner', [CompletionResultType]::ParameterName, 'Only skills of this GitHub owner')
            [CompletionResult]::new('--limit', '--limit', [CompletionResultType]::ParameterName, 'Most results')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use color (`NO_COLOR` is honoured)')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print one JSON document (`"version": 1`)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only data and errors')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only data and errors')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Print more about what is done (repeat for more)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Print more about what is done (repeat for more)')
            [CompletionResult]::new('--no-progress', '--no-progress', [CompletionResultType]::ParameterName, 'Never draw progress bars')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'skills;s' {
            [CompletionResult]::new('--owner', '--owner', [CompletionResultType]::ParameterName, 'Only skills of this GitHub owner')
            [CompletionResult]::new('--limit', '--limit', [CompletionResultType]::ParameterName, 'Most results')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use color (`NO_COLOR` is honoured)')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print one JSON document (`"version": 1`)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only data and errors')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only data and errors')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Print more about what is done (repeat for more)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Print more about what is done (repeat for more)')
            [CompletionResult]::new('--no-progress', '--no-progress', [CompletionResultType]::ParameterName, 'Never draw progress bars')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'skills;install' {
            [CompletionResult]::new('-s', '-s', [CompletionResultType]::ParameterName, 'Skills to install (repeatable, or comma-separated; `*` for all)')
            [CompletionResult]::new('--skill', '--skill', [CompletionResultType]::ParameterName, 'Skills to install (repeatable, or comma-separated; `*` for all)')
            [CompletionResult]::new('--subagent', '--subagent', [CompletionResultType]::ParameterName, 'Eve subagents to install for (`agent/subagents/NAME/skills`; `root` for `agent/skills`)')
            [CompletionResult]::new('--metadata', '--metadata', [CompletionResultType]::ParameterName, 'Accepted for `npx skills` scripts and ignored: it only feeds telemetry, and `skills` sends none (the value must still be JSON)')
            [CompletionResult]::new('--max-file-size', '--max-file-size', [CompletionResultType]::ParameterName, 'Largest file a skill may contain')
            [CompletionResult]::new('--max-skill-size', '--max-skill-size', [CompletionResultType]::ParameterName, 'Largest total size of a skill')
            [CompletionResult]::new('--max-files', '--max-files', [CompletionResultType]::ParameterName, 'Most files a skill (or a downloaded archive) may contain')
            [CompletionResult]::new('--max-download-size', '--max-download-size', [CompletionResultType]::ParameterName, 'Largest download of a web source (a SKILL.md or an archive)')
            [CompletionResult]::new('--max-extracted-size', '--max-extracted-size', [CompletionResultType]::ParameterName, 'Largest total a downloaded archive may unpack to')
            [CompletionResult]::new('--allow', '--allow', [CompletionResultType]::ParameterName, 'Install even with findings of this rule (`security/remote-exec`; repeatable, or comma-separated); recorded per skill in `skills-lock.json`')
            [CompletionResult]::new('-a', '-a', [CompletionResultType]::ParameterName, 'Agents to install for, by id (repeatable, or comma-separated; `*` for all) [default: the agents whose dirs exist in the project, plus `.agents/skills`]')
            [CompletionResult]::new('--agent', '--agent', [CompletionResultType]::ParameterName, 'Agents to install for, by id (repeatable, or comma-separated; `*` for all) [default: the agents whose dirs exist in the project, plus `.agents/skills`]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use color (`NO_COLOR` is honoured)')
            [CompletionResult]::new('--frozen', '--frozen', [CompletionResultType]::ParameterName, 'Fail (exit 1, nothing written) unless every skill is reproduced exactly as locked')
            [CompletionResult]::new('--offline', '--offline', [CompletionResultType]::ParameterName, 'Restore from this machine only (the shared cache), never the network; name what cannot be restored (also `SKILLS_OFFLINE=1`). With a SOURCE, as `skills add --offline`')
            [CompletionResult]::new('-g', '-g', [CompletionResultType]::ParameterName, 'Work on the user''s skills (`~/.agents/skills`, …) instead of the project''s')
            [CompletionResult]::new('--global', '--global', [CompletionResultType]::ParameterName, 'Work on the user''s skills (`~/.agents/skills`, …) instead of the project''s')
            [CompletionResult]::new('--copy', '--copy', [CompletionResultType]::ParameterName, 'Copy into every agent dir instead of one copy in `.agents/skills` plus symlinks')
            [CompletionResult]::new('-y', '-y', [CompletionResultType]::ParameterName, 'Do not ask for confirmation')
            [CompletionResult]::new('--yes', '--yes', [CompletionResultType]::ParameterName, 'Do not ask for confirmation')
            [CompletionResult]::new('--all', '--all', [CompletionResultType]::ParameterName, 'Shorthand for `--skill ''*'' --agent ''*'' --yes`')
            [CompletionResult]::new('-l', '-l', [CompletionResultType]::ParameterName, 'List the skills the source offers and install nothing')
            [CompletionResult]::new('--list', '--list', [CompletionResultType]::ParameterName, 'List the skills the source offers and install nothing')
            [CompletionResult]::new('--dry-run', '--dry-run', [CompletionResultType]::ParameterName, 'Print what would be installed where, and install nothing')
            [CompletionResult]::new('--force', '--force', [CompletionResultType]::ParameterName, 'Replace skill folders that `skills-lock.json` does not know (they may hold your edits)')
            [CompletionResult]::new('--full-depth', '--full-depth', [CompletionResultType]::ParameterName, 'Search the whole source even when its root is a skill')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print one JSON document (`"version": 1`)')
            [CompletionResult]::new('--no-verify', '--no-verify', [CompletionResultType]::ParameterName, 'Do not check skills before writing them (for this run only; not recorded)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only data and errors')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only data and errors')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Print more about what is done (repeat for more)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Print more about what is done (repeat for more)')
            [CompletionResult]::new('--no-progress', '--no-progress', [CompletionResultType]::ParameterName, 'Never draw progress bars')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'skills;i' {
            [CompletionResult]::new('-s', '-s', [CompletionResultType]::ParameterName, 'Skills to install (repeatable, or comma-separated; `*` for all)')
            [CompletionResult]::new('--skill', '--skill', [CompletionResultType]::ParameterName, 'Skills to install (repeatable, or comma-separated; `*` for all)')
            [CompletionResult]::new('--subagent', '--subagent', [CompletionResultType]::ParameterName, 'Eve subagents to install for (`agent/subagents/NAME/skills`; `root` for `agent/skills`)')
            [CompletionResult]::new('--metadata', '--metadata', [CompletionResultType]::ParameterName, 'Accepted for `npx skills` scripts and ignored: it only feeds telemetry, and `skills` sends none (the value must still be JSON)')
            [CompletionResult]::new('--max-file-size', '--max-file-size', [CompletionResultType]::ParameterName, 'Largest file a skill may contain')
            [CompletionResult]::new('--max-skill-size', '--max-skill-size', [CompletionResultType]::ParameterName, 'Largest total size of a skill')
            [CompletionResult]::new('--max-files', '--max-files', [CompletionResultType]::ParameterName, 'Most files a skill (or a downloaded archive) may contain')
            [CompletionResult]::new('--max-download-size', '--max-download-size', [CompletionResultType]::ParameterName, 'Largest download of a web source (a SKILL.md or an archive)')
            [CompletionResult]::new('--max-extracted-size', '--max-extracted-size', [CompletionResultType]::ParameterName, 'Largest total a downloaded archive may unpack to')
            [CompletionResult]::new('--allow', '--allow', [CompletionResultType]::ParameterName, 'Install even with findings of this rule (`security/remote-exec`; repeatable, or comma-separated); recorded per skill in `skills-lock.json`')
            [CompletionResult]::new('-a', '-a', [CompletionResultType]::ParameterName, 'Agents to install for, by id (repeatable, or comma-separated; `*` for all) [default: the agents whose dirs exist in the project, plus `.agents/skills`]')
            [CompletionResult]::new('--agent', '--agent', [CompletionResultType]::ParameterName, 'Agents to install for, by id (repeatable, or comma-separated; `*` for all) [default: the agents whose dirs exist in the project, plus `.agents/skills`]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use color (`NO_COLOR` is honoured)')
            [CompletionResult]::new('--frozen', '--frozen', [CompletionResultType]::ParameterName, 'Fail (exit 1, nothing written) unless every skill is reproduced exactly as locked')
            [CompletionResult]::new('--offline', '--offline', [CompletionResultType]::ParameterName, 'Restore from this machine only (the shared cache), never the network; name what cannot be restored (also `SKILLS_OFFLINE=1`). With a SOURCE, as `skills add --offline`')
            [CompletionResult]::new('-g', '-g', [CompletionResultType]::ParameterName, 'Work on the user''s skills (`~/.agents/skills`, …) instead of the project''s')
            [CompletionResult]::new('--global', '--global', [CompletionResultType]::ParameterName, 'Work on the user''s skills (`~/.agents/skills`, …) instead of the project''s')
            [CompletionResult]::new('--copy', '--copy', [CompletionResultType]::ParameterName, 'Copy into every agent dir instead of one copy in `.agents/skills` plus symlinks')
            [CompletionResult]::new('-y', '-y', [CompletionResultType]::ParameterName, 'Do not ask for confirmation')
            [CompletionResult]::new('--yes', '--yes', [CompletionResultType]::ParameterName, 'Do not ask for confirmation')
            [CompletionResult]::new('--all', '--all', [CompletionResultType]::ParameterName, 'Shorthand for `--skill ''*'' --agent ''*'' --yes`')
            [CompletionResult]::new('-l', '-l', [CompletionResultType]::ParameterName, 'List the skills the source offers and install nothing')
            [CompletionResult]::new('--list', '--list', [CompletionResultType]::ParameterName, 'List the skills the source offers and install nothing')
            [CompletionResult]::new('--dry-run', '--dry-run', [CompletionResultType]::ParameterName, 'Print what would be installed where, and install nothing')
            [CompletionResult]::new('--force', '--force', [CompletionResultType]::ParameterName, 'Replace skill folders that `skills-lock.json` does not know (they may hold your edits)')
            [CompletionResult]::new('--full-depth', '--full-depth', [CompletionResultType]::ParameterName, 'Search the whole source even when its root is a skill')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print one JSON document (`"version": 1`)')
            [CompletionResult]::new('--no-verify', '--no-verify', [CompletionResultType]::ParameterName, 'Do not check skills before writing them (for this run only; not recorded)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only data and errors')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only data and errors')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Print more about what is done (repeat for more)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Print more about what is done (repeat for more)')
            [CompletionResult]::new('--no-progress', '--no-progress', [CompletionResultType]::ParameterName, 'Never draw progress bars')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'skills;check' {
            [CompletionResult]::new('--max-file-size', '--max-file-size', [CompletionResultType]::ParameterName, 'Largest file a skill may contain')
            [CompletionResult]::new('--max-skill-size', '--max-skill-size', [CompletionResultType]::ParameterName, 'Largest total size of a skill')
            [CompletionResult]::new('--max-files', '--max-files', [CompletionResultType]::ParameterName, 'Most files a skill (or a downloaded archive) may contain')
            [CompletionResult]::new('--max-download-size', '--max-download-size', [CompletionResultType]::ParameterName, 'Largest download of a web source (a SKILL.md or an archive)')
            [CompletionResult]::new('--max-extracted-size', '--max-extracted-size', [CompletionResultType]::ParameterName, 'Largest total a downloaded archive may unpack to')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use color (`NO_COLOR` is honoured)')
            [CompletionResult]::new('--exit-code', '--exit-code', [CompletionResultType]::ParameterName, 'Exit 1 when updates exist')
            [CompletionResult]::new('-g', '-g', [CompletionResultType]::ParameterName, 'Check the user''s skills instead of the project''s')
            [CompletionResult]::new('--global', '--global', [CompletionResultType]::ParameterName, 'Check the user''s skills instead of the project''s')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print one JSON document (`"version": 1`)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only data and errors')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only data and errors')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Print more about what is done (repeat for more)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Print more about what is done (repeat for more)')
            [CompletionResult]::new('--no-progress', '--no-progress', [CompletionResultType]::ParameterName, 'Never draw progress bars')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'skills;update' {
            [CompletionResult]::new('--max-file-size', '--max-file-size', [CompletionResultType]::ParameterName, 'Largest file a skill may contain')
            [CompletionResult]::new('--max-skill-size', '--max-skill-size', [CompletionResultType]::ParameterName, 'Largest total size of a skill')
            [CompletionResult]::new('--max-files', '--max-files', [CompletionResultType]::ParameterName, 'Most files a skill (or a downloaded archive) may contain')
            [CompletionResult]::new('--max-download-size', '--max-download-size', [CompletionResultType]::ParameterName, 'Largest download of a web source (a SKILL.md or an archive)')
            [CompletionResult]::new('--max-extracted-size', '--max-extracted-size', [CompletionResultType]::ParameterName, 'Largest total a downloaded archive may unpack to')
            [CompletionResult]::new('--allow', '--allow', [CompletionResultType]::ParameterName, 'Install even with findings of this rule (`security/remote-exec`; repeatable, or comma-separated); recorded per skill in `skills-lock.json`')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use color (`NO_COLOR` is honoured)')
            [CompletionResult]::new('-g', '-g', [CompletionResultType]::ParameterName, 'Update the user''s skills [default: the project''s when it has skills, else the user''s]')
            [CompletionResult]::new('--global', '--global', [CompletionResultType]::ParameterName, 'Update the user''s skills [default: the project''s when it has skills, else the user''s]')
            [CompletionResult]::new('-p', '-p', [CompletionResultType]::ParameterName, 'Update the project''s skills (with `--global`: both)')
            [CompletionResult]::new('--project', '--project', [CompletionResultType]::ParameterName, 'Update the project''s skills (with `--global`: both)')
            [CompletionResult]::new('-y', '-y', [CompletionResultType]::ParameterName, 'Accepted for `npx skills` scripts: `skills update` never asks')
            [CompletionResult]::new('--yes', '--yes', [CompletionResultType]::ParameterName, 'Accepted for `npx skills` scripts: `skills update` never asks')
            [CompletionResult]::new('--force', '--force', [CompletionResultType]::ParameterName, 'Replace installed copies that were edited since they were installed')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print one JSON document (`"version": 1`)')
            [CompletionResult]::new('--no-verify', '--no-verify', [CompletionResultType]::ParameterName, 'Do not check skills before writing them (for this run only; not recorded)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only data and errors')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only data and errors')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Print more about what is done (repeat for more)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Print more about what is done (repeat for more)')
            [CompletionResult]::new('--no-progress', '--no-progress', [CompletionResultType]::ParameterName, 'Never draw progress bars')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'skills;upgrade' {
            [CompletionResult]::new('--max-file-size', '--max-file-size', [CompletionResultType]::ParameterName, 'Largest file a skill may contain')
            [CompletionResult]::new('--max-skill-size', '--max-skill-size', [CompletionResultType]::ParameterName, 'Largest total size of a skill')
            [CompletionResult]::new('--max-files', '--max-files', [CompletionResultType]::ParameterName, 'Most files a skill (or a downloaded archive) may contain')
            [CompletionResult]::new('--max-download-size', '--max-download-size', [CompletionResultType]::ParameterName, 'Largest download of a web source (a SKILL.md or an archive)')
            [CompletionResult]::new('--max-extracted-size', '--max-extracted-size', [CompletionResultType]::ParameterName, 'Largest total a downloaded archive may unpack to')
            [CompletionResult]::new('--allow', '--allow', [CompletionResultType]::ParameterName, 'Install even with findings of this rule (`security/remote-exec`; repeatable, or comma-separated); recorded per skill in `skills-lock.json`')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use color (`NO_COLOR` is honoured)')
            [CompletionResult]::new('-g', '-g', [CompletionResultType]::ParameterName, 'Update the user''s skills [default: the project''s when it has skills, else the user''s]')
            [CompletionResult]::new('--global', '--global', [CompletionResultType]::ParameterName, 'Update the user''s skills [default: the project''s when it has skills, else the user''s]')
            [CompletionResult]::new('-p', '-p', [CompletionResultType]::ParameterName, 'Update the project''s skills (with `--global`: both)')
            [CompletionResult]::new('--project', '--project', [CompletionResultType]::ParameterName, 'Update the project''s skills (with `--global`: both)')
            [CompletionResult]::new('-y', '-y', [CompletionResultType]::ParameterName, 'Accepted for `npx skills` scripts: `skills update` never asks')
            [CompletionResult]::new('--yes', '--yes', [CompletionResultType]::ParameterName, 'Accepted for `npx skills` scripts: `skills update` never asks')
            [CompletionResult]::new('--force', '--force', [CompletionResultType]::ParameterName, 'Replace installed copies that were edited since they were installed')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print one JSON document (`"version": 1`)')
            [CompletionResult]::new('--no-verify', '--no-verify', [CompletionResultType]::ParameterName, 'Do not check skills before writing them (for this run only; not recorded)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only data and errors')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only data and errors')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Print more about what is done (repeat for more)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Print more about what is done (repeat for more)')
            [CompletionResult]::new('--no-progress', '--no-progress', [CompletionResultType]::ParameterName, 'Never draw progress bars')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'skills;use' {
            [CompletionResult]::new('-s', '-s', [CompletionResultType]::ParameterName, 'The skill to use, when the source has several')
            [CompletionResult]::new('--skill', '--skill', [CompletionResultType]::ParameterName, 'The skill to use, when the source has several')
            [CompletionResult]::new('-a', '-a', [CompletionResultType]::ParameterName, 'Start this agent with the prompt instead of printing it (`claude-code`, `codex`, `sarvam-code`)')
            [CompletionResult]::new('--agent', '--agent', [CompletionResultType]::ParameterName, 'Start this agent with the prompt instead of printing it (`claude-code`, `codex`, `sarvam-code`)')
            [CompletionResult]::new('--max-file-size', '--max-file-size', [CompletionResultType]::ParameterName, 'Largest file a skill may contain')
            [CompletionResult]::new('--max-skill-size', '--max-skill-size', [CompletionResultType]::ParameterName, 'Largest total size of a skill')
            [CompletionResult]::new('--max-files', '--max-files', [CompletionResultType]::ParameterName, 'Most files a skill (or a downloaded archive) may contain')
            [CompletionResult]::new('--max-download-size', '--max-download-size', [CompletionResultType]::ParameterName, 'Largest download of a web source (a SKILL.md or an archive)')
            [CompletionResult]::new('--max-extracted-size', '--max-extracted-size', [CompletionResultType]::ParameterName, 'Largest total a downloaded archive may unpack to')
            [CompletionResult]::new('--allow', '--allow', [CompletionResultType]::ParameterName, 'Install even with findings of this rule (`security/remote-exec`; repeatable, or comma-separated); recorded per skill in `skills-lock.json`')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use color (`NO_COLOR` is honoured)')
            [CompletionResult]::new('--full-depth', '--full-depth', [CompletionResultType]::ParameterName, 'Search the whole source even when its root is a skill')
            [CompletionResult]::new('--offline', '--offline', [CompletionResultType]::ParameterName, 'Open the source from this machine only, never the network: a git repository as the last run that fetched it saw it, or a folder (also `SKILLS_OFFLINE=1`)')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print one JSON document (`"version": 1`) with the prompt and the skill''s folder')
            [CompletionResult]::new('--no-verify', '--no-verify', [CompletionResultType]::ParameterName, 'Do not check skills before writing them (for this run only; not recorded)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only data and errors')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only data and errors')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Print more about what is done (repeat for more)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Print more about what is done (repeat for more)')
            [CompletionResult]::new('--no-progress', '--no-progress', [CompletionResultType]::ParameterName, 'Never draw progress bars')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'skills;sync' {
            [CompletionResult]::new('--include', '--include', [CompletionResultType]::ParameterName, 'Only these packages (`pkg`) or skills (`pkg#skill`); globs allowed (repeatable)')
            [CompletionResult]::new('--exclude', '--exclude', [CompletionResultType]::ParameterName, 'Leave out these packages (`pkg`) or skills (`pkg#skill`); globs allowed (repeatable)')
            [CompletionResult]::new('--max-file-size', '--max-file-size', [CompletionResultType]::ParameterName, 'Largest file a skill may contain')
            [CompletionResult]::new('--max-skill-size', '--max-skill-size', [CompletionResultType]::ParameterName, 'Largest total size of a skill')
            [CompletionResult]::new('--max-files', '--max-files', [CompletionResultType]::ParameterName, 'Most files a skill (or a downloaded archive) may contain')
            [CompletionResult]::new('--max-download-size', '--max-download-size', [CompletionResultType]::ParameterName, 'Largest download of a web source (a SKILL.md or an archive)')
            [CompletionResult]::new('--max-extracted-size', '--max-extracted-size', [CompletionResultType]::ParameterName, 'Largest total a downloaded archive may unpack to')
            [CompletionResult]::new('--allow', '--allow', [CompletionResultType]::ParameterName, 'Install even with findings of this rule (`security/remote-exec`; repeatable, or comma-separated); recorded per skill in `skills-lock.json`')
            [CompletionResult]::new('-a', '-a', [CompletionResultType]::ParameterName, 'Agents to install for, by id (repeatable, or comma-separated; `*` for all) [default: the agents whose dirs exist in the project, plus `.agents/skills`]')
            [CompletionResult]::new('--agent', '--agent', [CompletionResultType]::ParameterName, 'Agents to install for, by id (repeatable, or comma-separated; `*` for all) [default: the agents whose dirs exist in the project, plus `.agents/skills`]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use color (`NO_COLOR` is honoured)')
            [CompletionResult]::new('-y', '-y', [CompletionResultType]::ParameterName, 'Do not ask for confirmation')
            [CompletionResult]::new('--yes', '--yes', [CompletionResultType]::ParameterName, 'Do not ask for confirmation')
            [CompletionResult]::new('--copy', '--copy', [CompletionResultType]::ParameterName, 'Copy the skills instead of linking them into `node_modules`')
            [CompletionResult]::new('--dry-run', '--dry-run', [CompletionResultType]::ParameterName, 'Print what would change, and change nothing')
            [CompletionResult]::new('--no-cleanup', '--no-cleanup', [CompletionResultType]::ParameterName, 'Keep skills that no package ships any more')
            [CompletionResult]::new('--no-remote', '--no-remote', [CompletionResultType]::ParameterName, 'Accepted for `npx skills` scripts: git sources in a `skills` field are reported, not fetched (use `skills add` for them)')
            [CompletionResult]::new('-r', '-r', [CompletionResultType]::ParameterName, 'Also read the workspace packages (`workspaces` in package.json) and their dependencies')
            [CompletionResult]::new('--recursive', '--recursive', [CompletionResultType]::ParameterName, 'Also read the workspace packages (`workspaces` in package.json) and their dependencies')
            [CompletionResult]::new('--force', '--force', [CompletionResultType]::ParameterName, 'Replace synced copies that were edited since they were synced (the edits are lost)')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print one JSON document (`"version": 1`)')
            [CompletionResult]::new('--no-verify', '--no-verify', [CompletionResultType]::ParameterName, 'Do not check skills before writing them (for this run only; not recorded)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only data and errors')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only data and errors')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Print more about what is done (repeat for more)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Print more about what is done (repeat for more)')
            [CompletionResult]::new('--no-progress', '--no-progress', [CompletionResultType]::ParameterName, 'Never draw progress bars')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'skills;manifest' {
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use color (`NO_COLOR` is honoured)')
            [CompletionResult]::new('--check', '--check', [CompletionResultType]::ParameterName, 'Verify instead of writing: exit 1 when an installed skill differs from the lock')
            [CompletionResult]::new('-g', '-g', [CompletionResultType]::ParameterName, 'Work on the user''s skills and lock instead of the project''s')
            [CompletionResult]::new('--global', '--global', [CompletionResultType]::ParameterName, 'Work on the user''s skills and lock instead of the project''s')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print JSON instead of a summary')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only data and errors')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only data and errors')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Print more about what is done (repeat for more)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Print more about what is done (repeat for more)')
            [CompletionResult]::new('--no-progress', '--no-progress', [CompletionResultType]::ParameterName, 'Never draw progress bars')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'skills;doctor' {
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use color (`NO_COLOR` is honoured)')
            [CompletionResult]::new('-g', '-g', [CompletionResultType]::ParameterName, 'Check only the user''s skills and lock (`~/.agents/skills`, …), not the project''s')
            [CompletionResult]::new('--global', '--global', [CompletionResultType]::ParameterName, 'Check only the user''s skills and lock (`~/.agents/skills`, …), not the project''s')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print one JSON document (`"version": 1`)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only data and errors')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only data and errors')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Print more about what is done (repeat for more)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Print more about what is done (repeat for more)')
            [CompletionResult]::new('--no-progress', '--no-progress', [CompletionResultType]::ParameterName, 'Never draw progress bars')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'skills;lint' {
            [CompletionResult]::new('--include', '--include', [CompletionResultType]::ParameterName, 'Only skills whose name matches this glob (repeatable)')
            [CompletionResult]::new('--exclude', '--exclude', [CompletionResultType]::ParameterName, 'Leave out skills whose name matches this glob (repeatable)')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output format')
            [CompletionResult]::new('-A', '-A ', [CompletionResultType]::ParameterName, 'Turn a rule or a family off (`quality/body-too-long`, `body-too-long`, `quality`; repeatable)')
            [CompletionResult]::new('--allow', '--allow', [CompletionResultType]::ParameterName, 'Turn a rule or a family off (`quality/body-too-long`, `body-too-long`, `quality`; repeatable)')
            [CompletionResult]::new('--explain', '--explain', [CompletionResultType]::ParameterName, 'Print the documentation of a rule and exit')
            [CompletionResult]::new('--max-file-size', '--max-file-size', [CompletionResultType]::ParameterName, 'Largest size of one file, e.g. `1MiB`, `500KB`, `2000`')
            [CompletionResult]::new('--max-skill-size', '--max-skill-size', [CompletionResultType]::ParameterName, 'Largest total size of one skill folder')
            [CompletionResult]::new('--max-files', '--max-files', [CompletionResultType]::ParameterName, 'Largest number of files in one skill folder')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use color (`NO_COLOR` is honoured)')
            [CompletionResult]::new('-g', '-g', [CompletionResultType]::ParameterName, 'Use only the user''s agent dirs (`~/.agents/skills`, `~/.claude/skills`, …)')
            [CompletionResult]::new('--global', '--global', [CompletionResultType]::ParameterName, 'Use only the user''s agent dirs (`~/.agents/skills`, `~/.claude/skills`, …)')
            [CompletionResult]::new('--strict', '--strict', [CompletionResultType]::ParameterName, 'Treat warnings as errors')
            [CompletionResult]::new('--list-rules', '--list-rules', [CompletionResultType]::ParameterName, 'Print every rule with its code and default severity and exit')
            [CompletionResult]::new('--changed', '--changed', [CompletionResultType]::ParameterName, 'The PATHs are changed files (as pre-commit passes them): lint each skill that holds one, and ignore files outside skills')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only data and errors')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only data and errors')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Print more about what is done (repeat for more)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Print more about what is done (repeat for more)')
            [CompletionResult]::new('--no-progress', '--no-progress', [CompletionResultType]::ParameterName, 'Never draw progress bars')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'skills;init' {
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use color (`NO_COLOR` is honoured)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only data and errors')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only data and errors')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Print more about what is done (repeat for more)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Print more about what is done (repeat for more)')
            [CompletionResult]::new('--no-progress', '--no-progress', [CompletionResultType]::ParameterName, 'Never draw progress bars')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'skills;prompt' {
            [CompletionResult]::new('--include', '--include', [CompletionResultType]::ParameterName, 'Only skills whose name matches this glob (repeatable)')
            [CompletionResult]::new('--exclude', '--exclude', [CompletionResultType]::ParameterName, 'Leave out skills whose name matches this glob (repeatable)')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output format')
            [CompletionResult]::new('--skill', '--skill', [CompletionResultType]::ParameterName, 'Print the activation block of this skill instead of the catalog (repeatable)')
            [CompletionResult]::new('--write', '--write', [CompletionResultType]::ParameterName, 'Put the output between `<!-- skills:start -->` and `<!-- skills:end -->` in FILE')
            [CompletionResult]::new('--template', '--template', [CompletionResultType]::ParameterName, 'Render this Jinja2 template instead of a built-in format')
            [CompletionResult]::new('--tools', '--tools', [CompletionResultType]::ParameterName, 'Universal tools for templates: a JSON list of MCP tool definitions')
            [CompletionResult]::new('--resources', '--resources', [CompletionResultType]::ParameterName, 'Global resources for templates: a JSON list of MCP resources')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use color (`NO_COLOR` is honoured)')
            [CompletionResult]::new('-g', '-g', [CompletionResultType]::ParameterName, 'Use only the user''s agent dirs (`~/.agents/skills`, `~/.claude/skills`, …)')
            [CompletionResult]::new('--global', '--global', [CompletionResultType]::ParameterName, 'Use only the user''s agent dirs (`~/.agents/skills`, `~/.claude/skills`, …)')
            [CompletionResult]::new('--uri', '--uri', [CompletionResultType]::ParameterName, 'Show `skill://<name>/SKILL.md` URIs (what `skills serve` exposes) instead of paths')
            [CompletionResult]::new('--strict', '--strict', [CompletionResultType]::ParameterName, 'Fail when a skill cannot be read (by default it is skipped with a warning)')
            [CompletionResult]::new('--all', '--all', [CompletionResultType]::ParameterName, 'Include skills hidden from models (`disable-model-invocation: true`, `metadata.internal: true`)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only data and errors')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only data and errors')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Print more about what is done (repeat for more)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Print more about what is done (repeat for more)')
            [CompletionResult]::new('--no-progress', '--no-progress', [CompletionResultType]::ParameterName, 'Never draw progress bars')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'skills;serve' {
            [CompletionResult]::new('--include', '--include', [CompletionResultType]::ParameterName, 'Only skills whose name matches this glob (repeatable)')
            [CompletionResult]::new('--exclude', '--exclude', [CompletionResultType]::ParameterName, 'Leave out skills whose name matches this glob (repeatable)')
            [CompletionResult]::new('--max-file-size', '--max-file-size', [CompletionResultType]::ParameterName, 'Largest file served')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use color (`NO_COLOR` is honoured)')
            [CompletionResult]::new('--stdio', '--stdio', [CompletionResultType]::ParameterName, 'Speak MCP over stdin and stdout (the only transport; accepted for clarity)')
            [CompletionResult]::new('-g', '-g', [CompletionResultType]::ParameterName, 'Use only the user''s agent dirs (`~/.agents/skills`, `~/.claude/skills`, …)')
            [CompletionResult]::new('--global', '--global', [CompletionResultType]::ParameterName, 'Use only the user''s agent dirs (`~/.agents/skills`, `~/.claude/skills`, …)')
            [CompletionResult]::new('--no-watch', '--no-watch', [CompletionResultType]::ParameterName, 'Do not watch the roots for changes')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only data and errors')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only data and errors')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Print more about what is done (repeat for more)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Print more about what is done (repeat for more)')
            [CompletionResult]::new('--no-progress', '--no-progress', [CompletionResultType]::ParameterName, 'Never draw progress bars')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'skills;cache' {
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use color (`NO_COLOR` is honoured)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only data and errors')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only data and errors')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Print more about what is done (repeat for more)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Print more about what is done (repeat for more)')
            [CompletionResult]::new('--no-progress', '--no-progress', [CompletionResultType]::ParameterName, 'Never draw progress bars')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('dir', 'dir', [CompletionResultType]::ParameterValue, 'Print the path of the cache')
            [CompletionResult]::new('clean', 'clean', [CompletionResultType]::ParameterValue, 'Remove the cached repositories and the store (everything is fetched again when needed)')
            [CompletionResult]::new('prune', 'prune', [CompletionResultType]::ParameterValue, 'Remove what was not used for some days: cached repositories, stored skills, and the files no remaining stored skill uses')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'skills;cache;dir' {
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use color (`NO_COLOR` is honoured)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only data and errors')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only data and errors')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Print more about what is done (repeat for more)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Print more about what is done (repeat for more)')
            [CompletionResult]::new('--no-progress', '--no-progress', [CompletionResultType]::ParameterName, 'Never draw progress bars')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'skills;cache;clean' {
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use color (`NO_COLOR` is honoured)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only data and errors')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only data and errors')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Print more about what is done (repeat for more)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Print more about what is done (repeat for more)')
            [CompletionResult]::new('--no-progress', '--no-progress', [CompletionResultType]::ParameterName, 'Never draw progress bars')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'skills;cache;prune' {
            [CompletionResult]::new('--days', '--days', [CompletionResultType]::ParameterName, 'Keep what was used within this many days')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use color (`NO_COLOR` is honoured)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only data and errors')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only data and errors')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Print more about what is done (repeat for more)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Print more about what is done (repeat for more)')
            [CompletionResult]::new('--no-progress', '--no-progress', [CompletionResultType]::ParameterName, 'Never draw progress bars')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'skills;cache;help' {
            [CompletionResult]::new('dir', 'dir', [CompletionResultType]::ParameterValue, 'Print the path of the cache')
            [CompletionResult]::new('clean', 'clean', [CompletionResultType]::ParameterValue, 'Remove the cached repositories and the store (everything is fetched again when needed)')
            [CompletionResult]::new('prune', 'prune', [CompletionResultType]::ParameterValue, 'Remove what was not used for some days: cached repositories, stored skills, and the files no remaining stored skill uses')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'skills;cache;help;dir' {
            break
        }
        'skills;cache;help;clean' {
            break
        }
        'skills;cache;help;prune' {
            break
        }
        'skills;cache;help;help' {
            break
        }
        'skills;completions' {
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use color (`NO_COLOR` is honoured)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only data and errors')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only data and errors')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Print more about what is done (repeat for more)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Print more about what is done (repeat for more)')
            [CompletionResult]::new('--no-progress', '--no-progress', [CompletionResultType]::ParameterName, 'Never draw progress bars')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'skills;help' {
            [CompletionResult]::new('add', 'add', [CompletionResultType]::ParameterValue, 'Install skills from a repository, URL or folder into agent dirs')
            [CompletionResult]::new('remove', 'remove', [CompletionResultType]::ParameterValue, 'Remove installed skills and their lock entries')
            [CompletionResult]::new('list', 'list', [CompletionResultType]::ParameterValue, 'List installed skills: name, agents, source, path')
            [CompletionResult]::new('find', 'find', [CompletionResultType]::ParameterValue, 'Search the skills.sh directory')
            [CompletionResult]::new('install', 'install', [CompletionResultType]::ParameterValue, 'Restore every skill in `skills-lock.json` at its locked commit and hash (like `npm ci`); with a SOURCE, the same as `skills add SOURCE`')
            [CompletionResult]::new('check', 'check', [CompletionResultType]::ParameterValue, 'Read-only: which locked skills have upstream changes')
            [CompletionResult]::new('update', 'update', [CompletionResultType]::ParameterValue, 'Apply upstream changes to locked skills, keeping their agents and copy/symlink mode')
            [CompletionResult]::new('use', 'use', [CompletionResultType]::ParameterValue, 'Print the activation prompt of one skill of a source, without installing it')
            [CompletionResult]::new('sync', 'sync', [CompletionResultType]::ParameterValue, 'Install the skills that packages in `node_modules` ship into agent dirs')
            [CompletionResult]::new('manifest', 'manifest', [CompletionResultType]::ParameterValue, 'Record (or verify) the files and hashes of every installed skill in `skills-lock.json`')
            [CompletionResult]::new('doctor', 'doctor', [CompletionResultType]::ParameterValue, 'Find what is wrong with installed skills: broken links, lock drift, shadowing, stale cache')
            [CompletionResult]::new('lint', 'lint', [CompletionResultType]::ParameterValue, 'Validate skills: the open spec, portability, quality, size and security')
            [CompletionResult]::new('init', 'init', [CompletionResultType]::ParameterValue, 'Create a new skill that passes `skills lint --strict`')
            [CompletionResult]::new('prompt', 'prompt', [CompletionResultType]::ParameterValue, 'Print the `<available_skills>` block (or one skill''s activation block) for a system prompt')
            [CompletionResult]::new('serve', 'serve', [CompletionResultType]::ParameterValue, 'Serve skills to MCP clients over stdio (resources, tools, prompts, the Skills extension)')
            [CompletionResult]::new('cache', 'cache', [CompletionResultType]::ParameterValue, 'Show, clean or prune the cache shared by every project (git clones and the file store)')
            [CompletionResult]::new('completions', 'completions', [CompletionResultType]::ParameterValue, 'Print a shell completion script')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'skills;help;add' {
            break
        }
        'skills;help;remove' {
            break
        }
        'skills;help;list' {
            break
        }
        'skills;help;find' {
            break
        }
        'skills;help;install' {
            break
        }
        'skills;help;check' {
            break
        }
        'skills;help;update' {
            break
        }
        'skills;help;use' {
            break
        }
        'skills;help;sync' {
            break
        }
        'skills;help;manifest' {
            break
        }
        'skills;help;doctor' {
            break
        }
        'skills;help;lint' {
            break
        }
        'skills;help;init' {
            break
        }
        'skills;help;prompt' {
            break
        }
        'skills;help;serve' {
            break
        }
        'skills;help;cache' {
            [CompletionResult]::new('dir', 'dir', [CompletionResultType]::ParameterValue, 'Print the path of the cache')
            [CompletionResult]::new('clean', 'clean', [CompletionResultType]::ParameterValue, 'Remove the cached repositories and the store (everything is fetched again when needed)')
            [CompletionResult]::new('prune', 'prune', [CompletionResultType]::ParameterValue, 'Remove what was not used for some days: cached repositories, stored skills, and the files no remaining stored skill uses')
            break
        }
        'skills;help;cache;dir' {
            break
        }
        'skills;help;cache;clean' {
            break
        }
        'skills;help;cache;prune' {
            break
        }
        'skills;help;completions' {
            break
        }
        'skills;help;help' {
            break
        }
    })

    $completions.Where{ $_.CompletionText -like "$wordToComplete*" } |
        Sort-Object -Property ListItemText
}
