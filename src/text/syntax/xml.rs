//! XML well-formedness with quick-xml. No DTD is ever read and no entity is ever expanded:
//! a `<!DOCTYPE>` with an internal subset (where ENTITY declarations live) is itself a problem
//! (spec 01, "Syntax gate": "DTDs refused, no entity expansion").
//!
//! XML parsing stops at the first fatal error, as the XML spec asks, so there is at most one
//! problem.

use super::Found;
use quick_xml::XmlVersion;
use quick_xml::escape::EscapeError;
use quick_xml::events::attributes::AttrError;
use quick_xml::events::{BytesRef, BytesStart, Event};
use quick_xml::reader::Reader;

/// The entities XML defines without a DTD.
const PREDEFINED_ENTITIES: [&str; 5] = ["lt", "gt", "amp", "apos", "quot"];

pub(crate) fn check_xml(text: &str) -> Vec<Found> {
    match first_problem(text) {
        Some(problem) => vec![problem],
        None => Vec::new(),
    }
}

fn first_problem(text: &str) -> Option<Found> {
    let mut reader = Reader::from_str(text);
    let config = reader.config_mut();
    config.check_end_names = true;
    config.check_comments = true;
    config.expand_empty_elements = false;
    // Open elements: name and the offset of their `<`.
    let mut open: Vec<(String, usize)> = Vec::new();
    let mut seen_root = false;
    loop {
        let at = offset(reader.buffer_position());
        let event = match reader.read_event() {
            Ok(event) => event,
            Err(error) => return Some(found(offset(reader.error_position()), error)),
        };
        let outside_root = open.is_empty();
        match event {
            Event::Eof => return at_end(&open, seen_root, text.len()),
            Event::DocType(doctype) => {
                // An internal subset is the bracketed part; ENTITY only appears inside it, but
                // be explicit since that is the dangerous declaration.
                let content: &str = &doctype;
                if content.contains('[') || content.contains("ENTITY") {
                    return Some(found(
                        at,
                        "DTDs are refused: <!DOCTYPE> with an internal subset or ENTITY",
                    ));
                }
            }
            Event::Start(start) | Event::Empty(start) if outside_root && seen_root => {
                let name = start.name().as_ref().to_string();
                return Some(found(
                    at,
                    format!("a second root element <{name}>: only one is allowed"),
                ));
            }
            Event::Start(start) => {
                seen_root = true;
                if let Some(problem) = bad_attribute(&start, at) {
                    return Some(problem);
                }
                open.push((start.name().as_ref().to_string(), at));
            }
            Event::Empty(start) => {
                seen_root = true;
                if let Some(problem) = bad_attribute(&start, at) {
                    return Some(problem);
                }
            }
            Event::End(_) => {
                // quick-xml has already checked that the name matches.
                open.pop();
            }
            Event::Text(content) if outside_root && !content.trim().is_empty() => {
                return Some(found(at, "text outside the root element"));
            }
            Event::CData(_) if outside_root => {
                return Some(found(at, "CDATA outside the root element"));
            }
            Event::GeneralRef(reference) => {
                if outside_root {
                    return Some(found(at, "entity reference outside the root element"));
                }
                if let Some(message) = bad_reference(&reference) {
                    return Some(found(at, message));
                }
            }
            _ => {}
        }
    }
}

/// What is wrong at the end of input: an element left open, or no element at all.
fn at_end(open: &[(String, usize)], seen_root: bool, len: usize) -> Option<Found> {
    if let Some((name, at)) = open.last() {
        return Some(found(*at, format!("<{name}> is never closed")));
    }
    if !seen_root {
        return Some(found(len, "no root element"));
    }
    None
}

/// A malformed or duplicate attribute, or a value with an unknown entity.
fn bad_attribute(start: &BytesStart, at: usize) -> Option<Found> {
    for attribute in start.attributes().with_checks(true) {
        let attribute = match attribute {
            Ok(attribute) => attribute,
            Err(error) => return Some(attribute_problem(at, &error)),
        };
        if let Err(error) = attribute.normalized_value(XmlVersion::Implicit1_0) {
            return Some(found(at, attribute_value_message(&error)));
        }
    }
    None
}

/// quick-xml reports attribute errors at positions relative to the byte after the tag's `<`
/// and in its messages; the position becomes the problem's own.
fn attribute_problem(tag_at: usize, error: &AttrError) -> Found {
    let (position, message) = match error {
        AttrError::ExpectedEq(position) => (position, "attribute name not followed by `=`"),
        AttrError::ExpectedValue(position) => (position, "`=` not followed by a value"),
        AttrError::UnquotedValue(position) => (position, "attribute value not quoted"),
        AttrError::ExpectedQuote(position, _) => (position, "attribute value never closed"),
        AttrError::Duplicated(position, _) => (position, "duplicate attribute"),
    };
    found(tag_at + 1 + position, message)
}

fn attribute_value_message(error: &quick_xml::Error) -> String {
    match error {
        quick_xml::Error::Escape(EscapeError::UnrecognizedEntity(_, name)) => {
            format!("undefined entity &{name}; in an attribute value (no DTD is read)")
        }
        quick_xml::Error::Escape(EscapeError::UnterminatedEntity(_)) => {
            "`&` in an attribute value not ended by `;`".to_string()
        }
        other => format!("bad attribute value: {other}"),
    }
}

/// `&name;` must be predefined (there is no DTD to define others); `&#N;` must name a char.
fn bad_reference(reference: &BytesRef) -> Option<String> {
    if reference.is_char_ref() {
        return match reference.resolve_char_ref() {
            Ok(_) => None,
            Err(error) => Some(error.to_string()),
        };
    }
    let name: &str = reference;
    if PREDEFINED_ENTITIES.contains(&name) {
        None
    } else {
        Some(format!("undefined entity &{name}; (no DTD is read)"))
    }
}

fn offset(position: u64) -> usize {
    usize::try_from(position).unwrap_or(usize::MAX)
}

fn found(offset: usize, message: impl ToString) -> Found {
    Found {
        offset,
        message: message.to_string(),
    }
}
