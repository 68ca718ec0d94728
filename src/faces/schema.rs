//! `agtool schema`: the tool definitions for a host, in the anthropic, openai or mcp shape
//! (spec 07, "schema").

use clap::{Arg, ArgAction, ArgMatches, Command};
use serde_json::{Value, json};

use crate::error::{Output, ToolError, ToolResult};
use crate::tools::{self, ToolSpec};
use crate::workspace::context::Ctx;

/// The `schema` subcommand.
pub fn command() -> Command {
    Command::new("schema")
        .about("Print the tool definitions (JSON Schema) for an agent host")
        .arg(Arg::new("tools").value_name("TOOL").num_args(0..).help("Only these tools (default: every tool in the enabled groups)"))
        .arg(
            Arg::new("format")
                .long("format")
                .value_parser(["anthropic", "openai", "mcp"])
                .default_value("anthropic")
                .help("The shape of each definition"),
        )
        .arg(
            Arg::new("no_extensions")
                .long("no-extensions")
                .action(ArgAction::SetTrue)
                .help("Leave out the x-agtool metadata, for consumers that reject unknown keys"),
        )
        .after_help("Examples:\n  agtool schema\n  agtool schema --groups files,edit --format openai\n  agtool schema read_file grep --format mcp")
}

/// Whether a group is enabled by the context's group list (`all` enables every group).
pub fn group_enabled(ctx: &Ctx, spec: &ToolSpec) -> bool {
    ctx.groups
        .iter()
        .any(|g| g == "all" || g == spec.meta.group.name())
}

/// The `x-agtool` metadata object of a tool (seed 002).
pub fn extensions(spec: &ToolSpec) -> Value {
    json!({
        "group": spec.meta.group.name(),
        "sensitive": spec.meta.sensitive,
        "serial": spec.meta.serial,
        "timeout_ms": spec.meta.timeout_ms,
        "idempotent": spec.meta.idempotent,
        "tags": spec.meta.tags,
    })
}

/// One tool's definition in `format`.
pub fn definition(spec: &ToolSpec, format: &str, with_extensions: bool) -> Value {
    let schema = (spec.schema)().clone();
    let mut def = match format {
        "openai" => json!({
            "type": "function",
            "function": {"name": spec.name, "description": spec.meta.description, "parameters": schema},
        }),
        "mcp" => json!({
            "name": spec.name,
            "description": spec.meta.description,
            "inputSchema": schema,
            "annotations": {
                "readOnlyHint": spec.meta.read_only,
                "destructiveHint": spec.meta.destructive,
                "idempotentHint": spec.meta.idempotent,
                "openWorldHint": spec.meta.open_world,
            },
        }),
        _ => {
            json!({"name": spec.name, "description": spec.meta.description, "input_schema": schema})
        }
    };
    if with_extensions {
        def["x-agtool"] = extensions(spec);
    }
    def
}

/// Runs `schema`.
pub fn run(m: &ArgMatches, ctx: &Ctx) -> ToolResult {
    let format = m
        .get_one::<String>("format")
        .map(String::as_str)
        .unwrap_or("anthropic");
    let wanted: Vec<String> = m
        .get_many::<String>("tools")
        .map(|v| v.cloned().collect())
        .unwrap_or_default();
    let mut defs = Vec::new();
    if wanted.is_empty() {
        for spec in tools::registry() {
            if group_enabled(ctx, &spec) {
                defs.push(definition(&spec, format, !m.get_flag("no_extensions")));
            }
        }
    } else {
        for name in &wanted {
            let spec = tools::find(name).ok_or_else(|| unknown_tool(name))?;
            defs.push(definition(&spec, format, !m.get_flag("no_extensions")));
        }
    }
    let text = serde_json::to_string_pretty(&Value::Array(defs)).unwrap_or_default();
    Ok(Output::text(text))
}

/// The error for an unknown tool name, listing the known ones.
pub fn unknown_tool(name: &str) -> ToolError {
    let known: Vec<&str> = tools::registry().iter().map(|t| t.name).collect();
    ToolError::usage(format!(
        "unknown tool {name:?}; known tools: {}",
        known.join(", ")
    ))
}
