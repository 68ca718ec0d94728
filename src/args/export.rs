//! Argument schemas as model APIs take them (spec 07 "schema"): [`portable`] for every format,
//! [`strict`] for OpenAI's strict mode. Both are pure transformations of a schema from
//! [`super::schema_for`]; validation keeps using the original.

use serde_json::{Map, Value, json};

/// Makes a schema portable across the APIs that take tool definitions: every object has
/// `properties` (empty when it has none), every array has `items` (an empty schema when it had
/// none), and no node carries `$schema`. Types, descriptions and constraints are kept.
pub fn portable(schema: &mut Value) {
    let Value::Object(map) = schema else {
        return;
    };
    map.remove("$schema");
    match map.get("type").and_then(Value::as_str) {
        Some("object") => {
            map.entry("properties")
                .or_insert_with(|| Value::Object(Map::new()));
        }
        Some("array") => {
            map.entry("items")
                .or_insert_with(|| Value::Object(Map::new()));
        }
        _ => {}
    }
    for_each_subschema(map, portable);
}

/// The keywords OpenAI's strict mode takes in a schema, as agtool exports it. Everything else
/// (length, range, pattern and count constraints, formats, defaults) is moved into the
/// description by [`strict`], where the model still reads it.
pub const STRICT_KEYWORDS: [&str; 9] = [
    "type",
    "description",
    "properties",
    "required",
    "additionalProperties",
    "items",
    "enum",
    "anyOf",
    "const",
];

/// Rewrites a portable schema (see [`portable`]) for OpenAI's strict mode: every object lists
/// all its properties in `required` and has `additionalProperties: false`; a property that
/// was optional accepts `null` too (`"type": ["string", "null"]`, `null` added to an `enum`,
/// `{"type": "null"}` added to an `anyOf`; agtool reads `null` as absent); keywords outside
/// [`STRICT_KEYWORDS`] leave the node and are written at the end of its description
/// (`Constraints: minimum 1; maxLength 64.`).
pub fn strict(schema: &mut Value) {
    strict_node(schema, false);
}

fn strict_node(node: &mut Value, nullable: bool) {
    let Value::Object(map) = node else {
        return;
    };
    move_constraints(map);
    let is_object = map.get("type").and_then(Value::as_str) == Some("object");
    if is_object || map.contains_key("properties") {
        let required: Vec<String> = match map.get("required") {
            Some(Value::Array(r)) => r
                .iter()
                .filter_map(|v| v.as_str().map(str::to_owned))
                .collect(),
            _ => Vec::new(),
        };
        let mut all = Vec::new();
        if let Some(Value::Object(props)) = map.get_mut("properties") {
            for (name, prop) in props.iter_mut() {
                strict_node(prop, !required.contains(name));
                all.push(Value::String(name.clone()));
            }
        }
        map.insert("required".into(), Value::Array(all));
        map.insert("additionalProperties".into(), Value::Bool(false));
    }
    if let Some(items) = map.get_mut("items") {
        strict_node(items, false);
    }
    if let Some(Value::Array(alts)) = map.get_mut("anyOf") {
        for alt in alts.iter_mut() {
            strict_node(alt, false);
        }
        if nullable && !alts.iter().any(|a| a.get("type") == Some(&json!("null"))) {
            alts.push(json!({"type": "null"}));
        }
        return;
    }
    if !nullable {
        return;
    }
    match map.get_mut("type") {
        Some(Value::String(t)) if t != "null" => {
            let t = std::mem::take(t);
            map.insert("type".into(), json!([t, "null"]));
        }
        Some(Value::Array(types)) if !types.contains(&json!("null")) => {
            types.push(json!("null"));
        }
        _ => {}
    }
    if let Some(Value::Array(options)) = map.get_mut("enum")
        && !options.contains(&Value::Null)
    {
        options.push(Value::Null);
    }
}

