//! Jupyter notebooks (`.ipynb`, nbformat 4): reading cells for a model and editing one cell in
//! place (spec 09, "Images, PDFs, notebooks, several files at once").
//!
//! Reading parses the file with serde_json. Editing never re-serialises the file: the byte
//! span of every cell in the raw text is found by [`cell_spans`], and only the changed cell's
//! bytes are replaced (or inserted, or removed with one separator), so key order, indentation
//! and every other cell stay byte-identical.

use std::fmt::Write as _;
use std::ops::Range;

use serde_json::{Map, Value};

/// Most characters of one text output shown.
pub const MAX_OUTPUT_CHARS: usize = 2000;

/// Why a notebook cannot be read or edited: the refusal's message.
pub type NbError = String;

/// A parsed notebook: the top-level object and its cells.
#[derive(Debug)]
pub struct Notebook {
    /// The whole document.
    pub doc: Map<String, Value>,
}

/// Parses `text` as an nbformat 4 notebook. Errors name the file (`spelled`): not JSON (with
/// serde's line and column), not an object, nbformat other than 4, `cells` missing or not a
/// list, or a cell breaking the format's rules ([`check_cell`]).
pub fn parse(spelled: &str, text: &str) -> Result<Notebook, NbError> {
    let value: Value = serde_json::from_str(text)
        .map_err(|e| format!("{spelled} is not a notebook: it is not valid JSON ({e})"))?;
    let Value::Object(doc) = value else {
        return Err(format!(
            "{spelled} is not a notebook: its JSON is not an object"
        ));
    };
    // serde_json keeps the last of two equal keys; edits work on the raw bytes, which would
    // then change a part the read never showed: such a file is refused.
    let b = text.as_bytes();
    if let Some(key) = duplicate_key(b, skip_ws(b, 0)) {
        return Err(format!(
            "{spelled} is not a notebook agtool can read safely: the key {key:?} appears twice \
             at its top level (remove one)"
        ));
    }
    if let Some((_, spans)) = cell_spans(b) {
        for (i, span) in spans.iter().enumerate() {
            if let Some(key) = duplicate_key(b, span.start) {
                return Err(format!(
                    "{spelled}: cell {}: the key {key:?} appears twice (remove one)",
                    i + 1
                ));
            }
        }
    }
    match doc.get("nbformat").and_then(Value::as_u64) {
        Some(4) => {}
        Some(n) => {
            return Err(format!(
                "{spelled} is nbformat {n}; only nbformat 4 notebooks are read (convert it with \
                 `jupyter nbconvert --to notebook`)"
            ));
        }
        None => {
            return Err(format!(
                "{spelled} is not a notebook: it has no nbformat number"
            ));
        }
    }
    let Some(Value::Array(cells)) = doc.get("cells") else {
        return Err(format!(
            "{spelled} is not a notebook: it has no `cells` list"
        ));
    };
    let minor = doc
        .get("nbformat_minor")
        .and_then(Value::as_u64)
        .unwrap_or(0);
    let mut ids = std::collections::HashSet::new();
    for (i, cell) in cells.iter().enumerate() {
        check_cell(cell, minor).map_err(|why| format!("{spelled}: cell {}: {why}", i + 1))?;
        if let Some(id) = cell.get("id").and_then(Value::as_str)
            && !ids.insert(id.to_owned())
        {
            return Err(format!(
                "{spelled}: cell {}: the id {id:?} is used twice",
                i + 1
            ));
        }
    }
    Ok(Notebook { doc })
}

