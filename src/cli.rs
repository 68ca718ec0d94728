//! The command line: builds the clap command tree from the registry, runs a subcommand and
//! prints its result with the exit status of spec 00 ("Output and exit status").

use std::io::{IsTerminal, Read};
use std::time::Duration;

use clap::{Arg, ArgAction, ArgMatches, Command};
use serde_json::{Map, Value};

use crate::commands;
use crate::error::{ErrorKind, ToolError, ToolResult};
use crate::tools::{self, ToolSpec, args};
use crate::workspace::context::{Ctx, Settings};
use crate::workspace::write_gate::GATE;

const ABOUT: &str = "Tools for coding agents: read, search, edit, patch and run, with byte-exact writes \
and a workspace that paths cannot leave.";

/// The global flags (spec 00, "Global flags"); usable before or after the subcommand.
fn global_args(cmd: Command) -> Command {
    cmd.arg(
        Arg::new("root")
            .long("root")
            .value_name("DIR")
            .global(true)
            .help("Workspace root [env: AGTOOL_ROOT] (default: nearest .agent-state/, then .git, then the current directory)"),
    )
    .arg(
        Arg::new("agent")
            .long("agent")
            .value_name("ID")
            .global(true)
            .help("Agent identity keying the freshness table [env: AGTOOL_AGENT] [default: default]"),
    )
    .arg(
        Arg::new("config")
            .long("config")
            .value_name("FILE")
            .global(true)
            .help("Extra configuration file layered over the others [env: AGTOOL_CONFIG]"),
    )
    .arg(
        Arg::new("json")
            .long("json")
            .action(ArgAction::SetTrue)
            .global(true)
            .help("Print one JSON object {ok, output, error, ...} instead of text"),
    )
    .arg(
        Arg::new("no_freshness")
            .long("no-freshness")
            .action(ArgAction::SetTrue)
            .global(true)
            .help("Turn the freshness gate off [env: AGTOOL_FRESHNESS=off]"),
    )
    .arg(
        Arg::new("no_syntax_check")
            .long("no-syntax-check")
            .action(ArgAction::SetTrue)
            .global(true)
            .help("Turn the syntax gate off [env: AGTOOL_SYNTAX_CHECK=off]"),
    )
    .arg(
        Arg::new("groups")
            .long("groups")
            .value_name("LIST")
            .global(true)
            .help("Tool groups enabled for call and schema, e.g. files,edit or all [env: AGTOOL_GROUPS]"),
    )
    .arg(
        Arg::new("timeout_ms")
            .long("timeout-ms")
            .value_name("MS")
            .value_parser(clap::value_parser!(u64).range(1..))
            .global(true)
            .help("Override every tool's default timeout, in milliseconds"),
    )
}

/// The subcommand for one tool: its own flags plus `--args`.
fn tool_command(spec: &ToolSpec) -> Command {
    let summary = spec.meta.description.lines().next().unwrap_or_default();
    let cmd =
        Command::new(spec.command_name()).after_help(format!("Examples:\n{}", spec.meta.examples));
    // The argument struct's own doc comment would replace the tool's summary: set it after.
    let cmd = (spec.augment)(cmd)
        .about(summary.to_owned())
        .long_about(spec.meta.description)
        .arg(
            Arg::new("args")
                .long("args")
                .value_name("JSON|-|@FILE")
                .help(
                    "All arguments as one JSON object (- reads it from stdin, @FILE from a file)",
                ),
        );
    let schema = (spec.schema)();
    cmd.mut_args(|a| {
        let a = if a.is_required_set() && a.get_id() != "args" {
            a.required(false).required_unless_present("args")
        } else {
            a
        };
        cli_value_rules(a, schema)
    })
}

