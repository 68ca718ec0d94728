//! Tool arguments: schema generation and validation that reports every problem at once
//! (spec 00 "Three ways to pass arguments", spec 07). The command-line flags are turned into
//! the same JSON object in `faces::input`.
//!
//! All three ways end in one JSON object validated against the tool's schema, so flags, `--args`
//! and `call` cannot disagree. Defaults live in one place: the serde defaults of the argument
//! struct (clap's `default_value` is shown in `--help` only; values clap filled in from a default
//! are not copied into the object).

pub mod embedded;
pub mod export;
pub mod fast_check;

use std::any::TypeId;
use std::sync::Mutex;

use serde_json::Value;

use crate::error::ToolError;
use crate::text::plural::count;

/// Longest path argument, in characters (`maxLength`): Linux's `PATH_MAX` is 4096 bytes, so a
/// longer path could never be opened anyway.
pub const MAX_PATH_CHARS: u32 = 4096;
/// Longest search pattern, glob or `include` filter, in characters (64 Ki). Compiling a
/// pattern costs time and memory roughly in proportion to its length (a 50 MB glob took 30 s
/// and 6.6 GB before this cap); no real search needs more.
pub const MAX_PATTERN_CHARS: u32 = 64 << 10;
/// Longest short text argument (an anchor such as `12:ab`), in characters.
pub const MAX_ANCHOR_CHARS: u32 = 1024;
/// Longest name argument (a note or skill name), in characters: far above any valid name,
/// so the tool's own rule still explains a bad one.
pub const MAX_NAME_CHARS: u32 = 1024;
/// Longest shell command line or single `exec` argument, in characters: Linux refuses any one
/// argument over 128 KiB (`MAX_ARG_STRLEN`) at exec time.
pub const MAX_COMMAND_CHARS: u32 = 128 << 10;
/// Most arguments in an `exec` command list.
pub const MAX_COMMAND_ITEMS: u32 = 64 << 10;
/// Longest body (write-file content, apply-patch input, edit-file old/new, edit-lines text,
/// write-stdin chars), in characters (64 Mi). A body is held in memory a few times over (the
/// JSON, the argument, the old and new file), so this bounds a call's memory to a few hundred
/// MiB; larger files are copied or generated with exec.
pub const MAX_BODY_CHARS: u32 = 64 << 20;
/// Most edits in one edit-file or edit-lines call.
pub const MAX_EDITS: u32 = 10_000;
/// Most bytes of JSON (or body) read from stdin or an `@FILE`: a 64 Mi-character body fits
/// with room for JSON escapes; anything larger is refused before it is parsed.
pub const MAX_INPUT_BYTES: u64 = 256 << 20;

/// Reads all of `reader`, at most [`MAX_INPUT_BYTES`]; `what` names the source in errors
/// (usage errors: the input is too large or cannot be read).
pub fn read_limited(reader: impl std::io::Read, what: &str) -> Result<Vec<u8>, ToolError> {
    use std::io::Read;
    let mut buf = Vec::new();
    reader
        .take(MAX_INPUT_BYTES + 1)
        .read_to_end(&mut buf)
        .map_err(|e| ToolError::usage(format!("{what}: cannot read: {e}")))?;
    if buf.len() as u64 > MAX_INPUT_BYTES {
        return Err(ToolError::usage(format!(
            "{what} holds more than {} MiB; agtool takes at most that much input (write large \
             files with exec, e.g. cp)",
            MAX_INPUT_BYTES >> 20
        )));
    }
    Ok(buf)
}

/// [`read_limited`] on the file `path`, as UTF-8 text.
pub fn read_file_limited(path: &std::path::Path, what: &str) -> Result<String, ToolError> {
    let file = std::fs::File::open(path).map_err(|e| {
        ToolError::usage(format!(
            "{what}: cannot read: {}",
            crate::error::io_reason(&e)
        ))
    })?;
    let bytes = read_limited(file, what)?;
    String::from_utf8(bytes).map_err(|_| ToolError::usage(format!("{what}: the file is not UTF-8")))
}