/// Checks one cell against the nbformat 4 rules that matter to readers and writers:
/// an object with `cell_type` code, markdown or raw, `metadata` an object, `source` a string
/// or a list of strings, a code cell's `outputs` a list and `execution_count` an integer or
/// null, an `id` of 1-64 characters from `[A-Za-z0-9_-]` (required from nbformat 4.5).
pub fn check_cell(cell: &Value, minor: u64) -> Result<(), String> {
    let Value::Object(c) = cell else {
        return Err("not an object".to_owned());
    };
    let kind = c.get("cell_type").and_then(Value::as_str).unwrap_or("");
    if !matches!(kind, "code" | "markdown" | "raw") {
        return Err(format!(
            "cell_type {:?} is not code, markdown or raw",
            c.get("cell_type").unwrap_or(&Value::Null)
        ));
    }
    if !matches!(c.get("metadata"), Some(Value::Object(_))) {
        return Err("metadata is missing or not an object".to_owned());
    }
    match c.get("source") {
        Some(Value::String(_)) => {}
        Some(Value::Array(parts)) if parts.iter().all(Value::is_string) => {}
        _ => return Err("source is missing or not text".to_owned()),
    }
    match c.get("id") {
        Some(Value::String(id)) if !valid_id(id) => {
            return Err(format!("id {id:?} is not 1-64 letters, digits, - or _"));
        }
        Some(Value::String(_)) => {}
        Some(_) => return Err("id is not a string".to_owned()),
        None if minor >= 5 => return Err("it has no id (required from nbformat 4.5)".to_owned()),
        None => {}
    }
    if kind == "code" {
        if !matches!(c.get("outputs"), Some(Value::Array(_))) {
            return Err("a code cell without an outputs list".to_owned());
        }
        match c.get("execution_count") {
            Some(Value::Null) => {}
            Some(Value::Number(n)) if n.is_u64() => {}
            _ => return Err("execution_count is missing or not a number or null".to_owned()),
        }
    } else if c.contains_key("outputs") || c.contains_key("execution_count") {
        return Err(format!("a {kind} cell with outputs or execution_count"));
    }
    Ok(())
}

/// Whether `id` is a valid cell id (nbformat 4.5: `^[a-zA-Z0-9-_]+$`, 1-64 characters).
pub fn valid_id(id: &str) -> bool {
    (1..=64).contains(&id.len())
        && id
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
}

/// A cell's source as one string (a list of strings is joined).
pub fn source_of(cell: &Value) -> String {
    match cell.get("source") {
        Some(Value::String(s)) => s.clone(),
        Some(Value::Array(parts)) => parts.iter().filter_map(Value::as_str).collect(),
        _ => String::new(),
    }
}

/// Text of a multiline string field (string or list of strings).
fn multiline(v: Option<&Value>) -> String {
    match v {
        Some(Value::String(s)) => s.clone(),
        Some(Value::Array(parts)) => parts.iter().filter_map(Value::as_str).collect(),
        _ => String::new(),
    }
}

impl Notebook {
    /// The cells.
    pub fn cells(&self) -> &[Value] {
        match self.doc.get("cells") {
            Some(Value::Array(c)) => c,
            _ => &[],
        }
    }

    /// The kernel's language, from `metadata.kernelspec` or `metadata.language_info`.
    pub fn language(&self) -> Option<&str> {
        let meta = self.doc.get("metadata")?;
        meta.pointer("/kernelspec/language")
            .or_else(|| meta.pointer("/language_info/name"))
            .and_then(Value::as_str)
    }

    /// Whether cells carry ids (nbformat 4.5 and later).
    pub fn has_ids(&self) -> bool {
        self.doc
            .get("nbformat_minor")
            .and_then(Value::as_u64)
            .unwrap_or(0)
            >= 5
    }

    /// The 0-based index of the cell `which` names: its id, or its 1-based number as
    /// read_file shows it. Errors name what was asked and what there is.
    pub fn find(&self, spelled: &str, which: &str) -> Result<usize, NbError> {
        let cells = self.cells();
        if let Some(i) = cells
            .iter()
            .position(|c| c.get("id").and_then(Value::as_str) == Some(which))
        {
            return Ok(i);
        }
        if let Ok(n) = which.trim().parse::<usize>() {
            if n >= 1 && n <= cells.len() {
                return Ok(n - 1);
            }
            return Err(format!(
                "cell {n} is out of range: {spelled} has {} (numbered from 1)",
                crate::text::plural::count(cells.len(), "cell")
            ));
        }
        Err(format!(
            "{spelled} has no cell with id {which:?}; read it to see the ids, or give the cell's \
             number"
        ))
    }
}

