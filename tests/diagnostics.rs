//! Diagnostics after every edit (spec 09, issue 19), against real language servers: pyright
//! (npm, `target/npm`), pylsp with pyflakes (PyPI, `target/lsp-venv`) and
//! typescript-language-server with typescript (npm). `.ci/run` installs them; a test that
//! needs a missing one fails in CI (`CI` set) and prints one `SKIP` line elsewhere.
//! Also the Python indentation rules of the syntax gate, and the bad-input cases (a missing,
//! crashing or silent server, a language without one).

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use assert_cmd::Command;

fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The folders holding the installed servers' programs.
fn server_dirs() -> Vec<PathBuf> {
    vec![
        repo().join("target/npm/node_modules/.bin"),
        repo().join("target/lsp-venv/bin"),
    ]
}

/// Whether `program` is installed; when not, fails in CI and prints one SKIP line elsewhere.
fn have(program: &str) -> bool {
    if server_dirs().iter().any(|d| d.join(program).exists()) {
        return true;
    }
    let msg = format!(
        "SKIP: {program} is not installed (run .ci/run, or: npm install --prefix target/npm \
         pyright typescript-language-server typescript; python3 -m venv target/lsp-venv && \
         target/lsp-venv/bin/pip install python-lsp-server pyflakes)"
    );
    if std::env::var_os("CI").is_some() {
        panic!("{msg}");
    }
    eprintln!("{msg}");
    false
}

/// A workspace whose agtool finds the installed servers on PATH (or not: `with_servers`).
struct Ws {
    dir: tempfile::TempDir,
    /// `XDG_CACHE_HOME`: the language servers' cache folders go under it. In /var/tmp: a
    /// cache base under /tmp (writable to every sandboxed command) or in the workspace is
    /// not used.
    cache: tempfile::TempDir,
    path_var: String,
    config: Option<PathBuf>,
}

impl Ws {
    fn new(with_servers: bool) -> Ws {
        let dir = tempfile::Builder::new()
            .prefix("agtool-lsp-test-")
            .tempdir()
            .unwrap();
        std::fs::create_dir(dir.path().join(".git")).unwrap();
        let mut parts: Vec<String> = Vec::new();
        if with_servers {
            parts.extend(server_dirs().iter().map(|d| d.display().to_string()));
        }
        parts.push("/usr/local/bin:/usr/bin:/bin".into());
        Ws {
            dir,
            cache: tempfile::Builder::new()
                .prefix("agtool-lsp-cache-")
                .tempdir_in("/var/tmp")
                .unwrap(),
            path_var: parts.join(":"),
            config: None,
        }
    }

    /// Adds a `--config` file (the host's own: obeyed without trust).
    fn config(mut self, toml: &str) -> Ws {
        let path = self.dir.path().join("host-config.toml");
        std::fs::write(&path, toml).unwrap();
        self.config = Some(path);
        self
    }

    fn root(&self) -> &Path {
        self.dir.path()
    }

    fn cmd(&self) -> Command {
        let mut c = Command::cargo_bin("agtool").unwrap();
        c.current_dir(self.root())
            .env_remove("AGTOOL_ROOT")
            .env_remove("AGTOOL_AGENT")
            .env_remove("AGTOOL_EXEC_TAG")
            .env("PATH", &self.path_var)
            .env("XDG_CONFIG_HOME", self.root().join(".no-user-config"))
            .env("XDG_CACHE_HOME", self.cache.path())
            .timeout(Duration::from_secs(120));
        match &self.config {
            Some(p) => c.env("AGTOOL_CONFIG", p),
            None => c.env_remove("AGTOOL_CONFIG"),
        };
        c
    }

    /// Runs agtool with `args` (and `stdin`); returns (exit code, stdout).
    fn run_in(&self, args: &[&str], stdin: &str) -> (i32, String) {
        let out = self.cmd().args(args).write_stdin(stdin).output().unwrap();
        (
            out.status.code().unwrap_or(-1),
            String::from_utf8_lossy(&out.stdout).into_owned(),
        )
    }

    fn run(&self, args: &[&str]) -> String {
        let (code, out) = self.run_in(args, "");
        assert_eq!(code, 0, "agtool {args:?} failed:\n{out}");
        out
    }

