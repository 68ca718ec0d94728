//! Planning a parsed patch against the workspace, in memory (spec 04 "Applying"). The patch
//! engine (`crate::patch`) stays pure; here its hunks meet real files: every hunk of every
//! file is policy-checked, freshness-gated, matched and computed before anything is written.
//! Hunks for one path apply in order to the running result, so Add-then-Update works.

use std::collections::HashMap;
use std::path::PathBuf;

use crate::error::ToolError;
use crate::fileio::txn::{
    After, Change, Current, EDIT_ELSEWHERE, Transaction, WriteOptions, texts_needed,
    too_big_to_edit,
};
use crate::patch::{Applied, Chunk, Hunk, Patch, compute_edits};
use crate::text::checked::{encode_owned, not_editable};
use crate::text::editable::{ByteEdits, DecodeError, EditableText};
use crate::text::syntax;
use crate::workspace::context::Ctx;
use crate::workspace::policy::{Access, CheckedPath};

/// What a file's line in the summary says (spec 04 "Output").
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Action {
    /// `A`: the file did not exist and does now.
    Added,
    /// `M`: the file was changed (or moved: the entry shows the destination).
    Modified,
    /// `D`: the file existed and is gone.
    Deleted,
}

impl Action {
    /// The one-letter code of the summary.
    pub fn letter(self) -> &'static str {
        match self {
            Action::Added => "A",
            Action::Modified => "M",
            Action::Deleted => "D",
        }
    }
}

/// One line of the summary: a file as the patch spelled it.
#[derive(Debug, Clone)]
pub struct Entry {
    /// A, M or D.
    pub action: Action,
    /// The path as spelled in the patch (the destination for a move).
    pub spelled: String,
    /// For a move: the source as spelled in the patch.
    pub moved_from: Option<String>,
    /// Fuzzy-match notes of the chunks applied to this file, each `<path>: chunk ...`.
    pub notes: Vec<String>,
    /// Index of this file in the planned files returned with the entries.
    pub file: usize,
}

/// How a hunk uses a path it names.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Use {
    /// Add File, or a Move destination: needs no read.
    Create,
    /// Delete File.
    Delete,
    /// Update File (or a Move source): needs the text.
    Update,
}

/// Where a file stands in the running result.
enum Now {
    /// As on disk, not yet read by this patch.
    Disk,
    /// Does not exist.
    Gone,
    /// Created or changed by this patch.
    Text(EditableText),
    /// Changed by this patch, as byte edits of the disk content (`Slot::before`); see
    /// [`Slot::update`]. Turned into [`Now::Text`] when a later hunk needs the text.
    Edited(ByteEdits),
}

/// Where the content of a move destination came from.
#[derive(Clone)]
struct Origin {
    /// The first source as spelled in the patch (diff label and summary).
    spelled: String,
    /// Its bytes on disk before the patch, when the moved content was read from there
    /// (`None` when the patch created it): the old side of the diff and the syntax gate.
    before: Option<Vec<u8>>,
    /// Its permission bits, which the destination keeps (`None` when the patch created it).
    mode: Option<u32>,
}

/// One real path touched by the patch.
struct Slot {
    path: CheckedPath,
    /// The bytes on disk before the patch.
    before: Option<Vec<u8>>,
    /// The permission bits on disk before the patch (`None`: no file).
    mode: Option<u32>,
    now: Now,
    /// Whether an Update decoded the disk content (the running text started from it).
    from_disk: bool,
    /// Set when this path received its content from a Move.
    moved_from: Option<Origin>,
    /// Set when this path's content was moved to another path.
    moved_away: bool,
    /// Fuzzy-match notes of the content now held here.
    notes: Vec<String>,
    /// No file is there, but this agent read one there: it was deleted or moved since.
    gone_since_read: bool,
}

/// The whole patch applied in memory.
pub struct Plan {
    slots: HashMap<PathBuf, Slot>,
    /// Real paths in the order the patch first touches them (write and summary order).
    order: Vec<PathBuf>,
}

/// A file's change plus what the output needs about it.
pub struct PlannedFile {
    /// The change to commit (new bytes, deletion or move) in the write transaction.
    pub change: Change,
    /// The spelled path the diff's `a/` side shows (the move source for a move).
    pub old_label: String,
}

