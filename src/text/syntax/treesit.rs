//! Source languages with tree-sitter: every ERROR node and every MISSING node is one problem
//! (spec 01, "Syntax gate").
//!
//! Cost: a `Parser` is created per call. Setting a language only stores a pointer to the
//! grammar's static tables, so construction is microseconds; parsing dominates.

use super::Found;
use super::detect::Lang;
use std::ops::ControlFlow;
use std::time::{Duration, Instant};
use tree_sitter::{Language, Node, ParseOptions, ParseState, Parser};

/// A parse that runs longer than this is abandoned ("cannot tell"), so a pathological file
/// cannot hang a write.
pub(crate) const PARSE_TIME_LIMIT: Duration = Duration::from_secs(2);

/// How much of an ERROR node's text its message quotes, in chars.
const SNIPPET_CHARS: usize = 30;

/// The grammar for `lang`, or `None` when `lang` is not a tree-sitter language.
pub(crate) fn grammar(lang: Lang) -> Option<Language> {
    let function = match lang {
        Lang::Rust => tree_sitter_rust::LANGUAGE,
        Lang::Python => tree_sitter_python::LANGUAGE,
        Lang::JavaScript => tree_sitter_javascript::LANGUAGE,
        Lang::TypeScript => tree_sitter_typescript::LANGUAGE_TYPESCRIPT,
        Lang::Tsx => tree_sitter_typescript::LANGUAGE_TSX,
        Lang::Go => tree_sitter_go::LANGUAGE,
        Lang::C => tree_sitter_c::LANGUAGE,
        Lang::Cpp => tree_sitter_cpp::LANGUAGE,
        Lang::Java => tree_sitter_java::LANGUAGE,
        Lang::Bash => tree_sitter_bash::LANGUAGE,
        Lang::Yaml => tree_sitter_yaml::LANGUAGE,
        Lang::Html => tree_sitter_html::LANGUAGE,
        Lang::Css => tree_sitter_css::LANGUAGE,
        Lang::Json | Lang::Jsonc | Lang::JsonLines | Lang::Toml | Lang::Xml | Lang::CHeader => {
            return None;
        }
    };
    Some(function.into())
}

/// Parses `text` with `language` and lists its ERROR and MISSING nodes. `None` when the
/// parser cannot be set up (grammar ABI mismatch) or the parse exceeds `time_limit`.
pub(crate) fn check_tree(
    language: &Language,
    text: &str,
    time_limit: Duration,
) -> Option<Vec<Found>> {
    let mut parser = Parser::new();
    parser.set_language(language).ok()?;
    let deadline = Instant::now() + time_limit;
    let mut keep_going = |_: &ParseState| {
        if Instant::now() < deadline {
            ControlFlow::Continue(())
        } else {
            ControlFlow::Break(())
        }
    };
    let bytes = text.as_bytes();
    let mut read = |offset: usize, _| bytes.get(offset..).unwrap_or_default();
    let options = ParseOptions::new().progress_callback(&mut keep_going);
    let tree = parser.parse_with_options(&mut read, None, Some(options))?;
    Some(problems(tree.root_node(), text))
}

/// Walks only subtrees that contain an error. An ERROR node is one problem and is not
/// descended into: the nodes inside it are its own parse debris, and counting them would make
/// the count swing with how tree-sitter happened to recover.
fn problems(root: Node, text: &str) -> Vec<Found> {
    let mut found = Vec::new();
    let mut cursor = root.walk();
    loop {
        let node = cursor.node();
        let descend = if node.is_error() {
            found.push(Found {
                offset: node.start_byte(),
                message: error_message(node, text),
            });
            false
        } else if node.is_missing() {
            found.push(Found {
                offset: node.start_byte(),
                message: missing_message(node),
            });
            false
        } else {
            node.has_error()
        };
        if descend && cursor.goto_first_child() {
            continue;
        }
        while !cursor.goto_next_sibling() {
            if !cursor.goto_parent() {
                return found;
            }
        }
    }
}

/// `syntax error at `fn (``: quoting the start of the unparsable text locates it for the
/// model, and makes messages of distinct errors differ (the gate matches old and new problems
/// by message).
fn error_message(node: Node, text: &str) -> String {
    let body = text.get(node.start_byte()..node.end_byte()).unwrap_or("");
    let first_line = body.lines().next().unwrap_or("").trim();
    if first_line.is_empty() {
        return "syntax error".to_string();
    }
    let mut snippet: String = first_line.chars().take(SNIPPET_CHARS).collect();
    if first_line.chars().nth(SNIPPET_CHARS).is_some() {
        snippet.push('…');
    }
    format!("syntax error at `{snippet}`")
}

/// `missing ";"` for a token, `missing identifier` for a named node.
fn missing_message(node: Node) -> String {
    if node.is_named() {
        format!("missing {}", node.kind())
    } else {
        format!("missing \"{}\"", node.kind())
    }
}
