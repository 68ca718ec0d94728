//! `grep`: search file contents with a regular expression, in-process on ripgrep's own crates
//! (grep-searcher, grep-regex, ignore) with a parallel walk (spec 02, "grep").

use std::time::SystemTime;

use clap::Args;
use grep::regex::{RegexMatcher, RegexMatcherBuilder};
use grep::searcher::{BinaryDetection, SearcherBuilder};
use ignore::WalkState;
use schemars::JsonSchema;
use serde::Deserialize;

use crate::error::{Output, ToolError, ToolResult, io_reason};
use crate::fileio::beneath::{Kind, is_swapped};
use crate::fileio::fs::refusal;
use crate::fileio::special::{self, OpenError};
use crate::search::grep::{FileHits, NameMatches, NameQuery, Outcome, Report, TopFiles, Worker};
use crate::search::walk::{self, Base, Problems, WalkRules};
use crate::text::plural::count;
use crate::tools::Touches;
use crate::tools::{Group, Tool, ToolMeta};
use crate::workspace::context::Ctx;
use crate::workspace::policy::Access;

/// Default number of files (files/count output) or matching lines (content output) shown.
pub const DEFAULT_LIMIT: u64 = 100;

/// Case sensitivity.
#[derive(Debug, Clone, Copy, Default, Deserialize, JsonSchema, clap::ValueEnum, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
#[allow(missing_docs)] // variants carry plain comments: see the first variant
pub enum Case {
    // Insensitive unless the pattern has an upper-case letter. (Plain comments: variant docs
    // would turn the schema's `enum` into a `oneOf`.)
    #[default]
    Smart,
    // Exact case.
    Sensitive,
    // Any case.
    Insensitive,
}

/// What grep prints.
#[derive(Debug, Clone, Copy, Default, Deserialize, JsonSchema, clap::ValueEnum, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
#[allow(missing_docs)] // variants carry plain comments: see the first variant
pub enum OutputMode {
    // One path a line, newest first.
    #[default]
    Files,
    // `path:line:text` for every matching line.
    Content,
    // `path:count` a line.
    Count,
}

/// Arguments of grep.
#[derive(Debug, Clone, Deserialize, JsonSchema, Args)]
#[serde(deny_unknown_fields)]
pub struct GrepArgs {
    /// Regular expression (Rust regex syntax), or a literal string with fixed_strings.
    #[schemars(length(min = 1, max = crate::args::MAX_PATTERN_CHARS))]
    pub pattern: String,
    /// File or folder to search (default ".").
    #[schemars(length(max = crate::args::MAX_PATH_CHARS))]
    pub path: Option<String>,
    /// Only search files whose names match this glob, e.g. "*.rs" or "*.{ts,tsx}".
    #[arg(long)]
    #[schemars(length(max = crate::args::MAX_PATTERN_CHARS))]
    pub include: Option<String>,
    /// Most files (files/count output) or matching lines (content output) to show (default 100,
    /// at most 2000).
    #[arg(long)]
    #[schemars(range(min = 1, max = 2000))]
    pub limit: Option<u64>,
    /// smart (default: case-insensitive unless the pattern has an upper-case letter),
    /// sensitive or insensitive.
    #[arg(long, value_enum)]
    pub case: Option<Case>,
    /// Treat the pattern as a literal string, not a regex (default false).
    #[arg(long)]
    pub fixed_strings: Option<bool>,
    /// files (default: matching paths, newest first), content (matching lines) or count
    /// (matching lines per file).
    #[arg(long, value_enum)]
    pub output: Option<OutputMode>,
    /// Lines of context before and after each match, content output only (default 0).
    #[arg(long)]
    pub context: Option<u64>,
    /// Let matches span lines; `.` then also matches a newline (default false).
    #[arg(long)]
    pub multiline: Option<bool>,
    /// Search hidden files and folders too (default false).
    #[arg(long)]
    pub hidden: Option<bool>,
    /// Search files matched by .gitignore/.ignore rules too (default false).
    #[arg(long)]
    pub ignored: Option<bool>,
    /// Also list files whose names contain the pattern, in a section after the hits (default
    /// true; scripts that parse `path:line:text` or `path:count` pass false).
    #[arg(long)]
    pub names: Option<bool>,
}

