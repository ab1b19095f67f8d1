//! Runs every sample of the book for real: each extension sample is served over TLS on a
//! loopback port the OS picks, discovered and called with the runtime client, as Cluster API
//! would call it; the pure functions are called with requests Cluster API would send.

mod pki;

use capi_runtime::api::core::v1beta2::Cluster;
use capi_runtime::api::runtime::v1beta2::ExtensionConfig;
use capi_runtime::client::{CallError, Client, ForObject};
use capi_runtime::hooks::v1alpha1::*;
use capi_runtime::k8s_openapi::apimachinery::pkg::apis::meta::v1::ObjectMeta;
use capi_runtime::registry::Registry;
use capi_runtime::server::RunningServer;
use capi_runtime_book_samples::{
    client, in_place, lifecycle, quickstart, state, topology, upgrade_plan, variables,
};
use serde_json::json;

fn config(name: &str, server: &RunningServer, ca_pem: &str) -> ExtensionConfig {
    let url = format!("https://127.0.0.1:{}", server.local_addr().port());
    let mut config = client::extension_config(name, &url, ca_pem.as_bytes());
    config
        .spec
        .settings
        .insert("retrySeconds".to_string(), "7".to_string());
    config.metadata.resource_version = Some("1".into());
    config
}

fn cluster(name: &str, annotations: &[(&str, &str)]) -> Cluster {
    Cluster {
        metadata: ObjectMeta {
            name: Some(name.into()),
            namespace: Some("default".into()),
            annotations: (!annotations.is_empty()).then(|| {
                annotations
                    .iter()
                    .map(|(k, v)| (k.to_string(), v.to_string()))
                    .collect()
            }),
            ..Default::default()
        },
        ..Default::default()
    }
}

/// A server builder for the test certificates, on loopback only (as the book shows it) and a
/// port the OS picks.
fn builder(certs: &pki::Certs) -> capi_runtime::server::ServerBuilder {
    capi_runtime::server::Server::builder()
        .cert_dir(certs.dir.path())
        .host(std::net::Ipv4Addr::LOCALHOST.into())
        .port(0)
}

fn client() -> Client {
    let mut metrics = prometheus_client::registry::Registry::default();
    let client = client::build_client(Registry::new(), &mut metrics).unwrap();
    client.warm_up([]).unwrap();
    client
}

/// Starts `server` and a client that has discovered it through the ExtensionConfig `name`.
async fn start_and_discover(
    server: capi_runtime::server::Server,
    name: &str,
    certs: &pki::Certs,
) -> (RunningServer, Client, ExtensionConfig) {
    let server = server.start().await.unwrap();
    let client = client();
    let discovered = client::discover_and_register(&client, &config(name, &server, &certs.ca_pem))
        .await
        .unwrap();
    (server, client, discovered)
}

#[tokio::test]
async fn quickstart_checks_names_over_tls() {
    let certs = pki::certs();
    let (server, client, discovered) = start_and_discover(
        quickstart::server(certs.dir.path(), 0).unwrap(),
        "quick",
        &certs,
    )
    .await;
    let handlers = &discovered.status.handlers;
    assert_eq!(handlers.len(), 1);
    assert_eq!(handlers[0].name, "check-name.quick");

    let for_object = ForObject::new("default", "short");
    let request = BeforeClusterCreateRequest {
        cluster: cluster("short", &[]),
        ..Default::default()
    };
    let response = client
        .call_extension("check-name.quick", &request, &for_object)
        .await
        .unwrap();
    assert_eq!(response.status, ResponseStatus::Success);
    assert_eq!(response.message, "checked by check-name");

    let long = "a".repeat(41);
    let request = BeforeClusterCreateRequest {
        cluster: cluster(&long, &[]),
        ..Default::default()
    };
    let error = client
        .call_extension("check-name.quick", &request, &for_object)
        .await
        .unwrap_err();
    assert!(matches!(error, CallError::Failure { .. }), "{error:?}");
    assert!(
        error.to_string().contains("longer than 40 characters"),
        "{error}"
    );
    server.shutdown().await.unwrap();
}

