//! Unified diffs for `dry_run` previews (spec 01, "Diff previews"): 3 lines of context,
//! `--- a/path` / `+++ b/path` headers (`/dev/null` for a created or deleted file).

use owo_colors::OwoColorize;

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

/// `diff` styled for a person (owo-colors): file headers bold, removed lines red, added
/// lines green, hunk headers cyan. Always styles: whether to colour at all is the caller's
/// choice (only faces that print for people call it, see `crate::faces::colour`).
pub fn colourise(diff: &str) -> String {
    let mut out = String::with_capacity(diff.len() + 64);
    for line in diff.split_inclusive('\n') {
        let (body, nl) = match line.strip_suffix('\n') {
            Some(b) => (b, "\n"),
            None => (line, ""),
        };
        if body.starts_with("+++") || body.starts_with("---") {
            out.push_str(&body.bold().to_string());
        } else if body.starts_with('+') {
            out.push_str(&body.green().to_string());
        } else if body.starts_with('-') {
            out.push_str(&body.red().to_string());
        } else if body.starts_with("@@") {
            out.push_str(&body.cyan().to_string());
        } else {
            out.push_str(body);
        }
        out.push_str(nl);
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
        assert!(c.contains("\x1b[31m-a\x1b[39m\n"), "{c:?}");
        assert!(c.contains("\x1b[32m+b\x1b[39m\n"), "{c:?}");
        assert!(c.contains("\x1b[36m@@ -1 +1 @@"), "{c:?}");
        assert!(c.ends_with("\n c\n"), "context lines stay plain: {c:?}");
    }
}
