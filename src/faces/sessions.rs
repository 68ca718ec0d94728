//! `agtool sessions list|kill ID|kill --all|stop-server`, for people (spec 05), and the hidden
//! `agtool session-server --state-dir DIR` the exec-command client starts.

use std::io::IsTerminal;
use std::path::PathBuf;

use clap::{Arg, ArgAction, ArgMatches, Command};

use owo_colors::OwoColorize;

use crate::error::{Output, ToolError, ToolResult};
use crate::exec::session::{SessionInfo, client};
use crate::faces::colour;
use crate::text::plural::count;
use crate::workspace::context::Ctx;

/// The `sessions` subcommand.
pub fn command() -> Command {
    Command::new("sessions")
        .about("List or kill the exec-command sessions of this workspace, or stop their server")
        .subcommand_required(true)
        .subcommand(Command::new("list").about("Show each session: id, pid, state, age, command"))
        .subcommand(
            Command::new("kill")
                .about("Kill a session and everything it started")
                .arg(
                    Arg::new("id")
                        .value_name("ID")
                        .value_parser(clap::value_parser!(u64))
                        .required_unless_present("all"),
                )
                .arg(
                    Arg::new("all")
                        .long("all")
                        .action(ArgAction::SetTrue)
                        .conflicts_with("id")
                        .help("Kill every session"),
                ),
        )
        .subcommand(Command::new("stop-server").about("Kill every session and stop the session server"))
        .after_help("Examples:\n  agtool sessions list\n  agtool sessions kill 1003\n  agtool sessions kill --all\n  agtool sessions stop-server")
}

/// The hidden `session-server` subcommand (started by the exec-command client).
pub fn server_command() -> Command {
    Command::new("session-server")
        .hide(true)
        .about("Run the exec session server for a state folder (started on demand)")
        .arg(
            Arg::new("state_dir")
                .long("state-dir")
                .value_name("DIR")
                .value_parser(clap::value_parser!(PathBuf))
                .required(true),
        )
}

/// The hidden `session-guard` subcommand the session server puts in front of each session's
/// command (see [`crate::exec::session::guard`]).
pub fn guard_command() -> Command {
    Command::new(crate::exec::session::guard::SUBCOMMAND)
        .hide(true)
        .about("Run a session's command and end its whole tree when the session server dies")
        .arg(
            Arg::new("server_pid")
                .long("server-pid")
                .value_name("PID")
                .value_parser(clap::value_parser!(i32))
                .required(true),
        )
        .arg(
            Arg::new("argv")
                .value_name("ARGV")
                .num_args(1..)
                .trailing_var_arg(true)
                .allow_hyphen_values(true)
                .value_parser(clap::value_parser!(std::ffi::OsString))
                .required(true),
        )
}

/// Runs a session guard; returns its exit status.
pub fn run_guard(m: &ArgMatches) -> i32 {
    let pid = m.get_one::<i32>("server_pid").copied().unwrap_or_default();
    let argv: Vec<std::ffi::OsString> = m
        .get_many::<std::ffi::OsString>("argv")
        .map(|v| v.cloned().collect())
        .unwrap_or_default();
    crate::exec::session::guard::run(pid, &argv)
}

/// Runs the session server until it is idle or stopped; returns the exit status.
pub fn run_server(m: &ArgMatches) -> i32 {
    let Some(dir) = m.get_one::<PathBuf>("state_dir") else {
        return 2;
    };
    // The LSP manager keeps language servers warm in this process (spec 09).
    let lsp = std::sync::Arc::new(crate::lsp::manager::ManagerExtension(std::sync::Arc::new(
        crate::lsp::manager::Manager::new(),
    )));
    match crate::exec::session::server::run_extended(dir, Some(lsp)) {
        Ok(()) => 0,
        Err(e) => {
            eprintln!("agtool session-server: {e:#}");
            1
        }
    }
}

/// Runs `sessions`.
pub fn run(m: &ArgMatches, ctx: &Ctx) -> ToolResult {
    let state_dir = ctx.state_dir();
    match m.subcommand() {
        Some(("list", _)) => {
            let sessions = client::list(&state_dir)?;
            let text = if sessions.is_empty() {
                "No sessions.".to_owned()
            } else {
                render_list(&sessions, std::io::stdout().is_terminal(), colour::on())
            };
            Ok(Output::text(text).with("sessions", sessions.len()))
        }
        Some(("kill", sub)) if sub.get_flag("all") => {
            let ids = client::kill_all(&state_dir)?;
            Ok(Output::text(match ids.len() {
                0 => "No sessions.".to_owned(),
                n => format!("Killed {}: {}", count(n, "session"), join_ids(&ids)),
            }))
        }
        Some(("kill", sub)) => {
            let id = sub.get_one::<u64>("id").copied().unwrap_or_default();
            client::kill(&state_dir, id)?;
            Ok(Output::text(format!("Killed session {id}.")))
        }
        Some(("stop-server", _)) => {
            let was_running = client::stop_server(&state_dir)?;
            Ok(Output::text(if was_running {
                "Stopped the session server (its sessions were killed)."
            } else {
                "No session server was running."
            }))
        }
        _ => Err(ToolError::usage(
            "sessions needs list, kill ID, kill --all or stop-server",
        )),
    }
}

