use super::super::{BodyLine, Chunk, ContextLine, Hunk, ParseError, Patch, parse};
use super::{chunks_of, wrap};

fn ctx(text: &str, patch_line: usize) -> ContextLine {
    ContextLine {
        text: text.into(),
        patch_line,
    }
}

fn c(text: &str) -> BodyLine {
    BodyLine::Context(text.into())
}
fn r(text: &str) -> BodyLine {
    BodyLine::Remove(text.into())
}
fn a(text: &str) -> BodyLine {
    BodyLine::Add(text.into())
}

fn err(input: &str) -> String {
    parse(input).unwrap_err().to_string()
}

#[test]
fn add_delete_update_and_move() {
    let patch = parse(&wrap(
        "*** Add File: docs/new.md\n+# Title\n+\n+body\n\
         *** Delete File: old.txt\n\
         *** Update File: src/a.rs\n*** Move to: src/b.rs\n@@ fn main() {\n-    old();\n+    new();\n",
    ))
    .unwrap();
    assert_eq!(
        patch,
        Patch {
            hunks: vec![
                Hunk::Add {
                    path: "docs/new.md".into(),
                    lines: vec!["# Title".into(), "".into(), "body".into()],
                    patch_line: 2,
                },
                Hunk::Delete {
                    path: "old.txt".into(),
                    patch_line: 6,
                },
                Hunk::Update {
                    path: "src/a.rs".into(),
                    move_to: Some("src/b.rs".into()),
                    chunks: vec![Chunk {
                        contexts: vec![ctx("fn main() {", 9)],
                        lines: vec![r("    old();"), a("    new();")],
                        end_of_file: false,
                        body_line: 10,
                    }],
                    patch_line: 7,
                },
            ]
        }
    );
}

#[test]
fn empty_add_creates_an_empty_file() {
    let patch = parse(&wrap("*** Add File: empty.txt\n")).unwrap();
    assert_eq!(
        patch.hunks,
        vec![Hunk::Add {
            path: "empty.txt".into(),
            lines: vec![],
            patch_line: 2
        }]
    );
}

#[test]
fn first_chunk_may_omit_at_and_body_kinds_are_kept() {
    let chunks = chunks_of("*** Update File: f\n a\n-b\n+c\n\n d\n");
    assert_eq!(chunks.len(), 1);
    assert!(chunks[0].contexts.is_empty());
    assert_eq!(chunks[0].lines, vec![c("a"), r("b"), a("c"), c(""), c("d")]);
    assert_eq!(chunks[0].body_line, 3);
}

#[test]
fn bare_at_separates_chunks() {
    let chunks = chunks_of("*** Update File: f\n@@\n-a\n+b\n@@\n-c\n+d\n");
    assert_eq!(chunks.len(), 2);
    assert!(chunks.iter().all(|chunk| chunk.contexts.is_empty()));
    assert_eq!(chunks[1].lines, vec![r("c"), a("d")]);
    assert_eq!(chunks[1].body_line, 7);
}

#[test]
fn stacked_at_lines_each_narrow() {
    let chunks =
        chunks_of("*** Update File: f\n@@ class A\n@@     def f(self):\n-        x\n+        y\n");
    assert_eq!(
        chunks[0].contexts,
        vec![ctx("class A", 3), ctx("    def f(self):", 4)]
    );
    assert_eq!(chunks[0].body_line, 5);
}

#[test]
fn end_of_file_marker_is_kept_and_trimmed() {
    let chunks = chunks_of("*** Update File: f\n@@\n last\n+tail\n\t*** End of File  \n");
    assert!(chunks[0].end_of_file);
    // A leading space makes it a context line, as the grammar says.
    let chunks = chunks_of("*** Update File: f\n@@\n last\n *** End of File\n");
    assert!(!chunks[0].end_of_file);
    assert_eq!(chunks[0].lines[1], c("*** End of File"));
    let chunks = chunks_of("*** Update File: f\n@@\n last\n+tail\n");
    assert!(!chunks[0].end_of_file);
}

#[test]
fn chunk_after_end_of_file_starts_a_new_chunk() {
    let chunks = chunks_of("*** Update File: f\n-a\n*** End of File\n@@ x\n-b\n");
    assert_eq!(chunks.len(), 2);
    assert!(chunks[0].end_of_file && !chunks[1].end_of_file);
}

#[test]
fn whitespace_only_line_separates_chunks_like_the_original() {
    let chunks = chunks_of("*** Update File: f\n-a\n+b\n\t\n@@\n-c\n");
    assert_eq!(chunks.len(), 2);
    assert_eq!(chunks[0].lines, vec![r("a"), a("b")]);
}

#[test]
fn empty_line_is_empty_context_even_at_the_end() {
    let chunks = chunks_of("*** Update File: f\n-a\n+b\n\n");
    assert_eq!(chunks[0].lines, vec![r("a"), a("b"), c("")]);
}

#[test]
fn blank_lines_after_update_header_are_skipped() {
    let chunks = chunks_of("*** Update File: f\n\n\n@@\n-a\n");
    assert_eq!(chunks[0].lines, vec![r("a")]);
    assert_eq!(chunks[0].body_line, 6);
}

