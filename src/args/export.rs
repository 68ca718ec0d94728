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

/// Fits a tool definition's `description` within `limit` characters (an API's cap, issue 18
/// §2; `None` = no cap). A description with a catalogue section (`catalogue_heading`, e.g. the
/// skill tool's `\n\nSkills:\n`) whose schema has a `name` property keeps its intro and
/// moves the catalogue into that parameter's description, where the model reads it next to
/// the argument it names; whatever is still too long is cut, ending in `…`.
pub fn fit_description(
    description: &mut String,
    schema: &mut Value,
    limit: Option<usize>,
    catalogue_heading: &str,
) {
    let Some(limit) = limit else {
        return;
    };
    if description.chars().count() <= limit {
        return;
    }
    let name_param = schema
        .get_mut("properties")
        .and_then(|p| p.get_mut("name"))
        .and_then(Value::as_object_mut);
    if let (Some(at), Some(param)) = (description.find(catalogue_heading), name_param) {
        let catalogue = description[at..].trim_start().to_string();
        description.truncate(at);
        description.push_str("\n\nThe skills are listed in the description of its name parameter.");
        let own = param
            .get("description")
            .and_then(Value::as_str)
            .unwrap_or_default();
        let text = if own.is_empty() {
            catalogue
        } else {
            format!("{own}\n\n{catalogue}")
        };
        param.insert("description".into(), Value::String(text));
    }
    if description.chars().count() > limit {
        let keep: String = description.chars().take(limit - 1).collect();
        *description = keep + "…";
    }
}

/// The schema keywords Gemini's function declarations take in `parameters` (its OpenAPI 3.0
/// subset, `Schema`); [`gemini`] moves the others into the description.
pub const GEMINI_KEYWORDS: [&str; 22] = [
    "type",
    "format",
    "title",
    "description",
    "nullable",
    "enum",
    "maxItems",
    "minItems",
    "properties",
    "required",
    "minProperties",
    "maxProperties",
    "minLength",
    "maxLength",
    "pattern",
    "example",
    "anyOf",
    "propertyOrdering",
    "default",
    "items",
    "minimum",
    "maximum",
];

/// Rewrites a portable schema (see [`portable`]) into the OpenAPI subset Gemini's
/// `functionDeclarations[].parameters` takes: `$ref`s inlined from the root's `$defs` /
/// `definitions` (a cycle is cut to an empty object), `oneOf` as `anyOf`, a string `const` as
/// a one-value `enum`, a type array as one type with `nullable: true` for `null` (several
/// types as an `anyOf`), `propertyOrdering` keeping the declaration order, and every other
/// keyword (`additionalProperties`, `const` that is not a string, an `enum` that is not of
/// strings) moved into the description as [`strict`] does. agtool still validates calls
/// against the original schema.
pub fn gemini(schema: &mut Value) {
    let defs = schema.as_object_mut().map(|root| {
        let mut defs = Map::new();
        for key in ["$defs", "definitions"] {
            if let Some(Value::Object(d)) = root.remove(key) {
                for (name, def) in d {
                    defs.insert(format!("#/{key}/{name}"), def);
                }
            }
        }
        defs
    });
    gemini_node(schema, defs.as_ref().unwrap_or(&Map::new()), 0);
}

