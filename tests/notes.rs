//! `notes list|read|write|delete` on the real binary (spec 06, "notes"; issue 13): strict
//! names, the store folder under the path policy, symlinked notes refused, the 64 KiB cap,
//! appends that lose nothing across processes, atomic writes under SIGKILL, the 200-note
//! listing rule. Every refusal is checked against before/after snapshots of the workspace and
//! of a folder outside it.

mod common;

use std::collections::BTreeMap;
use std::io::Write;
use std::os::unix::fs::PermissionsExt;
use std::path::Path;
use std::process::Stdio;

use common::{Run, Ws};
use serde_json::json;

/// Everything under `dir` (state folder included): relative path → kind, mode and bytes
/// (a symlink: its target).
fn tree(dir: &Path) -> BTreeMap<String, String> {
    fn walk(base: &Path, dir: &Path, out: &mut BTreeMap<String, String>) {
        let Ok(rd) = std::fs::read_dir(dir) else {
            return;
        };
        for e in rd.flatten() {
            let p = e.path();
            let rel = p.strip_prefix(base).unwrap().display().to_string();
            let meta = std::fs::symlink_metadata(&p).unwrap();
            let mode = meta.permissions().mode() & 0o7777;
            if meta.file_type().is_symlink() {
                let t = std::fs::read_link(&p).unwrap();
                out.insert(rel, format!("link -> {}", t.display()));
            } else if meta.is_dir() {
                out.insert(rel, format!("dir {mode:o}"));
                walk(base, &p, out);
            } else {
                let bytes = std::fs::read(&p).unwrap();
                out.insert(
                    rel,
                    format!("file {mode:o} {}", String::from_utf8_lossy(&bytes)),
                );
            }
        }
    }
    let mut out = BTreeMap::new();
    walk(dir, dir, &mut out);
    out
}

/// A workspace (with `.git`) and a folder `outside` beside it holding a secret.
fn setup() -> Ws {
    let ws = Ws::new();
    ws.mkdir(".git");
    std::fs::create_dir_all(ws.base.join("outside")).unwrap();
    std::fs::write(ws.base.join("outside/secret.txt"), "secret\n").unwrap();
    std::fs::write(ws.base.join("outside/x.md"), "outside note\n").unwrap();
    ws
}

fn both(ws: &Ws) -> (BTreeMap<String, String>, BTreeMap<String, String>) {
    (tree(&ws.root), tree(&ws.base.join("outside")))
}

fn run_in(ws: &Ws, args: &[&str], stdin: Option<&str>) -> Run {
    let mut c = ws.cmd();
    c.args(args);
    if let Some(s) = stdin {
        c.write_stdin(s.to_owned());
    }
    Run::from(c.output().unwrap())
}

/// Asserts that `run` refused with `code` and a message containing `says` (stdout for exit
/// 1, stderr for exit 2), and that nothing changed in the workspace or outside it.
#[track_caller]
fn refused_unchanged(ws: &Ws, args: &[&str], stdin: Option<&str>, code: i32, says: &str) {
    let before = both(ws);
    let r = run_in(ws, args, stdin);
    assert_eq!(r.code, code, "{args:?}\n{r:?}");
    let msg = if code == 2 { &r.err } else { &r.out };
    assert!(msg.starts_with("Error: "), "{args:?}: {r:?}");
    assert!(msg.contains(says), "{args:?}: expected {says:?} in {msg:?}");
    assert!(!msg.contains("panicked"), "{r:?}");
    assert_eq!(both(ws), before, "{args:?} changed files");
}

fn note_path(ws: &Ws, name: &str) -> std::path::PathBuf {
    ws.path(&format!(".agent-state/notes/{name}.md"))
}

