# Print an optspec for argparse to handle cmd's options that are independent of any subcommand.
function __fish_skills_global_optspecs
    string join \n q/quiet v/verbose color= no-progress h/help V/version
end

function __fish_skills_needs_command
    # Figure out if the current invocation already has a command.
    set -l cmd (commandline -opc)
    set -e cmd[1]
    argparse -s (__fish_skills_global_optspecs) -- $cmd 2>/dev/null
    or return
    if set -q argv[1]
        # Also print the command, so this can be used to figure out what it is.
        echo $argv[1]
        return 1
    end
    return 0
end

function __fish_skills_using_subcommand
    set -l cmd (__fish_skills_needs_command)
    test -z "$cmd"
    and return 1
    contains -- $cmd[1] $argv
end

complete -c skills -n "__fish_skills_needs_command" -l color -d 'When to use color (`NO_COLOR` is honoured)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c skills -n "__fish_skills_needs_command" -s q -l quiet -d 'Print only data and errors'
complete -c skills -n "__fish_skills_needs_command" -s v -l verbose -d 'Print more about what is done (repeat for more)'
complete -c skills -n "__fish_skills_needs_command" -l no-progress -d 'Never draw progress bars'
complete -c skills -n "__fish_skills_needs_command" -s h -l help -d 'Print help'
complete -c skills -n "__fish_skills_needs_command" -s V -l version -d 'Print version'
complete -c skills -n "__fish_skills_needs_command" -f -a "add" -d 'Install skills from a repository, URL or folder into agent dirs'
complete -c skills -n "__fish_skills_needs_command" -f -a "a" -d 'Install skills from a repository, URL or folder into agent dirs'
complete -c skills -n "__fish_skills_needs_command" -f -a "remove" -d 'Remove installed skills and their lock entries'
complete -c skills -n "__fish_skills_needs_command" -f -a "rm" -d 'Remove installed skills and their lock entries'
complete -c skills -n "__fish_skills_needs_command" -f -a "r" -d 'Remove installed skills and their lock entries'
complete -c skills -n "__fish_skills_needs_command" -f -a "list" -d 'List installed skills: name, agents, source, path'
complete -c skills -n "__fish_skills_needs_command" -f -a "ls" -d 'List installed skills: name, agents, source, path'
complete -c skills -n "__fish_skills_needs_command" -f -a "find" -d 'Search the skills.sh directory'
complete -c skills -n "__fish_skills_needs_command" -f -a "search" -d 'Search the skills.sh directory'
complete -c skills -n "__fish_skills_needs_command" -f -a "f" -d 'Search the skills.sh directory'
complete -c skills -n "__fish_skills_needs_command" -f -a "s" -d 'Search the skills.sh directory'
complete -c skills -n "__fish_skills_needs_command" -f -a "install" -d 'Restore every skill in `skills-lock.json` at its locked commit and hash (like `npm ci`); with a SOURCE, the same as `skills add SOURCE`'
complete -c skills -n "__fish_skills_needs_command" -f -a "i" -d 'Restore every skill in `skills-lock.json` at its locked commit and hash (like `npm ci`); with a SOURCE, the same as `skills add SOURCE`'
complete -c skills -n "__fish_skills_needs_command" -f -a "check" -d 'Read-only: which locked skills have upstream changes'
complete -c skills -n "__fish_skills_needs_command" -f -a "update" -d 'Apply upstream changes to locked skills, keeping their agents and copy/symlink mode'
complete -c skills -n "__fish_skills_needs_command" -f -a "upgrade" -d 'Apply upstream changes to locked skills, keeping their agents and copy/symlink mode'
complete -c skills -n "__fish_skills_needs_command" -f -a "use" -d 'Print the activation prompt of one skill of a source, without installing it'
complete -c skills -n "__fish_skills_needs_command" -f -a "sync" -d 'Install the skills that packages in `node_modules` ship into agent dirs'
complete -c skills -n "__fish_skills_needs_command" -f -a "manifest" -d 'Record (or verify) the files and hashes of every installed skill in `skills-lock.json`'
complete -c skills -n "__fish_skills_needs_command" -f -a "doctor" -d 'Find what is wrong with installed skills: broken links, lock drift, shadowing, stale cache'
complete -c skills -n "__fish_skills_needs_command" -f -a "lint" -d 'Validate skills: the open spec, portability, quality, size and security'
complete -c skills -n "__fish_skills_needs_command" -f -a "init" -d 'Create a new skill that passes `skills lint --strict`'
complete -c skills -n "__fish_skills_needs_command" -f -a "prompt" -d 'Print the `<available_skills>` block (or one skill\'s activation block) for a system prompt'
complete -c skills -n "__fish_skills_needs_command" -f -a "serve" -d 'Serve skills to MCP clients over stdio (resources, tools, prompts, the Skills extension)'
complete -c skills -n "__fish_skills_needs_command" -f -a "cache" -d 'Show, clean or prune the cache shared by every project (git clones and the file store)'
complete -c skills -n "__fish_skills_needs_command" -f -a "completions" -d 'Print a shell completion script'
complete -c skills -n "__fish_skills_needs_command" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c skills -n "__fish_skills_using_subcommand add" -s s -l skill -d 'Skills to install (repeatable, or comma-separated; `*` for all)' -r
complete -c skills -n "__fish_skills_using_subcommand add" -s a -l agent -d 'Agents to install for, by id (repeatable, or comma-separated; `*` for all) [default: the agents whose dirs exist in the project, plus `.agents/skills`]' -r
complete -c skills -n "__fish_skills_using_subcommand add" -l subagent -d 'Eve subagents to install for (`agent/subagents/NAME/skills`; `root` for `agent/skills`)' -r
complete -c skills -n "__fish_skills_using_subcommand add" -l metadata -d 'Accepted for `npx skills` scripts and ignored: it only feeds telemetry, and `skills` sends none (the value must still be JSON)' -r
complete -c skills -n "__fish_skills_using_subcommand add" -l max-file-size -d 'Largest file a skill may contain' -r
complete -c skills -n "__fish_skills_using_subcommand add" -l max-skill-size -d 'Largest total size of a skill' -r
complete -c skills -n "__fish_skills_using_subcommand add" -l max-files -d 'Most files a skill (or a downloaded archive) may contain' -r
complete -c skills -n "__fish_skills_using_subcommand add" -l max-download-size -d 'Largest download of a web source (a SKILL.md or an archive)' -r
complete -c skills -n "__fish_skills_using_subcommand add" -l max-extracted-size -d 'Largest total a downloaded archive may unpack to' -r
complete -c skills -n "__fish_skills_using_subcommand add" -l allow -d 'Install even with findings of this rule (`security/remote-exec`; repeatable, or comma-separated); recorded per skill in `skills-lock.json`' -r
complete -c skills -n "__fish_skills_using_subcommand add" -l color -d 'When to use color (`NO_COLOR` is honoured)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c skills -n "__fish_skills_using_subcommand add" -s g -l global -d 'Work on the user\'s skills (`~/.agents/skills`, …) instead of the project\'s'
complete -c skills -n "__fish_skills_using_subcommand add" -l copy -d 'Copy into every agent dir instead of one copy in `.agents/skills` plus symlinks'
complete -c skills -n "__fish_skills_using_subcommand add" -s y -l yes -d 'Do not ask for confirmation'
complete -c skills -n "__fish_skills_using_subcommand add" -l all -d 'Shorthand for `--skill \'*\' --agent \'*\' --yes`'
complete -c skills -n "__fish_skills_using_subcommand add" -s l -l list -d 'List the skills the source offers and install nothing'
complete -c skills -n "__fish_skills_using_subcommand add" -l dry-run -d 'Print what would be installed where, and install nothing'
complete -c skills -n "__fish_skills_using_subcommand add" -l force -d 'Replace skill folders that `skills-lock.json` does not know (they may hold your edits)'
complete -c skills -n "__fish_skills_using_subcommand add" -l full-depth -d 'Search the whole source even when its root is a skill'
complete -c skills -n "__fish_skills_using_subcommand add" -l json -d 'Print one JSON document (`"version": 1`)'
complete -c skills -n "__fish_skills_using_subcommand add" -l no-verify -d 'Do not check skills before writing them (for this run only; not recorded)'
complete -c skills -n "__fish_skills_using_subcommand add" -s q -l quiet -d 'Print only data and errors'
complete -c skills -n "__fish_skills_using_subcommand add" -s v -l verbose -d 'Print more about what is done (repeat for more)'
complete -c skills -n "__fish_skills_using_subcommand add" -l no-progress -d 'Never draw progress bars'
complete -c skills -n "__fish_skills_using_subcommand add" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c skills -n "__fish_skills_using_subcommand add" -s V -l version -d 'Print version'
complete -c skills -n "__fish_skills_using_subcommand a" -s s -l skill -d 'Skills to install (repeatable, or comma-separated; `*` for all)' -r
complete -c skills -n "__fish_skills_using_subcommand a" -s a -l agent -d 'Agents to install for, by id (repeatable, or comma-separated; `*` for all) [default: the agents whose dirs exist in the project, plus `.agents/skills`]' -r
complete -c skills -n "__fish_skills_using_subcommand a" -l subagent -d 'Eve subagents to install for (`agent/subagents/NAME/skills`; `root` for `agent/skills`)' -r
complete -c skills -n "__fish_skills_using_subcommand a" -l metadata -d 'Accepted for `npx skills` scripts and ignored: it only feeds telemetry, and `skills` sends none (the value must still be JSON)' -r
complete -c skills -n "__fish_skills_using_subcommand a" -l max-file-size -d 'Largest file a skill may contain' -r
complete -c skills -n "__fish_skills_using_subcommand a" -l max-skill-size -d 'Largest total size of a skill' -r
complete -c skills -n "__fish_skills_using_subcommand a" -l max-files -d 'Most files a skill (or a downloaded archive) may contain' -r
complete -c skills -n "__fish_skills_using_subcommand a" -l max-download-size -d 'Largest download of a web source (a SKILL.md or an archive)' -r
complete -c skills -n "__fish_skills_using_subcommand a" -l max-extracted-size -d 'Largest total a downloaded archive may unpack to' -r
complete -c skills -n "__fish_skills_using_subcommand a" -l allow -d 'Install even with findings of this rule (`security/remote-exec`; repeatable, or comma-separated); recorded per skill in `skills-lock.json`' -r
complete -c skills -n "__fish_skills_using_subcommand a" -l color -d 'When to use color (`NO_COLOR` is honoured)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c skills -n "__fish_skills_using_subcommand a" -s g -l global -d 'Work on the user\'s skills (`~/.agents/skills`, …) instead of the project\'s'
complete -c skills -n "__fish_skills_using_subcommand a" -l copy -d 'Copy into every agent dir instead of one copy in `.agents/skills` plus symlinks'
complete -c skills -n "__fish_skills_using_subcommand a" -s y -l yes -d 'Do not ask for confirmation'
complete -c skills -n "__fish_skills_using_subcommand a" -l all -d 'Shorthand for `--skill \'*\' --agent \'*\' --yes`'
complete -c skills -n "__fish_skills_using_subcommand a" -s l -l list -d 'List the skills the source offers and install nothing'
complete -c skills -n "__fish_skills_using_subcommand a" -l dry-run -d 'Print what would be installed where, and install nothing'
complete -c skills -n "__fish_skills_using_subcommand a" -l force -d 'Replace skill folders that `skills-lock.json` does not know (they may hold your edits)'
complete -c skills -n "__fish_skills_using_subcommand a" -l full-depth -d 'Search the whole source even when its root is a skill'
complete -c skills -n "__fish_skills_using_subcommand a" -l json -d 'Print one JSON document (`"version": 1`)'
complete -c skills -n "__fish_skills_using_subcommand a" -l no-verify -d 'Do not check skills before writing them (for this run only; not recorded)'
complete -c skills -n "__fish_skills_using_subcommand a" -s q -l quiet -d 'Print only data and errors'
complete -c skills -n "__fish_skills_using_subcommand a" -s v -l verbose -d 'Print more about what is done (repeat for more)'
complete -c skills -n "__fish_skills_using_subcommand a" -l no-progress -d 'Never draw progress bars'
complete -c skills -n "__fish_skills_using_subcommand a" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c skills -n "__fish_skills_using_subcommand a" -s V -l version -d 'Print version'
complete -c skills -n "__fish_skills_using_subcommand remove" -s s -l skill -d 'Skills to remove, as with NAME (repeatable, or comma-separated; `*` for all)' -r
complete -c skills -n "__fish_skills_using_subcommand remove" -s a -l agent -d 'Remove only from these agents (repeatable, or comma-separated)' -r
complete -c skills -n "__fish_skills_using_subcommand remove" -l color -d 'When to use color (`NO_COLOR` is honoured)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c skills -n "__fish_skills_using_subcommand remove" -l all -d 'Remove every skill the lockfile lists, with its links (implies `--yes`); a folder no lock lists is removed only by name'
complete -c skills -n "__fish_skills_using_subcommand remove" -s g -l global -d 'Remove from the user\'s dirs instead of the project\'s'
complete -c skills -n "__fish_skills_using_subcommand remove" -s y -l yes -d 'Do not ask for confirmation'
complete -c skills -n "__fish_skills_using_subcommand remove" -l dry-run -d 'Print what would be removed, and remove nothing'
complete -c skills -n "__fish_skills_using_subcommand remove" -l json -d 'Print one JSON document (`"version": 1`)'
complete -c skills -n "__fish_skills_using_subcommand remove" -s q -l quiet -d 'Print only data and errors'
complete -c skills -n "__fish_skills_using_subcommand remove" -s v -l verbose -d 'Print more about what is done (repeat for more)'
complete -c skills -n "__fish_skills_using_subcommand remove" -l no-progress -d 'Never draw progress bars'
complete -c skills -n "__fish_skills_using_subcommand remove" -s h -l help -d 'Print help'
complete -c skills -n "__fish_skills_using_subcommand remove" -s V -l version -d 'Print version'
complete -c skills -n "__fish_skills_using_subcommand rm" -s s -l skill -d 'Skills to remove, as with NAME (repeatable, or comma-separated; `*` for all)' -r
complete -c skills -n "__fish_skills_using_subcommand rm" -s a -l agent -d 'Remove only from these agents (repeatable, or comma-separated)' -r
complete -c skills -n "__fish_skills_using_subcommand rm" -l color -d 'When to use color (`NO_COLOR` is honoured)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c skills -n "__fish_skills_using_subcommand rm" -l all -d 'Remove every skill the lockfile lists, with its links (implies `--yes`); a folder no lock lists is removed only by name'
complete -c skills -n "__fish_skills_using_subcommand rm" -s g -l global -d 'Remove from the user\'s dirs instead of the project\'s'
complete -c skills -n "__fish_skills_using_subcommand rm" -s y -l yes -d 'Do not ask for confirmation'
complete -c skills -n "__fish_skills_using_subcommand rm" -l dry-run -d 'Print what would be removed, and remove nothing'
complete -c skills -n "__fish_skills_using_subcommand rm" -l json -d 'Print one JSON document (`"version": 1`)'
complete -c skills -n "__fish_skills_using_subcommand rm" -s q -l quiet -d 'Print only data and errors'
complete -c skills -n "__fish_skills_using_subcommand rm" -s v -l verbose -d 'Print more about what is done (repeat for more)'
complete -c skills -n "__fish_skills_using_subcommand rm" -l no-progress -d 'Never draw progress bars'
complete -c skills -n "__fish_skills_using_subcommand rm" -s h -l help -d 'Print help'
complete -c skills -n "__fish_skills_using_subcommand rm" -s V -l version -d 'Print version'
complete -c skills -n "__fish_skills_using_subcommand r" -s s -l skill -d 'Skills to remove, as with NAME (repeatable, or comma-separated; `*` for all)' -r
complete -c skills -n "__fish_skills_using_subcommand r" -s a -l agent -d 'Remove only from these agents (repeatable, or comma-separated)' -r
complete -c skills -n "__fish_skills_using_subcommand r" -l color -d 'When to use color (`NO_COLOR` is honoured)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c skills -n "__fish_skills_using_subcommand r" -l all -d 'Remove every skill the lockfile lists, with its links (implies `--yes`); a folder no lock lists is removed only by name'
complete -c skills -n "__fish_skills_using_subcommand r" -s g -l global -d 'Remove from the user\'s dirs instead of the project\'s'
complete -c skills -n "__fish_skills_using_subcommand r" -s y -l yes -d 'Do not ask for confirmation'
complete -c skills -n "__fish_skills_using_subcommand r" -l dry-run -d 'Print what would be removed, and remove nothing'
complete -c skills -n "__fish_skills_using_subcommand r" -l json -d 'Print one JSON document (`"version": 1`)'
complete -c skills -n "__fish_skills_using_subcommand r" -s q -l quiet -d 'Print only data and errors'
complete -c skills -n "__fish_skills_using_subcommand r" -s v -l verbose -d 'Print more about what is done (repeat for more)'
complete -c skills -n "__fish_skills_using_subcommand r" -l no-progress -d 'Never draw progress bars'
complete -c skills -n "__fish_skills_using_subcommand r" -s h -l help -d 'Print help'
complete -c skills -n "__fish_skills_using_subcommand r" -s V -l version -d 'Print version'
complete -c skills -n "__fish_skills_using_subcommand list" -s a -l agent -d 'Only skills these agents read, by id (`-a claude-code codex`, repeatable, or comma-separated)' -r
complete -c skills -n "__fish_skills_using_subcommand list" -l color -d 'When to use color (`NO_COLOR` is honoured)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c skills -n "__fish_skills_using_subcommand list" -s g -l global -d 'List the user\'s skills (`~/.agents/skills`, `~/.claude/skills`, …) instead of the project\'s'
complete -c skills -n "__fish_skills_using_subcommand list" -l json -d 'Print one JSON document (`"version": 1`)'
complete -c skills -n "__fish_skills_using_subcommand list" -s q -l quiet -d 'Print only data and errors'
complete -c skills -n "__fish_skills_using_subcommand list" -s v -l verbose -d 'Print more about what is done (repeat for more)'
complete -c skills -n "__fish_skills_using_subcommand list" -l no-progress -d 'Never draw progress bars'
complete -c skills -n "__fish_skills_using_subcommand list" -s h -l help -d 'Print help'
complete -c skills -n "__fish_skills_using_subcommand list" -s V -l version -d 'Print version'
complete -c skills -n "__fish_skills_using_subcommand ls" -s a -l agent -d 'Only skills these agents read, by id (`-a claude-code codex`, repeatable, or comma-separated)' -r
complete -c skills -n "__fish_skills_using_subcommand ls" -l color -d 'When to use color (`NO_COLOR` is honoured)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c skills -n "__fish_skills_using_subcommand ls" -s g -l global -d 'List the user\'s skills (`~/.agents/skills`, `~/.claude/skills`, …) instead of the project\'s'
complete -c skills -n "__fish_skills_using_subcommand ls" -l json -d 'Print one JSON document (`"version": 1`)'
complete -c skills -n "__fish_skills_using_subcommand ls" -s q -l quiet -d 'Print only data and errors'
complete -c skills -n "__fish_skills_using_subcommand ls" -s v -l verbose -d 'Print more about what is done (repeat for more)'
complete -c skills -n "__fish_skills_using_subcommand ls" -l no-progress -d 'Never draw progress bars'
complete -c skills -n "__fish_skills_using_subcommand ls" -s h -l help -d 'Print help'
complete -c skills -n "__fish_skills_using_subcommand ls" -s V -l version -d 'Print version'
complete -c skills -n "__fish_skills_using_subcommand find" -l owner -d 'Only skills of this GitHub owner' -r
complete -c skills -n "__fish_skills_using_subcommand find" -l limit -d 'Most results' -r
complete -c skills -n "__fish_skills_using_subcommand find" -l color -d 'When to use color (`NO_COLOR` is honoured)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c skills -n "__fish_skills_using_subcommand find" -l json -d 'Print one JSON document (`"version": 1`)'
complete -c skills -n "__fish_skills_using_subcommand find" -s q -l quiet -d 'Print only data and errors'
complete -c skills -n "__fish_skills_using_subcommand find" -s v -l verbose -d 'Print more about what is done (repeat for more)'
complete -c skills -n "__fish_skills_using_subcommand find" -l no-progress -d 'Never draw progress bars'
complete -c skills -n "__fish_skills_using_subcommand find" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c skills -n "__fish_skills_using_subcommand find" -s V -l version -d 'Print version'
complete -c skills -n "__fish_skills_using_subcommand search" -l owner -d 'Only skills of this GitHub owner' -r
complete -c skills -n "__fish_skills_using_subcommand search" -l limit -d 'Most results' -r
complete -c skills -n "__fish_skills_using_subcommand search" -l color -d 'When to use color (`NO_COLOR` is honoured)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c skills -n "__fish_skills_using_subcommand search" -l json -d 'Print one JSON document (`"version": 1`)'
complete -c skills -n "__fish_skills_using_subcommand search" -s q -l quiet -d 'Print only data and errors'
complete -c skills -n "__fish_skills_using_subcommand search" -s v -l verbose -d 'Print more about what is done (repeat for more)'
complete -c skills -n "__fish_skills_using_subcommand search" -l no-progress -d 'Never draw progress bars'
complete -c skills -n "__fish_skills_using_subcommand search" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c skills -n "__fish_skills_using_subcommand search" -s V -l version -d 'Print version'
complete -c skills -n "__fish_skills_using_subcommand f" -l owner -d 'Only skills of this GitHub owner' -r
complete -c skills -n "__fish_skills_using_subcommand f" -l limit -d 'Most results' -r
complete -c skills -n "__fish_skills_using_subcommand f" -l color -d 'When to use color (`NO_COLOR` is honoured)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c skills -n "__fish_skills_using_subcommand f" -l json -d 'Print one JSON document (`"version": 1`)'
complete -c skills -n "__fish_skills_using_subcommand f" -s q -l quiet -d 'Print only data and errors'
complete -c skills -n "__fish_skills_using_subcommand f" -s v -l verbose -d 'Print more about what is done (repeat for more)'
complete -c skills -n "__fish_skills_using_subcommand f" -l no-progress -d 'Never draw progress bars'
complete -c skills -n "__fish_skills_using_subcommand f" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c skills -n "__fish_skills_using_subcommand f" -s V -l version -d 'Print version'
complete -c skills -n "__fish_skills_using_subcommand s" -l owner -d 'Only skills of this GitHub owner' -r
complete -c skills -n "__fish_skills_using_subcommand s" -l limit -d 'Most results' -r
complete -c skills -n "__fish_skills_using_subcommand s" -l color -d 'When to use color (`NO_COLOR` is honoured)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c skills -n "__fish_skills_using_subcommand s" -l json -d 'Print one JSON document (`"version": 1`)'
complete -c skills -n "__fish_skills_using_subcommand s" -s q -l quiet -d 'Print only data and errors'
complete -c skills -n "__fish_skills_using_subcommand s" -s v -l verbose -d 'Print more about what is done (repeat for more)'
complete -c skills -n "__fish_skills_using_subcommand s" -l no-progress -d 'Never draw progress bars'
complete -c skills -n "__fish_skills_using_subcommand s" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c skills -n "__fish_skills_using_subcommand s" -s V -l version -d 'Print version'
complete -c skills -n "__fish_skills_using_subcommand install" -s s -l skill -d 'Skills to install (repeatable, or comma-separated; `*` for all)' -r
complete -c skills -n "__fish_skills_using_subcommand install" -s a -l agent -d 'Agents to install for, by id (repeatable, or comma-separated; `*` for all) [default: the agents whose dirs exist in the project, plus `.agents/skills`]' -r
complete -c skills -n "__fish_skills_using_subcommand install" -l subagent -d 'Eve subagents to install for (`agent/subagents/NAME/skills`; `root` for `agent/skills`)' -r
complete -c skills -n "__fish_skills_using_subcommand install" -l metadata -d 'Accepted for `npx skills` scripts and ignored: it only feeds telemetry, and `skills` sends none (the value must still be JSON)' -r
complete -c skills -n "__fish_skills_using_subcommand install" -l max-file-size -d 'Largest file a skill may contain' -r
complete -c skills -n "__fish_skills_using_subcommand install" -l max-skill-size -d 'Largest total size of a skill' -r
complete -c skills -n "__fish_skills_using_subcommand install" -l max-files -d 'Most files a skill (or a downloaded archive) may contain' -r
complete -c skills -n "__fish_skills_using_subcommand install" -l max-download-size -d 'Largest download of a web source (a SKILL.md or an archive)' -r
complete -c skills -n "__fish_skills_using_subcommand install" -l max-extracted-size -d 'Largest total a downloaded archive may unpack to' -r
complete -c skills -n "__fish_skills_using_subcommand install" -l allow -d 'Install even with findings of this rule (`security/remote-exec`; repeatable, or comma-separated); recorded per skill in `skills-lock.json`' -r
complete -c skills -n "__fish_skills_using_subcommand install" -l color -d 'When to use color (`NO_COLOR` is honoured)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c skills -n "__fish_skills_using_subcommand install" -l frozen -d 'Fail (exit 1, nothing written) unless every skill is reproduced exactly as locked'
complete -c skills -n "__fish_skills_using_subcommand install" -l offline -d 'Restore from this machine only (the shared cache), never the network; name what cannot be restored (also `SKILLS_OFFLINE=1`)'
complete -c skills -n "__fish_skills_using_subcommand install" -s g -l global -d 'Work on the user\'s skills (`~/.agents/skills`, …) instead of the project\'s'
complete -c skills -n "__fish_skills_using_subcommand install" -l copy -d 'Copy into every agent dir instead of one copy in `.agents/skills` plus symlinks'
complete -c skills -n "__fish_skills_using_subcommand install" -s y -l yes -d 'Do not ask for confirmation'
complete -c skills -n "__fish_skills_using_subcommand install" -l all -d 'Shorthand for `--skill \'*\' --agent \'*\' --yes`'
complete -c skills -n "__fish_skills_using_subcommand install" -s l -l list -d 'List the skills the source offers and install nothing'
complete -c skills -n "__fish_skills_using_subcommand install" -l dry-run -d 'Print what would be installed where, and install nothing'
complete -c skills -n "__fish_skills_using_subcommand install" -l force -d 'Replace skill folders that `skills-lock.json` does not know (they may hold your edits)'
complete -c skills -n "__fish_skills_using_subcommand install" -l full-depth -d 'Search the whole source even when its root is a skill'
complete -c skills -n "__fish_skills_using_subcommand install" -l json -d 'Print one JSON document (`"version": 1`)'
complete -c skills -n "__fish_skills_using_subcommand install" -l no-verify -d 'Do not check skills before writing them (for this run only; not recorded)'
complete -c skills -n "__fish_skills_using_subcommand install" -s q -l quiet -d 'Print only data and errors'
complete -c skills -n "__fish_skills_using_subcommand install" -s v -l verbose -d 'Print more about what is done (repeat for more)'
complete -c skills -n "__fish_skills_using_subcommand install" -l no-progress -d 'Never draw progress bars'
complete -c skills -n "__fish_skills_using_subcommand install" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c skills -n "__fish_skills_using_subcommand install" -s V -l version -d 'Print version'
complete -c skills -n "__fish_skills_using_subcommand i" -s s -l skill -d 'Skills to install (repeatable, or comma-separated; `*` for all)' -r
complete -c skills -n "__fish_skills_using_subcommand i" -s a -l agent -d 'Agents to install for, by id (repeatable, or comma-separated; `*` for all) [default: the agents whose dirs exist in the project, plus `.agents/skills`]' -r
complete -c skills -n "__fish_skills_using_subcommand i" -l subagent -d 'Eve subagents to install for (`agent/subagents/NAME/skills`; `root` for `agent/skills`)' -r
complete -c skills -n "__fish_skills_using_subcommand i" -l metadata -d 'Accepted for `npx skills` scripts and ignored: it only feeds telemetry, and `skills` sends none (the value must still be JSON)' -r
complete -c skills -n "__fish_skills_using_subcommand i" -l max-file-size -d 'Largest file a skill may contain' -r
complete -c skills -n "__fish_skills_using_subcommand i" -l max-skill-size -d 'Largest total size of a skill' -r
complete -c skills -n "__fish_skills_using_subcommand i" -l max-files -d 'Most files a skill (or a downloaded archive) may contain' -r
complete -c skills -n "__fish_skills_using_subcommand i" -l max-download-size -d 'Largest download of a web source (a SKILL.md or an archive)' -r
complete -c skills -n "__fish_skills_using_subcommand i" -l max-extracted-size -d 'Largest total a downloaded archive may unpack to' -r
complete -c skills -n "__fish_skills_using_subcommand i" -l allow -d 'Install even with findings of this rule (`security/remote-exec`; repeatable, or comma-separated); recorded per skill in `skills-lock.json`' -r
complete -c skills -n "__fish_skills_using_subcommand i" -l color -d 'When to use color (`NO_COLOR` is honoured)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c skills -n "__fish_skills_using_subcommand i" -l frozen -d 'Fail (exit 1, nothing written) unless every skill is reproduced exactly as locked'
complete -c skills -n "__fish_skills_using_subcommand i" -l offline -d 'Restore from this machine only (the shared cache), never the network; name what cannot be restored (also `SKILLS_OFFLINE=1`)'
complete -c skills -n "__fish_skills_using_subcommand i" -s g -l global -d 'Work on the user\'s skills (`~/.agents/skills`, …) instead of the project\'s'
complete -c skills -n "__fish_skills_using_subcommand i" -l copy -d 'Copy into every agent dir instead of one copy in `.agents/skills` plus symlinks'
complete -c skills -n "__fish_skills_using_subcommand i" -s y -l yes -d 'Do not ask for confirmation'
complete -c skills -n "__fish_skills_using_subcommand i" -l all -d 'Shorthand for `--skill \'*\' --agent \'*\' --yes`'
complete -c skills -n "__fish_skills_using_subcommand i" -s l -l list -d 'List the skills the source offers and install nothing'
complete -c skills -n "__fish_skills_using_subcommand i" -l dry-run -d 'Print what would be installed where, and install nothing'
complete -c skills -n "__fish_skills_using_subcommand i" -l force -d 'Replace skill folders that `skills-lock.json` does not know (they may hold your edits)'
complete -c skills -n "__fish_skills_using_subcommand i" -l full-depth -d 'Search the whole source even when its root is a skill'
complete -c skills -n "__fish_skills_using_subcommand i" -l json -d 'Print one JSON document (`"version": 1`)'
complete -c skills -n "__fish_skills_using_subcommand i" -l no-verify -d 'Do not check skills before writing them (for this run only; not recorded)'
complete -c skills -n "__fish_skills_using_subcommand i" -s q -l quiet -d 'Print only data and errors'
complete -c skills -n "__fish_skills_using_subcommand i" -s v -l verbose -d 'Print more about what is done (repeat for more)'
complete -c skills -n "__fish_skills_using_subcommand i" -l no-progress -d 'Never draw progress bars'
complete -c skills -n "__fish_skills_using_subcommand i" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c skills -n "__fish_skills_using_subcommand i" -s V -l version -d 'Print version'
complete -c skills -n "__fish_skills_using_subcommand check" -l max-file-size -d 'Largest file a skill may contain' -r
complete -c skills -n "__fish_skills_using_subcommand check" -l max-skill-size -d 'Largest total size of a skill' -r
complete -c skills -n "__fish_skills_using_subcommand check" -l max-files -d 'Most files a skill (or a downloaded archive) may contain' -r
complete -c skills -n "__fish_skills_using_subcommand check" -l max-download-size -d 'Largest download of a web source (a SKILL.md or an archive)' -r
complete -c skills -n "__fish_skills_using_subcommand check" -l max-extracted-size -d 'Largest total a downloaded archive may unpack to' -r
complete -c skills -n "__fish_skills_using_subcommand check" -l color -d 'When to use color (`NO_COLOR` is honoured)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c skills -n "__fish_skills_using_subcommand check" -l exit-code -d 'Exit 1 when updates exist'
complete -c skills -n "__fish_skills_using_subcommand check" -s g -l global -d 'Check the user\'s skills instead of the project\'s'
complete -c skills -n "__fish_skills_using_subcommand check" -l json -d 'Print one JSON document (`"version": 1`)'
complete -c skills -n "__fish_skills_using_subcommand check" -s q -l quiet -d 'Print only data and errors'
complete -c skills -n "__fish_skills_using_subcommand check" -s v -l verbose -d 'Print more about what is done (repeat for more)'
complete -c skills -n "__fish_skills_using_subcommand check" -l no-progress -d 'Never draw progress bars'
complete -c skills -n "__fish_skills_using_subcommand check" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c skills -n "__fish_skills_using_subcommand check" -s V -l version -d 'Print version'
complete -c skills -n "__fish_skills_using_subcommand update" -l max-file-size -d 'Largest file a skill may contain' -r
complete -c skills -n "__fish_skills_using_subcommand update" -l max-skill-size -d 'Largest total size of a skill' -r
complete -c skills -n "__fish_skills_using_subcommand update" -l max-files -d 'Most files a skill (or a downloaded archive) may contain' -r
complete -c skills -n "__fish_skills_using_subcommand update" -l max-download-size -d 'Largest download of a web source (a SKILL.md or an archive)' -r
complete -c skills -n "__fish_skills_using_subcommand update" -l max-extracted-size -d 'Largest total a downloaded archive may unpack to' -r
complete -c skills -n "__fish_skills_using_subcommand update" -l allow -d 'Install even with findings of this rule (`security/remote-exec`; repeatable, or comma-separated); recorded per skill in `skills-lock.json`' -r
complete -c skills -n "__fish_skills_using_subcommand update" -l color -d 'When to use color (`NO_COLOR` is honoured)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c skills -n "__fish_skills_using_subcommand update" -s g -l global -d 'Update the user\'s skills [default: the project\'s when it has skills, else the user\'s]'
complete -c skills -n "__fish_skills_using_subcommand update" -s p -l project -d 'Update the project\'s skills (with `--global`: both)'
complete -c skills -n "__fish_skills_using_subcommand update" -s y -l yes -d 'Accepted for `npx skills` scripts: `skills update` never asks'
complete -c skills -n "__fish_skills_using_subcommand update" -l force -d 'Replace installed copies that were edited since they were installed'
complete -c skills -n "__fish_skills_using_subcommand update" -l json -d 'Print one JSON document (`"version": 1`)'
complete -c skills -n "__fish_skills_using_subcommand update" -l no-verify -d 'Do not check skills before writing them (for this run only; not recorded)'
complete -c skills -n "__fish_skills_using_subcommand update" -s q -l quiet -d 'Print only data and errors'
complete -c skills -n "__fish_skills_using_subcommand update" -s v -l verbose -d 'Print more about what is done (repeat for more)'
complete -c skills -n "__fish_skills_using_subcommand update" -l no-progress -d 'Never draw progress bars'
complete -c skills -n "__fish_skills_using_subcommand update" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c skills -n "__fish_skills_using_subcommand update" -s V -l version -d 'Print version'
complete -c skills -n "__fish_skills_using_subcommand upgrade" -l max-file-size -d 'Largest file a skill may contain' -r
complete -c skills -n "__fish_skills_using_subcommand upgrade" -l max-skill-size -d 'Largest total size of a skill' -r
complete -c skills -n "__fish_skills_using_subcommand upgrade" -l max-files -d 'Most files a skill (or a downloaded archive) may contain' -r
complete -c skills -n "__fish_skills_using_subcommand upgrade" -l max-download-size -d 'Largest download of a web source (a SKILL.md or an archive)' -r
complete -c skills -n "__fish_skills_using_subcommand upgrade" -l max-extracted-size -d 'Largest total a downloaded archive may unpack to' -r
complete -c skills -n "__fish_skills_using_subcommand upgrade" -l allow -d 'Install even with findings of this rule (`security/remote-exec`; repeatable, or comma-separated); recorded per skill in `skills-lock.json`' -r
complete -c skills -n "__fish_skills_using_subcommand upgrade" -l color -d 'When to use color (`NO_COLOR` is honoured)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c skills -n "__fish_skills_using_subcommand upgrade" -s g -l global -d 'Update the user\'s skills [default: the project\'s when it has skills, else the user\'s]'
complete -c skills -n "__fish_skills_using_subcommand upgrade" -s p -l project -d 'Update the project\'s skills (with `--global`: both)'
complete -c skills -n "__fish_skills_using_subcommand upgrade" -s y -l yes -d 'Accepted for `npx skills` scripts: `skills update` never asks'
complete -c skills -n "__fish_skills_using_subcommand upgrade" -l force -d 'Replace installed copies that were edited since they were installed'
complete -c skills -n "__fish_skills_using_subcommand upgrade" -l json -d 'Print one JSON document (`"version": 1`)'
complete -c skills -n "__fish_skills_using_subcommand upgrade" -l no-verify -d 'Do not check skills before writing them (for this run only; not recorded)'
complete -c skills -n "__fish_skills_using_subcommand upgrade" -s q -l quiet -d 'Print only data and errors'
complete -c skills -n "__fish_skills_using_subcommand upgrade" -s v -l verbose -d 'Print more about what is done (repeat for more)'
complete -c skills -n "__fish_skills_using_subcommand upgrade" -l no-progress -d 'Never draw progress bars'
complete -c skills -n "__fish_skills_using_subcommand upgrade" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c skills -n "__fish_skills_using_subcommand upgrade" -s V -l version -d 'Print version'
complete -c skills -n "__fish_skills_using_subcommand use" -s s -l skill -d 'The skill to use, when the source has several' -r
complete -c skills -n "__fish_skills_using_subcommand use" -s a -l agent -d 'Start this agent with the prompt instead of printing it (`claude-code`, `codex`, `sarvam-code`)' -r
complete -c skills -n "__fish_skills_using_subcommand use" -l max-file-size -d 'Largest file a skill may contain' -r
complete -c skills -n "__fish_skills_using_subcommand use" -l max-skill-size -d 'Largest total size of a skill' -r
complete -c skills -n "__fish_skills_using_subcommand use" -l max-files -d 'Most files a skill (or a downloaded archive) may contain' -r
complete -c skills -n "__fish_skills_using_subcommand use" -l max-download-size -d 'Largest download of a web source (a SKILL.md or an archive)' -r
complete -c skills -n "__fish_skills_using_subcommand use" -l max-extracted-size -d 'Largest total a downloaded archive may unpack to' -r
complete -c skills -n "__fish_skills_using_subcommand use" -l allow -d 'Install even with findings of this rule (`security/remote-exec`; repeatable, or comma-separated); recorded per skill in `skills-lock.json`' -r
complete -c skills -n "__fish_skills_using_subcommand use" -l color -d 'When to use color (`NO_COLOR` is honoured)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c skills -n "__fish_skills_using_subcommand use" -l full-depth -d 'Search the whole source even when its root is a skill'
complete -c skills -n "__fish_skills_using_subcommand use" -l json -d 'Print one JSON document (`"version": 1`) with the prompt and the skill\'s folder'
complete -c skills -n "__fish_skills_using_subcommand use" -l no-verify -d 'Do not check skills before writing them (for this run only; not recorded)'
complete -c skills -n "__fish_skills_using_subcommand use" -s q -l quiet -d 'Print only data and errors'
complete -c skills -n "__fish_skills_using_subcommand use" -s v -l verbose -d 'Print more about what is done (repeat for more)'
complete -c skills -n "__fish_skills_using_subcommand use" -l no-progress -d 'Never draw progress bars'
complete -c skills -n "__fish_skills_using_subcommand use" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c skills -n "__fish_skills_using_subcommand use" -s V -l version -d 'Print version'
complete -c skills -n "__fish_skills_using_subcommand sync" -s a -l agent -d 'Agents to install for, by id (repeatable, or comma-separated; `*` for all) [default: the agents whose dirs exist in the project, plus `.agents/skills`]' -r
complete -c skills -n "__fish_skills_using_subcommand sync" -l include -d 'Only these packages (`pkg`) or skills (`pkg#skill`); globs allowed (repeatable)' -r
complete -c skills -n "__fish_skills_using_subcommand sync" -l exclude -d 'Leave out these packages (`pkg`) or skills (`pkg#skill`); globs allowed (repeatable)' -r
complete -c skills -n "__fish_skills_using_subcommand sync" -l max-file-size -d 'Largest file a skill may contain' -r
complete -c skills -n "__fish_skills_using_subcommand sync" -l max-skill-size -d 'Largest total size of a skill' -r
complete -c skills -n "__fish_skills_using_subcommand sync" -l max-files -d 'Most files a skill (or a downloaded archive) may contain' -r
complete -c skills -n "__fish_skills_using_subcommand sync" -l max-download-size -d 'Largest download of a web source (a SKILL.md or an archive)' -r
complete -c skills -n "__fish_skills_using_subcommand sync" -l max-extracted-size -d 'Largest total a downloaded archive may unpack to' -r
complete -c skills -n "__fish_skills_using_subcommand sync" -l allow -d 'Install even with findings of this rule (`security/remote-exec`; repeatable, or comma-separated); recorded per skill in `skills-lock.json`' -r
complete -c skills -n "__fish_skills_using_subcommand sync" -l color -d 'When to use color (`NO_COLOR` is honoured)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c skills -n "__fish_skills_using_subcommand sync" -s y -l yes -d 'Do not ask for confirmation'
complete -c skills -n "__fish_skills_using_subcommand sync" -l copy -d 'Copy the skills instead of linking them into `node_modules`'
complete -c skills -n "__fish_skills_using_subcommand sync" -l dry-run -d 'Print what would change, and change nothing'
complete -c skills -n "__fish_skills_using_subcommand sync" -l no-cleanup -d 'Keep skills that no package ships any more'
complete -c skills -n "__fish_skills_using_subcommand sync" -l no-remote -d 'Accepted for `npx skills` scripts: git sources in a `skills` field are reported, not fetched (use `skills add` for them)'
complete -c skills -n "__fish_skills_using_subcommand sync" -s r -l recursive -d 'Also read the workspace packages (`workspaces` in package.json) and their dependencies'
complete -c skills -n "__fish_skills_using_subcommand sync" -l force -d 'Replace synced copies that were edited since they were synced (the edits are lost)'
complete -c skills -n "__fish_skills_using_subcommand sync" -l json -d 'Print one JSON document (`"version": 1`)'
complete -c skills -n "__fish_skills_using_subcommand sync" -l no-verify -d 'Do not check skills before writing them (for this run only; not recorded)'
complete -c skills -n "__fish_skills_using_subcommand sync" -s q -l quiet -d 'Print only data and errors'
complete -c skills -n "__fish_skills_using_subcommand sync" -s v -l verbose -d 'Print more about what is done (repeat for more)'
complete -c skills -n "__fish_skills_using_subcommand sync" -l no-progress -d 'Never draw progress bars'
complete -c skills -n "__fish_skills_using_subcommand sync" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c skills -n "__fish_skills_using_subcommand sync" -s V -l version -d 'Print version'
complete -c skills -n "__fish_skills_using_subcommand manifest" -l color -d 'When to use color (`NO_COLOR` is honoured)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c skills -n "__fish_skills_using_subcommand manifest" -l check -d 'Verify instead of writing: exit 1 when an installed skill differs from the lock'
complete -c skills -n "__fish_skills_using_subcommand manifest" -s g -l global -d 'Work on the user\'s skills and lock instead of the project\'s'
complete -c skills -n "__fish_skills_using_subcommand manifest" -l json -d 'Print JSON instead of a summary'
complete -c skills -n "__fish_skills_using_subcommand manifest" -s q -l quiet -d 'Print only data and errors'
complete -c skills -n "__fish_skills_using_subcommand manifest" -s v -l verbose -d 'Print more about what is done (repeat for more)'
complete -c skills -n "__fish_skills_using_subcommand manifest" -l no-progress -d 'Never draw progress bars'
complete -c skills -n "__fish_skills_using_subcommand manifest" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c skills -n "__fish_skills_using_subcommand manifest" -s V -l version -d 'Print version'
complete -c skills -n "__fish_skills_using_subcommand doctor" -l color -d 'When to use color (`NO_COLOR` is honoured)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c skills -n "__fish_skills_using_subcommand doctor" -s g -l global -d 'Check only the user\'s skills and lock (`~/.agents/skills`, …), not the project\'s'
complete -c skills -n "__fish_skills_using_subcommand doctor" -l json -d 'Print one JSON document (`"version": 1`)'
complete -c skills -n "__fish_skills_using_subcommand doctor" -s q -l quiet -d 'Print only data and errors'
complete -c skills -n "__fish_skills_using_subcommand doctor" -s v -l verbose -d 'Print more about what is done (repeat for more)'
complete -c skills -n "__fish_skills_using_subcommand doctor" -l no-progress -d 'Never draw progress bars'
complete -c skills -n "__fish_skills_using_subcommand doctor" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c skills -n "__fish_skills_using_subcommand doctor" -s V -l version -d 'Print version'
complete -c skills -n "__fish_skills_using_subcommand lint" -l include -d 'Only skills whose name matches this glob (repeatable)' -r
complete -c skills -n "__fish_skills_using_subcommand lint" -l exclude -d 'Leave out skills whose name matches this glob (repeatable)' -r
complete -c skills -n "__fish_skills_using_subcommand lint" -l format -d 'Output format' -r -f -a "human\t'Compiler-style diagnostics with a summary'
json\t'One JSON document (`"version": 1`)'
github\t'GitHub Actions workflow annotations'
sarif\t'SARIF 2.1.0 for code scanning'"
complete -c skills -n "__fish_skills_using_subcommand lint" -s A -l allow -d 'Turn a rule or a family off (`quality/body-too-long`, `body-too-long`, `quality`; repeatable)' -r
complete -c skills -n "__fish_skills_using_subcommand lint" -l explain -d 'Print the documentation of a rule and exit' -r
complete -c skills -n "__fish_skills_using_subcommand lint" -l max-file-size -d 'Largest size of one file, e.g. `1MiB`, `500KB`, `2000`' -r
complete -c skills -n "__fish_skills_using_subcommand lint" -l max-skill-size -d 'Largest total size of one skill folder' -r
complete -c skills -n "__fish_skills_using_subcommand lint" -l max-files -d 'Largest number of files in one skill folder' -r
complete -c skills -n "__fish_skills_using_subcommand lint" -l color -d 'When to use color (`NO_COLOR` is honoured)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c skills -n "__fish_skills_using_subcommand lint" -s g -l global -d 'Use only the user\'s agent dirs (`~/.agents/skills`, `~/.claude/skills`, …)'
complete -c skills -n "__fish_skills_using_subcommand lint" -l strict -d 'Treat warnings as errors'
complete -c skills -n "__fish_skills_using_subcommand lint" -l list-rules -d 'Print every rule with its code and default severity and exit'
complete -c skills -n "__fish_skills_using_subcommand lint" -l changed -d 'The PATHs are changed files (as pre-commit passes them): lint each skill that holds one, and ignore files outside skills'
complete -c skills -n "__fish_skills_using_subcommand lint" -s q -l quiet -d 'Print only data and errors'
complete -c skills -n "__fish_skills_using_subcommand lint" -s v -l verbose -d 'Print more about what is done (repeat for more)'
complete -c skills -n "__fish_skills_using_subcommand lint" -l no-progress -d 'Never draw progress bars'
complete -c skills -n "__fish_skills_using_subcommand lint" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c skills -n "__fish_skills_using_subcommand lint" -s V -l version -d 'Print version'
complete -c skills -n "__fish_skills_using_subcommand init" -l color -d 'When to use color (`NO_COLOR` is honoured)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c skills -n "__fish_skills_using_subcommand init" -s q -l quiet -d 'Print only data and errors'
complete -c skills -n "__fish_skills_using_subcommand init" -s v -l verbose -d 'Print more about what is done (repeat for more)'
complete -c skills -n "__fish_skills_using_subcommand init" -l no-progress -d 'Never draw progress bars'
complete -c skills -n "__fish_skills_using_subcommand init" -s h -l help -d 'Print help'
complete -c skills -n "__fish_skills_using_subcommand init" -s V -l version -d 'Print version'
complete -c skills -n "__fish_skills_using_subcommand prompt" -l include -d 'Only skills whose name matches this glob (repeatable)' -r
complete -c skills -n "__fish_skills_using_subcommand prompt" -l exclude -d 'Leave out skills whose name matches this glob (repeatable)' -r
complete -c skills -n "__fish_skills_using_subcommand prompt" -l format -d 'Output format' -r -f -a "xml\t'`<available_skills>` as in the agentskills.io client guide'
skills-ref\t'Byte for byte what `skills-ref to-prompt` prints (hidden skills included, as there)'
json\t'One JSON document (`"version": 1`)'
markdown\t'`- **name**: description` lines'
router\t'Level 1 of the router/specialist design: catalog, `view_skill` tool, routing rules'
specialist\t'Level 2 of the router/specialist design: one skill with its tools and resources (needs `--skill`)'"
complete -c skills -n "__fish_skills_using_subcommand prompt" -l skill -d 'Print the activation block of this skill instead of the catalog (repeatable)' -r
complete -c skills -n "__fish_skills_using_subcommand prompt" -l write -d 'Put the output between `<!-- skills:start -->` and `<!-- skills:end -->` in FILE' -r -F
complete -c skills -n "__fish_skills_using_subcommand prompt" -l template -d 'Render this Jinja2 template instead of a built-in format' -r -F
complete -c skills -n "__fish_skills_using_subcommand prompt" -l tools -d 'Universal tools for templates: a JSON list of MCP tool definitions' -r -F
complete -c skills -n "__fish_skills_using_subcommand prompt" -l resources -d 'Global resources for templates: a JSON list of MCP resources' -r -F
complete -c skills -n "__fish_skills_using_subcommand prompt" -l color -d 'When to use color (`NO_COLOR` is honoured)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c skills -n "__fish_skills_using_subcommand prompt" -s g -l global -d 'Use only the user\'s agent dirs (`~/.agents/skills`, `~/.claude/skills`, …)'
complete -c skills -n "__fish_skills_using_subcommand prompt" -l uri -d 'Show `skill://<name>/SKILL.md` URIs (what `skills serve` exposes) instead of paths'
complete -c skills -n "__fish_skills_using_subcommand prompt" -l strict -d 'Fail when a skill cannot be read (by default it is skipped with a warning)'
complete -c skills -n "__fish_skills_using_subcommand prompt" -l all -d 'Include skills hidden from models (`disable-model-invocation: true`, `metadata.internal: true`)'
complete -c skills -n "__fish_skills_using_subcommand prompt" -s q -l quiet -d 'Print only data and errors'
complete -c skills -n "__fish_skills_using_subcommand prompt" -s v -l verbose -d 'Print more about what is done (repeat for more)'
complete -c skills -n "__fish_skills_using_subcommand prompt" -l no-progress -d 'Never draw progress bars'
complete -c skills -n "__fish_skills_using_subcommand prompt" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c skills -n "__fish_skills_using_subcommand prompt" -s V -l version -d 'Print version'
complete -c skills -n "__fish_skills_using_subcommand serve" -l include -d 'Only skills whose name matches this glob (repeatable)' -r
complete -c skills -n "__fish_skills_using_subcommand serve" -l exclude -d 'Leave out skills whose name matches this glob (repeatable)' -r
complete -c skills -n "__fish_skills_using_subcommand serve" -l max-file-size -d 'Largest file served' -r
complete -c skills -n "__fish_skills_using_subcommand serve" -l color -d 'When to use color (`NO_COLOR` is honoured)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c skills -n "__fish_skills_using_subcommand serve" -l stdio -d 'Speak MCP over stdin and stdout (the only transport; accepted for clarity)'
complete -c skills -n "__fish_skills_using_subcommand serve" -s g -l global -d 'Use only the user\'s agent dirs (`~/.agents/skills`, `~/.claude/skills`, …)'
complete -c skills -n "__fish_skills_using_subcommand serve" -l no-watch -d 'Do not watch the roots for changes'
complete -c skills -n "__fish_skills_using_subcommand serve" -s q -l quiet -d 'Print only data and errors'
complete -c skills -n "__fish_skills_using_subcommand serve" -s v -l verbose -d 'Print more about what is done (repeat for more)'
complete -c skills -n "__fish_skills_using_subcommand serve" -l no-progress -d 'Never draw progress bars'
complete -c skills -n "__fish_skills_using_subcommand serve" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c skills -n "__fish_skills_using_subcommand serve" -s V -l version -d 'Print version'
complete -c skills -n "__fish_skills_using_subcommand cache; and not __fish_seen_subcommand_from dir clean prune help" -l color -d 'When to use color (`NO_COLOR` is honoured)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c skills -n "__fish_skills_using_subcommand cache; and not __fish_seen_subcommand_from dir clean prune help" -s q -l quiet -d 'Print only data and errors'
complete -c skills -n "__fish_skills_using_subcommand cache; and not __fish_seen_subcommand_from dir clean prune help" -s v -l verbose -d 'Print more about what is done (repeat for more)'
complete -c skills -n "__fish_skills_using_subcommand cache; and not __fish_seen_subcommand_from dir clean prune help" -l no-progress -d 'Never draw progress bars'
complete -c skills -n "__fish_skills_using_subcommand cache; and not __fish_seen_subcommand_from dir clean prune help" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c skills -n "__fish_skills_using_subcommand cache; and not __fish_seen_subcommand_from dir clean prune help" -s V -l version -d 'Print version'
complete -c skills -n "__fish_skills_using_subcommand cache; and not __fish_seen_subcommand_from dir clean prune help" -f -a "dir" -d 'Print the path of the cache'
complete -c skills -n "__fish_skills_using_subcommand cache; and not __fish_seen_subcommand_from dir clean prune help" -f -a "clean" -d 'Remove the cached repositories and the store (everything is fetched again when needed)'
complete -c skills -n "__fish_skills_using_subcommand cache; and not __fish_seen_subcommand_from dir clean prune help" -f -a "prune" -d 'Remove what was not used for some days: cached repositories, stored skills, and the files no remaining stored skill uses'
complete -c skills -n "__fish_skills_using_subcommand cache; and not __fish_seen_subcommand_from dir clean prune help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c skills -n "__fish_skills_using_subcommand cache; and __fish_seen_subcommand_from dir" -l color -d 'When to use color (`NO_COLOR` is honoured)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c skills -n "__fish_skills_using_subcommand cache; and __fish_seen_subcommand_from dir" -s q -l quiet -d 'Print only data and errors'
complete -c skills -n "__fish_skills_using_subcommand cache; and __fish_seen_subcommand_from dir" -s v -l verbose -d 'Print more about what is done (repeat for more)'
complete -c skills -n "__fish_skills_using_subcommand cache; and __fish_seen_subcommand_from dir" -l no-progress -d 'Never draw progress bars'
complete -c skills -n "__fish_skills_using_subcommand cache; and __fish_seen_subcommand_from dir" -s h -l help -d 'Print help'
complete -c skills -n "__fish_skills_using_subcommand cache; and __fish_seen_subcommand_from dir" -s V -l version -d 'Print version'
complete -c skills -n "__fish_skills_using_subcommand cache; and __fish_seen_subcommand_from clean" -l color -d 'When to use color (`NO_COLOR` is honoured)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c skills -n "__fish_skills_using_subcommand cache; and __fish_seen_subcommand_from clean" -s q -l quiet -d 'Print only data and errors'
complete -c skills -n "__fish_skills_using_subcommand cache; and __fish_seen_subcommand_from clean" -s v -l verbose -d 'Print more about what is done (repeat for more)'
complete -c skills -n "__fish_skills_using_subcommand cache; and __fish_seen_subcommand_from clean" -l no-progress -d 'Never draw progress bars'
complete -c skills -n "__fish_skills_using_subcommand cache; and __fish_seen_subcommand_from clean" -s h -l help -d 'Print help'
complete -c skills -n "__fish_skills_using_subcommand cache; and __fish_seen_subcommand_from clean" -s V -l version -d 'Print version'
complete -c skills -n "__fish_skills_using_subcommand cache; and __fish_seen_subcommand_from prune" -l days -d 'Keep what was used within this many days' -r
complete -c skills -n "__fish_skills_using_subcommand cache; and __fish_seen_subcommand_from prune" -l color -d 'When to use color (`NO_COLOR` is honoured)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c skills -n "__fish_skills_using_subcommand cache; and __fish_seen_subcommand_from prune" -s q -l quiet -d 'Print only data and errors'
complete -c skills -n "__fish_skills_using_subcommand cache; and __fish_seen_subcommand_from prune" -s v -l verbose -d 'Print more about what is done (repeat for more)'
complete -c skills -n "__fish_skills_using_subcommand cache; and __fish_seen_subcommand_from prune" -l no-progress -d 'Never draw progress bars'
complete -c skills -n "__fish_skills_using_subcommand cache; and __fish_seen_subcommand_from prune" -s h -l help -d 'Print help'
complete -c skills -n "__fish_skills_using_subcommand cache; and __fish_seen_subcommand_from prune" -s V -l version -d 'Print version'
complete -c skills -n "__fish_skills_using_subcommand cache; and __fish_seen_subcommand_from help" -f -a "dir" -d 'Print the path of the cache'
complete -c skills -n "__fish_skills_using_subcommand cache; and __fish_seen_subcommand_from help" -f -a "clean" -d 'Remove the cached repositories and the store (everything is fetched again when needed)'
complete -c skills -n "__fish_skills_using_subcommand cache; and __fish_seen_subcommand_from help" -f -a "prune" -d 'Remove what was not used for some days: cached repositories, stored skills, and the files no remaining stored skill uses'
complete -c skills -n "__fish_skills_using_subcommand cache; and __fish_seen_subcommand_from help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c skills -n "__fish_skills_using_subcommand completions" -l color -d 'When to use color (`NO_COLOR` is honoured)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c skills -n "__fish_skills_using_subcommand completions" -s q -l quiet -d 'Print only data and errors'
complete -c skills -n "__fish_skills_using_subcommand completions" -s v -l verbose -d 'Print more about what is done (repeat for more)'
complete -c skills -n "__fish_skills_using_subcommand completions" -l no-progress -d 'Never draw progress bars'
complete -c skills -n "__fish_skills_using_subcommand completions" -s h -l help -d 'Print help'
complete -c skills -n "__fish_skills_using_subcommand completions" -s V -l version -d 'Print version'
complete -c skills -n "__fish_skills_using_subcommand help; and not __fish_seen_subcommand_from add remove list find install check update use sync manifest doctor lint init prompt serve cache completions help" -f -a "add" -d 'Install skills from a repository, URL or folder into agent dirs'
complete -c skills -n "__fish_skills_using_subcommand help; and not __fish_seen_subcommand_from add remove list find install check update use sync manifest doctor lint init prompt serve cache completions help" -f -a "remove" -d 'Remove installed skills and their lock entries'
complete -c skills -n "__fish_skills_using_subcommand help; and not __fish_seen_subcommand_from add remove list find install check update use sync manifest doctor lint init prompt serve cache completions help" -f -a "list" -d 'List installed skills: name, agents, source, path'
complete -c skills -n "__fish_skills_using_subcommand help; and not __fish_seen_subcommand_from add remove list find install check update use sync manifest doctor lint init prompt serve cache completions help" -f -a "find" -d 'Search the skills.sh directory'
complete -c skills -n "__fish_skills_using_subcommand help; and not __fish_seen_subcommand_from add remove list find install check update use sync manifest doctor lint init prompt serve cache completions help" -f -a "install" -d 'Restore every skill in `skills-lock.json` at its locked commit and hash (like `npm ci`); with a SOURCE, the same as `skills add SOURCE`'
complete -c skills -n "__fish_skills_using_subcommand help; and not __fish_seen_subcommand_from add remove list find install check update use sync manifest doctor lint init prompt serve cache completions help" -f -a "check" -d 'Read-only: which locked skills have upstream changes'
complete -c skills -n "__fish_skills_using_subcommand help; and not __fish_seen_subcommand_from add remove list find install check update use sync manifest doctor lint init prompt serve cache completions help" -f -a "update" -d 'Apply upstream changes to locked skills, keeping their agents and copy/symlink mode'
complete -c skills -n "__fish_skills_using_subcommand help; and not __fish_seen_subcommand_from add remove list find install check update use sync manifest doctor lint init prompt serve cache completions help" -f -a "use" -d 'Print the activation prompt of one skill of a source, without installing it'
complete -c skills -n "__fish_skills_using_subcommand help; and not __fish_seen_subcommand_from add remove list find install check update use sync manifest doctor lint init prompt serve cache completions help" -f -a "sync" -d 'Install the skills that packages in `node_modules` ship into agent dirs'
complete -c skills -n "__fish_skills_using_subcommand help; and not __fish_seen_subcommand_from add remove list find install check update use sync manifest doctor lint init prompt serve cache completions help" -f -a "manifest" -d 'Record (or verify) the files and hashes of every installed skill in `skills-lock.json`'
complete -c skills -n "__fish_skills_using_subcommand help; and not __fish_seen_subcommand_from add remove list find install check update use sync manifest doctor lint init prompt serve cache completions help" -f -a "doctor" -d 'Find what is wrong with installed skills: broken links, lock drift, shadowing, stale cache'
complete -c skills -n "__fish_skills_using_subcommand help; and not __fish_seen_subcommand_from add remove list find install check update use sync manifest doctor lint init prompt serve cache completions help" -f -a "lint" -d 'Validate skills: the open spec, portability, quality, size and security'
complete -c skills -n "__fish_skills_using_subcommand help; and not __fish_seen_subcommand_from add remove list find install check update use sync manifest doctor lint init prompt serve cache completions help" -f -a "init" -d 'Create a new skill that passes `skills lint --strict`'
complete -c skills -n "__fish_skills_using_subcommand help; and not __fish_seen_subcommand_from add remove list find install check update use sync manifest doctor lint init prompt serve cache completions help" -f -a "prompt" -d 'Print the `<available_skills>` block (or one skill\'s activation block) for a system prompt'
complete -c skills -n "__fish_skills_using_subcommand help; and not __fish_seen_subcommand_from add remove list find install check update use sync manifest doctor lint init prompt serve cache completions help" -f -a "serve" -d 'Serve skills to MCP clients over stdio (resources, tools, prompts, the Skills extension)'
complete -c skills -n "__fish_skills_using_subcommand help; and not __fish_seen_subcommand_from add remove list find install check update use sync manifest doctor lint init prompt serve cache completions help" -f -a "cache" -d 'Show, clean or prune the cache shared by every project (git clones and the file store)'
complete -c skills -n "__fish_skills_using_subcommand help; and not __fish_seen_subcommand_from add remove list find install check update use sync manifest doctor lint init prompt serve cache completions help" -f -a "completions" -d 'Print a shell completion script'
complete -c skills -n "__fish_skills_using_subcommand help; and not __fish_seen_subcommand_from add remove list find install check update use sync manifest doctor lint init prompt serve cache completions help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c skills -n "__fish_skills_using_subcommand help; and __fish_seen_subcommand_from cache" -f -a "dir" -d 'Print the path of the cache'
complete -c skills -n "__fish_skills_using_subcommand help; and __fish_seen_subcommand_from cache" -f -a "clean" -d 'Remove the cached repositories and the store (everything is fetched again when needed)'
complete -c skills -n "__fish_skills_using_subcommand help; and __fish_seen_subcommand_from cache" -f -a "prune" -d 'Remove what was not used for some days: cached repositories, stored skills, and the files no remaining stored skill uses'