    fn write(&self, name: &str, text: &str) {
        let path = self.root().join(name);
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent).unwrap();
        }
        std::fs::write(path, text).unwrap();
    }

    /// Reads `path` and waits until its server has published its problems (a cold server
    /// takes seconds to analyse a file the first time; each edit after that is fast).
    fn read_warm(&self, path: &str) {
        self.run(&["read-file", path]);
        let end = Instant::now() + Duration::from_secs(90);
        loop {
            let out = self.run(&["diagnostics", path]);
            if !out.contains("not ready") {
                return;
            }
            assert!(Instant::now() < end, "the server never got ready:\n{out}");
        }
    }

    fn edit(&self, path: &str, old: &str, new: &str) -> String {
        self.run(&["edit-file", path, "--old", old, "--new", new])
    }

    /// The pids of the language servers running now.
    fn server_pids(&self) -> Vec<i32> {
        let out = self.run(&["lsp", "status"]);
        out.lines()
            .filter_map(|l| l.split("pid ").nth(1))
            .filter_map(|rest| rest.split(',').next())
            .filter_map(|p| p.trim().parse().ok())
            .collect()
    }
}

impl Drop for Ws {
    fn drop(&mut self) {
        let _ = self.cmd().args(["sessions", "stop-server"]).output();
    }
}

fn alive(pid: i32) -> bool {
    // A zombie is not alive; /proc/<pid>/stat's third field says.
    std::fs::read_to_string(format!("/proc/{pid}/stat"))
        .ok()
        .and_then(|s| {
            s.rsplit_once(')')
                .map(|(_, r)| r.trim_start().starts_with('Z'))
        })
        .is_some_and(|zombie| !zombie)
}

/// The lines of `out` that list a problem in `file`.
fn problem_lines<'a>(out: &'a str, file: &str) -> Vec<&'a str> {
    out.lines()
        .filter(|l| {
            l.strip_prefix(&format!("{file}:"))
                .is_some_and(|rest| rest.starts_with(|c: char| c.is_ascii_digit()))
        })
        .collect()
}

const PY_THREE_PROBLEMS: &str = "\
import os


def f():
    return undefined_a + undefined_b


print(undefined_c)
print(os.sep)
";

/// The scenario of issue 19 for one Python server: 3 problems exist; an edit adding one
/// undefined name reports exactly that one; an edit fixing one reports `Fixed: 1 problem`.
fn python_scenario(ws: &Ws, server: &str, undefined: &str) {
    ws.write("a.py", PY_THREE_PROBLEMS);
    ws.read_warm("a.py");
    let out = ws.edit("a.py", "print(os.sep)", "print(os.sep, brand_new_name)");
    assert!(
        out.contains(&format!("New problems ({server}):\n")),
        "{out}"
    );
    let listed = problem_lines(&out, "a.py");
    assert_eq!(listed.len(), 1, "{out}");
    assert!(listed[0].starts_with("a.py:9:15: error: "), "{out}");
    assert!(
        listed[0].contains(undefined) && listed[0].contains("brand_new_name"),
        "{out}"
    );
    assert!(!out.contains("Fixed"), "{out}");
    // Fixing one of the old problems.
    let out = ws.edit("a.py", "print(undefined_c)", "print(1)");
    assert!(out.contains("Fixed: 1 problem\n"), "{out}");
    assert!(!out.contains("New problems"), "{out}");
    // Nothing changed for the better or worse: nothing is said.
    let out = ws.edit("a.py", "print(1)", "print(2)");
    assert!(!out.contains("problem"), "{out}");
    assert!(!out.contains("Diagnostics"), "{out}");
    // The diagnostics tool shows the current problems, errors first.
    let out = ws.run(&["diagnostics", "a.py"]);
    let lines = problem_lines(&out, "a.py");
    assert_eq!(lines.len(), 3, "{out}");
    assert!(lines[0].starts_with("a.py:5:"), "{out}");
    // For programs: how many problems, and how many files a server checked.
    let v: serde_json::Value =
        serde_json::from_str(&ws.run(&["diagnostics", "a.py", "--json"])).unwrap();
    assert_eq!(
        (v["problems"].as_u64(), v["checked"].as_u64()),
        (Some(3), Some(1)),
        "{v}"
    );
}