/// Two rules for every value a tool flag or positional takes, so that the characters the
/// caller passes are the characters used (spec 01):
/// - a value may start with `-` (`--old '- item'`, `--content --x`, `grep '-> Result'`):
///   tool values are text, never flags in disguise; the cost is that a flag given right after
///   a flag that still waits for its value is taken as that value (and then named by
///   validation when it has the wrong type);
/// - a boolean flag given bare (`--dry-run`) means `true`; `--dry-run false` still works, and a
///   bare boolean flag never swallows the flag after it.
fn cli_value_rules(a: Arg, schema: &Value) -> Arg {
    if !a.get_action().takes_values() || a.get_id() == "args" {
        return a;
    }
    let is_bool = schema
        .pointer(&format!("/properties/{}/type", a.get_id()))
        .and_then(Value::as_str)
        == Some("boolean");
    if is_bool {
        // No hyphen values here: `--recursive --dry-run` must stay two flags.
        a.num_args(0..=1).default_missing_value("true")
    } else {
        a.allow_hyphen_values(true)
    }
}

/// The top-level command with its global flags and no subcommands.
fn root_command() -> Command {
    let cmd = Command::new("agtool")
        .version(env!("CARGO_PKG_VERSION"))
        .about(ABOUT)
        .subcommand_required(true)
        .arg_required_else_help(true);
    global_args(cmd)
}

/// The whole command tree: every tool, then the meta commands (help, completions, man).
pub fn command() -> Command {
    whole_tree(commands::meta_commands())
}

/// The root, every tool, then `metas`.
fn whole_tree(metas: Vec<Command>) -> Command {
    let cmd = tools::registry().iter().fold(root_command(), |cmd, spec| {
        cmd.subcommand(tool_command(spec))
    });
    metas.into_iter().fold(cmd, Command::subcommand)
}

/// The command tree needed to parse `argv`. When `argv[1]` is a subcommand's exact name, only
/// that branch is built: the root with its global flags and that one tool (or the meta
/// commands, which are small). Building all twelve tools' flags, help texts and clap's
/// derived state took about a third of a short call's instructions (`agtool exec -- true`).
/// Parsing, errors and help are the same as with [`command`], since a subcommand's matches,
/// usage and messages depend only on its own branch and the global flags (tested below).
/// Anything else (no arguments, a flag first, an unknown or misspelled name, `help`) gets the
/// whole tree, so suggestions and the top-level help list every subcommand.
pub fn command_for(argv: &[std::ffi::OsString]) -> Command {
    let Some(name) = argv.get(1).and_then(|a| a.to_str()) else {
        return command();
    };
    if let Some(spec) = tools::registry()
        .into_iter()
        .find(|t| t.command_name() == name)
    {
        return root_command().subcommand(tool_command(&spec));
    }
    let metas = commands::meta_commands();
    if metas.iter().any(|m| m.get_name() == name) {
        return metas.into_iter().fold(root_command(), Command::subcommand);
    }
    whole_tree(metas)
}

fn settings(m: &ArgMatches) -> Settings {
    Settings {
        root: m.get_one::<String>("root").map(Into::into),
        agent: m.get_one::<String>("agent").cloned(),
        config: m.get_one::<String>("config").map(Into::into),
        json: m.get_flag("json"),
        no_freshness: m.get_flag("no_freshness"),
        no_syntax_check: m.get_flag("no_syntax_check"),
        groups: m.get_one::<String>("groups").map(|g| Ctx::parse_groups(g)),
        timeout_ms: m.get_one::<u64>("timeout_ms").copied(),
    }
}

