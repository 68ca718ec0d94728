//! Meta commands: `schema`, `call`, `state`, `sessions`, `completions`, `man` (spec 00 "Meta
//! subcommands", spec 05, spec 07), and the hidden `session-server`.

pub mod call;
pub mod people;
pub mod schema;
pub mod sessions;
pub mod state;

use clap::{ArgMatches, Command};

use crate::error::{ToolError, ToolResult};
use crate::workspace::context::Ctx;

/// The meta subcommands, added after the tools.
pub fn meta_commands() -> Vec<Command> {
    vec![
        schema::command(),
        call::command(),
        state::command(),
        sessions::command(),
        people::completions_command(),
        people::man_command(),
        sessions::server_command(),
    ]
}

/// Meta commands that run before (and without) a workspace context. `None` when `name` is not
/// one of them.
pub fn run_early(name: &str, m: &ArgMatches) -> Option<i32> {
    let result = match name {
        "session-server" => return Some(sessions::run_server(m)),
        "completions" => people::run_completions(m),
        "man" => people::run_man(m),
        _ => return None,
    };
    Some(crate::cli::print_result(false, result))
}

/// Runs a meta command.
pub fn run(name: &str, m: &ArgMatches, ctx: &Ctx) -> ToolResult {
    match name {
        "schema" => schema::run(m, ctx),
        "call" => call::run(m, ctx),
        "state" => state::run(m, ctx),
        "sessions" => sessions::run(m, ctx),
        other => Err(ToolError::usage(format!("unknown command {other}"))),
    }
}
