//! The tool registry: every tool listed once (spec 07, "One definition per tool").
//!
//! A tool is one file in this folder: an argument struct deriving `serde::Deserialize`,
//! `schemars::JsonSchema` and `clap::Args`, a unit struct implementing [`Tool`], and one line
//! in [`registry`]. The CLI subcommand, the JSON Schema, JSON parsing and validation, `call`
//! and `schema` all come from that definition, so they cannot drift.

pub mod apply_patch;
pub mod copy_path;
pub mod delete_path;
pub mod diagnostics;
pub mod edit_file;
pub mod edit_lines;
pub mod exec;
pub mod exec_command;
pub mod glob;
pub mod grep;
pub mod list_dir;
pub mod make_dir;
pub mod move_path;
pub mod notebook_edit;
pub mod notes_delete;
pub mod notes_list;
pub mod notes_read;
pub mod notes_write;
pub mod read_file;
pub mod skill;
pub mod web_fetch;
pub mod write_file;
pub mod write_stdin;

use std::borrow::Cow;

use clap::Command;
use serde::de::DeserializeOwned;
use serde_json::Value;

use crate::args;
use crate::error::{ToolError, ToolResult};
pub use crate::hooks::Touches;
use crate::workspace::context::Ctx;

/// A tool group (spec 00, "Groups, sensitivity, serial").
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Group {
    /// read_file list_dir glob grep: on by default.
    Files,
    /// write_file edit_file edit_lines apply_patch notebook_edit move_path copy_path make_dir.
    Edit,
    /// delete_path.
    Delete,
    /// exec exec_command write_stdin.
    Exec,
    /// web_fetch.
    Web,
    /// skill.
    Skill,
    /// notes_*.
    Notes,
}

impl Group {
    /// Every group, in the order messages list them.
    pub const ALL: [Group; 7] = [
        Group::Files,
        Group::Edit,
        Group::Delete,
        Group::Exec,
        Group::Web,
        Group::Skill,
        Group::Notes,
    ];

    /// The group called `name` in `--groups`, None for an unknown name.
    pub fn from_name(name: &str) -> Option<Group> {
        Group::ALL.into_iter().find(|g| g.name() == name)
    }

    /// The group's name as used in `--groups` and config `tools.groups`.
    pub fn name(self) -> &'static str {
        match self {
            Group::Files => "files",
            Group::Edit => "edit",
            Group::Delete => "delete",
            Group::Exec => "exec",
            Group::Web => "web",
            Group::Skill => "skill",
            Group::Notes => "notes",
        }
    }
}

/// Static facts about a tool (seed 002's tool metadata; exported as `x-agtool`).
#[derive(Debug, Clone, Copy)]
pub struct ToolMeta {
    /// The model-facing description (first line is the one-line summary).
    pub description: &'static str,
    /// Examples for `--help`, one command per line.
    pub examples: &'static str,
    /// Group.
    pub group: Group,
    /// Needs approval in a host that asks (spec 00).
    pub sensitive: bool,
    /// Has side effects: a batch holding one runs in order (spec 00).
    pub serial: bool,
    /// Changes nothing (MCP `readOnlyHint`).
    pub read_only: bool,
    /// May destroy data (MCP `destructiveHint`).
    pub destructive: bool,
    /// Repeating the call has no further effect (MCP `idempotentHint`).
    pub idempotent: bool,
    /// Reaches outside the workspace (MCP `openWorldHint`).
    pub open_world: bool,
    /// Default timeout in ms (spec 07); `None` when the tool has its own (exec).
    pub timeout_ms: Option<u64>,
    /// The JSON field filled from stdin when neither a flag nor JSON gives it (spec 00,
    /// "Tools with a body").
    pub body: Option<&'static str>,
    /// Free-form tags for the schema export.
    pub tags: &'static [&'static str],
}

/// What a tool looks like in one context (workspace, configuration, the host's skill
/// folders): the description and metadata every face shows (`schema`, `call`, `mcp`).
/// Most tools look the same everywhere ([`ToolView::of`] their `META`); a tool whose
/// description or flags depend on the context computes its view in [`Tool::view`].
#[derive(Debug, Clone)]
pub struct ToolView {
    /// The model-facing description in this context (e.g. `skill` with its catalogue).
    pub description: Cow<'static, str>,
    /// The metadata in this context (e.g. `notes_write` sensitive when
    /// `notes.write_sensitive = true`). `meta.description` is the static description.
    pub meta: ToolMeta,
}