/// Renders one cell as read_file shows it: `[cell 3 · code · id=ab12]`, the source as
/// `L<n>: ` lines, then the outputs summarised.
pub fn render_cell(out: &mut String, number: usize, cell: &Value) {
    let kind = cell.get("cell_type").and_then(Value::as_str).unwrap_or("?");
    match cell.get("id").and_then(Value::as_str) {
        Some(id) => {
            let _ = writeln!(out, "[cell {number} · {kind} · id={id}]");
        }
        None => {
            let _ = writeln!(out, "[cell {number} · {kind}]");
        }
    }
    let source = source_of(cell);
    if source.is_empty() {
        out.push_str("(empty)\n");
    }
    for (i, line) in source.lines().enumerate() {
        let _ = writeln!(out, "L{}: {line}", i + 1);
    }
    if let Some(Value::Array(outputs)) = cell.get("outputs")
        && !outputs.is_empty()
    {
        let count = cell
            .get("execution_count")
            .and_then(Value::as_u64)
            .map(|n| format!(" [{n}]"))
            .unwrap_or_default();
        let _ = writeln!(out, "outputs{count}:");
        for o in outputs {
            summarise_output(out, o);
        }
    }
}

fn cut(text: &str) -> String {
    let text = text.trim_end_matches('\n');
    let total = text.chars().count();
    if total <= MAX_OUTPUT_CHARS {
        return text.to_owned();
    }
    let kept: String = text.chars().take(MAX_OUTPUT_CHARS).collect();
    format!(
        "{kept}\n(output cut: {} more characters)",
        total - MAX_OUTPUT_CHARS
    )
}

/// Removes ANSI escape sequences (tracebacks are coloured).
fn strip_ansi(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut chars = s.chars().peekable();
    while let Some(c) = chars.next() {
        if c == '\u{1b}' {
            if chars.peek() == Some(&'[') {
                chars.next();
                for d in chars.by_ref() {
                    if ('@'..='~').contains(&d) {
                        break;
                    }
                }
            }
            continue;
        }
        out.push(c);
    }
    out
}

fn summarise_output(out: &mut String, o: &Value) {
    let kind = o.get("output_type").and_then(Value::as_str).unwrap_or("");
    match kind {
        "stream" => {
            let name = o.get("name").and_then(Value::as_str).unwrap_or("stdout");
            let _ = writeln!(out, "({name})\n{}", cut(&multiline(o.get("text"))));
        }
        "execute_result" | "display_data" => {
            let Some(Value::Object(data)) = o.get("data") else {
                out.push_str("(output without data)\n");
                return;
            };
            let mut shown_text = false;
            for (mime, value) in data {
                if mime == "text/plain" {
                    let _ = writeln!(out, "{}", cut(&multiline(Some(value))));
                    shown_text = true;
                } else if mime.starts_with("image/") || !shown_text {
                    let _ = writeln!(out, "({mime} output)");
                }
            }
        }
        "error" => {
            let ename = o.get("ename").and_then(Value::as_str).unwrap_or("Error");
            let evalue = o.get("evalue").and_then(Value::as_str).unwrap_or("");
            let last = match o.get("traceback") {
                Some(Value::Array(lines)) => lines
                    .iter()
                    .rev()
                    .filter_map(Value::as_str)
                    .map(strip_ansi)
                    .flat_map(|l| {
                        l.lines()
                            .rev()
                            .map(str::to_owned)
                            .collect::<Vec<_>>()
                            .into_iter()
                    })
                    .find(|l| !l.trim().is_empty()),
                _ => None,
            };
            let _ = writeln!(out, "(error) {ename}: {evalue}");
            if let Some(last) = last
                && last.trim() != format!("{ename}: {evalue}").trim()
            {
                let _ = writeln!(out, "  {}", last.trim_end());
            }
        }
        other => {
            let _ = writeln!(out, "({other} output)");
        }
    }
}

/// Which part of a notebook [`render_page`] shows, and its output budget.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Page {
    /// The first cell shown, 1-based.
    pub first: usize,
    /// Most cells shown.
    pub max_cells: usize,
    /// Most rendered lines (the budget a text read has).
    pub max_lines: usize,
    /// Most rendered bytes.
    pub max_bytes: usize,
}

