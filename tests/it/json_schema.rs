//! `schemars::JsonSchema` for the API and hook types (feature `schemars`), as an operator uses
//! it: our types embedded in a kube-derive `#[derive(CustomResource)]`.
//!
//! - every generated impl, asked with kube-derive's settings, returns exactly the schema the
//!   CRD emitter (`capi_runtime_codegen::emit::crd`) writes for that type;
//! - the CRD kube-derive builds around `ClusterClassVariable`, `ClusterSpec`, a hook request and
//!   `ExtensionConfigSpec` is a structural schema, and `kubernetes-validate` accepts it;
//! - each embedded part equals the CRD emitter's schema for its type, and `ExtensionConfigSpec`
//!   also equals the `spec` of our published ExtensionConfig CRD;
//! - with schemars' own defaults the types are `$defs` entries, and a real value of each
//!   embedded type validates against the result (jsonschema).

use crate::support;

use std::path::Path;

use capi_runtime::api::core::v1beta2::{ClusterClassVariable, ClusterSpec};
use capi_runtime::api::runtime::v1beta2::ExtensionConfigSpec;
use capi_runtime::hooks::v1alpha1::BeforeClusterCreateRequest;
use capi_runtime_codegen::model::{Model, Named};
use k8s_openapi::apiextensions_apiserver::pkg::apis::apiextensions::v1::JSONSchemaProps;
use kube_core::CustomResourceExt;
use kube_derive::CustomResource;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use support::structure::load_yaml;
use support::tools;

/// An operator's resource that embeds our types (no doc comments on the fields, so each
/// embedded schema keeps its type's own description).
#[allow(missing_docs)]
#[derive(CustomResource, Serialize, Deserialize, Clone, Debug, JsonSchema)]
#[kube(
    group = "example.cluster.x-k8s.io",
    version = "v1",
    kind = "Embedding",
    namespaced,
    crates(
        kube_core = "::kube_core",
        k8s_openapi = "::k8s_openapi",
        schemars = "::schemars",
        serde = "::serde",
        serde_json = "::serde_json"
    )
)]
pub struct EmbeddingSpec {
    pub variable: ClusterClassVariable,
    pub variables: Vec<ClusterClassVariable>,
    pub cluster: Option<ClusterSpec>,
    pub request: BeforeClusterCreateRequest,
    pub extension: ExtensionConfigSpec,
}

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// The model of the runtime crate's API and hook types, as `cargo xtask codegen` loads it.
fn model() -> Model {
    let sources = capi_runtime_codegen::source::read_crate_dir(
        &root().join("src"),
        capi_runtime_codegen::CRATE_LAYOUT,
        "src/",
        "crate",
    )
    .expect("reading src/");
    capi_runtime_codegen::load(&sources).unwrap_or_else(|f| panic!("{f}"))
}

/// What the CRD emitter writes for the type whose OpenAPI component (schema id) is `id`.
fn crd_emitter_schema(model: &Model, id: &str) -> Value {
    let index = model
        .types
        .iter()
        .position(|t| t.component == id)
        .unwrap_or_else(|| panic!("no type {id} in the model"));
    let named: Named = serde_json::from_value(json!({
        "path": model.types[index].ident,
        "id": index,
    }))
    .expect("a reference reads");
    capi_runtime_codegen::emit::crd::type_schema(model, &named)
}

/// A generator set up as kube-derive sets up its own (see kube-derive's `CustomResource`).
fn kube_generator() -> schemars::SchemaGenerator {
    schemars::generate::SchemaSettings::openapi3()
        .with(|s| {
            s.inline_subschemas = true;
            s.meta_schema = None;
        })
        .into_generator()
}

/// The `openAPIV3Schema` of the CRD kube-derive builds for [`Embedding`], as JSON.
fn embedding_schema() -> Value {
    let crd = serde_json::to_value(Embedding::crd()).expect("the CRD serializes");
    crd["spec"]["versions"][0]["schema"]["openAPIV3Schema"].clone()
}

