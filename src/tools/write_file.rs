//! `write-file`: create a file or replace its whole content (spec 03, "write-file").

use clap::Args;
use schemars::JsonSchema;
use serde::Deserialize;

use crate::error::{Output, ToolError, ToolResult};
use crate::fileio::txn::{self, Change, Transaction, WriteOptions};
use crate::text::checked::encode;
use crate::text::editable::{DecodeError, EditableText};
use crate::text::placeholder;
use crate::text::plural::count;
use crate::text::region::line_delta;
use crate::text::tag::tag_ref;
use crate::tools::Touches;
use crate::tools::{Group, Tool, ToolMeta};
use crate::workspace::context::Ctx;
use crate::workspace::policy::Access;

/// Arguments of write-file.
#[derive(Debug, Clone, Deserialize, JsonSchema, Args)]
#[serde(deny_unknown_fields)]
pub struct WriteFileArgs {
    /// The file to create or overwrite. Parent folders are created.
    #[schemars(length(max = crate::args::MAX_PATH_CHARS))]
    pub path: String,
    /// The whole new content (CLI: --content, or stdin). Written exactly as given; in an
    /// existing file, line breaks take the file's own line ending and encoding.
    #[arg(long)]
    #[schemars(required, length(max = crate::args::MAX_BODY_CHARS))]
    pub content: Option<String>,
    /// Replace an existing file (default true); false refuses when the file exists.
    #[arg(long)]
    pub overwrite: Option<bool>,
    /// Refuse unless the file's modification time is this (RFC 3339, or integer ms since the
    /// Unix epoch).
    #[arg(long, value_name = "TIME")]
    pub expected_mtime: Option<MtimeGuard>,
    /// Refuse unless the file's size is this many bytes.
    #[arg(long, value_name = "BYTES")]
    pub expected_size: Option<u64>,
    /// Write even when the new content adds a placeholder comment such as
    /// `// ... rest of code` and drops lines of the old file (default false: refused).
    #[arg(long)]
    pub allow_placeholders: Option<bool>,
    /// Refuse a write that adds syntax errors (default true).
    #[arg(long)]
    pub check_syntax: Option<bool>,
    /// Show the diff, write nothing (default false).
    #[arg(long)]
    pub dry_run: Option<bool>,
}

/// An mtime guard: RFC 3339 text or integer milliseconds since the Unix epoch.
#[derive(Debug, Clone, Deserialize, JsonSchema, PartialEq)]
#[serde(untagged)]
pub enum MtimeGuard {
    /// Milliseconds since the Unix epoch.
    Millis(i64),
    /// RFC 3339, e.g. `2026-11-30T14:51:18Z` or with an offset and fraction.
    Text(#[schemars(length(max = 64))] String),
}

impl std::str::FromStr for MtimeGuard {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        Ok(match s.parse::<i64>() {
            Ok(ms) => MtimeGuard::Millis(ms),
            Err(_) => MtimeGuard::Text(s.to_owned()),
        })
    }
}

/// The write-file tool.
pub struct WriteFile;

impl Tool for WriteFile {
    type Args = WriteFileArgs;
    const NAME: &'static str = "write_file";
    const META: ToolMeta = ToolMeta {
        description: "Create a file, or replace a whole file's content.\n\
Prefer edit_file for changes to part of a file. Overwriting needs a current read_file of the \
file (refused if it changed since). The content is written exactly as given: never elide code \
with comments like `// ... rest unchanged` (such writes are refused). An existing file keeps its \
encoding, BOM and line ending. Reports the new tag: [path#TAG].",
        examples: "  agtool write-file notes/todo.md --content '# TODO'\n  agtool write-file src/gen.rs < gen.rs\n  agtool write-file config.json --dry-run true < new.json",
        group: Group::Edit,
        sensitive: true,
        serial: true,
        read_only: false,
        destructive: true,
        idempotent: true,
        open_world: false,
        timeout_ms: Some(60_000),
        body: Some("content"),
        tags: &["write", "files"],
    };

    fn touches(args: &Self::Args) -> Touches {
        Touches {
            writes: vec![args.path.clone()],
            ..Touches::default()
        }
    }

