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
//!   absolute, lists, quotes and tables nested deeper than [`MAX_INDENT`] levels made `div`s
//!   (html2text would run out of width) and what is nested deeper than the DOM guard
//!   flattened to its text.
//! - The decorator ([`Converter`]) numbers links across the pieces, one number per URL, and
//!   the references follow the text: `[text][1]` ... `[1]: https://...`.

use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::Rc;

use html2text::render::{TaggedLine, TextDecorator};
use html2text::{Element, Handle, RcDom, local_name, ns};
use html5ever::QualName;
use html5ever::interface::{ElementFlags, NodeOrText, TreeSink};
use url::Url;

mod markdown;
mod pieces;

pub use pieces::{MAX_DEPTH, PIECE_BYTES, Piece, Tag, Tags, cap_nesting, plan};

/// Elements that never show (html2text drops `script`, `style` and the head by itself).
const DROPPED: [&str; 4] = ["noscript", "template", "script", "style"];

/// Deepest DOM nesting kept after the scan, which counts only some elements: a second
/// guard that flattens what is deeper.
const DOM_MAX_DEPTH: usize = 2 * MAX_DEPTH;

/// Most levels of elements that indent their content or share the width out ([`INDENTING`])
/// kept on one path: html2text gives each a prefix (`> `, `* `, `10. `) or a table column,
/// and refuses a page ("Output width not wide enough") or drops table cells once the width
/// is used up. Deeper ones, with their table parts and list items, become `div`s: their text
/// stays, one block a line, without more indentation.
pub const MAX_INDENT: usize = 20;

/// Elements that cost width (see [`MAX_INDENT`]); each counts one level.
const INDENTING: [&str; 9] = [
    "blockquote",
    "ul",
    "ol",
    "menu",
    "dir",
    "dl",
    "dd",
    "li",
    "table",
];

