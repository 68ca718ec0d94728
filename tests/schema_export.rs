//! `agtool schema` exports that each API accepts as they are (spec 07 "schema"): the keys each
//! API takes, portable schemas, OpenAI's strict-mode rules, golden files, and the group rules
//! shared with `call` and `mcp`. Also `call --batch` ids and an array given to `call`.
//!
//! The golden files (tests/golden/schema-*.json) hold every tool's export in each format. When
//! a tool or a description changes on purpose, regenerate them with
//! `UPDATE_GOLDEN=1 cargo test --test schema_export` and review the diff.

mod common;

use std::collections::BTreeSet;

use common::*;
use serde_json::{Value, json};

/// The formats, with the extra flags that select them.
const FORMATS: [(&str, &[&str]); 6] = [
    ("anthropic", &["--format", "anthropic"]),
    ("openai", &["--format", "openai"]),
    ("openai-strict", &["--format", "openai", "--strict"]),
    ("openai-responses", &["--format", "openai-responses"]),
    ("mcp", &["--format", "mcp"]),
    ("gemini", &["--format", "gemini"]),
];

fn export(ws: &Ws, flags: &[&str]) -> Vec<Value> {
    let mut args = vec!["--groups", "all", "schema"];
    args.extend_from_slice(flags);
    let out = ws.run(&args);
    out.code(0);
    serde_json::from_str(&out.out).unwrap()
}

/// The keys each API takes in one tool definition (the export may use fewer).
/// - Anthropic Messages API, `tools[]` (custom tools): name, description, input_schema,
///   cache_control, type (https://docs.anthropic.com/en/api/messages).
/// - OpenAI Chat Completions, `tools[]`: type, function {name, description, parameters,
///   strict} (https://platform.openai.com/docs/api-reference/chat/create).
/// - OpenAI Responses, `tools[]` function tools: type, name, description, parameters, strict
///   (https://platform.openai.com/docs/api-reference/responses/create).
/// - MCP `Tool` (schema 2025-11-25): name, title, description, inputSchema, outputSchema,
///   annotations {title, readOnlyHint, destructiveHint, idempotentHint, openWorldHint}, icons,
///   _meta, execution.
fn check_keys(format: &str, def: &Value) {
    let keys = |v: &Value| -> BTreeSet<String> { v.as_object().unwrap().keys().cloned().collect() };
    let allowed =
        |list: &[&str]| -> BTreeSet<String> { list.iter().map(|s| s.to_string()).collect() };
    let name = &def["name"];
    match format {
        "anthropic" => {
            let ok = allowed(&[
                "name",
                "description",
                "input_schema",
                "cache_control",
                "type",
            ]);
            assert!(keys(def).is_subset(&ok), "{name}: {:?}", keys(def));
        }
        "openai" | "openai-strict" => {
            assert!(
                keys(def).is_subset(&allowed(&["type", "function"])),
                "{:?}",
                keys(def)
            );
            assert_eq!(def["type"], "function");
            let f = &def["function"];
            let ok = allowed(&["name", "description", "parameters", "strict"]);
            assert!(keys(f).is_subset(&ok), "{}: {:?}", f["name"], keys(f));
        }
        "openai-responses" => {
            let ok = allowed(&["type", "name", "description", "parameters", "strict"]);
            assert!(keys(def).is_subset(&ok), "{name}: {:?}", keys(def));
            assert_eq!(def["type"], "function");
            // The Responses API applies strict mode when `strict` is left out.
            assert_eq!(def["strict"], false, "{name}");
        }
        "mcp" => {
            let ok = allowed(&[
                "name",
                "title",
                "description",
                "inputSchema",
                "outputSchema",
                "annotations",
                "icons",
                "_meta",
                "execution",
            ]);
            assert!(keys(def).is_subset(&ok), "{name}: {:?}", keys(def));
            let hints = allowed(&[
                "title",
                "readOnlyHint",
                "destructiveHint",
                "idempotentHint",
                "openWorldHint",
            ]);
            assert_eq!(keys(&def["annotations"]), {
                let mut h = hints.clone();
                h.remove("title");
                h
            });
        }
        // Gemini `FunctionDeclaration`: name, description, behavior, parameters,
        // parametersJsonSchema, response, responseJsonSchema
        // (https://ai.google.dev/api/caching#FunctionDeclaration).
        "gemini" => {
            let ok = allowed(&[
                "name",
                "description",
                "behavior",
                "parameters",
                "parametersJsonSchema",
                "response",
                "responseJsonSchema",
            ]);
            assert!(keys(def).is_subset(&ok), "{name}: {:?}", keys(def));
        }
        other => panic!("{other}"),
    }
}

