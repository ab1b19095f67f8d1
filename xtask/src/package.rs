//! `cargo xtask package`: every crate a user installs, packaged and proven to build from its
//! package alone (a step of `cargo xtask test`).
//!
//! 1. `cargo package` of [`CRATES`] with verification: each `.crate` is unpacked under
//!    `<target>/package/` and built alone, the workspace's crates resolved from the packages
//!    just made (cargo's own temporary registry), as a registry would serve them. The builds
//!    share cargo's target directory, so a second run rebuilds only what changed. Cargo unpacks
//!    the temporary registry's crates under `$CARGO_HOME/registry/src/<registry>/` and reuses an
//!    unpacked `name-version` it finds there without comparing contents, and the registry's
//!    directory depends only on the checkout's path: a second checkout at the same path (a CI
//!    machine keeps `CARGO_HOME`) built the derive crate against the generator of an earlier
//!    commit and failed. [`forget_unpacked`] removes those copies first, and [`forget_built`]
//!    what the shared target directory built from them: cargo unpacks every file with the
//!    same old mtime, so it would take an earlier build of the same version as fresh.
//! 2. The packaged generator installed as a user installs it: `cargo install --path` of its
//!    unpacked `.crate`, offline, into a scratch root, with `capi-runtime-codegen` taken from
//!    its unpacked `.crate` too (no registry has it). Installed with `--debug`, its output in
//!    `<target>/package-install` and its intermediate artifacts in the workspace's build
//!    directory: the dependencies step 1 compiled for the generator's and `capi-envtest`'s own
//!    packages, in the same profile, are not compiled again (measured on the 2 shared cores:
//!    40 s of CPU cold for the generator's installation in a directory of its own, 13 s
//!    sharing it). The release profile would compile every dependency once more for the same
//!    code, and the point is what the package contains, not how it is optimized.
//! 3. The installed tools run from an empty directory: the README's first command (with the
//!    workspace's version, `v0.1.0` today) writes a document byte-identical to `golden/sdk/runtime-sdk-openapi.yaml`, `runtime-crd-gen
//!    --check` agrees with `golden/sdk/crd/`, and `--input` over a crate outside the workspace
//!    that uses the SDK's types writes its hook.
//! 4. The packaged `capi-envtest` installed the same way: `--version` and `versions` print the
//!    workspace's version and pins, and run over the directory `cargo xtask testenv` filled
//!    (`target/testenv/bin/`) it builds nothing and prints the lines the library computes: the
//!    Go module files in its package are the ones the workspace built from, byte for byte (they
//!    are part of the stamp it compares). Without that directory (`cargo xtask package` alone,
//!    or `KUBEBUILDER_ASSETS` naming a control plane elsewhere) this last run is skipped, saying so.

use std::path::{Path, PathBuf};
use std::process::Command;

use crate::validators::step;

/// The published crates, in dependency order (what `RELEASING.md` publishes, in this order).
pub const CRATES: &[&str] = &[
    "capi-runtime-codegen",
    "capi-runtime-derive",
    "capi-runtime",
    "runtime-openapi-gen",
    "capi-runtime-controller",
    "capi-runtime-manager",
    "capi-envtest",
    "capi-runtime-testenv",
];

/// The version of every crate of the workspace.
const VERSION: &str = env!("CARGO_PKG_VERSION");

/// A crate outside the workspace with one hook that embeds an SDK type.
const OUTSIDE_HOOK: &str = include_str!("../../cli/tests/data/outside_hook.rs");

/// `cargo xtask package`.
pub fn command(args: &[String]) -> Result<(), String> {
    if !args.is_empty() {
        return Err("usage: cargo xtask package".into());
    }
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    run(&crate::root(), &cargo)
}

/// Packages and verifies [`CRATES`], then installs and runs the packaged generator.
pub fn run(root: &Path, cargo: &str) -> Result<(), String> {
    // The working tree as it is (the test command also runs before a commit).
    let mut args = vec!["package", "--locked", "--allow-dirty"];
    for name in CRATES {
        args.extend(["-p", name]);
    }
    let target = crate::target_dir(root)?;
    let unpacked = forget_unpacked(&cargo_home()?)?;
    let built = forget_built(&target.join("debug"))?;
    if unpacked + built > 0 {
        eprintln!(
            "xtask package: forgot {unpacked} unpacked copies and {built} builds of this \
             workspace's earlier packages"
        );
    }
    step(
        root,
        cargo,
        &args,
        "packaging (each crate built from its .crate)",
    )?;
    install_and_run(root, cargo, &target)
}