/// The first difference between two JSON values, as a JSON pointer and both sides.
fn first_difference(a: &Value, b: &Value, at: &str) -> Option<String> {
    match (a, b) {
        (Value::Object(x), Value::Object(y)) => {
            let only_in_y = y.keys().filter(|k| !x.contains_key(*k));
            for k in x.keys().chain(only_in_y) {
                let here = format!("{at}/{k}");
                match (x.get(k), y.get(k)) {
                    (Some(p), Some(q)) => {
                        if let Some(d) = first_difference(p, q, &here) {
                            return Some(d);
                        }
                    }
                    (p, q) => return Some(format!("{here}: {p:?} != {q:?}")),
                }
            }
            None
        }
        (Value::Array(x), Value::Array(y)) if x.len() == y.len() => x
            .iter()
            .zip(y)
            .enumerate()
            .find_map(|(i, (p, q))| first_difference(p, q, &format!("{at}/{i}"))),
        _ if a == b => None,
        _ => Some(format!("{at}: {a} != {b}")),
    }
}

/// `schema` after what kube-derive does to every schema it embeds: its transforms (schemars'
/// `AddNullable`, kube-core's `StructuralSchemaRewriter`, `OptionalEnum`,
/// `OptionalIntOrString`; of these only two touch our schemas: the `anyOf` branches of an
/// int-or-string lose their `type`, and an optional int-or-string property gets `nullable`),
/// then the trip through k8s-openapi's `JSONSchemaProps`, which stores `minimum`/`maximum` as
/// f64 and keeps only the keywords it models.
fn as_kube_derive_writes(schema: Value) -> Value {
    use schemars::transform::Transform;
    let mut schema = schemars::Schema::try_from(schema).expect("a schema object");
    schemars::transform::AddNullable::default().transform(&mut schema);
    kube_core::schema::StructuralSchemaRewriter.transform(&mut schema);
    kube_core::schema::OptionalEnum.transform(&mut schema);
    kube_core::schema::OptionalIntOrString.transform(&mut schema);
    let props: JSONSchemaProps =
        serde_json::from_value(schema.to_value()).expect("valid JSONSchemaProps");
    serde_json::to_value(props).expect("JSONSchemaProps serializes")
}

fn assert_same(what: &str, actual: &Value, expected: &Value) {
    if let Some(d) = first_difference(actual, expected, "") {
        panic!("{what} differs from the CRD emitter's schema at {d}");
    }
}

// ---------------------------------------------------------------------------------------------
// Every impl
// ---------------------------------------------------------------------------------------------

#[test]
fn every_impl_returns_the_crd_emitter_schema_of_its_type() {
    let all = capi_runtime::__private::json_schemas();
    let model = model();
    // Every API and hook type of the model has an impl (external types have none).
    let primary = model
        .types
        .iter()
        .filter(|t| t.module.first().is_some_and(|m| m == "crate"))
        .count();
    assert_eq!(all.len(), primary, "one impl per API and hook type");
    assert!(all.len() > 100, "{} impls", all.len());
    for (id, schema_of) in all {
        let mut generator = kube_generator();
        let schema = schema_of(&mut generator).to_value();
        assert_same(id, &schema, &crd_emitter_schema(&model, id));
        let violations = structural_violations(&schema);
        assert!(
            violations.is_empty(),
            "{id} is not structural:\n{}",
            violations.join("\n")
        );
        assert!(
            generator.definitions().is_empty(),
            "{id}: inlined schemas leave no definitions"
        );
    }
}

