//! What this machine can enforce (spec 08, "When the kernel lacks a layer"): the Landlock ABI,
//! seccomp filters, and the namespaces the helper needs. [`require`] is the cheap check made
//! before every sandboxed command; [`report`] is `agtool sandbox check`'s fuller look, which
//! also tries the namespaces in a throwaway child.

use std::process::{Command, Stdio};

use super::Unavailable;

/// The oldest Landlock ABI the sandbox accepts: ABI 3 is the first that controls truncation
/// (without it `truncate(2)` writes to any readable file) and renames across folders (ABI 2).
pub const MIN_LANDLOCK_ABI: i32 = 3;

/// The Landlock ABI this kernel reports (0: none, or Landlock disabled at boot).
pub fn landlock_abi() -> i32 {
    // SAFETY: landlock_create_ruleset(NULL, 0, LANDLOCK_CREATE_RULESET_VERSION) only returns
    // a number; it reads and writes no memory.
    let v = unsafe {
        libc::syscall(
            libc::SYS_landlock_create_ruleset,
            std::ptr::null::<u8>(),
            0usize,
            1u32,
        )
    };
    if v < 0 { 0 } else { v as i32 }
}

/// Whether this kernel takes seccomp filters (`prctl(PR_GET_SECCOMP)` works: the kernel has
/// `CONFIG_SECCOMP`).
pub fn seccomp_available() -> bool {
    // SAFETY: a plain prctl query on this process.
    unsafe { libc::prctl(libc::PR_GET_SECCOMP, 0, 0, 0, 0) >= 0 }
}

/// Whether this process runs as root (then the helper makes only a mount namespace; others
/// need a user namespace too).
pub fn is_root() -> bool {
    rustix::process::geteuid().is_root()
}

/// The cheap check before every sandboxed command: Landlock at ABI 3 or later and seccomp.
/// Errors: [`Unavailable`] naming what is missing.
pub fn require() -> Result<(), Unavailable> {
    let abi = landlock_abi();
    if abi == 0 {
        return Err(Unavailable(
            "the kernel has no Landlock, or it is not enabled at boot (lsm=...,landlock)".into(),
        ));
    }
    if abi < MIN_LANDLOCK_ABI {
        return Err(Unavailable(format!(
            "the kernel's Landlock ABI is {abi}, and the sandbox needs {MIN_LANDLOCK_ABI} (Linux \
             6.2 or later)"
        )));
    }
    if !seccomp_available() {
        return Err(Unavailable("the kernel has no seccomp filters".into()));
    }
    Ok(())
}

/// One line of `sandbox check`: the layer, whether it holds here, and what it gives.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Layer {
    /// The layer's name (`Landlock`, `seccomp`, `mount namespace`, `user namespace`).
    pub name: &'static str,
    /// Whether this machine enforces it.
    pub ok: bool,
    /// What it does here, or why not.
    pub detail: String,
}

/// What this machine enforces, layer by layer, and whether `workspace-write` can be enforced
/// (every needed layer holds). The namespaces are tried for real by running the helper's
/// namespace step in a child (`sandbox-exec` with a plan that hides nothing, running `true`).
pub fn report() -> (Vec<Layer>, bool) {
    let abi = landlock_abi();
    let mut layers = vec![Layer {
        name: "Landlock",
        ok: abi >= MIN_LANDLOCK_ABI,
        detail: match abi {
            0 => "absent or not enabled at boot: file writes cannot be confined".into(),
            a if a < MIN_LANDLOCK_ABI => {
                format!("ABI {a}, older than the {MIN_LANDLOCK_ABI} the sandbox needs")
            }
            a if a < 4 => format!(
                "ABI {a}: file allow-list enforced; TCP rules need ABI 4 (seccomp still refuses \
                 internet sockets)"
            ),
            a => format!("ABI {a}: file allow-list and TCP bind/connect enforced"),
        },
    }];
    let seccomp = seccomp_available();
    layers.push(Layer {
        name: "seccomp",
        ok: seccomp,
        detail: if seccomp {
            "filters enforced: internet sockets, namespaces, mount, ptrace, chroot refused".into()
        } else {
            "absent: sockets and sandbox-weakening calls cannot be refused".into()
        },
    });
    let ns = try_namespaces();
    let root = is_root();
    layers.push(Layer {
        name: if root {
            "mount namespace"
        } else {
            "user and mount namespaces"
        },
        ok: ns.is_ok(),
        detail: match &ns {
            Ok(()) => format!(
                "private mounts hide deny_read paths and the key folder, protected names are \
                 read-only{}",
                if root {
                    ""
                } else {
                    " (inside a user namespace)"
                }
            ),
            Err(e) => e.clone(),
        },
    });
    let ok = layers.iter().all(|l| l.ok);
    (layers, ok)
}

/// Runs the helper with an empty plan on `true`, which makes the namespaces and applies every
/// layer; Ok when it ran, else the helper's words.
fn try_namespaces() -> Result<(), String> {
    let exe = std::env::current_exe().map_err(|e| format!("cannot find agtool: {e}"))?;
    let plan = super::Plan {
        mode: super::Mode::ReadOnly,
        network: false,
        write_roots: Vec::new(),
        read_roots: Vec::new(),
        writable: Vec::new(),
        tmpdir: None,
        home: None,
        deny_read: Vec::new(),
        protected: Vec::new(),
        hidden: Vec::new(),
        scan_budget: super::mounts::SCAN_BUDGET,
    };
    let json = serde_json::to_string(&plan).map_err(|e| e.to_string())?;
    let out = Command::new(exe)
        .args([super::SUBCOMMAND, &json, "--", "true"])
        .stdin(Stdio::null())
        .output()
        .map_err(|e| format!("cannot run agtool's sandbox helper: {e}"))?;
    if out.status.success() {
        Ok(())
    } else {
        let text = String::from_utf8_lossy(&out.stderr);
        let line = text.lines().next().unwrap_or("the helper failed");
        Err(line
            .strip_prefix(super::SETUP_FAILED_MARK)
            .unwrap_or(line)
            .to_string())
    }
}