    fn run(ctx: &Ctx, args: WriteFileArgs) -> ToolResult {
        let content = args.content.clone().ok_or_else(|| {
            ToolError::usage("content is required (pass it, or pipe it on stdin)")
        })?;
        // `dir/` names a directory; the policy folds the slash away, so refuse it here rather
        // than create or replace a file called `dir`.
        if args.path.ends_with('/') || args.path.ends_with(std::path::MAIN_SEPARATOR) {
            return Err(ToolError::usage(format!(
                "{} ends with a slash, which names a directory; write-file writes files \
                 (drop the slash to write a file of that name)",
                args.path
            )));
        }
        let path = ctx.check_path(&args.path, Access::Write)?;
        let txn = Transaction::begin(ctx, [path.real.as_path()])?;
        let before = txn.load(&path)?;
        let opts = WriteOptions::for_call(ctx, args.check_syntax, args.dry_run);
        let mut replaced_binary: Option<usize> = None;
        let (new_text, old_text) = match &before {
            None => {
                check_guards_on_missing(&args)?;
                (EditableText::new_utf8(&content), None)
            }
            Some(bytes) => {
                if args.overwrite == Some(false) {
                    return Err(ToolError::refused(format!(
                        "{} exists; pass overwrite: true to replace it, or edit it with edit_file",
                        args.path
                    )));
                }
                let mtime = ctx.fs.stat(&path).ok().map(|st| st.mtime);
                check_guards(mtime, &args, bytes.len() as u64)?;
                // A file that is not text is named before the freshness gate, which no read
                // could ever satisfy for it (read_file shows text only).
                let old = match EditableText::decode(bytes) {
                    Ok(old) => old,
                    Err(e) if ctx.freshness => {
                        return Err(ToolError::refused(not_text_refusal(&args.path, &e)));
                    }
                    // With freshness off nothing vouches for content anyway: the file is
                    // replaced like a new one, written exactly as given.
                    Err(_) => {
                        replaced_binary = Some(bytes.len());
                        EditableText::new_utf8("")
                    }
                };
                txn.require_fresh(&path, bytes)?;
                if !args.allow_placeholders.unwrap_or(false) {
                    check_placeholders(&args.path, old.text(), &content)?;
                }
                if replaced_binary.is_some() {
                    (EditableText::new_utf8(&content), None)
                } else {
                    (EditableText::rewrite_of(&old, &content), Some(old))
                }
            }
        };
        let after = encode(&args.path, &new_text)?;
        let change = Change {
            path: path.clone(),
            before: before.clone(),
            after: Some(after.into()),
            old_text: old_text.as_ref().map(|t| t.text().to_owned()),
            new_text: Some(new_text.text().to_owned()),
            mode: None,
        };
        let lsp = crate::lsp::prepare(std::slice::from_ref(&change), opts);
        let written = match txn::single(txn.commit(vec![change], opts)?) {
            Ok(w) => w,
            Err(dry) => return Ok(dry),
        };
        let tag = written.tag.clone().unwrap_or_default();
        let mut text = match (&old_text, replaced_binary) {
            (None, Some(len)) => format!(
                "Wrote {} (a file that was not text, {}, replaced by {})\n",
                tag_ref(&args.path, &tag),
                count(len, "byte"),
                count(new_text.line_count(), "line")
            ),
            (None, None) => format!(
                "Created {} ({})\n",
                tag_ref(&args.path, &tag),
                count(new_text.line_count(), "line")
            ),
            (Some(old), _) => {
                let (added, removed) = line_delta(old.text(), new_text.text());
                format!(
                    "Wrote {} (+{added} -{removed} lines)\n",
                    tag_ref(&args.path, &tag)
                )
            }
        };
        txn::push_notes(&mut text, &written);
        text.push_str(&crate::lsp::report(
            ctx,
            lsp,
            std::slice::from_ref(&written),
        ));
        Ok(Output::text(text)
            .with("path", args.path.clone())
            .with("tag", tag)
            .with("created", before.is_none()))
    }
}

/// The `expected_mtime` / `expected_size` guards (seed 004's write-safe): refuse with
/// `stale` when the file on disk differs.
fn check_guards(
    mtime: Option<std::time::SystemTime>,
    args: &WriteFileArgs,
    size: u64,
) -> Result<(), ToolError> {
    if let Some(expected) = args.expected_size
        && expected != size
    {
        return Err(ToolError::refused(format!(
            "stale: {} is {}, expected {expected}; read it again",
            args.path,
            count(size, "byte")
        ))
        .with("stale", true));
    }
    if let Some(guard) = &args.expected_mtime {
        let expected_ms = guard_ms(guard)?;
        let actual_ms = mtime
            .and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok())
            .map(|d| d.as_millis() as i64)
            .unwrap_or(0);
        if actual_ms != expected_ms {
            return Err(ToolError::refused(format!(
                "stale: {} was modified at {actual_ms} ms, expected {expected_ms} ms; read it again",
                args.path
            ))
            .with("stale", true));
        }
    }
    Ok(())
}

