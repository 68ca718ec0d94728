//! read_file on images, PDFs and notebooks (spec 09, "Images, PDFs, notebooks, several files
//! at once"): the file's bytes are read (bounded), tagged like any file, and handed to the
//! readers in [`crate::media`].

use std::fs::File;
use std::io::Read;

use serde_json::json;

use super::{ReadFileArgs, Seen};
use crate::error::{Output, ToolError, io_reason};
use crate::media::{self, Kind, image, notebook, pdf};
use crate::text::tag::{content_tag, tag_ref};
use crate::workspace::context::Ctx;
use crate::workspace::policy::CheckedPath;

/// The read of a media file, or `None` for a file read as text. `size` is the file's size
/// from its metadata.
pub fn read_media(
    ctx: &Ctx,
    args: &ReadFileArgs,
    spelled: &str,
    checked: &CheckedPath,
    file: &File,
    size: u64,
) -> Option<Result<(Output, Option<Seen>), ToolError>> {
    let kind = media::kind_of(&checked.real);
    if kind == Kind::Text {
        if args.pages.is_some() && args.paths.is_none() {
            return Some(Err(ToolError::usage(format!(
                "pages applies to PDFs only; {spelled} is read as text (use offset and limit)"
            ))));
        }
        return None;
    }
    Some(read_kind(ctx, args, spelled, checked, file, size, kind))
}

fn read_kind(
    ctx: &Ctx,
    args: &ReadFileArgs,
    spelled: &str,
    checked: &CheckedPath,
    file: &File,
    size: u64,
    kind: Kind,
) -> Result<(Output, Option<Seen>), ToolError> {
    let text_only = [
        ("offset", args.offset.is_some()),
        ("limit", args.limit.is_some()),
        ("tail", args.tail.is_some()),
        ("mode", args.mode.is_some()),
        ("indentation", args.indentation.is_some()),
        ("anchors", args.anchors == Some(true)),
    ];
    // Notebooks page by cells: offset and limit count cells.
    let pages_cells = |name: &str| kind == Kind::Notebook && matches!(name, "offset" | "limit");
    if args.paths.is_none()
        && let Some((name, _)) = text_only
            .iter()
            .find(|(name, set)| *set && !pages_cells(name))
    {
        let what = match kind {
            Kind::Image => "an image",
            Kind::Pdf => "a PDF (use pages)",
            _ => "a notebook (offset and limit count its cells)",
        };
        return Err(ToolError::usage(format!(
            "{name} applies to text files; {spelled} is {what}"
        )));
    }
    if kind != Kind::Pdf && args.pages.is_some() && args.paths.is_none() {
        return Err(ToolError::usage(format!(
            "pages applies to PDFs only; {spelled} is not one"
        )));
    }
    let cap = match kind {
        Kind::Image => image::MAX_FILE_BYTES,
        Kind::Pdf => pdf::MAX_FILE_BYTES,
        _ => notebook_cap(),
    };
    if size > cap {
        return Err(ToolError::refused(format!(
            "{spelled} is {} MB; read_file reads files of this kind up to {} MB",
            size.div_ceil(1 << 20),
            cap >> 20
        )));
    }
    let mut bytes = Vec::with_capacity(size as usize);
    file.take(cap + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| ToolError::refused(format!("cannot read {spelled}: {}", io_reason(&e))))?;
    if bytes.len() as u64 > cap {
        return Err(ToolError::refused(format!(
            "{spelled} grew past {} MB while it was read",
            cap >> 20
        )));
    }
    let tag = content_tag(&bytes);
    let seen = Some(Seen {
        real: checked.real.clone(),
        tag: tag.clone(),
    });
    let out = match kind {
        Kind::Image => {
            let max_edge = ctx
                .config
                .read
                .as_ref()
                .and_then(|r| r.image_max_edge)
                .unwrap_or(image::DEFAULT_MAX_EDGE);
            let prepared = image::prepare(&bytes, max_edge).map_err(|why| {
                ToolError::refused(format!("{spelled} cannot be read as an image: {why}"))
            })?;
            Output::text(format!("{}\n", prepared.line(spelled, &tag)))
                .with(
                    "images",
                    json!([{"mime_type": prepared.mime_type, "data": prepared.base64()}]),
                )
                .with("width", prepared.sent_size.0)
                .with("height", prepared.sent_size.1)
        }
        Kind::Pdf => {
            let range = pdf::parse_pages(args.pages.as_deref()).map_err(ToolError::usage)?;
            let (text, total) = pdf::render(spelled, &bytes, range).map_err(ToolError::refused)?;
            Output::text(format!(
                "{} (PDF, {total} pages)\n{text}",
                tag_ref(spelled, &tag)
            ))
            .with("total_pages", total)
        }
        Kind::Notebook => {
            let text = std::str::from_utf8(&bytes).map_err(|_| {
                ToolError::refused(format!("{spelled} is not a notebook: it is not UTF-8 text"))
            })?;
            let nb = notebook::parse(spelled, text).map_err(ToolError::refused)?;
            // One page of cells, within the budget a text read has.
            let (first, max_cells) = match args.paths {
                None => (args.offset.unwrap_or(1), args.limit.unwrap_or(u64::MAX)),
                Some(_) => (1, u64::MAX),
            };
            let page = notebook::Page {
                first: usize::try_from(first).unwrap_or(usize::MAX),
                max_cells: usize::try_from(max_cells).unwrap_or(usize::MAX),
                max_lines: super::DEFAULT_LIMIT as usize,
                max_bytes: NOTEBOOK_MAX_BYTES,
            };
            let shown = notebook::render_page(&nb, spelled, page).map_err(ToolError::refused)?;
            Output::text(format!("{} {shown}", tag_ref(spelled, &tag)))
                .with("cells", nb.cells().len())
        }
        Kind::Text => unreachable!("text files are read by read_file itself"),
    };
    Ok((
        out.with("path", checked.spelled.clone()).with("tag", tag),
        seen,
    ))
}

/// Most bytes of one notebook read: what a text read of [`super::DEFAULT_LIMIT`] lines of
/// [`crate::text::render::MAX_LINE_BYTES`] can show.
const NOTEBOOK_MAX_BYTES: usize =
    super::DEFAULT_LIMIT as usize * crate::text::render::MAX_LINE_BYTES;

/// Largest notebook read: the body limit every text argument has.
fn notebook_cap() -> u64 {
    u64::from(crate::args::MAX_BODY_CHARS)
}
