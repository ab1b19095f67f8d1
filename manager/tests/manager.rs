//! End to end: the `capi-runtime-manager` binary against the real kube-apiserver, with an
//! extension on loopback. It runs the kube-runtime controller, the warm-up, leader election
//! and the metrics endpoint exactly as deployed: create → status.handlers and Discovered=True;
//! CA injection following its Secret; pause and unpause; delete; kill and restart → warm-up
//! rebuilds the registry before the manager reports ready. Another kills it with SIGKILL while
//! some Discoveries are in flight, changes the cluster meanwhile and checks that the restarted
//! manager leaves nothing stale or missing. The diagnostics test checks who may read
//! `/metrics` over HTTPS (real ServiceAccount tokens, the shipped metrics-reader ClusterRole,
//! the API server's own token and access reviews) and the insecure mode.
//!
//! The manager never runs as admin here: every test that starts it runs it as the
//! ServiceAccount of `config/manager/10-rbac.yaml` with exactly the RBAC that file ships
//! (applied from the file), and another test shows, with the same identity, what that RBAC
//! refuses (403 Forbidden).

// The controller crate's test helpers (control plane, test CA, loopback extensions), shared
// rather than copied.
#[path = "../../controller/tests/it/support/mod.rs"]
mod support;

use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use capi_runtime::api::runtime::v1beta2::ExtensionConfig;
use capi_runtime::k8s_openapi::ByteString;
use capi_runtime::k8s_openapi::api::apps::v1::Deployment;
use capi_runtime::k8s_openapi::api::authentication::v1::{TokenReview, TokenReviewSpec};
use capi_runtime::k8s_openapi::api::authorization::v1::{
    NonResourceAttributes, SubjectAccessReview, SubjectAccessReviewSpec,
};
use capi_runtime::k8s_openapi::api::coordination::v1::Lease;
use capi_runtime::k8s_openapi::api::core::v1::{ConfigMap, Namespace, Pod, Secret};
use capi_runtime::k8s_openapi::api::rbac::v1::{ClusterRoleBinding, RoleRef, Subject};
use capi_runtime_controller::FIELD_MANAGER;
use capi_runtime_controller::decide::PAUSED_ANNOTATION;
use capi_runtime_test_pki::{https_client, plain_client};
use capi_runtime_testenv::{TestEnv, User};
use kube::api::{
    Api, DeleteParams, DynamicObject, GroupVersionKind, ListParams, Patch, PatchParams, PostParams,
};
use kube::discovery::{Scope, pinned_kind};
use serde_json::json;
use support::*;

/// A running manager; killed when dropped (also when the test panics).
struct Manager {
    child: Child,
    lines: mpsc::Receiver<String>,
    seen: Vec<String>,
}

impl Manager {
    /// The manager as the end-to-end test runs it: the gate on, leader election in
    /// `lease_namespace` with short durations, secure diagnostics.
    fn start(
        kubeconfig: &std::path::Path,
        cert_dir: &std::path::Path,
        lease_namespace: &str,
    ) -> Manager {
        Manager::spawn(
            kubeconfig,
            cert_dir,
            &[
                "--feature-gates",
                "RuntimeSDK=true",
                "--leader-elect",
                "--leader-election-namespace",
                lease_namespace,
                "--leader-elect-lease-duration",
                "3s",
                "--leader-elect-renew-grace",
                "1s",
            ],
        )
    }

    /// The manager on loopback ports (webhooks, probes, diagnostics) with `args` added.
    fn spawn(kubeconfig: &std::path::Path, cert_dir: &std::path::Path, args: &[&str]) -> Manager {
        let mut child = Command::new(env!("CARGO_BIN_EXE_capi-runtime-manager"))
            .arg("--kubeconfig")
            .arg(kubeconfig)
            .args(["--webhook-host", "127.0.0.1", "--webhook-port", "0"])
            .arg("--webhook-cert-dir")
            .arg(cert_dir)
            .args(["--diagnostics-address", "127.0.0.1:0"])
            .args(["--health-addr", "127.0.0.1:0"])
            .args(args)
            .env("RUST_LOG", "info")
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("the manager binary starts");
        let stdout = child.stdout.take().unwrap();
        let (tx, lines) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines().map_while(Result::ok) {
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        Manager {
            child,
            lines,
            seen: Vec::new(),
        }
    }

    /// Waits for a log line containing `needle` and returns it.
    fn wait_line(&mut self, needle: &str, limit: Duration) -> String {
        if let Some(l) = self.seen.iter().find(|l| l.contains(needle)) {
            return l.clone();
        }
        let deadline = Instant::now() + limit;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(line) => {
                    self.seen.push(line.clone());
                    if line.contains(needle) {
                        return line;
                    }
                }
                Err(_) => panic!(
                    "no log line {needle:?} within {limit:?}; saw {:#?}",
                    self.seen
                ),
            }
        }
    }

    /// The address logged after `message` (`addr=...`).
    fn addr(&mut self, message: &str) -> String {
        let line = self.wait_line(message, Duration::from_secs(30));
        line.split_whitespace()
            .find_map(|w| w.strip_prefix("addr="))
            .unwrap_or_else(|| panic!("no addr in {line:?}"))
            .to_string()
    }

    fn kill(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }

    /// SIGTERM, then waits (bounded) for a clean exit.
    fn terminate(&mut self) -> std::process::ExitStatus {
        let _ = Command::new("kill")
            .args(["-TERM", &self.child.id().to_string()])
            .status();
        let deadline = Instant::now() + Duration::from_secs(60);
        loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                return status;
            }
            assert!(
                Instant::now() < deadline,
                "the manager did not stop on SIGTERM"
            );
            std::thread::sleep(Duration::from_millis(50));
        }
    }
}

impl Drop for Manager {
    fn drop(&mut self) {
        self.kill();
    }
}

async fn http_get(addr: &str, path: &str) -> (u16, String) {
    let client = reqwest::Client::new();
    match client.get(format!("http://{addr}{path}")).send().await {
        Ok(r) => {
            let code = r.status().as_u16();
            (code, r.text().await.unwrap_or_default())
        }
        Err(_) => (0, String::new()),
    }
}

