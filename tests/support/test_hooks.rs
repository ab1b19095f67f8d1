//! The test hooks of group `test.runtime.cluster.x-k8s.io` (upstream's
//! `internal/runtime/test`): FakeHook, SecondFakeHook and RetryableFakeHook in v1alpha1, and
//! FakeHook in v1alpha2, with conversions between the two FakeHook versions.
//!
//! Their fields `Cluster`, `Second` and `First` keep upstream's capitalized JSON names.

/// Version v1alpha1: three hooks, all deprecated.
pub mod v1alpha1 {
    use std::collections::BTreeMap;

    use capi_runtime::api::core::v1beta2::Cluster;
    use capi_runtime::hooks::v1alpha1::ResponseStatus;
    use capi_runtime::{Hook, Schema};
    use serde::{Deserialize, Serialize};

    /// A hook for tests.
    #[derive(Hook)]
    #[hook(
        group = "test.runtime.cluster.x-k8s.io",
        version = "v1alpha1",
        request = FakeRequest,
        response = FakeResponse,
        tags("fake-tag"),
        summary = "FakeHook summary",
        deprecated
    )]
    pub struct FakeHook;

    /// A second hook for tests.
    #[derive(Hook)]
    #[hook(
        group = "test.runtime.cluster.x-k8s.io",
        version = "v1alpha1",
        request = SecondFakeRequest,
        response = SecondFakeResponse,
        tags("fake-tag"),
        summary = "SecondFakeHook summary",
        deprecated
    )]
    pub struct SecondFakeHook;

    /// A blocking hook for tests.
    #[derive(Hook)]
    #[hook(
        group = "test.runtime.cluster.x-k8s.io",
        version = "v1alpha1",
        request = RetryableFakeRequest,
        response = RetryableFakeResponse,
        tags("fake-tag"),
        summary = "RetryableFakeHook summary",
        deprecated
    )]
    pub struct RetryableFakeHook;

    macro_rules! fake_request {
        ($name:ident) => {
            /// A test request.
            #[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, Schema)]
            #[schema(
                package = "sigs.k8s.io/cluster-api/internal/runtime/test/v1alpha1",
                request
            )]
            #[serde(default)]
            pub struct $name {
                /// apiVersion.
                #[serde(rename = "apiVersion", skip_serializing_if = "String::is_empty")]
                pub api_version: String,
                /// kind.
                #[serde(skip_serializing_if = "String::is_empty")]
                pub kind: String,
                /// Settings.
                #[serde(skip_serializing_if = "BTreeMap::is_empty")]
                pub settings: BTreeMap<String, String>,
                /// A Cluster.
                #[serde(rename = "Cluster")]
                pub cluster: Cluster,
                /// A string.
                #[serde(rename = "Second")]
                pub second: String,
                /// A number.
                #[serde(rename = "First")]
                pub first: i32,
            }
        };
    }
    fake_request!(FakeRequest);
    fake_request!(SecondFakeRequest);
    fake_request!(RetryableFakeRequest);

    macro_rules! fake_response {
        ($name:ident, $kind:ident $(, $retry:ident)?) => {
            /// A test response.
            #[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, Schema)]
            #[schema(package = "sigs.k8s.io/cluster-api/internal/runtime/test/v1alpha1", $kind)]
            #[serde(default)]
            pub struct $name {
                /// apiVersion.
                #[serde(rename = "apiVersion", skip_serializing_if = "String::is_empty")]
                pub api_version: String,
                /// kind.
                #[serde(skip_serializing_if = "String::is_empty")]
                pub kind: String,
                /// Outcome.
                pub status: ResponseStatus,
                /// Message.
                #[serde(skip_serializing_if = "String::is_empty")]
                pub message: String,
                $(
                    /// Retry after.
                    #[serde(rename = "retryAfterSeconds")]
                    pub $retry: i32,
                )?
                /// A string.
                #[serde(rename = "Second")]
                pub second: String,
                /// A number.
                #[serde(rename = "First")]
                pub first: i32,
            }
        };
    }
    fake_response!(FakeResponse, response);
    fake_response!(SecondFakeResponse, response);
    fake_response!(RetryableFakeResponse, retryable, retry_after_seconds);
}

/// Version v1alpha2: FakeHook only.
pub mod v1alpha2 {
    use std::collections::BTreeMap;

    use capi_runtime::api::core::v1beta2::Cluster;
    use capi_runtime::hooks::v1alpha1::ResponseStatus;
    use capi_runtime::{Hook, Schema};
    use serde::{Deserialize, Serialize};

