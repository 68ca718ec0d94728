//! Markdown where a model reads it best (issue 18 §6), as a pass over one piece's DOM before
//! html2text renders it; html2text stays the engine.
//!
//! - `<title>`: its text is taken out for the `Title: ...` line that starts the page.
//! - `<pre>`: a fenced code block, ```` ```x ```` when the `pre` or its `code` has a
//!   `language-x` (or `lang-x`) class; the `code` inside is unwrapped so it gets no backticks
//!   of its own (inline `code` gets them from html2text's `do_decorate`).
//! - `<table>`: a Markdown pipe table (the first row as the header, a separator, one row a
//!   line; a cell's line breaks as `<br>`, `|` escaped, tables inside a cell flattened to
//!   their text); a table wider than the width becomes one `header: value` block per row.
//!   Each cell is rendered by html2text on its own (so its links are numbered like the rest),
//!   and the table is put back as a `pre` holding the Markdown.

use std::rc::Rc;

use html2text::{Handle, RcDom, local_name, ns};
use html5ever::QualName;
use html5ever::interface::{ElementFlags, NodeOrText, TreeSink};

use super::{HtmlPage, attr, element_name};

/// Renders a document to text at a width (the converter's html2text configuration).
pub type Render<'a> = dyn Fn(&RcDom, usize) -> Result<String, String> + 'a;

/// Width a cell or title is rendered at: wide enough never to wrap.
const NO_WRAP: usize = 100_000;

impl HtmlPage {
    /// The Markdown pass (see the module doc). Returns the page's title, when it has one, and
    /// the Markdown of each table: the DOM holds [`table_marker`]`(i)` in its place, for the
    /// caller to replace after rendering (html2text would wrap the lines of a wide one).
    pub(super) fn markdown(
        &self,
        width: usize,
        render: &Render<'_>,
    ) -> (Option<String>, Vec<String>) {
        let (titles, pres, tables) = self.collect();
        let title = titles.first().and_then(|t| {
            let text = self.render_children(t, render).ok()?;
            let text = text.split_whitespace().collect::<Vec<_>>().join(" ");
            (!text.is_empty()).then_some(text)
        });
        for pre in &pres {
            self.fence(pre);
        }
        let mut texts = Vec::new();
        for table in tables.iter().filter(|t| regular(t)) {
            if let Ok(text) = self.table_text(table, width, render) {
                self.replace_with_pre(table, &table_marker(texts.len()));
                texts.push(text);
            }
        }
        (title, texts)
    }

    /// Every `title`, outermost `pre` and outermost `table`, in document order.
    fn collect(&self) -> (Vec<Handle>, Vec<Handle>, Vec<Handle>) {
        let (mut titles, mut pres, mut tables) = (Vec::new(), Vec::new(), Vec::new());
        let mut stack = vec![(self.dom.document.clone(), false, false)];
        while let Some((node, in_pre, in_table)) = stack.pop() {
            let (mut in_pre, mut in_table) = (in_pre, in_table);
            match element_name(&node) {
                Some("title") => titles.push(node.clone()),
                Some("pre") if !in_pre => {
                    pres.push(node.clone());
                    in_pre = true;
                }
                Some("table") if !in_table => {
                    tables.push(node.clone());
                    in_table = true;
                }
                _ => {}
            }
            let kids = node.children.borrow();
            stack.extend(kids.iter().rev().map(|k| (k.clone(), in_pre, in_table)));
        }
        (titles, pres, tables)
    }

