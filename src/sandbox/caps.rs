//! The helper's capability layer (spec 08, "cannot be lifted from inside"): the command keeps
//! no capability at all, as bubblewrap does for an unprivileged sandbox. Run as root (or
//! inside the helper's own user namespace) it would otherwise hold every one: `CAP_SYS_ADMIN`
//! alone lets a process inject keystrokes into other terminals, mark whole filesystems with
//! fanotify and reopen files around the hiding mounts.
//!
//! In order: the securebits that keep uid 0 from regaining capabilities at exec and lock that
//! (`SECBIT_NOROOT`, `SECBIT_NO_SETUID_FIXUP`, `SECBIT_NO_CAP_AMBIENT_RAISE`, each locked);
//! every capability out of the bounding set; the ambient set cleared; then the effective,
//! permitted and inheritable sets emptied with `capset`. A consequence as root: files of other
//! users are reached through their mode bits only (no `CAP_DAC_OVERRIDE`).

use std::io;

const SECBIT_NOROOT: libc::c_ulong = 1 << 0;
const SECBIT_NOROOT_LOCKED: libc::c_ulong = 1 << 1;
const SECBIT_NO_SETUID_FIXUP: libc::c_ulong = 1 << 2;
const SECBIT_NO_SETUID_FIXUP_LOCKED: libc::c_ulong = 1 << 3;
const SECBIT_NO_CAP_AMBIENT_RAISE: libc::c_ulong = 1 << 6;
const SECBIT_NO_CAP_AMBIENT_RAISE_LOCKED: libc::c_ulong = 1 << 7;

/// `_LINUX_CAPABILITY_VERSION_3`: two 32-bit words per set.
const CAP_VERSION_3: u32 = 0x2008_0522;

#[repr(C)]
struct CapHeader {
    version: u32,
    pid: libc::c_int,
}

#[repr(C)]
#[derive(Clone, Copy, Default)]
struct CapData {
    effective: u32,
    permitted: u32,
    inheritable: u32,
}

/// The highest capability number this kernel knows (`/proc/sys/kernel/cap_last_cap`; 63 when
/// it cannot be read: dropping an unknown one is skipped).
fn last_cap() -> u32 {
    std::fs::read_to_string("/proc/sys/kernel/cap_last_cap")
        .ok()
        .and_then(|s| s.trim().parse().ok())
        .unwrap_or(63)
}

fn fail(what: &str) -> String {
    format!(
        "cannot drop capabilities ({what}: {})",
        io::Error::last_os_error()
    )
}

/// Drops every capability of this process and of what it will execute. Errors are words.
pub fn drop_all() -> Result<(), String> {
    let bits = SECBIT_NOROOT
        | SECBIT_NOROOT_LOCKED
        | SECBIT_NO_SETUID_FIXUP
        | SECBIT_NO_SETUID_FIXUP_LOCKED
        | SECBIT_NO_CAP_AMBIENT_RAISE
        | SECBIT_NO_CAP_AMBIENT_RAISE_LOCKED;
    // SAFETY: plain prctl calls on this process.
    unsafe {
        if libc::prctl(libc::PR_SET_SECUREBITS, bits, 0, 0, 0) != 0 {
            return Err(fail("PR_SET_SECUREBITS"));
        }
        for cap in 0..=last_cap() {
            if libc::prctl(libc::PR_CAPBSET_DROP, cap as libc::c_ulong, 0, 0, 0) != 0
                && io::Error::last_os_error().raw_os_error() != Some(libc::EINVAL)
            {
                return Err(fail("PR_CAPBSET_DROP"));
            }
        }
        if libc::prctl(
            libc::PR_CAP_AMBIENT,
            libc::PR_CAP_AMBIENT_CLEAR_ALL as libc::c_ulong,
            0,
            0,
            0,
        ) != 0
        {
            return Err(fail("PR_CAP_AMBIENT_CLEAR_ALL"));
        }
    }
    let header = CapHeader {
        version: CAP_VERSION_3,
        pid: 0,
    };
    let data = [CapData::default(); 2];
    // SAFETY: capset reads the header and the two data words it is given.
    if unsafe { libc::syscall(libc::SYS_capset, &header, data.as_ptr()) } != 0 {
        return Err(fail("capset"));
    }
    Ok(())
}
