//! The release artifacts of `cargo xtask dist` beyond documents and manifests, and the checks
//! the test command makes of them:
//!
//! - `crates/`: the `.crate` file of every published crate ([`crate::package::CRATES`]) as
//!   `cargo package` makes it, and `PUBLISH-ORDER`, the order to publish them in;
//! - `bin/<host triple>/`: release builds of `runtime-openapi-gen`, `runtime-crd-gen` and
//!   `capi-runtime-manager` from the workspace with its lock file, as a release pipeline builds
//!   them from the tagged commit;
//! - `sbom/`: a CycloneDX bill of materials of each binary, written by the pinned
//!   `cargo-cyclonedx` (`xtask/tools/cargo-tools.txt`) from cargo's own resolution.
//!
//! [`check`] reads them back as a user would: every `.crate` unpacks to the files it must
//! hold, every binary runs and reports the workspace's version, every SBOM describes its
//! binary and names only crates of `Cargo.lock`, among them the ones that binary is made of.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::Command;

use crate::package::CRATES;
use crate::validators::run_tool;

/// The workspace's version, the one every artifact carries.
const VERSION: &str = env!("CARGO_PKG_VERSION");

/// The shipped binaries: (package, binary, the flag that prints the tool's own version).
/// `runtime-openapi-gen` keeps `--version` for the document's version, so its own is `-V`.
const BINARIES: &[(&str, &str, &str)] = &[
    ("runtime-openapi-gen", "runtime-openapi-gen", "-V"),
    ("runtime-openapi-gen", "runtime-crd-gen", "--version"),
    ("capi-runtime-manager", "capi-runtime-manager", "--version"),
];

/// Crates a binary's SBOM must name (a missing one means the SBOM is not of that binary).
const SBOM_MUST_NAME: &[(&str, &[&str])] = &[
    (
        "runtime-openapi-gen",
        &["capi-runtime-codegen", "clap", "serde_json"],
    ),
    ("runtime-crd-gen", &["capi-runtime-codegen", "clap"]),
    (
        "capi-runtime-manager",
        &[
            "capi-runtime",
            "capi-runtime-controller",
            "kube-client",
            "rustls",
            "tokio",
        ],
    ),
];

/// The files each `.crate` must hold, besides `Cargo.toml`, `LICENSE` and `README.md`.
const CRATE_FILES: &[(&str, &[&str])] = &[
    ("capi-runtime-codegen", &["src/lib.rs"]),
    ("capi-runtime-derive", &["src/lib.rs"]),
    ("capi-runtime", &["src/lib.rs", "src/hooks/mod.rs"]),
    (
        "runtime-openapi-gen",
        &["src/main.rs", "src/bin/runtime-crd-gen.rs", "Cargo.lock"],
    ),
    ("capi-runtime-controller", &["src/lib.rs"]),
    ("capi-runtime-manager", &["src/main.rs", "Cargo.lock"]),
    (
        "capi-envtest",
        &[
            "src/main.rs",
            "src/lib.rs",
            "go/control-plane/go.mod",
            "go/control-plane/go.sum",
            "go/control-plane/cmd/etcd/main.go",
            "go/cluster-api/v1.12.5/go.mod",
            "go/cluster-api/v1.12.5/go.sum",
            "go/cluster-api/v1.12.5/tools.go",
            "go/cluster-api/v1.13.6/go.mod",
            "go/cluster-api/v1.13.6/go.sum",
            "go/cluster-api/v1.13.6/tools.go",
            "go/cluster-api/v1.14.2/go.mod",
            "go/cluster-api/v1.14.2/go.sum",
            "go/cluster-api/v1.14.2/tools.go",
        ],
    ),
    (
        "capi-runtime-testenv",
        &["src/lib.rs", "crds/test-providers.yaml"],
    ),
];

/// Writes `crates/`, `bin/<triple>/` and `sbom/` into `dist`; returns the files written.
pub fn write(root: &Path, cargo: &str, dist: &Path) -> Result<Vec<PathBuf>, String> {
    let mut files = crates(root, cargo, dist)?;
    files.extend(binaries(root, cargo, dist)?);
    files.extend(sboms(root, dist)?);
    Ok(files)
}

