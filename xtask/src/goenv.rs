//! `cargo xtask testenv`: builds the Go programs the tests run against into
//! `target/testenv/bin/`:
//!
//! - etcd, kube-apiserver, `core` (Cluster API's core manager, `sigs.k8s.io/cluster-api/core`),
//!   `crds/cluster-api/` (Cluster API's CRDs) and `webhooks/cluster-api/` (its core webhook
//!   configurations), by the `capi-envtest` crate's library, the
//!   code its `capi-envtest` command runs for users, from the Go module files that crate
//!   carries (`envtest/go/`), with the default (newest) Cluster API;
//! - the same library builds every other supported Cluster API's `core` and
//!   `crds/cluster-api/` into `target/testenv/capi/<version>/` (the control plane is shared),
//!   where the test crate looks when a test asks for that version;
//! - from `interop/capi/` (the workspace's own Go peers): `extension`, Cluster API's own test extension
//!   (`sigs.k8s.io/cluster-api/test/extension`), and `go-rules`, the oracle that runs Go's own
//!   functions for `capi_runtime::go`'s tests. It pins the same Cluster API version as
//!   `envtest/go/cluster-api/<default>/go.mod` (checked here).
//!
//! - once per Cluster API version in [`VERSIONS`] (see [`PER_VERSION`]), each from a copy
//!   under `target/testenv/src/` since a Go module cannot take a file from outside its
//!   directory: `hook-shapes-<version>` (`interop/hook-shapes/`, with the `go.mod` and `go.sum`
//!   of its directory there), which describes that version's hook messages as `encoding/json`
//!   sees them, for the drift test (`capi-runtime-oracle`'s `hook_shapes`); and
//!   `go-extension-<version>` (`interop/go-extension/`, with the module files of that version's
//!   manager), an extension written with that version's own kit, which the interop tests call
//!   with the Rust client.
//!
//! The pins are each module's `go.mod` and `go.sum` (published modules only, fetched through the
//! Go module proxy). A stamp per module next to the binaries holds its pins, the Go version, the
//! build recipe and a hash of each of the module's own Go files; a module is built again only
//! when one of those changed or a binary is missing. Go's own caches (`GOCACHE`, `GOMODCACHE`, by default under the home directory) are
//! kept between runs and between clones. With `KUBEBUILDER_ASSETS` set, the control plane is not
//! built: the tests take etcd and kube-apiserver from that directory (the core manager and the
//! CRDs are still built into `target/testenv/bin/`).

use std::path::Path;
use std::process::Command;
use std::time::Instant;

/// One Go module and the main packages built from it.
struct Module {
    /// The module's directory, relative to the workspace root.
    dir: &'static str,
    /// `go build` arguments: packages of the module or of modules it requires. Each binary is
    /// named after the last element of its package path.
    packages: &'static [&'static str],
}

const MODULES: &[Module] = &[Module {
    dir: "interop/capi",
    packages: &["./cmd/go-rules", "sigs.k8s.io/cluster-api/test/extension"],
}];

/// The supported Cluster API versions, newest last, as `capi-envtest` lists them (the one place
/// they are named). The newest is the one the default core manager and the other peers pin.
const VERSIONS: &[&str] = capi_envtest::CLUSTER_API_VERSIONS;

/// Flags of every build; part of the stamp, so changing them rebuilds. The compiler writes no
/// DWARF (the linker drops it anyway, `-s -w`): a cold build of `go-rules` took 14 % less CPU
/// (320 s to 277 s on the 2 cores), and the binaries are the same but for debug information.
const FLAGS: &[&str] = &[
    "-trimpath",
    "-buildvcs=false",
    "-mod=readonly",
    "-gcflags=all=-dwarf=false",
];

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
    crate::pin_lag::report(VERSIONS);
    drop_go_cache_when_disk_is_low(root)?;
    let logs = crate::target_dir(root)?.join("testenv/logs");
    match std::fs::remove_dir_all(&logs) {
        Err(e) if e.kind() != std::io::ErrorKind::NotFound => {
            Err(format!("{}: {e}", logs.display()))
        }
        _ => Ok(()),
    }
}

