//! `skill [NAME]` on the real binary (spec 06, "skill"; issue 13): host-given folders,
//! front matter with a BOM, CRLF or an unquoted colon, defaults, first-wins order with
//! shadowed and skipped files listed, the catalogue in the schema within 8,000 characters,
//! the 100,000-character cap, folders readable by read_file, the tool left out when there is
//! no skill. Refusals are checked against snapshots of the workspace and the skill folders.

mod common;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use common::{Run, Ws};
use serde_json::{Value, json};

/// Every file under `dir`: relative path → bytes (a symlink: its target).
fn tree(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    fn walk(base: &Path, dir: &Path, out: &mut BTreeMap<String, Vec<u8>>) {
        let Ok(rd) = std::fs::read_dir(dir) else {
            return;
        };
        for e in rd.flatten() {
            let p = e.path();
            let rel = p.strip_prefix(base).unwrap().display().to_string();
            let meta = std::fs::symlink_metadata(&p).unwrap();
            if meta.file_type().is_symlink() {
                out.insert(
                    rel,
                    std::fs::read_link(&p)
                        .unwrap()
                        .into_os_string()
                        .into_encoded_bytes(),
                );
            } else if meta.is_dir() {
                out.insert(rel, b"<dir>".to_vec());
                walk(base, &p, out);
            } else {
                out.insert(rel, std::fs::read(&p).unwrap());
            }
        }
    }
    let mut out = BTreeMap::new();
    walk(dir, dir, &mut out);
    out
}

/// A workspace and skill folders beside it (`<base>/skills-a`, `<base>/skills-b`).
struct Fixture {
    ws: Ws,
}

impl Fixture {
    fn new() -> Fixture {
        let ws = Ws::new();
        ws.mkdir(".git");
        Fixture { ws }
    }

    fn dir(&self, name: &str) -> PathBuf {
        self.ws.base.join(name)
    }

    /// Writes `<base>/<dir>/<skill>/SKILL.md`.
    fn skill(&self, dir: &str, skill: &str, bytes: impl AsRef<[u8]>) -> &Self {
        self.file(dir, &format!("{skill}/SKILL.md"), bytes)
    }

    fn file(&self, dir: &str, rel: &str, bytes: impl AsRef<[u8]>) -> &Self {
        let p = self.dir(dir).join(rel);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, bytes).unwrap();
        self
    }

    /// `agtool --skills-dir <dir>... ARGS` from the root.
    fn run(&self, dirs: &[&str], args: &[&str]) -> Run {
        let mut c = self.ws.cmd();
        for d in dirs {
            c.arg("--skills-dir").arg(self.dir(d));
        }
        Run::from(c.args(args).output().unwrap())
    }

    /// The skill tool's description in `schema --groups skill` (None when left out).
    fn schema_description(&self, dirs: &[&str]) -> Option<String> {
        let r = self.run(dirs, &["--groups", "skill", "schema"]);
        let defs: Value = serde_json::from_str(r.ok()).unwrap();
        let defs = defs.as_array().unwrap();
        assert!(defs.len() <= 1);
        defs.first()
            .map(|d| d["description"].as_str().unwrap().to_owned())
    }

    fn snapshot(&self) -> (BTreeMap<String, Vec<u8>>, BTreeMap<String, Vec<u8>>) {
        (tree(&self.ws.root), tree(&self.ws.base))
    }
}

fn fm(name: &str, description: &str, body: &str) -> String {
    format!("---\nname: {name}\ndescription: {description}\n---\n{body}")
}

