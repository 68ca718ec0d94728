//! PDF text, page by page (spec 09, "Images, PDFs, notebooks, several files at once").
//!
//! The document's structure is loaded with `lopdf` (its cross-reference table and objects,
//! streams decompressed within a bound), and text is extracted only from the pages asked for,
//! so a 5,000-page file costs its object table plus the pages shown. Encrypted PDFs and files
//! that are not PDFs (a renamed ZIP) are refused by name.
//!
//! Why lopdf and a page walker of our own rather than `pdf-extract` (issue 20 asked for the
//! choice on real PDFs; a LaTeX paper with ligatures, a generated report with a table, a CJK
//! document with a predefined CMap, a scanned page): pdf-extract 0.12 panicked on the CJK file
//! (`unsupported encoding UniGB-UCS2-H`), pulls a second lopdf and a font stack, and took 80 ms
//! on the paper; lopdf's own `extract_text` decodes all four (ligatures and CJK right) but
//! puts a LaTeX page on one line and every table cell on its own. [`page_text`] walks the
//! same content operations with lopdf's font decoding and breaks lines only on vertical
//! moves.

use std::fmt::Write as _;

use lopdf::content::Content;
use lopdf::{Document, Encoding, LoadOptions, Object, ObjectId};

/// Pages shown when `pages` is not given: the first 20.
pub const DEFAULT_PAGES: u32 = 20;
/// Most pages one call shows.
pub const MAX_PAGES: u32 = 100;
/// Largest PDF file read, in bytes: checked before the file is read into memory.
pub const MAX_FILE_BYTES: u64 = 256 << 20;
/// Most bytes one content stream may decompress to (a compressed bomb stops here).
pub const MAX_STREAM_BYTES: usize = 64 << 20;
/// Most characters of text shown for one page; the rest is cut with a note.
pub const MAX_PAGE_CHARS: usize = 50_000;

/// A page range, 1-based and inclusive.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PageRange {
    /// First page.
    pub first: u32,
    /// Last page (may be past the end: it is cut to the document).
    pub last: u32,
}

/// Parses a `pages` argument: `"3"`, `"3-5"` or `"3-"` (from page 3, at most [`MAX_PAGES`]).
/// `None` gives the first [`DEFAULT_PAGES`]. Errors (a usage error's message) for anything
/// else, page 0, a range that runs backwards or one longer than [`MAX_PAGES`].
pub fn parse_pages(pages: Option<&str>) -> Result<PageRange, String> {
    let Some(spec) = pages else {
        return Ok(PageRange {
            first: 1,
            last: DEFAULT_PAGES,
        });
    };
    let bad = || format!("pages {spec:?} is not a page or a range: write \"3\", \"3-5\" or \"3-\"");
    let num = |s: &str| s.trim().parse::<u32>().map_err(|_| bad());
    let s = spec.trim();
    let (first, last) = match s.split_once('-') {
        None => {
            let n = num(s)?;
            (n, n)
        }
        Some((a, b)) if b.trim().is_empty() => {
            let a = num(a)?;
            (a, a.saturating_add(MAX_PAGES - 1))
        }
        Some((a, b)) => (num(a)?, num(b)?),
    };
    if first == 0 {
        return Err(format!("pages {spec:?}: pages are numbered from 1"));
    }
    if last < first {
        return Err(format!("pages {spec:?} runs backwards"));
    }
    if last - first >= MAX_PAGES {
        return Err(format!(
            "pages {spec:?} asks for {} pages; at most {MAX_PAGES} are shown at once",
            last - first + 1
        ));
    }
    Ok(PageRange { first, last })
}

/// What the bytes of a file named `.pdf` start like when they are not a PDF, for the refusal.
fn what_else(bytes: &[u8]) -> &'static str {
    if bytes.starts_with(b"PK\x03\x04") || bytes.starts_with(b"PK\x05\x06") {
        "a ZIP archive"
    } else if bytes.starts_with(b"\x89PNG") {
        "a PNG image"
    } else if bytes.starts_with(b"\xff\xd8\xff") {
        "a JPEG image"
    } else if bytes.is_empty() {
        "an empty file"
    } else {
        "something else: no %PDF- header"
    }
}

