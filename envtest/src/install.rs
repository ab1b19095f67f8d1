//! Building the binaries into a directory, again only when the pins or the Go version changed.
//!
//! Each [`Part`] is one Go module of this crate. Its files are written to `<dir>/.src/<part>/`
//! and built from there with `go build -mod=readonly` (the pins as they are: nothing is
//! resolved again), outside any Go workspace. A stamp per part next to the binaries records
//! the Go version, the flags and a hash of the module files; a part is built again only when
//! the stamp differs or a file it made is missing. Go's own caches (`GOCACHE`, `GOMODCACHE`)
//! are Go's defaults and are kept between runs.

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Instant;

use crate::progress::{Progress, is_package_line};
use crate::{
    CRDS_DIR, DEFAULT_CLUSTER_API_VERSION, ETCD, Error, FILES, KUBE_APISERVER, MANAGER,
    WEBHOOKS_DIR, cluster_api_part, required,
};

/// One Go module of this crate and what it makes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Part {
    /// etcd and kube-apiserver.
    ControlPlane,
    /// Cluster API's core manager, Cluster API's CRDs and its webhook configurations.
    ClusterApi,
}

impl Part {
    /// Both parts.
    pub const ALL: [Part; 2] = [Part::ControlPlane, Part::ClusterApi];

    /// The name of its stamp and scratch directories.
    fn name(self) -> &'static str {
        match self {
            Part::ControlPlane => "control-plane",
            Part::ClusterApi => "cluster-api",
        }
    }

    /// Its directory of [`FILES`] with Cluster API `cluster_api`.
    fn files_dir(self, cluster_api: &str) -> String {
        match self {
            Part::ControlPlane => self.name().to_string(),
            Part::ClusterApi => cluster_api_part(cluster_api),
        }
    }

    /// The packages `go build` makes, and the binary each becomes.
    fn packages(self, cluster_api: &str) -> Vec<(String, &'static str)> {
        match self {
            Part::ControlPlane => vec![
                ("./cmd/etcd".to_string(), ETCD),
                (
                    "k8s.io/kubernetes/cmd/kube-apiserver".to_string(),
                    KUBE_APISERVER,
                ),
            ],
            Part::ClusterApi => vec![(manager_package(cluster_api), MANAGER)],
        }
    }

    /// What the part leaves in the directory.
    fn outputs(self) -> Vec<&'static str> {
        match self {
            Part::ControlPlane => vec![ETCD, KUBE_APISERVER],
            Part::ClusterApi => vec![MANAGER, CRDS_DIR, WEBHOOKS_DIR],
        }
    }
}

/// The core manager's package at Cluster API `cluster_api`, as the version's `tools.go`
/// imports it: `sigs.k8s.io/cluster-api/core` from v1.14 on, the module's root before.
fn manager_package(cluster_api: &str) -> String {
    let tools = crate::file(&cluster_api_part(cluster_api), "tools.go");
    tools
        .lines()
        .find_map(|l| l.trim().strip_prefix("_ \"")?.strip_suffix('"'))
        .unwrap_or_default()
        .to_string()
}

/// The manager package's directory in Cluster API's module, whose `config/` holds its CRDs
/// and webhook configurations: `core` from v1.14 on, the module's root before.
fn manager_dir(manager_package: &str) -> PathBuf {
    let within = manager_package
        .strip_prefix(CLUSTER_API_MODULE)
        .unwrap_or_default()
        .trim_start_matches('/');
    PathBuf::from(within)
}

/// Cluster API's Go module.
const CLUSTER_API_MODULE: &str = "sigs.k8s.io/cluster-api";

/// Flags of every build; part of the stamp. No DWARF (the linker drops it anyway with `-s -w`):
/// a cold build takes noticeably less CPU.
const FLAGS: &[&str] = &[
    "-trimpath",
    "-buildvcs=false",
    "-mod=readonly",
    "-gcflags=all=-dwarf=false",
];

