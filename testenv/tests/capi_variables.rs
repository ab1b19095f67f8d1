//! `capi_runtime::variable::check` against Cluster API's own judgement of variable values.
//!
//! Cluster API defaults and validates a Cluster's variables with one function,
//! `DefaultAndValidateVariables`, which its Cluster defaulting webhook runs at admission and its
//! topology controller runs again before it computes a topology. Both judge here:
//!
//! - **the webhooks**: a Cluster created once its ClusterClass is reconciled is refused at
//!   `create` with the `Invalid` error when a value does not fit, or stored with the value
//!   defaulted (the defaulting webhook writes the defaults into the Cluster);
//! - **the topology controller**: a Cluster created before its ClusterClass exists passes the
//!   webhooks unjudged (they skip variables then, with a warning), and the controller judges
//!   the value as it was written once the class is there: a refusal fails the reconcile (the
//!   Cluster's `TopologyReconciled` condition turns False with reason `ReconcileFailed` and
//!   the `Invalid` error as its message), an accepted value is defaulted and reaches
//!   GeneratePatches.
//!
//! An extension declares six `#[derive(Variable)]` types through DiscoverVariables; two Clusters
//! per value of a corpus (valid values, one invalid value per keyword the schemas use,
//! defaults inside defaults, unknown and preserved fields, values CEL rules refuse with a
//! message or a message expression, reason and field path, int-or-string, a format, exclusive
//! bounds, values of the wrong type), one for each judge, set one of them. For each, what
//! `check::<V>` says must be what Cluster API did: the same defaulted value, or the same field
//! errors, word for word (in any order: Go walks an object's properties in random order). The
//! ClusterClass webhook, too, takes the six types' schemas as the class's own variables, and
//! refuses a default above its maximum, which the derive refuses at compile time.

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex};

use capi_runtime::go::errors::{BoxError, chain};
use capi_runtime::hook::ResponseStatus;
use capi_runtime::hooks::v1alpha1::{GeneratePatchesRequest, GeneratePatchesResponse};
use capi_runtime::server::Server;
use capi_runtime::variable::{Variable, VariableErrors, check};
use capi_runtime_testenv::kube::api::PostParams;
use capi_runtime_testenv::topology::{
    ClusterClass, ExternalPatch, TopologyCluster, condition, control_plane_template, handler_name,
    infrastructure_cluster_template,
};
use capi_runtime_testenv::{Api, ClusterApi, DynamicObject, Result};
use k8s_openapi::apimachinery::pkg::util::intstr::IntOrString;
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

const EXTENSION: &str = "variables-extension";

/// Where the Cluster's images come from.
#[derive(Debug, Serialize, Deserialize, Variable)]
#[variable(name = "registry", required)]
#[schema(x_validation(
    rule = "self.scheme == 'https' || self.port != 443",
    message = "plain HTTP needs a port other than 443"
))]
struct Registry {
    /// Host name of the registry.
    #[schema(min_length = 1, max_length = 20, pattern = "^[a-z0-9.-]+$")]
    host: String,
    /// Port of the registry, 443 unless set.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(minimum = 1, maximum = 65535, default = 443)]
    port: Option<i32>,
    /// How the images are fetched.
    #[schema(default = "https", enum_values("http", "https"))]
    scheme: Option<String>,
    /// Other registries with the same images.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[schema(max_items = 2)]
    mirrors: Vec<String>,
}

/// Registries that mirror the images, one to two, each once.
#[derive(Debug, Serialize, Deserialize, Variable)]
#[variable(name = "mirrors")]
#[schema(min_items = 1, max_items = 2, unique_items)]
struct Mirrors(Vec<String>);

