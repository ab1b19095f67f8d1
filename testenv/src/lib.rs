//! Test an extension against the real Cluster API: etcd and kube-apiserver on loopback,
//! started by the test, and Cluster API's core manager running against them.
//!
//! This is the counterpart of controller-runtime's `envtest`: no kubelet, no
//! controller-manager, only the API server and its storage, so custom resources can be
//! created, validated, converted and watched by the real thing; [`ClusterApi`] adds Cluster
//! API's core manager (`RuntimeSDK` and `ClusterTopology` gates, every core CRD installed,
//! its admission webhooks called by the API server), so an extension's hooks are called by
//! Cluster API itself and what the test creates is defaulted and validated by it. [`topology`] builds the objects
//! a managed topology needs and reads what the topology controller made.
//!
//! - **Binaries** come from `KUBEBUILDER_ASSETS` (a directory holding `etcd` and
//!   `kube-apiserver`, the envtest convention), or one by one from `TEST_ASSET_ETCD` and
//!   `TEST_ASSET_KUBE_APISERVER`; Cluster API's manager from `CAPI_MANAGER`, its CRDs from
//!   `CAPI_CRDS` and its webhook configurations from `CAPI_WEBHOOKS`, or else from the same
//!   directory. The `capi-envtest` command
//!   (`cargo install capi-envtest`, then `eval "$(capi-envtest)"`) builds all of them at
//!   pinned versions into a per-user cache directory, which is also looked in when no
//!   variable is set. (In this crate's own repository, `cargo xtask testenv` builds them
//!   with the same code into `target/testenv/bin/`, looked in first.)
//! - **Start-up** makes a CA, a serving certificate for the API server, an admin client
//!   certificate (group `system:masters`) and a service-account signing key; picks loopback
//!   ports (and picks again when a port was taken in the meantime); waits for etcd's health
//!   and the API server's `/readyz`; installs the CRDs asked for and waits until they are
//!   Established and served.
//! - **Access**: [`TestEnv::client`] builds a `kube::Client` for the current tokio runtime;
//!   [`TestEnv::kubeconfig_path`] is a kubeconfig file for other processes.
//! - **Other users**: [`TestEnv::service_account_user`] (a ServiceAccount, created if needed,
//!   with a token from the TokenRequest API) and [`TestEnv::certificate_user`] (a client
//!   certificate signed by the environment's CA) give a [`User`], with a client and a
//!   kubeconfig file of its own; it has only the rights RBAC bindings give it, so a test can
//!   run code, in process or as a child process, with exactly a shipped role.
//! - **Extensions and objects**: [`ClusterApi::serve_extension`] serves an extension's
//!   `ServerBuilder` on loopback and registers its ExtensionConfig; [`topology`] builds
//!   ClusterClasses and Clusters (typed variables included); [`ClusterApi::create`],
//!   [`get`](ClusterApi::get), [`patch`](ClusterApi::patch),
//!   [`annotate`](ClusterApi::annotate) and
//!   [`wait_for_condition`](ClusterApi::wait_for_condition) take any object an [`ObjectRef`]
//!   names; the crate re-exports [`kube`] for the rest.
//! - **Webhooks**: [`ClusterApi`] installs Cluster API's own (see
//!   [`ClusterApiBuilder::webhooks`]); [`TestEnv::install_webhooks`] installs admission webhook configurations
//!   (a project's manifests, written for a Service) pointed at a server the test runs on
//!   loopback, with the environment's CA as `caBundle` and a serving certificate for the
//!   server (envtest's `WebhookInstallOptions`); [`TestEnv::write_serving_certificate`] makes
//!   one for any other server, an extension for instance.
//! - **An existing cluster** instead of a started one: [`ExistingCluster`] (a kubeconfig, or
//!   envtest's `USE_EXISTING_CLUSTER=true` with `KUBECONFIG`) and
//!   [`ClusterApiBuilder::existing_cluster`].
//! - **Stopping**: dropping the [`TestEnv`] stops both processes. Each runs under a small
//!   `sh` supervisor that also stops it when the test process is gone for any reason (a
//!   panic, an abort, SIGKILL): the supervisor watches a pipe only the test process holds
//!   open. Processes run in their own process group, which is killed if they do not stop in
//!   time.
//! - **Logs** of both processes go to `target/testenv/logs/<name>/<pid>-<n>/` and stay there
//!   (until the next `cargo xtask test`); when start-up fails, the error carries the tail of
//!   the failing process's log.
//!
//! A test binary usually shares one environment between its tests with [`shared`], and
//! gives each test its own names (see [`TestEnv::unique_name`]).

mod assets;
mod certs;
mod cluster_api;
mod crds;
mod env;
mod error;
mod existing;
mod extension;
pub mod fixtures;
mod object;
mod process;
pub mod templates;
pub mod topology;
mod users;
mod webhooks;

pub use assets::{Assets, ClusterApiAssets, target_dir};
pub use cluster_api::{ClusterApi, ClusterApiBuilder, DEFAULT_WAIT, FEATURE_GATES};
pub use env::{Builder, TestEnv, new_log_dir, shared};
pub use existing::{ExistingCluster, USE_EXISTING_CLUSTER};
pub use extension::ServedExtension;
pub use object::{ObjectKey, ObjectRef};
pub use process::{Process, free_port, tail};
pub use templates::{DockerMachineTemplate, TestControlPlaneTemplate, TestInfraClusterTemplate};
pub use users::User;
pub use webhooks::{LocalWebhooks, WebhookInstallOptions};

pub use error::{
    CrdError, Error, MissingBinary, NotServedYet, ProcessReport, StartupError, UserError, WaitError,
};

/// The kube client crate this crate is built on, so that a test reads and changes objects
/// with `kube::Api` without a kube dependency of its own (and with the same version).
pub use kube;
/// The kube items a test uses most: a typed or dynamic `Api`, the patch kinds and their
/// parameters, and the objects the helpers return.
pub use kube::api::{Api, DynamicObject, Patch, PatchParams};

/// The result type of this crate.
pub type Result<T, E = Error> = std::result::Result<T, E>;