#[tokio::test]
async fn a_client_without_a_controller_calls_at_once() {
    let certs = pki::certs();
    let server = quickstart::server(certs.dir.path(), 0)
        .unwrap()
        .start()
        .await
        .unwrap();
    let client = client::client_for(&config("quick", &server, &certs.ca_pem))
        .await
        .unwrap();
    let request = BeforeClusterCreateRequest {
        cluster: cluster("short", &[]),
        ..Default::default()
    };
    let for_object = ForObject::new("default", "short");
    let response = client
        .call_extension("check-name.quick", &request, &for_object)
        .await
        .unwrap();
    assert_eq!(response.status, ResponseStatus::Success);
    server.shutdown().await.unwrap();
}

#[tokio::test]
async fn lifecycle_hooks_block_with_the_retry_of_the_settings() {
    let certs = pki::certs();
    let (server, client, discovered) = start_and_discover(
        lifecycle::register(builder(&certs)).build().unwrap(),
        "life",
        &certs,
    )
    .await;
    let notify = discovered
        .status
        .handlers
        .iter()
        .find(|h| h.name == "note-control-plane.life")
        .unwrap();
    assert_eq!(notify.timeout_seconds, 5);

    // Held: the settings of the ExtensionConfig (retrySeconds=7) reach the handler.
    let held = cluster("held", &[(lifecycle::HOLD_ANNOTATION, "change freeze")]);
    let response = client::may_upgrade(&client, &held, "v1.31.0", "v1.32.0")
        .await
        .unwrap();
    assert_eq!(response.status, ResponseStatus::Success);
    assert_eq!(response.retry_after_seconds, 7);
    assert_eq!(response.message, "upgrade to v1.32.0 held: change freeze");

    // Not held: no retry, the upgrade may go on.
    let free = cluster("free", &[]);
    let response = client::may_upgrade(&client, &free, "v1.31.0", "v1.32.0")
        .await
        .unwrap();
    assert_eq!(response.retry_after_seconds, 0);

    let request = AfterControlPlaneInitializedRequest {
        cluster: free.clone(),
        ..Default::default()
    };
    let response = client
        .call_all_extensions(&request, &ForObject::new("default", "free"))
        .await
        .unwrap();
    assert_eq!(response.message, "noted: control plane of free is up");
    server.shutdown().await.unwrap();
}

#[tokio::test]
async fn two_handlers_share_one_inventory() {
    let certs = pki::certs();
    let (server, client, _) = start_and_discover(
        state::register(builder(&certs), 2).build().unwrap(),
        "inv",
        &certs,
    )
    .await;
    let create = |name: &str| BeforeClusterCreateRequest {
        cluster: cluster(name, &[]),
        ..Default::default()
    };
    let admit = async |name: &str| {
        client
            .call_extension("admit.inv", &create(name), &ForObject::new("default", name))
            .await
            .unwrap()
    };
    for name in ["a", "b", "a"] {
        let response = admit(name).await;
        assert_eq!(
            (response.retry_after_seconds, response.message.as_str()),
            (0, ""),
            "{name}"
        );
    }
    let held = admit("c").await;
    assert_eq!(held.status, ResponseStatus::Success);
    assert_eq!(held.retry_after_seconds, state::WAIT_SECONDS);
    assert_eq!(held.message, "default/c waits: 2 Clusters already");

    // The other handler frees a place in the same inventory.
    let delete = BeforeClusterDeleteRequest {
        cluster: cluster("a", &[]),
        ..Default::default()
    };
    let response = client
        .call_extension("release.inv", &delete, &ForObject::new("default", "a"))
        .await
        .unwrap();
    assert_eq!(response.status, ResponseStatus::Success);
    assert_eq!(admit("c").await.retry_after_seconds, 0);
    assert_eq!(admit("a").await.retry_after_seconds, state::WAIT_SECONDS);
    server.shutdown().await.unwrap();
}

#[tokio::test]
async fn a_bad_setting_is_a_failure_with_its_reason() {
    let mut request = BeforeClusterUpgradeRequest {
        cluster: cluster("held", &[(lifecycle::HOLD_ANNOTATION, "x")]),
        ..Default::default()
    };
    request
        .settings
        .insert(lifecycle::RETRY_SETTING.into(), "soon".into());
    let error = lifecycle::before_cluster_upgrade(request)
        .await
        .unwrap_err();
    assert!(
        error.starts_with("setting retrySeconds=\"soon\""),
        "{error}"
    );
}

