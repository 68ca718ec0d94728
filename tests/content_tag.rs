//! The content tag (spec 01, "Content tag"): XXH3-64's top 32 bits over the raw bytes, the
//! same whichever tool computed it. read-file, write-file, edit-file and apply-patch each report
//! a tag; for the same bytes on disk they must all equal the tag a second, independent XXH3
//! implementation gives (`common::tag`), and each tool's tag must be accepted by the next
//! tool's freshness gate.

mod common;
use common::*;

fn json(run: &Run) -> serde_json::Value {
    serde_json::from_str(run.ok()).expect("a JSON envelope")
}

fn read_tag(ws: &Ws, rel: &str) -> String {
    json(&ws.run(&["--json", "read-file", rel]))["tag"]
        .as_str()
        .unwrap()
        .to_owned()
}

#[test]
fn read_write_edit_and_patch_agree_on_the_same_bytes() {
    let ws = Ws::new();
    ws.mkdir(".git");
    let a = "alpha\nbeta\n";
    let b = "alpha\ngamma\n";

    let wrote = json(&ws.run(&["--json", "write-file", "f.txt", "--content", a]));
    assert_eq!(ws.read("f.txt"), a.as_bytes());
    assert_eq!(wrote["tag"], tag(a.as_bytes()));
    assert_eq!(read_tag(&ws, "f.txt"), tag(a.as_bytes()));

    let edited = json(&ws.run(&[
        "--json",
        "edit-file",
        "f.txt",
        "--old",
        "beta",
        "--new",
        "gamma",
    ]));
    assert_eq!(ws.read("f.txt"), b.as_bytes());
    assert_eq!(edited["tag"], tag(b.as_bytes()));

    // The patch goes back to the first bytes: the same tag as the write gave them.
    let patch =
        "*** Begin Patch\n*** Update File: f.txt\n@@\n alpha\n-gamma\n+beta\n*** End Patch\n";
    let patched = json(
        &ws.cmd()
            .args(["--json", "apply-patch"])
            .write_stdin(patch)
            .output()
            .unwrap()
            .into(),
    );
    assert_eq!(ws.read("f.txt"), a.as_bytes());
    assert_eq!(patched["files"][0]["tag"], wrote["tag"]);
    assert_eq!(read_tag(&ws, "f.txt"), tag(a.as_bytes()));

    // Each tool registered what it reported: the next edit passes the gate without a read.
    let edited = json(&ws.run(&[
        "--json",
        "edit-file",
        "f.txt",
        "--old",
        "beta",
        "--new",
        "gamma",
    ]));
    assert_eq!(edited["tag"], tag(b.as_bytes()));
    let rewritten = json(&ws.run(&["--json", "write-file", "f.txt", "--content", a]));
    assert_eq!(rewritten["tag"], wrote["tag"]);
}

#[test]
fn crlf_utf16_and_large_files_get_the_tag_of_their_raw_bytes() {
    let ws = Ws::new();
    ws.mkdir(".git");
    let utf16: Vec<u8> = b"\xFF\xFE"
        .iter()
        .copied()
        .chain("one\r\ntwo\r\n".encode_utf16().flat_map(u16::to_le_bytes))
        .collect();
    // Over 256 KiB: several read chunks, and XXH3's long-input path.
    let big: String = (0..40_000).map(|i| format!("row {i}\n")).collect();
    for (name, bytes, old) in [
        ("crlf.txt", b"one\r\ntwo\r\n".to_vec(), "two"),
        ("u16.txt", utf16, "two"),
        ("big.txt", big.into_bytes(), "row 39999"),
    ] {
        ws.write(name, &bytes);
        assert_eq!(read_tag(&ws, name), tag(&bytes), "{name}");
        let edited = json(&ws.run(&["--json", "edit-file", name, "--old", old, "--new", "TWO"]));
        let after = ws.read(name);
        assert_ne!(after, bytes, "{name}");
        assert_eq!(edited["tag"], tag(&after), "{name}");
        assert_eq!(read_tag(&ws, name), tag(&after), "{name}");
    }
}

#[test]
fn a_changed_file_is_refused_by_its_tag() {
    let ws = Ws::new();
    ws.mkdir(".git");
    ws.write("f.txt", "same length A\n");
    ws.run(&["read-file", "f.txt"]).ok();
    // Same length, one byte different: a content hash catches it.
    ws.write("f.txt", "same length B\n");
    let out = ws.run(&["edit-file", "f.txt", "--old", "same", "--new", "other"]);
    out.code(1);
    assert!(
        out.out.contains(&format!(
            "(tag {}, now {})",
            tag(b"same length A\n"),
            tag(b"same length B\n")
        )),
        "{}",
        out.out
    );
}

/// `[path#TAG]` is one line whatever the name holds: a newline in a name is printed as `\x0a`
/// (the spelling list-dir uses), after read, write, edit, edit-lines and notebook edits alike,
/// and that spelling names the file again (issue 18 §5).
#[test]
fn a_tag_reference_of_a_name_with_a_newline_stays_on_one_line() {
    let ws = Ws::new();
    let raw = "odd\nname.txt";
    let printed = "odd\\x0aname.txt";
    ws.write(raw, "one\ntwo\n");
    let first_line = |run: &Run| run.ok().lines().next().unwrap_or("").to_owned();
    let read = ws.run(&["read-file", raw]);
    let t1 = tag(b"one\ntwo\n");
    assert_eq!(
        first_line(&read),
        format!("[{printed}#{t1}]"),
        "{}",
        read.out
    );
    // The printed spelling is a path that names the same file.
    let again = ws.run(&["read-file", printed]);
    assert_eq!(first_line(&again), format!("[{printed}#{t1}]"));
    let edit = ws.run(&["edit-file", raw, "--old", "two", "--new", "three"]);
    let t2 = tag(b"one\nthree\n");
    assert!(
        first_line(&edit).starts_with(&format!("Edited [{printed}#{t2}] (")),
        "{}",
        edit.out
    );
    let write = ws.run(&["write-file", printed, "--content", "four\n"]);
    let t3 = tag(b"four\n");
    assert!(
        first_line(&write).starts_with(&format!("Wrote [{printed}#{t3}] (")),
        "{}",
        write.out
    );
    assert_eq!(ws.read(raw), b"four\n");
}

/// notebook-edit spells its tag as every other edit does: `Edited [path#TAG] (...)`.
#[test]
fn notebook_edit_spells_the_tag_like_the_other_edits() {
    let ws = Ws::new();
    let nb = r#"{"cells":[{"cell_type":"code","id":"c1","metadata":{},"source":["x = 1\n"],"outputs":[],"execution_count":null}],"metadata":{},"nbformat":4,"nbformat_minor":5}"#;
    ws.write("nb.ipynb", nb);
    ws.run(&["read-file", "nb.ipynb"]).ok();
    let edit = ws.run(&[
        "--groups",
        "all",
        "notebook-edit",
        "nb.ipynb",
        "--cell",
        "c1",
        "--source",
        "x = 2",
    ]);
    let out = edit.ok();
    let after = ws.read("nb.ipynb");
    assert!(
        out.starts_with(&format!("Edited [nb.ipynb#{}] (", tag(&after))),
        "{out}"
    );
}
