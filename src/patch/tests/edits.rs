use super::super::{
    ChunkError, LineEdit, MatchNote, NoteSubject, Pass, Reindent, SeekError, apply_to_lines,
    compute_edits,
};
use super::chunks_of;

/// Applies an Update body (hunk text after the header) to `file` lines.
fn run(file: &[&str], body: &str) -> Result<(Vec<String>, Vec<MatchNote>), ChunkError> {
    let chunks = chunks_of(&format!("*** Update File: f.txt\n{body}"));
    let applied = compute_edits("f.txt", file, &chunks)?;
    check_order(&applied.edits, file.len());
    Ok((apply_to_lines(file, &applied.edits), applied.notes))
}

fn check_order(edits: &[LineEdit], len: usize) {
    for pair in edits.windows(2) {
        assert!(pair[0].end <= pair[1].start, "{edits:?}");
    }
    for edit in edits {
        assert!(edit.start <= edit.end && edit.end <= len, "{edit:?}");
    }
}

fn lines(result: Result<(Vec<String>, Vec<MatchNote>), ChunkError>) -> Vec<String> {
    result.unwrap_or_else(|e| panic!("{e}")).0
}

/// The not-found error of a run that must fail that way.
fn not_found(result: Result<(Vec<String>, Vec<MatchNote>), ChunkError>) -> SeekError {
    match result {
        Err(ChunkError::NotFound(e)) => *e,
        other => panic!("expected a not-found error, got {other:?}"),
    }
}

#[test]
fn replace_with_context() {
    let out = lines(run(
        &["x = 1", "y = 2", "z = 3"],
        "@@\n x = 1\n-y = 2\n+y = 20\n z = 3\n",
    ));
    assert_eq!(out, ["x = 1", "y = 20", "z = 3"]);
}

#[test]
fn only_change_runs_become_edits() {
    let chunks = chunks_of("*** Update File: f\n a\n-b\n+B\n c\n-d\n e\n+f\n");
    let applied = compute_edits("f", &["a", "b", "c", "d", "e"], &chunks).unwrap();
    assert_eq!(
        applied.edits,
        vec![
            LineEdit {
                start: 1,
                end: 2,
                lines: vec!["B".into()]
            },
            LineEdit {
                start: 3,
                end: 4,
                lines: vec![]
            },
            LineEdit {
                start: 5,
                end: 5,
                lines: vec!["f".into()]
            },
        ]
    );
}

#[test]
fn context_is_never_written_from_the_patch() {
    // The file is tab-indented, the patch uses spaces and curly quotes: the kept lines stay
    // the file's own.
    let file = ["\tsay(\"hi\")", "\told()", "\tbye()"];
    let (out, notes) = run(
        &file,
        "@@\n     say(\u{201C}hi\u{201D})\n-    old()\n+\tnew()\n     bye()\n",
    )
    .unwrap();
    assert_eq!(out, ["\tsay(\"hi\")", "\tnew()", "\tbye()"]);
    assert_eq!(
        notes,
        vec![MatchNote {
            chunk: 1,
            subject: NoteSubject::Body,
            pass: Pass::LookAlike,
            line: 1,
            reindent: None
        }]
    );
    assert_eq!(
        notes[0].to_string(),
        "chunk 1 matched ignoring whitespace and look-alike characters at line 1"
    );
}

#[test]
fn fuzzy_notes_per_chunk_with_file_line_numbers() {
    let file = ["a", "b  ", "  c", "  d", "e"];
    let (out, notes) = run(&file, "@@\n-b\n+B\n@@\n c\n-d\n+D\n").unwrap();
    assert_eq!(out, ["a", "B", "  c", "  D", "e"]);
    assert_eq!(
        notes,
        vec![
            MatchNote {
                chunk: 1,
                subject: NoteSubject::Body,
                pass: Pass::TrailingWhitespace,
                line: 2,
                reindent: None
            },
            MatchNote {
                chunk: 2,
                subject: NoteSubject::Body,
                pass: Pass::SurroundingWhitespace,
                line: 3,
                reindent: Some(Reindent::Add("  ".into()))
            },
        ]
    );
    assert_eq!(
        notes[0].to_string(),
        "chunk 1 matched ignoring trailing whitespace at line 2"
    );
}

