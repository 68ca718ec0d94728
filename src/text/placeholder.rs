//! The placeholder guard (spec 03 "write-file", issue 9): a model that writes
//! `// ... rest of the file unchanged` in place of code it did not want to repeat deletes
//! that code. A change is refused when it **adds** a placeholder line that the old text did
//! not have **and** removes lines of the old text, whatever the size ratio. The same rule
//! serves write_file (old file vs new content), edit_file (`old` vs `new`) and apply_patch
//! (a file's `-` and context lines vs its `+` lines).
//!
//! A placeholder line is a whole-line comment, in one of the comment forms
//! `//`, `#`, `/* */`, `/** */`, `*` (a block comment's continuation), `<!-- -->`,
//! `{/* */}` (JSX), `--`, `;`, `%`, `(* *)` and `{- -}`, whose body (lower-cased, markers and
//! surrounding punctuation removed) is one of:
//! 1. only an ellipsis: `...` or `…` (`// ...`, `# …`, `<!-- ... -->`, `/* ... */`);
//! 2. an ellipsis plus an elision word: `rest`, `existing`, `unchanged`, `remaining`,
//!    `omitted`, `same`, `previous`, `other`, `before`, `code`, `snip`, `elided`, `truncated`,
//!    `etc`, `unmodified`, `untouched`, `implementation` (`// ... existing code ...`,
//!    `# ... other methods`);
//! 3. without an ellipsis, a whole elision sentence:
//!    - `rest of` (optionally `the`) followed by a part of a program (`file`, `code`, `class`,
//!      `function`, `method(s)`, `module`, `implementation`, `body`, `struct`, `impl`,
//!      `component`, `test(s)`, `functions`, `fields`, `imports`, `config`, `document`,
//!      `page`, `cases`), then at most four more words (`rest of the file unchanged`);
//!    - `existing`, `other`, `previous`, `remaining` or `original`, a part of a program
//!      (as above, plus `content`, `logic`, `items`, `properties`, `styles`, `rules`,
//!      `entries`, `variants`, `routes`, `handlers`, `lines`), and nothing else or one of the
//!      endings below (`existing code`, `other methods unchanged`);
//!    - a subject (`rest`, `the rest`, `everything else`, `all else`, `code`, `body`,
//!      `implementation`, `same`) or nothing, then an ending: `unchanged`, `remains the same`,
//!      `remain the same`, `stays the same`, `stay the same`, `same as before`, `as before`,
//!      `omitted`, `omitted for brevity`, `not shown`, `elided`, `goes here`, `here`
//!      (`unchanged`, `rest unchanged`, `code omitted for brevity`, `same as before`).
//!
//! Not placeholders, on purpose: a bare `...` statement (Python's Ellipsis, a valid stub
//! body), trailing comments after code, and sentences that merely mention the words
//! (`// TODO: handle the rest of the input`, `// Returns the input unchanged`).

use std::collections::{HashMap, HashSet};

/// Comment openers, longest first so `/**` wins over `/*` and `<!--` over `<`.
const OPENERS: [&str; 12] = [
    "{/*", "<!--", "/**", "/*", "(*", "{-", "//", "--", "#", ";", "%", "*",
];
/// Comment closers stripped from the end of the body.
const CLOSERS: [&str; 5] = ["*/}", "*/", "-->", "*)", "-}"];

/// Words that, next to an ellipsis, say code was left out.
const ELLIPSIS_WORDS: [&str; 17] = [
    "rest",
    "existing",
    "unchanged",
    "remaining",
    "omitted",
    "same",
    "previous",
    "other",
    "before",
    "code",
    "snip",
    "elided",
    "truncated",
    "etc",
    "unmodified",
    "untouched",
    "implementation",
];

/// Parts of a program an elision sentence names.
const PARTS: [&str; 34] = [
    "file",
    "code",
    "class",
    "function",
    "functions",
    "method",
    "methods",
    "module",
    "implementation",
    "body",
    "struct",
    "impl",
    "component",
    "test",
    "tests",
    "fields",
    "imports",
    "config",
    "configuration",
    "document",
    "page",
    "cases",
    "content",
    "contents",
    "logic",
    "items",
    "properties",
    "styles",
    "rules",
    "entries",
    "variants",
    "routes",
    "handlers",
    "lines",
];

