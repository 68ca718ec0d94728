//! `agtool lsp status|stop`: the language servers the workspace's session server keeps warm
//! (spec 09, "Diagnostics after every edit").

use clap::{ArgMatches, Command};

use crate::error::{Output, ToolError, ToolResult};
use crate::text::plural::count;
use crate::workspace::context::Ctx;

/// The `lsp` subcommand.
pub fn command() -> Command {
    Command::new("lsp")
        .about("Show or stop the language servers kept warm for this workspace's diagnostics")
        .subcommand_required(true)
        .subcommand(
            Command::new("status")
                .about("Each server: language, pid, state, memory, open files, uptime, command"),
        )
        .subcommand(Command::new("stop").about("Stop every language server of this workspace"))
        .after_help("Examples:\n  agtool lsp status\n  agtool lsp stop")
}

/// Runs `lsp`.
pub fn run(m: &ArgMatches, ctx: &Ctx) -> ToolResult {
    match m.subcommand() {
        Some(("status", _)) => {
            let servers = crate::lsp::status(ctx).map_err(ToolError::refused)?;
            if servers.is_empty() {
                return Ok(Output::text("No language servers are running.").with("servers", 0));
            }
            let mut text = String::new();
            for s in &servers {
                let pid = s.pid.map_or_else(|| "-".to_owned(), |p| p.to_string());
                let memory = s.rss_kib.map_or_else(
                    || "-".to_owned(),
                    |k| format!("{:.1} MB", k as f64 / 1024.0),
                );
                text.push_str(&format!(
                    "{} ({}): pid {pid}, {}, {memory}, {} open, up {}s: {}\n",
                    s.language,
                    s.name,
                    s.state,
                    count(s.open_files, "file"),
                    s.uptime_secs,
                    s.argv.join(" ")
                ));
            }
            let json = serde_json::to_value(&servers).unwrap_or_default();
            Ok(Output::text(text)
                .with("servers", servers.len())
                .with("details", json))
        }
        Some(("stop", _)) => {
            let n = crate::lsp::stop(ctx).map_err(ToolError::refused)?;
            Ok(Output::text(match n {
                0 => "No language servers were running.".to_owned(),
                n => format!("Stopped {}.", count(n, "language server")),
            })
            .with("stopped", n))
        }
        _ => Err(ToolError::usage("lsp needs status or stop")),
    }
}
