//! HTML to text (spec 06, "HTML to text"): html2text renders, after passes of our own.
//!
//! - Before parsing, a scan of the tags ([`Tags`]) leaves out tags nested deeper than
//!   [`MAX_DEPTH`] (the parser's time grows with the depth for every tag) and cuts the page
//!   into pieces of about [`PIECE_BYTES`] at block boundaries, each piece reopening the
//!   elements still open where it starts ([`plan`]). A piece is parsed, rendered and dropped
//!   before the next: html2text's DOM and render tree take some 45 bytes per byte of HTML,
//!   so a whole 5 MiB page would need over 200 MiB.
//! - On each piece's DOM ([`HtmlPage`]): the first `<meta http-equiv="refresh">` and `<base
//!   href>` are found, `script`, `style`, `noscript` and `template` dropped, every link made
//!   absolute.
//! - The decorator ([`Converter`]) numbers links across the pieces, one number per URL, and
//!   the references follow the text: `[text][1]` ... `[1]: https://...`.

use std::cell::RefCell;
use std::collections::HashMap;
use std::ops::Range;
use std::rc::Rc;

use html2text::render::{TaggedLine, TextDecorator};
use html2text::{Element, Handle, RcDom};
use url::Url;

/// Elements that never show (html2text drops `script`, `style` and the head by itself).
const DROPPED: [&str; 4] = ["noscript", "template", "script", "style"];

/// Deepest nesting kept, counting elements that hold others and need an end tag; deeper
/// tags are left out and their text kept. The HTML parser's time grows with the depth of
/// the open elements for every tag: 20,000 nested `<div>`s took minutes.
pub const MAX_DEPTH: usize = 256;

/// Deepest DOM nesting kept after the scan, which counts only some elements: a second
/// guard that flattens what is deeper.
const DOM_MAX_DEPTH: usize = 2 * MAX_DEPTH;

/// The size a piece grows to before it is cut at the next block boundary, in bytes.
pub const PIECE_BYTES: usize = 128 << 10;

/// Elements that never hold others (no end tag).
const VOID: [&str; 16] = [
    "area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track",
    "wbr", "param", "keygen", "frame",
];
/// Elements whose end tag may be left out, or that the parser closes by itself when the next
/// one starts: a count of their start tags says nothing about depth.
const SELF_CLOSING_KIND: [&str; 24] = [
    "p", "li", "dt", "dd", "option", "optgroup", "tr", "td", "th", "thead", "tbody", "tfoot",
    "colgroup", "caption", "rb", "rt", "rtc", "rp", "html", "head", "body", "a", "nobr", "button",
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
/// End tags after which a piece may end: the text on both sides is in separate blocks.
const BLOCK_ENDS: [&str; 27] = [
    "p",
    "li",
    "tr",
    "div",
    "section",
    "article",
    "main",
    "aside",
    "header",
    "footer",
    "nav",
    "h1",
    "h2",
    "h3",
    "h4",
    "h5",
    "h6",
    "pre",
    "table",
    "ul",
    "ol",
    "dl",
    "dd",
    "dt",
    "blockquote",
    "figure",
    "details",
];

/// One tag found by [`Tags`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Tag {
    /// Byte range of the tag (for a raw-text element: from its start tag to the end of its
    /// end tag).
    pub range: Range<usize>,
    /// The element name, lower case.
    pub name: String,
    /// `</name>`.
    pub closing: bool,
    /// `<name/>`.
    pub self_closed: bool,
}

impl Tag {
    /// Whether the element nests: holds others and needs an end tag (see [`MAX_DEPTH`]).
    fn nests(&self) -> bool {
        let n = self.name.as_str();
        !(VOID.contains(&n) || SELF_CLOSING_KIND.contains(&n) || RAW_TEXT.contains(&n))
    }
}

/// The start and end tags of an HTML source in order, skipping comments, doctypes,
/// processing instructions and the content of raw-text elements (`script`, `style`, ...). A
/// light scan, not a parser: it is used only to decide where to cut.
pub struct Tags<'a> {
    src: &'a str,
    at: usize,
}

