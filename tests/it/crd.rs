//! The ExtensionConfig CRD (`golden/sdk/crd/runtime.cluster.x-k8s.io_extensionconfigs.yaml`):
//!
//! - its structure equals upstream's (as parsed data, prose ignored) except for an allow-list;
//! - it is a structural schema;
//! - `kubernetes-validate` accepts it (and rejects a broken copy);
//! - the instances under `testdata/extensionconfig/{valid,invalid}` validate, or fail exactly
//!   as their `# expect:` lines say, against the schema of their version; together the invalid
//!   ones hit every validation rule of the schema;
//! - with the `kube` feature, both versions are kube `Resource`s with the CRD's identity.

use crate::support;

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use capi_runtime::api::runtime::{v1alpha1, v1beta2};
use serde_json::Value;
use support::structure::{diff, load_yaml, strip_prose};
use support::tools;

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn crd_path() -> PathBuf {
    root().join("golden/sdk/crd/runtime.cluster.x-k8s.io_extensionconfigs.yaml")
}

fn crd() -> Value {
    load_yaml(&crd_path())
}

/// The `openAPIV3Schema` of one version of the CRD.
fn version_schema(crd: &Value, version: &str) -> Value {
    let versions = crd["spec"]["versions"].as_array().expect("spec.versions");
    let v = versions
        .iter()
        .find(|v| v["name"] == version)
        .unwrap_or_else(|| panic!("no version {version} in the CRD"));
    v["schema"]["openAPIV3Schema"].clone()
}

const VERSIONS: [&str; 2] = ["v1alpha1", "v1beta2"];

// ---------------------------------------------------------------------------------------------
// Structure against upstream
// ---------------------------------------------------------------------------------------------

/// Where the generated CRD knowingly differs from upstream's, and why. The test asserts that
/// exactly these paths differ: a new difference fails, and so does a listed one that went away.
const ALLOWED_DIFFERENCES: &[(&str, &str)] = &[
    (
        "/metadata/annotations/controller-gen.kubebuilder.io/version",
        "we are not controller-gen and do not claim its version",
    ),
    (
        "/metadata/annotations/runtime.cluster.x-k8s.io/generated-by",
        "instead, the CRD names the generator that wrote it",
    ),
];

#[test]
fn crd_structure_matches_upstream_except_the_allow_list() {
    let expected = strip_prose(&load_yaml(
        &root().join("testdata/conformance/capi-extensionconfig-crd.structure.yaml"),
    ));
    let actual = strip_prose(&crd());
    let differences = diff(&expected, &actual);
    let paths: BTreeSet<&str> = differences.iter().map(|d| d.path.as_str()).collect();
    let allowed: BTreeSet<&str> = ALLOWED_DIFFERENCES.iter().map(|(p, _)| *p).collect();
    assert_eq!(
        paths, allowed,
        "the CRD differs from upstream's structure elsewhere than the allow-list:\n{differences:#?}"
    );
    // The kept annotation has the form we document.
    let annotation = actual["metadata"]["annotations"]["runtime.cluster.x-k8s.io/generated-by"]
        .as_str()
        .expect("generated-by annotation");
    assert!(
        annotation.starts_with("capi-runtime-codegen "),
        "{annotation}"
    );
}

// ---------------------------------------------------------------------------------------------
// Structural schema
// ---------------------------------------------------------------------------------------------

/// The structural-schema violations under `schema` (a JSON pointer each, with what is wrong):
/// every schema node needs a `type` unless it carries `x-kubernetes-int-or-string` or
/// `x-kubernetes-preserve-unknown-fields`; no `$ref`; no `nullable`; a node does not have both
/// `properties` and `additionalProperties`; `items` is one schema, not a list.
fn structural_violations(schema: &Value) -> Vec<String> {
    let mut out = Vec::new();
    check_node(schema, "", &mut out);
    out
}