#[test]
fn write_read_list_delete() {
    let ws = setup();
    assert_eq!(ws.run(&["notes", "list"]).ok(), "No notes yet.\n");
    assert!(!ws.path(".agent-state").exists(), "list created the store");
    let r = ws.run(&[
        "notes",
        "write",
        "build.md",
        "--content",
        "cargo test needs --locked",
    ]);
    assert_eq!(r.ok(), "Saved note build (26 bytes)\n");
    assert_eq!(
        std::fs::read(note_path(&ws, "build")).unwrap(),
        b"cargo test needs --locked\n"
    );
    assert_eq!(
        std::fs::read(ws.path(".agent-state/.gitignore")).unwrap(),
        b"*\n"
    );
    assert_eq!(
        ws.run(&["notes", "read", "build"]).ok(),
        "cargo test needs --locked\n"
    );
    // Body from stdin, as every tool with a body.
    let r = run_in(
        &ws,
        &["notes", "write", "layout"],
        Some("# Layout\nsrc/ is the crate\n"),
    );
    assert_eq!(r.ok(), "Saved note layout (27 bytes)\n");
    let lines = ws.run(&["notes", "list"]).ok().to_owned();
    let re = regex::Regex::new(
        r"^(layout  27 bytes  \d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ  # Layout\nbuild  26 bytes  \S+  cargo test needs --locked\n|build  26 bytes  \S+  cargo test needs --locked\nlayout  27 bytes  \S+  # Layout\n)$",
    )
    .unwrap();
    assert!(re.is_match(&lines), "{lines}");
    // Query: names and contents, any case.
    assert_eq!(
        ws.run(&["notes", "list", "--query", "CRATE"]).lines().len(),
        1
    );
    assert!(
        ws.run(&["notes", "list", "--query", "buil"])
            .ok()
            .starts_with("build  ")
    );
    assert_eq!(
        ws.run(&["notes", "list", "--query", "nothing-like-it"])
            .ok(),
        "No notes match \"nothing-like-it\" (2 notes in all).\n"
    );
    // Overwrite, then delete.
    ws.run(&["notes", "write", "build", "--content", "new\n"])
        .ok();
    assert_eq!(std::fs::read(note_path(&ws, "build")).unwrap(), b"new\n");
    assert_eq!(
        ws.run(&["notes", "delete", "build"]).ok(),
        "Deleted note build (4 bytes)\n"
    );
    assert!(!note_path(&ws, "build").exists());
    // The same through call and JSON.
    let r = ws.call("notes_write", &json!({"name": "j", "content": "via json"}));
    assert_eq!(r.ok(), "Saved note j (9 bytes)\n");
    let r = ws.call("notes_read", &json!({"name": "j"}));
    assert_eq!(r.ok(), "via json\n");
}

#[test]
fn append_adds_a_line_and_a_final_newline() {
    let ws = setup();
    ws.mkdir(".agent-state/notes");
    std::fs::write(note_path(&ws, "log"), "first line without newline").unwrap();
    let r = ws.run(&["notes", "write", "log", "--append", "--content", "second"]);
    assert_eq!(r.ok(), "Appended to note log (34 bytes now)\n");
    assert_eq!(
        std::fs::read(note_path(&ws, "log")).unwrap(),
        b"first line without newline\nsecond\n"
    );
    ws.run(&[
        "notes",
        "write",
        "log",
        "--append",
        "true",
        "--content",
        "third\n",
    ])
    .ok();
    assert_eq!(
        std::fs::read(note_path(&ws, "log")).unwrap(),
        b"first line without newline\nsecond\nthird\n"
    );
}

#[test]
fn bad_names_are_argument_errors_and_change_nothing() {
    let ws = setup();
    ws.run(&["notes", "write", "keep", "--content", "kept"])
        .ok();
    let long = "a".repeat(65);
    let outside_x = ws.base.join("outside/x").display().to_string();
    for name in [
        "../escape",
        "a/b",
        "/tmp/x",
        outside_x.as_str(),
        "..",
        ".hidden",
        "with space",
        "%2e%2e%2fx",
        "a\\b",
        long.as_str(),
        "",
        "../outside/x",
    ] {
        for verb in [
            vec!["notes", "write", name, "--content", "x"],
            vec!["notes", "write", name, "--append", "--content", "x"],
            vec!["notes", "read", name],
            vec!["notes", "delete", name],
        ] {
            refused_unchanged(&ws, &verb, None, 2, "1-64 characters of A-Z a-z 0-9 . _ -");
        }
    }
    refused_unchanged(&ws, &["notes", "read", &long], None, 2, "65 characters");
    // A NUL byte can only come through JSON.
    for (tool, args) in [
        ("notes_write", json!({"name": "a\u{0}b", "content": "x"})),
        ("notes_read", json!({"name": "a\u{0}b"})),
        ("notes_delete", json!({"name": "a\u{0}b"})),
    ] {
        let before = both(&ws);
        let r = ws.call(tool, &args);
        assert_eq!(r.code, 2, "{r:?}");
        assert!(r.err.contains("NUL"), "{r:?}");
        assert_eq!(both(&ws), before);
    }
    assert!(!Path::new("/tmp/x.md").exists() || std::fs::read("/tmp/x.md").is_ok());
    assert!(!ws.base.join("escape.md").exists());
    assert!(!ws.path(".agent-state/escape.md").exists());
}