#[test]
fn at_context_narrows_and_the_search_starts_after_it() {
    let file = ["fn a() {", "    x();", "}", "fn b() {", "    x();", "}"];
    let out = lines(run(&file, "@@ fn b() {\n-    x();\n+    y();\n"));
    assert_eq!(
        out,
        ["fn a() {", "    x();", "}", "fn b() {", "    y();", "}"]
    );
}

#[test]
fn stacked_at_lines_narrow_in_turn() {
    let file = [
        "class A:",
        "  def f():",
        "    v = 1",
        "class B:",
        "  def f():",
        "    v = 1",
    ];
    let out = lines(run(
        &file,
        "@@ class B:\n@@   def f():\n-    v = 1\n+    v = 2\n",
    ));
    assert_eq!(out[5], "    v = 2");
    assert_eq!(out[2], "    v = 1");
}

#[test]
fn fuzzy_at_line_gets_a_note() {
    let file = ["  fn b() {  ", "    x();"];
    let (_, notes) = run(&file, "@@ fn b() {\n-    x();\n").unwrap();
    assert_eq!(notes[0].subject, NoteSubject::AtContext);
    assert_eq!(
        notes[0].to_string(),
        "chunk 1 @@ line matched ignoring leading and trailing whitespace at line 1"
    );
}

#[test]
fn cursor_moves_forward_so_repeated_lines_go_in_order() {
    let file = ["v", "v", "v"];
    let out = lines(run(&file, "@@\n-v\n+one\n@@\n-v\n+two\n"));
    assert_eq!(out, ["one", "two", "v"]);
}

#[test]
fn chunks_out_of_order_are_refused_and_explained() {
    let file = ["first", "second"];
    let e = not_found(run(&file, "@@\n-second\n+2\n@@\n-first\n+1\n"));
    assert_eq!((e.chunk, e.patch_line), (2, 7));
    assert_eq!(
        e.hint.as_deref(),
        Some(
            "They occur at line 1, above line 2 where the previous chunk ended; the chunks of \
             one file must come in file order."
        )
    );
    assert!(
        e.to_string()
            .contains("\nThey occur at line 1, above line 2")
    );
}

#[test]
fn end_of_file_chunk_matches_at_the_end() {
    let file = ["end", "middle", "end"];
    let out = lines(run(&file, "@@\n-end\n+END\n*** End of File\n"));
    assert_eq!(out, ["end", "middle", "END"]);
    let e = not_found(run(&file, "@@\n-middle\n*** End of File\n"));
    assert_eq!(e.chunk, 1);
}

#[test]
fn pure_addition_goes_right_after_its_at_line() {
    let out = lines(run(&["alpha", "beta", "gamma"], "@@ beta\n+INSERTED\n"));
    assert_eq!(out, ["alpha", "beta", "INSERTED", "gamma"]);
}

#[test]
fn pure_addition_without_context_goes_to_the_end() {
    let out = lines(run(&["alpha", "beta"], "@@\n+omega\n"));
    assert_eq!(out, ["alpha", "beta", "omega"]);
    let out = lines(run(&[], "+first\n+second\n"));
    assert_eq!(out, ["first", "second"]);
}

#[test]
fn two_pure_additions_at_the_end_keep_patch_order() {
    let out = lines(run(&["a"], "@@\n+b\n@@\n+c\n"));
    assert_eq!(out, ["a", "b", "c"]);
}

#[test]
fn retry_without_trailing_empty_context_line() {
    // The trailing empty line (often a blank line before *** End Patch) is not in the file.
    let out = lines(run(&["a", "b"], "@@\n a\n-b\n+c\n\n"));
    assert_eq!(out, ["a", "c"]);
}

#[test]
fn retry_drops_an_empty_removed_line() {
    let out = lines(run(&["a", "b"], "@@\n-b\n-\n+c\n"));
    assert_eq!(out, ["a", "c"]);
}

#[test]
fn retry_keeps_an_empty_context_line_followed_by_additions_as_added() {
    let out = lines(run(&["a", "b"], "@@\n b\n \n+c\n"));
    assert_eq!(out, ["a", "b", "", "c"]);
}

