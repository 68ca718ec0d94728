//! Skills: manuals a host makes available, loaded when needed (spec 06, "skill").
//!
//! Skill folders come from the host (`--skills-dir`, `AGTOOL_SKILLS`, config `skills.dirs`);
//! each holds one subdirectory per skill with a `SKILL.md` (or `skill.md`). [`scan`] reads
//! them into a [`Catalogue`] in a fixed order: folders as given, subdirectories sorted by
//! name, the first skill of a name wins. Every SKILL.md that cannot be used, and every skill
//! shadowed by an earlier one of the same name, is listed as an [`Issue`], never left out
//! silently.

pub mod dirs;
pub mod front_matter;

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

pub use crate::skills::dirs::SkillDir;
use crate::skills::dirs::{linked_skill, skill_file};
pub use front_matter::SkillFile;

/// Most bytes of a SKILL.md read; a larger file is skipped with its size.
pub const MAX_SKILL_FILE_BYTES: u64 = 16 * 1024 * 1024;
/// How long one scan of the skill folders may take ([`scan`]); what is not reached by then
/// is listed as skipped. Each SKILL.md is bounded by itself (size, front matter bounds): this
/// bounds a folder of countless entries or a slow filesystem, for `skill`, and for `schema`
/// and `mcp`, which scan when they start.
pub const SCAN_DEADLINE: Duration = Duration::from_secs(10);
/// Most characters of a skill's body that `skill NAME` shows (spec 06).
pub const MAX_BODY_CHARS: usize = 100_000;
/// Most files beside a SKILL.md listed by `skill NAME` (spec 06).
pub const MAX_LISTED_FILES: usize = 50;
/// Most entries looked at while listing a skill's folder (a skill folder holding a huge tree
/// must not stall the call).
const MAX_WALKED_ENTRIES: usize = 5_000;

/// A usable skill.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Skill {
    /// Its name (front matter `name`, else the subdirectory's name).
    pub name: String,
    /// One line, at most 1024 characters; `(no description)` when there is none.
    pub description: String,
    /// The skill's folder.
    pub dir: PathBuf,
    /// Its SKILL.md.
    pub file: PathBuf,
}

/// Why a skill folder or SKILL.md is not in the catalogue.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum IssueKind {
    /// It cannot be used (a missing folder, a file that is not UTF-8, front matter never
    /// closed, ...).
    Skipped,
    /// An earlier skill has the same name.
    Shadowed,
}

/// One `(skipped: ...)` or `(shadowed: ...)` line of the catalogue.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Issue {
    /// Skipped or shadowed.
    pub kind: IssueKind,
    /// The SKILL.md (or skill folder) concerned.
    pub path: PathBuf,
    /// Why, as a phrase (`it is UTF-16LE text ...`, `the name dup is taken by <path>`).
    pub reason: String,
}

/// Every skill of the host's folders, in catalogue order, and every issue met.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Catalogue {
    /// Usable skills, first of each name only.
    pub skills: Vec<Skill>,
    /// Skipped and shadowed SKILL.md files and missing folders, in the order met.
    pub issues: Vec<Issue>,
}

impl Catalogue {
    /// The skill named exactly `name`.
    pub fn find(&self, name: &str) -> Option<&Skill> {
        self.skills.iter().find(|s| s.name == name)
    }

    /// Names of the skills, closest to `name` first (by character-bigram likeness, ties in
    /// catalogue order).
    pub fn closest_names(&self, name: &str) -> Vec<&str> {
        let names: Vec<&str> = self.skills.iter().map(|s| s.name.as_str()).collect();
        crate::text::names::rank_by_likeness(name, &names)
            .into_iter()
            .map(|(n, _)| n)
            .collect()
    }
}

/// What comes between the skill tool's intro and its catalogue in its description; schema
/// export finds the catalogue by it to move it where an API's limits allow (issue 18 §2).
pub const CATALOGUE_HEADING: &str = "\n\nSkills:\n";

/// Most characters of the tool description that carries the catalogue (spec 06).
pub const MAX_DESCRIPTION_CHARS: usize = 8_000;

