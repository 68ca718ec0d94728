//! `notebook-edit`: replace, insert or delete one cell of a Jupyter notebook (spec 09,
//! "Images, PDFs, notebooks, several files at once").
//!
//! The file is never re-serialised: the changed cell's bytes are replaced (or new bytes
//! inserted next to a cell, or a cell and one separator removed) in the raw text, so every
//! other byte stays as it was. The edited cell is written in the file's own indentation, its
//! outputs and execution count cleared. The result is checked against the notebook format's
//! rules before anything is written; the write goes through the transaction (freshness gate,
//! lock, atomic write).

use clap::Args;
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{Map, Value};

use crate::error::{Output, ToolError, ToolResult};
use crate::fileio::txn::{self, After, Change, Transaction, WriteOptions};
use crate::media::notebook::{self, Layout};
use crate::text::placeholder;
use crate::text::plural::count;
use crate::text::tag::tag_ref;
use crate::tools::{Group, Tool, ToolMeta};
use crate::workspace::context::Ctx;
use crate::workspace::policy::Access;

/// What to do with the cell.
#[derive(Debug, Clone, Copy, Default, Deserialize, JsonSchema, clap::ValueEnum, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
#[value(rename_all = "snake_case")] // the command line spells them as JSON does
#[allow(missing_docs)] // variants carry plain comments: see read_file's Mode
pub enum Action {
    // Replace the cell's source (and type): its outputs are cleared.
    #[default]
    Replace,
    // A new cell after it.
    InsertAfter,
    // A new cell before it.
    InsertBefore,
    // Remove it.
    Delete,
}

/// A cell type.
#[derive(Debug, Clone, Copy, Deserialize, JsonSchema, clap::ValueEnum, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
#[allow(missing_docs)]
pub enum CellType {
    Code,
    Markdown,
    Raw,
}

impl CellType {
    fn name(self) -> &'static str {
        match self {
            CellType::Code => "code",
            CellType::Markdown => "markdown",
            CellType::Raw => "raw",
        }
    }
}

/// Arguments of notebook-edit.
#[derive(Debug, Clone, Deserialize, JsonSchema, Args)]
#[serde(deny_unknown_fields)]
pub struct NotebookEditArgs {
    /// The notebook (.ipynb) to edit; read it with read_file first.
    #[schemars(length(max = crate::args::MAX_PATH_CHARS))]
    pub path: String,
    /// The cell: its id, or its number as read_file shows it (`[cell 3 · ...]`, from 1).
    #[arg(long)]
    #[schemars(length(min = 1, max = 64))]
    pub cell: String,
    /// replace (default), insert_after, insert_before or delete.
    #[arg(long, value_enum)]
    pub action: Option<Action>,
    /// The cell's new source (replace, insert_*), without line-number prefixes.
    #[arg(long)]
    #[schemars(length(max = crate::args::MAX_BODY_CHARS))]
    pub source: Option<String>,
    /// code, markdown or raw: the new cell's type (default code), or a replaced cell's new
    /// type (default: unchanged).
    #[arg(long, value_enum)]
    pub cell_type: Option<CellType>,
    /// Apply even when source adds a placeholder comment such as `# ... existing code` and
    /// drops lines of the old source (default false: refused).
    #[arg(long)]
    pub allow_placeholders: Option<bool>,
}

/// The notebook-edit tool.
pub struct NotebookEdit;

impl Tool for NotebookEdit {
    type Args = NotebookEditArgs;
    const NAME: &'static str = "notebook_edit";
    const META: ToolMeta = ToolMeta {
        description: "Replace, insert or delete one cell of a Jupyter notebook (.ipynb).\n\
cell is the cell's id or its number as read_file shows it (`[cell 3 · code · id=ab12]`). \
action: replace (default; the cell's outputs and execution count are cleared), insert_after, \
insert_before (a new cell, cell_type default code) or delete. source is the whole new cell \
source, without `L<n>: ` prefixes. Every other byte of the file is kept. Needs a current \
read_file of the notebook.",
        examples: "  agtool notebook-edit nb.ipynb --cell 3 --source 'x = 2'\n  agtool notebook-edit nb.ipynb --cell ab12 --action insert_after --cell-type markdown --source '# Notes'\n  agtool notebook-edit nb.ipynb --cell 5 --action delete",
        group: Group::Edit,
        sensitive: true,
        serial: true,
        read_only: false,
        destructive: true,
        idempotent: false,
        open_world: false,
        timeout_ms: Some(60_000),
        body: None,
        tags: &["write", "files", "notebook"],
    };