#[test]
fn a_recursive_type_is_cut_where_the_crd_emitter_cuts_it() {
    let mut generator = kube_generator();
    let schema = ClusterClassVariable::json_schema(&mut generator).to_value();
    let props = &schema["properties"]["schema"]["properties"]["openAPIV3Schema"]["properties"];
    // JSONSchemaProps inside JSONSchemaProps: kept as data, not expanded.
    assert_eq!(
        props["items"]["x-kubernetes-preserve-unknown-fields"],
        json!(true)
    );
    assert_eq!(
        props["properties"]["additionalProperties"]["x-kubernetes-preserve-unknown-fields"],
        json!(true)
    );
    assert_eq!(props["allOf"]["type"], json!("array"));
    assert_eq!(props["maxLength"]["format"], json!("int64"));
}

// ---------------------------------------------------------------------------------------------
// Embedded in a kube-derive CRD
// ---------------------------------------------------------------------------------------------

#[test]
fn embedded_parts_equal_the_crd_emitter_schemas() {
    let model = model();
    let schema = embedding_schema();
    let spec = &schema["properties"]["spec"]["properties"];
    let cases = [
        (
            "spec.variable",
            spec["variable"].clone(),
            "sigs.k8s.io.cluster-api.api.core.v1beta2.ClusterClassVariable",
        ),
        (
            "spec.variables[]",
            spec["variables"]["items"].clone(),
            "sigs.k8s.io.cluster-api.api.core.v1beta2.ClusterClassVariable",
        ),
        (
            "spec.request",
            spec["request"].clone(),
            "sigs.k8s.io.cluster-api.api.runtime.hooks.v1alpha1.BeforeClusterCreateRequest",
        ),
        (
            "spec.extension",
            spec["extension"].clone(),
            "sigs.k8s.io.cluster-api.api.runtime.v1beta2.ExtensionConfigSpec",
        ),
    ];
    for (what, actual, id) in cases {
        let expected = as_kube_derive_writes(crd_emitter_schema(&model, id));
        assert_same(what, &actual, &expected);
    }
    // `Option<ClusterSpec>`: kube-derive adds `nullable` to the use site, nothing else.
    let mut cluster = spec["cluster"].clone();
    assert_eq!(
        cluster.as_object_mut().unwrap().remove("nullable"),
        Some(json!(true))
    );
    let expected = as_kube_derive_writes(crd_emitter_schema(
        &model,
        "sigs.k8s.io.cluster-api.api.core.v1beta2.ClusterSpec",
    ));
    assert_same("spec.cluster", &cluster, &expected);
    assert_eq!(spec["variables"]["type"], json!("array"));
}

#[test]
fn extension_config_spec_equals_the_published_crd() {
    let crd =
        load_yaml(&root().join("golden/sdk/crd/runtime.cluster.x-k8s.io_extensionconfigs.yaml"));
    let version = crd["spec"]["versions"]
        .as_array()
        .unwrap()
        .iter()
        .find(|v| v["name"] == "v1beta2")
        .expect("v1beta2 in the CRD");
    let mut published = version["schema"]["openAPIV3Schema"]["properties"]["spec"].clone();
    // The published CRD describes the field (`ExtensionConfig.spec`); the impl, the type.
    published.as_object_mut().unwrap().remove("description");
    let mut embedded = embedding_schema()["properties"]["spec"]["properties"]["extension"].clone();
    embedded.as_object_mut().unwrap().remove("description");
    let published = as_kube_derive_writes(published);
    if let Some(d) = first_difference(&embedded, &published, "") {
        panic!("the embedded ExtensionConfigSpec differs from the published CRD at {d}");
    }
}

#[test]
fn the_embedding_crd_is_structural() {
    let schema = embedding_schema();
    let violations = structural_violations(&schema);
    assert!(
        violations.is_empty(),
        "not structural:\n{}",
        violations.join("\n")
    );
    // The embedded parts carry the CRD markers through kube-derive.
    let text = schema.to_string();
    for marker in [
        "x-kubernetes-list-type",
        "x-kubernetes-list-map-keys",
        "x-kubernetes-validations",
        "x-kubernetes-preserve-unknown-fields",
        "x-kubernetes-int-or-string",
        "\"default\"",
        "\"pattern\"",
    ] {
        assert!(text.contains(marker), "no {marker} in the embedding CRD");
    }
}