#[test]
fn retry_only_when_the_first_try_fails() {
    // The empty line exists after b: the full body matches, no retry.
    let out = lines(run(&["b", "", "x"], "@@\n-b\n+c\n \n"));
    assert_eq!(out, ["c", "", "x"]);
}

#[test]
fn retry_applies_once_only() {
    let e = not_found(run(&["a"], "@@\n-a\n \n \n"));
    assert_eq!(e.expected, vec!["a", "", ""]);
}

#[test]
fn retry_with_end_of_file() {
    let out = lines(run(
        &["x", "last"],
        "@@\n-last\n+LAST\n \n*** End of File\n",
    ));
    assert_eq!(out, ["x", "LAST"]);
}

#[test]
fn retry_that_leaves_no_old_lines_is_a_pure_addition() {
    let out = lines(run(&["a", "b"], "@@\n\n+c\n"));
    assert_eq!(out, ["a", "b", "", "c"]);
}

#[test]
fn not_found_shows_expected_and_closest_region() {
    let file = [
        "fn main() {",
        "    let total = 1;",
        "    println!(\"{total}\");",
        "}",
    ];
    let e = run(
        &file,
        "@@\n fn main() {\n-    let count = 1;\n+    let count = 2;\n",
    )
    .unwrap_err();
    assert_eq!(
        e.to_string(),
        "f.txt: could not find the lines of chunk 1 (patch line 4):\n     \
         |fn main() {\n     |    let count = 1;\n\
         Closest region of the file, lines 1-2:\n    1|fn main() {\n    2|    let total = 1;\n\
         Read the file again and copy the context and '-' lines exactly; nothing was changed."
    );
}

#[test]
fn missing_at_line_is_reported_with_its_patch_line() {
    let e = not_found(run(&["a", "b"], "@@\n-a\n@@ nowhere\n-b\n"));
    assert_eq!((e.chunk, e.patch_line), (2, 5));
    assert_eq!(e.expected, vec!["@@ nowhere"]);
    assert!(
        e.to_string()
            .contains("No region of the file resembles them.")
    );
}

#[test]
fn empty_file_not_found() {
    let e = not_found(run(&[], "@@\n-a\n"));
    assert!(e.closest.is_none());
}

#[test]
fn chunk_with_only_context_makes_no_edit_but_must_match() {
    let chunks = chunks_of("*** Update File: f\n a\n b\n");
    assert!(
        compute_edits("f", &["a", "b"], &chunks)
            .unwrap()
            .edits
            .is_empty()
    );
    assert!(compute_edits("f", &["a", "c"], &chunks).is_err());
}

#[test]
fn edits_from_many_chunks_are_ascending() {
    let file: Vec<String> = (0..50).map(|i| format!("line {i}")).collect();
    let refs: Vec<&str> = file.iter().map(String::as_str).collect();
    let body: String = (0..50)
        .step_by(5)
        .map(|i| format!("@@\n line {i}\n-line {}\n+LINE {}\n", i + 1, i + 1))
        .collect();
    let (out, notes) = run(&refs, &body).unwrap();
    assert!(notes.is_empty());
    assert_eq!(out.len(), 50);
    assert_eq!(out[1], "LINE 1");
    assert_eq!(out[46], "LINE 46");
    assert_eq!(out[47], "line 47");
}

#[test]
fn apply_to_lines_handles_insertions_and_deletions() {
    let edits = vec![
        LineEdit {
            start: 0,
            end: 0,
            lines: vec!["head".into()],
        },
        LineEdit {
            start: 1,
            end: 2,
            lines: vec![],
        },
        LineEdit {
            start: 3,
            end: 3,
            lines: vec!["tail".into()],
        },
    ];
    assert_eq!(
        apply_to_lines(&["a", "b", "c"], &edits),
        ["head", "a", "c", "tail"]
    );
}

#[test]
fn repeating_the_at_line_as_context_is_explained() {
    let file = ["fn a() {", "    x();", "}"];
    let e = not_found(run(&file, "@@ fn a() {\n fn a() {\n-    x();\n+    y();\n"));
    assert_eq!(
        e.hint.as_deref(),
        Some(
            "They occur at line 1, which is not below the chunk's @@ line (line 1): an @@ line \
             names a line above the chunk, so do not repeat it as the first context line."
        )
    );
}