fn join_ids(ids: &[u64]) -> String {
    ids.iter()
        .map(u64::to_string)
        .collect::<Vec<_>>()
        .join(", ")
}

fn state(s: &SessionInfo) -> String {
    match s.exit_code {
        None => "running".to_owned(),
        Some(c) => format!("exited {c}"),
    }
}

fn age(secs: u64) -> String {
    match secs {
        0..60 => format!("{secs}s"),
        60..3600 => format!("{}m{:02}s", secs / 60, secs % 60),
        _ => format!("{}h{:02}m", secs / 3600, secs % 3600 / 60),
    }
}

/// A table with a header and aligned columns on a terminal; otherwise one plain line per
/// session, fields separated by a tab (easy to cut/awk). With `colour` (a person reads it,
/// see [`crate::faces::colour`]): the header bold, `running` green, a non-zero exit red.
fn render_list(sessions: &[SessionInfo], table: bool, colour: bool) -> String {
    let rows: Vec<[String; 5]> = sessions
        .iter()
        .map(|s| {
            [
                s.id.to_string(),
                s.pid.to_string(),
                state(s),
                age(s.age_secs),
                s.command.replace('\n', " "),
            ]
        })
        .collect();
    // The state cell, padded to `width` first so escape codes never count as width.
    let state_cell = |s: &SessionInfo, cell: &str, width: usize| {
        let padded = format!("{cell:<width$}");
        match (colour, s.exit_code) {
            (false, _) | (true, Some(0)) => padded,
            (true, None) => padded.green().to_string(),
            (true, Some(_)) => padded.red().to_string(),
        }
    };
    if !table {
        return sessions
            .iter()
            .zip(&rows)
            .map(|(s, r)| {
                let state = state_cell(s, &r[2], 0);
                format!("{}\t{}\t{state}\t{}\t{}\n", r[0], r[1], r[3], r[4])
            })
            .collect();
    }
    let header = ["ID", "PID", "STATE", "AGE", "COMMAND"].map(str::to_owned);
    let mut widths = [0usize; 4];
    for r in std::iter::once(&header).chain(&rows) {
        for (w, cell) in widths.iter_mut().zip(r) {
            *w = (*w).max(cell.chars().count());
        }
    }
    let line = |r: &[String; 5], state: String| {
        let mut line = String::new();
        for (i, (cell, w)) in r.iter().zip(widths).enumerate() {
            if i == 2 {
                line.push_str(&state);
                line.push_str("  ");
            } else {
                line.push_str(&format!("{cell:<w$}  "));
            }
        }
        line.push_str(&r[4]);
        line
    };
    let head = line(&header, format!("{:<w$}", header[2], w = widths[2]));
    let mut out = if colour {
        head.bold().to_string()
    } else {
        head
    };
    out.push('\n');
    for (s, r) in sessions.iter().zip(&rows) {
        out.push_str(&line(r, state_cell(s, &r[2], widths[2])));
        out.push('\n');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn info(id: u64, exit: Option<i32>, cmd: &str) -> SessionInfo {
        SessionInfo {
            id,
            pid: 4242,
            exit_code: exit,
            age_secs: 75,
            command: cmd.into(),
        }
    }

    #[test]
    fn plain_lines_off_a_terminal() {
        let text = render_list(
            &[info(1000, None, "cat"), info(1001, Some(2), "x\ny")],
            false,
            false,
        );
        assert_eq!(
            text,
            "1000\t4242\trunning\t1m15s\tcat\n1001\t4242\texited 2\t1m15s\tx y\n"
        );
    }

    #[test]
    fn an_aligned_table_on_a_terminal() {
        let text = render_list(&[info(1000, None, "npm run dev")], true, false);
        assert_eq!(
            text,
            "ID    PID   STATE    AGE    COMMAND\n1000  4242  running  1m15s  npm run dev\n"
        );
    }

    #[test]
    fn colour_keeps_the_columns() {
        let sessions = [info(1000, None, "cat"), info(1001, Some(2), "false")];
        let plain = render_list(&sessions, true, false);
        let coloured = render_list(&sessions, true, true);
        assert!(coloured.contains("\x1b[32mrunning "), "{coloured:?}");
        assert!(coloured.contains("\x1b[31mexited 2"), "{coloured:?}");
        let stripped = regex_free_strip(&coloured);
        assert_eq!(stripped, plain);
        assert!(!render_list(&sessions, false, false).contains('\x1b'));
    }

    /// `text` without ANSI escape sequences (`ESC [ ... m`).
    fn regex_free_strip(text: &str) -> String {
        let mut out = String::new();
        let mut chars = text.chars();
        while let Some(c) = chars.next() {
            if c == '\x1b' {
                for d in chars.by_ref() {
                    if d == 'm' {
                        break;
                    }
                }
            } else {
                out.push(c);
            }
        }
        out
    }

    #[test]
    fn ages() {
        assert_eq!(age(5), "5s");
        assert_eq!(age(3599), "59m59s");
        assert_eq!(age(7260), "2h01m");
    }
}
