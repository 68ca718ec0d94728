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
/// HTML) a `<meta>` in the first 1024 bytes or (for XML) the declaration's `encoding`, else
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
    let declared = if html {
        meta_charset(&body[..body.len().min(1024)])
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

pub use self::html::{HtmlPage, MAX_DEPTH, cap_nesting};

mod html {
    //! HTML to text on html2text's DOM: a pass of our own first (base URL, meta refresh,
    //! absolute links, dropped elements, a depth cap), then html2text renders.

    use html2text::{Element, Handle, RcDom};
    use url::Url;

    /// Elements that never show: html2text already drops `script`, `style` and `head`.
    const DROPPED: [&str; 4] = ["noscript", "template", "script", "style"];

    /// Deepest element nesting kept; deeper elements are unwrapped (their content stays,
    /// flattened into the element at this depth). The HTML parser's time grows with the
    /// depth of the open elements for every tag, so 20,000 nested `<div>`s took minutes.
    pub const MAX_DEPTH: usize = 256;

    /// Deepest DOM nesting kept after [`cap_nesting`], which counts only some elements:
    /// a second guard, flattening what is deeper.
    const DOM_MAX_DEPTH: usize = 2 * MAX_DEPTH;

    /// Elements that never hold others (no end tag).
    const VOID: [&str; 16] = [
        "area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source",
        "track", "wbr", "param", "keygen", "frame",
    ];
    /// Elements whose end tag may be left out, or that the parser closes by themselves when
    /// the next one starts: a count of their start tags says nothing about depth.
    const SELF_CLOSING_KIND: [&str; 24] = [
        "p", "li", "dt", "dd", "option", "optgroup", "tr", "td", "th", "thead", "tbody", "tfoot",
        "colgroup", "caption", "rb", "rt", "rtc", "rp", "html", "head", "body", "a", "nobr",
        "button",
    ];
    /// Elements whose content is text up to their end tag.
    const RAW_TEXT: [&str; 8] = [
        "script",
        "style",
        "textarea",
        "title",
        "xmp",
        "noembed",
        "noframes",
        "plaintext",
    ];

    /// Finds `needle` (ASCII, lower case) in `hay` from `from`, ignoring ASCII case.
    fn find_ci(hay: &[u8], from: usize, needle: &[u8]) -> Option<usize> {
        let first = needle[0];
        let mut i = from;
        while i + needle.len() <= hay.len() {
            let at = memchr::memchr2(first, first.to_ascii_uppercase(), &hay[i..])? + i;
            if at + needle.len() <= hay.len()
                && hay[at..at + needle.len()].eq_ignore_ascii_case(needle)
            {
                return Some(at);
            }
            i = at + 1;
        }
        None
    }

    /// End of the tag starting at `lt` (the byte after its `>`), skipping quoted attribute
    /// values.
    fn tag_end(b: &[u8], lt: usize) -> usize {
        let mut i = lt + 1;
        let mut quote = None;
        while i < b.len() {
            match (quote, b[i]) {
                (None, b'>') => return i + 1,
                (None, q @ (b'"' | b'\'')) => quote = Some(q),
                (Some(q), c) if c == q => quote = None,
                _ => {}
            }
            i += 1;
        }
        b.len()
    }

    /// A pass over the source before parsing: start and end tags nested deeper than
    /// [`MAX_DEPTH`] (counting elements that hold others and need an end tag) are left out,
    /// their text kept. `None` when the page never nests that deep (the usual case).
    pub fn cap_nesting(html: &str) -> Option<String> {
        let b = html.as_bytes();
        let mut drops: Vec<(usize, usize)> = Vec::new();
        let (mut depth, mut dropped) = (0usize, 0usize);
        let mut i = 0;
        while let Some(off) = memchr::memchr(b'<', &b[i..]) {
            let lt = i + off;
            let rest = &b[lt + 1..];
            if rest.starts_with(b"!--") {
                i = find_ci(b, lt + 4, b"-->").map_or(b.len(), |e| e + 3);
                continue;
            }
            if rest.starts_with(b"!") || rest.starts_with(b"?") {
                i = tag_end(b, lt);
                continue;
            }
            let (closing, name_at) = match rest.first() {
                Some(b'/') => (true, lt + 2),
                _ => (false, lt + 1),
            };
            let name_len = b[name_at..]
                .iter()
                .take_while(|c| c.is_ascii_alphanumeric() || **c == b'-')
                .count();
            if name_len == 0 || !b[name_at].is_ascii_alphabetic() {
                i = lt + 1;
                continue;
            }
            let name = html[name_at..name_at + name_len].to_ascii_lowercase();
            let end = tag_end(b, lt);
            let self_closed = end >= 2 && b[end - 2] == b'/';
            i = end;
            if !closing && RAW_TEXT.contains(&name.as_str()) {
                let close = format!("</{name}");
                i = find_ci(b, end, close.as_bytes()).map_or(b.len(), |at| tag_end(b, at));
                continue;
            }
            if VOID.contains(&name.as_str()) || SELF_CLOSING_KIND.contains(&name.as_str()) {
                continue;
            }
            if closing {
                if dropped > 0 {
                    dropped -= 1;
                    drops.push((lt, end));
                } else {
                    depth = depth.saturating_sub(1);
                }
            } else if !self_closed {
                if depth >= MAX_DEPTH {
                    dropped += 1;
                    drops.push((lt, end));
                } else {
                    depth += 1;
                }
            }
        }
        if drops.is_empty() {
            return None;
        }
        let mut out = String::with_capacity(html.len());
        let mut at = 0;
        for (s, e) in drops {
            out.push_str(&html[at..s]);
            at = e;
        }
        out.push_str(&html[at..]);
        Some(out)
    }

    /// A parsed HTML page.
    pub struct HtmlPage {
        dom: RcDom,
        /// The first `<meta http-equiv="refresh">`'s content, if any.
        pub refresh: Option<String>,
        /// The first `<base href>`, if any.
        pub base_href: Option<String>,
        /// Whether tags nested deeper than [`MAX_DEPTH`] were left out.
        pub flattened: bool,
    }

    fn config() -> html2text::config::Config<html2text::render::PlainDecorator> {
        html2text::config::plain()
    }

    fn element_name(h: &Handle) -> Option<&str> {
        match &h.data {
            Element { name, .. } => Some(&*name.local),
            _ => None,
        }
    }

    fn attr(h: &Handle, key: &str) -> Option<String> {
        match &h.data {
            Element { attrs, .. } => attrs
                .borrow()
                .iter()
                .find(|a| &*a.name.local == key)
                .map(|a| a.value.to_string()),
            _ => None,
        }
    }

    impl HtmlPage {
        /// Parses `html` (already decoded), first leaving out tags nested deeper than
        /// [`MAX_DEPTH`] ([`cap_nesting`]). Never recursive: safe on any nesting.
        pub fn parse(html: &str) -> Result<HtmlPage, String> {
            let capped = cap_nesting(html);
            let source = capped.as_deref().unwrap_or(html);
            let dom = config()
                .parse_html(source.as_bytes())
                .map_err(|e| format!("the HTML could not be parsed: {e}"))?;
            let mut page = HtmlPage {
                dom,
                refresh: None,
                base_href: None,
                flattened: capped.is_some(),
            };
            page.scan();
            Ok(page)
        }

        /// Finds the refresh and base, drops hidden elements, caps the depth.
        fn scan(&mut self) {
            let mut stack: Vec<(Handle, usize)> = vec![(self.dom.document.clone(), 0)];
            while let Some((node, depth)) = stack.pop() {
                match element_name(&node) {
                    Some("meta")
                        if self.refresh.is_none()
                            && attr(&node, "http-equiv")
                                .is_some_and(|v| v.trim().eq_ignore_ascii_case("refresh")) =>
                    {
                        self.refresh = attr(&node, "content");
                    }
                    Some("base") if self.base_href.is_none() => {
                        self.base_href = attr(&node, "href");
                    }
                    _ => {}
                }
                node.children
                    .borrow_mut()
                    .retain(|c| !element_name(c).is_some_and(|n| DROPPED.contains(&n)));
                if depth >= DOM_MAX_DEPTH && self.flatten(&node) {
                    self.flattened = true;
                }
                for child in node.children.borrow().iter() {
                    stack.push((child.clone(), depth + 1));
                }
            }
        }

        /// Replaces everything under `node` by the non-element nodes (text) of its subtree,
        /// in document order, dropping hidden elements with their content. One pass over the
        /// subtree. Returns whether anything changed.
        fn flatten(&self, node: &Handle) -> bool {
            if !node
                .children
                .borrow()
                .iter()
                .any(|c| element_name(c).is_some())
            {
                return false;
            }
            let mut pending: Vec<Handle> = std::mem::take(&mut *node.children.borrow_mut());
            pending.reverse();
            let mut flat = Vec::new();
            while let Some(h) = pending.pop() {
                match element_name(&h) {
                    Some(n) if DROPPED.contains(&n) => {}
                    Some(_) => {
                        let kids = std::mem::take(&mut *h.children.borrow_mut());
                        pending.extend(kids.into_iter().rev());
                    }
                    None => {
                        h.parent.set(Some(std::rc::Rc::downgrade(node)));
                        flat.push(h);
                    }
                }
            }
            *node.children.borrow_mut() = flat;
            true
        }

        /// Renders the page as text, `width` columns wide, with every link made absolute
        /// against `<base href>` (itself resolved against `page_url`) or `page_url`, and kept
        /// as a numbered reference (`[text][1]` ... `[1]: https://...`).
        pub fn to_text(self, page_url: &Url, width: usize) -> Result<String, String> {
            let base = self
                .base_href
                .as_deref()
                .and_then(|b| page_url.join(b.trim()).ok())
                .unwrap_or_else(|| page_url.clone());
            let mut stack = vec![self.dom.document.clone()];
            while let Some(node) = stack.pop() {
                if let Element { name, attrs, .. } = &node.data
                    && &*name.local == "a"
                {
                    for a in attrs.borrow_mut().iter_mut() {
                        if &*a.name.local == "href"
                            && let Ok(abs) = base.join(a.value.trim())
                        {
                            a.value = abs.as_str().into();
                        }
                    }
                }
                stack.extend(node.children.borrow().iter().cloned());
            }
            let config = config();
            let tree = config
                .dom_to_render_tree(&self.dom)
                .map_err(|e| format!("the HTML could not be converted: {e}"))?;
            config
                .render_to_string(tree, width)
                .map_err(|e| format!("the HTML could not be converted: {e}"))
        }
    }
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

    #[test]
    fn html_links_absolute_hidden_dropped() {
        let html = "<html><head><base href='/docs/'><meta http-equiv=REFRESH content='1;url=x'>\
                    <style>p{}</style></head><body><p>Hi <a href='a.html'>A</a> \
                    <a href='https://o.test/'>O</a></p><noscript>NOJS</noscript>\
                    <template>TPL</template><script>var s;</script><img src=i.png alt=Logo></body>";
        let page = HtmlPage::parse(html).unwrap();
        assert_eq!(page.refresh.as_deref(), Some("1;url=x"));
        let url = Url::parse("http://h.test/x/y").unwrap();
        let text = page.to_text(&url, 80).unwrap();
        assert!(text.contains("http://h.test/docs/a.html"), "{text}");
        assert!(text.contains("https://o.test/"), "{text}");
        assert!(text.contains("[Logo]"), "{text}");
        for gone in ["NOJS", "TPL", "var s", "p{}"] {
            assert!(!text.contains(gone), "{gone} in {text}");
        }
    }

    #[test]
    fn cap_nesting_leaves_ordinary_pages_alone() {
        let page = "<html><body><p>a<p>b<ul><li>x<li>y</ul><script>if (a<b) {}</script>\
                    <!-- <div><div> --><div class='x>y'><br><img src=a><span>t</span></div>";
        assert_eq!(cap_nesting(page), None);
        let deep = format!(
            "{}x{}",
            "<div>".repeat(MAX_DEPTH + 2),
            "</div>".repeat(MAX_DEPTH + 2)
        );
        let capped = cap_nesting(&deep).unwrap();
        assert_eq!(
            capped,
            format!(
                "{}x{}",
                "<div>".repeat(MAX_DEPTH),
                "</div>".repeat(MAX_DEPTH)
            )
        );
        // Unclosed paragraphs and links do not add up.
        let many = "<p><a href=x>link".repeat(5 * MAX_DEPTH);
        assert_eq!(cap_nesting(&many), None);
    }

    #[test]
    fn deep_nesting_is_capped_not_fatal() {
        let n = 20_000;
        let html = format!("{}deep text{}", "<div>".repeat(n), "</div>".repeat(n));
        let page = HtmlPage::parse(&html).unwrap();
        assert!(page.flattened);
        let text = page
            .to_text(&Url::parse("http://h.test/").unwrap(), 80)
            .unwrap();
        assert!(text.contains("deep text"), "{text}");
    }
}
