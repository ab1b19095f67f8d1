//! Contract test: what serde really sends for every hook message is valid against the schema
//! the generator emits for it, and every property the schema declares is understood by the
//! Rust type.
//!
//! For each request and response type, a JSON instance with every property filled (built
//! from the schema) is deserialized into the Rust type and serialized again; the result must
//! equal the instance (no property lost or renamed) and validate against the component schema.
//! The `Default` value of every message must read back as itself.

use crate::support;

use capi_runtime::hooks::v1alpha1 as hooks;
use capi_runtime_codegen::{OpenApiOpt, emit};
use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::{Map, Value, json};

fn document() -> Value {
    let model = support::derived::model(&capi_runtime::hooks::catalog());
    emit::openapi::document(&model, &OpenApiOpt::with_version("contract"))
}

fn component_name(doc: &Value, kind: &str) -> String {
    let names: Vec<&String> = doc["components"]["schemas"]
        .as_object()
        .unwrap()
        .keys()
        .filter(|k| k.ends_with(&format!(".{kind}")))
        .collect();
    assert_eq!(names.len(), 1, "{kind}: {names:?}");
    names[0].clone()
}

/// A validator for one component, resolving references inside the document.
fn validator(doc: &Value, component: &str) -> jsonschema::Validator {
    let schema = json!({
        "$ref": format!("#/components/schemas/{component}"),
        "components": doc["components"],
    });
    jsonschema::options()
        .with_draft(jsonschema::Draft::Draft202012)
        .build(&schema)
        .unwrap_or_else(|e| panic!("{component}: {e}"))
}

fn assert_valid(v: &jsonschema::Validator, instance: &Value, what: &str) {
    let errors: Vec<String> = v
        .iter_errors(instance)
        .map(|e| format!("{} at {}", e, e.instance_path()))
        .collect();
    assert!(
        errors.is_empty(),
        "{what} does not match its schema:\n{}\ninstance: {instance:#}",
        errors.join("\n")
    );
}

/// Values for properties whose schema is a plain string but whose Rust type only accepts some
/// strings (the OpenAPI document has no enum there, as upstream).
fn known_string(name: &str) -> Option<&'static str> {
    match name {
        "patchType" => Some("JSONMergePatch"),
        "failurePolicy" => Some("Ignore"),
        _ => None,
    }
}

/// Properties the schema declares that the Rust types cannot carry, each with its reason.
const NOT_CARRIED: &[(&str, &str)] = &[(
    "clusterName",
    "ObjectMeta.clusterName was removed from Kubernetes; upstream's vendored ObjectMeta schema \
     still lists it, k8s-openapi's ObjectMeta has no such field",
)];

/// An instance of `schema` with every property filled. Recursive schemas (JSONSchemaProps)
/// are followed `depth` times; `None` where the budget ends.
fn fill(doc: &Value, schema: &Value, name: &str, depth: usize) -> Option<Value> {
    if let Some(r) = schema.get("$ref").and_then(Value::as_str) {
        let component = r.trim_start_matches("#/components/schemas/");
        let target = &doc["components"]["schemas"][component];
        return match component {
            c if c.ends_with("meta.v1.Time") => Some(json!("2026-01-02T03:04:05Z")),
            c if c.ends_with("intstr.IntOrString") => Some(json!("25%")),
            c if c.ends_with("runtime.RawExtension") => {
                Some(json!({"kind": "Thing", "spec": {"a": 1}}))
            }
            c if c.ends_with("apiextensions.v1.JSON") => Some(json!({"any": ["json", 1, true]})),
            c if c.ends_with("meta.v1.FieldsV1") => Some(json!({"f:spec": {}})),
            c if c.ends_with(".JSONSchemaProps") => {
                if depth == 0 {
                    None
                } else {
                    fill(doc, target, name, depth - 1)
                }
            }
            _ => fill(doc, target, name, depth),
        };
    }
    if let Some(values) = schema.get("enum").and_then(Value::as_array) {
        return values.last().cloned();
    }
    Some(match schema.get("type").and_then(Value::as_str) {
        Some("object") => {
            let mut out = Map::new();
            if let Some(props) = schema.get("properties").and_then(Value::as_object) {
                let object_meta = props.contains_key("selfLink");
                for (k, v) in props {
                    if object_meta && NOT_CARRIED.iter().any(|(n, _)| n == k) {
                        continue;
                    }
                    if let Some(value) = fill(doc, v, k, depth) {
                        out.insert(k.clone(), value);
                    }
                }
            } else if let Some(ap) = schema.get("additionalProperties") {
                out.insert("key".into(), fill(doc, ap, name, depth)?);
            }
            Value::Object(out)
        }
        Some("array") => json!([fill(doc, &schema["items"], name, depth)?]),
        Some("string") => match schema.get("format").and_then(Value::as_str) {
            Some("byte") => json!("aGVsbG8="),
            Some("date-time") => json!("2026-01-02T03:04:05Z"),
            _ => json!(known_string(name).unwrap_or("text")),
        },
        Some("integer") => json!(7),
        Some("number") => json!(1.5),
        Some("boolean") => json!(true),
        _ => json!({"free": "form"}),
    })
}