/// Cargo's home: `CARGO_HOME`, else `~/.cargo`.
fn cargo_home() -> Result<PathBuf, String> {
    if let Some(home) = std::env::var_os("CARGO_HOME") {
        return Ok(PathBuf::from(home));
    }
    std::env::var_os("HOME")
        .map(|home| PathBuf::from(home).join(".cargo"))
        .ok_or_else(|| "neither CARGO_HOME nor HOME is set".into())
}

/// Removes every unpacked (`registry/src`) and cached (`registry/cache`) copy of a [`CRATES`]
/// package at this workspace's version from the registries cargo made for `cargo package`
/// (directories named `-<hash>`; crates.io's `index.crates.io-<hash>` is left alone). Returns
/// how many were removed.
fn forget_unpacked(cargo_home: &Path) -> Result<usize, String> {
    let mut removed = 0;
    for (kind, suffix) in [("src", ""), ("cache", ".crate")] {
        let dir = cargo_home.join("registry").join(kind);
        let Ok(registries) = std::fs::read_dir(&dir) else {
            continue;
        };
        for registry in registries {
            let registry = registry.map_err(|e| format!("{}: {e}", dir.display()))?;
            if !registry.file_name().to_string_lossy().starts_with('-') {
                continue;
            }
            for name in CRATES {
                let copy = registry.path().join(format!("{name}-{VERSION}{suffix}"));
                let gone = if copy.is_dir() {
                    std::fs::remove_dir_all(&copy)
                } else if copy.exists() {
                    std::fs::remove_file(&copy)
                } else {
                    continue;
                };
                gone.map_err(|e| format!("{}: {e}", copy.display()))?;
                removed += 1;
            }
        }
    }
    Ok(removed)
}

/// Removes the fingerprints, in the profile directory `profile` (`<target>/debug`), of every
/// [`CRATES`] library built from a temporary registry's copy (its `deps/<lib>-<hash>.d` names a
/// file under `registry/src/-…`), so that cargo builds it again. Returns how many.
fn forget_built(profile: &Path) -> Result<usize, String> {
    let deps = profile.join("deps");
    let Ok(entries) = std::fs::read_dir(&deps) else {
        return Ok(0);
    };
    let mut removed = 0;
    for entry in entries {
        let path = entry
            .map_err(|e| format!("{}: {e}", deps.display()))?
            .path();
        let Some((lib, hash)) = path
            .file_name()
            .and_then(|n| n.to_str())
            .and_then(|n| n.strip_suffix(".d"))
            .and_then(|n| n.rsplit_once('-'))
        else {
            continue;
        };
        let Some(name) = CRATES.iter().find(|name| name.replace('-', "_") == lib) else {
            continue;
        };
        let text =
            std::fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
        if !text.contains("/registry/src/-") {
            continue;
        }
        let fingerprint = profile.join(".fingerprint").join(format!("{name}-{hash}"));
        if fingerprint.exists() {
            std::fs::remove_dir_all(&fingerprint)
                .map_err(|e| format!("{}: {e}", fingerprint.display()))?;
            removed += 1;
        }
    }
    Ok(removed)
}

/// The `.crate` file of `name` that `cargo package` wrote.
pub fn crate_file(target: &Path, name: &str) -> PathBuf {
    target
        .join("package")
        .join(format!("{name}-{VERSION}.crate"))
}

fn install_and_run(root: &Path, cargo: &str, target: &Path) -> Result<(), String> {
    // Outside the workspace (a package under it would be taken for a member), removed after.
    let scratch = std::env::temp_dir().join(format!("capi-runtime-package-{}", std::process::id()));
    let result = install_in(root, cargo, target, &scratch);
    let _ = std::fs::remove_dir_all(&scratch);
    result
}

