//! The guards every text-writing tool shares (issue 9, defects 1 and 5): content that elides
//! code with a placeholder comment is refused whatever the size ratio, and a binary file is
//! named as such instead of being sent round the "read it first" loop.

mod common;
use common::*;
use serde_json::json;

/// A Rust file of `n` small functions, one per 3 lines.
fn rust_file(n: usize) -> String {
    (0..n)
        .map(|i| format!("fn f{i}() -> u32 {{\n    {i}\n}}\n"))
        .collect()
}

fn read(ws: &Ws, rel: &str) {
    ws.run(&["read-file", rel]).ok();
}

// ---- defect 1: placeholders ----

#[test]
fn write_file_refuses_a_placeholder_that_drops_code_whatever_the_ratio() {
    let ws = Ws::new();
    let old = rust_file(150); // 450 lines
    ws.write("src/big.rs", &old);
    read(&ws, "src/big.rs");
    // The first 60 % of the file plus a placeholder: more than half the size, still elided.
    let kept: String = old.lines().take(270).map(|l| format!("{l}\n")).collect();
    let new = format!("{kept}// ... rest of the file unchanged\n");
    assert!(new.len() * 2 > old.len());
    let r = ws.call("write_file", &json!({"path": "src/big.rs", "content": new}));
    r.code(1);
    assert!(r.out.contains("line 271"), "{}", r.out);
    assert!(
        r.out.contains("// ... rest of the file unchanged"),
        "{}",
        r.out
    );
    assert!(r.out.contains("allow_placeholders"), "{}", r.out);
    assert_eq!(ws.read("src/big.rs"), old.as_bytes(), "nothing written");
    // allow_placeholders writes it anyway.
    let r = ws.call(
        "write_file",
        &json!({"path": "src/big.rs", "content": new, "allow_placeholders": true}),
    );
    r.code(0);
    assert_eq!(ws.read("src/big.rs"), new.as_bytes());
}

#[test]
fn write_file_placeholder_false_positives_stay_low() {
    let ws = Ws::new();
    // A placeholder line the old text already had passes, even when lines go.
    let old = "fn a() {}\n// ...\nfn b() {}\nfn c() {}\n";
    ws.write("a.rs", old);
    read(&ws, "a.rs");
    ws.call(
        "write_file",
        &json!({"path": "a.rs", "content": "fn a() {}\n// ...\nfn b() {}\n"}),
    )
    .code(0);
    // A write that removes nothing passes, placeholder or not.
    let old = "fn a() {}\nfn b() {}\n";
    ws.write("b.rs", old);
    read(&ws, "b.rs");
    ws.call(
        "write_file",
        &json!({"path": "b.rs", "content": "fn a() {}\n// ... existing code ...\nfn b() {}\n"}),
    )
    .code(0);
    // Ordinary comments that mention "rest of" or "unchanged" are not placeholders.
    let old = "fn a() {}\nfn b() {}\n";
    ws.write("c.rs", old);
    read(&ws, "c.rs");
    ws.call(
        "write_file",
        &json!({"path": "c.rs", "content": "// TODO: handle the rest of the input\n// Returns the input unchanged\nfn a() {}\n"}),
    )
    .code(0);
    // A new file is written as given.
    ws.call(
        "write_file",
        &json!({"path": "new.rs", "content": "// ...\n"}),
    )
    .code(0);
}

#[test]
fn edit_file_refuses_a_new_text_that_elides_old_lines() {
    let ws = Ws::new();
    let old = "def f():\n    a = 1\n    b = 2\n    return a + b\n";
    ws.write("m.py", old);
    read(&ws, "m.py");
    let args = json!({
        "path": "m.py",
        "old": "    a = 1\n    b = 2\n    return a + b\n",
        "new": "    # ... existing code ...\n    return a + b + 1\n",
    });
    let r = ws.call("edit_file", &args);
    r.code(1);
    assert!(r.out.contains("# ... existing code ..."), "{}", r.out);
    assert!(r.out.contains("line 1 of new"), "{}", r.out);
    assert_eq!(ws.read("m.py"), old.as_bytes());
    // Inside an edits list, the edit is named.
    let list = json!({"path": "m.py", "edits": [
        {"old": "a = 1", "new": "a = 10"},
        {"old": "    b = 2\n", "new": "    # rest of the code unchanged\n"},
    ]});
    let r = ws.call("edit_file", &list);
    r.code(1);
    assert!(r.out.contains("edit 2 of 2"), "{}", r.out);
    let mut allowed = args.clone();
    allowed["allow_placeholders"] = json!(true);
    ws.call("edit_file", &allowed).code(0);
}