impl Plan {
    /// Checks every path of `patch` against the policy (all before any file is read), in
    /// hunk order: each hunk's path, then its move destination.
    pub fn check_paths(ctx: &Ctx, patch: &Patch) -> Result<Vec<CheckedPath>, ToolError> {
        let mut checked = Vec::new();
        for hunk in &patch.hunks {
            checked.push(ctx.check_path(hunk.path(), Access::Write)?);
            if let Hunk::Update {
                move_to: Some(dest),
                ..
            } = hunk
            {
                checked.push(ctx.check_path(dest, Access::Write)?);
            }
        }
        Ok(checked)
    }

    /// Loads every touched file, runs the freshness gate on every file whose disk content the
    /// patch uses (Update, Delete, Move source; before any matching), then applies every hunk
    /// in order. `paths` is what [`Plan::check_paths`] returned.
    pub fn build(
        txn: &Transaction<'_>,
        patch: &Patch,
        paths: Vec<CheckedPath>,
    ) -> Result<Plan, ToolError> {
        let mut plan = Plan {
            slots: HashMap::new(),
            order: Vec::new(),
        };
        let mut paths = paths.into_iter();
        let mut targets = Vec::new();
        // Every file that needs a read is named at once: one failed call each cost a model
        // a round trip per file.
        let mut stale = Vec::new();
        for hunk in &patch.hunks {
            let path = paths.next().expect("one checked path per hunk");
            let dest = match hunk {
                Hunk::Update {
                    move_to: Some(_), ..
                } => Some(paths.next().expect("one checked path per move")),
                _ => None,
            };
            let use_ = match hunk {
                Hunk::Add { .. } => Use::Create,
                Hunk::Delete { .. } => Use::Delete,
                Hunk::Update { .. } => Use::Update,
            };
            plan.touch(txn, &path, use_, &mut stale)?;
            if let Some(dest) = &dest {
                plan.touch(txn, dest, Use::Create, &mut stale)?;
            }
            targets.push((path.real, dest.map(|d| d.real)));
        }
        if !stale.is_empty() {
            return Err(unread_files(stale));
        }
        for (hunk, (real, dest)) in patch.hunks.iter().zip(targets) {
            plan.apply(hunk, &real, dest.as_ref())?;
        }
        Ok(plan)
    }

    /// Loads a path on its first touch; when that first touch uses the disk content of an
    /// existing file (Update, Delete, Move source), runs the freshness gate, adding the path
    /// and its refusal to `stale` when it needs a (new) read.
    fn touch(
        &mut self,
        txn: &Transaction<'_>,
        path: &CheckedPath,
        use_: Use,
        stale: &mut Vec<(String, ToolError)>,
    ) -> Result<(), ToolError> {
        if self.slots.contains_key(&path.real) {
            return Ok(());
        }
        let before = match txn.load_or_size(path)? {
            None => None,
            Some(Current::Whole(bytes)) => Some(bytes),
            // Refused by its size before anything is read (issue 17, item 5); a patch holds
            // every file it changes in memory, a delete included (to restore it).
            Some(Current::Large { size }) if use_ == Use::Delete => {
                return Err(ToolError::refused(too_big_to_edit(
                    &path.spelled,
                    size,
                    "delete it with delete_path, which does not load it",
                )));
            }
            Some(Current::Large { size }) => {
                return Err(ToolError::refused(too_big_to_edit(
                    &path.spelled,
                    size,
                    EDIT_ELSEWHERE,
                )));
            }
        };
        if use_ != Use::Create
            && let Some(bytes) = &before
            && let Err(refused) = txn.require_fresh(path, bytes)
        {
            // read_file refuses a binary file, so no read can pass the gate for it: the
            // caller is told the real obstacle rather than to read it again. Text with bytes
            // that are not UTF-8 reads (with U+FFFD), so a read lets it be deleted.
            match (use_, EditableText::decode(bytes)) {
                (_, Ok(_))
                | (Use::Delete, Err(DecodeError::Utf8Strays { .. } | DecodeError::Undecodable)) => {
                    stale.push((path.spelled.clone(), refused));
                }
                (Use::Update, Err(e)) => {
                    return Err(ToolError::refused(not_editable(&path.spelled, &e)));
                }
                (_, Err(e)) => {
                    return Err(ToolError::refused(format!(
                        "{} (read_file cannot show it, so no read can vouch for deleting it \
                         with apply_patch; ask the user to delete it; nothing was changed)",
                        e.message(&path.spelled)
                    )));
                }
            }
        }
        let now = if before.is_some() {
            Now::Disk
        } else {
            Now::Gone
        };
        let gone_since_read = before.is_none()
            && use_ != Use::Create
            && txn.freshness()
            && matches!(txn.shown_tag(path), Ok(Some(_)));
        self.order.push(path.real.clone());
        self.slots.insert(
            path.real.clone(),
            Slot {
                path: path.clone(),
                mode: before.as_ref().and_then(|_| txn.mode_of(path)),
                before,
                now,
                from_disk: false,
                moved_from: None,
                moved_away: false,
                notes: Vec::new(),
                gone_since_read,
            },
        );
        Ok(())
    }

