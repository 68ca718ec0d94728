//! Cutting HTML before it is parsed (spec 06, "HTML to text"): a light scan of the tags
//! ([`Tags`]) that leaves out tags nested deeper than [`MAX_DEPTH`] ([`cap_nesting`]) and cuts
//! a page into pieces at block boundaries, each reopening the elements still open where it
//! starts ([`plan`]).

use std::ops::Range;

/// Deepest nesting kept, counting elements that hold others and need an end tag; deeper
/// tags are left out and their text kept. The HTML parser's time grows with the depth of
/// the open elements for every tag: 20,000 nested `<div>`s took minutes.
pub const MAX_DEPTH: usize = 256;

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
    /// sets off the blocks of `SPACED` from what comes before them, and text that follows
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

#[cfg(test)]
mod tests {
    use super::*;

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
}