fn check_node(node: &Value, at: &str, out: &mut Vec<String>) {
    let Some(m) = node.as_object() else {
        out.push(format!("{at}: a schema must be an object, got {node}"));
        return;
    };
    let flag = |k: &str| m.get(k) == Some(&Value::Bool(true));
    if !m.contains_key("type")
        && !flag("x-kubernetes-int-or-string")
        && !flag("x-kubernetes-preserve-unknown-fields")
    {
        out.push(format!("{at}: no type"));
    }
    if m.contains_key("$ref") {
        out.push(format!("{at}: $ref"));
    }
    if m.contains_key("nullable") {
        out.push(format!("{at}: nullable"));
    }
    if m.contains_key("properties") && m.contains_key("additionalProperties") {
        out.push(format!("{at}: both properties and additionalProperties"));
    }
    if let Some(props) = m.get("properties") {
        match props.as_object() {
            Some(props) => {
                for (k, v) in props {
                    check_node(v, &format!("{at}/properties/{k}"), out);
                }
            }
            None => out.push(format!("{at}/properties: not a map")),
        }
    }
    match m.get("items") {
        Some(Value::Array(_)) => out.push(format!("{at}/items: a list of schemas")),
        Some(items) => check_node(items, &format!("{at}/items"), out),
        None => {}
    }
    match m.get("additionalProperties") {
        None | Some(Value::Bool(_)) => {}
        Some(ap) => check_node(ap, &format!("{at}/additionalProperties"), out),
    }
    // Combinators and `not` hold schemas too (none in this CRD, but a checker should see them).
    for k in ["allOf", "anyOf", "oneOf"] {
        if let Some(Value::Array(list)) = m.get(k) {
            for (i, s) in list.iter().enumerate() {
                check_node_no_type_needed(s, &format!("{at}/{k}/{i}"), out);
            }
        }
    }
    if let Some(s) = m.get("not") {
        check_node_no_type_needed(s, &format!("{at}/not"), out);
    }
}

/// Inside `allOf`/`anyOf`/`oneOf`/`not` a structural schema may leave out `type` (it is set
/// by the enclosing node), but `$ref` and `nullable` are still forbidden.
fn check_node_no_type_needed(node: &Value, at: &str, out: &mut Vec<String>) {
    if let Some(m) = node.as_object() {
        for k in ["$ref", "nullable"] {
            if m.contains_key(k) {
                out.push(format!("{at}: {k}"));
            }
        }
    }
}

#[test]
fn crd_schemas_are_structural() {
    let crd = crd();
    for version in VERSIONS {
        let schema = version_schema(&crd, version);
        let violations = structural_violations(&schema);
        assert!(
            violations.is_empty(),
            "{version} is not structural:\n{}",
            violations.join("\n")
        );
    }
}

#[test]
fn the_structural_checker_finds_violations() {
    let mut schema = version_schema(&crd(), "v1beta2");
    let spec = &mut schema["properties"]["spec"];
    spec["properties"]["settings"]
        .as_object_mut()
        .unwrap()
        .remove("type");
    spec["properties"]["clientConfig"]["properties"]["url"]["nullable"] = Value::Bool(true);
    spec["properties"]["namespaceSelector"] = serde_json::json!({"$ref": "#/x", "type": "object"});
    // An int-or-string node without type is fine.
    spec["properties"]["port"] = serde_json::json!({"x-kubernetes-int-or-string": true});
    let mut v = structural_violations(&schema);
    v.sort();
    assert_eq!(
        v,
        [
            "/properties/spec/properties/clientConfig/properties/url: nullable",
            "/properties/spec/properties/namespaceSelector: $ref",
            "/properties/spec/properties/settings: no type",
        ]
    );
}

// ---------------------------------------------------------------------------------------------
// kubernetes-validate
// ---------------------------------------------------------------------------------------------

