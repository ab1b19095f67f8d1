//! The binaries a Cluster API test environment runs, built at pinned versions.
//!
//! `capi-envtest` is this crate's command (`cargo install capi-envtest`), the counterpart of
//! controller-runtime's `setup-envtest` for Cluster API: it builds etcd, kube-apiserver and
//! Cluster API's core manager with the Go toolchain from the Go module proxy, at the versions
//! pinned by the Go module files carried in this crate (`go/control-plane`, `go/cluster-api`:
//! our own `go.mod`, `go.sum` and main files; `go build` fetches the sources), into a
//! per-user cache directory keyed by those versions, copies Cluster API's CRDs and its core
//! admission webhook configurations there from Go's module cache, and prints the directory as
//! shell `export` lines:
//!
//! ```text
//! $ eval "$(capi-envtest)"
//! $ echo $KUBEBUILDER_ASSETS
//! /home/me/.cache/capi-envtest/k8s-v1.36.5_etcd-v3.6.8_capi-v1.14.2
//! ```
//!
//! The directory holds `etcd`, `kube-apiserver`, `core` (Cluster API's core manager,
//! `sigs.k8s.io/cluster-api/core`), `crds/cluster-api/*.yaml` and
//! `webhooks/cluster-api/manifests.yaml` (the manager's webhook configurations, as Cluster API
//! ships them for a Service). A second run with the same pins and Go version builds nothing.
//! The test crate (`capi-runtime-testenv`) reads [`ASSETS_VAR`], [`MANAGER_VAR`],
//! [`CRDS_VAR`] and [`WEBHOOKS_VAR`], and without them looks in
//! [`cache_dir`], so running the command once is enough.
//!
//! The library is what the command runs; the workspace's `cargo xtask testenv` calls
//! [`install`] with its own output directory.

#![forbid(unsafe_code)]

mod error;
mod install;
mod progress;

use std::ffi::OsString;
use std::path::{Path, PathBuf};

pub use error::Error;
pub use install::{Part, install};
pub use progress::{Progress, Reporter};

/// The directory holding `etcd` and `kube-apiserver` (envtest's convention); also where the
/// test crate looks for [`MANAGER`] and [`CRDS_DIR`] when the variables below are not set.
pub const ASSETS_VAR: &str = "KUBEBUILDER_ASSETS";
/// The path of Cluster API's core manager binary.
pub const MANAGER_VAR: &str = "CAPI_MANAGER";
/// The directory of Cluster API's CRD files (`*.yaml`).
pub const CRDS_VAR: &str = "CAPI_CRDS";

/// The etcd binary's file name.
pub const ETCD: &str = "etcd";
/// The kube-apiserver binary's file name.
pub const KUBE_APISERVER: &str = "kube-apiserver";
/// Cluster API's core manager's file name (its package is `sigs.k8s.io/cluster-api/core`).
pub const MANAGER: &str = "core";
/// Where the CRDs go, relative to the directory.
pub const CRDS_DIR: &str = "crds/cluster-api";
/// The directory of Cluster API's admission webhook configurations (`manifests.yaml`).
pub const WEBHOOKS_VAR: &str = "CAPI_WEBHOOKS";
/// Where Cluster API's admission webhook configurations go, relative to the directory.
pub const WEBHOOKS_DIR: &str = "webhooks/cluster-api";

/// What an error about a missing binary tells a user to do.
pub const HINT: &str = "run `eval \"$(capi-envtest)\"` (install it with `cargo install capi-envtest`; it needs Go 1.26 or newer), or set KUBEBUILDER_ASSETS";

/// The Go module files this crate builds from, as (part directory, file, content).
pub(crate) const FILES: &[(&str, &str, &str)] = &[
    (
        "control-plane",
        "go.mod",
        include_str!("../go/control-plane/go.mod"),
    ),
    (
        "control-plane",
        "go.sum",
        include_str!("../go/control-plane/go.sum"),
    ),
    (
        "control-plane",
        "cmd/etcd/main.go",
        include_str!("../go/control-plane/cmd/etcd/main.go"),
    ),
    (
        "cluster-api",
        "go.mod",
        include_str!("../go/cluster-api/go.mod"),
    ),
    (
        "cluster-api",
        "go.sum",
        include_str!("../go/cluster-api/go.sum"),
    ),
    (
        "cluster-api",
        "tools.go",
        include_str!("../go/cluster-api/tools.go"),
    ),
];

/// The pinned versions.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Versions {
    /// `k8s.io/kubernetes` (kube-apiserver), e.g. `v1.36.5`.
    pub kubernetes: String,
    /// `go.etcd.io/etcd/server/v3`.
    pub etcd: String,
    /// `sigs.k8s.io/cluster-api`.
    pub cluster_api: String,
}