/// With `CAPI_DROP_GO_CACHE_BELOW_GB=N` (what CI sets): once the Go peers are built, their
/// binaries are all the tests read, so when less than N GB of disk is left, Go's build cache
/// (gigabytes after a cold build) is dropped before the Rust builds fill the disk.
fn drop_go_cache_when_disk_is_low(root: &Path) -> Result<(), String> {
    let Some(limit) = std::env::var("CAPI_DROP_GO_CACHE_BELOW_GB")
        .ok()
        .filter(|v| !v.is_empty())
    else {
        return Ok(());
    };
    let limit: u64 = limit
        .parse()
        .map_err(|_| format!("CAPI_DROP_GO_CACHE_BELOW_GB={limit:?} is not a number"))?;
    let output = Command::new("df")
        .arg("-Pk")
        .arg(root)
        .output()
        .map_err(|e| format!("cannot run df: {e}"))?;
    let free_kib: u64 = String::from_utf8_lossy(&output.stdout)
        .lines()
        .nth(1)
        .and_then(|line| line.split_whitespace().nth(3))
        .and_then(|field| field.parse().ok())
        .ok_or("df -Pk printed no free space")?;
    let free_gb = free_kib / (1024 * 1024);
    if free_gb >= limit {
        return Ok(());
    }
    eprintln!("xtask: {free_gb} GB of disk left (< {limit}): dropping Go's build cache");
    let status = Command::new("go")
        .args(["clean", "-cache"])
        .status()
        .map_err(|e| format!("cannot run go clean -cache: {e}"))?;
    if status.success() {
        Ok(())
    } else {
        Err(format!("go clean -cache failed ({status})"))
    }
}

/// Builds every module whose binaries are not up to date.
pub fn build(root: &Path) -> Result<(), String> {
    let assets = std::env::var_os("KUBEBUILDER_ASSETS").filter(|d| !d.is_empty());
    if let Some(dir) = &assets {
        eprintln!(
            "xtask: KUBEBUILDER_ASSETS={}: the tests use the etcd and kube-apiserver there",
            Path::new(dir).display()
        );
    }
    let bin = crate::target_dir(root)?.join("testenv/bin");
    let parts: &[capi_envtest::Part] = if assets.is_some() {
        &[capi_envtest::Part::ClusterApi]
    } else {
        &capi_envtest::Part::ALL
    };
    let mut reporter = capi_envtest::Reporter::stderr("xtask: ");
    let built = capi_envtest::install(&bin, parts, &mut |event| reporter.report(event));
    reporter.finish();
    built.map_err(|e| chain(&e))?;
    for version in other_cluster_api_versions() {
        let dir = crate::target_dir(root)?.join("testenv/capi").join(version);
        let built = capi_envtest::install_version(
            &dir,
            version,
            &[capi_envtest::Part::ClusterApi],
            &mut |event| reporter.report(event),
        );
        reporter.finish();
        built.map_err(|e| chain(&e))?;
    }
    let go_version = go_version()?;
    for module in MODULES {
        let dir = root.join(module.dir);
        let go_mod = std::fs::read_to_string(dir.join("go.mod"))
            .map_err(|e| format!("{}/go.mod: {e}", module.dir))?;
        let pinned = capi_envtest::versions().cluster_api;
        let here = capi_envtest::required(&go_mod, "sigs.k8s.io/cluster-api");
        if here.as_deref() != Some(pinned.as_str()) {
            return Err(format!(
                "{}/go.mod requires sigs.k8s.io/cluster-api {here:?}, envtest/go/cluster-api/{pinned}/go.mod {pinned}: \
                 the test peers and the core manager must be the same Cluster API",
                module.dir
            ));
        }
        let names: Vec<&str> = module.packages.iter().map(|p| binary_name(p)).collect();
        build_module(root, module.dir, &dir, module.packages, &names, &go_version)?;
    }
    build_per_version(root, &go_version)
}

/// The supported Cluster API versions but the default, whose managers the test crate finds in
/// `target/testenv/capi/<version>/`.
fn other_cluster_api_versions() -> impl Iterator<Item = &'static str> {
    capi_envtest::CLUSTER_API_VERSIONS
        .iter()
        .copied()
        .filter(|v| *v != capi_envtest::DEFAULT_CLUSTER_API_VERSION)
}

/// An error and its causes on one line.
fn chain(e: &dyn std::error::Error) -> String {
    std::iter::successors(Some(e), |e| e.source())
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join(": ")
}

/// A Go program built once per supported Cluster API version into `<name>-<version>`, from a
/// copy under `target/testenv/src/` (a Go module cannot take a file from outside its
/// directory): the Go files of `source`, those of `source/<version>/` if there are any, and the
/// `go.mod` and `go.sum` of `module(version)`.
struct PerVersion {
    name: &'static str,
    source: &'static str,
    module: fn(&str) -> String,
}

