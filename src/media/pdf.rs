//! PDF text, page by page (spec 09, "Images, PDFs, notebooks, several files at once").
//!
//! The document's structure is loaded with `lopdf` (its cross-reference table and objects,
//! streams decompressed lazily and bounded), and text is extracted only from the pages asked
//! for, so a 5,000-page file costs its object table plus the pages shown. Encrypted PDFs and
//! files that are not PDFs (a renamed ZIP) are refused by name.

use std::fmt::Write as _;

use lopdf::{Document, LoadOptions};

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
        return Ok((format!("(no pages)\n"), 0));
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
        match doc.extract_text_with_limit(&[n], MAX_STREAM_BYTES) {
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