fn variable(name: &str, value: serde_json::Value) -> Variable {
    serde_json::from_value(json!({ "name": name, "value": value })).unwrap()
}

#[tokio::test]
async fn the_walker_patches_the_image_and_validates_it() {
    let template = json!({
        "apiVersion": "infrastructure.cluster.x-k8s.io/v1beta2",
        "kind": "DockerMachineTemplate",
        "spec": { "template": { "spec": { "extraMounts": [] } } }
    });
    let request: GeneratePatchesRequest = serde_json::from_value(json!({
        "variables": [],
        "items": [{
            "uid": "1",
            "holderReference": {
                "apiVersion": "cluster.x-k8s.io/v1beta2", "kind": "MachineDeployment",
                "namespace": "default", "name": "md-0", "fieldPath": "spec.infrastructureRef"
            },
            "object": template,
            "variables": []
        }]
    }))
    .unwrap();
    let mut request = request;
    request.variables = vec![
        variable(topology::IMAGE_REPOSITORY, json!("registry.example.com")),
        variable(
            "builtin",
            json!({ "machineDeployment": { "version": "v1.32.1" } }),
        ),
    ];
    let response = topology::generate_patches(request).await.unwrap();
    assert_eq!(
        response.status,
        ResponseStatus::Success,
        "{}",
        response.message
    );
    assert_eq!(response.items.len(), 1);
    let patch: serde_json::Value = serde_json::from_slice(&response.items[0].patch.0).unwrap();
    assert_eq!(
        patch,
        json!([{ "op": "add", "path": "/spec/template/spec/customImage",
                 "value": "registry.example.com/node:v1.32.1" }])
    );

    let validate: ValidateTopologyRequest = serde_json::from_value(json!({
        "variables": [{ "name": "imageRepository", "value": "registry.example.com" }],
        "items": [{
            "holderReference": { "apiVersion": "cluster.x-k8s.io/v1beta2", "kind": "MachineDeployment",
                                 "namespace": "default", "name": "md-0", "fieldPath": "spec.infrastructureRef" },
            "object": {
                "apiVersion": "infrastructure.cluster.x-k8s.io/v1beta2", "kind": "DockerMachineTemplate",
                "spec": { "template": { "spec": { "customImage": "elsewhere.io/node:v1" } } }
            }
        }]
    }))
    .unwrap();
    let response = topology::validate_topology(validate).await.unwrap();
    assert_eq!(response.status, ResponseStatus::Failure);
    assert!(
        response.message.contains("does not come from"),
        "{}",
        response.message
    );
}

#[tokio::test]
async fn in_place_updates_patch_the_version_and_report_progress() {
    let mut request = CanUpdateMachineRequest::default();
    request.current.machine.spec.version = "v1.31.0".into();
    request.desired.machine.spec.version = "v1.32.0".into();
    let response = in_place::can_update_machine(request).await.unwrap();
    let ops: serde_json::Value = serde_json::from_slice(&response.machine_patch.patch.0).unwrap();
    assert_eq!(
        ops,
        json!([{ "op": "add", "path": "/spec/version", "value": "v1.32.0" }])
    );

    let updater = in_place::Updater::default();
    let mut update = UpdateMachineRequest::default();
    update.desired.machine.metadata.name = Some("m-1".into());
    let first = updater.update_machine(update.clone()).await.unwrap();
    assert_eq!(
        (first.status, first.retry_after_seconds),
        (ResponseStatus::Success, 5)
    );
    let second = updater.update_machine(update).await.unwrap();
    assert_eq!(
        (second.status, second.retry_after_seconds),
        (ResponseStatus::Success, 0)
    );
}

#[tokio::test]
async fn the_upgrade_plan_has_every_minor_and_ends_at_the_target() {
    let request = GenerateUpgradePlanRequest {
        from_control_plane_kubernetes_version: "v1.30.5".into(),
        to_kubernetes_version: "v1.33.2".into(),
        ..Default::default()
    };
    let response = upgrade_plan::generate_upgrade_plan(request).await.unwrap();
    let steps: Vec<&str> = response
        .control_plane_upgrades
        .iter()
        .map(|s| s.version.as_str())
        .collect();
    assert_eq!(steps, ["v1.31.0", "v1.32.0", "v1.33.2"]);
    assert!(response.workers_upgrades.is_empty());

    let backwards = GenerateUpgradePlanRequest {
        from_control_plane_kubernetes_version: "v1.33.0".into(),
        to_kubernetes_version: "v1.32.0".into(),
        ..Default::default()
    };
    assert!(
        upgrade_plan::generate_upgrade_plan(backwards)
            .await
            .is_err()
    );
    let garbled = GenerateUpgradePlanRequest {
        from_control_plane_kubernetes_version: "latest".into(),
        to_kubernetes_version: "v1.32.0".into(),
        ..Default::default()
    };
    assert_eq!(
        upgrade_plan::generate_upgrade_plan(garbled)
            .await
            .unwrap_err(),
        "\"latest\" is not a Kubernetes version"
    );
}

