//! glob through the real binary (spec 02, "glob").

mod common;
use common::*;
use serde_json::json;

#[test]
fn newest_first_ties_by_path() {
    let ws = Ws::new();
    ws.write("old.rs", "")
        .write("src/b.rs", "")
        .write("src/a.rs", "")
        .write("new.rs", "");
    ws.set_mtime("old.rs", 1_000)
        .set_mtime("src/a.rs", 2_000)
        .set_mtime("src/b.rs", 2_000)
        .set_mtime("new.rs", 3_000);
    let out = ws.run(&["glob", "**/*.rs"]);
    assert_eq!(out.ok(), "new.rs\nsrc/a.rs\nsrc/b.rs\nold.rs\n");
}

#[test]
fn glob_syntax() {
    let ws = Ws::new();
    for f in [
        "lib.rs",
        "src/main.rs",
        "src/tools/glob.rs",
        "web/app.ts",
        "web/app.tsx",
        "web/app.js",
        "data/a1.txt",
        "data/b2.txt",
        "data/c3.txt",
    ] {
        ws.write(f, "").set_mtime(f, 1_000);
    }
    let cases: [(&str, &[&str]); 8] = [
        ("**/*.rs", &["lib.rs", "src/main.rs", "src/tools/glob.rs"]),
        ("*.rs", &["lib.rs", "src/main.rs", "src/tools/glob.rs"]),
        ("src/*.rs", &["src/main.rs"]),
        ("src/**/*.rs", &["src/main.rs", "src/tools/glob.rs"]),
        ("*.{ts,tsx}", &["web/app.ts", "web/app.tsx"]),
        ("data/[ab]?.txt", &["data/a1.txt", "data/b2.txt"]),
        ("data/[!a]*.txt", &["data/b2.txt", "data/c3.txt"]),
        ("./web/*.js", &["web/app.js"]),
    ];
    for (pattern, expect) in cases {
        let out = ws.run(&["glob", pattern]);
        assert_eq!(out.lines(), expect, "{pattern}");
    }
}

#[test]
fn limit_and_truncation_line() {
    let ws = Ws::new();
    for i in 0..7 {
        ws.write(&format!("f{i}.txt"), "")
            .set_mtime(&format!("f{i}.txt"), 1_000 + i);
    }
    let out = ws.run(&["glob", "*.txt", "--limit", "3"]);
    assert_eq!(
        out.ok(),
        "f6.txt\nf5.txt\nf4.txt\n(4 more not shown; narrow the pattern or raise limit)\n"
    );
}

#[test]
fn default_limit_is_100() {
    let ws = Ws::new();
    for i in 0..105 {
        ws.write(&format!("d/f{i:03}.txt"), "");
    }
    let out = ws.run(&["glob", "*.txt"]);
    let lines = out.lines();
    assert_eq!(lines.len(), 101);
    assert_eq!(
        lines[100],
        "(5 more not shown; narrow the pattern or raise limit)"
    );
}

#[test]
fn no_match() {
    let ws = Ws::new();
    ws.write("a.rs", "");
    assert_eq!(ws.run(&["glob", "*.py"]).ok(), "No files matched *.py\n");
}

#[test]
fn hidden_and_ignored_rules() {
    let ws = Ws::new();
    ws.write(".gitignore", "*.log\n/build/\n")
        .write(".ignore", "secret.txt\n")
        .write("keep.txt", "")
        .write("app.log", "")
        .write("build/out.txt", "")
        .write("secret.txt", "")
        .write(".env.txt", "")
        .write(".config/c.txt", "");
    for f in [
        ".gitignore",
        ".ignore",
        "keep.txt",
        "app.log",
        "build/out.txt",
        "secret.txt",
        ".env.txt",
        ".config/c.txt",
    ] {
        ws.set_mtime(f, 1_000);
    }
    assert_eq!(ws.run(&["glob", "*"]).lines(), ["keep.txt"]);
    assert_eq!(
        ws.run(&["glob", "*", "--hidden", "true"]).lines(),
        [
            ".config/c.txt",
            ".env.txt",
            ".gitignore",
            ".ignore",
            "keep.txt"
        ]
    );
    assert_eq!(
        ws.run(&["glob", "*", "--ignored", "true"]).lines(),
        ["app.log", "build/out.txt", "keep.txt", "secret.txt"]
    );
}

#[test]
fn git_exclude_global_gitignore_and_dot_git_always_skipped() {
    let ws = Ws::new();
    ws.write(".git/info/exclude", "excluded.txt\n")
        .write(".git/HEAD", "ref: refs/heads/main\n")
        .write(".git/config.txt", "")
        .write("excluded.txt", "")
        .write("global.tmp", "")
        .write("kept.txt", "");
    std::fs::create_dir_all(ws.home.join(".config/git")).unwrap();
    std::fs::write(ws.home.join(".config/git/ignore"), "*.tmp\n").unwrap();
    let out = ws.run(&["glob", "*", "--hidden", "true"]);
    assert_eq!(
        out.lines(),
        ["kept.txt"],
        ".git never listed, even with hidden"
    );
    let mut got = ws
        .run(&["glob", "*", "--ignored", "true"])
        .lines()
        .iter()
        .map(|s| s.to_string())
        .collect::<Vec<_>>();
    got.sort();
    assert_eq!(got, ["excluded.txt", "global.tmp", "kept.txt"]);
}

