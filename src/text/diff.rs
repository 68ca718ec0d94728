//! Unified diffs for `dry_run` previews (spec 01, "Diff previews"): 3 lines of context,
//! `--- a/path` / `+++ b/path` headers (`/dev/null` for a created or deleted file).

use std::io::IsTerminal;

/// The unified diff from `old` to `new` (`\n`-normalised texts; `None` = the file does not
/// exist on that side), labelled with `path`. Empty when nothing changes.
pub fn unified(path: &str, old: Option<&str>, new: Option<&str>) -> String {
    let a = if old.is_some() {
        format!("a/{path}")
    } else {
        "/dev/null".to_owned()
    };
    let b = if new.is_some() {
        format!("b/{path}")
    } else {
        "/dev/null".to_owned()
    };
    let (old, new) = (old.unwrap_or(""), new.unwrap_or(""));
    if old == new {
        return String::new();
    }
    similar::TextDiff::from_lines(old, new)
        .unified_diff()
        .context_radius(3)
        .missing_newline_hint(true)
        .header(&a, &b)
        .to_string()
}

/// Whether output may be coloured: stdout is a terminal and `NO_COLOR` is unset (a person is
/// reading, not a model).
pub fn colour_wanted() -> bool {
    std::io::stdout().is_terminal() && std::env::var_os("NO_COLOR").is_none()
}

/// `diff` with ANSI colours on added (green), removed (red) and hunk-header (cyan) lines.
pub fn colourise(diff: &str) -> String {
    let mut out = String::with_capacity(diff.len() + 64);
    for line in diff.split_inclusive('\n') {
        let (body, nl) = match line.strip_suffix('\n') {
            Some(b) => (b, "\n"),
            None => (line, ""),
        };
        let code = if body.starts_with("+++") || body.starts_with("---") {
            "1"
        } else if body.starts_with('+') {
            "32"
        } else if body.starts_with('-') {
            "31"
        } else if body.starts_with("@@") {
            "36"
        } else {
            ""
        };
        if code.is_empty() {
            out.push_str(line);
        } else {
            out.push_str(&format!("\x1b[{code}m{body}\x1b[0m{nl}"));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn headers_and_context() {
        let d = unified(
            "a.txt",
            Some("1\n2\n3\n4\n5\n6\n7\n8\n"),
            Some("1\n2\n3\n4\nFIVE\n6\n7\n8\n"),
        );
        assert!(
            d.starts_with("--- a/a.txt\n+++ b/a.txt\n@@ -2,7 +2,7 @@\n"),
            "{d}"
        );
        assert!(d.contains("-5\n+FIVE\n"));
        let created = unified("n.txt", None, Some("x\n"));
        assert!(
            created.starts_with("--- /dev/null\n+++ b/n.txt\n"),
            "{created}"
        );
        assert_eq!(unified("same", Some("a"), Some("a")), "");
    }

    #[test]
    fn colours_only_marked_lines() {
        let c = colourise("--- a/x\n+++ b/x\n@@ -1 +1 @@\n-a\n+b\n c\n");
        assert!(c.contains("\x1b[31m-a\x1b[0m\n"));
        assert!(c.contains("\x1b[32m+b\x1b[0m\n"));
        assert!(c.ends_with(" c\n"));
    }
}