fn check<T: Serialize + DeserializeOwned + Default>(doc: &Value, kind: &str) {
    let component = component_name(doc, kind);
    let v = validator(doc, &component);
    // Every property the schema declares survives a trip through the Rust type.
    let instance = fill(doc, &doc["components"]["schemas"][&component], kind, 2).unwrap();
    let typed: T = serde_json::from_value(instance.clone())
        .unwrap_or_else(|e| panic!("{kind}: {e}\n{instance:#}"));
    let back = serde_json::to_value(&typed).unwrap();
    let lost = support::structure::diff(&instance, &back);
    assert!(
        lost.is_empty(),
        "{kind}: the Rust type lost or renamed properties: {lost:#?}"
    );
    assert_valid(&v, &back, kind);
    // The default value reads back as itself. (It need not be valid: like upstream, some
    // required fields are left out of the JSON while they are zero, e.g. `cluster.spec`.)
    let default = serde_json::to_value(T::default()).unwrap();
    let again =
        serde_json::to_value(serde_json::from_value::<T>(default.clone()).unwrap()).unwrap();
    assert_eq!(
        default, again,
        "{kind}: the default value does not round-trip"
    );
}

macro_rules! check_hooks {
    ($doc:expr, $($hook:ty),* $(,)?) => {
        $(
            check::<<$hook as capi_runtime::Hook>::Request>(&$doc, <$hook as capi_runtime::Hook>::REQUEST_KIND);
            check::<<$hook as capi_runtime::Hook>::Response>(&$doc, <$hook as capi_runtime::Hook>::RESPONSE_KIND);
        )*
    };
}

#[test]
fn every_hook_message_matches_its_schema() {
    let doc = document();
    check_hooks!(
        doc,
        hooks::Discovery,
        hooks::BeforeClusterCreate,
        hooks::AfterControlPlaneInitialized,
        hooks::BeforeClusterUpgrade,
        hooks::BeforeControlPlaneUpgrade,
        hooks::AfterControlPlaneUpgrade,
        hooks::BeforeWorkersUpgrade,
        hooks::AfterWorkersUpgrade,
        hooks::AfterClusterUpgrade,
        hooks::BeforeClusterDelete,
        hooks::GeneratePatches,
        hooks::ValidateTopology,
        hooks::DiscoverVariables,
        hooks::CanUpdateMachine,
        hooks::CanUpdateMachineSet,
        hooks::UpdateMachine,
        hooks::GenerateUpgradePlan,
    );
    assert_eq!(
        capi_runtime::hooks::catalog().hooks().count(),
        17,
        "a hook is missing from this test"
    );
}

#[test]
fn invalid_instances_are_rejected() {
    let doc = document();
    let v = validator(&doc, &component_name(&doc, "BeforeClusterCreateResponse"));
    assert!(!v.is_valid(&json!({"status": "Maybe", "retryAfterSeconds": 0})));
    assert!(
        !v.is_valid(&json!({"status": "Success"})),
        "retryAfterSeconds is required"
    );
    assert!(!v.is_valid(&json!({"status": "Success", "retryAfterSeconds": "soon"})));
    assert!(v.is_valid(&json!({"status": "Success", "retryAfterSeconds": 0})));
}
