//! A SKILL.md file split into front matter and body (spec 06, "skill": front matter).
//!
//! The front matter is YAML between a first line `---` and the next `---` line, parsed with
//! yaml-rust2. A UTF-8 byte-order mark and CRLF line endings are accepted. When the YAML does
//! not parse (most often an unquoted colon: `description: Use when: ...`), the `name:` and
//! `description:` lines are read literally instead.

use yaml_rust2::{Yaml, YamlLoader};

/// Most characters of a description; a longer one is cut and ends with `…`.
pub const MAX_DESCRIPTION_CHARS: usize = 1024;

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
/// file, front matter that is never closed.
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
}