    fn slot(&mut self, real: &PathBuf) -> &mut Slot {
        self.slots
            .get_mut(real)
            .expect("every path is touched before hunks apply")
    }

    fn apply(
        &mut self,
        hunk: &Hunk,
        real: &PathBuf,
        dest: Option<&PathBuf>,
    ) -> Result<(), ToolError> {
        match hunk {
            Hunk::Add { path, lines, .. } => {
                let slot = self.slot(real);
                if !matches!(slot.now, Now::Gone) {
                    return Err(ToolError::refused(format!(
                        "{path} already exists; use *** Update File to change it (nothing was \
                         changed)"
                    )));
                }
                let content: String = lines.iter().map(|line| format!("{line}\n")).collect();
                slot.now = Now::Text(EditableText::new_utf8(&content));
                slot.moved_from = None;
                Ok(())
            }
            Hunk::Delete { path, .. } => {
                let slot = self.slot(real);
                if matches!(slot.now, Now::Gone) {
                    return Err(ToolError::refused(format!(
                        "cannot delete {path}: {} (nothing was changed)",
                        slot.missing_reason()
                    )));
                }
                slot.now = Now::Gone;
                slot.notes.clear();
                Ok(())
            }
            Hunk::Update {
                path,
                move_to,
                chunks,
                ..
            } => {
                let slot = self.slot(real);
                let applied = slot.update(path, chunks)?;
                slot.notes
                    .extend(applied.notes.iter().map(|note| format!("{path}: {note}")));
                match (move_to, dest) {
                    (Some(to), Some(dest)) if dest != real => {
                        self.move_content(path, to, real, dest)
                    }
                    _ => Ok(()),
                }
            }
        }
    }

    /// Moves the running content of `real` to `dest`, which must not exist at this point.
    fn move_content(
        &mut self,
        from: &str,
        to: &str,
        real: &PathBuf,
        dest: &PathBuf,
    ) -> Result<(), ToolError> {
        if !matches!(self.slot(dest).now, Now::Gone) {
            return Err(ToolError::refused(format!(
                "cannot move {from} to {to}: {to} already exists; pick a new name or delete it \
                 first (nothing was changed)"
            )));
        }
        let source = self.slot(real);
        source.settle();
        let now = std::mem::replace(&mut source.now, Now::Gone);
        let notes = std::mem::take(&mut source.notes);
        source.moved_away = true;
        let origin = source.moved_from.clone().unwrap_or_else(|| Origin {
            spelled: from.to_owned(),
            before: source.before.clone().filter(|_| source.from_disk),
            mode: source.mode,
        });
        let target = self.slot(dest);
        target.now = now;
        target.notes = notes;
        target.moved_from = Some(origin);
        Ok(())
    }

