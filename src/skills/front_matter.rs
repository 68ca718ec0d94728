//! A SKILL.md file split into front matter and body (spec 06, "skill": front matter).
//!
//! The front matter is YAML between a first line `---` and the next `---` line, parsed with
//! yaml-rust2. A UTF-8 byte-order mark and CRLF line endings are accepted. When the YAML does
//! not parse (most often an unquoted colon: `description: Use when: ...`), the `name:` and
//! `description:` lines are read literally instead.

use std::collections::HashMap;

use yaml_rust2::parser::{Event, Parser};
use yaml_rust2::{Yaml, YamlLoader};

/// Most characters of a description; a longer one is cut and ends with `…`.
pub const MAX_DESCRIPTION_CHARS: usize = 1024;
/// Most bytes of front matter (between the two `---` lines); a SKILL.md with more is skipped.
/// A front matter holds a name, a description of at most 1024 characters and a few small
/// fields: 64 KiB is far above any real one.
pub const MAX_FRONT_MATTER_BYTES: usize = 64 * 1024;
/// Most YAML nodes (scalars, sequences, mappings) the front matter may stand for once every
/// alias is expanded ("billion laughs": 518 bytes of nested aliases stand for billions).
pub const MAX_EXPANDED_NODES: u64 = 65_536;
/// Most bytes of scalar text the front matter may stand for once every alias is expanded.
pub const MAX_EXPANDED_BYTES: u64 = 1024 * 1024;
/// Deepest nesting of sequences and mappings in the front matter.
pub const MAX_NESTING: usize = 64;

/// A SKILL.md file that can be used.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SkillFile {
    /// `name` from the front matter, made one line; `None` when absent or empty.
    pub name: Option<String>,
    /// `description` from the front matter, else the body's first paragraph; made one line and
    /// cut at [`MAX_DESCRIPTION_CHARS`]. `None` when neither gives any text.
    pub description: Option<String>,
    /// The text after the front matter (the whole text without front matter), with `\n` line
    /// endings and no byte-order mark.
    pub body: String,
    /// The 1-based line of the file on which the body starts.
    pub body_line: usize,
}

/// Parses a SKILL.md file's bytes. `Err` gives the reason it cannot be used, for a
/// `(skipped: <path>: <reason>)` line: not UTF-8 text (UTF-16 included), a NUL byte, an empty
/// file, front matter that is never closed, front matter over the bounds
/// ([`MAX_FRONT_MATTER_BYTES`], [`MAX_NESTING`], aliases expanding past
/// [`MAX_EXPANDED_NODES`] / [`MAX_EXPANDED_BYTES`]; see [`check_bounds`]).
pub fn parse(bytes: &[u8]) -> Result<SkillFile, String> {
    let text = decode(bytes)?;
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let text = text.replace("\r\n", "\n");
    if text.trim().is_empty() {
        return Err("the file is empty".to_owned());
    }
    let lines: Vec<&str> = text.split_inclusive('\n').collect();
    let is_fence = |l: &str| l.trim_end() == "---";
    if !lines.first().is_some_and(|l| is_fence(l)) {
        return Ok(SkillFile {
            name: None,
            description: first_paragraph(&text),
            body: text.clone(),
            body_line: 1,
        });
    }
    let Some(close) = lines
        .iter()
        .skip(1)
        .position(|l| is_fence(l))
        .map(|i| i + 1)
    else {
        return Err(
            "its front matter opens with --- on line 1 but is never closed (no second --- line)"
                .to_owned(),
        );
    };
    let yaml: String = lines[1..close].concat();
    if yaml.len() > MAX_FRONT_MATTER_BYTES {
        return Err(format!(
            "its front matter is {}, over the {MAX_FRONT_MATTER_BYTES}-byte limit",
            crate::text::plural::count(yaml.len() as u64, "byte")
        ));
    }
    check_bounds(&yaml)?;
    let body: String = lines[close + 1..].concat();
    let (name, description) = read_fields(&yaml);
    let description = description
        .map(|d| one_line(&d))
        .filter(|d| !d.is_empty())
        .or_else(|| first_paragraph(&body));
    Ok(SkillFile {
        name: name.map(|n| one_line(&n)).filter(|n| !n.is_empty()),
        description: description.map(|d| cut(&d)),
        body,
        body_line: close + 2,
    })
}