/// The text of the pages `range` of the PDF `bytes`, with `--- page N of M ---` headers, a
/// `(no text: scanned?)` line for a page without a text layer, and a closing line naming the
/// next pages when there are more. `spelled` names the file in messages. Errors are the
/// refusal's message: not a PDF (naming what it looks like), encrypted, unreadable, or a
/// first page past the end.
pub fn render(spelled: &str, bytes: &[u8], range: PageRange) -> Result<(String, u32), String> {
    // The header may follow up to 1 KiB of junk (ISO 32000-1, 7.5.2 allows it in practice).
    let head = &bytes[..bytes.len().min(1024)];
    if memchr::memmem::find(head, b"%PDF-").is_none() {
        return Err(format!(
            "{spelled} is not a PDF: its bytes are {}",
            what_else(bytes)
        ));
    }
    let options = LoadOptions {
        max_decompressed_size: Some(MAX_STREAM_BYTES),
        ..LoadOptions::default()
    };
    let doc = match Document::load_mem_with_options(bytes, options) {
        Ok(doc) => doc,
        Err(e) => {
            if memchr::memmem::find(bytes, b"/Encrypt").is_some() {
                return Err(encrypted(spelled));
            }
            return Err(format!("{spelled} cannot be read as a PDF: {e}"));
        }
    };
    if doc.trailer.get(b"Encrypt").is_ok() {
        return Err(encrypted(spelled));
    }
    let pages = doc.get_pages();
    let total = pages.len() as u32;
    if total == 0 {
        return Ok(("(no pages)\n".to_owned(), 0));
    }
    if range.first > total {
        return Err(format!(
            "page {} is past the end of {spelled} ({total} pages)",
            range.first
        ));
    }
    let last = range.last.min(total);
    let mut out = String::new();
    for n in range.first..=last {
        let _ = writeln!(out, "--- page {n} of {total} ---");
        match page_text(&doc, pages[&n]) {
            Ok(text) => {
                let text = tidy(&text);
                if text.is_empty() {
                    out.push_str("(no text: scanned?)\n");
                } else if text.chars().count() > MAX_PAGE_CHARS {
                    let cut: String = text.chars().take(MAX_PAGE_CHARS).collect();
                    out.push_str(&cut);
                    let _ = writeln!(out, "\n(page {n} cut at {MAX_PAGE_CHARS} characters)");
                } else {
                    out.push_str(&text);
                    out.push('\n');
                }
            }
            Err(e) => {
                let _ = writeln!(out, "(page {n} could not be read: {e})");
            }
        }
    }
    if last < total {
        let next_last = (last + DEFAULT_PAGES).min(total);
        let _ = writeln!(
            out,
            "({} more pages; continue with pages=\"{}-{next_last}\")",
            total - last,
            last + 1
        );
    }
    Ok((out, total))
}

/// A number operand as f64 (integers and reals).
fn number(o: Option<&Object>) -> f64 {
    match o {
        Some(Object::Integer(i)) => *i as f64,
        Some(Object::Real(r)) => f64::from(*r),
        _ => 0.0,
    }
}

/// A 2-D affine matrix `[a b c d e f]` as PDF writes them: (x, y) → (ax + cy + e, bx + dy + f).
type Matrix = [f64; 6];

const IDENTITY: Matrix = [1.0, 0.0, 0.0, 1.0, 0.0, 0.0];

/// `m` then `n`: the matrix that applies `m` first.
fn then(m: &Matrix, n: &Matrix) -> Matrix {
    [
        m[0] * n[0] + m[1] * n[2],
        m[0] * n[1] + m[1] * n[3],
        m[2] * n[0] + m[3] * n[2],
        m[2] * n[1] + m[3] * n[3],
        m[4] * n[0] + m[5] * n[2] + n[4],
        m[4] * n[1] + m[5] * n[3] + n[5],
    ]
}

fn matrix(o: &[Object]) -> Matrix {
    std::array::from_fn(|i| number(o.get(i)))
}

/// Where the text being shown is (the graphics and text state that matter for line breaks):
/// a move whose y in user space differs by more than 0.7 of the font size starts a new line;
/// a smaller move (a superscript, the next cell of a table row) is a space.
struct Pen {
    ctm: Matrix,
    saved: Vec<Matrix>,
    /// Text line matrix (`Tlm`): `Td` moves it, `Tm` sets it.
    line: Matrix,
    size: f64,
    leading: f64,
    /// The y in user space of the last text shown, and the font size there.
    last: Option<(f64, f64)>,
    /// Whether the text origin was set (`BT`, `Td`, `TD`, `Tm`) since text was last shown: on
    /// the same line that is a gap (the next cell of a row, a word placed on its own).
    moved: bool,
}

impl Pen {
    /// Before showing text: a line break or a space when the text origin moved.
    fn place(&mut self, text: &mut String) {
        let at = then(&self.line, &self.ctm);
        let size = (self.size * at[3].hypot(at[2])).abs().max(1.0);
        if let Some((y, last_size)) = self.last {
            if (at[5] - y).abs() > 0.7 * size.max(last_size) {
                newline(text);
            } else if self.moved {
                space(text);
            }
        }
        self.last = Some((at[5], size));
        self.moved = false;
    }

    fn next_line(&mut self) {
        self.line = then(&[1.0, 0.0, 0.0, 1.0, 0.0, -self.leading], &self.line);
    }
}

fn newline(text: &mut String) {
    if !text.is_empty() && !text.ends_with('\n') {
        text.push('\n');
    }
}

fn space(text: &mut String) {
    if !text.is_empty() && !text.ends_with([' ', '\n']) {
        text.push(' ');
    }
}

