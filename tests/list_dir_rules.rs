//! The walks of list-dir and glob, our own through handles, against the `ignore` crate's walker
//! (spec 02, "list-dir" and "glob" → "Walk"): on random trees of ignore files (`.gitignore`,
//! `.ignore`, `.git/info/exclude`, worktree `.git` files, a global gitignore, files above the
//! walked folder), hidden entries and repository roots, the tree list-dir prints and the files
//! glob finds must be the ones the crate's walker gives with the same rules.
//!
//! One test in this file: it points `$HOME` and the current folder of this process at the
//! case, so the crate's walker here reads the same global gitignore as the binary.

mod common;
use common::*;

use std::path::{Path, PathBuf};

/// A small deterministic generator (xorshift64*), so a failure names a reproducible seed.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
    fn chance(&mut self, percent: u64) -> bool {
        self.next() % 100 < percent
    }
    fn pick<'a>(&mut self, items: &[&'a str]) -> &'a str {
        items[self.below(items.len())]
    }
}

const FOLDERS: &[&str] = &[
    "a",
    "b",
    "src",
    "target",
    "build",
    ".hidden",
    "Docs",
    "node_modules",
];
const FILES: &[&str] = &[
    "x.rs", "y.log", "keep.log", "z.txt", ".env", "README", "b", "a.md", "Z.rs", "#x",
];
const LINES: &[&str] = &[
    "*.log",
    "!keep.log",
    "target/",
    "/build",
    "b/",
    "b",
    "*.txt",
    "!*.txt",
    ".env",
    "!.env",
    "!.hidden",
    "src/*.rs",
    "**/a/x.rs",
    "a/**",
    "z*",
    "Z*",
    "\\#x",
    "# a comment",
    "",
    "a",
    "!a/",
    "!src/",
    "*.rs\r",
    "docs",
    "/Docs/",
    "{x",
    "  ",
    "*.md   ",
    "node_modules",
    "!node_modules/",
    "[ab].rs",
    "x.rs/",
];

fn rules(rng: &mut Rng) -> String {
    let mut text = String::new();
    if rng.chance(5) {
        text.push('\u{feff}');
    }
    for _ in 0..1 + rng.below(4) {
        text.push_str(rng.pick(LINES));
        text.push('\n');
    }
    text
}

/// Fills `dir` with random entries, `levels` deep.
fn fill(rng: &mut Rng, dir: &Path, levels: usize) {
    // A name may already be taken by the other kind ("b" as file and folder): then skipped.
    if std::fs::create_dir_all(dir).is_err() {
        return;
    }
    for _ in 0..rng.below(4) {
        let _ = std::fs::write(dir.join(rng.pick(FILES)), "f");
    }
    if rng.chance(10) {
        // A symlink: shown with `@`, never entered (to a folder) nor read.
        let _ = std::os::unix::fs::symlink(rng.pick(FOLDERS), dir.join("ln"));
    }
    if rng.chance(5) {
        // An ignore file that is a symlink to rules kept elsewhere: followed, as the crate does.
        let kept = dir.join("rules.txt");
        std::fs::write(&kept, rules(rng)).unwrap();
        let _ = std::os::unix::fs::symlink("rules.txt", dir.join(".gitignore"));
    } else if rng.chance(35) {
        std::fs::write(dir.join(".gitignore"), rules(rng)).unwrap();
    }
    if rng.chance(20) {
        std::fs::write(dir.join(".ignore"), rules(rng)).unwrap();
    }
    if rng.chance(12) {
        let git = dir.join(".git");
        std::fs::create_dir_all(git.join("info")).unwrap();
        if rng.chance(60) {
            std::fs::write(git.join("info/exclude"), rules(rng)).unwrap();
        }
    } else if rng.chance(4) {
        std::fs::create_dir_all(dir.join(".jj")).unwrap();
    }
    if levels > 0 {
        for _ in 0..rng.below(4) {
            let sub = dir.join(rng.pick(FOLDERS));
            fill(rng, &sub, levels - 1);
        }
    }
}

