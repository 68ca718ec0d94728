//! Note names (spec 06, "notes"): 1–64 characters of `A-Za-z0-9._-`, not starting with `.`;
//! a trailing `.md` is accepted and dropped. Nothing else is a name, so a name can never
//! reach outside the store.

use std::fmt;

/// Most characters in a note name.
pub const MAX_NAME_CHARS: usize = 64;

/// The rule, as error messages state it.
pub const NAME_RULE: &str = "a note name is 1-64 characters of A-Z a-z 0-9 . _ - and does not \
start with a dot (a trailing .md is dropped)";

/// A valid note name, without `.md`.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct NoteName(String);

impl NoteName {
    /// Checks a caller-given name. `Err` is the whole message: the name (escaped), what is
    /// wrong with it, and the rule.
    pub fn parse(raw: &str) -> Result<NoteName, String> {
        let name = raw.strip_suffix(".md").unwrap_or(raw);
        let bad_char = name.chars().find(|c| !is_name_char(*c)).map(|c| match c {
            '/' | '\\' => "it contains a path separator (a note name is never a path)".to_owned(),
            '\0' => "it contains a NUL byte".to_owned(),
            ' ' => "it contains a space".to_owned(),
            '\n' | '\r' => "it contains a line break".to_owned(),
            '\t' => "it contains a tab".to_owned(),
            c if c.is_control() || c.is_whitespace() => {
                format!("it contains the character U+{:04X}", c as u32)
            }
            c => format!("it contains the character {c} (U+{:04X})", c as u32),
        });
        let problem = if name.is_empty() {
            Some("it is empty".to_owned())
        } else if bad_char.is_some() {
            bad_char
        } else if name.chars().count() > MAX_NAME_CHARS {
            Some(format!(
                "it is {} long",
                crate::text::plural::count(name.chars().count(), "character")
            ))
        } else if name.starts_with('.') {
            Some("it starts with a dot".to_owned())
        } else {
            None
        };
        match problem {
            None => Ok(NoteName(name.to_owned())),
            // JSON's spelling of the name: a line break or control character shows escaped.
            Some(p) => Err(format!(
                "note name {} is not valid: {p}; {NAME_RULE}",
                serde_json::Value::String(raw.to_owned())
            )),
        }
    }

    /// The note named by a file in the store (`<valid name>.md`), if it is one.
    pub fn from_file_name(file: &str) -> Option<NoteName> {
        let name = file.strip_suffix(".md")?;
        let valid = !name.is_empty()
            && name.chars().count() <= MAX_NAME_CHARS
            && !name.starts_with('.')
            && name.chars().all(is_name_char);
        valid.then(|| NoteName(name.to_owned()))
    }

    /// The name.
    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// The note's file name in the store: `<name>.md`.
    pub fn file_name(&self) -> String {
        format!("{}.md", self.0)
    }
}

impl fmt::Display for NoteName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

fn is_name_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn valid_names() {
        for (raw, name) in [
            ("build", "build"),
            ("build.md", "build"),
            ("a.b_c-D9", "a.b_c-D9"),
            ("x.md.md", "x.md"),
        ] {
            assert_eq!(NoteName::parse(raw).unwrap().as_str(), name);
        }
        let long = "a".repeat(64);
        assert!(NoteName::parse(&long).is_ok());
        assert!(NoteName::parse(&format!("{long}.md")).is_ok());
    }

    #[test]
    fn invalid_names_name_the_rule() {
        for raw in [
            "../escape",
            "a/b",
            "/tmp/x",
            "..",
            ".hidden",
            "a\0b",
            "with space",
            "%2e%2e%2fx",
            "a\\b",
            "",
            ".md",
            "é",
        ] {
            let e = NoteName::parse(raw).unwrap_err();
            assert!(e.contains(NAME_RULE), "{raw:?}: {e}");
        }
        let e = NoteName::parse(&"a".repeat(65)).unwrap_err();
        assert!(e.contains("65 characters"), "{e}");
    }

    /// A line break and a tab were both called "a space", and a control character was shown
    /// as Rust's debug form (`'\u{1}'`, spec 00: never a Rust Debug dump).
    #[test]
    fn each_bad_character_is_named_plainly() {
        for (raw, says) in [
            (
                "a\nb",
                r#"note name "a\nb" is not valid: it contains a line break;"#,
            ),
            (
                "a\tb",
                r#"note name "a\tb" is not valid: it contains a tab;"#,
            ),
            (
                "a b",
                r#"note name "a b" is not valid: it contains a space;"#,
            ),
            (
                "a\u{1}b",
                r#"note name "a\u0001b" is not valid: it contains the character U+0001;"#,
            ),
            (
                "é",
                r#"note name "é" is not valid: it contains the character é (U+00E9);"#,
            ),
        ] {
            let e = NoteName::parse(raw).unwrap_err();
            assert!(e.starts_with(says), "{e}");
        }
    }

    #[test]
    fn file_names() {
        assert_eq!(NoteName::from_file_name("a.md").unwrap().as_str(), "a");
        for f in [".a.md", "a.txt", ".a.md.agtool-1-2", "a b.md", ".md"] {
            assert!(NoteName::from_file_name(f).is_none(), "{f}");
        }
    }
}
