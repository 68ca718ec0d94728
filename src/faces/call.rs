//! `agtool call`: run a tool from a JSON object or a tool-call envelope on stdin, for agent
//! hosts (spec 00 "Three ways to pass arguments", spec 07 "call").

use clap::{Arg, ArgAction, ArgMatches, Command};
use serde_json::{Map, Value};

use crate::error::{ErrorKind, Output, ToolError, ToolResult};
use crate::faces::input::{json_type, parse_object, read_stdin_text};
use crate::faces::run::run_with_timeout;
use crate::tools;
use crate::workspace::context::Ctx;

/// The `call` subcommand.
pub fn command() -> Command {
    Command::new("call")
        .about("Run a tool with its JSON arguments (or a tool-call envelope) read from stdin")
        .arg(Arg::new("name").value_name("TOOL").help("The tool (snake_case); without it stdin holds an envelope {name, input} or {name, arguments}"))
        .arg(
            Arg::new("batch")
                .long("batch")
                .action(ArgAction::SetTrue)
                .conflicts_with("name")
                .help("stdin holds a JSON array of envelopes; prints a JSON array of results"),
        )
        .after_help("Examples:\n  echo '{\"path\":\"src/lib.rs\"}' | agtool call read_file\n  echo '{\"name\":\"grep\",\"input\":{\"pattern\":\"TODO\"}}' | agtool call\n  agtool call --groups files,edit --batch < calls.json")
}

/// Resolves an envelope into (tool name, arguments object). Accepts the Anthropic tool_use
/// shape `{name, input}`, the OpenAI function-call shape `{name, arguments: "<json>"}` and the
/// OpenAI tool_call wrapper `{type: "function", function: {...}}`.
pub fn parse_envelope(v: &Value) -> Result<(String, Value), ToolError> {
    let v = v.get("function").unwrap_or(v);
    let name = v
        .get("name")
        .and_then(Value::as_str)
        .ok_or_else(|| ToolError::usage("envelope: missing string field \"name\""))?
        .to_owned();
    let args = match (v.get("input"), v.get("arguments")) {
        (Some(input), _) => input.clone(),
        (None, Some(Value::String(s))) => Value::Object(parse_object(s, "envelope arguments")?),
        (None, Some(obj @ Value::Object(_))) => obj.clone(),
        (None, Some(_)) => {
            return Err(ToolError::usage(
                "envelope: \"arguments\" must be a JSON string or object",
            ));
        }
        (None, None) => Value::Object(Map::new()),
    };
    Ok((name, args))
}

/// The id an envelope carries, if any, as the host spelled it: `call_id` (an OpenAI Responses
/// function_call item, whose `id` is the item's own), else `tool_use_id`, else `id` (an
/// Anthropic tool_use block, an OpenAI Chat tool_call).
pub fn envelope_id(v: &Value) -> Option<Value> {
    ["call_id", "tool_use_id", "id"]
        .iter()
        .find_map(|k| v.get(*k).filter(|id| !id.is_null()).cloned())
}

/// Whether the envelope (not the tool's arguments) carries `"approved": true`: the host's
/// user approved the call (spec 10 "Rules").
pub fn envelope_approved(v: &Value) -> bool {
    v.get("approved").and_then(Value::as_bool) == Some(true)
}

/// Runs one call of a tool the context exposes (a tool outside the enabled groups is refused
/// with the groups that are enabled, spec 00).
fn run_one(ctx: &Ctx, name: &str, args: Value) -> ToolResult {
    let spec = tools::exposed_tool(ctx, name)?.spec;
    if !args.is_object() {
        return Err(ToolError::usage(format!(
            "arguments for {name}: expected a JSON object, got {}",
            json_type(&args)
        )));
    }
    run_with_timeout(ctx, &spec, args)
}