#[test]
fn pyright_reports_what_the_edit_broke_and_nothing_else() {
    if !have("pyright-langserver") {
        return;
    }
    let ws = Ws::new(true);
    python_scenario(&ws, "pyright", "is not defined");
    // One server for the workspace; `agtool lsp stop` leaves no server process.
    let pids = ws.server_pids();
    assert_eq!(pids.len(), 1, "{pids:?}");
    assert!(alive(pids[0]));
    let out = ws.run(&["lsp", "stop"]);
    assert_eq!(out.trim(), "Stopped 1 language server.");
    let end = Instant::now() + Duration::from_secs(5);
    while alive(pids[0]) && Instant::now() < end {
        std::thread::sleep(Duration::from_millis(20));
    }
    assert!(!alive(pids[0]), "the server outlived `agtool lsp stop`");
    assert_eq!(
        ws.run(&["lsp", "status"]).trim(),
        "No language servers are running."
    );
}

#[test]
fn pylsp_with_pyflakes_reports_the_same_way() {
    if !have("pylsp") {
        return;
    }
    let pylsp = repo().join("target/lsp-venv/bin/pylsp");
    let ws = Ws::new(false).config(&format!(
        "[lsp.python]\ncommand = [\"{}\"]\n",
        pylsp.display()
    ));
    python_scenario(&ws, "pylsp", "undefined name");
}

#[test]
fn typescript_language_server_reports_what_the_edit_broke() {
    if !have("typescript-language-server") {
        return;
    }
    let ws = Ws::new(true);
    ws.write(
        "a.ts",
        "const a: number = missingA;\nconst b = missingB + 1;\nmissingC();\nexport { a, b };\n",
    );
    ws.read_warm("a.ts");
    let out = ws.edit("a.ts", "export { a, b };", "export { a, b, missingD };");
    let listed = problem_lines(&out, "a.ts");
    assert_eq!(listed.len(), 1, "{out}");
    assert!(listed[0].contains("missingD"), "{out}");
    assert!(
        out.contains("New problems (typescript-language-server):"),
        "{out}"
    );
    let out = ws.edit("a.ts", "missingC();", "");
    assert!(out.contains("Fixed: 1 problem\n"), "{out}");
}

#[test]
fn apply_patch_over_three_files_reports_each_file() {
    if !have("pyright-langserver") {
        return;
    }
    let ws = Ws::new(true);
    for name in ["p.py", "q.py", "r.py"] {
        ws.write(name, "x = 1\nprint(x)\n");
        ws.read_warm(name);
    }
    let patch = "*** Begin Patch\n\
*** Update File: p.py\n@@\n x = 1\n-print(x)\n+print(x, p_missing)\n\
*** Update File: q.py\n@@\n x = 1\n-print(x)\n+print(x, q_missing)\n\
*** Update File: r.py\n@@\n x = 1\n-print(x)\n+print(x)\n+print(r_missing)\n\
*** End Patch\n";
    let (code, out) = ws.run_in(&["apply-patch"], patch);
    assert_eq!(code, 0, "{out}");
    assert_eq!(out.matches("New problems (pyright):").count(), 3, "{out}");
    assert_eq!(problem_lines(&out, "p.py").len(), 1, "{out}");
    assert!(
        problem_lines(&out, "p.py")[0].contains("p_missing"),
        "{out}"
    );
    assert!(
        problem_lines(&out, "q.py")[0].contains("q_missing"),
        "{out}"
    );
    assert!(
        problem_lines(&out, "r.py")[0].starts_with("r.py:3:7: error:"),
        "{out}"
    );
}

#[test]
fn an_indentation_error_made_by_a_patch_is_refused() {
    let ws = Ws::new(false);
    ws.write("m.py", "def f():\n    x = 1\n    return x\n");
    ws.run(&["read-file", "m.py"]);
    let patch = "*** Begin Patch\n*** Update File: m.py\n@@\n def f():\n     x = 1\n-    return x\n+      return x\n*** End Patch\n";
    let (code, out) = ws.run_in(&["apply-patch"], patch);
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("unexpected indent"), "{out}");
    assert_eq!(
        std::fs::read_to_string(ws.root().join("m.py")).unwrap(),
        "def f():\n    x = 1\n    return x\n"
    );
    // A file already bad is not made to refuse an unrelated edit.
    ws.write(
        "bad.py",
        "def f():\n    x = 1\n      y = 2\n\n\ndef g():\n    return 1\n",
    );
    ws.run(&["read-file", "bad.py"]);
    let out = ws.edit("bad.py", "return 1", "return 2");
    assert!(out.contains("Edited [bad.py#"), "{out}");
    // Nor does fixing it get refused.
    ws.run(&["read-file", "bad.py"]);
    let out = ws.edit("bad.py", "      y = 2", "    y = 2");
    assert!(out.contains("syntax: ok (python)"), "{out}");
}