fn install_in(root: &Path, cargo: &str, target: &Path, scratch: &Path) -> Result<(), String> {
    let unpacked = scratch.join("unpacked");
    std::fs::create_dir_all(&unpacked).map_err(|e| e.to_string())?;
    for name in [
        "runtime-openapi-gen",
        "capi-runtime-codegen",
        "capi-envtest",
    ] {
        run_ok(
            Command::new("tar")
                .arg("-xzf")
                .arg(crate_file(target, name))
                .arg("-C")
                .arg(&unpacked),
            &format!("unpacking {name}"),
        )?;
    }
    let cli = unpacked.join(format!("runtime-openapi-gen-{VERSION}"));
    let codegen = unpacked.join(format!("capi-runtime-codegen-{VERSION}"));
    let prefix = scratch.join("root");
    eprintln!("xtask package: cargo install --path {}", cli.display());
    run_ok(
        cargo_install(cargo, &cli, &prefix, target)
            .arg("--config")
            .arg(format!(
                "patch.crates-io.capi-runtime-codegen.path={:?}",
                codegen.display().to_string()
            ))
            // Nothing of the workspace's configuration applies to an installed tool.
            .current_dir(scratch),
        "installing the packaged runtime-openapi-gen",
    )?;
    let bin = |name: &str| prefix.join("bin").join(name);

    // The README's first command, from an empty directory.
    let empty = scratch.join("empty");
    std::fs::create_dir_all(&empty).map_err(|e| e.to_string())?;
    run_ok(
        Command::new(bin("runtime-openapi-gen"))
            .args(["--version", crate::codegen::DOC_VERSION])
            .current_dir(&empty),
        "the installed runtime-openapi-gen --version (the workspace's version)",
    )?;
    let written = std::fs::read(empty.join("runtime-sdk-openapi.yaml"))
        .map_err(|e| format!("the installed generator wrote no document: {e}"))?;
    let golden = std::fs::read(root.join("golden/sdk/runtime-sdk-openapi.yaml"))
        .map_err(|e| format!("golden/sdk/runtime-sdk-openapi.yaml: {e}"))?;
    if written != golden {
        return Err(
            "the installed runtime-openapi-gen wrote a document that differs from \
             golden/sdk/runtime-sdk-openapi.yaml"
                .into(),
        );
    }
    run_ok(
        Command::new(bin("runtime-crd-gen"))
            .arg("--check")
            .arg(root.join("golden/sdk/crd"))
            .current_dir(&empty),
        "the installed runtime-crd-gen --check golden/sdk/crd",
    )?;

    // `--input` over a crate outside the workspace that names the SDK's types.
    let outside = scratch.join("outside");
    std::fs::create_dir_all(outside.join("src/hooks")).map_err(|e| e.to_string())?;
    std::fs::write(outside.join("src/hooks/mod.rs"), OUTSIDE_HOOK).map_err(|e| e.to_string())?;
    run_ok(
        Command::new(bin("runtime-openapi-gen"))
            .args([
                "--version",
                "v1",
                "--input",
                "src",
                "--output-file",
                "hello.json",
            ])
            .current_dir(&outside),
        "the installed runtime-openapi-gen --input",
    )?;
    let text = std::fs::read_to_string(outside.join("hello.json")).map_err(|e| e.to_string())?;
    let doc: serde_json::Value = serde_json::from_str(&text).map_err(|e| e.to_string())?;
    let paths: Vec<&String> = doc["paths"]
        .as_object()
        .map(|p| p.keys().collect())
        .unwrap_or_default();
    let cluster = &doc["components"]["schemas"]["sigs.k8s.io.cluster-api.api.core.v1beta2.Cluster"];
    if paths != ["/hello.example.com/v1/hello/{name}"] || !cluster.is_object() {
        return Err(format!(
            "the installed runtime-openapi-gen --input wrote paths {paths:?} and {} the SDK's \
             Cluster schema",
            if cluster.is_object() {
                "with"
            } else {
                "without"
            }
        ));
    }
    eprintln!(
        "xtask package: {} crates packaged and built alone; the installed generator matches the golden document",
        CRATES.len()
    );
    install_envtest(cargo, target, scratch, &unpacked, &prefix)
}