/// How the Cluster reaches the internet.
#[derive(Debug, Serialize, Deserialize, Variable)]
#[variable(name = "proxy")]
struct Proxy {
    /// The proxy: by default the internal one. (Its default names the port: Cluster API checks
    /// a default against the CEL rules of its schema without the defaults inside it, so
    /// `{"host": "proxy.internal"}` alone fails `self.port != 443` with "no such key: port"
    /// and the ClusterClass's variables are refused.)
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(default_json = r#"{"host": "proxy.internal", "port": 3128}"#)]
    endpoint: Option<Endpoint>,
    /// Headers sent to it, at most one.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    #[schema(max_properties = 1)]
    headers: BTreeMap<String, String>,
    /// The protocol.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(enum_values("http", "https"))]
    scheme: Option<String>,
    /// Settings passed on to the proxy as they are.
    #[serde(skip_serializing_if = "Option::is_none")]
    extra: Option<Extra>,
}

/// A host and a port.
#[derive(Debug, Serialize, Deserialize, Variable)]
#[schema(x_validation(
    rule = "self.port != 443",
    // Cluster API estimates a rule's cost and refuses a ClusterClass whose rules may cost too
    // much: `string(self.port)` in a message expression did ("exceeds budget by factor of more
    // than 100x"); a host of bounded length does not.
    message_expression = "self.host + ' uses the registry port'",
    reason = "FieldValueForbidden",
    field_path = ".port"
))]
struct Endpoint {
    /// The host.
    #[schema(max_length = 20)]
    host: String,
    /// The port.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(default = 3128)]
    port: Option<i32>,
}

/// Settings the proxy reads; fields beyond `mode` are kept.
#[derive(Debug, Serialize, Deserialize, Variable)]
#[schema(preserve_unknown_fields)]
struct Extra {
    /// The proxy's mode.
    #[serde(skip_serializing_if = "Option::is_none")]
    mode: Option<String>,
}

/// The share of the nodes, strictly between 0 and 1.
#[derive(Debug, Serialize, Deserialize, Variable)]
#[variable(name = "share")]
#[schema(minimum = 0, exclusive_minimum, maximum = 1, exclusive_maximum)]
struct Share(f64);

/// The address of the DNS server.
#[derive(Debug, Serialize, Deserialize, Variable)]
#[variable(name = "dns")]
#[schema(format = "ipv4")]
struct Dns(String);

/// How many nodes a rollout may add, as a number or a percentage.
#[derive(Debug, Serialize, Deserialize, Variable)]
#[variable(name = "surge")]
struct Surge(IntOrString);

/// `check::<V>` for the variable named `name`.
fn check_named(name: &str, value: &Value) -> std::result::Result<Value, VariableErrors> {
    match name {
        "registry" => check::<Registry>(value),
        "mirrors" => check::<Mirrors>(value),
        "proxy" => check::<Proxy>(value),
        "share" => check::<Share>(value),
        "dns" => check::<Dns>(value),
        "surge" => check::<Surge>(value),
        other => panic!("no variable {other}"),
    }
}

/// The values the Clusters set: the Cluster's name, the variable and its value. A Cluster
/// that sets another variable than `registry` (which every Cluster must set) sets `registry`
/// to a valid value too.
fn corpus() -> Vec<(&'static str, &'static str, Value)> {
    let registry = |name, value| (name, "registry", value);
    let mut corpus: Vec<_> = registry_corpus()
        .into_iter()
        .map(|(name, value)| registry(name, value))
        .collect();
    corpus.extend([
        ("mirrors-ok", "mirrors", json!(["a"])),
        ("mirrors-min", "mirrors", json!([])),
        ("mirrors-unique", "mirrors", json!(["a", "a"])),
        ("mirrors-max", "mirrors", json!(["a", "b", "c"])),
        ("proxy-defaults", "proxy", json!({})),
        (
            "proxy-cel",
            "proxy",
            json!({"endpoint": {"host": "p", "port": 443}}),
        ),
        (
            "proxy-headers",
            "proxy",
            json!({"headers": {"a": "1", "b": "2"}}),
        ),
        (
            "proxy-preserved",
            "proxy",
            json!({"extra": {"mode": "x", "other": {"n": 1}}}),
        ),
        (
            "proxy-unknown",
            "proxy",
            json!({"endpoint": {"host": "p", "tls": true}}),
        ),
        ("proxy-scheme", "proxy", json!({"scheme": "gopher"})),
        ("share-ok", "share", json!(0.5)),
        ("share-zero", "share", json!(0)),
        ("share-one", "share", json!(1)),
        ("dns-ok", "dns", json!("10.0.0.1")),
        ("dns-format", "dns", json!("10.0.0")),
        ("surge-int", "surge", json!(1)),
        ("surge-percent", "surge", json!("25%")),
        ("surge-bool", "surge", json!(true)),
    ]);
    corpus
}

