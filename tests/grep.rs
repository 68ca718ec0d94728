//! grep through the real binary (spec 02, "grep").

mod common;
use common::*;
use serde_json::json;

/// A workspace with three files whose times are fixed: c.txt newest.
fn three_files() -> Ws {
    let ws = Ws::new();
    ws.write("a.txt", "alpha\nneedle one\n")
        .write("b.txt", "needle two\nbeta\nneedle three\n")
        .write("c.txt", "gamma\nNeedle four\n")
        .write("none.txt", "nothing here\n");
    ws.set_mtime("a.txt", 1_000)
        .set_mtime("b.txt", 2_000)
        .set_mtime("c.txt", 3_000)
        .set_mtime("none.txt", 4_000);
    ws
}

#[test]
fn files_mode_newest_first() {
    let ws = three_files();
    assert_eq!(ws.run(&["grep", "needle"]).ok(), "c.txt\nb.txt\na.txt\n");
    // Ties by path.
    ws.set_mtime("a.txt", 3_000).set_mtime("b.txt", 3_000);
    assert_eq!(ws.run(&["grep", "needle"]).ok(), "a.txt\nb.txt\nc.txt\n");
}

#[test]
fn ties_are_broken_by_path_bytes_as_glob_does() {
    let ws = Ws::new();
    ws.write("a/b.txt", "hit\n").write("a-b.txt", "hit\n");
    ws.set_mtime("a/b.txt", 1_000).set_mtime("a-b.txt", 1_000);
    // '-' (0x2D) sorts before '/' (0x2F).
    assert_eq!(ws.run(&["grep", "hit"]).ok(), "a-b.txt\na/b.txt\n");
    assert_eq!(ws.run(&["glob", "*.txt"]).ok(), "a-b.txt\na/b.txt\n");
}

#[test]
fn content_and_count_modes() {
    let ws = three_files();
    let out = ws.run(&["grep", "needle", "--output", "content"]);
    assert_eq!(
        out.ok(),
        "c.txt:2:Needle four\nb.txt:1:needle two\nb.txt:3:needle three\na.txt:2:needle one\n"
    );
    let out = ws.run(&["grep", "needle", "--output", "count"]);
    assert_eq!(out.ok(), "c.txt:1\nb.txt:2\na.txt:1\n");
}

#[test]
fn limits_and_truncation_lines() {
    let ws = three_files();
    let out = ws.run(&["grep", "needle", "--limit", "1"]);
    assert_eq!(out.ok(), "c.txt\n(2 more files not shown)\n");
    let out = ws.run(&["grep", "needle", "--limit", "2", "--output", "count"]);
    assert_eq!(out.ok(), "c.txt:1\nb.txt:2\n(1 more file not shown)\n");
    let out = ws.run(&["grep", "needle", "--limit", "2", "--output", "content"]);
    assert_eq!(
        out.ok(),
        "c.txt:2:Needle four\nb.txt:1:needle two\n(2 more matching lines not shown)\n"
    );
    let out = ws.run(&["grep", "needle", "--limit", "3", "--output", "content"]);
    assert!(
        out.ok().ends_with("(1 more matching line not shown)\n"),
        "{}",
        out.out
    );
}

#[test]
fn content_limit_counts_lines_across_many_files() {
    let ws = Ws::new();
    for i in 0..50 {
        let name = format!("f{i:02}.txt");
        ws.write(&name, "hit\nhit\nmiss\nhit\n")
            .set_mtime(&name, 1_000 + i);
    }
    let out = ws.call(
        "grep",
        &json!({"pattern": "hit", "output": "content", "limit": 7}),
    );
    let lines = out.lines();
    assert_eq!(
        lines,
        [
            "f49.txt:1:hit",
            "f49.txt:2:hit",
            "f49.txt:4:hit",
            "f48.txt:1:hit",
            "f48.txt:2:hit",
            "f48.txt:4:hit",
            "f47.txt:1:hit",
            "(143 more matching lines not shown)"
        ]
    );
}

#[test]
fn default_limit_is_100() {
    let ws = Ws::new();
    for i in 0..120 {
        ws.write(&format!("d/f{i:03}.txt"), "hit\n");
    }
    let out = ws.run(&["grep", "hit"]);
    let lines = out.lines();
    assert_eq!(lines.len(), 101);
    assert_eq!(lines[100], "(20 more files not shown)");
}

