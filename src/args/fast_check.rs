//! A fast path for argument validation: whether a value *certainly* satisfies a schema, judged
//! by the keywords agtool's argument schemas use.
//!
//! Why: every call is its own process, and building a `jsonschema` validator first loads and
//! checks the draft's meta-schema, about 1 to 2 ms per process; a whole `read-file` of a small
//! file takes about 3 ms. Valid arguments (the common case) are recognised here in
//! microseconds; anything else, and any schema keyword not understood here, goes to the full
//! validator, which then decides and explains every problem. So this check may only ever say
//! "valid" when the full validator would agree (property-tested in `args.rs`).

use serde_json::{Map, Value};

/// `true` only when `value` satisfies `schema` for certain; `false` when it does not, or when
/// `schema` uses a keyword (or a case, such as `1.0` for an integer) this check leaves to the
/// full validator.
pub fn certainly_valid(schema: &Value, value: &Value) -> bool {
    match schema {
        Value::Bool(b) => *b,
        Value::Object(map) => map.iter().all(|(k, v)| keyword_holds(map, k, v, value)),
        _ => false,
    }
}

fn keyword_holds(schema: &Map<String, Value>, key: &str, arg: &Value, value: &Value) -> bool {
    match key {
        // Annotations (formats are not validated: `should_validate_formats(false)`).
        "description" | "title" | "default" | "examples" | "format" => true,
        "type" => match arg {
            Value::String(t) => type_holds(t, value),
            Value::Array(ts) => ts
                .iter()
                .any(|t| t.as_str().is_some_and(|t| type_holds(t, value))),
            _ => false,
        },
        "enum" => arg.as_array().is_some_and(|a| a.contains(value)),
        "const" => arg == value,
        "minimum" => number_holds(value, arg, |x, m| x >= m),
        "maximum" => number_holds(value, arg, |x, m| x <= m),
        "exclusiveMinimum" => number_holds(value, arg, |x, m| x > m),
        "exclusiveMaximum" => number_holds(value, arg, |x, m| x < m),
        "minLength" => length_holds(value.as_str().map(|s| s.chars().count()), arg, |n, m| {
            n >= m
        }),
        "maxLength" => length_holds(value.as_str().map(|s| s.chars().count()), arg, |n, m| {
            n <= m
        }),
        "minItems" => length_holds(value.as_array().map(Vec::len), arg, |n, m| n >= m),
        "maxItems" => length_holds(value.as_array().map(Vec::len), arg, |n, m| n <= m),
        "items" => match (arg, value) {
            (Value::Object(_) | Value::Bool(_), Value::Array(items)) => {
                items.iter().all(|item| certainly_valid(arg, item))
            }
            (Value::Object(_) | Value::Bool(_), _) => true,
            _ => false,
        },
        "properties" => match (arg, value) {
            (Value::Object(props), Value::Object(obj)) => obj
                .iter()
                .all(|(k, v)| props.get(k).is_none_or(|s| certainly_valid(s, v))),
            (Value::Object(_), _) => true,
            _ => false,
        },
        "required" => match (arg, value) {
            (Value::Array(names), Value::Object(obj)) => names
                .iter()
                .all(|n| n.as_str().is_some_and(|n| obj.contains_key(n))),
            (Value::Array(_), _) => true,
            _ => false,
        },
        "additionalProperties" => {
            let Value::Object(obj) = value else {
                return true;
            };
            let declared = schema.get("properties").and_then(Value::as_object);
            obj.iter()
                .filter(|(k, _)| declared.is_none_or(|p| !p.contains_key(*k)))
                .all(|(_, v)| certainly_valid(arg, v))
        }
        // Anything else (pattern, anyOf, $ref, ...): not judged here.
        _ => false,
    }
}

fn type_holds(t: &str, value: &Value) -> bool {
    match t {
        "object" => value.is_object(),
        "array" => value.is_array(),
        "string" => value.is_string(),
        "boolean" => value.is_boolean(),
        "null" => value.is_null(),
        "number" => value.is_number(),
        // 1.0 is an integer to JSON Schema; leave such cases to the full validator.
        "integer" => value.is_i64() || value.is_u64(),
        _ => false,
    }
}

/// A numeric bound: non-numbers are not constrained by it. Only numbers exact as `f64` are
/// judged here (huge integers go to the full validator).
fn number_holds(value: &Value, bound: &Value, ok: impl Fn(f64, f64) -> bool) -> bool {
    let Value::Number(n) = value else {
        return true;
    };
    let exact = |x: f64| x.is_finite() && x.abs() < 9_007_199_254_740_992.0; // 2^53
    match (n.as_f64(), bound.as_f64()) {
        (Some(x), Some(b)) if exact(x) && exact(b) => ok(x, b),
        _ => false,
    }
}

fn length_holds(len: Option<usize>, bound: &Value, ok: impl Fn(u64, u64) -> bool) -> bool {
    match (len, bound.as_u64()) {
        (None, Some(_)) => true,
        (Some(n), Some(m)) => ok(n as u64, m),
        _ => false,
    }
}