/// GET `url` with `token` as bearer token (none when empty): the status, or 0 when no answer
/// came (a refused connection, a failed TLS handshake, a malformed answer).
async fn scrape(client: &reqwest::Client, url: &str, token: &str) -> (u16, String) {
    let mut request = client.get(url);
    if !token.is_empty() {
        request = request.bearer_auth(token);
    }
    match request.send().await {
        Ok(r) => {
            let code = r.status().as_u16();
            (code, r.text().await.unwrap_or_default())
        }
        Err(e) => {
            eprintln!("GET {url}: {}", capi_runtime::go::errors::chain(&e));
            (0, String::new())
        }
    }
}

/// The manager's namespace and RBAC as shipped.
const NAMESPACE_FILE: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/config/manager/00-namespace.yaml"
);
const RBAC_FILE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/config/manager/10-rbac.yaml");
/// The ClusterRole of `RBAC_FILE` that scrapers are bound to.
const METRICS_READER: &str = "capi-runtime-metrics-reader";

/// Applies every object of the YAML file `path` as written there (server-side apply, forced,
/// so tests running at once may apply the same file), whatever its kind, and returns them.
async fn apply_file(kube: &kube::Client, path: &str) -> Vec<DynamicObject> {
    let text = std::fs::read_to_string(path).unwrap();
    let docs: Vec<serde_json::Value> = serde_saphyr::from_multiple(&text).unwrap();
    let mut applied = Vec::new();
    for doc in docs.into_iter().filter(|d| !d.is_null()) {
        let object: DynamicObject = serde_json::from_value(doc).unwrap();
        let types = object.types.as_ref().expect("apiVersion and kind");
        let (group, version) = types
            .api_version
            .split_once('/')
            .unwrap_or(("", &types.api_version));
        let gvk = GroupVersionKind::gvk(group, version, &types.kind);
        let (resource, capabilities) = pinned_kind(kube, &gvk).await.unwrap();
        let api: Api<DynamicObject> = match capabilities.scope {
            Scope::Namespaced => Api::namespaced_with(
                kube.clone(),
                object.metadata.namespace.as_deref().expect("a namespace"),
                &resource,
            ),
            Scope::Cluster => Api::all_with(kube.clone(), &resource),
        };
        let name = object.metadata.name.clone().expect("a name");
        api.patch(
            &name,
            &PatchParams::apply("manager-test").force(),
            &Patch::Apply(&object),
        )
        .await
        .unwrap_or_else(|e| panic!("applying {} {name} of {path}: {e}", types.kind));
        applied.push(object);
    }
    applied
}

/// The manager's ServiceAccount as `RBAC_FILE` names it, with the namespace and RBAC the
/// manager's config ships applied from their files, as a user of the environment. Returns once
/// the API server authorizes what the manager starts with (listing ExtensionConfigs and
/// Secrets, reading its Lease), so a test does not race the RBAC caches.
async fn shipped_manager(env: &TestEnv, kube: &kube::Client) -> User {
    apply_file(kube, NAMESPACE_FILE).await;
    let objects = apply_file(kube, RBAC_FILE).await;
    let account = objects
        .iter()
        .find(|o| o.types.as_ref().is_some_and(|t| t.kind == "ServiceAccount"))
        .unwrap_or_else(|| panic!("{RBAC_FILE} has no ServiceAccount"));
    assert!(
        objects.iter().any(|o| {
            o.types.as_ref().is_some_and(|t| t.kind == "ClusterRole")
                && o.metadata.name.as_deref() == Some(METRICS_READER)
        }),
        "{RBAC_FILE} has no ClusterRole {METRICS_READER}"
    );
    let namespace = account.metadata.namespace.clone().unwrap();
    let name = account.metadata.name.clone().unwrap();
    let user = env
        .service_account_user(&namespace, &name, Duration::from_secs(3600))
        .await
        .unwrap();
    assert_eq!(
        user.name(),
        format!("system:serviceaccount:{namespace}:{name}")
    );
    let me = user.client().await.unwrap();
    eventually(Duration::from_secs(30), || async {
        configs(&me).list(&ListParams::default()).await.is_ok()
            && Api::<Secret>::all(me.clone())
                .list_metadata(&ListParams::default())
                .await
                .is_ok()
            && Api::<Lease>::namespaced(me.clone(), &namespace)
                .get_opt("controller-leader-election-capi-runtime")
                .await
                .is_ok()
    })
    .await;
    user
}

/// The namespace of the manager's ServiceAccount (and Lease) in a user's name.
fn namespace_of(user: &User) -> String {
    user.name()
        .strip_prefix("system:serviceaccount:")
        .and_then(|rest| rest.split_once(':'))
        .map(|(namespace, _)| namespace.to_string())
        .unwrap_or_else(|| panic!("{} is not a ServiceAccount", user.name()))
}

/// Asserts that the API server refused `result` with 403 Forbidden, naming `user`.
#[track_caller]
fn forbidden<T: std::fmt::Debug>(what: &str, user: &User, result: Result<T, kube::Error>) {
    match result {
        Err(kube::Error::Api(status)) => {
            assert_eq!(
                (status.code, status.reason.as_str()),
                (403, "Forbidden"),
                "{what}: {status:?}"
            );
            assert!(
                status.message.contains(user.name()),
                "{what}: {}",
                status.message
            );
        }
        other => panic!("{what}: expected 403 Forbidden, got {other:?}"),
    }
}