/// Runs `call`.
pub fn run(m: &ArgMatches, ctx: &Ctx) -> ToolResult {
    let input = read_stdin_text("call")?;
    if m.get_flag("batch") {
        return run_batch(ctx, &input);
    }
    match m.get_one::<String>("name") {
        Some(name) => {
            let args = Value::Object(parse_object(&input, "call arguments")?);
            run_one(ctx, name, args)
        }
        None => {
            let v: Value = serde_json::from_str(&input)
                .map_err(|e| ToolError::usage(format!("envelope: not valid JSON: {e}")))?;
            if v.is_array() {
                return Err(ToolError::usage(
                    "call: stdin holds a JSON array; several calls go through agtool call --batch",
                ));
            }
            let (name, args) = parse_envelope(&v)?;
            if envelope_approved(&v) {
                let mut approved = ctx.for_call(ctx.cancel.clone());
                approved.approved = true;
                return run_one(&approved, &name, args);
            }
            run_one(ctx, &name, args)
        }
    }
}

/// `call --batch`: every envelope runs, in parallel unless one of them is a serial tool, and
/// the results come back in input order as `{id, name, ok, output}`, `id` echoing the
/// envelope's `id` / `call_id` / `tool_use_id` when it has one (spec 07 "call").
fn run_batch(ctx: &Ctx, input: &str) -> ToolResult {
    let calls: Vec<Value> = match serde_json::from_str(input) {
        Ok(Value::Array(a)) => a,
        Ok(_) => {
            return Err(ToolError::usage(
                "call --batch: expected a JSON array of envelopes",
            ));
        }
        Err(e) => {
            return Err(ToolError::usage(format!(
                "call --batch: not valid JSON: {e}"
            )));
        }
    };
    let parsed: Vec<Result<(String, Value), ToolError>> =
        calls.iter().map(parse_envelope).collect();
    let serial = parsed.iter().any(|p| {
        p.as_ref()
            .ok()
            .and_then(|(n, _)| tools::find(n))
            .is_some_and(|s| s.meta.serial)
    });
    let run = |(p, call): (&Result<(String, Value), ToolError>, &Value)| -> (String, ToolResult) {
        match p {
            Ok((name, args)) => {
                if envelope_approved(call) {
                    let mut approved = ctx.for_call(ctx.cancel.clone());
                    approved.approved = true;
                    return (name.clone(), run_one(&approved, name, args.clone()));
                }
                (name.clone(), run_one(ctx, name, args.clone()))
            }
            Err(e) => (String::new(), Err(e.clone())),
        }
    };
    let results: Vec<(String, ToolResult)> = if serial {
        let mut results = Vec::with_capacity(parsed.len());
        for p in parsed.iter().zip(&calls) {
            let (name, result) = run(p);
            // A termination signal during an exec ends the batch: the caller wants agtool gone.
            if let Err(e) = &result
                && matches!(e.kind, ErrorKind::Interrupted(_))
            {
                return result;
            }
            results.push((name, result));
        }
        results
    } else {
        std::thread::scope(|s| {
            let handles: Vec<_> = parsed
                .iter()
                .zip(&calls)
                .map(|p| s.spawn(move || run(p)))
                .collect();
            handles
                .into_iter()
                .map(|h| {
                    h.join().unwrap_or_else(|_| {
                        (String::new(), Err(ToolError::refused("the call panicked")))
                    })
                })
                .collect()
        })
    };
    let out: Vec<Value> = results
        .into_iter()
        .zip(&calls)
        .map(|((name, r), call)| {
            let (ok, exit, output) = match r {
                Ok(o) => (true, 0, o.text),
                Err(e) => (false, e.exit_code(), e.model_text()),
            };
            let mut result = Map::new();
            if let Some(id) = envelope_id(call) {
                result.insert("id".into(), id);
            }
            result.insert("name".into(), Value::String(name));
            result.insert("ok".into(), Value::Bool(ok));
            result.insert("output".into(), Value::String(output));
            // What the call's exit status would be on its own: approval needed (3), bad
            // arguments (2) and a refusal (1) were told apart only by the output's text.
            result.insert("exit".into(), Value::from(exit));
            Value::Object(result)
        })
        .collect();
    Ok(Output::text(
        serde_json::to_string_pretty(&Value::Array(out)).unwrap_or_default(),
    ))
}