#[test]
fn bom_crlf_colon_and_defaults() {
    let f = Fixture::new();
    f.skill(
        "skills-a",
        "bom",
        format!("\u{feff}{}", fm("bom", "Has a byte-order mark", "b\n")),
    )
    .skill(
        "skills-a",
        "crlf",
        "---\r\nname: crlf\r\ndescription: >\r\n  Written on\r\n  Windows\r\n---\r\nBody\r\n",
    )
    .skill(
        "skills-a",
        "colon",
        "---\nname: colon\ndescription: Use when: the user asks for it\n---\nbody\n",
    )
    .skill(
        "skills-a",
        "noname",
        "---\ndescription: Named by its folder\n---\nx\n",
    )
    .skill(
        "skills-a",
        "nodesc",
        "---\nname: nodesc\n---\n# Title\n\nThe first\nparagraph.\n\nSecond one.\n",
    )
    .skill(
        "skills-a",
        "nofm",
        "No front matter at all.\nSecond line.\n\nMore.\n",
    );
    let r = f.run(&["skills-a"], &["skill"]);
    assert_eq!(
        r.ok(),
        "bom: Has a byte-order mark\n\
         colon: Use when: the user asks for it\n\
         crlf: Written on Windows\n\
         nodesc: The first paragraph.\n\
         nofm: No front matter at all. Second line.\n\
         noname: Named by its folder\n"
    );
    let desc = f.schema_description(&["skills-a"]).unwrap();
    assert!(desc.contains("\ncrlf: Written on Windows\n"), "{desc}");
    assert!(!desc.contains('\r') && !r.out.contains('\r'));
    assert!(!desc.contains('\u{feff}') && !r.out.contains('\u{feff}'));
    // The CRLF skill's body comes with \n line endings.
    let r = f.run(&["skills-a"], &["skill", "crlf"]);
    assert!(r.ok().ends_with("\nBody\n"), "{}", r.out);
    assert!(!r.out.contains('\r'));
}

#[test]
fn duplicates_first_wins_shadowed_listed_same_bytes_every_run() {
    let f = Fixture::new();
    f.skill("skills-a", "dup", fm("dup", "the first", ""))
        .skill(
            "skills-a",
            "zz-other",
            fm("dup", "second in the first folder", ""),
        )
        .skill("skills-a", "alpha", fm("alpha", "a", ""))
        .skill("skills-b", "dup", fm("dup", "from the second folder", ""))
        .skill("skills-b", "beta", fm("beta", "b", ""));
    let a = f.dir("skills-a");
    let b = f.dir("skills-b");
    let first = f.run(&["skills-a", "skills-b"], &["skill"]).ok().to_owned();
    assert_eq!(
        first,
        format!(
            "alpha: a\ndup: the first\nbeta: b\n\
             (shadowed: {zz}: the name dup is taken by {win})\n\
             (shadowed: {bdup}: the name dup is taken by {win})\n",
            zz = a.join("zz-other/SKILL.md").display(),
            win = a.join("dup/SKILL.md").display(),
            bdup = b.join("dup/SKILL.md").display(),
        )
    );
    for _ in 0..19 {
        assert_eq!(f.run(&["skills-a", "skills-b"], &["skill"]).ok(), first);
    }
    let d1 = f.schema_description(&["skills-a", "skills-b"]).unwrap();
    let d2 = f.schema_description(&["skills-a", "skills-b"]).unwrap();
    assert_eq!(d1, d2);
    assert!(d1.contains("\ndup: the first\n"), "{d1}");
    assert!(d1.contains("2 SKILL.md files or folders could not be used or are shadowed"));
    // The order of the folders decides.
    let r = f.run(&["skills-b", "skills-a"], &["skill", "dup"]);
    assert!(
        r.ok()
            .starts_with(&format!("Skill: dup\nPath: {}\n", b.join("dup").display()))
    );
}

#[test]
fn one_skill_with_its_files_and_fences_in_the_body() {
    let f = Fixture::new();
    f.skill(
        "skills-a",
        "pdf",
        fm(
            "pdf",
            "Fill PDF forms",
            "# PDF\n\nRun scripts/fill.py.\n---\nnot front matter\n---\nend\n",
        ),
    )
    .file("skills-a", "pdf/scripts/fill.py", "print('fill')\n")
    .file("skills-a", "pdf/reference.md", "ref\n");
    let dir = f.dir("skills-a").join("pdf");
    let r = f.run(&["skills-a"], &["skill", "pdf"]);
    assert_eq!(
        r.ok(),
        format!(
            "Skill: pdf\nPath: {}\nFiles:\n  reference.md\n  scripts/fill.py\n\n\
             # PDF\n\nRun scripts/fill.py.\n---\nnot front matter\n---\nend\n",
            dir.display()
        )
    );
    // The files beside SKILL.md are readable by read_file, through the skill folders only.
    let script = dir.join("scripts/fill.py").display().to_string();
    let r = f.run(&["skills-a"], &["read-file", &script]);
    assert!(r.ok().contains("print('fill')"), "{}", r.out);
    let r = f.run(&[], &["read-file", &script]);
    assert_eq!(r.code, 1, "{r:?}");
    assert!(r.out.contains("outside the workspace"), "{r:?}");
    // call works the same with the group enabled.
    let r = Run::from(
        f.ws.cmd()
            .args(["--skills-dir"])
            .arg(f.dir("skills-a"))
            .args(["--groups", "skill", "call", "skill"])
            .write_stdin(json!({"name": "pdf"}).to_string())
            .output()
            .unwrap(),
    );
    assert!(r.ok().starts_with("Skill: pdf\n"), "{r:?}");
}