impl<'a> Tags<'a> {
    /// The tags of `src`.
    pub fn new(src: &'a str) -> Tags<'a> {
        Tags { src, at: 0 }
    }
}

/// Finds `needle` (ASCII, lower case) in `hay` from `from`, ignoring ASCII case.
fn find_ci(hay: &[u8], from: usize, needle: &[u8]) -> Option<usize> {
    let first = needle[0];
    let mut i = from;
    while i + needle.len() <= hay.len() {
        let at = memchr::memchr2(first, first.to_ascii_uppercase(), &hay[i..])? + i;
        if at + needle.len() <= hay.len() && hay[at..at + needle.len()].eq_ignore_ascii_case(needle)
        {
            return Some(at);
        }
        i = at + 1;
    }
    None
}

/// End of the tag starting at `lt` (the byte after its `>`), skipping quoted values.
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

impl Iterator for Tags<'_> {
    type Item = Tag;

    fn next(&mut self) -> Option<Tag> {
        let b = self.src.as_bytes();
        loop {
            let lt = self.at + memchr::memchr(b'<', b.get(self.at..)?)?;
            let rest = &b[lt + 1..];
            if rest.starts_with(b"!--") {
                self.at = find_ci(b, lt + 4, b"-->").map_or(b.len(), |e| e + 3);
                continue;
            }
            if rest.starts_with(b"!") || rest.starts_with(b"?") {
                self.at = tag_end(b, lt);
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
                self.at = lt + 1;
                continue;
            }
            let name = self.src[name_at..name_at + name_len].to_ascii_lowercase();
            let mut end = tag_end(b, lt);
            let self_closed = end >= 2 && b[end - 2] == b'/';
            if !closing && RAW_TEXT.contains(&name.as_str()) {
                let close = format!("</{name}");
                end = find_ci(b, end, close.as_bytes()).map_or(b.len(), |at| tag_end(b, at));
            }
            self.at = end;
            return Some(Tag {
                range: lt..end,
                name,
                closing,
                self_closed,
            });
        }
    }
}