/// The values of `registry` the Clusters of its part of the corpus set.
fn registry_corpus() -> Vec<(&'static str, Value)> {
    vec![
        ("ok-defaults", json!({"host": "r.example"})),
        (
            "ok-everything",
            json!({"host": "r.example", "port": 5000, "scheme": "http", "mirrors": ["m1", "m2"]}),
        ),
        ("empty-host", json!({"host": ""})),
        ("host-pattern", json!({"host": "R!"})),
        ("host-length", json!({"host": "a-host-name-longer-than-20"})),
        ("port-maximum", json!({"host": "r", "port": 70000})),
        ("port-minimum", json!({"host": "r", "port": 0})),
        ("scheme-enum", json!({"host": "r", "scheme": "ftp"})),
        (
            "registry-mirrors-max",
            json!({"host": "r", "mirrors": ["a", "b", "c"]}),
        ),
        ("unknown-field", json!({"host": "r", "colour": "blue"})),
        ("host-missing", json!({"port": 5000})),
        ("cel-refusal", json!({"host": "r", "scheme": "http"})),
        ("not-an-object", json!("r.example")),
        ("host-type", json!({"host": 5})),
        ("two-errors", json!({"host": "", "port": 0})),
    ]
}

/// Every order of `items` (a few at most).
fn orders(items: &[String]) -> Vec<Vec<String>> {
    if items.len() <= 1 {
        return vec![items.to_vec()];
    }
    let mut all = Vec::new();
    for (i, first) in items.iter().enumerate() {
        let mut rest = items.to_vec();
        rest.remove(i);
        for mut tail in orders(&rest) {
            tail.insert(0, first.clone());
            all.push(tail);
        }
    }
    all
}

/// What Cluster API did with a value: accepted (the value GeneratePatches received) or
/// refused (the condition's message).
#[derive(Debug, PartialEq)]
enum Verdict {
    Accepted(Value),
    Refused(String),
}

fn must<T>(r: Result<T>) -> T {
    r.unwrap_or_else(|e| panic!("{}", chain(&e)))
}

/// The variables each GeneratePatches call received, by the Cluster's name.
type Seen = Arc<Mutex<BTreeMap<String, BTreeMap<String, Value>>>>;

fn record(seen: &Seen, request: &GeneratePatchesRequest) {
    let values: BTreeMap<String, Value> = request
        .variables
        .iter()
        .map(|v| (v.name.clone(), v.value.to_value().unwrap()))
        .collect();
    if let Some(Value::String(cluster)) = values
        .get("builtin")
        .and_then(|b| b.pointer("/cluster/name"))
        .cloned()
    {
        seen.lock().unwrap().insert(cluster, values);
    }
}

/// The Cluster `name` of class `class` in `namespace` that sets `variable` to `value` (and
/// `registry`, which every Cluster must set, to a valid value), paused if asked (the topology
/// controller leaves it alone then).
fn cluster(
    namespace: &str,
    name: &str,
    class: &str,
    variable: &str,
    value: &Value,
    paused: bool,
) -> DynamicObject {
    let mut cluster = TopologyCluster::new(namespace, name, class, "v1.31.0")
        .variable_json(variable, value.clone());
    if variable != "registry" {
        cluster = cluster.variable_json("registry", json!({"host": "r.example"}));
    }
    let mut json = cluster.to_json();
    if paused {
        json["spec"]["paused"] = json!(true);
    }
    serde_json::from_value(json).unwrap()
}