#[test]
fn ancestor_gitignore_applies_up_to_the_repository_root_only() {
    let ws = Ws::new();
    // ws/ is the repository; its parent's .gitignore is outside it and must not apply.
    std::fs::write(ws.base.join(".gitignore"), "*.txt\n").unwrap();
    ws.mkdir(".git")
        .write(".gitignore", "*.log\n")
        .write("sub/a.txt", "")
        .write("sub/b.log", "");
    let out = ws.run(&["glob", "*", "sub"]);
    assert_eq!(
        out.lines(),
        ["sub/a.txt"],
        "the repository's own .gitignore applies to sub/"
    );
}

#[test]
fn symlinks_are_listed_never_followed() {
    let ws = Ws::new();
    ws.write("real/a.rs", "")
        .symlink("real", "alias")
        .symlink("real/a.rs", "link.rs")
        .symlink("missing.rs", "dangling.rs");
    ws.set_mtime("real/a.rs", 1_000);
    let mut got: Vec<String> = ws
        .run(&["glob", "*.rs"])
        .lines()
        .iter()
        .map(|s| s.to_string())
        .collect();
    got.sort();
    assert_eq!(
        got,
        ["dangling.rs", "link.rs", "real/a.rs"],
        "alias/a.rs is not reached"
    );
}

#[test]
fn deny_read_folders_are_not_entered() {
    let ws = Ws::new();
    ws.write(".ssh/id_rsa.pub", "")
        .write("home/.gnupg/key.pub", "")
        .write("a.pub", "");
    let out = ws.run(&["glob", "*.pub", "--hidden", "true"]);
    assert_eq!(out.lines(), ["a.pub"]);
}

#[test]
fn a_path_named_exactly_is_returned_even_if_ignored_or_hidden() {
    let ws = Ws::new();
    ws.write(".gitignore", "target/\n.env\n")
        .write("target/debug/app", "")
        .write(".env", "");
    assert_eq!(
        ws.run(&["glob", "target/debug/app"]).ok(),
        "target/debug/app\n"
    );
    assert_eq!(ws.run(&["glob", ".env"]).ok(), ".env\n");
    // A wildcard does not name a path: the ignore rules hold.
    assert_eq!(
        ws.run(&["glob", "target/*/app"]).ok(),
        "No files matched target/*/app\n"
    );
    // A named path outside the policy is still not returned.
    ws.write(".ssh/id", "");
    assert_eq!(
        ws.run(&["glob", ".ssh/id"]).ok(),
        "No files matched .ssh/id\n"
    );
}

#[test]
fn paths_are_relative_to_the_current_folder_when_under_it() {
    let ws = Ws::new();
    ws.write("src/a.rs", "").write("docs/b.md", "");
    let run =
        |cwd: &str, args: &[&str]| Run::from(ws.cmd_in(&ws.path(cwd)).args(args).output().unwrap());
    assert_eq!(run("src", &["glob", "*.rs"]).ok(), "a.rs\n");
    // A base outside the current folder: absolute paths.
    assert_eq!(
        run("src", &["glob", "*.md", "../docs"]).ok(),
        format!("{}\n", ws.path("docs/b.md").display())
    );
    // A symlinked base is shown as spelled.
    ws.symlink("src", "alias");
    assert_eq!(ws.run(&["glob", "*.rs", "alias"]).ok(), "alias/a.rs\n");
}

#[test]
fn bad_arguments() {
    let ws = Ws::new();
    ws.write("a.rs", "");
    let out = ws.run(&["glob", "src/[a"]);
    out.code(2);
    assert!(out.err.contains("invalid pattern"), "{}", out.err);
    for limit in ["0", "2001"] {
        let out = ws.run(&["glob", "*.rs", "--limit", limit]);
        out.code(2);
        assert!(
            out.err.contains("/limit: expected integer >= 1 <= 2000"),
            "{}",
            out.err
        );
    }
    let out = ws.run(&["glob", "/etc/*"]);
    out.code(2);
    assert!(out.err.contains("is absolute"), "{}", out.err);
    let out = ws.run(&["glob", "../*"]);
    out.code(2);
    assert!(out.err.contains("contains `..`"), "{}", out.err);
    let out = ws.call("glob", &json!({"pattern": ""}));
    out.code(2);
    let out = ws.run(&["glob", "*.rs", "a.rs"]);
    out.code(1);
    assert_eq!(
        out.out,
        "Error: a.rs is not a folder; give the folder to search under as path\n"
    );
    let out = ws.run(&["glob", "*.rs", "missing"]);
    out.code(1);
    assert!(out.out == "Error: missing does not exist\n", "{}", out.out);
}

#[test]
fn json_fields() {
    let ws = Ws::new();
    ws.write("a.rs", "").write("b.rs", "");
    let out = ws.run(&["--json", "glob", "*.rs", "--limit", "1"]);
    let v: serde_json::Value = serde_json::from_str(out.ok()).unwrap();
    assert_eq!(v["ok"], true);
    assert_eq!(v["matches"], 2);
    assert_eq!(v["shown"], 1);
}
