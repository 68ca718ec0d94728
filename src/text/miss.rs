//! Why edit-file's `old` was not found (spec 03, edit-file, "Zero occurrences"): one
//! diagnosis, the first that applies:
//! 1. every line of `old` carries a read-file (`L12: `) or anchor (`12:ab|`) prefix;
//! 2. `old` matches once whitespace is normalised (runs of spaces and tabs folded, line ends
//!    trimmed) and look-alikes are folded: the places and the concrete differences are named,
//!    and nothing is applied;
//! 3. otherwise: not found, plus where a multi-line `old` stops matching or the closest line.
//!
//! Everything here only explains; the count of occurrences is always exact (edit_file.rs).

use std::fmt::Write;

use memchr::memmem;

use crate::text::lookalike;
use crate::text::plural::count;

/// Most places and differences one diagnosis lists.
const MAX_PLACES: usize = 3;
const MAX_DIFFS: usize = 8;
/// Most characters of a file line quoted in a message.
const QUOTE_CHARS: usize = 120;
/// Most lines scanned for the closest line (keeps a miss in a huge file quick).
const MAX_SIMILARITY_LINES: usize = 200_000;

/// The refusal text (without `Error: `) for `old` not occurring in `text` (`\n` line
/// breaks), for the file spelled `spelled`.
pub fn diagnose(spelled: &str, text: &str, old: &str) -> String {
    if let Some(msg) = prefixed(spelled, text, old) {
        return msg;
    }
    if let Some(msg) = near_match(spelled, text, old) {
        return msg;
    }
    not_found(spelled, text, old)
}

/// Step 1: read-file or anchor prefixes on every line.
fn prefixed(spelled: &str, text: &str, old: &str) -> Option<String> {
    let lines: Vec<&str> = old.strip_suffix('\n').unwrap_or(old).split('\n').collect();
    let strip_numbered = |l: &str| -> Option<String> {
        let rest = l.strip_prefix('L')?;
        let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
        let rest = rest[digits..].strip_prefix(':')?;
        (digits > 0).then(|| rest.strip_prefix(' ').unwrap_or(rest).to_owned())
    };
    let strip_anchor = |l: &str| -> Option<String> {
        let digits = l.bytes().take_while(u8::is_ascii_digit).count();
        let rest = l[digits..].strip_prefix(':')?;
        let hex = rest.get(..2)?;
        let rest = rest[2..].strip_prefix('|')?;
        (digits > 0 && hex.bytes().all(|b| b.is_ascii_hexdigit())).then(|| rest.to_owned())
    };
    let (stripped, what, hint) = if let Some(s) = all_map(&lines, strip_numbered) {
        (s, "read-file line prefixes (`L12: `)", "")
    } else if let Some(s) = all_map(&lines, strip_anchor) {
        (
            s,
            "anchor prefixes (`12:ab|`)",
            ", or pass the anchors to edit_lines",
        )
    } else {
        return None;
    };
    let mut joined = stripped.join("\n");
    if old.ends_with('\n') {
        joined.push('\n');
    }
    let found = memmem::find(text.as_bytes(), joined.as_bytes())
        .map(|p| format!(" (without them it occurs at line {})", line_of(text, p)))
        .unwrap_or_default();
    Some(format!(
        "old text not found in {spelled}: every line of old starts with {what}, which are not \
         part of the file{found}. Send old without the prefixes{hint}."
    ))
}

fn all_map(lines: &[&str], f: impl Fn(&str) -> Option<String>) -> Option<Vec<String>> {
    lines.iter().map(|l| f(l)).collect()
}

/// 1-based line number of byte offset `pos`.
fn line_of(text: &str, pos: usize) -> usize {
    1 + memchr::memchr_iter(b'\n', &text.as_bytes()[..pos]).count()
}

fn is_ws(c: char) -> bool {
    c == ' ' || c == '\t' || lookalike::ascii_twin(c) == Some(' ')
}

