//! From response bytes to text (spec 06, "Body and content"): what the media type says, what
//! the bytes say (binary is refused), which charset decodes them, and HTML to plain text.

use std::borrow::Cow;

use encoding_rs::{Encoding, UTF_8, UTF_16BE, UTF_16LE, WINDOWS_1252};
use url::Url;

/// How a body is handled, from its media type (or from its first bytes when it has none).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Treatment {
    /// `text/html`, `application/xhtml+xml`: converted to text.
    Html,
    /// `text/*`, JSON, XML, JavaScript: shown as it is.
    AsIs,
    /// Any other declared type (images, PDF, archives, `application/octet-stream`, ...).
    Refused,
}

/// The media type of a `Content-Type` value without parameters, in lower case
/// (`text/html; charset=UTF-8` → `text/html`); `None` when absent or empty.
pub fn essence(content_type: Option<&str>) -> Option<String> {
    let t = content_type?.split(';').next()?.trim().to_ascii_lowercase();
    (!t.is_empty()).then_some(t)
}

/// The `charset` parameter of a `Content-Type` value, unquoted.
pub fn charset_param(content_type: Option<&str>) -> Option<String> {
    content_type?.split(';').skip(1).find_map(|p| {
        let (k, v) = p.split_once('=')?;
        k.trim()
            .eq_ignore_ascii_case("charset")
            .then(|| v.trim().trim_matches(|c| c == '"' || c == '\'').to_owned())
    })
}

/// What a declared media type (see [`essence`]) asks for; `None` when there is none and the
/// body must be sniffed ([`sniff`]).
pub fn treatment(essence: Option<&str>) -> Option<Treatment> {
    let t = essence?;
    Some(match t {
        "text/html" | "application/xhtml+xml" => Treatment::Html,
        _ if t.starts_with("text/") => Treatment::AsIs,
        "application/json"
        | "application/xml"
        | "application/javascript"
        | "application/ecmascript"
        | "application/x-javascript"
        | "application/x-ndjson"
        | "application/toml"
        | "application/yaml"
        | "application/x-yaml" => Treatment::AsIs,
        _ if t.ends_with("+json") || t.ends_with("+xml") => Treatment::AsIs,
        _ => Treatment::Refused,
    })
}

/// The treatment of a body without a declared type, from its first bytes: HTML when it
/// starts (after a BOM and white space) like an HTML document, else as is.
pub fn sniff(body: &[u8]) -> Treatment {
    let head = &body[..body.len().min(1024)];
    let head = strip_bom(head);
    let start = head
        .iter()
        .position(|b| !b.is_ascii_whitespace())
        .unwrap_or(head.len());
    let head = head[start..].to_ascii_lowercase();
    const HTML_STARTS: [&[u8]; 6] = [
        b"<!doctype html",
        b"<html",
        b"<head",
        b"<body",
        b"<title",
        b"<meta",
    ];
    if HTML_STARTS.iter().any(|p| head.starts_with(p))
        || (head.starts_with(b"<!--") && memchr::memmem::find(&head, b"<html").is_some())
    {
        Treatment::Html
    } else {
        Treatment::AsIs
    }
}

fn strip_bom(b: &[u8]) -> &[u8] {
    b.strip_prefix(b"\xEF\xBB\xBF".as_slice()).unwrap_or(b)
}

/// The kind of binary data a body holds, if it is binary (spec 06: a known magic number, or
/// a NUL byte when the charset is not UTF-16). `utf16` skips the NUL test, which UTF-16 text
/// always fails; its decoded text is tested for U+0000 instead (see [`decode`]).
pub fn binary_kind(body: &[u8], utf16: bool) -> Option<String> {
    const MAGIC: [(&[u8], &str); 9] = [
        (b"%PDF-", "PDF"),
        (b"\x89PNG\r\n\x1a\n", "PNG"),
        (b"GIF87a", "GIF"),
        (b"GIF89a", "GIF"),
        (b"\xFF\xD8\xFF", "JPEG"),
        (b"PK\x03\x04", "ZIP"),
        (b"PK\x05\x06", "ZIP"),
        (b"PK\x07\x08", "ZIP"),
        (b"\x1F\x8B", "gzip"),
    ];
    if let Some((_, name)) = MAGIC.iter().find(|(m, _)| body.starts_with(m)) {
        return Some(format!("{name} data"));
    }
    if utf16 {
        return None;
    }
    memchr::memchr(0, body).map(|at| format!("binary data (a NUL byte at offset {at})"))
}