impl Catalogue {
    /// The catalogue as `skill` with no name prints it: one `<name>: <description>` line per
    /// skill, then a `(skipped: <path>: <reason>)` or `(shadowed: <path>: <reason>)` line per
    /// issue, control and bidi characters escaped ([`crate::text::controls`]). `show` turns a
    /// path into the text printed for it.
    pub fn text(&self, show: &dyn Fn(&Path) -> String) -> String {
        let mut out = String::new();
        for s in &self.skills {
            out.push_str(&format!("{}: {}\n", s.name, s.description));
        }
        for i in &self.issues {
            let kind = match i.kind {
                IssueKind::Skipped => "skipped",
                IssueKind::Shadowed => "shadowed",
            };
            out.push_str(&format!("({kind}: {}: {})\n", show(&i.path), i.reason));
        }
        // Names, descriptions and paths come from the skill folders: bidi controls (and any
        // control character left) are shown escaped, never obeyed.
        crate::text::controls::escape_controls(out)
    }

    /// A tool description: `intro`, then as many catalogue lines as fit in
    /// [`MAX_DESCRIPTION_CHARS`] characters in all, then `… and <n> more; call skill with no
    /// name for the whole list` when some did not fit, and a count of the issues when there
    /// are any (their lines are in the no-name call's output).
    pub fn description(&self, intro: &str) -> String {
        const TAIL_RESERVE: usize = 200;
        let mut out = format!("{intro}{CATALOGUE_HEADING}");
        let budget = MAX_DESCRIPTION_CHARS.saturating_sub(TAIL_RESERVE);
        let mut used = out.chars().count();
        let mut shown = 0;
        for s in &self.skills {
            let line =
                crate::text::controls::escape_controls(format!("{}: {}\n", s.name, s.description));
            let len = line.chars().count();
            if used + len > budget {
                break;
            }
            out.push_str(&line);
            used += len;
            shown += 1;
        }
        let more = self.skills.len() - shown;
        if more > 0 {
            out.push_str(&format!(
                "… and {more} more; call skill with no name for the whole list\n"
            ));
        }
        if !self.issues.is_empty() {
            out.push_str(&format!(
                "({} SKILL.md files or folders could not be used or are shadowed; call skill \
                 with no name to see them)\n",
                self.issues.len()
            ));
        }
        out.truncate(out.trim_end().len());
        out
    }
}

/// Reads every skill folder in `dirs` (spec 06, order and first-wins). Never fails: folders
/// and files that cannot be read become issues, and so do symlinked skill folders that
/// [`crate::skills::dirs::linked_skill`] refuses (`denied` tells the deny_read names)
/// and SKILL.md symlinks leading out of their folder ([`skill_file`]).
pub fn scan(dirs: &[SkillDir], denied: &dyn Fn(&std::ffi::OsStr) -> bool) -> Catalogue {
    scan_until(dirs, denied, Instant::now() + SCAN_DEADLINE)
}