/// Words that start an "existing code"-style sentence.
const QUALIFIERS: [&str; 5] = ["existing", "other", "previous", "remaining", "original"];

/// Subjects of an "X unchanged"-style sentence (the empty one: the ending alone).
const SUBJECTS: [&str; 9] = [
    "",
    "rest",
    "the rest",
    "everything else",
    "all else",
    "code",
    "body",
    "implementation",
    "same",
];

/// Endings of an elision sentence.
const ENDINGS: [&str; 13] = [
    "unchanged",
    "remains the same",
    "remain the same",
    "stays the same",
    "stay the same",
    "same as before",
    "as before",
    "omitted",
    "omitted for brevity",
    "not shown",
    "elided",
    "goes here",
    "here",
];

/// Whether `line` is an omission placeholder (see the module docs for the exact list).
pub fn is_placeholder(line: &str) -> bool {
    let t = line.trim();
    let Some(opener) = OPENERS.iter().find(|o| t.starts_with(**o)) else {
        return false;
    };
    let mut body = t[opener.len()..].trim();
    // `#` comments may be `##`, `//` may be `///` or `//!`, `--` may be `---`.
    body = body
        .trim_start_matches(['#', '/', '!', '-', '*', ';', '%'])
        .trim();
    for closer in CLOSERS {
        if let Some(b) = body.strip_suffix(closer) {
            body = b.trim();
            break;
        }
    }
    let lower = body.to_lowercase();
    let has_ellipsis = lower.contains("...") || lower.contains('…');
    let words = normalise(&lower);
    if has_ellipsis {
        return words.is_empty()
            || words.split(' ').any(|w| {
                ELLIPSIS_WORDS.contains(&w)
                    || w.strip_suffix('s')
                        .is_some_and(|s| ELLIPSIS_WORDS.contains(&s))
            });
    }
    is_elision_sentence(&words)
}

/// Lower-case words of a comment body, punctuation (and ellipses) removed, single-spaced.
fn normalise(lower: &str) -> String {
    let cleaned: String = lower
        .chars()
        .map(|c| {
            if c.is_alphanumeric() || c == '\'' {
                c
            } else {
                ' '
            }
        })
        .collect();
    cleaned.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Rule 3 of the module docs: a whole sentence that says code was left out.
fn is_elision_sentence(words: &str) -> bool {
    if words.is_empty() {
        return false;
    }
    // "rest of (the) <part> ..." with at most four more words.
    let rest = words
        .strip_prefix("the rest of ")
        .or_else(|| words.strip_prefix("rest of "));
    if let Some(rest) = rest {
        let rest = rest.strip_prefix("the ").unwrap_or(rest);
        if let Some(part) = PARTS
            .iter()
            .filter(|p| rest == **p || rest.starts_with(&format!("{p} ")))
            .max_by_key(|p| p.len())
        {
            let more = rest[part.len()..].split_whitespace().count();
            return more <= 4;
        }
        return false;
    }
    // "existing code", "other methods unchanged".
    for q in QUALIFIERS {
        if let Some(after) = words.strip_prefix(q).and_then(|w| w.strip_prefix(' ')) {
            for part in PARTS {
                if let Some(tail) = after.strip_prefix(part) {
                    let tail = tail.trim();
                    if tail.is_empty() || ENDINGS.contains(&tail) {
                        return true;
                    }
                }
            }
            return false;
        }
    }
    // "unchanged", "rest unchanged", "code omitted for brevity".
    SUBJECTS.iter().any(|s| {
        let tail = if s.is_empty() {
            Some(words)
        } else {
            words.strip_prefix(s).and_then(|w| w.strip_prefix(' '))
        };
        tail.is_some_and(|t| ENDINGS.contains(&t))
    })
}

/// An added placeholder line that replaces old lines: where it is in the new text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Elision {
    /// 0-based index of the line in the new lines given to [`find_elision`].
    pub index: usize,
    /// The line, trimmed.
    pub line: String,
    /// How many old lines are missing from the new text (at least 1).
    pub removed: usize,
}

