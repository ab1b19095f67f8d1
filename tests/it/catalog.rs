//! The catalog with the built-in hooks and with the test hooks of two versions.

use crate::support;

use capi_runtime::catalog::{CatalogError, HookId, gvh_to_path};
use capi_runtime::hooks::v1alpha1 as hooks;
use capi_runtime::{Catalog, Hook, HookResponse, Message};
use support::test_hooks::{self, v1alpha1, v1alpha2};

#[test]
fn builtin_catalog_has_all_17_hooks() {
    let catalog = capi_runtime::hooks::catalog();
    assert_eq!(catalog.hooks().count(), 17);
    let gvh = HookId::new(hooks::GROUP, hooks::VERSION, "BeforeClusterCreate");
    assert!(catalog.is_registered(&gvh));
    let d = catalog.hook(&gvh).unwrap();
    assert_eq!(d.request_kind, "BeforeClusterCreateRequest");
    assert_eq!(d.response_kind, "BeforeClusterCreateResponse");
    assert!(d.retryable);
    assert!(
        !catalog
            .hook(&HookId::of::<hooks::AfterControlPlaneInitialized>())
            .unwrap()
            .retryable
    );
    assert!(
        catalog
            .hook(&HookId::of::<hooks::AfterClusterUpgrade>())
            .unwrap()
            .retryable
    );
    assert!(catalog.is_request_of::<hooks::BeforeClusterCreateRequest>(&gvh));
    assert!(!catalog.is_request_of::<hooks::BeforeClusterDeleteRequest>(&gvh));
    assert!(catalog.is_response_of::<hooks::BeforeClusterCreateResponse>(&gvh));
}

#[test]
fn paths_follow_the_upstream_format() {
    let discovery = HookId::of::<hooks::Discovery>();
    assert_eq!(
        gvh_to_path(&discovery, ""),
        "/hooks.runtime.cluster.x-k8s.io/v1alpha1/discovery"
    );
    let gvh = HookId::of::<hooks::BeforeClusterCreate>();
    assert_eq!(
        gvh_to_path(&gvh, "My-Handler"),
        "/hooks.runtime.cluster.x-k8s.io/v1alpha1/beforeclustercreate/my-handler"
    );
    assert_eq!(
        gvh_to_path(&gvh, "{name}"),
        "/hooks.runtime.cluster.x-k8s.io/v1alpha1/beforeclustercreate/{name}"
    );
    // Group and version are kept as they are.
    let odd = HookId::new("Example.COM", "V1", "Hook");
    assert_eq!(gvh_to_path(&odd, ""), "/Example.COM/V1/hook");
}

#[test]
fn gvh_display_and_parsing() {
    let gvh = HookId::of::<hooks::BeforeClusterCreate>();
    assert_eq!(
        gvh.to_string(),
        "hooks.runtime.cluster.x-k8s.io/v1alpha1, Hook=BeforeClusterCreate"
    );
    assert_eq!(
        gvh.group_hook().to_string(),
        "BeforeClusterCreate.hooks.runtime.cluster.x-k8s.io"
    );
    assert_eq!(gvh.api_version(), hooks::API_VERSION);
    assert_eq!(
        HookId::from_api_version("hooks.runtime.cluster.x-k8s.io/v1alpha1", "Discovery"),
        Some(HookId::of::<hooks::Discovery>())
    );
    for bad in ["", "v1alpha1", "/v1", "g/", "g/v/x"] {
        assert_eq!(HookId::from_api_version(bad, "X"), None, "{bad:?}");
    }
    assert!(HookId::default().is_empty());
}

// Which test responses carry `retryAfterSeconds`.
const _: () = assert!(v1alpha1::RetryableFakeResponse::RETRYABLE);
const _: () = assert!(!v1alpha1::FakeResponse::RETRYABLE);

#[test]
fn test_hooks_register_in_both_versions() {
    let catalog = test_hooks::catalog();
    for (gvh, kind) in [
        (HookId::of::<v1alpha1::FakeHook>(), "v1alpha1"),
        (HookId::of::<v1alpha2::FakeHook>(), "v1alpha2"),
    ] {
        assert_eq!(gvh.hook, "FakeHook");
        assert_eq!(gvh.version, kind);
        let d = catalog.hook(&gvh).unwrap();
        assert_eq!(d.request_kind, "FakeRequest");
        assert_eq!(d.response_kind, "FakeResponse");
        assert!(d.meta.deprecated);
        assert_eq!(d.meta.tags, ["fake-tag"]);
    }
    assert_eq!(
        catalog
            .group_version_hook::<v1alpha2::FakeHook>()
            .unwrap()
            .version,
        "v1alpha2"
    );
    // A v1alpha1 message does not belong to the v1alpha2 hook.
    let v2 = HookId::of::<v1alpha2::FakeHook>();
    assert!(!catalog.is_request_of::<v1alpha1::FakeRequest>(&v2));
    assert!(catalog.is_request_of::<v1alpha2::FakeRequest>(&v2));
}