#[test]
fn unknown_notes_are_refused_with_the_closest_names() {
    let ws = setup();
    for verb in [
        vec!["notes", "read", "build"],
        vec!["notes", "delete", "build"],
    ] {
        refused_unchanged(&ws, &verb, None, 1, "no note named build");
    }
    ws.run(&["notes", "write", "build-steps", "--content", "a"])
        .ok();
    ws.run(&["notes", "write", "deploy", "--content", "b"]).ok();
    refused_unchanged(
        &ws,
        &["notes", "read", "biuld-steps"],
        None,
        1,
        "no note named biuld-steps; closest: build-steps",
    );
    refused_unchanged(
        &ws,
        &["notes", "delete", "build"],
        None,
        1,
        "closest: build-steps",
    );
}

#[test]
fn symlinked_and_special_notes_are_refused_never_followed() {
    let ws = setup();
    ws.mkdir(".agent-state/notes");
    let secret = ws.base.join("outside/secret.txt");
    std::os::unix::fs::symlink(&secret, note_path(&ws, "evil")).unwrap();
    std::os::unix::fs::symlink("real.md", note_path(&ws, "inner")).unwrap();
    std::fs::write(note_path(&ws, "real"), "real\n").unwrap();
    std::fs::create_dir(note_path(&ws, "folder")).unwrap();
    for name in ["evil", "inner"] {
        for verb in [
            vec!["notes", "read", name],
            vec!["notes", "write", name, "--content", "overwrite"],
            vec!["notes", "write", name, "--append", "--content", "more"],
            vec!["notes", "delete", name],
        ] {
            refused_unchanged(&ws, &verb, None, 1, "never follow symlinks");
        }
    }
    refused_unchanged(
        &ws,
        &["notes", "read", "folder"],
        None,
        1,
        "not a regular file",
    );
    refused_unchanged(&ws, &["notes", "delete", "folder"], None, 1, "folder");
    // The listing shows the regular note only and counts the rest.
    assert_eq!(
        ws.run(&["notes", "list"]).lines()[1..],
        ["(3 other files in the store ignored)"]
    );
    assert_eq!(std::fs::read(&secret).unwrap(), b"secret\n");
}

#[test]
fn store_that_is_a_file_or_leads_outside_is_refused() {
    let ws = setup();
    ws.write("store-file", "not a folder\n");
    for args in [
        vec!["--notes-dir", "store-file", "notes", "list"],
        vec!["--notes-dir", "store-file", "notes", "read", "a"],
        vec![
            "--notes-dir",
            "store-file",
            "notes",
            "write",
            "a",
            "--content",
            "x",
        ],
        vec!["--notes-dir", "store-file", "notes", "delete", "a"],
    ] {
        refused_unchanged(
            &ws,
            &args,
            None,
            1,
            "store-file (from --notes-dir) is not a folder",
        );
    }
    // The default store as a symlink out of the workspace.
    ws.mkdir(".agent-state");
    std::os::unix::fs::symlink(ws.base.join("outside"), ws.path(".agent-state/notes")).unwrap();
    for args in [
        vec!["notes", "list"],
        vec!["notes", "read", "x"],
        vec!["notes", "write", "x", "--content", "x"],
        vec!["notes", "write", "new", "--content", "x"],
        vec!["notes", "delete", "x"],
    ] {
        refused_unchanged(&ws, &args, None, 1, "outside the workspace");
    }
    // A store configured outside, by flag and by config.
    let outside = ws.base.join("outside").display().to_string();
    refused_unchanged(
        &ws,
        &[
            "--notes-dir",
            &outside,
            "notes",
            "write",
            "x",
            "--content",
            "x",
        ],
        None,
        1,
        "outside the workspace",
    );
    std::fs::remove_file(ws.path(".agent-state/notes")).unwrap();
    // notes.dir widens where notes are written: obeyed from a trusted workspace only.
    trust(&ws);
    ws.write(
        ".agent-state/config.toml",
        "[notes]\ndir = \"../outside/new\"\n",
    );
    refused_unchanged(
        &ws,
        &["notes", "write", "x", "--content", "x"],
        None,
        1,
        "(from config notes.dir)",
    );
    assert!(!ws.base.join("outside/new").exists());
}