/// The source with tags nested deeper than [`MAX_DEPTH`] left out (their text kept), or
/// `None` when the page never nests that deep (the usual case).
pub fn cap_nesting(html: &str) -> Option<String> {
    let mut drops: Vec<Range<usize>> = Vec::new();
    let (mut depth, mut dropped) = (0usize, 0usize);
    for tag in Tags::new(html).filter(Tag::nests) {
        if tag.closing {
            if dropped > 0 {
                dropped -= 1;
                drops.push(tag.range);
            } else {
                depth = depth.saturating_sub(1);
            }
        } else if !tag.self_closed {
            if depth >= MAX_DEPTH {
                dropped += 1;
                drops.push(tag.range);
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
    for r in drops {
        out.push_str(&html[at..r.start]);
        at = r.end;
    }
    out.push_str(&html[at..]);
    Some(out)
}

/// One piece of a page: the start tags that reopen the elements open where it begins, then
/// a range of the source.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Piece {
    /// Start tags to put first.
    pub reopen: String,
    /// The piece's range of the source.
    pub range: Range<usize>,
    /// Whether its text is set off from the previous piece's by a blank line, as html2text
    /// sets off the blocks of [`SPACED`] from what comes before them, and text that follows
    /// one of them.
    pub blank_line_before: bool,
}

/// Blocks that html2text sets off with a blank line from the content before them (lists,
/// `div`s and list items follow on the next line).
const SPACED: [&str; 10] = [
    "p",
    "pre",
    "h1",
    "h2",
    "h3",
    "h4",
    "h5",
    "h6",
    "blockquote",
    "table",
];

/// Whether the piece `src` (without its reopening tags) starts with a block of [`SPACED`],
/// or with text after a piece that ended one (`after`, the end tag that ended it).
fn starts_spaced(src: &str, after: &str) -> bool {
    let first_tag = Tags::new(src).find(|t| !t.closing);
    let text_first = match &first_tag {
        Some(t) => !src[..t.range.start].trim().is_empty(),
        None => !src.trim().is_empty(),
    };
    if text_first {
        return SPACED.contains(&after);
    }
    first_tag.is_some_and(|t| SPACED.contains(&t.name.as_str()))
}

/// Cuts `html` into pieces of about `target` bytes: after the end tag of a block element
/// (outside any link), or after any tag once a piece is four times `target` without one.
/// A piece reopens the nesting elements (see [`MAX_DEPTH`]) still open where it starts.
pub fn plan(html: &str, target: usize) -> Vec<Piece> {
    let mut pieces = Vec::new();
    let mut open: Vec<(String, Range<usize>)> = Vec::new();
    let mut start = 0;
    let mut reopen = String::new();
    let mut in_link = 0usize;
    let mut ended_by = String::new();
    for tag in Tags::new(html) {
        if tag.name == "a" {
            if tag.closing {
                in_link = in_link.saturating_sub(1);
            } else if !tag.self_closed {
                in_link += 1;
            }
        } else if tag.nests() {
            if !tag.closing && !tag.self_closed {
                open.push((tag.name.clone(), tag.range.clone()));
            } else if tag.closing
                && let Some(at) = open.iter().rposition(|(n, _)| *n == tag.name)
            {
                open.truncate(at);
            }
        }
        let len = tag.range.end - start;
        let block_end = tag.closing && BLOCK_ENDS.contains(&tag.name.as_str());
        if in_link == 0 && (len >= 4 * target || (block_end && len >= target)) {
            let range = start..tag.range.end;
            pieces.push(Piece {
                reopen: std::mem::take(&mut reopen),
                blank_line_before: start > 0 && starts_spaced(&html[range.clone()], &ended_by),
                range,
            });
            start = tag.range.end;
            reopen = open.iter().map(|(_, r)| &html[r.clone()]).collect();
            ended_by = tag.name.clone();
        }
    }
    if start < html.len() || pieces.is_empty() {
        pieces.push(Piece {
            reopen,
            blank_line_before: start > 0 && starts_spaced(&html[start..], &ended_by),
            range: start..html.len(),
        });
    }
    pieces
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

/// One parsed piece of a page.
pub struct HtmlPage {
    dom: RcDom,
    /// The first `<meta http-equiv="refresh">`'s content, if any.
    pub refresh: Option<String>,
    /// The first `<base href>`, if any.
    pub base_href: Option<String>,
    /// Whether elements nested deeper than the DOM guard were flattened.
    pub flattened: bool,
}

impl HtmlPage {
    /// Parses `html` (decoded) and runs the DOM pass. Never recursive: safe on any nesting.
    pub fn parse(html: &str) -> Result<HtmlPage, String> {
        let dom = html2text::config::plain()
            .parse_html(html.as_bytes())
            .map_err(|e| format!("the HTML could not be parsed: {e}"))?;
        let mut page = HtmlPage {
            dom,
            refresh: None,
            base_href: None,
            flattened: false,
        };
        page.scan();
        Ok(page)
    }

    /// Finds the refresh and base, drops hidden elements, flattens what is too deep.
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
            if depth >= DOM_MAX_DEPTH && flatten(&node) {
                self.flattened = true;
            }
            for child in node.children.borrow().iter() {
                stack.push((child.clone(), depth + 1));
            }
        }
    }

    /// Makes every `<a href>` absolute against `base`.
    fn absolute_links(&self, base: &Url) {
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
    }
}

/// Replaces everything under `node` by the non-element nodes (text) of its subtree, in
/// document order, dropping hidden elements with their content. One pass over the subtree.
/// Returns whether anything changed.
fn flatten(node: &Handle) -> bool {
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
                h.parent.set(Some(Rc::downgrade(node)));
                flat.push(h);
            }
        }
    }
    *node.children.borrow_mut() = flat;
    true
}