const PER_VERSION: &[PerVersion] = &[
    // Describes the version's hook messages; its own module (the hook types alone).
    PerVersion {
        name: "hook-shapes",
        source: "interop/hook-shapes",
        module: |version| format!("interop/hook-shapes/{version}"),
    },
    // An extension written with the version's own kit. It takes the module files capi-envtest
    // builds that version's manager with: the kit is part of the same module, so the build
    // reuses the manager's compiled dependencies.
    PerVersion {
        name: "go-extension",
        source: "interop/go-extension",
        module: |version| format!("envtest/go/cluster-api/{version}"),
    },
];

/// Every [`PER_VERSION`] program for each of [`VERSIONS`].
fn build_per_version(root: &Path, go_version: &str) -> Result<(), String> {
    let newest = capi_envtest::versions().cluster_api;
    if VERSIONS.last() != Some(&newest.as_str()) {
        return Err(format!(
            "capi_envtest::CLUSTER_API_VERSIONS ends with {:?}, the core manager pins {newest}: the \
             newest version described must be the one the tests run",
            VERSIONS.last()
        ));
    }
    for program in PER_VERSION {
        for version in VERSIONS {
            build_one_version(root, program, version, go_version)?;
        }
    }
    Ok(())
}

fn build_one_version(
    root: &Path,
    program: &PerVersion,
    version: &str,
    go_version: &str,
) -> Result<(), String> {
    let name = format!("{}-{version}", program.name);
    let module = (program.module)(version);
    let src = crate::target_dir(root)?.join(format!("testenv/src/{name}"));
    std::fs::create_dir_all(&src).map_err(|e| format!("{}: {e}", src.display()))?;
    let mut files = vec![
        (root.join(&module).join("go.mod"), "go.mod".to_string()),
        (root.join(&module).join("go.sum"), "go.sum".to_string()),
    ];
    // The shared Go files, then the version's own (convert.go where v1beta1 still exists).
    let shared = root.join(program.source);
    for dir in [shared.clone(), shared.join(version)] {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        for entry in entries {
            let path = entry.map_err(|e| format!("{}: {e}", dir.display()))?.path();
            let file = path
                .file_name()
                .and_then(|n| n.to_str())
                .unwrap_or_default();
            if file.ends_with(".go") {
                files.push((path.clone(), file.to_string()));
            }
        }
    }
    // Only those files: a Go file left by an older checkout (or another worktree sharing the
    // target directory) would be built into the package.
    for entry in std::fs::read_dir(&src).map_err(|e| format!("{}: {e}", src.display()))? {
        let path = entry.map_err(|e| format!("{}: {e}", src.display()))?.path();
        let copied = |p: &Path| files.iter().any(|(_, n)| p.ends_with(n));
        if path.extension().is_some_and(|x| x == "go") && !copied(&path) {
            std::fs::remove_file(&path).map_err(|e| format!("{}: {e}", path.display()))?;
        }
    }
    for (from, file) in &files {
        let bytes = std::fs::read(from).map_err(|e| format!("{}: {e}", from.display()))?;
        // Rewritten only when it changed: the stamp compares contents, Go its own cache.
        if std::fs::read(src.join(file)).ok().as_deref() != Some(bytes.as_slice()) {
            std::fs::write(src.join(file), &bytes)
                .map_err(|e| format!("{}: {e}", src.join(file).display()))?;
        }
    }
    // Cluster API's module, or from v1.14 on its api module, at the directory's version.
    let go_mod = std::fs::read_to_string(src.join("go.mod")).unwrap_or_default();
    let pinned = ["sigs.k8s.io/cluster-api", "sigs.k8s.io/cluster-api/api"]
        .map(|m| capi_envtest::required(&go_mod, m));
    if !pinned.iter().any(|p| p.as_deref() == Some(version)) {
        return Err(format!(
            "{module}/go.mod requires Cluster API {pinned:?}, not the {version} {name} is built for"
        ));
    }
    let label = format!("{}/{version}", program.source);
    build_module(root, &label, &src, &["."], &[name.as_str()], go_version)
}