/// Moves the keywords strict mode does not take into the node's description.
fn move_constraints(map: &mut Map<String, Value>) {
    let moved: Vec<String> = map
        .keys()
        .filter(|k| !STRICT_KEYWORDS.contains(&k.as_str()))
        .cloned()
        .collect();
    if moved.is_empty() {
        return;
    }
    let words: Vec<String> = moved
        .iter()
        .filter_map(|k| {
            let v = map.remove(k)?;
            let shown = match &v {
                Value::String(s) => s.clone(),
                other => other.to_string(),
            };
            Some(format!("{k} {shown}"))
        })
        .collect();
    let note = format!("Constraints: {}.", words.join("; "));
    let text = match map.get("description").and_then(Value::as_str) {
        Some(d) if !d.is_empty() => format!("{d} {note}"),
        _ => note,
    };
    map.insert("description".into(), Value::String(text));
}

/// Applies `f` to every direct subschema of a node: property schemas, `items`, `anyOf`
/// alternatives.
fn for_each_subschema(map: &mut Map<String, Value>, f: fn(&mut Value)) {
    if let Some(Value::Object(props)) = map.get_mut("properties") {
        props.values_mut().for_each(f);
    }
    if let Some(items) = map.get_mut("items") {
        f(items);
    }
    if let Some(Value::Array(alts)) = map.get_mut("anyOf") {
        alts.iter_mut().for_each(f);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> Value {
        json!({
            "$schema": "http://json-schema.org/draft-07/schema#",
            "type": "object",
            "additionalProperties": false,
            "properties": {
                "path": {"type": "string", "minLength": 1, "description": "The file."},
                "offset": {"type": "integer", "minimum": 1, "maximum": 9},
                "mode": {"type": "string", "enum": ["a", "b"]},
                "when": {"anyOf": [{"type": "integer"}, {"type": "string"}]},
                "opts": {"type": "object", "properties": {"x": {"type": "boolean"}}},
                "empty": {"type": "object"},
                "list": {"type": "array", "minItems": 1},
            },
            "required": ["path"],
        })
    }

    #[test]
    fn portable_fills_properties_and_items_and_drops_schema() {
        let mut s = sample();
        portable(&mut s);
        assert!(s.get("$schema").is_none());
        assert_eq!(s["properties"]["empty"]["properties"], json!({}));
        assert_eq!(s["properties"]["list"]["items"], json!({}));
        assert_eq!(s["properties"]["path"]["minLength"], 1, "constraints stay");
        let keys: Vec<&String> = s["properties"].as_object().unwrap().keys().collect();
        assert_eq!(keys[0], "path", "order kept");
    }

    #[test]
    fn strict_requires_everything_and_makes_optional_nullable() {
        let mut s = sample();
        portable(&mut s);
        strict(&mut s);
        assert_eq!(
            s["required"],
            json!(["path", "offset", "mode", "when", "opts", "empty", "list"])
        );
        assert_eq!(s["additionalProperties"], false);
        let p = &s["properties"];
        assert_eq!(p["path"]["type"], "string", "required stays non-null");
        assert_eq!(
            p["path"]["description"],
            "The file. Constraints: minLength 1."
        );
        assert!(p["path"].get("minLength").is_none());
        assert_eq!(p["offset"]["type"], json!(["integer", "null"]));
        assert_eq!(
            p["offset"]["description"],
            "Constraints: minimum 1; maximum 9."
        );
        assert_eq!(p["mode"]["type"], json!(["string", "null"]));
        assert_eq!(p["mode"]["enum"], json!(["a", "b", null]));
        assert_eq!(
            p["when"]["anyOf"],
            json!([{"type": "integer"}, {"type": "string"}, {"type": "null"}])
        );
        assert_eq!(p["opts"]["type"], json!(["object", "null"]));
        assert_eq!(p["opts"]["required"], json!(["x"]));
        assert_eq!(p["opts"]["additionalProperties"], false);
        assert_eq!(
            p["opts"]["properties"]["x"]["type"],
            json!(["boolean", "null"])
        );
        assert_eq!(p["empty"]["required"], json!([]));
        assert_eq!(p["empty"]["additionalProperties"], false);
        assert_eq!(p["list"]["items"], json!({}));
        assert_eq!(p["list"]["description"], "Constraints: minItems 1.");
    }
}
