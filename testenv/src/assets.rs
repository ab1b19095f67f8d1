//! Where the binaries are, and where this workspace's `target/` directory is.

use std::ffi::OsString;
use std::path::{Path, PathBuf};

use crate::{MissingBinary, Result};

/// The two binaries a control plane needs.
#[derive(Clone, Debug)]
pub struct Assets {
    /// The etcd server.
    pub etcd: PathBuf,
    /// The Kubernetes API server.
    pub kube_apiserver: PathBuf,
}

impl Assets {
    /// Finds the binaries: `TEST_ASSET_ETCD` / `TEST_ASSET_KUBE_APISERVER` name one binary
    /// each; otherwise they are looked up in `KUBEBUILDER_ASSETS` when set, else in
    /// `target/testenv/bin/` (where this workspace's `cargo xtask testenv` builds them) when it
    /// holds them, else in `capi-envtest`'s per-user cache directory
    /// ([`capi_envtest::cache_dir`]). The error names what is missing and the command that
    /// makes it (`capi-envtest`).
    pub fn find() -> Result<Assets> {
        Assets::find_with(|var| std::env::var_os(var))
    }

    /// [`Assets::find`] with the environment variables read through `var`.
    pub fn find_with(var: impl Fn(&str) -> Option<OsString>) -> Result<Assets> {
        let dir = assets_dir(&var);
        Ok(Assets {
            etcd: one("etcd", var("TEST_ASSET_ETCD"), "TEST_ASSET_ETCD", &dir)?,
            kube_apiserver: one(
                "kube-apiserver",
                var("TEST_ASSET_KUBE_APISERVER"),
                "TEST_ASSET_KUBE_APISERVER",
                &dir,
            )?,
        })
    }
}

/// Where the binaries are looked up, and how that directory was chosen.
enum Dir {
    Env(PathBuf),
    Built(PathBuf),
}

/// `KUBEBUILDER_ASSETS`, else the workspace's `target/testenv/bin/` if it holds etcd, else
/// `capi-envtest`'s cache directory (the workspace's directory when there is none).
fn assets_dir(var: &impl Fn(&str) -> Option<OsString>) -> Dir {
    if let Some(d) = var(capi_envtest::ASSETS_VAR).filter(|d| !d.is_empty()) {
        return Dir::Env(PathBuf::from(d));
    }
    let workspace = target_dir().join("testenv/bin");
    if is_executable(&workspace.join(capi_envtest::ETCD)) {
        return Dir::Built(workspace);
    }
    match capi_envtest::cache_dir_with(var) {
        Some(cache) => Dir::Built(cache),
        None => Dir::Built(workspace),
    }
}

/// Cluster API's side of a test environment: its core manager, its CRDs and its admission
/// webhook configurations.
#[derive(Clone, Debug)]
pub struct ClusterApiAssets {
    /// Cluster API's core manager (`sigs.k8s.io/cluster-api/core`).
    pub manager: PathBuf,
    /// The directory of Cluster API's CRD files.
    pub crds: PathBuf,
    /// The directory of the manager's webhook configurations (`manifests.yaml`, as Cluster
    /// API ships it: Mutating- and ValidatingWebhookConfigurations for a Service). Needed only
    /// when the webhooks run ([`ClusterApiBuilder::webhooks`](crate::ClusterApiBuilder::webhooks)).
    pub webhooks: PathBuf,
}

impl ClusterApiAssets {
    /// Finds them: `CAPI_MANAGER` names the manager, `CAPI_CRDS` the CRD directory and
    /// `CAPI_WEBHOOKS` the webhook configurations' directory; each not set is looked up in the
    /// directory [`Assets::find`] uses (`core`, `crds/cluster-api/` and
    /// `webhooks/cluster-api/` there, as `capi-envtest` leaves them). A missing webhook
    /// directory is an error only when the webhooks are installed.
    pub fn find() -> Result<ClusterApiAssets> {
        ClusterApiAssets::find_with(|var| std::env::var_os(var))
    }