/// One line normalised: look-alikes folded, whitespace runs folded to one space, the end
/// trimmed (a trailing `\r` counts as whitespace there).
fn normalise_line(line: &str, out: &mut String) {
    let mut in_run = false;
    let start = out.len();
    for c in line.chars() {
        if is_ws(c) {
            if !in_run {
                out.push(' ');
            }
            in_run = true;
        } else if c == '\r' {
            in_run = false;
            out.push(c);
        } else {
            in_run = false;
            out.push(lookalike::fold(c));
        }
    }
    let kept = out[start..].trim_end_matches([' ', '\r']).len();
    out.truncate(start + kept);
}

fn normalise(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for (i, line) in text.split('\n').enumerate() {
        if i > 0 {
            out.push('\n');
        }
        normalise_line(line, &mut out);
    }
    out
}

/// Step 2: a match once whitespace and look-alikes are normalised.
fn near_match(spelled: &str, text: &str, old: &str) -> Option<String> {
    let norm_old = normalise(old);
    if norm_old.trim().is_empty() {
        return None;
    }
    let norm_text = normalise(text);
    let file_lines: Vec<&str> = text.split('\n').collect();
    let old_lines: Vec<&str> = old.split('\n').collect();
    let mut places = Vec::new();
    let mut line = 1;
    let mut last = 0;
    for pos in memmem::find_iter(norm_text.as_bytes(), norm_old.as_bytes()) {
        line += memchr::memchr_iter(b'\n', &norm_text.as_bytes()[last..pos]).count();
        last = pos;
        if places.last() == Some(&line) {
            continue;
        }
        places.push(line);
        if places.len() > MAX_PLACES {
            break;
        }
    }
    if places.is_empty() {
        return None;
    }
    let shown = &places[..places.len().min(MAX_PLACES)];
    let mut diffs = Vec::new();
    if old.contains('\r') {
        diffs.push(
            "old has CR (\\r) line endings: send old with \\n line breaks only (matching uses \\n; \
             the file keeps its own line endings)"
                .to_owned(),
        );
    }
    for &at in shown {
        diffs.extend(explain(&file_lines, at, &old_lines));
    }
    diffs.dedup();
    let listed: Vec<String> = shown.iter().map(usize::to_string).collect();
    let more = if places.len() > MAX_PLACES {
        " and more"
    } else {
        ""
    };
    let mut msg = format!(
        "old text not found exactly in {spelled}; it matches at line{} {}{more} only when \
         whitespace and look-alike characters are ignored, and edit_file never applies such a \
         match. Differences:",
        if shown.len() > 1 { "s" } else { "" },
        listed.join(", ")
    );
    for d in diffs.iter().take(MAX_DIFFS) {
        let _ = write!(msg, "\n  {d}");
    }
    if diffs.is_empty() {
        msg.push_str("\n  (whitespace or look-alike characters differ)");
    }
    msg.push_str("\nSend old exactly as the file has it (read-file the region and copy it).");
    Some(msg)
}

/// The differences between `old_lines` and the file lines starting at 1-based `at`.
fn explain(file_lines: &[&str], at: usize, old_lines: &[&str]) -> Vec<String> {
    let k = old_lines.len();
    let mut out = Vec::new();
    for (j, o) in old_lines.iter().enumerate() {
        let n = at + j;
        let Some(f) = file_lines.get(n - 1) else {
            break;
        };
        let o = o.strip_suffix('\r').unwrap_or(o);
        let mode = match (j == 0, j + 1 == k) {
            (true, true) => Mode::Inside,
            (true, false) => Mode::Suffix,
            (false, true) => Mode::Prefix,
            (false, false) => Mode::Whole,
        };
        if let Some(d) = align(f, o, mode) {
            out.extend(d.into_iter().map(|d| d.render(n)));
        }
    }
    out
}