#[test]
fn conversions_go_through_the_catalog() {
    let catalog = test_hooks::catalog();
    let mut request = v1alpha2::FakeRequest::default();
    request.cluster.metadata.name = Some("test".into());
    request.second = "foo".into();
    request.first = 1;
    let down: v1alpha1::FakeRequest = catalog.convert(&request).unwrap();
    assert_eq!(down.cluster.metadata.name.as_deref(), Some("test"));
    assert_eq!((down.first, down.second.as_str()), (1, "foo"));
    let response = v1alpha1::FakeResponse {
        first: 1,
        second: "foo".into(),
        ..Default::default()
    };
    let up: v1alpha2::FakeResponse = catalog.convert(&response).unwrap();
    assert_eq!((up.first, up.second.as_str()), (1, "foo"));
    // Round trip.
    let back: v1alpha1::FakeResponse = catalog.convert(&up).unwrap();
    assert_eq!(back, response);
    // No conversion between unrelated types.
    let err =
        catalog.convert::<v1alpha1::SecondFakeRequest, v1alpha2::FakeRequest>(&Default::default());
    assert!(
        matches!(err, Err(CatalogError::NoConversion { .. })),
        "{err:?}"
    );
}

#[test]
fn test_hook_messages_keep_capitalized_field_names() {
    let mut r = v1alpha1::FakeRequest::default();
    r.set_type_meta("test.runtime.cluster.x-k8s.io/v1alpha1", "FakeRequest");
    r.first = 2;
    let json = serde_json::to_value(&r).unwrap();
    assert_eq!(json["First"], 2);
    assert_eq!(json["Second"], "");
    assert!(json.get("Cluster").is_some());
    assert_eq!(json["kind"], "FakeRequest");
    let retry = v1alpha1::RetryableFakeResponse {
        retry_after_seconds: 5,
        ..Default::default()
    };
    assert_eq!(
        serde_json::to_value(&retry).unwrap()["retryAfterSeconds"],
        5
    );
}

mod conflicts {
    use super::*;

    /// Another type that claims FakeHook's GVH.
    #[derive(capi_runtime::Hook)]
    #[hook(
        group = "test.runtime.cluster.x-k8s.io",
        version = "v1alpha1",
        name = "FakeHook",
        request = v1alpha1::SecondFakeRequest,
        response = v1alpha1::SecondFakeResponse,
        shared_request
    )]
    pub struct Impostor;

    /// A hook whose request kind is taken by another type in the same version.
    #[derive(capi_runtime::Hook)]
    #[hook(
        group = "test.runtime.cluster.x-k8s.io",
        version = "v1alpha2",
        name = "Other",
        request = super::v1alpha1::FakeRequest,
        response = v1alpha2::FakeResponse,
        shared_request
    )]
    pub struct KindThief;

    #[test]
    fn registering_twice_is_idempotent_and_conflicts_are_errors() {
        let mut catalog = test_hooks::catalog();
        assert!(catalog.register::<v1alpha1::FakeHook>().is_ok());
        let err = catalog.register::<Impostor>().map(|_| ()).unwrap_err();
        assert!(matches!(err, CatalogError::DuplicateHook { .. }), "{err}");
        let err = catalog.register::<KindThief>().map(|_| ()).unwrap_err();
        assert!(matches!(err, CatalogError::DuplicateKind { .. }), "{err}");
        assert!(!catalog.is_registered(&HookId::of::<KindThief>()));
    }
}

#[test]
fn unknown_hooks_are_errors() {
    let catalog = Catalog::new();
    let gvh = HookId::of::<hooks::BeforeClusterCreate>();
    assert!(matches!(
        catalog.hook(&gvh).unwrap_err(),
        CatalogError::UnknownHook(unknown) if unknown == gvh
    ));
    assert!(catalog.group_version_hook::<hooks::Discovery>().is_err());
}

#[test]
fn response_helpers() {
    let r = hooks::BeforeClusterCreateResponse::failure("nope");
    assert_eq!(r.status, hooks::ResponseStatus::Failure);
    assert_eq!(r.message(), "nope");
    let mut ok = hooks::AfterControlPlaneInitializedResponse::success();
    assert!(!ok.set_retry_after_seconds(3));
    assert_eq!(ok.retry_after_seconds(), None);
    let mut retry = hooks::BeforeClusterCreateResponse::success();
    assert!(retry.set_retry_after_seconds(3));
    assert_eq!(retry.retry_after_seconds(), Some(3));
    assert_eq!(hooks::BeforeClusterCreate::API_VERSION, hooks::API_VERSION);
}