#[cfg_attr(
    not(feature = "external-tests"),
    ignore = "needs the validators `cargo xtask test` installs (feature external-tests)"
)]
#[test]
fn kubernetes_validate_accepts_the_crd_and_rejects_a_broken_copy() {
    let file = crd_path();
    let (ok, out) = tools::run(
        "venv/bin/kubernetes-validate",
        &["--strict", "-k", "1.33.0", file.to_str().unwrap()],
    );
    assert!(
        ok,
        "kubernetes-validate rejected {}:\n{out}",
        file.display()
    );

    let tmp = tempfile::tempdir().unwrap();
    let mut broken = crd();
    broken["spec"].as_object_mut().unwrap().remove("group");
    let path = tmp.path().join("broken-crd.yaml");
    // JSON is YAML.
    std::fs::write(&path, serde_json::to_string_pretty(&broken).unwrap()).unwrap();
    let (ok, out) = tools::run(
        "venv/bin/kubernetes-validate",
        &["--strict", "-k", "1.33.0", path.to_str().unwrap()],
    );
    assert!(
        !ok,
        "kubernetes-validate accepted a CRD without spec.group:\n{out}"
    );
    assert!(out.contains("group"), "{out}");
}

// ---------------------------------------------------------------------------------------------
// Instances
// ---------------------------------------------------------------------------------------------

/// The schema keywords that are validation rules jsonschema checks. Every occurrence in the
/// CRD is a rule that some invalid instance must break (`required`: every listed name).
const CHECKED_KEYWORDS: &[&str] = &[
    "type",
    "minLength",
    "maxLength",
    "minimum",
    "pattern",
    "enum",
    "maxItems",
    "minProperties",
    "required",
];

/// Formats jsonschema checks (with format validation on); their occurrences are rules too.
const CHECKED_FORMATS: &[&str] = &["date-time"];

/// Validations the apiserver applies but jsonschema cannot, so they are left out of the
/// coverage set:
/// - `format: byte` (base64): not a JSON Schema format, jsonschema ignores it. `int32` and
///   `int64` are OpenAPI formats jsonschema does not know either (ignored likewise).
/// - `x-kubernetes-list-type` / `x-kubernetes-list-map-keys`: the key uniqueness of `map`
///   lists is a Kubernetes extension that jsonschema ignores, like every `x-` keyword (`atomic`
///   lists carry no validation at all, only a merge strategy).
/// - `x-kubernetes-validations` (CEL): none in this CRD; jsonschema does not run CEL.
const UNCHECKED_FORMATS: &[&str] = &["byte", "int32", "int64"];
const UNCHECKED_KEYWORDS: &[&str] = &[
    "x-kubernetes-list-type",
    "x-kubernetes-list-map-keys",
    "x-kubernetes-validations",
];

/// Keywords that hold sub-schemas or prose, not rules. `x-kubernetes-map-type: atomic` is a
/// merge strategy for server-side apply, not a validation.
const NOT_RULES: &[&str] = &[
    "properties",
    "items",
    "additionalProperties",
    "description",
    "x-kubernetes-map-type",
];

/// One rule of a schema: the JSON pointer of the keyword in the version's `openAPIV3Schema`,
/// plus the property name for `required`.
type Rule = String;

/// Every rule of `schema` jsonschema can check. Panics on a keyword this test does not
/// classify, so a new kind of rule cannot go unnoticed.
fn rules(schema: &Value) -> BTreeSet<Rule> {
    let mut out = BTreeSet::new();
    collect_rules(schema, "", &mut out);
    out
}

fn collect_rules(node: &Value, at: &str, out: &mut BTreeSet<Rule>) {
    let m = node.as_object().expect("schema node");
    for (k, v) in m {
        let here = format!("{at}/{k}");
        match k.as_str() {
            "properties" => {
                for (name, sub) in v.as_object().unwrap() {
                    collect_rules(sub, &format!("{here}/{name}"), out);
                }
            }
            "items" | "additionalProperties" => collect_rules(v, &here, out),
            "required" => {
                for name in v.as_array().unwrap() {
                    out.insert(format!("{here}:{}", name.as_str().unwrap()));
                }
            }
            "format" => {
                let f = v.as_str().unwrap();
                if CHECKED_FORMATS.contains(&f) {
                    out.insert(here);
                } else {
                    assert!(
                        UNCHECKED_FORMATS.contains(&f),
                        "{here}: unclassified format {f}"
                    );
                }
            }
            k if CHECKED_KEYWORDS.contains(&k) => {
                out.insert(here);
            }
            k if UNCHECKED_KEYWORDS.contains(&k) || NOT_RULES.contains(&k) => {}
            k => panic!("{here}: keyword {k} is not classified by this test"),
        }
    }
}

