//! One printable, reversible spelling for every file name (issue 9, defect 4): a name that is
//! not UTF-8 (`caf\xE9.txt` in Latin-1) is printed so that it can be given back as a path
//! argument and names the same file. Printers call [`push_encoded`] / [`encode`]; paths enter
//! through [`spelled_path`], which the path policy calls for every path argument.
//!
//! Grammar of the printed form (a UTF-8 string; `HH` is two hex digits, printed lower-case,
//! read in either case):
//!
//! ```text
//! printed  = { char | "\x" HH | "\\" | "\" }
//! ```
//!
//! - a byte that is not part of valid UTF-8, and an ASCII control character (0x01-0x1F,
//!   0x7F; a newline would break line-per-path output), is printed as `\xHH`;
//! - a backslash is printed doubled (`\\`) only where it could be misread: right before
//!   another backslash, before an escape (`\xHH`), or before `x` and two hex digits; anywhere
//!   else it is printed as it is;
//! - every other character is printed as it is.
//!
//! Reading (decoding) goes left to right: `\\` is one backslash, `\x` followed by two hex
//! digits is that byte, and any other backslash is itself. So every valid UTF-8 name without
//! control characters prints unchanged unless it contains the escape syntax (`\\`, or `\x`
//! followed by two hex digits), and `decode(encode(name)) == name` for every name.

use std::borrow::Cow;
use std::ffi::{OsStr, OsString};
use std::os::unix::ffi::{OsStrExt, OsStringExt};
use std::path::{Path, PathBuf};

/// One printed piece of a name.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Piece {
    /// A character printed as it is.
    Char(char),
    /// A literal backslash (printed `\` or `\\`, see the module docs).
    Backslash,
    /// A byte printed as `\xHH`.
    Byte(u8),
}

fn needs_escape(c: char) -> bool {
    c.is_ascii_control()
}

/// Whether `bytes` print unchanged: valid UTF-8 with no backslash and no control character.
fn plain(bytes: &[u8]) -> Option<&str> {
    let s = std::str::from_utf8(bytes).ok()?;
    (!s.chars().any(|c| c == '\\' || needs_escape(c))).then_some(s)
}

/// The printed form of `name` (see the module docs); borrowed when nothing needs escaping.
pub fn encode(name: &OsStr) -> Cow<'_, str> {
    match plain(name.as_bytes()) {
        Some(s) => Cow::Borrowed(s),
        None => {
            let mut out = String::new();
            push_pieces(&mut out, name.as_bytes());
            Cow::Owned(out)
        }
    }
}

/// Appends the printed form of `name` to `out`.
pub fn push_encoded(out: &mut String, name: &OsStr) {
    match plain(name.as_bytes()) {
        Some(s) => out.push_str(s),
        None => push_pieces(out, name.as_bytes()),
    }
}

/// The printed form of a path (its bytes as one name; `/` prints as itself).
pub fn encode_path(path: &Path) -> Cow<'_, str> {
    encode(path.as_os_str())
}

fn push_pieces(out: &mut String, bytes: &[u8]) {
    let mut pieces = Vec::with_capacity(bytes.len());
    for chunk in bytes.utf8_chunks() {
        for c in chunk.valid().chars() {
            pieces.push(match c {
                '\\' => Piece::Backslash,
                c if needs_escape(c) => Piece::Byte(c as u8),
                c => Piece::Char(c),
            });
        }
        pieces.extend(chunk.invalid().iter().map(|&b| Piece::Byte(b)));
    }
    for (i, piece) in pieces.iter().enumerate() {
        match *piece {
            Piece::Char(c) => out.push(c),
            Piece::Byte(b) => out.push_str(&format!("\\x{b:02x}")),
            Piece::Backslash => {
                let hex =
                    |p: Option<&Piece>| matches!(p, Some(Piece::Char(c)) if c.is_ascii_hexdigit());
                let misread = match pieces.get(i + 1) {
                    Some(Piece::Backslash | Piece::Byte(_)) => true,
                    Some(Piece::Char('x')) => hex(pieces.get(i + 2)) && hex(pieces.get(i + 3)),
                    _ => false,
                };
                out.push_str(if misread { "\\\\" } else { "\\" });
            }
        }
    }
}