/// Renders cells `page.first..` after the `[path#TAG]` header line: the summary line, then
/// whole cells while they fit `page`'s budget. A first cell larger than the budget alone is
/// cut at a line boundary with `(cell N cut at the output limit: M more lines)`. When cells
/// are left, the last line is `(K more cells; continue with offset=N)`.
/// Errors: `page.first` past the last cell (`spelled` names the file).
pub fn render_page(nb: &Notebook, spelled: &str, page: Page) -> Result<String, NbError> {
    let cells = nb.cells();
    let mut out = String::new();
    let _ = writeln!(
        out,
        "(notebook: {}{})",
        crate::text::plural::count(cells.len(), "cell"),
        nb.language().map(|l| format!(", {l}")).unwrap_or_default()
    );
    if cells.is_empty() && page.first <= 1 {
        return Ok(out);
    }
    if page.first == 0 || page.first > cells.len() {
        return Err(format!(
            "offset {} is past the end of {spelled} ({})",
            page.first,
            crate::text::plural::count(cells.len(), "cell")
        ));
    }
    let start = page.first - 1;
    let end = cells.len().min(start.saturating_add(page.max_cells.max(1)));
    let (mut lines, mut bytes) = (0usize, 0usize);
    let mut next = end;
    for (i, cell) in cells.iter().enumerate().take(end).skip(start) {
        let mut one = String::new();
        render_cell(&mut one, i + 1, cell);
        let n = one.lines().count();
        if lines + n <= page.max_lines && bytes + one.len() <= page.max_bytes {
            out.push_str(&one);
            lines += n;
            bytes += one.len();
            continue;
        }
        if i == start {
            // This cell alone is over the budget: its first lines.
            let (mut kept, mut cut_at) = (0usize, 0usize);
            for line in one.split_inclusive('\n') {
                if kept + 1 > page.max_lines || cut_at + line.len() > page.max_bytes {
                    break;
                }
                kept += 1;
                cut_at += line.len();
            }
            if kept == 0 {
                out.push_str(crate::text::render::cut_at_boundary(&one, page.max_bytes));
                out.push('\n');
                kept = 1;
            } else {
                out.push_str(&one[..cut_at]);
            }
            let _ = writeln!(
                out,
                "(cell {} cut at the output limit: {})",
                i + 1,
                crate::text::plural::count(n.saturating_sub(kept), "more line")
            );
            next = i + 1;
        } else {
            next = i;
        }
        break;
    }
    if next < cells.len() {
        let _ = writeln!(
            out,
            "({}; continue with offset={})",
            crate::text::plural::count(cells.len() - next, "more cell"),
            next + 1
        );
    }
    Ok(out)
}

// ---- byte spans -------------------------------------------------------------------------

/// Skips whitespace from `at`.
fn skip_ws(b: &[u8], mut at: usize) -> usize {
    while at < b.len() && matches!(b[at], b' ' | b'\t' | b'\n' | b'\r') {
        at += 1;
    }
    at
}

/// The end (exclusive) of the JSON string starting at `at` (its opening quote).
fn string_end(b: &[u8], at: usize) -> Option<usize> {
    let mut i = at + 1;
    while i < b.len() {
        match b[i] {
            b'\\' => i += 2,
            b'"' => return Some(i + 1),
            _ => i += 1,
        }
    }
    None
}

/// The end (exclusive) of the JSON value starting at `at` (no leading whitespace).
fn value_end(b: &[u8], at: usize) -> Option<usize> {
    match *b.get(at)? {
        b'"' => string_end(b, at),
        b'{' | b'[' => {
            let mut depth = 0usize;
            let mut i = at;
            while i < b.len() {
                match b[i] {
                    b'"' => {
                        i = string_end(b, i)?;
                        continue;
                    }
                    b'{' | b'[' => depth += 1,
                    b'}' | b']' => {
                        depth -= 1;
                        if depth == 0 {
                            return Some(i + 1);
                        }
                    }
                    _ => {}
                }
                i += 1;
            }
            None
        }
        _ => {
            let mut i = at;
            while i < b.len() && !matches!(b[i], b',' | b'}' | b']' | b' ' | b'\t' | b'\n' | b'\r')
            {
                i += 1;
            }
            Some(i)
        }
    }
}

