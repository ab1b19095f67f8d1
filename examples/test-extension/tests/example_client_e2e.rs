//! End to end with the runtime client: the example extension over TLS on loopback, driven by
//! `capi_runtime::client` as Cluster API's controllers would drive it: Discovery, registration,
//! a blocking hook that holds the Cluster back as the scripted file says, then Success once the
//! file changes; a topology hook called by handler name; a scripted Failure under both failure
//! policies; and a graceful shutdown.

mod started;

use std::collections::BTreeMap;
use std::future::Future;
use std::time::Duration;

use capi_runtime::api::runtime::v1beta2::{
    ClientConfig, ExtensionConfig, ExtensionConfigSpec, FailurePolicy,
};
use capi_runtime::client::{CallAllOptions, CallError, Client, ForObject};
use capi_runtime::hooks::v1alpha1::{
    BeforeClusterCreate, BeforeClusterCreateRequest, BeforeClusterDeleteRequest,
    DiscoverVariablesRequest, ResponseStatus,
};
use capi_runtime::k8s_openapi::ByteString;
use capi_runtime::k8s_openapi::apimachinery::pkg::apis::meta::v1 as metav1;
use capi_runtime::registry::{Registry, RegistryError};
use capi_runtime_test_pki::write_atomically;
use capi_test_extension::lifecycle::{BLOCKING_SETTING, DEFAULT_BLOCKING_RETRY_SECONDS};
use capi_test_extension::{HANDLERS, topology};

/// The apiVersion of the built-in hooks.
const HOOKS: &str = "hooks.runtime.cluster.x-k8s.io/v1alpha1";
/// The ExtensionConfig the extension is registered with (the sample ClusterClass refers to it).
const EXTENSION: &str = "test-extension";
/// A second ExtensionConfig for the same extension, whose handlers are set to `Ignore`.
const IGNORING: &str = "test-extension-ignore";
/// The namespace of the Cluster the hooks are called for.
const NAMESPACE: &str = "e2e-ns";
/// How many times a changed responses file is waited for, 50 ms apart.
const POLLS: usize = 200;

/// An ExtensionConfig as an operator would write it (the namespace selector defaulted to
/// everything, as Cluster API's webhook does), before discovery.
fn extension_config(name: &str, url: &str, ca_pem: &str) -> ExtensionConfig {
    let spec = ExtensionConfigSpec {
        client_config: ClientConfig {
            url: url.into(),
            ca_bundle: ByteString(ca_pem.as_bytes().to_vec()),
            ..Default::default()
        },
        namespace_selector: Some(metav1::LabelSelector::default()),
        settings: BTreeMap::new(),
    };
    let mut config = ExtensionConfig::new(name, spec);
    config.metadata.resource_version = Some("1".into());
    config
}

fn cluster() -> ForObject {
    ForObject::new(NAMESPACE, "c1")
}

fn create_request() -> BeforeClusterCreateRequest {
    let mut request = BeforeClusterCreateRequest::default();
    request.cluster.metadata.name = Some("c1".into());
    request.cluster.metadata.namespace = Some(NAMESPACE.into());
    request
}

fn delete_request() -> BeforeClusterDeleteRequest {
    let mut request = BeforeClusterDeleteRequest::default();
    request.cluster.metadata.name = Some("c1".into());
    request.cluster.metadata.namespace = Some(NAMESPACE.into());
    request
}

