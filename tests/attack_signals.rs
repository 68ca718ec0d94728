//! Termination signals to agtool during a one-shot exec, seen from the programs around it: a
//! shell script running agtool, a terminal's Ctrl-C (SIGINT to the whole foreground process
//! group). See src/exec/interrupt.rs.

mod common;

use std::io::Read;
use std::os::unix::process::CommandExt;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use common::{Workspace, assert_none_with, processes_with, unique_sleep};

/// What the signal is sent to.
enum Target {
    /// The job's whole process group, as a terminal sends Ctrl-C.
    Group,
    /// agtool alone.
    Agtool,
}

/// Runs `script` with bash as the leader of a new process group (a terminal's foreground job),
/// waits until the `sleep <marker>` it runs through agtool has started, sends `signal` to
/// `target` and returns bash's wait status and stdout.
fn signal_the_job(
    ws: &Workspace,
    script: &str,
    marker: &str,
    signal: &str,
    target: Target,
) -> (std::process::ExitStatus, String) {
    let mut job = Command::new("bash")
        .arg("-c")
        .arg(script)
        .current_dir(ws.path())
        .env_remove("AGTOOL_ROOT")
        .env_remove("AGTOOL_CONFIG")
        .env_remove("AGTOOL_EXEC_TAG")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .process_group(0)
        .spawn()
        .unwrap();
    let agtool = assert_cmd::cargo::cargo_bin("agtool").display().to_string();
    let started = Instant::now();
    let agtool_pid = loop {
        let found = processes_with(marker);
        let sleeping = found.iter().any(|(_, cmd)| cmd.starts_with("sleep "));
        if let Some((pid, _)) = found.iter().find(|(_, cmd)| cmd.starts_with(&agtool))
            && sleeping
        {
            break *pid;
        }
        assert!(
            started.elapsed() < Duration::from_secs(20),
            "the command did not start"
        );
        std::thread::sleep(Duration::from_millis(10));
    };
    let to = match target {
        Target::Group => format!("-{}", job.id()),
        Target::Agtool => agtool_pid.to_string(),
    };
    let sent = Command::new("kill")
        .args([format!("-{signal}"), "--".into(), to])
        .status()
        .unwrap();
    assert!(sent.success());
    let ended = Instant::now();
    let status = loop {
        if let Some(status) = job.try_wait().unwrap() {
            break status;
        }
        if ended.elapsed() > Duration::from_secs(30) {
            let _ = job.kill();
            panic!("the script did not end");
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    let mut stdout = String::new();
    job.stdout
        .take()
        .unwrap()
        .read_to_string(&mut stdout)
        .unwrap();
    (status, stdout)
}

/// Ctrl-C stops a shell script that is running `agtool exec`, as it stops one running any
/// other program. bash waits for its foreground child after SIGINT and goes on with the script
/// when the child did *not* die of SIGINT ("wait and cooperative exit"): a child that exits
/// with status 130 is taken to have handled the key itself (as an editor would). So agtool,
/// once it has killed the command's tree, must end by SIGINT, not by exit(130).
#[test]
fn ctrl_c_stops_a_script_running_agtool_exec() {
    let ws = Workspace::new();
    let marker = unique_sleep();
    let agtool = assert_cmd::cargo::cargo_bin("agtool");
    let script = format!(
        "'{}' exec --timeout-ms 60000 -- sleep {marker} >/dev/null; echo \"went on: $?\"",
        agtool.display()
    );
    let (status, stdout) = signal_the_job(&ws, &script, &marker, "INT", Target::Group);
    assert_eq!(stdout, "", "the script went on after Ctrl-C");
    use std::os::unix::process::ExitStatusExt;
    assert_eq!(status.signal(), Some(2), "{status:?}");
    assert_none_with(&marker);
}

/// A shell still sees 128 + SIGINT (`$?` = 130) and agtool still says why, in one line.
#[test]
fn after_sigint_the_shell_sees_130_and_one_line() {
    let ws = Workspace::new();
    let marker = unique_sleep();
    let agtool = assert_cmd::cargo::cargo_bin("agtool");
    let script = format!(
        "'{}' exec --timeout-ms 60000 -- sleep {marker}; echo \"status $?\"",
        agtool.display()
    );
    let (status, stdout) = signal_the_job(&ws, &script, &marker, "INT", Target::Agtool);
    assert!(status.success(), "{status:?}");
    assert_eq!(
        stdout,
        "Error: interrupted by SIGINT; the command and everything it started were killed\nstatus 130\n"
    );
    assert_none_with(&marker);
}

/// SIGQUIT (Ctrl-\ in a terminal, the harder Ctrl-C) also ends agtool: the command's tree
/// must not be left running, and the shell sees 128 + SIGQUIT with the one line.
#[test]
fn sigquit_kills_the_tree_too() {
    let ws = Workspace::new();
    let marker = unique_sleep();
    let agtool = assert_cmd::cargo::cargo_bin("agtool");
    let script = format!(
        "'{}' exec --timeout-ms 60000 -- sh -c 'sleep {marker} & sleep {marker}' 2>/dev/null; echo \"status $?\"",
        agtool.display()
    );
    let (status, stdout) = signal_the_job(&ws, &script, &marker, "QUIT", Target::Agtool);
    assert!(status.success(), "{status:?}");
    assert_eq!(
        stdout,
        "Error: interrupted by SIGQUIT; the command and everything it started were killed\nstatus 131\n"
    );
    assert_none_with(&marker);
}