#[test]
fn a_300_kb_skill_is_cut_with_the_way_to_read_the_rest() {
    let f = Fixture::new();
    let mut body = String::new();
    let mut n = 0;
    while body.len() < 300_000 {
        n += 1;
        body.push_str(&format!("line {n:06} of the big skill, with some text\n"));
    }
    f.skill("skills-a", "big", fm("big", "Big", &body));
    let r = f.run(&["skills-a"], &["skill", "big"]);
    let out = r.ok();
    let last = out.lines().last().unwrap();
    let file = f.dir("skills-a").join("big/SKILL.md").display().to_string();
    let prefix = format!(
        "(the skill is cut at 100000 characters; read the rest with read_file path={file} offset="
    );
    assert!(last.starts_with(&prefix), "{last}");
    let offset: usize = last[prefix.len()..].trim_end_matches(')').parse().unwrap();
    let shown_body = &out[out.find("\n\n").unwrap() + 2..out.len() - last.len() - 1];
    assert!(shown_body.chars().count() <= 100_000);
    assert!(shown_body.ends_with('\n'));
    let shown_lines = shown_body.lines().count();
    // The front matter is 4 lines: the body's line k is the file's line k + 4.
    assert_eq!(offset, shown_lines + 5);
    let rest = f.run(
        &["skills-a"],
        &[
            "read-file",
            &file,
            "--offset",
            &offset.to_string(),
            "--limit",
            "1",
        ],
    );
    assert!(
        rest.ok()
            .contains(&format!("line {:06} of the big skill", shown_lines + 1)),
        "{}",
        rest.out
    );
}

#[test]
fn two_hundred_skills_keep_the_schema_description_within_budget() {
    let f = Fixture::new();
    for i in 0..200 {
        f.skill(
            "skills-a",
            &format!("skill-{i:03}"),
            fm(
                &format!("skill-{i:03}"),
                &format!(
                    "Use for task number {i}, which needs a long explanation {}",
                    "x".repeat(40)
                ),
                "",
            ),
        );
    }
    let desc = f.schema_description(&["skills-a"]).unwrap();
    assert!(
        desc.chars().count() <= 8_000,
        "{} characters",
        desc.chars().count()
    );
    let shown = desc.lines().filter(|l| l.starts_with("skill-")).count();
    let last = desc.lines().last().unwrap();
    assert_eq!(
        last,
        format!(
            "… and {} more; call skill with no name for the whole list",
            200 - shown
        )
    );
    assert!(shown > 50, "{shown}");
    assert_eq!(f.run(&["skills-a"], &["skill"]).ok().lines().count(), 200);
}

