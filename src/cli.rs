//! The command line, top of the faces: builds the command tree (tools from the registry, then
//! the meta commands), dispatches a subcommand and prints its result with the exit status of
//! spec 00 ("Output and exit status"). The pieces live in [`crate::faces`].

use clap::{ArgMatches, Command};

use crate::error::{ErrorKind, ToolError, ToolResult};
use crate::faces::colour::{self, When};
use crate::faces::input::tool_args;
use crate::faces::output::{print_result, with_notices};
use crate::faces::run::run_with_timeout;
use crate::faces::tree::{parent_command, root_command, tool_command, whole_tree};
use crate::faces::{call, hostctl, lsp, mcp, people, sandbox, schema, sessions, state, suggest};
use crate::tools::{self, ToolSpec};
use crate::workspace::context::{Ctx, Settings};

/// The meta subcommands (spec 00 "Meta subcommands"), added after the tools, and the hidden
/// `session-server`.
pub fn meta_commands() -> Vec<Command> {
    vec![
        schema::command(),
        call::command(),
        mcp::command(),
        state::command(),
        sessions::command(),
        sandbox::command(),
        hostctl::rules_command(),
        hostctl::trace_command(),
        lsp::command(),
        people::completions_command(),
        people::man_command(),
        sessions::server_command(),
        sessions::guard_command(),
    ]
}

/// Meta commands that run before (and without) a workspace context. `None` when `name` is not
/// one of them.
fn run_early(name: &str, m: &ArgMatches) -> Option<i32> {
    let result = match name {
        "session-server" => return Some(sessions::run_server(m)),
        "session-guard" => return Some(sessions::run_guard(m)),
        "completions" => people::run_completions(m, command()),
        "man" => people::run_man(m, command()),
        "sandbox" => sandbox::run(m),
        _ => return None,
    };
    Some(print_result(false, result))
}

/// Runs a meta command that needs the workspace context.
fn run_meta(name: &str, m: &ArgMatches, ctx: &Ctx) -> ToolResult {
    match name {
        "schema" => schema::run(m, ctx),
        "call" => call::run(m, ctx),
        "state" => state::run(m, ctx),
        "sessions" => sessions::run(m, ctx),
        "rules" => hostctl::run_rules(m, ctx),
        "trace" => hostctl::run_trace(m, ctx),
        "lsp" => lsp::run(m, ctx),
        other => Err(ToolError::usage(format!("unknown command {other}"))),
    }
}

/// The whole command tree: every tool, then the meta commands (help, completions, man).
pub fn command() -> Command {
    whole_tree(meta_commands())
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
    let registry = tools::registry();
    if let Some(spec) = registry
        .iter()
        .find(|t| t.parent.is_none() && t.command_name() == name)
    {
        return root_command().subcommand(tool_command(spec));
    }
    if let Some(parent) = registry
        .iter()
        .find_map(|t| t.parent.filter(|p| *p == name))
    {
        return root_command().subcommand(parent_command(parent, &registry));
    }
    let metas = meta_commands();
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
        notes_dir: m.get_one::<String>("notes_dir").map(Into::into),
        skills_dirs: m
            .get_many::<String>("skills_dir")
            .map(|v| v.map(Into::into).collect())
            .unwrap_or_default(),
        approved: m.get_flag("approved"),
    }
}

/// The tool a parsed command line names, with the matches holding its arguments: a
/// top-level tool subcommand, or a verb under a parent command (`notes list`).
fn named_tool<'m>(name: &str, sub: &'m ArgMatches) -> Option<(ToolSpec, &'m ArgMatches)> {
    if let Some(spec) = tools::find(name).filter(|t| t.parent.is_none()) {
        return Some((spec, sub));
    }
    let (verb, verb_matches) = sub.subcommand()?;
    tools::find_verb(name, verb).map(|spec| (spec, verb_matches))
}

/// The binary's entry: [`main_with`] with any panic turned into an `Error:` line and exit 1
/// (see [`crate::faces::output::catching_panics`]).
pub fn run_main(argv: Vec<std::ffi::OsString>) -> i32 {
    // The sandbox helper runs before any parsing: it is on the path of every command.
    if argv.get(1).is_some_and(|a| a == crate::sandbox::SUBCOMMAND) {
        return crate::sandbox::helper::run(&argv[2..]);
    }
    let json = argv.iter().any(|a| a == "--json");
    crate::faces::output::catching_panics(json, || main_with(argv))
}