/// The bytes a printed (or typed) name stands for: `\\` → `\`, `\xHH` → byte `HH`, any
/// other character as it is. Borrowed when `spelled` has no backslash.
pub fn decode(spelled: &str) -> Cow<'_, OsStr> {
    if !spelled.contains('\\') {
        return Cow::Borrowed(OsStr::new(spelled));
    }
    let b = spelled.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'\\' {
            if b.get(i + 1) == Some(&b'\\') {
                out.push(b'\\');
                i += 2;
                continue;
            }
            if b.get(i + 1) == Some(&b'x')
                && let (Some(h), Some(l)) = (hex_value(b.get(i + 2)), hex_value(b.get(i + 3)))
            {
                out.push(h * 16 + l);
                i += 4;
                continue;
            }
        }
        out.push(b[i]);
        i += 1;
    }
    Cow::Owned(OsString::from_vec(out))
}

fn hex_value(b: Option<&u8>) -> Option<u8> {
    (*b? as char).to_digit(16).map(|d| d as u8)
}

/// The path a caller's spelling names, relative paths joined to `cwd` (not folded): the one
/// place where path arguments are decoded (spec 01 "Path policy" calls it for every check).
pub fn spelled_path(cwd: &Path, spelled: &str) -> PathBuf {
    cwd.join(decode(spelled))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn round(bytes: &[u8]) -> String {
        let printed = encode(OsStr::from_bytes(bytes)).into_owned();
        assert_eq!(
            decode(&printed).as_bytes(),
            bytes,
            "{printed} does not read back"
        );
        printed
    }

    #[test]
    fn printed_forms() {
        assert_eq!(round(b"plain/name.rs"), "plain/name.rs");
        assert_eq!(round("日本語 é.txt".as_bytes()), "日本語 é.txt");
        assert_eq!(round(b"caf\xe9.txt"), "caf\\xe9.txt");
        assert_eq!(round(b"\xff\xfe"), "\\xff\\xfe");
        assert_eq!(round(b"a\nb\t"), "a\\x0ab\\x09");
        // Backslashes: as they are unless they could be misread.
        assert_eq!(round(b"a\\b"), "a\\b");
        assert_eq!(round(b"end\\"), "end\\");
        assert_eq!(round(b"x\\x41"), "x\\\\x41");
        assert_eq!(round(b"x\\x4g"), "x\\x4g");
        assert_eq!(round(b"a\\\\b"), "a\\\\\\b");
        assert_eq!(round(b"a\\\xe9"), "a\\\\\\xe9");
        assert_eq!(round(b"a\\\x01"), "a\\\\\\x01");
        // A truncated UTF-8 sequence is escaped byte by byte.
        assert_eq!(round("é".as_bytes()[..1].as_ref()), "\\xc3");
    }

    #[test]
    fn reading_accepts_either_case_and_leaves_other_backslashes() {
        assert_eq!(decode("caf\\xE9").as_bytes(), b"caf\xe9");
        assert_eq!(decode("a\\b").as_bytes(), b"a\\b");
        assert_eq!(decode("a\\").as_bytes(), b"a\\");
        assert_eq!(decode("\\x4").as_bytes(), b"\\x4");
        assert_eq!(decode("\\x41").as_bytes(), b"A");
        assert!(matches!(decode("plain"), Cow::Borrowed(_)));
    }

    #[test]
    fn every_byte_string_round_trips() {
        // Exhaustive over short strings of the bytes that matter.
        let alphabet = [b'\\', b'x', b'4', b'1', b'a', 0xe9, 0xc3, 0xa9, b'\n', b'/'];
        let mut stack: Vec<Vec<u8>> = vec![Vec::new()];
        while let Some(s) = stack.pop() {
            round(&s);
            if s.len() < 5 {
                for &b in &alphabet {
                    let mut t = s.clone();
                    t.push(b);
                    stack.push(t);
                }
            }
        }
    }
}