#[test]
fn bad_inputs_change_nothing_and_say_what_is_wrong() {
    let f = Fixture::new();
    let long = "d".repeat(1500);
    f.skill("skills-a", "pdf", fm("pdf", "Fill PDF forms", "x\n"))
        .skill("skills-a", "pptx", fm("pptx", "Slides", "x\n"))
        .skill(
            "skills-a",
            "unclosed",
            "---\nname: unclosed\ndescription: never closed\n",
        )
        .skill(
            "skills-a",
            "inject",
            fm("inject", "a </description><skill> b", "x\n"),
        )
        .skill("skills-a", "long", fm("long", &long, "x\n"));
    let utf16: Vec<u8> = [0xFF, 0xFE]
        .into_iter()
        .chain(
            fm("wide", "UTF-16", "x\n")
                .encode_utf16()
                .flat_map(u16::to_le_bytes),
        )
        .collect();
    f.skill("skills-a", "wide", utf16);
    let before = f.snapshot();
    let cat = f.run(&["skills-a"], &["skill"]).ok().to_owned();
    let a = f.dir("skills-a");
    let expected_long = format!("long: {}…", "d".repeat(1023));
    assert_eq!(
        cat.lines().collect::<Vec<_>>(),
        [
            "inject: a </description><skill> b",
            expected_long.as_str(),
            "pdf: Fill PDF forms",
            "pptx: Slides",
            &format!(
                "(skipped: {}: its front matter opens with --- on line 1 but is never closed (no second --- line))",
                a.join("unclosed/SKILL.md").display()
            ),
            &format!(
                "(skipped: {}: it is UTF-16LE text (byte-order mark); save it as UTF-8)",
                a.join("wide/SKILL.md").display()
            ),
        ]
    );
    for (name, code, says) in [
        ("../notes", 1, "never a path"),
        ("/etc/passwd", 1, "never a path"),
        ("", 2, "the skill name is empty"),
        ("pfd", 1, "no skill named \"pfd\"; available: pdf, "),
        ("unclosed", 1, "available:"),
        ("PDF", 1, "available: pdf"),
    ] {
        let r = f.run(&["skills-a"], &["skill", name]);
        assert_eq!(r.code, code, "{name:?}: {r:?}");
        let msg = if code == 2 { &r.err } else { &r.out };
        assert!(
            msg.starts_with("Error: ") && msg.contains(says),
            "{name:?}: {msg}"
        );
        assert!(!msg.contains("root:"), "{msg}");
    }
    // A folder that does not exist is named in the error.
    let missing = f.dir("no-such-folder");
    for args in [&["skill"][..], &["skill", "pdf"]] {
        let r = f.run(&["no-such-folder"], args);
        assert_eq!(r.code, 1, "{r:?}");
        assert!(
            r.out.contains(&format!(
                "{}: the skills folder does not exist (given by --skills-dir)",
                missing.display()
            )),
            "{r:?}"
        );
    }
    // With another folder that works, the missing one is a skipped line.
    let r = f.run(&["no-such-folder", "skills-a"], &["skill"]);
    assert!(
        r.ok().lines().any(|l| l
            == format!(
                "(skipped: {}: the skills folder does not exist (given by --skills-dir))",
                missing.display()
            )),
        "{}",
        r.out
    );
    assert_eq!(f.snapshot(), before);
}

#[test]
fn no_skill_leaves_the_tool_out() {
    let f = Fixture::new();
    std::fs::create_dir_all(f.dir("empty")).unwrap();
    for dirs in [&[][..], &["empty"], &["no-such-folder"]] {
        assert_eq!(f.schema_description(dirs), None, "{dirs:?}");
        let r = f.run(dirs, &["--groups", "all", "schema"]);
        assert!(!r.ok().contains("\"skill\""), "{dirs:?}");
        let r = f.run(dirs, &["--groups", "skill", "schema", "skill"]);
        assert_eq!(r.code, 2, "{r:?}");
        let mut c = f.ws.cmd();
        for d in dirs {
            c.arg("--skills-dir").arg(f.dir(d));
        }
        let r = Run::from(
            c.args(["--groups", "skill", "call", "skill"])
                .write_stdin("{}")
                .output()
                .unwrap(),
        );
        assert_eq!(r.code, 2, "{r:?}");
        assert!(r.err.contains("skill is not available here"), "{r:?}");
    }
    let r = f.run(&[], &["skill"]);
    assert_eq!(r.code, 1);
    assert!(r.out.contains("--skills-dir DIR"), "{r:?}");
    let r = f.run(&["empty"], &["skill"]);
    assert_eq!(
        r.ok(),
        format!("No skills in {}.\n", f.dir("empty").display())
    );
}

