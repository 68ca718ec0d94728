//! A useful hint for an unknown flag (issue 9): clap suggests the most similar flag of the
//! whole command line, global flags included, however far it is, so `read-file x --bogus`
//! was pointed at `--groups` (and the usage line shown was built around that flag). Here an
//! unknown `--flag` is suggested only a flag that is a near miss (Damerau-Levenshtein
//! distance of at most a third of its length, and at least 1), the tool's own flags before
//! the global ones; otherwise the hint lists the tool's own flags.

use std::ffi::OsString;

use clap::Command;
use clap::builder::StyledStr;
use clap::error::{ContextKind, ContextValue, ErrorKind};

/// `err` with the unknown-flag hint above, when it is an unknown `--flag` of a subcommand
/// of `cmd` (the tree `argv` was parsed with); any other error as it is.
pub fn unknown_flag(mut err: clap::Error, mut cmd: Command, argv: &[OsString]) -> clap::Error {
    if err.kind() != ErrorKind::UnknownArgument {
        return err;
    }
    let Some(ContextValue::String(invalid)) = err.get(ContextKind::InvalidArg).cloned() else {
        return err;
    };
    let Some(typed) = invalid.strip_prefix("--") else {
        return err;
    };
    let typed = typed.split('=').next().unwrap_or(typed).to_owned();
    let globals: Vec<String> = cmd
        .get_arguments()
        .filter(|a| !a.is_hide_set())
        .filter_map(|a| a.get_long().map(str::to_owned))
        .collect();
    // The deepest subcommand named in argv (`sessions list`).
    let mut names: Vec<String> = Vec::new();
    let mut sub = &mut cmd;
    for arg in argv.iter().skip(1).filter_map(|a| a.to_str()) {
        if sub.find_subcommand(arg).is_some() {
            names.push(arg.to_owned());
            sub = sub.find_subcommand_mut(arg).expect("found above");
        }
    }
    if names.is_empty() {
        return err;
    }
    let sub_name = names.join(" ");
    let own: Vec<String> = sub
        .get_arguments()
        .filter(|a| !a.is_hide_set() && !a.is_global_set())
        .filter_map(|a| a.get_long().map(str::to_owned))
        .filter(|l| !globals.contains(l))
        .collect();
    err.remove(ContextKind::SuggestedArg);
    match near_miss(&typed, own.iter().chain(&globals)) {
        Some(flag) => {
            err.insert(
                ContextKind::SuggestedArg,
                ContextValue::String(format!("--{flag}")),
            );
        }
        None => {
            let list: Vec<String> = own.iter().map(|l| format!("--{l}")).collect();
            let tip = if list.is_empty() {
                format!("see 'agtool {sub_name} --help'")
            } else {
                format!(
                    "{sub_name} takes {}; see 'agtool {sub_name} --help' (global flags: 'agtool --help')",
                    list.join(", ")
                )
            };
            err.insert(
                ContextKind::Suggested,
                ContextValue::StyledStrs(vec![StyledStr::from(tip)]),
            );
        }
    }
    // The usage line clap built for the error names the flag it suggested; show the tool's.
    let mut plain = sub.clone().bin_name(format!("agtool {sub_name}"));
    err.insert(
        ContextKind::Usage,
        ContextValue::StyledStr(plain.render_usage()),
    );
    err
}

/// The closest flag within the near-miss distance, the first listed on ties.
fn near_miss<'a>(typed: &str, flags: impl Iterator<Item = &'a String>) -> Option<&'a str> {
    let limit = (typed.chars().count() / 3).max(1);
    flags
        .map(|f| (strsim::damerau_levenshtein(typed, f), f))
        .filter(|(d, _)| *d <= limit)
        .min_by_key(|(d, _)| *d)
        .map(|(_, f)| f.as_str())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn near_misses_only() {
        let flags: Vec<String> = ["offset", "limit", "groups", "json"]
            .map(String::from)
            .to_vec();
        assert_eq!(near_miss("ofset", flags.iter()), Some("offset"));
        assert_eq!(near_miss("jsno", flags.iter()), Some("json"));
        assert_eq!(near_miss("limt", flags.iter()), Some("limit"));
        assert_eq!(near_miss("bogus", flags.iter()), None);
        assert_eq!(near_miss("x", flags.iter()), None);
    }
}