/// Creates every one of `objects` at once; the outcome of each, in their order.
async fn create_all(
    api: &Api<DynamicObject>,
    objects: Vec<DynamicObject>,
) -> Vec<std::result::Result<DynamicObject, capi_runtime_testenv::kube::Error>> {
    let mut tasks = tokio::task::JoinSet::new();
    for (i, object) in objects.into_iter().enumerate() {
        let api = api.clone();
        tasks.spawn(async move { (i, api.create(&PostParams::default(), &object).await) });
    }
    let mut outcomes: Vec<_> = tasks.join_all().await;
    outcomes.sort_by_key(|(i, _)| *i);
    outcomes.into_iter().map(|(_, outcome)| outcome).collect()
}

/// What the webhooks did with the Cluster `name` that sets `variable`: stored it (with the
/// variable's value as stored) or refused it (the error's message, without the API server's
/// prefix naming the webhook).
fn webhook_verdict(
    variable: &str,
    outcome: std::result::Result<DynamicObject, capi_runtime_testenv::kube::Error>,
) -> Verdict {
    const DENIED: &str =
        "admission webhook \"default.cluster.cluster.x-k8s.io\" denied the request: ";
    match outcome {
        Ok(stored) => {
            let variables = stored.data["spec"]["topology"]["variables"]
                .as_array()
                .cloned()
                .unwrap_or_default();
            let value = variables
                .iter()
                .find(|v| v["name"] == variable)
                .map(|v| v["value"].clone())
                .unwrap_or(Value::Null);
            Verdict::Accepted(value)
        }
        Err(capi_runtime_testenv::kube::Error::Api(status)) => Verdict::Refused(
            status
                .message
                .strip_prefix(DENIED)
                .map_or(status.message.clone(), str::to_string),
        ),
        Err(other) => panic!("creating a Cluster: {}", chain(&other)),
    }
}

