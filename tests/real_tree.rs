//! The read tools on real input: this repository's own tree, and a generated tree of more
//! than 5,000 files with ignore rules, hidden files, symlinks and a binary file. The checks
//! are properties computed independently of agtool (walks, counts, times).

mod common;
use common::*;

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

fn manifest_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// `agtool ARGS` run in this repository with freshness off (nothing is written here).
fn in_repo(args: &[&str]) -> Run {
    let home = tempfile::tempdir().unwrap();
    let mut c = std::process::Command::new(bin());
    clean_env(&mut c, home.path());
    c.current_dir(manifest_dir())
        .arg("--no-freshness")
        .args(args);
    Run::from(c.output().unwrap())
}

/// Every `*.rs` file of the repository a git-aware walk would see: not under `target/` (the
/// repository's .gitignore), not hidden, not under `.git`.
fn repo_rust_files(dir: &Path, rel: &str, out: &mut BTreeSet<String>) {
    for e in std::fs::read_dir(dir).unwrap() {
        let e = e.unwrap();
        let name = e.file_name().to_string_lossy().into_owned();
        let path = if rel.is_empty() {
            name.clone()
        } else {
            format!("{rel}/{name}")
        };
        if name.starts_with('.') || path == "target" || path == ".agent-state" {
            continue;
        }
        let ft = e.file_type().unwrap();
        if ft.is_dir() {
            repo_rust_files(&e.path(), &path, out);
        } else if name.ends_with(".rs") {
            out.insert(path);
        }
    }
}

#[test]
fn glob_over_this_repository_finds_every_source_file_and_nothing_ignored() {
    let mut want = BTreeSet::new();
    repo_rust_files(&manifest_dir(), "", &mut want);
    assert!(want.contains("src/tools/grep.rs") && want.contains("tests/real_tree.rs"));
    let out = in_repo(&["glob", "**/*.rs", "--limit", "2000"]);
    let got: BTreeSet<String> = out.ok().lines().map(str::to_owned).collect();
    assert_eq!(got, want);
    // Newest first: the times of the listed files never increase.
    let times: Vec<_> = out
        .lines()
        .iter()
        .map(|p| {
            std::fs::metadata(manifest_dir().join(p))
                .unwrap()
                .modified()
                .unwrap()
        })
        .collect();
    assert!(times.windows(2).all(|w| w[0] >= w[1]), "not newest first");
}

#[test]
fn grep_over_this_repository_agrees_with_a_plain_scan() {
    let file = manifest_dir().join("src/tools/mod.rs");
    let text = std::fs::read_to_string(&file).unwrap();
    let line = text
        .lines()
        .position(|l| l.contains("pub fn registry()"))
        .unwrap()
        + 1;
    let out = in_repo(&["grep", r"pub fn registry\(\)", "src", "--output", "content"]);
    assert_eq!(
        out.ok(),
        format!("src/tools/mod.rs:{line}:pub fn registry() -> Vec<ToolSpec> {{\n")
    );
    // Count mode equals counting lines by hand.
    let grep_rs = std::fs::read_to_string(manifest_dir().join("src/tools/grep.rs")).unwrap();
    let fns = grep_rs.lines().filter(|l| l.contains("fn ")).count();
    let out = in_repo(&["grep", "fn ", "src/tools/grep.rs", "--output", "count"]);
    assert_eq!(out.ok(), format!("src/tools/grep.rs:{fns}\n"));
    // Files mode lists nothing from target/ although it holds copies of these strings.
    let out = in_repo(&["grep", "fn describe_walk_error", "--limit", "2000"]);
    assert!(
        out.ok().lines().all(|l| !l.starts_with("target/")),
        "{}",
        out.out
    );
    assert!(out.out.contains("src/search/walk.rs\n"), "{}", out.out);
}

#[test]
fn read_and_list_this_repository() {
    let bytes = std::fs::read(manifest_dir().join("Cargo.toml")).unwrap();
    let out = in_repo(&["read-file", "Cargo.toml", "--limit", "1"]);
    assert_eq!(out.lines()[0], format!("[Cargo.toml#{}]", tag(&bytes)));
    assert_eq!(out.lines()[1], "L1: [package]");
    let out = in_repo(&["list-dir", "src", "--depth", "1"]);
    let entries = &out.lines()[1..];
    for name in [
        "cli.rs",
        "lib.rs",
        "main.rs",
        "tools/",
        "text/",
        "workspace/",
    ] {
        assert!(entries.contains(&name), "{name} missing from {entries:?}");
    }
}

/// Files in the generated tree: 50 folders of 100 text files, every 7th holding "needle".
const DIRS: usize = 50;
const PER_DIR: usize = 100;