/// Builds `parts` with the default Cluster API ([`DEFAULT_CLUSTER_API_VERSION`]) into `dir`;
/// see [`install_version`].
pub fn install(
    dir: &Path,
    parts: &[Part],
    progress: &mut dyn FnMut(&Progress<'_>),
) -> Result<(), Error> {
    install_version(dir, DEFAULT_CLUSTER_API_VERSION, parts, progress)
}

/// Builds `parts` with Cluster API `cluster_api` (one of
/// [`CLUSTER_API_VERSIONS`](crate::CLUSTER_API_VERSIONS)) into `dir` unless they are already
/// there for the same pins and Go version. A part that a sibling of `dir` (another version's
/// directory of the same cache) holds for the same pins is linked from there instead of built.
/// Each step and each package Go compiles is reported to `progress` (show it with a
/// [`Reporter`](crate::Reporter)); Go's messages go to this process's stderr.
pub fn install_version(
    dir: &Path,
    cluster_api: &str,
    parts: &[Part],
    progress: &mut dyn FnMut(&Progress<'_>),
) -> Result<(), Error> {
    if crate::versions_for(cluster_api).is_none() {
        return Err(Error::UnsupportedVersion {
            version: cluster_api.to_string(),
        });
    }
    let go_version = go_version()?;
    std::fs::create_dir_all(dir).map_err(Error::io(format!("creating {}", dir.display())))?;
    for part in parts {
        install_part(dir, *part, cluster_api, &go_version, progress)?;
    }
    Ok(())
}

/// Whether `dir` holds both parts for Cluster API `cluster_api` with the carried pins (built
/// by any Go version: nothing is run to tell).
pub fn installed(dir: &Path, cluster_api: &str) -> bool {
    crate::versions_for(cluster_api).is_some()
        && Part::ALL.iter().all(|part| {
            let wanted = stamp(*part, cluster_api, "");
            part.outputs().iter().all(|o| dir.join(o).exists())
                && std::fs::read_to_string(dir.join(stamp_file(*part)))
                    .ok()
                    .and_then(|s| s.split_once('\n').map(|(_, rest)| rest.to_string()))
                    .is_some_and(|rest| {
                        Some(rest.as_str()) == wanted.split_once('\n').map(|(_, r)| r)
                    })
        })
}

/// The stamp file of a part in its directory.
fn stamp_file(part: Part) -> String {
    format!(".{}.stamp", part.name())
}

/// What the stamp of a part built by `go_version` holds: the Go version on the first line,
/// then the flags, the packages and a hash of each module file.
fn stamp(part: Part, cluster_api: &str, go_version: &str) -> String {
    let ldflags = ldflags(part);
    let packages: Vec<String> = part
        .packages(cluster_api)
        .into_iter()
        .map(|(p, _)| p)
        .collect();
    let mut wanted = format!(
        "{go_version}\nflags: {} -ldflags={ldflags}\npackages: {}\n",
        FLAGS.join(" "),
        packages.join(" ")
    );
    for (name, content) in files(part, cluster_api) {
        wanted.push_str(&format!("{name} {:016x}\n", fnv1a(content.as_bytes())));
    }
    wanted
}

/// The module files of a part, as (file, content).
fn files(part: Part, cluster_api: &str) -> Vec<(&'static str, &'static str)> {
    let dir = part.files_dir(cluster_api);
    FILES
        .iter()
        .filter(|(p, _, _)| *p == dir)
        .map(|(_, n, c)| (*n, *c))
        .collect()
}

fn install_part(
    dir: &Path,
    part: Part,
    cluster_api: &str,
    go_version: &str,
    progress: &mut dyn FnMut(&Progress<'_>),
) -> Result<(), Error> {
    let files = files(part, cluster_api);
    let ldflags = ldflags(part);
    let wanted = stamp(part, cluster_api, go_version);
    let stamp = dir.join(stamp_file(part));
    let present = part.outputs().iter().all(|o| dir.join(o).exists());
    if present && std::fs::read_to_string(&stamp).ok().as_deref() == Some(wanted.as_str()) {
        return Ok(());
    }
    let names: Vec<&str> = part.outputs();
    if let Some(from) = link_from_sibling(dir, part, &wanted)? {
        progress(&Progress::Linked {
            outputs: &names,
            from: &from,
        });
        return Ok(());
    }
    progress(&Progress::Start {
        outputs: &names,
        go_version,
        dir,
    });
    let started = std::time::Instant::now();
    let src = dir.join(".src").join(part.name());
    let _ = std::fs::remove_dir_all(&src);
    for (name, content) in &files {
        let path = src.join(name);
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent)
                .map_err(Error::io(format!("creating {}", parent.display())))?;
        }
        std::fs::write(&path, content).map_err(Error::io(format!("writing {}", path.display())))?;
    }
    let tmp = dir.join(format!(".build-{}", part.name()));
    let _ = std::fs::remove_dir_all(&tmp);
    std::fs::create_dir_all(&tmp).map_err(Error::io(format!("creating {}", tmp.display())))?;
    // The stamp goes first and comes back last: an interrupted run builds again.
    let _ = std::fs::remove_file(&stamp);
    for (package, binary) in part.packages(cluster_api) {
        progress(&Progress::Resolving { binary });
        let total = count_packages(&src, &package)?;
        let mut cmd = go(&src);
        cmd.arg("build")
            .arg("-v")
            .args(FLAGS)
            .arg(format!("-ldflags={ldflags}"))
            .arg("-o")
            .arg(tmp.join(binary))
            .arg(&package);
        let started = Instant::now();
        let mut compiled = 0;
        build(&mut cmd, &src, &format!("go build {package}"), &mut |_| {
            compiled += 1;
            progress(&Progress::Compiled {
                binary,
                compiled,
                total,
                elapsed: started.elapsed(),
            });
        })?;
    }
    if part == Part::ClusterApi {
        let manager = cluster_api_module(&src)?.join(manager_dir(&manager_package(cluster_api)));
        copy_crds(&manager, &tmp.join(CRDS_DIR))?;
        copy_webhooks(&manager, &tmp.join(WEBHOOKS_DIR))?;
    }
    for output in part.outputs() {
        put(&tmp.join(output), &dir.join(output), |from, to| {
            std::fs::rename(from, to)
        })?;
    }
    let _ = std::fs::remove_dir_all(&tmp);
    std::fs::write(&stamp, wanted).map_err(Error::io(format!("writing {}", stamp.display())))?;
    progress(&Progress::Done {
        outputs: &names,
        elapsed: started.elapsed(),
    });
    Ok(())
}

/// Moves (or links) `from` to `to` with `op`, replacing a directory there.
fn put(
    from: &Path,
    to: &Path,
    op: impl Fn(&Path, &Path) -> std::io::Result<()>,
) -> Result<(), Error> {
    if let Some(parent) = to.parent() {
        std::fs::create_dir_all(parent)
            .map_err(Error::io(format!("creating {}", parent.display())))?;
    }
    if to.is_dir() {
        std::fs::remove_dir_all(to).map_err(Error::io(format!("removing {}", to.display())))?;
    }
    op(from, to).map_err(Error::io(format!(
        "moving {} to {}",
        from.display(),
        to.display()
    )))
}

/// When a sibling directory of `dir` (another Cluster API version's, in the cache) holds the
/// part with the stamp `wanted`, hard-links its files into `dir` (copies them where links
/// cannot be made) and returns the sibling. Only files: the control plane's binaries are the
/// same for every Cluster API version, the manager and CRDs are not.
fn link_from_sibling(dir: &Path, part: Part, wanted: &str) -> Result<Option<PathBuf>, Error> {
    let Some(parent) = dir.parent() else {
        return Ok(None);
    };
    let Ok(entries) = std::fs::read_dir(parent) else {
        return Ok(None);
    };
    let mut siblings: Vec<PathBuf> = entries
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.is_dir() && p.as_path() != dir)
        .collect();
    siblings.sort();
    let outputs = part.outputs();
    let Some(from) = siblings.into_iter().find(|s| {
        outputs.iter().all(|o| s.join(o).is_file())
            && std::fs::read_to_string(s.join(stamp_file(part)))
                .ok()
                .as_deref()
                == Some(wanted)
    }) else {
        return Ok(None);
    };
    let stamp = dir.join(stamp_file(part));
    let _ = std::fs::remove_file(&stamp);
    for output in &outputs {
        let to = dir.join(output);
        let _ = std::fs::remove_file(&to);
        put(&from.join(output), &to, |from, to| {
            std::fs::hard_link(from, to).or_else(|_| std::fs::copy(from, to).map(|_| ()))
        })?;
    }
    std::fs::write(&stamp, wanted).map_err(Error::io(format!("writing {}", stamp.display())))?;
    Ok(Some(from))
}

