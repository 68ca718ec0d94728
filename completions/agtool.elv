
use builtin;
use str;

set edit:completion:arg-completer[agtool] = {|@words|
    fn spaces {|n|
        builtin:repeat $n ' ' | str:join ''
    }
    fn cand {|text desc|
        edit:complex-candidate $text &display=$text' '(spaces (- 14 (wcswidth $text)))$desc
    }
    var command = 'agtool'
    for word $words[1..-1] {
        if (str:has-prefix $word '-') {
            break
        }
        set command = $command';'$word
    }
    var completions = [
        &'agtool'= {
            cand --root 'Workspace root [env: AGTOOL_ROOT] (default: nearest .agent-state/, then .git, then the current directory)'
            cand --agent 'Agent identity keying the freshness table [env: AGTOOL_AGENT] [default: default]'
            cand --config 'Extra configuration file layered over the others [env: AGTOOL_CONFIG]'
            cand --groups 'Tool groups enabled for call and schema, e.g. files,edit or all [env: AGTOOL_GROUPS]'
            cand --timeout-ms 'Override every tool''s default timeout, in milliseconds'
            cand --json 'Print one JSON object {ok, output, error, ...} instead of text'
            cand --no-freshness 'Turn the freshness gate off [env: AGTOOL_FRESHNESS=off]'
            cand --no-syntax-check 'Turn the syntax gate off [env: AGTOOL_SYNTAX_CHECK=off]'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
            cand read-file 'Arguments of read-file'
            cand list-dir 'Arguments of list-dir'
            cand write-file 'Arguments of write-file'
            cand schema 'Print the tool definitions (JSON Schema) for an agent host'
            cand call 'Run a tool with its JSON arguments (or a tool-call envelope) read from stdin'
            cand state 'Inspect or clear the freshness table in .agent-state/'
            cand completions 'Print shell completions (bash, zsh, fish, elvish, powershell)'
            cand man 'Print the manual page (roff)'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'agtool;read-file'= {
            cand --offset 'First line to show, 1-based (default 1)'
            cand --limit 'Most lines to show (default 2000)'
            cand --mode 'slice (default) or indentation'
            cand --indentation 'Indentation-mode options, as a JSON object on the command line'
            cand --anchors 'Print each line as <n>:<hh>|text, anchors for edit-lines (default false)'
            cand --tail 'Show the last N lines instead (cannot be combined with offset; CLI default 400)'
            cand --args 'All arguments as one JSON object (- reads it from stdin, @FILE from a file)'
            cand --root 'Workspace root [env: AGTOOL_ROOT] (default: nearest .agent-state/, then .git, then the current directory)'
            cand --agent 'Agent identity keying the freshness table [env: AGTOOL_AGENT] [default: default]'
            cand --config 'Extra configuration file layered over the others [env: AGTOOL_CONFIG]'
            cand --groups 'Tool groups enabled for call and schema, e.g. files,edit or all [env: AGTOOL_GROUPS]'
            cand --timeout-ms 'Override every tool''s default timeout, in milliseconds'
            cand --json 'Print one JSON object {ok, output, error, ...} instead of text'
            cand --no-freshness 'Turn the freshness gate off [env: AGTOOL_FRESHNESS=off]'
            cand --no-syntax-check 'Turn the syntax gate off [env: AGTOOL_SYNTAX_CHECK=off]'
            cand -h 'Print help'
            cand --help 'Print help'
        }
        &'agtool;list-dir'= {
            cand --offset 'First entry to show, 1-based, in tree order (default 1)'
            cand --limit 'Most entries to show (default 25)'
            cand --depth 'How many levels deep to list (default 2)'
            cand --hidden 'Include hidden entries (default true)'
            cand --ignored 'Include entries matched by .gitignore/.ignore rules (default false)'
            cand --args 'All arguments as one JSON object (- reads it from stdin, @FILE from a file)'
            cand --root 'Workspace root [env: AGTOOL_ROOT] (default: nearest .agent-state/, then .git, then the current directory)'
            cand --agent 'Agent identity keying the freshness table [env: AGTOOL_AGENT] [default: default]'
            cand --config 'Extra configuration file layered over the others [env: AGTOOL_CONFIG]'
            cand --groups 'Tool groups enabled for call and schema, e.g. files,edit or all [env: AGTOOL_GROUPS]'
            cand --timeout-ms 'Override every tool''s default timeout, in milliseconds'
            cand --json 'Print one JSON object {ok, output, error, ...} instead of text'
            cand --no-freshness 'Turn the freshness gate off [env: AGTOOL_FRESHNESS=off]'
            cand --no-syntax-check 'Turn the syntax gate off [env: AGTOOL_SYNTAX_CHECK=off]'
            cand -h 'Print help'
            cand --help 'Print help'
        }
        &'agtool;write-file'= {
            cand --content 'The whole new content (CLI: --content, or stdin). Written exactly as given; in an existing file, line breaks take the file''s own line ending and encoding'
            cand --overwrite 'Replace an existing file (default true); false refuses when the file exists'
            cand --expected-mtime 'Refuse unless the file''s modification time is this (RFC 3339, or integer ms since the Unix epoch)'
            cand --expected-size 'Refuse unless the file''s size is this many bytes'
            cand --allow-placeholders 'Write even when the new content looks like it elides code with a placeholder comment such as `// ... rest of code` (default false)'
            cand --check-syntax 'Refuse a write that adds syntax errors (default true)'
            cand --dry-run 'Show the diff, write nothing (default false)'
            cand --args 'All arguments as one JSON object (- reads it from stdin, @FILE from a file)'
            cand --root 'Workspace root [env: AGTOOL_ROOT] (default: nearest .agent-state/, then .git, then the current directory)'
            cand --agent 'Agent identity keying the freshness table [env: AGTOOL_AGENT] [default: default]'
            cand --config 'Extra configuration file layered over the others [env: AGTOOL_CONFIG]'
            cand --groups 'Tool groups enabled for call and schema, e.g. files,edit or all [env: AGTOOL_GROUPS]'
            cand --timeout-ms 'Override every tool''s default timeout, in milliseconds'
            cand --json 'Print one JSON object {ok, output, error, ...} instead of text'
            cand --no-freshness 'Turn the freshness gate off [env: AGTOOL_FRESHNESS=off]'
            cand --no-syntax-check 'Turn the syntax gate off [env: AGTOOL_SYNTAX_CHECK=off]'
            cand -h 'Print help'
            cand --help 'Print help'
        }
        &'agtool;schema'= {
            cand --format 'The shape of each definition'
            cand --root 'Workspace root [env: AGTOOL_ROOT] (default: nearest .agent-state/, then .git, then the current directory)'
            cand --agent 'Agent identity keying the freshness table [env: AGTOOL_AGENT] [default: default]'
            cand --config 'Extra configuration file layered over the others [env: AGTOOL_CONFIG]'
            cand --groups 'Tool groups enabled for call and schema, e.g. files,edit or all [env: AGTOOL_GROUPS]'
            cand --timeout-ms 'Override every tool''s default timeout, in milliseconds'
            cand --no-extensions 'Leave out the x-agtool metadata, for consumers that reject unknown keys'
            cand --json 'Print one JSON object {ok, output, error, ...} instead of text'
            cand --no-freshness 'Turn the freshness gate off [env: AGTOOL_FRESHNESS=off]'
            cand --no-syntax-check 'Turn the syntax gate off [env: AGTOOL_SYNTAX_CHECK=off]'
            cand -h 'Print help'
            cand --help 'Print help'
        }
        &'agtool;call'= {
            cand --root 'Workspace root [env: AGTOOL_ROOT] (default: nearest .agent-state/, then .git, then the current directory)'
            cand --agent 'Agent identity keying the freshness table [env: AGTOOL_AGENT] [default: default]'
            cand --config 'Extra configuration file layered over the others [env: AGTOOL_CONFIG]'
            cand --groups 'Tool groups enabled for call and schema, e.g. files,edit or all [env: AGTOOL_GROUPS]'
            cand --timeout-ms 'Override every tool''s default timeout, in milliseconds'
            cand --batch 'stdin holds a JSON array of envelopes; prints a JSON array of results'
            cand --json 'Print one JSON object {ok, output, error, ...} instead of text'
            cand --no-freshness 'Turn the freshness gate off [env: AGTOOL_FRESHNESS=off]'
            cand --no-syntax-check 'Turn the syntax gate off [env: AGTOOL_SYNTAX_CHECK=off]'
            cand -h 'Print help'
            cand --help 'Print help'
        }
        &'agtool;state'= {
            cand --root 'Workspace root [env: AGTOOL_ROOT] (default: nearest .agent-state/, then .git, then the current directory)'
            cand --agent 'Agent identity keying the freshness table [env: AGTOOL_AGENT] [default: default]'
            cand --config 'Extra configuration file layered over the others [env: AGTOOL_CONFIG]'
            cand --groups 'Tool groups enabled for call and schema, e.g. files,edit or all [env: AGTOOL_GROUPS]'
            cand --timeout-ms 'Override every tool''s default timeout, in milliseconds'
            cand --json 'Print one JSON object {ok, output, error, ...} instead of text'
            cand --no-freshness 'Turn the freshness gate off [env: AGTOOL_FRESHNESS=off]'
            cand --no-syntax-check 'Turn the syntax gate off [env: AGTOOL_SYNTAX_CHECK=off]'
            cand -h 'Print help'
            cand --help 'Print help'
            cand show 'List every recorded (agent, path, tag)'
            cand forget 'Forget what every agent read of PATH (a folder: everything under it)'
            cand reset 'Forget everything'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'agtool;state;show'= {
            cand --root 'Workspace root [env: AGTOOL_ROOT] (default: nearest .agent-state/, then .git, then the current directory)'
            cand --agent 'Agent identity keying the freshness table [env: AGTOOL_AGENT] [default: default]'
            cand --config 'Extra configuration file layered over the others [env: AGTOOL_CONFIG]'
            cand --groups 'Tool groups enabled for call and schema, e.g. files,edit or all [env: AGTOOL_GROUPS]'
            cand --timeout-ms 'Override every tool''s default timeout, in milliseconds'
            cand --json 'Print one JSON object {ok, output, error, ...} instead of text'
            cand --no-freshness 'Turn the freshness gate off [env: AGTOOL_FRESHNESS=off]'
            cand --no-syntax-check 'Turn the syntax gate off [env: AGTOOL_SYNTAX_CHECK=off]'
            cand -h 'Print help'
            cand --help 'Print help'
        }
        &'agtool;state;forget'= {
            cand --root 'Workspace root [env: AGTOOL_ROOT] (default: nearest .agent-state/, then .git, then the current directory)'
            cand --agent 'Agent identity keying the freshness table [env: AGTOOL_AGENT] [default: default]'
            cand --config 'Extra configuration file layered over the others [env: AGTOOL_CONFIG]'
            cand --groups 'Tool groups enabled for call and schema, e.g. files,edit or all [env: AGTOOL_GROUPS]'
            cand --timeout-ms 'Override every tool''s default timeout, in milliseconds'
            cand --json 'Print one JSON object {ok, output, error, ...} instead of text'
            cand --no-freshness 'Turn the freshness gate off [env: AGTOOL_FRESHNESS=off]'
            cand --no-syntax-check 'Turn the syntax gate off [env: AGTOOL_SYNTAX_CHECK=off]'
            cand -h 'Print help'
            cand --help 'Print help'
        }
        &'agtool;state;reset'= {
            cand --root 'Workspace root [env: AGTOOL_ROOT] (default: nearest .agent-state/, then .git, then the current directory)'
            cand --agent 'Agent identity keying the freshness table [env: AGTOOL_AGENT] [default: default]'
            cand --config 'Extra configuration file layered over the others [env: AGTOOL_CONFIG]'
            cand --groups 'Tool groups enabled for call and schema, e.g. files,edit or all [env: AGTOOL_GROUPS]'
            cand --timeout-ms 'Override every tool''s default timeout, in milliseconds'
            cand --json 'Print one JSON object {ok, output, error, ...} instead of text'
            cand --no-freshness 'Turn the freshness gate off [env: AGTOOL_FRESHNESS=off]'
            cand --no-syntax-check 'Turn the syntax gate off [env: AGTOOL_SYNTAX_CHECK=off]'
            cand -h 'Print help'
            cand --help 'Print help'
        }
        &'agtool;state;help'= {
            cand show 'List every recorded (agent, path, tag)'
            cand forget 'Forget what every agent read of PATH (a folder: everything under it)'
            cand reset 'Forget everything'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'agtool;state;help;show'= {
        }
        &'agtool;state;help;forget'= {
        }
        &'agtool;state;help;reset'= {
        }
        &'agtool;state;help;help'= {
        }
        &'agtool;completions'= {
            cand --write 'Write every shell''s file into DIR instead (the repository''s completions/)'
            cand --root 'Workspace root [env: AGTOOL_ROOT] (default: nearest .agent-state/, then .git, then the current directory)'
            cand --agent 'Agent identity keying the freshness table [env: AGTOOL_AGENT] [default: default]'
            cand --config 'Extra configuration file layered over the others [env: AGTOOL_CONFIG]'
            cand --groups 'Tool groups enabled for call and schema, e.g. files,edit or all [env: AGTOOL_GROUPS]'
            cand --timeout-ms 'Override every tool''s default timeout, in milliseconds'
            cand --json 'Print one JSON object {ok, output, error, ...} instead of text'
            cand --no-freshness 'Turn the freshness gate off [env: AGTOOL_FRESHNESS=off]'
            cand --no-syntax-check 'Turn the syntax gate off [env: AGTOOL_SYNTAX_CHECK=off]'
            cand -h 'Print help'
            cand --help 'Print help'
        }
        &'agtool;man'= {
            cand --write 'Write agtool.1 into DIR instead'
            cand --root 'Workspace root [env: AGTOOL_ROOT] (default: nearest .agent-state/, then .git, then the current directory)'
            cand --agent 'Agent identity keying the freshness table [env: AGTOOL_AGENT] [default: default]'
            cand --config 'Extra configuration file layered over the others [env: AGTOOL_CONFIG]'
            cand --groups 'Tool groups enabled for call and schema, e.g. files,edit or all [env: AGTOOL_GROUPS]'
            cand --timeout-ms 'Override every tool''s default timeout, in milliseconds'
            cand --json 'Print one JSON object {ok, output, error, ...} instead of text'
            cand --no-freshness 'Turn the freshness gate off [env: AGTOOL_FRESHNESS=off]'
            cand --no-syntax-check 'Turn the syntax gate off [env: AGTOOL_SYNTAX_CHECK=off]'
            cand -h 'Print help'
            cand --help 'Print help'
        }
        &'agtool;help'= {
            cand read-file 'Arguments of read-file'
            cand list-dir 'Arguments of list-dir'
            cand write-file 'Arguments of write-file'
            cand schema 'Print the tool definitions (JSON Schema) for an agent host'
            cand call 'Run a tool with its JSON arguments (or a tool-call envelope) read from stdin'
            cand state 'Inspect or clear the freshness table in .agent-state/'
            cand completions 'Print shell completions (bash, zsh, fish, elvish, powershell)'
            cand man 'Print the manual page (roff)'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'agtool;help;read-file'= {
        }
        &'agtool;help;list-dir'= {
        }
        &'agtool;help;write-file'= {
        }
        &'agtool;help;schema'= {
        }
        &'agtool;help;call'= {
        }
        &'agtool;help;state'= {
            cand show 'List every recorded (agent, path, tag)'
            cand forget 'Forget what every agent read of PATH (a folder: everything under it)'
            cand reset 'Forget everything'
        }
        &'agtool;help;state;show'= {
        }
        &'agtool;help;state;forget'= {
        }
        &'agtool;help;state;reset'= {
        }
        &'agtool;help;completions'= {
        }
        &'agtool;help;man'= {
        }
        &'agtool;help;help'= {
        }
    ]
    $completions[$command]
}
