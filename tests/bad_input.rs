//! Issue 3's list of bad input: each gets a clear error, the right exit status, and changes
//! no byte on disk (the whole workspace and a file outside it are compared before and after).

mod write_common;

use serde_json::{Value, json};
use write_common::{Ws, snapshot};

/// One bad call: files to lay down, files to read first, the call, what must come back.
struct Bad {
    name: &'static str,
    files: Vec<(&'static str, Vec<u8>)>,
    read_first: Vec<&'static str>,
    /// Runs after the reads and before the call (e.g. a change behind the agent's back).
    tamper: fn(&Ws),
    tool: &'static str,
    args: Value,
    exit: i32,
    says: &'static str,
}

fn none(_: &Ws) {}

fn text(s: &str) -> Vec<u8> {
    s.as_bytes().to_vec()
}

fn cases() -> Vec<Bad> {
    let base = || Bad {
        name: "",
        files: vec![("a.txt", text("one\ntwo\nthree\n"))],
        read_first: vec!["a.txt"],
        tamper: none,
        tool: "edit_file",
        args: json!({}),
        exit: 1,
        says: "",
    };
    vec![
        Bad {
            name: "never read (edit_file)",
            read_first: vec![],
            args: json!({"path": "a.txt", "old": "two", "new": "2"}),
            says: "read a.txt before editing it",
            ..base()
        },
        Bad {
            name: "never read (write_file overwrite)",
            read_first: vec![],
            tool: "write_file",
            args: json!({"path": "a.txt", "content": "x\n"}),
            says: "read a.txt before editing it",
            ..base()
        },
        Bad {
            name: "never read (delete_path)",
            read_first: vec![],
            tool: "delete_path",
            args: json!({"path": "a.txt"}),
            says: "read a.txt before",
            ..base()
        },
        Bad {
            name: "never read (edit_lines)",
            read_first: vec![],
            tool: "edit_lines",
            args: json!({"edits": [{"path": "a.txt", "from_anchor": "2:07", "replace": "x"}]}),
            says: "read a.txt with read-file --anchors",
            ..base()
        },
        Bad {
            name: "stale (edit_file)",
            tamper: |ws| ws.write("a.txt", "one\ntwo\nthree\nfour\n"),
            args: json!({"path": "a.txt", "old": "two", "new": "2"}),
            says: "a.txt changed since you last read it",
            ..base()
        },
        Bad {
            name: "stale (delete_path)",
            tamper: |ws| ws.write("a.txt", "ONE\ntwo\nthree\n"),
            tool: "delete_path",
            args: json!({"path": "a.txt"}),
            says: "changed since you last read it",
            ..base()
        },
        Bad {
            name: "binary file",
            files: vec![("b.bin", b"PK\x03\x04\x00\x00two\x00".to_vec())],
            read_first: vec![],
            args: json!({"path": "b.bin", "old": "two", "new": "2"}),
            // Named as binary before the freshness gate, which no read could satisfy.
            says: "b.bin is a binary file (10 bytes) (edit_file, edit_lines and apply_patch change text files only",
            ..base()
        },
        Bad {
            name: "binary file, freshness off",
            files: vec![("b.bin", b"PK\x03\x04\x00\x00two\x00".to_vec())],
            read_first: vec![],
            tool: "edit_file --no-freshness",
            args: json!({"path": "b.bin", "old": "two", "new": "2"}),
            says: "b.bin is a binary file (10 bytes)",
            ..base()
        },
        Bad {
            name: "Latin-1 file",
            files: vec![("l.txt", b"caf\xe9 = 1\n".to_vec())],
            read_first: vec![],
            tool: "edit_file --no-freshness",
            args: json!({"path": "l.txt", "old": "= 1", "new": "= 2"}),
            says: "is not UTF-8, UTF-16/32 with a BOM, or GBK; it was left untouched",
            ..base()
        },
        Bad {
            name: "Shift-JIS file without BOM",
            // x = 'ｱ'; in Shift-JIS: the half-width katakana byte B1 followed by a quote is not
            // GBK either.
            files: vec![("s.txt", b"x = '\xb1';\ny = 1\n".to_vec())],
            read_first: vec![],
            tool: "edit_file --no-freshness",
            args: json!({"path": "s.txt", "old": "y = 1", "new": "y = 2"}),
            says: "it was left untouched",
            ..base()
        },
        Bad {
            name: "ambiguous old",
            files: vec![("a.txt", text("x = 1\ny = 2\nx = 1\n"))],
            args: json!({"path": "a.txt", "old": "x = 1", "new": "x = 3"}),
            says: "old matches 2 places: lines 1, 3; add context or pass all",
            ..base()
        },
        Bad {
            name: "missing old",
            args: json!({"path": "a.txt", "old": "four", "new": "4"}),
            says: "old text not found in a.txt",
            ..base()
        },
        Bad {
            name: "one edit of a list misses",
            args: json!({"path": "a.txt", "edits": [
                {"old": "one", "new": "1"}, {"old": "nine", "new": "9"}]}),
            says: "edit 2 of 2: old text not found",
            ..base()
        },
        Bad {
            name: "old == new",
            args: json!({"path": "a.txt", "old": "two", "new": "two"}),
            exit: 2,
            says: "old and new are identical",
            ..base()
        },
        Bad {
            name: "empty old",
            args: json!({"path": "a.txt", "old": "", "new": "x"}),
            exit: 2,
            says: "old is empty",
            ..base()
        },
        Bad {
            name: "overlapping anchored edits",
            tool: "edit_lines",
            args: json!({"edits": [
                {"path": "a.txt", "from_anchor": "1:00", "to_anchor": "2:00", "replace": "x"},
                {"path": "a.txt", "from_anchor": "2:00", "replace": "y"}]}),
            exit: 2,
            says: "overlap",
            ..base()
        },
        Bad {
            name: "anchor out of range",
            tool: "edit_lines",
            args: json!({"edits": [{"path": "a.txt", "from_anchor": "9:00", "replace": "x"}]}),
            says: "line 9 is past the end of the file (3 lines)",
            ..base()
        },
        Bad {
            name: "protected name (write_file)",
            files: vec![(".git/config", text("[core]\n"))],
            read_first: vec![],
            tool: "write_file",
            args: json!({"path": ".git/config", "content": "x"}),
            says: "inside .git",
            ..base()
        },
        Bad {
            name: "protected name (edit_file)",
            files: vec![(".git/config", text("[core]\n"))],
            read_first: vec![".git/config"],
            args: json!({"path": ".git/config", "old": "core", "new": "x"}),
            says: "inside .git",
            ..base()
        },
        Bad {
            name: "protected name (delete_path)",
            files: vec![(".git/HEAD", text("ref\n"))],
            read_first: vec![],
            tool: "delete_path",
            args: json!({"path": ".git", "recursive": true}),
            says: ".git is protected: agtool never writes, moves into or deletes .git",
            ..base()
        },
        Bad {
            name: "protected name inside a directory (delete_path)",
            files: vec![("sub/.git/HEAD", text("ref\n")), ("sub/a.txt", text("a\n"))],
            read_first: vec![],
            tool: "delete_path",
            args: json!({"path": "sub", "recursive": true}),
            says: "never deletes",
            ..base()
        },
        Bad {
            name: "outside the workspace",
            tool: "write_file",
            args: json!({"path": "../outside.txt", "content": "x"}),
            says: "is outside the workspace",
            ..base()
        },
        Bad {
            name: "dangling symlink pointing out",
            files: vec![],
            read_first: vec![],
            tamper: |ws| {
                std::os::unix::fs::symlink(ws.base.join("new-outside.txt"), ws.path("d.txt"))
                    .unwrap()
            },
            tool: "write_file",
            args: json!({"path": "d.txt", "content": "x"}),
            says: "d.txt is a symlink to ",
            ..base()
        },
        Bad {
            name: "symlink to a file outside (edit_file)",
            read_first: vec![],
            tamper: |ws| {
                std::os::unix::fs::symlink(ws.base.join("outside.txt"), ws.path("o.txt")).unwrap()
            },
            args: json!({"path": "o.txt", "old": "secret", "new": "x"}),
            says: "o.txt is a symlink to ",
            ..base()
        },
        Bad {
            name: "overwrite false",
            tool: "write_file",
            args: json!({"path": "a.txt", "content": "x\n", "overwrite": false}),
            says: "a.txt exists",
            ..base()
        },
        Bad {
            name: "size guard",
            tool: "write_file",
            args: json!({"path": "a.txt", "content": "x\n", "expected_size": 3}),
            says: "stale",
            ..base()
        },
        Bad {
            name: "mtime guard",
            tool: "write_file",
            args: json!({"path": "a.txt", "content": "x\n", "expected_mtime": 1}),
            says: "stale",
            ..base()
        },
        Bad {
            name: "directory given as a file (edit_file)",
            files: vec![("dir/x.txt", text("x\n"))],
            read_first: vec![],
            args: json!({"path": "dir", "old": "x", "new": "y"}),
            says: "dir is a directory, not a file",
            ..base()
        },
        Bad {
            name: "directory given as a file (write_file)",
            files: vec![("dir/x.txt", text("x\n"))],
            read_first: vec![],
            tool: "write_file",
            args: json!({"path": "dir", "content": "y"}),
            says: "is a directory",
            ..base()
        },
        Bad {
            name: "non-empty directory without recursive",
            files: vec![("dir/x.txt", text("x\n"))],
            read_first: vec![],
            tool: "delete_path",
            args: json!({"path": "dir"}),
            says: "pass recursive: true",
            ..base()
        },
        Bad {
            name: "workspace root",
            tool: "delete_path",
            args: json!({"path": ".", "recursive": true}),
            says: "workspace root",
            ..base()
        },
        Bad {
            name: "syntax made worse (edit_file)",
            files: vec![("c.json", text("{\"a\": 1,\n \"b\": 2}\n"))],
            read_first: vec!["c.json"],
            args: json!({"path": "c.json", "old": "\"b\": 2}", "new": "\"b\": 2"}),
            says: "c.json",
            ..base()
        },
        Bad {
            name: "syntax made worse (edit_lines)",
            files: vec![("m.rs", text("fn main() {\n    let x = 1;\n}\n"))],
            read_first: vec!["m.rs"],
            tool: "edit_lines",
            args: json!({"edits": [{"path": "m.rs", "from_anchor": anchor_of(3, "}"), "replace": ""}]}),
            says: "m.rs",
            ..base()
        },
        Bad {
            name: "edit of a missing file",
            files: vec![],
            read_first: vec![],
            args: json!({"path": "nope.txt", "old": "a", "new": "b"}),
            says: "nope.txt does not exist; create it with write_file",
            ..base()
        },
        Bad {
            name: "both old/new and edits",
            args: json!({"path": "a.txt", "old": "one", "new": "1", "edits": [{"old": "two", "new": "2"}]}),
            exit: 2,
            says: "either old and new, or edits",
            ..base()
        },
        Bad {
            name: "malformed anchor",
            tool: "edit_lines",
            args: json!({"edits": [{"path": "a.txt", "from_anchor": "two", "replace": "x"}]}),
            exit: 2,
            says: "is not an anchor like 12:ab",
            ..base()
        },
        Bad {
            name: "multi-file edit-lines with one stale file writes neither",
            files: vec![("a.txt", text("one\ntwo\n")), ("b.txt", text("uno\ndos\n"))],
            read_first: vec!["a.txt", "b.txt"],
            tool: "edit_lines",
            args: json!({"edits": [
                {"path": "a.txt", "from_anchor": anchor_of(1, "one"), "replace": "ONE"},
                {"path": "b.txt", "from_anchor": "2:00", "replace": "DOS"}]}),
            says: "b.txt 2:00",
            ..base()
        },
    ]
}

fn anchor_of(n: usize, line: &str) -> String {
    let mut h: u32 = 0x811C_9DC5;
    for b in line.bytes() {
        h = (h ^ u32::from(b)).wrapping_mul(0x0100_0193);
    }
    format!("{n}:{:02x}", h & 0xFF)
}

fn run_bad(b: &Bad) -> Result<(), String> {
    let ws = Ws::new();
    std::fs::write(ws.base.join("outside.txt"), "secret\n").unwrap();
    for (name, bytes) in &b.files {
        ws.write(name, bytes);
    }
    for r in &b.read_first {
        ws.read(r);
    }
    (b.tamper)(&ws);
    let before = snapshot(&ws.root);
    let mut words = b.tool.split(' ');
    let tool = words.next().unwrap();
    let extra: Vec<&str> = words.collect();
    let r = ws.call_as(tool, &b.args, &extra);
    let mut problems = Vec::new();
    if r.code != b.exit {
        problems.push(format!("exit {} (want {})", r.code, b.exit));
    }
    let out = format!("{}{}", r.stdout, r.stderr);
    if !out.contains(b.says) {
        problems.push(format!("message lacks {:?}", b.says));
    }
    if b.exit == 1 && !r.stdout.starts_with("Error: ") {
        problems.push("stdout does not start with `Error: `".to_owned());
    }
    if snapshot(&ws.root) != before {
        problems.push("the workspace changed".to_owned());
    }
    if std::fs::read(ws.base.join("outside.txt")).unwrap() != b"secret\n" {
        problems.push("the outside file changed".to_owned());
    }
    if ws.base.join("new-outside.txt").exists() {
        problems.push("a file was created outside".to_owned());
    }
    if problems.is_empty() {
        Ok(())
    } else {
        Err(format!("{}: {}\n{}", b.name, problems.join("; "), r.all()))
    }
}

#[test]
fn every_bad_input_is_refused_and_changes_nothing() {
    let failures: Vec<String> = cases().iter().filter_map(|b| run_bad(b).err()).collect();
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}
