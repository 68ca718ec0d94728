//! apply-patch through the real binary: argument paths, `--json`, freshness registration,
//! restore after a failed write, modes and symlinks (spec 04 "Applying" and "Output").

use std::os::unix::fs::{PermissionsExt, symlink};
use std::path::Path;

mod apply_patch_common;
use apply_patch_common::{agtool, lock_dir, patch, read, unlock_dir, workspace};
use predicates::prelude::*;
use serde_json::Value;

fn content(root: &Path, path: &str) -> String {
    std::fs::read_to_string(root.join(path)).unwrap()
}

#[test]
fn input_file_flag_args_json_and_call_give_the_same_result() {
    for way in 0..4 {
        let (_t, root) = workspace(&[("a.txt", "one\n")]);
        read(&root, "a.txt");
        let text = patch("*** Update File: a.txt\n-one\n+two\n");
        let mut cmd = agtool(&root);
        match way {
            0 => {
                std::fs::write(root.join("fix.patch"), &text).unwrap();
                cmd.args(["apply-patch", "--input", "fix.patch"]);
            }
            1 => {
                let args = serde_json::json!({ "input": text }).to_string();
                cmd.args(["apply-patch", "--args", &args]);
            }
            2 => {
                cmd.args(["--groups", "files,edit", "call", "apply_patch"])
                    .write_stdin(serde_json::json!({ "input": text }).to_string());
            }
            _ => {
                cmd.arg("apply-patch").write_stdin(text);
            }
        }
        cmd.assert().success().stdout(predicate::str::starts_with(
            "Success. Updated the following files:\nM [a.txt#",
        ));
        assert_eq!(content(&root, "a.txt"), "two\n", "way {way}");
    }
}

#[test]
fn missing_input_file_is_a_usage_error() {
    let (_t, root) = workspace(&[]);
    agtool(&root)
        .args(["apply-patch", "--input", "nope.patch"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("--input nope.patch: cannot read"));
}

#[test]
fn json_output_has_per_file_results_and_notes() {
    let (_t, root) = workspace(&[
        ("a.txt", "keep  \nold\n"),
        ("gone.txt", "x\n"),
        ("mv.txt", "m\n"),
    ]);
    for f in ["a.txt", "gone.txt", "mv.txt"] {
        read(&root, f);
    }
    let out = agtool(&root)
        .args(["--json", "apply-patch"])
        .write_stdin(patch(
            "*** Update File: a.txt\n@@\n keep\n-old\n+new\n*** Delete File: gone.txt\n\
             *** Add File: n.txt\n+n\n*** Update File: mv.txt\n*** Move to: sub/mv.txt\n@@\n-m\n+M\n",
        ))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["ok"], true);
    let files = v["files"].as_array().unwrap();
    let summary: Vec<(String, String)> = files
        .iter()
        .map(|f| {
            (
                f["action"].as_str().unwrap().into(),
                f["path"].as_str().unwrap().into(),
            )
        })
        .collect();
    assert_eq!(
        summary,
        [
            ("A", "n.txt"),
            ("M", "a.txt"),
            ("M", "sub/mv.txt"),
            ("D", "gone.txt")
        ]
        .map(|(a, p)| (a.to_string(), p.to_string()))
    );
    assert_eq!(
        files[1]["notes"][0],
        "a.txt: chunk 1 matched ignoring trailing whitespace at line 1"
    );
    assert_eq!(files[2]["moved_from"], "mv.txt");
    assert!(files[3]["tag"].is_null());
    let tag = files[0]["tag"].as_str().unwrap();
    assert_eq!(tag.len(), 8);
    assert!(
        v["output"]
            .as_str()
            .unwrap()
            .contains(&format!("A [n.txt#{tag}]"))
    );
    assert!(
        v["output"].as_str().unwrap().ends_with(
            "D gone.txt\na.txt: chunk 1 matched ignoring trailing whitespace at line 1\n"
        )
    );
}