    /// [`ClusterApiAssets::find`] with the environment variables read through `var`.
    pub fn find_with(var: impl Fn(&str) -> Option<OsString>) -> Result<ClusterApiAssets> {
        let dir = assets_dir(&var);
        let manager = one(
            capi_envtest::MANAGER,
            var(capi_envtest::MANAGER_VAR),
            capi_envtest::MANAGER_VAR,
            &dir,
        )?;
        let crds = match var(capi_envtest::CRDS_VAR).filter(|d| !d.is_empty()) {
            Some(d) => PathBuf::from(d),
            None => match &dir {
                Dir::Env(d) | Dir::Built(d) => d.join(capi_envtest::CRDS_DIR),
            },
        };
        if !crds.is_dir() {
            return Err(MissingBinary::NotFound {
                name: "Cluster API's CRDs".to_string(),
                path: crds,
                hint: capi_envtest::HINT,
            }
            .into());
        }
        let webhooks = match var(capi_envtest::WEBHOOKS_VAR).filter(|d| !d.is_empty()) {
            Some(d) => PathBuf::from(d),
            None => match &dir {
                Dir::Env(d) | Dir::Built(d) => d.join(capi_envtest::WEBHOOKS_DIR),
            },
        };
        Ok(ClusterApiAssets {
            manager,
            crds,
            webhooks,
        })
    }

    /// The webhook configuration files (`*.yaml` of [`ClusterApiAssets::webhooks`]), sorted;
    /// an error naming the directory and `capi-envtest` when there is none.
    pub fn webhook_files(&self) -> Result<Vec<PathBuf>> {
        let files = yaml_files(&self.webhooks).unwrap_or_default();
        if files.is_empty() {
            return Err(MissingBinary::NotFound {
                name: "Cluster API's webhook configurations".to_string(),
                path: self.webhooks.clone(),
                hint: capi_envtest::HINT,
            }
            .into());
        }
        Ok(files)
    }

    /// The CRD files, sorted.
    pub fn crd_files(&self) -> Result<Vec<PathBuf>> {
        yaml_files(&self.crds).map_err(crate::Error::io(format!("reading {}", self.crds.display())))
    }
}

/// The `*.yaml` files of `dir`, sorted.
fn yaml_files(dir: &Path) -> std::io::Result<Vec<PathBuf>> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)?
        .filter_map(std::result::Result::ok)
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "yaml"))
        .collect();
    files.sort();
    Ok(files)
}

fn one(name: &str, value: Option<OsString>, var: &str, dir: &Dir) -> Result<PathBuf> {
    if let Some(p) = value.filter(|p| !p.is_empty()) {
        let p = PathBuf::from(p);
        return if is_executable(&p) {
            Ok(p)
        } else {
            Err(MissingBinary::NotExecutable {
                var: var.to_string(),
                path: p,
            }
            .into())
        };
    }
    let (d, hint) = match dir {
        Dir::Env(d) => (
            d,
            "looked up through KUBEBUILDER_ASSETS; `capi-envtest --dir <that directory>` fills it",
        ),
        Dir::Built(d) => (d, capi_envtest::HINT),
    };
    let p = d.join(name);
    if is_executable(&p) {
        Ok(p)
    } else {
        Err(MissingBinary::NotFound {
            name: name.to_string(),
            path: p,
            hint,
        }
        .into())
    }
}

fn is_executable(p: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt;
    std::fs::metadata(p).is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
}

/// The cargo target directory this test runs from: `CARGO_TARGET_DIR` when set, else the
/// nearest ancestor of the running executable that holds cargo's `CACHEDIR.TAG`, else
/// `target/` under the current directory.
pub fn target_dir() -> PathBuf {
    if let Some(d) = std::env::var_os("CARGO_TARGET_DIR").filter(|d| !d.is_empty()) {
        let d = PathBuf::from(d);
        return if d.is_absolute() {
            d
        } else {
            std::env::current_dir().unwrap_or_default().join(d)
        };
    }
    if let Ok(exe) = std::env::current_exe()
        && let Some(d) = exe
            .ancestors()
            .skip(1)
            .find(|d| d.join("CACHEDIR.TAG").is_file())
    {
        return d.to_path_buf();
    }
    std::env::current_dir().unwrap_or_default().join("target")
}