#[cfg_attr(
    not(feature = "external-tests"),
    ignore = "needs the validators `cargo xtask test` installs (feature external-tests)"
)]
#[test]
fn kubernetes_validate_accepts_the_embedding_crd() {
    let tmp = tempfile::tempdir().unwrap();
    let path = tmp.path().join("embedding-crd.yaml");
    let crd = serde_json::to_string_pretty(&Embedding::crd()).unwrap();
    // JSON is YAML.
    std::fs::write(&path, crd).unwrap();
    let (ok, out) = tools::run(
        "venv/bin/kubernetes-validate",
        &["--strict", "-k", "1.33.0", path.to_str().unwrap()],
    );
    assert!(ok, "kubernetes-validate rejected the embedding CRD:\n{out}");
}

// ---------------------------------------------------------------------------------------------
// A structural-schema checker (Kubernetes' rules for CRD schemas)
// ---------------------------------------------------------------------------------------------

/// The JSON types a structural schema may name.
const TYPES: &[&str] = &["object", "array", "string", "integer", "number", "boolean"];

/// Keywords a CRD schema cannot have at all.
const FORBIDDEN: &[&str] = &[
    "$ref",
    "$defs",
    "definitions",
    "$schema",
    "const",
    "patternProperties",
];

/// Keywords not allowed inside `allOf`/`anyOf`/`oneOf`/`not`: there, a structural schema only
/// restates value validations of what the enclosing node already declares.
const NOT_IN_JUNCTORS: &[&str] = &[
    "type",
    "description",
    "default",
    "additionalProperties",
    "nullable",
    "properties",
    "items",
    "x-kubernetes-preserve-unknown-fields",
    "x-kubernetes-int-or-string",
    "x-kubernetes-embedded-resource",
    "x-kubernetes-list-type",
    "x-kubernetes-list-map-keys",
    "x-kubernetes-map-type",
];

/// Every violation of the structural-schema rules under `schema`, as a JSON pointer with what
/// is wrong: each node (the root, each property, `items` and `additionalProperties`) has a
/// known `type`, unless it carries `x-kubernetes-int-or-string: true` or
/// `x-kubernetes-preserve-unknown-fields: true`; an int-or-string node has no `type`;
/// `properties` and `additionalProperties` exclude each other; `items` is one schema; no
/// `$ref` or definitions; the junctors only hold value validations; extensions are true when
/// set; `x-kubernetes-list-map-keys` only on a `map` list whose items require those keys.
fn structural_violations(schema: &Value) -> Vec<String> {
    let mut out = Vec::new();
    node(schema, "", &mut out);
    out
}