#[test]
fn store_from_flag_and_config_inside_the_workspace() {
    let ws = setup();
    ws.mkdir("sub");
    let r = Run::from(
        ws.cmd_in(&ws.path("sub"))
            .args([
                "--notes-dir",
                "mem",
                "notes",
                "write",
                "a",
                "--content",
                "x",
            ])
            .output()
            .unwrap(),
    );
    r.code(0);
    assert!(
        ws.path("sub/mem/a.md").is_file(),
        "--notes-dir is relative to the current folder"
    );
    // notes.dir widens where notes are written: obeyed from a trusted workspace only.
    trust(&ws);
    ws.write(
        ".agent-state/config.toml",
        "[notes]\ndir = \"docs/notes\"\n",
    );
    let r = Run::from(
        ws.cmd_in(&ws.path("sub"))
            .args(["notes", "write", "b", "--content", "y"])
            .output()
            .unwrap(),
    );
    r.code(0);
    assert!(
        ws.path("docs/notes/b.md").is_file(),
        "config notes.dir is relative to the root"
    );
}

#[test]
fn content_over_64_kib_is_refused_with_the_size() {
    let ws = setup();
    let big = "x".repeat(64 * 1024);
    refused_unchanged(
        &ws,
        &["notes", "write", "big"],
        Some(&big),
        1,
        "note big would be 65537 bytes, over the limit of 65536 bytes",
    );
    assert!(!ws.path(".agent-state").exists());
    // Exactly 64 KiB with its newline fits.
    let fits = "y".repeat(64 * 1024 - 1);
    assert_eq!(
        run_in(&ws, &["notes", "write", "big"], Some(&fits)).ok(),
        "Saved note big (65536 bytes)\n"
    );
    ws.run(&["notes", "write", "half", "--content", &"z".repeat(40_000)])
        .ok();
    refused_unchanged(
        &ws,
        &[
            "notes",
            "write",
            "half",
            "--append",
            "--content",
            &"w".repeat(30_000),
        ],
        None,
        1,
        "appending 30000 bytes to note half (40001 bytes) would make it 70002 bytes",
    );
    refused_unchanged(
        &ws,
        &["notes", "write", "e", "--content", ""],
        None,
        2,
        "empty",
    );
}

#[test]
fn parallel_appends_lose_nothing() {
    let ws = setup();
    ws.run(&["notes", "write", "log", "--content", "# log"])
        .ok();
    let n = 20;
    let children: Vec<_> = (0..n)
        .map(|i| {
            let line = format!("line {i:02} {}", "=".repeat(200 + i));
            ws.std_cmd_in(&ws.root)
                .args(["notes", "write", "log", "--append", "--content", &line])
                .stdout(Stdio::piped())
                .stderr(Stdio::piped())
                .spawn()
                .unwrap()
        })
        .collect();
    for c in children {
        let out = c.wait_with_output().unwrap();
        assert!(out.status.success(), "{out:?}");
    }
    let text = String::from_utf8(std::fs::read(note_path(&ws, "log")).unwrap()).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines[0], "# log");
    assert_eq!(lines.len(), n + 1, "{text}");
    for i in 0..n {
        let want = format!("line {i:02} {}", "=".repeat(200 + i));
        assert_eq!(
            lines.iter().filter(|l| **l == want).count(),
            1,
            "line {i} lost or doubled:\n{text}"
        );
    }
    assert!(text.ends_with('\n'));
    let names: Vec<String> = std::fs::read_dir(ws.path(".agent-state/notes"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(names, ["log.md"], "temp files left");
}

#[test]
fn parallel_writes_to_twenty_names() {
    let ws = setup();
    let children: Vec<_> = (0..20)
        .map(|i| {
            ws.std_cmd_in(&ws.root)
                .args([
                    "notes",
                    "write",
                    &format!("n{i}"),
                    "--content",
                    &format!("note {i}"),
                ])
                .stdout(Stdio::null())
                .stderr(Stdio::piped())
                .spawn()
                .unwrap()
        })
        .collect();
    for c in children {
        let out = c.wait_with_output().unwrap();
        assert!(out.status.success(), "{out:?}");
    }
    for i in 0..20 {
        assert_eq!(
            std::fs::read_to_string(note_path(&ws, &format!("n{i}"))).unwrap(),
            format!("note {i}\n")
        );
    }
    let out = ws.run(&["notes", "list"]);
    assert_eq!(out.lines().len(), 20, "{}", out.out);
    assert!(!out.out.contains("other file"));
}

/// A small deterministic generator (xorshift), so a failure can be replayed.
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: u64) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0 % n
    }
}