#[test]
fn smart_case_and_explicit_case() {
    let ws = three_files();
    assert_eq!(
        ws.run(&["grep", "needle"]).lines().len(),
        3,
        "lower case: any case"
    );
    assert_eq!(
        ws.run(&["grep", "Needle"]).ok(),
        "c.txt\n",
        "an upper-case letter: exact"
    );
    assert_eq!(
        ws.run(&["grep", "needle", "--case", "sensitive"]).ok(),
        "b.txt\na.txt\n"
    );
    assert_eq!(
        ws.run(&["grep", "NEEDLE", "--case", "insensitive"])
            .lines()
            .len(),
        3
    );
    // An escape like \S is not an upper-case letter.
    assert_eq!(ws.run(&["grep", r"needle\S"]).ok(), "No matches found.\n");
    assert_eq!(ws.run(&["grep", r"needle\s\S"]).lines().len(), 3);
}

#[test]
fn fixed_strings_and_regex() {
    let ws = Ws::new();
    ws.write("a.txt", "a.b\n").write("b.txt", "axb\n");
    ws.set_mtime("a.txt", 1_000).set_mtime("b.txt", 2_000);
    assert_eq!(ws.run(&["grep", "a.b"]).ok(), "b.txt\na.txt\n");
    assert_eq!(
        ws.run(&["grep", "a.b", "--fixed-strings", "true"]).ok(),
        "a.txt\n"
    );
    // A literal with regex syntax in it is fine with fixed_strings.
    ws.write("c.txt", "call(x\n");
    assert_eq!(
        ws.run(&["grep", "call(", "--fixed-strings", "true"]).ok(),
        "c.txt\n"
    );
}

#[test]
fn invalid_regex_quotes_the_engine() {
    let ws = three_files();
    let out = ws.run(&["grep", "call("]);
    out.code(2);
    assert!(out.out.is_empty());
    assert!(
        out.err
            .starts_with("Error: invalid regex: regex parse error:"),
        "{}",
        out.err
    );
    assert!(
        out.err.contains("    call("),
        "the pattern as written: {}",
        out.err
    );
    assert!(out.err.contains("unclosed group"), "{}", out.err);
    let out = ws.run(&["grep", "a\\nb"]);
    out.code(2);
    assert!(out.err.contains("multiline: true"), "{}", out.err);
}

#[test]
fn multiline_matches_span_lines() {
    let ws = Ws::new();
    ws.write("s.rs", "struct A {\n    x: u8,\n}\nstruct B;\n");
    let out = ws.call(
        "grep",
        &json!({"pattern": r"struct A \{.*?\}", "multiline": true, "output": "content"}),
    );
    assert_eq!(out.ok(), "s.rs:1:struct A {\ns.rs:2:    x: u8,\ns.rs:3:}\n");
    let out = ws.call(
        "grep",
        &json!({"pattern": r"x: u8,\n\}", "multiline": true, "output": "count"}),
    );
    assert_eq!(out.ok(), "s.rs:2\n");
}

#[test]
fn context_lines_and_group_separators() {
    let ws = Ws::new();
    ws.write("c.txt", "a\nb\nMATCH\nd\ne\nf\ng\nh\nMATCH\nj\n")
        .write("d.txt", "x\nMATCH here\n");
    ws.set_mtime("c.txt", 1_000).set_mtime("d.txt", 2_000);
    let out = ws.call(
        "grep",
        &json!({"pattern": "MATCH", "output": "content", "context": 1}),
    );
    assert_eq!(
        out.ok(),
        "d.txt-1-x\nd.txt:2:MATCH here\n--\nc.txt-2-b\nc.txt:3:MATCH\nc.txt-4-d\n--\nc.txt-8-h\nc.txt:9:MATCH\nc.txt-10-j\n"
    );
    // Overlapping context merges into one group.
    let out = ws.call(
        "grep",
        &json!({"pattern": "MATCH", "path": "c.txt", "output": "content", "context": 3}),
    );
    assert_eq!(
        out.ok(),
        "c.txt-1-a\nc.txt-2-b\nc.txt:3:MATCH\nc.txt-4-d\nc.txt-5-e\nc.txt-6-f\nc.txt-7-g\nc.txt-8-h\nc.txt:9:MATCH\nc.txt-10-j\n"
    );
    // Cut at the limit: the last shown match keeps its after-context only.
    let out = ws.call(
        "grep",
        &json!({"pattern": "MATCH", "path": "c.txt", "output": "content", "context": 1, "limit": 1}),
    );
    assert_eq!(
        out.ok(),
        "c.txt-2-b\nc.txt:3:MATCH\nc.txt-4-d\n(1 more matching line not shown)\n"
    );
}