#[test]
fn json_refusal_is_not_ok() {
    let (_t, root) = workspace(&[]);
    let out = agtool(&root)
        .args(["--json", "apply-patch"])
        .write_stdin("*** Begin Patch\n*** End Patch\n")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["ok"], false);
    assert_eq!(v["error"], "patch contains no hunks; nothing was changed");
}

#[test]
fn new_tags_are_registered_so_the_next_patch_needs_no_read() {
    let (_t, root) = workspace(&[("a.txt", "1\n")]);
    read(&root, "a.txt");
    for (old, new) in [("1", "2"), ("2", "3")] {
        agtool(&root)
            .arg("apply-patch")
            .write_stdin(patch(&format!("*** Update File: a.txt\n-{old}\n+{new}\n")))
            .assert()
            .success();
    }
    // A file the patch created, then a file it moved: both usable without a read.
    agtool(&root)
        .arg("apply-patch")
        .write_stdin(patch(
            "*** Add File: b.txt\n+b\n*** Update File: a.txt\n*** Move to: c.txt\n-3\n+4\n",
        ))
        .assert()
        .success();
    agtool(&root)
        .arg("apply-patch")
        .write_stdin(patch(
            "*** Update File: b.txt\n-b\n+B\n*** Update File: c.txt\n-4\n+5\n",
        ))
        .assert()
        .success();
    assert_eq!(
        (content(&root, "b.txt"), content(&root, "c.txt")),
        ("B\n".into(), "5\n".into())
    );
}

#[test]
fn a_moved_away_path_is_forgotten() {
    let (_t, root) = workspace(&[("a.txt", "1\n")]);
    read(&root, "a.txt");
    agtool(&root)
        .arg("apply-patch")
        .write_stdin(patch(
            "*** Update File: a.txt\n*** Move to: b.txt\n-1\n+2\n",
        ))
        .assert()
        .success();
    // Recreated behind agtool's back with the old content: the old read no longer vouches.
    std::fs::write(root.join("a.txt"), "1\n").unwrap();
    agtool(&root)
        .arg("apply-patch")
        .write_stdin(patch("*** Update File: a.txt\n-1\n+x\n"))
        .assert()
        .code(1)
        .stdout(predicate::str::contains("read a.txt before editing it"));
}

#[test]
fn dry_run_records_nothing() {
    let (_t, root) = workspace(&[("a.txt", "1\n")]);
    read(&root, "a.txt");
    agtool(&root)
        .args(["apply-patch", "--dry-run", "true"])
        .write_stdin(patch(
            "*** Update File: a.txt\n-1\n+2\n*** Add File: n.txt\n+n\n",
        ))
        .assert()
        .success()
        .stdout(predicate::str::contains("-1\n+2\n"))
        // Said in words: a diff alone read like a change made.
        .stdout(predicate::str::ends_with(
            "(dry run: nothing was written)\n",
        ));
    assert!(!root.join("n.txt").exists());
    // Had the dry run registered the would-be tag, this stale write would pass the gate.
    std::fs::write(root.join("a.txt"), "2\n").unwrap();
    agtool(&root)
        .arg("apply-patch")
        .write_stdin(patch("*** Update File: a.txt\n-2\n+3\n"))
        .assert()
        .code(1)
        .stdout(predicate::str::contains(
            "a.txt changed since you last read it",
        ));
}

#[test]
fn dry_run_of_a_move_is_one_diff_between_the_two_paths() {
    let (_t, root) = workspace(&[("a.txt", "1\n2\n")]);
    read(&root, "a.txt");
    agtool(&root)
        .args(["apply-patch", "--dry-run", "true"])
        .write_stdin(patch(
            "*** Update File: a.txt\n*** Move to: b/c.txt\n 1\n-2\n+3\n",
        ))
        .assert()
        .success()
        .stdout(predicate::str::starts_with(
            "--- a/a.txt\n+++ b/b/c.txt\n@@ -1,2 +1,2 @@\n 1\n-2\n+3\n",
        ));
    assert!(root.join("a.txt").exists() && !root.join("b").exists());
}

