//! The session guard: a small process between the session server and each session's command
//! that ends the command's whole tree when the server dies (issue 12, item 6).
//!
//! Without it, a SIGKILLed server left its sessions running (setsid'd and double-forked ones
//! included) until some later exec-command started a new server to sweep them. The server
//! starts each session as `agtool session-guard --server-pid <pid> -- <argv>`; the guard
//! (the leader of the session's process group, spec 05 `setsid`):
//!
//! - asks for a parent-death signal ([`DEATH_SIGNAL`]) and checks its parent now and every
//!   [`PARENT_CHECK`]; when the server is gone it kills everything below it and exits. (The
//!   kernel also sends the signal when the server *thread* that started the guard ends, so the
//!   signal alone means nothing: the parent pid is what is checked.)
//! - is a child subreaper, so every descendant of the command stays below it (a double fork
//!   or `setsid` cannot escape, and neither can a process that cleared its environment: the
//!   tag the server's own sweep relies on is not needed here);
//! - runs the command as its child in its own process group, hands the server the command's
//!   pid and, later, its exit status over a report pipe (fd [`REPORT_FD`]), and holds none of
//!   the command's pipes itself;
//! - on SIGTERM (the server killing the session's group, spec 05 kill sequence) kills its
//!   descendants: those outside the group at once (they get no SIGTERM from the group signal),
//!   the group's after up to [`GRACE`]; then exits. SIGINT, SIGQUIT and SIGHUP sent to the
//!   group are for the command; the guard ignores them.
//!
//! Report lines (UTF-8): `ok <pid>` once the command started, or `err <reason>` when it could
//! not be; then `exit <code>` (code, or 128 + signal) when the command exits.

use std::ffi::OsString;
use std::fs::File;
use std::io::Write;
use std::os::fd::FromRawFd;
use std::os::unix::process::CommandExt;
use std::process::Command;
use std::time::{Duration, Instant};

use super::super::tree::live_descendants;
use crate::exec::spawn::REPORT_FD;

/// The hidden subcommand that runs a guard.
pub const SUBCOMMAND: &str = "session-guard";
/// The parent-death signal (not SIGTERM: that one comes from the server's group kill).
pub const DEATH_SIGNAL: i32 = libc::SIGUSR2;
/// How often the guard checks that its server still lives, even without a signal.
pub const PARENT_CHECK: Duration = Duration::from_millis(500);
/// Grace between SIGTERM and SIGKILL for the command's group when the guard ends the tree
/// itself (within the server's own 200 ms, spec 05).
pub const GRACE: Duration = Duration::from_millis(150);
/// How long the guard keeps killing descendants that appear while it kills (each generation
/// of a fork bomb is reparented to it).
const KILL_ROUNDS_FOR: Duration = Duration::from_secs(2);

/// The argv that runs `argv` under a guard of the server `server_pid`, `exe` being agtool
/// (`/proc/self/exe` in the server: it works even after the binary was replaced).
pub(crate) fn guarded_argv(exe: &str, server_pid: u32, argv: &[String]) -> Vec<String> {
    let mut out = vec![
        exe.to_owned(),
        SUBCOMMAND.to_owned(),
        "--server-pid".to_owned(),
        server_pid.to_string(),
        "--".to_owned(),
    ];
    out.extend(argv.iter().cloned());
    out
}

/// Signals the guard waits for; all blocked, so they are taken by `sigtimedwait`.
fn watched() -> libc::sigset_t {
    // SAFETY: sigemptyset/sigaddset only write the set we own.
    unsafe {
        let mut set: libc::sigset_t = std::mem::zeroed();
        libc::sigemptyset(&mut set);
        for sig in [
            libc::SIGCHLD,
            libc::SIGTERM,
            libc::SIGINT,
            libc::SIGQUIT,
            libc::SIGHUP,
            libc::SIGPIPE,
            libc::SIGUSR1,
            DEATH_SIGNAL,
        ] {
            libc::sigaddset(&mut set, sig);
        }
        set
    }
}