/// A `go` command for the module in `dir`: its pins alone, no workspace file, no flags from
/// the environment.
fn go(dir: &Path) -> Command {
    let mut cmd = Command::new("go");
    cmd.current_dir(dir).env("GOWORK", "off").env("GOFLAGS", "");
    cmd
}

/// How many lines of Go's messages a failed build keeps for its error (they are also passed
/// on to stderr as they come).
const KEPT_LINES: usize = 40;

/// Runs `go build -v …`: each package it names on stderr goes to `compiled`; every other line
/// (compiler messages, downloads) is passed on to this process's stderr and the last
/// [`KEPT_LINES`] are kept for the error.
fn build(
    cmd: &mut Command,
    dir: &Path,
    line: &str,
    compiled: &mut dyn FnMut(&str),
) -> Result<(), Error> {
    let mut child = cmd
        .stdin(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| Error::GoMissing {
            detail: None,
            source: Some(e),
        })?;
    let mut kept = std::collections::VecDeque::new();
    if let Some(stderr) = child.stderr.take() {
        for text in BufReader::new(stderr).lines().map_while(Result::ok) {
            if is_package_line(&text) {
                compiled(&text);
                continue;
            }
            eprintln!("{text}");
            if kept.len() == KEPT_LINES {
                kept.pop_front();
            }
            kept.push_back(text);
        }
    }
    let status = child.wait().map_err(|e| Error::GoMissing {
        detail: None,
        source: Some(e),
    })?;
    if status.success() {
        Ok(())
    } else {
        Err(Error::Go {
            command: line.to_string(),
            dir: dir.to_path_buf(),
            status,
            stderr: Vec::from(kept).join("\n"),
        })
    }
}