#[test]
fn freshness_is_checked_before_matching() {
    // The patch would not match either, but the stale read is what the caller must fix.
    let (_t, root) = workspace(&[("a.txt", "1\n")]);
    read(&root, "a.txt");
    std::fs::write(root.join("a.txt"), "changed\n").unwrap();
    agtool(&root)
        .arg("apply-patch")
        .write_stdin(patch("*** Update File: a.txt\n-nothing like it\n+x\n"))
        .assert()
        .code(1)
        .stdout(predicate::str::contains(
            "a.txt changed since you last read it",
        ));
}

#[test]
fn executable_bit_and_symlinks_are_kept() {
    let (_t, root) = workspace(&[("run.sh", "#!/bin/sh\necho 1\n"), ("real.txt", "r\n")]);
    std::fs::set_permissions(root.join("run.sh"), std::fs::Permissions::from_mode(0o755)).unwrap();
    symlink("real.txt", root.join("link.txt")).unwrap();
    read(&root, "run.sh");
    read(&root, "link.txt");
    agtool(&root)
        .arg("apply-patch")
        .write_stdin(patch("*** Update File: run.sh\n #!/bin/sh\n-echo 1\n+echo 2\n*** Update File: link.txt\n-r\n+R\n"))
        .assert()
        .success()
        .stdout(predicate::str::contains("M [link.txt#"));
    let mode = std::fs::metadata(root.join("run.sh"))
        .unwrap()
        .permissions()
        .mode()
        & 0o777;
    assert_eq!(mode, 0o755);
    assert!(
        std::fs::symlink_metadata(root.join("link.txt"))
            .unwrap()
            .file_type()
            .is_symlink()
    );
    assert_eq!(content(&root, "real.txt"), "R\n");
}

#[test]
fn a_failed_write_changes_nothing() {
    let (_t, root) = workspace(&[("a.txt", "a\n"), ("locked/b.txt", "b\n")]);
    read(&root, "a.txt");
    read(&root, "locked/b.txt");
    if !lock_dir(&root.join("locked")) {
        unlock_dir(&root.join("locked"));
        eprintln!("skipped: cannot make a directory refuse writes here");
        return;
    }
    let out = agtool(&root)
        .arg("apply-patch")
        .write_stdin(patch(
            "*** Update File: a.txt\n-a\n+A\n*** Add File: new.txt\n+n\n*** Update File: locked/b.txt\n-b\n+B\n",
        ))
        .output()
        .unwrap();
    unlock_dir(&root.join("locked"));
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{stdout}");
    assert!(
        stdout.starts_with("Error: writing locked/b.txt failed"),
        "{stdout}"
    );
    // The journal writes every temp file before any target changes, so the locked folder
    // stops the patch while nothing has been touched.
    assert!(stdout.contains("nothing was changed"), "{stdout}");
    assert_eq!(content(&root, "a.txt"), "a\n");
    assert_eq!(content(&root, "locked/b.txt"), "b\n");
    assert!(!root.join("new.txt").exists());
}

#[test]
fn gbk_file_keeps_its_encoding() {
    let (_t, root) = workspace(&[]);
    // "你好\n世界\n" in GBK.
    let gbk = b"\xc4\xe3\xba\xc3\n\xca\xc0\xbd\xe7\n";
    std::fs::write(root.join("g.txt"), gbk).unwrap();
    read(&root, "g.txt");
    agtool(&root)
        .arg("apply-patch")
        .write_stdin(patch("*** Update File: g.txt\n 你好\n-世界\n+中文\n"))
        .assert()
        .success();
    assert_eq!(
        std::fs::read(root.join("g.txt")).unwrap(),
        b"\xc4\xe3\xba\xc3\n\xd6\xd0\xce\xc4\n"
    );
}

#[test]
fn character_the_encoding_cannot_hold_is_refused() {
    let (_t, root) = workspace(&[]);
    std::fs::write(root.join("g.txt"), b"\xc4\xe3\xba\xc3\n").unwrap();
    read(&root, "g.txt");
    agtool(&root)
        .arg("apply-patch")
        .write_stdin(patch("*** Update File: g.txt\n-你好\n+😀\n"))
        .assert()
        .code(1)
        .stdout(predicate::str::contains("g.txt: the character"));
    assert_eq!(
        std::fs::read(root.join("g.txt")).unwrap(),
        b"\xc4\xe3\xba\xc3\n"
    );
}