/// `crates/`: packaged without verification here (the test command's packaging step verifies
/// each one; `cargo publish` verifies again).
fn crates(root: &Path, cargo: &str, dist: &Path) -> Result<Vec<PathBuf>, String> {
    let mut args = vec![
        "package",
        "--locked",
        "--allow-dirty",
        "--no-verify",
        "--quiet",
    ];
    for name in CRATES {
        args.extend(["-p", name]);
    }
    run_tool(root, Command::new(cargo).args(&args), "cargo package")?;
    let target = crate::target_dir(root)?;
    let out = dist.join("crates");
    std::fs::create_dir_all(&out).map_err(|e| e.to_string())?;
    let mut files = Vec::new();
    for name in CRATES {
        let from = crate::package::crate_file(&target, name);
        let to = out.join(from.file_name().expect("a .crate file has a name"));
        std::fs::copy(&from, &to).map_err(|e| format!("{}: {e}", from.display()))?;
        files.push(to);
    }
    let order = out.join("PUBLISH-ORDER");
    let mut text = String::from(
        "# Publish in this order, each after the one before is on the registry (RELEASING.md).\n",
    );
    for name in CRATES {
        text.push_str(&format!("{name} {VERSION}\n"));
    }
    std::fs::write(&order, text).map_err(|e| e.to_string())?;
    files.push(order);
    Ok(files)
}

/// The build machine's target triple, as rustc reports it.
pub fn host_triple() -> Result<String, String> {
    let rustc = std::env::var("RUSTC").unwrap_or_else(|_| "rustc".into());
    let output = Command::new(&rustc)
        .arg("-vV")
        .output()
        .map_err(|e| format!("cannot run {rustc} -vV: {e}"))?;
    String::from_utf8_lossy(&output.stdout)
        .lines()
        .find_map(|l| l.strip_prefix("host: "))
        .map(str::to_string)
        .ok_or_else(|| "rustc -vV names no host triple".to_string())
}

/// The arguments of cargo that build the shipped binaries (here, and ahead of time by the test
/// command's background job, `background.rs`).
pub fn build_args() -> Vec<&'static str> {
    let mut packages: Vec<&str> = BINARIES.iter().map(|(p, _, _)| *p).collect();
    packages.dedup();
    let mut args = vec!["build", "--release", "--locked", "--quiet"];
    for package in packages {
        args.extend(["-p", package]);
    }
    for (_, bin, _) in BINARIES {
        args.extend(["--bin", *bin]);
    }
    args
}

/// `bin/<triple>/`: `cargo build --release --locked` of the binaries' packages.
fn binaries(root: &Path, cargo: &str, dist: &Path) -> Result<Vec<PathBuf>, String> {
    run_tool(
        root,
        Command::new(cargo).args(build_args()),
        "cargo build --release",
    )?;
    let release = crate::target_dir(root)?.join("release");
    let out = dist.join("bin").join(host_triple()?);
    std::fs::create_dir_all(&out).map_err(|e| e.to_string())?;
    let mut files = Vec::new();
    for (_, bin, _) in BINARIES {
        let to = out.join(bin);
        std::fs::copy(release.join(bin), &to)
            .map_err(|e| format!("{}: {e}", release.join(bin).display()))?;
        files.push(to);
    }
    Ok(files)
}