    fn run(ctx: &Ctx, args: NotebookEditArgs) -> ToolResult {
        let action = args.action.unwrap_or_default();
        match (action, &args.source) {
            (Action::Delete, Some(_)) => {
                return Err(ToolError::usage("delete takes no source"));
            }
            (Action::Delete, None) => {}
            (_, None) => {
                return Err(ToolError::usage(
                    "source is required to replace or insert a cell",
                ));
            }
            _ => {}
        }
        if !args
            .path
            .rsplit('.')
            .next()
            .is_some_and(|e| e.eq_ignore_ascii_case("ipynb"))
        {
            return Err(ToolError::usage(format!(
                "{} is not a notebook (.ipynb); edit other files with edit_file",
                args.path
            )));
        }
        let path = ctx.check_path(&args.path, Access::Write)?;
        let txn = Transaction::begin(ctx, [path.real.as_path()])?;
        let before = txn.load(&path)?.ok_or_else(|| {
            ToolError::refused(format!(
                "{} does not exist; create a notebook with write_file",
                args.path
            ))
        })?;
        let text = std::str::from_utf8(&before).map_err(|_| {
            ToolError::refused(format!(
                "{} is not a notebook: it is not UTF-8 text",
                args.path
            ))
        })?;
        let nb = notebook::parse(&args.path, text).map_err(ToolError::refused)?;
        txn.require_fresh(&path, &before)?;
        let index = nb
            .find(&args.path, &args.cell)
            .map_err(ToolError::refused)?;
        let (_, spans) = notebook::cell_spans(&before).ok_or_else(|| {
            ToolError::refused(format!(
                "{}: its cells could not be located in the file",
                args.path
            ))
        })?;
        if spans.len() != nb.cells().len() {
            return Err(ToolError::refused(format!(
                "{}: its cells could not be located in the file",
                args.path
            )));
        }
        let old = &nb.cells()[index];
        if action == Action::Replace
            && !args.allow_placeholders.unwrap_or(false)
            && let Some(source) = &args.source
        {
            let old_source = notebook::source_of(old);
            if let Some(el) = placeholder::find_elision(old_source.lines(), source.lines()) {
                return Err(ToolError::refused(format!(
                    "line {} of source looks like an omission placeholder ({:?}) and source \
                     drops {} of the cell in {}; nothing was written: {}",
                    el.index + 1,
                    el.line,
                    count(el.removed, "line"),
                    args.path,
                    placeholder::ADVICE
                )));
            }
        }
        let layout = notebook::layout(&before);
        let plan = plan(&nb, &args, action, index, &spans, &before, &layout);
        let new_bytes = splice_bytes(&before, &plan);
        // The result must still be a notebook by the format's rules.
        let new_text = std::str::from_utf8(&new_bytes).map_err(|_| {
            ToolError::refused("the edit would not be UTF-8 (a bug); nothing was written")
        })?;
        notebook::parse(&args.path, new_text).map_err(|why| {
            ToolError::refused(format!(
                "the edit would break the notebook ({why}); nothing was written"
            ))
        })?;
        let change = Change {
            path: path.clone(),
            before: Some(before),
            after: Some(After::Splice {
                ranges: vec![plan.range.clone()],
                with: plan.with.clone(),
            }),
            old_text: None,
            new_text: None,
            mode: None,
        };
        let opts = WriteOptions::for_call(ctx, Some(false), None);
        let written = match txn::single(txn.commit(vec![change], opts)?) {
            Ok(w) => w,
            Err(dry) => return Ok(dry),
        };
        let tag = written.tag.clone().unwrap_or_default();
        let after = notebook::parse(&args.path, new_text).map_err(ToolError::refused)?;
        let mut out = format!("Edited {} ({})\n", tag_ref(&args.path, &tag), plan.summary);
        if let Some(shown) = plan.shown {
            notebook::render_cell(&mut out, shown + 1, &after.cells()[shown]);
        }
        txn::push_notes(&mut out, &written);
        Ok(Output::text(out)
            .with("path", args.path.clone())
            .with("tag", tag)
            .with("cells", after.cells().len()))
    }
}

/// The byte change of one edit.
struct Plan {
    range: std::ops::Range<usize>,
    with: Vec<u8>,
    /// The 0-based index of the cell to show after the edit (none for a delete).
    shown: Option<usize>,
    summary: String,
}

fn splice_bytes(before: &[u8], plan: &Plan) -> Vec<u8> {
    let mut out = Vec::with_capacity(before.len() + plan.with.len());
    out.extend_from_slice(&before[..plan.range.start]);
    out.extend_from_slice(&plan.with);
    out.extend_from_slice(&before[plan.range.end..]);
    out
}

