//! The integration tests of the controller crate, gathered into one test binary.
//!
//! Each module was a test binary of its own; as one binary, kube, the crate and its
//! dependencies are linked once, and one control plane (a real etcd + kube-apiserver from
//! `capi-runtime-testenv`, with the ExtensionConfig CRD) serves every module that needs one
//! instead of one per file (`go_webhook` needs none: it compares our webhooks with Cluster
//! API's through the Go oracle; nor does `validation_table`, which holds the webhook, the registry
//! and the client to the same rules). Run one module with `cargo test -p capi-runtime-controller --test it -- warmup::`, one
//! test with `-- --exact reconcile::paused_configs_are_not_discovered_and_stay_registered`.
//!
//! The tests share one process and one API server, so none may rely on process-wide state
//! (every rustls configuration names its crypto provider, servers bind OS-assigned ports) and
//! each names its objects with `TestEnv::unique_name`. A test that needs the cluster's
//! ExtensionConfigs to be its own (warm-up lists them all) or changes the CRD takes
//! [`support::whole_cluster`], which waits for the others and clears what they left; the
//! others take [`support::own_objects`]. `cargo xtask test` also runs every test alone in its
//! own process (`xtask/src/isolation.rs`; `cargo xtask isolation capi-runtime-controller/it`
//! runs only that pass, for this binary).

mod support;

mod faults;
mod go_webhook;
mod reconcile;
mod rotation;
mod run;
mod validation_table;
mod warmup;
mod webhooks;