#[test]
fn folders_from_the_environment_and_config() {
    let f = Fixture::new();
    f.skill("skills-a", "one", fm("one", "first", "")).skill(
        "skills-b",
        "two",
        fm("two", "second", ""),
    );
    f.ws.mkdir("sub");
    // AGTOOL_SKILLS: colon-separated, relative to the current folder.
    let r = Run::from(
        f.ws.cmd_in(&f.ws.path("sub"))
            .env("AGTOOL_SKILLS", "../../skills-b::../../skills-a")
            .arg("skill")
            .output()
            .unwrap(),
    );
    assert_eq!(r.ok(), "two: second\none: first\n");
    // The flag wins over the variable.
    let r = Run::from(
        f.ws.cmd()
            .env("AGTOOL_SKILLS", f.dir("skills-b"))
            .arg("--skills-dir")
            .arg(f.dir("skills-a"))
            .arg("skill")
            .output()
            .unwrap(),
    );
    assert_eq!(r.ok(), "one: first\n");
    // Config skills.dirs: relative to the workspace root. It widens what may be read, so the
    // workspace's own config is obeyed only when the user trusts the workspace.
    std::fs::create_dir_all(f.ws.home.join(".config/agtool")).unwrap();
    std::fs::write(
        f.ws.home.join(".config/agtool/config.toml"),
        format!("trusted_workspaces = [\"{}\"]\n", f.ws.root.display()),
    )
    .unwrap();
    f.ws.write(
        ".agent-state/config.toml",
        "[skills]\ndirs = [\"../skills-b\"]\n",
    );
    let r = Run::from(
        f.ws.cmd_in(&f.ws.path("sub"))
            .arg("skill")
            .output()
            .unwrap(),
    );
    assert_eq!(r.ok(), "two: second\n");
}

/// A symlinked skill folder is a read root only when it holds its own SKILL.md and its target
/// is not `/`, the home folder (or above it) or under a deny_read name; refused links and a
/// SKILL.md symlink leading out of its folder are listed as skipped, never read.
#[test]
fn symlinked_skill_folders_never_widen_reads() {
    let f = Fixture::new();
    f.skill("skills-a", "pdf", fm("pdf", "pdf work", "body\n"))
        .file("home", ".ssh/id_rsa", "PRIVATE KEY\n")
        .file("home", "notes.txt", "home note\n")
        .skill("elsewhere", "lnk", fm("lnk", "linked", "b\n"))
        .file("elsewhere", "lnk/x.txt", "beside\n")
        .file("elsewhere", "plain/y.txt", "no skill here\n")
        .file("home", "SKILL.md", fm("home", "whole home", "b\n"));
    let skills = f.dir("skills-a");
    let home = f.dir("home");
    let link = |name: &str, to: &Path| std::os::unix::fs::symlink(to, skills.join(name)).unwrap();
    link("keys", &home.join(".ssh"));
    link("docs", Path::new("/"));
    link("myhome", &home);
    link("lnk", &f.dir("elsewhere").join("lnk"));
    link("plain", &f.dir("elsewhere").join("plain"));
    std::fs::create_dir(skills.join("evil")).unwrap();
    std::os::unix::fs::symlink("/etc/passwd", skills.join("evil/SKILL.md")).unwrap();
    let run = |args: &[&str]| {
        Run::from(
            f.ws.cmd()
                .env("HOME", &home)
                .arg("--skills-dir")
                .arg(&skills)
                .args(args)
                .output()
                .unwrap(),
        )
    };
    let before = f.snapshot();
    for path in [
        "keys/id_rsa",
        "docs/etc/hostname",
        "docs/etc/passwd",
        "myhome/notes.txt",
        "plain/y.txt",
    ] {
        let p = skills.join(path).display().to_string();
        let r = run(&["read-file", &p]);
        assert_eq!(r.code, 1, "{path}: {r:?}");
        assert!(r.out.starts_with("Error: "), "{path}: {r:?}");
        let r = run(&["copy-path", &p, "stolen"]);
        assert_eq!(r.code, 1, "{path}: {r:?}");
    }
    assert_eq!(f.snapshot(), before);
    // A linked folder holding its own SKILL.md is a skill, and the files beside it are readable.
    let r = run(&["read-file", &skills.join("lnk/x.txt").display().to_string()]);
    assert!(r.ok().contains("beside"), "{r:?}");
    let s = skills.display();
    let r = run(&["skill"]);
    assert_eq!(
        r.ok(),
        format!(
            "lnk: linked\npdf: pdf work\n\
             (skipped: {s}/docs: it is a symlink to /, the home folder or a folder holding it; \
             a linked skill folder must be the skill's own folder, this user's)\n\
             (skipped: {s}/evil/SKILL.md: it is a symlink leading out of its skill folder; a \
             SKILL.md must be a file in the skill's folder)\n\
             (skipped: {s}/keys: it is a symlink to {h}/.ssh, and .ssh is a name the read tools \
             never read (deny_read); a linked skill folder must be the skill's own folder, this \
             user's)\n\
             (skipped: {s}/myhome: it is a symlink to {h}, the home folder or a folder holding \
             it; a linked skill folder must be the skill's own folder, this user's)\n",
            h = home.display()
        )
    );
    let r = run(&["skill", "evil"]);
    assert_eq!(r.code, 1, "{r:?}");
    assert!(!r.out.contains("root:"), "{r:?}");
}

