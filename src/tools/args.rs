//! Arguments: schema generation, validation that reports every problem at once, and the
//! conversion of command-line flags into the same JSON object a program would send
//! (spec 00 "Three ways to pass arguments", spec 07).
//!
//! All three ways end in one JSON object validated against the tool's schema, so flags, `--args`
//! and `call` cannot disagree. Defaults live in one place: the serde defaults of the argument
//! struct (clap's `default_value` is shown in `--help` only; values clap filled in from a default
//! are not copied into the object).

mod fast_check;

use std::any::TypeId;
use std::sync::Mutex;

use clap::ArgMatches;
use clap::parser::ValueSource;
use serde_json::{Map, Value};

use crate::error::ToolError;

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

/// [`schema_for`], generated once per process and type: a CLI call needs its tool's schema
/// twice (flags to JSON, then validation), and `call --batch` once per call. One leaked value
/// per argument type, so bounded by the number of tools.
pub fn cached_schema<T: schemars::JsonSchema + 'static>() -> &'static Value {
    static CACHE: Mutex<Vec<(TypeId, &'static Value)>> = Mutex::new(Vec::new());
    let id = TypeId::of::<T>();
    let mut cache = CACHE.lock().unwrap_or_else(|e| e.into_inner());
    if let Some((_, schema)) = cache.iter().find(|(t, _)| *t == id) {
        return schema;
    }
    let schema: &'static Value = Box::leak(Box::new(schema_for::<T>()));
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
    let got = err.instance().to_string();
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
            Some(sub) => format!("{at}: expected {}, got {got}", expected(sub)),
            None => format!("{at}: {err}"),
        },
        _ => format!("{at}: {err}"),
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

/// A short description of what a schema node accepts: `integer >= 1`, `one of "a", "b"`.
fn expected(node: &Value) -> String {
    if let Some(options) = node.get("enum").and_then(Value::as_array) {
        let opts: Vec<String> = options.iter().map(Value::to_string).collect();
        return format!("one of {}", opts.join(", "));
    }
    let ty = match node.get("type") {
        Some(Value::String(s)) => s.clone(),
        Some(Value::Array(a)) => a
            .iter()
            .filter_map(Value::as_str)
            .collect::<Vec<_>>()
            .join(" or "),
        _ => "a value".to_owned(),
    };
    let mut out = ty;
    let bound = |k: &str| node.get(k).map(Value::to_string);
    if let Some(m) = bound("minimum") {
        out.push_str(&format!(" >= {m}"));
    }
    if let Some(m) = bound("maximum") {
        out.push_str(&format!(" <= {m}"));
    }
    if let Some(m) = bound("minLength") {
        out.push_str(&format!(" of at least {m} characters"));
    }
    if let Some(m) = bound("maxLength") {
        out.push_str(&format!(" of at most {m} characters"));
    }
    if let Some(m) = bound("minItems") {
        out.push_str(&format!(" with at least {m} items"));
    }
    if let Some(m) = bound("maxItems") {
        out.push_str(&format!(" with at most {m} items"));
    }
    out
}

/// Builds the JSON arguments object from the flags and positionals given on the command line
/// (not clap defaults), converting each raw string by the schema property's type: integers
/// and numbers parsed (left as strings when they do not parse, so validation names them),
/// booleans from `true`/`false`, arrays of strings from repeated values, other arrays and
/// objects parsed as JSON.
pub fn matches_to_json(
    schema: &Value,
    matches: &ArgMatches,
) -> Result<Map<String, Value>, ToolError> {
    let mut out = Map::new();
    let Some(props) = schema.get("properties").and_then(Value::as_object) else {
        return Ok(out);
    };
    for (name, prop) in props {
        match matches.value_source(name) {
            Some(ValueSource::CommandLine) | Some(ValueSource::EnvVariable) => {}
            _ => continue,
        }
        let Ok(Some(raw)) = matches.try_get_raw(name) else {
            continue;
        };
        let raw: Vec<String> = raw.map(|s| s.to_string_lossy().into_owned()).collect();
        out.insert(name.clone(), convert(name, prop, raw)?);
    }
    Ok(out)
}

fn convert(name: &str, prop: &Value, raw: Vec<String>) -> Result<Value, ToolError> {
    let ty = prop.get("type").and_then(Value::as_str).unwrap_or("string");
    let first = raw.first().cloned().unwrap_or_default();
    let parse_json = |s: &str| {
        serde_json::from_str::<Value>(s).map_err(|e| {
            ToolError::usage(format!("--{}: not valid JSON: {e}", name.replace('_', "-")))
        })
    };
    Ok(match ty {
        "integer" => first
            .parse::<i64>()
            .map(Value::from)
            .or_else(|_| first.parse::<u64>().map(Value::from))
            .unwrap_or(Value::String(first)),
        "number" => first
            .parse::<f64>()
            .ok()
            .and_then(|f| serde_json::Number::from_f64(f).map(Value::Number))
            .unwrap_or(Value::String(first)),
        "boolean" => match first.as_str() {
            "true" | "" => Value::Bool(true),
            "false" => Value::Bool(false),
            _ => Value::String(first),
        },
        "array" => {
            let item_ty = prop
                .get("items")
                .and_then(|i| i.get("type"))
                .and_then(Value::as_str);
            if item_ty == Some("string") {
                Value::Array(raw.into_iter().map(Value::String).collect())
            } else if raw.len() == 1 && first.trim_start().starts_with('[') {
                parse_json(&first)?
            } else {
                Value::Array(
                    raw.iter()
                        .map(|r| parse_json(r))
                        .collect::<Result<Vec<_>, _>>()?,
                )
            }
        }
        "object" => parse_json(&first)?,
        _ => Value::String(first),
    })
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

    /// Values near what a schema node accepts: valid ones, boundary values on both sides,
    /// wrong types, missing and unknown properties.
    fn near(schema: &Value) -> proptest::strategy::BoxedStrategy<Value> {
        use proptest::prelude::*;
        if let Some(options) = schema.get("enum").and_then(Value::as_array) {
            let mut all = options.clone();
            all.extend([json!("bogus"), json!(1)]);
            return prop::sample::select(all).boxed();
        }
        let pick = |v: Vec<Value>| prop::sample::select(v).boxed();
        match schema.get("type").and_then(Value::as_str) {
            Some("integer") => pick(vec![
                json!(-1),
                json!(0),
                json!(1),
                json!(2),
                json!(400),
                json!(1999),
                json!(2000),
                json!(2001),
                json!(u64::MAX),
                json!(i64::MIN),
                json!(1.0),
                json!(1.5),
                json!("1"),
                Value::Null,
            ]),
            Some("string") => pick(vec![json!(""), json!("a"), json!("*.rs"), json!(5)]),
            Some("boolean") => pick(vec![json!(true), json!(false), json!("true"), json!(0)]),
            Some("object") => {
                let props: Vec<_> = schema["properties"]
                    .as_object()
                    .map(|p| p.iter().map(|(k, s)| (k.clone(), near(s))).collect())
                    .unwrap_or_default();
                let fields: Vec<_> = props
                    .into_iter()
                    .map(|(k, s)| prop::option::weighted(0.5, s).prop_map(move |v| (k.clone(), v)))
                    .collect();
                (fields, prop::option::weighted(0.1, Just(json!(1))))
                    .prop_map(|(fields, bogus)| {
                        let mut m: Map<String, Value> = fields
                            .into_iter()
                            .filter_map(|(k, v)| v.map(|v| (k, v)))
                            .collect();
                        if let Some(b) = bogus {
                            m.insert("bogus".into(), b);
                        }
                        Value::Object(m)
                    })
                    .boxed()
            }
            _ => pick(vec![Value::Null, json!([]), json!({})]),
        }
    }

    /// The fast path may only call valid what the full validator calls valid, on every tool's
    /// real schema.
    #[test]
    fn fast_check_never_accepts_what_the_validator_rejects() {
        use proptest::prelude::*;
        let schemas: Vec<Value> = crate::tools::registry()
            .iter()
            .map(|t| (t.schema)().clone())
            .chain([schema_for::<Demo>()])
            .collect();
        let accepted = std::cell::Cell::new(0);
        for schema in &schemas {
            let full = jsonschema::options()
                .should_validate_formats(false)
                .build(schema)
                .unwrap();
            let mut runner =
                proptest::test_runner::TestRunner::new(ProptestConfig::with_cases(2000));
            runner
                .run(&near(schema), |v| {
                    let fast = fast_check::certainly_valid(schema, &v);
                    let valid = full.is_valid(&v);
                    prop_assert!(!fast || valid, "fast path accepted {v} for {schema}");
                    accepted.set(accepted.get() + u32::from(fast));
                    Ok(())
                })
                .unwrap();
        }
        // The generator really produces valid arguments, so the property is exercised.
        let accepted = accepted.get();
        assert!(accepted > 500, "only {accepted} accepted");
    }

    #[test]
    fn fast_check_accepts_common_valid_arguments() {
        let s = crate::tools::find("read_file")
            .map(|t| (t.schema)())
            .unwrap();
        assert!(fast_check::certainly_valid(
            s,
            &json!({"path": "a", "offset": 3, "limit": 10})
        ));
        assert!(fast_check::certainly_valid(
            s,
            &json!({"path": "a", "mode": "indentation", "indentation": {"anchor_line": 2}})
        ));
        assert!(!fast_check::certainly_valid(
            s,
            &json!({"path": "a", "offset": 0})
        ));
        assert!(!fast_check::certainly_valid(s, &json!({"offset": 1})));
        assert!(!fast_check::certainly_valid(
            s,
            &json!({"path": "a", "x": 1})
        ));
        assert!(!fast_check::certainly_valid(
            s,
            &json!({"path": "a", "indentation": {"y": 1}})
        ));
        let g = crate::tools::find("grep").map(|t| (t.schema)()).unwrap();
        assert!(fast_check::certainly_valid(
            g,
            &json!({"pattern": "x", "output": "count", "limit": 2000})
        ));
        assert!(!fast_check::certainly_valid(
            g,
            &json!({"pattern": "x", "limit": 2001})
        ));
        assert!(!fast_check::certainly_valid(g, &json!({"pattern": ""})));
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
