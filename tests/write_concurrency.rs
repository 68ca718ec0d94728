//! Concurrent writers (spec 01, "Freshness gate": one per-file lock across gate, write and
//! registration): independent edits all land; edits racing from one read, exactly one lands.

mod write_common;

use std::process::{Child, Command, Stdio};

use agtool::fileio::fs::PathLock;
use write_common::Ws;

fn spawn_edit(ws: &Ws, path: &str, old: &str, new: &str) -> Child {
    let mut c: Command = ws.cmd();
    c.args(["edit-file", path, "--old", old, "--new", new])
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    c.spawn().unwrap()
}

fn finish(child: Child) -> (i32, String) {
    let out = child.wait_with_output().unwrap();
    (
        out.status.code().unwrap_or(-1),
        format!(
            "{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        ),
    )
}

#[test]
fn thirty_two_edits_of_thirty_two_files_all_land() {
    let ws = Ws::new();
    for i in 0..32 {
        ws.write(&format!("f{i}.txt"), format!("file {i}\nvalue = old\n"));
        ws.read(&format!("f{i}.txt"));
    }
    let children: Vec<Child> = (0..32)
        .map(|i| {
            spawn_edit(
                &ws,
                &format!("f{i}.txt"),
                "value = old",
                &format!("value = {i}"),
            )
        })
        .collect();
    for (i, c) in children.into_iter().enumerate() {
        let (code, out) = finish(c);
        assert_eq!(code, 0, "f{i}.txt: {out}");
    }
    for i in 0..32 {
        assert_eq!(
            ws.bytes(&format!("f{i}.txt")),
            format!("file {i}\nvalue = {i}\n").into_bytes()
        );
    }
}

#[test]
fn eight_edits_from_one_read_exactly_one_lands() {
    let ws = Ws::new();
    let original: String = (0..8).map(|i| format!("slot {i} = empty\n")).collect();
    ws.write("shared.txt", &original);
    ws.read("shared.txt");
    // Hold the file's write lock while the eight calls start, so that all of them are made
    // before any lands however the machine schedules them; then let them race.
    let lock = PathLock::acquire(&ws.path(".agent-state"), &ws.path("shared.txt")).unwrap();
    let children: Vec<Child> = (0..8)
        .map(|i| {
            spawn_edit(
                &ws,
                "shared.txt",
                &format!("slot {i} = empty"),
                &format!("slot {i} = taken"),
            )
        })
        .collect();
    std::thread::sleep(std::time::Duration::from_millis(1500));
    drop(lock);
    let results: Vec<(i32, String)> = children.into_iter().map(finish).collect();
    let winners: Vec<usize> = (0..8).filter(|&i| results[i].0 == 0).collect();
    assert_eq!(winners.len(), 1, "{results:#?}");
    for (i, (code, out)) in results.iter().enumerate() {
        if *code != 0 {
            assert_eq!(*code, 1, "{out}");
            assert!(
                out.contains("changed since you last read it"),
                "slot {i}: {out}"
            );
        }
    }
    let w = winners[0];
    let want = original.replace(&format!("slot {w} = empty"), &format!("slot {w} = taken"));
    assert_eq!(String::from_utf8(ws.bytes("shared.txt")).unwrap(), want);
}

fn anchor(n: usize, line: &str) -> String {
    let mut h: u32 = 0x811C_9DC5;
    for b in line.bytes() {
        h = (h ^ u32::from(b)).wrapping_mul(0x0100_0193);
    }
    format!("{n}:{:02x}", h & 0xFF)
}

#[test]
fn eight_anchored_edits_of_different_lines_from_one_read_all_land() {
    // Anchors are line-level freshness: each edit's own line is unchanged by the others, so
    // every one applies, one after the other under the file's lock, and none is lost.
    let ws = Ws::new();
    let original: String = (0..8).map(|i| format!("slot {i} = empty\n")).collect();
    ws.write("shared.txt", &original);
    ws.read("shared.txt");
    let children: Vec<Child> = (0..8)
        .map(|i| {
            let edits = serde_json::json!([{
                "path": "shared.txt",
                "from_anchor": anchor(i + 1, &format!("slot {i} = empty")),
                "replace": format!("slot {i} = taken"),
            }]);
            let mut c = ws.cmd();
            c.args(["edit-lines", "--edits", &edits.to_string()])
                .stdin(Stdio::null())
                .stdout(Stdio::piped())
                .stderr(Stdio::piped());
            c.spawn().unwrap()
        })
        .collect();
    for (i, c) in children.into_iter().enumerate() {
        let (code, out) = finish(c);
        assert_eq!(code, 0, "slot {i}: {out}");
    }
    let want: String = (0..8).map(|i| format!("slot {i} = taken\n")).collect();
    assert_eq!(String::from_utf8(ws.bytes("shared.txt")).unwrap(), want);
}