/// A new ServiceAccount `namespace/name`, bound to the ClusterRole `role` when one is given,
/// and a token of it (testenv's ServiceAccount user, which waits until the token
/// authenticates). Returns once, for a bound one, the API server also authorizes `get
/// /metrics` (so the manager's first reviews, whose results it keeps, see the final state).
async fn service_account_token(
    env: &TestEnv,
    kube: &kube::Client,
    namespace: &str,
    name: &str,
    role: Option<&str>,
) -> String {
    if let Some(role) = role {
        let mut binding = ClusterRoleBinding {
            role_ref: RoleRef {
                api_group: "rbac.authorization.k8s.io".into(),
                kind: "ClusterRole".into(),
                name: role.to_string(),
            },
            subjects: Some(vec![Subject {
                kind: "ServiceAccount".into(),
                name: name.to_string(),
                namespace: Some(namespace.to_string()),
                ..Default::default()
            }]),
            ..Default::default()
        };
        binding.metadata.name = Some(format!("{namespace}-{name}"));
        Api::<ClusterRoleBinding>::all(kube.clone())
            .create(&PostParams::default(), &binding)
            .await
            .unwrap();
    }
    let user = env
        .service_account_user(namespace, name, Duration::from_secs(3600))
        .await
        .unwrap();
    assert_eq!(
        user.name(),
        format!("system:serviceaccount:{namespace}:{name}")
    );
    if role.is_some() {
        eventually(Duration::from_secs(30), || async {
            let review = SubjectAccessReview {
                spec: SubjectAccessReviewSpec {
                    user: Some(user.name().to_string()),
                    groups: Some(user.groups().to_vec()),
                    non_resource_attributes: Some(NonResourceAttributes {
                        path: Some("/metrics".into()),
                        verb: Some("get".into()),
                    }),
                    ..Default::default()
                },
                ..Default::default()
            };
            Api::<SubjectAccessReview>::all(kube.clone())
                .create(&PostParams::default(), &review)
                .await
                .unwrap()
                .status
                .is_some_and(|s| s.allowed)
        })
        .await;
    }
    user.token()
        .expect("a ServiceAccount user has a token")
        .to_string()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn diagnostics_need_a_token_allowed_to_get_metrics_unless_insecure() {
    let env = env("controller-manager");
    let kube = env.client().await.unwrap();
    let ns = env.unique_name("diag");
    namespace(&kube, &ns).await;
    let shipped = shipped_manager(env, &kube).await;
    let reader = service_account_token(env, &kube, &ns, "reader", Some(METRICS_READER)).await;
    let stranger = service_account_token(env, &kube, &ns, "stranger", None).await;
    let webhook_ca = TestCa::new("diagnostics-ca");
    let certs = webhook_ca.cert_dir();

    // The gate off: only the webhooks and the diagnostics run (no controller, no Lease), so
    // this test does not meet the end-to-end test's manager.
    let mut manager = Manager::spawn(
        shipped.kubeconfig_path(),
        certs.path(),
        &["--feature-gates", "RuntimeSDK=false"],
    );
    let addr = manager.addr("serving diagnostics over HTTPS");
    let url = format!("https://{addr}/metrics");
    // The client trusts only the CA of the webhook certificate: TLS is verified for real.
    let tls = https_client(&webhook_ca.pem());

    let (code, text) = scrape(&tls, &url, &reader).await;
    assert_eq!(code, 200, "{text}");
    assert!(text.contains("# TYPE capi_runtime_sdk_"), "{text}");
    assert!(text.ends_with("# EOF\n"), "{text}");
    // Served from the cache the second time, the same answer.
    assert_eq!(scrape(&tls, &url, &reader).await.0, 200);

    let (code, text) = scrape(&tls, &url, &stranger).await;
    assert_eq!(code, 403, "{text}");
    assert!(
        text.contains(&format!("system:serviceaccount:{ns}:stranger")),
        "{text}"
    );
    assert_eq!(scrape(&tls, &url, "").await.0, 401);
    assert_eq!(scrape(&tls, &url, "not-a-token").await.0, 401);
    // The reader's token gives no right to another verb.
    let posted = tls.post(&url).bearer_auth(&reader).send().await.unwrap();
    assert_eq!(posted.status().as_u16(), 403);

    // Plain HTTP to the HTTPS port gets no answer; nor does a client trusting another CA.
    let (code, _) = scrape(&plain_client(), &format!("http://{addr}/metrics"), &reader).await;
    assert_eq!(code, 0);
    let other = https_client(&TestCa::new("another-ca").pem());
    assert_eq!(scrape(&other, &url, &reader).await.0, 0);
    let status = manager.terminate();
    assert!(status.success(), "{status:?}");

    // Insecure: plain HTTP, no token needed.
    let mut manager = Manager::spawn(
        shipped.kubeconfig_path(),
        certs.path(),
        &[
            "--feature-gates",
            "RuntimeSDK=false",
            "--insecure-diagnostics",
        ],
    );
    let addr = manager.addr("serving diagnostics over plain HTTP");
    let (code, text) = scrape(&plain_client(), &format!("http://{addr}/metrics"), "").await;
    assert_eq!(code, 200, "{text}");
    assert!(text.contains("# TYPE capi_runtime_sdk_"), "{text}");
    let status = manager.terminate();
    assert!(status.success(), "{status:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn manager_end_to_end() {
    let env = env("controller-manager");
    let kube = env.client().await.unwrap();
    // Warm-up lists every ExtensionConfig, and the log lines checked below are any config's.
    let _cluster = whole_cluster(&kube).await;
    let ns = env.unique_name("ca");
    namespace(&kube, &ns).await;
    let ca = TestCa::new("manager-ca");
    create_ca_secret(&kube, &ns, "ext-ca", Some(&ca.pem())).await;
    let ext = Extension::start(&ca, &["first", "second"]).await;
    let webhook_ca = TestCa::new("webhook-ca");
    let certs = webhook_ca.cert_dir();

    let shipped = shipped_manager(env, &kube).await;
    let lease_namespace = namespace_of(&shipped);
    let token = service_account_token(env, &kube, &ns, "scraper", Some(METRICS_READER)).await;

    // As deployed: the manager's own ServiceAccount, the shipped RBAC, its Lease in its own
    // namespace.
    let mut manager = Manager::start(shipped.kubeconfig_path(), certs.path(), &lease_namespace);
    let probes = manager.addr("serving probes");
    let metrics = manager.addr("serving diagnostics over HTTPS");
    eventually(Duration::from_secs(60), || async {
        http_get(&probes, "/readyz").await.0 == 200
    })
    .await;

    // Create: handlers and Discovered=True within seconds, the CA injected from the Secret.
    let name = env.unique_name("ext");
    let created_at = Instant::now();
    create(
        &kube,
        &inject_from(config(&name, &ext.url, None), &ns, "ext-ca"),
    )
    .await;
    eventually(Duration::from_secs(60), || async {
        let c = get(&kube, &name).await;
        c.status.handlers.len() == 2
            && capi_runtime_controller::conditions::get(&c, "Discovered")
                .is_some_and(|d| d.status == "True")
    })
    .await;
    let discovered_after = created_at.elapsed();
    let c = get(&kube, &name).await;
    assert_eq!(c.spec.client_config.ca_bundle.0, ca.pem().as_bytes());
    assert_eq!(
        status_handlers(&c),
        [format!("first.{name}"), format!("second.{name}")]
    );
    // The manager's writes are named: the status and the CA injection by the controller.
    let managers: Vec<(String, String)> = c
        .metadata
        .managed_fields
        .iter()
        .flatten()
        .map(|f| {
            (
                f.manager.clone().unwrap_or_default(),
                f.subresource.clone().unwrap_or_default(),
            )
        })
        .collect();
    for subresource in ["", "status"] {
        assert!(
            managers.contains(&(FIELD_MANAGER.to_string(), subresource.to_string())),
            "{managers:?}"
        );
    }
    eprintln!("created → Discovered=True in {discovered_after:?}");

    // The Secret changes: the caBundle follows (discovery then fails against the old cert).
    let rotated = TestCa::new("rotated");
    let secrets: Api<Secret> = Api::namespaced(kube.clone(), &ns);
    secrets
        .patch(
            "ext-ca",
            &PatchParams::default(),
            &Patch::Merge(json!({"data": {"ca.crt": ByteString(rotated.pem().into_bytes())}})),
        )
        .await
        .unwrap();
    eventually(Duration::from_secs(60), || async {
        get(&kube, &name).await.spec.client_config.ca_bundle.0 == rotated.pem().as_bytes()
    })
    .await;
    eventually(Duration::from_secs(60), || async {
        capi_runtime_controller::conditions::get(&get(&kube, &name).await, "Discovered")
            .is_some_and(|d| d.status == "False")
    })
    .await;
    assert_eq!(
        get(&kube, &name).await.status.handlers.len(),
        2,
        "stale handlers kept"
    );
    secrets
        .patch(
            "ext-ca",
            &PatchParams::default(),
            &Patch::Merge(json!({"data": {"ca.crt": ByteString(ca.pem().into_bytes())}})),
        )
        .await
        .unwrap();
    eventually(Duration::from_secs(60), || async {
        capi_runtime_controller::conditions::get(&get(&kube, &name).await, "Discovered")
            .is_some_and(|d| d.status == "True")
    })
    .await;

    // Pause and unpause.
    let pause = |value: serde_json::Value| {
        let kube = kube.clone();
        let name = name.clone();
        async move {
            configs(&kube)
                .patch(
                    &name,
                    &PatchParams::default(),
                    &Patch::Merge(json!({"metadata": {"annotations": {PAUSED_ANNOTATION: value}}})),
                )
                .await
                .unwrap();
        }
    };
    let paused_is = |want: &'static str| {
        let kube = kube.clone();
        let name = name.clone();
        move || {
            let kube = kube.clone();
            let name = name.clone();
            async move {
                capi_runtime_controller::conditions::get(&get(&kube, &name).await, "Paused")
                    .is_some_and(|p| p.status == want)
            }
        }
    };
    pause(json!("")).await;
    eventually(Duration::from_secs(60), paused_is("True")).await;
    pause(serde_json::Value::Null).await;
    eventually(Duration::from_secs(60), paused_is("False")).await;

    // One endpoint with the controller's and the client's metrics (HTTPS, to a token bound to
    // the metrics-reader role); the Lease is held.
    let (code, text) = scrape(
        &https_client(&webhook_ca.pem()),
        &format!("https://{metrics}/metrics"),
        &token,
    )
    .await;
    assert_eq!(code, 200, "{text}");
    assert!(
        text.contains(
            "controller_runtime_reconcile_total{controller=\"extensionconfig\",result=\"success\"}"
        ),
        "{text}"
    );
    assert!(text.contains("capi_runtime_sdk_requests_total{"), "{text}");
    assert!(
        text.contains("capi_runtime_sdk_extension_registry_ready 1"),
        "{text}"
    );
    let lease = Api::<Lease>::namespaced(kube.clone(), &lease_namespace)
        .get("controller-leader-election-capi-runtime")
        .await
        .unwrap();
    assert!(lease.spec.unwrap().holder_identity.is_some());

    // Kill and restart: warm-up rebuilds the registry (readiness waits for it).
    manager.kill();
    let mut manager = Manager::start(shipped.kubeconfig_path(), certs.path(), &lease_namespace);
    let probes = manager.addr("serving probes");
    eventually(Duration::from_secs(60), || async {
        http_get(&probes, "/readyz").await.0 == 200
    })
    .await;
    manager.wait_line(
        "The extension registry is warmed up",
        Duration::from_secs(60),
    );

    // Delete: the controller unregisters the handlers.
    delete(&kube, &name).await;
    let line = manager.wait_line(
        "Unregistering ExtensionConfig information from registry",
        Duration::from_secs(60),
    );
    assert!(line.contains(&name), "{line}");

    let status = manager.terminate();
    assert!(status.success(), "{status:?}");
    ext.stop().await;
}

/// The shipped RBAC gives the manager what it uses and nothing more: with its ServiceAccount's
/// identity, the reads and writes it makes succeed, and everything else is refused with 403
/// Forbidden (other kinds, other verbs on its own kinds, Leases outside its namespace).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_shipped_rbac_refuses_what_the_manager_has_no_business_with() {
    let env = env("controller-manager");
    let kube = env.client().await.unwrap();
    let _own = own_objects().await;
    let ns = env.unique_name("rbac");
    namespace(&kube, &ns).await;
    let ca = TestCa::new("rbac-ca");
    create_ca_secret(&kube, &ns, "ext-ca", Some(&ca.pem())).await;
    let name = env.unique_name("rbac-ext");
    create(&kube, &config(&name, &unreachable_url(), None)).await;
    let shipped = shipped_manager(env, &kube).await;
    let own_namespace = namespace_of(&shipped);
    let me = shipped.client().await.unwrap();
    let post = PostParams::default();

    // What the manager does, it may: read ExtensionConfigs and patch them and their status,
    // read the CA Secrets, keep its Lease in its own namespace, review tokens and access.
    assert_eq!(
        configs(&me).get(&name).await.unwrap().metadata.name,
        Some(name.clone())
    );
    let annotate = json!({"metadata": {"annotations": {"rbac-test": "yes"}}});
    configs(&me)
        .patch(&name, &PatchParams::default(), &Patch::Merge(&annotate))
        .await
        .unwrap();
    configs(&me)
        .patch_status(
            &name,
            &PatchParams::default(),
            &Patch::Merge(json!({"status": {"handlers": []}})),
        )
        .await
        .unwrap();
    let secrets: Api<Secret> = Api::namespaced(me.clone(), &ns);
    let secret = secrets.get("ext-ca").await.unwrap();
    assert!(secret.data.unwrap().contains_key("ca.crt"));
    let lease_name = env.unique_name("rbac-lease");
    let mut lease = Lease::default();
    lease.metadata.name = Some(lease_name.clone());
    Api::<Lease>::namespaced(me.clone(), &own_namespace)
        .create(&post, &lease)
        .await
        .unwrap();
    let review = TokenReview {
        spec: TokenReviewSpec {
            token: shipped.token().map(str::to_string),
            audiences: None,
        },
        ..Default::default()
    };
    let answer = Api::<TokenReview>::all(me.clone())
        .create(&post, &review)
        .await
        .unwrap();
    assert_eq!(answer.status.and_then(|s| s.authenticated), Some(true));

    // Other kinds: no ConfigMaps, Deployments, Pods, Namespaces, RBAC objects.
    let mut map = ConfigMap::default();
    map.metadata.name = Some("not-mine".into());
    forbidden(
        "create a ConfigMap",
        &shipped,
        Api::<ConfigMap>::namespaced(me.clone(), &ns)
            .create(&post, &map)
            .await,
    );
    forbidden(
        "create a ConfigMap in its own namespace",
        &shipped,
        Api::<ConfigMap>::namespaced(me.clone(), &own_namespace)
            .create(&post, &map)
            .await,
    );
    let deployment: Deployment = serde_json::from_value(json!({
        "metadata": {"name": "not-mine"},
        "spec": {
            "selector": {"matchLabels": {"app": "not-mine"}},
            "template": {
                "metadata": {"labels": {"app": "not-mine"}},
                "spec": {"containers": [{"name": "c", "image": "example.com/c"}]},
            },
        },
    }))
    .unwrap();
    forbidden(
        "create a Deployment",
        &shipped,
        Api::<Deployment>::namespaced(me.clone(), &own_namespace)
            .create(&post, &deployment)
            .await,
    );
    forbidden(
        "list Pods",
        &shipped,
        Api::<Pod>::all(me.clone())
            .list(&ListParams::default())
            .await,
    );
    forbidden(
        "list Namespaces",
        &shipped,
        Api::<Namespace>::all(me.clone())
            .list(&ListParams::default())
            .await,
    );
    forbidden(
        "delete a Namespace",
        &shipped,
        Api::<Namespace>::all(me.clone())
            .delete(&ns, &DeleteParams::default())
            .await,
    );
    let mut binding = ClusterRoleBinding {
        role_ref: RoleRef {
            api_group: "rbac.authorization.k8s.io".into(),
            kind: "ClusterRole".into(),
            name: "cluster-admin".into(),
        },
        subjects: Some(vec![Subject {
            kind: "User".into(),
            name: shipped.name().to_string(),
            ..Default::default()
        }]),
        ..Default::default()
    };
    binding.metadata.name = Some(env.unique_name("escalate"));
    forbidden(
        "bind itself to cluster-admin",
        &shipped,
        Api::<ClusterRoleBinding>::all(me.clone())
            .create(&post, &binding)
            .await,
    );

    // Its own kinds, other verbs: Secrets are read, never written; ExtensionConfigs are
    // patched, never created, replaced or deleted.
    let mut other = Secret::default();
    other.metadata.name = Some("not-mine".into());
    forbidden(
        "create a Secret",
        &shipped,
        secrets.create(&post, &other).await,
    );
    forbidden(
        "patch a Secret",
        &shipped,
        secrets
            .patch("ext-ca", &PatchParams::default(), &Patch::Merge(&annotate))
            .await,
    );
    forbidden(
        "delete a Secret",
        &shipped,
        secrets.delete("ext-ca", &DeleteParams::default()).await,
    );
    forbidden(
        "create an ExtensionConfig",
        &shipped,
        configs(&me)
            .create(
                &post,
                &config(&env.unique_name("rbac-ext"), &unreachable_url(), None),
            )
            .await,
    );
    let current = configs(&me).get(&name).await.unwrap();
    forbidden(
        "replace an ExtensionConfig",
        &shipped,
        configs(&me).replace(&name, &post, &current).await,
    );
    forbidden(
        "delete an ExtensionConfig",
        &shipped,
        configs(&me).delete(&name, &DeleteParams::default()).await,
    );
    forbidden(
        "create a Lease outside its namespace",
        &shipped,
        Api::<Lease>::namespaced(me.clone(), &ns)
            .create(&post, &lease)
            .await,
    );
    forbidden(
        "delete its Lease",
        &shipped,
        Api::<Lease>::namespaced(me.clone(), &own_namespace)
            .delete(&lease_name, &DeleteParams::default())
            .await,
    );

    // The refusals changed nothing.
    let admin_secrets: Api<Secret> = Api::namespaced(kube.clone(), &ns);
    assert_eq!(
        admin_secrets
            .get("ext-ca")
            .await
            .unwrap()
            .metadata
            .annotations
            .unwrap_or_default()
            .get("rbac-test"),
        None
    );
    assert!(admin_secrets.get_opt("not-mine").await.unwrap().is_none());
    assert!(
        Api::<Namespace>::all(kube.clone())
            .get(&ns)
            .await
            .unwrap()
            .metadata
            .deletion_timestamp
            .is_none()
    );
    assert!(configs(&kube).get_opt(&name).await.unwrap().is_some());
    Api::<Lease>::namespaced(kube.clone(), &own_namespace)
        .delete(&lease_name, &DeleteParams::default())
        .await
        .unwrap();
    delete(&kube, &name).await;
}