#[test]
fn context_needs_content_output() {
    let ws = three_files();
    let out = ws.call("grep", &json!({"pattern": "needle", "context": 2}));
    out.code(2);
    assert!(
        out.err
            .contains("context applies to output \"content\" only"),
        "{}",
        out.err
    );
}

#[test]
fn long_lines_are_cut_like_read_file_and_crlf_is_not_shown() {
    let ws = Ws::new();
    let long = format!("needle {}", "é".repeat(400));
    ws.write("l.txt", format!("{long}\r\nneedle short\r\n"));
    let out = ws.run(&["grep", "needle", "--output", "content"]);
    let lines = out.lines();
    let kept = "needle ".len() + 2 * 246; // 499 bytes: the next char would cross 500
    assert_eq!(
        lines[0],
        format!(
            "l.txt:1:{} [… {} more bytes]",
            &long[..kept],
            long.len() - kept
        )
    );
    assert_eq!(lines[1], "l.txt:2:needle short");
}

/// `$` matches before a CRLF line end too (grep-regex's crlf mode) in a line-by-line search;
/// the line shown has no `\r`.
#[test]
fn dollar_matches_at_a_crlf_line_end() {
    let ws = Ws::new();
    ws.write("crlf.txt", "line one\r\nindented more\r\nmore or less\r\n");
    let out = ws.run(&["grep", "more$", "crlf.txt", "--output", "content"]);
    assert_eq!(out.ok(), "crlf.txt:2:indented more\n");
    let out = ws.run(&["grep", "^indented more$", "crlf.txt", "--output", "count"]);
    assert_eq!(out.ok(), "crlf.txt:1\n");
}

#[test]
fn binary_files_are_skipped() {
    let ws = Ws::new();
    ws.write("text.txt", "needle\n")
        .write("prog.bin", b"needle\0\x01\x02");
    let mut late = "needle\n".repeat(20_000).into_bytes();
    late.extend(b"\0tail");
    ws.write("late.bin", &late);
    assert_eq!(
        ws.run(&["grep", "needle", "--output", "count"]).ok(),
        "text.txt:1\n"
    );
    let out = ws.run(&["grep", "needle", "prog.bin"]);
    assert_eq!(
        out.ok(),
        "No matches found.\n(prog.bin is a binary file; it was not searched)\n"
    );
}

#[test]
fn utf16_files_are_searched_decoded() {
    let ws = Ws::new();
    let text: Vec<u8> = "first\r\nneedle é\r\n"
        .encode_utf16()
        .flat_map(|u| u.to_le_bytes())
        .collect();
    ws.write("w.txt", [&b"\xFF\xFE"[..], &text].concat());
    let out = ws.run(&["grep", "needle", "--output", "content"]);
    assert_eq!(out.ok(), "w.txt:2:needle é\n");
}

#[test]
fn no_matches_is_a_job_done() {
    let ws = three_files();
    let out = ws.run(&["grep", "zebra"]);
    assert_eq!(out.ok(), "No matches found.\n");
}

#[test]
fn names_section_ranks_file_names_and_can_be_turned_off() {
    let ws = Ws::new();
    ws.write("src/config.rs", "fn load() {}\n")
        .write("src/app_config_test.rs", "use config;\n")
        .write("config_loader.rs", "")
        .write("deep/er/config", "")
        .write("readme.md", "the config file\n");
    for f in ["src/app_config_test.rs", "readme.md"] {
        ws.set_mtime(f, 1_000);
    }
    ws.set_mtime("readme.md", 2_000);
    let out = ws.run(&["grep", "config"]);
    assert_eq!(
        out.ok(),
        "readme.md\nsrc/app_config_test.rs\n\nFiles whose names match:\nsrc/config.rs\ndeep/er/config\nconfig_loader.rs\nsrc/app_config_test.rs\n"
    );
    let out = ws.run(&["grep", "config", "--names", "false"]);
    assert_eq!(out.ok(), "readme.md\nsrc/app_config_test.rs\n");
    // Names are listed even when no content matches; case follows `case`.
    let out = ws.run(&["grep", "Loader"]);
    assert_eq!(out.ok(), "No matches found.\n");
    let out = ws.run(&["grep", "loader"]);
    assert_eq!(
        out.ok(),
        "No matches found.\n\nFiles whose names match:\nconfig_loader.rs\n"
    );
}

