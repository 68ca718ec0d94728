//! Unit tests of the journal: commits, and recovery at every state.

use super::record::{Journal, Record, State, Step};
use super::recover::LOCK_NAME;
use super::*;
use crate::workspace::policy::{Access, PathPolicy};

struct Fixture {
    _t: tempfile::TempDir,
    root: PathBuf,
    policy: PathPolicy,
    fs: Fs,
}

fn fixture() -> Fixture {
    let t = tempfile::tempdir().unwrap();
    let root = std::fs::canonicalize(t.path()).unwrap().join("ws");
    std::fs::create_dir_all(&root).unwrap();
    let policy = PathPolicy::new(&root, &[], &[], &[], None);
    let fs = Fs::new(&root, policy.write_bases());
    Fixture {
        _t: t,
        root,
        policy,
        fs,
    }
}

impl Fixture {
    fn path(&self, s: &str) -> CheckedPath {
        self.policy.check(&self.root, s, Access::Write).unwrap()
    }

    fn names(&self) -> Vec<String> {
        let mut v: Vec<String> = std::fs::read_dir(&self.root)
            .unwrap()
            .flatten()
            .map(|e| e.file_name().to_string_lossy().into_owned())
            .filter(|n| n != ".agent-state")
            .collect();
        v.sort();
        v
    }

    fn journals(&self) -> usize {
        std::fs::read_dir(self.root.join(".agent-state/journal"))
            .map(|r| r.flatten().filter(|e| e.file_name() != LOCK_NAME).count())
            .unwrap_or(0)
    }
}

#[test]
fn a_commit_writes_creates_and_removes_all_at_once() {
    let f = fixture();
    std::fs::write(f.root.join("a"), "old a").unwrap();
    std::fs::write(f.root.join("gone"), "bye").unwrap();
    let (a, n, g) = (f.path("a"), f.path("new/dir/n"), f.path("gone"));
    let changes = [
        Change::Write {
            path: &a,
            parts: vec![b"new a"],
            new_mode: None,
            before: Some(b"old a"),
        },
        Change::Write {
            path: &n,
            parts: vec![b"n"],
            new_mode: Some(0o700),
            before: None,
        },
        Change::Remove {
            path: &g,
            before: Some(b"bye"),
        },
    ];
    commit(&f.fs, &changes, &Stop::never()).unwrap();
    assert_eq!(std::fs::read(f.root.join("a")).unwrap(), b"new a");
    assert_eq!(std::fs::read(f.root.join("new/dir/n")).unwrap(), b"n");
    assert!(!f.root.join("gone").exists());
    assert_eq!(f.names(), vec!["a", "new"]);
    assert_eq!(f.journals(), 0);
}

/// Writes the journal of a killed commit by hand, at each state, and checks recovery.
#[test]
fn recovery_rolls_back_a_dead_commit_at_every_state() {
    for (state, renamed) in [
        (State::Preparing, 0),
        (State::Committing, 0),
        (State::Committing, 1),
        (State::Committing, 2),
    ] {
        let f = fixture();
        std::fs::write(f.root.join("a"), "old a").unwrap();
        std::fs::write(f.root.join("b"), "old b").unwrap();
        let pid = 999_999u32;
        let name = |n: &str, k: u32| OsString::from(format!(".{n}.agtool-{pid}-{k}"));
        let w = |n: &str, k| Step::Write {
            base: f.root.clone(),
            dir: PathBuf::new(),
            name: n.into(),
            temp: name(n, k),
            backup: Some(name(n, k + 10)),
        };
        let rec = Record {
            state,
            pid,
            steps: vec![w("a", 0), w("b", 1)],
        };
        for (k, n) in ["a", "b"].iter().enumerate() {
            std::fs::write(f.root.join(name(n, k as u32)), format!("new {n}")).unwrap();
            std::fs::hard_link(f.root.join(n), f.root.join(name(n, k as u32 + 10))).unwrap();
        }
        for (k, n) in ["a", "b"].iter().enumerate().take(renamed) {
            std::fs::rename(f.root.join(name(n, k as u32)), f.root.join(n)).unwrap();
        }
        let jdir = f.fs.journal_dir(true).unwrap().unwrap();
        drop(Journal::create(&jdir, &rec, false).unwrap());
        let said = recover(&f.fs, &|p| p.display().to_string());
        assert_eq!(said.len(), 1, "{said:?}");
        assert_eq!(
            std::fs::read(f.root.join("a")).unwrap(),
            b"old a",
            "{state:?} {renamed}"
        );
        assert_eq!(std::fs::read(f.root.join("b")).unwrap(), b"old b");
        assert_eq!(f.names(), vec!["a", "b"], "temp files and backups removed");
        assert_eq!(f.journals(), 0);
        assert!(recover(&f.fs, &|p| p.display().to_string()).is_empty());
    }
}

#[test]
fn recovery_rolls_a_done_commit_forward() {
    let f = fixture();
    std::fs::write(f.root.join("a"), "new a").unwrap();
    std::fs::write(f.root.join(".a.agtool-999999-1"), "old a").unwrap();
    let rec = Record {
        state: State::Done,
        pid: 999_999,
        steps: vec![Step::Write {
            base: f.root.clone(),
            dir: PathBuf::new(),
            name: "a".into(),
            temp: ".a.agtool-999999-0".into(),
            backup: Some(".a.agtool-999999-1".into()),
        }],
    };
    let jdir = f.fs.journal_dir(true).unwrap().unwrap();
    drop(Journal::create(&jdir, &rec, false).unwrap());
    let said = recover(&f.fs, &|p| p.display().to_string());
    assert_eq!(said.len(), 1, "{said:?}");
    assert_eq!(std::fs::read(f.root.join("a")).unwrap(), b"new a");
    assert_eq!(f.names(), vec!["a"]);
    assert_eq!(f.journals(), 0);
}