#[test]
fn a_missing_crashing_or_silent_server_never_blocks_the_edit() {
    let ws = Ws::new(false).config(
        "[lsp]\nwait_ms = 700\n[lsp.python]\ncommand = [\"no-such-language-server\", \"--stdio\"]\n\
         [lsp.go]\ncommand = [\"sh\", \"-c\", \"echo boom >&2; exit 3\"]\n\
         [lsp.rust]\ncommand = [\"sleep\", \"600\"]\n",
    );
    ws.write("a.py", "x = 1\n");
    ws.run(&["read-file", "a.py"]);
    let out = ws.edit("a.py", "x = 1", "x = 2");
    assert!(out.contains("Edited [a.py#"), "{out}");
    assert!(
        out.contains(
            "Diagnostics: cannot start the python language server `no-such-language-server \
             --stdio`: not found"
        ),
        "{out}"
    );
    assert_eq!(
        std::fs::read_to_string(ws.root().join("a.py")).unwrap(),
        "x = 2\n"
    );
    // Crashes at start: started again once, then reported with its stderr.
    ws.write("m.go", "package m\n");
    ws.run(&["read-file", "m.go"]);
    let out = ws.edit("m.go", "package m", "package n");
    assert!(out.contains("Edited [m.go#"), "{out}");
    assert!(out.contains("exited (exit status: 3): boom"), "{out}");
    assert!(out.contains("restarted once"), "{out}");
    // Never answers: bounded by lsp.wait_ms.
    ws.write("l.rs", "fn a() {}\n");
    ws.run(&["read-file", "l.rs"]);
    let start = Instant::now();
    let out = ws.edit("l.rs", "fn a() {}", "fn b() {}");
    assert!(out.contains("Diagnostics: not ready after 700 ms"), "{out}");
    assert!(
        start.elapsed() < Duration::from_secs(5),
        "{:?}",
        start.elapsed()
    );
    let out = ws.run(&["lsp", "stop"]);
    assert!(out.starts_with("Stopped"), "{out}");
}

#[test]
fn a_language_without_a_server_says_so_in_one_line() {
    let ws = Ws::new(false);
    ws.write("main.go", "package main\n");
    ws.run(&["read-file", "main.go"]);
    let out = ws.edit("main.go", "package main", "package main2");
    let said: Vec<&str> = out
        .lines()
        .filter(|l| l.starts_with("Diagnostics:"))
        .collect();
    assert_eq!(
        said,
        ["Diagnostics: no language server found for go (install gopls, or set lsp.go.command)"],
        "{out}"
    );
    // A file type no server is known for: nothing at all.
    ws.write("notes.txt", "a\n");
    ws.run(&["read-file", "notes.txt"]);
    let out = ws.edit("notes.txt", "a", "b");
    assert!(!out.contains("Diagnostics"), "{out}");
    // Unchecked is not "no problems": `checked` says how many files a server checked
    // (it said ok with 0 problems and nothing else).
    let v: serde_json::Value =
        serde_json::from_str(&ws.run(&["diagnostics", "main.go", "notes.txt", "--json"])).unwrap();
    assert_eq!(
        (v["problems"].as_u64(), v["checked"].as_u64()),
        (Some(0), Some(0)),
        "{v}"
    );
    // A folder: what to do instead.
    let (code, out) = ws.run_in(&["diagnostics", "."], "");
    assert_eq!(code, 1);
    assert_eq!(
        out,
        "Error: . is a folder; diagnostics takes files (find them with glob)\n"
    );
}