    /// A hook for tests, in its newer version.
    #[derive(Hook)]
    #[hook(
        group = "test.runtime.cluster.x-k8s.io",
        version = "v1alpha2",
        request = FakeRequest,
        response = FakeResponse,
        tags("fake-tag"),
        summary = "FakeHook summary",
        deprecated
    )]
    pub struct FakeHook;

    /// A test request.
    #[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, Schema)]
    #[schema(
        package = "sigs.k8s.io/cluster-api/internal/runtime/test/v1alpha2",
        request
    )]
    #[serde(default)]
    pub struct FakeRequest {
        /// apiVersion.
        #[serde(rename = "apiVersion", skip_serializing_if = "String::is_empty")]
        pub api_version: String,
        /// kind.
        #[serde(skip_serializing_if = "String::is_empty")]
        pub kind: String,
        /// Settings.
        #[serde(skip_serializing_if = "BTreeMap::is_empty")]
        pub settings: BTreeMap<String, String>,
        /// A Cluster.
        #[serde(rename = "Cluster")]
        pub cluster: Cluster,
        /// A string.
        #[serde(rename = "Second")]
        pub second: String,
        /// A number.
        #[serde(rename = "First")]
        pub first: i32,
    }

    /// A test response.
    #[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, Schema)]
    #[schema(
        package = "sigs.k8s.io/cluster-api/internal/runtime/test/v1alpha2",
        response
    )]
    #[serde(default)]
    pub struct FakeResponse {
        /// apiVersion.
        #[serde(rename = "apiVersion", skip_serializing_if = "String::is_empty")]
        pub api_version: String,
        /// kind.
        #[serde(skip_serializing_if = "String::is_empty")]
        pub kind: String,
        /// Outcome.
        pub status: ResponseStatus,
        /// Message.
        #[serde(skip_serializing_if = "String::is_empty")]
        pub message: String,
        /// A string.
        #[serde(rename = "Second")]
        pub second: String,
        /// A number.
        #[serde(rename = "First")]
        pub first: i32,
    }
}

/// Hand-written conversions between the FakeHook versions (field by field).
pub mod conversion {
    use super::{v1alpha1, v1alpha2};

    /// v1alpha2 → v1alpha1 request (down).
    pub fn request_down(r: &v1alpha2::FakeRequest) -> v1alpha1::FakeRequest {
        v1alpha1::FakeRequest {
            api_version: r.api_version.clone(),
            kind: r.kind.clone(),
            settings: r.settings.clone(),
            cluster: r.cluster.clone(),
            second: r.second.clone(),
            first: r.first,
        }
    }

    /// v1alpha1 → v1alpha2 request (up).
    pub fn request_up(r: &v1alpha1::FakeRequest) -> v1alpha2::FakeRequest {
        v1alpha2::FakeRequest {
            api_version: r.api_version.clone(),
            kind: r.kind.clone(),
            settings: r.settings.clone(),
            cluster: r.cluster.clone(),
            second: r.second.clone(),
            first: r.first,
        }
    }

    /// v1alpha1 → v1alpha2 response (up).
    pub fn response_up(r: &v1alpha1::FakeResponse) -> v1alpha2::FakeResponse {
        v1alpha2::FakeResponse {
            api_version: r.api_version.clone(),
            kind: r.kind.clone(),
            status: r.status,
            message: r.message.clone(),
            second: r.second.clone(),
            first: r.first,
        }
    }

    /// v1alpha2 → v1alpha1 response (down).
    pub fn response_down(r: &v1alpha2::FakeResponse) -> v1alpha1::FakeResponse {
        v1alpha1::FakeResponse {
            api_version: r.api_version.clone(),
            kind: r.kind.clone(),
            status: r.status,
            message: r.message.clone(),
            second: r.second.clone(),
            first: r.first,
        }
    }
}

/// A catalog with every test hook and the FakeHook conversions registered.
pub fn catalog() -> capi_runtime::Catalog {
    let mut c = capi_runtime::Catalog::new();
    c.register::<v1alpha1::FakeHook>()
        .and_then(|c| c.register::<v1alpha1::SecondFakeHook>())
        .and_then(|c| c.register::<v1alpha1::RetryableFakeHook>())
        .and_then(|c| c.register::<v1alpha2::FakeHook>())
        .expect("test hooks register");
    c.add_conversion(conversion::request_down)
        .add_conversion(conversion::request_up)
        .add_conversion(conversion::response_up)
        .add_conversion(conversion::response_down);
    c
}