/// The grep tool.
pub struct Grep;

impl Tool for Grep {
    type Args = GrepArgs;
    const NAME: &'static str = "grep";
    const META: ToolMeta = ToolMeta {
        description: "Search file contents with a regular expression (ripgrep's engine).\n\
output: files (default) lists matching files, most recently modified first; content prints \
`path:line:text` for each matching line (context lines as `path-line-text`, groups separated by \
`--`; a line over 500 bytes shows 500 bytes around its first match, `[… n bytes]` marking each \
cut side); count prints `path:count`. Case is smart by default: insensitive unless the pattern has an \
upper-case letter. Use include to filter file names (\"*.rs\"), fixed_strings for literal text, \
multiline for patterns spanning lines. Hidden, ignored (.gitignore) and binary files are skipped. \
A `Files whose names match:` section lists files whose names contain the pattern.",
        examples: "  agtool grep 'fn main'\n  agtool grep TODO src --output content --context 2\n  agtool grep 'useState' --include '*.{ts,tsx}' --output count",
        group: Group::Files,
        sensitive: false,
        serial: false,
        read_only: true,
        destructive: false,
        idempotent: true,
        open_world: false,
        timeout_ms: Some(60_000),
        body: None,
        tags: &["search", "files"],
    };

    fn touches(args: &Self::Args) -> Touches {
        Touches {
            reads: vec![args.path.clone().unwrap_or_else(|| ".".into())],
            ..Touches::default()
        }
    }