/// A worktree-style `.git` file in `dir`, naming a repository folder elsewhere whose
/// `info/exclude` holds `rules`.
fn worktree(base: &Path, dir: &Path, rules: &str) {
    let repo = base.join("repo.git");
    let wt = repo.join("worktrees/w");
    std::fs::create_dir_all(&wt).unwrap();
    std::fs::create_dir_all(repo.join("info")).unwrap();
    std::fs::write(repo.join("info/exclude"), rules).unwrap();
    std::fs::write(wt.join("commondir"), "../..\n").unwrap();
    let _ = std::fs::remove_dir_all(dir.join(".git"));
    std::fs::write(dir.join(".git"), format!("gitdir: {}\n", wt.display())).unwrap();
}

/// The tree the crate's walker gives for `dir` with list-dir's rules, as list-dir prints it;
/// and how many errors it reports.
fn reference(dir: &Path, hidden: bool, ignored: bool) -> (Vec<String>, usize) {
    let in_repo = dir.ancestors().any(|a| a.join(".git").exists());
    let mut b = ignore::WalkBuilder::new(dir);
    b.max_depth(Some(100))
        .hidden(!hidden)
        .follow_links(false)
        .sort_by_file_name(|a, b| a.cmp(b))
        .require_git(in_repo)
        .git_ignore(!ignored)
        .git_exclude(!ignored)
        .git_global(!ignored)
        .ignore(!ignored)
        .parents(!ignored);
    let mut lines = Vec::new();
    let mut errors = 0;
    for item in b.build() {
        let e = match item {
            Ok(e) => e,
            Err(e) => {
                errors += leaves(&e);
                continue;
            }
        };
        if e.depth() == 0 {
            continue;
        }
        let rel = e.path().strip_prefix(dir).unwrap();
        // `.git` is shown, never entered.
        let parents: Vec<_> = rel.parent().unwrap().components().collect();
        if parents
            .iter()
            .any(|c| c.as_os_str().eq_ignore_ascii_case(".git"))
        {
            continue;
        }
        let ft = e.file_type().unwrap();
        let suffix = if ft.is_symlink() {
            "@"
        } else if ft.is_dir() {
            "/"
        } else if ft.is_file() {
            ""
        } else {
            "?"
        };
        let name = e.file_name().to_str().unwrap();
        lines.push(format!("{}{name}{suffix}", "  ".repeat(e.depth() - 1)));
    }
    (lines, errors)
}

/// The files (not folders) the crate's walker gives for `dir` with glob's rules (`.git` left
/// out), as paths relative to `cwd`, sorted; and how many errors it reports.
fn reference_files(dir: &Path, cwd: &Path, hidden: bool, ignored: bool) -> (Vec<String>, usize) {
    let in_repo = dir.ancestors().any(|a| a.join(".git").exists());
    let mut b = ignore::WalkBuilder::new(dir);
    b.hidden(!hidden)
        .follow_links(false)
        .require_git(in_repo)
        .git_ignore(!ignored)
        .git_exclude(!ignored)
        .git_global(!ignored)
        .ignore(!ignored)
        .parents(!ignored)
        .filter_entry(|e| e.file_name() != ".git");
    let mut files = Vec::new();
    let mut errors = 0;
    for item in b.build() {
        match item {
            Ok(e) if e.depth() > 0 && !e.file_type().unwrap().is_dir() => {
                let rel = e.path().strip_prefix(cwd).unwrap();
                files.push(rel.to_str().unwrap().to_owned());
            }
            Ok(_) => {}
            Err(e) => errors += leaves(&e),
        }
    }
    files.sort();
    (files, errors)
}

/// How many single errors `e` holds (list-dir shows each on its own line).
fn leaves(e: &ignore::Error) -> usize {
    match e {
        ignore::Error::Partial(errs) => errs.iter().map(leaves).sum(),
        _ => 1,
    }
}

