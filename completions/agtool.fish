# Print an optspec for argparse to handle cmd's options that are independent of any subcommand.
function __fish_agtool_global_optspecs
    string join \n root= agent= config= json no-freshness no-syntax-check groups= color= timeout-ms= notes-dir= approved skills-dir= h/help V/version
end

function __fish_agtool_needs_command
    # Figure out if the current invocation already has a command.
    set -l cmd (commandline -opc)
    set -e cmd[1]
    argparse -s (__fish_agtool_global_optspecs) -- $cmd 2>/dev/null
    or return
    if set -q argv[1]
        # Also print the command, so this can be used to figure out what it is.
        echo $argv[1]
        return 1
    end
    return 0
end

function __fish_agtool_using_subcommand
    set -l cmd (__fish_agtool_needs_command)
    test -z "$cmd"
    and return 1
    contains -- $cmd[1] $argv
end

complete -c agtool -n "__fish_agtool_needs_command" -l root -d 'Workspace root [env: AGTOOL_ROOT] (default: nearest .agent-state/, then .git, then the current directory)' -r
complete -c agtool -n "__fish_agtool_needs_command" -l agent -d 'Agent identity keying the freshness table [env: AGTOOL_AGENT] [default: default]' -r
complete -c agtool -n "__fish_agtool_needs_command" -l config -d 'Extra configuration file layered over the others [env: AGTOOL_CONFIG]' -r
complete -c agtool -n "__fish_agtool_needs_command" -l groups -d 'Tool groups enabled for call, schema and mcp, e.g. files,edit or all [env: AGTOOL_GROUPS]' -r
complete -c agtool -n "__fish_agtool_needs_command" -l color -d 'Colour for people (dry-run diffs, sessions list): auto, always or never; auto is off with NO_COLOR, on with CLICOLOR_FORCE; call and --json never colour' -r -f -a "auto\t'Colour for a terminal, off with NO_COLOR, on with CLICOLOR_FORCE'
always\t'Always colour people-facing output'
never\t'Never colour'"
complete -c agtool -n "__fish_agtool_needs_command" -l timeout-ms -d 'Override every tool\'s default timeout, in milliseconds' -r
complete -c agtool -n "__fish_agtool_needs_command" -l notes-dir -d 'The notes store [default: .agent-state/notes, or config notes.dir]' -r
complete -c agtool -n "__fish_agtool_needs_command" -l skills-dir -d 'A folder of skills, one subfolder with a SKILL.md each; repeatable, searched in order [env: AGTOOL_SKILLS, colon-separated]' -r
complete -c agtool -n "__fish_agtool_needs_command" -l json -d 'Print one JSON object {ok, output, error, ...} instead of text'
complete -c agtool -n "__fish_agtool_needs_command" -l no-freshness -d 'Turn the freshness gate off [env: AGTOOL_FRESHNESS=off]'
complete -c agtool -n "__fish_agtool_needs_command" -l no-syntax-check -d 'Turn the syntax gate off [env: AGTOOL_SYNTAX_CHECK=off]'
complete -c agtool -n "__fish_agtool_needs_command" -l approved -d 'The host\'s user approved this call: an ask rule lets it run (after exit status 3, Approval needed)'
complete -c agtool -n "__fish_agtool_needs_command" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c agtool -n "__fish_agtool_needs_command" -s V -l version -d 'Print version'
complete -c agtool -n "__fish_agtool_needs_command" -f -a "read-file" -d 'Read a file with line numbers and a content tag; also images, PDFs, notebooks, several files.'
complete -c agtool -n "__fish_agtool_needs_command" -f -a "list-dir" -d 'List a folder as an indented tree: `name/` folders, `name@` symlinks (never followed), `name?` other special files. Entries are sorted by name, children right under their folder. Ignored files (.gitignore) are left out unless ignored: true. Page with offset/limit; the last line says how to continue. Bytes of a name that are not UTF-8 show as `\\xHH`; every path argument takes that spelling back.'
complete -c agtool -n "__fish_agtool_needs_command" -f -a "glob" -d 'Find files whose path matches a glob pattern, newest first.'
complete -c agtool -n "__fish_agtool_needs_command" -f -a "grep" -d 'Search file contents with a regular expression (ripgrep\'s engine).'
complete -c agtool -n "__fish_agtool_needs_command" -f -a "diagnostics" -d 'Show the problems a language server (pyright, pylsp, typescript-language-server, gopls, rust-analyzer, clangd) reports for files: one line each, `path:line:col: severity: message (code)`, errors first. Without paths: every file open in a language server. Edit results already list the problems an edit added; use this for the rest.'
complete -c agtool -n "__fish_agtool_needs_command" -f -a "write-file" -d 'Create a file, or replace a whole file\'s content.'
complete -c agtool -n "__fish_agtool_needs_command" -f -a "edit-file" -d 'Replace exact text in a file: old must occur exactly once (or pass all: true).'
complete -c agtool -n "__fish_agtool_needs_command" -f -a "edit-lines" -d 'Replace or insert whole lines addressed by anchors from read_file with anchors: true.'
complete -c agtool -n "__fish_agtool_needs_command" -f -a "apply-patch" -d 'Apply a patch that adds, deletes, updates or moves files, all or nothing.'
complete -c agtool -n "__fish_agtool_needs_command" -f -a "notebook-edit" -d 'Replace, insert or delete one cell of a Jupyter notebook (.ipynb).'
complete -c agtool -n "__fish_agtool_needs_command" -f -a "move-path" -d 'Move or rename a file, a symlink or a folder inside the workspace.'
complete -c agtool -n "__fish_agtool_needs_command" -f -a "copy-path" -d 'Copy a file, a symlink or a folder (recursive: true) inside the workspace.'
complete -c agtool -n "__fish_agtool_needs_command" -f -a "make-dir" -d 'Make a folder, and any missing folders above it, inside the workspace.'
complete -c agtool -n "__fish_agtool_needs_command" -f -a "delete-path" -d 'Delete a file, a symlink, or a directory.'
complete -c agtool -n "__fish_agtool_needs_command" -f -a "exec" -d 'Run a command once and return its exit code and output.'
complete -c agtool -n "__fish_agtool_needs_command" -f -a "exec-command" -d 'Start a shell command that keeps running between calls (a server, a watcher, a REPL).'
complete -c agtool -n "__fish_agtool_needs_command" -f -a "write-stdin" -d 'Send input to a running exec_command session, or read its new output.'
complete -c agtool -n "__fish_agtool_needs_command" -f -a "web-fetch" -d 'Fetch an http or https URL and return the page as plain text.'
complete -c agtool -n "__fish_agtool_needs_command" -f -a "skill" -d 'Load a skill: instructions for one kind of task, given by the host.'
complete -c agtool -n "__fish_agtool_needs_command" -f -a "notes" -d 'Keep notes that outlive the session: list, read, write, delete'
complete -c agtool -n "__fish_agtool_needs_command" -f -a "schema" -d 'Print the tool definitions (JSON Schema) for an agent host'
complete -c agtool -n "__fish_agtool_needs_command" -f -a "call" -d 'Run a tool with its JSON arguments (or a tool-call envelope) read from stdin'
complete -c agtool -n "__fish_agtool_needs_command" -f -a "mcp" -d 'Serve the tools of the enabled groups to an MCP host over stdio'
complete -c agtool -n "__fish_agtool_needs_command" -f -a "state" -d 'Inspect or clear the freshness table in .agent-state/'
complete -c agtool -n "__fish_agtool_needs_command" -f -a "sessions" -d 'List or kill the exec-command sessions of this workspace, or stop their server'
complete -c agtool -n "__fish_agtool_needs_command" -f -a "sandbox" -d 'Say what this machine enforces of the exec sandbox'
complete -c agtool -n "__fish_agtool_needs_command" -f -a "rules" -d 'Check the allow/ask/deny rules: which rule decides a call, and why'
complete -c agtool -n "__fish_agtool_needs_command" -f -a "trace" -d 'Read the call trace ([trace] file or AGTOOL_TRACE)'
complete -c agtool -n "__fish_agtool_needs_command" -f -a "lsp" -d 'Show or stop the language servers kept warm for this workspace\'s diagnostics'
complete -c agtool -n "__fish_agtool_needs_command" -f -a "completions" -d 'Print shell completions (bash, zsh, fish, elvish, powershell)'
complete -c agtool -n "__fish_agtool_needs_command" -f -a "man" -d 'Print the manual page (roff)'
complete -c agtool -n "__fish_agtool_needs_command" -f -a "session-server" -d 'Run the exec session server for a state folder (started on demand)'
complete -c agtool -n "__fish_agtool_needs_command" -f -a "session-guard" -d 'Run a session\'s command and end its whole tree when the session server dies'
complete -c agtool -n "__fish_agtool_needs_command" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c agtool -n "__fish_agtool_using_subcommand read-file" -l paths -d 'Instead of path: several files (or glob patterns such as "src/*.rs"), read in one call, each with its own [path#TAG] header; at most 50 files' -r
complete -c agtool -n "__fish_agtool_using_subcommand read-file" -l pages -d 'PDF pages to show: "3", "3-5" or "3-" (default the first 20)' -r
complete -c agtool -n "__fish_agtool_using_subcommand read-file" -l offset -d 'First line to show, 1-based (default 1); for a notebook, the first cell' -r
complete -c agtool -n "__fish_agtool_using_subcommand read-file" -l limit -d 'Most lines to show (default 2000); for a notebook, most cells' -r
complete -c agtool -n "__fish_agtool_using_subcommand read-file" -l mode -d 'slice (default) or indentation' -r -f -a "slice\t''
indentation\t''"
complete -c agtool -n "__fish_agtool_using_subcommand read-file" -l indentation -d 'Indentation-mode options (an object; given as JSON on the command line)' -r
complete -c agtool -n "__fish_agtool_using_subcommand read-file" -l anchors -d 'Print each line as `<n>:<hh>|text`: the anchors edit_lines takes (default false)' -r -f -a "true\t''
false\t''"
complete -c agtool -n "__fish_agtool_using_subcommand read-file" -l tail -d 'Show the last N lines instead, e.g. 400 (cannot be combined with offset)' -r
complete -c agtool -n "__fish_agtool_using_subcommand read-file" -l args -d 'All arguments as one JSON object (- reads it from stdin, @FILE from a file)' -r
complete -c agtool -n "__fish_agtool_using_subcommand read-file" -l root -d 'Workspace root [env: AGTOOL_ROOT] (default: nearest .agent-state/, then .git, then the current directory)' -r
complete -c agtool -n "__fish_agtool_using_subcommand read-file" -l agent -d 'Agent identity keying the freshness table [env: AGTOOL_AGENT] [default: default]' -r
complete -c agtool -n "__fish_agtool_using_subcommand read-file" -l config -d 'Extra configuration file layered over the others [env: AGTOOL_CONFIG]' -r
complete -c agtool -n "__fish_agtool_using_subcommand read-file" -l groups -d 'Tool groups enabled for call, schema and mcp, e.g. files,edit or all [env: AGTOOL_GROUPS]' -r
complete -c agtool -n "__fish_agtool_using_subcommand read-file" -l color -d 'Colour for people (dry-run diffs, sessions list): auto, always or never; auto is off with NO_COLOR, on with CLICOLOR_FORCE; call and --json never colour' -r -f -a "auto\t'Colour for a terminal, off with NO_COLOR, on with CLICOLOR_FORCE'
always\t'Always colour people-facing output'
never\t'Never colour'"
complete -c agtool -n "__fish_agtool_using_subcommand read-file" -l timeout-ms -d 'Override every tool\'s default timeout, in milliseconds' -r
complete -c agtool -n "__fish_agtool_using_subcommand read-file" -l notes-dir -d 'The notes store [default: .agent-state/notes, or config notes.dir]' -r
complete -c agtool -n "__fish_agtool_using_subcommand read-file" -l skills-dir -d 'A folder of skills, one subfolder with a SKILL.md each; repeatable, searched in order [env: AGTOOL_SKILLS, colon-separated]' -r
complete -c agtool -n "__fish_agtool_using_subcommand read-file" -l json -d 'Print one JSON object {ok, output, error, ...} instead of text'
complete -c agtool -n "__fish_agtool_using_subcommand read-file" -l no-freshness -d 'Turn the freshness gate off [env: AGTOOL_FRESHNESS=off]'
complete -c agtool -n "__fish_agtool_using_subcommand read-file" -l no-syntax-check -d 'Turn the syntax gate off [env: AGTOOL_SYNTAX_CHECK=off]'
complete -c agtool -n "__fish_agtool_using_subcommand read-file" -l approved -d 'The host\'s user approved this call: an ask rule lets it run (after exit status 3, Approval needed)'
complete -c agtool -n "__fish_agtool_using_subcommand read-file" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c agtool -n "__fish_agtool_using_subcommand list-dir" -l offset -d 'First entry to show, 1-based, in tree order (default 1)' -r
complete -c agtool -n "__fish_agtool_using_subcommand list-dir" -l limit -d 'Most entries to show (default 25)' -r
complete -c agtool -n "__fish_agtool_using_subcommand list-dir" -l depth -d 'How many levels deep to list (default 2)' -r
complete -c agtool -n "__fish_agtool_using_subcommand list-dir" -l hidden -d 'Include hidden entries (default true)' -r -f -a "true\t''
false\t''"
complete -c agtool -n "__fish_agtool_using_subcommand list-dir" -l ignored -d 'Include entries matched by .gitignore/.ignore rules (default false)' -r -f -a "true\t''
false\t''"
complete -c agtool -n "__fish_agtool_using_subcommand list-dir" -l args -d 'All arguments as one JSON object (- reads it from stdin, @FILE from a file)' -r
complete -c agtool -n "__fish_agtool_using_subcommand list-dir" -l root -d 'Workspace root [env: AGTOOL_ROOT] (default: nearest .agent-state/, then .git, then the current directory)' -r
complete -c agtool -n "__fish_agtool_using_subcommand list-dir" -l agent -d 'Agent identity keying the freshness table [env: AGTOOL_AGENT] [default: default]' -r
complete -c agtool -n "__fish_agtool_using_subcommand list-dir" -l config -d 'Extra configuration file layered over the others [env: AGTOOL_CONFIG]' -r
complete -c agtool -n "__fish_agtool_using_subcommand list-dir" -l groups -d 'Tool groups enabled for call, schema and mcp, e.g. files,edit or all [env: AGTOOL_GROUPS]' -r
complete -c agtool -n "__fish_agtool_using_subcommand list-dir" -l color -d 'Colour for people (dry-run diffs, sessions list): auto, always or never; auto is off with NO_COLOR, on with CLICOLOR_FORCE; call and --json never colour' -r -f -a "auto\t'Colour for a terminal, off with NO_COLOR, on with CLICOLOR_FORCE'
always\t'Always colour people-facing output'
never\t'Never colour'"
complete -c agtool -n "__fish_agtool_using_subcommand list-dir" -l timeout-ms -d 'Override every tool\'s default timeout, in milliseconds' -r
complete -c agtool -n "__fish_agtool_using_subcommand list-dir" -l notes-dir -d 'The notes store [default: .agent-state/notes, or config notes.dir]' -r
complete -c agtool -n "__fish_agtool_using_subcommand list-dir" -l skills-dir -d 'A folder of skills, one subfolder with a SKILL.md each; repeatable, searched in order [env: AGTOOL_SKILLS, colon-separated]' -r
complete -c agtool -n "__fish_agtool_using_subcommand list-dir" -l json -d 'Print one JSON object {ok, output, error, ...} instead of text'
complete -c agtool -n "__fish_agtool_using_subcommand list-dir" -l no-freshness -d 'Turn the freshness gate off [env: AGTOOL_FRESHNESS=off]'
complete -c agtool -n "__fish_agtool_using_subcommand list-dir" -l no-syntax-check -d 'Turn the syntax gate off [env: AGTOOL_SYNTAX_CHECK=off]'
complete -c agtool -n "__fish_agtool_using_subcommand list-dir" -l approved -d 'The host\'s user approved this call: an ask rule lets it run (after exit status 3, Approval needed)'
complete -c agtool -n "__fish_agtool_using_subcommand list-dir" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c agtool -n "__fish_agtool_using_subcommand glob" -l limit -d 'Most paths to show (default 100, at most 2000)' -r
complete -c agtool -n "__fish_agtool_using_subcommand glob" -l hidden -d 'Include hidden files and folders (default false)' -r -f -a "true\t''
false\t''"
complete -c agtool -n "__fish_agtool_using_subcommand glob" -l ignored -d 'Include files matched by .gitignore/.ignore rules (default false)' -r -f -a "true\t''
false\t''"
complete -c agtool -n "__fish_agtool_using_subcommand glob" -l args -d 'All arguments as one JSON object (- reads it from stdin, @FILE from a file)' -r
complete -c agtool -n "__fish_agtool_using_subcommand glob" -l root -d 'Workspace root [env: AGTOOL_ROOT] (default: nearest .agent-state/, then .git, then the current directory)' -r
complete -c agtool -n "__fish_agtool_using_subcommand glob" -l agent -d 'Agent identity keying the freshness table [env: AGTOOL_AGENT] [default: default]' -r
complete -c agtool -n "__fish_agtool_using_subcommand glob" -l config -d 'Extra configuration file layered over the others [env: AGTOOL_CONFIG]' -r
complete -c agtool -n "__fish_agtool_using_subcommand glob" -l groups -d 'Tool groups enabled for call, schema and mcp, e.g. files,edit or all [env: AGTOOL_GROUPS]' -r
complete -c agtool -n "__fish_agtool_using_subcommand glob" -l color -d 'Colour for people (dry-run diffs, sessions list): auto, always or never; auto is off with NO_COLOR, on with CLICOLOR_FORCE; call and --json never colour' -r -f -a "auto\t'Colour for a terminal, off with NO_COLOR, on with CLICOLOR_FORCE'
always\t'Always colour people-facing output'
never\t'Never colour'"
complete -c agtool -n "__fish_agtool_using_subcommand glob" -l timeout-ms -d 'Override every tool\'s default timeout, in milliseconds' -r
complete -c agtool -n "__fish_agtool_using_subcommand glob" -l notes-dir -d 'The notes store [default: .agent-state/notes, or config notes.dir]' -r
complete -c agtool -n "__fish_agtool_using_subcommand glob" -l skills-dir -d 'A folder of skills, one subfolder with a SKILL.md each; repeatable, searched in order [env: AGTOOL_SKILLS, colon-separated]' -r
complete -c agtool -n "__fish_agtool_using_subcommand glob" -l json -d 'Print one JSON object {ok, output, error, ...} instead of text'
complete -c agtool -n "__fish_agtool_using_subcommand glob" -l no-freshness -d 'Turn the freshness gate off [env: AGTOOL_FRESHNESS=off]'
complete -c agtool -n "__fish_agtool_using_subcommand glob" -l no-syntax-check -d 'Turn the syntax gate off [env: AGTOOL_SYNTAX_CHECK=off]'
complete -c agtool -n "__fish_agtool_using_subcommand glob" -l approved -d 'The host\'s user approved this call: an ask rule lets it run (after exit status 3, Approval needed)'
complete -c agtool -n "__fish_agtool_using_subcommand glob" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c agtool -n "__fish_agtool_using_subcommand grep" -l include -d 'Only search files whose names match this glob, e.g. "*.rs" or "*.{ts,tsx}"' -r
complete -c agtool -n "__fish_agtool_using_subcommand grep" -l limit -d 'Most files (files/count output) or matching lines (content output) to show (default 100, at most 2000)' -r
complete -c agtool -n "__fish_agtool_using_subcommand grep" -l case -d 'smart (default: case-insensitive unless the pattern has an upper-case letter), sensitive or insensitive' -r -f -a "smart\t''
sensitive\t''
insensitive\t''"
complete -c agtool -n "__fish_agtool_using_subcommand grep" -l fixed-strings -d 'Treat the pattern as a literal string, not a regex (default false)' -r -f -a "true\t''
false\t''"
complete -c agtool -n "__fish_agtool_using_subcommand grep" -l output -d 'files (default: matching paths, newest first), content (matching lines) or count (matching lines per file)' -r -f -a "files\t''
content\t''
count\t''"
complete -c agtool -n "__fish_agtool_using_subcommand grep" -l context -d 'Lines of context before and after each match, content output only (default 0)' -r
complete -c agtool -n "__fish_agtool_using_subcommand grep" -l multiline -d 'Let matches span lines; `.` then also matches a newline (default false)' -r -f -a "true\t''
false\t''"
complete -c agtool -n "__fish_agtool_using_subcommand grep" -l hidden -d 'Search hidden files and folders too (default false)' -r -f -a "true\t''
false\t''"
complete -c agtool -n "__fish_agtool_using_subcommand grep" -l ignored -d 'Search files matched by .gitignore/.ignore rules too (default false)' -r -f -a "true\t''
false\t''"
complete -c agtool -n "__fish_agtool_using_subcommand grep" -l names -d 'Also list files whose names contain the pattern, in a section after the hits (default true; scripts that parse `path:line:text` or `path:count` pass false)' -r -f -a "true\t''
false\t''"
complete -c agtool -n "__fish_agtool_using_subcommand grep" -l args -d 'All arguments as one JSON object (- reads it from stdin, @FILE from a file)' -r
complete -c agtool -n "__fish_agtool_using_subcommand grep" -l root -d 'Workspace root [env: AGTOOL_ROOT] (default: nearest .agent-state/, then .git, then the current directory)' -r
complete -c agtool -n "__fish_agtool_using_subcommand grep" -l agent -d 'Agent identity keying the freshness table [env: AGTOOL_AGENT] [default: default]' -r
complete -c agtool -n "__fish_agtool_using_subcommand grep" -l config -d 'Extra configuration file layered over the others [env: AGTOOL_CONFIG]' -r
complete -c agtool -n "__fish_agtool_using_subcommand grep" -l groups -d 'Tool groups enabled for call, schema and mcp, e.g. files,edit or all [env: AGTOOL_GROUPS]' -r
complete -c agtool -n "__fish_agtool_using_subcommand grep" -l color -d 'Colour for people (dry-run diffs, sessions list): auto, always or never; auto is off with NO_COLOR, on with CLICOLOR_FORCE; call and --json never colour' -r -f -a "auto\t'Colour for a terminal, off with NO_COLOR, on with CLICOLOR_FORCE'
always\t'Always colour people-facing output'
never\t'Never colour'"
complete -c agtool -n "__fish_agtool_using_subcommand grep" -l timeout-ms -d 'Override every tool\'s default timeout, in milliseconds' -r
complete -c agtool -n "__fish_agtool_using_subcommand grep" -l notes-dir -d 'The notes store [default: .agent-state/notes, or config notes.dir]' -r
complete -c agtool -n "__fish_agtool_using_subcommand grep" -l skills-dir -d 'A folder of skills, one subfolder with a SKILL.md each; repeatable, searched in order [env: AGTOOL_SKILLS, colon-separated]' -r
complete -c agtool -n "__fish_agtool_using_subcommand grep" -l json -d 'Print one JSON object {ok, output, error, ...} instead of text'
complete -c agtool -n "__fish_agtool_using_subcommand grep" -l no-freshness -d 'Turn the freshness gate off [env: AGTOOL_FRESHNESS=off]'
complete -c agtool -n "__fish_agtool_using_subcommand grep" -l no-syntax-check -d 'Turn the syntax gate off [env: AGTOOL_SYNTAX_CHECK=off]'
complete -c agtool -n "__fish_agtool_using_subcommand grep" -l approved -d 'The host\'s user approved this call: an ask rule lets it run (after exit status 3, Approval needed)'
complete -c agtool -n "__fish_agtool_using_subcommand grep" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c agtool -n "__fish_agtool_using_subcommand diagnostics" -l args -d 'All arguments as one JSON object (- reads it from stdin, @FILE from a file)' -r
complete -c agtool -n "__fish_agtool_using_subcommand diagnostics" -l root -d 'Workspace root [env: AGTOOL_ROOT] (default: nearest .agent-state/, then .git, then the current directory)' -r
complete -c agtool -n "__fish_agtool_using_subcommand diagnostics" -l agent -d 'Agent identity keying the freshness table [env: AGTOOL_AGENT] [default: default]' -r
complete -c agtool -n "__fish_agtool_using_subcommand diagnostics" -l config -d 'Extra configuration file layered over the others [env: AGTOOL_CONFIG]' -r
complete -c agtool -n "__fish_agtool_using_subcommand diagnostics" -l groups -d 'Tool groups enabled for call, schema and mcp, e.g. files,edit or all [env: AGTOOL_GROUPS]' -r
complete -c agtool -n "__fish_agtool_using_subcommand diagnostics" -l color -d 'Colour for people (dry-run diffs, sessions list): auto, always or never; auto is off with NO_COLOR, on with CLICOLOR_FORCE; call and --json never colour' -r -f -a "auto\t'Colour for a terminal, off with NO_COLOR, on with CLICOLOR_FORCE'
always\t'Always colour people-facing output'
never\t'Never colour'"
complete -c agtool -n "__fish_agtool_using_subcommand diagnostics" -l timeout-ms -d 'Override every tool\'s default timeout, in milliseconds' -r
complete -c agtool -n "__fish_agtool_using_subcommand diagnostics" -l notes-dir -d 'The notes store [default: .agent-state/notes, or config notes.dir]' -r
complete -c agtool -n "__fish_agtool_using_subcommand diagnostics" -l skills-dir -d 'A folder of skills, one subfolder with a SKILL.md each; repeatable, searched in order [env: AGTOOL_SKILLS, colon-separated]' -r
complete -c agtool -n "__fish_agtool_using_subcommand diagnostics" -l json -d 'Print one JSON object {ok, output, error, ...} instead of text'
complete -c agtool -n "__fish_agtool_using_subcommand diagnostics" -l no-freshness -d 'Turn the freshness gate off [env: AGTOOL_FRESHNESS=off]'
complete -c agtool -n "__fish_agtool_using_subcommand diagnostics" -l no-syntax-check -d 'Turn the syntax gate off [env: AGTOOL_SYNTAX_CHECK=off]'
complete -c agtool -n "__fish_agtool_using_subcommand diagnostics" -l approved -d 'The host\'s user approved this call: an ask rule lets it run (after exit status 3, Approval needed)'
complete -c agtool -n "__fish_agtool_using_subcommand diagnostics" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c agtool -n "__fish_agtool_using_subcommand write-file" -l content -d 'The whole new content (CLI: --content, or stdin). Written exactly as given; in an existing file, line breaks take the file\'s own line ending and encoding' -r
complete -c agtool -n "__fish_agtool_using_subcommand write-file" -l overwrite -d 'Replace an existing file (default true); false refuses when the file exists' -r -f -a "true\t''
false\t''"
complete -c agtool -n "__fish_agtool_using_subcommand write-file" -l expected-mtime -d 'Refuse unless the file\'s modification time is this (RFC 3339, or integer ms since the Unix epoch)' -r
complete -c agtool -n "__fish_agtool_using_subcommand write-file" -l expected-size -d 'Refuse unless the file\'s size is this many bytes' -r
complete -c agtool -n "__fish_agtool_using_subcommand write-file" -l allow-placeholders -d 'Write even when the new content adds a placeholder comment such as `// ... rest of code` and drops lines of the old file (default false: refused)' -r -f -a "true\t''
false\t''"
complete -c agtool -n "__fish_agtool_using_subcommand write-file" -l check-syntax -d 'Refuse a write that adds syntax errors (default true)' -r -f -a "true\t''
false\t''"
complete -c agtool -n "__fish_agtool_using_subcommand write-file" -l dry-run -d 'Show the diff, write nothing (default false)' -r -f -a "true\t''
false\t''"
complete -c agtool -n "__fish_agtool_using_subcommand write-file" -l args -d 'All arguments as one JSON object (- reads it from stdin, @FILE from a file)' -r
complete -c agtool -n "__fish_agtool_using_subcommand write-file" -l root -d 'Workspace root [env: AGTOOL_ROOT] (default: nearest .agent-state/, then .git, then the current directory)' -r
complete -c agtool -n "__fish_agtool_using_subcommand write-file" -l agent -d 'Agent identity keying the freshness table [env: AGTOOL_AGENT] [default: default]' -r
complete -c agtool -n "__fish_agtool_using_subcommand write-file" -l config -d 'Extra configuration file layered over the others [env: AGTOOL_CONFIG]' -r
complete -c agtool -n "__fish_agtool_using_subcommand write-file" -l groups -d 'Tool groups enabled for call, schema and mcp, e.g. files,edit or all [env: AGTOOL_GROUPS]' -r
complete -c agtool -n "__fish_agtool_using_subcommand write-file" -l color -d 'Colour for people (dry-run diffs, sessions list): auto, always or never; auto is off with NO_COLOR, on with CLICOLOR_FORCE; call and --json never colour' -r -f -a "auto\t'Colour for a terminal, off with NO_COLOR, on with CLICOLOR_FORCE'
always\t'Always colour people-facing output'
never\t'Never colour'"
complete -c agtool -n "__fish_agtool_using_subcommand write-file" -l timeout-ms -d 'Override every tool\'s default timeout, in milliseconds' -r
complete -c agtool -n "__fish_agtool_using_subcommand write-file" -l notes-dir -d 'The notes store [default: .agent-state/notes, or config notes.dir]' -r
complete -c agtool -n "__fish_agtool_using_subcommand write-file" -l skills-dir -d 'A folder of skills, one subfolder with a SKILL.md each; repeatable, searched in order [env: AGTOOL_SKILLS, colon-separated]' -r
complete -c agtool -n "__fish_agtool_using_subcommand write-file" -l json -d 'Print one JSON object {ok, output, error, ...} instead of text'
complete -c agtool -n "__fish_agtool_using_subcommand write-file" -l no-freshness -d 'Turn the freshness gate off [env: AGTOOL_FRESHNESS=off]'
complete -c agtool -n "__fish_agtool_using_subcommand write-file" -l no-syntax-check -d 'Turn the syntax gate off [env: AGTOOL_SYNTAX_CHECK=off]'
complete -c agtool -n "__fish_agtool_using_subcommand write-file" -l approved -d 'The host\'s user approved this call: an ask rule lets it run (after exit status 3, Approval needed)'
complete -c agtool -n "__fish_agtool_using_subcommand write-file" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c agtool -n "__fish_agtool_using_subcommand edit-file" -l old -d 'The exact text to replace, copied from read-file without the `L<n>: ` prefixes. Must occur exactly once unless all is true' -r
complete -c agtool -n "__fish_agtool_using_subcommand edit-file" -l new -d 'The replacement text (may be empty to delete old)' -r
complete -c agtool -n "__fish_agtool_using_subcommand edit-file" -l all -d 'Replace every occurrence of old (default false)' -r -f -a "true\t''
false\t''"
complete -c agtool -n "__fish_agtool_using_subcommand edit-file" -l edits -d 'Instead of old/new: a list of {old, new, all} edits applied in order to the running result, all or nothing (CLI: a JSON array)' -r
complete -c agtool -n "__fish_agtool_using_subcommand edit-file" -l allow-placeholders -d 'Apply even when new adds a placeholder comment such as `// ... existing code` and drops lines of old (default false: refused)' -r -f -a "true\t''
false\t''"
complete -c agtool -n "__fish_agtool_using_subcommand edit-file" -l check-syntax -d 'Refuse an edit that adds syntax errors (default true)' -r -f -a "true\t''
false\t''"
complete -c agtool -n "__fish_agtool_using_subcommand edit-file" -l dry-run -d 'Show the diff, write nothing (default false)' -r -f -a "true\t''
false\t''"
complete -c agtool -n "__fish_agtool_using_subcommand edit-file" -l args -d 'All arguments as one JSON object (- reads it from stdin, @FILE from a file)' -r
complete -c agtool -n "__fish_agtool_using_subcommand edit-file" -l root -d 'Workspace root [env: AGTOOL_ROOT] (default: nearest .agent-state/, then .git, then the current directory)' -r
complete -c agtool -n "__fish_agtool_using_subcommand edit-file" -l agent -d 'Agent identity keying the freshness table [env: AGTOOL_AGENT] [default: default]' -r
complete -c agtool -n "__fish_agtool_using_subcommand edit-file" -l config -d 'Extra configuration file layered over the others [env: AGTOOL_CONFIG]' -r
complete -c agtool -n "__fish_agtool_using_subcommand edit-file" -l groups -d 'Tool groups enabled for call, schema and mcp, e.g. files,edit or all [env: AGTOOL_GROUPS]' -r
complete -c agtool -n "__fish_agtool_using_subcommand edit-file" -l color -d 'Colour for people (dry-run diffs, sessions list): auto, always or never; auto is off with NO_COLOR, on with CLICOLOR_FORCE; call and --json never colour' -r -f -a "auto\t'Colour for a terminal, off with NO_COLOR, on with CLICOLOR_FORCE'
always\t'Always colour people-facing output'
never\t'Never colour'"
complete -c agtool -n "__fish_agtool_using_subcommand edit-file" -l timeout-ms -d 'Override every tool\'s default timeout, in milliseconds' -r
complete -c agtool -n "__fish_agtool_using_subcommand edit-file" -l notes-dir -d 'The notes store [default: .agent-state/notes, or config notes.dir]' -r
complete -c agtool -n "__fish_agtool_using_subcommand edit-file" -l skills-dir -d 'A folder of skills, one subfolder with a SKILL.md each; repeatable, searched in order [env: AGTOOL_SKILLS, colon-separated]' -r
complete -c agtool -n "__fish_agtool_using_subcommand edit-file" -l json -d 'Print one JSON object {ok, output, error, ...} instead of text'
complete -c agtool -n "__fish_agtool_using_subcommand edit-file" -l no-freshness -d 'Turn the freshness gate off [env: AGTOOL_FRESHNESS=off]'
complete -c agtool -n "__fish_agtool_using_subcommand edit-file" -l no-syntax-check -d 'Turn the syntax gate off [env: AGTOOL_SYNTAX_CHECK=off]'
complete -c agtool -n "__fish_agtool_using_subcommand edit-file" -l approved -d 'The host\'s user approved this call: an ask rule lets it run (after exit status 3, Approval needed)'
complete -c agtool -n "__fish_agtool_using_subcommand edit-file" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c agtool -n "__fish_agtool_using_subcommand edit-lines" -l edits -d 'The edits: each {path, from_anchor, to_anchor?, replace} or {path, after_anchor, insert} (CLI: a JSON array)' -r
complete -c agtool -n "__fish_agtool_using_subcommand edit-lines" -l check-syntax -d 'Refuse edits that add syntax errors (default true)' -r -f -a "true\t''
false\t''"
complete -c agtool -n "__fish_agtool_using_subcommand edit-lines" -l dry-run -d 'Show the diff, write nothing (default false)' -r -f -a "true\t''
false\t''"
complete -c agtool -n "__fish_agtool_using_subcommand edit-lines" -l args -d 'All arguments as one JSON object (- reads it from stdin, @FILE from a file)' -r
complete -c agtool -n "__fish_agtool_using_subcommand edit-lines" -l root -d 'Workspace root [env: AGTOOL_ROOT] (default: nearest .agent-state/, then .git, then the current directory)' -r
complete -c agtool -n "__fish_agtool_using_subcommand edit-lines" -l agent -d 'Agent identity keying the freshness table [env: AGTOOL_AGENT] [default: default]' -r
complete -c agtool -n "__fish_agtool_using_subcommand edit-lines" -l config -d 'Extra configuration file layered over the others [env: AGTOOL_CONFIG]' -r
complete -c agtool -n "__fish_agtool_using_subcommand edit-lines" -l groups -d 'Tool groups enabled for call, schema and mcp, e.g. files,edit or all [env: AGTOOL_GROUPS]' -r
complete -c agtool -n "__fish_agtool_using_subcommand edit-lines" -l color -d 'Colour for people (dry-run diffs, sessions list): auto, always or never; auto is off with NO_COLOR, on with CLICOLOR_FORCE; call and --json never colour' -r -f -a "auto\t'Colour for a terminal, off with NO_COLOR, on with CLICOLOR_FORCE'
always\t'Always colour people-facing output'
never\t'Never colour'"
complete -c agtool -n "__fish_agtool_using_subcommand edit-lines" -l timeout-ms -d 'Override every tool\'s default timeout, in milliseconds' -r
complete -c agtool -n "__fish_agtool_using_subcommand edit-lines" -l notes-dir -d 'The notes store [default: .agent-state/notes, or config notes.dir]' -r
complete -c agtool -n "__fish_agtool_using_subcommand edit-lines" -l skills-dir -d 'A folder of skills, one subfolder with a SKILL.md each; repeatable, searched in order [env: AGTOOL_SKILLS, colon-separated]' -r
complete -c agtool -n "__fish_agtool_using_subcommand edit-lines" -l json -d 'Print one JSON object {ok, output, error, ...} instead of text'
complete -c agtool -n "__fish_agtool_using_subcommand edit-lines" -l no-freshness -d 'Turn the freshness gate off [env: AGTOOL_FRESHNESS=off]'
complete -c agtool -n "__fish_agtool_using_subcommand edit-lines" -l no-syntax-check -d 'Turn the syntax gate off [env: AGTOOL_SYNTAX_CHECK=off]'
complete -c agtool -n "__fish_agtool_using_subcommand edit-lines" -l approved -d 'The host\'s user approved this call: an ask rule lets it run (after exit status 3, Approval needed)'
complete -c agtool -n "__fish_agtool_using_subcommand edit-lines" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c agtool -n "__fish_agtool_using_subcommand apply-patch" -l input -d 'The patch text, from `*** Begin Patch` to `*** End Patch`. CLI: stdin, or `--input FILE` to read it from a file' -r
complete -c agtool -n "__fish_agtool_using_subcommand apply-patch" -l allow-placeholders -d 'Apply even when an Update adds a placeholder comment such as `// ... existing code` and removes lines (default false: refused)' -r -f -a "true\t''
false\t''"
complete -c agtool -n "__fish_agtool_using_subcommand apply-patch" -l check-syntax -d 'Refuse a patch that adds syntax errors to a file (default true)' -r -f -a "true\t''
false\t''"
complete -c agtool -n "__fish_agtool_using_subcommand apply-patch" -l dry-run -d 'Show the unified diff of every file, write nothing (default false)' -r -f -a "true\t''
false\t''"
complete -c agtool -n "__fish_agtool_using_subcommand apply-patch" -l args -d 'All arguments as one JSON object (- reads it from stdin, @FILE from a file)' -r
complete -c agtool -n "__fish_agtool_using_subcommand apply-patch" -l root -d 'Workspace root [env: AGTOOL_ROOT] (default: nearest .agent-state/, then .git, then the current directory)' -r
complete -c agtool -n "__fish_agtool_using_subcommand apply-patch" -l agent -d 'Agent identity keying the freshness table [env: AGTOOL_AGENT] [default: default]' -r
complete -c agtool -n "__fish_agtool_using_subcommand apply-patch" -l config -d 'Extra configuration file layered over the others [env: AGTOOL_CONFIG]' -r
complete -c agtool -n "__fish_agtool_using_subcommand apply-patch" -l groups -d 'Tool groups enabled for call, schema and mcp, e.g. files,edit or all [env: AGTOOL_GROUPS]' -r
complete -c agtool -n "__fish_agtool_using_subcommand apply-patch" -l color -d 'Colour for people (dry-run diffs, sessions list): auto, always or never; auto is off with NO_COLOR, on with CLICOLOR_FORCE; call and --json never colour' -r -f -a "auto\t'Colour for a terminal, off with NO_COLOR, on with CLICOLOR_FORCE'
always\t'Always colour people-facing output'
never\t'Never colour'"
complete -c agtool -n "__fish_agtool_using_subcommand apply-patch" -l timeout-ms -d 'Override every tool\'s default timeout, in milliseconds' -r
complete -c agtool -n "__fish_agtool_using_subcommand apply-patch" -l notes-dir -d 'The notes store [default: .agent-state/notes, or config notes.dir]' -r
complete -c agtool -n "__fish_agtool_using_subcommand apply-patch" -l skills-dir -d 'A folder of skills, one subfolder with a SKILL.md each; repeatable, searched in order [env: AGTOOL_SKILLS, colon-separated]' -r
complete -c agtool -n "__fish_agtool_using_subcommand apply-patch" -l json -d 'Print one JSON object {ok, output, error, ...} instead of text'
complete -c agtool -n "__fish_agtool_using_subcommand apply-patch" -l no-freshness -d 'Turn the freshness gate off [env: AGTOOL_FRESHNESS=off]'
complete -c agtool -n "__fish_agtool_using_subcommand apply-patch" -l no-syntax-check -d 'Turn the syntax gate off [env: AGTOOL_SYNTAX_CHECK=off]'
complete -c agtool -n "__fish_agtool_using_subcommand apply-patch" -l approved -d 'The host\'s user approved this call: an ask rule lets it run (after exit status 3, Approval needed)'
complete -c agtool -n "__fish_agtool_using_subcommand apply-patch" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c agtool -n "__fish_agtool_using_subcommand notebook-edit" -l cell -d 'The cell: its id, or its number as read_file shows it (`[cell 3 · ...]`, from 1)' -r
complete -c agtool -n "__fish_agtool_using_subcommand notebook-edit" -l action -d 'replace (default), insert_after, insert_before or delete' -r -f -a "replace\t''
insert_after\t''
insert_before\t''
delete\t''"
complete -c agtool -n "__fish_agtool_using_subcommand notebook-edit" -l source -d 'The cell\'s new source (replace, insert_*), without line-number prefixes' -r
complete -c agtool -n "__fish_agtool_using_subcommand notebook-edit" -l cell-type -d 'code, markdown or raw: the new cell\'s type (default code), or a replaced cell\'s new type (default: unchanged)' -r -f -a "code\t''
markdown\t''
raw\t''"
complete -c agtool -n "__fish_agtool_using_subcommand notebook-edit" -l allow-placeholders -d 'Apply even when source adds a placeholder comment such as `# ... existing code` and drops lines of the old source (default false: refused)' -r -f -a "true\t''
false\t''"
complete -c agtool -n "__fish_agtool_using_subcommand notebook-edit" -l args -d 'All arguments as one JSON object (- reads it from stdin, @FILE from a file)' -r
complete -c agtool -n "__fish_agtool_using_subcommand notebook-edit" -l root -d 'Workspace root [env: AGTOOL_ROOT] (default: nearest .agent-state/, then .git, then the current directory)' -r
complete -c agtool -n "__fish_agtool_using_subcommand notebook-edit" -l agent -d 'Agent identity keying the freshness table [env: AGTOOL_AGENT] [default: default]' -r
complete -c agtool -n "__fish_agtool_using_subcommand notebook-edit" -l config -d 'Extra configuration file layered over the others [env: AGTOOL_CONFIG]' -r
complete -c agtool -n "__fish_agtool_using_subcommand notebook-edit" -l groups -d 'Tool groups enabled for call, schema and mcp, e.g. files,edit or all [env: AGTOOL_GROUPS]' -r
complete -c agtool -n "__fish_agtool_using_subcommand notebook-edit" -l color -d 'Colour for people (dry-run diffs, sessions list): auto, always or never; auto is off with NO_COLOR, on with CLICOLOR_FORCE; call and --json never colour' -r -f -a "auto\t'Colour for a terminal, off with NO_COLOR, on with CLICOLOR_FORCE'
always\t'Always colour people-facing output'
never\t'Never colour'"
complete -c agtool -n "__fish_agtool_using_subcommand notebook-edit" -l timeout-ms -d 'Override every tool\'s default timeout, in milliseconds' -r
complete -c agtool -n "__fish_agtool_using_subcommand notebook-edit" -l notes-dir -d 'The notes store [default: .agent-state/notes, or config notes.dir]' -r
complete -c agtool -n "__fish_agtool_using_subcommand notebook-edit" -l skills-dir -d 'A folder of skills, one subfolder with a SKILL.md each; repeatable, searched in order [env: AGTOOL_SKILLS, colon-separated]' -r
complete -c agtool -n "__fish_agtool_using_subcommand notebook-edit" -l json -d 'Print one JSON object {ok, output, error, ...} instead of text'
complete -c agtool -n "__fish_agtool_using_subcommand notebook-edit" -l no-freshness -d 'Turn the freshness gate off [env: AGTOOL_FRESHNESS=off]'
complete -c agtool -n "__fish_agtool_using_subcommand notebook-edit" -l no-syntax-check -d 'Turn the syntax gate off [env: AGTOOL_SYNTAX_CHECK=off]'
complete -c agtool -n "__fish_agtool_using_subcommand notebook-edit" -l approved -d 'The host\'s user approved this call: an ask rule lets it run (after exit status 3, Approval needed)'
complete -c agtool -n "__fish_agtool_using_subcommand notebook-edit" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c agtool -n "__fish_agtool_using_subcommand move-path" -l overwrite -d 'Replace an existing file or symlink at the destination (default false). A replaced file needs a current read_file of it; a folder is never replaced' -r -f -a "true\t''
false\t''"
complete -c agtool -n "__fish_agtool_using_subcommand move-path" -l dry-run -d 'Say what would be moved, move nothing (default false)' -r -f -a "true\t''
false\t''"
complete -c agtool -n "__fish_agtool_using_subcommand move-path" -l args -d 'All arguments as one JSON object (- reads it from stdin, @FILE from a file)' -r
complete -c agtool -n "__fish_agtool_using_subcommand move-path" -l root -d 'Workspace root [env: AGTOOL_ROOT] (default: nearest .agent-state/, then .git, then the current directory)' -r
complete -c agtool -n "__fish_agtool_using_subcommand move-path" -l agent -d 'Agent identity keying the freshness table [env: AGTOOL_AGENT] [default: default]' -r
complete -c agtool -n "__fish_agtool_using_subcommand move-path" -l config -d 'Extra configuration file layered over the others [env: AGTOOL_CONFIG]' -r
complete -c agtool -n "__fish_agtool_using_subcommand move-path" -l groups -d 'Tool groups enabled for call, schema and mcp, e.g. files,edit or all [env: AGTOOL_GROUPS]' -r
complete -c agtool -n "__fish_agtool_using_subcommand move-path" -l color -d 'Colour for people (dry-run diffs, sessions list): auto, always or never; auto is off with NO_COLOR, on with CLICOLOR_FORCE; call and --json never colour' -r -f -a "auto\t'Colour for a terminal, off with NO_COLOR, on with CLICOLOR_FORCE'
always\t'Always colour people-facing output'
never\t'Never colour'"
complete -c agtool -n "__fish_agtool_using_subcommand move-path" -l timeout-ms -d 'Override every tool\'s default timeout, in milliseconds' -r
complete -c agtool -n "__fish_agtool_using_subcommand move-path" -l notes-dir -d 'The notes store [default: .agent-state/notes, or config notes.dir]' -r
complete -c agtool -n "__fish_agtool_using_subcommand move-path" -l skills-dir -d 'A folder of skills, one subfolder with a SKILL.md each; repeatable, searched in order [env: AGTOOL_SKILLS, colon-separated]' -r
complete -c agtool -n "__fish_agtool_using_subcommand move-path" -l json -d 'Print one JSON object {ok, output, error, ...} instead of text'
complete -c agtool -n "__fish_agtool_using_subcommand move-path" -l no-freshness -d 'Turn the freshness gate off [env: AGTOOL_FRESHNESS=off]'
complete -c agtool -n "__fish_agtool_using_subcommand move-path" -l no-syntax-check -d 'Turn the syntax gate off [env: AGTOOL_SYNTAX_CHECK=off]'
complete -c agtool -n "__fish_agtool_using_subcommand move-path" -l approved -d 'The host\'s user approved this call: an ask rule lets it run (after exit status 3, Approval needed)'
complete -c agtool -n "__fish_agtool_using_subcommand move-path" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c agtool -n "__fish_agtool_using_subcommand copy-path" -l overwrite -d 'Replace an existing file or symlink at the destination (default false). A replaced file needs a current read_file of it; a folder is never replaced' -r -f -a "true\t''
false\t''"
complete -c agtool -n "__fish_agtool_using_subcommand copy-path" -l recursive -d 'Copy a folder and everything in it (default false; needed for any folder)' -r -f -a "true\t''
false\t''"
complete -c agtool -n "__fish_agtool_using_subcommand copy-path" -l dry-run -d 'Say what would be copied, copy nothing (default false)' -r -f -a "true\t''
false\t''"
complete -c agtool -n "__fish_agtool_using_subcommand copy-path" -l args -d 'All arguments as one JSON object (- reads it from stdin, @FILE from a file)' -r
complete -c agtool -n "__fish_agtool_using_subcommand copy-path" -l root -d 'Workspace root [env: AGTOOL_ROOT] (default: nearest .agent-state/, then .git, then the current directory)' -r
complete -c agtool -n "__fish_agtool_using_subcommand copy-path" -l agent -d 'Agent identity keying the freshness table [env: AGTOOL_AGENT] [default: default]' -r
complete -c agtool -n "__fish_agtool_using_subcommand copy-path" -l config -d 'Extra configuration file layered over the others [env: AGTOOL_CONFIG]' -r
complete -c agtool -n "__fish_agtool_using_subcommand copy-path" -l groups -d 'Tool groups enabled for call, schema and mcp, e.g. files,edit or all [env: AGTOOL_GROUPS]' -r
complete -c agtool -n "__fish_agtool_using_subcommand copy-path" -l color -d 'Colour for people (dry-run diffs, sessions list): auto, always or never; auto is off with NO_COLOR, on with CLICOLOR_FORCE; call and --json never colour' -r -f -a "auto\t'Colour for a terminal, off with NO_COLOR, on with CLICOLOR_FORCE'
always\t'Always colour people-facing output'
never\t'Never colour'"
complete -c agtool -n "__fish_agtool_using_subcommand copy-path" -l timeout-ms -d 'Override every tool\'s default timeout, in milliseconds' -r
complete -c agtool -n "__fish_agtool_using_subcommand copy-path" -l notes-dir -d 'The notes store [default: .agent-state/notes, or config notes.dir]' -r
complete -c agtool -n "__fish_agtool_using_subcommand copy-path" -l skills-dir -d 'A folder of skills, one subfolder with a SKILL.md each; repeatable, searched in order [env: AGTOOL_SKILLS, colon-separated]' -r
complete -c agtool -n "__fish_agtool_using_subcommand copy-path" -l json -d 'Print one JSON object {ok, output, error, ...} instead of text'
complete -c agtool -n "__fish_agtool_using_subcommand copy-path" -l no-freshness -d 'Turn the freshness gate off [env: AGTOOL_FRESHNESS=off]'
complete -c agtool -n "__fish_agtool_using_subcommand copy-path" -l no-syntax-check -d 'Turn the syntax gate off [env: AGTOOL_SYNTAX_CHECK=off]'
complete -c agtool -n "__fish_agtool_using_subcommand copy-path" -l approved -d 'The host\'s user approved this call: an ask rule lets it run (after exit status 3, Approval needed)'
complete -c agtool -n "__fish_agtool_using_subcommand copy-path" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c agtool -n "__fish_agtool_using_subcommand make-dir" -l dry-run -d 'Say what would be made, make nothing (default false)' -r -f -a "true\t''
false\t''"
complete -c agtool -n "__fish_agtool_using_subcommand make-dir" -l args -d 'All arguments as one JSON object (- reads it from stdin, @FILE from a file)' -r
complete -c agtool -n "__fish_agtool_using_subcommand make-dir" -l root -d 'Workspace root [env: AGTOOL_ROOT] (default: nearest .agent-state/, then .git, then the current directory)' -r
complete -c agtool -n "__fish_agtool_using_subcommand make-dir" -l agent -d 'Agent identity keying the freshness table [env: AGTOOL_AGENT] [default: default]' -r
complete -c agtool -n "__fish_agtool_using_subcommand make-dir" -l config -d 'Extra configuration file layered over the others [env: AGTOOL_CONFIG]' -r
complete -c agtool -n "__fish_agtool_using_subcommand make-dir" -l groups -d 'Tool groups enabled for call, schema and mcp, e.g. files,edit or all [env: AGTOOL_GROUPS]' -r
complete -c agtool -n "__fish_agtool_using_subcommand make-dir" -l color -d 'Colour for people (dry-run diffs, sessions list): auto, always or never; auto is off with NO_COLOR, on with CLICOLOR_FORCE; call and --json never colour' -r -f -a "auto\t'Colour for a terminal, off with NO_COLOR, on with CLICOLOR_FORCE'
always\t'Always colour people-facing output'
never\t'Never colour'"
complete -c agtool -n "__fish_agtool_using_subcommand make-dir" -l timeout-ms -d 'Override every tool\'s default timeout, in milliseconds' -r
complete -c agtool -n "__fish_agtool_using_subcommand make-dir" -l notes-dir -d 'The notes store [default: .agent-state/notes, or config notes.dir]' -r
complete -c agtool -n "__fish_agtool_using_subcommand make-dir" -l skills-dir -d 'A folder of skills, one subfolder with a SKILL.md each; repeatable, searched in order [env: AGTOOL_SKILLS, colon-separated]' -r
complete -c agtool -n "__fish_agtool_using_subcommand make-dir" -l json -d 'Print one JSON object {ok, output, error, ...} instead of text'
complete -c agtool -n "__fish_agtool_using_subcommand make-dir" -l no-freshness -d 'Turn the freshness gate off [env: AGTOOL_FRESHNESS=off]'
complete -c agtool -n "__fish_agtool_using_subcommand make-dir" -l no-syntax-check -d 'Turn the syntax gate off [env: AGTOOL_SYNTAX_CHECK=off]'
complete -c agtool -n "__fish_agtool_using_subcommand make-dir" -l approved -d 'The host\'s user approved this call: an ask rule lets it run (after exit status 3, Approval needed)'
complete -c agtool -n "__fish_agtool_using_subcommand make-dir" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c agtool -n "__fish_agtool_using_subcommand delete-path" -l recursive -d 'Delete a non-empty directory and everything in it (default false)' -r -f -a "true\t''
false\t''"
complete -c agtool -n "__fish_agtool_using_subcommand delete-path" -l dry-run -d 'Say what would be deleted, delete nothing (default false)' -r -f -a "true\t''
false\t''"
complete -c agtool -n "__fish_agtool_using_subcommand delete-path" -l args -d 'All arguments as one JSON object (- reads it from stdin, @FILE from a file)' -r
complete -c agtool -n "__fish_agtool_using_subcommand delete-path" -l root -d 'Workspace root [env: AGTOOL_ROOT] (default: nearest .agent-state/, then .git, then the current directory)' -r
complete -c agtool -n "__fish_agtool_using_subcommand delete-path" -l agent -d 'Agent identity keying the freshness table [env: AGTOOL_AGENT] [default: default]' -r
complete -c agtool -n "__fish_agtool_using_subcommand delete-path" -l config -d 'Extra configuration file layered over the others [env: AGTOOL_CONFIG]' -r
complete -c agtool -n "__fish_agtool_using_subcommand delete-path" -l groups -d 'Tool groups enabled for call, schema and mcp, e.g. files,edit or all [env: AGTOOL_GROUPS]' -r
complete -c agtool -n "__fish_agtool_using_subcommand delete-path" -l color -d 'Colour for people (dry-run diffs, sessions list): auto, always or never; auto is off with NO_COLOR, on with CLICOLOR_FORCE; call and --json never colour' -r -f -a "auto\t'Colour for a terminal, off with NO_COLOR, on with CLICOLOR_FORCE'
always\t'Always colour people-facing output'
never\t'Never colour'"
complete -c agtool -n "__fish_agtool_using_subcommand delete-path" -l timeout-ms -d 'Override every tool\'s default timeout, in milliseconds' -r
complete -c agtool -n "__fish_agtool_using_subcommand delete-path" -l notes-dir -d 'The notes store [default: .agent-state/notes, or config notes.dir]' -r
complete -c agtool -n "__fish_agtool_using_subcommand delete-path" -l skills-dir -d 'A folder of skills, one subfolder with a SKILL.md each; repeatable, searched in order [env: AGTOOL_SKILLS, colon-separated]' -r
complete -c agtool -n "__fish_agtool_using_subcommand delete-path" -l json -d 'Print one JSON object {ok, output, error, ...} instead of text'
complete -c agtool -n "__fish_agtool_using_subcommand delete-path" -l no-freshness -d 'Turn the freshness gate off [env: AGTOOL_FRESHNESS=off]'
complete -c agtool -n "__fish_agtool_using_subcommand delete-path" -l no-syntax-check -d 'Turn the syntax gate off [env: AGTOOL_SYNTAX_CHECK=off]'
complete -c agtool -n "__fish_agtool_using_subcommand delete-path" -l approved -d 'The host\'s user approved this call: an ask rule lets it run (after exit status 3, Approval needed)'
complete -c agtool -n "__fish_agtool_using_subcommand delete-path" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c agtool -n "__fish_agtool_using_subcommand exec" -l workdir -d 'Working directory (default: the current directory)' -r
complete -c agtool -n "__fish_agtool_using_subcommand exec" -l max-output-bytes -d 'Output budget in bytes: the first half and the last half are kept, the middle is dropped and counted (default 30000)' -r
complete -c agtool -n "__fish_agtool_using_subcommand exec" -l args -d 'All arguments as one JSON object (- reads it from stdin, @FILE from a file)' -r
complete -c agtool -n "__fish_agtool_using_subcommand exec" -l root -d 'Workspace root [env: AGTOOL_ROOT] (default: nearest .agent-state/, then .git, then the current directory)' -r
complete -c agtool -n "__fish_agtool_using_subcommand exec" -l agent -d 'Agent identity keying the freshness table [env: AGTOOL_AGENT] [default: default]' -r
complete -c agtool -n "__fish_agtool_using_subcommand exec" -l config -d 'Extra configuration file layered over the others [env: AGTOOL_CONFIG]' -r
complete -c agtool -n "__fish_agtool_using_subcommand exec" -l groups -d 'Tool groups enabled for call, schema and mcp, e.g. files,edit or all [env: AGTOOL_GROUPS]' -r
complete -c agtool -n "__fish_agtool_using_subcommand exec" -l color -d 'Colour for people (dry-run diffs, sessions list): auto, always or never; auto is off with NO_COLOR, on with CLICOLOR_FORCE; call and --json never colour' -r -f -a "auto\t'Colour for a terminal, off with NO_COLOR, on with CLICOLOR_FORCE'
always\t'Always colour people-facing output'
never\t'Never colour'"
complete -c agtool -n "__fish_agtool_using_subcommand exec" -l timeout-ms -d 'Override every tool\'s default timeout, in milliseconds' -r
complete -c agtool -n "__fish_agtool_using_subcommand exec" -l notes-dir -d 'The notes store [default: .agent-state/notes, or config notes.dir]' -r
complete -c agtool -n "__fish_agtool_using_subcommand exec" -l skills-dir -d 'A folder of skills, one subfolder with a SKILL.md each; repeatable, searched in order [env: AGTOOL_SKILLS, colon-separated]' -r
complete -c agtool -n "__fish_agtool_using_subcommand exec" -l exit-code -d 'CLI only: exit with the command\'s exit code instead of 0'
complete -c agtool -n "__fish_agtool_using_subcommand exec" -l json -d 'Print one JSON object {ok, output, error, ...} instead of text'
complete -c agtool -n "__fish_agtool_using_subcommand exec" -l no-freshness -d 'Turn the freshness gate off [env: AGTOOL_FRESHNESS=off]'
complete -c agtool -n "__fish_agtool_using_subcommand exec" -l no-syntax-check -d 'Turn the syntax gate off [env: AGTOOL_SYNTAX_CHECK=off]'
complete -c agtool -n "__fish_agtool_using_subcommand exec" -l approved -d 'The host\'s user approved this call: an ask rule lets it run (after exit status 3, Approval needed)'
complete -c agtool -n "__fish_agtool_using_subcommand exec" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c agtool -n "__fish_agtool_using_subcommand exec-command" -l workdir -d 'Working directory (default: the current directory)' -r
complete -c agtool -n "__fish_agtool_using_subcommand exec-command" -l shell -d 'The shell (default: config exec.shell, else /bin/bash)' -r
complete -c agtool -n "__fish_agtool_using_subcommand exec-command" -l login -d 'Run the shell as a login shell (-lc instead of -c; default false)' -r -f -a "true\t''
false\t''"
complete -c agtool -n "__fish_agtool_using_subcommand exec-command" -l yield-time-ms -d 'How long to wait for output before returning, in ms (default 10000; 250..30000). The call returns earlier when the command exits' -r
complete -c agtool -n "__fish_agtool_using_subcommand exec-command" -l max-output-tokens -d 'Output budget in tokens, 4 bytes each (default 10000); longer output keeps its head and tail' -r
complete -c agtool -n "__fish_agtool_using_subcommand exec-command" -l args -d 'All arguments as one JSON object (- reads it from stdin, @FILE from a file)' -r
complete -c agtool -n "__fish_agtool_using_subcommand exec-command" -l root -d 'Workspace root [env: AGTOOL_ROOT] (default: nearest .agent-state/, then .git, then the current directory)' -r
complete -c agtool -n "__fish_agtool_using_subcommand exec-command" -l agent -d 'Agent identity keying the freshness table [env: AGTOOL_AGENT] [default: default]' -r
complete -c agtool -n "__fish_agtool_using_subcommand exec-command" -l config -d 'Extra configuration file layered over the others [env: AGTOOL_CONFIG]' -r
complete -c agtool -n "__fish_agtool_using_subcommand exec-command" -l groups -d 'Tool groups enabled for call, schema and mcp, e.g. files,edit or all [env: AGTOOL_GROUPS]' -r
complete -c agtool -n "__fish_agtool_using_subcommand exec-command" -l color -d 'Colour for people (dry-run diffs, sessions list): auto, always or never; auto is off with NO_COLOR, on with CLICOLOR_FORCE; call and --json never colour' -r -f -a "auto\t'Colour for a terminal, off with NO_COLOR, on with CLICOLOR_FORCE'
always\t'Always colour people-facing output'
never\t'Never colour'"
complete -c agtool -n "__fish_agtool_using_subcommand exec-command" -l timeout-ms -d 'Override every tool\'s default timeout, in milliseconds' -r
complete -c agtool -n "__fish_agtool_using_subcommand exec-command" -l notes-dir -d 'The notes store [default: .agent-state/notes, or config notes.dir]' -r
complete -c agtool -n "__fish_agtool_using_subcommand exec-command" -l skills-dir -d 'A folder of skills, one subfolder with a SKILL.md each; repeatable, searched in order [env: AGTOOL_SKILLS, colon-separated]' -r
complete -c agtool -n "__fish_agtool_using_subcommand exec-command" -l json -d 'Print one JSON object {ok, output, error, ...} instead of text'
complete -c agtool -n "__fish_agtool_using_subcommand exec-command" -l no-freshness -d 'Turn the freshness gate off [env: AGTOOL_FRESHNESS=off]'
complete -c agtool -n "__fish_agtool_using_subcommand exec-command" -l no-syntax-check -d 'Turn the syntax gate off [env: AGTOOL_SYNTAX_CHECK=off]'
complete -c agtool -n "__fish_agtool_using_subcommand exec-command" -l approved -d 'The host\'s user approved this call: an ask rule lets it run (after exit status 3, Approval needed)'
complete -c agtool -n "__fish_agtool_using_subcommand exec-command" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c agtool -n "__fish_agtool_using_subcommand write-stdin" -l chars -d 'Text for the process\'s stdin, as is (escapes are not decoded: --chars $\'ls\\n\'; Ctrl-C is $\'\\x03\'); default: read from stdin when piped, else only poll' -r
complete -c agtool -n "__fish_agtool_using_subcommand write-stdin" -l yield-time-ms -d 'How long to wait for output, in ms (default 250; 250..30000 after a write; an empty poll waits 5000..300000). The call returns earlier when the process exits' -r
complete -c agtool -n "__fish_agtool_using_subcommand write-stdin" -l max-output-tokens -d 'Output budget in tokens, 4 bytes each (default 10000)' -r
complete -c agtool -n "__fish_agtool_using_subcommand write-stdin" -l args -d 'All arguments as one JSON object (- reads it from stdin, @FILE from a file)' -r
complete -c agtool -n "__fish_agtool_using_subcommand write-stdin" -l root -d 'Workspace root [env: AGTOOL_ROOT] (default: nearest .agent-state/, then .git, then the current directory)' -r
complete -c agtool -n "__fish_agtool_using_subcommand write-stdin" -l agent -d 'Agent identity keying the freshness table [env: AGTOOL_AGENT] [default: default]' -r
complete -c agtool -n "__fish_agtool_using_subcommand write-stdin" -l config -d 'Extra configuration file layered over the others [env: AGTOOL_CONFIG]' -r
complete -c agtool -n "__fish_agtool_using_subcommand write-stdin" -l groups -d 'Tool groups enabled for call, schema and mcp, e.g. files,edit or all [env: AGTOOL_GROUPS]' -r
complete -c agtool -n "__fish_agtool_using_subcommand write-stdin" -l color -d 'Colour for people (dry-run diffs, sessions list): auto, always or never; auto is off with NO_COLOR, on with CLICOLOR_FORCE; call and --json never colour' -r -f -a "auto\t'Colour for a terminal, off with NO_COLOR, on with CLICOLOR_FORCE'
always\t'Always colour people-facing output'
never\t'Never colour'"
complete -c agtool -n "__fish_agtool_using_subcommand write-stdin" -l timeout-ms -d 'Override every tool\'s default timeout, in milliseconds' -r
complete -c agtool -n "__fish_agtool_using_subcommand write-stdin" -l notes-dir -d 'The notes store [default: .agent-state/notes, or config notes.dir]' -r
complete -c agtool -n "__fish_agtool_using_subcommand write-stdin" -l skills-dir -d 'A folder of skills, one subfolder with a SKILL.md each; repeatable, searched in order [env: AGTOOL_SKILLS, colon-separated]' -r
complete -c agtool -n "__fish_agtool_using_subcommand write-stdin" -l json -d 'Print one JSON object {ok, output, error, ...} instead of text'
complete -c agtool -n "__fish_agtool_using_subcommand write-stdin" -l no-freshness -d 'Turn the freshness gate off [env: AGTOOL_FRESHNESS=off]'
complete -c agtool -n "__fish_agtool_using_subcommand write-stdin" -l no-syntax-check -d 'Turn the syntax gate off [env: AGTOOL_SYNTAX_CHECK=off]'
complete -c agtool -n "__fish_agtool_using_subcommand write-stdin" -l approved -d 'The host\'s user approved this call: an ask rule lets it run (after exit status 3, Approval needed)'
complete -c agtool -n "__fish_agtool_using_subcommand write-stdin" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c agtool -n "__fish_agtool_using_subcommand web-fetch" -l max-chars -d 'Most characters to return (default 40000, at most 200000)' -r
complete -c agtool -n "__fish_agtool_using_subcommand web-fetch" -l start-index -d 'Character offset to start at, to continue a long page (default 0). With a value above 0 the text comes from the copy kept by the earlier call, so the pages join exactly; 0 always fetches afresh' -r
complete -c agtool -n "__fish_agtool_using_subcommand web-fetch" -l raw -d 'Return the page\'s decoded text as it is, without converting HTML to text (default false)' -r -f -a "true\t''
false\t''"
complete -c agtool -n "__fish_agtool_using_subcommand web-fetch" -l args -d 'All arguments as one JSON object (- reads it from stdin, @FILE from a file)' -r
complete -c agtool -n "__fish_agtool_using_subcommand web-fetch" -l root -d 'Workspace root [env: AGTOOL_ROOT] (default: nearest .agent-state/, then .git, then the current directory)' -r
complete -c agtool -n "__fish_agtool_using_subcommand web-fetch" -l agent -d 'Agent identity keying the freshness table [env: AGTOOL_AGENT] [default: default]' -r
complete -c agtool -n "__fish_agtool_using_subcommand web-fetch" -l config -d 'Extra configuration file layered over the others [env: AGTOOL_CONFIG]' -r
complete -c agtool -n "__fish_agtool_using_subcommand web-fetch" -l groups -d 'Tool groups enabled for call, schema and mcp, e.g. files,edit or all [env: AGTOOL_GROUPS]' -r
complete -c agtool -n "__fish_agtool_using_subcommand web-fetch" -l color -d 'Colour for people (dry-run diffs, sessions list): auto, always or never; auto is off with NO_COLOR, on with CLICOLOR_FORCE; call and --json never colour' -r -f -a "auto\t'Colour for a terminal, off with NO_COLOR, on with CLICOLOR_FORCE'
always\t'Always colour people-facing output'
never\t'Never colour'"
complete -c agtool -n "__fish_agtool_using_subcommand web-fetch" -l timeout-ms -d 'Override every tool\'s default timeout, in milliseconds' -r
complete -c agtool -n "__fish_agtool_using_subcommand web-fetch" -l notes-dir -d 'The notes store [default: .agent-state/notes, or config notes.dir]' -r
complete -c agtool -n "__fish_agtool_using_subcommand web-fetch" -l skills-dir -d 'A folder of skills, one subfolder with a SKILL.md each; repeatable, searched in order [env: AGTOOL_SKILLS, colon-separated]' -r
complete -c agtool -n "__fish_agtool_using_subcommand web-fetch" -l json -d 'Print one JSON object {ok, output, error, ...} instead of text'
complete -c agtool -n "__fish_agtool_using_subcommand web-fetch" -l no-freshness -d 'Turn the freshness gate off [env: AGTOOL_FRESHNESS=off]'
complete -c agtool -n "__fish_agtool_using_subcommand web-fetch" -l no-syntax-check -d 'Turn the syntax gate off [env: AGTOOL_SYNTAX_CHECK=off]'
complete -c agtool -n "__fish_agtool_using_subcommand web-fetch" -l approved -d 'The host\'s user approved this call: an ask rule lets it run (after exit status 3, Approval needed)'
complete -c agtool -n "__fish_agtool_using_subcommand web-fetch" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c agtool -n "__fish_agtool_using_subcommand skill" -l args -d 'All arguments as one JSON object (- reads it from stdin, @FILE from a file)' -r
complete -c agtool -n "__fish_agtool_using_subcommand skill" -l root -d 'Workspace root [env: AGTOOL_ROOT] (default: nearest .agent-state/, then .git, then the current directory)' -r
complete -c agtool -n "__fish_agtool_using_subcommand skill" -l agent -d 'Agent identity keying the freshness table [env: AGTOOL_AGENT] [default: default]' -r
complete -c agtool -n "__fish_agtool_using_subcommand skill" -l config -d 'Extra configuration file layered over the others [env: AGTOOL_CONFIG]' -r
complete -c agtool -n "__fish_agtool_using_subcommand skill" -l groups -d 'Tool groups enabled for call, schema and mcp, e.g. files,edit or all [env: AGTOOL_GROUPS]' -r
complete -c agtool -n "__fish_agtool_using_subcommand skill" -l color -d 'Colour for people (dry-run diffs, sessions list): auto, always or never; auto is off with NO_COLOR, on with CLICOLOR_FORCE; call and --json never colour' -r -f -a "auto\t'Colour for a terminal, off with NO_COLOR, on with CLICOLOR_FORCE'
always\t'Always colour people-facing output'
never\t'Never colour'"
complete -c agtool -n "__fish_agtool_using_subcommand skill" -l timeout-ms -d 'Override every tool\'s default timeout, in milliseconds' -r
complete -c agtool -n "__fish_agtool_using_subcommand skill" -l notes-dir -d 'The notes store [default: .agent-state/notes, or config notes.dir]' -r
complete -c agtool -n "__fish_agtool_using_subcommand skill" -l skills-dir -d 'A folder of skills, one subfolder with a SKILL.md each; repeatable, searched in order [env: AGTOOL_SKILLS, colon-separated]' -r
complete -c agtool -n "__fish_agtool_using_subcommand skill" -l json -d 'Print one JSON object {ok, output, error, ...} instead of text'
complete -c agtool -n "__fish_agtool_using_subcommand skill" -l no-freshness -d 'Turn the freshness gate off [env: AGTOOL_FRESHNESS=off]'
complete -c agtool -n "__fish_agtool_using_subcommand skill" -l no-syntax-check -d 'Turn the syntax gate off [env: AGTOOL_SYNTAX_CHECK=off]'
complete -c agtool -n "__fish_agtool_using_subcommand skill" -l approved -d 'The host\'s user approved this call: an ask rule lets it run (after exit status 3, Approval needed)'
complete -c agtool -n "__fish_agtool_using_subcommand skill" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c agtool -n "__fish_agtool_using_subcommand notes; and not __fish_seen_subcommand_from list read write delete help" -l root -d 'Workspace root [env: AGTOOL_ROOT] (default: nearest .agent-state/, then .git, then the current directory)' -r
complete -c agtool -n "__fish_agtool_using_subcommand notes; and not __fish_seen_subcommand_from list read write delete help" -l agent -d 'Agent identity keying the freshness table [env: AGTOOL_AGENT] [default: default]' -r
complete -c agtool -n "__fish_agtool_using_subcommand notes; and not __fish_seen_subcommand_from list read write delete help" -l config -d 'Extra configuration file layered over the others [env: AGTOOL_CONFIG]' -r
complete -c agtool -n "__fish_agtool_using_subcommand notes; and not __fish_seen_subcommand_from list read write delete help" -l groups -d 'Tool groups enabled for call, schema and mcp, e.g. files,edit or all [env: AGTOOL_GROUPS]' -r
complete -c agtool -n "__fish_agtool_using_subcommand notes; and not __fish_seen_subcommand_from list read write delete help" -l color -d 'Colour for people (dry-run diffs, sessions list): auto, always or never; auto is off with NO_COLOR, on with CLICOLOR_FORCE; call and --json never colour' -r -f -a "auto\t'Colour for a terminal, off with NO_COLOR, on with CLICOLOR_FORCE'
always\t'Always colour people-facing output'
never\t'Never colour'"
complete -c agtool -n "__fish_agtool_using_subcommand notes; and not __fish_seen_subcommand_from list read write delete help" -l timeout-ms -d 'Override every tool\'s default timeout, in milliseconds' -r
complete -c agtool -n "__fish_agtool_using_subcommand notes; and not __fish_seen_subcommand_from list read write delete help" -l notes-dir -d 'The notes store [default: .agent-state/notes, or config notes.dir]' -r
complete -c agtool -n "__fish_agtool_using_subcommand notes; and not __fish_seen_subcommand_from list read write delete help" -l skills-dir -d 'A folder of skills, one subfolder with a SKILL.md each; repeatable, searched in order [env: AGTOOL_SKILLS, colon-separated]' -r
complete -c agtool -n "__fish_agtool_using_subcommand notes; and not __fish_seen_subcommand_from list read write delete help" -l json -d 'Print one JSON object {ok, output, error, ...} instead of text'
complete -c agtool -n "__fish_agtool_using_subcommand notes; and not __fish_seen_subcommand_from list read write delete help" -l no-freshness -d 'Turn the freshness gate off [env: AGTOOL_FRESHNESS=off]'
complete -c agtool -n "__fish_agtool_using_subcommand notes; and not __fish_seen_subcommand_from list read write delete help" -l no-syntax-check -d 'Turn the syntax gate off [env: AGTOOL_SYNTAX_CHECK=off]'
complete -c agtool -n "__fish_agtool_using_subcommand notes; and not __fish_seen_subcommand_from list read write delete help" -l approved -d 'The host\'s user approved this call: an ask rule lets it run (after exit status 3, Approval needed)'
complete -c agtool -n "__fish_agtool_using_subcommand notes; and not __fish_seen_subcommand_from list read write delete help" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c agtool -n "__fish_agtool_using_subcommand notes; and not __fish_seen_subcommand_from list read write delete help" -f -a "list" -d 'List the notes kept for this workspace, newest first.'
complete -c agtool -n "__fish_agtool_using_subcommand notes; and not __fish_seen_subcommand_from list read write delete help" -f -a "read" -d 'Read one note kept for this workspace.'
complete -c agtool -n "__fish_agtool_using_subcommand notes; and not __fish_seen_subcommand_from list read write delete help" -f -a "write" -d 'Save a note for later sessions in this workspace, or append to one.'
complete -c agtool -n "__fish_agtool_using_subcommand notes; and not __fish_seen_subcommand_from list read write delete help" -f -a "delete" -d 'Delete one note kept for this workspace.'
complete -c agtool -n "__fish_agtool_using_subcommand notes; and not __fish_seen_subcommand_from list read write delete help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c agtool -n "__fish_agtool_using_subcommand notes; and __fish_seen_subcommand_from list" -l query -d 'Only notes whose name or text contains this (any letter case)' -r
complete -c agtool -n "__fish_agtool_using_subcommand notes; and __fish_seen_subcommand_from list" -l args -d 'All arguments as one JSON object (- reads it from stdin, @FILE from a file)' -r
complete -c agtool -n "__fish_agtool_using_subcommand notes; and __fish_seen_subcommand_from list" -l root -d 'Workspace root [env: AGTOOL_ROOT] (default: nearest .agent-state/, then .git, then the current directory)' -r
complete -c agtool -n "__fish_agtool_using_subcommand notes; and __fish_seen_subcommand_from list" -l agent -d 'Agent identity keying the freshness table [env: AGTOOL_AGENT] [default: default]' -r
complete -c agtool -n "__fish_agtool_using_subcommand notes; and __fish_seen_subcommand_from list" -l config -d 'Extra configuration file layered over the others [env: AGTOOL_CONFIG]' -r
complete -c agtool -n "__fish_agtool_using_subcommand notes; and __fish_seen_subcommand_from list" -l groups -d 'Tool groups enabled for call, schema and mcp, e.g. files,edit or all [env: AGTOOL_GROUPS]' -r
complete -c agtool -n "__fish_agtool_using_subcommand notes; and __fish_seen_subcommand_from list" -l color -d 'Colour for people (dry-run diffs, sessions list): auto, always or never; auto is off with NO_COLOR, on with CLICOLOR_FORCE; call and --json never colour' -r -f -a "auto\t'Colour for a terminal, off with NO_COLOR, on with CLICOLOR_FORCE'
always\t'Always colour people-facing output'
never\t'Never colour'"
complete -c agtool -n "__fish_agtool_using_subcommand notes; and __fish_seen_subcommand_from list" -l timeout-ms -d 'Override every tool\'s default timeout, in milliseconds' -r
complete -c agtool -n "__fish_agtool_using_subcommand notes; and __fish_seen_subcommand_from list" -l notes-dir -d 'The notes store [default: .agent-state/notes, or config notes.dir]' -r
complete -c agtool -n "__fish_agtool_using_subcommand notes; and __fish_seen_subcommand_from list" -l skills-dir -d 'A folder of skills, one subfolder with a SKILL.md each; repeatable, searched in order [env: AGTOOL_SKILLS, colon-separated]' -r
complete -c agtool -n "__fish_agtool_using_subcommand notes; and __fish_seen_subcommand_from list" -l json -d 'Print one JSON object {ok, output, error, ...} instead of text'
complete -c agtool -n "__fish_agtool_using_subcommand notes; and __fish_seen_subcommand_from list" -l no-freshness -d 'Turn the freshness gate off [env: AGTOOL_FRESHNESS=off]'
complete -c agtool -n "__fish_agtool_using_subcommand notes; and __fish_seen_subcommand_from list" -l no-syntax-check -d 'Turn the syntax gate off [env: AGTOOL_SYNTAX_CHECK=off]'
complete -c agtool -n "__fish_agtool_using_subcommand notes; and __fish_seen_subcommand_from list" -l approved -d 'The host\'s user approved this call: an ask rule lets it run (after exit status 3, Approval needed)'
complete -c agtool -n "__fish_agtool_using_subcommand notes; and __fish_seen_subcommand_from list" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c agtool -n "__fish_agtool_using_subcommand notes; and __fish_seen_subcommand_from read" -l args -d 'All arguments as one JSON object (- reads it from stdin, @FILE from a file)' -r
complete -c agtool -n "__fish_agtool_using_subcommand notes; and __fish_seen_subcommand_from read" -l root -d 'Workspace root [env: AGTOOL_ROOT] (default: nearest .agent-state/, then .git, then the current directory)' -r
complete -c agtool -n "__fish_agtool_using_subcommand notes; and __fish_seen_subcommand_from read" -l agent -d 'Agent identity keying the freshness table [env: AGTOOL_AGENT] [default: default]' -r
complete -c agtool -n "__fish_agtool_using_subcommand notes; and __fish_seen_subcommand_from read" -l config -d 'Extra configuration file layered over the others [env: AGTOOL_CONFIG]' -r
complete -c agtool -n "__fish_agtool_using_subcommand notes; and __fish_seen_subcommand_from read" -l groups -d 'Tool groups enabled for call, schema and mcp, e.g. files,edit or all [env: AGTOOL_GROUPS]' -r
complete -c agtool -n "__fish_agtool_using_subcommand notes; and __fish_seen_subcommand_from read" -l color -d 'Colour for people (dry-run diffs, sessions list): auto, always or never; auto is off with NO_COLOR, on with CLICOLOR_FORCE; call and --json never colour' -r -f -a "auto\t'Colour for a terminal, off with NO_COLOR, on with CLICOLOR_FORCE'
always\t'Always colour people-facing output'
never\t'Never colour'"
complete -c agtool -n "__fish_agtool_using_subcommand notes; and __fish_seen_subcommand_from read" -l timeout-ms -d 'Override every tool\'s default timeout, in milliseconds' -r
complete -c agtool -n "__fish_agtool_using_subcommand notes; and __fish_seen_subcommand_from read" -l notes-dir -d 'The notes store [default: .agent-state/notes, or config notes.dir]' -r
complete -c agtool -n "__fish_agtool_using_subcommand notes; and __fish_seen_subcommand_from read" -l skills-dir -d 'A folder of skills, one subfolder with a SKILL.md each; repeatable, searched in order [env: AGTOOL_SKILLS, colon-separated]' -r
complete -c agtool -n "__fish_agtool_using_subcommand notes; and __fish_seen_subcommand_from read" -l json -d 'Print one JSON object {ok, output, error, ...} instead of text'
complete -c agtool -n "__fish_agtool_using_subcommand notes; and __fish_seen_subcommand_from read" -l no-freshness -d 'Turn the freshness gate off [env: AGTOOL_FRESHNESS=off]'
complete -c agtool -n "__fish_agtool_using_subcommand notes; and __fish_seen_subcommand_from read" -l no-syntax-check -d 'Turn the syntax gate off [env: AGTOOL_SYNTAX_CHECK=off]'
complete -c agtool -n "__fish_agtool_using_subcommand notes; and __fish_seen_subcommand_from read" -l approved -d 'The host\'s user approved this call: an ask rule lets it run (after exit status 3, Approval needed)'
complete -c agtool -n "__fish_agtool_using_subcommand notes; and __fish_seen_subcommand_from read" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c agtool -n "__fish_agtool_using_subcommand notes; and __fish_seen_subcommand_from write" -l content -d 'The text (CLI: --content, or stdin). Replaces the note, or is added at its end with append. A final newline is added when missing' -r
complete -c agtool -n "__fish_agtool_using_subcommand notes; and __fish_seen_subcommand_from write" -l append -d 'Add the content at the end of the existing note, on a new line, instead of replacing it (default false)' -r -f -a "true\t''
false\t''"
complete -c agtool -n "__fish_agtool_using_subcommand notes; and __fish_seen_subcommand_from write" -l args -d 'All arguments as one JSON object (- reads it from stdin, @FILE from a file)' -r
complete -c agtool -n "__fish_agtool_using_subcommand notes; and __fish_seen_subcommand_from write" -l root -d 'Workspace root [env: AGTOOL_ROOT] (default: nearest .agent-state/, then .git, then the current directory)' -r
complete -c agtool -n "__fish_agtool_using_subcommand notes; and __fish_seen_subcommand_from write" -l agent -d 'Agent identity keying the freshness table [env: AGTOOL_AGENT] [default: default]' -r
complete -c agtool -n "__fish_agtool_using_subcommand notes; and __fish_seen_subcommand_from write" -l config -d 'Extra configuration file layered over the others [env: AGTOOL_CONFIG]' -r
complete -c agtool -n "__fish_agtool_using_subcommand notes; and __fish_seen_subcommand_from write" -l groups -d 'Tool groups enabled for call, schema and mcp, e.g. files,edit or all [env: AGTOOL_GROUPS]' -r
complete -c agtool -n "__fish_agtool_using_subcommand notes; and __fish_seen_subcommand_from write" -l color -d 'Colour for people (dry-run diffs, sessions list): auto, always or never; auto is off with NO_COLOR, on with CLICOLOR_FORCE; call and --json never colour' -r -f -a "auto\t'Colour for a terminal, off with NO_COLOR, on with CLICOLOR_FORCE'
always\t'Always colour people-facing output'
never\t'Never colour'"
complete -c agtool -n "__fish_agtool_using_subcommand notes; and __fish_seen_subcommand_from write" -l timeout-ms -d 'Override every tool\'s default timeout, in milliseconds' -r
complete -c agtool -n "__fish_agtool_using_subcommand notes; and __fish_seen_subcommand_from write" -l notes-dir -d 'The notes store [default: .agent-state/notes, or config notes.dir]' -r
complete -c agtool -n "__fish_agtool_using_subcommand notes; and __fish_seen_subcommand_from write" -l skills-dir -d 'A folder of skills, one subfolder with a SKILL.md each; repeatable, searched in order [env: AGTOOL_SKILLS, colon-separated]' -r
complete -c agtool -n "__fish_agtool_using_subcommand notes; and __fish_seen_subcommand_from write" -l json -d 'Print one JSON object {ok, output, error, ...} instead of text'
complete -c agtool -n "__fish_agtool_using_subcommand notes; and __fish_seen_subcommand_from write" -l no-freshness -d 'Turn the freshness gate off [env: AGTOOL_FRESHNESS=off]'
complete -c agtool -n "__fish_agtool_using_subcommand notes; and __fish_seen_subcommand_from write" -l no-syntax-check -d 'Turn the syntax gate off [env: AGTOOL_SYNTAX_CHECK=off]'
complete -c agtool -n "__fish_agtool_using_subcommand notes; and __fish_seen_subcommand_from write" -l approved -d 'The host\'s user approved this call: an ask rule lets it run (after exit status 3, Approval needed)'
complete -c agtool -n "__fish_agtool_using_subcommand notes; and __fish_seen_subcommand_from write" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c agtool -n "__fish_agtool_using_subcommand notes; and __fish_seen_subcommand_from delete" -l args -d 'All arguments as one JSON object (- reads it from stdin, @FILE from a file)' -r
complete -c agtool -n "__fish_agtool_using_subcommand notes; and __fish_seen_subcommand_from delete" -l root -d 'Workspace root [env: AGTOOL_ROOT] (default: nearest .agent-state/, then .git, then the current directory)' -r
complete -c agtool -n "__fish_agtool_using_subcommand notes; and __fish_seen_subcommand_from delete" -l agent -d 'Agent identity keying the freshness table [env: AGTOOL_AGENT] [default: default]' -r
complete -c agtool -n "__fish_agtool_using_subcommand notes; and __fish_seen_subcommand_from delete" -l config -d 'Extra configuration file layered over the others [env: AGTOOL_CONFIG]' -r
complete -c agtool -n "__fish_agtool_using_subcommand notes; and __fish_seen_subcommand_from delete" -l groups -d 'Tool groups enabled for call, schema and mcp, e.g. files,edit or all [env: AGTOOL_GROUPS]' -r
complete -c agtool -n "__fish_agtool_using_subcommand notes; and __fish_seen_subcommand_from delete" -l color -d 'Colour for people (dry-run diffs, sessions list): auto, always or never; auto is off with NO_COLOR, on with CLICOLOR_FORCE; call and --json never colour' -r -f -a "auto\t'Colour for a terminal, off with NO_COLOR, on with CLICOLOR_FORCE'
always\t'Always colour people-facing output'
never\t'Never colour'"
complete -c agtool -n "__fish_agtool_using_subcommand notes; and __fish_seen_subcommand_from delete" -l timeout-ms -d 'Override every tool\'s default timeout, in milliseconds' -r
complete -c agtool -n "__fish_agtool_using_subcommand notes; and __fish_seen_subcommand_from delete" -l notes-dir -d 'The notes store [default: .agent-state/notes, or config notes.dir]' -r
complete -c agtool -n "__fish_agtool_using_subcommand notes; and __fish_seen_subcommand_from delete" -l skills-dir -d 'A folder of skills, one subfolder with a SKILL.md each; repeatable, searched in order [env: AGTOOL_SKILLS, colon-separated]' -r
complete -c agtool -n "__fish_agtool_using_subcommand notes; and __fish_seen_subcommand_from delete" -l json -d 'Print one JSON object {ok, output, error, ...} instead of text'
complete -c agtool -n "__fish_agtool_using_subcommand notes; and __fish_seen_subcommand_from delete" -l no-freshness -d 'Turn the freshness gate off [env: AGTOOL_FRESHNESS=off]'
complete -c agtool -n "__fish_agtool_using_subcommand notes; and __fish_seen_subcommand_from delete" -l no-syntax-check -d 'Turn the syntax gate off [env: AGTOOL_SYNTAX_CHECK=off]'
complete -c agtool -n "__fish_agtool_using_subcommand notes; and __fish_seen_subcommand_from delete" -l approved -d 'The host\'s user approved this call: an ask rule lets it run (after exit status 3, Approval needed)'
complete -c agtool -n "__fish_agtool_using_subcommand notes; and __fish_seen_subcommand_from delete" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c agtool -n "__fish_agtool_using_subcommand notes; and __fish_seen_subcommand_from help" -f -a "list" -d 'List the notes kept for this workspace, newest first.'
complete -c agtool -n "__fish_agtool_using_subcommand notes; and __fish_seen_subcommand_from help" -f -a "read" -d 'Read one note kept for this workspace.'
complete -c agtool -n "__fish_agtool_using_subcommand notes; and __fish_seen_subcommand_from help" -f -a "write" -d 'Save a note for later sessions in this workspace, or append to one.'
complete -c agtool -n "__fish_agtool_using_subcommand notes; and __fish_seen_subcommand_from help" -f -a "delete" -d 'Delete one note kept for this workspace.'
complete -c agtool -n "__fish_agtool_using_subcommand notes; and __fish_seen_subcommand_from help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c agtool -n "__fish_agtool_using_subcommand schema" -l format -d 'The API whose tool shape to print' -r -f -a "anthropic\t''
openai\t''
openai-responses\t''
mcp\t''
gemini\t''"
complete -c agtool -n "__fish_agtool_using_subcommand schema" -l root -d 'Workspace root [env: AGTOOL_ROOT] (default: nearest .agent-state/, then .git, then the current directory)' -r
complete -c agtool -n "__fish_agtool_using_subcommand schema" -l agent -d 'Agent identity keying the freshness table [env: AGTOOL_AGENT] [default: default]' -r
complete -c agtool -n "__fish_agtool_using_subcommand schema" -l config -d 'Extra configuration file layered over the others [env: AGTOOL_CONFIG]' -r
complete -c agtool -n "__fish_agtool_using_subcommand schema" -l groups -d 'Tool groups enabled for call, schema and mcp, e.g. files,edit or all [env: AGTOOL_GROUPS]' -r
complete -c agtool -n "__fish_agtool_using_subcommand schema" -l color -d 'Colour for people (dry-run diffs, sessions list): auto, always or never; auto is off with NO_COLOR, on with CLICOLOR_FORCE; call and --json never colour' -r -f -a "auto\t'Colour for a terminal, off with NO_COLOR, on with CLICOLOR_FORCE'
always\t'Always colour people-facing output'
never\t'Never colour'"
complete -c agtool -n "__fish_agtool_using_subcommand schema" -l timeout-ms -d 'Override every tool\'s default timeout, in milliseconds' -r
complete -c agtool -n "__fish_agtool_using_subcommand schema" -l notes-dir -d 'The notes store [default: .agent-state/notes, or config notes.dir]' -r
complete -c agtool -n "__fish_agtool_using_subcommand schema" -l skills-dir -d 'A folder of skills, one subfolder with a SKILL.md each; repeatable, searched in order [env: AGTOOL_SKILLS, colon-separated]' -r
complete -c agtool -n "__fish_agtool_using_subcommand schema" -l strict -d 'OpenAI strict mode: every property required (optional ones nullable), no extra keys, constraints in the descriptions'
complete -c agtool -n "__fish_agtool_using_subcommand schema" -l extensions -d 'Add agtool\'s own metadata as "x-agtool" (group, sensitive, serial, timeout_ms, idempotent, tags); APIs reject it'
complete -c agtool -n "__fish_agtool_using_subcommand schema" -l no-extensions
complete -c agtool -n "__fish_agtool_using_subcommand schema" -l json -d 'Print one JSON object {ok, output, error, ...} instead of text'
complete -c agtool -n "__fish_agtool_using_subcommand schema" -l no-freshness -d 'Turn the freshness gate off [env: AGTOOL_FRESHNESS=off]'
complete -c agtool -n "__fish_agtool_using_subcommand schema" -l no-syntax-check -d 'Turn the syntax gate off [env: AGTOOL_SYNTAX_CHECK=off]'
complete -c agtool -n "__fish_agtool_using_subcommand schema" -l approved -d 'The host\'s user approved this call: an ask rule lets it run (after exit status 3, Approval needed)'
complete -c agtool -n "__fish_agtool_using_subcommand schema" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c agtool -n "__fish_agtool_using_subcommand call" -l root -d 'Workspace root [env: AGTOOL_ROOT] (default: nearest .agent-state/, then .git, then the current directory)' -r
complete -c agtool -n "__fish_agtool_using_subcommand call" -l agent -d 'Agent identity keying the freshness table [env: AGTOOL_AGENT] [default: default]' -r
complete -c agtool -n "__fish_agtool_using_subcommand call" -l config -d 'Extra configuration file layered over the others [env: AGTOOL_CONFIG]' -r
complete -c agtool -n "__fish_agtool_using_subcommand call" -l groups -d 'Tool groups enabled for call, schema and mcp, e.g. files,edit or all [env: AGTOOL_GROUPS]' -r
complete -c agtool -n "__fish_agtool_using_subcommand call" -l color -d 'Colour for people (dry-run diffs, sessions list): auto, always or never; auto is off with NO_COLOR, on with CLICOLOR_FORCE; call and --json never colour' -r -f -a "auto\t'Colour for a terminal, off with NO_COLOR, on with CLICOLOR_FORCE'
always\t'Always colour people-facing output'
never\t'Never colour'"
complete -c agtool -n "__fish_agtool_using_subcommand call" -l timeout-ms -d 'Override every tool\'s default timeout, in milliseconds' -r
complete -c agtool -n "__fish_agtool_using_subcommand call" -l notes-dir -d 'The notes store [default: .agent-state/notes, or config notes.dir]' -r
complete -c agtool -n "__fish_agtool_using_subcommand call" -l skills-dir -d 'A folder of skills, one subfolder with a SKILL.md each; repeatable, searched in order [env: AGTOOL_SKILLS, colon-separated]' -r
complete -c agtool -n "__fish_agtool_using_subcommand call" -l batch -d 'stdin holds a JSON array of envelopes; prints a JSON array of results'
complete -c agtool -n "__fish_agtool_using_subcommand call" -l json -d 'Print one JSON object {ok, output, error, ...} instead of text'
complete -c agtool -n "__fish_agtool_using_subcommand call" -l no-freshness -d 'Turn the freshness gate off [env: AGTOOL_FRESHNESS=off]'
complete -c agtool -n "__fish_agtool_using_subcommand call" -l no-syntax-check -d 'Turn the syntax gate off [env: AGTOOL_SYNTAX_CHECK=off]'
complete -c agtool -n "__fish_agtool_using_subcommand call" -l approved -d 'The host\'s user approved this call: an ask rule lets it run (after exit status 3, Approval needed)'
complete -c agtool -n "__fish_agtool_using_subcommand call" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c agtool -n "__fish_agtool_using_subcommand mcp" -l http -d 'Serve MCP over Streamable HTTP on this address (path /mcp) instead of stdio. Without a bearer token only a loopback address is accepted' -r
complete -c agtool -n "__fish_agtool_using_subcommand mcp" -l token-file -d 'With --http: the bearer token clients must send (Authorization: Bearer), read from this file [env: AGTOOL_MCP_TOKEN]' -r
complete -c agtool -n "__fish_agtool_using_subcommand mcp" -l root -d 'Workspace root [env: AGTOOL_ROOT] (default: nearest .agent-state/, then .git, then the current directory)' -r
complete -c agtool -n "__fish_agtool_using_subcommand mcp" -l agent -d 'Agent identity keying the freshness table [env: AGTOOL_AGENT] [default: default]' -r
complete -c agtool -n "__fish_agtool_using_subcommand mcp" -l config -d 'Extra configuration file layered over the others [env: AGTOOL_CONFIG]' -r
complete -c agtool -n "__fish_agtool_using_subcommand mcp" -l groups -d 'Tool groups enabled for call, schema and mcp, e.g. files,edit or all [env: AGTOOL_GROUPS]' -r
complete -c agtool -n "__fish_agtool_using_subcommand mcp" -l color -d 'Colour for people (dry-run diffs, sessions list): auto, always or never; auto is off with NO_COLOR, on with CLICOLOR_FORCE; call and --json never colour' -r -f -a "auto\t'Colour for a terminal, off with NO_COLOR, on with CLICOLOR_FORCE'
always\t'Always colour people-facing output'
never\t'Never colour'"
complete -c agtool -n "__fish_agtool_using_subcommand mcp" -l timeout-ms -d 'Override every tool\'s default timeout, in milliseconds' -r
complete -c agtool -n "__fish_agtool_using_subcommand mcp" -l notes-dir -d 'The notes store [default: .agent-state/notes, or config notes.dir]' -r
complete -c agtool -n "__fish_agtool_using_subcommand mcp" -l skills-dir -d 'A folder of skills, one subfolder with a SKILL.md each; repeatable, searched in order [env: AGTOOL_SKILLS, colon-separated]' -r
complete -c agtool -n "__fish_agtool_using_subcommand mcp" -l json -d 'Print one JSON object {ok, output, error, ...} instead of text'
complete -c agtool -n "__fish_agtool_using_subcommand mcp" -l no-freshness -d 'Turn the freshness gate off [env: AGTOOL_FRESHNESS=off]'
complete -c agtool -n "__fish_agtool_using_subcommand mcp" -l no-syntax-check -d 'Turn the syntax gate off [env: AGTOOL_SYNTAX_CHECK=off]'
complete -c agtool -n "__fish_agtool_using_subcommand mcp" -l approved -d 'The host\'s user approved this call: an ask rule lets it run (after exit status 3, Approval needed)'
complete -c agtool -n "__fish_agtool_using_subcommand mcp" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c agtool -n "__fish_agtool_using_subcommand state; and not __fish_seen_subcommand_from show forget reset recover help" -l root -d 'Workspace root [env: AGTOOL_ROOT] (default: nearest .agent-state/, then .git, then the current directory)' -r
complete -c agtool -n "__fish_agtool_using_subcommand state; and not __fish_seen_subcommand_from show forget reset recover help" -l agent -d 'Agent identity keying the freshness table [env: AGTOOL_AGENT] [default: default]' -r
complete -c agtool -n "__fish_agtool_using_subcommand state; and not __fish_seen_subcommand_from show forget reset recover help" -l config -d 'Extra configuration file layered over the others [env: AGTOOL_CONFIG]' -r
complete -c agtool -n "__fish_agtool_using_subcommand state; and not __fish_seen_subcommand_from show forget reset recover help" -l groups -d 'Tool groups enabled for call, schema and mcp, e.g. files,edit or all [env: AGTOOL_GROUPS]' -r
complete -c agtool -n "__fish_agtool_using_subcommand state; and not __fish_seen_subcommand_from show forget reset recover help" -l color -d 'Colour for people (dry-run diffs, sessions list): auto, always or never; auto is off with NO_COLOR, on with CLICOLOR_FORCE; call and --json never colour' -r -f -a "auto\t'Colour for a terminal, off with NO_COLOR, on with CLICOLOR_FORCE'
always\t'Always colour people-facing output'
never\t'Never colour'"
complete -c agtool -n "__fish_agtool_using_subcommand state; and not __fish_seen_subcommand_from show forget reset recover help" -l timeout-ms -d 'Override every tool\'s default timeout, in milliseconds' -r
complete -c agtool -n "__fish_agtool_using_subcommand state; and not __fish_seen_subcommand_from show forget reset recover help" -l notes-dir -d 'The notes store [default: .agent-state/notes, or config notes.dir]' -r
complete -c agtool -n "__fish_agtool_using_subcommand state; and not __fish_seen_subcommand_from show forget reset recover help" -l skills-dir -d 'A folder of skills, one subfolder with a SKILL.md each; repeatable, searched in order [env: AGTOOL_SKILLS, colon-separated]' -r
complete -c agtool -n "__fish_agtool_using_subcommand state; and not __fish_seen_subcommand_from show forget reset recover help" -l json -d 'Print one JSON object {ok, output, error, ...} instead of text'
complete -c agtool -n "__fish_agtool_using_subcommand state; and not __fish_seen_subcommand_from show forget reset recover help" -l no-freshness -d 'Turn the freshness gate off [env: AGTOOL_FRESHNESS=off]'
complete -c agtool -n "__fish_agtool_using_subcommand state; and not __fish_seen_subcommand_from show forget reset recover help" -l no-syntax-check -d 'Turn the syntax gate off [env: AGTOOL_SYNTAX_CHECK=off]'
complete -c agtool -n "__fish_agtool_using_subcommand state; and not __fish_seen_subcommand_from show forget reset recover help" -l approved -d 'The host\'s user approved this call: an ask rule lets it run (after exit status 3, Approval needed)'
complete -c agtool -n "__fish_agtool_using_subcommand state; and not __fish_seen_subcommand_from show forget reset recover help" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c agtool -n "__fish_agtool_using_subcommand state; and not __fish_seen_subcommand_from show forget reset recover help" -f -a "show" -d 'List every recorded (agent, path, tag)'
complete -c agtool -n "__fish_agtool_using_subcommand state; and not __fish_seen_subcommand_from show forget reset recover help" -f -a "forget" -d 'Forget what every agent read of PATH (a folder: everything under it)'
complete -c agtool -n "__fish_agtool_using_subcommand state; and not __fish_seen_subcommand_from show forget reset recover help" -f -a "reset" -d 'Forget everything'
complete -c agtool -n "__fish_agtool_using_subcommand state; and not __fish_seen_subcommand_from show forget reset recover help" -f -a "recover" -d 'Roll back writes interrupted by a kill and remove their temp files (every call does this too; this says what it did)'
complete -c agtool -n "__fish_agtool_using_subcommand state; and not __fish_seen_subcommand_from show forget reset recover help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c agtool -n "__fish_agtool_using_subcommand state; and __fish_seen_subcommand_from show" -l root -d 'Workspace root [env: AGTOOL_ROOT] (default: nearest .agent-state/, then .git, then the current directory)' -r
complete -c agtool -n "__fish_agtool_using_subcommand state; and __fish_seen_subcommand_from show" -l agent -d 'Agent identity keying the freshness table [env: AGTOOL_AGENT] [default: default]' -r
complete -c agtool -n "__fish_agtool_using_subcommand state; and __fish_seen_subcommand_from show" -l config -d 'Extra configuration file layered over the others [env: AGTOOL_CONFIG]' -r
complete -c agtool -n "__fish_agtool_using_subcommand state; and __fish_seen_subcommand_from show" -l groups -d 'Tool groups enabled for call, schema and mcp, e.g. files,edit or all [env: AGTOOL_GROUPS]' -r
complete -c agtool -n "__fish_agtool_using_subcommand state; and __fish_seen_subcommand_from show" -l color -d 'Colour for people (dry-run diffs, sessions list): auto, always or never; auto is off with NO_COLOR, on with CLICOLOR_FORCE; call and --json never colour' -r -f -a "auto\t'Colour for a terminal, off with NO_COLOR, on with CLICOLOR_FORCE'
always\t'Always colour people-facing output'
never\t'Never colour'"
complete -c agtool -n "__fish_agtool_using_subcommand state; and __fish_seen_subcommand_from show" -l timeout-ms -d 'Override every tool\'s default timeout, in milliseconds' -r
complete -c agtool -n "__fish_agtool_using_subcommand state; and __fish_seen_subcommand_from show" -l notes-dir -d 'The notes store [default: .agent-state/notes, or config notes.dir]' -r
complete -c agtool -n "__fish_agtool_using_subcommand state; and __fish_seen_subcommand_from show" -l skills-dir -d 'A folder of skills, one subfolder with a SKILL.md each; repeatable, searched in order [env: AGTOOL_SKILLS, colon-separated]' -r
complete -c agtool -n "__fish_agtool_using_subcommand state; and __fish_seen_subcommand_from show" -l json -d 'Print one JSON object {ok, output, error, ...} instead of text'
complete -c agtool -n "__fish_agtool_using_subcommand state; and __fish_seen_subcommand_from show" -l no-freshness -d 'Turn the freshness gate off [env: AGTOOL_FRESHNESS=off]'
complete -c agtool -n "__fish_agtool_using_subcommand state; and __fish_seen_subcommand_from show" -l no-syntax-check -d 'Turn the syntax gate off [env: AGTOOL_SYNTAX_CHECK=off]'
complete -c agtool -n "__fish_agtool_using_subcommand state; and __fish_seen_subcommand_from show" -l approved -d 'The host\'s user approved this call: an ask rule lets it run (after exit status 3, Approval needed)'
complete -c agtool -n "__fish_agtool_using_subcommand state; and __fish_seen_subcommand_from show" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c agtool -n "__fish_agtool_using_subcommand state; and __fish_seen_subcommand_from forget" -l root -d 'Workspace root [env: AGTOOL_ROOT] (default: nearest .agent-state/, then .git, then the current directory)' -r
complete -c agtool -n "__fish_agtool_using_subcommand state; and __fish_seen_subcommand_from forget" -l agent -d 'Agent identity keying the freshness table [env: AGTOOL_AGENT] [default: default]' -r
complete -c agtool -n "__fish_agtool_using_subcommand state; and __fish_seen_subcommand_from forget" -l config -d 'Extra configuration file layered over the others [env: AGTOOL_CONFIG]' -r
complete -c agtool -n "__fish_agtool_using_subcommand state; and __fish_seen_subcommand_from forget" -l groups -d 'Tool groups enabled for call, schema and mcp, e.g. files,edit or all [env: AGTOOL_GROUPS]' -r
complete -c agtool -n "__fish_agtool_using_subcommand state; and __fish_seen_subcommand_from forget" -l color -d 'Colour for people (dry-run diffs, sessions list): auto, always or never; auto is off with NO_COLOR, on with CLICOLOR_FORCE; call and --json never colour' -r -f -a "auto\t'Colour for a terminal, off with NO_COLOR, on with CLICOLOR_FORCE'
always\t'Always colour people-facing output'
never\t'Never colour'"
complete -c agtool -n "__fish_agtool_using_subcommand state; and __fish_seen_subcommand_from forget" -l timeout-ms -d 'Override every tool\'s default timeout, in milliseconds' -r
complete -c agtool -n "__fish_agtool_using_subcommand state; and __fish_seen_subcommand_from forget" -l notes-dir -d 'The notes store [default: .agent-state/notes, or config notes.dir]' -r
complete -c agtool -n "__fish_agtool_using_subcommand state; and __fish_seen_subcommand_from forget" -l skills-dir -d 'A folder of skills, one subfolder with a SKILL.md each; repeatable, searched in order [env: AGTOOL_SKILLS, colon-separated]' -r
complete -c agtool -n "__fish_agtool_using_subcommand state; and __fish_seen_subcommand_from forget" -l json -d 'Print one JSON object {ok, output, error, ...} instead of text'
complete -c agtool -n "__fish_agtool_using_subcommand state; and __fish_seen_subcommand_from forget" -l no-freshness -d 'Turn the freshness gate off [env: AGTOOL_FRESHNESS=off]'
complete -c agtool -n "__fish_agtool_using_subcommand state; and __fish_seen_subcommand_from forget" -l no-syntax-check -d 'Turn the syntax gate off [env: AGTOOL_SYNTAX_CHECK=off]'
complete -c agtool -n "__fish_agtool_using_subcommand state; and __fish_seen_subcommand_from forget" -l approved -d 'The host\'s user approved this call: an ask rule lets it run (after exit status 3, Approval needed)'
complete -c agtool -n "__fish_agtool_using_subcommand state; and __fish_seen_subcommand_from forget" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c agtool -n "__fish_agtool_using_subcommand state; and __fish_seen_subcommand_from reset" -l root -d 'Workspace root [env: AGTOOL_ROOT] (default: nearest .agent-state/, then .git, then the current directory)' -r
complete -c agtool -n "__fish_agtool_using_subcommand state; and __fish_seen_subcommand_from reset" -l agent -d 'Agent identity keying the freshness table [env: AGTOOL_AGENT] [default: default]' -r
complete -c agtool -n "__fish_agtool_using_subcommand state; and __fish_seen_subcommand_from reset" -l config -d 'Extra configuration file layered over the others [env: AGTOOL_CONFIG]' -r
complete -c agtool -n "__fish_agtool_using_subcommand state; and __fish_seen_subcommand_from reset" -l groups -d 'Tool groups enabled for call, schema and mcp, e.g. files,edit or all [env: AGTOOL_GROUPS]' -r
complete -c agtool -n "__fish_agtool_using_subcommand state; and __fish_seen_subcommand_from reset" -l color -d 'Colour for people (dry-run diffs, sessions list): auto, always or never; auto is off with NO_COLOR, on with CLICOLOR_FORCE; call and --json never colour' -r -f -a "auto\t'Colour for a terminal, off with NO_COLOR, on with CLICOLOR_FORCE'
always\t'Always colour people-facing output'
never\t'Never colour'"
complete -c agtool -n "__fish_agtool_using_subcommand state; and __fish_seen_subcommand_from reset" -l timeout-ms -d 'Override every tool\'s default timeout, in milliseconds' -r
complete -c agtool -n "__fish_agtool_using_subcommand state; and __fish_seen_subcommand_from reset" -l notes-dir -d 'The notes store [default: .agent-state/notes, or config notes.dir]' -r
complete -c agtool -n "__fish_agtool_using_subcommand state; and __fish_seen_subcommand_from reset" -l skills-dir -d 'A folder of skills, one subfolder with a SKILL.md each; repeatable, searched in order [env: AGTOOL_SKILLS, colon-separated]' -r
complete -c agtool -n "__fish_agtool_using_subcommand state; and __fish_seen_subcommand_from reset" -l json -d 'Print one JSON object {ok, output, error, ...} instead of text'
complete -c agtool -n "__fish_agtool_using_subcommand state; and __fish_seen_subcommand_from reset" -l no-freshness -d 'Turn the freshness gate off [env: AGTOOL_FRESHNESS=off]'
complete -c agtool -n "__fish_agtool_using_subcommand state; and __fish_seen_subcommand_from reset" -l no-syntax-check -d 'Turn the syntax gate off [env: AGTOOL_SYNTAX_CHECK=off]'
complete -c agtool -n "__fish_agtool_using_subcommand state; and __fish_seen_subcommand_from reset" -l approved -d 'The host\'s user approved this call: an ask rule lets it run (after exit status 3, Approval needed)'
complete -c agtool -n "__fish_agtool_using_subcommand state; and __fish_seen_subcommand_from reset" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c agtool -n "__fish_agtool_using_subcommand state; and __fish_seen_subcommand_from recover" -l root -d 'Workspace root [env: AGTOOL_ROOT] (default: nearest .agent-state/, then .git, then the current directory)' -r
complete -c agtool -n "__fish_agtool_using_subcommand state; and __fish_seen_subcommand_from recover" -l agent -d 'Agent identity keying the freshness table [env: AGTOOL_AGENT] [default: default]' -r
complete -c agtool -n "__fish_agtool_using_subcommand state; and __fish_seen_subcommand_from recover" -l config -d 'Extra configuration file layered over the others [env: AGTOOL_CONFIG]' -r
complete -c agtool -n "__fish_agtool_using_subcommand state; and __fish_seen_subcommand_from recover" -l groups -d 'Tool groups enabled for call, schema and mcp, e.g. files,edit or all [env: AGTOOL_GROUPS]' -r
complete -c agtool -n "__fish_agtool_using_subcommand state; and __fish_seen_subcommand_from recover" -l color -d 'Colour for people (dry-run diffs, sessions list): auto, always or never; auto is off with NO_COLOR, on with CLICOLOR_FORCE; call and --json never colour' -r -f -a "auto\t'Colour for a terminal, off with NO_COLOR, on with CLICOLOR_FORCE'
always\t'Always colour people-facing output'
never\t'Never colour'"
complete -c agtool -n "__fish_agtool_using_subcommand state; and __fish_seen_subcommand_from recover" -l timeout-ms -d 'Override every tool\'s default timeout, in milliseconds' -r
complete -c agtool -n "__fish_agtool_using_subcommand state; and __fish_seen_subcommand_from recover" -l notes-dir -d 'The notes store [default: .agent-state/notes, or config notes.dir]' -r
complete -c agtool -n "__fish_agtool_using_subcommand state; and __fish_seen_subcommand_from recover" -l skills-dir -d 'A folder of skills, one subfolder with a SKILL.md each; repeatable, searched in order [env: AGTOOL_SKILLS, colon-separated]' -r
complete -c agtool -n "__fish_agtool_using_subcommand state; and __fish_seen_subcommand_from recover" -l json -d 'Print one JSON object {ok, output, error, ...} instead of text'
complete -c agtool -n "__fish_agtool_using_subcommand state; and __fish_seen_subcommand_from recover" -l no-freshness -d 'Turn the freshness gate off [env: AGTOOL_FRESHNESS=off]'
complete -c agtool -n "__fish_agtool_using_subcommand state; and __fish_seen_subcommand_from recover" -l no-syntax-check -d 'Turn the syntax gate off [env: AGTOOL_SYNTAX_CHECK=off]'
complete -c agtool -n "__fish_agtool_using_subcommand state; and __fish_seen_subcommand_from recover" -l approved -d 'The host\'s user approved this call: an ask rule lets it run (after exit status 3, Approval needed)'
complete -c agtool -n "__fish_agtool_using_subcommand state; and __fish_seen_subcommand_from recover" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c agtool -n "__fish_agtool_using_subcommand state; and __fish_seen_subcommand_from help" -f -a "show" -d 'List every recorded (agent, path, tag)'
complete -c agtool -n "__fish_agtool_using_subcommand state; and __fish_seen_subcommand_from help" -f -a "forget" -d 'Forget what every agent read of PATH (a folder: everything under it)'
complete -c agtool -n "__fish_agtool_using_subcommand state; and __fish_seen_subcommand_from help" -f -a "reset" -d 'Forget everything'
complete -c agtool -n "__fish_agtool_using_subcommand state; and __fish_seen_subcommand_from help" -f -a "recover" -d 'Roll back writes interrupted by a kill and remove their temp files (every call does this too; this says what it did)'
complete -c agtool -n "__fish_agtool_using_subcommand state; and __fish_seen_subcommand_from help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c agtool -n "__fish_agtool_using_subcommand sessions; and not __fish_seen_subcommand_from list kill stop-server help" -l root -d 'Workspace root [env: AGTOOL_ROOT] (default: nearest .agent-state/, then .git, then the current directory)' -r
complete -c agtool -n "__fish_agtool_using_subcommand sessions; and not __fish_seen_subcommand_from list kill stop-server help" -l agent -d 'Agent identity keying the freshness table [env: AGTOOL_AGENT] [default: default]' -r
complete -c agtool -n "__fish_agtool_using_subcommand sessions; and not __fish_seen_subcommand_from list kill stop-server help" -l config -d 'Extra configuration file layered over the others [env: AGTOOL_CONFIG]' -r
complete -c agtool -n "__fish_agtool_using_subcommand sessions; and not __fish_seen_subcommand_from list kill stop-server help" -l groups -d 'Tool groups enabled for call, schema and mcp, e.g. files,edit or all [env: AGTOOL_GROUPS]' -r
complete -c agtool -n "__fish_agtool_using_subcommand sessions; and not __fish_seen_subcommand_from list kill stop-server help" -l color -d 'Colour for people (dry-run diffs, sessions list): auto, always or never; auto is off with NO_COLOR, on with CLICOLOR_FORCE; call and --json never colour' -r -f -a "auto\t'Colour for a terminal, off with NO_COLOR, on with CLICOLOR_FORCE'
always\t'Always colour people-facing output'
never\t'Never colour'"
complete -c agtool -n "__fish_agtool_using_subcommand sessions; and not __fish_seen_subcommand_from list kill stop-server help" -l timeout-ms -d 'Override every tool\'s default timeout, in milliseconds' -r
complete -c agtool -n "__fish_agtool_using_subcommand sessions; and not __fish_seen_subcommand_from list kill stop-server help" -l notes-dir -d 'The notes store [default: .agent-state/notes, or config notes.dir]' -r
complete -c agtool -n "__fish_agtool_using_subcommand sessions; and not __fish_seen_subcommand_from list kill stop-server help" -l skills-dir -d 'A folder of skills, one subfolder with a SKILL.md each; repeatable, searched in order [env: AGTOOL_SKILLS, colon-separated]' -r
complete -c agtool -n "__fish_agtool_using_subcommand sessions; and not __fish_seen_subcommand_from list kill stop-server help" -l json -d 'Print one JSON object {ok, output, error, ...} instead of text'
complete -c agtool -n "__fish_agtool_using_subcommand sessions; and not __fish_seen_subcommand_from list kill stop-server help" -l no-freshness -d 'Turn the freshness gate off [env: AGTOOL_FRESHNESS=off]'
complete -c agtool -n "__fish_agtool_using_subcommand sessions; and not __fish_seen_subcommand_from list kill stop-server help" -l no-syntax-check -d 'Turn the syntax gate off [env: AGTOOL_SYNTAX_CHECK=off]'
complete -c agtool -n "__fish_agtool_using_subcommand sessions; and not __fish_seen_subcommand_from list kill stop-server help" -l approved -d 'The host\'s user approved this call: an ask rule lets it run (after exit status 3, Approval needed)'
complete -c agtool -n "__fish_agtool_using_subcommand sessions; and not __fish_seen_subcommand_from list kill stop-server help" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c agtool -n "__fish_agtool_using_subcommand sessions; and not __fish_seen_subcommand_from list kill stop-server help" -f -a "list" -d 'Show each session: id, pid, state, age, command'
complete -c agtool -n "__fish_agtool_using_subcommand sessions; and not __fish_seen_subcommand_from list kill stop-server help" -f -a "kill" -d 'Kill a session and everything it started'
complete -c agtool -n "__fish_agtool_using_subcommand sessions; and not __fish_seen_subcommand_from list kill stop-server help" -f -a "stop-server" -d 'Kill every session and stop the session server'
complete -c agtool -n "__fish_agtool_using_subcommand sessions; and not __fish_seen_subcommand_from list kill stop-server help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c agtool -n "__fish_agtool_using_subcommand sessions; and __fish_seen_subcommand_from list" -l root -d 'Workspace root [env: AGTOOL_ROOT] (default: nearest .agent-state/, then .git, then the current directory)' -r
complete -c agtool -n "__fish_agtool_using_subcommand sessions; and __fish_seen_subcommand_from list" -l agent -d 'Agent identity keying the freshness table [env: AGTOOL_AGENT] [default: default]' -r
complete -c agtool -n "__fish_agtool_using_subcommand sessions; and __fish_seen_subcommand_from list" -l config -d 'Extra configuration file layered over the others [env: AGTOOL_CONFIG]' -r
complete -c agtool -n "__fish_agtool_using_subcommand sessions; and __fish_seen_subcommand_from list" -l groups -d 'Tool groups enabled for call, schema and mcp, e.g. files,edit or all [env: AGTOOL_GROUPS]' -r
complete -c agtool -n "__fish_agtool_using_subcommand sessions; and __fish_seen_subcommand_from list" -l color -d 'Colour for people (dry-run diffs, sessions list): auto, always or never; auto is off with NO_COLOR, on with CLICOLOR_FORCE; call and --json never colour' -r -f -a "auto\t'Colour for a terminal, off with NO_COLOR, on with CLICOLOR_FORCE'
always\t'Always colour people-facing output'
never\t'Never colour'"
complete -c agtool -n "__fish_agtool_using_subcommand sessions; and __fish_seen_subcommand_from list" -l timeout-ms -d 'Override every tool\'s default timeout, in milliseconds' -r
complete -c agtool -n "__fish_agtool_using_subcommand sessions; and __fish_seen_subcommand_from list" -l notes-dir -d 'The notes store [default: .agent-state/notes, or config notes.dir]' -r
complete -c agtool -n "__fish_agtool_using_subcommand sessions; and __fish_seen_subcommand_from list" -l skills-dir -d 'A folder of skills, one subfolder with a SKILL.md each; repeatable, searched in order [env: AGTOOL_SKILLS, colon-separated]' -r
complete -c agtool -n "__fish_agtool_using_subcommand sessions; and __fish_seen_subcommand_from list" -l json -d 'Print one JSON object {ok, output, error, ...} instead of text'
complete -c agtool -n "__fish_agtool_using_subcommand sessions; and __fish_seen_subcommand_from list" -l no-freshness -d 'Turn the freshness gate off [env: AGTOOL_FRESHNESS=off]'
complete -c agtool -n "__fish_agtool_using_subcommand sessions; and __fish_seen_subcommand_from list" -l no-syntax-check -d 'Turn the syntax gate off [env: AGTOOL_SYNTAX_CHECK=off]'
complete -c agtool -n "__fish_agtool_using_subcommand sessions; and __fish_seen_subcommand_from list" -l approved -d 'The host\'s user approved this call: an ask rule lets it run (after exit status 3, Approval needed)'
complete -c agtool -n "__fish_agtool_using_subcommand sessions; and __fish_seen_subcommand_from list" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c agtool -n "__fish_agtool_using_subcommand sessions; and __fish_seen_subcommand_from kill" -l root -d 'Workspace root [env: AGTOOL_ROOT] (default: nearest .agent-state/, then .git, then the current directory)' -r
complete -c agtool -n "__fish_agtool_using_subcommand sessions; and __fish_seen_subcommand_from kill" -l agent -d 'Agent identity keying the freshness table [env: AGTOOL_AGENT] [default: default]' -r
complete -c agtool -n "__fish_agtool_using_subcommand sessions; and __fish_seen_subcommand_from kill" -l config -d 'Extra configuration file layered over the others [env: AGTOOL_CONFIG]' -r
complete -c agtool -n "__fish_agtool_using_subcommand sessions; and __fish_seen_subcommand_from kill" -l groups -d 'Tool groups enabled for call, schema and mcp, e.g. files,edit or all [env: AGTOOL_GROUPS]' -r
complete -c agtool -n "__fish_agtool_using_subcommand sessions; and __fish_seen_subcommand_from kill" -l color -d 'Colour for people (dry-run diffs, sessions list): auto, always or never; auto is off with NO_COLOR, on with CLICOLOR_FORCE; call and --json never colour' -r -f -a "auto\t'Colour for a terminal, off with NO_COLOR, on with CLICOLOR_FORCE'
always\t'Always colour people-facing output'
never\t'Never colour'"
complete -c agtool -n "__fish_agtool_using_subcommand sessions; and __fish_seen_subcommand_from kill" -l timeout-ms -d 'Override every tool\'s default timeout, in milliseconds' -r
complete -c agtool -n "__fish_agtool_using_subcommand sessions; and __fish_seen_subcommand_from kill" -l notes-dir -d 'The notes store [default: .agent-state/notes, or config notes.dir]' -r
complete -c agtool -n "__fish_agtool_using_subcommand sessions; and __fish_seen_subcommand_from kill" -l skills-dir -d 'A folder of skills, one subfolder with a SKILL.md each; repeatable, searched in order [env: AGTOOL_SKILLS, colon-separated]' -r
complete -c agtool -n "__fish_agtool_using_subcommand sessions; and __fish_seen_subcommand_from kill" -l all -d 'Kill every session'
complete -c agtool -n "__fish_agtool_using_subcommand sessions; and __fish_seen_subcommand_from kill" -l json -d 'Print one JSON object {ok, output, error, ...} instead of text'
complete -c agtool -n "__fish_agtool_using_subcommand sessions; and __fish_seen_subcommand_from kill" -l no-freshness -d 'Turn the freshness gate off [env: AGTOOL_FRESHNESS=off]'
complete -c agtool -n "__fish_agtool_using_subcommand sessions; and __fish_seen_subcommand_from kill" -l no-syntax-check -d 'Turn the syntax gate off [env: AGTOOL_SYNTAX_CHECK=off]'
complete -c agtool -n "__fish_agtool_using_subcommand sessions; and __fish_seen_subcommand_from kill" -l approved -d 'The host\'s user approved this call: an ask rule lets it run (after exit status 3, Approval needed)'
complete -c agtool -n "__fish_agtool_using_subcommand sessions; and __fish_seen_subcommand_from kill" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c agtool -n "__fish_agtool_using_subcommand sessions; and __fish_seen_subcommand_from stop-server" -l root -d 'Workspace root [env: AGTOOL_ROOT] (default: nearest .agent-state/, then .git, then the current directory)' -r
complete -c agtool -n "__fish_agtool_using_subcommand sessions; and __fish_seen_subcommand_from stop-server" -l agent -d 'Agent identity keying the freshness table [env: AGTOOL_AGENT] [default: default]' -r
complete -c agtool -n "__fish_agtool_using_subcommand sessions; and __fish_seen_subcommand_from stop-server" -l config -d 'Extra configuration file layered over the others [env: AGTOOL_CONFIG]' -r
complete -c agtool -n "__fish_agtool_using_subcommand sessions; and __fish_seen_subcommand_from stop-server" -l groups -d 'Tool groups enabled for call, schema and mcp, e.g. files,edit or all [env: AGTOOL_GROUPS]' -r
complete -c agtool -n "__fish_agtool_using_subcommand sessions; and __fish_seen_subcommand_from stop-server" -l color -d 'Colour for people (dry-run diffs, sessions list): auto, always or never; auto is off with NO_COLOR, on with CLICOLOR_FORCE; call and --json never colour' -r -f -a "auto\t'Colour for a terminal, off with NO_COLOR, on with CLICOLOR_FORCE'
always\t'Always colour people-facing output'
never\t'Never colour'"
complete -c agtool -n "__fish_agtool_using_subcommand sessions; and __fish_seen_subcommand_from stop-server" -l timeout-ms -d 'Override every tool\'s default timeout, in milliseconds' -r
complete -c agtool -n "__fish_agtool_using_subcommand sessions; and __fish_seen_subcommand_from stop-server" -l notes-dir -d 'The notes store [default: .agent-state/notes, or config notes.dir]' -r
complete -c agtool -n "__fish_agtool_using_subcommand sessions; and __fish_seen_subcommand_from stop-server" -l skills-dir -d 'A folder of skills, one subfolder with a SKILL.md each; repeatable, searched in order [env: AGTOOL_SKILLS, colon-separated]' -r
complete -c agtool -n "__fish_agtool_using_subcommand sessions; and __fish_seen_subcommand_from stop-server" -l json -d 'Print one JSON object {ok, output, error, ...} instead of text'
complete -c agtool -n "__fish_agtool_using_subcommand sessions; and __fish_seen_subcommand_from stop-server" -l no-freshness -d 'Turn the freshness gate off [env: AGTOOL_FRESHNESS=off]'
complete -c agtool -n "__fish_agtool_using_subcommand sessions; and __fish_seen_subcommand_from stop-server" -l no-syntax-check -d 'Turn the syntax gate off [env: AGTOOL_SYNTAX_CHECK=off]'
complete -c agtool -n "__fish_agtool_using_subcommand sessions; and __fish_seen_subcommand_from stop-server" -l approved -d 'The host\'s user approved this call: an ask rule lets it run (after exit status 3, Approval needed)'
complete -c agtool -n "__fish_agtool_using_subcommand sessions; and __fish_seen_subcommand_from stop-server" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c agtool -n "__fish_agtool_using_subcommand sessions; and __fish_seen_subcommand_from help" -f -a "list" -d 'Show each session: id, pid, state, age, command'
complete -c agtool -n "__fish_agtool_using_subcommand sessions; and __fish_seen_subcommand_from help" -f -a "kill" -d 'Kill a session and everything it started'
complete -c agtool -n "__fish_agtool_using_subcommand sessions; and __fish_seen_subcommand_from help" -f -a "stop-server" -d 'Kill every session and stop the session server'
complete -c agtool -n "__fish_agtool_using_subcommand sessions; and __fish_seen_subcommand_from help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c agtool -n "__fish_agtool_using_subcommand sandbox; and not __fish_seen_subcommand_from check help" -l root -d 'Workspace root [env: AGTOOL_ROOT] (default: nearest .agent-state/, then .git, then the current directory)' -r
complete -c agtool -n "__fish_agtool_using_subcommand sandbox; and not __fish_seen_subcommand_from check help" -l agent -d 'Agent identity keying the freshness table [env: AGTOOL_AGENT] [default: default]' -r
complete -c agtool -n "__fish_agtool_using_subcommand sandbox; and not __fish_seen_subcommand_from check help" -l config -d 'Extra configuration file layered over the others [env: AGTOOL_CONFIG]' -r
complete -c agtool -n "__fish_agtool_using_subcommand sandbox; and not __fish_seen_subcommand_from check help" -l groups -d 'Tool groups enabled for call, schema and mcp, e.g. files,edit or all [env: AGTOOL_GROUPS]' -r
complete -c agtool -n "__fish_agtool_using_subcommand sandbox; and not __fish_seen_subcommand_from check help" -l color -d 'Colour for people (dry-run diffs, sessions list): auto, always or never; auto is off with NO_COLOR, on with CLICOLOR_FORCE; call and --json never colour' -r -f -a "auto\t'Colour for a terminal, off with NO_COLOR, on with CLICOLOR_FORCE'
always\t'Always colour people-facing output'
never\t'Never colour'"
complete -c agtool -n "__fish_agtool_using_subcommand sandbox; and not __fish_seen_subcommand_from check help" -l timeout-ms -d 'Override every tool\'s default timeout, in milliseconds' -r
complete -c agtool -n "__fish_agtool_using_subcommand sandbox; and not __fish_seen_subcommand_from check help" -l notes-dir -d 'The notes store [default: .agent-state/notes, or config notes.dir]' -r
complete -c agtool -n "__fish_agtool_using_subcommand sandbox; and not __fish_seen_subcommand_from check help" -l skills-dir -d 'A folder of skills, one subfolder with a SKILL.md each; repeatable, searched in order [env: AGTOOL_SKILLS, colon-separated]' -r
complete -c agtool -n "__fish_agtool_using_subcommand sandbox; and not __fish_seen_subcommand_from check help" -l json -d 'Print one JSON object {ok, output, error, ...} instead of text'
complete -c agtool -n "__fish_agtool_using_subcommand sandbox; and not __fish_seen_subcommand_from check help" -l no-freshness -d 'Turn the freshness gate off [env: AGTOOL_FRESHNESS=off]'
complete -c agtool -n "__fish_agtool_using_subcommand sandbox; and not __fish_seen_subcommand_from check help" -l no-syntax-check -d 'Turn the syntax gate off [env: AGTOOL_SYNTAX_CHECK=off]'
complete -c agtool -n "__fish_agtool_using_subcommand sandbox; and not __fish_seen_subcommand_from check help" -l approved -d 'The host\'s user approved this call: an ask rule lets it run (after exit status 3, Approval needed)'
complete -c agtool -n "__fish_agtool_using_subcommand sandbox; and not __fish_seen_subcommand_from check help" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c agtool -n "__fish_agtool_using_subcommand sandbox; and not __fish_seen_subcommand_from check help" -f -a "check" -d 'Print the Landlock ABI, seccomp and namespaces; exit 1 when workspace-write cannot be enforced'
complete -c agtool -n "__fish_agtool_using_subcommand sandbox; and not __fish_seen_subcommand_from check help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c agtool -n "__fish_agtool_using_subcommand sandbox; and __fish_seen_subcommand_from check" -l root -d 'Workspace root [env: AGTOOL_ROOT] (default: nearest .agent-state/, then .git, then the current directory)' -r
complete -c agtool -n "__fish_agtool_using_subcommand sandbox; and __fish_seen_subcommand_from check" -l agent -d 'Agent identity keying the freshness table [env: AGTOOL_AGENT] [default: default]' -r
complete -c agtool -n "__fish_agtool_using_subcommand sandbox; and __fish_seen_subcommand_from check" -l config -d 'Extra configuration file layered over the others [env: AGTOOL_CONFIG]' -r
complete -c agtool -n "__fish_agtool_using_subcommand sandbox; and __fish_seen_subcommand_from check" -l groups -d 'Tool groups enabled for call, schema and mcp, e.g. files,edit or all [env: AGTOOL_GROUPS]' -r
complete -c agtool -n "__fish_agtool_using_subcommand sandbox; and __fish_seen_subcommand_from check" -l color -d 'Colour for people (dry-run diffs, sessions list): auto, always or never; auto is off with NO_COLOR, on with CLICOLOR_FORCE; call and --json never colour' -r -f -a "auto\t'Colour for a terminal, off with NO_COLOR, on with CLICOLOR_FORCE'
always\t'Always colour people-facing output'
never\t'Never colour'"
complete -c agtool -n "__fish_agtool_using_subcommand sandbox; and __fish_seen_subcommand_from check" -l timeout-ms -d 'Override every tool\'s default timeout, in milliseconds' -r
complete -c agtool -n "__fish_agtool_using_subcommand sandbox; and __fish_seen_subcommand_from check" -l notes-dir -d 'The notes store [default: .agent-state/notes, or config notes.dir]' -r
complete -c agtool -n "__fish_agtool_using_subcommand sandbox; and __fish_seen_subcommand_from check" -l skills-dir -d 'A folder of skills, one subfolder with a SKILL.md each; repeatable, searched in order [env: AGTOOL_SKILLS, colon-separated]' -r
complete -c agtool -n "__fish_agtool_using_subcommand sandbox; and __fish_seen_subcommand_from check" -l json -d 'Print one JSON object {ok, output, error, ...} instead of text'
complete -c agtool -n "__fish_agtool_using_subcommand sandbox; and __fish_seen_subcommand_from check" -l no-freshness -d 'Turn the freshness gate off [env: AGTOOL_FRESHNESS=off]'
complete -c agtool -n "__fish_agtool_using_subcommand sandbox; and __fish_seen_subcommand_from check" -l no-syntax-check -d 'Turn the syntax gate off [env: AGTOOL_SYNTAX_CHECK=off]'
complete -c agtool -n "__fish_agtool_using_subcommand sandbox; and __fish_seen_subcommand_from check" -l approved -d 'The host\'s user approved this call: an ask rule lets it run (after exit status 3, Approval needed)'
complete -c agtool -n "__fish_agtool_using_subcommand sandbox; and __fish_seen_subcommand_from check" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c agtool -n "__fish_agtool_using_subcommand sandbox; and __fish_seen_subcommand_from help" -f -a "check" -d 'Print the Landlock ABI, seccomp and namespaces; exit 1 when workspace-write cannot be enforced'
complete -c agtool -n "__fish_agtool_using_subcommand sandbox; and __fish_seen_subcommand_from help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c agtool -n "__fish_agtool_using_subcommand rules; and not __fish_seen_subcommand_from test help" -l root -d 'Workspace root [env: AGTOOL_ROOT] (default: nearest .agent-state/, then .git, then the current directory)' -r
complete -c agtool -n "__fish_agtool_using_subcommand rules; and not __fish_seen_subcommand_from test help" -l agent -d 'Agent identity keying the freshness table [env: AGTOOL_AGENT] [default: default]' -r
complete -c agtool -n "__fish_agtool_using_subcommand rules; and not __fish_seen_subcommand_from test help" -l config -d 'Extra configuration file layered over the others [env: AGTOOL_CONFIG]' -r
complete -c agtool -n "__fish_agtool_using_subcommand rules; and not __fish_seen_subcommand_from test help" -l groups -d 'Tool groups enabled for call, schema and mcp, e.g. files,edit or all [env: AGTOOL_GROUPS]' -r
complete -c agtool -n "__fish_agtool_using_subcommand rules; and not __fish_seen_subcommand_from test help" -l color -d 'Colour for people (dry-run diffs, sessions list): auto, always or never; auto is off with NO_COLOR, on with CLICOLOR_FORCE; call and --json never colour' -r -f -a "auto\t'Colour for a terminal, off with NO_COLOR, on with CLICOLOR_FORCE'
always\t'Always colour people-facing output'
never\t'Never colour'"
complete -c agtool -n "__fish_agtool_using_subcommand rules; and not __fish_seen_subcommand_from test help" -l timeout-ms -d 'Override every tool\'s default timeout, in milliseconds' -r
complete -c agtool -n "__fish_agtool_using_subcommand rules; and not __fish_seen_subcommand_from test help" -l notes-dir -d 'The notes store [default: .agent-state/notes, or config notes.dir]' -r
complete -c agtool -n "__fish_agtool_using_subcommand rules; and not __fish_seen_subcommand_from test help" -l skills-dir -d 'A folder of skills, one subfolder with a SKILL.md each; repeatable, searched in order [env: AGTOOL_SKILLS, colon-separated]' -r
complete -c agtool -n "__fish_agtool_using_subcommand rules; and not __fish_seen_subcommand_from test help" -l json -d 'Print one JSON object {ok, output, error, ...} instead of text'
complete -c agtool -n "__fish_agtool_using_subcommand rules; and not __fish_seen_subcommand_from test help" -l no-freshness -d 'Turn the freshness gate off [env: AGTOOL_FRESHNESS=off]'
complete -c agtool -n "__fish_agtool_using_subcommand rules; and not __fish_seen_subcommand_from test help" -l no-syntax-check -d 'Turn the syntax gate off [env: AGTOOL_SYNTAX_CHECK=off]'
complete -c agtool -n "__fish_agtool_using_subcommand rules; and not __fish_seen_subcommand_from test help" -l approved -d 'The host\'s user approved this call: an ask rule lets it run (after exit status 3, Approval needed)'
complete -c agtool -n "__fish_agtool_using_subcommand rules; and not __fish_seen_subcommand_from test help" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c agtool -n "__fish_agtool_using_subcommand rules; and not __fish_seen_subcommand_from test help" -f -a "test" -d 'Say which rule decides a call of TOOL with the JSON arguments, and why'
complete -c agtool -n "__fish_agtool_using_subcommand rules; and not __fish_seen_subcommand_from test help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c agtool -n "__fish_agtool_using_subcommand rules; and __fish_seen_subcommand_from test" -l root -d 'Workspace root [env: AGTOOL_ROOT] (default: nearest .agent-state/, then .git, then the current directory)' -r
complete -c agtool -n "__fish_agtool_using_subcommand rules; and __fish_seen_subcommand_from test" -l agent -d 'Agent identity keying the freshness table [env: AGTOOL_AGENT] [default: default]' -r
complete -c agtool -n "__fish_agtool_using_subcommand rules; and __fish_seen_subcommand_from test" -l config -d 'Extra configuration file layered over the others [env: AGTOOL_CONFIG]' -r
complete -c agtool -n "__fish_agtool_using_subcommand rules; and __fish_seen_subcommand_from test" -l groups -d 'Tool groups enabled for call, schema and mcp, e.g. files,edit or all [env: AGTOOL_GROUPS]' -r
complete -c agtool -n "__fish_agtool_using_subcommand rules; and __fish_seen_subcommand_from test" -l color -d 'Colour for people (dry-run diffs, sessions list): auto, always or never; auto is off with NO_COLOR, on with CLICOLOR_FORCE; call and --json never colour' -r -f -a "auto\t'Colour for a terminal, off with NO_COLOR, on with CLICOLOR_FORCE'
always\t'Always colour people-facing output'
never\t'Never colour'"
complete -c agtool -n "__fish_agtool_using_subcommand rules; and __fish_seen_subcommand_from test" -l timeout-ms -d 'Override every tool\'s default timeout, in milliseconds' -r
complete -c agtool -n "__fish_agtool_using_subcommand rules; and __fish_seen_subcommand_from test" -l notes-dir -d 'The notes store [default: .agent-state/notes, or config notes.dir]' -r
complete -c agtool -n "__fish_agtool_using_subcommand rules; and __fish_seen_subcommand_from test" -l skills-dir -d 'A folder of skills, one subfolder with a SKILL.md each; repeatable, searched in order [env: AGTOOL_SKILLS, colon-separated]' -r
complete -c agtool -n "__fish_agtool_using_subcommand rules; and __fish_seen_subcommand_from test" -l json -d 'Print one JSON object {ok, output, error, ...} instead of text'
complete -c agtool -n "__fish_agtool_using_subcommand rules; and __fish_seen_subcommand_from test" -l no-freshness -d 'Turn the freshness gate off [env: AGTOOL_FRESHNESS=off]'
complete -c agtool -n "__fish_agtool_using_subcommand rules; and __fish_seen_subcommand_from test" -l no-syntax-check -d 'Turn the syntax gate off [env: AGTOOL_SYNTAX_CHECK=off]'
complete -c agtool -n "__fish_agtool_using_subcommand rules; and __fish_seen_subcommand_from test" -l approved -d 'The host\'s user approved this call: an ask rule lets it run (after exit status 3, Approval needed)'
complete -c agtool -n "__fish_agtool_using_subcommand rules; and __fish_seen_subcommand_from test" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c agtool -n "__fish_agtool_using_subcommand rules; and __fish_seen_subcommand_from help" -f -a "test" -d 'Say which rule decides a call of TOOL with the JSON arguments, and why'
complete -c agtool -n "__fish_agtool_using_subcommand rules; and __fish_seen_subcommand_from help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c agtool -n "__fish_agtool_using_subcommand trace; and not __fish_seen_subcommand_from summary help" -l root -d 'Workspace root [env: AGTOOL_ROOT] (default: nearest .agent-state/, then .git, then the current directory)' -r
complete -c agtool -n "__fish_agtool_using_subcommand trace; and not __fish_seen_subcommand_from summary help" -l agent -d 'Agent identity keying the freshness table [env: AGTOOL_AGENT] [default: default]' -r
complete -c agtool -n "__fish_agtool_using_subcommand trace; and not __fish_seen_subcommand_from summary help" -l config -d 'Extra configuration file layered over the others [env: AGTOOL_CONFIG]' -r
complete -c agtool -n "__fish_agtool_using_subcommand trace; and not __fish_seen_subcommand_from summary help" -l groups -d 'Tool groups enabled for call, schema and mcp, e.g. files,edit or all [env: AGTOOL_GROUPS]' -r
complete -c agtool -n "__fish_agtool_using_subcommand trace; and not __fish_seen_subcommand_from summary help" -l color -d 'Colour for people (dry-run diffs, sessions list): auto, always or never; auto is off with NO_COLOR, on with CLICOLOR_FORCE; call and --json never colour' -r -f -a "auto\t'Colour for a terminal, off with NO_COLOR, on with CLICOLOR_FORCE'
always\t'Always colour people-facing output'
never\t'Never colour'"
complete -c agtool -n "__fish_agtool_using_subcommand trace; and not __fish_seen_subcommand_from summary help" -l timeout-ms -d 'Override every tool\'s default timeout, in milliseconds' -r
complete -c agtool -n "__fish_agtool_using_subcommand trace; and not __fish_seen_subcommand_from summary help" -l notes-dir -d 'The notes store [default: .agent-state/notes, or config notes.dir]' -r
complete -c agtool -n "__fish_agtool_using_subcommand trace; and not __fish_seen_subcommand_from summary help" -l skills-dir -d 'A folder of skills, one subfolder with a SKILL.md each; repeatable, searched in order [env: AGTOOL_SKILLS, colon-separated]' -r
complete -c agtool -n "__fish_agtool_using_subcommand trace; and not __fish_seen_subcommand_from summary help" -l json -d 'Print one JSON object {ok, output, error, ...} instead of text'
complete -c agtool -n "__fish_agtool_using_subcommand trace; and not __fish_seen_subcommand_from summary help" -l no-freshness -d 'Turn the freshness gate off [env: AGTOOL_FRESHNESS=off]'
complete -c agtool -n "__fish_agtool_using_subcommand trace; and not __fish_seen_subcommand_from summary help" -l no-syntax-check -d 'Turn the syntax gate off [env: AGTOOL_SYNTAX_CHECK=off]'
complete -c agtool -n "__fish_agtool_using_subcommand trace; and not __fish_seen_subcommand_from summary help" -l approved -d 'The host\'s user approved this call: an ask rule lets it run (after exit status 3, Approval needed)'
complete -c agtool -n "__fish_agtool_using_subcommand trace; and not __fish_seen_subcommand_from summary help" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c agtool -n "__fish_agtool_using_subcommand trace; and not __fish_seen_subcommand_from summary help" -f -a "summary" -d 'Calls, failures, blocked calls and p50/p95 duration per tool'
complete -c agtool -n "__fish_agtool_using_subcommand trace; and not __fish_seen_subcommand_from summary help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c agtool -n "__fish_agtool_using_subcommand trace; and __fish_seen_subcommand_from summary" -l root -d 'Workspace root [env: AGTOOL_ROOT] (default: nearest .agent-state/, then .git, then the current directory)' -r
complete -c agtool -n "__fish_agtool_using_subcommand trace; and __fish_seen_subcommand_from summary" -l agent -d 'Agent identity keying the freshness table [env: AGTOOL_AGENT] [default: default]' -r
complete -c agtool -n "__fish_agtool_using_subcommand trace; and __fish_seen_subcommand_from summary" -l config -d 'Extra configuration file layered over the others [env: AGTOOL_CONFIG]' -r
complete -c agtool -n "__fish_agtool_using_subcommand trace; and __fish_seen_subcommand_from summary" -l groups -d 'Tool groups enabled for call, schema and mcp, e.g. files,edit or all [env: AGTOOL_GROUPS]' -r
complete -c agtool -n "__fish_agtool_using_subcommand trace; and __fish_seen_subcommand_from summary" -l color -d 'Colour for people (dry-run diffs, sessions list): auto, always or never; auto is off with NO_COLOR, on with CLICOLOR_FORCE; call and --json never colour' -r -f -a "auto\t'Colour for a terminal, off with NO_COLOR, on with CLICOLOR_FORCE'
always\t'Always colour people-facing output'
never\t'Never colour'"
complete -c agtool -n "__fish_agtool_using_subcommand trace; and __fish_seen_subcommand_from summary" -l timeout-ms -d 'Override every tool\'s default timeout, in milliseconds' -r
complete -c agtool -n "__fish_agtool_using_subcommand trace; and __fish_seen_subcommand_from summary" -l notes-dir -d 'The notes store [default: .agent-state/notes, or config notes.dir]' -r
complete -c agtool -n "__fish_agtool_using_subcommand trace; and __fish_seen_subcommand_from summary" -l skills-dir -d 'A folder of skills, one subfolder with a SKILL.md each; repeatable, searched in order [env: AGTOOL_SKILLS, colon-separated]' -r
complete -c agtool -n "__fish_agtool_using_subcommand trace; and __fish_seen_subcommand_from summary" -l json -d 'Print one JSON object {ok, output, error, ...} instead of text'
complete -c agtool -n "__fish_agtool_using_subcommand trace; and __fish_seen_subcommand_from summary" -l no-freshness -d 'Turn the freshness gate off [env: AGTOOL_FRESHNESS=off]'
complete -c agtool -n "__fish_agtool_using_subcommand trace; and __fish_seen_subcommand_from summary" -l no-syntax-check -d 'Turn the syntax gate off [env: AGTOOL_SYNTAX_CHECK=off]'
complete -c agtool -n "__fish_agtool_using_subcommand trace; and __fish_seen_subcommand_from summary" -l approved -d 'The host\'s user approved this call: an ask rule lets it run (after exit status 3, Approval needed)'
complete -c agtool -n "__fish_agtool_using_subcommand trace; and __fish_seen_subcommand_from summary" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c agtool -n "__fish_agtool_using_subcommand trace; and __fish_seen_subcommand_from help" -f -a "summary" -d 'Calls, failures, blocked calls and p50/p95 duration per tool'
complete -c agtool -n "__fish_agtool_using_subcommand trace; and __fish_seen_subcommand_from help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c agtool -n "__fish_agtool_using_subcommand lsp; and not __fish_seen_subcommand_from status stop help" -l root -d 'Workspace root [env: AGTOOL_ROOT] (default: nearest .agent-state/, then .git, then the current directory)' -r
complete -c agtool -n "__fish_agtool_using_subcommand lsp; and not __fish_seen_subcommand_from status stop help" -l agent -d 'Agent identity keying the freshness table [env: AGTOOL_AGENT] [default: default]' -r
complete -c agtool -n "__fish_agtool_using_subcommand lsp; and not __fish_seen_subcommand_from status stop help" -l config -d 'Extra configuration file layered over the others [env: AGTOOL_CONFIG]' -r
complete -c agtool -n "__fish_agtool_using_subcommand lsp; and not __fish_seen_subcommand_from status stop help" -l groups -d 'Tool groups enabled for call, schema and mcp, e.g. files,edit or all [env: AGTOOL_GROUPS]' -r
complete -c agtool -n "__fish_agtool_using_subcommand lsp; and not __fish_seen_subcommand_from status stop help" -l color -d 'Colour for people (dry-run diffs, sessions list): auto, always or never; auto is off with NO_COLOR, on with CLICOLOR_FORCE; call and --json never colour' -r -f -a "auto\t'Colour for a terminal, off with NO_COLOR, on with CLICOLOR_FORCE'
always\t'Always colour people-facing output'
never\t'Never colour'"
complete -c agtool -n "__fish_agtool_using_subcommand lsp; and not __fish_seen_subcommand_from status stop help" -l timeout-ms -d 'Override every tool\'s default timeout, in milliseconds' -r
complete -c agtool -n "__fish_agtool_using_subcommand lsp; and not __fish_seen_subcommand_from status stop help" -l notes-dir -d 'The notes store [default: .agent-state/notes, or config notes.dir]' -r
complete -c agtool -n "__fish_agtool_using_subcommand lsp; and not __fish_seen_subcommand_from status stop help" -l skills-dir -d 'A folder of skills, one subfolder with a SKILL.md each; repeatable, searched in order [env: AGTOOL_SKILLS, colon-separated]' -r
complete -c agtool -n "__fish_agtool_using_subcommand lsp; and not __fish_seen_subcommand_from status stop help" -l json -d 'Print one JSON object {ok, output, error, ...} instead of text'
complete -c agtool -n "__fish_agtool_using_subcommand lsp; and not __fish_seen_subcommand_from status stop help" -l no-freshness -d 'Turn the freshness gate off [env: AGTOOL_FRESHNESS=off]'
complete -c agtool -n "__fish_agtool_using_subcommand lsp; and not __fish_seen_subcommand_from status stop help" -l no-syntax-check -d 'Turn the syntax gate off [env: AGTOOL_SYNTAX_CHECK=off]'
complete -c agtool -n "__fish_agtool_using_subcommand lsp; and not __fish_seen_subcommand_from status stop help" -l approved -d 'The host\'s user approved this call: an ask rule lets it run (after exit status 3, Approval needed)'
complete -c agtool -n "__fish_agtool_using_subcommand lsp; and not __fish_seen_subcommand_from status stop help" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c agtool -n "__fish_agtool_using_subcommand lsp; and not __fish_seen_subcommand_from status stop help" -f -a "status" -d 'Each server: language, pid, state, memory, open files, uptime, command'
complete -c agtool -n "__fish_agtool_using_subcommand lsp; and not __fish_seen_subcommand_from status stop help" -f -a "stop" -d 'Stop every language server of this workspace'
complete -c agtool -n "__fish_agtool_using_subcommand lsp; and not __fish_seen_subcommand_from status stop help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c agtool -n "__fish_agtool_using_subcommand lsp; and __fish_seen_subcommand_from status" -l root -d 'Workspace root [env: AGTOOL_ROOT] (default: nearest .agent-state/, then .git, then the current directory)' -r
complete -c agtool -n "__fish_agtool_using_subcommand lsp; and __fish_seen_subcommand_from status" -l agent -d 'Agent identity keying the freshness table [env: AGTOOL_AGENT] [default: default]' -r
complete -c agtool -n "__fish_agtool_using_subcommand lsp; and __fish_seen_subcommand_from status" -l config -d 'Extra configuration file layered over the others [env: AGTOOL_CONFIG]' -r
complete -c agtool -n "__fish_agtool_using_subcommand lsp; and __fish_seen_subcommand_from status" -l groups -d 'Tool groups enabled for call, schema and mcp, e.g. files,edit or all [env: AGTOOL_GROUPS]' -r
complete -c agtool -n "__fish_agtool_using_subcommand lsp; and __fish_seen_subcommand_from status" -l color -d 'Colour for people (dry-run diffs, sessions list): auto, always or never; auto is off with NO_COLOR, on with CLICOLOR_FORCE; call and --json never colour' -r -f -a "auto\t'Colour for a terminal, off with NO_COLOR, on with CLICOLOR_FORCE'
always\t'Always colour people-facing output'
never\t'Never colour'"
complete -c agtool -n "__fish_agtool_using_subcommand lsp; and __fish_seen_subcommand_from status" -l timeout-ms -d 'Override every tool\'s default timeout, in milliseconds' -r
complete -c agtool -n "__fish_agtool_using_subcommand lsp; and __fish_seen_subcommand_from status" -l notes-dir -d 'The notes store [default: .agent-state/notes, or config notes.dir]' -r
complete -c agtool -n "__fish_agtool_using_subcommand lsp; and __fish_seen_subcommand_from status" -l skills-dir -d 'A folder of skills, one subfolder with a SKILL.md each; repeatable, searched in order [env: AGTOOL_SKILLS, colon-separated]' -r
complete -c agtool -n "__fish_agtool_using_subcommand lsp; and __fish_seen_subcommand_from status" -l json -d 'Print one JSON object {ok, output, error, ...} instead of text'
complete -c agtool -n "__fish_agtool_using_subcommand lsp; and __fish_seen_subcommand_from status" -l no-freshness -d 'Turn the freshness gate off [env: AGTOOL_FRESHNESS=off]'
complete -c agtool -n "__fish_agtool_using_subcommand lsp; and __fish_seen_subcommand_from status" -l no-syntax-check -d 'Turn the syntax gate off [env: AGTOOL_SYNTAX_CHECK=off]'
complete -c agtool -n "__fish_agtool_using_subcommand lsp; and __fish_seen_subcommand_from status" -l approved -d 'The host\'s user approved this call: an ask rule lets it run (after exit status 3, Approval needed)'
complete -c agtool -n "__fish_agtool_using_subcommand lsp; and __fish_seen_subcommand_from status" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c agtool -n "__fish_agtool_using_subcommand lsp; and __fish_seen_subcommand_from stop" -l root -d 'Workspace root [env: AGTOOL_ROOT] (default: nearest .agent-state/, then .git, then the current directory)' -r
complete -c agtool -n "__fish_agtool_using_subcommand lsp; and __fish_seen_subcommand_from stop" -l agent -d 'Agent identity keying the freshness table [env: AGTOOL_AGENT] [default: default]' -r
complete -c agtool -n "__fish_agtool_using_subcommand lsp; and __fish_seen_subcommand_from stop" -l config -d 'Extra configuration file layered over the others [env: AGTOOL_CONFIG]' -r
complete -c agtool -n "__fish_agtool_using_subcommand lsp; and __fish_seen_subcommand_from stop" -l groups -d 'Tool groups enabled for call, schema and mcp, e.g. files,edit or all [env: AGTOOL_GROUPS]' -r
complete -c agtool -n "__fish_agtool_using_subcommand lsp; and __fish_seen_subcommand_from stop" -l color -d 'Colour for people (dry-run diffs, sessions list): auto, always or never; auto is off with NO_COLOR, on with CLICOLOR_FORCE; call and --json never colour' -r -f -a "auto\t'Colour for a terminal, off with NO_COLOR, on with CLICOLOR_FORCE'
always\t'Always colour people-facing output'
never\t'Never colour'"
complete -c agtool -n "__fish_agtool_using_subcommand lsp; and __fish_seen_subcommand_from stop" -l timeout-ms -d 'Override every tool\'s default timeout, in milliseconds' -r
complete -c agtool -n "__fish_agtool_using_subcommand lsp; and __fish_seen_subcommand_from stop" -l notes-dir -d 'The notes store [default: .agent-state/notes, or config notes.dir]' -r
complete -c agtool -n "__fish_agtool_using_subcommand lsp; and __fish_seen_subcommand_from stop" -l skills-dir -d 'A folder of skills, one subfolder with a SKILL.md each; repeatable, searched in order [env: AGTOOL_SKILLS, colon-separated]' -r
complete -c agtool -n "__fish_agtool_using_subcommand lsp; and __fish_seen_subcommand_from stop" -l json -d 'Print one JSON object {ok, output, error, ...} instead of text'
complete -c agtool -n "__fish_agtool_using_subcommand lsp; and __fish_seen_subcommand_from stop" -l no-freshness -d 'Turn the freshness gate off [env: AGTOOL_FRESHNESS=off]'
complete -c agtool -n "__fish_agtool_using_subcommand lsp; and __fish_seen_subcommand_from stop" -l no-syntax-check -d 'Turn the syntax gate off [env: AGTOOL_SYNTAX_CHECK=off]'
complete -c agtool -n "__fish_agtool_using_subcommand lsp; and __fish_seen_subcommand_from stop" -l approved -d 'The host\'s user approved this call: an ask rule lets it run (after exit status 3, Approval needed)'
complete -c agtool -n "__fish_agtool_using_subcommand lsp; and __fish_seen_subcommand_from stop" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c agtool -n "__fish_agtool_using_subcommand lsp; and __fish_seen_subcommand_from help" -f -a "status" -d 'Each server: language, pid, state, memory, open files, uptime, command'
complete -c agtool -n "__fish_agtool_using_subcommand lsp; and __fish_seen_subcommand_from help" -f -a "stop" -d 'Stop every language server of this workspace'
complete -c agtool -n "__fish_agtool_using_subcommand lsp; and __fish_seen_subcommand_from help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c agtool -n "__fish_agtool_using_subcommand completions" -l write -d 'Write every shell\'s file into DIR instead (the repository\'s completions/)' -r
complete -c agtool -n "__fish_agtool_using_subcommand completions" -l root -d 'Workspace root [env: AGTOOL_ROOT] (default: nearest .agent-state/, then .git, then the current directory)' -r
complete -c agtool -n "__fish_agtool_using_subcommand completions" -l agent -d 'Agent identity keying the freshness table [env: AGTOOL_AGENT] [default: default]' -r
complete -c agtool -n "__fish_agtool_using_subcommand completions" -l config -d 'Extra configuration file layered over the others [env: AGTOOL_CONFIG]' -r
complete -c agtool -n "__fish_agtool_using_subcommand completions" -l groups -d 'Tool groups enabled for call, schema and mcp, e.g. files,edit or all [env: AGTOOL_GROUPS]' -r
complete -c agtool -n "__fish_agtool_using_subcommand completions" -l color -d 'Colour for people (dry-run diffs, sessions list): auto, always or never; auto is off with NO_COLOR, on with CLICOLOR_FORCE; call and --json never colour' -r -f -a "auto\t'Colour for a terminal, off with NO_COLOR, on with CLICOLOR_FORCE'
always\t'Always colour people-facing output'
never\t'Never colour'"
complete -c agtool -n "__fish_agtool_using_subcommand completions" -l timeout-ms -d 'Override every tool\'s default timeout, in milliseconds' -r
complete -c agtool -n "__fish_agtool_using_subcommand completions" -l notes-dir -d 'The notes store [default: .agent-state/notes, or config notes.dir]' -r
complete -c agtool -n "__fish_agtool_using_subcommand completions" -l skills-dir -d 'A folder of skills, one subfolder with a SKILL.md each; repeatable, searched in order [env: AGTOOL_SKILLS, colon-separated]' -r
complete -c agtool -n "__fish_agtool_using_subcommand completions" -l json -d 'Print one JSON object {ok, output, error, ...} instead of text'
complete -c agtool -n "__fish_agtool_using_subcommand completions" -l no-freshness -d 'Turn the freshness gate off [env: AGTOOL_FRESHNESS=off]'
complete -c agtool -n "__fish_agtool_using_subcommand completions" -l no-syntax-check -d 'Turn the syntax gate off [env: AGTOOL_SYNTAX_CHECK=off]'
complete -c agtool -n "__fish_agtool_using_subcommand completions" -l approved -d 'The host\'s user approved this call: an ask rule lets it run (after exit status 3, Approval needed)'
complete -c agtool -n "__fish_agtool_using_subcommand completions" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c agtool -n "__fish_agtool_using_subcommand man" -l write -d 'Write agtool.1 into DIR instead' -r
complete -c agtool -n "__fish_agtool_using_subcommand man" -l root -d 'Workspace root [env: AGTOOL_ROOT] (default: nearest .agent-state/, then .git, then the current directory)' -r
complete -c agtool -n "__fish_agtool_using_subcommand man" -l agent -d 'Agent identity keying the freshness table [env: AGTOOL_AGENT] [default: default]' -r
complete -c agtool -n "__fish_agtool_using_subcommand man" -l config -d 'Extra configuration file layered over the others [env: AGTOOL_CONFIG]' -r
complete -c agtool -n "__fish_agtool_using_subcommand man" -l groups -d 'Tool groups enabled for call, schema and mcp, e.g. files,edit or all [env: AGTOOL_GROUPS]' -r
complete -c agtool -n "__fish_agtool_using_subcommand man" -l color -d 'Colour for people (dry-run diffs, sessions list): auto, always or never; auto is off with NO_COLOR, on with CLICOLOR_FORCE; call and --json never colour' -r -f -a "auto\t'Colour for a terminal, off with NO_COLOR, on with CLICOLOR_FORCE'
always\t'Always colour people-facing output'
never\t'Never colour'"
complete -c agtool -n "__fish_agtool_using_subcommand man" -l timeout-ms -d 'Override every tool\'s default timeout, in milliseconds' -r
complete -c agtool -n "__fish_agtool_using_subcommand man" -l notes-dir -d 'The notes store [default: .agent-state/notes, or config notes.dir]' -r
complete -c agtool -n "__fish_agtool_using_subcommand man" -l skills-dir -d 'A folder of skills, one subfolder with a SKILL.md each; repeatable, searched in order [env: AGTOOL_SKILLS, colon-separated]' -r
complete -c agtool -n "__fish_agtool_using_subcommand man" -l json -d 'Print one JSON object {ok, output, error, ...} instead of text'
complete -c agtool -n "__fish_agtool_using_subcommand man" -l no-freshness -d 'Turn the freshness gate off [env: AGTOOL_FRESHNESS=off]'
complete -c agtool -n "__fish_agtool_using_subcommand man" -l no-syntax-check -d 'Turn the syntax gate off [env: AGTOOL_SYNTAX_CHECK=off]'
complete -c agtool -n "__fish_agtool_using_subcommand man" -l approved -d 'The host\'s user approved this call: an ask rule lets it run (after exit status 3, Approval needed)'
complete -c agtool -n "__fish_agtool_using_subcommand man" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c agtool -n "__fish_agtool_using_subcommand session-server" -l state-dir -r -F
complete -c agtool -n "__fish_agtool_using_subcommand session-server" -l root -d 'Workspace root [env: AGTOOL_ROOT] (default: nearest .agent-state/, then .git, then the current directory)' -r
complete -c agtool -n "__fish_agtool_using_subcommand session-server" -l agent -d 'Agent identity keying the freshness table [env: AGTOOL_AGENT] [default: default]' -r
complete -c agtool -n "__fish_agtool_using_subcommand session-server" -l config -d 'Extra configuration file layered over the others [env: AGTOOL_CONFIG]' -r
complete -c agtool -n "__fish_agtool_using_subcommand session-server" -l groups -d 'Tool groups enabled for call, schema and mcp, e.g. files,edit or all [env: AGTOOL_GROUPS]' -r
complete -c agtool -n "__fish_agtool_using_subcommand session-server" -l color -d 'Colour for people (dry-run diffs, sessions list): auto, always or never; auto is off with NO_COLOR, on with CLICOLOR_FORCE; call and --json never colour' -r -f -a "auto\t'Colour for a terminal, off with NO_COLOR, on with CLICOLOR_FORCE'
always\t'Always colour people-facing output'
never\t'Never colour'"
complete -c agtool -n "__fish_agtool_using_subcommand session-server" -l timeout-ms -d 'Override every tool\'s default timeout, in milliseconds' -r
complete -c agtool -n "__fish_agtool_using_subcommand session-server" -l notes-dir -d 'The notes store [default: .agent-state/notes, or config notes.dir]' -r
complete -c agtool -n "__fish_agtool_using_subcommand session-server" -l skills-dir -d 'A folder of skills, one subfolder with a SKILL.md each; repeatable, searched in order [env: AGTOOL_SKILLS, colon-separated]' -r
complete -c agtool -n "__fish_agtool_using_subcommand session-server" -l json -d 'Print one JSON object {ok, output, error, ...} instead of text'
complete -c agtool -n "__fish_agtool_using_subcommand session-server" -l no-freshness -d 'Turn the freshness gate off [env: AGTOOL_FRESHNESS=off]'
complete -c agtool -n "__fish_agtool_using_subcommand session-server" -l no-syntax-check -d 'Turn the syntax gate off [env: AGTOOL_SYNTAX_CHECK=off]'
complete -c agtool -n "__fish_agtool_using_subcommand session-server" -l approved -d 'The host\'s user approved this call: an ask rule lets it run (after exit status 3, Approval needed)'
complete -c agtool -n "__fish_agtool_using_subcommand session-server" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c agtool -n "__fish_agtool_using_subcommand session-guard" -l server-pid -r
complete -c agtool -n "__fish_agtool_using_subcommand session-guard" -l root -d 'Workspace root [env: AGTOOL_ROOT] (default: nearest .agent-state/, then .git, then the current directory)' -r
complete -c agtool -n "__fish_agtool_using_subcommand session-guard" -l agent -d 'Agent identity keying the freshness table [env: AGTOOL_AGENT] [default: default]' -r
complete -c agtool -n "__fish_agtool_using_subcommand session-guard" -l config -d 'Extra configuration file layered over the others [env: AGTOOL_CONFIG]' -r
complete -c agtool -n "__fish_agtool_using_subcommand session-guard" -l groups -d 'Tool groups enabled for call, schema and mcp, e.g. files,edit or all [env: AGTOOL_GROUPS]' -r
complete -c agtool -n "__fish_agtool_using_subcommand session-guard" -l color -d 'Colour for people (dry-run diffs, sessions list): auto, always or never; auto is off with NO_COLOR, on with CLICOLOR_FORCE; call and --json never colour' -r -f -a "auto\t'Colour for a terminal, off with NO_COLOR, on with CLICOLOR_FORCE'
always\t'Always colour people-facing output'
never\t'Never colour'"
complete -c agtool -n "__fish_agtool_using_subcommand session-guard" -l timeout-ms -d 'Override every tool\'s default timeout, in milliseconds' -r
complete -c agtool -n "__fish_agtool_using_subcommand session-guard" -l notes-dir -d 'The notes store [default: .agent-state/notes, or config notes.dir]' -r
complete -c agtool -n "__fish_agtool_using_subcommand session-guard" -l skills-dir -d 'A folder of skills, one subfolder with a SKILL.md each; repeatable, searched in order [env: AGTOOL_SKILLS, colon-separated]' -r
complete -c agtool -n "__fish_agtool_using_subcommand session-guard" -l json -d 'Print one JSON object {ok, output, error, ...} instead of text'
complete -c agtool -n "__fish_agtool_using_subcommand session-guard" -l no-freshness -d 'Turn the freshness gate off [env: AGTOOL_FRESHNESS=off]'
complete -c agtool -n "__fish_agtool_using_subcommand session-guard" -l no-syntax-check -d 'Turn the syntax gate off [env: AGTOOL_SYNTAX_CHECK=off]'
complete -c agtool -n "__fish_agtool_using_subcommand session-guard" -l approved -d 'The host\'s user approved this call: an ask rule lets it run (after exit status 3, Approval needed)'
complete -c agtool -n "__fish_agtool_using_subcommand session-guard" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c agtool -n "__fish_agtool_using_subcommand help; and not __fish_seen_subcommand_from read-file list-dir glob grep diagnostics write-file edit-file edit-lines apply-patch notebook-edit move-path copy-path make-dir delete-path exec exec-command write-stdin web-fetch skill notes schema call mcp state sessions sandbox rules trace lsp completions man session-server session-guard help" -f -a "read-file" -d 'Read a file with line numbers and a content tag; also images, PDFs, notebooks, several files.'
complete -c agtool -n "__fish_agtool_using_subcommand help; and not __fish_seen_subcommand_from read-file list-dir glob grep diagnostics write-file edit-file edit-lines apply-patch notebook-edit move-path copy-path make-dir delete-path exec exec-command write-stdin web-fetch skill notes schema call mcp state sessions sandbox rules trace lsp completions man session-server session-guard help" -f -a "list-dir" -d 'List a folder as an indented tree: `name/` folders, `name@` symlinks (never followed), `name?` other special files. Entries are sorted by name, children right under their folder. Ignored files (.gitignore) are left out unless ignored: true. Page with offset/limit; the last line says how to continue. Bytes of a name that are not UTF-8 show as `\\xHH`; every path argument takes that spelling back.'
complete -c agtool -n "__fish_agtool_using_subcommand help; and not __fish_seen_subcommand_from read-file list-dir glob grep diagnostics write-file edit-file edit-lines apply-patch notebook-edit move-path copy-path make-dir delete-path exec exec-command write-stdin web-fetch skill notes schema call mcp state sessions sandbox rules trace lsp completions man session-server session-guard help" -f -a "glob" -d 'Find files whose path matches a glob pattern, newest first.'
complete -c agtool -n "__fish_agtool_using_subcommand help; and not __fish_seen_subcommand_from read-file list-dir glob grep diagnostics write-file edit-file edit-lines apply-patch notebook-edit move-path copy-path make-dir delete-path exec exec-command write-stdin web-fetch skill notes schema call mcp state sessions sandbox rules trace lsp completions man session-server session-guard help" -f -a "grep" -d 'Search file contents with a regular expression (ripgrep\'s engine).'
complete -c agtool -n "__fish_agtool_using_subcommand help; and not __fish_seen_subcommand_from read-file list-dir glob grep diagnostics write-file edit-file edit-lines apply-patch notebook-edit move-path copy-path make-dir delete-path exec exec-command write-stdin web-fetch skill notes schema call mcp state sessions sandbox rules trace lsp completions man session-server session-guard help" -f -a "diagnostics" -d 'Show the problems a language server (pyright, pylsp, typescript-language-server, gopls, rust-analyzer, clangd) reports for files: one line each, `path:line:col: severity: message (code)`, errors first. Without paths: every file open in a language server. Edit results already list the problems an edit added; use this for the rest.'
complete -c agtool -n "__fish_agtool_using_subcommand help; and not __fish_seen_subcommand_from read-file list-dir glob grep diagnostics write-file edit-file edit-lines apply-patch notebook-edit move-path copy-path make-dir delete-path exec exec-command write-stdin web-fetch skill notes schema call mcp state sessions sandbox rules trace lsp completions man session-server session-guard help" -f -a "write-file" -d 'Create a file, or replace a whole file\'s content.'
complete -c agtool -n "__fish_agtool_using_subcommand help; and not __fish_seen_subcommand_from read-file list-dir glob grep diagnostics write-file edit-file edit-lines apply-patch notebook-edit move-path copy-path make-dir delete-path exec exec-command write-stdin web-fetch skill notes schema call mcp state sessions sandbox rules trace lsp completions man session-server session-guard help" -f -a "edit-file" -d 'Replace exact text in a file: old must occur exactly once (or pass all: true).'
complete -c agtool -n "__fish_agtool_using_subcommand help; and not __fish_seen_subcommand_from read-file list-dir glob grep diagnostics write-file edit-file edit-lines apply-patch notebook-edit move-path copy-path make-dir delete-path exec exec-command write-stdin web-fetch skill notes schema call mcp state sessions sandbox rules trace lsp completions man session-server session-guard help" -f -a "edit-lines" -d 'Replace or insert whole lines addressed by anchors from read_file with anchors: true.'
complete -c agtool -n "__fish_agtool_using_subcommand help; and not __fish_seen_subcommand_from read-file list-dir glob grep diagnostics write-file edit-file edit-lines apply-patch notebook-edit move-path copy-path make-dir delete-path exec exec-command write-stdin web-fetch skill notes schema call mcp state sessions sandbox rules trace lsp completions man session-server session-guard help" -f -a "apply-patch" -d 'Apply a patch that adds, deletes, updates or moves files, all or nothing.'
complete -c agtool -n "__fish_agtool_using_subcommand help; and not __fish_seen_subcommand_from read-file list-dir glob grep diagnostics write-file edit-file edit-lines apply-patch notebook-edit move-path copy-path make-dir delete-path exec exec-command write-stdin web-fetch skill notes schema call mcp state sessions sandbox rules trace lsp completions man session-server session-guard help" -f -a "notebook-edit" -d 'Replace, insert or delete one cell of a Jupyter notebook (.ipynb).'
complete -c agtool -n "__fish_agtool_using_subcommand help; and not __fish_seen_subcommand_from read-file list-dir glob grep diagnostics write-file edit-file edit-lines apply-patch notebook-edit move-path copy-path make-dir delete-path exec exec-command write-stdin web-fetch skill notes schema call mcp state sessions sandbox rules trace lsp completions man session-server session-guard help" -f -a "move-path" -d 'Move or rename a file, a symlink or a folder inside the workspace.'
complete -c agtool -n "__fish_agtool_using_subcommand help; and not __fish_seen_subcommand_from read-file list-dir glob grep diagnostics write-file edit-file edit-lines apply-patch notebook-edit move-path copy-path make-dir delete-path exec exec-command write-stdin web-fetch skill notes schema call mcp state sessions sandbox rules trace lsp completions man session-server session-guard help" -f -a "copy-path" -d 'Copy a file, a symlink or a folder (recursive: true) inside the workspace.'
complete -c agtool -n "__fish_agtool_using_subcommand help; and not __fish_seen_subcommand_from read-file list-dir glob grep diagnostics write-file edit-file edit-lines apply-patch notebook-edit move-path copy-path make-dir delete-path exec exec-command write-stdin web-fetch skill notes schema call mcp state sessions sandbox rules trace lsp completions man session-server session-guard help" -f -a "make-dir" -d 'Make a folder, and any missing folders above it, inside the workspace.'
complete -c agtool -n "__fish_agtool_using_subcommand help; and not __fish_seen_subcommand_from read-file list-dir glob grep diagnostics write-file edit-file edit-lines apply-patch notebook-edit move-path copy-path make-dir delete-path exec exec-command write-stdin web-fetch skill notes schema call mcp state sessions sandbox rules trace lsp completions man session-server session-guard help" -f -a "delete-path" -d 'Delete a file, a symlink, or a directory.'
complete -c agtool -n "__fish_agtool_using_subcommand help; and not __fish_seen_subcommand_from read-file list-dir glob grep diagnostics write-file edit-file edit-lines apply-patch notebook-edit move-path copy-path make-dir delete-path exec exec-command write-stdin web-fetch skill notes schema call mcp state sessions sandbox rules trace lsp completions man session-server session-guard help" -f -a "exec" -d 'Run a command once and return its exit code and output.'
complete -c agtool -n "__fish_agtool_using_subcommand help; and not __fish_seen_subcommand_from read-file list-dir glob grep diagnostics write-file edit-file edit-lines apply-patch notebook-edit move-path copy-path make-dir delete-path exec exec-command write-stdin web-fetch skill notes schema call mcp state sessions sandbox rules trace lsp completions man session-server session-guard help" -f -a "exec-command" -d 'Start a shell command that keeps running between calls (a server, a watcher, a REPL).'
complete -c agtool -n "__fish_agtool_using_subcommand help; and not __fish_seen_subcommand_from read-file list-dir glob grep diagnostics write-file edit-file edit-lines apply-patch notebook-edit move-path copy-path make-dir delete-path exec exec-command write-stdin web-fetch skill notes schema call mcp state sessions sandbox rules trace lsp completions man session-server session-guard help" -f -a "write-stdin" -d 'Send input to a running exec_command session, or read its new output.'
complete -c agtool -n "__fish_agtool_using_subcommand help; and not __fish_seen_subcommand_from read-file list-dir glob grep diagnostics write-file edit-file edit-lines apply-patch notebook-edit move-path copy-path make-dir delete-path exec exec-command write-stdin web-fetch skill notes schema call mcp state sessions sandbox rules trace lsp completions man session-server session-guard help" -f -a "web-fetch" -d 'Fetch an http or https URL and return the page as plain text.'
complete -c agtool -n "__fish_agtool_using_subcommand help; and not __fish_seen_subcommand_from read-file list-dir glob grep diagnostics write-file edit-file edit-lines apply-patch notebook-edit move-path copy-path make-dir delete-path exec exec-command write-stdin web-fetch skill notes schema call mcp state sessions sandbox rules trace lsp completions man session-server session-guard help" -f -a "skill" -d 'Load a skill: instructions for one kind of task, given by the host.'
complete -c agtool -n "__fish_agtool_using_subcommand help; and not __fish_seen_subcommand_from read-file list-dir glob grep diagnostics write-file edit-file edit-lines apply-patch notebook-edit move-path copy-path make-dir delete-path exec exec-command write-stdin web-fetch skill notes schema call mcp state sessions sandbox rules trace lsp completions man session-server session-guard help" -f -a "notes" -d 'Keep notes that outlive the session: list, read, write, delete'
complete -c agtool -n "__fish_agtool_using_subcommand help; and not __fish_seen_subcommand_from read-file list-dir glob grep diagnostics write-file edit-file edit-lines apply-patch notebook-edit move-path copy-path make-dir delete-path exec exec-command write-stdin web-fetch skill notes schema call mcp state sessions sandbox rules trace lsp completions man session-server session-guard help" -f -a "schema" -d 'Print the tool definitions (JSON Schema) for an agent host'
complete -c agtool -n "__fish_agtool_using_subcommand help; and not __fish_seen_subcommand_from read-file list-dir glob grep diagnostics write-file edit-file edit-lines apply-patch notebook-edit move-path copy-path make-dir delete-path exec exec-command write-stdin web-fetch skill notes schema call mcp state sessions sandbox rules trace lsp completions man session-server session-guard help" -f -a "call" -d 'Run a tool with its JSON arguments (or a tool-call envelope) read from stdin'
complete -c agtool -n "__fish_agtool_using_subcommand help; and not __fish_seen_subcommand_from read-file list-dir glob grep diagnostics write-file edit-file edit-lines apply-patch notebook-edit move-path copy-path make-dir delete-path exec exec-command write-stdin web-fetch skill notes schema call mcp state sessions sandbox rules trace lsp completions man session-server session-guard help" -f -a "mcp" -d 'Serve the tools of the enabled groups to an MCP host over stdio'
complete -c agtool -n "__fish_agtool_using_subcommand help; and not __fish_seen_subcommand_from read-file list-dir glob grep diagnostics write-file edit-file edit-lines apply-patch notebook-edit move-path copy-path make-dir delete-path exec exec-command write-stdin web-fetch skill notes schema call mcp state sessions sandbox rules trace lsp completions man session-server session-guard help" -f -a "state" -d 'Inspect or clear the freshness table in .agent-state/'
complete -c agtool -n "__fish_agtool_using_subcommand help; and not __fish_seen_subcommand_from read-file list-dir glob grep diagnostics write-file edit-file edit-lines apply-patch notebook-edit move-path copy-path make-dir delete-path exec exec-command write-stdin web-fetch skill notes schema call mcp state sessions sandbox rules trace lsp completions man session-server session-guard help" -f -a "sessions" -d 'List or kill the exec-command sessions of this workspace, or stop their server'
complete -c agtool -n "__fish_agtool_using_subcommand help; and not __fish_seen_subcommand_from read-file list-dir glob grep diagnostics write-file edit-file edit-lines apply-patch notebook-edit move-path copy-path make-dir delete-path exec exec-command write-stdin web-fetch skill notes schema call mcp state sessions sandbox rules trace lsp completions man session-server session-guard help" -f -a "sandbox" -d 'Say what this machine enforces of the exec sandbox'
complete -c agtool -n "__fish_agtool_using_subcommand help; and not __fish_seen_subcommand_from read-file list-dir glob grep diagnostics write-file edit-file edit-lines apply-patch notebook-edit move-path copy-path make-dir delete-path exec exec-command write-stdin web-fetch skill notes schema call mcp state sessions sandbox rules trace lsp completions man session-server session-guard help" -f -a "rules" -d 'Check the allow/ask/deny rules: which rule decides a call, and why'
complete -c agtool -n "__fish_agtool_using_subcommand help; and not __fish_seen_subcommand_from read-file list-dir glob grep diagnostics write-file edit-file edit-lines apply-patch notebook-edit move-path copy-path make-dir delete-path exec exec-command write-stdin web-fetch skill notes schema call mcp state sessions sandbox rules trace lsp completions man session-server session-guard help" -f -a "trace" -d 'Read the call trace ([trace] file or AGTOOL_TRACE)'
complete -c agtool -n "__fish_agtool_using_subcommand help; and not __fish_seen_subcommand_from read-file list-dir glob grep diagnostics write-file edit-file edit-lines apply-patch notebook-edit move-path copy-path make-dir delete-path exec exec-command write-stdin web-fetch skill notes schema call mcp state sessions sandbox rules trace lsp completions man session-server session-guard help" -f -a "lsp" -d 'Show or stop the language servers kept warm for this workspace\'s diagnostics'
complete -c agtool -n "__fish_agtool_using_subcommand help; and not __fish_seen_subcommand_from read-file list-dir glob grep diagnostics write-file edit-file edit-lines apply-patch notebook-edit move-path copy-path make-dir delete-path exec exec-command write-stdin web-fetch skill notes schema call mcp state sessions sandbox rules trace lsp completions man session-server session-guard help" -f -a "completions" -d 'Print shell completions (bash, zsh, fish, elvish, powershell)'
complete -c agtool -n "__fish_agtool_using_subcommand help; and not __fish_seen_subcommand_from read-file list-dir glob grep diagnostics write-file edit-file edit-lines apply-patch notebook-edit move-path copy-path make-dir delete-path exec exec-command write-stdin web-fetch skill notes schema call mcp state sessions sandbox rules trace lsp completions man session-server session-guard help" -f -a "man" -d 'Print the manual page (roff)'
complete -c agtool -n "__fish_agtool_using_subcommand help; and not __fish_seen_subcommand_from read-file list-dir glob grep diagnostics write-file edit-file edit-lines apply-patch notebook-edit move-path copy-path make-dir delete-path exec exec-command write-stdin web-fetch skill notes schema call mcp state sessions sandbox rules trace lsp completions man session-server session-guard help" -f -a "session-server" -d 'Run the exec session server for a state folder (started on demand)'
complete -c agtool -n "__fish_agtool_using_subcommand help; and not __fish_seen_subcommand_from read-file list-dir glob grep diagnostics write-file edit-file edit-lines apply-patch notebook-edit move-path copy-path make-dir delete-path exec exec-command write-stdin web-fetch skill notes schema call mcp state sessions sandbox rules trace lsp completions man session-server session-guard help" -f -a "session-guard" -d 'Run a session\'s command and end its whole tree when the session server dies'
complete -c agtool -n "__fish_agtool_using_subcommand help; and not __fish_seen_subcommand_from read-file list-dir glob grep diagnostics write-file edit-file edit-lines apply-patch notebook-edit move-path copy-path make-dir delete-path exec exec-command write-stdin web-fetch skill notes schema call mcp state sessions sandbox rules trace lsp completions man session-server session-guard help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c agtool -n "__fish_agtool_using_subcommand help; and __fish_seen_subcommand_from notes" -f -a "list" -d 'List the notes kept for this workspace, newest first.'
complete -c agtool -n "__fish_agtool_using_subcommand help; and __fish_seen_subcommand_from notes" -f -a "read" -d 'Read one note kept for this workspace.'
complete -c agtool -n "__fish_agtool_using_subcommand help; and __fish_seen_subcommand_from notes" -f -a "write" -d 'Save a note for later sessions in this workspace, or append to one.'
complete -c agtool -n "__fish_agtool_using_subcommand help; and __fish_seen_subcommand_from notes" -f -a "delete" -d 'Delete one note kept for this workspace.'
complete -c agtool -n "__fish_agtool_using_subcommand help; and __fish_seen_subcommand_from state" -f -a "show" -d 'List every recorded (agent, path, tag)'
complete -c agtool -n "__fish_agtool_using_subcommand help; and __fish_seen_subcommand_from state" -f -a "forget" -d 'Forget what every agent read of PATH (a folder: everything under it)'
complete -c agtool -n "__fish_agtool_using_subcommand help; and __fish_seen_subcommand_from state" -f -a "reset" -d 'Forget everything'
complete -c agtool -n "__fish_agtool_using_subcommand help; and __fish_seen_subcommand_from state" -f -a "recover" -d 'Roll back writes interrupted by a kill and remove their temp files (every call does this too; this says what it did)'
complete -c agtool -n "__fish_agtool_using_subcommand help; and __fish_seen_subcommand_from sessions" -f -a "list" -d 'Show each session: id, pid, state, age, command'
complete -c agtool -n "__fish_agtool_using_subcommand help; and __fish_seen_subcommand_from sessions" -f -a "kill" -d 'Kill a session and everything it started'
complete -c agtool -n "__fish_agtool_using_subcommand help; and __fish_seen_subcommand_from sessions" -f -a "stop-server" -d 'Kill every session and stop the session server'
complete -c agtool -n "__fish_agtool_using_subcommand help; and __fish_seen_subcommand_from sandbox" -f -a "check" -d 'Print the Landlock ABI, seccomp and namespaces; exit 1 when workspace-write cannot be enforced'
complete -c agtool -n "__fish_agtool_using_subcommand help; and __fish_seen_subcommand_from rules" -f -a "test" -d 'Say which rule decides a call of TOOL with the JSON arguments, and why'
complete -c agtool -n "__fish_agtool_using_subcommand help; and __fish_seen_subcommand_from trace" -f -a "summary" -d 'Calls, failures, blocked calls and p50/p95 duration per tool'
complete -c agtool -n "__fish_agtool_using_subcommand help; and __fish_seen_subcommand_from lsp" -f -a "status" -d 'Each server: language, pid, state, memory, open files, uptime, command'
complete -c agtool -n "__fish_agtool_using_subcommand help; and __fish_seen_subcommand_from lsp" -f -a "stop" -d 'Stop every language server of this workspace'
