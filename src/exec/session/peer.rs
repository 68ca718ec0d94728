//! Which clients the session server serves (spec 08, defence in depth): never a command that
//! runs inside an agtool exec sandbox. Such a command could otherwise ask the server, which
//! runs outside every sandbox, for a session with a weaker sandbox or none (`agtool --config
//! off.toml exec-command ...` inside the sandbox did exactly that).
//!
//! The mark: every sandbox helper makes a private mount namespace and mounts at least one
//! tmpfs whose source is [`SANDBOX_MOUNT_SOURCE`] (its private `/dev/shm`, and the covers over
//! hidden folders). A sandboxed command can neither leave that namespace nor unmount it
//! (seccomp refuses `setns`, `unshare`, `umount2` and the mount API). So a peer is taken as
//! sandboxed when its mount namespace differs from the server's and its `mountinfo` shows such
//! a mount, or when that cannot be read. A peer in the server's own namespace is not: a
//! server started inside a sandbox shares it with its clients, and everything it starts stays
//! inside that sandbox anyway.
//!
//! The peer is named by `SO_PEERCRED`'s pid; with `SO_PEERPIDFD` (Linux 6.5) the peer is also
//! checked to be alive after its files were read, so a pid reused in between cannot pass for
//! it (a client waits on its connection, so a legitimate one is alive).

use std::fs::File;
use std::io::Read;
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd};
use std::os::unix::net::UnixStream;

/// The source name of the tmpfs mounts the sandbox helper makes; see the module doc.
pub const SANDBOX_MOUNT_SOURCE: &str = "agtool-sandbox";

/// `SO_PEERPIDFD` (asm-generic value, Linux 6.5); not in the libc crate yet.
const SO_PEERPIDFD: libc::c_int = 77;

/// Most bytes of a peer's `mountinfo` read.
const MOUNTINFO_MAX: u64 = 16 << 20;

/// Why a client is refused, or Ok when it may be served.
pub(crate) fn check(stream: &UnixStream) -> Result<(), String> {
    let pidfd = peer_pidfd(stream);
    let pid = peer_pid(stream)?;
    let own = std::fs::read_link("/proc/self/ns/mnt")
        .map_err(|e| format!("cannot read the server's mount namespace: {e}"))?;
    let sandboxed = match std::fs::read_link(format!("/proc/{pid}/ns/mnt")) {
        Ok(ns) if ns == own => false,
        // Unreadable: taken as sandboxed.
        Ok(_) => mountinfo_marked(pid).unwrap_or(true),
        Err(_) => true,
    };
    if let Some(fd) = &pidfd {
        // SAFETY: pidfd_send_signal with signal 0 on a descriptor we own only checks that
        // the process still lives.
        let rc = unsafe {
            libc::syscall(
                libc::SYS_pidfd_send_signal,
                fd.as_raw_fd(),
                0,
                std::ptr::null::<libc::siginfo_t>(),
                0u32,
            )
        };
        if rc != 0 {
            return Err(format!(
                "the client (pid {pid}) ended before it was checked"
            ));
        }
    }
    if sandboxed {
        return Err(format!(
            "the client (pid {pid}) runs inside an agtool exec sandbox; a sandboxed command \
             may not start or steer sessions"
        ));
    }
    Ok(())
}

/// The peer's pid from `SO_PEERCRED` (read with libc: it is 0 for a peer in a pid namespace
/// the server cannot see, which is refused, as it cannot be looked at).
fn peer_pid(stream: &UnixStream) -> Result<i32, String> {
    let mut cred = libc::ucred {
        pid: 0,
        uid: 0,
        gid: 0,
    };
    let mut len = std::mem::size_of::<libc::ucred>() as libc::socklen_t;
    // SAFETY: getsockopt writes at most `len` bytes into `cred`, which is that large.
    let rc = unsafe {
        libc::getsockopt(
            stream.as_raw_fd(),
            libc::SOL_SOCKET,
            libc::SO_PEERCRED,
            (&mut cred as *mut libc::ucred).cast(),
            &mut len,
        )
    };
    if rc != 0 {
        return Err(format!(
            "no peer credentials: {}",
            std::io::Error::last_os_error()
        ));
    }
    if cred.pid <= 0 {
        return Err("the client's process cannot be seen from the server".into());
    }
    Ok(cred.pid)
}

/// The peer's pidfd, when this kernel gives one (`SO_PEERPIDFD`).
fn peer_pidfd(stream: &UnixStream) -> Option<OwnedFd> {
    let mut fd: libc::c_int = -1;
    let mut len = std::mem::size_of::<libc::c_int>() as libc::socklen_t;
    // SAFETY: getsockopt writes at most `len` bytes into `fd`, which is that large.
    let rc = unsafe {
        libc::getsockopt(
            stream.as_raw_fd(),
            libc::SOL_SOCKET,
            SO_PEERPIDFD,
            (&mut fd as *mut libc::c_int).cast(),
            &mut len,
        )
    };
    // SAFETY: on success the kernel gave us a new descriptor that nothing else owns.
    (rc == 0 && fd >= 0).then(|| unsafe { OwnedFd::from_raw_fd(fd) })
}

/// Whether `pid`'s mount table holds a tmpfs with the sandbox's source name; None when it
/// cannot be read.
fn mountinfo_marked(pid: i32) -> Option<bool> {
    let mut text = Vec::new();
    File::open(format!("/proc/{pid}/mountinfo"))
        .ok()?
        .take(MOUNTINFO_MAX)
        .read_to_end(&mut text)
        .ok()?;
    let text = String::from_utf8_lossy(&text);
    Some(text.lines().any(|line| {
        // `... - <fstype> <source> <super options>`
        line.split_once(" - ").is_some_and(|(_, tail)| {
            let mut f = tail.split(' ');
            f.next() == Some("tmpfs") && f.next() == Some(SANDBOX_MOUNT_SOURCE)
        })
    }))
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_client_in_the_same_namespace_is_served() {
        let (a, _b) = std::os::unix::net::UnixStream::pair().unwrap();
        assert_eq!(super::check(&a), Ok(()));
    }
}
