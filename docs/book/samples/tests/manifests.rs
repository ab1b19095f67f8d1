//! The deployment manifests the book includes are checked by a real kube-apiserver (the
//! workspace's test control plane): every object of `examples/test-extension/config/` and the
//! manager's webhook configurations (`manager/config/webhook/`) are applied with server-side
//! apply in dry-run mode and strict field validation, and the CRD's conversion patch
//! (`manager/config/crd/`) is applied to the installed CRD in dry-run mode; so is the
//! manager's own deployment (`manager/config/manager/`: namespace, RBAC, certificate,
//! Deployment, Service). Namespaces are
//! created for real first, since dry-run objects in a missing namespace are refused. The
//! cert-manager kinds are served by a minimal stand-in CRD (`tests/manifests/`), named as such.
//! `golden/manager/install.yaml` (the manager in one file, written by `cargo xtask codegen`) is
//! applied whole the same way, with its image placeholder set. A misspelt field is shown to be
//! rejected, so the check can fail.

use std::path::{Path, PathBuf};

use capi_runtime_testenv::{TestEnv, shared};
use kube::Client;
use kube::api::{Api, DynamicObject, GroupVersionKind, Patch, PatchParams};
use kube::core::params::ValidationDirective;
use kube::discovery::{Scope, pinned_kind};
use serde_json::Value;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../..")
}

fn env() -> &'static TestEnv {
    shared("book-manifests", |b| {
        b.crd(root().join("golden/sdk/crd/runtime.cluster.x-k8s.io_extensionconfigs.yaml"))
            .crd(
                Path::new(env!("CARGO_MANIFEST_DIR"))
                    .join("tests/manifests/cert-manager-standin-crds.yaml"),
            )
    })
}

/// The YAML documents of the files of `dir`, sorted by file name.
fn documents(dir: &Path) -> Vec<(String, Value)> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "yaml"))
        .collect();
    files.sort();
    assert!(!files.is_empty(), "no manifests in {}", dir.display());
    let mut docs = Vec::new();
    for file in files {
        let text = std::fs::read_to_string(&file).unwrap();
        let parsed: Vec<Value> = serde_saphyr::from_multiple(&text).unwrap();
        for doc in parsed.into_iter().filter(|d| !d.is_null()) {
            docs.push((
                file.file_name().unwrap().to_string_lossy().into_owned(),
                doc,
            ));
        }
    }
    docs
}

/// Server-side applies `doc` (dry-run unless `for_real`), strictly validated.
async fn apply(client: &Client, doc: &Value, for_real: bool) -> Result<(), kube::Error> {
    let object: DynamicObject = serde_json::from_value(doc.clone()).unwrap();
    let types = object
        .types
        .clone()
        .expect("every manifest has apiVersion and kind");
    let (group, version) = types
        .api_version
        .split_once('/')
        .unwrap_or(("", types.api_version.as_str()));
    let gvk = GroupVersionKind::gvk(group, version, &types.kind);
    let (resource, capabilities) = pinned_kind(client, &gvk).await?;
    let api: Api<DynamicObject> = match capabilities.scope {
        Scope::Namespaced => Api::namespaced_with(
            client.clone(),
            object
                .metadata
                .namespace
                .as_deref()
                .expect("namespaced objects name their namespace"),
            &resource,
        ),
        Scope::Cluster => Api::all_with(client.clone(), &resource),
    };
    let mut params = PatchParams::apply("book-manifests").validation(ValidationDirective::Strict);
    if !for_real {
        params = params.dry_run();
    }
    let name = object
        .metadata
        .name
        .clone()
        .expect("every manifest has a name");
    api.patch(&name, &params, &Patch::Apply(doc))
        .await
        .map(|_| ())
}

async fn apply_all(client: &Client, docs: &[(String, Value)]) {
    for (file, doc) in docs.iter().filter(|(_, d)| d["kind"] == "Namespace") {
        apply(client, doc, true)
            .await
            .unwrap_or_else(|e| panic!("{file}: namespace: {e}"));
    }
    for (file, doc) in docs.iter().filter(|(_, d)| d["kind"] != "Namespace") {
        apply(client, doc, false)
            .await
            .unwrap_or_else(|e| panic!("{file}: {} {}: {e}", doc["kind"], doc["metadata"]["name"]));
    }
}

#[tokio::test]
async fn the_example_extension_manifests_are_accepted_and_typos_are_not() {
    let client = env().client().await.unwrap();
    let docs = documents(&root().join("examples/test-extension/config"));
    let kinds: Vec<&str> = docs
        .iter()
        .map(|(_, d)| d["kind"].as_str().unwrap())
        .collect();
    for kind in [
        "Namespace",
        "ServiceAccount",
        "ConfigMap",
        "Issuer",
        "Certificate",
        "Deployment",
        "Service",
        "ExtensionConfig",
    ] {
        assert!(kinds.contains(&kind), "no {kind} among {kinds:?}");
    }
    apply_all(&client, &docs).await;

    // The same objects with one misspelt field each are refused.
    for (kind, pointer, field) in [
        ("Deployment", "/spec", "replica"),
        ("Certificate", "/spec", "dnsName"),
        ("ExtensionConfig", "/spec/clientConfig", "services"),
    ] {
        let (_, doc) = docs.iter().find(|(_, d)| d["kind"] == kind).unwrap();
        let mut typo = doc.clone();
        typo.pointer_mut(pointer)
            .unwrap()
            .as_object_mut()
            .unwrap()
            .insert(field.into(), Value::from(1));
        let error = apply(&client, &typo, false).await.expect_err(kind);
        assert!(error.to_string().contains(field), "{kind}: {error}");
    }
}