/// [`scan`] that stops at `deadline`: the folder being read then (and every later one) gets a
/// `skipped` issue saying the scan ran out of time and from which skill on it was not read.
pub fn scan_until(
    dirs: &[SkillDir],
    denied: &dyn Fn(&std::ffi::OsStr) -> bool,
    deadline: Instant,
) -> Catalogue {
    let mut cat = Catalogue::default();
    let out_of_time = |cat: &mut Catalogue, path: &Path, from: Option<&str>| {
        let what = match from {
            Some(name) => format!("its skills from {name} on were not read"),
            None => "it was not read".to_owned(),
        };
        cat.issues.push(Issue {
            kind: IssueKind::Skipped,
            path: path.to_path_buf(),
            reason: format!(
                "the skill scan ran out of its {} s; {what}",
                SCAN_DEADLINE.as_secs()
            ),
        });
    };
    for dir in dirs {
        if Instant::now() >= deadline {
            out_of_time(&mut cat, &dir.path, None);
            continue;
        }
        if let Ok(real) = std::fs::canonicalize(&dir.path)
            && let Some(why) = crate::skills::dirs::unsafe_folder(&real, denied)
        {
            cat.issues.push(Issue {
                kind: IssueKind::Skipped,
                path: dir.path.clone(),
                reason: format!(
                    "the skills folder (given by {}) leads to {}, {why}; it is not used",
                    dir.origin,
                    real.display()
                ),
            });
            continue;
        }
        let mut subdirs: Vec<(String, PathBuf)> = match std::fs::read_dir(&dir.path) {
            Ok(entries) => entries
                .flatten()
                .take_while(|_| Instant::now() < deadline)
                .filter(|e| std::fs::metadata(e.path()).is_ok_and(|m| m.is_dir()))
                .map(|e| (e.file_name().to_string_lossy().into_owned(), e.path()))
                .filter(|(name, _)| !name.starts_with('.'))
                .collect(),
            Err(e) => {
                let what = match e.kind() {
                    std::io::ErrorKind::NotFound => "does not exist".to_owned(),
                    std::io::ErrorKind::NotADirectory => "is not a folder".to_owned(),
                    _ => format!("cannot be read: {}", crate::error::io_reason(&e)),
                };
                cat.issues.push(Issue {
                    kind: IssueKind::Skipped,
                    path: dir.path.clone(),
                    reason: format!("the skills folder {what} (given by {})", dir.origin),
                });
                continue;
            }
        };
        for own in ["SKILL.md", "skill.md"] {
            if dir.path.join(own).is_file() {
                cat.issues.push(Issue {
                    kind: IssueKind::Skipped,
                    path: dir.path.join(own),
                    reason: "a skills folder holds one subdirectory per skill; give its parent \
                             folder to load this one"
                        .to_owned(),
                });
                break;
            }
        }
        if Instant::now() >= deadline {
            out_of_time(&mut cat, &dir.path, None);
            continue;
        }
        subdirs.sort();
        for (dir_name, sub) in subdirs {
            if Instant::now() >= deadline {
                out_of_time(&mut cat, &dir.path, Some(&dir_name));
                break;
            }
            if std::fs::symlink_metadata(&sub).is_ok_and(|m| m.file_type().is_symlink())
                && let Err(reason) = linked_skill(&sub, denied)
            {
                cat.issues.push(Issue {
                    kind: IssueKind::Skipped,
                    path: sub,
                    reason,
                });
                continue;
            }
            let file = match skill_file(&sub) {
                None => continue,
                Some(Ok(file)) => file,
                Some(Err((path, reason))) => {
                    cat.issues.push(Issue {
                        kind: IssueKind::Skipped,
                        path,
                        reason,
                    });
                    continue;
                }
            };
            match read_skill_file(&file) {
                Ok(parsed) => add(&mut cat, dir_name, sub, file, parsed),
                Err(reason) => cat.issues.push(Issue {
                    kind: IssueKind::Skipped,
                    path: file,
                    reason,
                }),
            }
        }
    }
    cat
}

fn add(cat: &mut Catalogue, dir_name: String, dir: PathBuf, file: PathBuf, parsed: SkillFile) {
    let name = parsed
        .name
        .unwrap_or_else(|| front_matter::one_line(&dir_name));
    if let Some(first) = cat.find(&name) {
        let reason = format!("the name {name} is taken by {}", first.file.display());
        cat.issues.push(Issue {
            kind: IssueKind::Shadowed,
            path: file,
            reason,
        });
        return;
    }
    cat.skills.push(Skill {
        name,
        description: parsed
            .description
            .unwrap_or_else(|| "(no description)".to_owned()),
        dir,
        file,
    });
}

/// Reads and parses one SKILL.md; `Err` is the reason it is skipped.
pub fn read_skill_file(file: &Path) -> Result<SkillFile, String> {
    let meta = std::fs::metadata(file)
        .map_err(|e| format!("it cannot be read: {}", crate::error::io_reason(&e)))?;
    if !meta.is_file() {
        return Err("it is not a regular file".to_owned());
    }
    if meta.len() > MAX_SKILL_FILE_BYTES {
        return Err(format!(
            "it is {}, over the {MAX_SKILL_FILE_BYTES}-byte limit for a SKILL.md",
            crate::text::plural::count(meta.len(), "byte")
        ));
    }
    // Opened without blocking: a FIFO swapped in after the check above is refused.
    let bytes = crate::fileio::special::read_regular(file)
        .map_err(|e| format!("it cannot be read: {e}"))?;
    front_matter::parse(&bytes)
}