/// Runs the guard: starts `argv` and watches it, its tree and the server `server_pid` (see
/// the module doc). Returns the guard's exit status: the command's exit code once it ran,
/// 127 when it could not be started, 1 when the server was already gone or the report pipe
/// is missing.
pub fn run(server_pid: i32, argv: &[OsString]) -> i32 {
    // SAFETY: F_GETFD only inspects the descriptor.
    if unsafe { libc::fcntl(REPORT_FD, libc::F_GETFD) } < 0 {
        eprintln!("agtool session-guard: no report pipe on fd {REPORT_FD}; started by hand?");
        return 1;
    }
    // The command must not inherit the report pipe: it could write to it, and the server
    // would not see its end while the command's tree lives.
    // SAFETY: fcntl on a descriptor this process owns.
    unsafe { libc::fcntl(REPORT_FD, libc::F_SETFD, libc::FD_CLOEXEC) };
    // SAFETY: fd 3 is the report pipe the server passed; nothing else owns it.
    let mut report = unsafe { File::from_raw_fd(REPORT_FD) };
    let set = watched();
    // SAFETY: a zeroed sigset_t is valid; sigprocmask reads `set`, writes `old`.
    let mut old: libc::sigset_t = unsafe { std::mem::zeroed() };
    // SAFETY: see above.
    unsafe { libc::sigprocmask(libc::SIG_BLOCK, &set, &mut old) };
    // SAFETY: plain prctl calls on this process.
    unsafe {
        libc::prctl(libc::PR_SET_PDEATHSIG, DEATH_SIGNAL as libc::c_ulong);
        libc::prctl(libc::PR_SET_CHILD_SUBREAPER, 1 as libc::c_ulong);
    }
    // SAFETY: getppid has no preconditions.
    if unsafe { libc::getppid() } != server_pid {
        // The server died before the signal was asked for: start nothing.
        return 1;
    }
    let Some((program, args)) = argv.split_first() else {
        let _ = writeln!(report, "err the command is empty");
        return 127;
    };
    let mut cmd = Command::new(program);
    cmd.args(args);
    // SAFETY: the closure only calls sigprocmask, which is async-signal-safe, on a copy of
    // the mask the guard had before it blocked its signals.
    unsafe {
        cmd.pre_exec(move || {
            libc::sigprocmask(libc::SIG_SETMASK, &old, std::ptr::null_mut());
            Ok(())
        });
    }
    let command_pid = match cmd.spawn() {
        Ok(child) => child.id() as i32,
        Err(e) => {
            let words: Vec<String> = argv.iter().map(|a| a.to_string_lossy().into()).collect();
            let reason = crate::exec::spawn::describe_spawn(&words, None, &e);
            let _ = writeln!(report, "err {reason}");
            return 127;
        }
    };
    if writeln!(report, "ok {command_pid}").is_err() {
        end_tree(command_pid, &mut None);
        return 1;
    }
    detach_stdio();
    let mut exit: Option<i32> = None;
    let mut reported = false;
    loop {
        let sig = wait_signal(&set, PARENT_CHECK);
        let server_gone = (sig.is_none() || sig == Some(DEATH_SIGNAL))
            // SAFETY: getppid has no preconditions.
            && unsafe { libc::getppid() } != server_pid;
        let ending = sig == Some(libc::SIGTERM) || server_gone;
        if ending {
            end_tree(command_pid, &mut exit);
        }
        let no_children = reap(command_pid, &mut exit);
        if let (Some(code), false) = (exit, reported) {
            reported = true;
            let _ = writeln!(report, "exit {code}");
        }
        // Done when the tree is gone: the command exited and nothing it started is left.
        // The guard's own status repeats the command's (killed, when it could not be told),
        // for a server that reads the report's end before its last line.
        if ending || (exit.is_some() && no_children) {
            return exit.unwrap_or(128 + libc::SIGKILL);
        }
    }
}

/// Points stdin, stdout and stderr at /dev/null: the guard must not hold the command's pipes
/// (the server waits for the output pipe's end).
fn detach_stdio() {
    // SAFETY: open and dup2 on descriptors this process owns.
    unsafe {
        let null = libc::open(c"/dev/null".as_ptr(), libc::O_RDWR | libc::O_CLOEXEC);
        if null >= 0 {
            for fd in 0..3 {
                libc::dup2(null, fd);
            }
            libc::close(null);
        }
    }
}

/// Waits up to `timeout` for one of `set`'s signals; None on timeout.
fn wait_signal(set: &libc::sigset_t, timeout: Duration) -> Option<i32> {
    let ts = libc::timespec {
        tv_sec: timeout.as_secs() as libc::time_t,
        tv_nsec: timeout.subsec_nanos() as libc::c_long,
    };
    // SAFETY: valid set and timespec; the siginfo is not needed.
    let sig = unsafe { libc::sigtimedwait(set, std::ptr::null_mut(), &ts) };
    (sig > 0).then_some(sig)
}

/// Reaps every exited child; the command's status goes to `exit`. True when no child is left.
fn reap(command_pid: i32, exit: &mut Option<i32>) -> bool {
    loop {
        let mut status = 0;
        // SAFETY: waitpid on our own children with a valid status pointer.
        let pid = unsafe { libc::waitpid(-1, &mut status, libc::WNOHANG) };
        if pid == 0 {
            return false;
        }
        if pid < 0 {
            return true; // ECHILD: nothing left
        }
        if pid == command_pid {
            *exit = Some(if libc::WIFEXITED(status) {
                libc::WEXITSTATUS(status)
            } else {
                128 + libc::WTERMSIG(status)
            });
        }
    }
}

fn kill(pid: i32, sig: i32) {
    // SAFETY: kill(2) on a pid of our own tree.
    unsafe { libc::kill(pid, sig) };
}

/// Kills everything below the guard: descendants outside its process group at once (as the
/// spec's kill sequence does with them), the group's members after SIGTERM and up to
/// [`GRACE`], then anything left or newly reparented, until nothing is.
fn end_tree(command_pid: i32, exit: &mut Option<i32>) {
    // SAFETY: getpid has no preconditions.
    let me = unsafe { libc::getpid() };
    for (pid, pgrp) in live_descendants(me) {
        kill(
            pid,
            if pgrp == me {
                libc::SIGTERM
            } else {
                libc::SIGKILL
            },
        );
    }
    let grace_end = Instant::now() + GRACE;
    while Instant::now() < grace_end {
        reap(command_pid, exit);
        if live_descendants(me).is_empty() {
            break;
        }
        std::thread::sleep(Duration::from_millis(5));
    }
    let end = Instant::now() + KILL_ROUNDS_FOR;
    loop {
        let left = live_descendants(me);
        if left.is_empty() || Instant::now() >= end {
            break;
        }
        for (pid, _) in left {
            kill(pid, libc::SIGKILL);
        }
        reap(command_pid, exit);
        std::thread::sleep(Duration::from_millis(2));
    }
    reap(command_pid, exit);
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_guard_goes_in_front() {
        let argv = super::guarded_argv("/proc/self/exe", 42, &["sh".into(), "-c".into()]);
        assert_eq!(
            argv,
            [
                "/proc/self/exe",
                "session-guard",
                "--server-pid",
                "42",
                "--",
                "sh",
                "-c"
            ]
        );
    }
}