#[test]
fn edit_file_passes_placeholders_that_are_not_elisions() {
    let ws = Ws::new();
    ws.write("m.py", "x = 1\n# ...\ny = 2\n");
    read(&ws, "m.py");
    // The placeholder is in old too.
    ws.call(
        "edit_file",
        &json!({"path": "m.py", "old": "x = 1\n# ...\ny = 2\n", "new": "# ...\ny = 2\n"}),
    )
    .code(0);
    // Nothing of old is removed: old's line is kept and a comment added.
    ws.call(
        "edit_file",
        &json!({"path": "m.py", "old": "y = 2\n", "new": "y = 2\n# ...\n"}),
    )
    .code(0);
}

#[test]
fn apply_patch_refuses_added_placeholders_that_replace_removed_lines() {
    let ws = Ws::new();
    let old = "<ul>\n  <li>one</li>\n  <li>two</li>\n  <li>three</li>\n</ul>\n";
    ws.write("list.html", old);
    read(&ws, "list.html");
    let patch = "*** Begin Patch\n*** Update File: list.html\n@@\n <ul>\n-  <li>one</li>\n-  <li>two</li>\n+  <!-- ... -->\n   <li>three</li>\n*** End Patch\n";
    let r = ws.call("apply_patch", &json!({"input": patch}));
    r.code(1);
    assert!(r.out.contains("<!-- ... -->"), "{}", r.out);
    assert!(r.out.contains("list.html"), "{}", r.out);
    assert!(r.out.contains("patch line 7"), "{}", r.out);
    assert_eq!(ws.read("list.html"), old.as_bytes());
    // Adding a placeholder without removing anything passes; so does allow_placeholders.
    let adding = "*** Begin Patch\n*** Update File: list.html\n@@\n <ul>\n+  <!-- ... -->\n   <li>one</li>\n*** End Patch\n";
    ws.call("apply_patch", &json!({"input": adding, "dry_run": true}))
        .code(0);
    ws.call(
        "apply_patch",
        &json!({"input": patch, "allow_placeholders": true}),
    )
    .code(0);
    assert!(
        String::from_utf8(ws.read("list.html"))
            .unwrap()
            .contains("<!-- ... -->")
    );
}

// ---- defect 5: binary files ----

#[test]
fn binary_files_are_named_before_the_read_first_gate() {
    let ws = Ws::new();
    let bin = b"\x7fELF\x00\x01\x02binary\n".to_vec();
    ws.write("bin.dat", &bin);
    // read-file says binary; every write tool must say the same, not "read it first".
    let r = ws.run(&["read-file", "bin.dat"]);
    r.code(1);
    assert!(r.out.contains("is a binary file"), "{}", r.out);
    for (tool, args) in [
        (
            "edit_file",
            json!({"path": "bin.dat", "old": "binary", "new": "text"}),
        ),
        (
            "edit_lines",
            json!({"edits": [{"path": "bin.dat", "from_anchor": "1:00", "replace": "x"}]}),
        ),
        (
            "write_file",
            json!({"path": "bin.dat", "content": "text\n"}),
        ),
        (
            "apply_patch",
            json!({"input": "*** Begin Patch\n*** Update File: bin.dat\n@@\n-binary\n+text\n*** End Patch\n"}),
        ),
        (
            "apply_patch",
            json!({"input": "*** Begin Patch\n*** Delete File: bin.dat\n*** End Patch\n"}),
        ),
    ] {
        let r = ws.call(tool, &args);
        r.code(1);
        assert!(
            r.out.contains("bin.dat is a binary file"),
            "{tool}: {}",
            r.out
        );
        assert!(!r.out.contains("before editing"), "{tool}: {}", r.out);
        assert_eq!(ws.read("bin.dat"), bin, "{tool} wrote");
    }
    // write_file's refusal says why it will not replace it and what to do instead.
    let r = ws.call(
        "write_file",
        &json!({"path": "bin.dat", "content": "text\n"}),
    );
    assert!(r.out.contains("ask the user"), "{}", r.out);
}

#[test]
fn write_file_replaces_a_binary_file_only_with_freshness_off() {
    let ws = Ws::new();
    ws.write("bin.dat", b"\x00\x01\x02");
    let out = ws
        .cmd()
        .args(["--no-freshness", "--groups", "all", "call", "write_file"])
        .write_stdin(json!({"path": "bin.dat", "content": "now text\n"}).to_string())
        .output()
        .unwrap();
    let r = Run::from(out);
    r.code(0);
    assert_eq!(ws.read("bin.dat"), b"now text\n");
}