/// Step 4: the packaged `capi-envtest`, installed and run.
fn install_envtest(
    cargo: &str,
    target: &Path,
    scratch: &Path,
    unpacked: &Path,
    prefix: &Path,
) -> Result<(), String> {
    run_ok(
        cargo_install(
            cargo,
            &unpacked.join(format!("capi-envtest-{VERSION}")),
            prefix,
            target,
        )
        .current_dir(scratch),
        "installing the packaged capi-envtest",
    )?;
    let envtest = prefix.join("bin/capi-envtest");
    // The installed command's stdout and stderr, or the failure with both.
    let run = |args: &[&str], what: &str| -> Result<(String, String), String> {
        let output = run_ok(Command::new(&envtest).args(args).current_dir(scratch), what)?;
        let text = |b: &[u8]| String::from_utf8_lossy(b).into_owned();
        Ok((text(&output.stdout), text(&output.stderr)))
    };
    let (version, _) = run(&["--version"], "the installed capi-envtest --version")?;
    let pins = capi_envtest::versions();
    let (versions, _) = run(&["versions"], "the installed capi-envtest versions")?;
    let expected = [
        format!("kubernetes {}", pins.kubernetes),
        format!("etcd {}", pins.etcd),
        format!("cluster-api {}", pins.cluster_api),
    ];
    if version.trim() != format!("capi-envtest {VERSION}")
        || !expected
            .iter()
            .all(|line| versions.lines().any(|l| l == line))
    {
        return Err(format!(
            "the installed capi-envtest prints {version:?} and versions {versions:?}, \
             expected capi-envtest {VERSION} and {expected:?}"
        ));
    }

    let bin = target.join("testenv/bin");
    let built = [
        capi_envtest::ETCD,
        capi_envtest::KUBE_APISERVER,
        capi_envtest::MANAGER,
        capi_envtest::CRDS_DIR,
        capi_envtest::WEBHOOKS_DIR,
    ]
    .iter()
    .all(|name| bin.join(name).exists());
    if !built {
        eprintln!(
            "xtask package: the installed capi-envtest's run over {} skipped: `cargo xtask \
             testenv` has not built every part there (KUBEBUILDER_ASSETS set, or not run yet)",
            bin.display()
        );
        return Ok(());
    }
    let dir = bin.to_string_lossy();
    let (printed, progress) = run(
        &["--dir", &dir],
        "the installed capi-envtest over target/testenv/bin",
    )?;
    let wanted: String = capi_envtest::paths(&bin)
        .iter()
        .map(|(var, path)| format!("export {var}='{}'\n", path.display()))
        .collect();
    if printed != wanted || !progress.is_empty() {
        return Err(format!(
            "the installed capi-envtest over {} printed {printed:?} (expected {wanted:?}) \
             and reported {progress:?} (expected nothing: the packaged Go module files should \
             match the ones the workspace built from)",
            bin.display()
        ));
    }
    eprintln!(
        "xtask package: the installed capi-envtest prints the workspace's pins and finds \
         target/testenv/bin up to date"
    );
    Ok(())
}

/// `cargo install --path dir` as a user installs a crate, offline, into the scratch root
/// `prefix`; `--debug` into `<target>/package-install`, sharing the workspace's build
/// directory (see the module's step 2).
fn cargo_install(cargo: &str, dir: &Path, prefix: &Path, target: &Path) -> Command {
    let mut command = Command::new(cargo);
    command
        .env("CARGO_BUILD_BUILD_DIR", target)
        .arg("install")
        .arg("--path")
        .arg(dir)
        .arg("--root")
        .arg(prefix)
        .args(["--offline", "--debug", "--quiet", "--target-dir"])
        .arg(target.join("package-install"));
    command
}

