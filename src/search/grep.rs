//! grep's per-thread search: one [`Worker`] per walker thread owns a searcher, a matcher and
//! its findings, so the hot path takes no lock (spec 02, "grep").
//!
//! Memory stays bounded however many hits there are: a worker keeps the files that can still
//! reach the output ([`TopFiles`]) and counts the rest; a file keeps at most `limit` matching
//! lines (nothing past that can ever be shown).

use std::cmp::Reverse;
use std::collections::BTreeMap;
use std::ffi::OsStr;
use std::io;
use std::ops::Range;
use std::os::unix::ffi::OsStrExt;
use std::path::{Path, PathBuf};
use std::time::SystemTime;

use grep::matcher::Matcher;
use grep::regex::RegexMatcher;
use grep::searcher::{Searcher, Sink, SinkContext, SinkContextKind, SinkMatch};

use crate::fileio::special::OpenError;
use crate::search::walk::Problems;
use crate::text::render::{MAX_LINE_BYTES, window_line};

/// Most character classes that match by Unicode property (`\w`, `\d`, `\s`, `\p{..}`) a
/// regex may spell out. Each one becomes hundreds of ranges in the compiled form before any
/// size limit is checked: 16,000 `\w` in a 64 KiB pattern took over a second and 300 MB to
/// refuse. Repetition (`\w{20}`) counts once.
pub const MAX_PROPERTY_CLASSES: usize = 1024;

/// Refuses a regex whose translation alone would be costly (see [`MAX_PROPERTY_CLASSES`]),
/// before the engine builds it. A pattern that does not parse is left to the engine, which
/// reports the syntax error. Err is the reason, for an argument error.
pub fn check_regex_cost(pattern: &str) -> Result<(), String> {
    use regex_syntax::ast::{self, Ast, ClassSetItem};
    struct Count(usize);
    impl ast::Visitor for Count {
        type Output = usize;
        type Err = ();
        fn finish(self) -> Result<usize, ()> {
            Ok(self.0)
        }
        fn visit_pre(&mut self, node: &Ast) -> Result<(), ()> {
            if matches!(node, Ast::ClassPerl(_) | Ast::ClassUnicode(_)) {
                self.0 += 1;
            }
            Ok(())
        }
        fn visit_class_set_item_pre(&mut self, item: &ClassSetItem) -> Result<(), ()> {
            if matches!(item, ClassSetItem::Perl(_) | ClassSetItem::Unicode(_)) {
                self.0 += 1;
            }
            Ok(())
        }
    }
    let Ok(tree) = ast::parse::Parser::new().parse(pattern) else {
        return Ok(());
    };
    let n = ast::visit(&tree, Count(0)).unwrap_or(0);
    if n > MAX_PROPERTY_CLASSES {
        return Err(format!(
            "the pattern spells out {n} classes such as \\w, \\d or \\p{{L}}; at most \
             {MAX_PROPERTY_CLASSES} are allowed (repeat one instead: \\w{{20}})"
        ));
    }
    Ok(())
}

/// What a search reports per file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Report {
    /// Whether the file matches at all (the search stops at the first hit).
    Files,
    /// How many lines match.
    Count,
    /// The matching lines, with context lines around them.
    Content,
}

/// One printed line of a file's hits.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HitLine {
    /// 1-based line number.
    pub number: u64,
    /// A matching line (`path:n:text`) rather than a context line (`path-n-text`).
    pub is_match: bool,
    /// The line without its terminator, cut at 500 bytes like read-file.
    pub text: String,
}

/// A file with at least one hit.
#[derive(Debug, Clone)]
pub struct FileHits {
    /// The walked (resolved) path.
    pub path: PathBuf,
    /// Its modification time (the sort key: newest first).
    pub mtime: SystemTime,
    /// Matching lines in the whole file (1 in files mode: the search stopped there).
    pub count: u64,
    /// The first `limit` matching lines and their context (content mode only).
    pub lines: Vec<HitLine>,
}

