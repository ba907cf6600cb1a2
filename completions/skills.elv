
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
            cand lint 'Validate skills: the open spec, portability, quality, size and security'
            cand completions 'Print a shell completion script'
            cand help 'Print this message or the help of the given subcommand(s)'
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
            cand lint 'Validate skills: the open spec, portability, quality, size and security'
            cand completions 'Print a shell completion script'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'skills;help;lint'= {
        }
        &'skills;help;completions'= {
        }
        &'skills;help;help'= {
        }
    ]
    $completions[$command]
}
