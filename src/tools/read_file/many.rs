//! read_file on several files at once (spec 09, "Several files"): `paths` is a list of paths
//! and glob patterns; each file is read as read_file reads one, under one output budget, with
//! its own `[path#TAG]` header and its own `Error:` line when it fails. Tags are recorded only
//! for files whose output is returned.

use std::path::PathBuf;

use ignore::WalkState;
use serde_json::Value;

use super::{ReadFileArgs, read_one};
use crate::error::{Output, ToolError, ToolResult};
use crate::search::walk::{self, Base, WalkRules};
use crate::text::plural::count;
use crate::workspace::context::Ctx;
use crate::workspace::policy::Access;

/// Most entries `paths` takes (the schema's `maxItems`).
pub const MAX_ENTRIES: u32 = 10_000;
/// Most files one call reads; the rest are counted.
pub const MAX_FILES: usize = 50;
/// Text budget of one call across its files, in bytes.
pub const MAX_TEXT_BYTES: usize = 256 << 10;
/// Encoded image bytes one call returns across its files.
pub const MAX_IMAGE_BYTES: usize = 20 << 20;

fn is_pattern(entry: &str) -> bool {
    entry.contains(['*', '?', '[', '{'])
}

/// The files a glob `pattern` matches under the current folder, sorted, at most `room`
/// (plus how many more there were). Hidden and ignored files are left out, as glob does.
fn expand(ctx: &Ctx, pattern: &str, room: usize) -> Result<(Vec<String>, usize), ToolError> {
    let normalized = walk::normalize_glob(pattern, "paths")?;
    let matcher = walk::compile_glob(&normalized, "paths")?;
    let checked = ctx.check_path(".", Access::Read)?;
    let dir = ctx
        .fs
        .open_dir(&checked)
        .map_err(|e| crate::fileio::fs::refusal("search", ".", &e))?;
    let base = Base::new(&checked, Some(dir));
    let rules = WalkRules {
        hidden: false,
        ignored: false,
        tool: "read_file",
    };
    // Folders left out by the walk's filter are skipped silently here, as unreadable ones are.
    let (builder, _) = walk::builder(ctx, &base, rules)?;
    let states = walk::run_parallel(&builder, Vec::<PathBuf>::new, |found, entry| {
        if let Ok(e) = entry {
            let is_dir = e.file_type().is_some_and(|t| t.is_dir());
            if e.depth() > 0 && !is_dir {
                let rel = e.path().strip_prefix(&base.real).unwrap_or(e.path());
                if matcher.is_match(rel) {
                    found.push(e.into_path());
                }
            }
        }
        WalkState::Continue
    });
    let mut files: Vec<PathBuf> = states.into_iter().flatten().collect();
    files.sort();
    let total = files.len();
    let shown = files
        .iter()
        .take(room)
        .map(|p| base.display(ctx, p))
        .collect();
    Ok((shown, total.saturating_sub(room)))
}