#[test]
fn a_live_journal_is_left_alone_and_an_untrusted_one_too() {
    let f = fixture();
    let jdir = f.fs.journal_dir(true).unwrap().unwrap();
    let rec = Record {
        state: State::Temp,
        pid: std::process::id(),
        steps: vec![Step::Temp {
            base: f.root.clone(),
            dir: PathBuf::new(),
            temp: temp_name(OsStr::new("x")),
        }],
    };
    let live = Journal::create(&jdir, &rec, false).unwrap();
    assert!(recover(&f.fs, &|p| p.display().to_string()).is_empty());
    assert_eq!(f.journals(), 1);
    live.finish().unwrap();
    let evil = Record {
        state: State::Committing,
        pid: 7,
        steps: vec![Step::Write {
            base: "/".into(),
            dir: "etc".into(),
            name: "passwd".into(),
            temp: ".passwd.agtool-7-0".into(),
            backup: None,
        }],
    };
    drop(Journal::create(&jdir, &evil, false).unwrap());
    let said = recover(&f.fs, &|p| p.display().to_string());
    assert!(said[0].contains("outside the writable roots"), "{said:?}");
}

/// The finding: recovery put the old versions back over files edited after the kill (by a
/// person, or another program) and removed a file the write made and someone then edited,
/// saying only that it rolled back. A target modified after the commit state is left as it
/// is now, and said so; the others are rolled back.
#[test]
fn recovery_leaves_a_target_edited_after_the_kill() {
    let f = fixture();
    std::fs::write(f.root.join("a"), "old a").unwrap();
    std::fs::write(f.root.join("b"), "old b").unwrap();
    let pid = 999_998u32;
    let name = |n: &str, k: u32| OsString::from(format!(".{n}.agtool-{pid}-{k}"));
    let w = |n: &str, k, backup| Step::Write {
        base: f.root.clone(),
        dir: PathBuf::new(),
        name: n.into(),
        temp: name(n, k),
        backup,
    };
    let rec = Record {
        state: State::Committing,
        pid,
        steps: vec![
            w("a", 0, Some(name("a", 10))),
            w("b", 1, Some(name("b", 11))),
            w("c", 2, None),
        ],
    };
    for (k, n) in ["a", "b", "c"].iter().enumerate() {
        std::fs::write(f.root.join(name(n, k as u32)), format!("new {n}")).unwrap();
        if *n != "c" {
            std::fs::hard_link(f.root.join(n), f.root.join(name(n, k as u32 + 10))).unwrap();
        }
        std::fs::rename(f.root.join(name(n, k as u32)), f.root.join(n)).unwrap();
    }
    let jdir = f.fs.journal_dir(true).unwrap().unwrap();
    drop(Journal::create(&jdir, &rec, false).unwrap());
    // After the kill: `a` and the made `c` are edited; `b` is as the write left it.
    std::thread::sleep(std::time::Duration::from_millis(30));
    std::fs::write(f.root.join("a"), "edited a").unwrap();
    std::fs::write(f.root.join("c"), "edited c").unwrap();
    let said = recover(&f.fs, &|p| {
        p.file_name().unwrap().to_string_lossy().into_owned()
    });
    assert_eq!(std::fs::read(f.root.join("a")).unwrap(), b"edited a");
    assert_eq!(std::fs::read(f.root.join("b")).unwrap(), b"old b");
    assert_eq!(std::fs::read(f.root.join("c")).unwrap(), b"edited c");
    assert_eq!(
        f.names(),
        vec!["a", "b", "c"],
        "temp files and backups removed"
    );
    assert_eq!(f.journals(), 0);
    assert!(
        said.iter()
            .any(|l| l.starts_with("left a, c as they are now: they were changed after")),
        "{said:?}"
    );
    assert!(
        said.iter().any(|l| l.contains("1 restored (b)")),
        "{said:?}"
    );
}

/// The finding: a file made by a write (apply-patch's Add, write-file of a new path) was put
/// in place with a plain rename, so a file that appeared at that name between the check and
/// the rename (a person's, another program's) was overwritten and the answer said success.
/// A new file now replaces nothing.
#[test]
fn a_new_file_never_replaces_one_that_appeared_meanwhile() {
    let f = fixture();
    let temp = OsString::from(".n.agtool-999997-0");
    std::fs::write(f.root.join(&temp), "agent").unwrap();
    std::fs::write(f.root.join("n"), "USER").unwrap();
    let steps = vec![Step::Write {
        base: f.root.clone(),
        dir: PathBuf::new(),
        name: "n".into(),
        temp: temp.clone(),
        backup: None,
    }];
    let err = apply(&mut Dirs::new(&f.fs), &steps).unwrap_err();
    assert_eq!(err.1.kind(), io::ErrorKind::AlreadyExists, "{}", err.1);
    assert!(
        err.1.to_string().contains("it was not replaced"),
        "{}",
        err.1
    );
    assert_eq!(std::fs::read(f.root.join("n")).unwrap(), b"USER");
}