/// Calls `call` until `done` accepts its result or the polls run out; returns the last result.
/// The extension re-reads the responses file every 50 ms, so a rewritten file shows after a few
/// calls; only the number of attempts is bounded, nothing is timed.
async fn poll_until<T, F, Fut>(mut call: F, done: impl Fn(&T) -> bool) -> T
where
    F: FnMut() -> Fut,
    Fut: Future<Output = T>,
{
    let mut result = call().await;
    for _ in 0..POLLS {
        if done(&result) {
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
        result = call().await;
    }
    result
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn client_discovers_registers_and_calls_the_example_extension() {
    // The extension, with TLS on loopback and BeforeClusterCreate scripted to block.
    let started = started::Started::new("client-e2e-ca", "BeforeClusterCreate-preloadedResponse: '{\"Status\": \"Success\", \"RetryAfterSeconds\": 5, \"Message\": \"hold on\"}'\n").await;
    let port = started.port();
    // `_dir` keeps the certificate and script files until the end of the test.
    let started::Started {
        dir: _dir,
        ca,
        responses,
        record,
        watcher,
        running,
    } = started;
    let url = format!("https://127.0.0.1:{}", port);

    // The client, over a registry that is not warmed up yet.
    let registry = Registry::new();
    let client = Client::builder()
        .registry(registry.clone())
        .build()
        .unwrap();
    assert!(!client.is_ready());
    let cold = client
        .call_all_extensions_with(&create_request(), &cluster(), CallAllOptions::sequential())
        .await
        .unwrap_err();
    assert!(
        matches!(
            &cold,
            CallError::List {
                source: RegistryError::ListNotReady { .. },
                ..
            }
        ),
        "{cold}"
    );

    // Discovery: every handler of the example under `<handler>.<extensionconfig>`, with Cluster
    // API's defaults since the example declares no timeout or failure policy.
    let config = extension_config(EXTENSION, &url, &ca.pem());
    let discovered = client.discover(&config).await.unwrap();
    assert!(
        config.status.handlers.is_empty(),
        "the input is not changed"
    );
    assert_eq!(discovered.spec, config.spec);
    assert_eq!(discovered.metadata, config.metadata);
    let mut listed: Vec<(String, String, String, i32, Option<FailurePolicy>)> = discovered
        .status
        .handlers
        .iter()
        .map(|h| {
            (
                h.name.clone(),
                h.request_hook.api_version.clone(),
                h.request_hook.hook.clone(),
                h.timeout_seconds,
                h.failure_policy,
            )
        })
        .collect();
    listed.sort_by(|a, b| a.0.cmp(&b.0));
    let mut expected: Vec<(String, String, String, i32, Option<FailurePolicy>)> = HANDLERS
        .iter()
        .map(|(hook, name)| {
            (
                format!("{name}.{EXTENSION}"),
                HOOKS.to_string(),
                hook.to_string(),
                10,
                Some(FailurePolicy::Fail),
            )
        })
        .collect();
    expected.sort_by(|a, b| a.0.cmp(&b.0));
    assert_eq!(listed, expected);

    // Registration, as the ExtensionConfig controller does it: warm up, then add.
    assert!(matches!(
        client.register(&discovered),
        Err(RegistryError::AddNotReady { .. })
    ));
    client.warm_up(&[]).unwrap();
    assert!(client.is_ready() && registry.is_ready());
    client.register(&discovered).unwrap();
    assert_eq!(
        client
            .get_all_extensions::<BeforeClusterCreate>(&cluster())
            .unwrap(),
        [format!("before-cluster-create.{EXTENSION}")]
    );

    // The blocking hook holds the Cluster back as scripted, in both calling modes.
    for options in [CallAllOptions::sequential(), CallAllOptions::concurrent(4)] {
        let blocked = client
            .call_all_extensions_with(&create_request(), &cluster(), options)
            .await
            .unwrap();
        assert_eq!(blocked.status, ResponseStatus::Success);
        assert_eq!(blocked.retry_after_seconds, 5);
        assert_eq!(blocked.message, "hold on");
    }
    let recorded = std::fs::read_to_string(&record).unwrap();
    assert!(recorded.contains("RetryAfterSeconds: 5"), "{recorded}");

    // Unblock through the file; the extension picks the change up on one of its next polls.
    write_atomically(
        &responses,
        "BeforeClusterCreate-preloadedResponse:\n  status: Success\n  retryAfterSeconds: 0\n",
    );
    let unblocked = poll_until(
        || async {
            client
                .call_all_extensions_with(
                    &create_request(),
                    &cluster(),
                    CallAllOptions::sequential(),
                )
                .await
        },
        |r| matches!(r, Ok(r) if r.retry_after_seconds == 0),
    )
    .await
    .unwrap();
    assert_eq!(unblocked.status, ResponseStatus::Success);
    assert_eq!(unblocked.retry_after_seconds, 0);
    assert_eq!(unblocked.message, "");

    // A topology hook, called by handler name: the variables the example declares, intact.
    let variables = client
        .call_extension(
            &format!("discover-variables.{EXTENSION}"),
            &DiscoverVariablesRequest::default(),
            &cluster(),
        )
        .await
        .unwrap();
    assert_eq!(variables.status, ResponseStatus::Success);
    assert_eq!(variables.message, "");
    let names: Vec<&str> = variables
        .variables
        .iter()
        .map(|v| v.name.as_str())
        .collect();
    assert_eq!(
        names,
        [
            topology::MAX_SURGE,
            topology::FILES,
            topology::PRE_KUBEADM_COMMANDS,
            topology::CONFIG_TEMPLATE_ANNOTATIONS,
            topology::IMAGE_REPOSITORY,
        ]
    );
    assert_eq!(
        variables.variables,
        topology::discover_variables().variables
    );

    // A second ExtensionConfig for the same extension, its handlers set to Ignore and its
    // settings making unscripted blocking hooks block: the settings reach the extension.
    let mut ignoring = client
        .discover(&{
            let mut config = extension_config(IGNORING, &url, &ca.pem());
            config.spec.settings = BTreeMap::from([(BLOCKING_SETTING.into(), "true".into())]);
            config
        })
        .await
        .unwrap();
    assert_eq!(ignoring.status.handlers.len(), HANDLERS.len());
    for handler in &mut ignoring.status.handlers {
        assert!(
            handler.name.ends_with(&format!(".{IGNORING}")),
            "{handler:?}"
        );
        handler.failure_policy = Some(FailurePolicy::Ignore);
    }
    client.register(&ignoring).unwrap();
    let fail_handler = format!("before-cluster-create.{EXTENSION}");
    let ignore_handler = format!("before-cluster-create.{IGNORING}");
    for (name, retry) in [
        (format!("before-cluster-delete.{EXTENSION}"), 0),
        (
            format!("before-cluster-delete.{IGNORING}"),
            DEFAULT_BLOCKING_RETRY_SECONDS,
        ),
    ] {
        let answer = client
            .call_extension(&name, &delete_request(), &cluster())
            .await
            .unwrap();
        assert_eq!(answer.status, ResponseStatus::Success, "{name}");
        assert_eq!(answer.retry_after_seconds, retry, "{name}");
    }

    // A scripted Failure is an error under both failure policies.
    write_atomically(
        &responses,
        "BeforeClusterCreate-preloadedResponse:\n  Status: Failure\n  Message: not today\n",
    );
    let failed = poll_until(
        || async {
            client
                .call_extension(&fail_handler, &create_request(), &cluster())
                .await
        },
        Result::is_err,
    )
    .await
    .unwrap_err();
    for (name, err) in [
        (&fail_handler, failed),
        (
            &ignore_handler,
            client
                .call_extension(&ignore_handler, &create_request(), &cluster())
                .await
                .unwrap_err(),
        ),
    ] {
        assert!(
            matches!(
                &err,
                CallError::Failure { handler, message, .. }
                    if handler == name && message == "not today"
            ),
            "{err}"
        );
        assert_eq!(
            err.to_string(),
            format!(
                "failed to call extension handler \"{name}\": got failure response with message: not today"
            )
        );
        assert!(err.url().unwrap().starts_with(&url), "{err}");
    }
    // Calling every handler stops at the first failure in name order, whichever its policy.
    for options in [CallAllOptions::sequential(), CallAllOptions::concurrent(4)] {
        let err = client
            .call_all_extensions_with(&create_request(), &cluster(), options)
            .await
            .unwrap_err();
        assert_eq!(err.handler(), Some(fail_handler.as_str()), "{err}");
        assert!(
            matches!(err.root(), CallError::Failure { message, .. } if message == "not today"),
            "{err}"
        );
    }
    client.unregister(&discovered).unwrap();
    let err = client
        .call_all_extensions_with(&create_request(), &cluster(), CallAllOptions::sequential())
        .await
        .unwrap_err();
    assert_eq!(err.handler(), Some(ignore_handler.as_str()), "{err}");
    assert!(matches!(err.root(), CallError::Failure { .. }), "{err}");
    client.register(&discovered).unwrap();

    // Graceful shutdown. Afterwards nothing answers: an error under Fail, while Ignore turns
    // the communication error into Success.
    running.shutdown().await.unwrap();
    watcher.abort();
    let err = client
        .call_extension(&fail_handler, &create_request(), &cluster())
        .await
        .unwrap_err();
    assert!(
        matches!(&err, CallError::Exchange { source, .. } if source.is_calling_error()),
        "{err}"
    );
    let ignored = client
        .call_extension(&ignore_handler, &create_request(), &cluster())
        .await
        .unwrap();
    assert_eq!(ignored.status, ResponseStatus::Success);
    assert_eq!(ignored.retry_after_seconds, 0);
    assert_eq!(ignored.message, "");
    assert!(client.discover(&config).await.is_err());
}
