//! `agtool rules test` and `agtool trace summary` (spec 10 "Rules" and "Trace"): the host's
//! view of its rules and of the call trace.

use clap::{Arg, ArgMatches, Command};
use serde_json::Value;

use crate::error::{Output, ToolError, ToolResult};
use crate::faces::input::parse_object;
use crate::hooks::rules::Ruleset;
use crate::hooks::{Site, trace};
use crate::tools;
use crate::workspace::context::Ctx;

/// The `rules` command.
pub fn rules_command() -> Command {
    Command::new("rules")
        .about("Check the allow/ask/deny rules: which rule decides a call, and why")
        .subcommand_required(true)
        .subcommand(
            Command::new("test")
                .about("Say which rule decides a call of TOOL with the JSON arguments, and why")
                .arg(Arg::new("tool").value_name("TOOL").required(true))
                .arg(Arg::new("arguments").value_name("JSON").required(true)),
        )
        .after_help(
            "Examples:\n  agtool rules test exec '{\"command\":[\"git\",\"push\"]}'\n  agtool rules test write_file '{\"path\":\"Cargo.lock\",\"content\":\"\"}'",
        )
}

/// The `trace` command.
pub fn trace_command() -> Command {
    Command::new("trace")
        .about("Read the call trace ([trace] file or AGTOOL_TRACE)")
        .subcommand_required(true)
        .subcommand(
            Command::new("summary")
                .about("Calls, failures, blocked calls and p50/p95 duration per tool"),
        )
        .after_help("Examples:\n  AGTOOL_TRACE=.agent-state/trace.jsonl agtool trace summary")
}

/// Runs `rules test`: the decision (`allow`, `ask` or `deny`), the rule that made it, what it
/// matched and its reason, then every rule that applies and the hooks that would run.
/// Errors: an unknown tool or arguments that do not validate (usage), a configuration error
/// in the rules.
pub fn run_rules(m: &ArgMatches, ctx: &Ctx) -> ToolResult {
    let Some(("test", m)) = m.subcommand() else {
        return Err(ToolError::usage("rules: expected the subcommand test"));
    };
    let name = m
        .get_one::<String>("tool")
        .map(String::as_str)
        .unwrap_or("");
    let spec = tools::find(name)
        .ok_or_else(|| ToolError::usage(format!("rules test: unknown tool {name:?}")))?;
    let json = m
        .get_one::<String>("arguments")
        .map(String::as_str)
        .unwrap_or("{}");
    let args = Value::Object(parse_object(json, "rules test arguments")?);
    let touches = (spec.touches_json)(args)?;
    let rules = Ruleset::from_config(ctx, &tools::is_tool_or_group).map_err(ToolError::usage)?;
    let site = Site {
        name: spec.name,
        group: spec.meta.group.name(),
    };
    let d = rules.decide(ctx, site, &touches);
    let mut out = match &d.source {
        None => format!("allow: {}", d.reason),
        Some(src) if d.what.is_empty() => format!("{} by {src}: {}", d.action.name(), d.reason),
        Some(src) => format!(
            "{} by {src}: {} {}: {}",
            d.action.name(),
            spec.name,
            d.what,
            d.reason
        ),
    };
    let all = rules.explain(ctx, site, &touches);
    if all.len() > 1 {
        out.push_str("\nrules that apply (the strictest wins, then the first):");
        for r in &all {
            out.push_str(&format!(
                "\n  {} {}{}: {}",
                r.source.as_deref().unwrap_or("?"),
                r.action.name(),
                if r.what.is_empty() {
                    String::new()
                } else {
                    format!(" ({})", r.what)
                },
                r.reason
            ));
        }
    }
    if !touches.writes.is_empty() {
        out.push_str(&format!("\nwrites: {}", touches.writes.join(", ")));
    }
    if !touches.reads.is_empty() {
        out.push_str(&format!("\nreads: {}", touches.reads.join(", ")));
    }
    if let Some(argv) = &touches.argv {
        out.push_str(&format!("\nargv: {}", argv.join(" ")));
    }
    if let Some(url) = &touches.url {
        out.push_str(&format!("\nurl: {url}"));
    }
    Ok(Output::text(out)
        .with("decision", d.action.name())
        .with("rule", d.source.clone()))
}

/// Runs `trace summary` (see [`trace::summary`]).
pub fn run_trace(m: &ArgMatches, ctx: &Ctx) -> ToolResult {
    match m.subcommand() {
        Some(("summary", _)) => trace::summary(ctx),
        _ => Err(ToolError::usage("trace: expected the subcommand summary")),
    }
}