#[test]
fn schema_lists_apply_patch_as_sensitive_and_serial() {
    let (_t, root) = workspace(&[]);
    let out = agtool(&root)
        .args(["--groups", "edit", "schema", "--extensions"])
        .output()
        .unwrap();
    let tools: Vec<Value> = serde_json::from_slice(&out.stdout).unwrap();
    let tool = tools.iter().find(|t| t["name"] == "apply_patch").unwrap();
    assert_eq!(tool["x-agtool"]["group"], "edit");
    assert_eq!(tool["x-agtool"]["sensitive"], true);
    assert_eq!(tool["x-agtool"]["serial"], true);
    assert_eq!(
        tool["input_schema"]["required"],
        serde_json::json!(["input"])
    );
    let description = tool["description"].as_str().unwrap();
    assert!(description.contains("\n context line (starts with a space)\n"));
}

#[test]
fn dry_run_of_delete_then_add_diffs_against_the_old_content() {
    let (_t, root) = workspace(&[("r.txt", "old\nsame\n")]);
    read(&root, "r.txt");
    agtool(&root)
        .args(["apply-patch", "--dry-run", "true"])
        .write_stdin(patch(
            "*** Delete File: r.txt\n*** Add File: r.txt\n+new\n+same\n",
        ))
        .assert()
        .success()
        .stdout(predicate::str::starts_with(
            "--- a/r.txt\n+++ b/r.txt\n@@ -1,2 +1,2 @@\n-old\n+new\n same\n",
        ));
    assert_eq!(content(&root, "r.txt"), "old\nsame\n");
}

/// Issue 18 §1: a chunk that matches only with leading whitespace ignored gets its `+` lines
/// re-indented by the file's indentation, and the result says so.
#[test]
fn a_chunk_matched_ignoring_indentation_is_re_indented() {
    let py = "def f(x):\n    if x:\n        return 1\n    return 0\n";
    let (_t, root) = workspace(&[("a.py", py)]);
    read(&root, "a.py");
    agtool(&root)
        .arg("apply-patch")
        .write_stdin(patch("*** Update File: a.py\n@@\n-return 1\n+return 10\n"))
        .assert()
        .success()
        .stdout(predicate::str::contains(
            "a.py: chunk 1 matched ignoring leading and trailing whitespace at line 3; its + \
             lines were indented 8 more spaces to match the file",
        ));
    assert_eq!(
        content(&root, "a.py"),
        "def f(x):\n    if x:\n        return 10\n    return 0\n"
    );
}

/// Issue 18 §1: nested blocks among the `+` lines keep their relative indentation; tabs are
/// added as tabs.
#[test]
fn re_indented_added_lines_keep_their_nesting_and_tabs() {
    let go = "func f() {\n\tif x {\n\t\treturn 1\n\t}\n}\n";
    let (_t, root) = workspace(&[("a.go", go)]);
    read(&root, "a.go");
    agtool(&root)
        .arg("apply-patch")
        .write_stdin(patch(
            "*** Update File: a.go\n@@\n if x {\n-\treturn 1\n+\tif y {\n+\t\treturn 2\n+\t}\n+\treturn 1\n",
        ))
        .assert()
        .success()
        .stdout(predicate::str::contains("indented 1 more tab to match the file"));
    assert_eq!(
        content(&root, "a.go"),
        "func f() {\n\tif x {\n\t\tif y {\n\t\t\treturn 2\n\t\t}\n\t\treturn 1\n\t}\n}\n"
    );
}