#[tokio::test]
async fn the_client_behind_a_proxy_reaches_a_loopback_extension_directly() {
    let certs = pki::certs();
    let server = quickstart::server(certs.dir.path(), 0)
        .unwrap()
        .start()
        .await
        .unwrap();
    // proxy.internal does not exist: a call sent to it would fail.
    let client = client::build_client_behind_proxy(Registry::new()).unwrap();
    client.warm_up([]).unwrap();
    let discovered =
        client::discover_and_register(&client, &config("quick", &server, &certs.ca_pem))
            .await
            .unwrap();
    assert_eq!(discovered.status.handlers.len(), 1);
}

#[tokio::test]
async fn a_local_extension_is_trusted_through_its_self_signed_certificate() {
    let local = client::local_extension(b"PEM");
    assert_eq!(local.spec.client_config.url, "https://localhost:9443");
    assert_eq!(local.spec.client_config.ca_bundle.0, b"PEM");

    // The same ExtensionConfig on the port the OS picked: the serving certificate is its own
    // caBundle, CA:FALSE as the book's openssl command makes it.
    let certs = pki::self_signed();
    let server = quickstart::server(certs.dir.path(), 0)
        .unwrap()
        .start()
        .await
        .unwrap();
    let url = format!("https://localhost:{}", server.local_addr().port());
    let config = client::extension_config("local", &url, certs.ca_pem.as_bytes());
    let client = client();
    let discovered = client::discover_and_register(&client, &config)
        .await
        .unwrap();
    assert_eq!(discovered.status.handlers[0].name, "check-name.local");
    let request = BeforeClusterCreateRequest {
        cluster: cluster("short", &[]),
        ..Default::default()
    };
    let response = client
        .call_extension(
            "check-name.local",
            &request,
            &ForObject::new("default", "short"),
        )
        .await
        .unwrap();
    assert_eq!(response.status, ResponseStatus::Success);
    server.shutdown().await.unwrap();
}