fn content_60k(version: usize) -> String {
    let mut s = String::new();
    let mut i = 0;
    while s.len() < 60 * 1024 - 64 {
        s.push_str(&format!("version {version:03} line {i:05}\n"));
        i += 1;
    }
    s
}

#[test]
fn sigkill_during_a_60_kib_write_leaves_the_old_or_the_new_note() {
    let ws = setup();
    let first = content_60k(0);
    // Kill moments are spread over the time one whole write takes here.
    let started = std::time::Instant::now();
    run_in(&ws, &["notes", "write", "big"], Some(&first)).ok();
    let span = (started.elapsed().as_micros() as u64 * 5 / 4).max(1_000);
    let mut current = first;
    let mut rng = Rng(0x5EED_1234_ABCD);
    let (mut landed, mut killed) = (0, 0);
    for version in 1..=40 {
        let next = content_60k(version);
        let mut child = ws
            .std_cmd_in(&ws.root)
            .args(["notes", "write", "big"])
            .stdin(Stdio::piped())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let mut pipe = child.stdin.take().unwrap();
        let body = next.clone();
        let feeder = std::thread::spawn(move || {
            let _ = pipe.write_all(body.as_bytes());
        });
        std::thread::sleep(std::time::Duration::from_micros(rng.below(span)));
        let _ = child.kill();
        let status = child.wait().unwrap();
        let _ = feeder.join();
        if status.success() {
            landed += 1;
        } else {
            killed += 1;
        }
        let now = std::fs::read_to_string(note_path(&ws, "big")).unwrap();
        assert!(
            now == current || now == next,
            "after kill {version}: the note is neither the old nor the new text ({} bytes)",
            now.len()
        );
        current = now;
    }
    assert!(killed > 0, "no write was killed ({landed} landed)");
    println!("{killed} writes killed, {landed} landed (kill moments within {span} µs)");
    // Any later call removes the temp files of killed writers: then only the note is left.
    let listing = ws.run(&["notes", "list"]).ok().to_owned();
    assert!(listing.starts_with("big  "), "{listing}");
    let left: Vec<String> = std::fs::read_dir(ws.path(".agent-state/notes"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(left, ["big.md"], "temp files of killed writers left");
}

#[test]
fn three_hundred_notes_are_listed_by_the_rule() {
    let ws = setup();
    let store = ws.path(".agent-state/notes");
    std::fs::create_dir_all(&store).unwrap();
    for i in 0..300 {
        let p = store.join(format!("note-{i:03}.md"));
        std::fs::write(&p, format!("topic {i}\nbody\n")).unwrap();
        common::set_mtime(&p, 1_700_000_000 + i as u64 * 60);
    }
    std::fs::write(store.join("README.txt"), "not a note").unwrap();
    std::fs::write(store.join(".note-001.md.agtool-1-1"), "stray temp").unwrap();
    let out = ws.run(&["notes", "list"]).ok().to_owned();
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 202, "{out}");
    for (k, line) in lines[..200].iter().enumerate() {
        let i = 299 - k;
        assert!(
            line.starts_with(&format!("note-{i:03}  ")) && line.ends_with(&format!("  topic {i}")),
            "line {k}: {line}"
        );
    }
    assert_eq!(lines[200], "(100 more; narrow with query)");
    assert_eq!(lines[201], "(2 other files in the store ignored)");
    // query narrows; the rule holds for a query too.
    let q = ws
        .run(&["notes", "list", "--query", "topic 1"])
        .ok()
        .to_owned();
    // "topic 1", "topic 10".."topic 19", "topic 100".."topic 199": 111 notes.
    assert_eq!(q.lines().count(), 111 + 1, "{q}");
    let q = ws
        .run(&["notes", "list", "--query", "note-"])
        .ok()
        .to_owned();
    assert!(q.contains("(100 more; narrow with query)"), "{q}");
}

#[test]
fn schema_and_call_expose_the_notes_group() {
    let ws = setup();
    let r = ws.run(&["--groups", "notes", "schema", "--extensions"]);
    let defs: serde_json::Value = serde_json::from_str(r.ok()).unwrap();
    let names: Vec<&str> = defs
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["name"].as_str().unwrap())
        .collect();
    assert_eq!(
        names,
        ["notes_list", "notes_read", "notes_write", "notes_delete"]
    );
    let write = &defs[2];
    assert!(
        write["description"]
            .as_str()
            .unwrap()
            .contains("durable fact")
    );
    assert_eq!(write["x-agtool"]["serial"], true);
    assert_eq!(write["x-agtool"]["sensitive"], false);
    assert_eq!(defs[3]["x-agtool"]["serial"], true);
    assert_eq!(defs[0]["x-agtool"]["serial"], false);
    // notes.write_sensitive = true marks notes_write and notes_delete sensitive.
    ws.write(
        ".agent-state/config.toml",
        "[notes]\nwrite_sensitive = true\n",
    );
    let r = ws.run(&[
        "--groups",
        "notes",
        "schema",
        "--format",
        "mcp",
        "--extensions",
    ]);
    let defs: serde_json::Value = serde_json::from_str(r.ok()).unwrap();
    let sensitive: Vec<bool> = defs
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["x-agtool"]["sensitive"].as_bool().unwrap())
        .collect();
    assert_eq!(sensitive, [false, false, true, true]);
    // Outside the enabled groups, call refuses and names the group.
    let r = Run::from(
        ws.cmd()
            .args(["call", "notes_list"])
            .write_stdin("{}")
            .output()
            .unwrap(),
    );
    assert_eq!(r.code, 1, "{r:?}");
    assert!(
        r.out.contains("group notes") && r.out.contains("--groups files,notes"),
        "{r:?}"
    );
}