fn gemini_node(node: &mut Value, defs: &Map<String, Value>, depth: usize) {
    let Value::Object(map) = node else {
        return;
    };
    if let Some(Value::String(reference)) = map.remove("$ref") {
        let target = defs.get(&reference).filter(|_| depth < 16).cloned();
        let mut inlined = target.unwrap_or_else(|| json!({"type": "object", "properties": {}}));
        if let (Value::Object(inner), Some(d)) = (&mut inlined, map.get("description")) {
            inner.insert("description".into(), d.clone());
        }
        *node = inlined;
        return gemini_node(node, defs, depth + 1);
    }
    if let Some(alts) = map.remove("oneOf") {
        map.insert("anyOf".into(), alts);
    }
    if let Some(Value::String(c)) = map.get("const").cloned() {
        map.remove("const");
        map.insert("enum".into(), json!([c]));
        map.entry("type").or_insert_with(|| json!("string"));
    }
    if let Some(Value::Array(types)) = map.get("type").cloned() {
        let (nulls, others): (Vec<Value>, Vec<Value>) =
            types.into_iter().partition(|t| t == "null");
        if !nulls.is_empty() {
            map.insert("nullable".into(), Value::Bool(true));
        }
        match others.as_slice() {
            [one] => {
                map.insert("type".into(), one.clone());
            }
            _ => {
                map.remove("type");
                let alts = others.into_iter().map(|t| json!({"type": t})).collect();
                map.insert("anyOf".into(), Value::Array(alts));
            }
        }
    }
    let string_enum = map
        .get("enum")
        .and_then(Value::as_array)
        .is_some_and(|values| values.iter().all(Value::is_string));
    if !string_enum && let Some(values) = map.remove("enum") {
        map.insert("x-enum".into(), values);
    }
    if let Some(Value::Object(props)) = map.get("properties") {
        let order: Vec<Value> = props.keys().map(|k| Value::String(k.clone())).collect();
        if !order.is_empty() {
            map.insert("propertyOrdering".into(), Value::Array(order));
        }
    }
    let moved: Vec<String> = map
        .keys()
        .filter(|k| !GEMINI_KEYWORDS.contains(&k.as_str()))
        .cloned()
        .collect();
    let words: Vec<String> = moved
        .iter()
        .filter(|k| k.as_str() != "additionalProperties")
        .filter_map(|k| {
            let shown = match map.get(k)? {
                Value::String(s) => s.clone(),
                other => other.to_string(),
            };
            Some(format!("{} {shown}", k.trim_start_matches("x-")))
        })
        .collect();
    for k in &moved {
        map.remove(k);
    }
    if !words.is_empty() {
        let note = format!("Constraints: {}.", words.join("; "));
        let text = match map.get("description").and_then(Value::as_str) {
            Some(d) if !d.is_empty() => format!("{d} {note}"),
            _ => note,
        };
        map.insert("description".into(), Value::String(text));
    }
    if let Some(Value::Object(props)) = map.get_mut("properties") {
        props.values_mut().for_each(|p| gemini_node(p, defs, depth));
    }
    if let Some(items) = map.get_mut("items") {
        gemini_node(items, defs, depth);
    }
    if let Some(Value::Array(alts)) = map.get_mut("anyOf") {
        alts.iter_mut().for_each(|a| gemini_node(a, defs, depth));
    }
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
    fn gemini_takes_the_openapi_subset() {
        let mut s = json!({
            "type": "object",
            "additionalProperties": false,
            "$defs": {"Mode": {"type": "string", "enum": ["a", "b"]}},
            "properties": {
                "path": {"type": ["string", "null"], "minLength": 1},
                "mode": {"$ref": "#/$defs/Mode", "description": "How."},
                "kind": {"const": "x"},
                "either": {"oneOf": [{"type": "integer"}, {"type": "string"}]},
                "level": {"type": "integer", "enum": [1, 2], "exclusiveMinimum": 0},
            },
        });
        portable(&mut s);
        gemini(&mut s);
        assert!(s.get("additionalProperties").is_none() && s.get("$defs").is_none());
        let p = &s["properties"];
        assert_eq!(
            p["path"],
            json!({"type": "string", "nullable": true, "minLength": 1})
        );
        assert_eq!(
            p["mode"],
            json!({"type": "string", "enum": ["a", "b"], "description": "How."})
        );
        assert_eq!(p["kind"], json!({"enum": ["x"], "type": "string"}));
        assert_eq!(p["either"]["anyOf"][1], json!({"type": "string"}));
        assert_eq!(
            p["level"],
            json!({"type": "integer", "description": "Constraints: exclusiveMinimum 0; enum [1,2]."})
        );
        assert_eq!(
            s["propertyOrdering"],
            json!(["path", "mode", "kind", "either", "level"])
        );
    }

    #[test]
    fn a_catalogue_too_long_for_the_cap_moves_into_the_name_parameter() {
        let mut desc = format!("Load a skill.\n\nSkills:\n{}", "a: b\n".repeat(400));
        let mut schema =
            json!({"properties": {"name": {"type": "string", "description": "Its name."}}});
        fit_description(&mut desc, &mut schema, Some(1024), "\n\nSkills:\n");
        assert_eq!(
            desc,
            "Load a skill.\n\nThe skills are listed in the description of its name parameter."
        );
        let name = schema["properties"]["name"]["description"]
            .as_str()
            .unwrap();
        assert!(name.starts_with("Its name.\n\nSkills:\na: b\n"), "{name}");
        let mut long = "x".repeat(2000);
        fit_description(&mut long, &mut json!({}), Some(1024), "\n\nSkills:\n");
        assert_eq!(long.chars().count(), 1024);
        assert!(long.ends_with('…'));
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