/// A TCP relay on loopback in front of an extension. A connection it accepts is held, unanswered,
/// until the relay has a target, then carried byte for byte (the TLS session is the
/// extension's own, end to end). With no target it stands for an extension whose Discovery is
/// in flight for as long as the test wants; a new target changes what the same URL serves.
struct Relay {
    url: String,
    target: tokio::sync::watch::Sender<Option<std::net::SocketAddr>>,
    accepted: std::sync::Arc<std::sync::atomic::AtomicUsize>,
    task: tokio::task::JoinHandle<()>,
}

impl Relay {
    async fn start(target: Option<std::net::SocketAddr>) -> Relay {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let url = format!("https://{}", listener.local_addr().unwrap());
        let (sender, receiver) = tokio::sync::watch::channel(target);
        let accepted = std::sync::Arc::new(std::sync::atomic::AtomicUsize::new(0));
        let count = accepted.clone();
        let task = tokio::spawn(async move {
            while let Ok((mut inbound, _)) = listener.accept().await {
                count.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
                let mut receiver = receiver.clone();
                tokio::spawn(async move {
                    let target = match receiver.wait_for(Option::is_some).await {
                        Ok(target) => target.expect("waited for a target"),
                        Err(_) => return,
                    };
                    if let Ok(mut outbound) = tokio::net::TcpStream::connect(target).await {
                        let _ = tokio::io::copy_bidirectional(&mut inbound, &mut outbound).await;
                    }
                });
            }
        });
        Relay {
            url,
            target: sender,
            accepted,
            task,
        }
    }