/// The link references of a document: one number per URL, in order of first use.
#[derive(Debug, Default)]
struct References {
    numbers: HashMap<String, usize>,
    urls: Vec<String>,
}

/// html2text's plain-text decorations, with links as `[text][n]` numbered in [`References`]
/// shared by every piece (html2text's own footnotes would start again at 1 in each piece).
#[derive(Clone)]
struct Decorator {
    refs: Rc<RefCell<References>>,
    open: Vec<Option<usize>>,
}

impl TextDecorator for Decorator {
    type Annotation = ();

    fn decorate_link_start(&mut self, url: &str) -> (String, ()) {
        let number = if url.starts_with("javascript:") || url.is_empty() {
            None
        } else {
            let mut refs = self.refs.borrow_mut();
            let next = refs.urls.len() + 1;
            let n = *refs.numbers.entry(url.to_owned()).or_insert(next);
            if n == next {
                refs.urls.push(url.to_owned());
            }
            Some(n)
        };
        self.open.push(number);
        ("[".to_owned(), ())
    }

    fn decorate_link_end(&mut self) -> String {
        match self.open.pop().flatten() {
            Some(n) => format!("][{n}]"),
            None => "]".to_owned(),
        }
    }

    fn decorate_em_start(&self) -> (String, ()) {
        (String::new(), ())
    }

    fn decorate_em_end(&self) -> String {
        String::new()
    }

    fn decorate_strong_start(&self) -> (String, ()) {
        (String::new(), ())
    }

    fn decorate_strong_end(&self) -> String {
        String::new()
    }

    fn decorate_strikeout_start(&self) -> (String, ()) {
        (String::new(), ())
    }

    fn decorate_strikeout_end(&self) -> String {
        String::new()
    }

    fn decorate_code_start(&self) -> (String, ()) {
        (String::new(), ())
    }

    fn decorate_code_end(&self) -> String {
        String::new()
    }

    fn decorate_preformat_first(&self) {}

    fn decorate_preformat_cont(&self) {}

    fn decorate_image(&mut self, _src: &str, title: &str) -> (String, ()) {
        (format!("[{title}]"), ())
    }

    fn header_prefix(&self, level: usize) -> String {
        "#".repeat(level) + " "
    }

    fn quote_prefix(&self) -> String {
        "> ".to_owned()
    }

    fn unordered_item_prefix(&self) -> String {
        "* ".to_owned()
    }

    fn ordered_item_prefix(&self, i: i64) -> String {
        format!("{i}. ")
    }

    fn make_subblock_decorator(&self) -> Self {
        Decorator {
            refs: self.refs.clone(),
            open: Vec::new(),
        }
    }

    fn finalise(&mut self, _urls: Vec<String>) -> Vec<TaggedLine<()>> {
        Vec::new()
    }
}

/// Renders the pieces of one page into one text.
pub struct Converter {
    page_url: Url,
    base: Option<Url>,
    width: usize,
    refs: Rc<RefCell<References>>,
    text: String,
}

impl Converter {
    /// A converter for the page at `page_url`, wrapping at `width` columns.
    pub fn new(page_url: &Url, width: usize) -> Converter {
        Converter {
            page_url: page_url.clone(),
            base: None,
            width,
            refs: Rc::default(),
            text: String::new(),
        }
    }