#[test]
fn twenty_agents_editing_at_once_share_one_server_and_lose_no_sync() {
    if !have("pyright-langserver") {
        return;
    }
    let ws = Ws::new(true);
    for i in 0..20 {
        ws.write(&format!("f{i}.py"), "x = 1\n");
    }
    ws.read_warm("f0.py");
    std::thread::scope(|s| {
        for i in 0..20 {
            let ws = &ws;
            s.spawn(move || {
                let name = format!("f{i}.py");
                let agent = format!("agent{i}");
                let out = ws
                    .cmd()
                    .env("AGTOOL_AGENT", &agent)
                    .args(["read-file", &name])
                    .output()
                    .unwrap();
                assert!(out.status.success());
                let out = ws
                    .cmd()
                    .env("AGTOOL_AGENT", &agent)
                    .args([
                        "edit-file",
                        &name,
                        "--old",
                        "x = 1",
                        "--new",
                        "x = missing_name",
                    ])
                    .output()
                    .unwrap();
                let text = String::from_utf8_lossy(&out.stdout).into_owned();
                assert!(out.status.success(), "{text}");
                // Either the problem, or (a loaded 2-core machine) not ready in time.
                assert!(
                    text.contains("missing_name") || text.contains("not ready"),
                    "{text}"
                );
            });
        }
    });
    assert_eq!(ws.server_pids().len(), 1);
    // Every file's last sync reached the server: its current problems are the edited text's.
    let names: Vec<String> = (0..20).map(|i| format!("f{i}.py")).collect();
    let mut args = vec!["diagnostics"];
    args.extend(names.iter().map(String::as_str));
    let out = ws.run(&args);
    assert_eq!(
        out.matches("\"missing_name\" is not defined").count(),
        20,
        "{out}"
    );
}

/// A language server planted in the workspace never runs by `lsp.auto`: not through an empty
/// or relative `PATH` entry (the current folder), nor through an absolute entry inside an
/// untrusted workspace.
#[test]
fn a_server_planted_in_the_workspace_is_not_run_through_path() {
    use std::os::unix::fs::PermissionsExt;
    let ws = Ws::new(false);
    ws.write("a.py", "x = 1\n");
    let marker = ws.root().join(".planted-ran");
    let script = format!("#!/bin/sh\ntouch '{}'\nexit 1\n", marker.display());
    for dir in ["", "bin/"] {
        let name = format!("{dir}pyright-langserver");
        ws.write(&name, &script);
        let path = ws.root().join(&name);
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
    }
    let abs_bin = ws.root().join("bin").display().to_string();
    for path_var in [
        "/usr/bin:/bin:".to_owned(),
        ".:/usr/bin:/bin".to_owned(),
        "bin:/usr/bin:/bin".to_owned(),
        format!("{abs_bin}:/usr/bin:/bin"),
    ] {
        let out = ws
            .cmd()
            .env("PATH", &path_var)
            .args(["diagnostics", "a.py"])
            .output()
            .unwrap();
        let _ = ws
            .cmd()
            .env("PATH", &path_var)
            .args(["lsp", "stop"])
            .output();
        assert!(
            !marker.exists(),
            "PATH={path_var} ran the planted server:\n{}",
            String::from_utf8_lossy(&out.stdout)
        );
    }
}

/// In a workspace the host trusts, a server found through an absolute PATH entry inside it
/// runs (a project's own pinned server).
#[test]
fn a_trusted_workspace_may_use_its_own_server() {
    use std::os::unix::fs::PermissionsExt;
    let probe = Ws::new(false);
    let root = std::fs::canonicalize(probe.root()).unwrap();
    let ws = probe.config(&format!(
        "trusted_workspaces = [{:?}]\n",
        root.display().to_string()
    ));
    ws.write("a.py", "x = 1\n");
    // Outside the workspace: the server runs in the read-only sandbox.
    let marks = tempfile::tempdir().unwrap();
    let marker = marks.path().join(".own-ran");
    ws.write(
        "bin/pyright-langserver",
        &format!("#!/bin/sh\ntouch '{}'\nexit 1\n", marker.display()),
    );
    let path = ws.root().join("bin/pyright-langserver");
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
    let path_var = format!("{}:/usr/bin:/bin", root.join("bin").display());
    let _ = ws
        .cmd()
        .env("PATH", &path_var)
        .args(["diagnostics", "a.py"])
        .output()
        .unwrap();
    let _ = ws
        .cmd()
        .env("PATH", &path_var)
        .args(["lsp", "stop"])
        .output();
    let end = Instant::now() + Duration::from_secs(10);
    while !marker.exists() && Instant::now() < end {
        std::thread::sleep(Duration::from_millis(50));
    }
    assert!(
        marker.exists(),
        "the trusted workspace's own server did not run"
    );
}