/// How many packages building `package` involves (`go list -deps`, the standard library's
/// included): the total of the progress count. Lists with the build's own `-mod=readonly`.
fn count_packages(src: &Path, package: &str) -> Result<usize, Error> {
    let output = go_output(src, &["list", "-mod=readonly", "-deps", package])?;
    Ok(output
        .stdout
        .split(|b| *b == b'\n')
        .filter(|l| !l.is_empty())
        .count())
}

/// `go <args>` run in `src`, its stdout captured; a failure carries its stderr.
fn go_output(src: &Path, args: &[&str]) -> Result<std::process::Output, Error> {
    let output = go(src)
        .args(args)
        .stdin(Stdio::null())
        .stderr(Stdio::piped())
        .output()
        .map_err(|e| Error::GoMissing {
            detail: None,
            source: Some(e),
        })?;
    if !output.status.success() {
        return Err(Error::Go {
            command: format!("go {}", args.join(" ")),
            dir: src.to_path_buf(),
            status: output.status,
            stderr: String::from_utf8_lossy(&output.stderr).into_owned(),
        });
    }
    Ok(output)
}

/// The directory of the Cluster API module the part pins, in Go's module cache (downloaded
/// there by `go mod download` when missing).
fn cluster_api_module(src: &Path) -> Result<PathBuf, Error> {
    let module = CLUSTER_API_MODULE;
    let output = go_output(src, &["mod", "download", "-json", module])?;
    let text = String::from_utf8_lossy(&output.stdout);
    json_string_field(&text, "Dir")
        .map(PathBuf::from)
        .ok_or_else(|| Error::Go {
            command: format!("go mod download -json {module}"),
            dir: src.to_path_buf(),
            status: output.status,
            stderr: format!("no \"Dir\" in its output: {text}"),
        })
}

/// Copies `config/crd/bases/*.yaml` of the manager's directory in Cluster API's module
/// (`manager`) into `to`.
fn copy_crds(manager: &Path, to: &Path) -> Result<(), Error> {
    let bases = manager.join("config/crd/bases");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&bases)
        .map_err(Error::io(format!("reading {}", bases.display())))?
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "yaml"))
        .collect();
    files.sort();
    if files.is_empty() {
        return Err(Error::NoCrds(bases));
    }
    std::fs::create_dir_all(to).map_err(Error::io(format!("creating {}", to.display())))?;
    for file in files {
        copy_file(&file, &to.join(file.file_name().unwrap_or_default()))?;
    }
    Ok(())
}

/// Copies `config/webhook/manifests.yaml` of the manager's directory in Cluster API's module
/// (`manager`: the core manager's Mutating- and ValidatingWebhookConfiguration, written for a
/// Service) into `to`.
fn copy_webhooks(manager: &Path, to: &Path) -> Result<(), Error> {
    let file = manager.join("config/webhook/manifests.yaml");
    std::fs::create_dir_all(to).map_err(Error::io(format!("creating {}", to.display())))?;
    copy_file(&file, &to.join("manifests.yaml"))
}

