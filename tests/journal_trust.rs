//! Journals that agtool did not write are never obeyed (spec 01 "Races and crashes";
//! `fileio::journal::seal`): a `.agent-state/journal/*.j` that came with a repository or was
//! planted by another program names renames and removals that recovery would otherwise carry
//! out on the next call of any tool, a read-only one included.

mod common;

use common::Ws;

/// A journal in state C, of a dead process, whose steps would remove `.git` and `src` and put
/// a folder of the journal's own in place of `.git` (the attack reported against recovery).
fn forged(root: &std::path::Path) -> String {
    let r = root.display();
    format!(
        "agtool-journal 1\nstate C\npid 999999\n\
         tree {r} . .a.agtool-999999-1\nplace {r} . .a.agtool-999999-1 .git -\n\
         tree {r} . .b.agtool-999999-2\nplace {r} . .b.agtool-999999-2 src -\n\
         place {r} . .c.agtool-999999-3 .git .g.agtool-999999-4\nend\n"
    )
}

fn plant(ws: &Ws, text: &str) {
    ws.write("README.md", "# harmless\n");
    ws.write(".git/HEAD", "ref: refs/heads/main\n");
    ws.write("src/main.rs", "fn main() {}\n");
    ws.write(".g.agtool-999999-4/config", "[core]\n\tfsmonitor = evil\n");
    ws.write(".agent-state/journal/999999-1.j", text);
}

#[test]
fn a_journal_without_a_seal_is_obeyed_in_nothing() {
    for sealed_wrongly in [false, true] {
        let ws = Ws::new();
        let mut text = forged(&ws.root);
        if sealed_wrongly {
            text.push_str(&format!("seal {}\n", "ab".repeat(32)));
        }
        plant(&ws, &text);
        let run = ws.run(&["read-file", "README.md"]);
        let out = run.ok();
        assert!(out.contains("L1: # harmless"), "{out}");
        assert_eq!(ws.read(".git/HEAD"), b"ref: refs/heads/main\n", "{out}");
        assert_eq!(ws.read("src/main.rs"), b"fn main() {}\n", "{out}");
        assert!(ws.path(".g.agtool-999999-4/config").exists());
        assert!(
            out.contains("was not written by agtool for this user")
                && out.contains("nothing it names was touched"),
            "{out}"
        );
        // Left where it is (the agtool that wrote it, under another key, may still recover
        // it), and said again on the next call, which still changes nothing.
        assert!(ws.path(".agent-state/journal/999999-1.j").exists());
        let again = ws.run(&["list-dir"]);
        assert!(
            again.ok().contains("nothing it names was touched"),
            "{}",
            again.out
        );
        assert_eq!(ws.read("src/main.rs"), b"fn main() {}\n");
        let state = ws.run(&["state", "recover"]);
        assert_eq!(state.code, 0, "{}{}", state.out, state.err);
        assert!(ws.path(".git/HEAD").exists());
    }
}

/// Three files patched by a process SIGKILLed once its journal exists: the journal's name and
/// bytes (read before anything recovers it), or None when no kill landed in time.
fn sealed_journal_of_a_killed_patch(ws: &Ws) -> Option<(String, Vec<u8>)> {
    let big = "x".repeat(4 << 20);
    let mut body = String::from("*** Begin Patch\n");
    for n in ["a", "b", "c"] {
        ws.write(&format!("{n}.txt"), format!("old\n{big}\n"));
        body.push_str(&format!("*** Update File: {n}.txt\n@@\n-old\n+new\n"));
    }
    body.push_str("*** End Patch\n");
    ws.write("p.patch", &body);
    let jdir = ws.path(".agent-state/journal");
    for _ in 0..40 {
        let mut child = ws
            .std_cmd_in(&ws.root)
            .args(["--no-freshness", "apply-patch", "--input", "p.patch"])
            .stdout(std::process::Stdio::null())
            .spawn()
            .unwrap();
        let started = std::time::Instant::now();
        let mut found = None;
        while found.is_none() && started.elapsed() < std::time::Duration::from_secs(5) {
            if child.try_wait().unwrap().is_some() {
                break;
            }
            found = std::fs::read_dir(&jdir).ok().and_then(|rd| {
                rd.flatten().find_map(|e| {
                    let name = e.file_name().to_string_lossy().into_owned();
                    let bytes = std::fs::read(e.path()).ok()?;
                    (name.ends_with(".j") && bytes.ends_with(b"\n") && bytes.len() > 100)
                        .then_some((name, bytes))
                })
            });
        }
        let _ = child.kill();
        let _ = child.wait();
        if found.is_some() {
            return found;
        }
        for n in ["a", "b", "c"] {
            ws.write(&format!("{n}.txt"), format!("old\n{big}\n"));
        }
    }
    None
}