/// Runs agtool on `argv` and returns the process exit status.
pub fn main_with(argv: Vec<std::ffi::OsString>) -> i32 {
    let matches = match command_for(&argv).try_get_matches_from(argv) {
        Ok(m) => m,
        Err(e) => {
            let code = e.exit_code();
            let _ = e.print();
            return code;
        }
    };
    let Some((name, sub)) = matches.subcommand() else {
        return 2;
    };
    let settings = settings(sub);
    if let Some(code) = commands::run_early(name, sub) {
        return code;
    }
    let ctx = match Ctx::new(&settings) {
        Ok(ctx) => ctx,
        Err(e) => return print_result(settings.json, Err(ToolError::usage(e))),
    };
    if let Some(spec) = tools::find(name) {
        let result = tool_args(&spec, sub, &ctx).and_then(|v| run_with_timeout(&ctx, &spec, v));
        let passed_through = passed_exit_code(sub, &result);
        let interrupted = interrupted_by(&result);
        let code = print_result(ctx.json, result);
        if let Some(sig) = interrupted {
            crate::exec::interrupt::end_by_sigint(sig);
        }
        return passed_through.unwrap_or(code);
    }
    let result = commands::run(name, sub, &ctx);
    let interrupted = interrupted_by(&result);
    let code = print_result(ctx.json, result);
    if let Some(sig) = interrupted {
        crate::exec::interrupt::end_by_sigint(sig);
    }
    code
}

/// The signal that interrupted the call (spec 05, one-shot exec), if one did.
fn interrupted_by(result: &ToolResult) -> Option<i32> {
    match result {
        Err(ToolError {
            kind: ErrorKind::Interrupted(sig),
            ..
        }) => Some(*sig),
        _ => None,
    }
}

/// With `--exit-code` (exec, spec 05: "for scripts"), the command's own exit code, which the
/// tool reports in its `exit_code` field; None otherwise.
fn passed_exit_code(m: &ArgMatches, result: &ToolResult) -> Option<i32> {
    if !matches!(m.try_get_one::<bool>("exit_code"), Ok(Some(true))) {
        return None;
    }
    let code = result.as_ref().ok()?.fields.get("exit_code")?.as_i64()?;
    i32::try_from(code).ok()
}

/// The JSON arguments of a direct subcommand: `--args` or the flags, then the body from stdin.
fn tool_args(spec: &ToolSpec, m: &ArgMatches, ctx: &Ctx) -> Result<Value, ToolError> {
    let schema = (spec.schema)();
    let flags = args::matches_to_json(schema, m)?;
    let mut stdin_used = false;
    let mut object = match m.get_one::<String>("args") {
        Some(raw) => {
            if !flags.is_empty() {
                let names: Vec<String> = flags.keys().map(|k| k.replace('_', "-")).collect();
                return Err(ToolError::usage(format!(
                    "--args cannot be combined with other arguments (got {})",
                    names.join(", ")
                )));
            }
            stdin_used = raw == "-";
            read_args_object(raw, ctx)?
        }
        None => {
            let mut flags = flags;
            (spec.cli_fixup)(&mut flags, ctx)?;
            flags
        }
    };
    if let Some(body) = spec.meta.body
        && !object.contains_key(body)
        && !stdin_used
        && let Some(text) = read_stdin_body(body, is_required(schema, body))?
    {
        object.insert(body.to_owned(), Value::String(text));
    }
    Ok(Value::Object(object))
}

/// Reads `--args` (inline JSON, `-` for stdin, `@FILE`) into an object.
fn read_args_object(raw: &str, ctx: &Ctx) -> Result<Map<String, Value>, ToolError> {
    let text = if raw == "-" {
        read_stdin_text("--args -")?
    } else if let Some(file) = raw.strip_prefix('@') {
        std::fs::read_to_string(ctx.cwd.join(file))
            .map_err(|e| ToolError::usage(format!("--args @{file}: cannot read: {e}")))?
    } else {
        raw.to_owned()
    };
    parse_object(&text, "--args")
}

/// Parses `text` as a JSON object; `what` names the source in errors.
pub fn parse_object(text: &str, what: &str) -> Result<Map<String, Value>, ToolError> {
    match serde_json::from_str::<Value>(text) {
        Ok(Value::Object(m)) => Ok(m),
        Ok(other) => Err(ToolError::usage(format!(
            "{what}: expected a JSON object, got {}",
            json_type(&other)
        ))),
        Err(e) => Err(ToolError::usage(format!("{what}: not valid JSON: {e}"))),
    }
}