/// Gemini's `Schema` (an OpenAPI 3.0 subset, https://ai.google.dev/api/caching#Schema): only
/// its fields, one type per node (no type arrays; `nullable` instead), no
/// additionalProperties, $ref, const or oneOf, and `enum` only for strings.
fn check_gemini(name: &str, schema: &Value) {
    const FIELDS: [&str; 22] = [
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
    walk(schema, 1, name, &mut |node, _, path| {
        let map = node.as_object().unwrap();
        for k in map.keys() {
            assert!(FIELDS.contains(&k.as_str()), "{path}: field {k}");
        }
        if let Some(t) = map.get("type") {
            assert!(t.is_string(), "{path}: type {t}");
        }
        if let Some(values) = map.get("enum") {
            assert!(
                values.as_array().unwrap().iter().all(Value::is_string),
                "{path}"
            );
        }
    });
}

/// The tool's name and argument schema in any format.
fn parts<'a>(format: &str, def: &'a Value) -> (&'a str, &'a Value) {
    let (name, schema) = match format {
        "anthropic" => (&def["name"], &def["input_schema"]),
        "openai" | "openai-strict" => (&def["function"]["name"], &def["function"]["parameters"]),
        "openai-responses" | "gemini" => (&def["name"], &def["parameters"]),
        _ => (&def["name"], &def["inputSchema"]),
    };
    (name.as_str().unwrap(), schema)
}

/// JSON Schema keywords every API here takes in a (non-strict) tool schema.
const PORTABLE_KEYWORDS: [&str; 16] = [
    "type",
    "description",
    "properties",
    "required",
    "additionalProperties",
    "items",
    "enum",
    "const",
    "anyOf",
    "minimum",
    "maximum",
    "minLength",
    "maxLength",
    "pattern",
    "minItems",
    "maxItems",
];

/// Calls `f` on every schema node (the root, property schemas, items, anyOf alternatives) with
/// its depth (root 1) and path.
fn walk(node: &Value, depth: usize, path: &str, f: &mut dyn FnMut(&Value, usize, &str)) {
    f(node, depth, path);
    if let Some(props) = node.get("properties").and_then(Value::as_object) {
        for (k, v) in props {
            walk(v, depth + 1, &format!("{path}/{k}"), f);
        }
    }
    if let Some(items) = node.get("items") {
        walk(items, depth + 1, &format!("{path}[]"), f);
    }
    if let Some(alts) = node.get("anyOf").and_then(Value::as_array) {
        for (i, a) in alts.iter().enumerate() {
            walk(a, depth, &format!("{path}|{i}"), f);
        }
    }
}

fn check_portable(name: &str, schema: &Value, strict: bool) {
    assert_eq!(schema["type"], "object", "{name}: the root is an object");
    let name_ok = !name.is_empty()
        && name.len() <= 64
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-');
    assert!(name_ok, "{name}: names match ^[a-zA-Z0-9_-]{{1,64}}$");
    jsonschema::options()
        .build(schema)
        .unwrap_or_else(|e| panic!("{name}: not a valid JSON Schema: {e}"));
    walk(schema, 1, name, &mut |node, _, path| {
        let map = node
            .as_object()
            .unwrap_or_else(|| panic!("{path}: not an object"));
        for k in map.keys() {
            assert!(
                PORTABLE_KEYWORDS.contains(&k.as_str()),
                "{path}: keyword {k}"
            );
        }
        let types: Vec<&str> = match &map.get("type") {
            Some(Value::String(t)) => vec![t.as_str()],
            Some(Value::Array(ts)) => {
                assert!(strict, "{path}: a type array outside --strict");
                ts.iter().map(|t| t.as_str().unwrap()).collect()
            }
            _ => vec![],
        };
        if types.contains(&"object") {
            assert!(
                map.get("properties").is_some_and(Value::is_object),
                "{path}: properties"
            );
        }
        if types.contains(&"array") {
            assert!(
                map.get("items").is_some_and(Value::is_object),
                "{path}: items"
            );
        }
    });
}

