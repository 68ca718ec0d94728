//! One-shot exec (spec 05, "exec (one shot)"): run an argv to completion with a timeout and a
//! bounded output budget, then describe the result as text.

use std::path::PathBuf;
use std::process::ExitStatus;
use std::time::{Duration, Instant};

use std::os::fd::AsFd;

use super::buffer::{HeadTailBuffer, RenderedOutput};
use super::oneshot_guard::OneShotGuard;
use super::spawn::{
    FIRST_READ_CHUNK, READ_CHUNK, SpawnError, StdinMode, exit_code, next_tag, read_chunk,
    reap_blocking, spawn, try_reap, wait_io, widen_pipe, with_prefix,
};
use super::tree::{TreeLease, kill_tree, may_have_survivors};
use crate::interrupt::{Cancel, InterruptWatch, Stop, signal_name};

/// Default `timeout_ms` (spec 05).
pub const DEFAULT_TIMEOUT_MS: u64 = 10_000;
/// Largest accepted `timeout_ms` (spec 05).
pub const MAX_TIMEOUT_MS: u64 = 600_000;
/// Default `max_output_bytes` (spec 05).
pub const DEFAULT_MAX_OUTPUT_BYTES: usize = 30_000;
/// Exit code reported for a command killed by its timeout.
pub const TIMEOUT_EXIT_CODE: i32 = 124;
/// How long the output pipe is still read after the command exits (spec 05: "up to 2 s").
pub const DRAIN_AFTER_EXIT: Duration = Duration::from_secs(2);
/// How long the pipe is still read after the tree was killed; a holder outside our reach
/// (another user's process) must not hang the call.
const DRAIN_AFTER_KILL: Duration = Duration::from_millis(500);

/// Arguments of one exec call.
#[derive(Debug, Clone)]
pub struct ExecRequest {
    /// The command and its arguments, passed to execvp as is (no shell). Must not be empty.
    pub argv: Vec<String>,
    /// Working directory; None = the current directory. The caller checks the read policy.
    pub workdir: Option<PathBuf>,
    /// The working directory as an open handle, when the caller has one: the command then
    /// starts in that very folder (`fchdir` before `exec`), whatever was renamed or swapped
    /// for a symlink since it was checked; `workdir` only names it in messages.
    pub workdir_handle: Option<std::sync::Arc<std::os::fd::OwnedFd>>,
    /// Milliseconds before the tree is killed; 1..=[`MAX_TIMEOUT_MS`].
    pub timeout_ms: u64,
    /// Output budget in bytes, split head / tail.
    pub max_output_bytes: usize,
    /// Config `exec.prefix`: argv words put in front of `argv` (empty: none).
    pub prefix: Vec<String>,
    /// A stop request from the face that runs the call (the MCP server's cancellation, end
    /// of input); [`Cancel::never`] on the command line, where signals do that job.
    pub cancel: Cancel,
}

impl ExecRequest {
    /// A request with the spec's defaults for everything but `argv`.
    pub fn new(argv: Vec<String>) -> Self {
        ExecRequest {
            argv,
            workdir: None,
            workdir_handle: None,
            timeout_ms: DEFAULT_TIMEOUT_MS,
            max_output_bytes: DEFAULT_MAX_OUTPUT_BYTES,
            prefix: Vec::new(),
            cancel: Cancel::never(),
        }
    }
}

/// Why exec refused or could not start the command. The `Display` text is the message for the
/// model (without the `Error: ` the CLI adds).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ExecError {
    /// `argv` was empty.
    #[error("command is empty; give the program and its arguments, e.g. [\"ls\", \"-l\"]")]
    EmptyCommand,
    /// `timeout_ms` was 0 or above the maximum.
    #[error("timeout_ms must be between 1 and {MAX_TIMEOUT_MS}, got {0}")]
    BadTimeout(u64),
    /// The working directory does not exist or is not a directory.
    #[error("workdir {0} is not a directory")]
    BadWorkdir(String),
    /// The program could not be started (`cannot run <argv0>: <reason>`).
    #[error(transparent)]
    Spawn(#[from] SpawnError),
    /// agtool received SIGTERM, SIGINT, SIGHUP or SIGQUIT (the number) while the command ran; the
    /// command and everything it started were killed (see [`crate::interrupt`]). The CLI exits
    /// with 128 + the signal number.
    #[error(
        "interrupted by {}; the command and everything it started were killed",
        signal_name(*.0)
    )]
    Interrupted(i32),
    /// The request's [`Cancel`] fired while the command ran; the command and everything it
    /// started were killed.
    #[error("the call was cancelled; the command and everything it started were killed")]
    Cancelled,
}