/// The JSON Schema of `T` as tools export it: draft-07 keywords, subschemas inlined,
/// properties in declaration order, no `$schema`/`title`, and `Option<T>` shown as `T` (an
/// absent field means the default; a `null` is taken as absent, see [`normalize_json`]).
pub fn schema_for<T: schemars::JsonSchema>() -> Value {
    let generator = schemars::generate::SchemaSettings::draft07()
        .with(|s| {
            s.inline_subschemas = true;
            s.meta_schema = None;
        })
        .into_generator();
    let mut schema = generator.into_root_schema_for::<T>().to_value();
    if let Value::Object(map) = &mut schema {
        map.remove("title");
        map.remove("$schema");
    }
    tidy(&mut schema);
    schema
}

/// Removes `null` alternatives, `default: null` and integer `format` noise, recursively.
fn tidy(node: &mut Value) {
    let Value::Object(map) = node else {
        if let Value::Array(items) = node {
            items.iter_mut().for_each(tidy);
        }
        return;
    };
    if let Some(Value::Array(types)) = map.get_mut("type") {
        types.retain(|t| t != "null");
        if types.len() == 1 {
            let only = types.remove(0);
            map.insert("type".into(), only);
        }
    }
    if let Some(Value::Array(alts)) = map.get("anyOf") {
        let non_null: Vec<&Value> = alts
            .iter()
            .filter(|a| a.get("type").and_then(Value::as_str) != Some("null"))
            .collect();
        if non_null.len() == 1
            && alts.len() == 2
            && let Value::Object(inner) = non_null[0].clone()
        {
            map.remove("anyOf");
            for (k, v) in inner {
                map.entry(k).or_insert(v);
            }
        }
    }
    if map.get("default").is_some_and(Value::is_null) {
        map.remove("default");
    }
    if map
        .get("format")
        .and_then(Value::as_str)
        .is_some_and(|f| f.starts_with("uint") || f.starts_with("int"))
    {
        map.remove("format");
    }
    if map
        .get("enum")
        .is_some_and(|e| e.as_array().is_some_and(|a| a.iter().any(Value::is_null)))
        && let Some(Value::Array(e)) = map.get_mut("enum")
    {
        e.retain(|v| !v.is_null());
    }
    for v in map.values_mut() {
        tidy(v);
    }
}