/// The text of `bytes`, or why it is not UTF-8 text.
fn decode(bytes: &[u8]) -> Result<&str, String> {
    let bom = match bytes {
        [0xFF, 0xFE, 0, 0, ..] => Some("UTF-32LE"),
        [0, 0, 0xFE, 0xFF, ..] => Some("UTF-32BE"),
        [0xFF, 0xFE, ..] => Some("UTF-16LE"),
        [0xFE, 0xFF, ..] => Some("UTF-16BE"),
        _ => None,
    };
    if let Some(enc) = bom {
        return Err(format!(
            "it is {enc} text (byte-order mark); save it as UTF-8"
        ));
    }
    if let Some(at) = bytes.iter().position(|&b| b == 0) {
        return Err(format!(
            "it is not text (a NUL byte at offset {at}; UTF-16 without a byte-order mark?); save it as UTF-8"
        ));
    }
    std::str::from_utf8(bytes).map_err(|e| {
        format!(
            "it is not UTF-8 text (invalid byte at offset {}); save it as UTF-8",
            e.valid_up_to()
        )
    })
}

/// Walks the front matter's YAML events (yaml-rust2's event parser builds no tree and expands
/// no alias) and refuses it before any tree is built when it nests deeper than
/// [`MAX_NESTING`] or, counting every alias as the node it names, stands for more than
/// [`MAX_EXPANDED_NODES`] nodes or [`MAX_EXPANDED_BYTES`] bytes of scalar text. YAML that
/// does not parse passes: it is read literally, without aliases.
pub fn check_bounds(yaml: &str) -> Result<(), String> {
    /// What an anchored node stands for: (nodes, scalar bytes).
    type Size = (u64, u64);
    let mut parser = Parser::new_from_str(yaml);
    // The anchor id of each open sequence or mapping and what it holds so far.
    let mut open: Vec<(usize, Size)> = Vec::new();
    let mut anchors: HashMap<usize, Size> = HashMap::new();
    let mut total: Size = (0, 0);
    let mut aliases = 0u64;
    let add = |open: &mut Vec<(usize, Size)>, total: &mut Size, s: Size| {
        if let Some((_, inner)) = open.last_mut() {
            inner.0 = inner.0.saturating_add(s.0);
            inner.1 = inner.1.saturating_add(s.1);
        }
        total.0 = total.0.saturating_add(s.0);
        total.1 = total.1.saturating_add(s.1);
    };
    loop {
        let Ok((event, _)) = parser.next_token() else {
            return Ok(());
        };
        match event {
            Event::StreamEnd => return Ok(()),
            Event::Scalar(text, _, anchor, _) => {
                let size = (1, text.len() as u64);
                if anchor != 0 {
                    anchors.insert(anchor, size);
                }
                add(&mut open, &mut total, size);
            }
            Event::Alias(id) => {
                aliases += 1;
                let size = anchors.get(&id).copied().unwrap_or((1, 0));
                add(&mut open, &mut total, size);
            }
            Event::SequenceStart(anchor, _) | Event::MappingStart(anchor, _) => {
                if open.len() >= MAX_NESTING {
                    return Err(format!(
                        "its front matter nests more than {MAX_NESTING} levels deep"
                    ));
                }
                open.push((anchor, (1, 0)));
            }
            Event::SequenceEnd | Event::MappingEnd => {
                if let Some((anchor, size)) = open.pop() {
                    if anchor != 0 {
                        anchors.insert(anchor, size);
                    }
                    // The container itself counts once in the total; its content already did.
                    if let Some((_, outer)) = open.last_mut() {
                        outer.0 = outer.0.saturating_add(size.0);
                        outer.1 = outer.1.saturating_add(size.1);
                    }
                    total.0 = total.0.saturating_add(1);
                }
            }
            _ => {}
        }
        if total.0 > MAX_EXPANDED_NODES || total.1 > MAX_EXPANDED_BYTES {
            return Err(format!(
                "its front matter's {} YAML {} expand to more than {MAX_EXPANDED_NODES} nodes \
                 or {MAX_EXPANDED_BYTES} bytes (an alias bomb?); it was not loaded",
                aliases,
                crate::text::plural::noun(aliases, "alias")
            ));
        }
    }
}