    /// Carries the held connections and every later one to `extension`.
    fn point_at(&self, extension: &Extension) {
        let addr = extension
            .url
            .strip_prefix("https://")
            .and_then(|a| a.parse().ok())
            .unwrap_or_else(|| panic!("{} is not https://ADDR", extension.url));
        self.target.send_replace(Some(addr));
    }

    /// How many connections the relay has accepted so far.
    fn accepted(&self) -> usize {
        self.accepted.load(std::sync::atomic::Ordering::SeqCst)
    }
}

impl Drop for Relay {
    fn drop(&mut self) {
        self.task.abort();
    }
}

/// Whether `c` is `Discovered=True` with exactly the handlers `want` (each
/// `<handler>.<ExtensionConfig>`, in any order).
fn discovered_with(c: &ExtensionConfig, want: &[&str]) -> bool {
    let name = c.metadata.name.as_deref().unwrap_or_default();
    let mut have = status_handlers(c);
    have.sort();
    let mut expected: Vec<String> = want.iter().map(|h| format!("{h}.{name}")).collect();
    expected.sort();
    have == expected
        && capi_runtime_controller::conditions::get(c, "Discovered")
            .is_some_and(|d| d.status == "True")
}

/// The lines of `metrics` counting Discovery calls to the extension at `url`.
fn discovery_calls<'a>(metrics: &'a str, url: &str) -> Vec<&'a str> {
    let host = format!("host=\"{}\"", url.strip_prefix("https://").unwrap_or(url));
    metrics
        .lines()
        .filter(|l| {
            l.starts_with("capi_runtime_sdk_requests_total{")
                && l.contains(&host)
                && l.contains("hook=\"Discovery\"")
        })
        .collect()
}