impl ToolView {
    /// The view of a tool that looks the same in every context.
    pub fn of(meta: ToolMeta) -> ToolView {
        ToolView {
            description: Cow::Borrowed(meta.description),
            meta,
        }
    }
}

/// One tool: its arguments, name, metadata and behaviour.
pub trait Tool {
    /// The argument struct: the single source of flags, schema and JSON parsing.
    type Args: DeserializeOwned + schemars::JsonSchema + clap::Args + 'static;
    /// The model-facing snake_case name (`read_file`); the subcommand is its kebab-case form.
    const NAME: &'static str;
    /// Metadata.
    const META: ToolMeta;
    /// The parent command on the command line, for tools that are verbs of one command
    /// (`notes_list` is `agtool notes list`: parent `notes`); `None` for a top-level
    /// subcommand. The verb is the name without `<parent>_`, in kebab-case.
    const CLI_PARENT: Option<&'static str> = None;
    /// How the tool looks in `ctx` (see [`ToolView`]); `Err(reason)` leaves it out of
    /// `schema`, `call` and `mcp` (`skill` with no skill at all). Direct subcommands always
    /// run. The default: [`ToolView::of`] `META`, always offered.
    fn view(_ctx: &Ctx) -> Result<ToolView, String> {
        Ok(ToolView::of(Self::META))
    }
    /// Adjusts the JSON object built from command-line flags before validation (for flags
    /// whose CLI meaning differs from the JSON field, such as apply-patch's `--input FILE`).
    fn cli_fixup(_args: &mut serde_json::Map<String, Value>, _ctx: &Ctx) -> Result<(), ToolError> {
        Ok(())
    }
    /// What a call with `args` touches, for the rules (spec 10 "Rules"): the paths it reads
    /// and writes (both ends of a move, every file of a patch), its argv, its URL. The
    /// default: nothing (rules with matchers never apply; rules without apply by name).
    fn touches(_args: &Self::Args) -> Touches {
        Touches::default()
    }
    /// Runs the tool on validated arguments.
    fn run(ctx: &Ctx, args: Self::Args) -> ToolResult;
}

/// A registered tool, type-erased so the CLI, `call` and `schema` can iterate over them.
pub struct ToolSpec {
    /// snake_case name.
    pub name: &'static str,
    /// Static metadata (the faces show [`ToolSpec::view`], which may differ per context).
    pub meta: ToolMeta,
    /// See [`Tool::CLI_PARENT`].
    pub parent: Option<&'static str>,
    /// See [`Tool::view`]; call it through [`ToolSpec::view`].
    pub view_fn: fn(&Ctx) -> Result<ToolView, String>,
    /// The argument JSON Schema (properties in declaration order), made once per process from
    /// its built-in copy (see [`args::embedded`]).
    pub schema: fn() -> &'static Value,
    /// The argument JSON Schema as the argument type generates it now (what the built-in copy
    /// must equal).
    pub generate_schema: fn() -> Value,
    /// Adds the tool's flags and positionals to a clap command.
    pub augment: fn(Command) -> Command,
    /// See [`Tool::cli_fixup`].
    pub cli_fixup: fn(&mut serde_json::Map<String, Value>, &Ctx) -> Result<(), ToolError>,
    /// Validates a JSON object against the schema, deserialises it and runs the tool, with
    /// the hooks, rules and trace of spec 10 when any are configured: every face runs tools
    /// through this one function.
    pub run_json: fn(&Ctx, Value) -> ToolResult,
    /// Validates a JSON object and says what the call would touch (see [`Tool::touches`]);
    /// `agtool rules test` uses it.
    pub touches_json: fn(Value) -> Result<Touches, ToolError>,
}

impl ToolSpec {
    /// The subcommand name (kebab-case): the verb under [`ToolSpec::parent`] when there is
    /// one (`notes_list` → `list`).
    pub fn command_name(&self) -> String {
        let own = match self.parent {
            Some(parent) => self
                .name
                .strip_prefix(parent)
                .and_then(|rest| rest.strip_prefix('_'))
                .unwrap_or(self.name),
            None => self.name,
        };
        own.replace('_', "-")
    }