/// `name` and `description` from the YAML, or read literally when it does not parse as a
/// mapping.
fn read_fields(yaml: &str) -> (Option<String>, Option<String>) {
    match YamlLoader::load_from_str(yaml) {
        Ok(docs) => match docs.first() {
            None | Some(Yaml::Null) => (None, None),
            Some(doc @ Yaml::Hash(_)) => (scalar(&doc["name"]), scalar(&doc["description"])),
            Some(_) => literal_fields(yaml),
        },
        Err(_) => literal_fields(yaml),
    }
}

/// A YAML scalar as text (`None` for null, a list or a mapping).
fn scalar(v: &Yaml) -> Option<String> {
    match v {
        Yaml::String(s) | Yaml::Real(s) => Some(s.clone()),
        Yaml::Integer(i) => Some(i.to_string()),
        Yaml::Boolean(b) => Some(b.to_string()),
        _ => None,
    }
}

/// The fallback for front matter that is not valid YAML: a `name:` or `description:` line at
/// the start of a line, with the more indented lines after it as its continuation; one pair
/// of matching quotes around the value is dropped, and a block indicator (`>`, `|-`, ...)
/// stands for the continuation alone.
fn literal_fields(yaml: &str) -> (Option<String>, Option<String>) {
    let lines: Vec<&str> = yaml.lines().collect();
    let field = |key: &str| -> Option<String> {
        let prefix = format!("{key}:");
        let start = lines.iter().position(|l| l.starts_with(&prefix))?;
        let mut value = lines[start][prefix.len()..].trim().to_owned();
        if matches!(value.as_str(), ">" | "|" | ">-" | "|-" | ">+" | "|+") {
            value.clear();
        }
        for more in lines[start + 1..]
            .iter()
            .take_while(|l| l.starts_with([' ', '\t']) || l.trim().is_empty())
        {
            value.push(' ');
            value.push_str(more.trim());
        }
        let value = value.trim();
        let unquoted = [('"', '"'), ('\'', '\'')]
            .iter()
            .find_map(|(a, b)| {
                value
                    .strip_prefix(*a)
                    .and_then(|v| v.strip_suffix(*b))
                    .filter(|_| value.len() >= 2)
            })
            .unwrap_or(value);
        Some(unquoted.to_owned())
    };
    (field("name"), field("description"))
}

/// The body's first paragraph: the first run of non-blank lines, Markdown headings skipped.
fn first_paragraph(body: &str) -> Option<String> {
    let mut para = Vec::new();
    for line in body.lines() {
        let t = line.trim();
        if t.is_empty() || t == "---" {
            if !para.is_empty() {
                break;
            }
            continue;
        }
        if t.starts_with('#') && para.is_empty() {
            continue;
        }
        para.push(t);
    }
    let text = one_line(&para.join(" "));
    (!text.is_empty()).then(|| cut(&text))
}

/// `s` on one line: every run of whitespace (line breaks included) becomes one space, and
/// control characters are dropped.
pub fn one_line(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for word in s.split_whitespace() {
        if !out.is_empty() {
            out.push(' ');
        }
        out.extend(word.chars().filter(|c| !c.is_control()));
    }
    out
}