/// Parts of lists and tables that become `div`s with the container above [`MAX_INDENT`].
const INDENT_PARTS: [&str; 8] = ["dt", "tbody", "thead", "tfoot", "tr", "td", "th", "caption"];

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
    /// Whether elements nested deeper than [`MAX_INDENT`] were made `div`s.
    pub unindented: bool,
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
            unindented: false,
        };
        page.scan();
        Ok(page)
    }

    /// Finds the refresh and base, drops hidden elements, flattens what is too deep and
    /// makes `div`s of what indents too deep (see [`MAX_INDENT`]).
    fn scan(&mut self) {
        // (node, depth, levels of INDENTING elements from the root to it, itself included)
        let mut stack: Vec<(Handle, usize, usize)> = vec![(self.dom.document.clone(), 0, 0)];
        while let Some((node, depth, levels)) = stack.pop() {
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
            // html2text shows only the items of a list (`li`) or a `dl` (`dt`, `dd`): an item
            // stays an item while its list stays a list.
            let list = match element_name(&node) {
                Some("ul" | "ol" | "menu" | "dir") => ["li"].as_slice(),
                Some("dl") => ["dt", "dd"].as_slice(),
                _ => [].as_slice(),
            };
            let mut children = node.children.borrow_mut();
            for child in children.iter_mut() {
                let name = element_name(child);
                let levels = levels + usize::from(name.is_some_and(|n| INDENTING.contains(&n)));
                if levels > MAX_INDENT
                    && name.is_some_and(|n| {
                        (INDENTING.contains(&n) || INDENT_PARTS.contains(&n)) && !list.contains(&n)
                    })
                {
                    *child = self.as_div(child, &node);
                    self.unindented = true;
                }
                stack.push((child.clone(), depth + 1, levels));
            }
        }
    }

    /// Replaces everything under `node` by the non-element nodes (text) of its subtree, in
    /// document order, dropping hidden elements with their content; the text on the two sides
    /// of an element that is not [`INLINE`] is kept apart by a space, so that words of two
    /// cells or blocks do not run together. One pass over the subtree. Returns whether
    /// anything changed.
    fn flatten(&self, node: &Handle) -> bool {
        if !node
            .children
            .borrow()
            .iter()
            .any(|c| element_name(c).is_some())
        {
            return false;
        }
        let mut pending: Vec<Flat> = std::mem::take(&mut *node.children.borrow_mut())
            .into_iter()
            .rev()
            .map(Flat::Node)
            .collect();
        let mut gap = false;
        while let Some(item) = pending.pop() {
            let h = match item {
                Flat::Gap => {
                    gap = !node.children.borrow().is_empty();
                    continue;
                }
                Flat::Node(h) => h,
            };
            match element_name(&h) {
                Some(n) if DROPPED.contains(&n) => {}
                Some(n) => {
                    let block = !INLINE.contains(&n);
                    let kids = std::mem::take(&mut *h.children.borrow_mut());
                    if block {
                        pending.push(Flat::Gap);
                    }
                    pending.extend(kids.into_iter().rev().map(Flat::Node));
                    if block {
                        pending.push(Flat::Gap);
                    }
                }
                None => {
                    if std::mem::take(&mut gap) {
                        // Joins the last text node when there is one (html2text folds the
                        // white space).
                        self.dom.append(node, NodeOrText::AppendText(" ".into()));
                    }
                    h.parent.set(Some(Rc::downgrade(node)));
                    node.children.borrow_mut().push(h);
                }
            }
        }
        true
    }

    /// A new `div` under `parent` holding `old`'s attributes and children, to take `old`'s
    /// place.
    fn as_div(&self, old: &Handle, parent: &Handle) -> Handle {
        let attrs = match &old.data {
            Element { attrs, .. } => std::mem::take(&mut *attrs.borrow_mut()),
            _ => Vec::new(),
        };
        let name = QualName::new(None, ns!(html), local_name!("div"));
        let div = self
            .dom
            .create_element(name, attrs, ElementFlags::default());
        let kids = std::mem::take(&mut *old.children.borrow_mut());
        for kid in &kids {
            kid.parent.set(Some(Rc::downgrade(&div)));
        }
        *div.children.borrow_mut() = kids;
        div.parent.set(Some(Rc::downgrade(parent)));
        old.parent.set(None);
        div
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

/// Elements whose start and end run inside a line: flattening them joins the text on both
/// sides as it is; any other element's bounds become a space (see [`HtmlPage::flatten`]).
const INLINE: [&str; 28] = [
    "a", "abbr", "b", "bdi", "bdo", "big", "cite", "code", "data", "dfn", "em", "font", "i", "kbd",
    "mark", "nobr", "q", "s", "samp", "small", "span", "strike", "strong", "sub", "sup", "time",
    "tt", "u",
];

/// An item of [`HtmlPage::flatten`]'s work list.
enum Flat {
    Node(Handle),
    /// The bound of an element that is not [`INLINE`]: the text on its two sides is apart.
    Gap,
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

    // Inline code gets its backticks in the Markdown pass.
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
    title: Option<String>,
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
            title: None,
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
        let refs = self.refs.clone();
        let render = move |dom: &RcDom, width: usize| -> Result<String, String> {
            // A last guard: a line wider than the width rather than no text at all.
            let config = html2text::config::with_decorator(Decorator {
                refs: refs.clone(),
                open: Vec::new(),
            })
            .do_decorate()
            .allow_width_overflow();
            let tree = config
                .dom_to_render_tree(dom)
                .map_err(|e| format!("the HTML could not be converted: {e}"))?;
            config
                .render_to_string(tree, width)
                .map_err(|e| format!("the HTML could not be converted: {e}"))
        };
        let (title, tables) = page.markdown(self.width, &render);
        if self.title.is_none() {
            self.title = title;
        }
        let mut text = render(&page.dom, self.width)?;
        for (i, table) in tables.iter().enumerate() {
            text = text.replacen(&markdown::table_marker(i), table, 1);
        }
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

    /// `Title: <title>` and a blank line when the page has a title, the text, then the
    /// references (`[1]: https://...`), one a line.
    pub fn finish(mut self) -> String {
        if let Some(title) = self.title.take() {
            self.text = format!("Title: {title}\n\n{}", self.text);
        }
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
        assert!(
            text.contains("| Name | Note |\n| --- | --- |\n| a | a longer note |\n"),
            "{text}"
        );
        assert!(!text.lines().any(|l| l.ends_with(' ')), "{text}");
    }
}