#[test]
fn end_of_file_chunk_found_elsewhere_is_explained() {
    let e = not_found(run(&["a", "b", "c"], "@@\n-b\n*** End of File\n"));
    assert_eq!(
        e.hint.as_deref(),
        Some(
            "They occur at line 2, but *** End of File requires them to end at the last line (3)."
        )
    );
}

#[test]
fn no_hint_when_the_lines_are_nowhere() {
    let e = not_found(run(&["a", "b"], "@@\n-zzz\n"));
    assert_eq!(e.hint, None);
}

/// Issue 18 §1: the case, `-return 1` / `+return 10` for a line indented 8 spaces.
#[test]
fn added_lines_take_the_indentation_the_match_ignored() {
    let file = ["def f(x):", "    if x:", "        return 1", "    return 0"];
    let (out, notes) = run(&file, "@@\n-return 1\n+return 10\n").unwrap();
    assert_eq!(out[2], "        return 10");
    assert_eq!(
        notes[0].to_string(),
        "chunk 1 matched ignoring leading and trailing whitespace at line 3; its + lines were \
         indented 8 more spaces to match the file"
    );
}

#[test]
fn over_indented_patches_lose_the_surplus_and_keep_nesting() {
    let file = ["if a:", "    b()", "c()"];
    let (out, notes) = run(
        &file,
        "@@\n         if a:\n-            b()\n+            if d:\n+                e()\n",
    )
    .unwrap();
    assert_eq!(out, ["if a:", "    if d:", "        e()", "c()"]);
    assert_eq!(notes[0].reindent, Some(Reindent::Remove("        ".into())));
}

#[test]
fn tabs_in_the_file_are_added_as_tabs() {
    let file = ["func f() {", "\tif x {", "\t\treturn 1", "\t}"];
    let (out, _) = run(
        &file,
        "@@\n if x {\n-\treturn 1\n+\tif y {\n+\t\treturn 2\n+\t}\n",
    )
    .unwrap();
    assert_eq!(
        out,
        [
            "func f() {",
            "\tif x {",
            "\t\tif y {",
            "\t\t\treturn 2",
            "\t\t}",
            "\t}"
        ]
    );
}

#[test]
fn a_space_indented_patch_for_a_tab_indented_file_is_mapped_line_by_line() {
    let file = ["\tif x {", "\t\treturn 1", "\t}"];
    let (out, notes) = run(
        &file,
        "@@\n     if x {\n-        return 1\n+        return 2\n+            // deeper\n",
    )
    .unwrap();
    assert_eq!(
        out,
        ["\tif x {", "\t\treturn 2", "\t\t    // deeper", "\t}"]
    );
    assert!(
        notes[0].to_string().ends_with(
            "its + lines were re-indented to match the file (4 spaces as 1 tab, 8 spaces as 2 tabs)"
        ),
        "{}",
        notes[0]
    );
}

#[test]
fn inconsistent_indentation_refuses_the_chunk() {
    let file = ["def f(x):", "    if x:", "        return 1"];
    let e = run(&file, "@@\n if x:\n-return 1\n+return 10\n").unwrap_err();
    let ChunkError::Indentation(e) = e else {
        panic!("expected an indentation error, got {e:?}")
    };
    assert_eq!(
        e.to_string(),
        "f.txt: chunk 1 (patch line 4) matched at line 2 only ignoring leading whitespace, and \
         the file's indentation differs from the patch's inconsistently (line 2 has 4 spaces \
         where the patch has none; line 3 has 8 spaces where the patch has none), so its + lines \
         cannot be re-indented safely. Copy the context and '-' lines with the file's own \
         indentation; nothing was changed."
    );
}

#[test]
fn a_chunk_that_only_removes_lines_needs_no_consistent_indentation() {
    let file = ["def f(x):", "    if x:", "        return 1", "    return 0"];
    let (out, notes) = run(&file, "@@\n if x:\n-return 1\n").unwrap();
    assert_eq!(out, ["def f(x):", "    if x:", "    return 0"]);
    assert_eq!(notes[0].reindent, None);
}