/// The first line of `new` that is a placeholder absent from `old` (compared trimmed), when
/// `new` also lacks at least one line of `old` (counted as a multiset of exact lines, so a
/// line that only moved is not removed). `None` when the change passes the guard.
pub fn find_elision<'a>(
    old: impl IntoIterator<Item = &'a str>,
    new: impl IntoIterator<Item = &'a str>,
) -> Option<Elision> {
    let new: Vec<&str> = new.into_iter().collect();
    // Placeholders are rare: look for them in the new lines first, so that an ordinary write
    // (of a large file too) never indexes the old lines.
    let candidates: Vec<(usize, &str)> = new
        .iter()
        .enumerate()
        .filter(|(_, l)| is_placeholder(l))
        .map(|(i, l)| (i, *l))
        .collect();
    if candidates.is_empty() {
        return None;
    }
    let mut old_counts: HashMap<&str, usize> = HashMap::new();
    let mut old_placeholders: HashSet<&str> = HashSet::new();
    for line in old {
        *old_counts.entry(line).or_default() += 1;
        if is_placeholder(line) {
            old_placeholders.insert(line.trim());
        }
    }
    let (index, line) = candidates
        .into_iter()
        .find(|(_, l)| !old_placeholders.contains(l.trim()))?;
    for l in &new {
        if let Some(n) = old_counts.get_mut(l)
            && *n > 0
        {
            *n -= 1;
        }
    }
    let removed: usize = old_counts.values().sum();
    (removed > 0).then(|| Elision {
        index,
        line: line.trim().to_owned(),
        removed,
    })
}

/// The end of every refusal: what to do instead.
pub const ADVICE: &str = "write the code out in full (edit_file or apply_patch change part of a \
file without repeating the rest), or pass allow_placeholders: true if the line is meant literally";

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn placeholders() {
        for yes in [
            "// ... rest of code",
            "    # ... existing code ...",
            "/* unchanged */",
            "// ...",
            "# …",
            "/* ... */",
            "<!-- ... -->",
            "{/* ... */}",
            "-- ...",
            "; ...",
            "<!-- ... rest of the page -->",
            "// … remaining methods",
            "// rest of the file unchanged",
            "# Rest of the code remains the same",
            "// existing code",
            "// Other methods unchanged",
            "// unchanged",
            "// same as before",
            "/// rest of the implementation",
            "// code omitted for brevity",
            "(* ... *)",
            "{- ... -}",
            "% ...",
            " * ... other fields",
        ] {
            assert!(is_placeholder(yes), "{yes}");
        }
        for no in [
            "// see docs",
            "let x = y...z;",
            "# Title",
            "// TODO: handle rest of input",
            "// TODO: handle the rest of the input",
            "// Returns the input unchanged",
            "// rest of the line is ignored",
            "// existing code path for legacy clients",
            "...",
            "x = 1  # ...",
            "// Loading, please wait",
            "#[derive(Debug)]",
            "#!/bin/sh",
        ] {
            assert!(!is_placeholder(no), "{no}");
        }
    }

    #[test]
    fn elision_needs_an_added_placeholder_and_a_removed_line() {
        let old = ["a", "b", "c"];
        let e = find_elision(old, ["a", "// ...", "c"]).unwrap();
        assert_eq!((e.index, e.line.as_str(), e.removed), (1, "// ...", 1));
        // Nothing removed: a comment was only added.
        assert_eq!(find_elision(old, ["a", "// ...", "b", "c"]), None);
        // Lines that moved are not removed.
        assert_eq!(find_elision(old, ["c", "// ...", "b", "a"]), None);
        // The placeholder was there before (compared trimmed).
        assert_eq!(find_elision(["a", "  // ...", "b"], ["a", "// ..."]), None);
        // A duplicate line dropped counts as removed.
        assert!(find_elision(["}", "}", "x"], ["}", "x", "// ..."]).is_some());
    }
}