/// `sbom/<binary>.cdx.json`. cargo-cyclonedx writes one file per binary of every workspace
/// member next to that member's `Cargo.toml`; the shipped ones are moved into `sbom/` and the
/// others removed (`*.cdx.json` is ignored by git, should a run be cut short).
fn sboms(root: &Path, dist: &Path) -> Result<Vec<PathBuf>, String> {
    let tool = crate::cargotools::bin(root, "cargo-cyclonedx")?;
    crate::supply::fetch(root)?;
    let triple = host_triple()?;
    let result = run_tool(
        root,
        Command::new(&tool).env("CARGO_NET_OFFLINE", "true").args([
            "cyclonedx",
            "--format",
            "json",
            "--describe",
            "binaries",
            "--target",
            &triple,
            "--spec-version",
            "1.5",
            "--quiet",
        ]),
        "cargo cyclonedx",
    );
    let written = written_sboms(root)?;
    let out = dist.join("sbom");
    std::fs::create_dir_all(&out).map_err(|e| e.to_string())?;
    let mut files = Vec::new();
    for path in written {
        let name = path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        let shipped = BINARIES
            .iter()
            .find(|(_, bin, _)| name == format!("{bin}_bin.cdx.json"));
        if let (Ok(()), Some((_, bin, _))) = (&result, shipped) {
            let to = out.join(format!("{bin}.cdx.json"));
            std::fs::rename(&path, &to).map_err(|e| format!("{}: {e}", path.display()))?;
            files.push(to);
        } else {
            std::fs::remove_file(&path).map_err(|e| format!("{}: {e}", path.display()))?;
        }
    }
    result?;
    if files.len() != BINARIES.len() {
        return Err(format!(
            "cargo cyclonedx wrote {} of the {} binaries' SBOMs",
            files.len(),
            BINARIES.len()
        ));
    }
    files.sort();
    Ok(files)
}

/// The `*.cdx.json` files in the workspace members' directories.
fn written_sboms(root: &Path) -> Result<Vec<PathBuf>, String> {
    let mut found = Vec::new();
    for dir in member_dirs(root)? {
        for entry in std::fs::read_dir(&dir).map_err(|e| format!("{}: {e}", dir.display()))? {
            let path = entry.map_err(|e| e.to_string())?.path();
            if path
                .file_name()
                .is_some_and(|n| n.to_string_lossy().ends_with(".cdx.json"))
            {
                found.push(path);
            }
        }
    }
    found.sort();
    Ok(found)
}

/// The directory of every workspace member, from `cargo metadata`.
fn member_dirs(root: &Path) -> Result<Vec<PathBuf>, String> {
    let meta = crate::cargo_metadata(root)?;
    let dirs = meta["packages"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|p| p["manifest_path"].as_str())
        .filter_map(|m| Path::new(m).parent().map(Path::to_path_buf))
        .collect();
    Ok(dirs)
}

/// Checks the artifacts [`write`] made in `dist`, as a user of the release reads them.
pub fn check(root: &Path, dist: &Path) -> Result<(), String> {
    check_crates(dist)?;
    check_binaries(dist)?;
    check_sboms(root, dist)?;
    eprintln!(
        "xtask dist: {} crates, {} binaries and their SBOMs checked",
        CRATES.len(),
        BINARIES.len()
    );
    Ok(())
}

fn check_crates(dist: &Path) -> Result<(), String> {
    let order = std::fs::read_to_string(dist.join("crates/PUBLISH-ORDER"))
        .map_err(|e| format!("dist/crates/PUBLISH-ORDER: {e}"))?;
    let listed: Vec<&str> = order
        .lines()
        .filter(|l| !l.starts_with('#'))
        .filter_map(|l| l.split_whitespace().next())
        .collect();
    if listed != CRATES {
        return Err(format!(
            "dist/crates/PUBLISH-ORDER lists {listed:?}, expected {CRATES:?}"
        ));
    }
    for (name, files) in CRATE_FILES {
        let file = dist.join(format!("crates/{name}-{VERSION}.crate"));
        let output = Command::new("tar")
            .arg("-tzf")
            .arg(&file)
            .output()
            .map_err(|e| format!("cannot run tar: {e}"))?;
        if !output.status.success() {
            return Err(format!("{} does not unpack with tar", file.display()));
        }
        let prefix = format!("{name}-{VERSION}/");
        let entries: BTreeSet<String> = String::from_utf8_lossy(&output.stdout)
            .lines()
            .map(str::to_string)
            .collect();
        if let Some(stray) = entries.iter().find(|e| !e.starts_with(&prefix)) {
            return Err(format!("{}: {stray} is outside {prefix}", file.display()));
        }
        for wanted in ["Cargo.toml", "Cargo.toml.orig", "LICENSE", "README.md"]
            .iter()
            .chain(files.iter())
        {
            if !entries.contains(&format!("{prefix}{wanted}")) {
                return Err(format!("{} holds no {wanted}", file.display()));
            }
        }
    }
    Ok(())
}