/// Runs read_file over `list` (see the module doc). Fails only when no file could be read.
pub fn read_many(ctx: &Ctx, args: &ReadFileArgs, list: &[String]) -> ToolResult {
    let mut targets: Vec<String> = Vec::new();
    let mut lines_before: Vec<String> = Vec::new();
    let mut left_out = 0usize;
    for entry in list {
        let room = MAX_FILES.saturating_sub(targets.len());
        // An existing name is itself, glob characters and all: `a[1].txt` matched nothing as a
        // pattern, and apply_patch's advice to read it with paths went round in a circle.
        let literal = || {
            ctx.check_path(entry, Access::Read)
                .is_ok_and(|c| std::fs::symlink_metadata(&c.real).is_ok())
        };
        if is_pattern(entry) && !literal() {
            match expand(ctx, entry, room) {
                Ok((found, more)) => {
                    if found.is_empty() && more == 0 {
                        lines_before.push(format!("Error: no files matched {entry}"));
                    }
                    for f in found {
                        if !targets.contains(&f) {
                            targets.push(f);
                        }
                    }
                    left_out += more;
                }
                Err(e) => lines_before.push(format!("Error: {}", e.message)),
            }
        } else if room == 0 {
            left_out += 1;
        } else if !targets.contains(entry) {
            targets.push(entry.clone());
        }
    }
    let mut text = String::new();
    for line in &lines_before {
        text.push_str(line);
        text.push('\n');
    }
    let mut images: Vec<Value> = Vec::new();
    let (mut text_used, mut image_used) = (0usize, 0usize);
    let (mut read, mut failed, mut over_budget) = (0usize, 0usize, Vec::<String>::new());
    // Files whose own text is over the budget: no later call with paths could show them.
    let mut too_big_alone: Vec<String> = Vec::new();
    let mut files: Vec<Value> = Vec::new();
    let one_args = ReadFileArgs {
        path: None,
        ..args.clone()
    };
    for path in &targets {
        if !over_budget.is_empty() {
            over_budget.push(path.clone());
            continue;
        }
        if !text.is_empty() && !text.ends_with("\n\n") {
            text.push('\n');
        }
        match read_one(ctx, &one_args, path) {
            Ok((out, seen)) => {
                let image_bytes: usize = image_sizes(&out);
                if out.text.len() > MAX_TEXT_BYTES {
                    too_big_alone.push(path.clone());
                    continue;
                }
                if text_used + out.text.len() > MAX_TEXT_BYTES
                    || image_used + image_bytes > MAX_IMAGE_BYTES
                {
                    over_budget.push(path.clone());
                    continue;
                }
                text_used += out.text.len();
                image_used += image_bytes;
                text.push_str(&out.text);
                if !out.text.ends_with('\n') {
                    text.push('\n');
                }
                if let Some(seen) = seen
                    && let Some(note) = ctx.register_tag(&seen.real, &seen.tag)
                {
                    text.push_str(&note);
                    text.push('\n');
                }
                if let Some(Value::Array(list)) = out.fields.get("images") {
                    images.extend(list.iter().cloned());
                }
                files.push(serde_json::json!({
                    "path": path,
                    "tag": out.fields.get("tag").cloned().unwrap_or(Value::Null),
                }));
                read += 1;
            }
            Err(e) => {
                failed += 1;
                text.push_str(&format!("Error: {}\n", e.message));
                files.push(serde_json::json!({"path": path, "error": e.message}));
            }
        }
    }
    if !too_big_alone.is_empty() {
        text.push_str(&format!(
            "\n({} not shown: over the {} KB of text a call with paths shows, even alone; \
             read each with path instead of paths, or with a smaller limit: {})\n",
            count(too_big_alone.len(), "file"),
            MAX_TEXT_BYTES >> 10,
            too_big_alone.join(", ")
        ));
    }
    if !over_budget.is_empty() {
        text.push_str(&format!(
            "\n({} not shown: the output budget of one call ({} KB of text, {} MB of images) \
             is used up; read them in another call: {})\n",
            count(over_budget.len(), "file"),
            MAX_TEXT_BYTES >> 10,
            MAX_IMAGE_BYTES >> 20,
            over_budget.join(", ")
        ));
    }
    if left_out > 0 {
        text.push_str(&format!(
            "\n({} not read: at most {MAX_FILES} files per call; narrow the list or the \
             pattern)\n",
            count(left_out, "more file")
        ));
    }
    if read == 0 {
        let message = text.trim().trim_start_matches("Error: ").to_owned();
        let message = if message.is_empty() {
            "no file to read".to_owned()
        } else {
            message
        };
        return Err(ToolError::refused(message));
    }
    let mut out = Output::text(text)
        .with("files", Value::Array(files))
        .with("read", read)
        .with("failed", failed)
        .with("not_read", left_out + over_budget.len());
    if !images.is_empty() {
        out = out.with("images", Value::Array(images));
    }
    Ok(out)
}

/// Bytes of base64 image data in `out`.
fn image_sizes(out: &Output) -> usize {
    match out.fields.get("images") {
        Some(Value::Array(list)) => list
            .iter()
            .filter_map(|i| i.get("data").and_then(Value::as_str))
            .map(str::len)
            .sum(),
        _ => 0,
    }
}
