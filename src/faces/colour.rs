//! Colour for people, never for models (spec 07 "People", issue 9): dry-run diffs and
//! `sessions list` are coloured when a person reads them; `call`, `--json` (and the MCP
//! server) never are, whatever the flags say. Styles come from owo-colors; no escape code is
//! written by hand.
//!
//! The choice, made once per process by [`decide`]:
//! - `--color never`: no colour; `--color always`: colour, even into a pipe and even with
//!   `NO_COLOR` set (an explicit flag wins over the environment, as in ripgrep and fd and as
//!   no-color.org asks);
//! - `--color auto` (the default): none when `NO_COLOR` is set to a non-empty value; else
//!   owo-colors decides as supports-color does: colour when `CLICOLOR_FORCE` (or
//!   `FORCE_COLOR`) is set and not `0`, otherwise only on a terminal whose `TERM` is not `dumb`.

use std::sync::atomic::{AtomicBool, Ordering};

use clap::ValueEnum;
use owo_colors::{OwoColorize, Stream};

use crate::error::Output;
use crate::text::diff;

/// The `--color` flag's values.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, ValueEnum)]
pub enum When {
    /// Colour for a terminal, off with NO_COLOR, on with CLICOLOR_FORCE.
    #[default]
    Auto,
    /// Always colour people-facing output.
    Always,
    /// Never colour.
    Never,
}

static ON: AtomicBool = AtomicBool::new(false);

/// Decides, once per process, whether people-facing output on stdout is coloured: `when`
/// from `--color`, `model_facing` for `call`, `--json` and the MCP server (never coloured).
pub fn decide(when: When, model_facing: bool) {
    let on = match when {
        _ if model_facing => false,
        When::Never => false,
        When::Always => true,
        When::Auto if no_color() => false,
        When::Auto => {
            // owo-colors' own answer for stdout (its override is unset here).
            let probe = "x"
                .if_supports_color(Stream::Stdout, |t| t.bold())
                .to_string();
            probe != "x"
        }
    };
    owo_colors::set_override(on);
    ON.store(on, Ordering::Relaxed);
}

/// Whether people-facing output is coloured (false until [`decide`] says otherwise).
pub fn on() -> bool {
    ON.load(Ordering::Relaxed)
}

fn no_color() -> bool {
    std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty())
}

/// A tool's result for a person: a dry run's diff (the output's `diff` field, which its text
/// starts with) coloured when [`on`]; anything else as it is.
pub fn for_people(out: Output) -> Output {
    if !on() {
        return out;
    }
    let Some(diff_text) = out.fields.get("diff").and_then(|d| d.as_str()) else {
        return out;
    };
    let Some(rest) = out.text.strip_prefix(diff_text) else {
        return out;
    };
    let text = format!("{}{rest}", diff::colourise(diff_text));
    Output { text, ..out }
}
