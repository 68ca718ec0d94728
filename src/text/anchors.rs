//! Line anchors as edit-lines takes them (spec 02 "Anchors mode", spec 03 "edit-lines"):
//! parsing `<n>:<hh>`, the anchored edits, their bottom-up order and overlaps. The anchor
//! hash itself is [`crate::text::tag::line_anchor_hash`].

use crate::error::ToolError;

/// A parsed anchor: line `n` (0 only for "insert at the top") with its 2-hex-digit hash.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Anchor {
    /// 1-based line number; 0 only for "insert at the top".
    pub line: usize,
    /// The 2 lower-case hex digits.
    pub hash: String,
    /// `<n>:<hh>` (or `0`) as it is shown back in messages.
    pub spelled: String,
}

/// One anchored edit of a file (spec 03 "edit-lines").
#[derive(Debug, Clone, PartialEq)]
pub enum Op {
    /// Replace lines from..=to with `lines`.
    Replace {
        /// First replaced line.
        from: Anchor,
        /// Last replaced line (inclusive).
        to: Anchor,
        /// The new lines (empty: delete).
        lines: Vec<String>,
    },
    /// Insert `lines` after line `after` (0: at the top).
    Insert {
        /// The line after which to insert.
        after: Anchor,
        /// The inserted lines.
        lines: Vec<String>,
    },
}

impl Op {
    /// Where the edit starts, as a 0-based line index, and a tie-break so that on equal
    /// starts a replacement is applied before an insertion in front of it (bottom-up order).
    pub fn order_key(&self) -> (usize, u8) {
        match self {
            Op::Replace { from, .. } => (from.line - 1, 1),
            Op::Insert { after, .. } => (after.line, 0),
        }
    }

    /// The anchors to check against the file (none for an insertion at the top).
    pub fn anchors(&self) -> Vec<&Anchor> {
        match self {
            Op::Replace { from, to, .. } if from == to => vec![from],
            Op::Replace { from, to, .. } => vec![from, to],
            Op::Insert { after, .. } if after.line == 0 => vec![],
            Op::Insert { after, .. } => vec![after],
        }
    }
}

/// Parses `<n>:<hh>` (a `|text` tail ignored; hex digits in any case); `"0"` when `top_ok`.
/// `field` names the argument (a JSON path) in the usage error for anything else.
pub fn parse_anchor(field: &str, raw: &str, top_ok: bool) -> Result<Anchor, ToolError> {
    let head = raw.split('|').next().unwrap_or_default().trim();
    if head == "0" && top_ok {
        return Ok(Anchor {
            line: 0,
            hash: String::new(),
            spelled: "0".into(),
        });
    }
    let bad = || {
        ToolError::usage(format!(
            "{field}: {raw:?} is not an anchor like 12:ab (copy it from read-file --anchors){}",
            if top_ok {
                ", or \"0\" for the top of the file"
            } else {
                ""
            }
        ))
    };
    let (n, h) = head.split_once(':').ok_or_else(bad)?;
    let line: usize = n.parse().map_err(|_| bad())?;
    if line == 0 || h.len() != 2 || !h.bytes().all(|b| b.is_ascii_hexdigit()) {
        return Err(bad());
    }
    let hash = h.to_ascii_lowercase();
    Ok(Anchor {
        line,
        spelled: format!("{line}:{hash}"),
        hash,
    })
}

/// `replace` / `insert` text as lines: `\r\n` and `\r` become `\n`, one final `\n` ends the
/// last line rather than adding an empty one, and `""` is no lines.
pub fn split_lines(s: &str) -> Vec<String> {
    let s = s.replace("\r\n", "\n").replace('\r', "\n");
    if s.is_empty() {
        return Vec::new();
    }
    let s = s.strip_suffix('\n').unwrap_or(&s);
    s.split('\n').map(str::to_owned).collect()
}

/// Whether `y` falls inside `x`'s lines (check both orders): replacements sharing a line,
/// an insertion inside a replaced block, two insertions at one place.
pub fn overlap(x: &Op, y: &Op) -> bool {
    match (x, y) {
        (
            Op::Replace {
                from: f1, to: t1, ..
            },
            Op::Replace {
                from: f2, to: t2, ..
            },
        ) => f1.line <= t2.line && f2.line <= t1.line,
        // Inserting inside a replaced block has no clear place.
        (Op::Replace { from, to, .. }, Op::Insert { after, .. }) => {
            from.line <= after.line && after.line < to.line
        }
        (Op::Insert { after: a1, .. }, Op::Insert { after: a2, .. }) => a1.line == a2.line,
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn anchors_parse() {
        let a = parse_anchor("f", "12:AB|  let x = 1;", false).unwrap();
        assert_eq!((a.line, a.hash.as_str()), (12, "ab"));
        assert_eq!(parse_anchor("f", "0", true).unwrap().line, 0);
        for bad in ["0", "12", "12:abc", "x:ab", "12:zz", ""] {
            assert!(parse_anchor("f", bad, false).is_err(), "{bad}");
        }
    }

    #[test]
    fn lines_split() {
        assert_eq!(split_lines(""), Vec::<String>::new());
        assert_eq!(split_lines("\n"), vec![String::new()]);
        assert_eq!(
            split_lines("a\r\nb\n"),
            vec!["a".to_owned(), "b".to_owned()]
        );
    }

    fn rep(f: usize, t: usize) -> Op {
        let a = |n: usize| Anchor {
            line: n,
            hash: "00".into(),
            spelled: format!("{n}:00"),
        };
        Op::Replace {
            from: a(f),
            to: a(t),
            lines: vec![],
        }
    }

    fn ins(n: usize) -> Op {
        Op::Insert {
            after: Anchor {
                line: n,
                hash: "00".into(),
                spelled: format!("{n}:00"),
            },
            lines: vec!["x".into()],
        }
    }

    #[test]
    fn overlaps() {
        let both = |x: &Op, y: &Op| overlap(x, y) || overlap(y, x);
        assert!(both(&rep(3, 5), &rep(5, 6)));
        assert!(!both(&rep(3, 5), &rep(6, 6)));
        assert!(both(&rep(3, 5), &ins(4)));
        assert!(
            !both(&rep(3, 5), &ins(5)),
            "after the block is a clear place"
        );
        assert!(!both(&rep(3, 5), &ins(2)));
        assert!(both(&ins(2), &ins(2)));
    }

    #[test]
    fn bottom_up_order() {
        let mut ops = [rep(3, 3), ins(2), ins(3), rep(1, 1)];
        ops.sort_by_key(|op| std::cmp::Reverse(op.order_key()));
        let keys: Vec<_> = ops.iter().map(Op::order_key).collect();
        assert_eq!(keys, vec![(3, 0), (2, 1), (2, 0), (0, 1)]);
    }
}