    /// Unwraps the `code` children of `pre` and puts fences around its content.
    fn fence(&self, pre: &Handle) {
        let mut language = language(pre);
        let kids = std::mem::take(&mut *pre.children.borrow_mut());
        let mut unwrapped = Vec::new();
        for kid in kids {
            if element_name(&kid) == Some("code") {
                language = language.or_else(|| self::language(&kid));
                let inner = std::mem::take(&mut *kid.children.borrow_mut());
                unwrapped.extend(inner);
            } else {
                unwrapped.push(kid);
            }
        }
        for kid in &unwrapped {
            kid.parent.set(Some(Rc::downgrade(pre)));
        }
        *pre.children.borrow_mut() = unwrapped;
        let open = format!("```{}\n", language.unwrap_or_default());
        let first = pre.children.borrow().first().cloned();
        match first {
            Some(first) => self
                .dom
                .append_before_sibling(&first, NodeOrText::AppendText(open.into())),
            None => self.dom.append(pre, NodeOrText::AppendText(open.into())),
        }
        self.dom.append(pre, NodeOrText::AppendText("\n```".into()));
    }

    /// `node`'s children rendered on their own (moved into a document of their own).
    fn render_children(&self, node: &Handle, render: &Render<'_>) -> Result<String, String> {
        let mini = RcDom::default();
        let name = QualName::new(None, ns!(html), local_name!("div"));
        let div = mini.create_element(name, Vec::new(), ElementFlags::default());
        let kids = std::mem::take(&mut *node.children.borrow_mut());
        for kid in &kids {
            kid.parent.set(Some(Rc::downgrade(&div)));
        }
        *div.children.borrow_mut() = kids;
        div.parent.set(Some(Rc::downgrade(&mini.document)));
        mini.document.children.borrow_mut().push(div);
        render(&mini, NO_WRAP)
    }

    /// The Markdown for `table`: a pipe table when it fits `width`, else `header: value`
    /// blocks.
    fn table_text(
        &self,
        table: &Handle,
        width: usize,
        render: &Render<'_>,
    ) -> Result<String, String> {
        let mut rows: Vec<Vec<String>> = Vec::new();
        for tr in rows_of(table) {
            let mut cells = Vec::new();
            let kids: Vec<Handle> = tr.children.borrow().clone();
            for cell in kids {
                if !matches!(element_name(&cell), Some("td" | "th")) {
                    continue;
                }
                // A cell holding tables becomes its text (html2text would draw them).
                let mut stack: Vec<Handle> = cell.children.borrow().clone();
                while let Some(node) = stack.pop() {
                    if element_name(&node) == Some("table") {
                        self.flatten(&cell);
                        break;
                    }
                    stack.extend(node.children.borrow().iter().cloned());
                }
                let text = self.render_children(&cell, render)?;
                let lines: Vec<&str> = text
                    .lines()
                    .map(str::trim)
                    .filter(|l| !l.is_empty())
                    .collect();
                cells.push(lines.join("<br>").replace('|', "\\|"));
            }
            if !cells.is_empty() {
                rows.push(cells);
            }
        }
        let columns = rows.iter().map(Vec::len).max().unwrap_or(0);
        if columns == 0 {
            return Ok(String::new());
        }
        for row in &mut rows {
            row.resize(columns, String::new());
        }
        let line = |row: &[String]| format!("| {} |", row.join(" | "));
        let mut out = vec![line(&rows[0]), line(&vec!["---".to_string(); columns])];
        out.extend(rows[1..].iter().map(|r| line(r)));
        if out.iter().all(|l| l.chars().count() <= width) {
            return Ok(out.join("\n"));
        }
        // Too wide: one block per row, each value under its header.
        let headers: Vec<String> = rows[0]
            .iter()
            .enumerate()
            .map(|(i, h)| {
                if h.is_empty() {
                    format!("column {}", i + 1)
                } else {
                    h.clone()
                }
            })
            .collect();
        let blocks: Vec<String> = rows[1..]
            .iter()
            .map(|row| {
                headers
                    .iter()
                    .zip(row)
                    .map(|(h, v)| format!("{h}: {v}"))
                    .collect::<Vec<_>>()
                    .join("\n")
            })
            .collect();
        Ok(blocks.join("\n\n"))
    }