impl FileHits {
    /// How much of the output budget (`limit`) this file can use: one line in files and count
    /// mode, its matching lines in content mode.
    fn weight(&self, report: Report) -> u64 {
        match report {
            Report::Files | Report::Count => 1,
            Report::Content => self.lines.iter().filter(|l| l.is_match).count() as u64,
        }
    }
}

/// Output order: newest first, ties by the path's bytes (as glob sorts).
type Key = (Reverse<SystemTime>, PathBytes);

/// A path ordered by its bytes rather than component by component.
#[derive(Debug, Clone, PartialEq, Eq)]
struct PathBytes(PathBuf);

impl Ord for PathBytes {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        self.0
            .as_os_str()
            .as_bytes()
            .cmp(other.0.as_os_str().as_bytes())
    }
}

impl PartialOrd for PathBytes {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

/// The files that can still be shown, in output order (newest first, ties by path), plus
/// totals over every file seen. Files that fall behind `limit` lines of output are dropped and
/// only counted.
#[derive(Debug)]
pub struct TopFiles {
    report: Report,
    limit: u64,
    kept: BTreeMap<Key, FileHits>,
    kept_weight: u64,
    /// Files with hits, shown or not.
    pub total_files: u64,
    /// Matching lines over every file (files mode: one per file).
    pub total_matches: u64,
}

impl TopFiles {
    /// An empty set for `report` with an output budget of `limit` lines.
    pub fn new(report: Report, limit: u64) -> TopFiles {
        TopFiles {
            report,
            limit,
            kept: BTreeMap::new(),
            kept_weight: 0,
            total_files: 0,
            total_matches: 0,
        }
    }

    /// Adds a file and drops files that can no longer reach the output.
    pub fn insert(&mut self, hits: FileHits) {
        self.total_files += 1;
        self.total_matches += hits.count;
        self.kept_weight += hits.weight(self.report);
        self.kept
            .insert((Reverse(hits.mtime), PathBytes(hits.path.clone())), hits);
        while self.kept.len() > 1 {
            let Some(last) = self.kept.last_entry() else {
                break;
            };
            let w = last.get().weight(self.report);
            if self.kept_weight - w < self.limit {
                break;
            }
            self.kept_weight -= w;
            last.remove();
        }
    }

    /// Whether a file with hits, modified at `mtime`, could still reach the output: not when
    /// the files kept ahead of it in output order already fill the budget. Files only ever
    /// join ahead of it, so a `false` stays true of every later state and of the merge of
    /// all workers' sets.
    pub fn can_reach(&self, mtime: SystemTime, path: &Path) -> bool {
        let key = (Reverse(mtime), PathBytes(path.to_path_buf()));
        let mut ahead = 0;
        for (k, hits) in &self.kept {
            if *k >= key {
                return true;
            }
            ahead += hits.weight(self.report);
            if ahead >= self.limit {
                return false;
            }
        }
        true
    }

    /// Counts a file with `count` hits that [`TopFiles::can_reach`] said cannot be shown.
    pub fn count_only(&mut self, count: u64) {
        self.total_files += 1;
        self.total_matches += count;
    }

    /// Adds every file of another set.
    pub fn merge(&mut self, other: TopFiles) {
        let (files, matches) = (other.total_files, other.total_matches);
        let (mut kept_files, mut kept_matches) = (0, 0);
        for hits in other.kept.into_values() {
            kept_files += 1;
            kept_matches += hits.count;
            self.insert(hits);
        }
        // `insert` counted the files `other` kept; add the ones it had already dropped.
        self.total_files += files - kept_files;
        self.total_matches += matches - kept_matches;
    }

    /// The kept files in output order.
    pub fn into_files(self) -> Vec<FileHits> {
        self.kept.into_values().collect()
    }
}

/// The literal a `Files whose names match:` section looks for (spec 02): the pattern as
/// typed, compared case-insensitively when asked to.
#[derive(Debug, Clone)]
pub struct NameQuery {
    needle: Vec<u8>,
    insensitive: bool,
}

/// Most name matches listed.
pub const MAX_NAME_MATCHES: usize = 10;

impl NameQuery {
    /// A query for `pattern`; `insensitive` as decided by the `case` argument.
    pub fn new(pattern: &str, insensitive: bool) -> NameQuery {
        let needle = if insensitive {
            pattern.to_lowercase().into_bytes()
        } else {
            pattern.as_bytes().to_vec()
        };
        NameQuery {
            needle,
            insensitive,
        }
    }