fn validator(schema: &Value) -> jsonschema::Validator {
    jsonschema::options()
        .with_draft(jsonschema::Draft::Draft4)
        .should_validate_formats(true)
        .build(schema)
        .expect("the CRD schema compiles")
}

/// One error of an instance: where (instance pointer), which keyword, and for `required` the
/// missing property; plus the rule it comes from.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
struct Failure {
    pointer: String,
    keyword: String,
    property: Option<String>,
}

impl std::fmt::Display for Failure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let p = if self.pointer.is_empty() {
            "\"\""
        } else {
            &self.pointer
        };
        write!(f, "{p} {}", self.keyword)?;
        if let Some(prop) = &self.property {
            write!(f, " {prop}")?;
        }
        Ok(())
    }
}

fn failures(v: &jsonschema::Validator, instance: &Value) -> Vec<(Failure, Rule)> {
    v.iter_errors(instance)
        .map(|e| {
            let property = match e.kind() {
                jsonschema::error::ValidationErrorKind::Required { property } => {
                    Some(property.as_str().unwrap_or_default().to_string())
                }
                _ => None,
            };
            let schema_path = e.schema_path().as_str().to_string();
            let rule = match &property {
                Some(p) => format!("{schema_path}:{p}"),
                None => schema_path,
            };
            (
                Failure {
                    pointer: e.instance_path().as_str().to_string(),
                    keyword: e.kind().keyword().to_string(),
                    property,
                },
                rule,
            )
        })
        .collect()
}

/// An instance file: its leading comment, declared expectations, and the document.
struct Instance {
    name: String,
    about: String,
    expect: Vec<Failure>,
    version: String,
    doc: Value,
}

/// Reads `testdata/extensionconfig/<kind>/*.yaml`. Header lines:
/// - `# <text>`: what the file exercises (at least one, first);
/// - `# expect: <pointer> <keyword> [<property>]`: one error it must produce (`""` is the root
///   pointer; `required` names the missing property). The errors must be exactly these.
/// - `# version: <v>`: the schema version, for the files whose `apiVersion` cannot say it
///   (the root is not a map, or `apiVersion` has the wrong type).
fn instances(kind: &str) -> Vec<Instance> {
    let dir = root().join("testdata/extensionconfig").join(kind);
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "yaml"))
        .collect();
    files.sort();
    files
        .into_iter()
        .map(|path| {
            let name = path.file_name().unwrap().to_string_lossy().into_owned();
            let text = std::fs::read_to_string(&path).unwrap();
            let mut about = Vec::new();
            let mut expect = Vec::new();
            let mut version = None;
            for line in text.lines() {
                let Some(c) = line.strip_prefix('#') else {
                    break;
                };
                let c = c.trim();
                if let Some(e) = c.strip_prefix("expect:") {
                    let parts: Vec<&str> = e.split_whitespace().collect();
                    assert!(
                        (2..=3).contains(&parts.len()),
                        "{name}: bad expect line {line:?}"
                    );
                    let pointer = if parts[0] == "\"\"" { "" } else { parts[0] };
                    assert!(
                        pointer.is_empty() || pointer.starts_with('/'),
                        "{name}: {line:?}"
                    );
                    expect.push(Failure {
                        pointer: pointer.to_string(),
                        keyword: parts[1].to_string(),
                        property: parts.get(2).map(|p| p.to_string()),
                    });
                } else if let Some(v) = c.strip_prefix("version:") {
                    version = Some(v.trim().to_string());
                } else if !c.is_empty() {
                    about.push(c.to_string());
                }
            }
            assert!(
                text.starts_with("# ") && !about.is_empty(),
                "{name}: must start with a `# ...` comment saying what it exercises"
            );
            let doc = load_yaml(&path);
            let from_api_version = doc
                .get("apiVersion")
                .and_then(Value::as_str)
                .and_then(|a| a.strip_prefix("runtime.cluster.x-k8s.io/"))
                .map(str::to_string);
            let version = from_api_version
                .or(version)
                .unwrap_or_else(|| panic!("{name}: no apiVersion nor `# version:` line"));
            assert!(VERSIONS.contains(&version.as_str()), "{name}: {version}");
            Instance {
                name,
                about: about.join(" "),
                expect,
                version,
                doc,
            }
        })
        .collect()
}

