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