/// The guards describe a file the caller believes exists: when there is none, the write is
/// refused as stale rather than creating one (spec 03, write-file guards). A malformed
/// `expected_mtime` is still an argument error.
fn check_guards_on_missing(args: &WriteFileArgs) -> Result<(), ToolError> {
    if let Some(guard) = &args.expected_mtime {
        guard_ms(guard)?;
    } else if args.expected_size.is_none() {
        return Ok(());
    }
    Err(ToolError::refused(format!(
        "stale: {} does not exist, but expected_size/expected_mtime describe an existing file; \
         check the path, or drop the guards to create it",
        args.path
    ))
    .with("stale", true))
}

/// The guard's time in ms since the Unix epoch, or an argument error.
fn guard_ms(guard: &MtimeGuard) -> Result<i64, ToolError> {
    match guard {
        MtimeGuard::Millis(ms) => Ok(*ms),
        // The CLI and some hosts hand integers over as JSON strings: accept digits as ms.
        MtimeGuard::Text(t) => t
            .trim()
            .parse::<i64>()
            .ok()
            .or_else(|| parse_rfc3339_ms(t))
            .ok_or_else(|| {
                ToolError::usage(format!(
                    "expected_mtime {t:?} is not RFC 3339 (2026-11-30T14:51:18Z) or integer ms"
                ))
            }),
    }
}

/// Parses RFC 3339 (`YYYY-MM-DDTHH:MM:SS[.fff](Z|±HH:MM)`) to ms since the Unix epoch.
pub fn parse_rfc3339_ms(s: &str) -> Option<i64> {
    let s = s.trim();
    let (date, rest) = s.split_once(['T', 't', ' '])?;
    let mut d = date.split('-');
    let (y, mo, da): (i64, i64, i64) = (
        d.next()?.parse().ok()?,
        d.next()?.parse().ok()?,
        d.next()?.parse().ok()?,
    );
    let (clock, offset_min) = if let Some(c) = rest.strip_suffix(['Z', 'z']) {
        (c, 0)
    } else {
        let pos = rest.rfind(['+', '-'])?;
        let (c, off) = rest.split_at(pos);
        let sign = if off.starts_with('-') { -1 } else { 1 };
        let (oh, om) = off[1..].split_once(':')?;
        (
            c,
            sign * (oh.parse::<i64>().ok()? * 60 + om.parse::<i64>().ok()?),
        )
    };
    let (hms, frac) = clock.split_once('.').unwrap_or((clock, ""));
    let mut t = hms.split(':');
    let (h, mi, se): (i64, i64, i64) = (
        t.next()?.parse().ok()?,
        t.next()?.parse().ok()?,
        t.next()?.parse().ok()?,
    );
    if !(1..=12).contains(&mo) || !(1..=31).contains(&da) || h > 23 || mi > 59 || se > 60 {
        return None;
    }
    let ms_frac: i64 = if frac.is_empty() {
        0
    } else {
        let digits: String = frac.chars().chain("000".chars()).take(3).collect();
        digits.parse().ok()?
    };
    let days = days_from_civil(y, mo as u32, da as u32);
    Some(((days * 86_400 + h * 3600 + mi * 60 + se) - offset_min * 60) * 1000 + ms_frac)
}

/// Days since 1970-01-01 of a proleptic Gregorian date.
fn days_from_civil(y: i64, m: u32, d: u32) -> i64 {
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y.rem_euclid(400);
    let m = i64::from(m);
    let doy = (153 * (if m > 2 { m - 3 } else { m + 9 }) + 2) / 5 + i64::from(d) - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

/// The placeholder guard (spec 03, [`crate::text::placeholder`]): refuses a rewrite that adds
/// a placeholder line the old text did not have and drops lines of the old text.
fn check_placeholders(spelled: &str, old: &str, new: &str) -> Result<(), ToolError> {
    match placeholder::find_elision(old.lines(), new.lines()) {
        None => Ok(()),
        Some(e) => Err(ToolError::refused(format!(
            "line {} of the new content of {spelled} looks like an omission placeholder ({:?}) \
             and the new content drops {} of the file; nothing was written: {}",
            e.index + 1,
            e.line,
            count(e.removed, "line"),
            placeholder::ADVICE
        ))),
    }
}

/// The refusal for overwriting a file that is not text while freshness is on.
fn not_text_refusal(spelled: &str, e: &DecodeError) -> String {
    format!(
        "{} (write_file does not overwrite a file it cannot decode; ask the user to replace or \
         delete it, or write to a new path)",
        e.message(spelled)
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rfc3339() {
        assert_eq!(parse_rfc3339_ms("1970-01-01T00:00:00Z"), Some(0));
        assert_eq!(
            parse_rfc3339_ms("2023-11-14T22:13:20.5Z"),
            Some(1_700_000_000_500)
        );
        assert_eq!(
            parse_rfc3339_ms("2023-11-14T23:13:20+01:00"),
            Some(1_700_000_000_000)
        );
        assert_eq!(parse_rfc3339_ms("yesterday"), None);
    }
}