/// A skill link into a folder others may write to (a sticky, world-writable folder like /tmp,
/// where anyone can plant a SKILL.md) is refused, and so is one reached with `HOME` unset
/// that holds the home folder.
#[test]
fn a_skill_link_into_a_shared_folder_or_above_an_unset_home_is_refused() {
    use std::os::unix::fs::PermissionsExt;
    let f = Fixture::new();
    f.skill("skills-a", "pdf", fm("pdf", "pdf work", "body\n"))
        .file("shared", "SKILL.md", fm("t", "planted", "b\n"))
        .file("shared", "other/token.txt", "TOKEN\n");
    let shared = f.dir("shared");
    std::fs::set_permissions(&shared, std::fs::Permissions::from_mode(0o1777)).unwrap();
    let skills = f.dir("skills-a");
    std::os::unix::fs::symlink(&shared, skills.join("tmp")).unwrap();
    let token = skills.join("tmp/other/token.txt").display().to_string();
    let r = Run::from(
        f.ws.cmd()
            .arg("--skills-dir")
            .arg(&skills)
            .args(["read-file", &token])
            .output()
            .unwrap(),
    );
    assert_eq!(r.code, 1, "{r:?}");
    let r = Run::from(
        f.ws.cmd()
            .arg("--skills-dir")
            .arg(&skills)
            .arg("skill")
            .output()
            .unwrap(),
    );
    assert!(r.ok().contains("shared by all users (sticky)"), "{}", r.out);
    // HOME unset: the password database's home folder still counts.
    let Some(pw_home) = std::fs::canonicalize(
        String::from_utf8(
            std::process::Command::new("sh")
                .args(["-c", "getent passwd $(id -u) | cut -d: -f6"])
                .output()
                .unwrap()
                .stdout,
        )
        .unwrap()
        .trim(),
    )
    .ok() else {
        return;
    };
    let _ = std::fs::remove_file(skills.join("tmp"));
    std::os::unix::fs::symlink(&pw_home, skills.join("home")).unwrap();
    let r = Run::from(
        f.ws.cmd()
            .env_remove("HOME")
            .arg("--skills-dir")
            .arg(&skills)
            .arg("skill")
            .output()
            .unwrap(),
    );
    assert!(
        r.ok().contains("the home folder or a folder holding it"),
        "{}",
        r.out
    );
}

/// A skills folder that is itself a symlink to `/` (or to a folder others may write to)
/// widens nothing: with `--skills-dir ./skills` and a repository's `skills -> /`, every read
/// outside the workspace is still refused, and the catalogue says the folder is not used.
#[test]
fn a_skills_folder_leading_to_root_or_a_shared_folder_is_not_used() {
    use std::os::unix::fs::PermissionsExt;
    let f = Fixture::new();
    f.file("shared", "t/SKILL.md", fm("t", "planted", "b\n"))
        .file("shared", "secret.txt", "SECRET\n");
    let shared = f.dir("shared");
    std::fs::set_permissions(&shared, std::fs::Permissions::from_mode(0o1777)).unwrap();
    std::os::unix::fs::symlink("/", f.ws.path("skills")).unwrap();
    std::os::unix::fs::symlink(&shared, f.ws.path("skills_tmp")).unwrap();
    let outside = shared.join("secret.txt").display().to_string();
    for dir in ["./skills", "./skills_tmp"] {
        let run = |args: &[&str]| {
            Run::from(
                f.ws.cmd_in(&f.ws.root)
                    .args(["--skills-dir", dir])
                    .args(args)
                    .output()
                    .unwrap(),
            )
        };
        let r = run(&["read-file", &outside]);
        assert_eq!(r.code, 1, "{dir}: {r:?}");
        let r = run(&["read-file", "/etc/hostname"]);
        assert_eq!(r.code, 1, "{dir}: {r:?}");
        let r = run(&["skill"]);
        assert!(r.out.contains("it is not used"), "{dir}: {r:?}");
    }
}