/// Whether `verdict`, Cluster API's on the Cluster `name` setting `variable` to `value`, is
/// what `check` says: the same defaulted value, or the same field errors (in any order) in
/// Cluster API's `Invalid` error of that Cluster.
fn agrees(name: &str, variable: &str, value: &Value, verdict: &Verdict) -> bool {
    match (check_named(variable, value), verdict) {
        (Ok(defaulted), Verdict::Accepted(received)) => &defaulted == received,
        (Err(errors), Verdict::Refused(message)) => {
            // Go's object validator walks the properties of a map, in random order: errors of
            // several properties come in any order, so any order of ours matches.
            let prefix = format!("Cluster.cluster.x-k8s.io \"{name}\" is invalid: ");
            let each: Vec<String> = errors.errors().iter().map(|e| e.to_string()).collect();
            orders(&each).iter().any(|order| {
                let list = if order.len() == 1 {
                    order[0].clone()
                } else {
                    format!("[{}]", order.join(", "))
                };
                *message == format!("{prefix}{list}")
            })
        }
        _ => false,
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn check_agrees_with_cluster_apis_webhooks_and_topology_controller() {
    let capi = must(
        ClusterApi::builder("capi-variables")
            .test_providers()
            .start()
            .await,
    );
    eprintln!(
        "start-up (control plane, all ready): {:?}; the webhooks' part: {:?}",
        capi.startup_times(),
        capi.webhooks_startup_time()
    );
    let seen: Seen = Arc::default();
    let s = seen.clone();
    let builder = Server::builder()
        .handle(
            "generate-patches",
            move |request: GeneratePatchesRequest| {
                let s = s.clone();
                async move {
                    record(&s, &request);
                    Ok::<_, String>(GeneratePatchesResponse {
                        status: ResponseStatus::Success,
                        ..Default::default()
                    })
                }
            },
        )
        .variable::<Registry>()
        .variable::<Mirrors>()
        .variable::<Proxy>()
        .variable::<Share>()
        .variable::<Dns>()
        .variable::<Surge>()
        .discover_variables("discover-variables");
    let _extension = must(capi.serve_extension(EXTENSION, builder).await);

    let ns = "variables";
    must(capi.create_namespace(ns).await);
    must(
        capi.create(&infrastructure_cluster_template(ns, "infra", json!({})))
            .await,
    );
    must(
        capi.create(&control_plane_template(ns, "control-plane", json!({})))
            .await,
    );
    let clusters = must(capi.api(ns, "cluster.x-k8s.io/v1beta2", "Cluster").await);
    let class = "variables-class";
    let corpus = corpus();
    let names: std::collections::BTreeSet<_> = corpus.iter().map(|(name, ..)| name).collect();
    assert_eq!(names.len(), corpus.len(), "one Cluster per value");

    // For the topology controller: Clusters of a ClusterClass that does not exist yet, which
    // the webhooks let through without looking at their variables.
    let unjudged = corpus
        .iter()
        .map(|(name, variable, value)| cluster(ns, name, class, variable, value, false))
        .collect();
    for (outcome, (name, ..)) in create_all(&clusters, unjudged)
        .await
        .into_iter()
        .zip(&corpus)
    {
        if let Err(e) = outcome {
            panic!(
                "creating Cluster {name} before its ClusterClass: {}",
                chain(&e)
            );
        }
    }

    must(
        capi.create(
            &ClusterClass::new(ns, class, "infra", "control-plane").patch(
                ExternalPatch::new("rust-patches")
                    .generate_patches(handler_name("generate-patches", EXTENSION))
                    .discover_variables(handler_name("discover-variables", EXTENSION)),
            ),
        )
        .await,
    );
    let classes = must(
        capi.api(ns, "cluster.x-k8s.io/v1beta2", "ClusterClass")
            .await,
    );
    must(
        capi.wait_for("the ClusterClass's variables", || {
            let classes = classes.clone();
            async move {
                let c = classes.get(class).await?;
                match condition(&c, "VariablesReady") {
                    Some(v)
                        if v.status == "True"
                            && c.data["status"]["observedGeneration"].as_i64()
                                == c.metadata.generation =>
                    {
                        Ok(())
                    }
                    other => Err(BoxError::from(format!("VariablesReady {other:?}"))),
                }
            }
        })
        .await,
    );

    // The webhooks read the ClusterClass from the manager's cache, which may not have seen it
    // reconciled yet; until it has, they let a Cluster through without judging its variables
    // (after polling for two seconds). A dry run they refuse shows that they judge.
    let probe = cluster(ns, "webhook-probe", class, "registry", &json!({}), true);
    must(
        capi.wait_for("the webhooks to judge variables", || {
            let clusters = clusters.clone();
            let probe = probe.clone();
            async move {
                let dry_run = PostParams {
                    dry_run: true,
                    ..Default::default()
                };
                match clusters.create(&dry_run, &probe).await {
                    Err(capi_runtime_testenv::kube::Error::Api(status))
                        if status.message.starts_with(
                            "admission webhook \"default.cluster.cluster.x-k8s.io\" denied the \
                             request: Cluster.cluster.x-k8s.io \"webhook-probe\" is invalid: \
                             spec.topology.variables[registry].value.host: Required value",
                        ) =>
                    {
                        Ok(())
                    }
                    Err(e) => Err(BoxError::from(e)),
                    Ok(_) => Err(BoxError::from(
                        "a Cluster without a registry host was accepted",
                    )),
                }
            }
        })
        .await,
    );

    // For the webhooks: the same values, in paused Clusters of the reconciled ClusterClass.
    let admitted_name = |name: &str| format!("admitted-{name}");
    let judged = corpus
        .iter()
        .map(|(name, variable, value)| {
            cluster(ns, &admitted_name(name), class, variable, value, true)
        })
        .collect();
    let webhook_verdicts: Vec<Verdict> = create_all(&clusters, judged)
        .await
        .into_iter()
        .zip(&corpus)
        .map(|(outcome, (_, variable, _))| webhook_verdict(variable, outcome))
        .collect();

    // The ClusterClass webhook takes the six schemas as a class's own variables, and refuses
    // a default above its maximum (which the derive refuses at compile time:
    // derive/tests/ui/variable_refused_constructs.rs).
    let inline = ClusterClass::new(ns, "inline-variables", "infra", "control-plane")
        .variable::<Registry>()
        .variable::<Mirrors>()
        .variable::<Proxy>()
        .variable::<Share>()
        .variable::<Dns>()
        .variable::<Surge>();
    must(capi.create(&inline).await);
    let mut refused = inline.to_json();
    refused["metadata"]["name"] = json!("inline-bad-default");
    let port = refused["spec"]["variables"][0]["schema"]["openAPIV3Schema"]["properties"]["port"]
        .as_object_mut()
        .expect("registry's schema has a port");
    port.insert("default".into(), json!(70000));
    let refusal = match capi.create(&refused).await {
        Err(capi_runtime_testenv::Error::Request {
            source: capi_runtime_testenv::kube::Error::Api(status),
            ..
        }) => status.message,
        Err(other) => panic!("creating a ClusterClass: {}", chain(&other)),
        Ok(_) => panic!("a default above its maximum was accepted"),
    };
    assert_eq!(
        refusal,
        "admission webhook \"validation.clusterclass.cluster.x-k8s.io\" denied the request: \
         ClusterClass.cluster.x-k8s.io \"inline-bad-default\" is invalid: \
         spec.variables[registry].schema.openAPIV3Schema.properties[port].default: Invalid \
         value: 70000:  in body should be less than or equal to 65535"
    );

    let mut verdicts = BTreeMap::new();
    for (name, variable, _) in &corpus {
        let clusters = clusters.clone();
        let seen = seen.clone();
        let what = format!("Cluster API's verdict on {name}");
        let verdict = capi.wait_for(&what, || {
            let clusters = clusters.clone();
            let seen = seen.clone();
            async move {
                if let Some(values) = seen.lock().unwrap().get(*name) {
                    return Ok(Verdict::Accepted(
                        values.get(*variable).cloned().unwrap_or(Value::Null),
                    ));
                }
                let c = clusters.get(name).await?;
                match condition(&c, "TopologyReconciled") {
                    // The variables' refusal, not a passing state such as a ClusterClass
                    // not reconciled yet.
                    Some(cond)
                        if cond.reason == "ReconcileFailed"
                            && cond.message.contains(" is invalid: ") =>
                    {
                        Ok(Verdict::Refused(cond.message))
                    }
                    other => Err(BoxError::from(format!("TopologyReconciled {other:?}"))),
                }
            }
        });
        verdicts.insert(*name, must(verdict.await));
    }

    let mut differences = Vec::new();
    for ((name, variable, value), by_webhook) in corpus.iter().zip(&webhook_verdicts) {
        let by_controller = &verdicts[name];
        eprintln!("{name}: {by_controller:?}");
        let judges = [
            ("the topology controller", name.to_string(), by_controller),
            ("the webhooks", admitted_name(name), by_webhook),
        ];
        for (judge, cluster, verdict) in judges {
            if !agrees(&cluster, variable, value, verdict) {
                differences.push(format!(
                    "{name} ({value}):\n  {judge}: {verdict:?}\n  check: {:?}",
                    check_named(variable, value).map_err(|e| e.to_string())
                ));
            }
        }
    }
    assert!(
        differences.is_empty(),
        "{} verdicts on {} values differ:\n{}",
        differences.len(),
        corpus.len(),
        differences.join("\n")
    );
    // Both outcomes were met.
    let accepted = verdicts
        .values()
        .filter(|v| matches!(v, Verdict::Accepted(_)))
        .count();
    assert!(accepted >= 2 && accepted < corpus.len(), "{verdicts:?}");
}