    /// The single place every face (`schema`, `call`, `mcp`) asks how this tool looks in
    /// `ctx`: its description and metadata there, or `Err(reason)` when it is left out
    /// (spec 06: `skill` with no skill at all).
    pub fn view(&self, ctx: &Ctx) -> Result<ToolView, String> {
        let mut view = (self.view_fn)(ctx)?;
        // Per-host definitions (spec 10): `[tools.<name>]`.
        if let Some(o) = ctx
            .config
            .tools
            .as_ref()
            .and_then(|t| t.overrides.get(self.name))
        {
            if o.enabled == Some(false) {
                return Err(format!(
                    "{} is switched off by the configuration (tools.{}.enabled = false)",
                    self.name, self.name
                ));
            }
            if let Some(d) = &o.description {
                view.description = Cow::Owned(d.clone());
            }
            if let Some(a) = &o.description_append {
                view.description = Cow::Owned(format!("{}\n\n{a}", view.description.trim_end()));
            }
            if let Some(s) = o.sensitive {
                view.meta.sensitive = s;
            }
        }
        Ok(view)
    }

    /// Whether the tool's group is enabled by `groups` (`all` enables every group).
    pub fn in_groups(&self, groups: &[String]) -> bool {
        groups
            .iter()
            .any(|g| g == "all" || g == self.meta.group.name())
    }
}

/// A parent command's one-line summary (see [`Tool::CLI_PARENT`]).
pub fn parent_about(parent: &str) -> &'static str {
    match parent {
        "notes" => "Keep notes that outlive the session: list, read, write, delete",
        _ => "",
    }
}

/// Normalises, validates and parses a tool's JSON arguments.
fn prepare<T: Tool>(mut value: Value) -> Result<T::Args, ToolError> {
    if value.get("approved").is_some() {
        // Spec 10: a model cannot approve its own call; approval is the host's.
        return Err(ToolError::usage(format!(
            "\"approved\" is not an argument of {}: approval comes from the host (--approved, \
             or \"approved\": true in the call envelope), never from the tool's arguments",
            T::NAME
        )));
    }
    args::normalize_json(&mut value);
    args::validate(schema_of::<T>(), &value)?;
    serde_json::from_value(value)
        .map_err(|e| ToolError::usage(format!("invalid arguments for {}: {e}", T::NAME)))
}

fn run_json<T: Tool>(ctx: &Ctx, value: Value) -> ToolResult {
    if !crate::hooks::active(ctx) {
        return T::run(ctx, prepare::<T>(value)?);
    }
    let site = crate::hooks::Site {
        name: T::NAME,
        group: T::META.group.name(),
    };
    let steps = crate::hooks::Steps {
        prepare: &prepare::<T>,
        touches: &T::touches,
        run: &|args| T::run(ctx, args),
    };
    crate::hooks::around(ctx, site, value, &is_tool_or_group, steps)
}

fn touches_json<T: Tool>(value: Value) -> Result<Touches, ToolError> {
    Ok(T::touches(&prepare::<T>(value)?))
}

/// Whether `name` is a tool's or a group's name (or `all`), for checking rules.
pub fn is_tool_or_group(name: &str) -> bool {
    name == "all" || Group::from_name(name).is_some() || find(name).is_some()
}

/// `T`'s argument schema, from its built-in copy (see [`args::embedded`]).
fn schema_of<T: Tool>() -> &'static Value {
    args::cached_schema::<T::Args>(args::embedded::schema_text(T::NAME))
}

/// The registry entry for `T`.
pub fn spec<T: Tool>() -> ToolSpec {
    ToolSpec {
        name: T::NAME,
        meta: T::META,
        parent: T::CLI_PARENT,
        view_fn: T::view,
        schema: schema_of::<T>,
        generate_schema: args::schema_for::<T::Args>,
        augment: <T::Args as clap::Args>::augment_args,
        cli_fixup: T::cli_fixup,
        run_json: run_json::<T>,
        touches_json: touches_json::<T>,
    }
}