/// Runs `command`; its output when it succeeds, an error with both streams when it fails.
fn run_ok(command: &mut Command, what: &str) -> Result<std::process::Output, String> {
    let started = std::time::Instant::now();
    let output = command
        .output()
        .map_err(|e| format!("{what}: cannot start: {e}"))?;
    if output.status.success() {
        let took = started.elapsed().as_secs_f64();
        if took >= 1.0 {
            eprintln!("xtask package: {what}: {took:.0} s");
        }
        return Ok(output);
    }
    Err(format!(
        "{what} failed ({}):\n{}{}",
        output.status,
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_this_workspaces_packages_leave_the_temporary_registries() {
        let home = tempfile_dir("forget-unpacked");
        let make = |path: &str| {
            let path = home.join(path);
            std::fs::create_dir_all(&path).unwrap();
            std::fs::write(path.join("lib.rs"), "").unwrap();
        };
        let file = |path: &str| {
            let path = home.join(path);
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(path, "").unwrap();
        };
        make(&format!(
            "registry/src/-0123abcd/capi-runtime-codegen-{VERSION}"
        ));
        make(&format!("registry/src/-0123abcd/capi-runtime-{VERSION}"));
        file(&format!(
            "registry/cache/-0123abcd/capi-runtime-{VERSION}.crate"
        ));
        // Kept: crates.io's copies, another version, another crate.
        make(&format!(
            "registry/src/index.crates.io-1949cf8c6b5b557f/capi-runtime-{VERSION}"
        ));
        make("registry/src/-0123abcd/capi-runtime-0.0.9");
        make(&format!("registry/src/-0123abcd/serde-{VERSION}"));

        assert_eq!(forget_unpacked(&home).unwrap(), 3);
        let exists = |path: &str| home.join(path).exists();
        assert!(!exists(&format!(
            "registry/src/-0123abcd/capi-runtime-codegen-{VERSION}"
        )));
        assert!(!exists(&format!(
            "registry/cache/-0123abcd/capi-runtime-{VERSION}.crate"
        )));
        assert!(exists(&format!(
            "registry/src/index.crates.io-1949cf8c6b5b557f/capi-runtime-{VERSION}"
        )));
        assert!(exists("registry/src/-0123abcd/capi-runtime-0.0.9"));
        assert!(exists(&format!("registry/src/-0123abcd/serde-{VERSION}")));
        // A second run finds nothing; a home without a registry is not an error.
        assert_eq!(forget_unpacked(&home).unwrap(), 0);
        assert_eq!(forget_unpacked(&home.join("missing")).unwrap(), 0);
        std::fs::remove_dir_all(&home).unwrap();
    }

    #[test]
    fn only_builds_from_a_temporary_registry_are_forgotten() {
        let profile = tempfile_dir("forget-built");
        let write = |path: &str, text: &str| {
            let path = profile.join(path);
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(path, text).unwrap();
        };
        let from_registry =
            "/h/.cargo/registry/src/-0123abcd/capi-runtime-codegen-0.1.0/src/lib.rs";
        write(
            "deps/capi_runtime_codegen-aaaa.d",
            &format!("x.rlib: {from_registry}\n"),
        );
        write(".fingerprint/capi-runtime-codegen-aaaa/lib", "");
        // Kept: the workspace's own build, a crates.io crate, a crate of another name.
        write(
            "deps/capi_runtime_codegen-bbbb.d",
            "x.rlib: /w/codegen/src/lib.rs\n",
        );
        write(".fingerprint/capi-runtime-codegen-bbbb/lib", "");
        write(
            "deps/capi_runtime-cccc.d",
            "x.rlib: /h/.cargo/registry/src/index.crates.io-1/x\n",
        );
        write(".fingerprint/capi-runtime-cccc/lib", "");
        write("deps/serde-dddd.d", &format!("x.rlib: {from_registry}\n"));
        write(".fingerprint/serde-dddd/lib", "");

        assert_eq!(forget_built(&profile).unwrap(), 1);
        let exists = |path: &str| profile.join(".fingerprint").join(path).exists();
        assert!(!exists("capi-runtime-codegen-aaaa"));
        assert!(exists("capi-runtime-codegen-bbbb"));
        assert!(exists("capi-runtime-cccc"));
        assert!(exists("serde-dddd"));
        assert_eq!(forget_built(&profile).unwrap(), 0);
        assert_eq!(forget_built(&profile.join("missing")).unwrap(), 0);
        std::fs::remove_dir_all(&profile).unwrap();
    }

    fn tempfile_dir(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("xtask-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        dir
    }
}