#[test]
fn list_dir_and_glob_show_what_the_ignore_crates_walker_shows() {
    let cases: u64 = std::env::var("LIST_DIR_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(160);
    let mut compared = 0;
    for seed in 1..=cases {
        let mut rng = Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1);
        let ws = Ws::new();
        // A global gitignore, read by both walkers through $XDG_CONFIG_HOME.
        let global = ws.home.join(".config/git/ignore");
        std::fs::create_dir_all(global.parent().unwrap()).unwrap();
        if rng.chance(30) {
            std::fs::write(&global, rules(&mut rng)).unwrap();
        }
        // Or one that core.excludesFile names, in ~/.gitconfig or the XDG config (agtool
        // finds the setting by hand, the crate by a regular expression).
        if rng.chance(25) {
            let named = rng.pick(&[
                "~/custom-ignore",
                "\"~/custom-ignore\"",
                " ~/custom-ignore ",
            ]);
            let config = if rng.chance(50) {
                ws.home.join(".gitconfig")
            } else {
                ws.home.join(".config/git/config")
            };
            let text = format!("[user]\n\tname = x\n[core]\n\texcludesFile = {named}\n");
            std::fs::write(config, text).unwrap();
            std::fs::write(ws.home.join("custom-ignore"), rules(&mut rng)).unwrap();
        }
        // SAFETY: the one test of this binary; nothing else reads the environment meanwhile.
        unsafe {
            std::env::set_var("HOME", &ws.home);
            std::env::set_var("XDG_CONFIG_HOME", ws.home.join(".config"));
        }
        std::env::set_current_dir(&ws.root).unwrap();
        // The workspace root, a folder above the listed one.
        if rng.chance(50) {
            std::fs::write(ws.root.join(".gitignore"), rules(&mut rng)).unwrap();
        }
        if rng.chance(20) {
            std::fs::write(ws.root.join(".ignore"), rules(&mut rng)).unwrap();
        }
        if rng.chance(40) {
            std::fs::create_dir_all(ws.root.join(".git/info")).unwrap();
            std::fs::write(ws.root.join(".git/info/exclude"), rules(&mut rng)).unwrap();
        }
        let listed: PathBuf = if rng.chance(50) {
            ws.root.join("p")
        } else {
            ws.root.clone()
        };
        fill(&mut rng, &listed, 3);
        if rng.chance(10) {
            let r = rules(&mut rng);
            worktree(&ws.base, &listed, &r);
        }
        let rel = listed.strip_prefix(&ws.root).unwrap();
        let rel = if rel.as_os_str().is_empty() {
            ".".to_owned()
        } else {
            rel.display().to_string()
        };
        for (hidden, ignored) in [(true, false), (false, false), (false, true)] {
            let out = ws.run(&[
                "list-dir",
                &rel,
                "--depth",
                "100",
                "--limit",
                "1000000",
                "--hidden",
                &hidden.to_string(),
                "--ignored",
                &ignored.to_string(),
            ]);
            let text = out.ok();
            let shown: Vec<&str> = text
                .lines()
                .skip(1)
                .filter(|l| !l.starts_with("(skipped: ") && *l != "(empty folder)")
                .collect();
            let problems = text.lines().filter(|l| l.starts_with("(skipped: ")).count();
            let (expected, errors) = reference(&listed, hidden, ignored);
            assert_eq!(
                shown, expected,
                "seed {seed}, hidden={hidden} ignored={ignored}\n{text}"
            );
            assert_eq!(
                problems, errors,
                "seed {seed}, hidden={hidden} ignored={ignored}: problems\n{text}"
            );
            // glob: every file, at any depth.
            let out = ws.run(&[
                "glob",
                "*",
                &rel,
                "--limit",
                "2000",
                "--hidden",
                &hidden.to_string(),
                "--ignored",
                &ignored.to_string(),
            ]);
            let text = out.ok();
            let mut found: Vec<&str> = text
                .lines()
                .filter(|l| !l.starts_with("(skipped: ") && !l.starts_with("No files matched "))
                .collect();
            found.sort_unstable();
            let problems = text.lines().filter(|l| l.starts_with("(skipped: ")).count();
            let (expected, errors) = reference_files(&listed, &ws.root, hidden, ignored);
            assert_eq!(
                found, expected,
                "glob, seed {seed}, hidden={hidden} ignored={ignored}\n{text}"
            );
            assert_eq!(
                problems, errors,
                "glob, seed {seed}, hidden={hidden} ignored={ignored}: problems\n{text}"
            );
            compared += 1;
        }
    }
    assert_eq!(compared, cases * 3);
}