/// Shows the strings of a `Tj`/`TJ` operand list with `encoding`; a kerning gap wider than
/// a fifth of an em in a `TJ` array becomes a space.
fn show(text: &mut String, encoding: &Encoding, operands: &[Object]) {
    for operand in operands {
        match operand {
            Object::String(bytes, _) => {
                let _ = encoding.write_to_string(bytes, text);
            }
            Object::Array(items) => show(text, encoding, items),
            Object::Integer(_) | Object::Real(_) if number(Some(operand)) < -200.0 => space(text),
            _ => {}
        }
    }
}

/// The text of one page, in content-stream order: lines break where the text moves down (or
/// up) in user space by more than 0.7 of the font size (following `cm`, `q`/`Q`, `Tm`, `Td`,
/// `TD`, `T*`, `'`, `"`), not at every text object, so a LaTeX page keeps its lines and a
/// table row made of separate text objects stays on one line. Strings are decoded with the page's font encodings (ToUnicode maps,
/// CID fonts with predefined CMaps, simple encodings) as lopdf reads them. The page's content
/// is decompressed within [`MAX_STREAM_BYTES`].
fn page_text(doc: &Document, page: ObjectId) -> Result<String, lopdf::Error> {
    let fonts = doc.get_page_fonts(page)?;
    let encodings: std::collections::BTreeMap<Vec<u8>, Encoding> = fonts
        .into_iter()
        .filter_map(|(name, font)| {
            font.get_font_encoding_with_limit(doc, MAX_STREAM_BYTES)
                .ok()
                .map(|e| (name, e))
        })
        .collect();
    let content = Content::decode(&doc.get_page_content_with_limit(page, MAX_STREAM_BYTES)?)?;
    let mut text = String::new();
    let mut encoding: Option<&Encoding> = None;
    let mut pen = Pen {
        ctm: IDENTITY,
        saved: Vec::new(),
        line: IDENTITY,
        size: 10.0,
        leading: 0.0,
        last: None,
        moved: false,
    };
    for op in &content.operations {
        let o = &op.operands;
        match op.operator.as_str() {
            "q" => pen.saved.push(pen.ctm),
            "Q" => pen.ctm = pen.saved.pop().unwrap_or(IDENTITY),
            "cm" => pen.ctm = then(&matrix(o), &pen.ctm),
            "BT" => {
                pen.line = IDENTITY;
                pen.moved = true;
            }
            "Tf" => {
                encoding = o
                    .first()
                    .and_then(|n| n.as_name().ok())
                    .and_then(|n| encodings.get(n));
                pen.size = number(o.get(1));
            }
            "TL" => pen.leading = number(o.first()),
            "Tm" => {
                pen.line = matrix(o);
                pen.moved = true;
            }
            "Td" | "TD" => {
                let (tx, ty) = (number(o.first()), number(o.get(1)));
                if op.operator == "TD" {
                    pen.leading = -ty;
                }
                pen.line = then(&[1.0, 0.0, 0.0, 1.0, tx, ty], &pen.line);
                pen.moved = true;
            }
            "T*" => pen.next_line(),
            "Tj" | "TJ" => {
                if let Some(e) = encoding {
                    pen.place(&mut text);
                    show(&mut text, e, o);
                }
            }
            "'" | "\"" => {
                pen.next_line();
                if let Some(e) = encoding {
                    pen.place(&mut text);
                    show(&mut text, e, &o[o.len().saturating_sub(1)..]);
                }
            }
            _ => {}
        }
    }
    Ok(text)
}

fn encrypted(spelled: &str) -> String {
    format!("{spelled} is an encrypted PDF; agtool does not read encrypted PDFs")
}

/// Trims trailing spaces from each line and blank lines at both ends, and folds runs of blank
/// lines to one.
fn tidy(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut blank = 0;
    for line in text.lines() {
        let line = line.trim_end();
        if line.is_empty() {
            blank += 1;
            continue;
        }
        if !out.is_empty() {
            out.push_str(if blank > 0 { "\n\n" } else { "\n" });
        }
        blank = 0;
        out.push_str(line);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn page_arguments() {
        assert_eq!(parse_pages(None).unwrap(), PageRange { first: 1, last: 20 });
        assert_eq!(
            parse_pages(Some("3")).unwrap(),
            PageRange { first: 3, last: 3 }
        );
        assert_eq!(
            parse_pages(Some("3-5")).unwrap(),
            PageRange { first: 3, last: 5 }
        );
        assert_eq!(
            parse_pages(Some(" 7- ")).unwrap(),
            PageRange {
                first: 7,
                last: 106
            }
        );
        assert!(parse_pages(Some("0")).is_err());
        assert!(parse_pages(Some("5-3")).is_err());
        assert!(parse_pages(Some("x")).is_err());
        assert!(
            parse_pages(Some("1-500"))
                .unwrap_err()
                .contains("at most 100")
        );
    }

    #[test]
    fn a_zip_is_named() {
        let err = render("a.pdf", b"PK\x03\x04rest", parse_pages(None).unwrap()).unwrap_err();
        assert!(err.contains("not a PDF") && err.contains("ZIP"), "{err}");
    }

    #[test]
    fn tidy_folds_blank_lines() {
        assert_eq!(tidy("\n\n a  \n\n\n b\n\n"), " a\n\n b");
    }
}