    /// The rank of a file name, lower is better: 0 the name (or the name without its
    /// extension) is the pattern, 1 it starts with it, 2 it contains it; `None` no match.
    /// Called for every file walked, so ASCII names are compared without allocating.
    pub fn rank(&self, name: &OsStr) -> Option<u8> {
        let raw = name.as_bytes();
        if raw.len() < self.needle.len() {
            return None;
        }
        if !self.insensitive {
            let at = memchr::memmem::find(raw, &self.needle)?;
            return Some(rank_at(raw, &self.needle, at, |a, b| a == b));
        }
        if raw.is_ascii() && self.needle.is_ascii() {
            let at = raw
                .windows(self.needle.len())
                .position(|w| w.eq_ignore_ascii_case(&self.needle))?;
            return Some(rank_at(raw, &self.needle, at, <[u8]>::eq_ignore_ascii_case));
        }
        let lowered = String::from_utf8_lossy(raw).to_lowercase().into_bytes();
        let at = memchr::memmem::find(&lowered, &self.needle)?;
        Some(rank_at(&lowered, &self.needle, at, |a, b| a == b))
    }
}

/// The rank of `name`, which holds `needle` at byte `at`, comparing with `eq`.
fn rank_at(name: &[u8], needle: &[u8], at: usize, eq: impl Fn(&[u8], &[u8]) -> bool) -> u8 {
    let stem = match name.iter().rposition(|&b| b == b'.') {
        Some(dot) if dot > 0 => &name[..dot],
        _ => name,
    };
    if eq(name, needle) || eq(stem, needle) {
        0
    } else if at == 0 {
        1
    } else {
        2
    }
}

/// Ranked name matches, keeping only the best [`MAX_NAME_MATCHES`] (ties: shorter path, then
/// path order).
#[derive(Debug, Default)]
pub struct NameMatches {
    found: Vec<(u8, PathBuf)>,
}

impl NameMatches {
    /// Records a match of rank `rank`.
    pub fn push(&mut self, rank: u8, path: PathBuf) {
        self.found.push((rank, path));
        if self.found.len() > 8 * MAX_NAME_MATCHES {
            self.trim();
        }
    }

    /// Adds another collector's matches.
    pub fn merge(&mut self, other: NameMatches) {
        self.found.extend(other.found);
        self.trim();
    }

    fn trim(&mut self) {
        self.found.sort_by(|a, b| {
            (a.0, a.1.as_os_str().len(), &a.1).cmp(&(b.0, b.1.as_os_str().len(), &b.1))
        });
        self.found.dedup_by(|a, b| a.1 == b.1);
        self.found.truncate(MAX_NAME_MATCHES);
    }

    /// The best matches, best first.
    pub fn into_paths(mut self) -> Vec<PathBuf> {
        self.trim();
        self.found.into_iter().map(|(_, p)| p).collect()
    }
}

/// One walker thread's searcher, matcher and findings.
pub struct Worker {
    searcher: Searcher,
    matcher: RegexMatcher,
    report: Report,
    limit: u64,
    /// Files with hits that can still be shown.
    pub top: TopFiles,
    /// Ranked file-name matches.
    pub names: NameMatches,
    /// Unreadable folders and files.
    pub problems: Problems,
    /// Files skipped because they are binary.
    pub binary_files: u64,
    /// FIFOs, sockets and devices met and skipped, never opened.
    pub special_files: u64,
}

/// What searching one file found.
#[derive(Debug, PartialEq, Eq)]
pub enum Outcome {
    /// No hit.
    NoHit,
    /// Hits, recorded.
    Hit,
    /// A NUL byte: skipped as binary.
    Binary,
    /// A FIFO, socket or device (its kind): not searched, and never opened blocking.
    Special(&'static str),
}

impl Worker {
    /// A worker with its own searcher and a clone of the matcher.
    pub fn new(searcher: Searcher, matcher: RegexMatcher, report: Report, limit: u64) -> Worker {
        Worker {
            searcher,
            matcher,
            report,
            limit,
            top: TopFiles::new(report, limit),
            names: NameMatches::default(),
            problems: Problems::default(),
            binary_files: 0,
            special_files: 0,
        }
    }

