//! Drift between the SDK's hook messages and each supported Cluster API's, from Go.
//!
//! `hook-shapes-<version>` (built by `cargo xtask testenv` from `interop/hook-shapes/`, once
//! per supported version, `capi_envtest::CLUSTER_API_VERSIONS`) describes the 17 hooks' requests and
//! responses as Go's `encoding/json` sees them in that Cluster API. This test walks each
//! message beside the SDK's own description of it (the generator's model record,
//! `cli/sdk/model.json`) and lists every difference a decoder or an encoder would meet: a JSON
//! field only one side has, a different type (another API version of an embedded object, a map
//! against a list, a scalar against an object), and a field Go leaves out when empty that the
//! SDK writes (or the reverse). A type met again along another path of the same message is
//! compared once. The value of the `builtin` variable (Go's `Builtins`), which GeneratePatches
//! and ValidateTopology requests carry as raw JSON, is walked as well.
//!
//! The list of each version is `interop/hook-shapes/<version>/drift.txt`, reviewed and
//! written only under `UPDATE_EXPECT=1`: a difference that is not in it (a new field upstream,
//! a moved pin, a change of the SDK's types) fails the test, with the lines to review. The
//! book's "Cluster API versions" table summarises these files.

use std::collections::{BTreeMap, BTreeSet};
use std::path::PathBuf;

use capi_runtime_oracle::program;
use serde_json::Value;

/// The versions described, oldest first: the supported ones, as `capi-envtest` lists them
/// (`cargo xtask testenv` builds its Go peers for the same list).
const VERSIONS: &[&str] = capi_envtest::CLUSTER_API_VERSIONS;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// The SDK's model: types by component name (`sigs.k8s.io.cluster-api.api.core.v1beta2.Cluster`)
/// and by position (how a `named` field type refers to one), and the hooks.
struct Sdk {
    types: Vec<Value>,
    hooks: Vec<Value>,
}

impl Sdk {
    fn load() -> Sdk {
        let text = std::fs::read_to_string(root().join("cli/sdk/model.json")).unwrap();
        let mut doc: Value = serde_json::from_str(&text).unwrap();
        let model = doc["model"].take();
        Sdk {
            types: model["types"].as_array().unwrap().clone(),
            hooks: model["hooks"].as_array().unwrap().clone(),
        }
    }

    fn by_id(&self, id: u64) -> &Value {
        &self.types[id as usize]
    }

    /// The type of the component name `name`, if the SDK has one.
    fn by_component(&self, name: &str) -> Option<&Value> {
        self.types.iter().find(|t| t["component"] == name)
    }
}

/// One Cluster API's description (the program's output).
struct Go {
    types: BTreeMap<String, Value>,
    hooks: Vec<Value>,
    builtins: Value,
}

fn describe(version: &str) -> Go {
    let path = program(&format!("hook-shapes-{version}")).unwrap_or_else(|e| panic!("{e}"));
    let out = std::process::Command::new(&path).output().unwrap();
    assert!(
        out.status.success(),
        "{}: {}",
        path.display(),
        String::from_utf8_lossy(&out.stderr)
    );
    let mut doc: Value = serde_json::from_slice(&out.stdout).unwrap();
    Go {
        types: serde_json::from_value(doc["types"].take()).unwrap(),
        hooks: doc["hooks"].as_array().unwrap().clone(),
        builtins: doc["builtins"].take(),
    }
}

/// A Go type key (`k8s.io/apimachinery/pkg/apis/meta/v1.Time`) as the model names components.
fn component(go_key: &str) -> String {
    go_key.replace('/', ".")
}

struct Walk<'a> {
    go: &'a Go,
    sdk: &'a Sdk,
    /// (Go type, SDK component) pairs already compared.
    seen: BTreeSet<(String, String)>,
    /// SDK types met in a message where Go's has another version that the SDK decodes as
    /// well and converts: the embedded Cluster of the lifecycle requests (`cluster_shape`).
    handled: &'static [&'static str],
    out: Vec<String>,
}

/// The types the SDK reads in an older version too, converting it (`cluster_shape` in the
/// runtime crate): where Go has the older version, it is compared with the SDK's own.
const HANDLED: &[&str] = &["sigs.k8s.io.cluster-api.api.core.v1beta2.Cluster"];