    /// The changes to write (first-touch order, files that end as they began left out) and
    /// the summary entries (spec 04 "Output": grouping is the caller's). The decoded old and
    /// new texts are only kept when the syntax gate or a dry run will look at them: for other
    /// files they would be two more copies of each file.
    pub fn into_changes(
        self,
        opts: WriteOptions,
    ) -> Result<(Vec<PlannedFile>, Vec<Entry>), ToolError> {
        let mut slots = self.slots;
        let mut files = Vec::new();
        let mut entries = Vec::new();
        for real in &self.order {
            let mut slot = slots.remove(real).expect("ordered paths have slots");
            let spelled = slot.path.spelled.clone();
            let existed = slot.before.is_some();
            let origin = slot.moved_from.take().filter(|_| !existed);
            // The bytes the diff's old side and the syntax gate's "before" come from.
            let old_bytes = match &origin {
                Some(o) => o.before.as_deref(),
                None => slot.before.as_deref(),
            };
            let old_len = old_bytes.map_or(0, <[u8]>::len);
            let (after, new_text) = match std::mem::replace(&mut slot.now, Now::Gone) {
                Now::Disk => continue,
                Now::Gone if !existed => continue,
                Now::Gone => (None, None),
                Now::Text(text) => {
                    let wanted = texts_needed(opts, old_len.max(text.text().len()))
                        && (opts.dry_run || syntax::has_checker(&slot.path.real, text.text()));
                    let new_text = wanted.then(|| text.text().to_owned());
                    (Some(encode_owned(&spelled, text)?.into()), new_text)
                }
                Now::Edited(edits) => {
                    let old = slot.before.as_deref().unwrap_or_default();
                    let parts = edits.parts(old);
                    let wanted = texts_needed(opts, old_len.max(edits.new_len(old.len())))
                        && (opts.dry_run
                            || syntax::has_checker(&slot.path.real, &first_line(&parts)));
                    let new_text = wanted.then(|| {
                        String::from_utf8(parts.concat()).expect("line edits of UTF-8 text")
                    });
                    drop(parts);
                    (Some(After::Edits(edits)), new_text)
                }
            };
            let action = match (existed, after.is_some(), &origin) {
                (true, true, _) => Action::Modified,
                (true, false, _) => Action::Deleted,
                // A move destination shows as M unless the patch created the source.
                (false, _, Some(o)) if o.before.is_some() => Action::Modified,
                (false, _, _) => Action::Added,
            };
            // The text before, for the syntax gate and the diff, decoded again from the bytes
            // (a binary file has none).
            let wanted = new_text.is_some() || (opts.dry_run && after.is_none());
            let old_text = old_bytes
                .filter(|_| wanted)
                .and_then(|bytes| EditableText::decode(bytes).ok())
                .map(|t| t.text().to_owned());
            let listed = !(action == Action::Deleted && slot.moved_away);
            if listed {
                entries.push(Entry {
                    action,
                    spelled: spelled.clone(),
                    moved_from: origin.as_ref().map(|o| o.spelled.clone()),
                    notes: slot.notes,
                    file: files.len(),
                });
            }
            files.push(PlannedFile {
                old_label: origin
                    .as_ref()
                    .map_or_else(|| spelled.clone(), |o| o.spelled.clone()),
                change: Change {
                    path: slot.path,
                    before: slot.before,
                    after,
                    old_text,
                    new_text,
                    mode: origin.and_then(|o| o.mode),
                },
            });
        }
        Ok((files, entries))
    }
}