#[tokio::test]
async fn the_manager_deployment_manifests_are_accepted() {
    let client = env().client().await.unwrap();
    let docs = documents(&root().join("manager/config/manager"));
    let kinds: Vec<&str> = docs
        .iter()
        .map(|(_, d)| d["kind"].as_str().unwrap())
        .collect();
    for kind in [
        "Namespace",
        "ServiceAccount",
        "ClusterRole",
        "ClusterRoleBinding",
        "Role",
        "RoleBinding",
        "Issuer",
        "Certificate",
        "Deployment",
        "Service",
    ] {
        assert!(kinds.contains(&kind), "no {kind} among {kinds:?}");
    }
    apply_all(&client, &docs).await;
    // The Service is the one the webhook configurations call.
    let service = docs.iter().find(|(_, d)| d["kind"] == "Service").unwrap();
    let webhooks = documents(&root().join("manager/config/webhook"));
    for (_, webhook) in &webhooks {
        for hook in webhook["webhooks"].as_array().unwrap() {
            let target = &hook["clientConfig"]["service"];
            assert_eq!(target["name"], service.1["metadata"]["name"]);
            assert_eq!(target["namespace"], service.1["metadata"]["namespace"]);
        }
    }
}

#[tokio::test]
async fn the_manager_webhook_and_conversion_manifests_are_accepted() {
    let client = env().client().await.unwrap();
    let webhooks = documents(&root().join("manager/config/webhook"));
    assert!(
        webhooks
            .iter()
            .any(|(_, d)| d["kind"] == "ValidatingWebhookConfiguration")
    );
    apply_all(&client, &webhooks).await;

    let patch_file = root().join("manager/config/crd/webhook_in_extensionconfigs.yaml");
    let patch: Value =
        serde_saphyr::from_str(&std::fs::read_to_string(&patch_file).unwrap()).unwrap();
    let crds: Api<k8s_openapi::apiextensions_apiserver::pkg::apis::apiextensions::v1::CustomResourceDefinition> =
        Api::all(client.clone());
    let params = PatchParams {
        dry_run: true,
        ..Default::default()
    }
    .validation(ValidationDirective::Strict);
    let patched = crds
        .patch(
            "extensionconfigs.runtime.cluster.x-k8s.io",
            &params,
            &Patch::Merge(&patch),
        )
        .await
        .unwrap();
    let conversion = patched.spec.conversion.expect("conversion set");
    assert_eq!(conversion.strategy, "Webhook");
}

#[tokio::test]
async fn the_manager_install_file_is_accepted_whole_once_its_image_is_set() {
    let client = env().client().await.unwrap();
    let text = std::fs::read_to_string(root().join("golden/manager/install.yaml")).unwrap();
    // What `envsubst '$CAPI_RUNTIME_MANAGER_IMAGE'` does: the file's one `${...}`.
    assert_eq!(text.matches("${").count(), 1, "one placeholder");
    let text = text.replace(
        "${CAPI_RUNTIME_MANAGER_IMAGE}",
        "registry.example/capi-runtime-manager:v0.1.0",
    );
    let docs: Vec<(String, Value)> = serde_saphyr::from_multiple::<Value>(&text)
        .unwrap()
        .into_iter()
        .filter(|d| !d.is_null())
        .map(|d| ("install.yaml".to_string(), d))
        .collect();
    let kinds: Vec<&str> = docs
        .iter()
        .map(|(_, d)| d["kind"].as_str().unwrap())
        .collect();
    assert_eq!(
        kinds[..2],
        ["Namespace", "CustomResourceDefinition"],
        "{kinds:?}"
    );
    for kind in [
        "ClusterRole",
        "Deployment",
        "Service",
        "MutatingWebhookConfiguration",
        "ValidatingWebhookConfiguration",
    ] {
        assert!(kinds.contains(&kind), "no {kind} among {kinds:?}");
    }
    let crd = &docs[1].1;
    assert_eq!(crd["spec"]["conversion"]["strategy"], "Webhook");
    apply_all(&client, &docs).await;

    // The same file with a misspelt field in the Deployment is refused.
    let (_, deployment) = docs
        .iter()
        .find(|(_, d)| d["kind"] == "Deployment")
        .unwrap();
    let mut typo = deployment.clone();
    typo["spec"]["template"]["spec"]["containers"][0]
        .as_object_mut()
        .unwrap()
        .insert("imagePullPolicyy".into(), Value::from("Always"));
    let error = apply(&client, &typo, false)
        .await
        .expect_err("a misspelt field");
    assert!(error.to_string().contains("imagePullPolicyy"), "{error}");
}