/// Where the charset came from (shown in nothing but tests and `--json`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CharsetSource {
    /// A byte order mark.
    Bom,
    /// The `Content-Type` header's `charset`.
    Header,
    /// A `<meta charset>` / `http-equiv` in the first 1024 bytes, or an XML declaration.
    Meta,
    /// Nothing declared; the bytes are valid UTF-8.
    Utf8,
    /// Nothing declared; the bytes are not UTF-8.
    Fallback,
}

/// The charset a body is decoded with and why.
#[derive(Debug, Clone, Copy)]
pub struct Charset {
    /// The encoding (WHATWG names: `ISO-8859-1` is `windows-1252`).
    pub encoding: &'static Encoding,
    /// Where it came from.
    pub source: CharsetSource,
    /// Length of the BOM to skip, in bytes.
    pub bom_len: usize,
}

/// Chooses the charset (spec 06, "Charset"): a BOM, else the header's `charset`, else (for
/// HTML) a `<meta>` in the first 1024 bytes, else (for XML, and HTML such as XHTML without
/// such a `<meta>`) the XML declaration's `encoding`, else
/// UTF-8 when the bytes are valid UTF-8 (when `cut`, an incomplete character at the end, cut
/// off by the size cap, counts as valid), else windows-1252. Unknown labels are skipped.
pub fn choose_charset(body: &[u8], header: Option<&str>, html: bool, cut: bool) -> Charset {
    if let Some((encoding, bom_len)) = Encoding::for_bom(body) {
        return Charset {
            encoding,
            source: CharsetSource::Bom,
            bom_len,
        };
    }
    let found = |encoding, source| Charset {
        encoding,
        source,
        bom_len: 0,
    };
    if let Some(enc) = header.and_then(|l| Encoding::for_label_no_replacement(l.as_bytes())) {
        return found(enc, CharsetSource::Header);
    }
    // XHTML (`application/xhtml+xml`) is HTML here and declares its charset in the XML
    // declaration, which only a page without a `<meta>` charset falls back to.
    let declared = if html {
        meta_charset(&body[..body.len().min(1024)]).or_else(|| xml_encoding(body))
    } else {
        xml_encoding(body)
    };
    if let Some(enc) = declared {
        // A document cannot declare itself UTF-16 in ASCII-compatible bytes (WHATWG).
        let enc = if enc == UTF_16LE || enc == UTF_16BE {
            UTF_8
        } else {
            enc
        };
        return found(enc, CharsetSource::Meta);
    }
    if utf8_prefix_len(body) == body.len() || (cut && is_valid_but_cut(body)) {
        found(UTF_8, CharsetSource::Utf8)
    } else {
        found(WINDOWS_1252, CharsetSource::Fallback)
    }
}

/// Length of the longest valid UTF-8 prefix.
fn utf8_prefix_len(b: &[u8]) -> usize {
    match std::str::from_utf8(b) {
        Ok(_) => b.len(),
        Err(e) => e.valid_up_to(),
    }
}

/// Valid UTF-8 except for an incomplete character at the very end.
fn is_valid_but_cut(b: &[u8]) -> bool {
    matches!(std::str::from_utf8(b), Err(e) if e.error_len().is_none())
}

/// Decodes `body` with `charset`, replacing malformed sequences with U+FFFD. A valid UTF-8
/// body is taken over without a copy; when `cut` (by the size cap), an incomplete last
/// character is dropped rather than shown as U+FFFD.
pub fn decode(mut body: Vec<u8>, charset: Charset, cut: bool) -> String {
    if charset.encoding == UTF_8 {
        body.drain(..charset.bom_len);
        if cut && is_valid_but_cut(&body) {
            let keep = utf8_prefix_len(&body);
            body.truncate(keep);
        }
        return match String::from_utf8(body) {
            Ok(s) => s,
            Err(e) => String::from_utf8_lossy(e.as_bytes()).into_owned(),
        };
    }
    let (text, _) = charset
        .encoding
        .decode_without_bom_handling(&body[charset.bom_len..]);
    match text {
        Cow::Borrowed(s) => s.to_owned(),
        Cow::Owned(s) => s,
    }
}