/// What a test of the manager as deployed starts from: the cluster to itself (warm-up lists
/// every ExtensionConfig, the Lease is every such test's, and the final checks are over all
/// ExtensionConfigs), the extensions' CA, the webhook CA with its certificate files, the
/// shipped ServiceAccount and its namespace (the Lease's), and a token that may read metrics.
struct Deployed {
    env: &'static TestEnv,
    kube: kube::Client,
    _cluster: tokio::sync::RwLockWriteGuard<'static, ()>,
    ca: TestCa,
    webhook_ca: TestCa,
    certs: tempfile::TempDir,
    shipped: User,
    lease_namespace: String,
    token: String,
}

impl Deployed {
    async fn new(name: &str) -> Deployed {
        let env = env("controller-manager");
        let kube = env.client().await.unwrap();
        let cluster = whole_cluster(&kube).await;
        let ns = env.unique_name(name);
        namespace(&kube, &ns).await;
        let webhook_ca = TestCa::new(&format!("{name}-webhook-ca"));
        let certs = webhook_ca.cert_dir();
        let shipped = shipped_manager(env, &kube).await;
        let lease_namespace = namespace_of(&shipped);
        let token = service_account_token(env, &kube, &ns, "scraper", Some(METRICS_READER)).await;
        Deployed {
            env,
            kube,
            _cluster: cluster,
            ca: TestCa::new(&format!("{name}-ca")),
            webhook_ca,
            certs,
            shipped,
            lease_namespace,
            token,
        }
    }
}

/// What the cluster should hold after a test's changes while no manager ran: `names` but the
/// first (deleted) with `handlers`, the second moved to an extension serving `changed`, and
/// `added` with `handlers`; sorted by name.
fn wanted<'a>(
    names: &[String],
    handlers: &'a [&'a str],
    changed: &'a [&'a str],
    added: &str,
) -> Vec<(String, &'a [&'a str])> {
    let mut want: Vec<(String, &[&str])> =
        names[2..].iter().map(|n| (n.clone(), handlers)).collect();
    want.push((names[1].clone(), changed));
    want.push((added.to_string(), handlers));
    want.sort();
    want
}

/// Waits (at most 2 minutes) until the ExtensionConfigs in the cluster are exactly `want`,
/// each `Discovered=True` with exactly its handlers.
async fn all_as_wanted(kube: &kube::Client, want: &[(String, &[&str])]) {
    eventually(Duration::from_secs(120), || async {
        let list = configs(kube).list(&ListParams::default()).await.unwrap();
        let mut have: Vec<&ExtensionConfig> = list.items.iter().collect();
        have.sort_by_key(|c| c.metadata.name.clone());
        have.len() == want.len()
            && have.iter().zip(want).all(|(c, (name, handlers))| {
                c.metadata.name.as_ref() == Some(name) && discovered_with(c, handlers)
            })
    })
    .await;
}

