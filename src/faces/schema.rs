//! `agtool schema`: the tool definitions for a host, in the anthropic, openai or mcp shape
//! (spec 07, "schema").

use clap::{Arg, ArgAction, ArgMatches, Command};
use serde_json::{Value, json};

use crate::error::{Output, ToolError, ToolResult};
use crate::tools::{self, ToolSpec, ToolView};
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
    spec.in_groups(&ctx.groups)
}

/// The `x-agtool` metadata object of a tool (seed 002), as it looks in this context.
pub fn extensions(view: &ToolView) -> Value {
    let meta = &view.meta;
    json!({
        "group": meta.group.name(),
        "sensitive": meta.sensitive,
        "serial": meta.serial,
        "timeout_ms": meta.timeout_ms,
        "idempotent": meta.idempotent,
        "tags": meta.tags,
    })
}

/// One tool's definition in `format`, from its view in the context ([`ToolSpec::view`]).
pub fn definition(spec: &ToolSpec, view: &ToolView, format: &str, with_extensions: bool) -> Value {
    let schema = (spec.schema)().clone();
    let description = view.description.as_ref();
    let meta = &view.meta;
    let mut def = match format {
        "openai" => json!({
            "type": "function",
            "function": {"name": spec.name, "description": description, "parameters": schema},
        }),
        "mcp" => json!({
            "name": spec.name,
            "description": description,
            "inputSchema": schema,
            "annotations": {
                "readOnlyHint": meta.read_only,
                "destructiveHint": meta.destructive,
                "idempotentHint": meta.idempotent,
                "openWorldHint": meta.open_world,
            },
        }),
        _ => {
            json!({"name": spec.name, "description": description, "input_schema": schema})
        }
    };
    if with_extensions {
        def["x-agtool"] = extensions(view);
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
    let with_extensions = !m.get_flag("no_extensions");
    let mut defs = Vec::new();
    if wanted.is_empty() {
        for (spec, view) in tools::offered(ctx) {
            defs.push(definition(&spec, &view, format, with_extensions));
        }
    } else {
        for name in &wanted {
            let spec = tools::find(name).ok_or_else(|| unknown_tool(name))?;
            let view = spec.view(ctx).map_err(|why| left_out(&spec, &why))?;
            defs.push(definition(&spec, &view, format, with_extensions));
        }
    }
    let text = serde_json::to_string_pretty(&Value::Array(defs)).unwrap_or_default();
    Ok(Output::text(text))
}

/// The error for a tool left out in this context ([`ToolSpec::view`] gave `why`).
pub fn left_out(spec: &ToolSpec, why: &str) -> ToolError {
    ToolError::usage(format!("{} is not available here: {why}", spec.name))
}

/// The error for an unknown tool name, listing the known ones.
pub fn unknown_tool(name: &str) -> ToolError {
    let known: Vec<&str> = tools::registry().iter().map(|t| t.name).collect();
    ToolError::usage(format!(
        "unknown tool {name:?}; known tools: {}",
        known.join(", ")
    ))
}