    /// Renders the next piece, after a blank line when `blank_line_before` (see [`Piece`]).
    /// Links are made absolute against the first `<base href>` seen (resolved against the
    /// page's URL), else the page's URL.
    pub fn add(&mut self, page: HtmlPage, blank_line_before: bool) -> Result<(), String> {
        if self.base.is_none()
            && let Some(href) = &page.base_href
        {
            self.base = self.page_url.join(href.trim()).ok();
        }
        page.absolute_links(self.base.as_ref().unwrap_or(&self.page_url));
        let config = html2text::config::with_decorator(Decorator {
            refs: self.refs.clone(),
            open: Vec::new(),
        })
        .do_decorate();
        let tree = config
            .dom_to_render_tree(&page.dom)
            .map_err(|e| format!("the HTML could not be converted: {e}"))?;
        let text = config
            .render_to_string(tree, self.width)
            .map_err(|e| format!("the HTML could not be converted: {e}"))?;
        if blank_line_before
            && !text.trim().is_empty()
            && !self.text.is_empty()
            && !self.text.ends_with("\n\n")
        {
            if !self.text.ends_with('\n') {
                self.text.push('\n');
            }
            self.text.push('\n');
        }
        // html2text pads table cells to their column's width: spaces at the end of a line
        // only cost the reader.
        for line in text.split_inclusive('\n') {
            let body = line.strip_suffix('\n').unwrap_or(line);
            self.text.push_str(body.trim_end_matches(' '));
            if body.len() < line.len() {
                self.text.push('\n');
            }
        }
        Ok(())
    }

    /// The text, then the references (`[1]: https://...`), one a line.
    pub fn finish(mut self) -> String {
        let refs = self.refs.borrow();
        if !refs.urls.is_empty() {
            if !self.text.ends_with('\n') {
                self.text.push('\n');
            }
            self.text.push('\n');
            for (i, url) in refs.urls.iter().enumerate() {
                self.text.push_str(&format!("[{}]: {url}\n", i + 1));
            }
        }
        drop(refs);
        self.text
    }
}