/// The result of a command that ran.
#[derive(Debug, Clone)]
pub struct ExecOutcome {
    /// The command's exit code; 128 + signal when killed by one; 124 on timeout.
    pub exit_code: i32,
    /// Whether the timeout fired.
    pub timed_out: bool,
    /// Time from spawn to the end of the output drain.
    pub wall_time: Duration,
    /// The output, head/tail cut to the budget.
    pub output: RenderedOutput,
    /// The timeout that applied, in ms (for the timeout message).
    pub timeout_ms: u64,
}

impl ExecOutcome {
    /// The text of spec 05: `Exit code`, `Wall time` (seconds, one decimal), `Total output
    /// lines` (only when bytes were omitted), `Output:` and the output, prefixed by
    /// `command timed out after <ms> milliseconds` on timeout.
    pub fn to_text(&self) -> String {
        let mut s = format!("Exit code: {}\n", self.exit_code);
        s.push_str(&super::wall_time_line(self.wall_time));
        if self.output.omitted_bytes > 0 {
            s.push_str(&format!(
                "Total output lines: {}\n",
                self.output.total_lines
            ));
        }
        s.push_str("Output:\n");
        if self.timed_out {
            s.push_str(&format!(
                "command timed out after {}\n",
                crate::text::plural::count(self.timeout_ms, "millisecond")
            ));
        }
        s.push_str(&self.output.text);
        s
    }
}