#[derive(Clone, Copy, PartialEq)]
enum Mode {
    /// old's line is the whole file line.
    Whole,
    /// old's (first) line is the end of the file line.
    Suffix,
    /// old's (last) line is the start of the file line.
    Prefix,
    /// old is one line somewhere inside the file line.
    Inside,
}

/// One concrete difference: at char column `col` (1-based) of the file line.
struct Diff {
    col: usize,
    what: String,
}

impl Diff {
    fn render(&self, line: usize) -> String {
        if self.col <= 1 {
            format!("line {line}: {}", self.what)
        } else {
            format!("line {line} col {}: {}", self.col, self.what)
        }
    }
}

/// Aligns `old` against `file` (one line each) under `mode`, returning the differences of
/// the first alignment that matches under normalisation.
fn align(file: &str, old: &str, mode: Mode) -> Option<Vec<Diff>> {
    let starts: Vec<(usize, usize)> = match mode {
        Mode::Whole | Mode::Prefix => vec![(0, 0)],
        Mode::Suffix | Mode::Inside => file
            .char_indices()
            .enumerate()
            .map(|(col, (b, _))| (b, col))
            .chain(std::iter::once((file.len(), file.chars().count())))
            .collect(),
    };
    let to_end = matches!(mode, Mode::Whole | Mode::Suffix);
    starts
        .into_iter()
        .find_map(|(b, col)| walk(&file[b..], col, old, to_end))
}

/// Walks `file` (starting at char column `col0`, 0-based) and `old` together. `to_end`:
/// old must cover the rest of the file line (trailing whitespace aside).
fn walk(file: &str, col0: usize, old: &str, to_end: bool) -> Option<Vec<Diff>> {
    let f: Vec<char> = file.chars().collect();
    let o: Vec<char> = old.chars().collect();
    let (mut i, mut j) = (0, 0);
    let mut diffs = Vec::new();
    loop {
        let fw = f.get(i).is_some_and(|c| is_ws(*c));
        let ow = o.get(j).is_some_and(|c| is_ws(*c));
        match (f.get(i), o.get(j)) {
            (None, None) => return Some(diffs),
            (Some(_), None) if !to_end => return Some(diffs),
            _ if fw || ow => {
                let fi = i;
                while f.get(i).is_some_and(|c| is_ws(*c)) {
                    i += 1;
                }
                let oj = j;
                while o.get(j).is_some_and(|c| is_ws(*c)) {
                    j += 1;
                }
                let (fr, or) = (&f[fi..i], &o[oj..j]);
                let f_end = i == f.len();
                let o_end = j == o.len();
                if fr == or {
                    continue;
                }
                let col = col0 + fi + 1;
                if o_end && (f_end || !to_end) && or.is_empty() {
                    if f_end {
                        diffs.push(Diff {
                            col,
                            what: format!(
                                "the file has trailing whitespace ({}) that old does not have",
                                describe_run(fr)
                            ),
                        });
                    }
                    continue;
                }
                if o_end && fr.is_empty() && f_end {
                    diffs.push(Diff {
                        col,
                        what: format!(
                            "old has trailing whitespace ({}) that the file does not have",
                            describe_run(or)
                        ),
                    });
                    continue;
                }
                if fr.is_empty() || or.is_empty() {
                    return None;
                }
                diffs.push(Diff {
                    col,
                    what: format!(
                        "the file has {} where old has {}",
                        describe_run(fr),
                        describe_run(or)
                    ),
                });
            }
            (Some(&fc), Some(&oc)) => {
                if fc != oc {
                    if lookalike::fold(fc) != lookalike::fold(oc) {
                        return None;
                    }
                    diffs.push(Diff {
                        col: col0 + i + 1,
                        what: format!(
                            "the file has {} where old has {}",
                            lookalike::describe(fc),
                            lookalike::describe(oc)
                        ),
                    });
                }
                i += 1;
                j += 1;
            }
            _ => return None,
        }
    }
}