/// The schema of the argument type `T`, made once per process and type: parsed from `text`
/// (the built-in copy, see [`embedded`]) when given and valid JSON, else generated by
/// [`schema_for`]. A CLI call needs its tool's schema twice (flags to JSON, then validation),
/// and `call --batch` once per call. One leaked value per argument type, so bounded by the
/// number of tools.
pub fn cached_schema<T: schemars::JsonSchema + 'static>(text: Option<&str>) -> &'static Value {
    static CACHE: Mutex<Vec<(TypeId, &'static Value)>> = Mutex::new(Vec::new());
    let id = TypeId::of::<T>();
    let mut cache = CACHE.lock().unwrap_or_else(|e| e.into_inner());
    if let Some((_, schema)) = cache.iter().find(|(t, _)| *t == id) {
        return schema;
    }
    let schema = text
        .and_then(|t| serde_json::from_str(t).ok())
        .unwrap_or_else(schema_for::<T>);
    let schema: &'static Value = Box::leak(Box::new(schema));
    cache.push((id, schema));
    schema
}

/// Brings JSON arguments from model APIs to the shape the schemas describe, before validation:
/// an object member whose value is `null` is dropped (OpenAI's strict mode sends `null` for
/// every optional field it leaves out; no schema here accepts `null`, so absent is the only
/// meaning it can have), and a number with a zero fraction (`2.0`, an integer to JSON Schema)
/// becomes an integer. Applies at every depth; nothing else changes.
pub fn normalize_json(value: &mut Value) {
    match value {
        Value::Object(map) => {
            map.retain(|_, v| !v.is_null());
            map.values_mut().for_each(normalize_json);
        }
        Value::Array(items) => items.iter_mut().for_each(normalize_json),
        Value::Number(n) if !n.is_i64() && !n.is_u64() => {
            if let Some(f) = n.as_f64()
                && f.fract() == 0.0
            {
                if f >= 0.0 && f <= u64::MAX as f64 {
                    *value = Value::from(f as u64);
                } else if f < 0.0 && f >= i64::MIN as f64 {
                    *value = Value::from(f as i64);
                }
            }
        }
        _ => {}
    }
}

/// Validates `value` against `schema`, reporting every violation at once, one line each, as
/// `<json path>: <what was expected>, got <value>` (spec 00). Errors are usage errors (exit 2).
pub fn validate(schema: &Value, value: &Value) -> Result<(), ToolError> {
    if fast_check::certainly_valid(schema, value) {
        return Ok(());
    }
    let validator = jsonschema::options()
        .should_validate_formats(false)
        .build(schema)
        .map_err(|e| ToolError::usage(format!("internal schema error: {e}")))?;
    let mut lines: Vec<String> = validator
        .iter_errors(value)
        .map(|e| describe(schema, &e))
        .collect();
    if lines.is_empty() {
        return Ok(());
    }
    lines.dedup();
    Err(ToolError::usage(format!(
        "invalid arguments:\n{}",
        lines.join("\n")
    )))
}

/// One line for one violation.
fn describe(schema: &Value, err: &jsonschema::ValidationError<'_>) -> String {
    use jsonschema::error::ValidationErrorKind as K;
    let path = err.instance_path().as_str().to_owned();
    let at = if path.is_empty() {
        "/".to_owned()
    } else {
        path.clone()
    };
    let got = shown_value(err.instance());
    match err.kind() {
        K::Required { property } => {
            let name = property.as_str().unwrap_or_default();
            format!("{}/{name}: required, but missing", path)
        }
        K::AdditionalProperties { unexpected } => {
            let known = subschema_at(schema, &path)
                .and_then(|s| s.get("properties"))
                .and_then(Value::as_object)
                .map(|p| p.keys().cloned().collect::<Vec<_>>().join(", "))
                .unwrap_or_default();
            unexpected
                .iter()
                .map(|u| format!("{path}/{u}: unknown field (known fields: {known})"))
                .collect::<Vec<_>>()
                .join("\n")
        }
        K::Type { .. }
        | K::Minimum { .. }
        | K::Maximum { .. }
        | K::ExclusiveMinimum { .. }
        | K::ExclusiveMaximum { .. }
        | K::Enum { .. }
        | K::MinLength { .. }
        | K::MaxLength { .. }
        | K::MinItems { .. }
        | K::MaxItems { .. } => match subschema_at(schema, &path) {
            Some(sub) => format!(
                "{at}: expected {}, got {got}",
                expected(sub, err.instance())
            ),
            None => plain(&at, err),
        },
        _ => plain(&at, err),
    }
}

/// The validator's own words for a violation, unless they would quote a long value.
fn plain(at: &str, err: &jsonschema::ValidationError<'_>) -> String {
    let text = err.to_string();
    if text.len() <= 200 {
        format!("{at}: {text}")
    } else {
        format!("{at}: {} is not valid here", shown_value(err.instance()))
    }
}

/// A value as an error message quotes it: a long string or a large array is described by its
/// size instead (a 50 MB argument must not come back in the message).
fn shown_value(v: &Value) -> String {
    const QUOTE_MAX: usize = 80;
    match v {
        Value::String(s) if s.len() > QUOTE_MAX => {
            format!("a string of {} characters", s.chars().count())
        }
        Value::Array(a) if a.len() > 8 => format!("an array of {} items", a.len()),
        Value::Object(_) | Value::Array(_) => {
            let text = v.to_string();
            if text.len() > QUOTE_MAX {
                if v.is_object() {
                    "an object".to_owned()
                } else {
                    format!("an array of {} items", v.as_array().map_or(0, Vec::len))
                }
            } else {
                text
            }
        }
        other => other.to_string(),
    }
}

/// The schema node describing the value at JSON pointer `pointer` (via `properties` and
/// `items`).
fn subschema_at<'a>(schema: &'a Value, pointer: &str) -> Option<&'a Value> {
    let mut node = schema;
    for seg in pointer.split('/').skip(1) {
        node = if seg.parse::<usize>().is_ok() && node.get("items").is_some() {
            node.get("items")?
        } else {
            node.get("properties")?.get(seg)?
        };
    }
    Some(node)
}

