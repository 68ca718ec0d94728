//! `agtool schema`: the tool definitions for a host, in the shape each API accepts as it is
//! (spec 07, "schema"): anthropic, openai (Chat Completions), openai-responses, mcp and gemini.
//!
//! Gemini: `functionDeclarations` entries `{name, description, parameters}` with `parameters`
//! in the OpenAPI 3.0 subset ([`gemini`]), not `parametersJsonSchema`: every Gemini API
//! version and Vertex AI take `parameters`, while `parametersJsonSchema` is newer and not
//! taken everywhere; agtool's schemas map onto the subset without losing what a model needs
//! (unsupported keywords move into the descriptions, and calls are still validated against the
//! full schema). The array printed is the `functionDeclarations` list of one `tools` entry.

use clap::{Arg, ArgAction, ArgMatches, Command};
use serde_json::{Value, json};

use crate::args::export::{fit_description, gemini, portable, strict};
use crate::error::{ErrorKind, Output, ToolError, ToolResult};
use crate::tools::{self, Exposed, ToolMeta, ToolView};
use crate::workspace::context::Ctx;

/// The shapes `schema` prints.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    /// Anthropic Messages API: `{name, description, input_schema}`.
    Anthropic,
    /// OpenAI Chat Completions: `{type: "function", function: {name, description, parameters}}`.
    OpenAi,
    /// OpenAI Responses API: `{type: "function", name, description, parameters, strict}`.
    OpenAiResponses,
    /// MCP `tools/list`: `{name, description, inputSchema, annotations}`.
    Mcp,
    /// Gemini function declarations: `{name, description, parameters}` (OpenAPI subset).
    Gemini,
}