/// `a TAB`, `4 spaces`, `2 TABs and a space`, `U+00A0 (no-break space)`.
fn describe_run(run: &[char]) -> String {
    let mut parts: Vec<String> = Vec::new();
    let mut k = 0;
    while k < run.len() {
        let c = run[k];
        let n = run[k..].iter().take_while(|&&x| x == c).count();
        let name = match c {
            '\t' => plural(n, "TAB", "TABs"),
            ' ' => plural(n, "space", "spaces"),
            other => {
                let d = lookalike::describe(other);
                if n == 1 { d } else { format!("{n} × {d}") }
            }
        };
        parts.push(name);
        k += n;
    }
    if parts.is_empty() {
        "nothing".to_owned()
    } else {
        parts.join(" and ")
    }
}

fn plural(n: usize, one: &str, many: &str) -> String {
    if n == 1 {
        format!("a {one}")
    } else {
        format!("{n} {many}")
    }
}

/// `line` cut to [`QUOTE_CHARS`] characters for a message.
fn quote(line: &str) -> String {
    match line.char_indices().nth(QUOTE_CHARS) {
        Some((b, _)) => format!("{}…", &line[..b]),
        None => line.to_owned(),
    }
}

/// Step 3: not found; where a multi-line old stops matching, or the closest line.
fn not_found(spelled: &str, text: &str, old: &str) -> String {
    let mut msg =
        format!("old text not found in {spelled}; read-file the region and copy it exactly");
    let file_lines: Vec<&str> = text.split('\n').collect();
    let old_lines: Vec<&str> = old.split('\n').collect();
    if let Some(hint) = partial_prefix(&file_lines, &old_lines) {
        msg.push('\n');
        msg.push_str(&hint);
    } else if let Some((n, line)) = closest_line(&file_lines, &old_lines) {
        let _ = write!(msg, "\nclosest line {n}: {}", quote(line));
    }
    msg
}

/// For a multi-line old: the place where the most leading lines of old match exactly, and the
/// first line that differs there.
fn partial_prefix(file_lines: &[&str], old_lines: &[&str]) -> Option<String> {
    let k = old_lines.len();
    if k < 2 || old_lines[0].trim().is_empty() {
        return None;
    }
    let mut best: Option<(usize, usize)> = None; // (matched lines, 0-based file line)
    for (i, f) in file_lines.iter().enumerate() {
        if !f.ends_with(old_lines[0]) {
            continue;
        }
        let mut m = 1;
        while m < k && i + m < file_lines.len() {
            let (fl, ol) = (file_lines[i + m], old_lines[m]);
            let ok = if m + 1 == k {
                fl.starts_with(ol)
            } else {
                fl == ol
            };
            if !ok {
                break;
            }
            m += 1;
        }
        if best.is_none_or(|(bm, _)| m > bm) {
            best = Some((m, i));
        }
    }
    let (m, i) = best?;
    if m >= k {
        return None;
    }
    let differs = match file_lines.get(i + m) {
        Some(fl) => format!("line {} of the file is: {}", i + m + 1, quote(fl)),
        None => "the file ends there".to_owned(),
    };
    Some(format!(
        "the first {} of old match at line {}, but old's line {} differs: old has: {}; {differs}",
        count(m, "line"),
        i + 1,
        m + 1,
        quote(old_lines[m]),
    ))
}