fn generated() -> Ws {
    let ws = Ws::new();
    ws.write(".gitignore", "*.log\nbuild/\n");
    for d in 0..DIRS {
        for f in 0..PER_DIR {
            let i = d * PER_DIR + f;
            let body = if i.is_multiple_of(7) {
                format!("line {i}\nthe needle {i}\n")
            } else {
                format!("line {i}\nhay\n")
            };
            ws.write(&format!("src/m{d:02}/f{f:03}.txt"), body);
        }
    }
    for i in 0..200 {
        ws.write(&format!("build/out{i}.txt"), "needle\n");
    }
    for i in 0..100 {
        ws.write(&format!("src/m00/x{i}.log"), "needle\n");
    }
    for i in 0..50 {
        ws.write(&format!(".hidden/h{i}.txt"), "needle\n");
    }
    ws.write("src/.secret.txt", "needle\n");
    for d in 0..10 {
        ws.symlink(format!("../src/m{d:02}"), &format!("links/l{d}"));
    }
    ws.symlink("../src/m00/f000.txt", "links/f.txt");
    let mut bin = b"needle\n".to_vec();
    bin.extend([0u8, 1, 2, 3]);
    ws.write("bin/data.bin", bin);
    ws
}

/// One generated tree (5,000+ files is slow to lay down) checked from several sides.
#[test]
fn generated_tree() {
    let ws = generated();
    generated_tree_glob_counts(&ws);
    generated_tree_grep_counts(&ws);
    generated_tree_listing_marks_symlinks(&ws);
    a_timeout_stops_a_long_search(&ws);
}

fn json_of(run: &Run) -> serde_json::Value {
    serde_json::from_str(run.ok()).unwrap()
}

fn generated_tree_glob_counts(ws: &Ws) {
    let visible = DIRS * PER_DIR + 1; // + the links/f.txt symlink, listed but not followed
    let out = ws.run(&["--json", "glob", "**/*.txt", "--limit", "2000"]);
    let v = json_of(&out);
    assert_eq!(v["matches"], visible);
    assert_eq!(v["shown"], 2000);
    let text = v["output"].as_str().unwrap();
    assert!(text.ends_with(&format!(
        "({} more not shown; narrow the pattern or raise limit)\n",
        visible - 2000
    )));
    assert!(
        text.lines()
            .all(|l| !l.starts_with("build/") && !l.starts_with(".hidden/"))
    );
    assert!(
        text.lines().all(|l| !l.starts_with("links/l")),
        "symlinked folders are not followed"
    );
    let hidden = json_of(&ws.run(&["--json", "glob", "**/*.txt", "--hidden", "true"]));
    assert_eq!(hidden["matches"], visible + 50 + 1);
    let ignored = json_of(&ws.run(&["--json", "glob", "**/*", "--ignored", "true"]));
    // Every non-hidden entry but folders: the .txt files, 200 build outputs, 100 logs, the
    // binary, and the 10 folder symlinks (listed as entries, not followed).
    assert_eq!(ignored["matches"], visible + 200 + 100 + 1 + 10);
    let logs = json_of(&ws.run(&["--json", "glob", "*.log"]));
    assert_eq!(logs["matches"], 0);
}

fn generated_tree_grep_counts(ws: &Ws) {
    let needles = (0..DIRS * PER_DIR).filter(|i| i.is_multiple_of(7)).count();
    let v = json_of(&ws.run(&["--json", "grep", "needle", "--limit", "2000"]));
    assert_eq!(
        v["files"], needles,
        "binary, hidden, ignored and symlinked files are skipped"
    );
    let v = json_of(&ws.run(&[
        "--json", "grep", "needle", "--hidden", "true", "--output", "count",
    ]));
    assert_eq!(v["files"], needles + 50 + 1);
    assert_eq!(v["matches"], needles + 50 + 1);
    let v = json_of(&ws.run(&["--json", "grep", "needle", "--ignored", "true"]));
    assert_eq!(v["files"], needles + 200 + 100);
    // Content mode: the limit counts matching lines; the rest is counted.
    let out = ws.run(&["grep", "needle", "--output", "content", "--limit", "5"]);
    let lines = out.lines();
    assert_eq!(lines.len(), 6);
    assert_eq!(
        lines[5],
        format!("({} more matching lines not shown)", needles - 5)
    );
    for l in &lines[..5] {
        let (path, rest) = l.split_once(":2:the needle ").expect(l);
        let n: usize = rest.parse().unwrap();
        assert_eq!(
            path,
            format!("src/m{:02}/f{:03}.txt", n / PER_DIR, n % PER_DIR)
        );
    }
}

fn generated_tree_listing_marks_symlinks(ws: &Ws) {
    let out = ws.run(&["list-dir", "links"]);
    let entries = &out.lines()[1..];
    assert_eq!(entries.len(), 11);
    assert!(entries.iter().all(|e| e.ends_with('@')), "{entries:?}");
    let out = ws.run(&["list-dir", "--depth", "1", "--limit", "100"]);
    assert_eq!(
        &out.lines()[1..],
        [".gitignore", ".hidden/", "bin/", "links/", "src/"],
        "build/ is ignored"
    );
}

fn a_timeout_stops_a_long_search(ws: &Ws) {
    let out = ws.run(&["--timeout-ms", "1", "grep", "needle"]);
    out.code(124);
    assert_eq!(out.out, "Error: grep timed out after 1 ms\n");
}