#[test]
fn the_notes_command_takes_verbs_and_global_flags_anywhere() {
    let ws = setup();
    let r = ws.run(&["notes"]);
    assert_eq!(r.code, 2, "{r:?}");
    assert!(r.err.contains("list, read, write, delete"), "{r:?}");
    assert_eq!(ws.run(&["notes", "bogus"]).code, 2);
    assert_eq!(ws.run(&["notes-list"]).code, 2, "no top-level notes-list");
    // Global flags before the parent, between, and after the verb.
    let r = ws.run(&["--json", "notes", "write", "a", "--content", "x"]);
    let v: serde_json::Value = serde_json::from_str(r.ok()).unwrap();
    assert_eq!(v["ok"], true);
    assert_eq!(v["bytes"], 2);
    assert_eq!(v["created"], true);
    let r = ws.run(&["notes", "list", "--json"]);
    let v: serde_json::Value = serde_json::from_str(r.ok()).unwrap();
    assert_eq!(v["total"], 1);
    ws.mkdir("elsewhere");
    let r = Run::from(
        ws.cmd_in(&ws.base)
            .env_remove("AGTOOL_ROOT")
            .args(["notes", "--root", "ws", "read", "a"])
            .output()
            .unwrap(),
    );
    assert_eq!(r.ok(), "x\n");
    let r = ws.run(&["notes", "write", "--help"]);
    assert!(r.ok().contains("Examples:"), "{r:?}");
    assert!(r.out.contains("durable fact"), "{r:?}");
}

/// Lists the workspace in the user's `trusted_workspaces`, so its own config may widen.
fn trust(ws: &Ws) {
    std::fs::create_dir_all(ws.home.join(".config/agtool")).unwrap();
    std::fs::write(
        ws.home.join(".config/agtool/config.toml"),
        format!("trusted_workspaces = [\"{}\"]\n", ws.root.display()),
    )
    .unwrap();
}

