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
complete -c skills -n "__fish_skills_needs_command" -f -a "lint" -d 'Validate skills: the open spec, portability, quality, size and security'
complete -c skills -n "__fish_skills_needs_command" -f -a "prompt" -d 'Print the `<available_skills>` block (or one skill\'s activation block) for a system prompt'
complete -c skills -n "__fish_skills_needs_command" -f -a "list" -d 'List installed skills: name, agents, source, path'
complete -c skills -n "__fish_skills_needs_command" -f -a "ls" -d 'List installed skills: name, agents, source, path'
complete -c skills -n "__fish_skills_needs_command" -f -a "init" -d 'Create a new skill that passes `skills lint --strict`'
complete -c skills -n "__fish_skills_needs_command" -f -a "completions" -d 'Print a shell completion script'
complete -c skills -n "__fish_skills_needs_command" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
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
complete -c skills -n "__fish_skills_using_subcommand lint" -s q -l quiet -d 'Print only data and errors'
complete -c skills -n "__fish_skills_using_subcommand lint" -s v -l verbose -d 'Print more about what is done (repeat for more)'
complete -c skills -n "__fish_skills_using_subcommand lint" -l no-progress -d 'Never draw progress bars'
complete -c skills -n "__fish_skills_using_subcommand lint" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c skills -n "__fish_skills_using_subcommand lint" -s V -l version -d 'Print version'
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
complete -c skills -n "__fish_skills_using_subcommand list" -s a -l agent -d 'Only skills installed for this agent (an id such as `claude-code`; repeatable)' -r
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
complete -c skills -n "__fish_skills_using_subcommand ls" -s a -l agent -d 'Only skills installed for this agent (an id such as `claude-code`; repeatable)' -r
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
complete -c skills -n "__fish_skills_using_subcommand init" -l color -d 'When to use color (`NO_COLOR` is honoured)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c skills -n "__fish_skills_using_subcommand init" -s q -l quiet -d 'Print only data and errors'
complete -c skills -n "__fish_skills_using_subcommand init" -s v -l verbose -d 'Print more about what is done (repeat for more)'
complete -c skills -n "__fish_skills_using_subcommand init" -l no-progress -d 'Never draw progress bars'
complete -c skills -n "__fish_skills_using_subcommand init" -s h -l help -d 'Print help'
complete -c skills -n "__fish_skills_using_subcommand init" -s V -l version -d 'Print version'
complete -c skills -n "__fish_skills_using_subcommand completions" -l color -d 'When to use color (`NO_COLOR` is honoured)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c skills -n "__fish_skills_using_subcommand completions" -s q -l quiet -d 'Print only data and errors'
complete -c skills -n "__fish_skills_using_subcommand completions" -s v -l verbose -d 'Print more about what is done (repeat for more)'
complete -c skills -n "__fish_skills_using_subcommand completions" -l no-progress -d 'Never draw progress bars'
complete -c skills -n "__fish_skills_using_subcommand completions" -s h -l help -d 'Print help'
complete -c skills -n "__fish_skills_using_subcommand completions" -s V -l version -d 'Print version'
complete -c skills -n "__fish_skills_using_subcommand help; and not __fish_seen_subcommand_from lint prompt list init completions help" -f -a "lint" -d 'Validate skills: the open spec, portability, quality, size and security'
complete -c skills -n "__fish_skills_using_subcommand help; and not __fish_seen_subcommand_from lint prompt list init completions help" -f -a "prompt" -d 'Print the `<available_skills>` block (or one skill\'s activation block) for a system prompt'
complete -c skills -n "__fish_skills_using_subcommand help; and not __fish_seen_subcommand_from lint prompt list init completions help" -f -a "list" -d 'List installed skills: name, agents, source, path'
complete -c skills -n "__fish_skills_using_subcommand help; and not __fish_seen_subcommand_from lint prompt list init completions help" -f -a "init" -d 'Create a new skill that passes `skills lint --strict`'
complete -c skills -n "__fish_skills_using_subcommand help; and not __fish_seen_subcommand_from lint prompt list init completions help" -f -a "completions" -d 'Print a shell completion script'
complete -c skills -n "__fish_skills_using_subcommand help; and not __fish_seen_subcommand_from lint prompt list init completions help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