/// Runs one command to completion (spec 05 "exec"): stdin closed, stdout and stderr on one
/// pipe into a head/tail buffer, the whole tree killed on timeout, the pipe drained up to 2 s
/// after the command exits, and anything of the tree still alive killed at the end, so a
/// one-shot call leaves no process behind.
///
/// SIGTERM, SIGINT, SIGHUP and SIGQUIT to this process while the command runs kill the tree the same
/// way, then end the call with [`ExecError::Interrupted`]; so does the request's [`Cancel`],
/// ending it with [`ExecError::Cancelled`].
///
/// Errors: [`ExecError`] when the request is invalid, the program cannot be started or a
/// termination signal came; a command that runs and fails is an `Ok` with its exit code.
pub fn run(req: &ExecRequest) -> Result<ExecOutcome, ExecError> {
    if req.argv.is_empty() || req.argv[0].is_empty() {
        return Err(ExecError::EmptyCommand);
    }
    if req.timeout_ms == 0 || req.timeout_ms > MAX_TIMEOUT_MS {
        return Err(ExecError::BadTimeout(req.timeout_ms));
    }
    if let Some(dir) = &req.workdir
        && req.workdir_handle.is_none()
        && !dir.is_dir()
    {
        return Err(ExecError::BadWorkdir(dir.display().to_string()));
    }
    let argv = with_prefix(&req.prefix, &req.argv);
    // Caught from before the spawn, so there is no moment when a signal would end agtool and
    // leave the new tree running.
    let watch = InterruptWatch::start(&req.cancel);
    if let Some(stop) = watch.received() {
        return Err(stopped(stop));
    }
    let start = Instant::now();
    // The guard ends the tree if agtool itself dies (issue 17, item 4); the child is the guard.
    let mut guard = OneShotGuard::new().map_err(|e| SpawnError {
        argv0: argv[0].clone(),
        reason: format!("cannot make the guard's pipe: {e}"),
    })?;
    let spawned = spawn(
        &argv,
        req.workdir.as_deref(),
        req.workdir_handle.as_deref().map(AsFd::as_fd),
        StdinMode::Closed,
        next_tag("x"),
        None,
        None,
        Some(&guard),
    );
    guard.spawned();
    let mut sp = spawned?;
    let _lease = TreeLease::new(&sp.tree.tag);
    widen_pipe(&sp.output);
    let mut buf = HeadTailBuffer::new(req.max_output_bytes);
    let mut chunk = vec![0u8; FIRST_READ_CHUNK];
    let deadline = start + Duration::from_millis(req.timeout_ms);
    let mut status: Option<ExitStatus> = None;
    // The command's code as its guard reported it (something it started lives on).
    let mut reported: Option<i32> = None;
    let mut eof = false;
    let mut timed_out = false;
    let mut drain_deadline = deadline;
    let mut killed = false;

    loop {
        if let Some(stop) = watch.received() {
            if !killed {
                kill_tree(&sp.tree, &mut || {
                    if status.is_none() {
                        status = try_reap(&mut sp.child);
                    }
                });
                if status.is_none() {
                    reap_blocking(&mut sp.child, DRAIN_AFTER_EXIT);
                }
            }
            return Err(stopped(stop));
        }
        let exited_before = status.is_some() || reported.is_some();
        if status.is_none() {
            status = try_reap(&mut sp.child);
        }
        if reported.is_none() {
            reported = guard.read_exit();
        }
        let exited = status.is_some() || reported.is_some();
        if exited && !exited_before {
            drain_deadline = Instant::now() + DRAIN_AFTER_EXIT;
        }
        if exited && eof {
            break;
        }
        let now = Instant::now();
        let limit = if !exited { deadline } else { drain_deadline };
        if now >= limit {
            if killed {
                break; // a holder we cannot kill keeps the pipe open: stop reading
            }
            timed_out = !exited;
            let child = &mut sp.child;
            kill_tree(&sp.tree, &mut || {
                if status.is_none() {
                    status = try_reap(child);
                }
            });
            killed = true;
            drain_deadline = Instant::now() + DRAIN_AFTER_KILL;
            if status.is_none() {
                status = reap_blocking(&mut sp.child, DRAIN_AFTER_EXIT);
            }
            continue;
        }
        let mut wake = watch.fds();
        wake.extend(guard.fd());
        let ready = wait_io(
            (!eof).then_some(&sp.output),
            sp.pidfd.as_ref(),
            status.is_none(),
            &wake,
            limit - now,
        );
        if ready.output {
            match read_chunk(&mut sp.output, &mut chunk) {
                Ok(0) | Err(_) => eof = true,
                Ok(n) => {
                    buf.push(&chunk[..n]);
                    if n == chunk.len() && chunk.len() < READ_CHUNK {
                        chunk.resize(READ_CHUNK, 0);
                    }
                }
            }
        }
    }
    if !killed && may_have_survivors(&sp.tree) {
        let child = &mut sp.child;
        kill_tree(&sp.tree, &mut || {
            if status.is_none() {
                status = try_reap(child);
            }
        });
        if status.is_none() {
            reap_blocking(&mut sp.child, DRAIN_AFTER_EXIT);
        }
    }
    if let Some(stop) = watch.received() {
        return Err(stopped(stop));
    }
    let wall_time = start.elapsed();
    let code = if timed_out {
        TIMEOUT_EXIT_CODE
    } else {
        reported.or(status.map(exit_code)).unwrap_or(-1)
    };
    Ok(ExecOutcome {
        exit_code: code,
        timed_out,
        wall_time,
        output: buf.render(),
        timeout_ms: req.timeout_ms,
    })
}