/// Attributes of the tag whose name ends just before `rest` (`<meta` already consumed), up to
/// its `>`: (lower-case name, value) pairs. Quoted and unquoted values; no entity decoding.
fn tag_attributes(rest: &[u8]) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let mut i = 0;
    let n = rest.len();
    loop {
        while i < n && (rest[i].is_ascii_whitespace() || rest[i] == b'/') {
            i += 1;
        }
        if i >= n || rest[i] == b'>' {
            return out;
        }
        let start = i;
        while i < n && !rest[i].is_ascii_whitespace() && !matches!(rest[i], b'=' | b'>' | b'/') {
            i += 1;
        }
        let name = String::from_utf8_lossy(&rest[start..i]).to_ascii_lowercase();
        while i < n && rest[i].is_ascii_whitespace() {
            i += 1;
        }
        let mut value = String::new();
        if i < n && rest[i] == b'=' {
            i += 1;
            while i < n && rest[i].is_ascii_whitespace() {
                i += 1;
            }
            if i < n && (rest[i] == b'"' || rest[i] == b'\'') {
                let q = rest[i];
                i += 1;
                let vstart = i;
                while i < n && rest[i] != q {
                    i += 1;
                }
                value = String::from_utf8_lossy(&rest[vstart..i]).into_owned();
                i = (i + 1).min(n);
            } else {
                let vstart = i;
                while i < n && !rest[i].is_ascii_whitespace() && rest[i] != b'>' {
                    i += 1;
                }
                value = String::from_utf8_lossy(&rest[vstart..i]).into_owned();
            }
        }
        if !name.is_empty() {
            out.push((name, value));
        }
    }
}

/// The charset a `<meta charset=...>` or `<meta http-equiv="Content-Type"
/// content="...; charset=...">` in `head` declares.
fn meta_charset(head: &[u8]) -> Option<&'static Encoding> {
    let lower = head.to_ascii_lowercase();
    let mut from = 0;
    while let Some(at) = memchr::memmem::find(&lower[from..], b"<meta") {
        let tag_start = from + at + 5;
        from = tag_start;
        if !lower
            .get(tag_start)
            .is_some_and(|b| b.is_ascii_whitespace() || *b == b'/')
        {
            continue;
        }
        let attrs = tag_attributes(&head[tag_start..]);
        let get = |k: &str| attrs.iter().find(|(n, _)| n == k).map(|(_, v)| v.as_str());
        if let Some(label) = get("charset")
            && let Some(enc) = Encoding::for_label_no_replacement(label.trim().as_bytes())
        {
            return Some(enc);
        }
        if get("http-equiv").is_some_and(|v| v.eq_ignore_ascii_case("content-type")) {
            let content = get("content").unwrap_or_default();
            if let Some(label) = charset_param(Some(content))
                && let Some(enc) = Encoding::for_label_no_replacement(label.as_bytes())
            {
                return Some(enc);
            }
        }
    }
    None
}

/// The `encoding` of an XML declaration at the very start (`<?xml version="1.0"
/// encoding="Shift_JIS"?>`).
fn xml_encoding(body: &[u8]) -> Option<&'static Encoding> {
    let rest = body.strip_prefix(b"<?xml".as_slice())?;
    let end = memchr::memmem::find(&rest[..rest.len().min(256)], b"?>")?;
    tag_attributes(&rest[..end])
        .into_iter()
        .find(|(n, _)| n == "encoding")
        .and_then(|(_, v)| Encoding::for_label_no_replacement(v.trim().as_bytes()))
}

/// The text a web page shows (spec 06, "Output"; a terminal must not obey the server): see
/// [`crate::text::controls::escape_controls`], shared with the skill catalogue.
pub use crate::text::controls::escape_controls;

/// Parses a refresh value (`5; url=/next`, `0;URL='x'`): the delay in whole seconds and the
/// target, when there is one.
pub fn parse_refresh(content: &str) -> Option<(u64, String)> {
    let c = content.trim_start();
    let digits = c.bytes().take_while(u8::is_ascii_digit).count();
    if digits == 0 {
        return None;
    }
    let secs: u64 = c[..digits].parse().ok()?;
    let rest = c[digits..].trim_start_matches(|ch: char| ch.is_ascii_digit() || ch == '.');
    let rest = rest.trim_start().strip_prefix([';', ','])?.trim_start();
    let rest = if rest.len() >= 3 && rest[..3].eq_ignore_ascii_case("url") {
        rest[3..].trim_start().strip_prefix('=')?.trim_start()
    } else {
        rest
    };
    let target = match rest.chars().next() {
        Some(q @ ('"' | '\'')) => rest[1..].split(q).next().unwrap_or_default(),
        _ => rest,
    }
    .trim();
    (!target.is_empty()).then(|| (secs, target.to_owned()))
}