/// A store pointed at a folder of the project (`--notes-dir .`, `--notes-dir docs`) never
/// lets a note replace or delete the project's files; a new folder becomes a store (marked)
/// on its first write, and a marked one is used as it is.
#[test]
fn a_store_folder_that_holds_project_files_is_never_written() {
    let ws = Ws::new();
    ws.write("README.md", "# Project\n")
        .write("docs/guide.md", "guide\n");
    for (dir, args) in [
        (".", vec!["notes", "write", "README", "--content", "oops"]),
        ("docs", vec!["notes", "write", "guide", "--content", "oops"]),
        ("docs", vec!["notes", "delete", "guide"]),
    ] {
        let mut full = vec!["--notes-dir", dir];
        full.extend(args);
        let run = ws.run(&full);
        run.code(1);
        assert!(
            run.out.contains("was not made as a notes store") && run.out.contains(".agtool-notes"),
            "{}",
            run.out
        );
    }
    assert_eq!(ws.read("README.md"), b"# Project\n");
    assert_eq!(ws.read("docs/guide.md"), b"guide\n");
    assert!(!ws.path("docs/.agtool-notes").exists());
    // Reading is fine.
    ws.run(&["--notes-dir", "docs", "notes", "read", "guide"])
        .ok();
    // A new folder is marked on its first write and used from then on.
    ws.run(&[
        "--notes-dir",
        "mine",
        "notes",
        "write",
        "a",
        "--content",
        "x",
    ])
    .ok();
    assert!(ws.path("mine/.agtool-notes").exists());
    ws.run(&[
        "--notes-dir",
        "mine",
        "notes",
        "write",
        "b",
        "--content",
        "y",
    ])
    .ok();
    ws.run(&["--notes-dir", "mine", "notes", "delete", "a"])
        .ok();
    // The user may make a folder a store by hand.
    ws.write("docs/.agtool-notes", "");
    ws.run(&["--notes-dir", "docs", "notes", "delete", "guide"])
        .ok();
    assert!(!ws.path("docs/guide.md").exists());
}

/// An append to a note that does not exist yet creates it, so several agents can start one
/// log at once (the help's own example, on a fresh store, was refused).
#[test]
fn an_append_to_a_missing_note_creates_it_and_parallel_appends_keep_every_line() {
    let ws = setup();
    let children: Vec<_> = (0..8)
        .map(|i| {
            ws.std_cmd_in(&ws.root)
                .args(["notes", "write", "log", "--append", "true", "--content"])
                .arg(format!("line {i}"))
                .stdout(Stdio::null())
                .spawn()
                .unwrap()
        })
        .collect();
    for mut c in children {
        assert!(c.wait().unwrap().success());
    }
    let text = String::from_utf8(std::fs::read(note_path(&ws, "log")).unwrap()).unwrap();
    let mut lines: Vec<&str> = text.lines().collect();
    lines.sort_unstable();
    assert_eq!(
        lines,
        (0..8).map(|i| format!("line {i}")).collect::<Vec<_>>()
    );
}

/// A store folder that cannot be listed (write and search permission only, mode 0300) is not
/// taken for an empty one: the marker is not put in and no project file is replaced.
#[test]
fn a_store_folder_that_cannot_be_listed_is_not_taken_for_empty() {
    use std::os::unix::fs::PermissionsExt;
    use std::os::unix::process::CommandExt;
    if !common::is_root() {
        eprintln!("SKIP needs root to run agtool as another user");
        return;
    }
    let ws = Ws::new();
    ws.write("docs/README.md", "PROJECT README\n");
    let nobody = common::NOBODY;
    for p in [&ws.base, &ws.root, &ws.home] {
        std::fs::set_permissions(p, std::fs::Permissions::from_mode(0o777)).unwrap();
    }
    std::os::unix::fs::chown(ws.path("docs"), Some(nobody), Some(nobody)).unwrap();
    std::os::unix::fs::chown(ws.path("docs/README.md"), Some(nobody), Some(nobody)).unwrap();
    std::fs::set_permissions(ws.path("docs"), std::fs::Permissions::from_mode(0o300)).unwrap();
    let out = common::Run::from(
        ws.std_cmd_in(&ws.root)
            .args([
                "--notes-dir",
                "docs",
                "notes",
                "write",
                "README",
                "--content",
                "x",
            ])
            .uid(nobody)
            .gid(nobody)
            .output()
            .unwrap(),
    );
    std::fs::set_permissions(ws.path("docs"), std::fs::Permissions::from_mode(0o755)).unwrap();
    assert_eq!(out.code, 1, "{out:?}");
    assert!(out.out.contains("cannot be listed"), "{out:?}");
    assert_eq!(ws.read("docs/README.md"), b"PROJECT README\n");
    assert!(!ws.path("docs/.agtool-notes").exists());
}