/// A sealed journal of a real killed write, copied into another tree at the same path (a
/// fresh clone, an unpacked archive) with files of the attacker's under its temp and backup
/// names, is not obeyed: the seal is bound to the journal folder it was written in.
#[test]
fn a_sealed_journal_replayed_into_a_fresh_tree_is_not_obeyed() {
    let ws = Ws::new();
    let Some((name, bytes)) = sealed_journal_of_a_killed_patch(&ws) else {
        eprintln!("SKIP no kill landed while the journal existed");
        return;
    };
    std::fs::rename(&ws.root, ws.base.join("old-tree")).unwrap();
    std::fs::create_dir_all(ws.path(".agent-state/journal")).unwrap();
    std::fs::create_dir_all(ws.path(".git")).unwrap();
    ws.write("a.txt", "legit\n");
    let mut text = bytes.clone();
    text[23] = b'C';
    std::fs::write(ws.path(&format!(".agent-state/journal/{name}")), &text).unwrap();
    for line in String::from_utf8_lossy(&bytes).lines() {
        for field in line.split(' ').filter(|f| f.contains(".agtool-")) {
            ws.write(field, "import os; os.system('echo PWNED')\n");
        }
    }
    let out = ws.run(&["read-file", "a.txt"]);
    assert!(
        out.ok().contains("nothing it names was touched"),
        "{}",
        out.out
    );
    assert_eq!(ws.read("a.txt"), b"legit\n");
}

/// A `lock` folder committed into the journal folder does not turn recovery off: it is set
/// aside and the killed write is still rolled back or finished (all three files alike).
#[test]
fn a_lock_that_is_not_a_file_does_not_stop_recovery() {
    let ws = Ws::new();
    let Some((name, _)) = sealed_journal_of_a_killed_patch(&ws) else {
        eprintln!("SKIP no kill landed while the journal existed");
        return;
    };
    let lock = ws.path(".agent-state/journal/lock");
    let _ = std::fs::remove_file(&lock);
    std::fs::create_dir_all(lock.join("sub")).unwrap();
    let out = ws.run(&["state", "recover"]);
    assert_eq!(out.code, 0, "{}{}", out.out, out.err);
    assert!(!out.out.contains("cannot lock"), "{}", out.out);
    let heads: Vec<Vec<u8>> = ["a", "b", "c"]
        .iter()
        .map(|n| ws.read(&format!("{n}.txt"))[..4].to_vec())
        .collect();
    assert!(
        heads[0] == heads[1] && heads[1] == heads[2],
        "half applied: {heads:?}"
    );
    assert!(!ws.path(&format!(".agent-state/journal/{name}")).exists());
}

/// The key is never made (or taken) inside the workspace, even when HOME and XDG_STATE_HOME
/// point into it (a sandbox whose home is the checkout).
#[test]
fn the_key_is_never_kept_inside_the_workspace() {
    let ws = Ws::new();
    ws.write("a.txt", "a\n").write("b.txt", "b\n");
    let patch = "*** Begin Patch\n*** Update File: a.txt\n@@\n-a\n+A\n\
                 *** Update File: b.txt\n@@\n-b\n+B\n*** End Patch\n";
    let out = common::Run::from(
        ws.cmd()
            .env("HOME", &ws.root)
            .env("XDG_STATE_HOME", ws.root.join(".state"))
            .args(["--no-freshness", "apply-patch"])
            .write_stdin(patch)
            .output()
            .unwrap(),
    );
    out.ok();
    assert_eq!(ws.read("a.txt"), b"A\n");
    assert!(!ws.path(".local").exists() && !ws.path(".state").exists());
}