/// Every tool, in the order `schema` lists them. Adding a tool adds one line here.
pub fn registry() -> Vec<ToolSpec> {
    vec![
        spec::<read_file::ReadFile>(),
        spec::<list_dir::ListDir>(),
        spec::<glob::Glob>(),
        spec::<grep::Grep>(),
        spec::<diagnostics::Diagnostics>(),
        spec::<write_file::WriteFile>(),
        spec::<edit_file::EditFile>(),
        spec::<edit_lines::EditLines>(),
        spec::<apply_patch::ApplyPatch>(),
        spec::<notebook_edit::NotebookEdit>(),
        spec::<move_path::MovePath>(),
        spec::<copy_path::CopyPath>(),
        spec::<make_dir::MakeDir>(),
        spec::<delete_path::DeletePath>(),
        spec::<exec::Exec>(),
        spec::<exec_command::ExecCommand>(),
        spec::<write_stdin::WriteStdin>(),
        spec::<web_fetch::WebFetch>(),
        spec::<skill::Skill>(),
        spec::<notes_list::NotesList>(),
        spec::<notes_read::NotesRead>(),
        spec::<notes_write::NotesWrite>(),
        spec::<notes_delete::NotesDelete>(),
    ]
}

/// The tool that is `verb` under the parent command `parent` (`notes`, `list`).
pub fn find_verb(parent: &str, verb: &str) -> Option<ToolSpec> {
    registry()
        .into_iter()
        .find(|t| t.parent == Some(parent) && t.command_name() == verb)
}

/// The tool named `name` (snake_case or kebab-case).
pub fn find(name: &str) -> Option<ToolSpec> {
    let snake = name.replace('-', "_");
    registry().into_iter().find(|t| t.name == snake)
}

/// A tool as one context exposes it to a host: the registry entry and its view there
/// ([`ToolSpec::view`]: the description and metadata the faces show).
pub struct Exposed {
    /// The registry entry.
    pub spec: ToolSpec,
    /// How the tool looks in this context.
    pub view: ToolView,
}

/// Refuses `[tools.<name>]` tables that name no tool (spec 10): a misspelt name would
/// silently change nothing.
fn check_overrides(ctx: &Ctx) -> Result<(), ToolError> {
    let Some(t) = ctx.config.tools.as_ref() else {
        return Ok(());
    };
    for name in t.overrides.keys() {
        if find(name).is_none() {
            return Err(ToolError::usage(format!(
                "configuration [tools.{name}]: {name:?} is no tool (tools: {})",
                registry()
                    .iter()
                    .map(|t| t.name)
                    .collect::<Vec<_>>()
                    .join(", ")
            )));
        }
    }
    Ok(())
}

/// The groups `ctx` enables for `call`, `schema` and `mcp` (spec 00 "Groups"): its group
/// names, `all` meaning every group. Errors (usage, exit 2) on a name that is no group, naming
/// where it came from and listing the valid names.
pub fn enabled_groups(ctx: &Ctx) -> Result<Vec<Group>, ToolError> {
    check_overrides(ctx)?;
    named_groups(ctx)
}

/// [`enabled_groups`] without the check of the `[tools.*]` overrides: only the group names.
pub fn named_groups(ctx: &Ctx) -> Result<Vec<Group>, ToolError> {
    let mut enabled = Vec::new();
    for name in &ctx.groups {
        let found: Vec<Group> = if name == "all" {
            Group::ALL.to_vec()
        } else {
            match Group::from_name(name) {
                Some(g) => vec![g],
                None => {
                    let valid: Vec<&str> = Group::ALL.iter().map(|g| g.name()).collect();
                    return Err(ToolError::usage(format!(
                        "unknown tool group {name:?} in {}; the groups are {}, and all",
                        ctx.groups_source,
                        valid.join(", ")
                    )));
                }
            }
        };
        for g in found {
            if !enabled.contains(&g) {
                enabled.push(g);
            }
        }
    }
    Ok(enabled)
}

/// The tools `ctx` exposes, in registry order: those of the enabled groups that are not left
/// out in this context ([`ToolSpec::view`]), each with its view. This is the one place that
/// decides what a host sees: `schema` prints these, `call` runs only these and `mcp` lists
/// and runs only these. Errors as [`enabled_groups`].
pub fn exposed(ctx: &Ctx) -> Result<Vec<Exposed>, ToolError> {
    let groups = enabled_groups(ctx)?;
    Ok(registry()
        .into_iter()
        .filter(|spec| groups.contains(&spec.meta.group))
        .filter_map(|spec| {
            let view = spec.view(ctx).ok()?;
            Some(Exposed { spec, view })
        })
        .collect())
}

