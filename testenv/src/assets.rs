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
    /// `target/testenv/bin/` (built by `cargo xtask test`). The error names what is missing
    /// and how to get it.
    pub fn find() -> Result<Assets> {
        Assets::find_with(|var| std::env::var_os(var))
    }

    /// [`Assets::find`] with the environment variables read through `var`.
    pub fn find_with(var: impl Fn(&str) -> Option<OsString>) -> Result<Assets> {
        let dir = match var("KUBEBUILDER_ASSETS") {
            Some(d) if !d.is_empty() => Dir::Env(PathBuf::from(d)),
            _ => Dir::Built(target_dir().join("testenv/bin")),
        };
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

enum Dir {
    Env(PathBuf),
    Built(PathBuf),
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
        Dir::Env(d) => (d, "KUBEBUILDER_ASSETS"),
        Dir::Built(d) => (
            d,
            "run `cargo xtask testenv` (needs Go on the PATH) or set KUBEBUILDER_ASSETS",
        ),
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

/// A program `cargo xtask testenv` built from `interop/` (`go-extension`, ...), in
/// `target/testenv/bin/`.
pub fn program(name: &str) -> Result<PathBuf> {
    let p = target_dir().join("testenv/bin").join(name);
    if is_executable(&p) {
        Ok(p)
    } else {
        Err(MissingBinary::NotFound {
            name: name.to_string(),
            path: p,
            hint: "run `cargo xtask testenv` (needs Go on the PATH)",
        }
        .into())
    }
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