/// Resolves `target` against `base` for a hop (`Location`, meta refresh).
pub fn resolve_target(base: &Url, target: &str) -> Result<Url, url::ParseError> {
    base.join(target.trim())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn types() {
        assert_eq!(
            essence(Some("Text/HTML; charset=UTF-8")).as_deref(),
            Some("text/html")
        );
        assert_eq!(
            charset_param(Some("text/html; Charset=\"GBK\"")).as_deref(),
            Some("GBK")
        );
        assert_eq!(treatment(Some("text/html")), Some(Treatment::Html));
        assert_eq!(treatment(Some("text/markdown")), Some(Treatment::AsIs));
        assert_eq!(
            treatment(Some("application/vnd.api+json")),
            Some(Treatment::AsIs)
        );
        assert_eq!(treatment(Some("application/pdf")), Some(Treatment::Refused));
        assert_eq!(treatment(Some("image/png")), Some(Treatment::Refused));
        assert_eq!(treatment(None), None);
        assert_eq!(sniff(b"\xEF\xBB\xBF  <!DOCTYPE html><p>x"), Treatment::Html);
        assert_eq!(sniff(b"{\"a\": 1}"), Treatment::AsIs);
    }

    #[test]
    fn binary() {
        assert_eq!(
            binary_kind(b"%PDF-1.7\n", false).as_deref(),
            Some("PDF data")
        );
        assert_eq!(
            binary_kind(b"\x89PNG\r\n\x1a\n....", false).as_deref(),
            Some("PNG data")
        );
        assert!(binary_kind(b"ab\0c", false).unwrap().contains("offset 2"));
        assert_eq!(binary_kind(b"a\0b\0", true), None);
        assert_eq!(binary_kind(b"plain text", false), None);
    }

    #[test]
    fn charset_order() {
        let c = choose_charset("café".as_bytes(), None, true, false);
        assert_eq!((c.encoding, c.source), (UTF_8, CharsetSource::Utf8));
        let c = choose_charset(b"caf\xe9", None, true, false);
        assert_eq!(
            (c.encoding, c.source),
            (WINDOWS_1252, CharsetSource::Fallback)
        );
        let c = choose_charset(b"caf\xe9", Some("ISO-8859-1"), true, false);
        assert_eq!(
            (c.encoding, c.source),
            (WINDOWS_1252, CharsetSource::Header)
        );
        let html = b"<html><head><META http-equiv=Content-Type content='text/html; charset=gbk'>";
        let c = choose_charset(html, None, true, false);
        assert_eq!((c.encoding.name(), c.source), ("GBK", CharsetSource::Meta));
        let c = choose_charset(b"<meta charset=\"shift_jis\">", Some("bogus"), true, false);
        assert_eq!(c.encoding.name(), "Shift_JIS");
        let c = choose_charset(b"<meta charset=\"utf-16\">", None, true, false);
        assert_eq!(c.encoding, UTF_8);
        let c = choose_charset(b"\xEF\xBB\xBFabc", Some("windows-1252"), true, false);
        assert_eq!((c.encoding, c.bom_len), (UTF_8, 3));
        let c = choose_charset(
            b"<?xml version='1.0' encoding='Shift_JIS'?><a/>",
            None,
            false,
            false,
        );
        assert_eq!(c.encoding.name(), "Shift_JIS");
        // XHTML: HTML with an XML declaration and no meta.
        let c = choose_charset(
            b"<?xml version=\"1.0\" encoding=\"GBK\"?><html><p>x</p></html>",
            None,
            true,
            false,
        );
        assert_eq!((c.encoding.name(), c.source), ("GBK", CharsetSource::Meta));
        // Not HTML: no meta prescan.
        let c = choose_charset(b"<meta charset=gbk>", None, false, false);
        assert_eq!(c.encoding, UTF_8);
        // A character cut by the cap is still UTF-8.
        let cut = &"a—b".as_bytes()[..2];
        let c = choose_charset(cut, None, true, true);
        assert_eq!(c.encoding, UTF_8);
        assert_eq!(decode(cut.to_vec(), c, true), "a");
        // Not cut: the same bytes are not UTF-8.
        assert_eq!(
            choose_charset(cut, None, true, false).encoding,
            WINDOWS_1252
        );
    }

    #[test]
    fn decoding() {
        let c = choose_charset(b"\xFF\xFEa\0b\0", None, false, false);
        assert_eq!(decode(b"\xFF\xFEa\0b\0".to_vec(), c, false), "ab");
        let body = b"\xd6\xd0\xce\xc4".to_vec();
        let c = choose_charset(&body, Some("gbk"), false, false);
        assert_eq!(decode(body, c, false), "中文");
    }

    #[test]
    fn refresh_values() {
        assert_eq!(parse_refresh("5; url=/next"), Some((5, "/next".into())));
        assert_eq!(parse_refresh("0;URL='a b'"), Some((0, "a b".into())));
        assert_eq!(parse_refresh("3, http://x/"), Some((3, "http://x/".into())));
        assert_eq!(parse_refresh("1.5; url=y"), Some((1, "y".into())));
        assert_eq!(parse_refresh("5"), None);
        assert_eq!(parse_refresh("url=x"), None);
    }
}