/// Runs agtool on `argv` and returns the process exit status.
pub fn main_with(argv: Vec<std::ffi::OsString>) -> i32 {
    let matches = match command_for(&argv).try_get_matches_from(&argv) {
        Ok(m) => m,
        Err(e) => {
            let e = suggest::unknown_flag(e, command_for(&argv), &argv);
            let code = e.exit_code();
            let _ = e.print();
            // A program that passed --json reads stdout as JSON, bad flags included (it got
            // an empty stdout and clap's text on stderr).
            if code == 2 && wants_json(&argv) {
                // The whole message with its tips (what is missing, a similar flag), without
                // the usage lines.
                let text = e.render().to_string();
                let parts: Vec<&str> = text
                    .lines()
                    .take_while(|l| {
                        !l.starts_with("Usage:") && !l.starts_with("For more information")
                    })
                    .map(str::trim)
                    .filter(|l| !l.is_empty())
                    .collect();
                let message = parts
                    .join("; ")
                    .replacen("error: ", "", 1)
                    .replace(":; ", ": ");
                let result: ToolResult = Err(ToolError::usage(message));
                println!("{}", crate::faces::output::envelope(&result));
            }
            return code;
        }
    };
    let Some((name, sub)) = matches.subcommand() else {
        return 2;
    };
    let tool = named_tool(name, sub);
    // Global flags are read where the tool's own arguments are (`notes list --json`).
    let settings = settings(tool.as_ref().map_or(sub, |(_, m)| *m));
    let when = tool
        .as_ref()
        .map_or(sub, |(_, m)| *m)
        .get_one::<When>("color")
        .copied()
        .unwrap_or_default();
    // Model-facing faces never colour: call, schema, the MCP server, --json.
    colour::decide(
        when,
        settings.json || ["call", "schema", "mcp"].contains(&name),
    );
    if let Some(code) = run_early(name, sub) {
        return code;
    }
    let ctx = match Ctx::new(&settings) {
        Ok(mut ctx) => {
            ctx.face = match name {
                "call" => "call",
                "mcp" => "mcp",
                _ => "cli",
            };
            let sites: Vec<crate::hooks::Site> = tools::registry()
                .iter()
                .map(|t| crate::hooks::Site {
                    name: t.name,
                    group: t.meta.group.name(),
                })
                .collect();
            ctx.rule_hidden = crate::hooks::rule_hidden(&ctx, &tools::is_tool_or_group, &sites);
            ctx
        }
        Err(e) => return print_result(settings.json, Err(ToolError::usage(e))),
    };
    if name == "mcp" {
        return mcp::run(ctx, sub, settings.agent.is_some());
    }
    if let Some((spec, sub)) = tool {
        // Groups choose what call, schema and mcp offer. A name that is no group, given on
        // the command line or in AGTOOL_GROUPS, is an error here too (README: wherever it is
        // given), not silently ignored; the user's config is not checked for a subcommand.
        let named = matches!(ctx.groups_source, "--groups" | "AGTOOL_GROUPS");
        let result = (if named {
            tools::named_groups(&ctx).map(drop)
        } else {
            Ok(())
        })
        .and_then(|()| tool_args(&spec, sub, &ctx))
        .and_then(|v| run_with_timeout(&ctx, &spec, v))
        .map(colour::for_people);
        let result = with_notices(result, ctx.take_notices());
        let passed_through = passed_exit_code(sub, &result);
        // `exec --exit-code`: the envelope's `exit` is the status the process ends with.
        let result = match (result, passed_through) {
            (Ok(out), Some(code)) => Ok(out.with("exit", code)),
            (result, _) => result,
        };
        let interrupted = interrupted_by(&result);
        let code = print_result(ctx.json, result);
        if let Some(sig) = interrupted {
            crate::interrupt::end_by_sigint(sig);
        }
        return passed_through.unwrap_or(code);
    }
    let result = with_notices(run_meta(name, sub, &ctx), ctx.take_notices());
    let interrupted = interrupted_by(&result);
    let code = print_result(ctx.json, result);
    if let Some(sig) = interrupted {
        crate::interrupt::end_by_sigint(sig);
    }
    code
}

/// Whether `argv` asks for the `--json` envelope (before any `--`, after which arguments are
/// a command's own).
fn wants_json(argv: &[std::ffi::OsString]) -> bool {
    argv.iter()
        .skip(1)
        .take_while(|a| *a != "--")
        .any(|a| a == "--json")
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
