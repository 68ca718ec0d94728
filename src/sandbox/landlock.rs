//! The helper's Landlock layer (spec 08, "Mechanism"): the file allow-list and TCP rules.
//!
//! Every file right of this kernel's ABI is handled (denied unless a rule grants it), with the
//! `landlock` crate's hard-requirement compatibility level, so a right the kernel lacks is an
//! error, never a silent no-op. Rules:
//! - read (read files, list folders, execute) under every top-level entry of `/` but `/dev`,
//!   so raw disks (`/dev/sda`, readable by root) stay out of reach;
//! - under `/dev` only the usual devices: `null`, `zero`, `full`, `random`, `urandom`, `tty`,
//!   `ptmx`, `pts/`, `shm/`, readable and writable (with device ioctls);
//! - every right but making device nodes under the writable places: the write roots
//!   (`workspace-write` only), `/tmp`, the private `TMPDIR` and `exec.writable`;
//! - from ABI 4, with the network off, TCP bind and connect are handled with no rule, so
//!   denied (seccomp refuses the sockets themselves; this is a second wall);
//! - from ABI 6, signals and abstract Unix sockets are scoped: the command cannot signal or
//!   connect to an abstract socket of a process outside its own sandbox.

use std::path::Path;

use landlock::{
    ABI, Access, AccessFs, AccessNet, BitFlags, CompatLevel, Compatible, PathBeneath, PathFd,
    Ruleset, RulesetAttr, RulesetCreatedAttr, Scope,
};

use super::{Mode, Plan};

/// The devices commands may use.
const DEVICES: &[&str] = &[
    "/dev/null",
    "/dev/zero",
    "/dev/full",
    "/dev/random",
    "/dev/urandom",
    "/dev/tty",
    "/dev/ptmx",
    "/dev/pts",
    "/dev/shm",
];

fn abi_of(n: i32) -> ABI {
    ABI::from(n)
}

/// Restricts this process (and everything it will start) to the plan's allow-list. `abi` is
/// the kernel's Landlock ABI (checked by the caller to be at least 3). Errors are words.
pub fn restrict(plan: &Plan, abi: i32) -> Result<(), String> {
    let abi = abi_of(abi);
    let all = AccessFs::from_all(abi);
    let read = AccessFs::from_read(abi);
    let no_nodes = AccessFs::MakeChar | AccessFs::MakeBlock;
    let write = all & !no_nodes;
    let dev_io: BitFlags<AccessFs> = {
        let mut f = AccessFs::from_file(abi) & (AccessFs::ReadFile | AccessFs::WriteFile);
        f |= AccessFs::from_file(abi) & (AccessFs::Truncate | AccessFs::IoctlDev);
        f
    };
    let fail = |e: landlock::RulesetError| format!("Landlock: {e}");
    let mut ruleset = Ruleset::default()
        .set_compatibility(CompatLevel::HardRequirement)
        .handle_access(all)
        .map_err(fail)?;
    if !plan.network && abi >= ABI::V4 {
        ruleset = ruleset
            .handle_access(AccessNet::from_all(abi))
            .map_err(fail)?;
    }
    // From ABI 6: no signal to, and no abstract Unix socket of, a process outside this
    // sandbox (the agent, the session server, the user's other programs).
    if abi >= ABI::V6 {
        ruleset = ruleset.scope(Scope::from_all(abi)).map_err(fail)?;
    }
    let mut created = ruleset.create().map_err(fail)?;
    let rule =
        |path: &Path, access: BitFlags<AccessFs>| -> Result<Option<PathBeneath<PathFd>>, String> {
            let fd = match PathFd::new(path) {
                Ok(fd) => fd,
                // A place that vanished since the plan was made needs no rule.
                Err(_) if !path.exists() => return Ok(None),
                Err(e) => return Err(format!("Landlock: cannot open {}: {e}", path.display())),
            };
            let access = if path.is_dir() {
                access
            } else {
                access & AccessFs::from_file(abi)
            };
            Ok(Some(PathBeneath::new(fd, access)))
        };
    // Reads: "/" itself may be listed; below it, everything but /dev.
    created = created
        .add_rule(PathBeneath::new(
            PathFd::new("/").map_err(|e| format!("Landlock: cannot open /: {e}"))?,
            AccessFs::ReadDir,
        ))
        .map_err(fail)?;
    let entries = std::fs::read_dir("/").map_err(|e| format!("cannot list /: {e}"))?;
    for e in entries.flatten() {
        if e.file_name() == "dev" {
            continue;
        }
        if let Some(r) = rule(&e.path(), read)? {
            created = created.add_rule(r).map_err(fail)?;
        }
    }
    for dev in DEVICES {
        let p = Path::new(dev);
        let access = if p.is_dir() { write } else { dev_io };
        if let Some(r) = rule(p, access | (read & AccessFs::from_file(abi)))? {
            created = created.add_rule(r).map_err(fail)?;
        }
    }
    let mut writable: Vec<&Path> = vec![Path::new("/tmp")];
    if plan.mode == Mode::WorkspaceWrite {
        writable.extend(plan.write_roots.iter().map(|p| p.as_path()));
    }
    writable.extend(plan.tmpdir.iter().map(|p| p.as_path()));
    writable.extend(plan.writable.iter().map(|p| p.as_path()));
    for w in writable {
        if let Some(r) = rule(w, write | read)? {
            created = created.add_rule(r).map_err(fail)?;
        }
    }
    let status = created.restrict_self().map_err(fail)?;
    if status.ruleset != landlock::RulesetStatus::FullyEnforced {
        return Err(format!(
            "Landlock enforced the rules only partly ({:?})",
            status.ruleset
        ));
    }
    Ok(())
}