#[test]
fn blank_lines_between_hunks_are_skipped() {
    let patch = parse(&wrap("*** Delete File: a\n\n   \n*** Delete File: b\n")).unwrap();
    assert_eq!(patch.hunks.len(), 2);
    assert_eq!(patch.hunks[1].patch_line(), 5);
}

#[test]
fn crlf_patch_parses_like_lf() {
    let lf = wrap("*** Update File: f\n@@ ctx\n a\n-b\n+c\n");
    let crlf = lf.replace('\n', "\r\n");
    assert_eq!(parse(&crlf).unwrap(), parse(&lf).unwrap());
}

#[test]
fn input_is_trimmed_and_markers_and_headers_padded() {
    let padded = "\n\n   *** Begin Patch   \n   *** Update File:   f  \n  *** Move to:  g \n-a\n+b\n\t*** End Patch\t\n\n";
    let patch = parse(padded).unwrap();
    match &patch.hunks[0] {
        Hunk::Update {
            path,
            move_to,
            patch_line,
            ..
        } => {
            assert_eq!(
                (path.as_str(), move_to.as_deref(), *patch_line),
                ("f", Some("g"), 2)
            );
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn leading_bom_is_ignored() {
    let text = format!("\u{feff}{}", wrap("*** Delete File: a\n"));
    assert_eq!(parse(&text).unwrap().hunks.len(), 1);
}

#[test]
fn heredoc_wrappers_are_unwrapped() {
    let body = wrap("*** Delete File: a\n");
    for opener in ["<<EOF", "<<'EOF'", "<<\"EOF\"", "  <<'EOF'  "] {
        let text = format!("{opener}\n{body}EOF\n");
        assert_eq!(parse(&text).unwrap(), parse(&body).unwrap(), "{opener}");
    }
    // Blank lines inside the wrapper go too; line numbers still count from Begin.
    let text = "<<'EOF'\n\n*** Begin Patch\n*** Frobnicate File: x\n*** End Patch\n\nEOF";
    assert!(err(text).starts_with("invalid patch at line 2: '*** Frobnicate File: x'"));
}

#[test]
fn heredoc_without_closer_is_not_unwrapped() {
    let text = format!("<<EOF\n{}", wrap("*** Delete File: a\n"));
    assert!(err(&text).contains("'<<EOF' is not '*** Begin Patch'"));
}

#[test]
fn unified_diff_style_at_header_keeps_its_trailing_context() {
    let chunks = chunks_of("*** Update File: f\n@@ -12,7 +12,8 @@ fn main() {\n-a\n");
    assert_eq!(chunks[0].contexts, vec![ctx("fn main() {", 3)]);
    let chunks = chunks_of("*** Update File: f\n@@ -1 +1 @@\n-a\n");
    assert!(chunks[0].contexts.is_empty());
    // Not numeric ranges: the whole text is the context.
    let chunks = chunks_of("*** Update File: f\n@@ -x +y @@ z\n-a\n");
    assert_eq!(chunks[0].contexts, vec![ctx("-x +y @@ z", 3)]);
}

#[test]
fn at_with_only_trailing_whitespace_is_bare() {
    let chunks = chunks_of("*** Update File: f\n@@  \t\n-a\n");
    assert!(chunks[0].contexts.is_empty());
}

#[test]
fn hunk_lines_report_patch_positions() {
    let patch = parse(&wrap("*** Add File: a\n+x\n*** Update File: b\n@@\n-y\n")).unwrap();
    let lines: Vec<usize> = patch.hunks.iter().map(Hunk::patch_line).collect();
    assert_eq!(lines, vec![2, 4]);
    assert_eq!(patch.hunks[1].path(), "b");
}

#[test]
fn content_lines_keep_their_whitespace() {
    let chunks = chunks_of("*** Update File: f\n    indented context  \n-\ttab  \n+  added\t\n");
    assert_eq!(
        chunks[0].lines,
        vec![c("   indented context  "), r("\ttab  "), a("  added\t")]
    );
}

// ---- errors ----

#[test]
fn unknown_hunk_header_is_named_with_its_line() {
    let text = wrap("*** Add File: a\n+x\n*** Delete File: b\n\n*** Frobnicate File: x\n");
    assert_eq!(
        err(&text),
        "invalid patch at line 6: '*** Frobnicate File: x' is not a valid hunk header (expected \
         *** Add File:, *** Delete File: or *** Update File:)"
    );
}

#[test]
fn missing_begin() {
    assert_eq!(
        err("*** Update File: a\n-x\n*** End Patch"),
        "invalid patch at line 1: '*** Update File: a' is not '*** Begin Patch'; a patch starts \
         with that line"
    );
}

#[test]
fn missing_end() {
    assert_eq!(
        err("*** Begin Patch\n*** Update File: a\n-x\n"),
        "invalid patch at line 3: '-x' is not '*** End Patch'; a patch ends with that line (was \
         it cut off?)"
    );
    assert!(
        err("*** Begin Patch")
            .starts_with("invalid patch at line 1: '*** Begin Patch' is not '*** End Patch'")
    );
}

#[test]
fn empty_patches_have_no_hunks() {
    for text in [
        "",
        "  \n\t\n",
        "*** Begin Patch\n*** End Patch",
        "*** Begin Patch\n\n\n*** End Patch\n",
    ] {
        assert_eq!(parse(text), Err(ParseError::NoHunks), "{text:?}");
    }
    assert_eq!(
        ParseError::NoHunks.to_string(),
        "patch contains no hunks; nothing was changed"
    );
}

#[test]
fn update_with_no_chunks() {
    assert_eq!(
        err(&wrap("*** Update File: a.rs\n")),
        "invalid patch at line 2: '*** Update File: a.rs' has no chunks (expected @@ or lines \
         starting with ' ', '+' or '-' after it)"
    );
    // A following hunk does not count as a chunk.
    assert!(
        err(&wrap(
            "*** Update File: a.rs\n*** Move to: b.rs\n*** Delete File: c\n"
        ))
        .starts_with("invalid patch at line 2:")
    );
}

#[test]
fn chunk_with_no_lines() {
    assert_eq!(
        err(&wrap("*** Update File: a\n@@ fn f\n*** End of File\n")),
        "invalid patch at line 3: the chunk starting '@@ fn f' has no lines (expected lines \
         starting with ' ', '+' or '-' after it)"
    );
    assert!(
        err(&wrap("*** Update File: a\n-x\n@@\n@@ y\n"))
            .starts_with("invalid patch at line 4: the chunk starting '@@'")
    );
}

#[test]
fn body_line_without_prefix() {
    assert_eq!(
        err(&wrap("*** Update File: a\n@@\n x\nfoo();\n")),
        "invalid patch at line 5: 'foo();' does not start with ' ' (context), '+' (added) or '-' \
         (removed)"
    );
    // At the start of a chunk too, and a tab is not a context prefix.
    assert!(err(&wrap("*** Update File: a\nfoo\n")).starts_with("invalid patch at line 3: 'foo'"));
    assert!(err(&wrap("*** Update File: a\n-x\n\tfoo\n")).starts_with("invalid patch at line 4:"));
}

#[test]
fn glued_at_line_is_a_body_error() {
    assert!(
        err(&wrap("*** Update File: a\n@@foo\n-x\n"))
            .starts_with("invalid patch at line 3: '@@foo' does not start")
    );
}

#[test]
fn headers_without_path() {
    assert_eq!(
        err(&wrap("*** Add File:   \n+x\n")),
        "invalid patch at line 2: '*** Add File:   ' names no path"
    );
    assert!(err(&wrap("*** Delete File:\n")).contains("names no path"));
    assert!(
        err(&wrap("*** Update File: a\n*** Move to:\n-x\n"))
            .starts_with("invalid patch at line 3:")
    );
}

#[test]
fn add_body_without_plus_falls_to_header_check() {
    let text = wrap("*** Add File: a\n+x\nnot added\n");
    assert!(
        err(&text).starts_with("invalid patch at line 4: 'not added' is not a valid hunk header")
    );
}

#[test]
fn end_marker_in_the_middle_is_reported() {
    let text =
        "*** Begin Patch\n*** Delete File: a\n*** End Patch\n*** Delete File: b\n*** End Patch";
    assert!(
        err(text)
            .starts_with("invalid patch at line 3: '*** End Patch' is not a valid hunk header")
    );
}

#[test]
fn quoted_lines_are_cut() {
    let long = "x".repeat(500);
    let message = err(&wrap(&format!("{long}\n")));
    assert!(message.contains(&format!("'{}...'", "x".repeat(200))));
    assert!(message.len() < 400);
}

#[test]
fn old_lines_are_context_and_removed() {
    let chunks = chunks_of("*** Update File: f\n a\n-b\n+c\n d\n");
    assert_eq!(chunks[0].old_lines(), vec!["a", "b", "d"]);
}

#[test]
fn context_line_whose_text_starts_with_stars_opens_a_chunk() {
    // ` ***` is a context line holding `***` (a Markdown rule, a comment banner): the original
    // format only ends a hunk at a line starting `***` with no leading space.
    let chunks = chunks_of("*** Update File: r.md\n ***\n-text\n+TEXT\n\t\n ** x\n *** y\n-z\n");
    assert_eq!(chunks.len(), 2);
    assert_eq!(chunks[0].lines, vec![c("***"), r("text"), a("TEXT")]);
    assert_eq!(chunks[1].lines, vec![c("** x"), c("*** y"), r("z")]);
}

#[test]
fn padded_hunk_header_between_chunks_still_starts_a_hunk() {
    let patch = parse(&wrap(
        "*** Update File: a\n-x\n+y\n\t\n   *** Delete File: b\n",
    ))
    .unwrap();
    assert_eq!(patch.hunks.len(), 2);
    assert_eq!(patch.hunks[1].path(), "b");
}
