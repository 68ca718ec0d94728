//! `agtool completions SHELL` and `agtool man`: shell completions and a roff manual page,
//! generated from the same command tree as everything else (spec 07, "People"). The
//! generated files are committed under `completions/` and `man/`; a test fails when they are
//! out of date (regenerate with `cargo run -- completions --write` and `cargo run -- man --write`).

use clap::{Arg, ArgMatches, Command};
use clap_complete::Shell;

use crate::error::{Output, ToolError, ToolResult};

/// The `completions` subcommand.
pub fn completions_command() -> Command {
    Command::new("completions")
        .about("Print shell completions (bash, zsh, fish, elvish, powershell)")
        .arg(
            Arg::new("shell")
                .value_parser(clap::value_parser!(Shell))
                .required_unless_present("write")
                .help("The shell"),
        )
        .arg(
            Arg::new("write")
                .long("write")
                .value_name("DIR")
                .help("Write every shell's file into DIR instead (the repository's completions/)"),
        )
        .after_help("Examples:\n  agtool completions bash > /etc/bash_completion.d/agtool\n  agtool completions zsh > ~/.zfunc/_agtool")
}

/// The `man` subcommand.
pub fn man_command() -> Command {
    Command::new("man")
        .about("Print the manual page (roff)")
        .arg(
            Arg::new("write")
                .long("write")
                .value_name("DIR")
                .help("Write agtool.1 into DIR instead"),
        )
        .after_help(
            "Examples:\n  agtool man | man -l -\n  agtool man > /usr/local/share/man/man1/agtool.1",
        )
}

/// Every shell completions are generated for, with its file name.
pub const SHELLS: [(Shell, &str); 5] = [
    (Shell::Bash, "agtool.bash"),
    (Shell::Zsh, "_agtool"),
    (Shell::Fish, "agtool.fish"),
    (Shell::Elvish, "agtool.elv"),
    (Shell::PowerShell, "_agtool.ps1"),
];

/// The completion script for `shell` from the whole command tree (`crate::cli::command`).
pub fn completion_script(shell: Shell, mut cmd: Command) -> String {
    let mut buf = Vec::new();
    clap_complete::generate(shell, &mut cmd, "agtool", &mut buf);
    String::from_utf8_lossy(&buf).into_owned()
}

/// The roff manual page of the whole command tree (`crate::cli::command`).
pub fn man_page(cmd: Command) -> String {
    let mut buf = Vec::new();
    // Rendering into memory cannot fail.
    let _ = clap_mangen::Man::new(cmd).render(&mut buf);
    String::from_utf8_lossy(&buf).into_owned()
}

fn write_into(dir: &str, name: &str, text: &str) -> Result<(), ToolError> {
    std::fs::create_dir_all(dir)
        .and_then(|_| std::fs::write(std::path::Path::new(dir).join(name), text))
        .map_err(|e| ToolError::refused(format!("cannot write {dir}/{name}: {e}")))
}

/// Runs `completions` on the whole command tree.
pub fn run_completions(m: &ArgMatches, tree: Command) -> ToolResult {
    if let Some(dir) = m.get_one::<String>("write") {
        for (shell, name) in SHELLS {
            write_into(dir, name, &completion_script(shell, tree.clone()))?;
        }
        return Ok(Output::text(format!(
            "Wrote {} completion files into {dir}",
            SHELLS.len()
        )));
    }
    let shell = m
        .get_one::<Shell>("shell")
        .copied()
        .ok_or_else(|| ToolError::usage("name a shell"))?;
    Ok(Output::text(completion_script(shell, tree)))
}

/// Runs `man` on the whole command tree.
pub fn run_man(m: &ArgMatches, tree: Command) -> ToolResult {
    if let Some(dir) = m.get_one::<String>("write") {
        write_into(dir, "agtool.1", &man_page(tree))?;
        return Ok(Output::text(format!("Wrote {dir}/agtool.1")));
    }
    Ok(Output::text(man_page(tree)))
}