/// The files in a skill's folder other than its SKILL.md, as paths relative to the folder
/// (sorted; hidden entries and symlinked folders not entered), at most
/// [`MAX_LISTED_FILES`]; and how many more there are (counting stops after a few thousand
/// entries, so the second value is a lower bound then, and the flag says so).
pub fn other_files(skill: &Skill) -> (Vec<String>, usize, bool) {
    let mut found = Vec::new();
    let mut walked = 0;
    let mut stack = vec![PathBuf::new()];
    let mut capped = false;
    while let Some(rel) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(skill.dir.join(&rel)) else {
            continue;
        };
        for e in entries.flatten() {
            walked += 1;
            if walked > MAX_WALKED_ENTRIES {
                capped = true;
                break;
            }
            let name = e.file_name();
            if name.to_string_lossy().starts_with('.') {
                continue;
            }
            let path = rel.join(&name);
            let Ok(ft) = e.file_type() else { continue };
            if ft.is_dir() {
                stack.push(path);
            } else if skill.dir.join(&path) != skill.file {
                found.push(path.to_string_lossy().into_owned());
            }
        }
        if capped {
            break;
        }
    }
    found.sort();
    let more = found.len().saturating_sub(MAX_LISTED_FILES);
    found.truncate(MAX_LISTED_FILES);
    (found, more, capped)
}

/// A skill's body for `skill NAME`: at most [`MAX_BODY_CHARS`] characters, cut at a line
/// break when one is near; with the 1-based line of the file where the rest starts when cut.
pub fn body_within_cap(parsed: &SkillFile) -> (&str, Option<usize>) {
    let body = parsed.body.as_str();
    let Some((cut_at, _)) = body.char_indices().nth(MAX_BODY_CHARS) else {
        return (body, None);
    };
    // Whole lines when possible; a single line longer than the cap is cut inside it and the
    // rest starts on that same line.
    let shown = match body[..cut_at].rfind('\n') {
        Some(nl) => &body[..=nl],
        None => &body[..cut_at],
    };
    let full_lines = shown.matches('\n').count();
    (shown, Some(parsed.body_line + full_lines))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn dir(path: &Path) -> SkillDir {
        SkillDir {
            path: path.to_path_buf(),
            origin: "--skills-dir",
        }
    }

    #[test]
    fn order_first_wins_and_issues() {
        let t = tempfile::tempdir().unwrap();
        let a = t.path().join("a");
        let b = t.path().join("b");
        for (p, text) in [
            (
                a.join("dup/SKILL.md"),
                "---\nname: dup\ndescription: first\n---\n",
            ),
            (
                a.join("zz/SKILL.md"),
                "---\nname: dup\ndescription: second\n---\n",
            ),
            (a.join("bad/SKILL.md"), "---\nname: bad\n"),
            (b.join("dup/SKILL.md"), "---\ndescription: third\n---\n"),
            (b.join("other/skill.md"), "Plain body.\n"),
        ] {
            std::fs::create_dir_all(p.parent().unwrap()).unwrap();
            std::fs::write(p, text).unwrap();
        }
        let cat = scan(&[dir(&a), dir(&b), dir(&t.path().join("missing"))], &|_| {
            false
        });
        let names: Vec<(&str, &str)> = cat
            .skills
            .iter()
            .map(|s| (s.name.as_str(), s.description.as_str()))
            .collect();
        assert_eq!(names, [("dup", "first"), ("other", "Plain body.")]);
        let kinds: Vec<(IssueKind, PathBuf)> = cat
            .issues
            .iter()
            .map(|i| (i.kind.clone(), i.path.clone()))
            .collect();
        assert_eq!(
            kinds,
            [
                (IssueKind::Skipped, a.join("bad/SKILL.md")),
                (IssueKind::Shadowed, a.join("zz/SKILL.md")),
                (IssueKind::Shadowed, b.join("dup/SKILL.md")),
                (IssueKind::Skipped, t.path().join("missing")),
            ]
        );
    }

    #[test]
    fn body_cap_cuts_at_a_line_and_says_where_the_rest_starts() {
        let body = "abcdefghi\n".repeat(20_000);
        let parsed = SkillFile {
            name: None,
            description: None,
            body,
            body_line: 5,
        };
        let (shown, rest) = body_within_cap(&parsed);
        assert_eq!(shown.len(), 100_000);
        assert_eq!(rest, Some(5 + 10_000));
    }
}