/// The manager killed with SIGKILL while some ExtensionConfigs are discovered and others are
/// in the middle of their Discovery call, the cluster changed while it is down (one
/// ExtensionConfig deleted, one created, one extension serving other handlers at the same URL,
/// the held extensions answering), then started again with the same flags and identity: every
/// ExtensionConfig ends `Discovered=True` with exactly what its extension now serves, the
/// deleted one stays gone, and the registry is warmed up again before readiness.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn manager_killed_mid_reconcile_loses_nothing_on_restart() {
    /// ExtensionConfigs whose extensions answer at once, and those whose Discovery is held.
    const ANSWERING: usize = 15;
    const HELD: usize = 5;
    const HANDLERS: &[&str] = &["a", "b"];
    const CHANGED: &[&str] = &["x", "y", "z"];

    let Deployed {
        env,
        kube,
        _cluster,
        ca,
        webhook_ca,
        certs,
        shipped,
        lease_namespace,
        token,
    } = Deployed::new("sigkill").await;

    // Every ExtensionConfig reaches its extension through a relay: open for the answering
    // ones, closed (connections held) for the others.
    let mut extensions = Vec::new();
    let mut relays = Vec::new();
    for i in 0..ANSWERING + HELD {
        let extension = Extension::start(&ca, HANDLERS).await;
        let relay = Relay::start(None).await;
        if i < ANSWERING {
            relay.point_at(&extension);
        }
        extensions.push(extension);
        relays.push(relay);
    }
    let names: Vec<String> = (0..ANSWERING + HELD)
        .map(|i| env.unique_name(&format!("kill-{i}")))
        .collect();

    let mut manager = Manager::start(shipped.kubeconfig_path(), certs.path(), &lease_namespace);
    let probes = manager.addr("serving probes");
    eventually(Duration::from_secs(60), || async {
        http_get(&probes, "/readyz").await.0 == 200
    })
    .await;
    // Interleaved, so that the held ones do not all come last.
    for i in (0..ANSWERING + HELD).rev() {
        create(&kube, &config(&names[i], &relays[i].url, Some(&ca.pem()))).await;
    }

    // Some discovered, the others in the middle of Discovery: kill.
    eventually(Duration::from_secs(120), || async {
        let mut answered = 0;
        for name in &names[..ANSWERING] {
            if discovered_with(&get(&kube, name).await, HANDLERS) {
                answered += 1;
            }
        }
        answered == ANSWERING && relays[ANSWERING..].iter().all(|r| r.accepted() > 0)
    })
    .await;
    manager.kill();
    let list = configs(&kube).list(&ListParams::default()).await.unwrap();
    let discovered = list
        .items
        .iter()
        .filter(|c| {
            capi_runtime_controller::conditions::get(c, "Discovered")
                .is_some_and(|d| d.status == "True")
        })
        .count();
    eprintln!(
        "killed with {discovered} of {} ExtensionConfigs Discovered=True",
        list.items.len()
    );
    assert!(
        (ANSWERING..ANSWERING + HELD).contains(&discovered),
        "{discovered} discovered at the kill"
    );

    // While it is down: one deleted, one created, one extension replaced by one serving other
    // handlers at the same URL (its ExtensionConfig unchanged), the held ones let through.
    delete(&kube, &names[0]).await;
    let added = Extension::start(&ca, HANDLERS).await;
    let added_name = env.unique_name("kill-added");
    create(&kube, &config(&added_name, &added.url, Some(&ca.pem()))).await;
    let changed = Extension::start(&ca, CHANGED).await;
    relays[1].point_at(&changed);
    for (relay, extension) in relays.iter().zip(&extensions).skip(ANSWERING) {
        relay.point_at(extension);
    }
    let want = wanted(&names, HANDLERS, CHANGED, &added_name);

    // Started again as before: everything is there, and only that.
    let restarted_at = Instant::now();
    let mut manager = Manager::start(shipped.kubeconfig_path(), certs.path(), &lease_namespace);
    let probes = manager.addr("serving probes");
    let metrics = manager.addr("serving diagnostics over HTTPS");
    all_as_wanted(&kube, &want).await;
    let all_discovered_after = restarted_at.elapsed();
    eventually(Duration::from_secs(60), || async {
        http_get(&probes, "/readyz").await.0 == 200
    })
    .await;
    let ready_after = restarted_at.elapsed();
    manager.wait_line(
        "The extension registry is warmed up",
        Duration::from_secs(60),
    );
    eprintln!(
        "restart → all {} ExtensionConfigs Discovered=True with their handlers in \
         {all_discovered_after:?}, ready in {ready_after:?}",
        want.len()
    );
    assert!(configs(&kube).get_opt(&names[0]).await.unwrap().is_none());
    let (code, text) = scrape(
        &https_client(&webhook_ca.pem()),
        &format!("https://{metrics}/metrics"),
        &token,
    )
    .await;
    assert_eq!(code, 200, "{text}");
    assert!(
        text.contains("capi_runtime_sdk_extension_registry_ready 1"),
        "{text}"
    );
    // The restarted manager's own calls (its counters start at zero): a successful Discovery
    // of every ExtensionConfig there is, and no call at all to the deleted one's URL.
    let mut urls: Vec<&str> = relays[1..].iter().map(|r| r.url.as_str()).collect();
    urls.push(&added.url);
    for url in urls {
        assert!(
            discovery_calls(&text, url)
                .iter()
                .any(|l| l.contains("code=\"200\"") && l.contains("status=\"Success\"")),
            "no successful Discovery of {url}: {:#?}",
            discovery_calls(&text, url)
        );
    }
    assert_eq!(discovery_calls(&text, &relays[0].url), Vec::<&str>::new());

    let status = manager.terminate();
    assert!(status.success(), "{status:?}");
    for (name, _) in &want {
        delete(&kube, name).await;
    }
    drop(relays);
    for extension in extensions.into_iter().chain([added, changed]) {
        extension.stop().await;
    }
}

/// The Lease the manager elects its leader with (`--leader-election-id`'s default).
const LEASE: &str = "controller-leader-election-capi-runtime";

/// The reconciles the controller of a manager has counted, whatever their result.
fn reconciles(metrics: &str) -> u64 {
    metrics
        .lines()
        .filter(|l| l.starts_with("controller_runtime_reconcile_total{"))
        .filter_map(|l| l.rsplit(' ').next()?.parse::<u64>().ok())
        .sum()
}

/// The Lease's holder and how often it has changed hands.
async fn lease_holder(leases: &Api<Lease>) -> (String, i32) {
    let spec = leases.get(LEASE).await.unwrap().spec.unwrap_or_default();
    (
        spec.holder_identity.unwrap_or_default(),
        spec.lease_transitions.unwrap_or_default(),
    )
}

