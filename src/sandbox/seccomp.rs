//! The helper's seccomp layer (spec 08, "Mechanism"), built with `seccompiler` and installed
//! last, right before the command is executed. It refuses with `EPERM`:
//! - with the network off, `socket(2)` of any family but `AF_UNIX`: IPv4 and IPv6 (TCP, UDP,
//!   raw alike), packet, netlink and the rest. Landlock covers TCP only, and only from ABI 4;
//! - calls that would weaken or leave the sandbox: `unshare`, `setns` and `clone` with any
//!   namespace flag (a user namespace made inside would give back mount rights), `mount`,
//!   `umount2`, `pivot_root`, `chroot`, the new mount API (`open_tree`, `move_mount`,
//!   `fsopen`, `fsconfig`, `fsmount`, `fspick`, `mount_setattr`), `ptrace` and
//!   `process_vm_readv`/`process_vm_writev` (reading or steering a process outside),
//!   `open_by_handle_at` (opens a file by handle, around the covering mounts), `io_uring_*`
//!   (its operations are not seen by seccomp), `bpf`, `perf_event_open`, kernel modules,
//!   `kexec_*`, `reboot`, `swapon`/`swapoff`; `fanotify_init` and `name_to_handle_at`
//!   (whole-filesystem marks and file handles reopen files around the mounts), the clock,
//!   host name, kernel log, accounting, quota, keyring, `userfaultfd`, `pidfd_getfd`,
//!   `iopl`/`ioperm` calls;
//! - `ioctl` `TIOCSTI` and `TIOCLINUX` (typing into a terminal, another one's included);
//! - `clone3` with `ENOSYS` (its flags sit in memory a filter cannot read), so the C library
//!   falls back to `clone`, whose flags are checked.
//!
//! A call from another architecture's table (32-bit `int 0x80`) kills the process
//! (seccompiler's architecture check); on x86-64 the x32 numbers of the refused calls are
//! refused too.

use std::collections::BTreeMap;

use seccompiler::{
    BpfProgram, SeccompAction, SeccompCmpArgLen, SeccompCmpOp, SeccompCondition, SeccompFilter,
    SeccompRule, TargetArch,
};

#[cfg(target_arch = "x86_64")]
const ARCH: TargetArch = TargetArch::x86_64;
#[cfg(target_arch = "aarch64")]
const ARCH: TargetArch = TargetArch::aarch64;
#[cfg(target_arch = "riscv64")]
const ARCH: TargetArch = TargetArch::riscv64;

/// The x32 bit of x86-64 syscall numbers.
#[cfg(target_arch = "x86_64")]
const X32: i64 = 0x4000_0000;

/// Calls refused whatever their arguments.
fn refused_calls() -> Vec<i64> {
    let mut v: Vec<i64> = vec![
        libc::SYS_unshare,
        libc::SYS_setns,
        libc::SYS_mount,
        libc::SYS_umount2,
        libc::SYS_pivot_root,
        libc::SYS_chroot,
        libc::SYS_open_tree,
        libc::SYS_move_mount,
        libc::SYS_fsopen,
        libc::SYS_fsconfig,
        libc::SYS_fsmount,
        libc::SYS_fspick,
        libc::SYS_mount_setattr,
        libc::SYS_ptrace,
        libc::SYS_process_vm_readv,
        libc::SYS_process_vm_writev,
        libc::SYS_open_by_handle_at,
        libc::SYS_io_uring_setup,
        libc::SYS_io_uring_enter,
        libc::SYS_io_uring_register,
        libc::SYS_bpf,
        libc::SYS_perf_event_open,
        libc::SYS_init_module,
        libc::SYS_finit_module,
        libc::SYS_delete_module,
        libc::SYS_kexec_load,
        libc::SYS_kexec_file_load,
        libc::SYS_reboot,
        libc::SYS_swapon,
        libc::SYS_swapoff,
        // Reaching around the mounts, or the kernel and the machine as a whole (most also
        // need a capability the helper dropped; refused here too, whatever the kernel says).
        libc::SYS_fanotify_init,
        libc::SYS_name_to_handle_at,
        libc::SYS_settimeofday,
        libc::SYS_clock_settime,
        libc::SYS_clock_adjtime,
        libc::SYS_adjtimex,
        libc::SYS_sethostname,
        libc::SYS_setdomainname,
        libc::SYS_syslog,
        libc::SYS_acct,
        libc::SYS_quotactl,
        libc::SYS_quotactl_fd,
        libc::SYS_keyctl,
        libc::SYS_add_key,
        libc::SYS_request_key,
        libc::SYS_userfaultfd,
        libc::SYS_pidfd_getfd,
        libc::SYS_vhangup,
    ];
    #[cfg(target_arch = "x86_64")]
    v.extend([
        libc::SYS_iopl,
        libc::SYS_ioperm,
        libc::SYS_uselib,
        libc::SYS_lookup_dcookie,
    ]);
    v.sort_unstable();
    v
}