/// Issue 17, item 3: a sealed journal copied while an apply-patch that creates files ran, put
/// back after the patch was recovered and then completed (its state byte set to `C`, or left
/// as captured), must not make the next read-only call delete the files the patch created
/// and the user edited since. Before the fix the state byte was not sealed and nothing made
/// a journal usable once: 3 of 3 created files were deleted.
#[test]
fn a_journal_copy_put_back_after_its_patch_completed_is_obeyed_in_nothing() {
    let ws = Ws::new();
    let big = "x".repeat(4 << 20);
    let mut body = String::from("*** Begin Patch\n");
    for n in ["a", "b", "c"] {
        ws.write(&format!("{n}.txt"), format!("old\n{big}\n"));
        body.push_str(&format!("*** Update File: {n}.txt\n@@\n-old\n+new\n"));
        body.push_str(&format!("*** Add File: new-{n}.txt\n+made by the patch\n"));
    }
    body.push_str("*** End Patch\n");
    ws.write("p.patch", &body);
    let jdir = ws.path(".agent-state/journal");
    let mut captured = None;
    for _ in 0..40 {
        let mut child = ws
            .std_cmd_in(&ws.root)
            .args(["--no-freshness", "apply-patch", "--input", "p.patch"])
            .stdout(std::process::Stdio::null())
            .spawn()
            .unwrap();
        let started = std::time::Instant::now();
        while captured.is_none() && started.elapsed() < std::time::Duration::from_secs(5) {
            if child.try_wait().unwrap().is_some() {
                break;
            }
            captured = std::fs::read_dir(&jdir).ok().and_then(|rd| {
                rd.flatten().find_map(|e| {
                    let name = e.file_name().to_string_lossy().into_owned();
                    let bytes = std::fs::read(e.path()).ok()?;
                    let whole = bytes.ends_with(b"\n") && bytes.len() > 100;
                    let adds = String::from_utf8_lossy(&bytes).contains("new-a.txt");
                    (name.ends_with(".j") && whole && adds).then_some((name, bytes))
                })
            });
        }
        let _ = child.kill();
        let _ = child.wait();
        if captured.is_some() {
            break;
        }
        for n in ["a", "b", "c"] {
            ws.write(&format!("{n}.txt"), format!("old\n{big}\n"));
            let _ = std::fs::remove_file(ws.path(&format!("new-{n}.txt")));
        }
    }
    let Some((name, bytes)) = captured else {
        eprintln!("SKIP no journal was seen while the patch ran");
        return;
    };
    // The killed patch is recovered, then run to completion, then the user edits its files.
    let out = ws.run(&["state", "recover"]);
    assert_eq!(out.code, 0, "{}{}", out.out, out.err);
    for n in ["a", "b", "c"] {
        ws.write(&format!("{n}.txt"), format!("old\n{big}\n"));
        let _ = std::fs::remove_file(ws.path(&format!("new-{n}.txt")));
    }
    let out = ws.run(&["--no-freshness", "apply-patch", "--input", "p.patch"]);
    assert_eq!(out.code, 0, "{}{}", out.out, out.err);
    for n in ["a", "b", "c"] {
        ws.write(&format!("new-{n}.txt"), "edited by the user later\n");
    }
    for state in [None, Some(b'C'), Some(b'P'), Some(b'D')] {
        let mut text = bytes.clone();
        if let Some(s) = state {
            text[23] = s;
        }
        std::fs::write(jdir.join(&name), &text).unwrap();
        let out = ws.run(&["read-file", "a.txt", "--limit", "1"]);
        assert_eq!(out.code, 0, "{}{}", out.out, out.err);
        assert!(
            out.out.contains("nothing it names was touched"),
            "{}",
            out.out
        );
        for n in ["a", "b", "c"] {
            assert_eq!(
                ws.read(&format!("new-{n}.txt")),
                b"edited by the user later\n",
                "state {state:?}"
            );
            assert_eq!(&ws.read(&format!("{n}.txt"))[..4], b"new\n");
        }
        let _ = std::fs::remove_file(jdir.join(&name));
    }
}