impl Slot {
    /// Applies an Update's chunks to the running text, decoding the disk content on first
    /// use. Errors for a missing, binary or undecodable file and for chunks that do not match.
    ///
    /// The first decode of a UTF-8 file without CR takes the disk bytes as the text without a
    /// copy ([`EditableText::decode_owned`]); the patched text is built beside it, and the
    /// untouched original goes back to `before` right after.
    fn update(&mut self, spelled: &str, chunks: &[Chunk]) -> Result<Applied, ToolError> {
        self.settle();
        let mut adopted = false;
        if matches!(self.now, Now::Disk)
            && let Some(bytes) = self.before.take()
        {
            match EditableText::decode_owned(bytes) {
                Ok((text, back)) => {
                    adopted = back.is_none();
                    self.before = back;
                    self.now = Now::Text(text);
                    self.from_disk = true;
                }
                Err((e, bytes)) => {
                    self.before = Some(bytes);
                    return Err(ToolError::refused(not_editable(spelled, &e)));
                }
            }
        }
        let reason = self.missing_reason();
        let Now::Text(text) = &self.now else {
            let advice = if self.gone_since_read {
                "add it again (*** Add File) only if that is what you mean"
            } else {
                "use *** Add File to create it"
            };
            return Err(ToolError::refused(format!(
                "cannot update {spelled}: {reason}; {advice} (nothing was changed)"
            )));
        };
        // The lines are split once, for matching and for building the new text.
        let mut lines: Vec<&str> = Vec::with_capacity(text.line_count());
        lines.extend(text.lines());
        let applied = compute_edits(spelled, &lines, chunks).map(|applied| {
            let edits = || {
                applied
                    .edits
                    .iter()
                    .map(|e| (e.start, e.end, e.lines.as_slice()))
            };
            // Text adopted from the disk bytes is those bytes: its edits can be byte edits of
            // them, and the new text is never built unless something needs it.
            let patched = match adopted
                .then(|| text.line_ranges_as_byte_edits(&lines, edits()))
                .flatten()
            {
                Some(byte_edits) => Now::Edited(byte_edits),
                None => Now::Text(text.with_line_ranges_replaced(&lines, edits())),
            };
            (applied, patched)
        });
        drop(lines);
        match applied {
            Ok((applied, patched)) => {
                if let Now::Text(original) = std::mem::replace(&mut self.now, patched)
                    && adopted
                {
                    self.before = Some(original.into_bytes());
                }
                Ok(applied)
            }
            Err(e) => {
                if adopted && let Now::Text(original) = std::mem::replace(&mut self.now, Now::Disk)
                {
                    self.before = Some(original.into_bytes());
                }
                Err(ToolError::refused(e.to_string()))
            }
        }
    }

    /// Turns byte edits of the disk content ([`Now::Edited`]) into the text they make, for a
    /// hunk that goes on from it (a second Update of the path, a move).
    fn settle(&mut self) {
        if let Now::Edited(edits) = &self.now {
            let old = self.before.as_deref().unwrap_or_default();
            self.now = Now::Text(EditableText::from_byte_edits(old, edits));
        }
    }

    fn missing_reason(&self) -> &'static str {
        if self.before.is_some() {
            "it was deleted or moved away earlier in this patch"
        } else if self.gone_since_read {
            // Recreating it from what was read would undo that (new-user finding).
            "it was deleted or moved since you read it; list its folder to see what is there \
             now"
        } else {
            "no such file"
        }
    }
}

/// The first line of content given as consecutive slices, with its terminator (all of it when
/// it has none): what the syntax gate's language detection reads besides the path (a
/// shebang). Lossy only where a slice ends inside a character, which a UTF-8 text split at
/// line breaks never does.
fn first_line(parts: &[&[u8]]) -> String {
    let mut head = Vec::new();
    for part in parts {
        match memchr::memchr(b'\n', part) {
            Some(at) => {
                head.extend_from_slice(&part[..=at]);
                break;
            }
            None => head.extend_from_slice(part),
        }
    }
    String::from_utf8_lossy(&head).into_owned()
}

/// One refusal naming every file of a patch that needs a (new) read: the single refusal as it
/// is, or each on a line of its own and how to read them all in one call.
fn unread_files(mut stale: Vec<(String, ToolError)>) -> ToolError {
    if stale.len() == 1 {
        return stale.remove(0).1;
    }
    let mut message = format!(
        "{} files of this patch need a current read before it can apply; nothing was changed:",
        stale.len()
    );
    for (_, e) in &stale {
        message.push_str("\n- ");
        message.push_str(&e.message);
    }
    let names: Vec<String> = stale
        .iter()
        .map(|(p, _)| serde_json::Value::String(p.clone()).to_string())
        .collect();
    let most = crate::tools::read_file::MAX_FILES;
    if names.len() <= most {
        message.push_str(&format!(
            "\nRead them in one call: read_file with paths [{}], then apply the patch again.",
            names.join(", ")
        ));
    } else {
        // One call reads at most that many files: say how many calls, and the first.
        message.push_str(&format!(
            "\nRead them with read_file, at most {most} paths a call ({} calls), starting with \
             paths [{}], then apply the patch again.",
            names.len().div_ceil(most),
            names[..most].join(", ")
        ));
    }
    ToolError::refused(message)
}
