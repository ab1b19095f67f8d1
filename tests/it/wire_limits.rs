//! The wire codec's memory budget and depth limit against hostile messages (issue 10): every
//! list field of every hook message filled with empty elements, deep nesting, long strings
//! and keys, many distinct keys. Each test asserts the budget counter the decoder keeps
//! ([`Decoded::charged`]) or the refusal, never the process's memory (that is measured in
//! `benches/wire.rs`).
//!
//! The list fields are found in the published OpenAPI document, so a field added to a message
//! is covered without touching this file.

use crate::support::wire_payloads;

use std::collections::BTreeSet;

use capi_runtime::hooks::v1alpha1 as h;
use capi_runtime::wire::{
    self, DEFAULT_MEMORY_BUDGET, DecodeError, DecodeErrorKind, Decoded, Limits,
};
use serde_json::Value;
use wire_payloads::*;

/// Decodes `body` as the request or response of the hook named `hook`; the bytes charged.
fn decode(hook: &str, response: bool, body: &[u8], limits: &Limits) -> Result<usize, DecodeError> {
    fn charged<T>(d: Result<Decoded<T>, DecodeError>) -> Result<usize, DecodeError> {
        d.map(|d| d.charged)
    }
    macro_rules! hooks {
        ($($name:ident),*) => {
            match hook {
                $(stringify!($name) if response => charged(wire::decode_response_with::<h::$name>(body, limits)),
                  stringify!($name) => charged(wire::decode_request_with::<h::$name>(body, limits)),)*
                other => panic!("no hook {other}"),
            }
        };
    }
    hooks!(
        AfterClusterUpgrade,
        AfterControlPlaneInitialized,
        AfterControlPlaneUpgrade,
        AfterWorkersUpgrade,
        BeforeClusterCreate,
        BeforeClusterDelete,
        BeforeClusterUpgrade,
        BeforeControlPlaneUpgrade,
        BeforeWorkersUpgrade,
        CanUpdateMachine,
        CanUpdateMachineSet,
        DiscoverVariables,
        Discovery,
        GeneratePatches,
        GenerateUpgradePlan,
        UpdateMachine,
        ValidateTopology
    )
}

/// One step from a message root to a list: a field, the first element, a map value.
#[derive(Clone, Debug)]
enum Step {
    Field(String),
    First,
    MapValue,
}

/// A list field reachable from a message: the steps to it and the JSON of one element.
#[derive(Clone, Debug)]
struct ListField {
    steps: Vec<Step>,
    element: &'static str,
}

fn document() -> Value {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(root.join("golden/sdk/runtime-sdk-openapi.yaml")).unwrap();
    serde_saphyr::from_str(&text).unwrap()
}

fn ref_name(v: &Value) -> Option<&str> {
    v.get("$ref")
        .or_else(|| v.get("allOf")?.get(0)?.get("$ref"))?
        .as_str()?
        .rsplit('/')
        .next()
}

/// The cheapest JSON element for an array's `items` schema.
fn element(items: &Value, schemas: &Value) -> &'static str {
    let target = ref_name(items).map_or(items, |r| &schemas[r]);
    match target.get("type").and_then(Value::as_str) {
        Some("string") => "\"\"",
        Some("integer" | "number") => "0",
        Some("boolean") => "false",
        Some("array") => "[]",
        _ => "{}",
    }
}

/// Every list field reachable from `schema`, each owning (schema, property) once overall.
fn lists(
    schemas: &Value,
    schema: &str,
    steps: &mut Vec<Step>,
    seen: &mut BTreeSet<(String, String)>,
    path: &mut Vec<String>,
    out: &mut Vec<ListField>,
) {
    let Some(properties) = schemas[schema].get("properties").and_then(Value::as_object) else {
        return;
    };
    for (name, property) in properties {
        steps.push(Step::Field(name.clone()));
        if property.get("type").and_then(Value::as_str) == Some("array") {
            let items = &property["items"];
            if seen.insert((schema.to_string(), name.clone())) {
                out.push(ListField {
                    steps: steps.clone(),
                    element: element(items, schemas),
                });
            }
            if let Some(r) = ref_name(items).filter(|r| !path.iter().any(|p| p == r)) {
                steps.push(Step::First);
                path.push(r.to_string());
                lists(schemas, r, steps, seen, path, out);
                path.pop();
                steps.pop();
            }
        } else if let Some(r) = ref_name(property).filter(|r| !path.iter().any(|p| p == r)) {
            path.push(r.to_string());
            lists(schemas, r, steps, seen, path, out);
            path.pop();
        } else if let Some(r) = property
            .get("additionalProperties")
            .and_then(ref_name)
            .filter(|r| !path.iter().any(|p| p == r))
        {
            steps.push(Step::MapValue);
            path.push(r.to_string());
            lists(schemas, r, steps, seen, path, out);
            path.pop();
            steps.pop();
        }
        steps.pop();
    }
}