/// Two replicas with leader election, as a Deployment of two runs them. While the first leads,
/// the second holds no Lease, answers not-ready and reconciles nothing. The leader is killed
/// with SIGKILL (no release of the Lease) and the cluster changes while nobody leads: the
/// second takes the Lease once it has run out, answers not-ready until its registry is warmed
/// up, then ready, and brings every ExtensionConfig to what its extension serves. At no time do
/// both replicas count reconciles.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_standby_replica_takes_over_when_the_leader_dies() {
    const CONFIGS: usize = 10;
    const HANDLERS: &[&str] = &["a", "b"];
    const CHANGED: &[&str] = &["x", "y", "z"];
    /// The Lease duration `Manager::start` passes.
    const LEASE_DURATION: Duration = Duration::from_secs(3);

    let Deployed {
        env,
        kube,
        _cluster,
        ca,
        webhook_ca,
        certs,
        shipped,
        lease_namespace,
        token,
    } = Deployed::new("handover").await;
    let leases: Api<Lease> = Api::namespaced(kube.clone(), &lease_namespace);
    let scraper = https_client(&webhook_ca.pem());
    let metrics_of = |addr: &str| {
        let (scraper, url, token) = (
            scraper.clone(),
            format!("https://{addr}/metrics"),
            token.clone(),
        );
        async move {
            let (code, text) = scrape(&scraper, &url, &token).await;
            assert_eq!(code, 200, "{text}");
            text
        }
    };

    let extension = Extension::start(&ca, HANDLERS).await;
    let names: Vec<String> = (0..CONFIGS)
        .map(|i| env.unique_name(&format!("handover-{i}")))
        .collect();
    for name in &names {
        create(&kube, &config(name, &extension.url, Some(&ca.pem()))).await;
    }

    // The first replica leads and discovers everything.
    let mut first = Manager::start(shipped.kubeconfig_path(), certs.path(), &lease_namespace);
    let first_probes = first.addr("serving probes");
    let first_metrics = first.addr("serving diagnostics over HTTPS");
    first.wait_line("became the leader", Duration::from_secs(60));
    eventually(Duration::from_secs(60), || async {
        http_get(&first_probes, "/readyz").await.0 == 200
    })
    .await;
    eventually(Duration::from_secs(60), || async {
        let mut all = true;
        for name in &names {
            all &= discovered_with(&get(&kube, name).await, HANDLERS);
        }
        all
    })
    .await;

    // The second replica stands by: no Lease, not ready, no reconcile, for twice the Lease's
    // duration (the first renews it meanwhile).
    let mut second = Manager::start(shipped.kubeconfig_path(), certs.path(), &lease_namespace);
    let second_probes = second.addr("serving probes");
    let second_metrics = second.addr("serving diagnostics over HTTPS");
    second.wait_line("waiting to become the leader", Duration::from_secs(30));
    let standby_until = Instant::now() + 2 * LEASE_DURATION;
    let mut samples = 0;
    while Instant::now() < standby_until {
        let (code, text) = http_get(&second_probes, "/readyz").await;
        assert_eq!(code, 503, "a standby replica answered /readyz: {text}");
        samples += 1;
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let (holder, transitions) = lease_holder(&leases).await;
    assert!(
        holder.ends_with(&format!("_{}", first.child.id())),
        "the Lease is held by {holder:?}, not the first replica"
    );
    assert_eq!(reconciles(&metrics_of(&second_metrics).await), 0);
    assert!(reconciles(&metrics_of(&first_metrics).await) > 0);
    assert!(
        !second.seen.iter().any(|l| l.contains("became the leader")),
        "both replicas lead"
    );
    eprintln!(
        "standby: not ready in {samples} samples over {:?}",
        2 * LEASE_DURATION
    );

    // The leader dies without releasing the Lease; the cluster changes while nobody leads.
    first.kill();
    let killed_at = Instant::now();
    delete(&kube, &names[0]).await;
    let added = env.unique_name("handover-added");
    create(&kube, &config(&added, &extension.url, Some(&ca.pem()))).await;
    let changed = Extension::start(&ca, CHANGED).await;
    configs(&kube)
        .patch(
            &names[1],
            &PatchParams::default(),
            &Patch::Merge(json!({"spec": {"clientConfig": {"url": changed.url}}})),
        )
        .await
        .unwrap();
    let want = wanted(&names, HANDLERS, CHANGED, &added);

    // The second takes over: not ready until its registry is warm, then ready.
    let mut not_ready_after_kill = 0;
    let ready_after = loop {
        let (code, text) = http_get(&second_probes, "/readyz").await;
        match code {
            200 => break killed_at.elapsed(),
            503 => not_ready_after_kill += 1,
            _ => panic!("/readyz of the second replica answered {code}: {text}"),
        }
        assert!(
            killed_at.elapsed() < Duration::from_secs(90),
            "the second replica is not ready 90 s after the leader died"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    };
    second.wait_line("became the leader", Duration::from_secs(5));
    second.wait_line(
        "The extension registry is warmed up",
        Duration::from_secs(5),
    );
    all_as_wanted(&kube, &want).await;
    let settled_after = killed_at.elapsed();
    let (holder, after) = lease_holder(&leases).await;
    assert!(
        holder.ends_with(&format!("_{}", second.child.id())),
        "the Lease is held by {holder:?}, not the second replica"
    );
    assert_eq!(after, transitions + 1, "the Lease changed hands once");
    let text = metrics_of(&second_metrics).await;
    assert!(reconciles(&text) > 0, "{text}");
    assert!(
        text.contains("capi_runtime_sdk_extension_registry_ready 1"),
        "{text}"
    );
    eprintln!(
        "leader killed → second ready after {ready_after:?} ({not_ready_after_kill} not-ready \
         answers first; Lease duration {LEASE_DURATION:?}), every ExtensionConfig as its \
         extension serves after {settled_after:?}"
    );

    let status = second.terminate();
    assert!(status.success(), "{status:?}");
    for (name, _) in &want {
        delete(&kube, name).await;
    }
    extension.stop().await;
    changed.stop().await;
}
