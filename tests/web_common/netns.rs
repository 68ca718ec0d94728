//! Re-running a test inside a fresh network namespace, so that a test naming a non-loopback
//! address can never send a packet off the machine.

use std::io::Write;
use std::process::Command;

/// Prints `SKIP <why>` on stderr past libtest's output capture (which would show it only
/// for a failing test), so a test that could not run is seen in every run.
pub fn skip(why: &str) {
    let _ = std::io::stderr().write_all(format!("SKIP {why}\n").as_bytes());
}

/// Whether this process is the copy of a test re-run inside a network namespace.
pub fn in_netns() -> bool {
    std::env::var_os("AGTOOL_TEST_IN_NETNS").is_some()
}

/// Addresses brought up on `lo` inside the namespace, for servers that must see no
/// connection.
pub const NETNS_ADDRS: [&str; 2] = ["169.254.169.254", "10.1.2.3"];

/// Runs the test `name` of this test binary again inside a fresh network namespace (`unshare
/// -n`, `lo` up, [`NETNS_ADDRS`] added to `lo`), so that whatever the code does, no packet
/// can leave the machine, and asserts that it passed there. Returns true when the caller is
/// already that copy and must run the test's body; false otherwise (the body ran in the
/// namespace, or the namespace cannot be made here, which prints a SKIP line).
pub fn run_in_netns(name: &str) -> bool {
    if in_netns() {
        return true;
    }
    let path = "/usr/sbin:/sbin:/usr/bin:/bin";
    let path = match std::env::var("PATH") {
        Ok(p) => format!("{p}:{path}"),
        Err(_) => path.to_owned(),
    };
    let mut setup = String::from("ip link set lo up");
    for a in NETNS_ADDRS {
        setup.push_str(&format!(" && ip addr add {a}/32 dev lo"));
    }
    let probe = Command::new("unshare")
        .args(["-n", "sh", "-c", &setup])
        .env("PATH", &path)
        .output();
    match probe {
        Err(e) => {
            skip(&format!(
                "{name}: cannot run unshare to make a network namespace ({e})"
            ));
            return false;
        }
        Ok(o) if !o.status.success() => {
            skip(&format!(
                "{name}: cannot make a network namespace with lo up (needs root, unshare \
                 and ip): {}",
                String::from_utf8_lossy(&o.stderr).trim()
            ));
            return false;
        }
        Ok(_) => {}
    }
    let exe = std::env::current_exe().unwrap();
    let script = format!("{setup} && exec \"$0\" \"$@\"");
    let out = Command::new("unshare")
        .args(["-n", "sh", "-c", &script])
        .arg(&exe)
        .args(["--exact", name, "--nocapture", "--test-threads=1"])
        .env("PATH", &path)
        .env("AGTOOL_TEST_IN_NETNS", "1")
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success() && stdout.contains("1 passed"),
        "{name} failed inside the network namespace:\n{stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    false
}