/// 518 bytes of front matter whose nested aliases stand for 9^9 scalars ("billion laughs").
fn alias_bomb() -> String {
    let mut s = String::from("---\nname: bomb\ndescription: boom\n");
    s.push_str("a: &a [\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\"]\n");
    for (name, prev) in [
        ("b", "a"),
        ("c", "b"),
        ("d", "c"),
        ("e", "d"),
        ("f", "e"),
        ("g", "f"),
        ("h", "g"),
        ("i", "h"),
    ] {
        let refs = vec![format!("*{prev}"); 9].join(",");
        s.push_str(&format!("{name}: &{name} [{refs}]\n"));
    }
    s.push_str("---\nBody.\n");
    s
}

/// `agtool ARGS` under a 2 GiB address-space limit (setrlimit in the child), with `stdin`,
/// killed after 60 s: (exit status, stdout, seconds taken).
fn run_bounded(f: &Fixture, args: &[&str], stdin: &[u8]) -> (Option<i32>, String, f64) {
    use std::io::Write;
    use std::os::unix::process::CommandExt;
    let mut c = f.ws.std_cmd_in(&f.ws.root);
    c.arg("--skills-dir").arg(f.dir("skills-a")).args(args);
    c.stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null());
    // SAFETY: setrlimit is async-signal-safe; nothing allocates between fork and exec.
    unsafe {
        c.pre_exec(|| {
            let lim = libc::rlimit {
                rlim_cur: 2 << 30,
                rlim_max: 2 << 30,
            };
            if libc::setrlimit(libc::RLIMIT_AS, &lim) != 0 {
                return Err(std::io::Error::last_os_error());
            }
            Ok(())
        });
    }
    let started = std::time::Instant::now();
    let mut child = c.spawn().unwrap();
    let mut input = child.stdin.take().unwrap();
    input.write_all(stdin).unwrap();
    drop(input);
    let mut out = child.stdout.take().unwrap();
    let reader = std::thread::spawn(move || {
        let mut s = String::new();
        let _ = std::io::Read::read_to_string(&mut out, &mut s);
        s
    });
    let status = loop {
        if let Some(st) = child.try_wait().unwrap() {
            break st.code();
        }
        if started.elapsed() > std::time::Duration::from_secs(60) {
            let _ = child.kill();
            let _ = child.wait();
            break None;
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    };
    (
        status,
        reader.join().unwrap(),
        started.elapsed().as_secs_f64(),
    )
}