/// Issue 18 §1: when the matched lines differ from the patch's by different amounts, no
/// re-indentation is safe: the chunk is refused and nothing changes.
#[test]
fn a_chunk_with_inconsistent_indentation_is_refused() {
    let py = "def f(x):\n    if x:\n        return 1\n    return 0\n";
    let (_t, root) = workspace(&[("a.py", py)]);
    read(&root, "a.py");
    agtool(&root)
        .arg("apply-patch")
        .write_stdin(patch(
            "*** Update File: a.py\n@@\n if x:\n-return 1\n+return 10\n",
        ))
        .assert()
        .code(1)
        .stdout(predicate::str::contains(
            "Error: a.py: chunk 1 (patch line 4) matched at line 2 only ignoring leading whitespace",
        ));
    assert_eq!(content(&root, "a.py"), py);
}

/// Many chunks over a large file, which is written as byte edits of its own buffer (issue 18
/// §7): the result is exactly the edited lines, at the top, in the middle and at the end, alone
/// (one atomic write), beside a move (the journal), and when a second Update of the same file
/// goes on from the edited text.
#[test]
fn many_chunks_on_a_large_file_give_exactly_the_edited_lines() {
    for (again, with_move) in [(false, false), (false, true), (true, true)] {
        many_chunks_case(again, with_move);
    }
}

fn many_chunks_case(again: bool, with_move: bool) {
    let old: Vec<String> = (0..3000)
        .map(|i| format!("line {i:05} of the file"))
        .collect();
    let mut want: Vec<String> = old.clone();
    let mut body = String::from("*** Update File: a.txt\n@@\n+new top\n line 00000 of the file\n");
    // Chunks in file order: every 30th line replaced (by two lines, one holding a lone CR,
    // which stays inside the line) or removed, with context around it.
    let mut edits: Vec<(usize, Vec<String>)> = Vec::new();
    for k in 1..99 {
        let at = 30 * k;
        body.push_str(&format!("@@\n {}\n-{}\n", old[at - 1], old[at]));
        let new = if k % 3 == 0 {
            Vec::new()
        } else {
            vec![format!("changed {k}"), format!("cr\rinside {k}")]
        };
        for line in &new {
            body.push_str(&format!("+{line}\n"));
        }
        body.push_str(&format!(" {}\n", old[at + 1]));
        edits.push((at, new));
    }
    body.push_str(&format!(
        "@@\n {}\n-{}\n-{}\n+bottom\n*** End of File\n",
        old[2997], old[2998], old[2999]
    ));
    want.truncate(2998);
    want.push("bottom".into());
    for (at, new) in edits.into_iter().rev() {
        want.splice(at..=at, new);
    }
    want.insert(0, "new top".into());
    if again {
        body.push_str("*** Update File: a.txt\n@@\n-changed 10\n+changed again 10\n");
        let ten = want.iter().position(|l| l == "changed 10").unwrap();
        want[ten] = "changed again 10".into();
    }
    if with_move {
        body.push_str("*** Update File: b.txt\n*** Move to: c.txt\n@@\n-b 1\n+B 1\n");
    }
    let old_text = old.join("\n") + "\n";
    let (_t, root) = workspace(&[("a.txt", &old_text), ("b.txt", "b 0\nb 1\nb 2\n")]);
    read(&root, "a.txt");
    read(&root, "b.txt");
    agtool(&root)
        .arg("apply-patch")
        .write_stdin(patch(&body))
        .assert()
        .success()
        .stdout(predicate::str::starts_with(
            "Success. Updated the following files:\nM [a.txt#",
        ));
    assert_eq!(content(&root, "a.txt"), want.join("\n") + "\n");
    if with_move {
        assert_eq!(content(&root, "c.txt"), "b 0\nB 1\nb 2\n");
        assert!(!root.join("b.txt").exists());
    }
    // The registered tag is the new content's: the next patch needs no read.
    agtool(&root)
        .arg("apply-patch")
        .write_stdin(patch("*** Update File: a.txt\n@@\n-new top\n+newer top\n"))
        .assert()
        .success();
    assert!(content(&root, "a.txt").starts_with("newer top\nline 00000 of the file\n"));
}

