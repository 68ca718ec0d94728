//! The hidden `sandbox-exec` subcommand: `agtool sandbox-exec <plan json> -- ARGV...` builds
//! the sandbox of the [`Plan`](super::Plan) in this process and then executes ARGV in place
//! (same pid, process group, descriptors and environment, plus `TMPDIR`). It runs before the
//! command line is parsed, so it costs one exec of agtool and the layers' system calls.
//!
//! When a layer cannot be built, or the program cannot be executed, the command is not run:
//! one line on stderr starting with [`SETUP_FAILED_MARK`](super::SETUP_FAILED_MARK), exit
//! status [`SETUP_FAILED`](super::SETUP_FAILED), which the tool turns into its refusal.

use std::ffi::OsString;
use std::os::unix::fs::MetadataExt;
use std::os::unix::process::CommandExt;
use std::process::Command;

use super::{Plan, SETUP_FAILED, SETUP_FAILED_MARK, caps, mounts, probe, seccomp};

fn refuse(what: &str) -> i32 {
    eprintln!(
        "{SETUP_FAILED_MARK}the sandbox cannot be built on this machine ({what}); the command \
         was not run. Fix the machine (see `agtool sandbox check`), or set exec.sandbox = \
         \"off\" to run commands unsandboxed"
    );
    SETUP_FAILED
}

/// Runs the helper on `args` (what follows the subcommand's name); returns an exit status
/// only when the command could not be executed.
pub fn run(args: &[OsString]) -> i32 {
    let Some(json) = args.first().and_then(|a| a.to_str()) else {
        return refuse("no plan was given");
    };
    let argv = match args.get(1) {
        Some(sep) if sep == "--" => &args[2..],
        _ => return refuse("the plan is not followed by --"),
    };
    let Some((program, rest)) = argv.split_first() else {
        return refuse("no command was given");
    };
    let plan: Plan = match serde_json::from_str(json) {
        Ok(p) => p,
        Err(e) => return refuse(&format!("the plan does not parse: {e}")),
    };
    if let Err(e) = probe::require() {
        return refuse(&e.0);
    }
    let abi = probe::landlock_abi();
    // Built before anything is restricted, so a failure leaves nothing half done.
    let filters = match seccomp::build(plan.network) {
        Ok(f) => f,
        Err(e) => return refuse(&format!("seccomp: {e}")),
    };
    let targets = mounts::scan(&plan);
    if targets.cut_short {
        // Never silently unprotected: what the scan did not see it cannot cover.
        eprintln!(
            "{SETUP_FAILED_MARK}the sandbox looked through more than {} entries for deny_read \
             and protected names and stopped (in {}), so it cannot cover the ones it did not \
             see; the command was not run. Raise the limit in the environment agtool runs in \
             (AGTOOL_SANDBOX_SCAN_BUDGET={}; each command then waits about 0.5 ms per 1,000 \
             entries), move bulky trees out of the workspace and its \
             write_roots/read_roots/exec.writable, or set exec.sandbox = \"off\"",
            plan.scan_budget,
            targets
                .stopped_in
                .as_deref()
                .map_or_else(|| "?".into(), |p| p.display().to_string()),
            plan.scan_budget.saturating_mul(4)
        );
        return SETUP_FAILED;
    }
    if targets.home_cut_short {
        eprintln!(
            "agtool sandbox: note: the home folder has more than {} entries two levels down; \
             deny_read names in the projects past them are not hidden from this command",
            mounts::HOME_BUDGET
        );
    }
    let cwd = std::env::current_dir().ok();
    // The working folder as the caller opened it (by handle, never by name): what the
    // re-entry below must land on again.
    let cwd_id = std::fs::metadata(".").ok().map(|m| (m.dev(), m.ino()));
    if let Err(e) = mounts::enter(probe::is_root()) {
        return refuse(&e.to_string());
    }
    if let Err(e) = mounts::apply(&plan, &targets) {
        return refuse(&e.to_string());
    }
    // The working folder was entered before the mounts: enter it again by name, so that a
    // folder now covered (a protected one made read-only) is seen through its new mount.
    // By name is a race: a folder on the way swapped for a symlink would move the command
    // outside (tests/races.rs). So the folder entered must be the very one the caller opened;
    // anything else (swapped, or hidden by the sandbox) refuses the command.
    if let (Some(cwd), Some(id)) = (&cwd, cwd_id) {
        let entered = std::env::set_current_dir(cwd)
            .and_then(|()| std::fs::metadata("."))
            .map(|m| (m.dev(), m.ino()));
        if entered.ok() != Some(id) {
            eprintln!(
                "{SETUP_FAILED_MARK}the working folder {} was replaced while the sandbox was \
                 built, or is hidden by it; the command was not run",
                cwd.display()
            );
            return SETUP_FAILED;
        }
    }
    if let Err(e) = super::landlock::restrict(&plan, abi) {
        return refuse(&e);
    }
    if let Err(e) = caps::drop_all() {
        return refuse(&e);
    }
    if let Err(e) = seccomp::install(&filters) {
        return refuse(&e);
    }
    let mut cmd = Command::new(program);
    cmd.args(rest);
    if let Some(t) = &plan.tmpdir {
        cmd.env("TMPDIR", t);
    }
    let err = cmd.exec();
    let words: Vec<String> = argv.iter().map(|a| a.to_string_lossy().into()).collect();
    // Marked like a set-up failure, so the tool refuses with these words, as it would had it
    // started the program itself.
    eprintln!(
        "{SETUP_FAILED_MARK}cannot run {}: {}",
        program.to_string_lossy(),
        crate::exec::spawn::describe_spawn(&words, cwd.as_deref(), &err)
    );
    SETUP_FAILED
}