/// The error for a call stopped by `stop`.
fn stopped(stop: Stop) -> ExecError {
    match stop {
        Stop::Signal(sig) => ExecError::Interrupted(sig),
        Stop::Cancelled => ExecError::Cancelled,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::exec::tree::test_support::{assert_none_left, unique_sleep};

    fn sh(script: &str) -> ExecRequest {
        ExecRequest::new(vec!["sh".into(), "-c".into(), script.into()])
    }

    fn run_ok(req: &ExecRequest) -> ExecOutcome {
        run(req).expect("the command runs")
    }

    #[test]
    fn output_and_exit_code_in_the_spec_text() {
        let out = run_ok(&sh("echo hello; exit 3"));
        assert_eq!(out.exit_code, 3);
        let text = out.to_text();
        assert!(text.starts_with("Exit code: 3\nWall time: "), "{text}");
        assert!(text.ends_with(" seconds\nOutput:\nhello\n"), "{text}");
        assert!(!text.contains("Total output lines"));
    }

    #[test]
    fn stdout_and_stderr_share_one_pipe_in_order() {
        let out = run_ok(&sh("echo a; echo b >&2; echo c; echo d >&2"));
        assert_eq!(out.output.text, "a\nb\nc\nd\n");
    }

    #[test]
    fn stdin_is_closed() {
        let out = run_ok(&sh("read x; echo got:$x; cat; echo end"));
        assert_eq!(out.output.text, "got:\nend\n");
        assert!(out.wall_time < Duration::from_secs(3));
    }

    #[test]
    fn the_fixed_environment_is_set() {
        let out = run_ok(&sh(
            "echo $NO_COLOR $TERM $PAGER $GIT_PAGER $GH_PAGER $GIT_TERMINAL_PROMPT $EDITOR $VISUAL $GIT_EDITOR $LANG $LC_ALL [$COLORTERM]",
        ));
        assert_eq!(
            out.output.text,
            "1 dumb cat cat cat 0 true true true C.UTF-8 C.UTF-8 []\n"
        );
    }

    #[test]
    fn the_prefix_goes_in_front_of_the_command() {
        let mut req = sh("echo FOO=$FOO");
        req.prefix = vec!["env".into(), "FOO=1".into()];
        assert_eq!(run_ok(&req).output.text, "FOO=1\n");
    }

    #[test]
    fn workdir_is_used_and_checked() {
        let dir = tempfile::tempdir().unwrap();
        let mut req = ExecRequest::new(vec!["pwd".into()]);
        req.workdir = Some(dir.path().to_path_buf());
        let out = run_ok(&req);
        let shown = std::fs::canonicalize(out.output.text.trim()).unwrap();
        assert_eq!(shown, std::fs::canonicalize(dir.path()).unwrap());
        req.workdir = Some(dir.path().join("missing"));
        assert!(matches!(run(&req), Err(ExecError::BadWorkdir(_))));
    }

    #[test]
    fn bad_requests_are_refused() {
        assert_eq!(
            run(&ExecRequest::new(vec![])).unwrap_err(),
            ExecError::EmptyCommand
        );
        let mut req = sh("true");
        req.timeout_ms = 0;
        assert_eq!(run(&req).unwrap_err(), ExecError::BadTimeout(0));
        req.timeout_ms = MAX_TIMEOUT_MS + 1;
        let err = run(&req).unwrap_err().to_string();
        assert_eq!(err, "timeout_ms must be between 1 and 600000, got 600001");
    }

    #[test]
    fn a_missing_program_is_an_error_naming_it() {
        let err = run(&ExecRequest::new(vec!["agtool-no-such-program".into()])).unwrap_err();
        let msg = err.to_string();
        assert!(
            msg.starts_with("cannot run agtool-no-such-program: "),
            "{msg}"
        );
    }

    #[test]
    fn a_shell_line_as_the_program_name_gets_a_hint() {
        let err = run(&ExecRequest::new(vec!["ls -la".into()])).unwrap_err();
        let msg = err.to_string();
        assert!(msg.starts_with("cannot run ls -la: "), "{msg}");
        assert!(msg.contains("not a shell line"), "{msg}");
        assert!(msg.contains("[\"sh\", \"-c\", LINE]"), "{msg}");
        // A plain missing name keeps the short reason.
        let err = run(&ExecRequest::new(vec!["agtool-no-such-program".into()])).unwrap_err();
        assert!(err.to_string().ends_with("not found on PATH"), "{err}");
    }

    #[test]
    fn a_file_that_is_not_executable_is_an_error() {
        let dir = tempfile::tempdir().unwrap();
        let f = dir.path().join("script.sh");
        std::fs::write(&f, "#!/bin/sh\necho hi\n").unwrap();
        let err = run(&ExecRequest::new(vec![f.display().to_string()])).unwrap_err();
        assert!(err.to_string().contains("permission denied"), "{err}");
    }

    #[test]
    fn timeout_kills_and_reports_124() {
        let marker = unique_sleep();
        let mut req = sh(&format!("echo start; sleep {marker}"));
        req.timeout_ms = 300;
        let out = run_ok(&req);
        assert_eq!(out.exit_code, 124);
        assert!(out.timed_out);
        let text = out.to_text();
        assert!(
            text.contains("Output:\ncommand timed out after 300 milliseconds\nstart\n"),
            "{text}"
        );
        assert!(
            out.wall_time < Duration::from_secs(10),
            "{:?}",
            out.wall_time
        );
        assert_none_left(&marker);
    }

    #[test]
    fn a_signal_gives_128_plus_its_number() {
        assert_eq!(run_ok(&sh("kill -9 $$")).exit_code, 137);
        assert_eq!(run_ok(&sh("kill -TERM $$")).exit_code, 143);
    }

    #[test]
    fn a_grandchild_that_setsids_away_is_killed_on_timeout() {
        let marker = unique_sleep();
        let mut req = sh(&format!("setsid sleep {marker} & wait"));
        req.timeout_ms = 400;
        let out = run_ok(&req);
        assert_eq!(out.exit_code, 124);
        assert_none_left(&marker);
    }

    #[test]
    fn a_child_ignoring_sigterm_is_killed() {
        let marker = unique_sleep();
        let mut req = sh(&format!("trap '' TERM; sleep {marker}; echo survived"));
        req.timeout_ms = 300;
        let out = run_ok(&req);
        assert_eq!(out.exit_code, 124);
        assert!(!out.output.text.contains("survived"));
        assert!(
            out.wall_time < Duration::from_secs(10),
            "{:?}",
            out.wall_time
        );
        assert_none_left(&marker);
    }

    #[test]
    fn background_job_with_wait_leaves_nothing_behind() {
        let marker = unique_sleep();
        let mut req = sh(&format!("sleep {marker} & wait"));
        req.timeout_ms = 300;
        assert_eq!(run_ok(&req).exit_code, 124);
        assert_none_left(&marker);
    }

    #[test]
    fn a_grandchild_holding_the_pipe_is_killed_after_the_drain() {
        let marker = unique_sleep();
        let out = run_ok(&sh(&format!("sleep {marker} & echo hi")));
        assert_eq!(out.exit_code, 0);
        assert_eq!(out.output.text, "hi\n");
        assert!(out.wall_time >= DRAIN_AFTER_EXIT, "{:?}", out.wall_time);
        // Killed right after the drain, not left to run (a generous bound against hangs).
        assert!(out.wall_time < DRAIN_AFTER_EXIT + Duration::from_secs(10));
        assert_none_left(&marker);
    }

    #[test]
    fn a_detached_daemon_is_not_left_behind() {
        let marker = unique_sleep();
        let out = run_ok(&sh(&format!(
            "(setsid sleep {marker} >/dev/null 2>&1 &); echo started"
        )));
        assert_eq!(out.output.text, "started\n");
        // No 2 s drain: the daemon does not hold the pipe.
        assert!(out.wall_time < DRAIN_AFTER_EXIT, "{:?}", out.wall_time);
        assert_none_left(&marker);
    }

    #[test]
    fn a_cancel_kills_the_tree_and_ends_the_call() {
        let marker = unique_sleep();
        let mut req = sh(&format!("sleep {marker} & sleep {marker}; echo done"));
        req.cancel = Cancel::new();
        let cancel = req.cancel.clone();
        let start = Instant::now();
        let firing = std::thread::spawn(move || {
            std::thread::sleep(Duration::from_millis(300));
            cancel.fire();
        });
        assert_eq!(run(&req).unwrap_err(), ExecError::Cancelled);
        firing.join().unwrap();
        assert!(
            start.elapsed() < Duration::from_secs(5),
            "{:?}",
            start.elapsed()
        );
        assert_none_left(&marker);
        // Fired before the start: nothing is spawned.
        let marker = unique_sleep();
        let mut req = sh(&format!("sleep {marker}"));
        req.cancel = Cancel::new();
        req.cancel.fire();
        assert_eq!(run(&req).unwrap_err(), ExecError::Cancelled);
        assert_none_left(&marker);
    }

    #[test]
    fn invalid_utf8_is_replaced() {
        let out = run_ok(&sh(r"printf 'a\377\376b\n'"));
        assert_eq!(out.output.text, "a\u{FFFD}\u{FFFD}b\n");
    }

    #[test]
    fn fifty_megabytes_show_head_and_tail() {
        let mut req = sh("echo FIRST; head -c 50000000 /dev/zero | tr '\\0' x; echo; echo LAST");
        req.max_output_bytes = 1000;
        let out = run_ok(&req);
        let text = out.to_text();
        assert!(
            text.contains("Total output lines: 3\nOutput:\nFIRST\nxxx"),
            "{text:.200}"
        );
        assert!(text.ends_with("xxx\nLAST\n"));
        assert_eq!(out.output.total_bytes, 6 + 50_000_000 + 1 + 5);
        assert_eq!(out.output.omitted_bytes, out.output.total_bytes - 1000);
        assert!(text.contains(&format!(
            "[... {} omitted ...]\n",
            crate::text::plural::count(out.output.omitted_bytes, "byte")
        )));
    }
}
