//! How a request's arguments arrive (spec 00 "Three ways to pass arguments"): command-line
//! flags turned into the JSON object a program would send, `--args` (inline, `-`, `@FILE`),
//! a body read from stdin, and JSON parsing with model-facing messages.

use std::io::IsTerminal;
use std::time::Duration;

use clap::ArgMatches;
use clap::parser::ValueSource;
use serde_json::{Map, Value};

use crate::error::ToolError;
use crate::tools::ToolSpec;
use crate::workspace::context::Ctx;

/// The JSON arguments of a direct subcommand: `--args` or the flags, then the body from stdin.
pub fn tool_args(spec: &ToolSpec, m: &ArgMatches, ctx: &Ctx) -> Result<Value, ToolError> {
    let schema = (spec.schema)();
    let flags = matches_to_json(schema, m)?;
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
        crate::args::read_file_limited(&ctx.cwd.join(file), &format!("--args @{file}"))?
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
    let buf = crate::args::read_limited(stdin.lock(), &format!("{what}: stdin"))?;
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

/// Builds the JSON arguments object from the flags and positionals given on the command line
/// (not clap defaults), converting each raw string by the schema property's type: integers
/// and numbers parsed (left as strings when they do not parse, so validation names them),
/// booleans from `true`/`false`, arrays of strings from repeated values, other arrays and
/// objects parsed as JSON.
pub fn matches_to_json(
    schema: &Value,
    matches: &ArgMatches,
) -> Result<Map<String, Value>, ToolError> {
    let mut out = Map::new();
    let Some(props) = schema.get("properties").and_then(Value::as_object) else {
        return Ok(out);
    };
    for (name, prop) in props {
        match matches.value_source(name) {
            Some(ValueSource::CommandLine) | Some(ValueSource::EnvVariable) => {}
            _ => continue,
        }
        let Ok(Some(raw)) = matches.try_get_raw(name) else {
            continue;
        };
        let raw: Vec<String> = raw.map(|s| s.to_string_lossy().into_owned()).collect();
        out.insert(name.clone(), convert(name, prop, raw)?);
    }
    Ok(out)
}

fn convert(name: &str, prop: &Value, raw: Vec<String>) -> Result<Value, ToolError> {
    let ty = prop.get("type").and_then(Value::as_str).unwrap_or("string");
    let first = raw.first().cloned().unwrap_or_default();
    let parse_json = |s: &str| {
        serde_json::from_str::<Value>(s).map_err(|e| {
            ToolError::usage(format!("--{}: not valid JSON: {e}", name.replace('_', "-")))
        })
    };
    Ok(match ty {
        "integer" => first
            .parse::<i64>()
            .map(Value::from)
            .or_else(|_| first.parse::<u64>().map(Value::from))
            .unwrap_or(Value::String(first)),
        "number" => first
            .parse::<f64>()
            .ok()
            .and_then(|f| serde_json::Number::from_f64(f).map(Value::Number))
            .unwrap_or(Value::String(first)),
        "boolean" => match first.as_str() {
            "true" | "" => Value::Bool(true),
            "false" => Value::Bool(false),
            _ => Value::String(first),
        },
        "array" => {
            let item_ty = prop
                .get("items")
                .and_then(|i| i.get("type"))
                .and_then(Value::as_str);
            if item_ty == Some("string") {
                Value::Array(raw.into_iter().map(Value::String).collect())
            } else if raw.len() == 1 && first.trim_start().starts_with('[') {
                parse_json(&first)?
            } else {
                Value::Array(
                    raw.iter()
                        .map(|r| parse_json(r))
                        .collect::<Result<Vec<_>, _>>()?,
                )
            }
        }
        "object" => parse_json(&first)?,
        _ => Value::String(first),
    })
}