/// Builds `packages` of the Go module in `dir` into `target/testenv/bin/` as `names` (one
/// binary per package), unless the stamp of `label` says they are there for the same sources.
fn build_module(
    root: &Path,
    label: &str,
    dir: &Path,
    packages: &[&str],
    names: &[&str],
    go_version: &str,
) -> Result<(), String> {
    let read =
        |f: &str| std::fs::read_to_string(dir.join(f)).map_err(|e| format!("{label}/{f}: {e}"));
    let go_mod = read("go.mod")?;
    let go_sum = read("go.sum")?;
    // No symbol tables.
    let ldflags = "-s -w";
    let sources = own_sources(dir)?;
    let wanted = format!(
        "{go_version}\nflags: {} -ldflags={ldflags}\npackages: {}\n--- sources\n{sources}--- go.mod\n{go_mod}\n--- go.sum\n{go_sum}",
        FLAGS.join(" "),
        packages.join(" ")
    );
    let out = crate::target_dir(root)?.join("testenv");
    let bin = out.join("bin");
    let stamp = bin.join(format!(".{}.stamp", label.replace('/', "-")));
    let present = names.iter().all(|n| bin.join(n).is_file());
    if present && std::fs::read_to_string(&stamp).ok().as_deref() == Some(wanted.as_str()) {
        return Ok(());
    }
    eprintln!(
        "xtask: building {} from {} with {go_version} into {} (the first build takes a while)",
        names.join(", "),
        label,
        bin.display()
    );
    let started = Instant::now();
    let tmp = out.join(format!("build-{}", label.replace('/', "-")));
    let _ = std::fs::remove_dir_all(&tmp);
    std::fs::create_dir_all(&tmp).map_err(|e| format!("{}: {e}", tmp.display()))?;
    std::fs::create_dir_all(&bin).map_err(|e| format!("{}: {e}", bin.display()))?;
    let status = Command::new("go")
        .arg("build")
        .args(FLAGS)
        .arg(format!("-ldflags={ldflags}"))
        .arg("-o")
        // One package: its binary under the name given; several: each under its own.
        .arg(match (packages, names) {
            ([_], [name]) => tmp.join(name).display().to_string(),
            _ => format!("{}/", tmp.display()),
        })
        .args(packages)
        .current_dir(dir)
        // The pinned module alone: no workspace file, no toolchain download.
        .env("GOWORK", "off")
        .env("GOTOOLCHAIN", "local")
        .env("GOFLAGS", "")
        .status()
        .map_err(|e| format!("cannot run go build: {e}"))?;
    if !status.success() {
        return Err(format!(
            "go build in {label} ({}) failed ({status})",
            packages.join(" ")
        ));
    }
    // The stamp goes first and comes back last: an interrupted copy is built again.
    let _ = std::fs::remove_file(&stamp);
    for name in names {
        std::fs::rename(tmp.join(name), bin.join(name))
            .map_err(|e| format!("{}: {e}", bin.join(name).display()))?;
    }
    let _ = std::fs::remove_dir_all(&tmp);
    std::fs::write(&stamp, wanted).map_err(|e| format!("{}: {e}", stamp.display()))?;
    eprintln!(
        "xtask: built {} in {:.0?}",
        names.join(", "),
        started.elapsed()
    );
    Ok(())
}

/// The module's own Go files (not those of a nested module), one line each with a hash of
/// its content, so that editing a test program builds it again.
fn own_sources(dir: &Path) -> Result<String, String> {
    fn walk(dir: &Path, top: &Path, out: &mut Vec<(String, u64)>) -> Result<(), String> {
        let mut entries: Vec<_> = std::fs::read_dir(dir)
            .map_err(|e| format!("{}: {e}", dir.display()))?
            .filter_map(Result::ok)
            .map(|e| e.path())
            .collect();
        entries.sort();
        for path in entries {
            if path.is_dir() {
                if !path.join("go.mod").exists() {
                    walk(&path, top, out)?;
                }
            } else if path.extension().is_some_and(|e| e == "go") {
                let bytes = std::fs::read(&path).map_err(|e| format!("{}: {e}", path.display()))?;
                let name = path
                    .strip_prefix(top)
                    .unwrap_or(&path)
                    .display()
                    .to_string();
                out.push((name, fnv1a(&bytes)));
            }
        }
        Ok(())
    }
    let mut files = Vec::new();
    walk(dir, dir, &mut files)?;
    Ok(files
        .iter()
        .map(|(name, hash)| format!("{name} {hash:016x}\n"))
        .collect())
}

/// FNV-1a, 64 bits: a content hash that does not change between Rust versions.
fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

/// `go version`, or the one line that says Go is missing.
fn go_version() -> Result<String, String> {
    const MISSING: &str = "Go is not installed (no `go` on the PATH): the tests build etcd, \
        kube-apiserver and Cluster API peers from interop/ with it; install Go 1.26 or newer";
    match Command::new("go").arg("version").output() {
        Ok(o) if o.status.success() => Ok(String::from_utf8_lossy(&o.stdout).trim().to_string()),
        Ok(o) => Err(format!(
            "{MISSING} (`go version` failed: {})",
            String::from_utf8_lossy(&o.stderr).trim()
        )),
        Err(_) => Err(MISSING.to_string()),
    }
}

/// The file `go build -o dir/` writes for a main package: the last element of its path.
fn binary_name(package: &str) -> &str {
    package.rsplit('/').next().unwrap_or(package)
}