/// Why `name` is not among the tools `ctx` exposes: an unknown name (usage error listing the
/// tools), a tool whose group is not enabled (a refusal naming its group and the enabled
/// ones), or one left out in this context (usage error with the tool's reason). `enabled` is
/// what [`enabled_groups`] returned.
pub fn not_exposed(ctx: &Ctx, name: &str, enabled: &[Group]) -> ToolError {
    let Some(spec) = find(name) else {
        // Only the tools on offer here are named: a host never listed the others.
        let offered: Vec<&str> = exposed(ctx)
            .map(|v| v.iter().map(|e| e.spec.name).collect())
            .unwrap_or_default();
        return ToolError::usage(format!(
            "unknown tool {name:?}; the tools here: {}",
            if offered.is_empty() {
                "none".to_owned()
            } else {
                offered.join(", ")
            }
        ));
    };
    let group = spec.meta.group.name();
    if enabled.contains(&spec.meta.group) {
        // Left out in this context (spec 06: `skill` with no skill at all).
        let why = spec.view(ctx).err().unwrap_or_default();
        return ToolError::usage(format!("{} is not available here: {why}", spec.name));
    }
    let on: Vec<&str> = enabled.iter().map(|g| g.name()).collect();
    let mut with = on.clone();
    with.push(group);
    let on = if on.is_empty() {
        "none".to_owned()
    } else {
        on.join(", ")
    };
    ToolError::refused(format!(
        "{} is in the group {group}, which is not enabled (enabled: {on}, from {}); enable it \
         with --groups {} (or AGTOOL_GROUPS, or config tools.groups)",
        spec.name,
        ctx.groups_source,
        with.join(",")
    ))
}

/// The exposed tool called `name` (snake_case or kebab-case), or why there is none (see
/// [`not_exposed`]; an unknown group is a usage error as in [`enabled_groups`]).
pub fn exposed_tool(ctx: &Ctx, name: &str) -> Result<Exposed, ToolError> {
    let snake = name.replace('-', "_");
    let enabled = enabled_groups(ctx)?;
    exposed(ctx)?
        .into_iter()
        .find(|t| t.spec.name == snake)
        .ok_or_else(|| not_exposed(ctx, name, &enabled))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every tool has a built-in schema, and each is, byte for byte, what its argument type
    /// generates now. `AGTOOL_BLESS_SCHEMAS=1` writes the files instead of comparing.
    #[test]
    fn built_in_schemas_are_what_the_argument_types_generate() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src/args/schemas");
        let bless = std::env::var_os("AGTOOL_BLESS_SCHEMAS").is_some();
        let mut stale = Vec::new();
        for spec in registry() {
            let generated = serde_json::to_string_pretty(&(spec.generate_schema)()).unwrap() + "\n";
            let file = dir.join(format!("{}.json", spec.name));
            if bless {
                std::fs::write(&file, &generated).unwrap();
                continue;
            }
            match args::embedded::schema_text(spec.name) {
                Some(text) if text == generated => {}
                Some(_) => stale.push(format!("{} differs", file.display())),
                None => stale.push(format!("{} has no line in src/args/embedded.rs", spec.name)),
            }
        }
        assert!(
            stale.is_empty(),
            "built-in schemas out of date ({}); run `AGTOOL_BLESS_SCHEMAS=1 cargo test --lib \
             built_in_schemas` and add a line per new tool to src/args/embedded.rs",
            stale.join("; ")
        );
        // No file or line for a tool that is gone.
        let names: Vec<&str> = registry().iter().map(|t| t.name).collect();
        for entry in std::fs::read_dir(&dir).unwrap() {
            let name = entry.unwrap().file_name().to_string_lossy().into_owned();
            let tool = name.strip_suffix(".json").unwrap_or(&name);
            assert!(
                names.contains(&tool),
                "{name} in {} names no tool",
                dir.display()
            );
        }
    }

    /// The schema a tool uses is the built-in one, parsed: the same value generation gives.
    #[test]
    fn the_schema_in_use_is_the_generated_one() {
        for spec in registry() {
            assert_eq!((spec.schema)(), &(spec.generate_schema)(), "{}", spec.name);
        }
    }
}