    /// Searches one file, `path` as walked, read from what `open` gives: the caller opens it
    /// through the file layer (so no symlink swapped in is followed) and classifies it with
    /// [`crate::fileio::special::regular`]. `mtime` is asked once, when the file has hits
    /// (so files without hits are never stat'ed). An unreadable file is an `Err` with the
    /// reason, for the caller to record with the path it shows. A special file is never read
    /// (it was opened without blocking): it is counted in `special_files` and reported as
    /// such.
    pub fn search(
        &mut self,
        path: &Path,
        open: Result<std::fs::File, OpenError>,
        mtime: impl Fn(&std::fs::File) -> SystemTime,
    ) -> Result<Outcome, io::Error> {
        let file = match open {
            Ok(f) => f,
            Err(OpenError::Special(kind)) => {
                self.special_files += 1;
                return Ok(Outcome::Special(kind));
            }
            Err(OpenError::Directory) => return Err(io::Error::other("is a directory")),
            Err(OpenError::Io(e)) => return Err(e),
        };
        let stat = || mtime(&file);
        let mut sink = HitSink {
            matcher: &self.matcher,
            report: self.report,
            limit: self.limit,
            count: 0,
            stored: 0,
            full: false,
            lines: Vec::new(),
            binary: false,
            reach: None,
            top: &self.top,
            path,
            stat: &stat,
            mtime: None,
        };
        self.searcher.search_file(&self.matcher, &file, &mut sink)?;
        if sink.binary {
            self.binary_files += 1;
            return Ok(Outcome::Binary);
        }
        if sink.count == 0 {
            return Ok(Outcome::NoHit);
        }
        let (count, lines, reach, seen) = (sink.count, sink.lines, sink.reach, sink.mtime);
        if reach == Some(false) {
            self.top.count_only(count);
            return Ok(Outcome::Hit);
        }
        self.top.insert(FileHits {
            path: path.to_path_buf(),
            mtime: seen.unwrap_or_else(stat),
            count,
            lines,
        });
        Ok(Outcome::Hit)
    }
}

/// Collects one file's hits for a [`Report`].
struct HitSink<'m> {
    /// The matcher, to find where on a long line the first match is.
    matcher: &'m RegexMatcher,
    /// Content mode: whether this file's lines can reach the output, decided at its first
    /// match from `top` (None: no match yet). When they cannot, nothing is rendered or kept:
    /// only counted (with 10,000 matching files and a budget of 100 lines, most files).
    reach: Option<bool>,
    /// The worker's files so far.
    top: &'m TopFiles,
    /// The file's path as walked.
    path: &'m Path,
    /// Its modification time, asked once at the first match.
    stat: &'m dyn Fn() -> SystemTime,
    /// That time, once asked.
    mtime: Option<SystemTime>,
    report: Report,
    limit: u64,
    count: u64,
    /// Matching lines stored so far (at most `limit`).
    stored: u64,
    /// A match beyond `limit` was seen: nothing more is stored.
    full: bool,
    lines: Vec<HitLine>,
    binary: bool,
}

impl HitSink<'_> {
    fn store(&mut self, number: u64, is_match: bool, bytes: &[u8], focus: Option<Range<usize>>) {
        self.lines.push(HitLine {
            number,
            is_match,
            text: render_line(bytes, focus),
        });
    }

    /// Where the first match is on `line` (a matching line of a [`SinkMatch`] whose first
    /// match, found in the whole block, is `block_match`, and which starts at `line_at` in
    /// it). Only looked for when the line is too long to show whole.
    fn focus(
        &self,
        line: &[u8],
        line_at: usize,
        block_match: Option<&Range<usize>>,
    ) -> Option<Range<usize>> {
        if line.len() <= MAX_LINE_BYTES {
            return None;
        }
        if let Some(m) = block_match
            && m.start >= line_at
            && m.start < line_at + line.len()
        {
            return Some(m.start - line_at..m.end.min(line_at + line.len()) - line_at);
        }
        self.matcher
            .find(line)
            .ok()
            .flatten()
            .map(|m| m.start()..m.end())
    }
}