/// `{"a":{"b":[{"c":[E,E,...]}]}}` of about `size` bytes.
fn body(field: &ListField, response: bool, size: usize) -> Vec<u8> {
    let (mut prefix, mut suffix) = (String::new(), String::new());
    if response {
        prefix.push_str("{\"status\":\"Success\"");
    }
    let mut open_object = response;
    for step in &field.steps {
        match step {
            Step::Field(name) => {
                if open_object {
                    prefix.push(',');
                } else {
                    prefix.push('{');
                }
                prefix.push_str(&format!("\"{name}\":"));
                suffix.insert(0, '}');
            }
            Step::First => {
                prefix.push('[');
                suffix.insert(0, ']');
            }
            Step::MapValue => {
                prefix.push_str("{\"k\":");
                suffix.insert(0, '}');
            }
        }
        open_object = false;
    }
    array_of(&prefix, field.element, &suffix, size)
}

/// Every list field of every message: `(hook, response?, field)`.
fn every_list_field() -> Vec<(String, bool, ListField)> {
    let doc = document();
    let schemas = &doc["components"]["schemas"];
    let mut seen = BTreeSet::new();
    let mut out = Vec::new();
    for name in schemas.as_object().unwrap().keys() {
        let short = name.rsplit('.').next().unwrap();
        let (hook, response) = if let Some(h) = short.strip_suffix("Request") {
            (h, false)
        } else if let Some(h) = short.strip_suffix("Response") {
            (h, true)
        } else {
            continue;
        };
        let mut found = Vec::new();
        lists(
            schemas,
            name,
            &mut Vec::new(),
            &mut seen,
            &mut vec![name.clone()],
            &mut found,
        );
        out.extend(found.into_iter().map(|f| (hook.to_string(), response, f)));
    }
    out
}

/// Refused for the budget, or decoded within it.
fn within_budget(result: Result<usize, DecodeError>, budget: usize, what: &str) -> bool {
    match result {
        Ok(charged) => {
            assert!(charged <= budget, "{what}: charged {charged} > {budget}");
            false
        }
        // An element type that refuses `{}` (k8s-openapi's required fields) stops at once.
        Err(e) if e.kind() == DecodeErrorKind::Type && e.path().ends_with("[0]") => {
            assert!(e.offset().unwrap_or(usize::MAX) < 4096, "{what}: {e}");
            true
        }
        Err(e) => {
            assert_eq!(e.kind(), DecodeErrorKind::OverBudget, "{what}: {e}");
            assert!(e.is_limit());
            assert!(!e.is_shared_budget(), "{what}: no shared budget here");
            true
        }
    }
}

#[test]
fn every_list_field_of_every_message_full_of_empty_elements() {
    // The charge is linear in the number of elements, so a body a twentieth of the cap against
    // a twentieth of the budget has the outcome of the full-size body against the full budget;
    // the top-level lists are also run at full size below.
    let fields = every_list_field();
    assert!(fields.len() > 50, "found only {} list fields", fields.len());
    let limits = Limits::default().with_memory_budget(DEFAULT_MEMORY_BUDGET / 20);
    let mut refused = 0;
    for (hook, response, field) in &fields {
        let body = body(field, *response, CAP / 20);
        let what = format!("{hook} {response} {:?}", field.steps);
        if within_budget(
            decode(hook, *response, &body, &limits),
            limits.memory_budget,
            &what,
        ) {
            refused += 1;
        }
    }
    // Arrays of structs are refused; arrays of small scalars (strings, numbers) fit.
    assert!(
        refused * 2 > fields.len(),
        "{refused} of {} refused",
        fields.len()
    );
}

