//! Helpers shared by the apply-patch integration tests: the binary in a temp workspace with a
//! clean environment, reads, patch framing, and locking a folder against writes.

#![allow(dead_code)]

use std::os::unix::fs::PermissionsExt;
use std::path::Path;

use assert_cmd::Command;

pub fn agtool(root: &Path) -> Command {
    let mut c = Command::cargo_bin("agtool").unwrap();
    c.current_dir(root)
        .env("AGTOOL_ROOT", root)
        .env_remove("AGTOOL_AGENT")
        .env_remove("AGTOOL_GROUPS")
        .env_remove("AGTOOL_CONFIG")
        .env_remove("AGTOOL_FRESHNESS")
        .env_remove("AGTOOL_SYNTAX_CHECK")
        .env("XDG_CONFIG_HOME", root.join(".no-user-config"));
    c
}

pub fn workspace(files: &[(&str, &str)]) -> (tempfile::TempDir, std::path::PathBuf) {
    let t = tempfile::tempdir().unwrap();
    let root = t.path().canonicalize().unwrap();
    for (path, text) in files {
        let full = root.join(path);
        std::fs::create_dir_all(full.parent().unwrap()).unwrap();
        std::fs::write(full, text).unwrap();
    }
    (t, root)
}

pub fn read(root: &Path, path: &str) {
    agtool(root).args(["read-file", path]).assert().success();
}

pub fn patch(body: &str) -> String {
    format!("*** Begin Patch\n{body}*** End Patch\n")
}

/// Makes `dir` refuse new entries: read-only for a normal user; immutable for root (who
/// ignores permission bits). Returns false when neither works here.
pub fn lock_dir(dir: &Path) -> bool {
    std::fs::set_permissions(dir, std::fs::Permissions::from_mode(0o555)).unwrap();
    if std::fs::write(dir.join(".probe"), "x").is_err() {
        return true;
    }
    std::fs::remove_file(dir.join(".probe")).unwrap();
    let ok = std::process::Command::new("chattr")
        .arg("+i")
        .arg(dir)
        .status();
    ok.is_ok_and(|s| s.success()) && std::fs::write(dir.join(".probe"), "x").is_err()
}

pub fn unlock_dir(dir: &Path) {
    let _ = std::process::Command::new("chattr")
        .arg("-i")
        .arg(dir)
        .status();
    std::fs::set_permissions(dir, std::fs::Permissions::from_mode(0o755)).unwrap();
}