/// A line's bytes for output: terminator removed, invalid UTF-8 replaced, at most 500 bytes
/// shown: cut from the start like read-file (` [… k more bytes]`), or, when `focus` (the first
/// match's byte range) lies past the first 500 bytes, a window around it marked on both cut
/// sides (`[… j bytes] ... [… k more bytes]`, see [`window_line`]).
pub fn render_line(bytes: &[u8], focus: Option<Range<usize>>) -> String {
    let line = bytes.strip_suffix(b"\n").unwrap_or(bytes);
    let line = line.strip_suffix(b"\r").unwrap_or(line);
    window_line(line, focus, MAX_LINE_BYTES)
}

impl Sink for HitSink<'_> {
    type Error = io::Error;

    fn matched(&mut self, _: &Searcher, mat: &SinkMatch<'_>) -> Result<bool, io::Error> {
        match self.report {
            Report::Files => {
                self.count = 1;
                Ok(false)
            }
            Report::Count => {
                self.count += mat.lines().count() as u64;
                Ok(true)
            }
            Report::Content => {
                if self.reach.is_none() {
                    let mtime = (self.stat)();
                    self.mtime = Some(mtime);
                    let reach = self.top.can_reach(mtime, self.path);
                    self.reach = Some(reach);
                    if !reach {
                        self.full = true;
                    }
                }
                if self.reach == Some(false) {
                    self.count += mat.lines().count() as u64;
                    return Ok(true);
                }
                let first = mat.line_number().unwrap_or(0);
                let block = mat.bytes();
                // The block's first match, looked for only when a line is too long to show.
                let mut block_match: Option<Option<Range<usize>>> = None;
                let mut at = 0;
                for (i, line) in mat.lines().enumerate() {
                    self.count += 1;
                    if self.stored < self.limit && !self.full {
                        self.stored += 1;
                        let focus = if line.len() > MAX_LINE_BYTES {
                            let m = block_match.get_or_insert_with(|| {
                                self.matcher
                                    .find(block)
                                    .ok()
                                    .flatten()
                                    .map(|m| m.start()..m.end())
                            });
                            self.focus(line, at, m.as_ref())
                        } else {
                            None
                        };
                        self.store(first + i as u64, true, line, focus);
                    } else {
                        self.full = true;
                    }
                    at += line.len();
                }
                Ok(true)
            }
        }
    }

    fn context(&mut self, _: &Searcher, ctx: &SinkContext<'_>) -> Result<bool, io::Error> {
        // Before-context belongs to the next match: kept only while that match can be shown.
        // After-context belongs to the last stored match: kept until a match past the limit.
        let keep = match ctx.kind() {
            SinkContextKind::Before => self.stored < self.limit && self.reach != Some(false),
            SinkContextKind::After => !self.full,
            SinkContextKind::Other => false,
        };
        if keep {
            self.store(ctx.line_number().unwrap_or(0), false, ctx.bytes(), None);
        }
        Ok(true)
    }

    fn binary_data(&mut self, _: &Searcher, _offset: u64) -> Result<bool, io::Error> {
        self.binary = true;
        Ok(false)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    fn hits(name: &str, secs: u64, matches: u64) -> FileHits {
        FileHits {
            path: PathBuf::from(name),
            mtime: SystemTime::UNIX_EPOCH + Duration::from_secs(secs),
            count: matches,
            lines: (1..=matches)
                .map(|n| HitLine {
                    number: n,
                    is_match: true,
                    text: String::new(),
                })
                .collect(),
        }
    }

    #[test]
    fn a_file_behind_a_full_budget_cannot_reach_the_output() {
        let mut top = TopFiles::new(Report::Content, 3);
        top.insert(hits("b", 9, 2));
        let at = |secs| SystemTime::UNIX_EPOCH + Duration::from_secs(secs);
        // 2 lines ahead of an older file: one more fits.
        assert!(top.can_reach(at(5), Path::new("c")));
        top.insert(hits("a", 9, 1));
        // 3 lines ahead now: an older file, or a same-time one after them by path, cannot.
        assert!(!top.can_reach(at(5), Path::new("c")));
        assert!(!top.can_reach(at(9), Path::new("c")));
        // A newer file, or one first by path, can.
        assert!(top.can_reach(at(10), Path::new("z")));
        assert!(top.can_reach(at(9), Path::new("0")));
        top.count_only(7);
        assert_eq!((top.total_files, top.total_matches), (3, 10));
    }

    #[test]
    fn top_files_keep_newest_and_count_the_rest() {
        let mut top = TopFiles::new(Report::Files, 2);
        for (name, secs) in [("c", 5), ("a", 9), ("b", 9), ("d", 1)] {
            top.insert(hits(name, secs, 1));
        }
        assert_eq!(top.total_files, 4);
        let names: Vec<_> = top
            .into_files()
            .into_iter()
            .map(|h| h.path.display().to_string())
            .collect();
        assert_eq!(names, ["a", "b"], "newest first, ties by path");
    }

    #[test]
    fn content_budget_counts_matching_lines() {
        let mut top = TopFiles::new(Report::Content, 5);
        top.insert(hits("old", 1, 3));
        top.insert(hits("new", 9, 4));
        // new (4 lines) alone is under the budget: old must stay to fill it.
        assert_eq!(top.kept.len(), 2);
        top.insert(hits("newer", 10, 5));
        // newer fills the budget by itself: both others go.
        assert_eq!(top.kept.len(), 1);
        assert_eq!(top.total_matches, 12);
        assert_eq!(top.total_files, 3);
    }

    #[test]
    fn merge_keeps_totals() {
        let mut a = TopFiles::new(Report::Files, 1);
        a.insert(hits("x", 1, 1));
        a.insert(hits("y", 2, 1));
        let mut b = TopFiles::new(Report::Files, 1);
        b.insert(hits("z", 3, 1));
        a.merge(b);
        assert_eq!(a.total_files, 3);
        assert_eq!(a.total_matches, 3);
        assert_eq!(a.into_files()[0].path, PathBuf::from("z"));
    }

    #[test]
    fn name_ranks() {
        let q = NameQuery::new("config", true);
        assert_eq!(q.rank(OsStr::new("config")), Some(0));
        assert_eq!(q.rank(OsStr::new("Config.toml")), Some(0));
        assert_eq!(q.rank(OsStr::new("config_test.rs")), Some(1));
        assert_eq!(q.rank(OsStr::new("app_config.rs")), Some(2));
        assert_eq!(q.rank(OsStr::new("conf.rs")), None);
        let q = NameQuery::new("Config", false);
        assert_eq!(q.rank(OsStr::new("config.rs")), None);
        assert_eq!(q.rank(OsStr::new("Config.rs")), Some(0));
        let q = NameQuery::new("straße", true);
        assert_eq!(q.rank(OsStr::new("STRASSE-Straße.txt")), Some(2));
    }

    #[test]
    fn name_matches_keep_the_best_ten() {
        let mut m = NameMatches::default();
        for i in 0..100 {
            m.push(2, PathBuf::from(format!("deep/dir/f{i:03}")));
        }
        m.push(0, PathBuf::from("zzz/long/path/exact"));
        let paths = m.into_paths();
        assert_eq!(paths.len(), MAX_NAME_MATCHES);
        assert_eq!(paths[0], PathBuf::from("zzz/long/path/exact"));
        assert_eq!(paths[1], PathBuf::from("deep/dir/f000"));
    }

    #[test]
    fn lines_are_cut_like_read_file() {
        assert_eq!(render_line(b"abc\r\n", None), "abc");
        assert_eq!(render_line(b"abc", None), "abc");
        let long = "x".repeat(600);
        assert_eq!(
            render_line(long.as_bytes(), None),
            format!("{} [… 100 more bytes]", "x".repeat(500))
        );
    }
}