/// A patch over several unread or changed files named only the first: a model needed a failed
/// call per file. One refusal now names each, and how to read them all in one call.
#[test]
fn every_file_that_needs_a_read_is_named_at_once() {
    let (_t, root) = workspace(&[("a.txt", "a\n"), ("b.txt", "b\n"), ("c.txt", "c\n")]);
    read(&root, "b.txt");
    std::fs::write(root.join("b.txt"), "b\nX\n").unwrap();
    let text = patch(
        "*** Update File: a.txt\n-a\n+A\n*** Update File: b.txt\n-b\n+B\n*** Delete File: c.txt\n",
    );
    let out = agtool(&root)
        .arg("apply-patch")
        .write_stdin(text.clone())
        .assert()
        .code(1)
        .get_output()
        .stdout
        .clone();
    let out = String::from_utf8(out).unwrap();
    assert!(
        out.starts_with(
            "Error: 3 files of this patch need a current read before it can apply; nothing was \
             changed:\n- read a.txt before editing it"
        ),
        "{out}"
    );
    assert!(
        out.contains("\n- b.txt changed since you last read it"),
        "{out}"
    );
    assert!(out.contains("\n- read c.txt before editing it"), "{out}");
    assert!(
        out.contains(r#"read_file with paths ["a.txt", "b.txt", "c.txt"]"#),
        "{out}"
    );
    assert_eq!(content(&root, "a.txt"), "a\n");
    assert!(root.join("c.txt").exists());
    // One read of all three, and the patch applies.
    agtool(&root)
        .args(["read-file", "--paths", "a.txt", "b.txt", "c.txt"])
        .assert()
        .success();
    agtool(&root)
        .arg("apply-patch")
        .write_stdin(text)
        .assert()
        .success();
    assert_eq!(content(&root, "b.txt"), "B\nX\n");
    assert!(!root.join("c.txt").exists());
}

/// The advice to read the files in one call went round in a circle for names with glob
/// characters (`paths` took `a[1].txt` as a pattern that matched nothing), and for a patch over
/// more files than one call reads (50). An existing name is now read as itself, and the advice
/// says how many calls.
#[test]
fn the_advice_to_read_works_for_any_name_and_any_count() {
    let names = ["a[1].txt", "b{x}.txt", "c*.txt"];
    let files: Vec<(&str, &str)> = names
        .iter()
        .map(|n| (*n, "a\n"))
        .chain([("crlf.txt", "a\n")])
        .collect();
    let (_t, root) = workspace(&files);
    let text = patch(
        &names
            .iter()
            .map(|n| format!("*** Update File: {n}\n-a\n+b\n"))
            .collect::<String>(),
    );
    agtool(&root)
        .arg("apply-patch")
        .write_stdin(text.clone())
        .assert()
        .code(1)
        .stdout(predicate::str::contains(
            r#"read_file with paths ["a[1].txt", "b{x}.txt", "c*.txt"]"#,
        ));
    // Following the advice as given reads exactly those files.
    let out = agtool(&root)
        .args(["call", "read_file"])
        .write_stdin(r#"{"paths": ["a[1].txt", "b{x}.txt", "c*.txt"]}"#)
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let out = String::from_utf8(out).unwrap();
    assert!(
        !out.contains("crlf.txt") && !out.contains("no files matched"),
        "{out}"
    );
    agtool(&root)
        .arg("apply-patch")
        .write_stdin(text)
        .assert()
        .success();
    assert_eq!(content(&root, "b{x}.txt"), "b\n");
    // 60 unread files: two calls of at most 50.
    let many: Vec<(String, &str)> = (0..60).map(|i| (format!("f{i:02}.txt"), "a\n")).collect();
    let refs: Vec<(&str, &str)> = many.iter().map(|(n, t)| (n.as_str(), *t)).collect();
    let (_t2, root2) = workspace(&refs);
    let text = patch(
        &many
            .iter()
            .map(|(n, _)| format!("*** Update File: {n}\n-a\n+b\n"))
            .collect::<String>(),
    );
    agtool(&root2)
        .arg("apply-patch")
        .write_stdin(text)
        .assert()
        .code(1)
        .stdout(predicate::str::contains(
            "Read them with read_file, at most 50 paths a call (2 calls), starting with paths \
             [\"f00.txt\",",
        ))
        .stdout(predicate::str::contains("\"f49.txt\"], then apply"));
}