/// The JSON type name of a value, for messages.
pub fn json_type(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

/// Reads all of stdin as UTF-8; never waits on a terminal (spec 00).
pub fn read_stdin_text(what: &str) -> Result<String, ToolError> {
    let stdin = std::io::stdin();
    if stdin.is_terminal() {
        return Err(ToolError::usage(format!(
            "{what} reads from stdin, which is a terminal; pipe the input in"
        )));
    }
    let mut buf = Vec::new();
    stdin
        .lock()
        .read_to_end(&mut buf)
        .map_err(|e| ToolError::usage(format!("cannot read stdin: {e}")))?;
    String::from_utf8(buf).map_err(|_| ToolError::usage(format!("{what}: stdin is not UTF-8")))
}

/// Whether the schema lists `field` as required.
fn is_required(schema: &Value, field: &str) -> bool {
    schema
        .get("required")
        .and_then(Value::as_array)
        .is_some_and(|r| r.iter().any(|v| v == field))
}

/// How long an optional body waits for stdin to show data or end before it counts as absent
/// (generous, because a writer under load may start late; an empty poll waits 5 s anyway).
const OPTIONAL_BODY_WAIT: Duration = Duration::from_millis(1000);

/// The body from stdin, or `None` when stdin is a terminal (validation then reports the
/// missing field). A required body (write-file content, apply-patch input) waits for stdin
/// to end, as `generator | agtool write-file f` needs. An optional body (write-stdin chars,
/// where absent means "only poll") is read only when stdin has data or has ended within
/// 1 s: a harness that leaves an idle pipe open as stdin must not hang a poll.
fn read_stdin_body(field: &str, required: bool) -> Result<Option<String>, ToolError> {
    let stdin = std::io::stdin();
    if stdin.is_terminal() {
        return Ok(None);
    }
    if !required && !stdin_ready(OPTIONAL_BODY_WAIT) {
        return Ok(None);
    }
    read_stdin_text(field).map(Some)
}

/// Whether stdin becomes readable (data, end of file or error) within `wait`.
fn stdin_ready(wait: Duration) -> bool {
    use rustix::event::{PollFd, PollFlags, Timespec, poll};
    let stdin = std::io::stdin();
    let mut fds = [PollFd::new(&stdin, PollFlags::IN)];
    let timeout = Timespec {
        tv_sec: wait.as_secs() as i64,
        tv_nsec: i64::from(wait.subsec_nanos()),
    };
    matches!(poll(&mut fds, Some(&timeout)), Ok(n) if n > 0)
}

/// Runs a tool on a JSON object under its timeout (spec 07, "Timeouts"): the default of the
/// tool, or `--timeout-ms`. A timed-out call is reported with exit 124; the process exits
/// right after, which stops the work, unless the call has started writing files: then it
/// runs to its end (spec 04 "Applying": all or nothing; see [`crate::workspace::write_gate`]).
/// Tools without a default timeout (the exec group) time themselves: exec reads
/// `--timeout-ms` as its own `timeout_ms` and must kill its process tree before returning, so
/// exiting under it would leave the tree running.
pub fn run_with_timeout(ctx: &Ctx, spec: &ToolSpec, value: Value) -> ToolResult {
    let Some(default_ms) = spec.meta.timeout_ms else {
        return (spec.run_json)(ctx, value);
    };
    let ms = ctx.timeout_ms.unwrap_or(default_ms);
    // The tool runs on this thread and a watchdog thread ends the process if it is late:
    // handing the work to another thread and waiting for it costs a scheduling round trip,
    // which on a busy machine was most of a small read-file's time.
    let watchdog = Watchdog::arm(ms, spec.name, ctx.json);
    let result = (spec.run_json)(ctx, value);
    watchdog.disarm();
    result
}

/// Ends the process with `Error: <tool> timed out after <ms> ms` (exit 124) unless disarmed in
/// time or the call is writing files. The watchdog prints and exits while holding the lock
/// that `disarm` takes, so a late result is never printed after the timeout message.
struct Watchdog {
    state: std::sync::Arc<(std::sync::Mutex<bool>, std::sync::Condvar)>,
}

impl Watchdog {
    fn arm(ms: u64, tool: &'static str, json: bool) -> Watchdog {
        let state = std::sync::Arc::new((std::sync::Mutex::new(false), std::sync::Condvar::new()));
        let shared = state.clone();
        std::thread::spawn(move || {
            let (lock, wake) = &*shared;
            let guard = lock.lock().unwrap_or_else(|p| p.into_inner());
            let (disarmed, _) = wake
                .wait_timeout_while(guard, Duration::from_millis(ms), |disarmed| !*disarmed)
                .unwrap_or_else(|p| p.into_inner());
            // While the call writes files it is not abandoned: it finishes (or restores what
            // it wrote) and prints its own result (see `write_gate`).
            if !*disarmed && GATE.abandon() {
                let err = ToolError {
                    kind: ErrorKind::Timeout,
                    message: format!("{tool} timed out after {ms} ms"),
                    fields: Map::new(),
                };
                std::process::exit(print_result(json, Err(err)));
            }
        });
        Watchdog { state }
    }

    fn disarm(self) {
        let (lock, wake) = &*self.state;
        *lock.lock().unwrap_or_else(|p| p.into_inner()) = true;
        wake.notify_one();
    }
}

/// The `--json` envelope of a result.
pub fn envelope(result: &ToolResult) -> Value {
    let mut map = Map::new();
    match result {
        Ok(out) => {
            map.insert("ok".into(), Value::Bool(true));
            map.insert("output".into(), Value::String(out.text.clone()));
            map.insert("error".into(), Value::Null);
            map.extend(out.fields.clone());
        }
        Err(e) => {
            map.insert("ok".into(), Value::Bool(false));
            map.insert(
                "output".into(),
                Value::String(format!("Error: {}", e.message)),
            );
            map.insert("error".into(), Value::String(e.message.clone()));
            map.extend(e.fields.clone());
        }
    }
    Value::Object(map)
}

/// Prints a result as text or the `--json` envelope and returns the exit status: 0 done,
/// 1 refused (stdout `Error: ...`), 2 usage (stderr), 124 timeout.
pub fn print_result(json: bool, result: ToolResult) -> i32 {
    let code = match &result {
        Ok(_) => 0,
        Err(e) => e.exit_code(),
    };
    if json {
        emit(Stream::Out, &format!("{}\n", envelope(&result)));
        if let Err(e) = &result
            && e.kind == ErrorKind::Usage
        {
            emit(Stream::Err, &format!("Error: {}\n", e.message));
        }
        return code;
    }
    match result {
        Ok(out) => {
            if out.text.ends_with('\n') || out.text.is_empty() {
                emit(Stream::Out, &out.text);
            } else {
                emit(Stream::Out, &format!("{}\n", out.text));
            }
        }
        Err(e) if e.kind == ErrorKind::Usage => {
            emit(Stream::Err, &format!("Error: {}\n", e.message))
        }
        Err(e) => emit(Stream::Out, &format!("Error: {}\n", e.message)),
    }
    code
}

enum Stream {
    Out,
    Err,
}

/// Writes `text` to stdout or stderr. A reader that went away (`agtool ... | head`) is not an
/// error to report, and `print!` would panic on it: the write error is dropped and the exit
/// status stays the tool's.
fn emit(stream: Stream, text: &str) {
    use std::io::Write;
    let _ = match stream {
        Stream::Out => {
            let mut out = std::io::stdout().lock();
            out.write_all(text.as_bytes()).and_then(|()| out.flush())
        }
        Stream::Err => std::io::stderr().lock().write_all(text.as_bytes()),
    };
}