/// Copies the bytes of `from` to `to` (the module cache's files are read-only, the copies
/// need not be).
fn copy_file(from: &Path, to: &Path) -> Result<(), Error> {
    let bytes = std::fs::read(from).map_err(Error::io(format!("reading {}", from.display())))?;
    std::fs::write(to, bytes).map_err(Error::io(format!("writing {}", to.display())))
}

/// The string value of a top-level `"name": "..."` line of Go's indented JSON output (paths
/// only: backslash escapes are undone for `\\` and `\"`).
fn json_string_field(text: &str, name: &str) -> Option<String> {
    let prefix = format!("\"{name}\": \"");
    text.lines().map(str::trim).find_map(|l| {
        let rest = l.strip_prefix(&prefix)?;
        let value = rest
            .strip_suffix("\",")
            .or_else(|| rest.strip_suffix('"'))?;
        Some(value.replace("\\\"", "\"").replace("\\\\", "\\"))
    })
}

/// `go version`.
fn go_version() -> Result<String, Error> {
    match Command::new("go").arg("version").output() {
        Ok(o) if o.status.success() => Ok(String::from_utf8_lossy(&o.stdout).trim().to_string()),
        Ok(o) => Err(Error::GoMissing {
            detail: Some(String::from_utf8_lossy(&o.stderr).trim().to_string()),
            source: None,
        }),
        Err(e) => Err(Error::GoMissing {
            detail: None,
            source: Some(e),
        }),
    }
}

/// Linker flags: no symbol tables; for the control plane also the Kubernetes version the API
/// server reports (the `k8s.io/kubernetes` requirement of its go.mod).
fn ldflags(part: Part) -> String {
    if part != Part::ControlPlane {
        return "-s -w".to_string();
    }
    let version =
        required(crate::file("control-plane", "go.mod"), "k8s.io/kubernetes").unwrap_or_default();
    let mut parts = version.trim_start_matches('v').split('.');
    let major = parts.next().unwrap_or_default();
    let minor = parts.next().unwrap_or_default();
    let v = "k8s.io/component-base/version";
    format!("-s -w -X {v}.gitVersion={version} -X {v}.gitMajor={major} -X {v}.gitMinor={minor}")
}