/// Converts a whole page in one go (what [`super::fetch_document`] does piece by piece, with
/// the deadline between pieces): for tests and tools that hold the HTML already.
pub fn to_text(html: &str, page_url: &Url, width: usize) -> Result<String, String> {
    let capped = cap_nesting(html);
    let src = capped.as_deref().unwrap_or(html);
    let mut conv = Converter::new(page_url, width);
    for piece in plan(src, PIECE_BYTES) {
        let text = format!("{}{}", piece.reopen, &src[piece.range]);
        conv.add(HtmlPage::parse(&text)?, piece.blank_line_before)?;
    }
    Ok(conv.finish())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn url() -> Url {
        Url::parse("http://h.test/x/y").unwrap()
    }

    #[test]
    fn tags_skip_comments_and_raw_text() {
        let src = "<!doctype html><p>a<!-- <div> --><script>if (a<b) {}</script><DIV class='x>y'>b</div><br/>";
        let names: Vec<(String, bool, bool)> = Tags::new(src)
            .map(|t| (t.name, t.closing, t.self_closed))
            .collect();
        assert_eq!(
            names,
            [
                ("p".into(), false, false),
                ("script".into(), false, false),
                ("div".into(), false, false),
                ("div".into(), true, false),
                ("br".into(), false, true),
            ]
        );
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
        assert_eq!(
            cap_nesting(&deep).unwrap(),
            format!(
                "{}x{}",
                "<div>".repeat(MAX_DEPTH),
                "</div>".repeat(MAX_DEPTH)
            )
        );
        let many = "<p><a href=x>link".repeat(5 * MAX_DEPTH);
        assert_eq!(cap_nesting(&many), None);
    }

    #[test]
    fn pieces_cover_the_source_and_reopen_what_is_open() {
        let src = format!(
            "<html><body><div id=main><ul>{}</ul></div><p>end</p>",
            "<li>item text</li>".repeat(100)
        );
        let pieces = plan(&src, 200);
        assert!(pieces.len() > 5, "{}", pieces.len());
        let mut at = 0;
        for p in &pieces {
            assert_eq!(p.range.start, at);
            at = p.range.end;
        }
        assert_eq!(at, src.len());
        assert_eq!(pieces[0].reopen, "");
        assert_eq!(pieces[1].reopen, "<div id=main><ul>");
        assert!(src[pieces[0].range.clone()].ends_with("</li>"));
        // Never inside a link.
        let links = format!("<p>{}</p>", "<a href=x>a long link text</a> ".repeat(50));
        for p in plan(&links, 30) {
            let text = &links[p.range];
            assert_eq!(
                text.matches("<a ").count(),
                text.matches("</a>").count(),
                "{text}"
            );
        }
    }

    #[test]
    fn links_absolute_numbered_once_per_url_hidden_dropped() {
        let html = "<html><head><base href='/docs/'><style>p{}</style></head><body>\
                    <p>Hi <a href='a.html'>A</a>, <a href='https://o.test/'>O</a> and \
                    <a href='a.html'>A again</a> <a href='javascript:void(0)'>js</a></p>\
                    <noscript>NOJS</noscript><template>TPL</template><script>var s;</script>\
                    <img src=i.png alt=Logo></body>";
        let text = to_text(html, &url(), 80).unwrap();
        assert!(
            text.contains("Hi [A][1], [O][2] and [A again][1] [js]"),
            "{text}"
        );
        assert!(
            text.ends_with("\n\n[1]: http://h.test/docs/a.html\n[2]: https://o.test/\n"),
            "{text}"
        );
        assert!(text.contains("[Logo]"), "{text}");
        for gone in ["NOJS", "TPL", "var s", "p{}"] {
            assert!(!text.contains(gone), "{gone} in {text}");
        }
    }

    #[test]
    fn pieces_render_like_the_whole() {
        let body: String = (0..400)
            .map(|i| {
                format!(
                    "<h2>Part {i}</h2><p>Text of part {i} with <a href='/p{i}'>a link</a>.</p>\
                     <ul><li>one {i}</li><li>two</li><li>three</li></ul><p>after</p>"
                )
            })
            .collect();
        let html = format!("<html><body><div class=content>{body}</div></body></html>");
        let whole = {
            let mut c = Converter::new(&url(), 100);
            c.add(HtmlPage::parse(&html).unwrap(), false).unwrap();
            c.finish()
        };
        let pieces = plan(&html, 1000);
        assert!(pieces.len() > 10);
        let mut c = Converter::new(&url(), 100);
        for p in pieces {
            let text = format!("{}{}", p.reopen, &html[p.range]);
            c.add(HtmlPage::parse(&text).unwrap(), p.blank_line_before)
                .unwrap();
        }
        let joined = c.finish();
        if joined != whole {
            let at = joined
                .bytes()
                .zip(whole.bytes())
                .position(|(a, b)| a != b)
                .unwrap_or(0);
            panic!(
                "differ at {at}: pieces {:?} whole {:?}",
                &joined[at.saturating_sub(80)..(at + 80).min(joined.len())],
                &whole[at.saturating_sub(80)..(at + 80).min(whole.len())]
            );
        }
    }

    #[test]
    fn refresh_and_base_are_found() {
        let page = HtmlPage::parse(
            "<head><meta http-equiv=REFRESH content='1;url=x'><base href='/b/'></head>",
        )
        .unwrap();
        assert_eq!(page.refresh.as_deref(), Some("1;url=x"));
        assert_eq!(page.base_href.as_deref(), Some("/b/"));
    }

    #[test]
    fn deep_nesting_is_capped_not_fatal() {
        let n = 20_000;
        let html = format!("{}deep text{}", "<div>".repeat(n), "</div>".repeat(n));
        assert!(cap_nesting(&html).is_some());
        let text = to_text(&html, &url(), 80).unwrap();
        assert!(text.contains("deep text"), "{text}");
    }

    #[test]
    fn table_cells_lose_their_trailing_padding() {
        let html = "<table><tr><th>Name</th><th>Note</th></tr><tr><td>a</td>\
                    <td>a longer note</td></tr></table>";
        let text = to_text(html, &url(), 100).unwrap();
        assert!(text.contains("Name│Note\n"), "{text}");
        assert!(!text.lines().any(|l| l.ends_with(' ')), "{text}");
    }
}