/// `s` cut at [`MAX_DESCRIPTION_CHARS`] characters, the last being `…` when cut.
fn cut(s: &str) -> String {
    match s.char_indices().nth(MAX_DESCRIPTION_CHARS) {
        None => s.to_owned(),
        Some(_) => {
            let keep: String = s.chars().take(MAX_DESCRIPTION_CHARS - 1).collect();
            format!("{}…", keep.trim_end())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn yaml_front_matter() {
        let f = parse(
            b"---\nname: pdf\ndescription: >\n  Fill forms,\n  merge files.\n---\n# PDF\nbody\n",
        )
        .unwrap();
        assert_eq!(f.name.as_deref(), Some("pdf"));
        assert_eq!(f.description.as_deref(), Some("Fill forms, merge files."));
        assert_eq!(f.body, "# PDF\nbody\n");
        assert_eq!(f.body_line, 7);
    }

    #[test]
    fn bom_crlf_and_unquoted_colon() {
        let f = parse(
            "\u{feff}---\r\nname: a\r\ndescription: Use when: the user asks\r\n---\r\nx\r\n"
                .as_bytes(),
        )
        .unwrap();
        assert_eq!(f.name.as_deref(), Some("a"));
        assert_eq!(f.description.as_deref(), Some("Use when: the user asks"));
        assert_eq!(f.body, "x\n");
        let f = parse(b"---\nname: 'q'\ndescription: \"Use: it\"\n  and more\n---\n").unwrap();
        assert_eq!(f.name.as_deref(), Some("q"));
        assert_eq!(f.description.as_deref(), Some("\"Use: it\" and more"));
    }

    #[test]
    fn defaults_and_refusals() {
        let f = parse(b"# Title\n\nFirst para\nline two.\n\nSecond.\n").unwrap();
        assert_eq!(f.name, None);
        assert_eq!(f.description.as_deref(), Some("First para line two."));
        assert_eq!(f.body_line, 1);
        let f = parse(b"---\nname: n\n---\n\nOnly body.\n").unwrap();
        assert_eq!(f.description.as_deref(), Some("Only body."));
        assert!(
            parse(b"---\nname: n\nbody\n")
                .unwrap_err()
                .contains("never closed")
        );
        assert!(parse(b"\xff\xfe-\0-\0").unwrap_err().contains("UTF-16LE"));
        assert!(parse(b"a\xffb").unwrap_err().contains("not UTF-8"));
        assert!(parse(b"  \n").unwrap_err().contains("empty"));
        let long = format!("---\ndescription: {}\n---\n", "x".repeat(1500));
        let d = parse(long.as_bytes()).unwrap().description.unwrap();
        assert_eq!(d.chars().count(), MAX_DESCRIPTION_CHARS);
        assert!(d.ends_with('…'));
    }

    #[test]
    fn fences_inside_the_body_stay_in_the_body() {
        let f = parse(b"---\nname: n\ndescription: d\n---\na\n---\nb\n---\n").unwrap();
        assert_eq!(f.body, "a\n---\nb\n---\n");
    }

    #[test]
    fn front_matter_over_the_bounds_is_refused_before_any_tree_is_built() {
        let mut bomb = String::from("---\nname: b\na: &a [x,x,x,x,x,x,x,x,x]\n");
        for (n, p) in [("b", "a"), ("c", "b"), ("d", "c"), ("e", "d"), ("f", "e")] {
            bomb.push_str(&format!(
                "{n}: &{n} [{}]\n",
                vec![format!("*{p}"); 9].join(",")
            ));
        }
        bomb.push_str("---\n");
        let err = parse(bomb.as_bytes()).unwrap_err();
        assert!(err.contains("aliases expand to more than"), "{err}");
        let deep = format!("---\nname: {}x{}\n---\n", "[".repeat(100), "]".repeat(100));
        assert!(
            parse(deep.as_bytes())
                .unwrap_err()
                .contains("nests more than")
        );
        let big = format!("---\nname: n\nmetadata: {}\n---\n", "y".repeat(70_000));
        assert!(
            parse(big.as_bytes())
                .unwrap_err()
                .contains("over the 65536-byte limit")
        );
        // A long aliased scalar counts its bytes at every use.
        let wide = format!(
            "---\nname: n\nx: &x {}\ny: [{}]\n---\n",
            "z".repeat(60_000),
            vec!["*x"; 20].join(",")
        );
        assert!(parse(wide.as_bytes()).unwrap_err().contains("expand"));
        // A few aliases within the bounds are fine.
        let f = parse(b"---\nd: &d Short and sweet.\nname: ok\ndescription: *d\n---\n").unwrap();
        assert_eq!(f.description.as_deref(), Some("Short and sweet."));
    }
}