/// Issue 17, item 1: a SKILL.md whose front matter is a YAML alias bomb is skipped with the
/// reason, fast and in bounded memory, by `skill`, `schema` and `mcp` start-up (before the
/// fix all three built the expanded tree: 14.8 GB, or "memory allocation failed" under a
/// limit).
#[test]
fn a_yaml_alias_bomb_is_skipped_fast_in_bounded_memory() {
    let f = Fixture::new();
    let bomb = alias_bomb();
    assert!(bomb.len() < 600, "{}", bomb.len());
    f.skill("skills-a", "bomb", &bomb).skill(
        "skills-a",
        "good",
        fm("good", "A usable skill", "b\n"),
    );
    let (code, out, secs) = run_bounded(&f, &["skill"], b"");
    assert_eq!(code, Some(0), "{out}");
    assert!(out.contains("good: A usable skill"), "{out}");
    assert!(
        out.contains("bomb/SKILL.md: its front matter's") && out.contains("alias"),
        "{out}"
    );
    assert!(secs < 20.0, "{secs} s");
    let (code, out, secs) = run_bounded(&f, &["--groups", "skill", "schema"], b"");
    assert_eq!(code, Some(0), "{out}");
    assert!(out.contains("good: A usable skill"), "{out}");
    assert!(secs < 20.0, "{secs} s");
    let requests = [
        json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
            "protocolVersion": "2025-11-25", "capabilities": {},
            "clientInfo": {"name": "bomb-test", "version": "1"}}}),
        json!({"jsonrpc": "2.0", "method": "notifications/initialized"}),
        json!({"jsonrpc": "2.0", "id": 2, "method": "tools/list"}),
    ];
    let input: String = requests.iter().map(|r| format!("{r}\n")).collect();
    let (code, out, secs) = run_bounded(&f, &["--groups", "skill", "mcp"], input.as_bytes());
    assert_eq!(code, Some(0), "{out}");
    let listed = out
        .lines()
        .filter_map(|l| serde_json::from_str::<Value>(l).ok())
        .find(|v| v["id"] == 2)
        .unwrap_or_else(|| panic!("no tools/list answer: {out}"));
    assert!(
        listed.to_string().contains("good: A usable skill"),
        "{listed}"
    );
    assert!(secs < 20.0, "{secs} s");
}

/// Issue 17, item 6: bidi controls in a skill's name or description are shown escaped in the
/// catalogue and the schema description, never obeyed (before, they reached both raw).
#[test]
fn bidi_controls_in_the_catalogue_are_escaped() {
    let f = Fixture::new();
    f.skill(
        "skills-a",
        "trojan",
        fm(
            "trojan",
            "Safe \u{202e}exe.txt\u{2066} tool \u{200e}",
            "b\n",
        ),
    );
    let r = f.run(&["skills-a"], &["skill"]);
    assert_eq!(r.ok(), "trojan: Safe \\u202eexe.txt\\u2066 tool \\u200e\n");
    let d = f.schema_description(&["skills-a"]).unwrap();
    assert!(d.contains("Safe \\u202eexe.txt\\u2066 tool"), "{d}");
    assert!(!d.contains('\u{202e}'), "{d}");
}

/// Issue 18 §2: each schema format keeps the skill tool within its API's limits at 200 skills.
/// OpenAI caps a function's description at 1,024 characters, so there the catalogue moves into
/// the `name` parameter's description; the others carry it in the tool description (8,000).
#[test]
fn two_hundred_skills_fit_every_format() {
    let f = Fixture::new();
    for i in 0..200 {
        f.skill(
            "skills-a",
            &format!("skill-{i:03}"),
            fm(
                &format!("skill-{i:03}"),
                &format!(
                    "Use for task number {i}, which needs a long explanation {}",
                    "x".repeat(40)
                ),
                "",
            ),
        );
    }
    for (format, limit) in [
        ("anthropic", 8_000),
        ("mcp", 8_000),
        ("gemini", 8_000),
        ("openai", 1_024),
        ("openai-responses", 1_024),
    ] {
        let r = f.run(
            &["skills-a"],
            &["--groups", "skill", "schema", "--format", format],
        );
        let defs: Value = serde_json::from_str(r.ok()).unwrap();
        let def = &defs[0];
        let function = if format == "openai" {
            &def["function"]
        } else {
            def
        };
        let params = ["parameters", "input_schema", "inputSchema"]
            .iter()
            .find_map(|k| function.get(*k))
            .unwrap_or_else(|| panic!("{format}: {def}"));
        let desc = function["description"].as_str().unwrap();
        assert!(
            desc.chars().count() <= limit,
            "{format}: {} characters",
            desc.chars().count()
        );
        // The catalogue is where the model sees it, cut with the way to the whole list.
        let catalogue = if limit == 1_024 {
            assert!(!desc.contains("skill-000:"), "{format}: {desc}");
            assert!(
                desc.contains("listed in the description of its name parameter"),
                "{desc}"
            );
            params["properties"]["name"]["description"]
                .as_str()
                .unwrap()
        } else {
            desc
        };
        assert!(
            catalogue.contains("skill-000: Use for task number 0"),
            "{format}"
        );
        assert!(
            catalogue
                .trim_end()
                .ends_with("more; call skill with no name for the whole list"),
            "{format}: {catalogue}"
        );
    }
}