#[test]
fn top_level_lists_at_the_cap() {
    let limits = Limits::default();
    for (hook, response, field) in every_list_field() {
        // Arrays of empty objects, the issue's shape; lists of scalars are covered (scaled)
        // by the test above.
        if field.steps.len() != 1 || field.element != "{}" {
            continue;
        }
        let body = body(&field, response, CAP);
        assert!(body.len() <= CAP);
        let what = format!("{hook} {response} {:?}", field.steps);
        within_budget(
            decode(&hook, response, &body, &limits),
            limits.memory_budget,
            &what,
        );
    }
    // The shapes issue 10 measured: both refused.
    let items = array_of("{\"items\":", "{}", "}", CAP);
    assert!(within_budget(
        decode("GeneratePatches", false, &items, &limits),
        DEFAULT_MEMORY_BUDGET,
        "items"
    ));
    let variables = array_of("{\"status\":\"Success\",\"variables\":", "{}", "}", CAP);
    assert!(within_budget(
        decode("DiscoverVariables", true, &variables, &limits),
        DEFAULT_MEMORY_BUDGET,
        "variables"
    ));
}

#[test]
fn realistic_large_messages_decode_within_the_budget() {
    // 5,000 items as the topology controller sends them, and an answer with a patch each.
    let request = generate_patches_request(5_000);
    let decoded = wire::decode_request::<h::GeneratePatches>(&request).unwrap();
    assert_eq!(decoded.items.len(), 5_000);
    let charged = wire::decode_request_with::<h::GeneratePatches>(&request, &Limits::default())
        .unwrap()
        .charged;
    assert!(charged < DEFAULT_MEMORY_BUDGET, "{charged}");
    let response = generate_patches_response(5_000);
    let decoded = wire::decode_response::<h::GeneratePatches>(&response).unwrap();
    assert_eq!(decoded.message.items.len(), 5_000);
    assert!(decoded.charged < DEFAULT_MEMORY_BUDGET);
}

#[test]
fn long_strings_long_keys_and_many_keys_are_charged() {
    let limits = Limits::default();
    let body = long_string(CAP);
    let charged = decode("GeneratePatches", false, &body, &limits).unwrap();
    assert!((CAP - 64..=CAP + 4096).contains(&charged), "{charged}");
    let body = long_key(CAP);
    let charged = decode("GeneratePatches", false, &body, &limits).unwrap();
    assert!(charged >= CAP - 64, "{charged}");
    // A raw object (`object`) is held as its text, however many keys it has: it costs its
    // length, not a tree.
    let body = many_keys(CAP);
    let charged = decode("GeneratePatches", false, &body, &limits).unwrap();
    assert!((CAP - 64..=CAP + 4096).contains(&charged), "{charged}");
    // Under a smaller budget the same body is refused.
    let small = Limits::default().with_memory_budget(charged / 2);
    assert!(within_budget(
        decode("GeneratePatches", false, &body, &small),
        charged / 2,
        "many keys"
    ));
}

#[test]
fn deep_nesting_is_refused_without_recursion_past_the_limit() {
    for depth in [200, 100_000] {
        let body = deep(depth);
        let e = decode("GeneratePatches", false, &body, &Limits::default()).unwrap_err();
        assert_eq!(e.kind(), DecodeErrorKind::TooDeep);
        assert!(e.is_limit());
    }
    // Ignored values nest under the same limit.
    let body = format!(
        "{{\"unknown\":{}{}}}",
        "[".repeat(100_000),
        "]".repeat(100_000)
    );
    let e = decode(
        "BeforeClusterCreate",
        false,
        body.as_bytes(),
        &Limits::default(),
    )
    .unwrap_err();
    assert_eq!(e.kind(), DecodeErrorKind::TooDeep);
    let body = deep(60);
    decode("GeneratePatches", false, &body, &Limits::default()).unwrap();
}