    fn run(ctx: &Ctx, args: GrepArgs) -> ToolResult {
        let mode = args.output.unwrap_or_default();
        let context = args.context.unwrap_or(0);
        if context > 0 && mode != OutputMode::Content {
            return Err(ToolError::usage(
                "context applies to output \"content\" only; add output: \"content\" or drop context",
            ));
        }
        let matcher = build_matcher(&args)?;
        let include = match &args.include {
            Some(glob) => {
                let normalized = walk::normalize_glob(glob, "include")?;
                Some(walk::compile_glob(&normalized, "include")?)
            }
            None => None,
        };
        let spelled = args.path.as_deref().unwrap_or(".");
        let checked = ctx.check_path(spelled, Access::Read)?;
        // Reached through the file layer: a folder gets a handle the walk is fenced by, a file
        // is opened as is; no symlink swapped in after the check is followed.
        let st = ctx
            .fs
            .stat(&checked)
            .map_err(|e| refusal("search", spelled, &e))?;
        let is_dir = st.kind == Kind::Dir;
        if !is_dir && st.kind != Kind::File {
            // Opening a FIFO would wait for a writer until the timeout; never open one.
            return Err(ToolError::refused(format!(
                "{spelled} is not a regular file ({}); grep searches files and folders only",
                st.kind.name()
            )));
        }
        let report = match mode {
            OutputMode::Files => Report::Files,
            OutputMode::Content => Report::Content,
            OutputMode::Count => Report::Count,
        };
        let limit = args.limit.unwrap_or(DEFAULT_LIMIT);
        let mut sb = SearcherBuilder::new();
        sb.binary_detection(BinaryDetection::quit(0))
            .line_number(report == Report::Content)
            .multi_line(args.multiline.unwrap_or(false))
            .before_context(context as usize)
            .after_context(context as usize);
        let base = if is_dir {
            let dir = ctx
                .fs
                .open_dir(&checked)
                .map_err(|e| refusal("search", spelled, &e))?;
            Base::new(&checked, Some(dir))
        } else {
            Base::new(&checked, None)
        };
        let mut found = Found {
            top: TopFiles::new(report, limit),
            names: NameMatches::default(),
            problems: Problems::default(),
            notes: Vec::new(),
            special_files: 0,
        };
        if is_dir {
            let names = (args.names != Some(false))
                .then(|| NameQuery::new(&args.pattern, names_insensitive(&args)));
            let rules = WalkRules {
                hidden: args.hidden.unwrap_or(false),
                ignored: args.ignored.unwrap_or(false),
                tool: "grep",
            };
            let (builder, fenced) = walk::builder(ctx, &base, rules)?;
            let make = || {
                (
                    Worker::new(sb.build(), matcher.clone(), report, limit),
                    base.reach(),
                )
            };
            let workers = walk::run_parallel(&builder, make, |(w, reach), entry| {
                match entry {
                    Ok(e) if e.file_type().is_some_and(|t| t.is_file() || is_special(&t)) => {
                        let rel = e.path().strip_prefix(&base.real).unwrap_or(e.path());
                        if include.as_ref().is_some_and(|g| !g.is_match(rel)) {
                            return WalkState::Continue;
                        }
                        // FIFOs, sockets and devices are counted, never opened.
                        if e.file_type().is_some_and(|t| is_special(&t)) {
                            w.special_files += 1;
                            return WalkState::Continue;
                        }
                        // Opened through the base's handle (without blocking): an entry listed
                        // from a folder swapped for a symlink is not found, or is the inside
                        // file.
                        let opened = match special::regular(reach.open(e.path())) {
                            Err(OpenError::Io(err))
                                if err.kind() == std::io::ErrorKind::NotFound
                                    || is_swapped(&err) =>
                            {
                                return WalkState::Continue;
                            }
                            Err(OpenError::Directory) => return WalkState::Continue,
                            other => other,
                        };
                        if let Some(rank) = names.as_ref().and_then(|q| q.rank(e.file_name())) {
                            w.names.push(rank, e.path().to_path_buf());
                        }
                        if let Err(err) = w.search(e.path(), opened, mtime_of) {
                            w.problems.push(format!(
                                "{}: {}",
                                base.display(ctx, e.path()),
                                io_reason(&err)
                            ));
                        }
                    }
                    Ok(_) => {}
                    Err(err) => w.problems.push_walk_error(ctx, &err),
                }
                WalkState::Continue
            });
            for (w, _) in workers {
                found.special_files += w.special_files;
                found.top.merge(w.top);
                found.names.merge(w.names);
                found.problems.merge(w.problems);
            }
            found.problems.take_fenced(&fenced);
        } else {
            // A file named exactly is searched even if ignore rules or `include` would skip it.
            let mut w = Worker::new(sb.build(), matcher.clone(), report, limit);
            let opened = special::regular(ctx.fs.open_read(&checked));
            match w.search(&checked.real, opened, mtime_of) {
                Ok(Outcome::Binary) => found
                    .notes
                    .push(format!("({spelled} is a binary file; it was not searched)")),
                Ok(Outcome::Special(kind)) => {
                    return Err(ToolError::refused(format!(
                        "{spelled} is not a regular file ({kind}); grep searches files and \
                         folders only"
                    )));
                }
                Ok(_) => {}
                Err(e) => return Err(refusal("search", spelled, &e)),
            }
            found.top = w.top;
        }
        Ok(render(ctx, &base, report, limit, context, found))
    }
}

/// A searched file's modification time (the epoch when it cannot be read).
fn mtime_of(file: &std::fs::File) -> SystemTime {
    file.metadata()
        .and_then(|m| m.modified())
        .unwrap_or(SystemTime::UNIX_EPOCH)
}

/// Everything a search found, merged over the workers.
struct Found {
    top: TopFiles,
    names: NameMatches,
    problems: Problems,
    notes: Vec<String>,
    /// FIFOs, sockets and devices met in the walk, skipped unopened.
    special_files: u64,
}