/// The file line most similar to old's longest line, when it is reasonably close.
fn closest_line<'t>(file_lines: &[&'t str], old_lines: &[&str]) -> Option<(usize, &'t str)> {
    let probe = old_lines.iter().map(|l| l.trim()).max_by_key(|l| l.len())?;
    if probe.chars().count() < 3 {
        return None;
    }
    let norm = |l: &str| {
        let mut out = String::new();
        normalise_line(l.trim(), &mut out);
        out
    };
    let probe = norm(probe);
    let probe = probe.as_str();
    let probe_grams = bigrams(probe);
    let mut best: Option<(f64, usize)> = None;
    let mut t = String::new();
    for (i, f) in file_lines.iter().take(MAX_SIMILARITY_LINES).enumerate() {
        t.clear();
        normalise_line(f.trim(), &mut t);
        let t = t.as_str();
        let (a, b) = (t.len() as f64, probe.len() as f64);
        if t.is_empty() || a < b * 0.4 || a > b * 2.5 {
            continue;
        }
        let score = dice(&probe_grams, &bigrams(t));
        if best.is_none_or(|(s, _)| score > s) {
            best = Some((score, i));
        }
    }
    let (score, i) = best?;
    if score < 0.5 {
        return None;
    }
    let ratio = similar::TextDiff::from_chars(probe, norm(file_lines[i]).as_str()).ratio();
    (ratio >= 0.6).then_some((i + 1, file_lines[i]))
}

fn bigrams(s: &str) -> Vec<(char, char)> {
    let chars: Vec<char> = s.chars().collect();
    let mut v: Vec<(char, char)> = chars.windows(2).map(|w| (w[0], w[1])).collect();
    v.sort_unstable();
    v
}

/// Dice coefficient of two sorted bigram multisets; 0 when either is empty.
fn dice(a: &[(char, char)], b: &[(char, char)]) -> f64 {
    crate::text::dice::dice_sorted(a, b).unwrap_or(0.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn read_file_prefixes() {
        let m = diagnose(
            "a.rs",
            "fn a() {}\nfn b() {}\n",
            "L1: fn a() {}\nL2: fn b() {}",
        );
        assert!(m.contains("read-file line prefixes"), "{m}");
        assert!(m.contains("occurs at line 1"), "{m}");
        let m = diagnose("a.rs", "fn a() {}\n", "1:3f|fn a() {}");
        assert!(m.contains("anchor prefixes"), "{m}");
    }

    #[test]
    fn tab_versus_spaces() {
        let m = diagnose("main.go", "func f() {\n\treturn 1\n}\n", "    return 1");
        assert!(
            m.contains("line 2: the file has a TAB where old has 4 spaces"),
            "{m}"
        );
        assert!(m.contains("never applies"), "{m}");
    }

    #[test]
    fn nbsp_and_curly_quotes() {
        let text = "let a = 1;\nsay(\u{2018}hi\u{2019});\nx\u{a0}= 2;\n";
        let m = diagnose("q.js", text, "say('hi');\nx = 2;");
        assert!(
            m.contains(
                "line 2 col 5: the file has U+2018 (\u{2018} left single quote) where old has '"
            ),
            "{m}"
        );
        assert!(
            m.contains("line 3 col 2: the file has U+00A0 (no-break space) where old has a space"),
            "{m}"
        );
    }

    #[test]
    fn trailing_whitespace_and_crlf() {
        let m = diagnose("Gemfile", "gem \"rails\"\n", "gem \"rails\" ");
        assert!(
            m.contains("old has trailing whitespace (a space) that the file does not have"),
            "{m}"
        );
        let m = diagnose("a.txt", "one\ntwo\n", "one\r\ntwo");
        assert!(m.contains("CR (\\r)"), "{m}");
    }

    #[test]
    fn not_found_with_closest_line_or_partial_prefix() {
        let text = "fn main() {\n    let total = compute(1);\n}\n";
        let m = diagnose("m.rs", text, "let totl = compute(2);");
        assert!(
            m.starts_with("old text not found in m.rs; read-file"),
            "{m}"
        );
        assert!(m.contains("closest line 2:"), "{m}");
        let m = diagnose("m.rs", text, "fn main() {\n    let x = 1;\n}");
        assert!(m.contains("first 1 line of old match at line 1"), "{m}");
        let m = diagnose("m.rs", text, "zzzz qqqq");
        assert!(!m.contains("closest"), "{m}");
    }
}
