//! The argument validator's fast path (`agtool::args::fast_check`) against the full JSON
//! Schema validator, on every registered tool's real schema: it may only call valid what the
//! full validator calls valid.

use agtool::args::fast_check::certainly_valid;
use agtool::args::schema_for;
use serde_json::{Map, Value, json};

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
    let schemas: Vec<Value> = agtool::tools::registry()
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
        let mut runner = proptest::test_runner::TestRunner::new(ProptestConfig::with_cases(2000));
        runner
            .run(&near(schema), |v| {
                let fast = certainly_valid(schema, &v);
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
    let s = agtool::tools::find("read_file")
        .map(|t| (t.schema)())
        .unwrap();
    assert!(certainly_valid(
        s,
        &json!({"path": "a", "offset": 3, "limit": 10})
    ));
    assert!(certainly_valid(
        s,
        &json!({"path": "a", "mode": "indentation", "indentation": {"anchor_line": 2}})
    ));
    assert!(!certainly_valid(s, &json!({"path": "a", "offset": 0})));
    // path is optional since paths exists (issue 20): a wrong type is still refused.
    assert!(!certainly_valid(s, &json!({"path": 1, "offset": 1})));
    assert!(!certainly_valid(s, &json!({"path": "a", "x": 1})));
    assert!(!certainly_valid(
        s,
        &json!({"path": "a", "indentation": {"y": 1}})
    ));
    let g = agtool::tools::find("grep").map(|t| (t.schema)()).unwrap();
    assert!(certainly_valid(
        g,
        &json!({"pattern": "x", "output": "count", "limit": 2000})
    ));
    assert!(!certainly_valid(g, &json!({"pattern": "x", "limit": 2001})));
    assert!(!certainly_valid(g, &json!({"pattern": ""})));
}