/// The byte spans of the cells in the raw notebook text `b` (already parsed successfully, so
/// it is valid JSON): the span of the `cells` array itself, and of each element in order.
pub fn cell_spans(b: &[u8]) -> Option<(Range<usize>, Vec<Range<usize>>)> {
    let mut i = skip_ws(b, 0);
    if b.get(i) != Some(&b'{') {
        return None;
    }
    i += 1;
    loop {
        i = skip_ws(b, i);
        if b.get(i) == Some(&b'}') {
            return None;
        }
        let key_end = string_end(b, i)?;
        let key: String = serde_json::from_slice(&b[i..key_end]).ok()?;
        i = skip_ws(b, key_end);
        if b.get(i) != Some(&b':') {
            return None;
        }
        i = skip_ws(b, i + 1);
        let end = value_end(b, i)?;
        if key == "cells" {
            let array = i..end;
            let mut cells = Vec::new();
            let mut j = skip_ws(b, i + 1);
            while j < end - 1 {
                let e = value_end(b, j)?;
                cells.push(j..e);
                j = skip_ws(b, e);
                if b.get(j) == Some(&b',') {
                    j = skip_ws(b, j + 1);
                }
            }
            return Some((array, cells));
        }
        i = skip_ws(b, end);
        if b.get(i) == Some(&b',') {
            i += 1;
        }
    }
}

/// The first key that appears twice among the keys of the JSON object starting at `at` (its
/// `{`), or `None` (also when `at` is not an object). `b` is valid JSON.
fn duplicate_key(b: &[u8], at: usize) -> Option<String> {
    if b.get(at) != Some(&b'{') {
        return None;
    }
    let mut seen = std::collections::HashSet::new();
    let mut i = at + 1;
    loop {
        i = skip_ws(b, i);
        if b.get(i) != Some(&b'"') {
            return None;
        }
        let key_end = string_end(b, i)?;
        let key: String = serde_json::from_slice(&b[i..key_end]).ok()?;
        i = skip_ws(b, key_end);
        if b.get(i) != Some(&b':') {
            return None;
        }
        i = skip_ws(b, i + 1);
        i = skip_ws(b, value_end(b, i)?);
        if !seen.insert(key.clone()) {
            return Some(key);
        }
        if b.get(i) != Some(&b',') {
            return None;
        }
        i += 1;
    }
}

/// How the file lays out JSON: the indent unit (`None` for compact JSON) and the line break.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Layout {
    /// One level of indentation (nbformat writes one space), `None` when compact.
    pub indent: Option<String>,
    /// `\n` or `\r\n`.
    pub eol: &'static str,
}

/// The layout of the raw notebook text `b`: the whitespace before its first key.
pub fn layout(b: &[u8]) -> Layout {
    let open = b.iter().position(|&c| c == b'{').unwrap_or(0);
    let rest = &b[open + 1..];
    let ws_len = rest
        .iter()
        .position(|c| !matches!(c, b' ' | b'\t' | b'\n' | b'\r'))
        .unwrap_or(0);
    let ws = &rest[..ws_len];
    let eol = if ws.starts_with(b"\r\n") {
        "\r\n"
    } else {
        "\n"
    };
    match ws.iter().rposition(|&c| c == b'\n') {
        Some(nl) => Layout {
            indent: Some(String::from_utf8_lossy(&ws[nl + 1..]).into_owned()),
            eol,
        },
        None => Layout { indent: None, eol },
    }
}

/// `value` serialised as the file lays out JSON, for a value nested `depth` levels deep
/// (a cell is at depth 2: inside the document and its `cells` list). Keys keep their order.
pub fn serialise(value: &Value, layout: &Layout, depth: usize) -> String {
    let Some(unit) = &layout.indent else {
        return serde_json::to_string(value).unwrap_or_default();
    };
    let mut buf = Vec::new();
    let fmt = serde_json::ser::PrettyFormatter::with_indent(unit.as_bytes());
    let mut ser = serde_json::Serializer::with_formatter(&mut buf, fmt);
    serde::Serialize::serialize(value, &mut ser).ok();
    let text = String::from_utf8(buf).unwrap_or_default();
    let pad = unit.repeat(depth);
    let mut out = String::with_capacity(text.len() + 64);
    for (i, line) in text.split('\n').enumerate() {
        if i > 0 {
            out.push_str(layout.eol);
            out.push_str(&pad);
        }
        out.push_str(line);
    }
    out
}

