//! `agtool sandbox check` (spec 08): what this machine enforces of the exec sandbox, layer by
//! layer; exit status 1 when `workspace-write` cannot be enforced here. The logic lives in
//! [`crate::sandbox::probe`].

use clap::{ArgMatches, Command};

use crate::error::{Output, ToolError, ToolResult};

/// The `sandbox` meta command and its `check` verb.
pub fn command() -> Command {
    Command::new("sandbox")
        .about("Say what this machine enforces of the exec sandbox")
        .subcommand_required(true)
        .subcommand(
            Command::new("check")
                .about("Print the Landlock ABI, seccomp and namespaces; exit 1 when workspace-write cannot be enforced"),
        )
        .after_help("Examples:\n  agtool sandbox check")
}

/// Runs `sandbox check`: one line per layer, then the verdict. Not enforceable: an error
/// (exit 1) holding the same lines.
pub fn run(_m: &ArgMatches) -> ToolResult {
    let (layers, ok) = crate::sandbox::probe::report();
    let mut text = String::new();
    for l in &layers {
        text.push_str(&format!(
            "{}: {}: {}\n",
            l.name,
            if l.ok { "yes" } else { "NO" },
            l.detail
        ));
    }
    if ok {
        text.push_str(
            "exec.sandbox = \"workspace-write\" (the default) and \"read-only\" are enforced on \
             this machine.\n",
        );
        Ok(Output::text(text))
    } else {
        text.push_str(
            "exec.sandbox = \"workspace-write\" cannot be enforced here: sandboxed commands are \
             refused. Fix the machine, or set exec.sandbox = \"off\" to run commands unsandboxed.",
        );
        Err(ToolError::refused(text))
    }
}