/// `s` as a TOML basic string.
fn toml_quote(s: &str) -> String {
    let mut out = String::from("\"");
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// Issue 19 item 5: the language server runs inside the exec sandbox. A configured server
/// that tries to write in the workspace, read a deny_read file and open an internet socket
/// before it starts pylsp gets none of them, writes its own cache folder, and still serves
/// diagnostics. With `exec.sandbox = "off"` the same command gets all three (the probe works).
#[test]
fn the_language_server_runs_inside_the_sandbox() {
    if !have("pylsp") {
        return;
    }
    let pylsp = repo().join("target/lsp-venv/bin/pylsp");
    let python = repo().join("target/lsp-venv/bin/python");
    for sandbox in ["", "[exec]\nsandbox = \"off\"\n"] {
        let seed = Ws::new(false);
        let root = std::fs::canonicalize(seed.root()).unwrap();
        let script = format!(
            "echo pwned > '{root}/pwned.txt'; \
             echo ok > \"$XDG_CACHE_HOME/probe.txt\"; \
             cat '{root}/.env' > \"$XDG_CACHE_HOME/leak.txt\"; \
             '{python}' -c 'import socket; socket.socket(socket.AF_INET, socket.SOCK_STREAM); \
             print(\"net-open\")' > \"$XDG_CACHE_HOME/net.txt\" 2>&1; \
             exec '{pylsp}'",
            root = root.display(),
            python = python.display(),
            pylsp = pylsp.display()
        );
        let ws = seed.config(&format!(
            "deny_read = [\".env\"]\n[lsp.python]\ncommand = [\"/bin/sh\", \"-c\", {}]\n{sandbox}",
            toml_quote(&script)
        ));
        ws.write(".env", "SECRET=hunter2\n");
        ws.write("a.py", "print(undefined_name)\n");
        ws.read_warm("a.py");
        let out = ws.run(&["diagnostics", "a.py"]);
        assert!(out.contains("undefined name 'undefined_name'"), "{out}");
        let pwned = root.join("pwned.txt").exists();
        // Sandboxed: the cache folder is agtool's own under XDG_CACHE_HOME; unsandboxed the
        // server keeps the caller's XDG_CACHE_HOME.
        let cache = if sandbox.is_empty() {
            ws.cache.path().join("agtool/lsp/python")
        } else {
            ws.cache.path().to_path_buf()
        };
        let read = |name: &str| std::fs::read_to_string(cache.join(name)).unwrap_or_default();
        assert_eq!(
            read("probe.txt"),
            "ok\n",
            "the server could not write its cache"
        );
        if sandbox.is_empty() {
            assert!(!pwned, "the sandboxed server wrote in the workspace");
            assert_eq!(read("leak.txt"), "", "the sandboxed server read .env");
            assert!(
                !read("net.txt").contains("net-open"),
                "the sandboxed server opened an internet socket: {}",
                read("net.txt")
            );
            assert!(
                read("net.txt").contains("PermissionError"),
                "{}",
                read("net.txt")
            );
        } else {
            assert!(pwned, "the unsandboxed probe did not run");
            assert_eq!(read("leak.txt"), "SECRET=hunter2\n");
            assert!(read("net.txt").contains("net-open"), "{}", read("net.txt"));
        }
    }
}

/// Attack finding (F1): a symlink planted where a server's cache folder goes (by any sandboxed
/// command: the cache base was under /tmp, or inside a writable folder) made the workspace's
/// `.git` the server's writable cache, and a hook could be written there. The cache path is
/// never followed through a symlink, and a base where sandboxed commands can write is not used.
#[test]
fn a_symlink_at_the_cache_path_never_opens_git_to_the_server() {
    if !have("pylsp") {
        return;
    }
    let pylsp = repo().join("target/lsp-venv/bin/pylsp");
    let seed = Ws::new(false);
    let root = std::fs::canonicalize(seed.root()).unwrap();
    let script = format!(
        "mkdir -p \"$XDG_CACHE_HOME/hooks\"; echo evil > \"$XDG_CACHE_HOME/hooks/pre-commit\"; \
         echo evil > \"$TMPDIR/planted\"; exec '{}'",
        pylsp.display()
    );
    let ws = seed.config(&format!(
        "[lsp.python]\ncommand = [\"/bin/sh\", \"-c\", {}]\n",
        toml_quote(&script)
    ));
    ws.write("a.py", "print(undefined_name)\n");
    // 1. The base is safe (/var/tmp) but the `python` folder is a symlink to .git.
    let lsp_dir = ws.cache.path().join("agtool/lsp");
    std::fs::create_dir_all(&lsp_dir).unwrap();
    std::os::unix::fs::symlink(root.join(".git"), lsp_dir.join("python")).unwrap();
    ws.read_warm("a.py");
    let out = ws.run(&["diagnostics", "a.py"]);
    assert!(out.contains("undefined name 'undefined_name'"), "{out}");
    let git_entries = || -> Vec<String> {
        std::fs::read_dir(root.join(".git"))
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect()
    };
    assert!(git_entries().is_empty(), "{:?}", git_entries());
    ws.run(&["lsp", "stop"]);
    // 2. A base under /tmp (as when HOME is unset or XDG_CACHE_HOME points there), with the
    // whole path planted by a sandboxed command.
    let planted = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(planted.path().join("agtool/lsp")).unwrap();
    std::os::unix::fs::symlink(root.join(".git"), planted.path().join("agtool/lsp/python"))
        .unwrap();
    let out = ws
        .cmd()
        .env("XDG_CACHE_HOME", planted.path())
        .args(["diagnostics", "a.py"])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("undefined_name"), "{text}");
    assert!(git_entries().is_empty(), "{:?}", git_entries());
}