/// The type a schema node accepts, without its bounds: `string`, `integer or string`.
fn expected_type(node: &Value) -> String {
    if let Some(options) = node.get("enum").and_then(Value::as_array) {
        let opts: Vec<String> = options.iter().map(Value::to_string).collect();
        return format!("one of {}", opts.join(", "));
    }
    match node.get("type") {
        Some(Value::String(s)) => s.clone(),
        Some(Value::Array(a)) => a
            .iter()
            .filter_map(Value::as_str)
            .collect::<Vec<_>>()
            .join(" or "),
        _ => "a value".to_owned(),
    }
}

/// A short description of what a schema node accepts: `integer >= 1`, `one of "a", "b"`.
fn expected(node: &Value, value: &Value) -> String {
    let mut out = expected_type(node);
    if node.get("enum").is_some() {
        return out;
    }
    let bound = |k: &str| node.get(k).map(Value::to_string);
    // A length or item bound with its noun in the right number (`at least 1 character`).
    let counted = |k: &str, noun: &str| node.get(k).and_then(Value::as_u64).map(|m| count(m, noun));
    if let Some(m) = bound("minimum") {
        out.push_str(&format!(" >= {m}"));
    }
    if let Some(m) = bound("maximum") {
        out.push_str(&format!(" <= {m}"));
    }
    // Length bounds only say something about a string, item bounds about an array (a number
    // given for a path is wrong by its type alone).
    let len = |k: &str| {
        node.get(k)
            .and_then(Value::as_u64)
            .filter(|_| value.is_string())
    };
    match (len("minLength"), len("maxLength")) {
        (Some(lo), Some(hi)) => out.push_str(&format!(" of {lo} to {}", count(hi, "character"))),
        (Some(lo), None) => out.push_str(&format!(" of at least {}", count(lo, "character"))),
        (None, Some(hi)) => out.push_str(&format!(" of at most {}", count(hi, "character"))),
        (None, None) => {}
    }
    if value.is_array() {
        if let Some(m) = counted("minItems", "item") {
            out.push_str(&format!(" with at least {m}"));
        }
        if let Some(m) = counted("maxItems", "item") {
            out.push_str(&format!(" with at most {m}"));
        }
    }
    out
}

/// A clap value parser for flags that take a JSON value of type `T` (object and array
/// arguments on the command line).
pub fn json_flag<T: serde::de::DeserializeOwned>(s: &str) -> Result<T, String> {
    serde_json::from_str(s).map_err(|e| format!("not valid JSON for this flag: {e}"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[derive(serde::Deserialize, schemars::JsonSchema)]
    #[serde(deny_unknown_fields)]
    #[allow(dead_code)]
    struct Demo {
        /// A path.
        path: String,
        /// From line.
        #[serde(default)]
        #[schemars(range(min = 1))]
        offset: Option<u64>,
        /// Mode.
        #[serde(default)]
        mode: Option<DemoMode>,
    }

    #[derive(serde::Deserialize, schemars::JsonSchema)]
    #[serde(rename_all = "lowercase")]
    #[allow(dead_code)]
    enum DemoMode {
        Slice,
        Indentation,
    }

    #[test]
    fn schema_keeps_order_and_drops_null() {
        let s = schema_for::<Demo>();
        let keys: Vec<_> = s["properties"]
            .as_object()
            .unwrap()
            .keys()
            .cloned()
            .collect();
        assert_eq!(keys, ["path", "offset", "mode"]);
        assert_eq!(s["properties"]["offset"]["type"], "integer");
        assert_eq!(s["additionalProperties"], false);
        assert!(s.get("$schema").is_none());
    }

    #[test]
    fn every_problem_at_once() {
        let s = schema_for::<Demo>();
        let err = validate(&s, &json!({"offset": "ten", "mode": "x", "bogus": 1})).unwrap_err();
        let m = err.message;
        assert!(
            m.contains("/offset: expected integer >= 1, got \"ten\""),
            "{m}"
        );
        assert!(m.contains("/path: required"), "{m}");
        assert!(m.contains("/bogus: unknown field"), "{m}");
        assert!(
            m.contains("/mode: expected one of \"slice\", \"indentation\""),
            "{m}"
        );
        assert!(validate(&s, &json!({"path": "a", "offset": 1})).is_ok());
        let err = validate(&s, &json!({"path": "a", "offset": 0})).unwrap_err();
        assert!(
            err.message
                .contains("/offset: expected integer >= 1, got 0"),
            "{}",
            err.message
        );
    }
}
