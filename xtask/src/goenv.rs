//! `cargo xtask testenv`: builds the Go binaries the tests run against (etcd and
//! kube-apiserver) from the Go module `interop/`, into `target/testenv/bin/`.
//!
//! The pins are `interop/go.mod` and `interop/go.sum` (published modules only, fetched through
//! the Go module proxy). A stamp next to the binaries holds the pins, the Go version and the
//! build recipe they were built from; the build runs again only when one of those changes.
//! Go's own caches (`GOCACHE`, `GOMODCACHE`, by default under the home directory) are kept
//! between runs and between clones. With `KUBEBUILDER_ASSETS` set, nothing is built: the tests
//! take the binaries from that directory.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

/// The binaries, as `go build` arguments: a package of `interop/` or of a module it requires.
const PACKAGES: &[&str] = &["./cmd/etcd", "k8s.io/kubernetes/cmd/kube-apiserver"];

/// Flags of every build; part of the stamp, so changing them rebuilds.
const FLAGS: &[&str] = &["-trimpath", "-buildvcs=false", "-mod=readonly"];

/// `cargo xtask testenv`.
pub fn run(args: &[String]) -> Result<(), String> {
    if !args.is_empty() {
        return Err("usage: cargo xtask testenv".into());
    }
    build(&crate::root())
}

/// The step of `cargo xtask test`: the binaries up to date, and the logs of the previous run's
/// environments (`target/testenv/logs`) gone, so the ones left afterwards are this run's.
pub fn prepare(root: &Path) -> Result<(), String> {
    build(root)?;
    let logs = root.join("target/testenv/logs");
    match std::fs::remove_dir_all(&logs) {
        Err(e) if e.kind() != std::io::ErrorKind::NotFound => {
            Err(format!("{}: {e}", logs.display()))
        }
        _ => Ok(()),
    }
}

/// Builds the binaries unless they are up to date (or `KUBEBUILDER_ASSETS` names prebuilt
/// ones).
pub fn build(root: &Path) -> Result<(), String> {
    if let Some(dir) = std::env::var_os("KUBEBUILDER_ASSETS").filter(|d| !d.is_empty()) {
        eprintln!(
            "xtask: KUBEBUILDER_ASSETS={}: the tests use the etcd and kube-apiserver there",
            PathBuf::from(dir).display()
        );
        return Ok(());
    }
    let module = root.join("interop");
    let go_version = go_version()?;
    let read =
        |f: &str| std::fs::read_to_string(module.join(f)).map_err(|e| format!("interop/{f}: {e}"));
    let go_mod = read("go.mod")?;
    let go_sum = read("go.sum")?;
    let ldflags = ldflags(&go_mod)?;
    let wanted = format!(
        "{go_version}\nflags: {} -ldflags={ldflags}\npackages: {}\n--- go.mod\n{go_mod}\n--- go.sum\n{go_sum}",
        FLAGS.join(" "),
        PACKAGES.join(" ")
    );
    let out = root.join("target/testenv");
    let bin = out.join("bin");
    let stamp = out.join("bin.stamp");
    let present = PACKAGES.iter().all(|p| bin.join(binary_name(p)).is_file());
    if present && std::fs::read_to_string(&stamp).ok().as_deref() == Some(wanted.as_str()) {
        return Ok(());
    }
    eprintln!(
        "xtask: building {} with {go_version} into {} (the first build takes a while)",
        PACKAGES
            .iter()
            .map(|p| binary_name(p))
            .collect::<Vec<_>>()
            .join(", "),
        bin.display()
    );
    let started = Instant::now();
    let tmp = out.join("bin.tmp");
    let _ = std::fs::remove_dir_all(&tmp);
    std::fs::create_dir_all(&tmp).map_err(|e| format!("{}: {e}", tmp.display()))?;
    let mut cmd = Command::new("go");
    cmd.arg("build")
        .args(FLAGS)
        .arg(format!("-ldflags={ldflags}"))
        .arg("-o")
        .arg(format!("{}/", tmp.display()))
        .args(PACKAGES)
        .current_dir(&module)
        // The pinned module alone: no workspace file, no toolchain download.
        .env("GOWORK", "off")
        .env("GOTOOLCHAIN", "local")
        .env("GOFLAGS", "");
    let status = cmd
        .status()
        .map_err(|e| format!("cannot run go build: {e}"))?;
    if !status.success() {
        return Err(format!(
            "go build of interop/ ({}) failed ({status})",
            PACKAGES.join(" ")
        ));
    }
    let _ = std::fs::remove_file(&stamp);
    let _ = std::fs::remove_dir_all(&bin);
    std::fs::rename(&tmp, &bin).map_err(|e| format!("{}: {e}", bin.display()))?;
    std::fs::write(&stamp, wanted).map_err(|e| format!("{}: {e}", stamp.display()))?;
    eprintln!(
        "xtask: built the test binaries in {:.0?}",
        started.elapsed()
    );
    Ok(())
}

/// `go version`, or the one line that says Go is missing.
fn go_version() -> Result<String, String> {
    const MISSING: &str = "Go is not installed (no `go` on the PATH): the tests build etcd and \
        kube-apiserver from interop/go.mod with it; install Go 1.26 or newer, or set \
        KUBEBUILDER_ASSETS to a directory holding prebuilt etcd and kube-apiserver";
    match Command::new("go").arg("version").output() {
        Ok(o) if o.status.success() => Ok(String::from_utf8_lossy(&o.stdout).trim().to_string()),
        Ok(o) => Err(format!(
            "{MISSING} (`go version` failed: {})",
            String::from_utf8_lossy(&o.stderr).trim()
        )),
        Err(_) => Err(MISSING.to_string()),
    }
}

/// Linker flags: no symbol tables, and the Kubernetes version the API server reports (taken
/// from the `k8s.io/kubernetes` requirement of go.mod).
fn ldflags(go_mod: &str) -> Result<String, String> {
    let version = go_mod
        .lines()
        .map(str::trim)
        .filter(|l| !l.starts_with("//"))
        .find_map(|l| {
            let mut w = l.trim_start_matches("require").split_whitespace();
            (w.next() == Some("k8s.io/kubernetes"))
                .then(|| w.next())
                .flatten()
        })
        .ok_or("interop/go.mod does not require k8s.io/kubernetes")?;
    let parts: Vec<&str> = version.trim_start_matches('v').split('.').collect();
    let (major, minor) = match parts.as_slice() {
        [major, minor, ..] => (*major, *minor),
        _ => {
            return Err(format!(
                "interop/go.mod: odd k8s.io/kubernetes version {version}"
            ));
        }
    };
    let v = "k8s.io/component-base/version";
    Ok(format!(
        "-s -w -X {v}.gitVersion={version} -X {v}.gitMajor={major} -X {v}.gitMinor={minor}"
    ))
}

/// The file `go build -o dir/` writes for a main package: the last element of its path.
fn binary_name(package: &str) -> &str {
    package.rsplit('/').next().unwrap_or(package)
}
