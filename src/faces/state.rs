//! `agtool state show|forget PATH|reset`: inspect and clear the state store, for people
//! (spec 01, "State store").

use clap::{Arg, ArgMatches, Command};

use crate::error::{Output, ToolError, ToolResult};
use crate::text::clock::format_utc_ms as format_ms;
use crate::text::path_escape::spelled_path;
use crate::text::plural::count;
use crate::workspace::context::Ctx;
use crate::workspace::policy;

/// The `state` subcommand.
pub fn command() -> Command {
    Command::new("state")
        .about("Inspect or clear the freshness table in .agent-state/")
        .subcommand_required(true)
        .subcommand(Command::new("show").about("List every recorded (agent, path, tag)"))
        .subcommand(
            Command::new("forget")
                .about("Forget what every agent read of PATH (a folder: everything under it)")
                .arg(Arg::new("path").required(true).value_name("PATH")),
        )
        .subcommand(Command::new("reset").about("Forget everything"))
        .subcommand(Command::new("recover").about(
            "Roll back writes interrupted by a kill and remove their temp files (every call \
             does this too; this says what it did)",
        ))
        .after_help("Examples:\n  agtool state show\n  agtool state forget src/lib.rs\n  agtool state reset\n  agtool state recover")
}

/// Runs `state`. Every subcommand first recovers interrupted writes (spec 01, "Races and
/// crashes"); `recover` says what that did as its output, the others in a note after it.
pub fn run(m: &ArgMatches, ctx: &Ctx) -> ToolResult {
    let refuse = ToolError::refused;
    let recovered = ctx.recover_now();
    if let Some(("recover", _)) = m.subcommand() {
        if recovered.is_empty() {
            return Ok(Output::text(
                "Nothing to recover: no write was interrupted.",
            ));
        }
        let mut text = String::new();
        for line in &recovered {
            text.push_str(line);
            text.push('\n');
        }
        return Ok(Output::text(text).with("recovered", recovered.len()));
    }
    ctx.say(&recovered);
    match m.subcommand() {
        Some(("show", _)) => {
            let entries = ctx.with_state(|s| s.entries()).map_err(refuse)?;
            if entries.is_empty() {
                return Ok(Output::text("No reads recorded."));
            }
            let mut text = String::new();
            for e in &entries {
                text.push_str(&format!(
                    "{}  {}  {}  {}\n",
                    ctx.display(&crate::workspace::state::path_of_key(&e.path)),
                    e.agent,
                    e.tag,
                    format_ms(e.at_ms)
                ));
            }
            Ok(Output::text(text).with("entries", entries.len()))
        }
        Some(("forget", sub)) => {
            let spelled = sub.get_one::<String>("path").cloned().unwrap_or_default();
            let absolute = spelled_path(&ctx.cwd, &spelled);
            let real = policy::resolve(&absolute).unwrap_or_else(|_| policy::fold(&absolute));
            // Records are kept only for paths the tools may name: a folder above the
            // workspace would forget every one of them.
            if let Err(e @ policy::PolicyError::Outside { .. }) =
                ctx.policy.check(&ctx.cwd, &spelled, policy::Access::Read)
            {
                return Err(ToolError::refused(e.to_string()));
            }
            let n = ctx.with_state(|s| s.forget(&real)).map_err(refuse)?;
            Ok(Output::text(format!(
                "Forgot {} for {spelled}",
                count(n, "entry")
            )))
        }
        Some(("reset", _)) => {
            // Whatever state the database is in: corrupt, another schema, a symlink.
            let said = ctx.reset_state().map_err(refuse)?;
            let mut text =
                "State reset: every recorded read and failure counter is gone.".to_owned();
            for line in said {
                text.push_str(&format!("\n({line})"));
            }
            Ok(Output::text(text))
        }
        _ => Err(ToolError::usage(
            "state needs show, forget PATH, reset or recover",
        )),
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn dates() {
        assert_eq!(super::format_ms(0), "1970-01-01T00:00:00Z");
        assert_eq!(super::format_ms(1_700_000_000_000), "2023-11-14T22:13:20Z");
    }
}