impl Versions {
    /// The cache directory's name for these versions.
    pub fn key(&self) -> String {
        format!(
            "k8s-{}_etcd-{}_capi-{}",
            self.kubernetes, self.etcd, self.cluster_api
        )
    }
}

/// The versions the carried `go.mod` files pin.
pub fn versions() -> Versions {
    let find = |part: &str, module: &str| {
        let go_mod = file(part, "go.mod");
        required(go_mod, module).unwrap_or_else(|| {
            // The files are part of this crate; its tests read every one.
            panic!("go/{part}/go.mod does not require {module}")
        })
    };
    Versions {
        kubernetes: find("control-plane", "k8s.io/kubernetes"),
        etcd: find("control-plane", "go.etcd.io/etcd/server/v3"),
        cluster_api: find("cluster-api", "sigs.k8s.io/cluster-api"),
    }
}

pub(crate) fn file(part: &str, name: &str) -> &'static str {
    FILES
        .iter()
        .find(|(p, n, _)| *p == part && *n == name)
        .map(|(_, _, c)| *c)
        .unwrap_or("")
}

/// The version of `module` that a `go.mod` requires.
pub fn required(go_mod: &str, module: &str) -> Option<String> {
    go_mod
        .lines()
        .map(str::trim)
        .filter(|l| !l.starts_with("//"))
        .find_map(|l| {
            let mut w = l.trim_start_matches("require").split_whitespace();
            (w.next() == Some(module))
                .then(|| w.next().map(str::to_string))
                .flatten()
        })
}

/// The per-user directory for the pinned versions:
/// `$XDG_CACHE_HOME/capi-envtest/<key>`, or `$HOME/.cache/capi-envtest/<key>`.
pub fn cache_dir() -> Result<PathBuf, Error> {
    cache_dir_with(|v| std::env::var_os(v)).ok_or(Error::NoCacheDir)
}

/// [`cache_dir`] with the environment read through `var`; `None` without either variable.
pub fn cache_dir_with(var: impl Fn(&str) -> Option<OsString>) -> Option<PathBuf> {
    let absolute = |v: &str| var(v).map(PathBuf::from).filter(|p| p.is_absolute());
    let base = absolute("XDG_CACHE_HOME").or_else(|| absolute("HOME").map(|h| h.join(".cache")))?;
    Some(base.join("capi-envtest").join(versions().key()))
}

/// The four paths a test environment takes from a directory [`install`] filled.
pub fn paths(dir: &Path) -> [(&'static str, PathBuf); 4] {
    [
        (ASSETS_VAR, dir.to_path_buf()),
        (MANAGER_VAR, dir.join(MANAGER)),
        (CRDS_VAR, dir.join(CRDS_DIR)),
        (WEBHOOKS_VAR, dir.join(WEBHOOKS_DIR)),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn versions_come_from_the_carried_go_mod_files() {
        let v = versions();
        for version in [&v.kubernetes, &v.etcd, &v.cluster_api] {
            assert!(
                version.starts_with('v') && version.matches('.').count() == 2,
                "{v:?}"
            );
        }
        assert_eq!(
            v.key(),
            format!(
                "k8s-{}_etcd-{}_capi-{}",
                v.kubernetes, v.etcd, v.cluster_api
            )
        );
    }

    #[test]
    fn cache_dir_follows_xdg_then_home() {
        let key = versions().key();
        let xdg = cache_dir_with(|v| match v {
            "XDG_CACHE_HOME" => Some("/x/cache".into()),
            "HOME" => Some("/home/me".into()),
            _ => None,
        });
        assert_eq!(xdg, Some(PathBuf::from("/x/cache/capi-envtest").join(&key)));
        // A relative XDG_CACHE_HOME is invalid by the specification, and ignored.
        let home = cache_dir_with(|v| match v {
            "XDG_CACHE_HOME" => Some("rel".into()),
            "HOME" => Some("/home/me".into()),
            _ => None,
        });
        assert_eq!(
            home,
            Some(PathBuf::from("/home/me/.cache/capi-envtest").join(&key))
        );
        assert_eq!(cache_dir_with(|_| None), None);
    }

    #[test]
    fn required_reads_single_and_block_requirements() {
        let go_mod = "module x\n\nrequire a.example/b v1.2.3\n\nrequire (\n\tc.example/d v0.1.0 // indirect\n)\n";
        assert_eq!(required(go_mod, "a.example/b").as_deref(), Some("v1.2.3"));
        assert_eq!(required(go_mod, "c.example/d").as_deref(), Some("v0.1.0"));
        assert_eq!(required(go_mod, "c.example"), None);
    }
}
