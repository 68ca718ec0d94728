
using namespace System.Management.Automation
using namespace System.Management.Automation.Language

Register-ArgumentCompleter -Native -CommandName 'agtool' -ScriptBlock {
    param($wordToComplete, $commandAst, $cursorPosition)

    $commandElements = $commandAst.CommandElements
    $command = @(
        'agtool'
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
        'agtool' {
            [CompletionResult]::new('--root', '--root', [CompletionResultType]::ParameterName, 'Workspace root [env: AGTOOL_ROOT] (default: nearest .agent-state/, then .git, then the current directory)')
            [CompletionResult]::new('--agent', '--agent', [CompletionResultType]::ParameterName, 'Agent identity keying the freshness table [env: AGTOOL_AGENT] [default: default]')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Extra configuration file layered over the others [env: AGTOOL_CONFIG]')
            [CompletionResult]::new('--groups', '--groups', [CompletionResultType]::ParameterName, 'Tool groups enabled for call, schema and mcp, e.g. files,edit or all [env: AGTOOL_GROUPS]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour for people (dry-run diffs, sessions list): auto, always or never; auto is off with NO_COLOR, on with CLICOLOR_FORCE; call and --json never colour')
            [CompletionResult]::new('--timeout-ms', '--timeout-ms', [CompletionResultType]::ParameterName, 'Override every tool''s default timeout, in milliseconds')
            [CompletionResult]::new('--notes-dir', '--notes-dir', [CompletionResultType]::ParameterName, 'The notes store [default: .agent-state/notes, or config notes.dir]')
            [CompletionResult]::new('--skills-dir', '--skills-dir', [CompletionResultType]::ParameterName, 'A folder of skills, one subfolder with a SKILL.md each; repeatable, searched in order [env: AGTOOL_SKILLS, colon-separated]')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print one JSON object {ok, output, error, ...} instead of text')
            [CompletionResult]::new('--no-freshness', '--no-freshness', [CompletionResultType]::ParameterName, 'Turn the freshness gate off [env: AGTOOL_FRESHNESS=off]')
            [CompletionResult]::new('--no-syntax-check', '--no-syntax-check', [CompletionResultType]::ParameterName, 'Turn the syntax gate off [env: AGTOOL_SYNTAX_CHECK=off]')
            [CompletionResult]::new('--approved', '--approved', [CompletionResultType]::ParameterName, 'The host''s user approved this call: an ask rule lets it run (after exit status 3, Approval needed)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('read-file', 'read-file', [CompletionResultType]::ParameterValue, 'Read a file with line numbers and a content tag; also images, PDFs, notebooks, several files.')
            [CompletionResult]::new('list-dir', 'list-dir', [CompletionResultType]::ParameterValue, 'List a folder as an indented tree: `name/` folders, `name@` symlinks (never followed), `name?` other special files. Entries are sorted by name, children right under their folder. Ignored files (.gitignore) are left out unless ignored: true. Page with offset/limit; the last line says how to continue. Bytes of a name that are not UTF-8 show as `\xHH`; every path argument takes that spelling back.')
            [CompletionResult]::new('glob', 'glob', [CompletionResultType]::ParameterValue, 'Find files whose path matches a glob pattern, newest first.')
            [CompletionResult]::new('grep', 'grep', [CompletionResultType]::ParameterValue, 'Search file contents with a regular expression (ripgrep''s engine).')
            [CompletionResult]::new('diagnostics', 'diagnostics', [CompletionResultType]::ParameterValue, 'Show the problems a language server (pyright, pylsp, typescript-language-server, gopls, rust-analyzer, clangd) reports for files: one line each, `path:line:col: severity: message (code)`, errors first. Without paths: every file open in a language server. Edit results already list the problems an edit added; use this for the rest.')
            [CompletionResult]::new('write-file', 'write-file', [CompletionResultType]::ParameterValue, 'Create a file, or replace a whole file''s content.')
            [CompletionResult]::new('edit-file', 'edit-file', [CompletionResultType]::ParameterValue, 'Replace exact text in a file: old must occur exactly once (or pass all: true).')
            [CompletionResult]::new('edit-lines', 'edit-lines', [CompletionResultType]::ParameterValue, 'Replace or insert whole lines addressed by anchors from read_file with anchors: true.')
            [CompletionResult]::new('apply-patch', 'apply-patch', [CompletionResultType]::ParameterValue, 'Apply a patch that adds, deletes, updates or moves files, all or nothing.')
            [CompletionResult]::new('notebook-edit', 'notebook-edit', [CompletionResultType]::ParameterValue, 'Replace, insert or delete one cell of a Jupyter notebook (.ipynb).')
            [CompletionResult]::new('move-path', 'move-path', [CompletionResultType]::ParameterValue, 'Move or rename a file, a symlink or a folder inside the workspace.')
            [CompletionResult]::new('copy-path', 'copy-path', [CompletionResultType]::ParameterValue, 'Copy a file, a symlink or a folder (recursive: true) inside the workspace.')
            [CompletionResult]::new('make-dir', 'make-dir', [CompletionResultType]::ParameterValue, 'Make a folder, and any missing folders above it, inside the workspace.')
            [CompletionResult]::new('delete-path', 'delete-path', [CompletionResultType]::ParameterValue, 'Delete a file, a symlink, or a directory.')
            [CompletionResult]::new('exec', 'exec', [CompletionResultType]::ParameterValue, 'Run a command once and return its exit code and output.')
            [CompletionResult]::new('exec-command', 'exec-command', [CompletionResultType]::ParameterValue, 'Start a shell command that keeps running between calls (a server, a watcher, a REPL).')
            [CompletionResult]::new('write-stdin', 'write-stdin', [CompletionResultType]::ParameterValue, 'Send input to a running exec_command session, or read its new output.')
            [CompletionResult]::new('web-fetch', 'web-fetch', [CompletionResultType]::ParameterValue, 'Fetch an http or https URL and return the page as plain text.')
            [CompletionResult]::new('skill', 'skill', [CompletionResultType]::ParameterValue, 'Load a skill: instructions for one kind of task, given by the host.')
            [CompletionResult]::new('notes', 'notes', [CompletionResultType]::ParameterValue, 'Keep notes that outlive the session: list, read, write, delete')
            [CompletionResult]::new('schema', 'schema', [CompletionResultType]::ParameterValue, 'Print the tool definitions (JSON Schema) for an agent host')
            [CompletionResult]::new('call', 'call', [CompletionResultType]::ParameterValue, 'Run a tool with its JSON arguments (or a tool-call envelope) read from stdin')
            [CompletionResult]::new('mcp', 'mcp', [CompletionResultType]::ParameterValue, 'Serve the tools of the enabled groups to an MCP host over stdio')
            [CompletionResult]::new('state', 'state', [CompletionResultType]::ParameterValue, 'Inspect or clear the freshness table in .agent-state/')
            [CompletionResult]::new('sessions', 'sessions', [CompletionResultType]::ParameterValue, 'List or kill the exec-command sessions of this workspace, or stop their server')
            [CompletionResult]::new('sandbox', 'sandbox', [CompletionResultType]::ParameterValue, 'Say what this machine enforces of the exec sandbox')
            [CompletionResult]::new('rules', 'rules', [CompletionResultType]::ParameterValue, 'Check the allow/ask/deny rules: which rule decides a call, and why')
            [CompletionResult]::new('trace', 'trace', [CompletionResultType]::ParameterValue, 'Read the call trace ([trace] file or AGTOOL_TRACE)')
            [CompletionResult]::new('lsp', 'lsp', [CompletionResultType]::ParameterValue, 'Show or stop the language servers kept warm for this workspace''s diagnostics')
            [CompletionResult]::new('completions', 'completions', [CompletionResultType]::ParameterValue, 'Print shell completions (bash, zsh, fish, elvish, powershell)')
            [CompletionResult]::new('man', 'man', [CompletionResultType]::ParameterValue, 'Print the manual page (roff)')
            [CompletionResult]::new('session-server', 'session-server', [CompletionResultType]::ParameterValue, 'Run the exec session server for a state folder (started on demand)')
            [CompletionResult]::new('session-guard', 'session-guard', [CompletionResultType]::ParameterValue, 'Run a session''s command and end its whole tree when the session server dies')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'agtool;read-file' {
            [CompletionResult]::new('--paths', '--paths', [CompletionResultType]::ParameterName, 'Instead of path: several files (or glob patterns such as "src/*.rs"), read in one call, each with its own [path#TAG] header; at most 50 files')
            [CompletionResult]::new('--pages', '--pages', [CompletionResultType]::ParameterName, 'PDF pages to show: "3", "3-5" or "3-" (default the first 20)')
            [CompletionResult]::new('--offset', '--offset', [CompletionResultType]::ParameterName, 'First line to show, 1-based (default 1); for a notebook, the first cell')
            [CompletionResult]::new('--limit', '--limit', [CompletionResultType]::ParameterName, 'Most lines to show (default 2000); for a notebook, most cells')
            [CompletionResult]::new('--mode', '--mode', [CompletionResultType]::ParameterName, 'slice (default) or indentation')
            [CompletionResult]::new('--indentation', '--indentation', [CompletionResultType]::ParameterName, 'Indentation-mode options (an object; given as JSON on the command line)')
            [CompletionResult]::new('--anchors', '--anchors', [CompletionResultType]::ParameterName, 'Print each line as `<n>:<hh>|text`: the anchors edit_lines takes (default false)')
            [CompletionResult]::new('--tail', '--tail', [CompletionResultType]::ParameterName, 'Show the last N lines instead, e.g. 400 (cannot be combined with offset)')
            [CompletionResult]::new('--args', '--args', [CompletionResultType]::ParameterName, 'All arguments as one JSON object (- reads it from stdin, @FILE from a file)')
            [CompletionResult]::new('--root', '--root', [CompletionResultType]::ParameterName, 'Workspace root [env: AGTOOL_ROOT] (default: nearest .agent-state/, then .git, then the current directory)')
            [CompletionResult]::new('--agent', '--agent', [CompletionResultType]::ParameterName, 'Agent identity keying the freshness table [env: AGTOOL_AGENT] [default: default]')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Extra configuration file layered over the others [env: AGTOOL_CONFIG]')
            [CompletionResult]::new('--groups', '--groups', [CompletionResultType]::ParameterName, 'Tool groups enabled for call, schema and mcp, e.g. files,edit or all [env: AGTOOL_GROUPS]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour for people (dry-run diffs, sessions list): auto, always or never; auto is off with NO_COLOR, on with CLICOLOR_FORCE; call and --json never colour')
            [CompletionResult]::new('--timeout-ms', '--timeout-ms', [CompletionResultType]::ParameterName, 'Override every tool''s default timeout, in milliseconds')
            [CompletionResult]::new('--notes-dir', '--notes-dir', [CompletionResultType]::ParameterName, 'The notes store [default: .agent-state/notes, or config notes.dir]')
            [CompletionResult]::new('--skills-dir', '--skills-dir', [CompletionResultType]::ParameterName, 'A folder of skills, one subfolder with a SKILL.md each; repeatable, searched in order [env: AGTOOL_SKILLS, colon-separated]')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print one JSON object {ok, output, error, ...} instead of text')
            [CompletionResult]::new('--no-freshness', '--no-freshness', [CompletionResultType]::ParameterName, 'Turn the freshness gate off [env: AGTOOL_FRESHNESS=off]')
            [CompletionResult]::new('--no-syntax-check', '--no-syntax-check', [CompletionResultType]::ParameterName, 'Turn the syntax gate off [env: AGTOOL_SYNTAX_CHECK=off]')
            [CompletionResult]::new('--approved', '--approved', [CompletionResultType]::ParameterName, 'The host''s user approved this call: an ask rule lets it run (after exit status 3, Approval needed)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'agtool;list-dir' {
            [CompletionResult]::new('--offset', '--offset', [CompletionResultType]::ParameterName, 'First entry to show, 1-based, in tree order (default 1)')
            [CompletionResult]::new('--limit', '--limit', [CompletionResultType]::ParameterName, 'Most entries to show (default 25)')
            [CompletionResult]::new('--depth', '--depth', [CompletionResultType]::ParameterName, 'How many levels deep to list (default 2)')
            [CompletionResult]::new('--hidden', '--hidden', [CompletionResultType]::ParameterName, 'Include hidden entries (default true)')
            [CompletionResult]::new('--ignored', '--ignored', [CompletionResultType]::ParameterName, 'Include entries matched by .gitignore/.ignore rules (default false)')
            [CompletionResult]::new('--args', '--args', [CompletionResultType]::ParameterName, 'All arguments as one JSON object (- reads it from stdin, @FILE from a file)')
            [CompletionResult]::new('--root', '--root', [CompletionResultType]::ParameterName, 'Workspace root [env: AGTOOL_ROOT] (default: nearest .agent-state/, then .git, then the current directory)')
            [CompletionResult]::new('--agent', '--agent', [CompletionResultType]::ParameterName, 'Agent identity keying the freshness table [env: AGTOOL_AGENT] [default: default]')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Extra configuration file layered over the others [env: AGTOOL_CONFIG]')
            [CompletionResult]::new('--groups', '--groups', [CompletionResultType]::ParameterName, 'Tool groups enabled for call, schema and mcp, e.g. files,edit or all [env: AGTOOL_GROUPS]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour for people (dry-run diffs, sessions list): auto, always or never; auto is off with NO_COLOR, on with CLICOLOR_FORCE; call and --json never colour')
            [CompletionResult]::new('--timeout-ms', '--timeout-ms', [CompletionResultType]::ParameterName, 'Override every tool''s default timeout, in milliseconds')
            [CompletionResult]::new('--notes-dir', '--notes-dir', [CompletionResultType]::ParameterName, 'The notes store [default: .agent-state/notes, or config notes.dir]')
            [CompletionResult]::new('--skills-dir', '--skills-dir', [CompletionResultType]::ParameterName, 'A folder of skills, one subfolder with a SKILL.md each; repeatable, searched in order [env: AGTOOL_SKILLS, colon-separated]')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print one JSON object {ok, output, error, ...} instead of text')
            [CompletionResult]::new('--no-freshness', '--no-freshness', [CompletionResultType]::ParameterName, 'Turn the freshness gate off [env: AGTOOL_FRESHNESS=off]')
            [CompletionResult]::new('--no-syntax-check', '--no-syntax-check', [CompletionResultType]::ParameterName, 'Turn the syntax gate off [env: AGTOOL_SYNTAX_CHECK=off]')
            [CompletionResult]::new('--approved', '--approved', [CompletionResultType]::ParameterName, 'The host''s user approved this call: an ask rule lets it run (after exit status 3, Approval needed)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'agtool;glob' {
            [CompletionResult]::new('--limit', '--limit', [CompletionResultType]::ParameterName, 'Most paths to show (default 100, at most 2000)')
            [CompletionResult]::new('--hidden', '--hidden', [CompletionResultType]::ParameterName, 'Include hidden files and folders (default false)')
            [CompletionResult]::new('--ignored', '--ignored', [CompletionResultType]::ParameterName, 'Include files matched by .gitignore/.ignore rules (default false)')
            [CompletionResult]::new('--args', '--args', [CompletionResultType]::ParameterName, 'All arguments as one JSON object (- reads it from stdin, @FILE from a file)')
            [CompletionResult]::new('--root', '--root', [CompletionResultType]::ParameterName, 'Workspace root [env: AGTOOL_ROOT] (default: nearest .agent-state/, then .git, then the current directory)')
            [CompletionResult]::new('--agent', '--agent', [CompletionResultType]::ParameterName, 'Agent identity keying the freshness table [env: AGTOOL_AGENT] [default: default]')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Extra configuration file layered over the others [env: AGTOOL_CONFIG]')
            [CompletionResult]::new('--groups', '--groups', [CompletionResultType]::ParameterName, 'Tool groups enabled for call, schema and mcp, e.g. files,edit or all [env: AGTOOL_GROUPS]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour for people (dry-run diffs, sessions list): auto, always or never; auto is off with NO_COLOR, on with CLICOLOR_FORCE; call and --json never colour')
            [CompletionResult]::new('--timeout-ms', '--timeout-ms', [CompletionResultType]::ParameterName, 'Override every tool''s default timeout, in milliseconds')
            [CompletionResult]::new('--notes-dir', '--notes-dir', [CompletionResultType]::ParameterName, 'The notes store [default: .agent-state/notes, or config notes.dir]')
            [CompletionResult]::new('--skills-dir', '--skills-dir', [CompletionResultType]::ParameterName, 'A folder of skills, one subfolder with a SKILL.md each; repeatable, searched in order [env: AGTOOL_SKILLS, colon-separated]')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print one JSON object {ok, output, error, ...} instead of text')
            [CompletionResult]::new('--no-freshness', '--no-freshness', [CompletionResultType]::ParameterName, 'Turn the freshness gate off [env: AGTOOL_FRESHNESS=off]')
            [CompletionResult]::new('--no-syntax-check', '--no-syntax-check', [CompletionResultType]::ParameterName, 'Turn the syntax gate off [env: AGTOOL_SYNTAX_CHECK=off]')
            [CompletionResult]::new('--approved', '--approved', [CompletionResultType]::ParameterName, 'The host''s user approved this call: an ask rule lets it run (after exit status 3, Approval needed)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'agtool;grep' {
            [CompletionResult]::new('--include', '--include', [CompletionResultType]::ParameterName, 'Only search files whose names match this glob, e.g. "*.rs" or "*.{ts,tsx}"')
            [CompletionResult]::new('--limit', '--limit', [CompletionResultType]::ParameterName, 'Most files (files/count output) or matching lines (content output) to show (default 100, at most 2000)')
            [CompletionResult]::new('--case', '--case', [CompletionResultType]::ParameterName, 'smart (default: case-insensitive unless the pattern has an upper-case letter), sensitive or insensitive')
            [CompletionResult]::new('--fixed-strings', '--fixed-strings', [CompletionResultType]::ParameterName, 'Treat the pattern as a literal string, not a regex (default false)')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'files (default: matching paths, newest first), content (matching lines) or count (matching lines per file)')
            [CompletionResult]::new('--context', '--context', [CompletionResultType]::ParameterName, 'Lines of context before and after each match, content output only (default 0)')
            [CompletionResult]::new('--multiline', '--multiline', [CompletionResultType]::ParameterName, 'Let matches span lines; `.` then also matches a newline (default false)')
            [CompletionResult]::new('--hidden', '--hidden', [CompletionResultType]::ParameterName, 'Search hidden files and folders too (default false)')
            [CompletionResult]::new('--ignored', '--ignored', [CompletionResultType]::ParameterName, 'Search files matched by .gitignore/.ignore rules too (default false)')
            [CompletionResult]::new('--names', '--names', [CompletionResultType]::ParameterName, 'Also list files whose names contain the pattern, in a section after the hits (default true; scripts that parse `path:line:text` or `path:count` pass false)')
            [CompletionResult]::new('--args', '--args', [CompletionResultType]::ParameterName, 'All arguments as one JSON object (- reads it from stdin, @FILE from a file)')
            [CompletionResult]::new('--root', '--root', [CompletionResultType]::ParameterName, 'Workspace root [env: AGTOOL_ROOT] (default: nearest .agent-state/, then .git, then the current directory)')
            [CompletionResult]::new('--agent', '--agent', [CompletionResultType]::ParameterName, 'Agent identity keying the freshness table [env: AGTOOL_AGENT] [default: default]')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Extra configuration file layered over the others [env: AGTOOL_CONFIG]')
            [CompletionResult]::new('--groups', '--groups', [CompletionResultType]::ParameterName, 'Tool groups enabled for call, schema and mcp, e.g. files,edit or all [env: AGTOOL_GROUPS]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour for people (dry-run diffs, sessions list): auto, always or never; auto is off with NO_COLOR, on with CLICOLOR_FORCE; call and --json never colour')
            [CompletionResult]::new('--timeout-ms', '--timeout-ms', [CompletionResultType]::ParameterName, 'Override every tool''s default timeout, in milliseconds')
            [CompletionResult]::new('--notes-dir', '--notes-dir', [CompletionResultType]::ParameterName, 'The notes store [default: .agent-state/notes, or config notes.dir]')
            [CompletionResult]::new('--skills-dir', '--skills-dir', [CompletionResultType]::ParameterName, 'A folder of skills, one subfolder with a SKILL.md each; repeatable, searched in order [env: AGTOOL_SKILLS, colon-separated]')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print one JSON object {ok, output, error, ...} instead of text')
            [CompletionResult]::new('--no-freshness', '--no-freshness', [CompletionResultType]::ParameterName, 'Turn the freshness gate off [env: AGTOOL_FRESHNESS=off]')
            [CompletionResult]::new('--no-syntax-check', '--no-syntax-check', [CompletionResultType]::ParameterName, 'Turn the syntax gate off [env: AGTOOL_SYNTAX_CHECK=off]')
            [CompletionResult]::new('--approved', '--approved', [CompletionResultType]::ParameterName, 'The host''s user approved this call: an ask rule lets it run (after exit status 3, Approval needed)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'agtool;diagnostics' {
            [CompletionResult]::new('--args', '--args', [CompletionResultType]::ParameterName, 'All arguments as one JSON object (- reads it from stdin, @FILE from a file)')
            [CompletionResult]::new('--root', '--root', [CompletionResultType]::ParameterName, 'Workspace root [env: AGTOOL_ROOT] (default: nearest .agent-state/, then .git, then the current directory)')
            [CompletionResult]::new('--agent', '--agent', [CompletionResultType]::ParameterName, 'Agent identity keying the freshness table [env: AGTOOL_AGENT] [default: default]')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Extra configuration file layered over the others [env: AGTOOL_CONFIG]')
            [CompletionResult]::new('--groups', '--groups', [CompletionResultType]::ParameterName, 'Tool groups enabled for call, schema and mcp, e.g. files,edit or all [env: AGTOOL_GROUPS]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour for people (dry-run diffs, sessions list): auto, always or never; auto is off with NO_COLOR, on with CLICOLOR_FORCE; call and --json never colour')
            [CompletionResult]::new('--timeout-ms', '--timeout-ms', [CompletionResultType]::ParameterName, 'Override every tool''s default timeout, in milliseconds')
            [CompletionResult]::new('--notes-dir', '--notes-dir', [CompletionResultType]::ParameterName, 'The notes store [default: .agent-state/notes, or config notes.dir]')
            [CompletionResult]::new('--skills-dir', '--skills-dir', [CompletionResultType]::ParameterName, 'A folder of skills, one subfolder with a SKILL.md each; repeatable, searched in order [env: AGTOOL_SKILLS, colon-separated]')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print one JSON object {ok, output, error, ...} instead of text')
            [CompletionResult]::new('--no-freshness', '--no-freshness', [CompletionResultType]::ParameterName, 'Turn the freshness gate off [env: AGTOOL_FRESHNESS=off]')
            [CompletionResult]::new('--no-syntax-check', '--no-syntax-check', [CompletionResultType]::ParameterName, 'Turn the syntax gate off [env: AGTOOL_SYNTAX_CHECK=off]')
            [CompletionResult]::new('--approved', '--approved', [CompletionResultType]::ParameterName, 'The host''s user approved this call: an ask rule lets it run (after exit status 3, Approval needed)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'agtool;write-file' {
            [CompletionResult]::new('--content', '--content', [CompletionResultType]::ParameterName, 'The whole new content (CLI: --content, or stdin). Written exactly as given; in an existing file, line breaks take the file''s own line ending and encoding')
            [CompletionResult]::new('--overwrite', '--overwrite', [CompletionResultType]::ParameterName, 'Replace an existing file (default true); false refuses when the file exists')
            [CompletionResult]::new('--expected-mtime', '--expected-mtime', [CompletionResultType]::ParameterName, 'Refuse unless the file''s modification time is this (RFC 3339, or integer ms since the Unix epoch)')
            [CompletionResult]::new('--expected-size', '--expected-size', [CompletionResultType]::ParameterName, 'Refuse unless the file''s size is this many bytes')
            [CompletionResult]::new('--allow-placeholders', '--allow-placeholders', [CompletionResultType]::ParameterName, 'Write even when the new content adds a placeholder comment such as `// ... rest of code` and drops lines of the old file (default false: refused)')
            [CompletionResult]::new('--check-syntax', '--check-syntax', [CompletionResultType]::ParameterName, 'Refuse a write that adds syntax errors (default true)')
            [CompletionResult]::new('--dry-run', '--dry-run', [CompletionResultType]::ParameterName, 'Show the diff, write nothing (default false)')
            [CompletionResult]::new('--args', '--args', [CompletionResultType]::ParameterName, 'All arguments as one JSON object (- reads it from stdin, @FILE from a file)')
            [CompletionResult]::new('--root', '--root', [CompletionResultType]::ParameterName, 'Workspace root [env: AGTOOL_ROOT] (default: nearest .agent-state/, then .git, then the current directory)')
            [CompletionResult]::new('--agent', '--agent', [CompletionResultType]::ParameterName, 'Agent identity keying the freshness table [env: AGTOOL_AGENT] [default: default]')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Extra configuration file layered over the others [env: AGTOOL_CONFIG]')
            [CompletionResult]::new('--groups', '--groups', [CompletionResultType]::ParameterName, 'Tool groups enabled for call, schema and mcp, e.g. files,edit or all [env: AGTOOL_GROUPS]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour for people (dry-run diffs, sessions list): auto, always or never; auto is off with NO_COLOR, on with CLICOLOR_FORCE; call and --json never colour')
            [CompletionResult]::new('--timeout-ms', '--timeout-ms', [CompletionResultType]::ParameterName, 'Override every tool''s default timeout, in milliseconds')
            [CompletionResult]::new('--notes-dir', '--notes-dir', [CompletionResultType]::ParameterName, 'The notes store [default: .agent-state/notes, or config notes.dir]')
            [CompletionResult]::new('--skills-dir', '--skills-dir', [CompletionResultType]::ParameterName, 'A folder of skills, one subfolder with a SKILL.md each; repeatable, searched in order [env: AGTOOL_SKILLS, colon-separated]')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print one JSON object {ok, output, error, ...} instead of text')
            [CompletionResult]::new('--no-freshness', '--no-freshness', [CompletionResultType]::ParameterName, 'Turn the freshness gate off [env: AGTOOL_FRESHNESS=off]')
            [CompletionResult]::new('--no-syntax-check', '--no-syntax-check', [CompletionResultType]::ParameterName, 'Turn the syntax gate off [env: AGTOOL_SYNTAX_CHECK=off]')
            [CompletionResult]::new('--approved', '--approved', [CompletionResultType]::ParameterName, 'The host''s user approved this call: an ask rule lets it run (after exit status 3, Approval needed)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'agtool;edit-file' {
            [CompletionResult]::new('--old', '--old', [CompletionResultType]::ParameterName, 'The exact text to replace, copied from read-file without the `L<n>: ` prefixes. Must occur exactly once unless all is true')
            [CompletionResult]::new('--new', '--new', [CompletionResultType]::ParameterName, 'The replacement text (may be empty to delete old)')
            [CompletionResult]::new('--all', '--all', [CompletionResultType]::ParameterName, 'Replace every occurrence of old (default false)')
            [CompletionResult]::new('--edits', '--edits', [CompletionResultType]::ParameterName, 'Instead of old/new: a list of {old, new, all} edits applied in order to the running result, all or nothing (CLI: a JSON array)')
            [CompletionResult]::new('--allow-placeholders', '--allow-placeholders', [CompletionResultType]::ParameterName, 'Apply even when new adds a placeholder comment such as `// ... existing code` and drops lines of old (default false: refused)')
            [CompletionResult]::new('--check-syntax', '--check-syntax', [CompletionResultType]::ParameterName, 'Refuse an edit that adds syntax errors (default true)')
            [CompletionResult]::new('--dry-run', '--dry-run', [CompletionResultType]::ParameterName, 'Show the diff, write nothing (default false)')
            [CompletionResult]::new('--args', '--args', [CompletionResultType]::ParameterName, 'All arguments as one JSON object (- reads it from stdin, @FILE from a file)')
            [CompletionResult]::new('--root', '--root', [CompletionResultType]::ParameterName, 'Workspace root [env: AGTOOL_ROOT] (default: nearest .agent-state/, then .git, then the current directory)')
            [CompletionResult]::new('--agent', '--agent', [CompletionResultType]::ParameterName, 'Agent identity keying the freshness table [env: AGTOOL_AGENT] [default: default]')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Extra configuration file layered over the others [env: AGTOOL_CONFIG]')
            [CompletionResult]::new('--groups', '--groups', [CompletionResultType]::ParameterName, 'Tool groups enabled for call, schema and mcp, e.g. files,edit or all [env: AGTOOL_GROUPS]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour for people (dry-run diffs, sessions list): auto, always or never; auto is off with NO_COLOR, on with CLICOLOR_FORCE; call and --json never colour')
            [CompletionResult]::new('--timeout-ms', '--timeout-ms', [CompletionResultType]::ParameterName, 'Override every tool''s default timeout, in milliseconds')
            [CompletionResult]::new('--notes-dir', '--notes-dir', [CompletionResultType]::ParameterName, 'The notes store [default: .agent-state/notes, or config notes.dir]')
            [CompletionResult]::new('--skills-dir', '--skills-dir', [CompletionResultType]::ParameterName, 'A folder of skills, one subfolder with a SKILL.md each; repeatable, searched in order [env: AGTOOL_SKILLS, colon-separated]')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print one JSON object {ok, output, error, ...} instead of text')
            [CompletionResult]::new('--no-freshness', '--no-freshness', [CompletionResultType]::ParameterName, 'Turn the freshness gate off [env: AGTOOL_FRESHNESS=off]')
            [CompletionResult]::new('--no-syntax-check', '--no-syntax-check', [CompletionResultType]::ParameterName, 'Turn the syntax gate off [env: AGTOOL_SYNTAX_CHECK=off]')
            [CompletionResult]::new('--approved', '--approved', [CompletionResultType]::ParameterName, 'The host''s user approved this call: an ask rule lets it run (after exit status 3, Approval needed)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'agtool;edit-lines' {
            [CompletionResult]::new('--edits', '--edits', [CompletionResultType]::ParameterName, 'The edits: each {path, from_anchor, to_anchor?, replace} or {path, after_anchor, insert} (CLI: a JSON array)')
            [CompletionResult]::new('--check-syntax', '--check-syntax', [CompletionResultType]::ParameterName, 'Refuse edits that add syntax errors (default true)')
            [CompletionResult]::new('--dry-run', '--dry-run', [CompletionResultType]::ParameterName, 'Show the diff, write nothing (default false)')
            [CompletionResult]::new('--args', '--args', [CompletionResultType]::ParameterName, 'All arguments as one JSON object (- reads it from stdin, @FILE from a file)')
            [CompletionResult]::new('--root', '--root', [CompletionResultType]::ParameterName, 'Workspace root [env: AGTOOL_ROOT] (default: nearest .agent-state/, then .git, then the current directory)')
            [CompletionResult]::new('--agent', '--agent', [CompletionResultType]::ParameterName, 'Agent identity keying the freshness table [env: AGTOOL_AGENT] [default: default]')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Extra configuration file layered over the others [env: AGTOOL_CONFIG]')
            [CompletionResult]::new('--groups', '--groups', [CompletionResultType]::ParameterName, 'Tool groups enabled for call, schema and mcp, e.g. files,edit or all [env: AGTOOL_GROUPS]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour for people (dry-run diffs, sessions list): auto, always or never; auto is off with NO_COLOR, on with CLICOLOR_FORCE; call and --json never colour')
            [CompletionResult]::new('--timeout-ms', '--timeout-ms', [CompletionResultType]::ParameterName, 'Override every tool''s default timeout, in milliseconds')
            [CompletionResult]::new('--notes-dir', '--notes-dir', [CompletionResultType]::ParameterName, 'The notes store [default: .agent-state/notes, or config notes.dir]')
            [CompletionResult]::new('--skills-dir', '--skills-dir', [CompletionResultType]::ParameterName, 'A folder of skills, one subfolder with a SKILL.md each; repeatable, searched in order [env: AGTOOL_SKILLS, colon-separated]')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print one JSON object {ok, output, error, ...} instead of text')
            [CompletionResult]::new('--no-freshness', '--no-freshness', [CompletionResultType]::ParameterName, 'Turn the freshness gate off [env: AGTOOL_FRESHNESS=off]')
            [CompletionResult]::new('--no-syntax-check', '--no-syntax-check', [CompletionResultType]::ParameterName, 'Turn the syntax gate off [env: AGTOOL_SYNTAX_CHECK=off]')
            [CompletionResult]::new('--approved', '--approved', [CompletionResultType]::ParameterName, 'The host''s user approved this call: an ask rule lets it run (after exit status 3, Approval needed)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'agtool;apply-patch' {
            [CompletionResult]::new('--input', '--input', [CompletionResultType]::ParameterName, 'The patch text, from `*** Begin Patch` to `*** End Patch`. CLI: stdin, or `--input FILE` to read it from a file')
            [CompletionResult]::new('--allow-placeholders', '--allow-placeholders', [CompletionResultType]::ParameterName, 'Apply even when an Update adds a placeholder comment such as `// ... existing code` and removes lines (default false: refused)')
            [CompletionResult]::new('--check-syntax', '--check-syntax', [CompletionResultType]::ParameterName, 'Refuse a patch that adds syntax errors to a file (default true)')
            [CompletionResult]::new('--dry-run', '--dry-run', [CompletionResultType]::ParameterName, 'Show the unified diff of every file, write nothing (default false)')
            [CompletionResult]::new('--args', '--args', [CompletionResultType]::ParameterName, 'All arguments as one JSON object (- reads it from stdin, @FILE from a file)')
            [CompletionResult]::new('--root', '--root', [CompletionResultType]::ParameterName, 'Workspace root [env: AGTOOL_ROOT] (default: nearest .agent-state/, then .git, then the current directory)')
            [CompletionResult]::new('--agent', '--agent', [CompletionResultType]::ParameterName, 'Agent identity keying the freshness table [env: AGTOOL_AGENT] [default: default]')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Extra configuration file layered over the others [env: AGTOOL_CONFIG]')
            [CompletionResult]::new('--groups', '--groups', [CompletionResultType]::ParameterName, 'Tool groups enabled for call, schema and mcp, e.g. files,edit or all [env: AGTOOL_GROUPS]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour for people (dry-run diffs, sessions list): auto, always or never; auto is off with NO_COLOR, on with CLICOLOR_FORCE; call and --json never colour')
            [CompletionResult]::new('--timeout-ms', '--timeout-ms', [CompletionResultType]::ParameterName, 'Override every tool''s default timeout, in milliseconds')
            [CompletionResult]::new('--notes-dir', '--notes-dir', [CompletionResultType]::ParameterName, 'The notes store [default: .agent-state/notes, or config notes.dir]')
            [CompletionResult]::new('--skills-dir', '--skills-dir', [CompletionResultType]::ParameterName, 'A folder of skills, one subfolder with a SKILL.md each; repeatable, searched in order [env: AGTOOL_SKILLS, colon-separated]')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print one JSON object {ok, output, error, ...} instead of text')
            [CompletionResult]::new('--no-freshness', '--no-freshness', [CompletionResultType]::ParameterName, 'Turn the freshness gate off [env: AGTOOL_FRESHNESS=off]')
            [CompletionResult]::new('--no-syntax-check', '--no-syntax-check', [CompletionResultType]::ParameterName, 'Turn the syntax gate off [env: AGTOOL_SYNTAX_CHECK=off]')
            [CompletionResult]::new('--approved', '--approved', [CompletionResultType]::ParameterName, 'The host''s user approved this call: an ask rule lets it run (after exit status 3, Approval needed)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'agtool;notebook-edit' {
            [CompletionResult]::new('--cell', '--cell', [CompletionResultType]::ParameterName, 'The cell: its id, or its number as read_file shows it (`[cell 3 · ...]`, from 1)')
            [CompletionResult]::new('--action', '--action', [CompletionResultType]::ParameterName, 'replace (default), insert_after, insert_before or delete')
            [CompletionResult]::new('--source', '--source', [CompletionResultType]::ParameterName, 'The cell''s new source (replace, insert_*), without line-number prefixes')
            [CompletionResult]::new('--cell-type', '--cell-type', [CompletionResultType]::ParameterName, 'code, markdown or raw: the new cell''s type (default code), or a replaced cell''s new type (default: unchanged)')
            [CompletionResult]::new('--allow-placeholders', '--allow-placeholders', [CompletionResultType]::ParameterName, 'Apply even when source adds a placeholder comment such as `# ... existing code` and drops lines of the old source (default false: refused)')
            [CompletionResult]::new('--args', '--args', [CompletionResultType]::ParameterName, 'All arguments as one JSON object (- reads it from stdin, @FILE from a file)')
            [CompletionResult]::new('--root', '--root', [CompletionResultType]::ParameterName, 'Workspace root [env: AGTOOL_ROOT] (default: nearest .agent-state/, then .git, then the current directory)')
            [CompletionResult]::new('--agent', '--agent', [CompletionResultType]::ParameterName, 'Agent identity keying the freshness table [env: AGTOOL_AGENT] [default: default]')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Extra configuration file layered over the others [env: AGTOOL_CONFIG]')
            [CompletionResult]::new('--groups', '--groups', [CompletionResultType]::ParameterName, 'Tool groups enabled for call, schema and mcp, e.g. files,edit or all [env: AGTOOL_GROUPS]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour for people (dry-run diffs, sessions list): auto, always or never; auto is off with NO_COLOR, on with CLICOLOR_FORCE; call and --json never colour')
            [CompletionResult]::new('--timeout-ms', '--timeout-ms', [CompletionResultType]::ParameterName, 'Override every tool''s default timeout, in milliseconds')
            [CompletionResult]::new('--notes-dir', '--notes-dir', [CompletionResultType]::ParameterName, 'The notes store [default: .agent-state/notes, or config notes.dir]')
            [CompletionResult]::new('--skills-dir', '--skills-dir', [CompletionResultType]::ParameterName, 'A folder of skills, one subfolder with a SKILL.md each; repeatable, searched in order [env: AGTOOL_SKILLS, colon-separated]')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print one JSON object {ok, output, error, ...} instead of text')
            [CompletionResult]::new('--no-freshness', '--no-freshness', [CompletionResultType]::ParameterName, 'Turn the freshness gate off [env: AGTOOL_FRESHNESS=off]')
            [CompletionResult]::new('--no-syntax-check', '--no-syntax-check', [CompletionResultType]::ParameterName, 'Turn the syntax gate off [env: AGTOOL_SYNTAX_CHECK=off]')
            [CompletionResult]::new('--approved', '--approved', [CompletionResultType]::ParameterName, 'The host''s user approved this call: an ask rule lets it run (after exit status 3, Approval needed)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'agtool;move-path' {
            [CompletionResult]::new('--overwrite', '--overwrite', [CompletionResultType]::ParameterName, 'Replace an existing file or symlink at the destination (default false). A replaced file needs a current read_file of it; a folder is never replaced')
            [CompletionResult]::new('--dry-run', '--dry-run', [CompletionResultType]::ParameterName, 'Say what would be moved, move nothing (default false)')
            [CompletionResult]::new('--args', '--args', [CompletionResultType]::ParameterName, 'All arguments as one JSON object (- reads it from stdin, @FILE from a file)')
            [CompletionResult]::new('--root', '--root', [CompletionResultType]::ParameterName, 'Workspace root [env: AGTOOL_ROOT] (default: nearest .agent-state/, then .git, then the current directory)')
            [CompletionResult]::new('--agent', '--agent', [CompletionResultType]::ParameterName, 'Agent identity keying the freshness table [env: AGTOOL_AGENT] [default: default]')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Extra configuration file layered over the others [env: AGTOOL_CONFIG]')
            [CompletionResult]::new('--groups', '--groups', [CompletionResultType]::ParameterName, 'Tool groups enabled for call, schema and mcp, e.g. files,edit or all [env: AGTOOL_GROUPS]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour for people (dry-run diffs, sessions list): auto, always or never; auto is off with NO_COLOR, on with CLICOLOR_FORCE; call and --json never colour')
            [CompletionResult]::new('--timeout-ms', '--timeout-ms', [CompletionResultType]::ParameterName, 'Override every tool''s default timeout, in milliseconds')
            [CompletionResult]::new('--notes-dir', '--notes-dir', [CompletionResultType]::ParameterName, 'The notes store [default: .agent-state/notes, or config notes.dir]')
            [CompletionResult]::new('--skills-dir', '--skills-dir', [CompletionResultType]::ParameterName, 'A folder of skills, one subfolder with a SKILL.md each; repeatable, searched in order [env: AGTOOL_SKILLS, colon-separated]')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print one JSON object {ok, output, error, ...} instead of text')
            [CompletionResult]::new('--no-freshness', '--no-freshness', [CompletionResultType]::ParameterName, 'Turn the freshness gate off [env: AGTOOL_FRESHNESS=off]')
            [CompletionResult]::new('--no-syntax-check', '--no-syntax-check', [CompletionResultType]::ParameterName, 'Turn the syntax gate off [env: AGTOOL_SYNTAX_CHECK=off]')
            [CompletionResult]::new('--approved', '--approved', [CompletionResultType]::ParameterName, 'The host''s user approved this call: an ask rule lets it run (after exit status 3, Approval needed)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'agtool;copy-path' {
            [CompletionResult]::new('--overwrite', '--overwrite', [CompletionResultType]::ParameterName, 'Replace an existing file or symlink at the destination (default false). A replaced file needs a current read_file of it; a folder is never replaced')
            [CompletionResult]::new('--recursive', '--recursive', [CompletionResultType]::ParameterName, 'Copy a folder and everything in it (default false; needed for any folder)')
            [CompletionResult]::new('--dry-run', '--dry-run', [CompletionResultType]::ParameterName, 'Say what would be copied, copy nothing (default false)')
            [CompletionResult]::new('--args', '--args', [CompletionResultType]::ParameterName, 'All arguments as one JSON object (- reads it from stdin, @FILE from a file)')
            [CompletionResult]::new('--root', '--root', [CompletionResultType]::ParameterName, 'Workspace root [env: AGTOOL_ROOT] (default: nearest .agent-state/, then .git, then the current directory)')
            [CompletionResult]::new('--agent', '--agent', [CompletionResultType]::ParameterName, 'Agent identity keying the freshness table [env: AGTOOL_AGENT] [default: default]')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Extra configuration file layered over the others [env: AGTOOL_CONFIG]')
            [CompletionResult]::new('--groups', '--groups', [CompletionResultType]::ParameterName, 'Tool groups enabled for call, schema and mcp, e.g. files,edit or all [env: AGTOOL_GROUPS]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour for people (dry-run diffs, sessions list): auto, always or never; auto is off with NO_COLOR, on with CLICOLOR_FORCE; call and --json never colour')
            [CompletionResult]::new('--timeout-ms', '--timeout-ms', [CompletionResultType]::ParameterName, 'Override every tool''s default timeout, in milliseconds')
            [CompletionResult]::new('--notes-dir', '--notes-dir', [CompletionResultType]::ParameterName, 'The notes store [default: .agent-state/notes, or config notes.dir]')
            [CompletionResult]::new('--skills-dir', '--skills-dir', [CompletionResultType]::ParameterName, 'A folder of skills, one subfolder with a SKILL.md each; repeatable, searched in order [env: AGTOOL_SKILLS, colon-separated]')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print one JSON object {ok, output, error, ...} instead of text')
            [CompletionResult]::new('--no-freshness', '--no-freshness', [CompletionResultType]::ParameterName, 'Turn the freshness gate off [env: AGTOOL_FRESHNESS=off]')
            [CompletionResult]::new('--no-syntax-check', '--no-syntax-check', [CompletionResultType]::ParameterName, 'Turn the syntax gate off [env: AGTOOL_SYNTAX_CHECK=off]')
            [CompletionResult]::new('--approved', '--approved', [CompletionResultType]::ParameterName, 'The host''s user approved this call: an ask rule lets it run (after exit status 3, Approval needed)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'agtool;make-dir' {
            [CompletionResult]::new('--dry-run', '--dry-run', [CompletionResultType]::ParameterName, 'Say what would be made, make nothing (default false)')
            [CompletionResult]::new('--args', '--args', [CompletionResultType]::ParameterName, 'All arguments as one JSON object (- reads it from stdin, @FILE from a file)')
            [CompletionResult]::new('--root', '--root', [CompletionResultType]::ParameterName, 'Workspace root [env: AGTOOL_ROOT] (default: nearest .agent-state/, then .git, then the current directory)')
            [CompletionResult]::new('--agent', '--agent', [CompletionResultType]::ParameterName, 'Agent identity keying the freshness table [env: AGTOOL_AGENT] [default: default]')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Extra configuration file layered over the others [env: AGTOOL_CONFIG]')
            [CompletionResult]::new('--groups', '--groups', [CompletionResultType]::ParameterName, 'Tool groups enabled for call, schema and mcp, e.g. files,edit or all [env: AGTOOL_GROUPS]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour for people (dry-run diffs, sessions list): auto, always or never; auto is off with NO_COLOR, on with CLICOLOR_FORCE; call and --json never colour')
            [CompletionResult]::new('--timeout-ms', '--timeout-ms', [CompletionResultType]::ParameterName, 'Override every tool''s default timeout, in milliseconds')
            [CompletionResult]::new('--notes-dir', '--notes-dir', [CompletionResultType]::ParameterName, 'The notes store [default: .agent-state/notes, or config notes.dir]')
            [CompletionResult]::new('--skills-dir', '--skills-dir', [CompletionResultType]::ParameterName, 'A folder of skills, one subfolder with a SKILL.md each; repeatable, searched in order [env: AGTOOL_SKILLS, colon-separated]')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print one JSON object {ok, output, error, ...} instead of text')
            [CompletionResult]::new('--no-freshness', '--no-freshness', [CompletionResultType]::ParameterName, 'Turn the freshness gate off [env: AGTOOL_FRESHNESS=off]')
            [CompletionResult]::new('--no-syntax-check', '--no-syntax-check', [CompletionResultType]::ParameterName, 'Turn the syntax gate off [env: AGTOOL_SYNTAX_CHECK=off]')
            [CompletionResult]::new('--approved', '--approved', [CompletionResultType]::ParameterName, 'The host''s user approved this call: an ask rule lets it run (after exit status 3, Approval needed)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'agtool;delete-path' {
            [CompletionResult]::new('--recursive', '--recursive', [CompletionResultType]::ParameterName, 'Delete a non-empty directory and everything in it (default false)')
            [CompletionResult]::new('--dry-run', '--dry-run', [CompletionResultType]::ParameterName, 'Say what would be deleted, delete nothing (default false)')
            [CompletionResult]::new('--args', '--args', [CompletionResultType]::ParameterName, 'All arguments as one JSON object (- reads it from stdin, @FILE from a file)')
            [CompletionResult]::new('--root', '--root', [CompletionResultType]::ParameterName, 'Workspace root [env: AGTOOL_ROOT] (default: nearest .agent-state/, then .git, then the current directory)')
            [CompletionResult]::new('--agent', '--agent', [CompletionResultType]::ParameterName, 'Agent identity keying the freshness table [env: AGTOOL_AGENT] [default: default]')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Extra configuration file layered over the others [env: AGTOOL_CONFIG]')
            [CompletionResult]::new('--groups', '--groups', [CompletionResultType]::ParameterName, 'Tool groups enabled for call, schema and mcp, e.g. files,edit or all [env: AGTOOL_GROUPS]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour for people (dry-run diffs, sessions list): auto, always or never; auto is off with NO_COLOR, on with CLICOLOR_FORCE; call and --json never colour')
            [CompletionResult]::new('--timeout-ms', '--timeout-ms', [CompletionResultType]::ParameterName, 'Override every tool''s default timeout, in milliseconds')
            [CompletionResult]::new('--notes-dir', '--notes-dir', [CompletionResultType]::ParameterName, 'The notes store [default: .agent-state/notes, or config notes.dir]')
            [CompletionResult]::new('--skills-dir', '--skills-dir', [CompletionResultType]::ParameterName, 'A folder of skills, one subfolder with a SKILL.md each; repeatable, searched in order [env: AGTOOL_SKILLS, colon-separated]')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print one JSON object {ok, output, error, ...} instead of text')
            [CompletionResult]::new('--no-freshness', '--no-freshness', [CompletionResultType]::ParameterName, 'Turn the freshness gate off [env: AGTOOL_FRESHNESS=off]')
            [CompletionResult]::new('--no-syntax-check', '--no-syntax-check', [CompletionResultType]::ParameterName, 'Turn the syntax gate off [env: AGTOOL_SYNTAX_CHECK=off]')
            [CompletionResult]::new('--approved', '--approved', [CompletionResultType]::ParameterName, 'The host''s user approved this call: an ask rule lets it run (after exit status 3, Approval needed)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'agtool;exec' {
            [CompletionResult]::new('--workdir', '--workdir', [CompletionResultType]::ParameterName, 'Working directory (default: the current directory)')
            [CompletionResult]::new('--max-output-bytes', '--max-output-bytes', [CompletionResultType]::ParameterName, 'Output budget in bytes: the first half and the last half are kept, the middle is dropped and counted (default 30000)')
            [CompletionResult]::new('--args', '--args', [CompletionResultType]::ParameterName, 'All arguments as one JSON object (- reads it from stdin, @FILE from a file)')
            [CompletionResult]::new('--root', '--root', [CompletionResultType]::ParameterName, 'Workspace root [env: AGTOOL_ROOT] (default: nearest .agent-state/, then .git, then the current directory)')
            [CompletionResult]::new('--agent', '--agent', [CompletionResultType]::ParameterName, 'Agent identity keying the freshness table [env: AGTOOL_AGENT] [default: default]')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Extra configuration file layered over the others [env: AGTOOL_CONFIG]')
            [CompletionResult]::new('--groups', '--groups', [CompletionResultType]::ParameterName, 'Tool groups enabled for call, schema and mcp, e.g. files,edit or all [env: AGTOOL_GROUPS]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour for people (dry-run diffs, sessions list): auto, always or never; auto is off with NO_COLOR, on with CLICOLOR_FORCE; call and --json never colour')
            [CompletionResult]::new('--timeout-ms', '--timeout-ms', [CompletionResultType]::ParameterName, 'Override every tool''s default timeout, in milliseconds')
            [CompletionResult]::new('--notes-dir', '--notes-dir', [CompletionResultType]::ParameterName, 'The notes store [default: .agent-state/notes, or config notes.dir]')
            [CompletionResult]::new('--skills-dir', '--skills-dir', [CompletionResultType]::ParameterName, 'A folder of skills, one subfolder with a SKILL.md each; repeatable, searched in order [env: AGTOOL_SKILLS, colon-separated]')
            [CompletionResult]::new('--exit-code', '--exit-code', [CompletionResultType]::ParameterName, 'CLI only: exit with the command''s exit code instead of 0')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print one JSON object {ok, output, error, ...} instead of text')
            [CompletionResult]::new('--no-freshness', '--no-freshness', [CompletionResultType]::ParameterName, 'Turn the freshness gate off [env: AGTOOL_FRESHNESS=off]')
            [CompletionResult]::new('--no-syntax-check', '--no-syntax-check', [CompletionResultType]::ParameterName, 'Turn the syntax gate off [env: AGTOOL_SYNTAX_CHECK=off]')
            [CompletionResult]::new('--approved', '--approved', [CompletionResultType]::ParameterName, 'The host''s user approved this call: an ask rule lets it run (after exit status 3, Approval needed)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'agtool;exec-command' {
            [CompletionResult]::new('--workdir', '--workdir', [CompletionResultType]::ParameterName, 'Working directory (default: the current directory)')
            [CompletionResult]::new('--shell', '--shell', [CompletionResultType]::ParameterName, 'The shell (default: config exec.shell, else /bin/bash)')
            [CompletionResult]::new('--login', '--login', [CompletionResultType]::ParameterName, 'Run the shell as a login shell (-lc instead of -c; default false)')
            [CompletionResult]::new('--yield-time-ms', '--yield-time-ms', [CompletionResultType]::ParameterName, 'How long to wait for output before returning, in ms (default 10000; 250..30000). The call returns earlier when the command exits')
            [CompletionResult]::new('--max-output-tokens', '--max-output-tokens', [CompletionResultType]::ParameterName, 'Output budget in tokens, 4 bytes each (default 10000); longer output keeps its head and tail')
            [CompletionResult]::new('--args', '--args', [CompletionResultType]::ParameterName, 'All arguments as one JSON object (- reads it from stdin, @FILE from a file)')
            [CompletionResult]::new('--root', '--root', [CompletionResultType]::ParameterName, 'Workspace root [env: AGTOOL_ROOT] (default: nearest .agent-state/, then .git, then the current directory)')
            [CompletionResult]::new('--agent', '--agent', [CompletionResultType]::ParameterName, 'Agent identity keying the freshness table [env: AGTOOL_AGENT] [default: default]')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Extra configuration file layered over the others [env: AGTOOL_CONFIG]')
            [CompletionResult]::new('--groups', '--groups', [CompletionResultType]::ParameterName, 'Tool groups enabled for call, schema and mcp, e.g. files,edit or all [env: AGTOOL_GROUPS]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour for people (dry-run diffs, sessions list): auto, always or never; auto is off with NO_COLOR, on with CLICOLOR_FORCE; call and --json never colour')
            [CompletionResult]::new('--timeout-ms', '--timeout-ms', [CompletionResultType]::ParameterName, 'Override every tool''s default timeout, in milliseconds')
            [CompletionResult]::new('--notes-dir', '--notes-dir', [CompletionResultType]::ParameterName, 'The notes store [default: .agent-state/notes, or config notes.dir]')
            [CompletionResult]::new('--skills-dir', '--skills-dir', [CompletionResultType]::ParameterName, 'A folder of skills, one subfolder with a SKILL.md each; repeatable, searched in order [env: AGTOOL_SKILLS, colon-separated]')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print one JSON object {ok, output, error, ...} instead of text')
            [CompletionResult]::new('--no-freshness', '--no-freshness', [CompletionResultType]::ParameterName, 'Turn the freshness gate off [env: AGTOOL_FRESHNESS=off]')
            [CompletionResult]::new('--no-syntax-check', '--no-syntax-check', [CompletionResultType]::ParameterName, 'Turn the syntax gate off [env: AGTOOL_SYNTAX_CHECK=off]')
            [CompletionResult]::new('--approved', '--approved', [CompletionResultType]::ParameterName, 'The host''s user approved this call: an ask rule lets it run (after exit status 3, Approval needed)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'agtool;write-stdin' {
            [CompletionResult]::new('--chars', '--chars', [CompletionResultType]::ParameterName, 'Text for the process''s stdin, as is (escapes are not decoded: --chars $''ls\n''; Ctrl-C is $''\x03''); default: read from stdin when piped, else only poll')
            [CompletionResult]::new('--yield-time-ms', '--yield-time-ms', [CompletionResultType]::ParameterName, 'How long to wait for output, in ms (default 250; 250..30000 after a write; an empty poll waits 5000..300000). The call returns earlier when the process exits')
            [CompletionResult]::new('--max-output-tokens', '--max-output-tokens', [CompletionResultType]::ParameterName, 'Output budget in tokens, 4 bytes each (default 10000)')
            [CompletionResult]::new('--args', '--args', [CompletionResultType]::ParameterName, 'All arguments as one JSON object (- reads it from stdin, @FILE from a file)')
            [CompletionResult]::new('--root', '--root', [CompletionResultType]::ParameterName, 'Workspace root [env: AGTOOL_ROOT] (default: nearest .agent-state/, then .git, then the current directory)')
            [CompletionResult]::new('--agent', '--agent', [CompletionResultType]::ParameterName, 'Agent identity keying the freshness table [env: AGTOOL_AGENT] [default: default]')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Extra configuration file layered over the others [env: AGTOOL_CONFIG]')
            [CompletionResult]::new('--groups', '--groups', [CompletionResultType]::ParameterName, 'Tool groups enabled for call, schema and mcp, e.g. files,edit or all [env: AGTOOL_GROUPS]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour for people (dry-run diffs, sessions list): auto, always or never; auto is off with NO_COLOR, on with CLICOLOR_FORCE; call and --json never colour')
            [CompletionResult]::new('--timeout-ms', '--timeout-ms', [CompletionResultType]::ParameterName, 'Override every tool''s default timeout, in milliseconds')
            [CompletionResult]::new('--notes-dir', '--notes-dir', [CompletionResultType]::ParameterName, 'The notes store [default: .agent-state/notes, or config notes.dir]')
            [CompletionResult]::new('--skills-dir', '--skills-dir', [CompletionResultType]::ParameterName, 'A folder of skills, one subfolder with a SKILL.md each; repeatable, searched in order [env: AGTOOL_SKILLS, colon-separated]')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print one JSON object {ok, output, error, ...} instead of text')
            [CompletionResult]::new('--no-freshness', '--no-freshness', [CompletionResultType]::ParameterName, 'Turn the freshness gate off [env: AGTOOL_FRESHNESS=off]')
            [CompletionResult]::new('--no-syntax-check', '--no-syntax-check', [CompletionResultType]::ParameterName, 'Turn the syntax gate off [env: AGTOOL_SYNTAX_CHECK=off]')
            [CompletionResult]::new('--approved', '--approved', [CompletionResultType]::ParameterName, 'The host''s user approved this call: an ask rule lets it run (after exit status 3, Approval needed)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'agtool;web-fetch' {
            [CompletionResult]::new('--max-chars', '--max-chars', [CompletionResultType]::ParameterName, 'Most characters to return (default 40000, at most 200000)')
            [CompletionResult]::new('--start-index', '--start-index', [CompletionResultType]::ParameterName, 'Character offset to start at, to continue a long page (default 0). With a value above 0 the text comes from the copy kept by the earlier call, so the pages join exactly; 0 always fetches afresh')
            [CompletionResult]::new('--raw', '--raw', [CompletionResultType]::ParameterName, 'Return the page''s decoded text as it is, without converting HTML to text (default false)')
            [CompletionResult]::new('--args', '--args', [CompletionResultType]::ParameterName, 'All arguments as one JSON object (- reads it from stdin, @FILE from a file)')
            [CompletionResult]::new('--root', '--root', [CompletionResultType]::ParameterName, 'Workspace root [env: AGTOOL_ROOT] (default: nearest .agent-state/, then .git, then the current directory)')
            [CompletionResult]::new('--agent', '--agent', [CompletionResultType]::ParameterName, 'Agent identity keying the freshness table [env: AGTOOL_AGENT] [default: default]')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Extra configuration file layered over the others [env: AGTOOL_CONFIG]')
            [CompletionResult]::new('--groups', '--groups', [CompletionResultType]::ParameterName, 'Tool groups enabled for call, schema and mcp, e.g. files,edit or all [env: AGTOOL_GROUPS]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour for people (dry-run diffs, sessions list): auto, always or never; auto is off with NO_COLOR, on with CLICOLOR_FORCE; call and --json never colour')
            [CompletionResult]::new('--timeout-ms', '--timeout-ms', [CompletionResultType]::ParameterName, 'Override every tool''s default timeout, in milliseconds')
            [CompletionResult]::new('--notes-dir', '--notes-dir', [CompletionResultType]::ParameterName, 'The notes store [default: .agent-state/notes, or config notes.dir]')
            [CompletionResult]::new('--skills-dir', '--skills-dir', [CompletionResultType]::ParameterName, 'A folder of skills, one subfolder with a SKILL.md each; repeatable, searched in order [env: AGTOOL_SKILLS, colon-separated]')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print one JSON object {ok, output, error, ...} instead of text')
            [CompletionResult]::new('--no-freshness', '--no-freshness', [CompletionResultType]::ParameterName, 'Turn the freshness gate off [env: AGTOOL_FRESHNESS=off]')
            [CompletionResult]::new('--no-syntax-check', '--no-syntax-check', [CompletionResultType]::ParameterName, 'Turn the syntax gate off [env: AGTOOL_SYNTAX_CHECK=off]')
            [CompletionResult]::new('--approved', '--approved', [CompletionResultType]::ParameterName, 'The host''s user approved this call: an ask rule lets it run (after exit status 3, Approval needed)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'agtool;skill' {
            [CompletionResult]::new('--args', '--args', [CompletionResultType]::ParameterName, 'All arguments as one JSON object (- reads it from stdin, @FILE from a file)')
            [CompletionResult]::new('--root', '--root', [CompletionResultType]::ParameterName, 'Workspace root [env: AGTOOL_ROOT] (default: nearest .agent-state/, then .git, then the current directory)')
            [CompletionResult]::new('--agent', '--agent', [CompletionResultType]::ParameterName, 'Agent identity keying the freshness table [env: AGTOOL_AGENT] [default: default]')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Extra configuration file layered over the others [env: AGTOOL_CONFIG]')
            [CompletionResult]::new('--groups', '--groups', [CompletionResultType]::ParameterName, 'Tool groups enabled for call, schema and mcp, e.g. files,edit or all [env: AGTOOL_GROUPS]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour for people (dry-run diffs, sessions list): auto, always or never; auto is off with NO_COLOR, on with CLICOLOR_FORCE; call and --json never colour')
            [CompletionResult]::new('--timeout-ms', '--timeout-ms', [CompletionResultType]::ParameterName, 'Override every tool''s default timeout, in milliseconds')
            [CompletionResult]::new('--notes-dir', '--notes-dir', [CompletionResultType]::ParameterName, 'The notes store [default: .agent-state/notes, or config notes.dir]')
            [CompletionResult]::new('--skills-dir', '--skills-dir', [CompletionResultType]::ParameterName, 'A folder of skills, one subfolder with a SKILL.md each; repeatable, searched in order [env: AGTOOL_SKILLS, colon-separated]')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print one JSON object {ok, output, error, ...} instead of text')
            [CompletionResult]::new('--no-freshness', '--no-freshness', [CompletionResultType]::ParameterName, 'Turn the freshness gate off [env: AGTOOL_FRESHNESS=off]')
            [CompletionResult]::new('--no-syntax-check', '--no-syntax-check', [CompletionResultType]::ParameterName, 'Turn the syntax gate off [env: AGTOOL_SYNTAX_CHECK=off]')
            [CompletionResult]::new('--approved', '--approved', [CompletionResultType]::ParameterName, 'The host''s user approved this call: an ask rule lets it run (after exit status 3, Approval needed)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'agtool;notes' {
            [CompletionResult]::new('--root', '--root', [CompletionResultType]::ParameterName, 'Workspace root [env: AGTOOL_ROOT] (default: nearest .agent-state/, then .git, then the current directory)')
            [CompletionResult]::new('--agent', '--agent', [CompletionResultType]::ParameterName, 'Agent identity keying the freshness table [env: AGTOOL_AGENT] [default: default]')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Extra configuration file layered over the others [env: AGTOOL_CONFIG]')
            [CompletionResult]::new('--groups', '--groups', [CompletionResultType]::ParameterName, 'Tool groups enabled for call, schema and mcp, e.g. files,edit or all [env: AGTOOL_GROUPS]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour for people (dry-run diffs, sessions list): auto, always or never; auto is off with NO_COLOR, on with CLICOLOR_FORCE; call and --json never colour')
            [CompletionResult]::new('--timeout-ms', '--timeout-ms', [CompletionResultType]::ParameterName, 'Override every tool''s default timeout, in milliseconds')
            [CompletionResult]::new('--notes-dir', '--notes-dir', [CompletionResultType]::ParameterName, 'The notes store [default: .agent-state/notes, or config notes.dir]')
            [CompletionResult]::new('--skills-dir', '--skills-dir', [CompletionResultType]::ParameterName, 'A folder of skills, one subfolder with a SKILL.md each; repeatable, searched in order [env: AGTOOL_SKILLS, colon-separated]')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print one JSON object {ok, output, error, ...} instead of text')
            [CompletionResult]::new('--no-freshness', '--no-freshness', [CompletionResultType]::ParameterName, 'Turn the freshness gate off [env: AGTOOL_FRESHNESS=off]')
            [CompletionResult]::new('--no-syntax-check', '--no-syntax-check', [CompletionResultType]::ParameterName, 'Turn the syntax gate off [env: AGTOOL_SYNTAX_CHECK=off]')
            [CompletionResult]::new('--approved', '--approved', [CompletionResultType]::ParameterName, 'The host''s user approved this call: an ask rule lets it run (after exit status 3, Approval needed)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('list', 'list', [CompletionResultType]::ParameterValue, 'List the notes kept for this workspace, newest first.')
            [CompletionResult]::new('read', 'read', [CompletionResultType]::ParameterValue, 'Read one note kept for this workspace.')
            [CompletionResult]::new('write', 'write', [CompletionResultType]::ParameterValue, 'Save a note for later sessions in this workspace, or append to one.')
            [CompletionResult]::new('delete', 'delete', [CompletionResultType]::ParameterValue, 'Delete one note kept for this workspace.')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'agtool;notes;list' {
            [CompletionResult]::new('--query', '--query', [CompletionResultType]::ParameterName, 'Only notes whose name or text contains this (any letter case)')
            [CompletionResult]::new('--args', '--args', [CompletionResultType]::ParameterName, 'All arguments as one JSON object (- reads it from stdin, @FILE from a file)')
            [CompletionResult]::new('--root', '--root', [CompletionResultType]::ParameterName, 'Workspace root [env: AGTOOL_ROOT] (default: nearest .agent-state/, then .git, then the current directory)')
            [CompletionResult]::new('--agent', '--agent', [CompletionResultType]::ParameterName, 'Agent identity keying the freshness table [env: AGTOOL_AGENT] [default: default]')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Extra configuration file layered over the others [env: AGTOOL_CONFIG]')
            [CompletionResult]::new('--groups', '--groups', [CompletionResultType]::ParameterName, 'Tool groups enabled for call, schema and mcp, e.g. files,edit or all [env: AGTOOL_GROUPS]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour for people (dry-run diffs, sessions list): auto, always or never; auto is off with NO_COLOR, on with CLICOLOR_FORCE; call and --json never colour')
            [CompletionResult]::new('--timeout-ms', '--timeout-ms', [CompletionResultType]::ParameterName, 'Override every tool''s default timeout, in milliseconds')
            [CompletionResult]::new('--notes-dir', '--notes-dir', [CompletionResultType]::ParameterName, 'The notes store [default: .agent-state/notes, or config notes.dir]')
            [CompletionResult]::new('--skills-dir', '--skills-dir', [CompletionResultType]::ParameterName, 'A folder of skills, one subfolder with a SKILL.md each; repeatable, searched in order [env: AGTOOL_SKILLS, colon-separated]')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print one JSON object {ok, output, error, ...} instead of text')
            [CompletionResult]::new('--no-freshness', '--no-freshness', [CompletionResultType]::ParameterName, 'Turn the freshness gate off [env: AGTOOL_FRESHNESS=off]')
            [CompletionResult]::new('--no-syntax-check', '--no-syntax-check', [CompletionResultType]::ParameterName, 'Turn the syntax gate off [env: AGTOOL_SYNTAX_CHECK=off]')
            [CompletionResult]::new('--approved', '--approved', [CompletionResultType]::ParameterName, 'The host''s user approved this call: an ask rule lets it run (after exit status 3, Approval needed)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'agtool;notes;read' {
            [CompletionResult]::new('--args', '--args', [CompletionResultType]::ParameterName, 'All arguments as one JSON object (- reads it from stdin, @FILE from a file)')
            [CompletionResult]::new('--root', '--root', [CompletionResultType]::ParameterName, 'Workspace root [env: AGTOOL_ROOT] (default: nearest .agent-state/, then .git, then the current directory)')
            [CompletionResult]::new('--agent', '--agent', [CompletionResultType]::ParameterName, 'Agent identity keying the freshness table [env: AGTOOL_AGENT] [default: default]')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Extra configuration file layered over the others [env: AGTOOL_CONFIG]')
            [CompletionResult]::new('--groups', '--groups', [CompletionResultType]::ParameterName, 'Tool groups enabled for call, schema and mcp, e.g. files,edit or all [env: AGTOOL_GROUPS]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour for people (dry-run diffs, sessions list): auto, always or never; auto is off with NO_COLOR, on with CLICOLOR_FORCE; call and --json never colour')
            [CompletionResult]::new('--timeout-ms', '--timeout-ms', [CompletionResultType]::ParameterName, 'Override every tool''s default timeout, in milliseconds')
            [CompletionResult]::new('--notes-dir', '--notes-dir', [CompletionResultType]::ParameterName, 'The notes store [default: .agent-state/notes, or config notes.dir]')
            [CompletionResult]::new('--skills-dir', '--skills-dir', [CompletionResultType]::ParameterName, 'A folder of skills, one subfolder with a SKILL.md each; repeatable, searched in order [env: AGTOOL_SKILLS, colon-separated]')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print one JSON object {ok, output, error, ...} instead of text')
            [CompletionResult]::new('--no-freshness', '--no-freshness', [CompletionResultType]::ParameterName, 'Turn the freshness gate off [env: AGTOOL_FRESHNESS=off]')
            [CompletionResult]::new('--no-syntax-check', '--no-syntax-check', [CompletionResultType]::ParameterName, 'Turn the syntax gate off [env: AGTOOL_SYNTAX_CHECK=off]')
            [CompletionResult]::new('--approved', '--approved', [CompletionResultType]::ParameterName, 'The host''s user approved this call: an ask rule lets it run (after exit status 3, Approval needed)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'agtool;notes;write' {
            [CompletionResult]::new('--content', '--content', [CompletionResultType]::ParameterName, 'The text (CLI: --content, or stdin). Replaces the note, or is added at its end with append. A final newline is added when missing')
            [CompletionResult]::new('--append', '--append', [CompletionResultType]::ParameterName, 'Add the content at the end of the existing note, on a new line, instead of replacing it (default false)')
            [CompletionResult]::new('--args', '--args', [CompletionResultType]::ParameterName, 'All arguments as one JSON object (- reads it from stdin, @FILE from a file)')
            [CompletionResult]::new('--root', '--root', [CompletionResultType]::ParameterName, 'Workspace root [env: AGTOOL_ROOT] (default: nearest .agent-state/, then .git, then the current directory)')
            [CompletionResult]::new('--agent', '--agent', [CompletionResultType]::ParameterName, 'Agent identity keying the freshness table [env: AGTOOL_AGENT] [default: default]')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Extra configuration file layered over the others [env: AGTOOL_CONFIG]')
            [CompletionResult]::new('--groups', '--groups', [CompletionResultType]::ParameterName, 'Tool groups enabled for call, schema and mcp, e.g. files,edit or all [env: AGTOOL_GROUPS]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour for people (dry-run diffs, sessions list): auto, always or never; auto is off with NO_COLOR, on with CLICOLOR_FORCE; call and --json never colour')
            [CompletionResult]::new('--timeout-ms', '--timeout-ms', [CompletionResultType]::ParameterName, 'Override every tool''s default timeout, in milliseconds')
            [CompletionResult]::new('--notes-dir', '--notes-dir', [CompletionResultType]::ParameterName, 'The notes store [default: .agent-state/notes, or config notes.dir]')
            [CompletionResult]::new('--skills-dir', '--skills-dir', [CompletionResultType]::ParameterName, 'A folder of skills, one subfolder with a SKILL.md each; repeatable, searched in order [env: AGTOOL_SKILLS, colon-separated]')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print one JSON object {ok, output, error, ...} instead of text')
            [CompletionResult]::new('--no-freshness', '--no-freshness', [CompletionResultType]::ParameterName, 'Turn the freshness gate off [env: AGTOOL_FRESHNESS=off]')
            [CompletionResult]::new('--no-syntax-check', '--no-syntax-check', [CompletionResultType]::ParameterName, 'Turn the syntax gate off [env: AGTOOL_SYNTAX_CHECK=off]')
            [CompletionResult]::new('--approved', '--approved', [CompletionResultType]::ParameterName, 'The host''s user approved this call: an ask rule lets it run (after exit status 3, Approval needed)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'agtool;notes;delete' {
            [CompletionResult]::new('--args', '--args', [CompletionResultType]::ParameterName, 'All arguments as one JSON object (- reads it from stdin, @FILE from a file)')
            [CompletionResult]::new('--root', '--root', [CompletionResultType]::ParameterName, 'Workspace root [env: AGTOOL_ROOT] (default: nearest .agent-state/, then .git, then the current directory)')
            [CompletionResult]::new('--agent', '--agent', [CompletionResultType]::ParameterName, 'Agent identity keying the freshness table [env: AGTOOL_AGENT] [default: default]')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Extra configuration file layered over the others [env: AGTOOL_CONFIG]')
            [CompletionResult]::new('--groups', '--groups', [CompletionResultType]::ParameterName, 'Tool groups enabled for call, schema and mcp, e.g. files,edit or all [env: AGTOOL_GROUPS]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour for people (dry-run diffs, sessions list): auto, always or never; auto is off with NO_COLOR, on with CLICOLOR_FORCE; call and --json never colour')
            [CompletionResult]::new('--timeout-ms', '--timeout-ms', [CompletionResultType]::ParameterName, 'Override every tool''s default timeout, in milliseconds')
            [CompletionResult]::new('--notes-dir', '--notes-dir', [CompletionResultType]::ParameterName, 'The notes store [default: .agent-state/notes, or config notes.dir]')
            [CompletionResult]::new('--skills-dir', '--skills-dir', [CompletionResultType]::ParameterName, 'A folder of skills, one subfolder with a SKILL.md each; repeatable, searched in order [env: AGTOOL_SKILLS, colon-separated]')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print one JSON object {ok, output, error, ...} instead of text')
            [CompletionResult]::new('--no-freshness', '--no-freshness', [CompletionResultType]::ParameterName, 'Turn the freshness gate off [env: AGTOOL_FRESHNESS=off]')
            [CompletionResult]::new('--no-syntax-check', '--no-syntax-check', [CompletionResultType]::ParameterName, 'Turn the syntax gate off [env: AGTOOL_SYNTAX_CHECK=off]')
            [CompletionResult]::new('--approved', '--approved', [CompletionResultType]::ParameterName, 'The host''s user approved this call: an ask rule lets it run (after exit status 3, Approval needed)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'agtool;notes;help' {
            [CompletionResult]::new('list', 'list', [CompletionResultType]::ParameterValue, 'List the notes kept for this workspace, newest first.')
            [CompletionResult]::new('read', 'read', [CompletionResultType]::ParameterValue, 'Read one note kept for this workspace.')
            [CompletionResult]::new('write', 'write', [CompletionResultType]::ParameterValue, 'Save a note for later sessions in this workspace, or append to one.')
            [CompletionResult]::new('delete', 'delete', [CompletionResultType]::ParameterValue, 'Delete one note kept for this workspace.')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'agtool;notes;help;list' {
            break
        }
        'agtool;notes;help;read' {
            break
        }
        'agtool;notes;help;write' {
            break
        }
        'agtool;notes;help;delete' {
            break
        }
        'agtool;notes;help;help' {
            break
        }
        'agtool;schema' {
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'The API whose tool shape to print')
            [CompletionResult]::new('--root', '--root', [CompletionResultType]::ParameterName, 'Workspace root [env: AGTOOL_ROOT] (default: nearest .agent-state/, then .git, then the current directory)')
            [CompletionResult]::new('--agent', '--agent', [CompletionResultType]::ParameterName, 'Agent identity keying the freshness table [env: AGTOOL_AGENT] [default: default]')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Extra configuration file layered over the others [env: AGTOOL_CONFIG]')
            [CompletionResult]::new('--groups', '--groups', [CompletionResultType]::ParameterName, 'Tool groups enabled for call, schema and mcp, e.g. files,edit or all [env: AGTOOL_GROUPS]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour for people (dry-run diffs, sessions list): auto, always or never; auto is off with NO_COLOR, on with CLICOLOR_FORCE; call and --json never colour')
            [CompletionResult]::new('--timeout-ms', '--timeout-ms', [CompletionResultType]::ParameterName, 'Override every tool''s default timeout, in milliseconds')
            [CompletionResult]::new('--notes-dir', '--notes-dir', [CompletionResultType]::ParameterName, 'The notes store [default: .agent-state/notes, or config notes.dir]')
            [CompletionResult]::new('--skills-dir', '--skills-dir', [CompletionResultType]::ParameterName, 'A folder of skills, one subfolder with a SKILL.md each; repeatable, searched in order [env: AGTOOL_SKILLS, colon-separated]')
            [CompletionResult]::new('--strict', '--strict', [CompletionResultType]::ParameterName, 'OpenAI strict mode: every property required (optional ones nullable), no extra keys, constraints in the descriptions')
            [CompletionResult]::new('--extensions', '--extensions', [CompletionResultType]::ParameterName, 'Add agtool''s own metadata as "x-agtool" (group, sensitive, serial, timeout_ms, idempotent, tags); APIs reject it')
            [CompletionResult]::new('--no-extensions', '--no-extensions', [CompletionResultType]::ParameterName, 'no-extensions')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print one JSON object {ok, output, error, ...} instead of text')
            [CompletionResult]::new('--no-freshness', '--no-freshness', [CompletionResultType]::ParameterName, 'Turn the freshness gate off [env: AGTOOL_FRESHNESS=off]')
            [CompletionResult]::new('--no-syntax-check', '--no-syntax-check', [CompletionResultType]::ParameterName, 'Turn the syntax gate off [env: AGTOOL_SYNTAX_CHECK=off]')
            [CompletionResult]::new('--approved', '--approved', [CompletionResultType]::ParameterName, 'The host''s user approved this call: an ask rule lets it run (after exit status 3, Approval needed)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'agtool;call' {
            [CompletionResult]::new('--root', '--root', [CompletionResultType]::ParameterName, 'Workspace root [env: AGTOOL_ROOT] (default: nearest .agent-state/, then .git, then the current directory)')
            [CompletionResult]::new('--agent', '--agent', [CompletionResultType]::ParameterName, 'Agent identity keying the freshness table [env: AGTOOL_AGENT] [default: default]')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Extra configuration file layered over the others [env: AGTOOL_CONFIG]')
            [CompletionResult]::new('--groups', '--groups', [CompletionResultType]::ParameterName, 'Tool groups enabled for call, schema and mcp, e.g. files,edit or all [env: AGTOOL_GROUPS]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour for people (dry-run diffs, sessions list): auto, always or never; auto is off with NO_COLOR, on with CLICOLOR_FORCE; call and --json never colour')
            [CompletionResult]::new('--timeout-ms', '--timeout-ms', [CompletionResultType]::ParameterName, 'Override every tool''s default timeout, in milliseconds')
            [CompletionResult]::new('--notes-dir', '--notes-dir', [CompletionResultType]::ParameterName, 'The notes store [default: .agent-state/notes, or config notes.dir]')
            [CompletionResult]::new('--skills-dir', '--skills-dir', [CompletionResultType]::ParameterName, 'A folder of skills, one subfolder with a SKILL.md each; repeatable, searched in order [env: AGTOOL_SKILLS, colon-separated]')
            [CompletionResult]::new('--batch', '--batch', [CompletionResultType]::ParameterName, 'stdin holds a JSON array of envelopes; prints a JSON array of results')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print one JSON object {ok, output, error, ...} instead of text')
            [CompletionResult]::new('--no-freshness', '--no-freshness', [CompletionResultType]::ParameterName, 'Turn the freshness gate off [env: AGTOOL_FRESHNESS=off]')
            [CompletionResult]::new('--no-syntax-check', '--no-syntax-check', [CompletionResultType]::ParameterName, 'Turn the syntax gate off [env: AGTOOL_SYNTAX_CHECK=off]')
            [CompletionResult]::new('--approved', '--approved', [CompletionResultType]::ParameterName, 'The host''s user approved this call: an ask rule lets it run (after exit status 3, Approval needed)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'agtool;mcp' {
            [CompletionResult]::new('--http', '--http', [CompletionResultType]::ParameterName, 'Serve MCP over Streamable HTTP on this address (path /mcp) instead of stdio. Without a bearer token only a loopback address is accepted')
            [CompletionResult]::new('--token-file', '--token-file', [CompletionResultType]::ParameterName, 'With --http: the bearer token clients must send (Authorization: Bearer), read from this file [env: AGTOOL_MCP_TOKEN]')
            [CompletionResult]::new('--root', '--root', [CompletionResultType]::ParameterName, 'Workspace root [env: AGTOOL_ROOT] (default: nearest .agent-state/, then .git, then the current directory)')
            [CompletionResult]::new('--agent', '--agent', [CompletionResultType]::ParameterName, 'Agent identity keying the freshness table [env: AGTOOL_AGENT] [default: default]')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Extra configuration file layered over the others [env: AGTOOL_CONFIG]')
            [CompletionResult]::new('--groups', '--groups', [CompletionResultType]::ParameterName, 'Tool groups enabled for call, schema and mcp, e.g. files,edit or all [env: AGTOOL_GROUPS]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour for people (dry-run diffs, sessions list): auto, always or never; auto is off with NO_COLOR, on with CLICOLOR_FORCE; call and --json never colour')
            [CompletionResult]::new('--timeout-ms', '--timeout-ms', [CompletionResultType]::ParameterName, 'Override every tool''s default timeout, in milliseconds')
            [CompletionResult]::new('--notes-dir', '--notes-dir', [CompletionResultType]::ParameterName, 'The notes store [default: .agent-state/notes, or config notes.dir]')
            [CompletionResult]::new('--skills-dir', '--skills-dir', [CompletionResultType]::ParameterName, 'A folder of skills, one subfolder with a SKILL.md each; repeatable, searched in order [env: AGTOOL_SKILLS, colon-separated]')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print one JSON object {ok, output, error, ...} instead of text')
            [CompletionResult]::new('--no-freshness', '--no-freshness', [CompletionResultType]::ParameterName, 'Turn the freshness gate off [env: AGTOOL_FRESHNESS=off]')
            [CompletionResult]::new('--no-syntax-check', '--no-syntax-check', [CompletionResultType]::ParameterName, 'Turn the syntax gate off [env: AGTOOL_SYNTAX_CHECK=off]')
            [CompletionResult]::new('--approved', '--approved', [CompletionResultType]::ParameterName, 'The host''s user approved this call: an ask rule lets it run (after exit status 3, Approval needed)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'agtool;state' {
            [CompletionResult]::new('--root', '--root', [CompletionResultType]::ParameterName, 'Workspace root [env: AGTOOL_ROOT] (default: nearest .agent-state/, then .git, then the current directory)')
            [CompletionResult]::new('--agent', '--agent', [CompletionResultType]::ParameterName, 'Agent identity keying the freshness table [env: AGTOOL_AGENT] [default: default]')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Extra configuration file layered over the others [env: AGTOOL_CONFIG]')
            [CompletionResult]::new('--groups', '--groups', [CompletionResultType]::ParameterName, 'Tool groups enabled for call, schema and mcp, e.g. files,edit or all [env: AGTOOL_GROUPS]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour for people (dry-run diffs, sessions list): auto, always or never; auto is off with NO_COLOR, on with CLICOLOR_FORCE; call and --json never colour')
            [CompletionResult]::new('--timeout-ms', '--timeout-ms', [CompletionResultType]::ParameterName, 'Override every tool''s default timeout, in milliseconds')
            [CompletionResult]::new('--notes-dir', '--notes-dir', [CompletionResultType]::ParameterName, 'The notes store [default: .agent-state/notes, or config notes.dir]')
            [CompletionResult]::new('--skills-dir', '--skills-dir', [CompletionResultType]::ParameterName, 'A folder of skills, one subfolder with a SKILL.md each; repeatable, searched in order [env: AGTOOL_SKILLS, colon-separated]')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print one JSON object {ok, output, error, ...} instead of text')
            [CompletionResult]::new('--no-freshness', '--no-freshness', [CompletionResultType]::ParameterName, 'Turn the freshness gate off [env: AGTOOL_FRESHNESS=off]')
            [CompletionResult]::new('--no-syntax-check', '--no-syntax-check', [CompletionResultType]::ParameterName, 'Turn the syntax gate off [env: AGTOOL_SYNTAX_CHECK=off]')
            [CompletionResult]::new('--approved', '--approved', [CompletionResultType]::ParameterName, 'The host''s user approved this call: an ask rule lets it run (after exit status 3, Approval needed)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('show', 'show', [CompletionResultType]::ParameterValue, 'List every recorded (agent, path, tag)')
            [CompletionResult]::new('forget', 'forget', [CompletionResultType]::ParameterValue, 'Forget what every agent read of PATH (a folder: everything under it)')
            [CompletionResult]::new('reset', 'reset', [CompletionResultType]::ParameterValue, 'Forget everything')
            [CompletionResult]::new('recover', 'recover', [CompletionResultType]::ParameterValue, 'Roll back writes interrupted by a kill and remove their temp files (every call does this too; this says what it did)')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'agtool;state;show' {
            [CompletionResult]::new('--root', '--root', [CompletionResultType]::ParameterName, 'Workspace root [env: AGTOOL_ROOT] (default: nearest .agent-state/, then .git, then the current directory)')
            [CompletionResult]::new('--agent', '--agent', [CompletionResultType]::ParameterName, 'Agent identity keying the freshness table [env: AGTOOL_AGENT] [default: default]')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Extra configuration file layered over the others [env: AGTOOL_CONFIG]')
            [CompletionResult]::new('--groups', '--groups', [CompletionResultType]::ParameterName, 'Tool groups enabled for call, schema and mcp, e.g. files,edit or all [env: AGTOOL_GROUPS]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour for people (dry-run diffs, sessions list): auto, always or never; auto is off with NO_COLOR, on with CLICOLOR_FORCE; call and --json never colour')
            [CompletionResult]::new('--timeout-ms', '--timeout-ms', [CompletionResultType]::ParameterName, 'Override every tool''s default timeout, in milliseconds')
            [CompletionResult]::new('--notes-dir', '--notes-dir', [CompletionResultType]::ParameterName, 'The notes store [default: .agent-state/notes, or config notes.dir]')
            [CompletionResult]::new('--skills-dir', '--skills-dir', [CompletionResultType]::ParameterName, 'A folder of skills, one subfolder with a SKILL.md each; repeatable, searched in order [env: AGTOOL_SKILLS, colon-separated]')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print one JSON object {ok, output, error, ...} instead of text')
            [CompletionResult]::new('--no-freshness', '--no-freshness', [CompletionResultType]::ParameterName, 'Turn the freshness gate off [env: AGTOOL_FRESHNESS=off]')
            [CompletionResult]::new('--no-syntax-check', '--no-syntax-check', [CompletionResultType]::ParameterName, 'Turn the syntax gate off [env: AGTOOL_SYNTAX_CHECK=off]')
            [CompletionResult]::new('--approved', '--approved', [CompletionResultType]::ParameterName, 'The host''s user approved this call: an ask rule lets it run (after exit status 3, Approval needed)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'agtool;state;forget' {
            [CompletionResult]::new('--root', '--root', [CompletionResultType]::ParameterName, 'Workspace root [env: AGTOOL_ROOT] (default: nearest .agent-state/, then .git, then the current directory)')
            [CompletionResult]::new('--agent', '--agent', [CompletionResultType]::ParameterName, 'Agent identity keying the freshness table [env: AGTOOL_AGENT] [default: default]')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Extra configuration file layered over the others [env: AGTOOL_CONFIG]')
            [CompletionResult]::new('--groups', '--groups', [CompletionResultType]::ParameterName, 'Tool groups enabled for call, schema and mcp, e.g. files,edit or all [env: AGTOOL_GROUPS]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour for people (dry-run diffs, sessions list): auto, always or never; auto is off with NO_COLOR, on with CLICOLOR_FORCE; call and --json never colour')
            [CompletionResult]::new('--timeout-ms', '--timeout-ms', [CompletionResultType]::ParameterName, 'Override every tool''s default timeout, in milliseconds')
            [CompletionResult]::new('--notes-dir', '--notes-dir', [CompletionResultType]::ParameterName, 'The notes store [default: .agent-state/notes, or config notes.dir]')
            [CompletionResult]::new('--skills-dir', '--skills-dir', [CompletionResultType]::ParameterName, 'A folder of skills, one subfolder with a SKILL.md each; repeatable, searched in order [env: AGTOOL_SKILLS, colon-separated]')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print one JSON object {ok, output, error, ...} instead of text')
            [CompletionResult]::new('--no-freshness', '--no-freshness', [CompletionResultType]::ParameterName, 'Turn the freshness gate off [env: AGTOOL_FRESHNESS=off]')
            [CompletionResult]::new('--no-syntax-check', '--no-syntax-check', [CompletionResultType]::ParameterName, 'Turn the syntax gate off [env: AGTOOL_SYNTAX_CHECK=off]')
            [CompletionResult]::new('--approved', '--approved', [CompletionResultType]::ParameterName, 'The host''s user approved this call: an ask rule lets it run (after exit status 3, Approval needed)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'agtool;state;reset' {
            [CompletionResult]::new('--root', '--root', [CompletionResultType]::ParameterName, 'Workspace root [env: AGTOOL_ROOT] (default: nearest .agent-state/, then .git, then the current directory)')
            [CompletionResult]::new('--agent', '--agent', [CompletionResultType]::ParameterName, 'Agent identity keying the freshness table [env: AGTOOL_AGENT] [default: default]')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Extra configuration file layered over the others [env: AGTOOL_CONFIG]')
            [CompletionResult]::new('--groups', '--groups', [CompletionResultType]::ParameterName, 'Tool groups enabled for call, schema and mcp, e.g. files,edit or all [env: AGTOOL_GROUPS]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour for people (dry-run diffs, sessions list): auto, always or never; auto is off with NO_COLOR, on with CLICOLOR_FORCE; call and --json never colour')
            [CompletionResult]::new('--timeout-ms', '--timeout-ms', [CompletionResultType]::ParameterName, 'Override every tool''s default timeout, in milliseconds')
            [CompletionResult]::new('--notes-dir', '--notes-dir', [CompletionResultType]::ParameterName, 'The notes store [default: .agent-state/notes, or config notes.dir]')
            [CompletionResult]::new('--skills-dir', '--skills-dir', [CompletionResultType]::ParameterName, 'A folder of skills, one subfolder with a SKILL.md each; repeatable, searched in order [env: AGTOOL_SKILLS, colon-separated]')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print one JSON object {ok, output, error, ...} instead of text')
            [CompletionResult]::new('--no-freshness', '--no-freshness', [CompletionResultType]::ParameterName, 'Turn the freshness gate off [env: AGTOOL_FRESHNESS=off]')
            [CompletionResult]::new('--no-syntax-check', '--no-syntax-check', [CompletionResultType]::ParameterName, 'Turn the syntax gate off [env: AGTOOL_SYNTAX_CHECK=off]')
            [CompletionResult]::new('--approved', '--approved', [CompletionResultType]::ParameterName, 'The host''s user approved this call: an ask rule lets it run (after exit status 3, Approval needed)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'agtool;state;recover' {
            [CompletionResult]::new('--root', '--root', [CompletionResultType]::ParameterName, 'Workspace root [env: AGTOOL_ROOT] (default: nearest .agent-state/, then .git, then the current directory)')
            [CompletionResult]::new('--agent', '--agent', [CompletionResultType]::ParameterName, 'Agent identity keying the freshness table [env: AGTOOL_AGENT] [default: default]')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Extra configuration file layered over the others [env: AGTOOL_CONFIG]')
            [CompletionResult]::new('--groups', '--groups', [CompletionResultType]::ParameterName, 'Tool groups enabled for call, schema and mcp, e.g. files,edit or all [env: AGTOOL_GROUPS]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour for people (dry-run diffs, sessions list): auto, always or never; auto is off with NO_COLOR, on with CLICOLOR_FORCE; call and --json never colour')
            [CompletionResult]::new('--timeout-ms', '--timeout-ms', [CompletionResultType]::ParameterName, 'Override every tool''s default timeout, in milliseconds')
            [CompletionResult]::new('--notes-dir', '--notes-dir', [CompletionResultType]::ParameterName, 'The notes store [default: .agent-state/notes, or config notes.dir]')
            [CompletionResult]::new('--skills-dir', '--skills-dir', [CompletionResultType]::ParameterName, 'A folder of skills, one subfolder with a SKILL.md each; repeatable, searched in order [env: AGTOOL_SKILLS, colon-separated]')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print one JSON object {ok, output, error, ...} instead of text')
            [CompletionResult]::new('--no-freshness', '--no-freshness', [CompletionResultType]::ParameterName, 'Turn the freshness gate off [env: AGTOOL_FRESHNESS=off]')
            [CompletionResult]::new('--no-syntax-check', '--no-syntax-check', [CompletionResultType]::ParameterName, 'Turn the syntax gate off [env: AGTOOL_SYNTAX_CHECK=off]')
            [CompletionResult]::new('--approved', '--approved', [CompletionResultType]::ParameterName, 'The host''s user approved this call: an ask rule lets it run (after exit status 3, Approval needed)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'agtool;state;help' {
            [CompletionResult]::new('show', 'show', [CompletionResultType]::ParameterValue, 'List every recorded (agent, path, tag)')
            [CompletionResult]::new('forget', 'forget', [CompletionResultType]::ParameterValue, 'Forget what every agent read of PATH (a folder: everything under it)')
            [CompletionResult]::new('reset', 'reset', [CompletionResultType]::ParameterValue, 'Forget everything')
            [CompletionResult]::new('recover', 'recover', [CompletionResultType]::ParameterValue, 'Roll back writes interrupted by a kill and remove their temp files (every call does this too; this says what it did)')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'agtool;state;help;show' {
            break
        }
        'agtool;state;help;forget' {
            break
        }
        'agtool;state;help;reset' {
            break
        }
        'agtool;state;help;recover' {
            break
        }
        'agtool;state;help;help' {
            break
        }
        'agtool;sessions' {
            [CompletionResult]::new('--root', '--root', [CompletionResultType]::ParameterName, 'Workspace root [env: AGTOOL_ROOT] (default: nearest .agent-state/, then .git, then the current directory)')
            [CompletionResult]::new('--agent', '--agent', [CompletionResultType]::ParameterName, 'Agent identity keying the freshness table [env: AGTOOL_AGENT] [default: default]')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Extra configuration file layered over the others [env: AGTOOL_CONFIG]')
            [CompletionResult]::new('--groups', '--groups', [CompletionResultType]::ParameterName, 'Tool groups enabled for call, schema and mcp, e.g. files,edit or all [env: AGTOOL_GROUPS]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour for people (dry-run diffs, sessions list): auto, always or never; auto is off with NO_COLOR, on with CLICOLOR_FORCE; call and --json never colour')
            [CompletionResult]::new('--timeout-ms', '--timeout-ms', [CompletionResultType]::ParameterName, 'Override every tool''s default timeout, in milliseconds')
            [CompletionResult]::new('--notes-dir', '--notes-dir', [CompletionResultType]::ParameterName, 'The notes store [default: .agent-state/notes, or config notes.dir]')
            [CompletionResult]::new('--skills-dir', '--skills-dir', [CompletionResultType]::ParameterName, 'A folder of skills, one subfolder with a SKILL.md each; repeatable, searched in order [env: AGTOOL_SKILLS, colon-separated]')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print one JSON object {ok, output, error, ...} instead of text')
            [CompletionResult]::new('--no-freshness', '--no-freshness', [CompletionResultType]::ParameterName, 'Turn the freshness gate off [env: AGTOOL_FRESHNESS=off]')
            [CompletionResult]::new('--no-syntax-check', '--no-syntax-check', [CompletionResultType]::ParameterName, 'Turn the syntax gate off [env: AGTOOL_SYNTAX_CHECK=off]')
            [CompletionResult]::new('--approved', '--approved', [CompletionResultType]::ParameterName, 'The host''s user approved this call: an ask rule lets it run (after exit status 3, Approval needed)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('list', 'list', [CompletionResultType]::ParameterValue, 'Show each session: id, pid, state, age, command')
            [CompletionResult]::new('kill', 'kill', [CompletionResultType]::ParameterValue, 'Kill a session and everything it started')
            [CompletionResult]::new('stop-server', 'stop-server', [CompletionResultType]::ParameterValue, 'Kill every session and stop the session server')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'agtool;sessions;list' {
            [CompletionResult]::new('--root', '--root', [CompletionResultType]::ParameterName, 'Workspace root [env: AGTOOL_ROOT] (default: nearest .agent-state/, then .git, then the current directory)')
            [CompletionResult]::new('--agent', '--agent', [CompletionResultType]::ParameterName, 'Agent identity keying the freshness table [env: AGTOOL_AGENT] [default: default]')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Extra configuration file layered over the others [env: AGTOOL_CONFIG]')
            [CompletionResult]::new('--groups', '--groups', [CompletionResultType]::ParameterName, 'Tool groups enabled for call, schema and mcp, e.g. files,edit or all [env: AGTOOL_GROUPS]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour for people (dry-run diffs, sessions list): auto, always or never; auto is off with NO_COLOR, on with CLICOLOR_FORCE; call and --json never colour')
            [CompletionResult]::new('--timeout-ms', '--timeout-ms', [CompletionResultType]::ParameterName, 'Override every tool''s default timeout, in milliseconds')
            [CompletionResult]::new('--notes-dir', '--notes-dir', [CompletionResultType]::ParameterName, 'The notes store [default: .agent-state/notes, or config notes.dir]')
            [CompletionResult]::new('--skills-dir', '--skills-dir', [CompletionResultType]::ParameterName, 'A folder of skills, one subfolder with a SKILL.md each; repeatable, searched in order [env: AGTOOL_SKILLS, colon-separated]')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print one JSON object {ok, output, error, ...} instead of text')
            [CompletionResult]::new('--no-freshness', '--no-freshness', [CompletionResultType]::ParameterName, 'Turn the freshness gate off [env: AGTOOL_FRESHNESS=off]')
            [CompletionResult]::new('--no-syntax-check', '--no-syntax-check', [CompletionResultType]::ParameterName, 'Turn the syntax gate off [env: AGTOOL_SYNTAX_CHECK=off]')
            [CompletionResult]::new('--approved', '--approved', [CompletionResultType]::ParameterName, 'The host''s user approved this call: an ask rule lets it run (after exit status 3, Approval needed)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'agtool;sessions;kill' {
            [CompletionResult]::new('--root', '--root', [CompletionResultType]::ParameterName, 'Workspace root [env: AGTOOL_ROOT] (default: nearest .agent-state/, then .git, then the current directory)')
            [CompletionResult]::new('--agent', '--agent', [CompletionResultType]::ParameterName, 'Agent identity keying the freshness table [env: AGTOOL_AGENT] [default: default]')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Extra configuration file layered over the others [env: AGTOOL_CONFIG]')
            [CompletionResult]::new('--groups', '--groups', [CompletionResultType]::ParameterName, 'Tool groups enabled for call, schema and mcp, e.g. files,edit or all [env: AGTOOL_GROUPS]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour for people (dry-run diffs, sessions list): auto, always or never; auto is off with NO_COLOR, on with CLICOLOR_FORCE; call and --json never colour')
            [CompletionResult]::new('--timeout-ms', '--timeout-ms', [CompletionResultType]::ParameterName, 'Override every tool''s default timeout, in milliseconds')
            [CompletionResult]::new('--notes-dir', '--notes-dir', [CompletionResultType]::ParameterName, 'The notes store [default: .agent-state/notes, or config notes.dir]')
            [CompletionResult]::new('--skills-dir', '--skills-dir', [CompletionResultType]::ParameterName, 'A folder of skills, one subfolder with a SKILL.md each; repeatable, searched in order [env: AGTOOL_SKILLS, colon-separated]')
            [CompletionResult]::new('--all', '--all', [CompletionResultType]::ParameterName, 'Kill every session')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print one JSON object {ok, output, error, ...} instead of text')
            [CompletionResult]::new('--no-freshness', '--no-freshness', [CompletionResultType]::ParameterName, 'Turn the freshness gate off [env: AGTOOL_FRESHNESS=off]')
            [CompletionResult]::new('--no-syntax-check', '--no-syntax-check', [CompletionResultType]::ParameterName, 'Turn the syntax gate off [env: AGTOOL_SYNTAX_CHECK=off]')
            [CompletionResult]::new('--approved', '--approved', [CompletionResultType]::ParameterName, 'The host''s user approved this call: an ask rule lets it run (after exit status 3, Approval needed)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'agtool;sessions;stop-server' {
            [CompletionResult]::new('--root', '--root', [CompletionResultType]::ParameterName, 'Workspace root [env: AGTOOL_ROOT] (default: nearest .agent-state/, then .git, then the current directory)')
            [CompletionResult]::new('--agent', '--agent', [CompletionResultType]::ParameterName, 'Agent identity keying the freshness table [env: AGTOOL_AGENT] [default: default]')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Extra configuration file layered over the others [env: AGTOOL_CONFIG]')
            [CompletionResult]::new('--groups', '--groups', [CompletionResultType]::ParameterName, 'Tool groups enabled for call, schema and mcp, e.g. files,edit or all [env: AGTOOL_GROUPS]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour for people (dry-run diffs, sessions list): auto, always or never; auto is off with NO_COLOR, on with CLICOLOR_FORCE; call and --json never colour')
            [CompletionResult]::new('--timeout-ms', '--timeout-ms', [CompletionResultType]::ParameterName, 'Override every tool''s default timeout, in milliseconds')
            [CompletionResult]::new('--notes-dir', '--notes-dir', [CompletionResultType]::ParameterName, 'The notes store [default: .agent-state/notes, or config notes.dir]')
            [CompletionResult]::new('--skills-dir', '--skills-dir', [CompletionResultType]::ParameterName, 'A folder of skills, one subfolder with a SKILL.md each; repeatable, searched in order [env: AGTOOL_SKILLS, colon-separated]')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print one JSON object {ok, output, error, ...} instead of text')
            [CompletionResult]::new('--no-freshness', '--no-freshness', [CompletionResultType]::ParameterName, 'Turn the freshness gate off [env: AGTOOL_FRESHNESS=off]')
            [CompletionResult]::new('--no-syntax-check', '--no-syntax-check', [CompletionResultType]::ParameterName, 'Turn the syntax gate off [env: AGTOOL_SYNTAX_CHECK=off]')
            [CompletionResult]::new('--approved', '--approved', [CompletionResultType]::ParameterName, 'The host''s user approved this call: an ask rule lets it run (after exit status 3, Approval needed)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'agtool;sessions;help' {
            [CompletionResult]::new('list', 'list', [CompletionResultType]::ParameterValue, 'Show each session: id, pid, state, age, command')
            [CompletionResult]::new('kill', 'kill', [CompletionResultType]::ParameterValue, 'Kill a session and everything it started')
            [CompletionResult]::new('stop-server', 'stop-server', [CompletionResultType]::ParameterValue, 'Kill every session and stop the session server')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'agtool;sessions;help;list' {
            break
        }
        'agtool;sessions;help;kill' {
            break
        }
        'agtool;sessions;help;stop-server' {
            break
        }
        'agtool;sessions;help;help' {
            break
        }
        'agtool;sandbox' {
            [CompletionResult]::new('--root', '--root', [CompletionResultType]::ParameterName, 'Workspace root [env: AGTOOL_ROOT] (default: nearest .agent-state/, then .git, then the current directory)')
            [CompletionResult]::new('--agent', '--agent', [CompletionResultType]::ParameterName, 'Agent identity keying the freshness table [env: AGTOOL_AGENT] [default: default]')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Extra configuration file layered over the others [env: AGTOOL_CONFIG]')
            [CompletionResult]::new('--groups', '--groups', [CompletionResultType]::ParameterName, 'Tool groups enabled for call, schema and mcp, e.g. files,edit or all [env: AGTOOL_GROUPS]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour for people (dry-run diffs, sessions list): auto, always or never; auto is off with NO_COLOR, on with CLICOLOR_FORCE; call and --json never colour')
            [CompletionResult]::new('--timeout-ms', '--timeout-ms', [CompletionResultType]::ParameterName, 'Override every tool''s default timeout, in milliseconds')
            [CompletionResult]::new('--notes-dir', '--notes-dir', [CompletionResultType]::ParameterName, 'The notes store [default: .agent-state/notes, or config notes.dir]')
            [CompletionResult]::new('--skills-dir', '--skills-dir', [CompletionResultType]::ParameterName, 'A folder of skills, one subfolder with a SKILL.md each; repeatable, searched in order [env: AGTOOL_SKILLS, colon-separated]')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print one JSON object {ok, output, error, ...} instead of text')
            [CompletionResult]::new('--no-freshness', '--no-freshness', [CompletionResultType]::ParameterName, 'Turn the freshness gate off [env: AGTOOL_FRESHNESS=off]')
            [CompletionResult]::new('--no-syntax-check', '--no-syntax-check', [CompletionResultType]::ParameterName, 'Turn the syntax gate off [env: AGTOOL_SYNTAX_CHECK=off]')
            [CompletionResult]::new('--approved', '--approved', [CompletionResultType]::ParameterName, 'The host''s user approved this call: an ask rule lets it run (after exit status 3, Approval needed)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('check', 'check', [CompletionResultType]::ParameterValue, 'Print the Landlock ABI, seccomp and namespaces; exit 1 when workspace-write cannot be enforced')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'agtool;sandbox;check' {
            [CompletionResult]::new('--root', '--root', [CompletionResultType]::ParameterName, 'Workspace root [env: AGTOOL_ROOT] (default: nearest .agent-state/, then .git, then the current directory)')
            [CompletionResult]::new('--agent', '--agent', [CompletionResultType]::ParameterName, 'Agent identity keying the freshness table [env: AGTOOL_AGENT] [default: default]')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Extra configuration file layered over the others [env: AGTOOL_CONFIG]')
            [CompletionResult]::new('--groups', '--groups', [CompletionResultType]::ParameterName, 'Tool groups enabled for call, schema and mcp, e.g. files,edit or all [env: AGTOOL_GROUPS]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour for people (dry-run diffs, sessions list): auto, always or never; auto is off with NO_COLOR, on with CLICOLOR_FORCE; call and --json never colour')
            [CompletionResult]::new('--timeout-ms', '--timeout-ms', [CompletionResultType]::ParameterName, 'Override every tool''s default timeout, in milliseconds')
            [CompletionResult]::new('--notes-dir', '--notes-dir', [CompletionResultType]::ParameterName, 'The notes store [default: .agent-state/notes, or config notes.dir]')
            [CompletionResult]::new('--skills-dir', '--skills-dir', [CompletionResultType]::ParameterName, 'A folder of skills, one subfolder with a SKILL.md each; repeatable, searched in order [env: AGTOOL_SKILLS, colon-separated]')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print one JSON object {ok, output, error, ...} instead of text')
            [CompletionResult]::new('--no-freshness', '--no-freshness', [CompletionResultType]::ParameterName, 'Turn the freshness gate off [env: AGTOOL_FRESHNESS=off]')
            [CompletionResult]::new('--no-syntax-check', '--no-syntax-check', [CompletionResultType]::ParameterName, 'Turn the syntax gate off [env: AGTOOL_SYNTAX_CHECK=off]')
            [CompletionResult]::new('--approved', '--approved', [CompletionResultType]::ParameterName, 'The host''s user approved this call: an ask rule lets it run (after exit status 3, Approval needed)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'agtool;sandbox;help' {
            [CompletionResult]::new('check', 'check', [CompletionResultType]::ParameterValue, 'Print the Landlock ABI, seccomp and namespaces; exit 1 when workspace-write cannot be enforced')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'agtool;sandbox;help;check' {
            break
        }
        'agtool;sandbox;help;help' {
            break
        }
        'agtool;rules' {
            [CompletionResult]::new('--root', '--root', [CompletionResultType]::ParameterName, 'Workspace root [env: AGTOOL_ROOT] (default: nearest .agent-state/, then .git, then the current directory)')
            [CompletionResult]::new('--agent', '--agent', [CompletionResultType]::ParameterName, 'Agent identity keying the freshness table [env: AGTOOL_AGENT] [default: default]')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Extra configuration file layered over the others [env: AGTOOL_CONFIG]')
            [CompletionResult]::new('--groups', '--groups', [CompletionResultType]::ParameterName, 'Tool groups enabled for call, schema and mcp, e.g. files,edit or all [env: AGTOOL_GROUPS]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour for people (dry-run diffs, sessions list): auto, always or never; auto is off with NO_COLOR, on with CLICOLOR_FORCE; call and --json never colour')
            [CompletionResult]::new('--timeout-ms', '--timeout-ms', [CompletionResultType]::ParameterName, 'Override every tool''s default timeout, in milliseconds')
            [CompletionResult]::new('--notes-dir', '--notes-dir', [CompletionResultType]::ParameterName, 'The notes store [default: .agent-state/notes, or config notes.dir]')
            [CompletionResult]::new('--skills-dir', '--skills-dir', [CompletionResultType]::ParameterName, 'A folder of skills, one subfolder with a SKILL.md each; repeatable, searched in order [env: AGTOOL_SKILLS, colon-separated]')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print one JSON object {ok, output, error, ...} instead of text')
            [CompletionResult]::new('--no-freshness', '--no-freshness', [CompletionResultType]::ParameterName, 'Turn the freshness gate off [env: AGTOOL_FRESHNESS=off]')
            [CompletionResult]::new('--no-syntax-check', '--no-syntax-check', [CompletionResultType]::ParameterName, 'Turn the syntax gate off [env: AGTOOL_SYNTAX_CHECK=off]')
            [CompletionResult]::new('--approved', '--approved', [CompletionResultType]::ParameterName, 'The host''s user approved this call: an ask rule lets it run (after exit status 3, Approval needed)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('test', 'test', [CompletionResultType]::ParameterValue, 'Say which rule decides a call of TOOL with the JSON arguments, and why')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'agtool;rules;test' {
            [CompletionResult]::new('--root', '--root', [CompletionResultType]::ParameterName, 'Workspace root [env: AGTOOL_ROOT] (default: nearest .agent-state/, then .git, then the current directory)')
            [CompletionResult]::new('--agent', '--agent', [CompletionResultType]::ParameterName, 'Agent identity keying the freshness table [env: AGTOOL_AGENT] [default: default]')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Extra configuration file layered over the others [env: AGTOOL_CONFIG]')
            [CompletionResult]::new('--groups', '--groups', [CompletionResultType]::ParameterName, 'Tool groups enabled for call, schema and mcp, e.g. files,edit or all [env: AGTOOL_GROUPS]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour for people (dry-run diffs, sessions list): auto, always or never; auto is off with NO_COLOR, on with CLICOLOR_FORCE; call and --json never colour')
            [CompletionResult]::new('--timeout-ms', '--timeout-ms', [CompletionResultType]::ParameterName, 'Override every tool''s default timeout, in milliseconds')
            [CompletionResult]::new('--notes-dir', '--notes-dir', [CompletionResultType]::ParameterName, 'The notes store [default: .agent-state/notes, or config notes.dir]')
            [CompletionResult]::new('--skills-dir', '--skills-dir', [CompletionResultType]::ParameterName, 'A folder of skills, one subfolder with a SKILL.md each; repeatable, searched in order [env: AGTOOL_SKILLS, colon-separated]')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print one JSON object {ok, output, error, ...} instead of text')
            [CompletionResult]::new('--no-freshness', '--no-freshness', [CompletionResultType]::ParameterName, 'Turn the freshness gate off [env: AGTOOL_FRESHNESS=off]')
            [CompletionResult]::new('--no-syntax-check', '--no-syntax-check', [CompletionResultType]::ParameterName, 'Turn the syntax gate off [env: AGTOOL_SYNTAX_CHECK=off]')
            [CompletionResult]::new('--approved', '--approved', [CompletionResultType]::ParameterName, 'The host''s user approved this call: an ask rule lets it run (after exit status 3, Approval needed)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'agtool;rules;help' {
            [CompletionResult]::new('test', 'test', [CompletionResultType]::ParameterValue, 'Say which rule decides a call of TOOL with the JSON arguments, and why')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'agtool;rules;help;test' {
            break
        }
        'agtool;rules;help;help' {
            break
        }
        'agtool;trace' {
            [CompletionResult]::new('--root', '--root', [CompletionResultType]::ParameterName, 'Workspace root [env: AGTOOL_ROOT] (default: nearest .agent-state/, then .git, then the current directory)')
            [CompletionResult]::new('--agent', '--agent', [CompletionResultType]::ParameterName, 'Agent identity keying the freshness table [env: AGTOOL_AGENT] [default: default]')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Extra configuration file layered over the others [env: AGTOOL_CONFIG]')
            [CompletionResult]::new('--groups', '--groups', [CompletionResultType]::ParameterName, 'Tool groups enabled for call, schema and mcp, e.g. files,edit or all [env: AGTOOL_GROUPS]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour for people (dry-run diffs, sessions list): auto, always or never; auto is off with NO_COLOR, on with CLICOLOR_FORCE; call and --json never colour')
            [CompletionResult]::new('--timeout-ms', '--timeout-ms', [CompletionResultType]::ParameterName, 'Override every tool''s default timeout, in milliseconds')
            [CompletionResult]::new('--notes-dir', '--notes-dir', [CompletionResultType]::ParameterName, 'The notes store [default: .agent-state/notes, or config notes.dir]')
            [CompletionResult]::new('--skills-dir', '--skills-dir', [CompletionResultType]::ParameterName, 'A folder of skills, one subfolder with a SKILL.md each; repeatable, searched in order [env: AGTOOL_SKILLS, colon-separated]')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print one JSON object {ok, output, error, ...} instead of text')
            [CompletionResult]::new('--no-freshness', '--no-freshness', [CompletionResultType]::ParameterName, 'Turn the freshness gate off [env: AGTOOL_FRESHNESS=off]')
            [CompletionResult]::new('--no-syntax-check', '--no-syntax-check', [CompletionResultType]::ParameterName, 'Turn the syntax gate off [env: AGTOOL_SYNTAX_CHECK=off]')
            [CompletionResult]::new('--approved', '--approved', [CompletionResultType]::ParameterName, 'The host''s user approved this call: an ask rule lets it run (after exit status 3, Approval needed)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('summary', 'summary', [CompletionResultType]::ParameterValue, 'Calls, failures, blocked calls and p50/p95 duration per tool')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'agtool;trace;summary' {
            [CompletionResult]::new('--root', '--root', [CompletionResultType]::ParameterName, 'Workspace root [env: AGTOOL_ROOT] (default: nearest .agent-state/, then .git, then the current directory)')
            [CompletionResult]::new('--agent', '--agent', [CompletionResultType]::ParameterName, 'Agent identity keying the freshness table [env: AGTOOL_AGENT] [default: default]')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Extra configuration file layered over the others [env: AGTOOL_CONFIG]')
            [CompletionResult]::new('--groups', '--groups', [CompletionResultType]::ParameterName, 'Tool groups enabled for call, schema and mcp, e.g. files,edit or all [env: AGTOOL_GROUPS]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour for people (dry-run diffs, sessions list): auto, always or never; auto is off with NO_COLOR, on with CLICOLOR_FORCE; call and --json never colour')
            [CompletionResult]::new('--timeout-ms', '--timeout-ms', [CompletionResultType]::ParameterName, 'Override every tool''s default timeout, in milliseconds')
            [CompletionResult]::new('--notes-dir', '--notes-dir', [CompletionResultType]::ParameterName, 'The notes store [default: .agent-state/notes, or config notes.dir]')
            [CompletionResult]::new('--skills-dir', '--skills-dir', [CompletionResultType]::ParameterName, 'A folder of skills, one subfolder with a SKILL.md each; repeatable, searched in order [env: AGTOOL_SKILLS, colon-separated]')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print one JSON object {ok, output, error, ...} instead of text')
            [CompletionResult]::new('--no-freshness', '--no-freshness', [CompletionResultType]::ParameterName, 'Turn the freshness gate off [env: AGTOOL_FRESHNESS=off]')
            [CompletionResult]::new('--no-syntax-check', '--no-syntax-check', [CompletionResultType]::ParameterName, 'Turn the syntax gate off [env: AGTOOL_SYNTAX_CHECK=off]')
            [CompletionResult]::new('--approved', '--approved', [CompletionResultType]::ParameterName, 'The host''s user approved this call: an ask rule lets it run (after exit status 3, Approval needed)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'agtool;trace;help' {
            [CompletionResult]::new('summary', 'summary', [CompletionResultType]::ParameterValue, 'Calls, failures, blocked calls and p50/p95 duration per tool')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'agtool;trace;help;summary' {
            break
        }
        'agtool;trace;help;help' {
            break
        }
        'agtool;lsp' {
            [CompletionResult]::new('--root', '--root', [CompletionResultType]::ParameterName, 'Workspace root [env: AGTOOL_ROOT] (default: nearest .agent-state/, then .git, then the current directory)')
            [CompletionResult]::new('--agent', '--agent', [CompletionResultType]::ParameterName, 'Agent identity keying the freshness table [env: AGTOOL_AGENT] [default: default]')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Extra configuration file layered over the others [env: AGTOOL_CONFIG]')
            [CompletionResult]::new('--groups', '--groups', [CompletionResultType]::ParameterName, 'Tool groups enabled for call, schema and mcp, e.g. files,edit or all [env: AGTOOL_GROUPS]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour for people (dry-run diffs, sessions list): auto, always or never; auto is off with NO_COLOR, on with CLICOLOR_FORCE; call and --json never colour')
            [CompletionResult]::new('--timeout-ms', '--timeout-ms', [CompletionResultType]::ParameterName, 'Override every tool''s default timeout, in milliseconds')
            [CompletionResult]::new('--notes-dir', '--notes-dir', [CompletionResultType]::ParameterName, 'The notes store [default: .agent-state/notes, or config notes.dir]')
            [CompletionResult]::new('--skills-dir', '--skills-dir', [CompletionResultType]::ParameterName, 'A folder of skills, one subfolder with a SKILL.md each; repeatable, searched in order [env: AGTOOL_SKILLS, colon-separated]')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print one JSON object {ok, output, error, ...} instead of text')
            [CompletionResult]::new('--no-freshness', '--no-freshness', [CompletionResultType]::ParameterName, 'Turn the freshness gate off [env: AGTOOL_FRESHNESS=off]')
            [CompletionResult]::new('--no-syntax-check', '--no-syntax-check', [CompletionResultType]::ParameterName, 'Turn the syntax gate off [env: AGTOOL_SYNTAX_CHECK=off]')
            [CompletionResult]::new('--approved', '--approved', [CompletionResultType]::ParameterName, 'The host''s user approved this call: an ask rule lets it run (after exit status 3, Approval needed)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('status', 'status', [CompletionResultType]::ParameterValue, 'Each server: language, pid, state, memory, open files, uptime, command')
            [CompletionResult]::new('stop', 'stop', [CompletionResultType]::ParameterValue, 'Stop every language server of this workspace')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'agtool;lsp;status' {
            [CompletionResult]::new('--root', '--root', [CompletionResultType]::ParameterName, 'Workspace root [env: AGTOOL_ROOT] (default: nearest .agent-state/, then .git, then the current directory)')
            [CompletionResult]::new('--agent', '--agent', [CompletionResultType]::ParameterName, 'Agent identity keying the freshness table [env: AGTOOL_AGENT] [default: default]')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Extra configuration file layered over the others [env: AGTOOL_CONFIG]')
            [CompletionResult]::new('--groups', '--groups', [CompletionResultType]::ParameterName, 'Tool groups enabled for call, schema and mcp, e.g. files,edit or all [env: AGTOOL_GROUPS]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour for people (dry-run diffs, sessions list): auto, always or never; auto is off with NO_COLOR, on with CLICOLOR_FORCE; call and --json never colour')
            [CompletionResult]::new('--timeout-ms', '--timeout-ms', [CompletionResultType]::ParameterName, 'Override every tool''s default timeout, in milliseconds')
            [CompletionResult]::new('--notes-dir', '--notes-dir', [CompletionResultType]::ParameterName, 'The notes store [default: .agent-state/notes, or config notes.dir]')
            [CompletionResult]::new('--skills-dir', '--skills-dir', [CompletionResultType]::ParameterName, 'A folder of skills, one subfolder with a SKILL.md each; repeatable, searched in order [env: AGTOOL_SKILLS, colon-separated]')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print one JSON object {ok, output, error, ...} instead of text')
            [CompletionResult]::new('--no-freshness', '--no-freshness', [CompletionResultType]::ParameterName, 'Turn the freshness gate off [env: AGTOOL_FRESHNESS=off]')
            [CompletionResult]::new('--no-syntax-check', '--no-syntax-check', [CompletionResultType]::ParameterName, 'Turn the syntax gate off [env: AGTOOL_SYNTAX_CHECK=off]')
            [CompletionResult]::new('--approved', '--approved', [CompletionResultType]::ParameterName, 'The host''s user approved this call: an ask rule lets it run (after exit status 3, Approval needed)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'agtool;lsp;stop' {
            [CompletionResult]::new('--root', '--root', [CompletionResultType]::ParameterName, 'Workspace root [env: AGTOOL_ROOT] (default: nearest .agent-state/, then .git, then the current directory)')
            [CompletionResult]::new('--agent', '--agent', [CompletionResultType]::ParameterName, 'Agent identity keying the freshness table [env: AGTOOL_AGENT] [default: default]')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Extra configuration file layered over the others [env: AGTOOL_CONFIG]')
            [CompletionResult]::new('--groups', '--groups', [CompletionResultType]::ParameterName, 'Tool groups enabled for call, schema and mcp, e.g. files,edit or all [env: AGTOOL_GROUPS]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour for people (dry-run diffs, sessions list): auto, always or never; auto is off with NO_COLOR, on with CLICOLOR_FORCE; call and --json never colour')
            [CompletionResult]::new('--timeout-ms', '--timeout-ms', [CompletionResultType]::ParameterName, 'Override every tool''s default timeout, in milliseconds')
            [CompletionResult]::new('--notes-dir', '--notes-dir', [CompletionResultType]::ParameterName, 'The notes store [default: .agent-state/notes, or config notes.dir]')
            [CompletionResult]::new('--skills-dir', '--skills-dir', [CompletionResultType]::ParameterName, 'A folder of skills, one subfolder with a SKILL.md each; repeatable, searched in order [env: AGTOOL_SKILLS, colon-separated]')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print one JSON object {ok, output, error, ...} instead of text')
            [CompletionResult]::new('--no-freshness', '--no-freshness', [CompletionResultType]::ParameterName, 'Turn the freshness gate off [env: AGTOOL_FRESHNESS=off]')
            [CompletionResult]::new('--no-syntax-check', '--no-syntax-check', [CompletionResultType]::ParameterName, 'Turn the syntax gate off [env: AGTOOL_SYNTAX_CHECK=off]')
            [CompletionResult]::new('--approved', '--approved', [CompletionResultType]::ParameterName, 'The host''s user approved this call: an ask rule lets it run (after exit status 3, Approval needed)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'agtool;lsp;help' {
            [CompletionResult]::new('status', 'status', [CompletionResultType]::ParameterValue, 'Each server: language, pid, state, memory, open files, uptime, command')
            [CompletionResult]::new('stop', 'stop', [CompletionResultType]::ParameterValue, 'Stop every language server of this workspace')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'agtool;lsp;help;status' {
            break
        }
        'agtool;lsp;help;stop' {
            break
        }
        'agtool;lsp;help;help' {
            break
        }
        'agtool;completions' {
            [CompletionResult]::new('--write', '--write', [CompletionResultType]::ParameterName, 'Write every shell''s file into DIR instead (the repository''s completions/)')
            [CompletionResult]::new('--root', '--root', [CompletionResultType]::ParameterName, 'Workspace root [env: AGTOOL_ROOT] (default: nearest .agent-state/, then .git, then the current directory)')
            [CompletionResult]::new('--agent', '--agent', [CompletionResultType]::ParameterName, 'Agent identity keying the freshness table [env: AGTOOL_AGENT] [default: default]')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Extra configuration file layered over the others [env: AGTOOL_CONFIG]')
            [CompletionResult]::new('--groups', '--groups', [CompletionResultType]::ParameterName, 'Tool groups enabled for call, schema and mcp, e.g. files,edit or all [env: AGTOOL_GROUPS]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour for people (dry-run diffs, sessions list): auto, always or never; auto is off with NO_COLOR, on with CLICOLOR_FORCE; call and --json never colour')
            [CompletionResult]::new('--timeout-ms', '--timeout-ms', [CompletionResultType]::ParameterName, 'Override every tool''s default timeout, in milliseconds')
            [CompletionResult]::new('--notes-dir', '--notes-dir', [CompletionResultType]::ParameterName, 'The notes store [default: .agent-state/notes, or config notes.dir]')
            [CompletionResult]::new('--skills-dir', '--skills-dir', [CompletionResultType]::ParameterName, 'A folder of skills, one subfolder with a SKILL.md each; repeatable, searched in order [env: AGTOOL_SKILLS, colon-separated]')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print one JSON object {ok, output, error, ...} instead of text')
            [CompletionResult]::new('--no-freshness', '--no-freshness', [CompletionResultType]::ParameterName, 'Turn the freshness gate off [env: AGTOOL_FRESHNESS=off]')
            [CompletionResult]::new('--no-syntax-check', '--no-syntax-check', [CompletionResultType]::ParameterName, 'Turn the syntax gate off [env: AGTOOL_SYNTAX_CHECK=off]')
            [CompletionResult]::new('--approved', '--approved', [CompletionResultType]::ParameterName, 'The host''s user approved this call: an ask rule lets it run (after exit status 3, Approval needed)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'agtool;man' {
            [CompletionResult]::new('--write', '--write', [CompletionResultType]::ParameterName, 'Write agtool.1 into DIR instead')
            [CompletionResult]::new('--root', '--root', [CompletionResultType]::ParameterName, 'Workspace root [env: AGTOOL_ROOT] (default: nearest .agent-state/, then .git, then the current directory)')
            [CompletionResult]::new('--agent', '--agent', [CompletionResultType]::ParameterName, 'Agent identity keying the freshness table [env: AGTOOL_AGENT] [default: default]')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Extra configuration file layered over the others [env: AGTOOL_CONFIG]')
            [CompletionResult]::new('--groups', '--groups', [CompletionResultType]::ParameterName, 'Tool groups enabled for call, schema and mcp, e.g. files,edit or all [env: AGTOOL_GROUPS]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour for people (dry-run diffs, sessions list): auto, always or never; auto is off with NO_COLOR, on with CLICOLOR_FORCE; call and --json never colour')
            [CompletionResult]::new('--timeout-ms', '--timeout-ms', [CompletionResultType]::ParameterName, 'Override every tool''s default timeout, in milliseconds')
            [CompletionResult]::new('--notes-dir', '--notes-dir', [CompletionResultType]::ParameterName, 'The notes store [default: .agent-state/notes, or config notes.dir]')
            [CompletionResult]::new('--skills-dir', '--skills-dir', [CompletionResultType]::ParameterName, 'A folder of skills, one subfolder with a SKILL.md each; repeatable, searched in order [env: AGTOOL_SKILLS, colon-separated]')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print one JSON object {ok, output, error, ...} instead of text')
            [CompletionResult]::new('--no-freshness', '--no-freshness', [CompletionResultType]::ParameterName, 'Turn the freshness gate off [env: AGTOOL_FRESHNESS=off]')
            [CompletionResult]::new('--no-syntax-check', '--no-syntax-check', [CompletionResultType]::ParameterName, 'Turn the syntax gate off [env: AGTOOL_SYNTAX_CHECK=off]')
            [CompletionResult]::new('--approved', '--approved', [CompletionResultType]::ParameterName, 'The host''s user approved this call: an ask rule lets it run (after exit status 3, Approval needed)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'agtool;session-server' {
            [CompletionResult]::new('--state-dir', '--state-dir', [CompletionResultType]::ParameterName, 'state-dir')
            [CompletionResult]::new('--root', '--root', [CompletionResultType]::ParameterName, 'Workspace root [env: AGTOOL_ROOT] (default: nearest .agent-state/, then .git, then the current directory)')
            [CompletionResult]::new('--agent', '--agent', [CompletionResultType]::ParameterName, 'Agent identity keying the freshness table [env: AGTOOL_AGENT] [default: default]')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Extra configuration file layered over the others [env: AGTOOL_CONFIG]')
            [CompletionResult]::new('--groups', '--groups', [CompletionResultType]::ParameterName, 'Tool groups enabled for call, schema and mcp, e.g. files,edit or all [env: AGTOOL_GROUPS]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour for people (dry-run diffs, sessions list): auto, always or never; auto is off with NO_COLOR, on with CLICOLOR_FORCE; call and --json never colour')
            [CompletionResult]::new('--timeout-ms', '--timeout-ms', [CompletionResultType]::ParameterName, 'Override every tool''s default timeout, in milliseconds')
            [CompletionResult]::new('--notes-dir', '--notes-dir', [CompletionResultType]::ParameterName, 'The notes store [default: .agent-state/notes, or config notes.dir]')
            [CompletionResult]::new('--skills-dir', '--skills-dir', [CompletionResultType]::ParameterName, 'A folder of skills, one subfolder with a SKILL.md each; repeatable, searched in order [env: AGTOOL_SKILLS, colon-separated]')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print one JSON object {ok, output, error, ...} instead of text')
            [CompletionResult]::new('--no-freshness', '--no-freshness', [CompletionResultType]::ParameterName, 'Turn the freshness gate off [env: AGTOOL_FRESHNESS=off]')
            [CompletionResult]::new('--no-syntax-check', '--no-syntax-check', [CompletionResultType]::ParameterName, 'Turn the syntax gate off [env: AGTOOL_SYNTAX_CHECK=off]')
            [CompletionResult]::new('--approved', '--approved', [CompletionResultType]::ParameterName, 'The host''s user approved this call: an ask rule lets it run (after exit status 3, Approval needed)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'agtool;session-guard' {
            [CompletionResult]::new('--server-pid', '--server-pid', [CompletionResultType]::ParameterName, 'server-pid')
            [CompletionResult]::new('--root', '--root', [CompletionResultType]::ParameterName, 'Workspace root [env: AGTOOL_ROOT] (default: nearest .agent-state/, then .git, then the current directory)')
            [CompletionResult]::new('--agent', '--agent', [CompletionResultType]::ParameterName, 'Agent identity keying the freshness table [env: AGTOOL_AGENT] [default: default]')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Extra configuration file layered over the others [env: AGTOOL_CONFIG]')
            [CompletionResult]::new('--groups', '--groups', [CompletionResultType]::ParameterName, 'Tool groups enabled for call, schema and mcp, e.g. files,edit or all [env: AGTOOL_GROUPS]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour for people (dry-run diffs, sessions list): auto, always or never; auto is off with NO_COLOR, on with CLICOLOR_FORCE; call and --json never colour')
            [CompletionResult]::new('--timeout-ms', '--timeout-ms', [CompletionResultType]::ParameterName, 'Override every tool''s default timeout, in milliseconds')
            [CompletionResult]::new('--notes-dir', '--notes-dir', [CompletionResultType]::ParameterName, 'The notes store [default: .agent-state/notes, or config notes.dir]')
            [CompletionResult]::new('--skills-dir', '--skills-dir', [CompletionResultType]::ParameterName, 'A folder of skills, one subfolder with a SKILL.md each; repeatable, searched in order [env: AGTOOL_SKILLS, colon-separated]')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print one JSON object {ok, output, error, ...} instead of text')
            [CompletionResult]::new('--no-freshness', '--no-freshness', [CompletionResultType]::ParameterName, 'Turn the freshness gate off [env: AGTOOL_FRESHNESS=off]')
            [CompletionResult]::new('--no-syntax-check', '--no-syntax-check', [CompletionResultType]::ParameterName, 'Turn the syntax gate off [env: AGTOOL_SYNTAX_CHECK=off]')
            [CompletionResult]::new('--approved', '--approved', [CompletionResultType]::ParameterName, 'The host''s user approved this call: an ask rule lets it run (after exit status 3, Approval needed)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'agtool;help' {
            [CompletionResult]::new('read-file', 'read-file', [CompletionResultType]::ParameterValue, 'Read a file with line numbers and a content tag; also images, PDFs, notebooks, several files.')
            [CompletionResult]::new('list-dir', 'list-dir', [CompletionResultType]::ParameterValue, 'List a folder as an indented tree: `name/` folders, `name@` symlinks (never followed), `name?` other special files. Entries are sorted by name, children right under their folder. Ignored files (.gitignore) are left out unless ignored: true. Page with offset/limit; the last line says how to continue. Bytes of a name that are not UTF-8 show as `\xHH`; every path argument takes that spelling back.')
            [CompletionResult]::new('glob', 'glob', [CompletionResultType]::ParameterValue, 'Find files whose path matches a glob pattern, newest first.')
            [CompletionResult]::new('grep', 'grep', [CompletionResultType]::ParameterValue, 'Search file contents with a regular expression (ripgrep''s engine).')
            [CompletionResult]::new('diagnostics', 'diagnostics', [CompletionResultType]::ParameterValue, 'Show the problems a language server (pyright, pylsp, typescript-language-server, gopls, rust-analyzer, clangd) reports for files: one line each, `path:line:col: severity: message (code)`, errors first. Without paths: every file open in a language server. Edit results already list the problems an edit added; use this for the rest.')
            [CompletionResult]::new('write-file', 'write-file', [CompletionResultType]::ParameterValue, 'Create a file, or replace a whole file''s content.')
            [CompletionResult]::new('edit-file', 'edit-file', [CompletionResultType]::ParameterValue, 'Replace exact text in a file: old must occur exactly once (or pass all: true).')
            [CompletionResult]::new('edit-lines', 'edit-lines', [CompletionResultType]::ParameterValue, 'Replace or insert whole lines addressed by anchors from read_file with anchors: true.')
            [CompletionResult]::new('apply-patch', 'apply-patch', [CompletionResultType]::ParameterValue, 'Apply a patch that adds, deletes, updates or moves files, all or nothing.')
            [CompletionResult]::new('notebook-edit', 'notebook-edit', [CompletionResultType]::ParameterValue, 'Replace, insert or delete one cell of a Jupyter notebook (.ipynb).')
            [CompletionResult]::new('move-path', 'move-path', [CompletionResultType]::ParameterValue, 'Move or rename a file, a symlink or a folder inside the workspace.')
            [CompletionResult]::new('copy-path', 'copy-path', [CompletionResultType]::ParameterValue, 'Copy a file, a symlink or a folder (recursive: true) inside the workspace.')
            [CompletionResult]::new('make-dir', 'make-dir', [CompletionResultType]::ParameterValue, 'Make a folder, and any missing folders above it, inside the workspace.')
            [CompletionResult]::new('delete-path', 'delete-path', [CompletionResultType]::ParameterValue, 'Delete a file, a symlink, or a directory.')
            [CompletionResult]::new('exec', 'exec', [CompletionResultType]::ParameterValue, 'Run a command once and return its exit code and output.')
            [CompletionResult]::new('exec-command', 'exec-command', [CompletionResultType]::ParameterValue, 'Start a shell command that keeps running between calls (a server, a watcher, a REPL).')
            [CompletionResult]::new('write-stdin', 'write-stdin', [CompletionResultType]::ParameterValue, 'Send input to a running exec_command session, or read its new output.')
            [CompletionResult]::new('web-fetch', 'web-fetch', [CompletionResultType]::ParameterValue, 'Fetch an http or https URL and return the page as plain text.')
            [CompletionResult]::new('skill', 'skill', [CompletionResultType]::ParameterValue, 'Load a skill: instructions for one kind of task, given by the host.')
            [CompletionResult]::new('notes', 'notes', [CompletionResultType]::ParameterValue, 'Keep notes that outlive the session: list, read, write, delete')
            [CompletionResult]::new('schema', 'schema', [CompletionResultType]::ParameterValue, 'Print the tool definitions (JSON Schema) for an agent host')
            [CompletionResult]::new('call', 'call', [CompletionResultType]::ParameterValue, 'Run a tool with its JSON arguments (or a tool-call envelope) read from stdin')
            [CompletionResult]::new('mcp', 'mcp', [CompletionResultType]::ParameterValue, 'Serve the tools of the enabled groups to an MCP host over stdio')
            [CompletionResult]::new('state', 'state', [CompletionResultType]::ParameterValue, 'Inspect or clear the freshness table in .agent-state/')
            [CompletionResult]::new('sessions', 'sessions', [CompletionResultType]::ParameterValue, 'List or kill the exec-command sessions of this workspace, or stop their server')
            [CompletionResult]::new('sandbox', 'sandbox', [CompletionResultType]::ParameterValue, 'Say what this machine enforces of the exec sandbox')
            [CompletionResult]::new('rules', 'rules', [CompletionResultType]::ParameterValue, 'Check the allow/ask/deny rules: which rule decides a call, and why')
            [CompletionResult]::new('trace', 'trace', [CompletionResultType]::ParameterValue, 'Read the call trace ([trace] file or AGTOOL_TRACE)')
            [CompletionResult]::new('lsp', 'lsp', [CompletionResultType]::ParameterValue, 'Show or stop the language servers kept warm for this workspace''s diagnostics')
            [CompletionResult]::new('completions', 'completions', [CompletionResultType]::ParameterValue, 'Print shell completions (bash, zsh, fish, elvish, powershell)')
            [CompletionResult]::new('man', 'man', [CompletionResultType]::ParameterValue, 'Print the manual page (roff)')
            [CompletionResult]::new('session-server', 'session-server', [CompletionResultType]::ParameterValue, 'Run the exec session server for a state folder (started on demand)')
            [CompletionResult]::new('session-guard', 'session-guard', [CompletionResultType]::ParameterValue, 'Run a session''s command and end its whole tree when the session server dies')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'agtool;help;read-file' {
            break
        }
        'agtool;help;list-dir' {
            break
        }
        'agtool;help;glob' {
            break
        }
        'agtool;help;grep' {
            break
        }
        'agtool;help;diagnostics' {
            break
        }
        'agtool;help;write-file' {
            break
        }
        'agtool;help;edit-file' {
            break
        }
        'agtool;help;edit-lines' {
            break
        }
        'agtool;help;apply-patch' {
            break
        }
        'agtool;help;notebook-edit' {
            break
        }
        'agtool;help;move-path' {
            break
        }
        'agtool;help;copy-path' {
            break
        }
        'agtool;help;make-dir' {
            break
        }
        'agtool;help;delete-path' {
            break
        }
        'agtool;help;exec' {
            break
        }
        'agtool;help;exec-command' {
            break
        }
        'agtool;help;write-stdin' {
            break
        }
        'agtool;help;web-fetch' {
            break
        }
        'agtool;help;skill' {
            break
        }
        'agtool;help;notes' {
            [CompletionResult]::new('list', 'list', [CompletionResultType]::ParameterValue, 'List the notes kept for this workspace, newest first.')
            [CompletionResult]::new('read', 'read', [CompletionResultType]::ParameterValue, 'Read one note kept for this workspace.')
            [CompletionResult]::new('write', 'write', [CompletionResultType]::ParameterValue, 'Save a note for later sessions in this workspace, or append to one.')
            [CompletionResult]::new('delete', 'delete', [CompletionResultType]::ParameterValue, 'Delete one note kept for this workspace.')
            break
        }
        'agtool;help;notes;list' {
            break
        }
        'agtool;help;notes;read' {
            break
        }
        'agtool;help;notes;write' {
            break
        }
        'agtool;help;notes;delete' {
            break
        }
        'agtool;help;schema' {
            break
        }
        'agtool;help;call' {
            break
        }
        'agtool;help;mcp' {
            break
        }
        'agtool;help;state' {
            [CompletionResult]::new('show', 'show', [CompletionResultType]::ParameterValue, 'List every recorded (agent, path, tag)')
            [CompletionResult]::new('forget', 'forget', [CompletionResultType]::ParameterValue, 'Forget what every agent read of PATH (a folder: everything under it)')
            [CompletionResult]::new('reset', 'reset', [CompletionResultType]::ParameterValue, 'Forget everything')
            [CompletionResult]::new('recover', 'recover', [CompletionResultType]::ParameterValue, 'Roll back writes interrupted by a kill and remove their temp files (every call does this too; this says what it did)')
            break
        }
        'agtool;help;state;show' {
            break
        }
        'agtool;help;state;forget' {
            break
        }
        'agtool;help;state;reset' {
            break
        }
        'agtool;help;state;recover' {
            break
        }
        'agtool;help;sessions' {
            [CompletionResult]::new('list', 'list', [CompletionResultType]::ParameterValue, 'Show each session: id, pid, state, age, command')
            [CompletionResult]::new('kill', 'kill', [CompletionResultType]::ParameterValue, 'Kill a session and everything it started')
            [CompletionResult]::new('stop-server', 'stop-server', [CompletionResultType]::ParameterValue, 'Kill every session and stop the session server')
            break
        }
        'agtool;help;sessions;list' {
            break
        }
        'agtool;help;sessions;kill' {
            break
        }
        'agtool;help;sessions;stop-server' {
            break
        }
        'agtool;help;sandbox' {
            [CompletionResult]::new('check', 'check', [CompletionResultType]::ParameterValue, 'Print the Landlock ABI, seccomp and namespaces; exit 1 when workspace-write cannot be enforced')
            break
        }
        'agtool;help;sandbox;check' {
            break
        }
        'agtool;help;rules' {
            [CompletionResult]::new('test', 'test', [CompletionResultType]::ParameterValue, 'Say which rule decides a call of TOOL with the JSON arguments, and why')
            break
        }
        'agtool;help;rules;test' {
            break
        }
        'agtool;help;trace' {
            [CompletionResult]::new('summary', 'summary', [CompletionResultType]::ParameterValue, 'Calls, failures, blocked calls and p50/p95 duration per tool')
            break
        }
        'agtool;help;trace;summary' {
            break
        }
        'agtool;help;lsp' {
            [CompletionResult]::new('status', 'status', [CompletionResultType]::ParameterValue, 'Each server: language, pid, state, memory, open files, uptime, command')
            [CompletionResult]::new('stop', 'stop', [CompletionResultType]::ParameterValue, 'Stop every language server of this workspace')
            break
        }
        'agtool;help;lsp;status' {
            break
        }
        'agtool;help;lsp;stop' {
            break
        }
        'agtool;help;completions' {
            break
        }
        'agtool;help;man' {
            break
        }
        'agtool;help;session-server' {
            break
        }
        'agtool;help;session-guard' {
            break
        }
        'agtool;help;help' {
            break
        }
    })

    $completions.Where{ $_.CompletionText -like "$wordToComplete*" } |
        Sort-Object -Property ListItemText
}