impl Walk<'_> {
    fn note(&mut self, path: &str, what: String) {
        self.out.push(format!("{path}: {what}"));
    }

    /// Compares a Go type with an SDK type at `path`.
    fn ty(&mut self, path: &str, go: &Value, sdk: &Value) {
        // Pointers and options: the pointer tests (go_pointer_zeros) hold those.
        if let Some(inner) = go.get("pointer") {
            return self.ty(path, inner, sdk);
        }
        if let Some(inner) = sdk.get("option") {
            return self.ty(path, go, inner);
        }
        let sdk_named = sdk
            .get("named")
            .map(|n| self.sdk.by_id(n["id"].as_u64().unwrap()));
        let go_scalar = self.go_scalar(go);
        match (go, sdk_named) {
            (Value::Object(g), _) if g.contains_key("list") => match sdk.get("list") {
                Some(item) => self.ty(&format!("{path}[]"), &g["list"], item),
                None => self.note(path, format!("Go has a list, the SDK {}", sdk_kind(sdk))),
            },
            (Value::Object(g), _) if g.contains_key("map") => match sdk.get("map") {
                Some(item) => self.ty(&format!("{path}{{}}"), &g["map"], item),
                None => self.note(path, format!("Go has a map, the SDK {}", sdk_kind(sdk))),
            },
            (Value::Object(g), Some(t)) if g.contains_key("opaque") => {
                let go_name = component(g["opaque"].as_str().unwrap());
                let sdk_name = t["component"].as_str().unwrap();
                if go_name != sdk_name {
                    self.note(path, format!("Go has {go_name}, the SDK {sdk_name}"));
                }
            }
            (Value::Object(g), Some(t))
                if g.contains_key("named")
                    && go_scalar.is_none()
                    && t["shape"].get("object").is_some() =>
            {
                let key = g["named"].as_str().unwrap().to_string();
                let mut sdk_name = t["component"].as_str().unwrap().to_string();
                let mut t = t;
                if component(&key) != sdk_name {
                    // A shape the SDK reads besides its own (a v1beta1 Cluster, converted to
                    // the v1beta2 view): handled; Go's type is compared with the SDK's of the
                    // same name.
                    match self.sdk.by_component(&component(&key)) {
                        Some(read) if self.handled.contains(&sdk_name.as_str()) => {
                            self.note(
                                path,
                                format!(
                                    "Go has {}, the SDK {sdk_name}: handled, the SDK reads Go's and converts it",
                                    component(&key)
                                ),
                            );
                            t = read;
                            sdk_name = component(&key);
                        }
                        _ => self.note(
                            path,
                            format!("Go has {}, the SDK {sdk_name}", component(&key)),
                        ),
                    }
                }
                if self.seen.insert((key.clone(), sdk_name)) {
                    self.fields(path, &key, &t["shape"]["object"]["fields"]);
                }
            }
            _ => {
                let go_kind = go_scalar.unwrap_or_else(|| go_kind(go));
                let sdk_kind = self.sdk_scalar(sdk).unwrap_or_else(|| sdk_kind(sdk));
                if !compatible(&go_kind, &sdk_kind) {
                    self.note(path, format!("Go has {go_kind}, the SDK {sdk_kind}"));
                }
            }
        }
    }

    /// The JSON kind of a Go scalar (a named string type is a string).
    fn go_scalar(&self, go: &Value) -> Option<String> {
        match go {
            Value::String(s) => Some(s.clone()),
            // metav1.Duration writes itself as a Go duration string (`1m30s`).
            Value::Object(g)
                if g.get("opaque").and_then(Value::as_str)
                    == Some("k8s.io/apimachinery/pkg/apis/meta/v1.Duration") =>
            {
                Some("string".into())
            }
            Value::Object(g) => {
                let key = g.get("named")?.as_str()?;
                let kind = self.go.types[key]["kind"].as_str()?;
                (kind != "struct").then(|| kind.to_string())
            }
            _ => None,
        }
    }

    /// The JSON kind of an SDK scalar (an enum is a string; opaque types by name).
    fn sdk_scalar(&self, sdk: &Value) -> Option<String> {
        if let Some(s) = sdk.as_str() {
            return Some(s.to_string());
        }
        let t = self.sdk.by_id(sdk.get("named")?["id"].as_u64()?);
        if t["shape"].get("enum").is_some() {
            return Some("string".into());
        }
        Some(t["component"].as_str()?.to_string())
    }

    fn fields(&mut self, path: &str, go_key: &str, sdk_fields: &Value) {
        let go_fields = self.go.types[go_key]["fields"]
            .as_array()
            .cloned()
            .unwrap_or_default();
        let sdk_fields = sdk_fields.as_array().cloned().unwrap_or_default();
        let sdk_by_name: BTreeMap<&str, &Value> = sdk_fields
            .iter()
            .map(|f| (f["name"].as_str().unwrap(), f))
            .collect();
        let go_names: BTreeSet<&str> = go_fields
            .iter()
            .map(|f| f["name"].as_str().unwrap())
            .collect();
        for f in &go_fields {
            let name = f["name"].as_str().unwrap();
            let at = format!("{path}.{name}");
            let Some(s) = sdk_by_name.get(name) else {
                self.note(&at, "only Go has it".into());
                continue;
            };
            let go_omits =
                f["omitempty"].as_bool() == Some(true) || f["omitzero"].as_bool() == Some(true);
            let sdk_omits = s["omit_empty"].as_bool() == Some(true);
            if go_omits != sdk_omits {
                self.note(
                    &at,
                    format!(
                        "Go {} when empty, the SDK {}",
                        if go_omits {
                            "leaves it out"
                        } else {
                            "writes it"
                        },
                        if sdk_omits {
                            "leaves it out"
                        } else {
                            "writes it"
                        }
                    ),
                );
            }
            self.ty(&at, &f["type"], &s["ty"]);
        }
        for s in &sdk_fields {
            let name = s["name"].as_str().unwrap();
            if !go_names.contains(name) {
                self.note(&format!("{path}.{name}"), "only the SDK has it".into());
            }
        }
    }
}

