
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
            cand --groups 'Tool groups enabled for call, schema and mcp, e.g. files,edit or all [env: AGTOOL_GROUPS]'
            cand --color 'Colour for people (dry-run diffs, sessions list): auto, always or never; auto is off with NO_COLOR, on with CLICOLOR_FORCE; call and --json never colour'
            cand --timeout-ms 'Override every tool''s default timeout, in milliseconds'
            cand --notes-dir 'The notes store [default: .agent-state/notes, or config notes.dir]'
            cand --skills-dir 'A folder of skills, one subfolder with a SKILL.md each; repeatable, searched in order [env: AGTOOL_SKILLS, colon-separated]'
            cand --json 'Print one JSON object {ok, output, error, ...} instead of text'
            cand --no-freshness 'Turn the freshness gate off [env: AGTOOL_FRESHNESS=off]'
            cand --no-syntax-check 'Turn the syntax gate off [env: AGTOOL_SYNTAX_CHECK=off]'
            cand --approved 'The host''s user approved this call: an ask rule lets it run (after exit status 3, Approval needed)'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
            cand read-file 'Read a file with line numbers and a content tag; also images, PDFs, notebooks, several files.'
            cand list-dir 'List a folder as an indented tree: `name/` folders, `name@` symlinks (never followed), `name?` other special files. Entries are sorted by name, children right under their folder. Ignored files (.gitignore) are left out unless ignored: true. Page with offset/limit; the last line says how to continue. Bytes of a name that are not UTF-8 show as `\xHH`; every path argument takes that spelling back.'
            cand glob 'Find files whose path matches a glob pattern, newest first.'
            cand grep 'Search file contents with a regular expression (ripgrep''s engine).'
            cand diagnostics 'Show the problems a language server (pyright, pylsp, typescript-language-server, gopls, rust-analyzer, clangd) reports for files: one line each, `path:line:col: severity: message (code)`, errors first. Without paths: every file open in a language server. Edit results already list the problems an edit added; use this for the rest.'
            cand write-file 'Create a file, or replace a whole file''s content.'
            cand edit-file 'Replace exact text in a file: old must occur exactly once (or pass all: true).'
            cand edit-lines 'Replace or insert whole lines addressed by anchors from read_file with anchors: true.'
            cand apply-patch 'Apply a patch that adds, deletes, updates or moves files, all or nothing.'
            cand notebook-edit 'Replace, insert or delete one cell of a Jupyter notebook (.ipynb).'
            cand move-path 'Move or rename a file, a symlink or a folder inside the workspace.'
            cand copy-path 'Copy a file, a symlink or a folder (recursive: true) inside the workspace.'
            cand make-dir 'Make a folder, and any missing folders above it, inside the workspace.'
            cand delete-path 'Delete a file, a symlink, or a directory.'
            cand exec 'Run a command once and return its exit code and output.'
            cand exec-command 'Start a shell command that keeps running between calls (a server, a watcher, a REPL).'
            cand write-stdin 'Send input to a running exec_command session, or read its new output.'
            cand web-fetch 'Fetch an http or https URL and return the page as plain text.'
            cand skill 'Load a skill: instructions for one kind of task, given by the host.'
            cand notes 'Keep notes that outlive the session: list, read, write, delete'
            cand schema 'Print the tool definitions (JSON Schema) for an agent host'
            cand call 'Run a tool with its JSON arguments (or a tool-call envelope) read from stdin'
            cand mcp 'Serve the tools of the enabled groups to an MCP host over stdio'
            cand state 'Inspect or clear the freshness table in .agent-state/'
            cand sessions 'List or kill the exec-command sessions of this workspace, or stop their server'
            cand sandbox 'Say what this machine enforces of the exec sandbox'
            cand rules 'Check the allow/ask/deny rules: which rule decides a call, and why'
            cand trace 'Read the call trace ([trace] file or AGTOOL_TRACE)'
            cand lsp 'Show or stop the language servers kept warm for this workspace''s diagnostics'
            cand completions 'Print shell completions (bash, zsh, fish, elvish, powershell)'
            cand man 'Print the manual page (roff)'
            cand session-server 'Run the exec session server for a state folder (started on demand)'
            cand session-guard 'Run a session''s command and end its whole tree when the session server dies'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'agtool;read-file'= {
            cand --paths 'Instead of path: several files (or glob patterns such as "src/*.rs"), read in one call, each with its own [path#TAG] header; at most 50 files'
            cand --pages 'PDF pages to show: "3", "3-5" or "3-" (default the first 20)'
            cand --offset 'First line to show, 1-based (default 1); for a notebook, the first cell'
            cand --limit 'Most lines to show (default 2000); for a notebook, most cells'
            cand --mode 'slice (default) or indentation'
            cand --indentation 'Indentation-mode options (an object; given as JSON on the command line)'
            cand --anchors 'Print each line as `<n>:<hh>|text`: the anchors edit_lines takes (default false)'
            cand --tail 'Show the last N lines instead, e.g. 400 (cannot be combined with offset)'
            cand --args 'All arguments as one JSON object (- reads it from stdin, @FILE from a file)'
            cand --root 'Workspace root [env: AGTOOL_ROOT] (default: nearest .agent-state/, then .git, then the current directory)'
            cand --agent 'Agent identity keying the freshness table [env: AGTOOL_AGENT] [default: default]'
            cand --config 'Extra configuration file layered over the others [env: AGTOOL_CONFIG]'
            cand --groups 'Tool groups enabled for call, schema and mcp, e.g. files,edit or all [env: AGTOOL_GROUPS]'
            cand --color 'Colour for people (dry-run diffs, sessions list): auto, always or never; auto is off with NO_COLOR, on with CLICOLOR_FORCE; call and --json never colour'
            cand --timeout-ms 'Override every tool''s default timeout, in milliseconds'
            cand --notes-dir 'The notes store [default: .agent-state/notes, or config notes.dir]'
            cand --skills-dir 'A folder of skills, one subfolder with a SKILL.md each; repeatable, searched in order [env: AGTOOL_SKILLS, colon-separated]'
            cand --json 'Print one JSON object {ok, output, error, ...} instead of text'
            cand --no-freshness 'Turn the freshness gate off [env: AGTOOL_FRESHNESS=off]'
            cand --no-syntax-check 'Turn the syntax gate off [env: AGTOOL_SYNTAX_CHECK=off]'
            cand --approved 'The host''s user approved this call: an ask rule lets it run (after exit status 3, Approval needed)'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
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
            cand --groups 'Tool groups enabled for call, schema and mcp, e.g. files,edit or all [env: AGTOOL_GROUPS]'
            cand --color 'Colour for people (dry-run diffs, sessions list): auto, always or never; auto is off with NO_COLOR, on with CLICOLOR_FORCE; call and --json never colour'
            cand --timeout-ms 'Override every tool''s default timeout, in milliseconds'
            cand --notes-dir 'The notes store [default: .agent-state/notes, or config notes.dir]'
            cand --skills-dir 'A folder of skills, one subfolder with a SKILL.md each; repeatable, searched in order [env: AGTOOL_SKILLS, colon-separated]'
            cand --json 'Print one JSON object {ok, output, error, ...} instead of text'
            cand --no-freshness 'Turn the freshness gate off [env: AGTOOL_FRESHNESS=off]'
            cand --no-syntax-check 'Turn the syntax gate off [env: AGTOOL_SYNTAX_CHECK=off]'
            cand --approved 'The host''s user approved this call: an ask rule lets it run (after exit status 3, Approval needed)'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'agtool;glob'= {
            cand --limit 'Most paths to show (default 100, at most 2000)'
            cand --hidden 'Include hidden files and folders (default false)'
            cand --ignored 'Include files matched by .gitignore/.ignore rules (default false)'
            cand --args 'All arguments as one JSON object (- reads it from stdin, @FILE from a file)'
            cand --root 'Workspace root [env: AGTOOL_ROOT] (default: nearest .agent-state/, then .git, then the current directory)'
            cand --agent 'Agent identity keying the freshness table [env: AGTOOL_AGENT] [default: default]'
            cand --config 'Extra configuration file layered over the others [env: AGTOOL_CONFIG]'
            cand --groups 'Tool groups enabled for call, schema and mcp, e.g. files,edit or all [env: AGTOOL_GROUPS]'
            cand --color 'Colour for people (dry-run diffs, sessions list): auto, always or never; auto is off with NO_COLOR, on with CLICOLOR_FORCE; call and --json never colour'
            cand --timeout-ms 'Override every tool''s default timeout, in milliseconds'
            cand --notes-dir 'The notes store [default: .agent-state/notes, or config notes.dir]'
            cand --skills-dir 'A folder of skills, one subfolder with a SKILL.md each; repeatable, searched in order [env: AGTOOL_SKILLS, colon-separated]'
            cand --json 'Print one JSON object {ok, output, error, ...} instead of text'
            cand --no-freshness 'Turn the freshness gate off [env: AGTOOL_FRESHNESS=off]'
            cand --no-syntax-check 'Turn the syntax gate off [env: AGTOOL_SYNTAX_CHECK=off]'
            cand --approved 'The host''s user approved this call: an ask rule lets it run (after exit status 3, Approval needed)'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'agtool;grep'= {
            cand --include 'Only search files whose names match this glob, e.g. "*.rs" or "*.{ts,tsx}"'
            cand --limit 'Most files (files/count output) or matching lines (content output) to show (default 100, at most 2000)'
            cand --case 'smart (default: case-insensitive unless the pattern has an upper-case letter), sensitive or insensitive'
            cand --fixed-strings 'Treat the pattern as a literal string, not a regex (default false)'
            cand --output 'files (default: matching paths, newest first), content (matching lines) or count (matching lines per file)'
            cand --context 'Lines of context before and after each match, content output only (default 0)'
            cand --multiline 'Let matches span lines; `.` then also matches a newline (default false)'
            cand --hidden 'Search hidden files and folders too (default false)'
            cand --ignored 'Search files matched by .gitignore/.ignore rules too (default false)'
            cand --names 'Also list files whose names contain the pattern, in a section after the hits (default true; scripts that parse `path:line:text` or `path:count` pass false)'
            cand --args 'All arguments as one JSON object (- reads it from stdin, @FILE from a file)'
            cand --root 'Workspace root [env: AGTOOL_ROOT] (default: nearest .agent-state/, then .git, then the current directory)'
            cand --agent 'Agent identity keying the freshness table [env: AGTOOL_AGENT] [default: default]'
            cand --config 'Extra configuration file layered over the others [env: AGTOOL_CONFIG]'
            cand --groups 'Tool groups enabled for call, schema and mcp, e.g. files,edit or all [env: AGTOOL_GROUPS]'
            cand --color 'Colour for people (dry-run diffs, sessions list): auto, always or never; auto is off with NO_COLOR, on with CLICOLOR_FORCE; call and --json never colour'
            cand --timeout-ms 'Override every tool''s default timeout, in milliseconds'
            cand --notes-dir 'The notes store [default: .agent-state/notes, or config notes.dir]'
            cand --skills-dir 'A folder of skills, one subfolder with a SKILL.md each; repeatable, searched in order [env: AGTOOL_SKILLS, colon-separated]'
            cand --json 'Print one JSON object {ok, output, error, ...} instead of text'
            cand --no-freshness 'Turn the freshness gate off [env: AGTOOL_FRESHNESS=off]'
            cand --no-syntax-check 'Turn the syntax gate off [env: AGTOOL_SYNTAX_CHECK=off]'
            cand --approved 'The host''s user approved this call: an ask rule lets it run (after exit status 3, Approval needed)'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'agtool;diagnostics'= {
            cand --args 'All arguments as one JSON object (- reads it from stdin, @FILE from a file)'
            cand --root 'Workspace root [env: AGTOOL_ROOT] (default: nearest .agent-state/, then .git, then the current directory)'
            cand --agent 'Agent identity keying the freshness table [env: AGTOOL_AGENT] [default: default]'
            cand --config 'Extra configuration file layered over the others [env: AGTOOL_CONFIG]'
            cand --groups 'Tool groups enabled for call, schema and mcp, e.g. files,edit or all [env: AGTOOL_GROUPS]'
            cand --color 'Colour for people (dry-run diffs, sessions list): auto, always or never; auto is off with NO_COLOR, on with CLICOLOR_FORCE; call and --json never colour'
            cand --timeout-ms 'Override every tool''s default timeout, in milliseconds'
            cand --notes-dir 'The notes store [default: .agent-state/notes, or config notes.dir]'
            cand --skills-dir 'A folder of skills, one subfolder with a SKILL.md each; repeatable, searched in order [env: AGTOOL_SKILLS, colon-separated]'
            cand --json 'Print one JSON object {ok, output, error, ...} instead of text'
            cand --no-freshness 'Turn the freshness gate off [env: AGTOOL_FRESHNESS=off]'
            cand --no-syntax-check 'Turn the syntax gate off [env: AGTOOL_SYNTAX_CHECK=off]'
            cand --approved 'The host''s user approved this call: an ask rule lets it run (after exit status 3, Approval needed)'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'agtool;write-file'= {
            cand --content 'The whole new content (CLI: --content, or stdin). Written exactly as given; in an existing file, line breaks take the file''s own line ending and encoding'
            cand --overwrite 'Replace an existing file (default true); false refuses when the file exists'
            cand --expected-mtime 'Refuse unless the file''s modification time is this (RFC 3339, or integer ms since the Unix epoch)'
            cand --expected-size 'Refuse unless the file''s size is this many bytes'
            cand --allow-placeholders 'Write even when the new content adds a placeholder comment such as `// ... rest of code` and drops lines of the old file (default false: refused)'
            cand --check-syntax 'Refuse a write that adds syntax errors (default true)'
            cand --dry-run 'Show the diff, write nothing (default false)'
            cand --args 'All arguments as one JSON object (- reads it from stdin, @FILE from a file)'
            cand --root 'Workspace root [env: AGTOOL_ROOT] (default: nearest .agent-state/, then .git, then the current directory)'
            cand --agent 'Agent identity keying the freshness table [env: AGTOOL_AGENT] [default: default]'
            cand --config 'Extra configuration file layered over the others [env: AGTOOL_CONFIG]'
            cand --groups 'Tool groups enabled for call, schema and mcp, e.g. files,edit or all [env: AGTOOL_GROUPS]'
            cand --color 'Colour for people (dry-run diffs, sessions list): auto, always or never; auto is off with NO_COLOR, on with CLICOLOR_FORCE; call and --json never colour'
            cand --timeout-ms 'Override every tool''s default timeout, in milliseconds'
            cand --notes-dir 'The notes store [default: .agent-state/notes, or config notes.dir]'
            cand --skills-dir 'A folder of skills, one subfolder with a SKILL.md each; repeatable, searched in order [env: AGTOOL_SKILLS, colon-separated]'
            cand --json 'Print one JSON object {ok, output, error, ...} instead of text'
            cand --no-freshness 'Turn the freshness gate off [env: AGTOOL_FRESHNESS=off]'
            cand --no-syntax-check 'Turn the syntax gate off [env: AGTOOL_SYNTAX_CHECK=off]'
            cand --approved 'The host''s user approved this call: an ask rule lets it run (after exit status 3, Approval needed)'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'agtool;edit-file'= {
            cand --old 'The exact text to replace, copied from read-file without the `L<n>: ` prefixes. Must occur exactly once unless all is true'
            cand --new 'The replacement text (may be empty to delete old)'
            cand --all 'Replace every occurrence of old (default false)'
            cand --edits 'Instead of old/new: a list of {old, new, all} edits applied in order to the running result, all or nothing (CLI: a JSON array)'
            cand --allow-placeholders 'Apply even when new adds a placeholder comment such as `// ... existing code` and drops lines of old (default false: refused)'
            cand --check-syntax 'Refuse an edit that adds syntax errors (default true)'
            cand --dry-run 'Show the diff, write nothing (default false)'
            cand --args 'All arguments as one JSON object (- reads it from stdin, @FILE from a file)'
            cand --root 'Workspace root [env: AGTOOL_ROOT] (default: nearest .agent-state/, then .git, then the current directory)'
            cand --agent 'Agent identity keying the freshness table [env: AGTOOL_AGENT] [default: default]'
            cand --config 'Extra configuration file layered over the others [env: AGTOOL_CONFIG]'
            cand --groups 'Tool groups enabled for call, schema and mcp, e.g. files,edit or all [env: AGTOOL_GROUPS]'
            cand --color 'Colour for people (dry-run diffs, sessions list): auto, always or never; auto is off with NO_COLOR, on with CLICOLOR_FORCE; call and --json never colour'
            cand --timeout-ms 'Override every tool''s default timeout, in milliseconds'
            cand --notes-dir 'The notes store [default: .agent-state/notes, or config notes.dir]'
            cand --skills-dir 'A folder of skills, one subfolder with a SKILL.md each; repeatable, searched in order [env: AGTOOL_SKILLS, colon-separated]'
            cand --json 'Print one JSON object {ok, output, error, ...} instead of text'
            cand --no-freshness 'Turn the freshness gate off [env: AGTOOL_FRESHNESS=off]'
            cand --no-syntax-check 'Turn the syntax gate off [env: AGTOOL_SYNTAX_CHECK=off]'
            cand --approved 'The host''s user approved this call: an ask rule lets it run (after exit status 3, Approval needed)'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'agtool;edit-lines'= {
            cand --edits 'The edits: each {path, from_anchor, to_anchor?, replace} or {path, after_anchor, insert} (CLI: a JSON array)'
            cand --check-syntax 'Refuse edits that add syntax errors (default true)'
            cand --dry-run 'Show the diff, write nothing (default false)'
            cand --args 'All arguments as one JSON object (- reads it from stdin, @FILE from a file)'
            cand --root 'Workspace root [env: AGTOOL_ROOT] (default: nearest .agent-state/, then .git, then the current directory)'
            cand --agent 'Agent identity keying the freshness table [env: AGTOOL_AGENT] [default: default]'
            cand --config 'Extra configuration file layered over the others [env: AGTOOL_CONFIG]'
            cand --groups 'Tool groups enabled for call, schema and mcp, e.g. files,edit or all [env: AGTOOL_GROUPS]'
            cand --color 'Colour for people (dry-run diffs, sessions list): auto, always or never; auto is off with NO_COLOR, on with CLICOLOR_FORCE; call and --json never colour'
            cand --timeout-ms 'Override every tool''s default timeout, in milliseconds'
            cand --notes-dir 'The notes store [default: .agent-state/notes, or config notes.dir]'
            cand --skills-dir 'A folder of skills, one subfolder with a SKILL.md each; repeatable, searched in order [env: AGTOOL_SKILLS, colon-separated]'
            cand --json 'Print one JSON object {ok, output, error, ...} instead of text'
            cand --no-freshness 'Turn the freshness gate off [env: AGTOOL_FRESHNESS=off]'
            cand --no-syntax-check 'Turn the syntax gate off [env: AGTOOL_SYNTAX_CHECK=off]'
            cand --approved 'The host''s user approved this call: an ask rule lets it run (after exit status 3, Approval needed)'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'agtool;apply-patch'= {
            cand --input 'The patch text, from `*** Begin Patch` to `*** End Patch`. CLI: stdin, or `--input FILE` to read it from a file'
            cand --allow-placeholders 'Apply even when an Update adds a placeholder comment such as `// ... existing code` and removes lines (default false: refused)'
            cand --check-syntax 'Refuse a patch that adds syntax errors to a file (default true)'
            cand --dry-run 'Show the unified diff of every file, write nothing (default false)'
            cand --args 'All arguments as one JSON object (- reads it from stdin, @FILE from a file)'
            cand --root 'Workspace root [env: AGTOOL_ROOT] (default: nearest .agent-state/, then .git, then the current directory)'
            cand --agent 'Agent identity keying the freshness table [env: AGTOOL_AGENT] [default: default]'
            cand --config 'Extra configuration file layered over the others [env: AGTOOL_CONFIG]'
            cand --groups 'Tool groups enabled for call, schema and mcp, e.g. files,edit or all [env: AGTOOL_GROUPS]'
            cand --color 'Colour for people (dry-run diffs, sessions list): auto, always or never; auto is off with NO_COLOR, on with CLICOLOR_FORCE; call and --json never colour'
            cand --timeout-ms 'Override every tool''s default timeout, in milliseconds'
            cand --notes-dir 'The notes store [default: .agent-state/notes, or config notes.dir]'
            cand --skills-dir 'A folder of skills, one subfolder with a SKILL.md each; repeatable, searched in order [env: AGTOOL_SKILLS, colon-separated]'
            cand --json 'Print one JSON object {ok, output, error, ...} instead of text'
            cand --no-freshness 'Turn the freshness gate off [env: AGTOOL_FRESHNESS=off]'
            cand --no-syntax-check 'Turn the syntax gate off [env: AGTOOL_SYNTAX_CHECK=off]'
            cand --approved 'The host''s user approved this call: an ask rule lets it run (after exit status 3, Approval needed)'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'agtool;notebook-edit'= {
            cand --cell 'The cell: its id, or its number as read_file shows it (`[cell 3 · ...]`, from 1)'
            cand --action 'replace (default), insert_after, insert_before or delete'
            cand --source 'The cell''s new source (replace, insert_*), without line-number prefixes'
            cand --cell-type 'code, markdown or raw: the new cell''s type (default code), or a replaced cell''s new type (default: unchanged)'
            cand --allow-placeholders 'Apply even when source adds a placeholder comment such as `# ... existing code` and drops lines of the old source (default false: refused)'
            cand --args 'All arguments as one JSON object (- reads it from stdin, @FILE from a file)'
            cand --root 'Workspace root [env: AGTOOL_ROOT] (default: nearest .agent-state/, then .git, then the current directory)'
            cand --agent 'Agent identity keying the freshness table [env: AGTOOL_AGENT] [default: default]'
            cand --config 'Extra configuration file layered over the others [env: AGTOOL_CONFIG]'
            cand --groups 'Tool groups enabled for call, schema and mcp, e.g. files,edit or all [env: AGTOOL_GROUPS]'
            cand --color 'Colour for people (dry-run diffs, sessions list): auto, always or never; auto is off with NO_COLOR, on with CLICOLOR_FORCE; call and --json never colour'
            cand --timeout-ms 'Override every tool''s default timeout, in milliseconds'
            cand --notes-dir 'The notes store [default: .agent-state/notes, or config notes.dir]'
            cand --skills-dir 'A folder of skills, one subfolder with a SKILL.md each; repeatable, searched in order [env: AGTOOL_SKILLS, colon-separated]'
            cand --json 'Print one JSON object {ok, output, error, ...} instead of text'
            cand --no-freshness 'Turn the freshness gate off [env: AGTOOL_FRESHNESS=off]'
            cand --no-syntax-check 'Turn the syntax gate off [env: AGTOOL_SYNTAX_CHECK=off]'
            cand --approved 'The host''s user approved this call: an ask rule lets it run (after exit status 3, Approval needed)'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'agtool;move-path'= {
            cand --overwrite 'Replace an existing file or symlink at the destination (default false). A replaced file needs a current read_file of it; a folder is never replaced'
            cand --dry-run 'Say what would be moved, move nothing (default false)'
            cand --args 'All arguments as one JSON object (- reads it from stdin, @FILE from a file)'
            cand --root 'Workspace root [env: AGTOOL_ROOT] (default: nearest .agent-state/, then .git, then the current directory)'
            cand --agent 'Agent identity keying the freshness table [env: AGTOOL_AGENT] [default: default]'
            cand --config 'Extra configuration file layered over the others [env: AGTOOL_CONFIG]'
            cand --groups 'Tool groups enabled for call, schema and mcp, e.g. files,edit or all [env: AGTOOL_GROUPS]'
            cand --color 'Colour for people (dry-run diffs, sessions list): auto, always or never; auto is off with NO_COLOR, on with CLICOLOR_FORCE; call and --json never colour'
            cand --timeout-ms 'Override every tool''s default timeout, in milliseconds'
            cand --notes-dir 'The notes store [default: .agent-state/notes, or config notes.dir]'
            cand --skills-dir 'A folder of skills, one subfolder with a SKILL.md each; repeatable, searched in order [env: AGTOOL_SKILLS, colon-separated]'
            cand --json 'Print one JSON object {ok, output, error, ...} instead of text'
            cand --no-freshness 'Turn the freshness gate off [env: AGTOOL_FRESHNESS=off]'
            cand --no-syntax-check 'Turn the syntax gate off [env: AGTOOL_SYNTAX_CHECK=off]'
            cand --approved 'The host''s user approved this call: an ask rule lets it run (after exit status 3, Approval needed)'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'agtool;copy-path'= {
            cand --overwrite 'Replace an existing file or symlink at the destination (default false). A replaced file needs a current read_file of it; a folder is never replaced'
            cand --recursive 'Copy a folder and everything in it (default false; needed for any folder)'
            cand --dry-run 'Say what would be copied, copy nothing (default false)'
            cand --args 'All arguments as one JSON object (- reads it from stdin, @FILE from a file)'
            cand --root 'Workspace root [env: AGTOOL_ROOT] (default: nearest .agent-state/, then .git, then the current directory)'
            cand --agent 'Agent identity keying the freshness table [env: AGTOOL_AGENT] [default: default]'
            cand --config 'Extra configuration file layered over the others [env: AGTOOL_CONFIG]'
            cand --groups 'Tool groups enabled for call, schema and mcp, e.g. files,edit or all [env: AGTOOL_GROUPS]'
            cand --color 'Colour for people (dry-run diffs, sessions list): auto, always or never; auto is off with NO_COLOR, on with CLICOLOR_FORCE; call and --json never colour'
            cand --timeout-ms 'Override every tool''s default timeout, in milliseconds'
            cand --notes-dir 'The notes store [default: .agent-state/notes, or config notes.dir]'
            cand --skills-dir 'A folder of skills, one subfolder with a SKILL.md each; repeatable, searched in order [env: AGTOOL_SKILLS, colon-separated]'
            cand --json 'Print one JSON object {ok, output, error, ...} instead of text'
            cand --no-freshness 'Turn the freshness gate off [env: AGTOOL_FRESHNESS=off]'
            cand --no-syntax-check 'Turn the syntax gate off [env: AGTOOL_SYNTAX_CHECK=off]'
            cand --approved 'The host''s user approved this call: an ask rule lets it run (after exit status 3, Approval needed)'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'agtool;make-dir'= {
            cand --dry-run 'Say what would be made, make nothing (default false)'
            cand --args 'All arguments as one JSON object (- reads it from stdin, @FILE from a file)'
            cand --root 'Workspace root [env: AGTOOL_ROOT] (default: nearest .agent-state/, then .git, then the current directory)'
            cand --agent 'Agent identity keying the freshness table [env: AGTOOL_AGENT] [default: default]'
            cand --config 'Extra configuration file layered over the others [env: AGTOOL_CONFIG]'
            cand --groups 'Tool groups enabled for call, schema and mcp, e.g. files,edit or all [env: AGTOOL_GROUPS]'
            cand --color 'Colour for people (dry-run diffs, sessions list): auto, always or never; auto is off with NO_COLOR, on with CLICOLOR_FORCE; call and --json never colour'
            cand --timeout-ms 'Override every tool''s default timeout, in milliseconds'
            cand --notes-dir 'The notes store [default: .agent-state/notes, or config notes.dir]'
            cand --skills-dir 'A folder of skills, one subfolder with a SKILL.md each; repeatable, searched in order [env: AGTOOL_SKILLS, colon-separated]'
            cand --json 'Print one JSON object {ok, output, error, ...} instead of text'
            cand --no-freshness 'Turn the freshness gate off [env: AGTOOL_FRESHNESS=off]'
            cand --no-syntax-check 'Turn the syntax gate off [env: AGTOOL_SYNTAX_CHECK=off]'
            cand --approved 'The host''s user approved this call: an ask rule lets it run (after exit status 3, Approval needed)'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'agtool;delete-path'= {
            cand --recursive 'Delete a non-empty directory and everything in it (default false)'
            cand --dry-run 'Say what would be deleted, delete nothing (default false)'
            cand --args 'All arguments as one JSON object (- reads it from stdin, @FILE from a file)'
            cand --root 'Workspace root [env: AGTOOL_ROOT] (default: nearest .agent-state/, then .git, then the current directory)'
            cand --agent 'Agent identity keying the freshness table [env: AGTOOL_AGENT] [default: default]'
            cand --config 'Extra configuration file layered over the others [env: AGTOOL_CONFIG]'
            cand --groups 'Tool groups enabled for call, schema and mcp, e.g. files,edit or all [env: AGTOOL_GROUPS]'
            cand --color 'Colour for people (dry-run diffs, sessions list): auto, always or never; auto is off with NO_COLOR, on with CLICOLOR_FORCE; call and --json never colour'
            cand --timeout-ms 'Override every tool''s default timeout, in milliseconds'
            cand --notes-dir 'The notes store [default: .agent-state/notes, or config notes.dir]'
            cand --skills-dir 'A folder of skills, one subfolder with a SKILL.md each; repeatable, searched in order [env: AGTOOL_SKILLS, colon-separated]'
            cand --json 'Print one JSON object {ok, output, error, ...} instead of text'
            cand --no-freshness 'Turn the freshness gate off [env: AGTOOL_FRESHNESS=off]'
            cand --no-syntax-check 'Turn the syntax gate off [env: AGTOOL_SYNTAX_CHECK=off]'
            cand --approved 'The host''s user approved this call: an ask rule lets it run (after exit status 3, Approval needed)'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'agtool;exec'= {
            cand --workdir 'Working directory (default: the current directory)'
            cand --max-output-bytes 'Output budget in bytes: the first half and the last half are kept, the middle is dropped and counted (default 30000)'
            cand --args 'All arguments as one JSON object (- reads it from stdin, @FILE from a file)'
            cand --root 'Workspace root [env: AGTOOL_ROOT] (default: nearest .agent-state/, then .git, then the current directory)'
            cand --agent 'Agent identity keying the freshness table [env: AGTOOL_AGENT] [default: default]'
            cand --config 'Extra configuration file layered over the others [env: AGTOOL_CONFIG]'
            cand --groups 'Tool groups enabled for call, schema and mcp, e.g. files,edit or all [env: AGTOOL_GROUPS]'
            cand --color 'Colour for people (dry-run diffs, sessions list): auto, always or never; auto is off with NO_COLOR, on with CLICOLOR_FORCE; call and --json never colour'
            cand --timeout-ms 'Override every tool''s default timeout, in milliseconds'
            cand --notes-dir 'The notes store [default: .agent-state/notes, or config notes.dir]'
            cand --skills-dir 'A folder of skills, one subfolder with a SKILL.md each; repeatable, searched in order [env: AGTOOL_SKILLS, colon-separated]'
            cand --exit-code 'CLI only: exit with the command''s exit code instead of 0'
            cand --json 'Print one JSON object {ok, output, error, ...} instead of text'
            cand --no-freshness 'Turn the freshness gate off [env: AGTOOL_FRESHNESS=off]'
            cand --no-syntax-check 'Turn the syntax gate off [env: AGTOOL_SYNTAX_CHECK=off]'
            cand --approved 'The host''s user approved this call: an ask rule lets it run (after exit status 3, Approval needed)'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'agtool;exec-command'= {
            cand --workdir 'Working directory (default: the current directory)'
            cand --shell 'The shell (default: config exec.shell, else /bin/bash)'
            cand --login 'Run the shell as a login shell (-lc instead of -c; default false)'
            cand --yield-time-ms 'How long to wait for output before returning, in ms (default 10000; 250..30000). The call returns earlier when the command exits'
            cand --max-output-tokens 'Output budget in tokens, 4 bytes each (default 10000); longer output keeps its head and tail'
            cand --args 'All arguments as one JSON object (- reads it from stdin, @FILE from a file)'
            cand --root 'Workspace root [env: AGTOOL_ROOT] (default: nearest .agent-state/, then .git, then the current directory)'
            cand --agent 'Agent identity keying the freshness table [env: AGTOOL_AGENT] [default: default]'
            cand --config 'Extra configuration file layered over the others [env: AGTOOL_CONFIG]'
            cand --groups 'Tool groups enabled for call, schema and mcp, e.g. files,edit or all [env: AGTOOL_GROUPS]'
            cand --color 'Colour for people (dry-run diffs, sessions list): auto, always or never; auto is off with NO_COLOR, on with CLICOLOR_FORCE; call and --json never colour'
            cand --timeout-ms 'Override every tool''s default timeout, in milliseconds'
            cand --notes-dir 'The notes store [default: .agent-state/notes, or config notes.dir]'
            cand --skills-dir 'A folder of skills, one subfolder with a SKILL.md each; repeatable, searched in order [env: AGTOOL_SKILLS, colon-separated]'
            cand --json 'Print one JSON object {ok, output, error, ...} instead of text'
            cand --no-freshness 'Turn the freshness gate off [env: AGTOOL_FRESHNESS=off]'
            cand --no-syntax-check 'Turn the syntax gate off [env: AGTOOL_SYNTAX_CHECK=off]'
            cand --approved 'The host''s user approved this call: an ask rule lets it run (after exit status 3, Approval needed)'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'agtool;write-stdin'= {
            cand --chars 'Text for the process''s stdin, as is (escapes are not decoded: --chars $''ls\n''; Ctrl-C is $''\x03''); default: read from stdin when piped, else only poll'
            cand --yield-time-ms 'How long to wait for output, in ms (default 250; 250..30000 after a write; an empty poll waits 5000..300000). The call returns earlier when the process exits'
            cand --max-output-tokens 'Output budget in tokens, 4 bytes each (default 10000)'
            cand --args 'All arguments as one JSON object (- reads it from stdin, @FILE from a file)'
            cand --root 'Workspace root [env: AGTOOL_ROOT] (default: nearest .agent-state/, then .git, then the current directory)'
            cand --agent 'Agent identity keying the freshness table [env: AGTOOL_AGENT] [default: default]'
            cand --config 'Extra configuration file layered over the others [env: AGTOOL_CONFIG]'
            cand --groups 'Tool groups enabled for call, schema and mcp, e.g. files,edit or all [env: AGTOOL_GROUPS]'
            cand --color 'Colour for people (dry-run diffs, sessions list): auto, always or never; auto is off with NO_COLOR, on with CLICOLOR_FORCE; call and --json never colour'
            cand --timeout-ms 'Override every tool''s default timeout, in milliseconds'
            cand --notes-dir 'The notes store [default: .agent-state/notes, or config notes.dir]'
            cand --skills-dir 'A folder of skills, one subfolder with a SKILL.md each; repeatable, searched in order [env: AGTOOL_SKILLS, colon-separated]'
            cand --json 'Print one JSON object {ok, output, error, ...} instead of text'
            cand --no-freshness 'Turn the freshness gate off [env: AGTOOL_FRESHNESS=off]'
            cand --no-syntax-check 'Turn the syntax gate off [env: AGTOOL_SYNTAX_CHECK=off]'
            cand --approved 'The host''s user approved this call: an ask rule lets it run (after exit status 3, Approval needed)'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'agtool;web-fetch'= {
            cand --max-chars 'Most characters to return (default 40000, at most 200000)'
            cand --start-index 'Character offset to start at, to continue a long page (default 0). With a value above 0 the text comes from the copy kept by the earlier call, so the pages join exactly; 0 always fetches afresh'
            cand --raw 'Return the page''s decoded text as it is, without converting HTML to text (default false)'
            cand --args 'All arguments as one JSON object (- reads it from stdin, @FILE from a file)'
            cand --root 'Workspace root [env: AGTOOL_ROOT] (default: nearest .agent-state/, then .git, then the current directory)'
            cand --agent 'Agent identity keying the freshness table [env: AGTOOL_AGENT] [default: default]'
            cand --config 'Extra configuration file layered over the others [env: AGTOOL_CONFIG]'
            cand --groups 'Tool groups enabled for call, schema and mcp, e.g. files,edit or all [env: AGTOOL_GROUPS]'
            cand --color 'Colour for people (dry-run diffs, sessions list): auto, always or never; auto is off with NO_COLOR, on with CLICOLOR_FORCE; call and --json never colour'
            cand --timeout-ms 'Override every tool''s default timeout, in milliseconds'
            cand --notes-dir 'The notes store [default: .agent-state/notes, or config notes.dir]'
            cand --skills-dir 'A folder of skills, one subfolder with a SKILL.md each; repeatable, searched in order [env: AGTOOL_SKILLS, colon-separated]'
            cand --json 'Print one JSON object {ok, output, error, ...} instead of text'
            cand --no-freshness 'Turn the freshness gate off [env: AGTOOL_FRESHNESS=off]'
            cand --no-syntax-check 'Turn the syntax gate off [env: AGTOOL_SYNTAX_CHECK=off]'
            cand --approved 'The host''s user approved this call: an ask rule lets it run (after exit status 3, Approval needed)'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'agtool;skill'= {
            cand --args 'All arguments as one JSON object (- reads it from stdin, @FILE from a file)'
            cand --root 'Workspace root [env: AGTOOL_ROOT] (default: nearest .agent-state/, then .git, then the current directory)'
            cand --agent 'Agent identity keying the freshness table [env: AGTOOL_AGENT] [default: default]'
            cand --config 'Extra configuration file layered over the others [env: AGTOOL_CONFIG]'
            cand --groups 'Tool groups enabled for call, schema and mcp, e.g. files,edit or all [env: AGTOOL_GROUPS]'
            cand --color 'Colour for people (dry-run diffs, sessions list): auto, always or never; auto is off with NO_COLOR, on with CLICOLOR_FORCE; call and --json never colour'
            cand --timeout-ms 'Override every tool''s default timeout, in milliseconds'
            cand --notes-dir 'The notes store [default: .agent-state/notes, or config notes.dir]'
            cand --skills-dir 'A folder of skills, one subfolder with a SKILL.md each; repeatable, searched in order [env: AGTOOL_SKILLS, colon-separated]'
            cand --json 'Print one JSON object {ok, output, error, ...} instead of text'
            cand --no-freshness 'Turn the freshness gate off [env: AGTOOL_FRESHNESS=off]'
            cand --no-syntax-check 'Turn the syntax gate off [env: AGTOOL_SYNTAX_CHECK=off]'
            cand --approved 'The host''s user approved this call: an ask rule lets it run (after exit status 3, Approval needed)'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'agtool;notes'= {
            cand --root 'Workspace root [env: AGTOOL_ROOT] (default: nearest .agent-state/, then .git, then the current directory)'
            cand --agent 'Agent identity keying the freshness table [env: AGTOOL_AGENT] [default: default]'
            cand --config 'Extra configuration file layered over the others [env: AGTOOL_CONFIG]'
            cand --groups 'Tool groups enabled for call, schema and mcp, e.g. files,edit or all [env: AGTOOL_GROUPS]'
            cand --color 'Colour for people (dry-run diffs, sessions list): auto, always or never; auto is off with NO_COLOR, on with CLICOLOR_FORCE; call and --json never colour'
            cand --timeout-ms 'Override every tool''s default timeout, in milliseconds'
            cand --notes-dir 'The notes store [default: .agent-state/notes, or config notes.dir]'
            cand --skills-dir 'A folder of skills, one subfolder with a SKILL.md each; repeatable, searched in order [env: AGTOOL_SKILLS, colon-separated]'
            cand --json 'Print one JSON object {ok, output, error, ...} instead of text'
            cand --no-freshness 'Turn the freshness gate off [env: AGTOOL_FRESHNESS=off]'
            cand --no-syntax-check 'Turn the syntax gate off [env: AGTOOL_SYNTAX_CHECK=off]'
            cand --approved 'The host''s user approved this call: an ask rule lets it run (after exit status 3, Approval needed)'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand list 'List the notes kept for this workspace, newest first.'
            cand read 'Read one note kept for this workspace.'
            cand write 'Save a note for later sessions in this workspace, or append to one.'
            cand delete 'Delete one note kept for this workspace.'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'agtool;notes;list'= {
            cand --query 'Only notes whose name or text contains this (any letter case)'
            cand --args 'All arguments as one JSON object (- reads it from stdin, @FILE from a file)'
            cand --root 'Workspace root [env: AGTOOL_ROOT] (default: nearest .agent-state/, then .git, then the current directory)'
            cand --agent 'Agent identity keying the freshness table [env: AGTOOL_AGENT] [default: default]'
            cand --config 'Extra configuration file layered over the others [env: AGTOOL_CONFIG]'
            cand --groups 'Tool groups enabled for call, schema and mcp, e.g. files,edit or all [env: AGTOOL_GROUPS]'
            cand --color 'Colour for people (dry-run diffs, sessions list): auto, always or never; auto is off with NO_COLOR, on with CLICOLOR_FORCE; call and --json never colour'
            cand --timeout-ms 'Override every tool''s default timeout, in milliseconds'
            cand --notes-dir 'The notes store [default: .agent-state/notes, or config notes.dir]'
            cand --skills-dir 'A folder of skills, one subfolder with a SKILL.md each; repeatable, searched in order [env: AGTOOL_SKILLS, colon-separated]'
            cand --json 'Print one JSON object {ok, output, error, ...} instead of text'
            cand --no-freshness 'Turn the freshness gate off [env: AGTOOL_FRESHNESS=off]'
            cand --no-syntax-check 'Turn the syntax gate off [env: AGTOOL_SYNTAX_CHECK=off]'
            cand --approved 'The host''s user approved this call: an ask rule lets it run (after exit status 3, Approval needed)'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'agtool;notes;read'= {
            cand --args 'All arguments as one JSON object (- reads it from stdin, @FILE from a file)'
            cand --root 'Workspace root [env: AGTOOL_ROOT] (default: nearest .agent-state/, then .git, then the current directory)'
            cand --agent 'Agent identity keying the freshness table [env: AGTOOL_AGENT] [default: default]'
            cand --config 'Extra configuration file layered over the others [env: AGTOOL_CONFIG]'
            cand --groups 'Tool groups enabled for call, schema and mcp, e.g. files,edit or all [env: AGTOOL_GROUPS]'
            cand --color 'Colour for people (dry-run diffs, sessions list): auto, always or never; auto is off with NO_COLOR, on with CLICOLOR_FORCE; call and --json never colour'
            cand --timeout-ms 'Override every tool''s default timeout, in milliseconds'
            cand --notes-dir 'The notes store [default: .agent-state/notes, or config notes.dir]'
            cand --skills-dir 'A folder of skills, one subfolder with a SKILL.md each; repeatable, searched in order [env: AGTOOL_SKILLS, colon-separated]'
            cand --json 'Print one JSON object {ok, output, error, ...} instead of text'
            cand --no-freshness 'Turn the freshness gate off [env: AGTOOL_FRESHNESS=off]'
            cand --no-syntax-check 'Turn the syntax gate off [env: AGTOOL_SYNTAX_CHECK=off]'
            cand --approved 'The host''s user approved this call: an ask rule lets it run (after exit status 3, Approval needed)'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'agtool;notes;write'= {
            cand --content 'The text (CLI: --content, or stdin). Replaces the note, or is added at its end with append. A final newline is added when missing'
            cand --append 'Add the content at the end of the existing note, on a new line, instead of replacing it (default false)'
            cand --args 'All arguments as one JSON object (- reads it from stdin, @FILE from a file)'
            cand --root 'Workspace root [env: AGTOOL_ROOT] (default: nearest .agent-state/, then .git, then the current directory)'
            cand --agent 'Agent identity keying the freshness table [env: AGTOOL_AGENT] [default: default]'
            cand --config 'Extra configuration file layered over the others [env: AGTOOL_CONFIG]'
            cand --groups 'Tool groups enabled for call, schema and mcp, e.g. files,edit or all [env: AGTOOL_GROUPS]'
            cand --color 'Colour for people (dry-run diffs, sessions list): auto, always or never; auto is off with NO_COLOR, on with CLICOLOR_FORCE; call and --json never colour'
            cand --timeout-ms 'Override every tool''s default timeout, in milliseconds'
            cand --notes-dir 'The notes store [default: .agent-state/notes, or config notes.dir]'
            cand --skills-dir 'A folder of skills, one subfolder with a SKILL.md each; repeatable, searched in order [env: AGTOOL_SKILLS, colon-separated]'
            cand --json 'Print one JSON object {ok, output, error, ...} instead of text'
            cand --no-freshness 'Turn the freshness gate off [env: AGTOOL_FRESHNESS=off]'
            cand --no-syntax-check 'Turn the syntax gate off [env: AGTOOL_SYNTAX_CHECK=off]'
            cand --approved 'The host''s user approved this call: an ask rule lets it run (after exit status 3, Approval needed)'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'agtool;notes;delete'= {
            cand --args 'All arguments as one JSON object (- reads it from stdin, @FILE from a file)'
            cand --root 'Workspace root [env: AGTOOL_ROOT] (default: nearest .agent-state/, then .git, then the current directory)'
            cand --agent 'Agent identity keying the freshness table [env: AGTOOL_AGENT] [default: default]'
            cand --config 'Extra configuration file layered over the others [env: AGTOOL_CONFIG]'
            cand --groups 'Tool groups enabled for call, schema and mcp, e.g. files,edit or all [env: AGTOOL_GROUPS]'
            cand --color 'Colour for people (dry-run diffs, sessions list): auto, always or never; auto is off with NO_COLOR, on with CLICOLOR_FORCE; call and --json never colour'
            cand --timeout-ms 'Override every tool''s default timeout, in milliseconds'
            cand --notes-dir 'The notes store [default: .agent-state/notes, or config notes.dir]'
            cand --skills-dir 'A folder of skills, one subfolder with a SKILL.md each; repeatable, searched in order [env: AGTOOL_SKILLS, colon-separated]'
            cand --json 'Print one JSON object {ok, output, error, ...} instead of text'
            cand --no-freshness 'Turn the freshness gate off [env: AGTOOL_FRESHNESS=off]'
            cand --no-syntax-check 'Turn the syntax gate off [env: AGTOOL_SYNTAX_CHECK=off]'
            cand --approved 'The host''s user approved this call: an ask rule lets it run (after exit status 3, Approval needed)'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'agtool;notes;help'= {
            cand list 'List the notes kept for this workspace, newest first.'
            cand read 'Read one note kept for this workspace.'
            cand write 'Save a note for later sessions in this workspace, or append to one.'
            cand delete 'Delete one note kept for this workspace.'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'agtool;notes;help;list'= {
        }
        &'agtool;notes;help;read'= {
        }
        &'agtool;notes;help;write'= {
        }
        &'agtool;notes;help;delete'= {
        }
        &'agtool;notes;help;help'= {
        }
        &'agtool;schema'= {
            cand --format 'The API whose tool shape to print'
            cand --root 'Workspace root [env: AGTOOL_ROOT] (default: nearest .agent-state/, then .git, then the current directory)'
            cand --agent 'Agent identity keying the freshness table [env: AGTOOL_AGENT] [default: default]'
            cand --config 'Extra configuration file layered over the others [env: AGTOOL_CONFIG]'
            cand --groups 'Tool groups enabled for call, schema and mcp, e.g. files,edit or all [env: AGTOOL_GROUPS]'
            cand --color 'Colour for people (dry-run diffs, sessions list): auto, always or never; auto is off with NO_COLOR, on with CLICOLOR_FORCE; call and --json never colour'
            cand --timeout-ms 'Override every tool''s default timeout, in milliseconds'
            cand --notes-dir 'The notes store [default: .agent-state/notes, or config notes.dir]'
            cand --skills-dir 'A folder of skills, one subfolder with a SKILL.md each; repeatable, searched in order [env: AGTOOL_SKILLS, colon-separated]'
            cand --strict 'OpenAI strict mode: every property required (optional ones nullable), no extra keys, constraints in the descriptions'
            cand --extensions 'Add agtool''s own metadata as "x-agtool" (group, sensitive, serial, timeout_ms, idempotent, tags); APIs reject it'
            cand --no-extensions 'no-extensions'
            cand --json 'Print one JSON object {ok, output, error, ...} instead of text'
            cand --no-freshness 'Turn the freshness gate off [env: AGTOOL_FRESHNESS=off]'
            cand --no-syntax-check 'Turn the syntax gate off [env: AGTOOL_SYNTAX_CHECK=off]'
            cand --approved 'The host''s user approved this call: an ask rule lets it run (after exit status 3, Approval needed)'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'agtool;call'= {
            cand --root 'Workspace root [env: AGTOOL_ROOT] (default: nearest .agent-state/, then .git, then the current directory)'
            cand --agent 'Agent identity keying the freshness table [env: AGTOOL_AGENT] [default: default]'
            cand --config 'Extra configuration file layered over the others [env: AGTOOL_CONFIG]'
            cand --groups 'Tool groups enabled for call, schema and mcp, e.g. files,edit or all [env: AGTOOL_GROUPS]'
            cand --color 'Colour for people (dry-run diffs, sessions list): auto, always or never; auto is off with NO_COLOR, on with CLICOLOR_FORCE; call and --json never colour'
            cand --timeout-ms 'Override every tool''s default timeout, in milliseconds'
            cand --notes-dir 'The notes store [default: .agent-state/notes, or config notes.dir]'
            cand --skills-dir 'A folder of skills, one subfolder with a SKILL.md each; repeatable, searched in order [env: AGTOOL_SKILLS, colon-separated]'
            cand --batch 'stdin holds a JSON array of envelopes; prints a JSON array of results'
            cand --json 'Print one JSON object {ok, output, error, ...} instead of text'
            cand --no-freshness 'Turn the freshness gate off [env: AGTOOL_FRESHNESS=off]'
            cand --no-syntax-check 'Turn the syntax gate off [env: AGTOOL_SYNTAX_CHECK=off]'
            cand --approved 'The host''s user approved this call: an ask rule lets it run (after exit status 3, Approval needed)'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'agtool;mcp'= {
            cand --http 'Serve MCP over Streamable HTTP on this address (path /mcp) instead of stdio. Without a bearer token only a loopback address is accepted'
            cand --token-file 'With --http: the bearer token clients must send (Authorization: Bearer), read from this file [env: AGTOOL_MCP_TOKEN]'
            cand --root 'Workspace root [env: AGTOOL_ROOT] (default: nearest .agent-state/, then .git, then the current directory)'
            cand --agent 'Agent identity keying the freshness table [env: AGTOOL_AGENT] [default: default]'
            cand --config 'Extra configuration file layered over the others [env: AGTOOL_CONFIG]'
            cand --groups 'Tool groups enabled for call, schema and mcp, e.g. files,edit or all [env: AGTOOL_GROUPS]'
            cand --color 'Colour for people (dry-run diffs, sessions list): auto, always or never; auto is off with NO_COLOR, on with CLICOLOR_FORCE; call and --json never colour'
            cand --timeout-ms 'Override every tool''s default timeout, in milliseconds'
            cand --notes-dir 'The notes store [default: .agent-state/notes, or config notes.dir]'
            cand --skills-dir 'A folder of skills, one subfolder with a SKILL.md each; repeatable, searched in order [env: AGTOOL_SKILLS, colon-separated]'
            cand --json 'Print one JSON object {ok, output, error, ...} instead of text'
            cand --no-freshness 'Turn the freshness gate off [env: AGTOOL_FRESHNESS=off]'
            cand --no-syntax-check 'Turn the syntax gate off [env: AGTOOL_SYNTAX_CHECK=off]'
            cand --approved 'The host''s user approved this call: an ask rule lets it run (after exit status 3, Approval needed)'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'agtool;state'= {
            cand --root 'Workspace root [env: AGTOOL_ROOT] (default: nearest .agent-state/, then .git, then the current directory)'
            cand --agent 'Agent identity keying the freshness table [env: AGTOOL_AGENT] [default: default]'
            cand --config 'Extra configuration file layered over the others [env: AGTOOL_CONFIG]'
            cand --groups 'Tool groups enabled for call, schema and mcp, e.g. files,edit or all [env: AGTOOL_GROUPS]'
            cand --color 'Colour for people (dry-run diffs, sessions list): auto, always or never; auto is off with NO_COLOR, on with CLICOLOR_FORCE; call and --json never colour'
            cand --timeout-ms 'Override every tool''s default timeout, in milliseconds'
            cand --notes-dir 'The notes store [default: .agent-state/notes, or config notes.dir]'
            cand --skills-dir 'A folder of skills, one subfolder with a SKILL.md each; repeatable, searched in order [env: AGTOOL_SKILLS, colon-separated]'
            cand --json 'Print one JSON object {ok, output, error, ...} instead of text'
            cand --no-freshness 'Turn the freshness gate off [env: AGTOOL_FRESHNESS=off]'
            cand --no-syntax-check 'Turn the syntax gate off [env: AGTOOL_SYNTAX_CHECK=off]'
            cand --approved 'The host''s user approved this call: an ask rule lets it run (after exit status 3, Approval needed)'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand show 'List every recorded (agent, path, tag)'
            cand forget 'Forget what every agent read of PATH (a folder: everything under it)'
            cand reset 'Forget everything'
            cand recover 'Roll back writes interrupted by a kill and remove their temp files (every call does this too; this says what it did)'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'agtool;state;show'= {
            cand --root 'Workspace root [env: AGTOOL_ROOT] (default: nearest .agent-state/, then .git, then the current directory)'
            cand --agent 'Agent identity keying the freshness table [env: AGTOOL_AGENT] [default: default]'
            cand --config 'Extra configuration file layered over the others [env: AGTOOL_CONFIG]'
            cand --groups 'Tool groups enabled for call, schema and mcp, e.g. files,edit or all [env: AGTOOL_GROUPS]'
            cand --color 'Colour for people (dry-run diffs, sessions list): auto, always or never; auto is off with NO_COLOR, on with CLICOLOR_FORCE; call and --json never colour'
            cand --timeout-ms 'Override every tool''s default timeout, in milliseconds'
            cand --notes-dir 'The notes store [default: .agent-state/notes, or config notes.dir]'
            cand --skills-dir 'A folder of skills, one subfolder with a SKILL.md each; repeatable, searched in order [env: AGTOOL_SKILLS, colon-separated]'
            cand --json 'Print one JSON object {ok, output, error, ...} instead of text'
            cand --no-freshness 'Turn the freshness gate off [env: AGTOOL_FRESHNESS=off]'
            cand --no-syntax-check 'Turn the syntax gate off [env: AGTOOL_SYNTAX_CHECK=off]'
            cand --approved 'The host''s user approved this call: an ask rule lets it run (after exit status 3, Approval needed)'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'agtool;state;forget'= {
            cand --root 'Workspace root [env: AGTOOL_ROOT] (default: nearest .agent-state/, then .git, then the current directory)'
            cand --agent 'Agent identity keying the freshness table [env: AGTOOL_AGENT] [default: default]'
            cand --config 'Extra configuration file layered over the others [env: AGTOOL_CONFIG]'
            cand --groups 'Tool groups enabled for call, schema and mcp, e.g. files,edit or all [env: AGTOOL_GROUPS]'
            cand --color 'Colour for people (dry-run diffs, sessions list): auto, always or never; auto is off with NO_COLOR, on with CLICOLOR_FORCE; call and --json never colour'
            cand --timeout-ms 'Override every tool''s default timeout, in milliseconds'
            cand --notes-dir 'The notes store [default: .agent-state/notes, or config notes.dir]'
            cand --skills-dir 'A folder of skills, one subfolder with a SKILL.md each; repeatable, searched in order [env: AGTOOL_SKILLS, colon-separated]'
            cand --json 'Print one JSON object {ok, output, error, ...} instead of text'
            cand --no-freshness 'Turn the freshness gate off [env: AGTOOL_FRESHNESS=off]'
            cand --no-syntax-check 'Turn the syntax gate off [env: AGTOOL_SYNTAX_CHECK=off]'
            cand --approved 'The host''s user approved this call: an ask rule lets it run (after exit status 3, Approval needed)'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'agtool;state;reset'= {
            cand --root 'Workspace root [env: AGTOOL_ROOT] (default: nearest .agent-state/, then .git, then the current directory)'
            cand --agent 'Agent identity keying the freshness table [env: AGTOOL_AGENT] [default: default]'
            cand --config 'Extra configuration file layered over the others [env: AGTOOL_CONFIG]'
            cand --groups 'Tool groups enabled for call, schema and mcp, e.g. files,edit or all [env: AGTOOL_GROUPS]'
            cand --color 'Colour for people (dry-run diffs, sessions list): auto, always or never; auto is off with NO_COLOR, on with CLICOLOR_FORCE; call and --json never colour'
            cand --timeout-ms 'Override every tool''s default timeout, in milliseconds'
            cand --notes-dir 'The notes store [default: .agent-state/notes, or config notes.dir]'
            cand --skills-dir 'A folder of skills, one subfolder with a SKILL.md each; repeatable, searched in order [env: AGTOOL_SKILLS, colon-separated]'
            cand --json 'Print one JSON object {ok, output, error, ...} instead of text'
            cand --no-freshness 'Turn the freshness gate off [env: AGTOOL_FRESHNESS=off]'
            cand --no-syntax-check 'Turn the syntax gate off [env: AGTOOL_SYNTAX_CHECK=off]'
            cand --approved 'The host''s user approved this call: an ask rule lets it run (after exit status 3, Approval needed)'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'agtool;state;recover'= {
            cand --root 'Workspace root [env: AGTOOL_ROOT] (default: nearest .agent-state/, then .git, then the current directory)'
            cand --agent 'Agent identity keying the freshness table [env: AGTOOL_AGENT] [default: default]'
            cand --config 'Extra configuration file layered over the others [env: AGTOOL_CONFIG]'
            cand --groups 'Tool groups enabled for call, schema and mcp, e.g. files,edit or all [env: AGTOOL_GROUPS]'
            cand --color 'Colour for people (dry-run diffs, sessions list): auto, always or never; auto is off with NO_COLOR, on with CLICOLOR_FORCE; call and --json never colour'
            cand --timeout-ms 'Override every tool''s default timeout, in milliseconds'
            cand --notes-dir 'The notes store [default: .agent-state/notes, or config notes.dir]'
            cand --skills-dir 'A folder of skills, one subfolder with a SKILL.md each; repeatable, searched in order [env: AGTOOL_SKILLS, colon-separated]'
            cand --json 'Print one JSON object {ok, output, error, ...} instead of text'
            cand --no-freshness 'Turn the freshness gate off [env: AGTOOL_FRESHNESS=off]'
            cand --no-syntax-check 'Turn the syntax gate off [env: AGTOOL_SYNTAX_CHECK=off]'
            cand --approved 'The host''s user approved this call: an ask rule lets it run (after exit status 3, Approval needed)'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'agtool;state;help'= {
            cand show 'List every recorded (agent, path, tag)'
            cand forget 'Forget what every agent read of PATH (a folder: everything under it)'
            cand reset 'Forget everything'
            cand recover 'Roll back writes interrupted by a kill and remove their temp files (every call does this too; this says what it did)'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'agtool;state;help;show'= {
        }
        &'agtool;state;help;forget'= {
        }
        &'agtool;state;help;reset'= {
        }
        &'agtool;state;help;recover'= {
        }
        &'agtool;state;help;help'= {
        }
        &'agtool;sessions'= {
            cand --root 'Workspace root [env: AGTOOL_ROOT] (default: nearest .agent-state/, then .git, then the current directory)'
            cand --agent 'Agent identity keying the freshness table [env: AGTOOL_AGENT] [default: default]'
            cand --config 'Extra configuration file layered over the others [env: AGTOOL_CONFIG]'
            cand --groups 'Tool groups enabled for call, schema and mcp, e.g. files,edit or all [env: AGTOOL_GROUPS]'
            cand --color 'Colour for people (dry-run diffs, sessions list): auto, always or never; auto is off with NO_COLOR, on with CLICOLOR_FORCE; call and --json never colour'
            cand --timeout-ms 'Override every tool''s default timeout, in milliseconds'
            cand --notes-dir 'The notes store [default: .agent-state/notes, or config notes.dir]'
            cand --skills-dir 'A folder of skills, one subfolder with a SKILL.md each; repeatable, searched in order [env: AGTOOL_SKILLS, colon-separated]'
            cand --json 'Print one JSON object {ok, output, error, ...} instead of text'
            cand --no-freshness 'Turn the freshness gate off [env: AGTOOL_FRESHNESS=off]'
            cand --no-syntax-check 'Turn the syntax gate off [env: AGTOOL_SYNTAX_CHECK=off]'
            cand --approved 'The host''s user approved this call: an ask rule lets it run (after exit status 3, Approval needed)'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand list 'Show each session: id, pid, state, age, command'
            cand kill 'Kill a session and everything it started'
            cand stop-server 'Kill every session and stop the session server'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'agtool;sessions;list'= {
            cand --root 'Workspace root [env: AGTOOL_ROOT] (default: nearest .agent-state/, then .git, then the current directory)'
            cand --agent 'Agent identity keying the freshness table [env: AGTOOL_AGENT] [default: default]'
            cand --config 'Extra configuration file layered over the others [env: AGTOOL_CONFIG]'
            cand --groups 'Tool groups enabled for call, schema and mcp, e.g. files,edit or all [env: AGTOOL_GROUPS]'
            cand --color 'Colour for people (dry-run diffs, sessions list): auto, always or never; auto is off with NO_COLOR, on with CLICOLOR_FORCE; call and --json never colour'
            cand --timeout-ms 'Override every tool''s default timeout, in milliseconds'
            cand --notes-dir 'The notes store [default: .agent-state/notes, or config notes.dir]'
            cand --skills-dir 'A folder of skills, one subfolder with a SKILL.md each; repeatable, searched in order [env: AGTOOL_SKILLS, colon-separated]'
            cand --json 'Print one JSON object {ok, output, error, ...} instead of text'
            cand --no-freshness 'Turn the freshness gate off [env: AGTOOL_FRESHNESS=off]'
            cand --no-syntax-check 'Turn the syntax gate off [env: AGTOOL_SYNTAX_CHECK=off]'
            cand --approved 'The host''s user approved this call: an ask rule lets it run (after exit status 3, Approval needed)'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'agtool;sessions;kill'= {
            cand --root 'Workspace root [env: AGTOOL_ROOT] (default: nearest .agent-state/, then .git, then the current directory)'
            cand --agent 'Agent identity keying the freshness table [env: AGTOOL_AGENT] [default: default]'
            cand --config 'Extra configuration file layered over the others [env: AGTOOL_CONFIG]'
            cand --groups 'Tool groups enabled for call, schema and mcp, e.g. files,edit or all [env: AGTOOL_GROUPS]'
            cand --color 'Colour for people (dry-run diffs, sessions list): auto, always or never; auto is off with NO_COLOR, on with CLICOLOR_FORCE; call and --json never colour'
            cand --timeout-ms 'Override every tool''s default timeout, in milliseconds'
            cand --notes-dir 'The notes store [default: .agent-state/notes, or config notes.dir]'
            cand --skills-dir 'A folder of skills, one subfolder with a SKILL.md each; repeatable, searched in order [env: AGTOOL_SKILLS, colon-separated]'
            cand --all 'Kill every session'
            cand --json 'Print one JSON object {ok, output, error, ...} instead of text'
            cand --no-freshness 'Turn the freshness gate off [env: AGTOOL_FRESHNESS=off]'
            cand --no-syntax-check 'Turn the syntax gate off [env: AGTOOL_SYNTAX_CHECK=off]'
            cand --approved 'The host''s user approved this call: an ask rule lets it run (after exit status 3, Approval needed)'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'agtool;sessions;stop-server'= {
            cand --root 'Workspace root [env: AGTOOL_ROOT] (default: nearest .agent-state/, then .git, then the current directory)'
            cand --agent 'Agent identity keying the freshness table [env: AGTOOL_AGENT] [default: default]'
            cand --config 'Extra configuration file layered over the others [env: AGTOOL_CONFIG]'
            cand --groups 'Tool groups enabled for call, schema and mcp, e.g. files,edit or all [env: AGTOOL_GROUPS]'
            cand --color 'Colour for people (dry-run diffs, sessions list): auto, always or never; auto is off with NO_COLOR, on with CLICOLOR_FORCE; call and --json never colour'
            cand --timeout-ms 'Override every tool''s default timeout, in milliseconds'
            cand --notes-dir 'The notes store [default: .agent-state/notes, or config notes.dir]'
            cand --skills-dir 'A folder of skills, one subfolder with a SKILL.md each; repeatable, searched in order [env: AGTOOL_SKILLS, colon-separated]'
            cand --json 'Print one JSON object {ok, output, error, ...} instead of text'
            cand --no-freshness 'Turn the freshness gate off [env: AGTOOL_FRESHNESS=off]'
            cand --no-syntax-check 'Turn the syntax gate off [env: AGTOOL_SYNTAX_CHECK=off]'
            cand --approved 'The host''s user approved this call: an ask rule lets it run (after exit status 3, Approval needed)'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'agtool;sessions;help'= {
            cand list 'Show each session: id, pid, state, age, command'
            cand kill 'Kill a session and everything it started'
            cand stop-server 'Kill every session and stop the session server'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'agtool;sessions;help;list'= {
        }
        &'agtool;sessions;help;kill'= {
        }
        &'agtool;sessions;help;stop-server'= {
        }
        &'agtool;sessions;help;help'= {
        }
        &'agtool;sandbox'= {
            cand --root 'Workspace root [env: AGTOOL_ROOT] (default: nearest .agent-state/, then .git, then the current directory)'
            cand --agent 'Agent identity keying the freshness table [env: AGTOOL_AGENT] [default: default]'
            cand --config 'Extra configuration file layered over the others [env: AGTOOL_CONFIG]'
            cand --groups 'Tool groups enabled for call, schema and mcp, e.g. files,edit or all [env: AGTOOL_GROUPS]'
            cand --color 'Colour for people (dry-run diffs, sessions list): auto, always or never; auto is off with NO_COLOR, on with CLICOLOR_FORCE; call and --json never colour'
            cand --timeout-ms 'Override every tool''s default timeout, in milliseconds'
            cand --notes-dir 'The notes store [default: .agent-state/notes, or config notes.dir]'
            cand --skills-dir 'A folder of skills, one subfolder with a SKILL.md each; repeatable, searched in order [env: AGTOOL_SKILLS, colon-separated]'
            cand --json 'Print one JSON object {ok, output, error, ...} instead of text'
            cand --no-freshness 'Turn the freshness gate off [env: AGTOOL_FRESHNESS=off]'
            cand --no-syntax-check 'Turn the syntax gate off [env: AGTOOL_SYNTAX_CHECK=off]'
            cand --approved 'The host''s user approved this call: an ask rule lets it run (after exit status 3, Approval needed)'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand check 'Print the Landlock ABI, seccomp and namespaces; exit 1 when workspace-write cannot be enforced'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'agtool;sandbox;check'= {
            cand --root 'Workspace root [env: AGTOOL_ROOT] (default: nearest .agent-state/, then .git, then the current directory)'
            cand --agent 'Agent identity keying the freshness table [env: AGTOOL_AGENT] [default: default]'
            cand --config 'Extra configuration file layered over the others [env: AGTOOL_CONFIG]'
            cand --groups 'Tool groups enabled for call, schema and mcp, e.g. files,edit or all [env: AGTOOL_GROUPS]'
            cand --color 'Colour for people (dry-run diffs, sessions list): auto, always or never; auto is off with NO_COLOR, on with CLICOLOR_FORCE; call and --json never colour'
            cand --timeout-ms 'Override every tool''s default timeout, in milliseconds'
            cand --notes-dir 'The notes store [default: .agent-state/notes, or config notes.dir]'
            cand --skills-dir 'A folder of skills, one subfolder with a SKILL.md each; repeatable, searched in order [env: AGTOOL_SKILLS, colon-separated]'
            cand --json 'Print one JSON object {ok, output, error, ...} instead of text'
            cand --no-freshness 'Turn the freshness gate off [env: AGTOOL_FRESHNESS=off]'
            cand --no-syntax-check 'Turn the syntax gate off [env: AGTOOL_SYNTAX_CHECK=off]'
            cand --approved 'The host''s user approved this call: an ask rule lets it run (after exit status 3, Approval needed)'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'agtool;sandbox;help'= {
            cand check 'Print the Landlock ABI, seccomp and namespaces; exit 1 when workspace-write cannot be enforced'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'agtool;sandbox;help;check'= {
        }
        &'agtool;sandbox;help;help'= {
        }
        &'agtool;rules'= {
            cand --root 'Workspace root [env: AGTOOL_ROOT] (default: nearest .agent-state/, then .git, then the current directory)'
            cand --agent 'Agent identity keying the freshness table [env: AGTOOL_AGENT] [default: default]'
            cand --config 'Extra configuration file layered over the others [env: AGTOOL_CONFIG]'
            cand --groups 'Tool groups enabled for call, schema and mcp, e.g. files,edit or all [env: AGTOOL_GROUPS]'
            cand --color 'Colour for people (dry-run diffs, sessions list): auto, always or never; auto is off with NO_COLOR, on with CLICOLOR_FORCE; call and --json never colour'
            cand --timeout-ms 'Override every tool''s default timeout, in milliseconds'
            cand --notes-dir 'The notes store [default: .agent-state/notes, or config notes.dir]'
            cand --skills-dir 'A folder of skills, one subfolder with a SKILL.md each; repeatable, searched in order [env: AGTOOL_SKILLS, colon-separated]'
            cand --json 'Print one JSON object {ok, output, error, ...} instead of text'
            cand --no-freshness 'Turn the freshness gate off [env: AGTOOL_FRESHNESS=off]'
            cand --no-syntax-check 'Turn the syntax gate off [env: AGTOOL_SYNTAX_CHECK=off]'
            cand --approved 'The host''s user approved this call: an ask rule lets it run (after exit status 3, Approval needed)'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand test 'Say which rule decides a call of TOOL with the JSON arguments, and why'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'agtool;rules;test'= {
            cand --root 'Workspace root [env: AGTOOL_ROOT] (default: nearest .agent-state/, then .git, then the current directory)'
            cand --agent 'Agent identity keying the freshness table [env: AGTOOL_AGENT] [default: default]'
            cand --config 'Extra configuration file layered over the others [env: AGTOOL_CONFIG]'
            cand --groups 'Tool groups enabled for call, schema and mcp, e.g. files,edit or all [env: AGTOOL_GROUPS]'
            cand --color 'Colour for people (dry-run diffs, sessions list): auto, always or never; auto is off with NO_COLOR, on with CLICOLOR_FORCE; call and --json never colour'
            cand --timeout-ms 'Override every tool''s default timeout, in milliseconds'
            cand --notes-dir 'The notes store [default: .agent-state/notes, or config notes.dir]'
            cand --skills-dir 'A folder of skills, one subfolder with a SKILL.md each; repeatable, searched in order [env: AGTOOL_SKILLS, colon-separated]'
            cand --json 'Print one JSON object {ok, output, error, ...} instead of text'
            cand --no-freshness 'Turn the freshness gate off [env: AGTOOL_FRESHNESS=off]'
            cand --no-syntax-check 'Turn the syntax gate off [env: AGTOOL_SYNTAX_CHECK=off]'
            cand --approved 'The host''s user approved this call: an ask rule lets it run (after exit status 3, Approval needed)'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'agtool;rules;help'= {
            cand test 'Say which rule decides a call of TOOL with the JSON arguments, and why'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'agtool;rules;help;test'= {
        }
        &'agtool;rules;help;help'= {
        }
        &'agtool;trace'= {
            cand --root 'Workspace root [env: AGTOOL_ROOT] (default: nearest .agent-state/, then .git, then the current directory)'
            cand --agent 'Agent identity keying the freshness table [env: AGTOOL_AGENT] [default: default]'
            cand --config 'Extra configuration file layered over the others [env: AGTOOL_CONFIG]'
            cand --groups 'Tool groups enabled for call, schema and mcp, e.g. files,edit or all [env: AGTOOL_GROUPS]'
            cand --color 'Colour for people (dry-run diffs, sessions list): auto, always or never; auto is off with NO_COLOR, on with CLICOLOR_FORCE; call and --json never colour'
            cand --timeout-ms 'Override every tool''s default timeout, in milliseconds'
            cand --notes-dir 'The notes store [default: .agent-state/notes, or config notes.dir]'
            cand --skills-dir 'A folder of skills, one subfolder with a SKILL.md each; repeatable, searched in order [env: AGTOOL_SKILLS, colon-separated]'
            cand --json 'Print one JSON object {ok, output, error, ...} instead of text'
            cand --no-freshness 'Turn the freshness gate off [env: AGTOOL_FRESHNESS=off]'
            cand --no-syntax-check 'Turn the syntax gate off [env: AGTOOL_SYNTAX_CHECK=off]'
            cand --approved 'The host''s user approved this call: an ask rule lets it run (after exit status 3, Approval needed)'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand summary 'Calls, failures, blocked calls and p50/p95 duration per tool'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'agtool;trace;summary'= {
            cand --root 'Workspace root [env: AGTOOL_ROOT] (default: nearest .agent-state/, then .git, then the current directory)'
            cand --agent 'Agent identity keying the freshness table [env: AGTOOL_AGENT] [default: default]'
            cand --config 'Extra configuration file layered over the others [env: AGTOOL_CONFIG]'
            cand --groups 'Tool groups enabled for call, schema and mcp, e.g. files,edit or all [env: AGTOOL_GROUPS]'
            cand --color 'Colour for people (dry-run diffs, sessions list): auto, always or never; auto is off with NO_COLOR, on with CLICOLOR_FORCE; call and --json never colour'
            cand --timeout-ms 'Override every tool''s default timeout, in milliseconds'
            cand --notes-dir 'The notes store [default: .agent-state/notes, or config notes.dir]'
            cand --skills-dir 'A folder of skills, one subfolder with a SKILL.md each; repeatable, searched in order [env: AGTOOL_SKILLS, colon-separated]'
            cand --json 'Print one JSON object {ok, output, error, ...} instead of text'
            cand --no-freshness 'Turn the freshness gate off [env: AGTOOL_FRESHNESS=off]'
            cand --no-syntax-check 'Turn the syntax gate off [env: AGTOOL_SYNTAX_CHECK=off]'
            cand --approved 'The host''s user approved this call: an ask rule lets it run (after exit status 3, Approval needed)'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'agtool;trace;help'= {
            cand summary 'Calls, failures, blocked calls and p50/p95 duration per tool'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'agtool;trace;help;summary'= {
        }
        &'agtool;trace;help;help'= {
        }
        &'agtool;lsp'= {
            cand --root 'Workspace root [env: AGTOOL_ROOT] (default: nearest .agent-state/, then .git, then the current directory)'
            cand --agent 'Agent identity keying the freshness table [env: AGTOOL_AGENT] [default: default]'
            cand --config 'Extra configuration file layered over the others [env: AGTOOL_CONFIG]'
            cand --groups 'Tool groups enabled for call, schema and mcp, e.g. files,edit or all [env: AGTOOL_GROUPS]'
            cand --color 'Colour for people (dry-run diffs, sessions list): auto, always or never; auto is off with NO_COLOR, on with CLICOLOR_FORCE; call and --json never colour'
            cand --timeout-ms 'Override every tool''s default timeout, in milliseconds'
            cand --notes-dir 'The notes store [default: .agent-state/notes, or config notes.dir]'
            cand --skills-dir 'A folder of skills, one subfolder with a SKILL.md each; repeatable, searched in order [env: AGTOOL_SKILLS, colon-separated]'
            cand --json 'Print one JSON object {ok, output, error, ...} instead of text'
            cand --no-freshness 'Turn the freshness gate off [env: AGTOOL_FRESHNESS=off]'
            cand --no-syntax-check 'Turn the syntax gate off [env: AGTOOL_SYNTAX_CHECK=off]'
            cand --approved 'The host''s user approved this call: an ask rule lets it run (after exit status 3, Approval needed)'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand status 'Each server: language, pid, state, memory, open files, uptime, command'
            cand stop 'Stop every language server of this workspace'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'agtool;lsp;status'= {
            cand --root 'Workspace root [env: AGTOOL_ROOT] (default: nearest .agent-state/, then .git, then the current directory)'
            cand --agent 'Agent identity keying the freshness table [env: AGTOOL_AGENT] [default: default]'
            cand --config 'Extra configuration file layered over the others [env: AGTOOL_CONFIG]'
            cand --groups 'Tool groups enabled for call, schema and mcp, e.g. files,edit or all [env: AGTOOL_GROUPS]'
            cand --color 'Colour for people (dry-run diffs, sessions list): auto, always or never; auto is off with NO_COLOR, on with CLICOLOR_FORCE; call and --json never colour'
            cand --timeout-ms 'Override every tool''s default timeout, in milliseconds'
            cand --notes-dir 'The notes store [default: .agent-state/notes, or config notes.dir]'
            cand --skills-dir 'A folder of skills, one subfolder with a SKILL.md each; repeatable, searched in order [env: AGTOOL_SKILLS, colon-separated]'
            cand --json 'Print one JSON object {ok, output, error, ...} instead of text'
            cand --no-freshness 'Turn the freshness gate off [env: AGTOOL_FRESHNESS=off]'
            cand --no-syntax-check 'Turn the syntax gate off [env: AGTOOL_SYNTAX_CHECK=off]'
            cand --approved 'The host''s user approved this call: an ask rule lets it run (after exit status 3, Approval needed)'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'agtool;lsp;stop'= {
            cand --root 'Workspace root [env: AGTOOL_ROOT] (default: nearest .agent-state/, then .git, then the current directory)'
            cand --agent 'Agent identity keying the freshness table [env: AGTOOL_AGENT] [default: default]'
            cand --config 'Extra configuration file layered over the others [env: AGTOOL_CONFIG]'
            cand --groups 'Tool groups enabled for call, schema and mcp, e.g. files,edit or all [env: AGTOOL_GROUPS]'
            cand --color 'Colour for people (dry-run diffs, sessions list): auto, always or never; auto is off with NO_COLOR, on with CLICOLOR_FORCE; call and --json never colour'
            cand --timeout-ms 'Override every tool''s default timeout, in milliseconds'
            cand --notes-dir 'The notes store [default: .agent-state/notes, or config notes.dir]'
            cand --skills-dir 'A folder of skills, one subfolder with a SKILL.md each; repeatable, searched in order [env: AGTOOL_SKILLS, colon-separated]'
            cand --json 'Print one JSON object {ok, output, error, ...} instead of text'
            cand --no-freshness 'Turn the freshness gate off [env: AGTOOL_FRESHNESS=off]'
            cand --no-syntax-check 'Turn the syntax gate off [env: AGTOOL_SYNTAX_CHECK=off]'
            cand --approved 'The host''s user approved this call: an ask rule lets it run (after exit status 3, Approval needed)'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'agtool;lsp;help'= {
            cand status 'Each server: language, pid, state, memory, open files, uptime, command'
            cand stop 'Stop every language server of this workspace'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'agtool;lsp;help;status'= {
        }
        &'agtool;lsp;help;stop'= {
        }
        &'agtool;lsp;help;help'= {
        }
        &'agtool;completions'= {
            cand --write 'Write every shell''s file into DIR instead (the repository''s completions/)'
            cand --root 'Workspace root [env: AGTOOL_ROOT] (default: nearest .agent-state/, then .git, then the current directory)'
            cand --agent 'Agent identity keying the freshness table [env: AGTOOL_AGENT] [default: default]'
            cand --config 'Extra configuration file layered over the others [env: AGTOOL_CONFIG]'
            cand --groups 'Tool groups enabled for call, schema and mcp, e.g. files,edit or all [env: AGTOOL_GROUPS]'
            cand --color 'Colour for people (dry-run diffs, sessions list): auto, always or never; auto is off with NO_COLOR, on with CLICOLOR_FORCE; call and --json never colour'
            cand --timeout-ms 'Override every tool''s default timeout, in milliseconds'
            cand --notes-dir 'The notes store [default: .agent-state/notes, or config notes.dir]'
            cand --skills-dir 'A folder of skills, one subfolder with a SKILL.md each; repeatable, searched in order [env: AGTOOL_SKILLS, colon-separated]'
            cand --json 'Print one JSON object {ok, output, error, ...} instead of text'
            cand --no-freshness 'Turn the freshness gate off [env: AGTOOL_FRESHNESS=off]'
            cand --no-syntax-check 'Turn the syntax gate off [env: AGTOOL_SYNTAX_CHECK=off]'
            cand --approved 'The host''s user approved this call: an ask rule lets it run (after exit status 3, Approval needed)'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'agtool;man'= {
            cand --write 'Write agtool.1 into DIR instead'
            cand --root 'Workspace root [env: AGTOOL_ROOT] (default: nearest .agent-state/, then .git, then the current directory)'
            cand --agent 'Agent identity keying the freshness table [env: AGTOOL_AGENT] [default: default]'
            cand --config 'Extra configuration file layered over the others [env: AGTOOL_CONFIG]'
            cand --groups 'Tool groups enabled for call, schema and mcp, e.g. files,edit or all [env: AGTOOL_GROUPS]'
            cand --color 'Colour for people (dry-run diffs, sessions list): auto, always or never; auto is off with NO_COLOR, on with CLICOLOR_FORCE; call and --json never colour'
            cand --timeout-ms 'Override every tool''s default timeout, in milliseconds'
            cand --notes-dir 'The notes store [default: .agent-state/notes, or config notes.dir]'
            cand --skills-dir 'A folder of skills, one subfolder with a SKILL.md each; repeatable, searched in order [env: AGTOOL_SKILLS, colon-separated]'
            cand --json 'Print one JSON object {ok, output, error, ...} instead of text'
            cand --no-freshness 'Turn the freshness gate off [env: AGTOOL_FRESHNESS=off]'
            cand --no-syntax-check 'Turn the syntax gate off [env: AGTOOL_SYNTAX_CHECK=off]'
            cand --approved 'The host''s user approved this call: an ask rule lets it run (after exit status 3, Approval needed)'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'agtool;session-server'= {
            cand --state-dir 'state-dir'
            cand --root 'Workspace root [env: AGTOOL_ROOT] (default: nearest .agent-state/, then .git, then the current directory)'
            cand --agent 'Agent identity keying the freshness table [env: AGTOOL_AGENT] [default: default]'
            cand --config 'Extra configuration file layered over the others [env: AGTOOL_CONFIG]'
            cand --groups 'Tool groups enabled for call, schema and mcp, e.g. files,edit or all [env: AGTOOL_GROUPS]'
            cand --color 'Colour for people (dry-run diffs, sessions list): auto, always or never; auto is off with NO_COLOR, on with CLICOLOR_FORCE; call and --json never colour'
            cand --timeout-ms 'Override every tool''s default timeout, in milliseconds'
            cand --notes-dir 'The notes store [default: .agent-state/notes, or config notes.dir]'
            cand --skills-dir 'A folder of skills, one subfolder with a SKILL.md each; repeatable, searched in order [env: AGTOOL_SKILLS, colon-separated]'
            cand --json 'Print one JSON object {ok, output, error, ...} instead of text'
            cand --no-freshness 'Turn the freshness gate off [env: AGTOOL_FRESHNESS=off]'
            cand --no-syntax-check 'Turn the syntax gate off [env: AGTOOL_SYNTAX_CHECK=off]'
            cand --approved 'The host''s user approved this call: an ask rule lets it run (after exit status 3, Approval needed)'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'agtool;session-guard'= {
            cand --server-pid 'server-pid'
            cand --root 'Workspace root [env: AGTOOL_ROOT] (default: nearest .agent-state/, then .git, then the current directory)'
            cand --agent 'Agent identity keying the freshness table [env: AGTOOL_AGENT] [default: default]'
            cand --config 'Extra configuration file layered over the others [env: AGTOOL_CONFIG]'
            cand --groups 'Tool groups enabled for call, schema and mcp, e.g. files,edit or all [env: AGTOOL_GROUPS]'
            cand --color 'Colour for people (dry-run diffs, sessions list): auto, always or never; auto is off with NO_COLOR, on with CLICOLOR_FORCE; call and --json never colour'
            cand --timeout-ms 'Override every tool''s default timeout, in milliseconds'
            cand --notes-dir 'The notes store [default: .agent-state/notes, or config notes.dir]'
            cand --skills-dir 'A folder of skills, one subfolder with a SKILL.md each; repeatable, searched in order [env: AGTOOL_SKILLS, colon-separated]'
            cand --json 'Print one JSON object {ok, output, error, ...} instead of text'
            cand --no-freshness 'Turn the freshness gate off [env: AGTOOL_FRESHNESS=off]'
            cand --no-syntax-check 'Turn the syntax gate off [env: AGTOOL_SYNTAX_CHECK=off]'
            cand --approved 'The host''s user approved this call: an ask rule lets it run (after exit status 3, Approval needed)'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'agtool;help'= {
            cand read-file 'Read a file with line numbers and a content tag; also images, PDFs, notebooks, several files.'
            cand list-dir 'List a folder as an indented tree: `name/` folders, `name@` symlinks (never followed), `name?` other special files. Entries are sorted by name, children right under their folder. Ignored files (.gitignore) are left out unless ignored: true. Page with offset/limit; the last line says how to continue. Bytes of a name that are not UTF-8 show as `\xHH`; every path argument takes that spelling back.'
            cand glob 'Find files whose path matches a glob pattern, newest first.'
            cand grep 'Search file contents with a regular expression (ripgrep''s engine).'
            cand diagnostics 'Show the problems a language server (pyright, pylsp, typescript-language-server, gopls, rust-analyzer, clangd) reports for files: one line each, `path:line:col: severity: message (code)`, errors first. Without paths: every file open in a language server. Edit results already list the problems an edit added; use this for the rest.'
            cand write-file 'Create a file, or replace a whole file''s content.'
            cand edit-file 'Replace exact text in a file: old must occur exactly once (or pass all: true).'
            cand edit-lines 'Replace or insert whole lines addressed by anchors from read_file with anchors: true.'
            cand apply-patch 'Apply a patch that adds, deletes, updates or moves files, all or nothing.'
            cand notebook-edit 'Replace, insert or delete one cell of a Jupyter notebook (.ipynb).'
            cand move-path 'Move or rename a file, a symlink or a folder inside the workspace.'
            cand copy-path 'Copy a file, a symlink or a folder (recursive: true) inside the workspace.'
            cand make-dir 'Make a folder, and any missing folders above it, inside the workspace.'
            cand delete-path 'Delete a file, a symlink, or a directory.'
            cand exec 'Run a command once and return its exit code and output.'
            cand exec-command 'Start a shell command that keeps running between calls (a server, a watcher, a REPL).'
            cand write-stdin 'Send input to a running exec_command session, or read its new output.'
            cand web-fetch 'Fetch an http or https URL and return the page as plain text.'
            cand skill 'Load a skill: instructions for one kind of task, given by the host.'
            cand notes 'Keep notes that outlive the session: list, read, write, delete'
            cand schema 'Print the tool definitions (JSON Schema) for an agent host'
            cand call 'Run a tool with its JSON arguments (or a tool-call envelope) read from stdin'
            cand mcp 'Serve the tools of the enabled groups to an MCP host over stdio'
            cand state 'Inspect or clear the freshness table in .agent-state/'
            cand sessions 'List or kill the exec-command sessions of this workspace, or stop their server'
            cand sandbox 'Say what this machine enforces of the exec sandbox'
            cand rules 'Check the allow/ask/deny rules: which rule decides a call, and why'
            cand trace 'Read the call trace ([trace] file or AGTOOL_TRACE)'
            cand lsp 'Show or stop the language servers kept warm for this workspace''s diagnostics'
            cand completions 'Print shell completions (bash, zsh, fish, elvish, powershell)'
            cand man 'Print the manual page (roff)'
            cand session-server 'Run the exec session server for a state folder (started on demand)'
            cand session-guard 'Run a session''s command and end its whole tree when the session server dies'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'agtool;help;read-file'= {
        }
        &'agtool;help;list-dir'= {
        }
        &'agtool;help;glob'= {
        }
        &'agtool;help;grep'= {
        }
        &'agtool;help;diagnostics'= {
        }
        &'agtool;help;write-file'= {
        }
        &'agtool;help;edit-file'= {
        }
        &'agtool;help;edit-lines'= {
        }
        &'agtool;help;apply-patch'= {
        }
        &'agtool;help;notebook-edit'= {
        }
        &'agtool;help;move-path'= {
        }
        &'agtool;help;copy-path'= {
        }
        &'agtool;help;make-dir'= {
        }
        &'agtool;help;delete-path'= {
        }
        &'agtool;help;exec'= {
        }
        &'agtool;help;exec-command'= {
        }
        &'agtool;help;write-stdin'= {
        }
        &'agtool;help;web-fetch'= {
        }
        &'agtool;help;skill'= {
        }
        &'agtool;help;notes'= {
            cand list 'List the notes kept for this workspace, newest first.'
            cand read 'Read one note kept for this workspace.'
            cand write 'Save a note for later sessions in this workspace, or append to one.'
            cand delete 'Delete one note kept for this workspace.'
        }
        &'agtool;help;notes;list'= {
        }
        &'agtool;help;notes;read'= {
        }
        &'agtool;help;notes;write'= {
        }
        &'agtool;help;notes;delete'= {
        }
        &'agtool;help;schema'= {
        }
        &'agtool;help;call'= {
        }
        &'agtool;help;mcp'= {
        }
        &'agtool;help;state'= {
            cand show 'List every recorded (agent, path, tag)'
            cand forget 'Forget what every agent read of PATH (a folder: everything under it)'
            cand reset 'Forget everything'
            cand recover 'Roll back writes interrupted by a kill and remove their temp files (every call does this too; this says what it did)'
        }
        &'agtool;help;state;show'= {
        }
        &'agtool;help;state;forget'= {
        }
        &'agtool;help;state;reset'= {
        }
        &'agtool;help;state;recover'= {
        }
        &'agtool;help;sessions'= {
            cand list 'Show each session: id, pid, state, age, command'
            cand kill 'Kill a session and everything it started'
            cand stop-server 'Kill every session and stop the session server'
        }
        &'agtool;help;sessions;list'= {
        }
        &'agtool;help;sessions;kill'= {
        }
        &'agtool;help;sessions;stop-server'= {
        }
        &'agtool;help;sandbox'= {
            cand check 'Print the Landlock ABI, seccomp and namespaces; exit 1 when workspace-write cannot be enforced'
        }
        &'agtool;help;sandbox;check'= {
        }
        &'agtool;help;rules'= {
            cand test 'Say which rule decides a call of TOOL with the JSON arguments, and why'
        }
        &'agtool;help;rules;test'= {
        }
        &'agtool;help;trace'= {
            cand summary 'Calls, failures, blocked calls and p50/p95 duration per tool'
        }
        &'agtool;help;trace;summary'= {
        }
        &'agtool;help;lsp'= {
            cand status 'Each server: language, pid, state, memory, open files, uptime, command'
            cand stop 'Stop every language server of this workspace'
        }
        &'agtool;help;lsp;status'= {
        }
        &'agtool;help;lsp;stop'= {
        }
        &'agtool;help;completions'= {
        }
        &'agtool;help;man'= {
        }
        &'agtool;help;session-server'= {
        }
        &'agtool;help;session-guard'= {
        }
        &'agtool;help;help'= {
        }
    ]
    $completions[$command]
}