/// OpenAI strict mode, as the Structured Outputs guide gives it
/// (https://platform.openai.com/docs/guides/structured-outputs#supported-schemas) and the
/// function-calling guide for tools (https://platform.openai.com/docs/guides/function-calling,
/// "Strict mode"):
/// 1. the root is an object, not an anyOf;
/// 2. every object has `additionalProperties: false`;
/// 3. every property of every object is in its `required`; an optional field is expressed
///    as a union with `null`;
/// 4. only the supported keywords appear. The guide lists type, properties, required,
///    additionalProperties, items, enum, const, anyOf, description ($ref/$defs too) and, for
///    newer models only, a few constraint keywords (pattern, format, minimum, maximum,
///    minItems...); fine-tuned and older models reject those, so agtool keeps none of them
///    and moves them into the description;
/// 5. at most 5000 object properties in all and 10 levels of nesting;
/// 6. at most 1000 enum values in all, and names, enum values and const values together at
///    most 120,000 characters;
/// 7. every type is one of string, number, integer, boolean, object, array, null.
fn check_strict(name: &str, schema: &Value) {
    const KEYWORDS: [&str; 9] = [
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
    const TYPES: [&str; 7] = [
        "string", "number", "integer", "boolean", "object", "array", "null",
    ];
    assert!(schema.get("anyOf").is_none(), "{name}: rule 1");
    let (mut props, mut enums, mut chars, mut deepest) = (0usize, 0usize, 0usize, 0usize);
    walk(schema, 1, name, &mut |node, depth, path| {
        let map = node.as_object().unwrap();
        deepest = deepest.max(depth);
        for k in map.keys() {
            assert!(KEYWORDS.contains(&k.as_str()), "{path}: rule 4: {k}");
        }
        let types: Vec<&str> = match map.get("type") {
            Some(Value::String(t)) => vec![t.as_str()],
            Some(Value::Array(ts)) => ts.iter().map(|t| t.as_str().unwrap()).collect(),
            _ => vec![],
        };
        for t in &types {
            assert!(TYPES.contains(t), "{path}: rule 7: {t}");
        }
        if types.contains(&"object") || map.contains_key("properties") {
            assert_eq!(
                map.get("additionalProperties"),
                Some(&json!(false)),
                "{path}: rule 2"
            );
            let keys: Vec<&String> = map["properties"].as_object().unwrap().keys().collect();
            let required: Vec<&str> = map["required"]
                .as_array()
                .unwrap()
                .iter()
                .map(|r| r.as_str().unwrap())
                .collect();
            assert_eq!(
                keys.iter().map(|k| k.as_str()).collect::<Vec<_>>(),
                required,
                "{path}: rule 3"
            );
            props += keys.len();
            chars += keys.iter().map(|k| k.len()).sum::<usize>();
        }
        if types.contains(&"array") {
            let items = map.get("items").unwrap_or_else(|| panic!("{path}: items"));
            assert!(
                items.get("type").is_some() || items.get("anyOf").is_some(),
                "{path}: items without a type"
            );
        }
        if let Some(Value::Array(e)) = map.get("enum") {
            enums += e.len();
            chars += e
                .iter()
                .map(|v| v.as_str().map_or(0, str::len))
                .sum::<usize>();
            // An enum that takes null must say so in its type too.
            if e.contains(&Value::Null) {
                assert!(types.contains(&"null"), "{path}: rule 3: enum with null");
            }
        }
    });
    assert!(
        props <= 5000 && deepest <= 10,
        "{name}: rule 5 ({props}, {deepest})"
    );
    assert!(enums <= 1000 && chars <= 120_000, "{name}: rule 6");
}

#[test]
fn every_export_uses_only_keys_its_api_takes() {
    let ws = Ws::new();
    for (format, flags) in FORMATS {
        let defs = export(&ws, flags);
        assert!(defs.len() >= 12, "{format}: every group's tools");
        let mut names = BTreeSet::new();
        for def in &defs {
            check_keys(format, def);
            let (name, schema) = parts(format, def);
            assert!(names.insert(name.to_owned()), "{format}: {name} twice");
            assert!(
                def.get("x-agtool").is_none(),
                "{format}: no extensions by default"
            );
            let text = def.to_string();
            assert!(!text.contains("$schema"), "{format} {name}: $schema");
            if format == "gemini" {
                check_gemini(name, schema);
                continue;
            }
            check_portable(name, schema, format == "openai-strict");
            if format == "openai-strict" {
                assert_eq!(def["function"]["strict"], true, "{name}");
                check_strict(name, schema);
            }
        }
    }
    let defs = export(&ws, &["--format", "openai-responses", "--strict"]);
    for def in &defs {
        assert_eq!(def["strict"], true);
        check_strict(def["name"].as_str().unwrap(), &def["parameters"]);
    }
}

#[test]
fn strict_schemas_keep_optional_fields_optional_and_constraints_readable() {
    let ws = Ws::new();
    let defs = export(&ws, &["--format", "openai", "--strict", "read_file"]);
    let p = &defs[0]["function"]["parameters"]["properties"];
    // read_file takes path or paths (spec 09): both optional. A required field keeps its
    // plain type.
    assert_eq!(p["path"]["type"], json!(["string", "null"]));
    let edit = export(&ws, &["--format", "openai", "--strict", "edit_file"]);
    assert_eq!(
        edit[0]["function"]["parameters"]["properties"]["path"]["type"],
        "string"
    );
    assert_eq!(p["offset"]["type"], json!(["integer", "null"]));
    assert!(
        p["offset"]["description"]
            .as_str()
            .unwrap()
            .ends_with("Constraints: minimum 1."),
        "{}",
        p["offset"]
    );
    assert_eq!(p["mode"]["enum"], json!(["slice", "indentation", null]));
    // What a strict-mode model sends (every optional field null) is what agtool runs.
    ws.write("a.txt", "one\ntwo\n");
    let mut args = serde_json::Map::new();
    for key in p.as_object().unwrap().keys() {
        args.insert(key.clone(), Value::Null);
    }
    args.insert("path".into(), json!("a.txt"));
    let out = ws.call("read_file", &Value::Object(args));
    out.code(0);
    assert!(out.out.contains("L2: two"), "{}", out.out);
}

#[test]
fn extensions_are_added_only_when_asked() {
    let ws = Ws::new();
    for (format, flags) in FORMATS {
        let mut flags = flags.to_vec();
        flags.push("--extensions");
        for def in export(&ws, &flags) {
            let x = &def["x-agtool"];
            assert!(x["group"].is_string(), "{format}: {def}");
            assert!(x["sensitive"].is_boolean() && x["serial"].is_boolean());
            assert!(x["idempotent"].is_boolean() && x["tags"].is_array());
            assert!(x.get("timeout_ms").is_some());
        }
    }
    let out = ws.run(&["schema", "--extensions", "--no-extensions"]);
    out.code(2);
}

/// Per-host definitions (spec 10, `[tools.<name>]`) in each format's export, against
/// tests/golden/overrides/schema-<format>.json: a replaced and an appended description, a
/// sensitive flag turned off (seen in `x-agtool`) and a tool switched off.
#[test]
fn exports_with_per_host_definitions_match_their_golden_files() {
    let ws = Ws::new();
    let user_config = ws.home.join(".config/agtool/config.toml");
    std::fs::create_dir_all(user_config.parent().unwrap()).unwrap();
    std::fs::write(
        &user_config,
        "[tools.read_file]\ndescription = \"Read one file of this repository.\"\n\
         [tools.grep]\ndescription_append = \"Prefer grep over exec for searching.\"\n\
         [tools.web_fetch]\nsensitive = false\n\
         [tools.glob]\nenabled = false\n",
    )
    .unwrap();
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/golden/overrides");
    let update = std::env::var_os("UPDATE_GOLDEN").is_some();
    let mut stale = Vec::new();
    for (format, flags) in FORMATS {
        let mut args = vec!["--groups", "files,web", "schema", "--extensions"];
        args.extend_from_slice(flags);
        let out = ws.run(&args);
        out.code(0);
        let defs: Vec<Value> = serde_json::from_str(&out.out).unwrap();
        let text = format!("{}\n", serde_json::to_string_pretty(&defs).unwrap());
        assert!(
            text.contains("Read one file of this repository."),
            "{format}"
        );
        assert!(
            text.contains("Prefer grep over exec for searching."),
            "{format}"
        );
        assert!(!text.contains("\"glob\""), "{format}: glob is switched off");
        let file = dir.join(format!("schema-{format}.json"));
        if update {
            std::fs::create_dir_all(&dir).unwrap();
            std::fs::write(&file, &text).unwrap();
            continue;
        }
        if std::fs::read_to_string(&file).unwrap_or_default() != text {
            stale.push(file.display().to_string());
        }
    }
    assert!(
        stale.is_empty(),
        "the export with per-host definitions changed: {stale:?}; if meant, regenerate with\n  \
         UPDATE_GOLDEN=1 cargo test --test schema_export"
    );
}

/// Each format's export of every tool, against tests/golden/schema-<format>.json.
#[test]
fn exports_match_the_golden_files() {
    let ws = Ws::new();
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/golden");
    let update = std::env::var_os("UPDATE_GOLDEN").is_some();
    let mut stale = Vec::new();
    for (format, flags) in FORMATS {
        let defs = export(&ws, flags);
        let text = format!("{}\n", serde_json::to_string_pretty(&defs).unwrap());
        let file = dir.join(format!("schema-{format}.json"));
        if update {
            std::fs::create_dir_all(&dir).unwrap();
            std::fs::write(&file, &text).unwrap();
            continue;
        }
        let golden = std::fs::read_to_string(&file).unwrap_or_default();
        if golden != text {
            stale.push(file.display().to_string());
        }
    }
    assert!(
        stale.is_empty(),
        "the schema export changed: {stale:?}.\nIf the change is meant (a new tool, a new \
         description), regenerate the golden files with\n  UPDATE_GOLDEN=1 cargo test --test \
         schema_export\nand review the diff."
    );
}

#[test]
fn schema_honours_the_groups_and_names_them() {
    let ws = Ws::new();
    let out = ws.run(&["schema"]);
    let defs: Vec<Value> = serde_json::from_str(out.ok()).unwrap();
    let names: Vec<&str> = defs.iter().map(|d| d["name"].as_str().unwrap()).collect();
    assert_eq!(
        names,
        ["read_file", "list_dir", "glob", "grep", "diagnostics"],
        "files by default"
    );
    // A tool outside the enabled groups is an error, not a definition call then refuses.
    let out = ws.run(&["schema", "write_file"]);
    out.code(2);
    assert!(out.out.is_empty());
    assert!(
        out.err
            .contains("write_file is in the group edit, which is not enabled")
            && out.err.contains("enabled: files")
            && out.err.contains("--groups files,edit"),
        "{}",
        out.err
    );
    let out = ws.run(&["--groups", "edit", "schema", "write_file"]);
    out.code(0);
    let out = ws.run(&["schema", "frobnicate"]);
    out.code(2);
    assert!(
        out.err.contains("unknown tool \"frobnicate\""),
        "{}",
        out.err
    );
    let out = ws.run(&["schema", "--format", "mcp", "--strict"]);
    out.code(2);
    assert!(out.err.contains("--strict"), "{}", out.err);
}

#[test]
fn an_unknown_group_is_an_error_everywhere() {
    let ws = Ws::new();
    ws.write("a.txt", "x\n");
    let valid = "the groups are files, edit, delete, exec, web, skill, notes, and all";
    let check = |run: Run, source: &str| {
        run.code(2);
        assert!(run.out.is_empty(), "{}", run.out);
        assert!(
            run.err.contains("unknown tool group \"bogus\""),
            "{}",
            run.err
        );
        assert!(
            run.err.contains(source) && run.err.contains(valid),
            "{}",
            run.err
        );
    };
    check(
        ws.run(&["--groups", "files,bogus", "schema"]),
        "in --groups",
    );
    let call = |c: &mut assert_cmd::Command| -> Run {
        Run::from(
            c.args(["call", "read_file"])
                .write_stdin(r#"{"path":"a.txt"}"#)
                .output()
                .unwrap(),
        )
    };
    check(
        call(ws.cmd().env("AGTOOL_GROUPS", "bogus")),
        "in AGTOOL_GROUPS",
    );
    check(
        Run::from(
            ws.cmd()
                .args(["--groups", "bogus", "mcp"])
                .write_stdin("")
                .output()
                .unwrap(),
        ),
        "in --groups",
    );
    // In the user's own config (a workspace's config.toml only counts for a trusted workspace).
    let user_config = ws.home.join(".config/agtool/config.toml");
    std::fs::create_dir_all(user_config.parent().unwrap()).unwrap();
    std::fs::write(&user_config, "[tools]\ngroups = [\"files\", \"bogus\"]\n").unwrap();
    check(call(&mut ws.cmd()), "in config tools.groups");
    // A direct subcommand does not check the user's config for groups...
    ws.run(&["read-file", "a.txt"]).code(0);
    // ...but a name given with it on the command line or in AGTOOL_GROUPS is an error there
    // too: it was silently ignored.
    check(
        ws.run(&["--groups", "bogus", "read-file", "a.txt"]),
        "in --groups",
    );
    check(
        Run::from(
            ws.cmd()
                .env("AGTOOL_GROUPS", "bogus")
                .args(["read-file", "a.txt"])
                .output()
                .unwrap(),
        ),
        "in AGTOOL_GROUPS",
    );
    ws.run(&["--groups", "files", "read-file", "a.txt"]).code(0);
}

#[test]
fn call_refuses_a_disabled_tool_naming_the_enabled_groups() {
    let ws = Ws::new();
    let out = Run::from(
        ws.cmd()
            .args(["--groups", "files,exec", "call", "write_file"])
            .write_stdin(r#"{"path":"n.txt","content":"x"}"#)
            .output()
            .unwrap(),
    );
    out.code(1);
    assert_eq!(
        out.out,
        "Error: write_file is in the group edit, which is not enabled (enabled: files, exec, \
         from --groups); enable it with --groups files,exec,edit (or AGTOOL_GROUPS, or config \
         tools.groups)\n"
    );
    assert!(!ws.path("n.txt").exists());
}

#[test]
fn batch_results_echo_the_envelope_ids() {
    let ws = Ws::new();
    ws.write("a.txt", "hit\n");
    let batch = json!([
        {"type": "tool_use", "id": "toolu_1", "name": "glob", "input": {"pattern": "*.txt"}},
        {"type": "function_call", "id": "fc_2", "call_id": "call_2", "name": "grep",
         "arguments": "{\"pattern\": \"hit\"}"},
        {"tool_use_id": "t3", "name": "read_file", "input": {"path": "missing"}},
        {"id": "call_4", "type": "function", "function": {"name": "glob", "arguments": "{\"pattern\": \"*.rs\"}"}},
        {"name": "glob", "input": {"pattern": "*.txt"}},
    ]);
    let out = Run::from(
        ws.cmd()
            .args(["call", "--batch"])
            .write_stdin(batch.to_string())
            .output()
            .unwrap(),
    );
    let v: Vec<Value> = serde_json::from_str(out.ok()).unwrap();
    let ids: Vec<&Value> = v
        .iter()
        .map(|r| r.get("id").unwrap_or(&Value::Null))
        .collect();
    assert_eq!(
        ids,
        [
            &json!("toolu_1"),
            &json!("call_2"),
            &json!("t3"),
            &json!("call_4"),
            &Value::Null
        ]
    );
    assert_eq!(
        v[0],
        json!({"id": "toolu_1", "name": "glob", "ok": true, "output": "a.txt\n", "exit": 0})
    );
    assert_eq!(v[2]["ok"], false);
    // Each result says the exit status the call would have on its own: a refusal here.
    assert_eq!(v[2]["exit"], 1);
    assert!(v[4].get("id").is_none());
}

#[test]
fn an_array_given_to_call_points_to_batch() {
    let ws = Ws::new();
    for input in ["[]", r#"[{"name":"glob","input":{"pattern":"*"}}]"#] {
        let out = Run::from(ws.cmd().arg("call").write_stdin(input).output().unwrap());
        out.code(2);
        assert!(out.err.contains("agtool call --batch"), "{}", out.err);
    }
}

/// Issue 18 §2: each face's descriptions say what is true for it. Through `call` paths are
/// relative to the directory agtool runs in; an MCP server resolves them against its own
/// working directory (the workspace root when the host starts it elsewhere), which its
/// instructions name.
#[test]
fn mcp_descriptions_do_not_speak_of_the_current_directory() {
    let ws = Ws::new();
    let mcp = serde_json::to_string(&export(&ws, &["--format", "mcp"])).unwrap();
    assert!(!mcp.contains("current directory"), "{mcp}");
    assert!(
        mcp.contains("The file to read (relative to the server's working directory, named in its instructions)"),
        "{mcp}"
    );
    let anthropic = serde_json::to_string(&export(&ws, &["--format", "anthropic"])).unwrap();
    assert!(anthropic.contains("The file to read (relative to the current directory)"));
}

/// A batch's results carried only `ok`: approval needed (3), bad arguments (2) and a refusal
/// (1) could be told apart only by parsing the output's text. Each result, and the `--json`
/// envelope, has `exit` now.
#[test]
fn batch_results_and_the_json_envelope_carry_the_exit_status() {
    let ws = Ws::new();
    ws.write("a.txt", "x\n");
    let rules = ws.path("rules.toml");
    std::fs::write(
        &rules,
        "[[rules]]\naction = \"ask\"\ntools = [\"exec\"]\nargv_prefix = [\"git\", \"push\"]\nreason = \"ok?\"\n",
    )
    .unwrap();
    let batch = json!([
        {"id": "1", "name": "exec", "input": {"command": ["git", "push"]}},
        {"id": "2", "name": "read_file", "input": {"path": "a.txt", "offset": "ten"}},
        {"id": "3", "name": "read_file", "input": {"path": "nope"}},
        {"id": "4", "name": "read_file", "input": {"path": "a.txt"}},
    ]);
    let out = Run::from(
        ws.cmd()
            .env("AGTOOL_CONFIG", &rules)
            .args(["--groups", "exec,files", "call", "--batch"])
            .write_stdin(batch.to_string())
            .output()
            .unwrap(),
    );
    let v: Vec<Value> = serde_json::from_str(out.ok()).unwrap();
    let exits: Vec<&Value> = v.iter().map(|r| &r["exit"]).collect();
    assert_eq!(exits, [&json!(3), &json!(2), &json!(1), &json!(0)], "{v:?}");
    let env: Value = serde_json::from_str(&ws.run(&["--json", "read-file", "nope"]).out).unwrap();
    assert_eq!(
        (env["ok"].clone(), env["exit"].clone()),
        (json!(false), json!(1)),
        "{env}"
    );
    let env: Value = serde_json::from_str(&ws.run(&["--json", "read-file", "a.txt"]).out).unwrap();
    assert_eq!(env["exit"], 0, "{env}");
}