fn check_binaries(dist: &Path) -> Result<(), String> {
    let dir = dist.join("bin").join(host_triple()?);
    for (_, bin, flag) in BINARIES {
        let path = dir.join(bin);
        let output = Command::new(&path)
            .arg(flag)
            .output()
            .map_err(|e| format!("cannot run {}: {e}", path.display()))?;
        let text = String::from_utf8_lossy(&output.stdout);
        if !output.status.success() || text.trim() != format!("{bin} {VERSION}") {
            return Err(format!(
                "{} {flag} printed {:?} ({}), expected \"{bin} {VERSION}\"",
                path.display(),
                text.trim(),
                output.status
            ));
        }
    }
    Ok(())
}

/// Every `(name, version)` of `Cargo.lock`.
fn locked_packages(root: &Path) -> Result<BTreeSet<(String, String)>, String> {
    let text =
        std::fs::read_to_string(root.join("Cargo.lock")).map_err(|e| format!("Cargo.lock: {e}"))?;
    let mut packages = BTreeSet::new();
    let mut name = None;
    for line in text.lines() {
        if line == "[[package]]" {
            name = None;
        } else if let Some(value) = line.strip_prefix("name = ") {
            name = Some(value.trim_matches('"').to_string());
        } else if let (Some(value), Some(n)) = (line.strip_prefix("version = "), name.take()) {
            packages.insert((n, value.trim_matches('"').to_string()));
        }
    }
    Ok(packages)
}

fn check_sboms(root: &Path, dist: &Path) -> Result<(), String> {
    let locked = locked_packages(root)?;
    for (bin, must) in SBOM_MUST_NAME {
        let file = dist.join(format!("sbom/{bin}.cdx.json"));
        let text =
            std::fs::read_to_string(&file).map_err(|e| format!("{}: {e}", file.display()))?;
        let sbom: serde_json::Value =
            serde_json::from_str(&text).map_err(|e| format!("{}: {e}", file.display()))?;
        if sbom["bomFormat"] != "CycloneDX" {
            return Err(format!("{} is not a CycloneDX document", file.display()));
        }
        let described = sbom["metadata"]["component"]["name"].as_str().unwrap_or("");
        if described != *bin {
            return Err(format!(
                "{} describes {described:?}, not {bin}",
                file.display()
            ));
        }
        let components: Vec<(String, String)> = sbom["components"]
            .as_array()
            .into_iter()
            .flatten()
            .map(|c| {
                (
                    c["name"].as_str().unwrap_or("").to_string(),
                    c["version"].as_str().unwrap_or("").to_string(),
                )
            })
            .collect();
        if let Some(stray) = components.iter().find(|c| !locked.contains(c)) {
            return Err(format!(
                "{} names {} {}, which Cargo.lock does not hold",
                file.display(),
                stray.0,
                stray.1
            ));
        }
        for name in *must {
            if !components.iter().any(|(n, _)| n == name) {
                return Err(format!("{} does not name {name}", file.display()));
            }
        }
        eprintln!(
            "xtask dist: sbom/{bin}.cdx.json names {} crates, all in Cargo.lock",
            components.len()
        );
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_published_crate_has_its_expected_files_and_every_binary_its_sbom_check() {
        let listed: Vec<&str> = CRATE_FILES.iter().map(|(n, _)| *n).collect();
        assert_eq!(listed, CRATES);
        let bins: Vec<&str> = BINARIES.iter().map(|(_, b, _)| *b).collect();
        let sboms: Vec<&str> = SBOM_MUST_NAME.iter().map(|(b, _)| *b).collect();
        assert_eq!(bins, sboms);
    }

    #[test]
    fn the_lock_file_is_read_as_name_and_version_pairs() {
        let root = crate::root();
        let locked = locked_packages(&root).unwrap();
        assert!(locked.contains(&("capi-runtime".to_string(), VERSION.to_string())));
        assert!(locked.iter().any(|(n, _)| n == "tokio"));
    }
}