    /// Puts a `pre` holding `text` where `old` was.
    fn replace_with_pre(&self, old: &Handle, text: &str) {
        let Some(parent) = old.parent.take().and_then(|p| p.upgrade()) else {
            return;
        };
        let name = QualName::new(None, ns!(html), local_name!("pre"));
        let pre = self
            .dom
            .create_element(name, Vec::new(), ElementFlags::default());
        if !text.is_empty() {
            self.dom.append(&pre, NodeOrText::AppendText(text.into()));
        }
        pre.parent.set(Some(Rc::downgrade(&parent)));
        for child in parent.children.borrow_mut().iter_mut() {
            if Rc::ptr_eq(child, old) {
                *child = pre.clone();
            }
        }
    }
}

/// What stands for the `i`th table's Markdown in the rendered text, alone on its line.
pub(super) fn table_marker(i: usize) -> String {
    format!("\u{E000}agtool-table-{i}\u{E000}")
}

/// Whether `table` has the plain structure a pipe table can show (see [`simple`]) and holds
/// at most [`MAX_NESTED`] tables, which are flattened into their cell.
fn regular(table: &Handle) -> bool {
    if !simple(table) {
        return false;
    }
    let mut nested = 0;
    let mut stack: Vec<Handle> = table.children.borrow().clone();
    while let Some(node) = stack.pop() {
        if element_name(&node) == Some("table") {
            nested += 1;
            if nested > MAX_NESTED {
                return false;
            }
        }
        stack.extend(node.children.borrow().iter().cloned());
    }
    true
}

/// Most tables inside one table for it to become a pipe table; more (a layout built of
/// tables, or a pathological nest) are left to html2text, which keeps their text.
const MAX_NESTED: usize = 8;

/// Whether `table` has the plain structure a pipe table can show: rows directly or in
/// `thead`/`tbody`/`tfoot`, cells in rows, nothing else but `caption`/`colgroup`. Tables the
/// DOM pass turned into `div`s, or built otherwise, are left to html2text.
fn simple(table: &Handle) -> bool {
    let row_ok = |tr: &Handle| {
        tr.children
            .borrow()
            .iter()
            .all(|c| matches!(element_name(c), None | Some("td" | "th")))
    };
    table
        .children
        .borrow()
        .iter()
        .all(|child| match element_name(child) {
            None | Some("caption" | "colgroup" | "col") => true,
            Some("tr") => row_ok(child),
            Some("thead" | "tbody" | "tfoot") => {
                child
                    .children
                    .borrow()
                    .iter()
                    .all(|c| match element_name(c) {
                        None => true,
                        Some("tr") => row_ok(c),
                        _ => false,
                    })
            }
            _ => false,
        })
}

/// The `tr`s of a table: its own and those of its `thead`, `tbody` and `tfoot`, in order.
fn rows_of(table: &Handle) -> Vec<Handle> {
    let mut rows = Vec::new();
    for child in table.children.borrow().iter() {
        match element_name(child) {
            Some("tr") => rows.push(child.clone()),
            Some("thead" | "tbody" | "tfoot") => rows.extend(
                child
                    .children
                    .borrow()
                    .iter()
                    .filter(|c| element_name(c) == Some("tr"))
                    .cloned(),
            ),
            _ => {}
        }
    }
    rows
}

/// The `x` of a `language-x` or `lang-x` class.
fn language(node: &Handle) -> Option<String> {
    let class = attr(node, "class")?;
    class.split_whitespace().find_map(|c| {
        c.strip_prefix("language-")
            .or_else(|| c.strip_prefix("lang-"))
            .filter(|l| {
                !l.is_empty()
                    && l.chars()
                        .all(|ch| ch.is_ascii_alphanumeric() || "+-_#.".contains(ch))
            })
            .map(str::to_string)
    })
}

#[cfg(test)]
mod tests {
    use url::Url;

    #[test]
    fn inline_code_gets_one_pair_of_backticks() {
        let url = Url::parse("http://h.test/").unwrap();
        let text =
            super::super::to_text("<p>Call <code>run()</code> first.</p>", &url, 100).unwrap();
        assert_eq!(text, "Call `run()` first.\n");
    }
}