/// Largest compiled regex program, in bytes (the regex crate's own default). A pattern over
/// it is an argument error, reached in a fraction of a second.
pub const REGEX_SIZE_LIMIT: usize = 10 << 20;
/// Memory for the lazy DFA's cache per search thread, in bytes; past it the engine falls back
/// to slower matching rather than growing.
pub const REGEX_DFA_CACHE: usize = 32 << 20;
/// Deepest nesting of groups and repetitions accepted in a pattern.
pub const REGEX_NEST_LIMIT: u32 = 100;

/// Builds the matcher. An invalid regex is an argument error quoting the engine's message
/// (spec 02).
fn build_matcher(args: &GrepArgs) -> Result<RegexMatcher, ToolError> {
    let mut b = RegexMatcherBuilder::new();
    // Compiling stops with an error once the program passes the size limit, so a pattern
    // that would compile to a huge program (`(\w{1000}){1000}`) fails fast; the DFA cache
    // bounds search memory (grep-regex's defaults, made for ripgrep, are 100 MiB and 1 GiB).
    b.size_limit(REGEX_SIZE_LIMIT)
        .dfa_size_limit(REGEX_DFA_CACHE)
        .nest_limit(REGEX_NEST_LIMIT);
    // `^` and `$` match at line boundaries, as in ripgrep.
    b.multi_line(true)
        .fixed_strings(args.fixed_strings.unwrap_or(false));
    match args.case.unwrap_or_default() {
        Case::Smart => b.case_smart(true),
        Case::Sensitive => b.case_insensitive(false),
        Case::Insensitive => b.case_insensitive(true),
    };
    if args.multiline.unwrap_or(false) {
        b.dot_matches_new_line(true);
    } else {
        // Line-by-line search: the matcher must never match a line terminator. A CRLF is a
        // line end too: `$` matches before its `\r` (as `rg --crlf`; the line shown drops
        // the `\r`). `crlf` first: set after, it makes the matcher's terminator CRLF, which
        // grep-searcher refuses next to its `\n`. Not in multiline mode, where the searcher
        // would need a CRLF terminator of its own and then found nothing.
        b.crlf(true).line_terminator(Some(b'\n'));
    }
    if !args.fixed_strings.unwrap_or(false) {
        crate::search::grep::check_regex_cost(&args.pattern)
            .map_err(|why| ToolError::usage(format!("invalid regex: {why}")))?;
    }
    b.build(&args.pattern).map_err(|e| {
        // grep-regex reports syntax errors against the pattern it wrapped; the parser's own
        // message points into the pattern as the caller wrote it. (A pattern over the size
        // limit parsed fine: parsing it again would only cost time.)
        let msg = e.to_string();
        let msg = match args.fixed_strings {
            _ if msg.contains("size limit") => msg,
            Some(true) => msg,
            _ => match regex_syntax::Parser::new().parse(&args.pattern) {
                Err(syntax) => describe_syntax(&args.pattern, &syntax),
                Ok(_) => e.to_string(),
            },
        };
        let hint = if msg.contains("not allowed") && !args.multiline.unwrap_or(false) {
            "\n(to match across lines, pass multiline: true)"
        } else {
            ""
        };
        ToolError::usage(format!("invalid regex: {msg}{hint}"))
    })
}

/// The regex parser's message: the pattern with a marker under the fault when it is short,
/// else only what and where (a 64 KiB pattern is not quoted back).
fn describe_syntax(pattern: &str, e: &regex_syntax::Error) -> String {
    if pattern.len() <= 200 {
        return e.to_string();
    }
    let (kind, offset) = match e {
        regex_syntax::Error::Parse(p) => (p.kind().to_string(), p.span().start.offset),
        regex_syntax::Error::Translate(t) => (t.kind().to_string(), t.span().start.offset),
        other => {
            return other
                .to_string()
                .lines()
                .last()
                .unwrap_or_default()
                .to_owned();
        }
    };
    format!("{kind} (at byte {offset} of the pattern)")
}

