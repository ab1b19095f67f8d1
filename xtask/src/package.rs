//! `cargo xtask package`: every crate a user installs, packaged and proven to build from its
//! package alone (a step of `cargo xtask test`).
//!
//! 1. `cargo package` of [`CRATES`] with verification: each `.crate` is unpacked under
//!    `<target>/package/` and built alone, the workspace's crates resolved from the packages
//!    just made (cargo's own temporary registry), as a registry would serve them. The builds
//!    share cargo's target directory, so a second run rebuilds only what changed.
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
    step(
        root,
        cargo,
        &args,
        "packaging (each crate built from its .crate)",
    )?;
    let target = crate::target_dir(root)?;
    install_and_run(root, cargo, &target)
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