fn go_kind(go: &Value) -> String {
    match go {
        Value::String(s) => s.clone(),
        Value::Object(g) => g.keys().next().cloned().unwrap_or_default(),
        other => other.to_string(),
    }
}

fn sdk_kind(sdk: &Value) -> String {
    match sdk {
        Value::String(s) => s.clone(),
        Value::Object(s) => s.keys().next().cloned().unwrap_or_default(),
        other => other.to_string(),
    }
}

/// Whether a Go scalar and an SDK scalar read and write the same JSON.
fn compatible(go: &str, sdk: &str) -> bool {
    go == sdk
        || matches!(
            (go, sdk),
            ("bytes", "k8s_openapi.ByteString")
                | ("any", "serde_json.Value")
                | ("int64", "int32")
                | ("int32", "int64")
        )
}

/// Every difference of one version, one line each: the side and the path in the message,
/// what differs, and the hooks whose message has it (a Cluster embedded in nine lifecycle
/// requests differs the same way in each), sorted.
fn drift(version: &str, sdk: &Sdk) -> Vec<String> {
    let go = describe(version);
    assert_eq!(go.hooks.len(), 17, "{version}: the 17 hooks");
    let mut hooks_of: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for hook in &go.hooks {
        let name = hook["name"].as_str().unwrap();
        let ours = sdk
            .hooks
            .iter()
            .find(|h| h["name"] == name)
            .unwrap_or_else(|| panic!("the SDK has no hook {name}"));
        for side in ["request", "response"] {
            let path = ours[side]["path"].as_str().unwrap();
            let id = ours[side]["id"].as_u64().unwrap();
            let sdk_ty = serde_json::json!({"named": {"path": path, "id": id}});
            // Each message walked on its own, so that each lists what it carries.
            let mut walk = Walk {
                go: &go,
                sdk,
                seen: BTreeSet::new(),
                handled: HANDLED,
                out: Vec::new(),
            };
            walk.ty(side, &hook[side], &sdk_ty);
            for line in walk.out {
                hooks_of.entry(line).or_default().insert(name.to_string());
            }
        }
    }
    // The builtin variable's value, which the messages carry as JSON.
    let builtins = sdk
        .types
        .iter()
        .position(|t| {
            t["component"] == "sigs.k8s.io.cluster-api.api.runtime.hooks.v1alpha1.Builtins"
        })
        .expect("the SDK's Builtins");
    let sdk_ty = serde_json::json!({"named": {"path": "Builtins", "id": builtins}});
    let mut walk = Walk {
        go: &go,
        sdk,
        seen: BTreeSet::new(),
        handled: HANDLED,
        out: Vec::new(),
    };
    walk.ty("builtin", &go.builtins, &sdk_ty);
    for line in walk.out {
        hooks_of.entry(line).or_default().extend([
            "GeneratePatches".to_string(),
            "ValidateTopology".to_string(),
        ]);
    }
    hooks_of
        .into_iter()
        .map(|(line, hooks)| {
            format!(
                "{line} [{}]",
                hooks.into_iter().collect::<Vec<_>>().join(" ")
            )
        })
        .collect()
}

#[test]
fn each_supported_cluster_api_differs_from_the_sdk_only_as_reviewed() {
    let sdk = Sdk::load();
    let update = std::env::var_os("UPDATE_EXPECT").is_some();
    let mut failures = Vec::new();
    for version in VERSIONS {
        let found = drift(version, &sdk);
        let file = root().join(format!("interop/hook-shapes/{version}/drift.txt"));
        let header = format!(
            "# How Cluster API {version}'s hook messages differ from the SDK's, as Go's encoding/json\n\
             # sees them (interop/oracle/tests/hook_shapes.rs). Written with UPDATE_EXPECT=1 and reviewed;\n\
             # the book's \"Cluster API versions\" table says what the SDK does about each.\n"
        );
        let text = format!(
            "{header}{}",
            found.iter().map(|l| format!("{l}\n")).collect::<String>()
        );
        if update {
            std::fs::write(&file, &text).unwrap();
            continue;
        }
        let expected = std::fs::read_to_string(&file).unwrap_or_default();
        let expected: BTreeSet<&str> = expected.lines().filter(|l| !l.starts_with('#')).collect();
        let found: BTreeSet<&str> = found.iter().map(String::as_str).collect();
        let new: Vec<_> = found.difference(&expected).collect();
        let gone: Vec<_> = expected.difference(&found).collect();
        if !new.is_empty() || !gone.is_empty() {
            failures.push(format!(
                "Cluster API {version} against {}:\n  new differences:\n    {}\n  differences gone:\n    {}",
                file.display(),
                new.iter().map(|s| s.to_string()).collect::<Vec<_>>().join("\n    "),
                gone.iter().map(|s| s.to_string()).collect::<Vec<_>>().join("\n    ")
            ));
        }
    }
    assert!(
        failures.is_empty(),
        "{}\nreview them, then UPDATE_EXPECT=1 writes the files",
        failures.join("\n")
    );
}