/// Whether the `Files whose names match:` section compares without case: `case` as given, and
/// for smart case, insensitive unless the pattern has an upper-case letter.
fn names_insensitive(args: &GrepArgs) -> bool {
    match args.case.unwrap_or_default() {
        Case::Sensitive => false,
        Case::Insensitive => true,
        Case::Smart => !args.pattern.chars().any(char::is_uppercase),
    }
}

fn render(
    ctx: &Ctx,
    base: &Base,
    report: Report,
    limit: u64,
    context: u64,
    found: Found,
) -> Output {
    let Found {
        top,
        names,
        problems,
        notes,
        special_files,
    } = found;
    let (total_files, total_matches) = (top.total_files, top.total_matches);
    let files = top.into_files();
    let mut text = String::new();
    if total_files == 0 {
        text.push_str("No matches found.\n");
    }
    match report {
        Report::Files | Report::Count => {
            for f in files.iter().take(limit as usize) {
                base.push_display(ctx, &f.path, &mut text);
                if report == Report::Count {
                    text.push_str(&format!(":{}", f.count));
                }
                text.push('\n');
            }
            let shown = total_files.min(limit);
            if total_files > shown {
                let more = total_files - shown;
                text.push_str(&format!("({} not shown)\n", count(more, "more file")));
            }
        }
        Report::Content => {
            let shown = push_content(&mut text, ctx, base, &files, limit, context);
            if total_matches > shown {
                let more = total_matches - shown;
                text.push_str(&format!(
                    "({} not shown)\n",
                    count(more, "more matching line")
                ));
            }
        }
    }
    let name_paths = names.into_paths();
    if !name_paths.is_empty() {
        text.push_str("\nFiles whose names match:\n");
        for p in &name_paths {
            text.push_str(&base.display(ctx, p));
            text.push('\n');
        }
    }
    for note in &notes {
        text.push_str(note);
        text.push('\n');
    }
    let skipped = problems.len();
    problems.render(&mut text);
    if special_files > 0 {
        text.push_str(&format!(
            "(skipped {}: fifo, socket or device)\n",
            count(special_files, "special file")
        ));
    }
    let out = Output::text(text)
        .with("files", total_files)
        .with("skipped", skipped)
        .with("special_files", special_files);
    match report {
        Report::Files => out,
        Report::Count | Report::Content => out.with("matches", total_matches),
    }
}

/// Whether a file type is a FIFO, socket or device (what grep never opens).
fn is_special(ft: &std::fs::FileType) -> bool {
    !ft.is_file() && !ft.is_dir() && !ft.is_symlink()
}

/// Appends content lines, at most `limit` matching lines; after the last one shown, only its
/// own after-context. Groups are separated by `--` when context lines are on. Returns how many
/// matching lines were shown.
fn push_content(
    text: &mut String,
    ctx: &Ctx,
    base: &Base,
    files: &[FileHits],
    limit: u64,
    context: u64,
) -> u64 {
    let mut shown = 0;
    let mut printed_any = false;
    for f in files {
        if shown >= limit {
            break;
        }
        let path = base.display(ctx, &f.path);
        let mut prev: Option<u64> = None;
        let mut last_match = 0;
        for line in &f.lines {
            if line.is_match {
                if shown >= limit {
                    break;
                }
                shown += 1;
                last_match = line.number;
            } else if shown >= limit && line.number > last_match + context {
                break;
            }
            let joined = prev.is_some_and(|p| line.number == p + 1);
            if context > 0 && printed_any && !joined {
                text.push_str("--\n");
            }
            let sep = if line.is_match { ':' } else { '-' };
            text.push_str(&format!("{path}{sep}{}{sep}{}\n", line.number, line.text));
            printed_any = true;
            prev = Some(line.number);
        }
    }
    shown
}