fn node(schema: &Value, at: &str, out: &mut Vec<String>) {
    let Some(m) = schema.as_object() else {
        out.push(format!("{at}: not a schema object: {schema}"));
        return;
    };
    let flag = |k: &str| m.get(k) == Some(&Value::Bool(true));
    for k in [
        "x-kubernetes-preserve-unknown-fields",
        "x-kubernetes-int-or-string",
    ] {
        if m.contains_key(k) && !flag(k) {
            out.push(format!("{at}: {k} set but not true"));
        }
    }
    match m.get("type").map(|t| t.as_str()) {
        Some(Some(t)) if TYPES.contains(&t) => {
            if flag("x-kubernetes-int-or-string") {
                out.push(format!("{at}: int-or-string with a type"));
            }
        }
        Some(t) => out.push(format!("{at}: bad type {t:?}")),
        None if flag("x-kubernetes-int-or-string")
            || flag("x-kubernetes-preserve-unknown-fields") => {}
        None => out.push(format!("{at}: no type")),
    }
    for k in FORBIDDEN {
        if m.contains_key(*k) {
            out.push(format!("{at}: {k}"));
        }
    }
    if m.contains_key("properties") && m.contains_key("additionalProperties") {
        out.push(format!("{at}: both properties and additionalProperties"));
    }
    match m.get("properties") {
        Some(Value::Object(props)) => {
            for (k, v) in props {
                node(v, &format!("{at}/properties/{k}"), out);
            }
        }
        Some(other) => out.push(format!("{at}/properties: not a map: {other}")),
        None => {}
    }
    match m.get("items") {
        Some(Value::Object(_)) => node(&m["items"], &format!("{at}/items"), out),
        Some(other) => out.push(format!("{at}/items: not one schema: {other}")),
        None => {}
    }
    match m.get("additionalProperties") {
        None | Some(Value::Bool(true)) => {}
        Some(Value::Object(_)) => node(
            &m["additionalProperties"],
            &format!("{at}/additionalProperties"),
            out,
        ),
        Some(other) => out.push(format!("{at}/additionalProperties: {other}")),
    }
    if let Some(keys) = m.get("x-kubernetes-list-map-keys") {
        if m.get("x-kubernetes-list-type") != Some(&json!("map")) {
            out.push(format!("{at}: list-map-keys on a list that is not a map"));
        }
        let required = &m["items"]["required"];
        for key in keys.as_array().into_iter().flatten() {
            let defaulted = m["items"]["properties"][key.as_str().unwrap_or_default()]
                .get("default")
                .is_some();
            let listed = required.as_array().is_some_and(|r| r.contains(key));
            if !listed && !defaulted {
                out.push(format!(
                    "{at}: map key {key} is neither required nor defaulted"
                ));
            }
        }
    }
    // The one junctor Kubernetes allows to name types: an int-or-string's two alternatives.
    let int_or_string = json!([{ "type": "integer" }, { "type": "string" }]);
    for k in ["allOf", "anyOf", "oneOf"] {
        if k == "anyOf" && flag("x-kubernetes-int-or-string") && m.get(k) == Some(&int_or_string) {
            continue;
        }
        match m.get(k) {
            Some(Value::Array(list)) => {
                for (i, s) in list.iter().enumerate() {
                    junctor(s, &format!("{at}/{k}/{i}"), out);
                }
            }
            Some(other) => out.push(format!("{at}/{k}: not a list: {other}")),
            None => {}
        }
    }
    if let Some(s) = m.get("not") {
        junctor(s, &format!("{at}/not"), out);
    }
}

fn junctor(schema: &Value, at: &str, out: &mut Vec<String>) {
    let Some(m) = schema.as_object() else {
        out.push(format!("{at}: not a schema object"));
        return;
    };
    for k in NOT_IN_JUNCTORS.iter().chain(FORBIDDEN) {
        if m.contains_key(*k) {
            out.push(format!("{at}: {k} inside a junctor"));
        }
    }
}

#[test]
fn the_structural_checker_finds_violations() {
    let mut schema = embedding_schema();
    let spec = &mut schema["properties"]["spec"]["properties"];
    spec["variable"].as_object_mut().unwrap().remove("type");
    spec["variables"]["items"] = json!([{ "type": "object" }]);
    spec["request"]["properties"]["cluster"] = json!({ "$ref": "#/$defs/Cluster" });
    spec["extension"]["additionalProperties"] = json!({ "type": "string" });
    spec["cluster"]["anyOf"] = json!([{ "type": "object", "properties": {} }]);
    spec["port"] = json!({ "type": "string", "x-kubernetes-int-or-string": true });
    spec["free"] = json!({ "x-kubernetes-preserve-unknown-fields": false });
    spec["list"] = json!({
        "type": "array",
        "x-kubernetes-list-type": "map",
        "x-kubernetes-list-map-keys": ["name"],
        "items": { "type": "object", "properties": { "name": { "type": "string" } } },
    });
    // A node without type is fine when it preserves unknown fields or is int-or-string.
    spec["data"] = json!({ "x-kubernetes-preserve-unknown-fields": true });
    spec["size"] = json!({ "x-kubernetes-int-or-string": true });
    spec["count"] = json!({
        "x-kubernetes-int-or-string": true,
        "anyOf": [{ "type": "integer" }, { "type": "string" }],
    });
    let mut v = structural_violations(&schema);
    v.sort();
    let p = "/properties/spec/properties";
    let mut expected = vec![
        format!("{p}/cluster/anyOf/0: properties inside a junctor"),
        format!("{p}/cluster/anyOf/0: type inside a junctor"),
        format!("{p}/extension: both properties and additionalProperties"),
        format!("{p}/free: no type"),
        format!("{p}/free: x-kubernetes-preserve-unknown-fields set but not true"),
        format!("{p}/list: map key \"name\" is neither required nor defaulted"),
        format!("{p}/port: int-or-string with a type"),
        format!("{p}/request/properties/cluster: $ref"),
        format!("{p}/request/properties/cluster: no type"),
        format!("{p}/variable: no type"),
        format!("{p}/variables/items: not one schema: [{{\"type\":\"object\"}}]"),
    ];
    expected.sort();
    assert_eq!(v, expected);
}