/// Namespace flags `clone` may not carry.
const NS_FLAGS: [i32; 7] = [
    libc::CLONE_NEWNS,
    libc::CLONE_NEWUSER,
    libc::CLONE_NEWNET,
    libc::CLONE_NEWPID,
    libc::CLONE_NEWUTS,
    libc::CLONE_NEWIPC,
    libc::CLONE_NEWCGROUP,
];

fn cond(arg: u8, op: SeccompCmpOp, value: u64) -> Result<SeccompCondition, String> {
    SeccompCondition::new(arg, SeccompCmpArgLen::Dword, op, value).map_err(|e| e.to_string())
}

/// Adds `nr` (and its x32 twin) with `rules` to `map`.
fn add(map: &mut BTreeMap<i64, Vec<SeccompRule>>, nr: i64, rules: Vec<SeccompRule>) {
    #[cfg(target_arch = "x86_64")]
    map.insert(nr | X32, rules.clone());
    map.insert(nr, rules);
}

/// The two filters: the `EPERM` one and the `clone3` → `ENOSYS` one.
pub fn build(network: bool) -> Result<Vec<BpfProgram>, String> {
    let mut perm: BTreeMap<i64, Vec<SeccompRule>> = BTreeMap::new();
    for nr in refused_calls() {
        add(&mut perm, nr, Vec::new());
    }
    let clone_rules = NS_FLAGS
        .iter()
        .map(|f| {
            SeccompRule::new(vec![cond(0, SeccompCmpOp::MaskedEq(*f as u64), *f as u64)?])
                .map_err(|e| e.to_string())
        })
        .collect::<Result<Vec<_>, String>>()?;
    add(&mut perm, libc::SYS_clone, clone_rules);
    // Terminal ioctls that push input into a terminal, which may be another one's (the
    // command can open /dev/pts): TIOCSTI types into it, TIOCLINUX selects and pastes.
    let ioctl_rules = [0x5412_u64 /* TIOCSTI */, 0x541C /* TIOCLINUX */]
        .iter()
        .map(|req| {
            SeccompRule::new(vec![cond(1, SeccompCmpOp::Eq, *req)?]).map_err(|e| e.to_string())
        })
        .collect::<Result<Vec<_>, String>>()?;
    add(&mut perm, libc::SYS_ioctl, ioctl_rules);
    if !network {
        let rule = SeccompRule::new(vec![cond(0, SeccompCmpOp::Ne, libc::AF_UNIX as u64)?])
            .map_err(|e| e.to_string())?;
        add(&mut perm, libc::SYS_socket, vec![rule]);
    }
    let perm = SeccompFilter::new(
        perm,
        SeccompAction::Allow,
        SeccompAction::Errno(libc::EPERM as u32),
        ARCH,
    )
    .map_err(|e| e.to_string())?;
    let mut nosys: BTreeMap<i64, Vec<SeccompRule>> = BTreeMap::new();
    add(&mut nosys, libc::SYS_clone3, Vec::new());
    let nosys = SeccompFilter::new(
        nosys,
        SeccompAction::Allow,
        SeccompAction::Errno(libc::ENOSYS as u32),
        ARCH,
    )
    .map_err(|e| e.to_string())?;
    let a: BpfProgram = perm
        .try_into()
        .map_err(|e: seccompiler::BackendError| e.to_string())?;
    let b: BpfProgram = nosys
        .try_into()
        .map_err(|e: seccompiler::BackendError| e.to_string())?;
    Ok(vec![a, b])
}

/// Installs the filters on this process (which sets `no_new_privs` first).
pub fn install(filters: &[BpfProgram]) -> Result<(), String> {
    for f in filters {
        seccompiler::apply_filter(f).map_err(|e| format!("seccomp: {e}"))?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_filters_build_both_ways() {
        assert_eq!(super::build(false).unwrap().len(), 2);
        assert_eq!(super::build(true).unwrap().len(), 2);
    }
}