/// The pids of live processes whose command line contains `marker`.
fn processes_with(marker: &str) -> Vec<i32> {
    let mut out = Vec::new();
    for e in std::fs::read_dir("/proc").unwrap().flatten() {
        let Ok(pid) = e.file_name().to_string_lossy().parse::<i32>() else {
            continue;
        };
        let cmd = std::fs::read(e.path().join("cmdline")).unwrap_or_default();
        if String::from_utf8_lossy(&cmd).contains(marker) && alive(pid) {
            out.push(pid);
        }
    }
    out
}

/// Attack finding (F2): `agtool lsp stop` said "Stopped 1 language server." and left what
/// the server had started in the background (out of its group with setsid, with and without
/// its environment) running until the session server stopped.
#[test]
fn lsp_stop_ends_what_the_server_started_in_the_background() {
    if !have("pylsp") {
        return;
    }
    let pylsp = repo().join("target/lsp-venv/bin/pylsp");
    let marker = format!("agtool-bg-{}", std::process::id());
    let script = format!(
        "(setsid sh -c 'while :; do sleep 1; done # {marker}' &); \
         (env -i /usr/bin/setsid /bin/sh -c 'while :; do sleep 1; done # {marker}' &); \
         exec '{}'",
        pylsp.display()
    );
    let ws = Ws::new(false).config(&format!(
        "[lsp.python]\ncommand = [\"/bin/sh\", \"-c\", {}]\n",
        toml_quote(&script)
    ));
    ws.write("a.py", "x = 1\n");
    ws.read_warm("a.py");
    let end = Instant::now() + Duration::from_secs(5);
    while processes_with(&marker).len() < 2 && Instant::now() < end {
        std::thread::sleep(Duration::from_millis(50));
    }
    assert_eq!(processes_with(&marker).len(), 2, "the probe did not start");
    let out = ws.run(&["lsp", "stop"]);
    assert_eq!(out.trim(), "Stopped 1 language server.");
    let end = Instant::now() + Duration::from_secs(5);
    while !processes_with(&marker).is_empty() && Instant::now() < end {
        std::thread::sleep(Duration::from_millis(50));
    }
    assert_eq!(processes_with(&marker), Vec::<i32>::new(), "left running");
}

/// Attack finding (F3): a warm server kept running under the policy it was started with after
/// the policy got stricter (a new deny_read name). It is restarted when the policy its sandbox
/// comes from changes, and kept when only the caller's environment differs (another host with
/// another cache folder must not restart it on every call).
#[test]
fn a_server_restarts_when_its_sandbox_policy_changes_and_only_then() {
    if !have("pylsp") {
        return;
    }
    let pylsp = repo().join("target/lsp-venv/bin/pylsp");
    let config =
        |extra: &str| format!("{extra}[lsp.python]\ncommand = [\"{}\"]\n", pylsp.display());
    let ws = Ws::new(false).config(&config(""));
    ws.write("a.py", "print(undefined_name)\n");
    ws.read_warm("a.py");
    let first = ws.server_pids();
    assert_eq!(first.len(), 1, "{first:?}");
    let other_cache = tempfile::tempdir_in("/var/tmp").unwrap();
    let out = ws
        .cmd()
        .env("XDG_CACHE_HOME", other_cache.path())
        .args(["diagnostics", "a.py"])
        .output()
        .unwrap();
    assert!(String::from_utf8_lossy(&out.stdout).contains("undefined_name"));
    assert_eq!(
        ws.server_pids(),
        first,
        "another environment restarted the server"
    );
    std::fs::write(
        ws.config.as_ref().unwrap(),
        config("deny_read = [\".env\", \".ssh\"]\n"),
    )
    .unwrap();
    ws.read_warm("a.py");
    let second = ws.server_pids();
    assert_eq!(second.len(), 1, "{second:?}");
    assert_ne!(
        second, first,
        "the server outlived the policy it was started under"
    );
}