#[tokio::test]
async fn discover_variables_declares_the_image_repository() {
    let certs = pki::certs();
    let (server, client, discovered) = start_and_discover(
        topology::register(builder(&certs)).build().unwrap(),
        "topo",
        &certs,
    )
    .await;
    let mut names: Vec<&str> = discovered
        .status
        .handlers
        .iter()
        .map(|h| h.name.as_str())
        .collect();
    names.sort();
    assert_eq!(
        names,
        [
            "discover-variables.topo",
            "generate-patches.topo",
            "validate-topology.topo"
        ]
    );

    let response = client
        .call_extension(
            "discover-variables.topo",
            &DiscoverVariablesRequest::default(),
            &ForObject::new("default", "my-class"),
        )
        .await
        .unwrap();
    assert_eq!(response.status, ResponseStatus::Success);
    assert_eq!(response.variables.len(), 1);
    let variable = &response.variables[0];
    assert_eq!(variable.name, topology::IMAGE_REPOSITORY);
    assert_eq!(variable.required, Some(false));
    let schema = &variable.schema.open_apiv3_schema;
    assert_eq!(schema.r#type, "string");
    assert_eq!(
        schema.default.as_ref().map(|d| d.as_json()),
        Some("\"registry.k8s.io\"")
    );
    server.shutdown().await.unwrap();
}

#[tokio::test]
async fn variables_declared_as_types_are_discovered_and_read() {
    let certs = pki::certs();
    let (server, client, _) = start_and_discover(
        variables::register(builder(&certs)).build().unwrap(),
        "vars",
        &certs,
    )
    .await;
    let for_class = ForObject::new("default", "my-class");
    let response = client
        .call_extension(
            "discover-variables.vars",
            &DiscoverVariablesRequest::default(),
            &for_class,
        )
        .await
        .unwrap();
    assert_eq!(response.status, ResponseStatus::Success);
    let [variable] = response.variables.as_slice() else {
        panic!("one variable: {:?}", response.variables);
    };
    assert_eq!(variable.name, "registry");
    assert_eq!(variable.required, Some(true));
    let schema = &variable.schema.open_apiv3_schema;
    assert_eq!(schema.required, ["host"]);
    assert_eq!(schema.properties["port"].maximum, Some(65535));
    assert_eq!(
        schema.properties["mirrors"]
            .items
            .as_ref()
            .unwrap()
            .description,
        "Another registry holding the same images."
    );

    let patches = |registry: serde_json::Value| {
        serde_json::from_value::<GeneratePatchesRequest>(json!({
            "variables": [{ "name": "registry", "value": registry }],
            "items": [{
                "uid": "1",
                "holderReference": { "apiVersion": "cluster.x-k8s.io/v1beta2", "kind": "MachineDeployment",
                                     "namespace": "default", "name": "md-0", "fieldPath": "spec.infrastructureRef" },
                "object": { "apiVersion": "infrastructure.cluster.x-k8s.io/v1beta2",
                            "kind": "DockerMachineTemplate", "spec": {} },
            }],
        }))
        .unwrap()
    };
    let call = |request: GeneratePatchesRequest| {
        let client = &client;
        let for_class = &for_class;
        async move {
            client
                .call_extension("generate-patches.vars", &request, for_class)
                .await
        }
    };
    let response = call(patches(json!({ "host": "registry.example.com" })))
        .await
        .unwrap();
    let patch: serde_json::Value = serde_json::from_slice(&response.items[0].patch.0).unwrap();
    assert_eq!(
        patch,
        json!([{ "op": "add", "path": "/spec/template",
                 "value": { "spec": { "customImage": "registry.example.com:443/node" } } }])
    );
    // A value Cluster API would have refused: the Failure names the variable and the field.
    let error = call(patches(
        json!({ "host": "registry.example.com", "port": "https" }),
    ))
    .await
    .unwrap_err();
    assert!(
        error.to_string().contains(
            "invalid value of variable \"registry\" at registry.port: invalid type: string \"https\""
        ),
        "{error}"
    );
    server.shutdown().await.unwrap();
}

const DISCOVERY_PATH: &str = "/hooks.runtime.cluster.x-k8s.io/v1alpha1/discovery";

/// A client as plain rustls makes one, webpki's verifier with `ca_pem` as its only roots: how
/// tools other than this SDK's client treat a caBundle.
fn webpki_client(ca_pem: &str) -> capi_runtime::reqwest::Client {
    use capi_runtime::rustls;
    use rustls::pki_types::CertificateDer;
    use rustls::pki_types::pem::PemObject;
    let mut roots = rustls::RootCertStore::empty();
    for cert in CertificateDer::pem_slice_iter(ca_pem.as_bytes()) {
        roots.add(cert.unwrap()).unwrap();
    }
    let provider = capi_runtime::tls::crypto_provider();
    let config = rustls::ClientConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .unwrap()
        .with_root_certificates(roots)
        .with_no_client_auth();
    capi_runtime::reqwest::Client::builder()
        .use_preconfigured_tls(config)
        .build()
        .unwrap()
}

/// Serves the quickstart with `tls.crt`/`tls.key` of `cert_dir` on `localhost`, and calls its
/// Discovery with this SDK's client and with a plain rustls client, both trusting `ca_pem`.
/// Returns the plain client's error, if any; this SDK's client must succeed.
async fn served_to_both_clients(
    cert_dir: &std::path::Path,
    ca_pem: &str,
) -> Option<capi_runtime::reqwest::Error> {
    let server = quickstart::server(cert_dir, 0)
        .unwrap()
        .start()
        .await
        .unwrap();
    let url = format!("https://localhost:{}", server.local_addr().port());
    let config = client::extension_config("local", &url, ca_pem.as_bytes());
    let discovered = client::discover_and_register(&client(), &config)
        .await
        .unwrap();
    assert_eq!(discovered.status.handlers[0].name, "check-name.local");
    let plain = webpki_client(ca_pem)
        .post(format!("{url}{DISCOVERY_PATH}"))
        .header("content-type", "application/json")
        .body(
            r#"{"apiVersion":"hooks.runtime.cluster.x-k8s.io/v1alpha1","kind":"DiscoveryRequest"}"#,
        )
        .send()
        .await;
    server.shutdown().await.unwrap();
    match plain {
        Ok(answer) => {
            assert_eq!(answer.status(), 200);
            None
        }
        Err(error) => Some(error),
    }
}

#[tokio::test]
async fn a_self_signed_ca_certificate_fails_plain_rustls_with_ca_used_as_end_entity() {
    // CA:FALSE, as the book's recipe makes it: both clients trust it.
    let certs = pki::self_signed();
    let error = served_to_both_clients(certs.dir.path(), &certs.ca_pem).await;
    assert!(error.is_none(), "{error:?}");

    // CA:TRUE, as `openssl req -x509` makes it by default: this SDK's client trusts it (as
    // Go's does), webpki refuses a CA as the server's own certificate.
    let certs = pki::self_signed_ca();
    let error = served_to_both_clients(certs.dir.path(), &certs.ca_pem)
        .await
        .expect("webpki refuses a CA:TRUE serving certificate");
    let text = capi_runtime::go::errors::chain(&error).to_string();
    assert!(text.contains("CaUsedAsEndEntity"), "{text}");
}

/// Runs a block of shell commands of the book in `dir`, as a reader pastes them.
fn run_shell(dir: &std::path::Path, commands: &str) {
    let output = std::process::Command::new("bash")
        .args(["-eu", "-c", commands])
        .current_dir(dir)
        .output()
        .expect("bash runs");
    assert!(
        output.status.success(),
        "{commands}\nfailed: {}",
        String::from_utf8_lossy(&output.stderr)
    );
}

#[tokio::test]
#[cfg_attr(
    not(feature = "external-tests"),
    ignore = "runs openssl, as `cargo xtask test` does (feature external-tests)"
)]
async fn the_books_openssl_commands_make_certificates_every_client_trusts() {
    let samples = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));

    // "Run it locally": the first paragraph of sh/local.sh, one self-signed certificate that
    // is its own caBundle.
    let local = std::fs::read_to_string(samples.join("sh/local.sh")).unwrap();
    let commands = local.split("\n\n").next().unwrap();
    assert!(commands.contains("openssl req"), "{commands}");
    let dir = tempfile::tempdir().unwrap();
    run_shell(dir.path(), commands);
    let certs = dir.path().join("out/certs");
    let ca_pem = std::fs::read_to_string(certs.join("tls.crt")).unwrap();
    let error = served_to_both_clients(&certs, &ca_pem).await;
    assert!(error.is_none(), "{error:?}");

    // Troubleshooting: a CA and a serving certificate it signs, the first `sh` block of the
    // CaUsedAsEndEntity section.
    let page = std::fs::read_to_string(samples.join("../src/troubleshooting.md")).unwrap();
    let section = page
        .split("### A self-signed certificate")
        .nth(1)
        .expect("the section");
    let commands = section
        .split("```sh\n")
        .nth(1)
        .and_then(|block| block.split("```").next())
        .expect("an sh block");
    let dir = tempfile::tempdir().unwrap();
    run_shell(dir.path(), commands);
    let ca_pem = std::fs::read_to_string(dir.path().join("ca.crt")).unwrap();
    let error = served_to_both_clients(dir.path(), &ca_pem).await;
    assert!(error.is_none(), "{error:?}");
}

/// The book's own hook is served like Cluster API's: `handle` tells TakeBackup from the
/// handler's request type, and so does the in-process call.
#[tokio::test]
async fn the_own_hook_is_served_by_its_request_type() {
    use capi_runtime_book_samples::hooks::{TakeBackupRequest, server_builder};

    let server = server_builder().build().unwrap();
    assert_eq!(
        server.discovery().handlers[0].request_hook.hook,
        "TakeBackup"
    );
    let request = TakeBackupRequest {
        namespace: "ns".into(),
        cluster_name: "c1".into(),
        ..Default::default()
    };
    let answer = server
        .in_process()
        .call("take-backup", &request)
        .await
        .unwrap();
    assert_eq!(answer.status, ResponseStatus::Success);
    assert_eq!(answer.backup_name, "ns-c1");
}