impl Format {
    /// Every format with its `--format` name.
    pub const ALL: [(Format, &'static str); 5] = [
        (Format::Anthropic, "anthropic"),
        (Format::OpenAi, "openai"),
        (Format::OpenAiResponses, "openai-responses"),
        (Format::Mcp, "mcp"),
        (Format::Gemini, "gemini"),
    ];

    /// The format called `name`.
    pub fn from_name(name: &str) -> Option<Format> {
        Format::ALL
            .into_iter()
            .find(|(_, n)| *n == name)
            .map(|(f, _)| f)
    }

    /// Most characters the API takes in a tool's description, where it has a documented cap:
    /// OpenAI's function `description` is at most 1,024 characters (issue 18 §2). The others
    /// take the skill catalogue's own 8,000 (spec 06).
    pub fn description_limit(self) -> Option<usize> {
        match self {
            Format::OpenAi | Format::OpenAiResponses => Some(1024),
            Format::Anthropic | Format::Mcp | Format::Gemini => None,
        }
    }

    /// Whether `--strict` applies (the OpenAI formats).
    pub fn takes_strict(self) -> bool {
        matches!(self, Format::OpenAi | Format::OpenAiResponses)
    }
}

/// How to print a definition.
#[derive(Debug, Clone, Copy)]
pub struct Shape {
    /// The API's shape.
    pub format: Format,
    /// OpenAI strict mode (only with an OpenAI format).
    pub strict: bool,
    /// Add the `x-agtool` metadata (which the APIs themselves reject).
    pub extensions: bool,
}

/// The `schema` subcommand.
pub fn command() -> Command {
    let formats: Vec<&str> = Format::ALL.iter().map(|(_, n)| *n).collect();
    Command::new("schema")
        .about("Print the tool definitions (JSON Schema) for an agent host")
        .arg(Arg::new("tools").value_name("TOOL").num_args(0..).help("Only these tools (default: every tool in the enabled groups)"))
        .arg(
            Arg::new("format")
                .long("format")
                .value_parser(formats)
                .default_value("anthropic")
                .help("The API whose tool shape to print"),
        )
        .arg(
            Arg::new("strict")
                .long("strict")
                .action(ArgAction::SetTrue)
                .help("OpenAI strict mode: every property required (optional ones nullable), no extra keys, constraints in the descriptions"),
        )
        .arg(
            Arg::new("extensions")
                .long("extensions")
                .action(ArgAction::SetTrue)
                .help("Add agtool's own metadata as \"x-agtool\" (group, sensitive, serial, timeout_ms, idempotent, tags); APIs reject it"),
        )
        .arg(
            // The default used to carry x-agtool; the old opt-out is kept so scripts still run.
            Arg::new("no_extensions")
                .long("no-extensions")
                .action(ArgAction::SetTrue)
                .conflicts_with("extensions")
                .hide(true),
        )
        .after_help("Examples:\n  agtool schema\n  agtool schema --groups files,edit --format openai --strict\n  agtool schema read_file grep --format mcp")
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

/// The MCP tool annotations of a tool (spec 07 "schema", mcp).
pub fn annotations(meta: &ToolMeta) -> Value {
    json!({
        "readOnlyHint": meta.read_only,
        "destructiveHint": meta.destructive,
        "idempotentHint": meta.idempotent,
        "openWorldHint": meta.open_world,
    })
}

/// How descriptions name the directory relative paths resolve against: true for `call` and
/// the CLI, which run where the host runs them.
const CWD: &str = "the current directory";

/// The same for an MCP server (issue 18 §2): it resolves paths against its own working
/// directory (the workspace root when the host started it outside the workspace), which its
/// `instructions` name.
const MCP_CWD: &str = "the server's working directory, named in its instructions";

/// Replaces `from` with `to` in every `description` of a schema, at every depth.
fn say_in_descriptions(node: &mut Value, from: &str, to: &str) {
    match node {
        Value::Object(map) => {
            for (key, value) in map.iter_mut() {
                match value {
                    Value::String(text) if key == "description" && text.contains(from) => {
                        *text = text.replace(from, to);
                    }
                    other => say_in_descriptions(other, from, to),
                }
            }
        }
        Value::Array(items) => items
            .iter_mut()
            .for_each(|item| say_in_descriptions(item, from, to)),
        _ => {}
    }
}

/// One tool's definition in `shape`: a portable schema (see [`portable`]), made strict when
/// asked, wrapped the way the API wants it.
pub fn definition(tool: &Exposed, shape: Shape) -> Value {
    let spec = &tool.spec;
    let mut schema = (spec.schema)().clone();
    portable(&mut schema);
    let strict_mode = shape.strict && shape.format.takes_strict();
    if strict_mode {
        strict(&mut schema);
    }
    if shape.format == Format::Gemini {
        gemini(&mut schema);
    }
    if shape.format == Format::Mcp {
        say_in_descriptions(&mut schema, CWD, MCP_CWD);
    }
    // The description as this format shows it: each step a plain transform of the text (and
    // of the schema where text moves into it), so another one slots in between.
    let mut description = tool.view.description.to_string();
    if shape.format == Format::Mcp {
        description = description.replace(CWD, MCP_CWD);
    }
    fit_description(
        &mut description,
        &mut schema,
        shape.format.description_limit(),
        crate::skills::CATALOGUE_HEADING,
    );
    let mut def = match shape.format {
        Format::Anthropic => {
            json!({"name": spec.name, "description": description, "input_schema": schema})
        }
        Format::OpenAi => {
            let mut function =
                json!({"name": spec.name, "description": description, "parameters": schema});
            if strict_mode {
                function["strict"] = Value::Bool(true);
            }
            json!({"type": "function", "function": function})
        }
        // The Responses API takes strict mode as the default when `strict` is left out, so
        // the flag is always spelled out.
        Format::OpenAiResponses => json!({
            "type": "function",
            "name": spec.name,
            "description": description,
            "parameters": schema,
            "strict": strict_mode,
        }),
        Format::Mcp => json!({
            "name": spec.name,
            "description": description,
            "inputSchema": schema,
            "annotations": annotations(&tool.view.meta),
        }),
        Format::Gemini => {
            json!({"name": spec.name, "description": description, "parameters": schema})
        }
    };
    if shape.extensions {
        def["x-agtool"] = extensions(&tool.view);
    }
    def
}

/// The definitions of the tools `ctx` exposes (all of them, or the `wanted` ones in that
/// order). A wanted tool that is unknown or outside the enabled groups is a usage error saying
/// which groups are enabled.
pub fn definitions(ctx: &Ctx, wanted: &[String], shape: Shape) -> Result<Vec<Value>, ToolError> {
    if shape.strict && !shape.format.takes_strict() {
        return Err(ToolError::usage(
            "--strict is OpenAI's strict mode: use it with --format openai or openai-responses",
        ));
    }
    let exposed = tools::exposed(ctx)?;
    if wanted.is_empty() {
        return Ok(exposed.iter().map(|t| definition(t, shape)).collect());
    }
    wanted
        .iter()
        .map(|name| {
            let tool = tools::exposed_tool(ctx, name).map_err(|mut e| {
                e.kind = ErrorKind::Usage;
                e
            })?;
            Ok(definition(&tool, shape))
        })
        .collect()
}

/// Runs `schema`.
pub fn run(m: &ArgMatches, ctx: &Ctx) -> ToolResult {
    let format = m
        .get_one::<String>("format")
        .and_then(|f| Format::from_name(f))
        .unwrap_or(Format::Anthropic);
    let wanted: Vec<String> = m
        .get_many::<String>("tools")
        .map(|v| v.cloned().collect())
        .unwrap_or_default();
    let shape = Shape {
        format,
        strict: m.get_flag("strict"),
        extensions: m.get_flag("extensions"),
    };
    let defs = definitions(ctx, &wanted, shape)?;
    let text = serde_json::to_string_pretty(&Value::Array(defs)).unwrap_or_default();
    Ok(Output::text(text))
}