fn validators() -> BTreeMap<&'static str, jsonschema::Validator> {
    let crd = crd();
    VERSIONS
        .iter()
        .map(|v| (*v, validator(&version_schema(&crd, v))))
        .collect()
}

/// Reads a valid instance into the Rust type of its version and writes it back.
fn rust_round_trip(version: &str, doc: &Value) -> Result<Value, serde_json::Error> {
    match version {
        "v1alpha1" => serde_json::from_value::<v1alpha1::ExtensionConfig>(doc.clone())
            .and_then(|x| serde_json::to_value(&x)),
        "v1beta2" => serde_json::from_value::<v1beta2::ExtensionConfig>(doc.clone())
            .and_then(|x| serde_json::to_value(&x)),
        v => unreachable!("{v}"),
    }
}

#[test]
fn valid_instances_validate_and_read_into_the_rust_types() {
    let validators = validators();
    let valid = instances("valid");
    assert!(valid.len() >= 15, "only {} valid instances", valid.len());
    let mut per_version = BTreeMap::<&str, usize>::new();
    let mut problems = Vec::new();
    for i in &valid {
        assert!(
            i.expect.is_empty(),
            "{}: valid files have no expect lines",
            i.name
        );
        *per_version.entry(i.version.as_str()).or_default() += 1;
        let f = failures(&validators[i.version.as_str()], &i.doc);
        if !f.is_empty() {
            let list: Vec<String> = f.iter().map(|(f, _)| f.to_string()).collect();
            problems.push(format!("{} ({}): {}", i.name, i.about, list.join("; ")));
            continue;
        }
        // What the Rust types make of it: every field is understood and written back as read
        // (the valid files are in the canonical form serde writes).
        match rust_round_trip(&i.version, &i.doc) {
            Ok(back) if back == i.doc => {}
            Ok(back) => problems.push(format!(
                "{}: the Rust type writes it back differently:\n{}",
                i.name,
                diff(&i.doc, &back)
                    .iter()
                    .map(|d| format!("  {} {}", d.path, d.what))
                    .collect::<Vec<_>>()
                    .join("\n")
            )),
            Err(e) => problems.push(format!("{}: the Rust type rejects it: {e}", i.name)),
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
    for v in VERSIONS {
        assert!(
            per_version.get(v).copied().unwrap_or(0) >= 3,
            "few valid {v} instances: {per_version:?}"
        );
    }
}

#[test]
fn invalid_instances_fail_as_declared_and_cover_every_rule() {
    let crd = crd();
    let validators = validators();
    let invalid = instances("invalid");
    assert!(
        invalid.len() >= 15,
        "only {} invalid instances",
        invalid.len()
    );
    let mut hit: BTreeSet<(String, Rule)> = BTreeSet::new();
    let mut problems = Vec::new();
    for i in &invalid {
        assert!(
            !i.expect.is_empty(),
            "{}: an invalid file needs `# expect:` lines",
            i.name
        );
        let got = failures(&validators[i.version.as_str()], &i.doc);
        let mut actual: Vec<Failure> = got.iter().map(|(f, _)| f.clone()).collect();
        actual.sort();
        let mut expected = i.expect.clone();
        expected.sort();
        if actual != expected {
            let show = |l: &[Failure]| {
                l.iter()
                    .map(|f| format!("  # expect: {f}"))
                    .collect::<Vec<_>>()
                    .join("\n")
            };
            problems.push(format!(
                "{} ({}):\nexpected\n{}\ngot\n{}",
                i.name,
                i.about,
                show(&expected),
                show(&actual)
            ));
        }
        hit.extend(got.into_iter().map(|(_, r)| (i.version.clone(), r)));
    }
    assert!(problems.is_empty(), "{}", problems.join("\n\n"));

    let mut all: BTreeSet<(String, Rule)> = BTreeSet::new();
    for v in VERSIONS {
        all.extend(
            rules(&version_schema(&crd, v))
                .into_iter()
                .map(|r| (v.to_string(), r)),
        );
    }
    let uncovered: Vec<String> = all
        .difference(&hit)
        .map(|(v, r)| format!("{v} {r}"))
        .collect();
    assert!(
        uncovered.is_empty(),
        "{} of {} rules are not hit by any invalid instance:\n{}",
        uncovered.len(),
        all.len(),
        uncovered.join("\n")
    );
    // Every error comes from a rule of the set (nothing outside what the walk found).
    let unknown: Vec<String> = hit
        .difference(&all)
        .map(|(v, r)| format!("{v} {r}"))
        .collect();
    assert!(unknown.is_empty(), "{}", unknown.join("\n"));
    eprintln!(
        "{} rules, all hit by {} invalid instances",
        all.len(),
        invalid.len()
    );
}

#[test]
fn the_rule_walk_sees_the_known_rules() {
    // A few rules named by hand, so that a walk that finds nothing would not pass.
    let crd = crd();
    let v1beta2 = rules(&version_schema(&crd, "v1beta2"));
    let v1alpha1 = rules(&version_schema(&crd, "v1alpha1"));
    for r in [
        "/required:spec",
        "/properties/spec/properties/clientConfig/minProperties",
        "/properties/spec/properties/clientConfig/properties/url/maxLength",
        "/properties/status/properties/handlers/items/properties/timeoutSeconds/minimum",
        "/properties/status/properties/conditions/items/properties/reason/pattern",
        "/properties/status/properties/deprecated/properties/v1beta1/properties/conditions/items/required:lastTransitionTime",
        "/properties/status/properties/conditions/items/properties/lastTransitionTime/format",
    ] {
        assert!(v1beta2.contains(r), "v1beta2 lacks {r}");
    }
    for r in [
        "/properties/status/properties/v1beta2/properties/conditions/maxItems",
        "/properties/status/properties/conditions/items/properties/severity/maxLength",
    ] {
        assert!(v1alpha1.contains(r), "v1alpha1 lacks {r}");
    }
    // The v1alpha1 differences of api.md §5.3.
    for r in [
        "/required:spec",
        "/properties/spec/properties/clientConfig/minProperties",
        "/properties/status/minProperties",
        "/properties/status/properties/handlers/items/properties/timeoutSeconds/minimum",
    ] {
        assert!(!v1alpha1.contains(r), "v1alpha1 has {r}");
    }
}

// ---------------------------------------------------------------------------------------------
// kube Resource
// ---------------------------------------------------------------------------------------------

#[cfg(feature = "kube")]
mod kube {
    use capi_runtime::__private::kube_core::{
        ClusterResourceScope, ObjectMeta, Resource, ResourceExt,
    };
    use capi_runtime::api::runtime::{v1alpha1, v1beta2};

    fn cluster_scoped<K: Resource<DynamicType = (), Scope = ClusterResourceScope>>() {}

    #[test]
    fn extension_config_is_a_cluster_scoped_kube_resource() {
        cluster_scoped::<v1beta2::ExtensionConfig>();
        cluster_scoped::<v1alpha1::ExtensionConfig>();

        assert_eq!(
            <v1beta2::ExtensionConfig as Resource>::url_path(&(), None),
            "/apis/runtime.cluster.x-k8s.io/v1beta2/extensionconfigs"
        );
        assert_eq!(
            <v1alpha1::ExtensionConfig as Resource>::url_path(&(), None),
            "/apis/runtime.cluster.x-k8s.io/v1alpha1/extensionconfigs"
        );
        for (kind, group, version, api_version, plural) in [
            (
                v1beta2::ExtensionConfig::kind(&()),
                v1beta2::ExtensionConfig::group(&()),
                v1beta2::ExtensionConfig::version(&()),
                v1beta2::ExtensionConfig::api_version(&()),
                v1beta2::ExtensionConfig::plural(&()),
            ),
            (
                v1alpha1::ExtensionConfig::kind(&()),
                v1alpha1::ExtensionConfig::group(&()),
                v1alpha1::ExtensionConfig::version(&()),
                v1alpha1::ExtensionConfig::api_version(&()),
                v1alpha1::ExtensionConfig::plural(&()),
            ),
        ] {
            assert_eq!(kind, "ExtensionConfig");
            assert_eq!(group, "runtime.cluster.x-k8s.io");
            assert_eq!(api_version, format!("{group}/{version}"));
            assert_eq!(plural, "extensionconfigs");
        }
        assert_eq!(v1beta2::ExtensionConfig::version(&()), "v1beta2");
        assert_eq!(v1alpha1::ExtensionConfig::version(&()), "v1alpha1");
    }

    #[test]
    fn the_core_objects_hooks_carry_are_namespaced_kube_resources() {
        use capi_runtime::__private::kube_core::NamespaceResourceScope;
        use capi_runtime::api::core::v1beta2::{Cluster, Machine, MachineSet};

        fn namespaced<K: Resource<DynamicType = (), Scope = NamespaceResourceScope>>(
            ns: &str,
        ) -> String {
            K::url_path(&(), Some(ns))
        }
        assert_eq!(
            namespaced::<Cluster>("ns"),
            "/apis/cluster.x-k8s.io/v1beta2/namespaces/ns/clusters"
        );
        assert_eq!(
            namespaced::<Machine>("ns"),
            "/apis/cluster.x-k8s.io/v1beta2/namespaces/ns/machines"
        );
        assert_eq!(
            namespaced::<MachineSet>("ns"),
            "/apis/cluster.x-k8s.io/v1beta2/namespaces/ns/machinesets"
        );
        assert_eq!(Machine::kind(&()), "Machine");
        let mut cluster = Cluster::default();
        cluster.meta_mut().name = Some("c".into());
        assert_eq!(cluster.metadata.name.as_deref(), Some("c"));
    }

    #[test]
    fn meta_is_the_metadata_field() {
        let metadata = ObjectMeta {
            name: Some("ext".into()),
            labels: Some([("a".to_string(), "b".to_string())].into()),
            ..Default::default()
        };
        let mut x = v1beta2::ExtensionConfig {
            metadata: metadata.clone(),
            ..Default::default()
        };
        assert_eq!(x.meta(), &metadata);
        x.meta_mut().name = Some("other".into());
        assert_eq!(x.metadata.name.as_deref(), Some("other"));
        assert_eq!(x.name_any(), "other");

        let mut y = v1alpha1::ExtensionConfig {
            metadata: metadata.clone(),
            ..Default::default()
        };
        assert_eq!(y.meta(), &metadata);
        y.meta_mut().namespace = Some("ignored".into());
        assert_eq!(y.metadata.namespace.as_deref(), Some("ignored"));
    }

    #[test]
    fn new_sets_the_type_meta_name_and_spec() {
        let spec = v1beta2::ExtensionConfigSpec {
            settings: [("k".to_string(), "v".to_string())].into(),
            ..Default::default()
        };
        let x = v1beta2::ExtensionConfig::new("ext", spec.clone());
        assert_eq!(x.api_version, v1beta2::ExtensionConfig::api_version(&()));
        assert_eq!(x.kind, v1beta2::ExtensionConfig::kind(&()));
        assert_eq!(
            x.metadata,
            ObjectMeta {
                name: Some("ext".into()),
                ..Default::default()
            }
        );
        assert_eq!(x.spec, spec);
        assert_eq!(x.status, v1beta2::ExtensionConfigStatus::default());

        let spec = v1alpha1::ExtensionConfigSpec {
            settings: [("k".to_string(), "v".to_string())].into(),
            ..Default::default()
        };
        let y = v1alpha1::ExtensionConfig::new(String::from("old"), spec.clone());
        assert_eq!(y.api_version, v1alpha1::ExtensionConfig::api_version(&()));
        assert_eq!(y.kind, v1alpha1::ExtensionConfig::kind(&()));
        assert_eq!(
            y.metadata,
            ObjectMeta {
                name: Some("old".into()),
                ..Default::default()
            }
        );
        assert_eq!(y.spec, spec);
        assert_eq!(y.status, v1alpha1::ExtensionConfigStatus::default());
    }
}