/// FNV-1a, 64 bits: a content hash that does not change between Rust versions.
fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ldflags_carry_the_pinned_kubernetes_version() {
        let v = crate::versions().kubernetes;
        let flags = ldflags(Part::ControlPlane);
        assert!(flags.contains(&format!("gitVersion={v} ")), "{flags}");
        assert_eq!(ldflags(Part::ClusterApi), "-s -w");
    }

    /// A module of one main package at `dir`, its `main.go` being `main`.
    fn module(dir: &Path, main: &str) {
        std::fs::create_dir_all(dir).unwrap();
        std::fs::write(dir.join("go.mod"), "module example.com/hello\n\ngo 1.22\n").unwrap();
        std::fs::write(dir.join("main.go"), main).unwrap();
    }

    #[test]
    #[cfg_attr(
        not(feature = "external-tests"),
        ignore = "needs Go (cargo xtask test)"
    )]
    fn a_build_counts_the_packages_go_compiles_and_keeps_its_messages() {
        let scratch =
            std::env::temp_dir().join(format!("capi-envtest-build-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&scratch);
        let src = scratch.join("src");
        // An empty build cache: Go compiles every package the program needs.
        let cache = scratch.join("gocache");
        module(
            &src,
            "package main\n\nimport \"fmt\"\n\nfunc main() { fmt.Println(1) }\n",
        );
        let total = count_packages(&src, ".").unwrap();
        let mut names = Vec::new();
        let mut cmd = go(&src);
        cmd.env("GOCACHE", &cache)
            .args(["build", "-v", "-o"])
            .arg(scratch.join("hello"))
            .arg(".");
        build(&mut cmd, &src, "go build .", &mut |p| {
            names.push(p.to_string())
        })
        .unwrap();
        assert!(names.iter().any(|n| n == "fmt"), "{names:?}");
        assert!(names.iter().any(|n| n == "example.com/hello"), "{names:?}");
        // Every package compiled is one `go list -deps` counted (a few, such as `unsafe`,
        // need no compiling).
        assert!(
            names.len() <= total && names.len() + 5 >= total,
            "{} of {total}",
            names.len()
        );

        module(&src, "package main\n\nfunc main() { undefinedName() }\n");
        let mut cmd = go(&src);
        cmd.env("GOCACHE", &cache)
            .args(["build", "-v", "-o"])
            .arg(scratch.join("hello"))
            .arg(".");
        let err = build(&mut cmd, &src, "go build .", &mut |_| {}).unwrap_err();
        let text = err.to_string();
        assert!(
            text.contains("`go build .`") && text.contains("undefined: undefinedName"),
            "{text}"
        );
        let _ = std::fs::remove_dir_all(&scratch);
    }

    #[test]
    fn the_manager_package_and_its_config_move_with_the_version() {
        assert_eq!(manager_package("v1.14.2"), "sigs.k8s.io/cluster-api/core");
        assert_eq!(
            manager_dir("sigs.k8s.io/cluster-api/core"),
            Path::new("core")
        );
        for version in ["v1.12.5", "v1.13.6"] {
            assert_eq!(manager_package(version), "sigs.k8s.io/cluster-api");
        }
        assert_eq!(manager_dir("sigs.k8s.io/cluster-api"), Path::new(""));
    }

    /// Writes what a finished build of `part` leaves in `dir` (empty files), with its stamp.
    fn fake_build(dir: &Path, part: Part, version: &str) {
        for output in part.outputs() {
            let path = dir.join(output);
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            if output == CRDS_DIR || output == WEBHOOKS_DIR {
                std::fs::create_dir_all(&path).unwrap();
            } else {
                std::fs::write(&path, output).unwrap();
            }
        }
        std::fs::write(
            dir.join(stamp_file(part)),
            stamp(part, version, "go version x"),
        )
        .unwrap();
    }

    #[test]
    fn a_control_plane_built_beside_is_linked_and_a_version_is_installed_with_both_parts() {
        let cache = tempfile_dir("capi-envtest-link");
        let newest = cache.join("newest");
        let older = cache.join("older");
        std::fs::create_dir_all(&older).unwrap();
        fake_build(&newest, Part::ControlPlane, "v1.14.2");
        fake_build(&newest, Part::ClusterApi, "v1.14.2");
        assert!(installed(&newest, "v1.14.2"));
        assert!(!installed(&newest, "v1.12.5"));
        assert!(!installed(&older, "v1.12.5"));

        let wanted = stamp(Part::ControlPlane, "v1.12.5", "go version x");
        let from = link_from_sibling(&older, Part::ControlPlane, &wanted).unwrap();
        assert_eq!(from.as_deref(), Some(newest.as_path()));
        assert_eq!(std::fs::read_to_string(older.join(ETCD)).unwrap(), ETCD);
        // Another Go version built it: not the same build, so not linked.
        let other = stamp(Part::ControlPlane, "v1.12.5", "go version y");
        let _ = std::fs::remove_file(older.join(stamp_file(Part::ControlPlane)));
        assert_eq!(
            link_from_sibling(&older, Part::ControlPlane, &other).unwrap(),
            None
        );
        // The manager and the CRDs differ by version: never taken from a sibling.
        let manager = stamp(Part::ClusterApi, "v1.14.2", "go version x");
        assert_eq!(
            link_from_sibling(&older, Part::ClusterApi, &manager).unwrap(),
            None
        );

        link_from_sibling(&older, Part::ControlPlane, &wanted).unwrap();
        fake_build(&older, Part::ClusterApi, "v1.12.5");
        assert!(installed(&older, "v1.12.5"));
        let _ = std::fs::remove_dir_all(&cache);
    }

    /// A fresh directory under the system's temporary directory, named for the test.
    fn tempfile_dir(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    #[test]
    fn json_string_field_reads_go_output() {
        let text = "{\n\t\"Path\": \"sigs.k8s.io/cluster-api\",\n\t\"Dir\": \"/c/mod/sigs.k8s.io/cluster-api@v1.14.2\",\n\t\"Sum\": \"h1:x\"\n}\n";
        assert_eq!(
            json_string_field(text, "Dir").as_deref(),
            Some("/c/mod/sigs.k8s.io/cluster-api@v1.14.2")
        );
        assert_eq!(json_string_field(text, "Nope"), None);
    }
}