#[test]
fn decodings_share_one_budget_and_give_it_back() {
    // Each message has its own 256 MiB budget; a SharedBudget bounds what several decoding
    // (and held) messages take together. A decoding that finds it used up is refused at once.
    let mut body = b"{\"items\":[".to_vec();
    for i in 0..20_000 {
        if i > 0 {
            body.push(b',');
        }
        body.extend_from_slice(br#"{"uid":"u","variables":[{"name":"a","value":1}]}"#);
    }
    body.extend_from_slice(b"]}");
    // What the body takes is measured first (it is the same on every decoding), and the
    // shared budget sized to hold it once but not twice.
    let measured = wire::SharedBudget::new(usize::MAX);
    let held = wire::decode_request_with::<h::GeneratePatches>(
        &body,
        &Limits::default().with_shared_budget(measured.clone()),
    )
    .unwrap()
    .hold
    .bytes();
    assert_eq!(
        measured.in_use(),
        0,
        "given back when the decoded message is dropped"
    );
    assert!(held > 4 << 20, "{held}");
    let capacity = held + held / 2;
    let shared = wire::SharedBudget::new(capacity);
    let limits = Limits::default().with_shared_budget(shared.clone());
    let first = wire::decode_request_with::<h::GeneratePatches>(&body, &limits).unwrap();
    assert!(
        first.charged <= first.hold.bytes(),
        "the hold covers the charge"
    );
    assert_eq!(first.hold.bytes(), held);
    assert_eq!(shared.in_use(), first.hold.bytes());
    // A second message of the same size does not fit beside the first one.
    let err = wire::decode_request_with::<h::GeneratePatches>(&body, &limits).unwrap_err();
    assert_eq!(err.kind(), DecodeErrorKind::OverBudget);
    assert!(
        err.message()
            .contains(&format!("shared memory budget of {capacity} bytes")),
        "{err}"
    );
    assert!(err.is_limit());
    assert!(err.is_shared_budget(), "{err}");
    // The refused decoding gave back what it had taken; the first still holds its share.
    assert_eq!(shared.in_use(), first.hold.bytes());
    drop(first);
    assert_eq!(shared.in_use(), 0);
    let again = wire::decode_request_with::<h::GeneratePatches>(&body, &limits).unwrap();
    assert_eq!(again.message.items.len(), 20_000);
    drop(again);
    // Without a shared budget nothing is held.
    let alone = wire::decode_request_with::<h::GeneratePatches>(&body, &Limits::default()).unwrap();
    assert_eq!(alone.hold.bytes(), 0);
    assert_eq!(shared.in_use(), 0);
}

#[test]
fn nested_schemas_are_charged_and_realistic_variables_decode() {
    // A schema's `items`, `not` and `additionalProperties` are boxes: 20 MiB of `not` nested
    // 120 deep is 2.5 million of them, 1.3 GB, where the variables alone are charged 25 MiB.
    // The decoder charges each box, so the answer is refused at the budget.
    let body = nested_schemas(CAP, 120);
    assert!(body.len() <= CAP);
    let result = decode("DiscoverVariables", true, &body, &Limits::default());
    assert!(within_budget(
        result,
        DEFAULT_MEMORY_BUDGET,
        "nested schemas"
    ));
    // Scaled down (a twentieth of the body against a twentieth of the budget), the same.
    let body = nested_schemas(CAP / 20, 120);
    let limits = Limits::default().with_memory_budget(DEFAULT_MEMORY_BUDGET / 20);
    let result = decode("DiscoverVariables", true, &body, &limits);
    assert!(within_budget(
        result,
        DEFAULT_MEMORY_BUDGET / 20,
        "nested schemas, scaled"
    ));
    // 5,000 variables as extensions define them (a list of objects with two maps of
    // properties, nested items, five boxes each) decode within the budget: about 130 MB are
    // charged for the 4.7 MB body, mostly for the B-tree leaves of `properties` (a leaf
    // holds eleven 560-byte entries, however few are used), 14 MB of it for the boxes.
    let body = discover_variables_response(5_000);
    let decoded = wire::decode_response::<h::DiscoverVariables>(&body).unwrap();
    assert_eq!(decoded.message.variables.len(), 5_000);
    let schema = &decoded.message.variables[0].schema.open_apiv3_schema;
    let pool = schema.items.as_ref().unwrap();
    assert_eq!(
        pool.properties["labels"]
            .additional_properties
            .as_ref()
            .unwrap()
            .max_length,
        Some(63)
    );
    assert_eq!(
        pool.properties["image"].r#not.as_ref().unwrap().pattern,
        ":latest$"
    );
    println!(
        "{} bytes of realistic variables charged {}",
        body.len(),
        decoded.charged
    );
    assert!(
        decoded.charged < DEFAULT_MEMORY_BUDGET,
        "{} bytes of body charged {}",
        body.len(),
        decoded.charged
    );
}