// ---------------------------------------------------------------------------------------------
// schemars' own defaults
// ---------------------------------------------------------------------------------------------

/// A value of `T` that has its nested objects filled in, read from JSON so every type of the
/// path is exercised.
fn sample<T: serde::de::DeserializeOwned + Serialize>(json: Value) -> Value {
    let value: T = serde_json::from_value(json).expect("the sample reads");
    serde_json::to_value(value).expect("the sample writes")
}

#[test]
fn with_schemars_defaults_the_types_are_definitions_and_real_values_validate() {
    let schema = schemars::schema_for!(EmbeddingSpec).to_value();
    let defs = schema["$defs"].as_object().expect("$defs");
    for name in [
        "ClusterClassVariable",
        "ClusterSpec",
        "BeforeClusterCreateRequest",
        "ExtensionConfigSpec",
        "JSONSchemaProps",
    ] {
        assert!(
            defs.contains_key(name),
            "no $defs/{name}: {:?}",
            defs.keys()
        );
    }
    assert_eq!(
        schema["properties"]["variable"]["$ref"],
        json!("#/$defs/ClusterClassVariable")
    );
    let instance = json!({
        "variable": sample::<ClusterClassVariable>(json!({
            "name": "region",
            "required": true,
            "schema": { "openAPIV3Schema": {
                "type": "object",
                "properties": { "zone": { "type": "string", "enum": ["a", "b"] } },
                "x-kubernetes-validations": [{ "rule": "self.zone != ''" }],
            }},
        })),
        "variables": [],
        "cluster": sample::<ClusterSpec>(json!({
            "paused": true,
            "clusterNetwork": { "pods": { "cidrBlocks": ["10.0.0.0/16"] } },
            "topology": { "classRef": { "name": "quick-start" }, "version": "v1.33.0" },
        })),
        "request": sample::<BeforeClusterCreateRequest>(json!({
            "apiVersion": "hooks.runtime.cluster.x-k8s.io/v1alpha1",
            "kind": "BeforeClusterCreateRequest",
            "cluster": {
                "metadata": { "name": "c1", "namespace": "default" },
                "spec": { "paused": true },
            },
        })),
        "extension": sample::<ExtensionConfigSpec>(json!({
            "clientConfig": { "url": "https://extension.example:8443" },
        })),
    });
    let validator = jsonschema::options()
        .build(&schema)
        .expect("schemars' schema compiles");
    let errors: Vec<String> = validator
        .iter_errors(&instance)
        .map(|e| format!("{}: {e}", e.instance_path().as_str()))
        .collect();
    assert!(errors.is_empty(), "{}", errors.join("\n"));
    // And the schema is not vacuous: a wrong type somewhere deep is caught.
    let mut wrong = instance.clone();
    wrong["cluster"]["paused"] = json!("yes");
    assert!(!validator.is_valid(&wrong));
}