/// The separator between two cells: the bytes between the first two cells when there are
/// two, else a comma and a line break with the cell's indentation.
fn separator(before: &[u8], spans: &[std::ops::Range<usize>], layout: &Layout) -> Vec<u8> {
    if spans.len() >= 2 {
        return before[spans[0].end..spans[1].start].to_vec();
    }
    match &layout.indent {
        Some(unit) => format!(",{}{}", layout.eol, unit.repeat(2)).into_bytes(),
        None => b",".to_vec(),
    }
}

fn plan(
    nb: &notebook::Notebook,
    args: &NotebookEditArgs,
    action: Action,
    index: usize,
    spans: &[std::ops::Range<usize>],
    before: &[u8],
    layout: &Layout,
) -> Plan {
    let source = args.source.clone().unwrap_or_default();
    let span = spans[index].clone();
    match action {
        Action::Replace => {
            let old = &nb.cells()[index];
            let mut cell = old.as_object().cloned().unwrap_or_default();
            let kind = args.cell_type.map_or_else(
                || {
                    cell.get("cell_type")
                        .and_then(Value::as_str)
                        .unwrap_or("code")
                        .to_owned()
                },
                |t| t.name().to_owned(),
            );
            cell.insert("cell_type".into(), Value::String(kind.clone()));
            set_kind_fields(&mut cell, &kind);
            cell.insert("source".into(), notebook::source_value(&source));
            let text = notebook::serialise(&Value::Object(cell), layout, 2);
            Plan {
                range: span,
                with: text.into_bytes(),
                shown: Some(index),
                summary: format!(
                    "cell {} replaced{}",
                    index + 1,
                    if kind == "code" {
                        "; outputs cleared"
                    } else {
                        ""
                    }
                ),
            }
        }
        Action::InsertAfter | Action::InsertBefore => {
            let kind = args.cell_type.unwrap_or(CellType::Code).name();
            let mut cell = Map::new();
            cell.insert("cell_type".into(), Value::String(kind.to_owned()));
            if kind == "code" {
                cell.insert("execution_count".into(), Value::Null);
            }
            if nb.has_ids() {
                let taken: Vec<&str> = nb
                    .cells()
                    .iter()
                    .filter_map(|c| c.get("id").and_then(Value::as_str))
                    .collect();
                cell.insert("id".into(), Value::String(notebook::new_id(&taken)));
            }
            cell.insert("metadata".into(), Value::Object(Map::new()));
            if kind == "code" {
                cell.insert("outputs".into(), Value::Array(Vec::new()));
            }
            cell.insert("source".into(), notebook::source_value(&source));
            let text = notebook::serialise(&Value::Object(cell), layout, 2);
            let sep = separator(before, spans, layout);
            let (at, with, shown) = if action == Action::InsertAfter {
                let mut with = sep;
                with.extend_from_slice(text.as_bytes());
                (span.end, with, index + 1)
            } else {
                let mut with = text.into_bytes();
                with.extend_from_slice(&sep);
                (span.start, with, index)
            };
            Plan {
                range: at..at,
                with,
                shown: Some(shown),
                summary: format!("new {kind} cell {} inserted", shown + 1),
            }
        }
        Action::Delete => {
            // The cell and one separator: the one before it, or after it for the first cell.
            let range = if index > 0 {
                spans[index - 1].end..span.end
            } else if spans.len() > 1 {
                span.start..spans[1].start
            } else {
                span
            };
            Plan {
                range,
                with: Vec::new(),
                shown: None,
                summary: format!(
                    "cell {} deleted; {} left",
                    index + 1,
                    count(spans.len() - 1, "cell")
                ),
            }
        }
    }
}

/// A cell turned into `kind`: a code cell gets empty outputs and no execution count (kept
/// in place when present), other cells lose both.
fn set_kind_fields(cell: &mut Map<String, Value>, kind: &str) {
    if kind == "code" {
        if cell.contains_key("execution_count") {
            cell.insert("execution_count".into(), Value::Null);
        } else {
            insert_sorted(cell, "execution_count", Value::Null);
        }
        if cell.contains_key("outputs") {
            cell.insert("outputs".into(), Value::Array(Vec::new()));
        } else {
            insert_sorted(cell, "outputs", Value::Array(Vec::new()));
        }
    } else {
        cell.shift_remove("outputs");
        cell.shift_remove("execution_count");
    }
}

/// Inserts `key` before the first key that sorts after it (nbformat writes keys in
/// alphabetical order), or at the end.
fn insert_sorted(cell: &mut Map<String, Value>, key: &str, value: Value) {
    let entries: Vec<(String, Value)> = std::mem::take(cell).into_iter().collect();
    let mut value = Some(value);
    for (k, v) in entries {
        if k.as_str() > key
            && let Some(v) = value.take()
        {
            cell.insert(key.to_owned(), v);
        }
        cell.insert(k, v);
    }
    if let Some(v) = value {
        cell.insert(key.to_owned(), v);
    }
}