#[test]
fn names_section_shows_at_most_ten() {
    let ws = Ws::new();
    for i in 0..15 {
        ws.write(&format!("widget_{i:02}.rs"), "");
    }
    let out = ws.run(&["grep", "widget"]);
    let lines = out.lines();
    assert_eq!(lines[0], "No matches found.");
    assert_eq!(lines[2], "Files whose names match:");
    assert_eq!(lines.len(), 3 + 10);
    assert_eq!(lines[3], "widget_00.rs");
}

#[test]
fn include_filters_file_names() {
    let ws = Ws::new();
    ws.write("a.ts", "hit\n")
        .write("b.tsx", "hit\n")
        .write("c.js", "hit\n")
        .write("src/d.ts", "hit\n");
    let mut got: Vec<String> = ws
        .run(&["grep", "hit", "--include", "*.{ts,tsx}"])
        .lines()
        .iter()
        .map(|s| s.to_string())
        .collect();
    got.sort();
    assert_eq!(got, ["a.ts", "b.tsx", "src/d.ts"]);
    let out = ws.run(&["grep", "hit", "--include", "src/*.ts"]);
    assert_eq!(out.ok(), "src/d.ts\n");
    let out = ws.run(&["grep", "hit", "--include", "[oops"]);
    out.code(2);
    assert!(out.err.contains("invalid include"), "{}", out.err);
}

#[test]
fn hidden_ignored_and_a_file_named_exactly() {
    let ws = Ws::new();
    ws.write(".gitignore", "gen/\n")
        .write("gen/out.rs", "hit\n")
        .write(".hidden/h.rs", "hit\n")
        .write("main.rs", "hit\n")
        .write(".git/COMMIT_EDITMSG", "hit\n");
    assert_eq!(ws.run(&["grep", "hit"]).ok(), "main.rs\n");
    let mut got: Vec<String> = ws
        .run(&["grep", "hit", "--hidden", "true", "--ignored", "true"])
        .lines()
        .iter()
        .map(|s| s.to_string())
        .collect();
    got.sort();
    assert_eq!(
        got,
        [".hidden/h.rs", "gen/out.rs", "main.rs"],
        ".git is never searched"
    );
    // Named exactly: searched although ignored.
    assert_eq!(ws.run(&["grep", "hit", "gen/out.rs"]).ok(), "gen/out.rs\n");
    assert_eq!(ws.run(&["grep", "hit", "gen"]).ok(), "gen/out.rs\n");
}

#[test]
fn symlinks_are_not_followed() {
    let ws = Ws::new();
    ws.write("real/a.txt", "hit\n")
        .symlink("real", "alias")
        .symlink("real/a.txt", "link.txt");
    assert_eq!(ws.run(&["grep", "hit"]).ok(), "real/a.txt\n");
    // A symlink given as the path is resolved by the policy and shown as spelled.
    assert_eq!(ws.run(&["grep", "hit", "link.txt"]).ok(), "link.txt\n");
}

#[test]
fn bad_paths_and_limits() {
    let ws = three_files();
    let out = ws.run(&["grep", "x", "missing"]);
    out.code(1);
    assert_eq!(out.out, "Error: missing does not exist\n");
    for limit in ["0", "2001"] {
        let out = ws.run(&["grep", "x", "--limit", limit]);
        out.code(2);
    }
    let out = ws.call("grep", &json!({"pattern": "x", "output": "lines"}));
    out.code(2);
    assert!(
        out.err
            .contains("/output: expected one of \"files\", \"content\", \"count\", got \"lines\""),
        "{}",
        out.err
    );
}

#[test]
fn json_fields() {
    let ws = three_files();
    let out = ws.run(&["--json", "grep", "needle", "--output", "count"]);
    let v: serde_json::Value = serde_json::from_str(out.ok()).unwrap();
    assert_eq!(v["files"], 3);
    assert_eq!(v["matches"], 4);
    assert_eq!(v["output"], "c.txt:1\nb.txt:2\na.txt:1\n");
}