/// A source text as nbformat writes it: a list of lines, each keeping its `\n`.
pub fn source_value(source: &str) -> Value {
    Value::Array(
        source
            .split_inclusive('\n')
            .map(|l| Value::String(l.to_owned()))
            .collect(),
    )
}

/// A fresh cell id: 8 hex digits from the clock and a counter, not among `taken`.
pub fn new_id(taken: &[&str]) -> String {
    use std::sync::atomic::{AtomicU64, Ordering};
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    loop {
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_nanos() as u64)
            .unwrap_or(0);
        let n = COUNTER.fetch_add(1, Ordering::Relaxed);
        let seed = format!("{nanos}:{n}:{}", std::process::id());
        let id = format!("{:08x}", crate::text::tag::fnv1a32(seed.as_bytes()));
        if !taken.contains(&id.as_str()) {
            return id;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const NB: &str = "{\n \"cells\": [\n  {\n   \"cell_type\": \"code\",\n   \"execution_count\": 1,\n   \"id\": \"a1\",\n   \"metadata\": {},\n   \"outputs\": [],\n   \"source\": [\"x = \\\"]\\\"\\n\", \"x\"]\n  },\n  {\n   \"cell_type\": \"markdown\",\n   \"id\": \"b2\",\n   \"metadata\": {},\n   \"source\": \"# T\"\n  }\n ],\n \"metadata\": {},\n \"nbformat\": 4,\n \"nbformat_minor\": 5\n}\n";

    #[test]
    fn spans_cover_each_cell() {
        let (array, cells) = cell_spans(NB.as_bytes()).unwrap();
        assert_eq!(&NB[array.start..array.start + 1], "[");
        assert_eq!(cells.len(), 2);
        for (span, cell) in cells.iter().zip(parse("n", NB).unwrap().cells()) {
            let v: Value = serde_json::from_str(&NB[span.clone()]).unwrap();
            assert_eq!(&v, cell);
        }
    }

    #[test]
    fn layout_and_serialise_match_nbformat() {
        let l = layout(NB.as_bytes());
        assert_eq!(l.indent.as_deref(), Some(" "));
        let (_, cells) = cell_spans(NB.as_bytes()).unwrap();
        let second = &NB[cells[1].clone()];
        let v: Value = serde_json::from_str(second).unwrap();
        assert_eq!(serialise(&v, &l, 2), second);
    }

    #[test]
    fn bad_notebooks_are_named() {
        assert!(parse("n", "{").unwrap_err().contains("not valid JSON"));
        assert!(
            parse("n", "{\"nbformat\": 3, \"worksheets\": []}")
                .unwrap_err()
                .contains("nbformat 3")
        );
        assert!(
            parse("n", "{\"nbformat\": 4}")
                .unwrap_err()
                .contains("cells")
        );
        let nb = parse("n", NB).unwrap();
        assert_eq!(nb.find("n", "b2").unwrap(), 1);
        assert_eq!(nb.find("n", "1").unwrap(), 0);
        assert!(nb.find("n", "3").unwrap_err().contains("out of range"));
        assert!(nb.find("n", "zz").unwrap_err().contains("no cell with id"));
    }

    #[test]
    fn outputs_are_summarised() {
        let cell: Value = serde_json::json!({
            "cell_type": "code", "execution_count": 2, "metadata": {}, "source": "f()",
            "outputs": [
                {"output_type": "stream", "name": "stdout", "text": ["a".repeat(2500)]},
                {"output_type": "display_data", "data": {"image/png": "AAAA", "text/plain": ["<Figure>"]}, "metadata": {}},
                {"output_type": "error", "ename": "ValueError", "evalue": "bad", "traceback": ["\u{1b}[0;31mTraceback\u{1b}[0m", "\u{1b}[0;31mValueError\u{1b}[0m: bad x"]}
            ]
        });
        let mut out = String::new();
        render_cell(&mut out, 3, &cell);
        assert!(
            out.starts_with("[cell 3 · code]\nL1: f()\noutputs [2]:\n(stdout)\n"),
            "{out}"
        );
        assert!(out.contains("(output cut: 500 more characters)"), "{out}");
        assert!(out.contains("(image/png output)\n<Figure>\n"), "{out}");
        assert!(
            out.contains("(error) ValueError: bad\n  ValueError: bad x\n"),
            "{out}"
        );
    }
}