/// New-user finding: in a fresh workspace, `read-file` then an edit, then `diagnostics` with no
/// paths said "no problems" for a file the edit had just broken. The read's sync waited for the
/// cold server while the edit went ahead, then sent the read's (older) text over the edit's.
#[test]
fn a_late_sync_of_a_read_never_replaces_an_edits_text() {
    if !have("pyright-langserver") {
        return;
    }
    let ws = Ws::new(true);
    ws.write("a.py", "def f():\n    return 1\n");
    ws.run(&["read-file", "a.py"]);
    let out = ws.edit("a.py", "return 1", "return undefined_name");
    assert!(out.contains("undefined_name"), "{out}");
    let all = ws.run(&["diagnostics"]);
    let one = ws.run(&["diagnostics", "a.py"]);
    assert!(all.contains("\"undefined_name\" is not defined"), "{all}");
    assert!(one.contains("\"undefined_name\" is not defined"), "{one}");
}

/// rustup's `rust-analyzer` proxy without its component was asked `--version` by every
/// process that read or edited a `.rs` file (0.25 s each, rustup starting itself some twenty
/// times), and the message said to install rust-analyzer though one was on PATH. The answer
/// is kept in the cache folder until a toolchain changes, and the message names the proxy and
/// `rustup component add`.
#[test]
fn a_rustup_proxy_without_its_component_is_asked_once_and_named() {
    use std::os::unix::fs::PermissionsExt;
    let mut ws = Ws::new(false);
    // Outside the workspace: a program there is never run through PATH.
    let home = tempfile::Builder::new()
        .prefix("agtool-rustup-home-")
        .tempdir_in("/var/tmp")
        .unwrap();
    let bin = home.path().join("cargo-bin");
    std::fs::create_dir_all(&bin).unwrap();
    let asked = home.path().join("asked");
    let rustup = bin.join("rustup");
    std::fs::write(
        &rustup,
        format!(
            "#!/bin/sh\necho x >> '{}'\necho 'error: rust-analyzer is not installed' >&2\nexit 1\n",
            asked.display()
        ),
    )
    .unwrap();
    std::fs::set_permissions(&rustup, std::fs::Permissions::from_mode(0o755)).unwrap();
    std::fs::hard_link(&rustup, bin.join("rust-analyzer")).unwrap();
    let toolchain_bin = home.path().join("toolchains/stable/bin");
    std::fs::create_dir_all(&toolchain_bin).unwrap();
    ws.path_var = format!("{}:{}", bin.display(), ws.path_var);
    let run = |args: &[&str]| -> String {
        let out = ws
            .cmd()
            .env("RUSTUP_HOME", home.path())
            .env_remove("RUSTUP_TOOLCHAIN")
            .args(args)
            .output()
            .unwrap();
        String::from_utf8_lossy(&out.stdout).into_owned()
    };
    let times_asked = || {
        std::fs::read_to_string(&asked)
            .unwrap_or_default()
            .lines()
            .count()
    };
    ws.write("m.rs", "fn main() {}\n");
    run(&["read-file", "m.rs"]);
    let out = run(&["edit-file", "m.rs", "--old", "main", "--new", "main2"]);
    assert!(
        out.contains(&format!(
            "Diagnostics: no language server found for rust ({} is rustup's proxy, and the \
             active toolchain has no such component: run `rustup component add rust-analyzer`",
            bin.join("rust-analyzer").display()
        )),
        "{out}"
    );
    run(&["read-file", "m.rs"]);
    assert_eq!(times_asked(), 1, "asked again by a later process");
    // A component added (the toolchain's bin folder changes): asked again.
    std::thread::sleep(Duration::from_millis(20));
    std::fs::write(toolchain_bin.join("cargo"), "").unwrap();
    run(&["read-file", "m.rs"]);
    assert_eq!(
        times_asked(),
        2,
        "not asked again after a toolchain changed"
    );
}
