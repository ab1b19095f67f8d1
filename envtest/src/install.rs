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
use crate::{CRDS_DIR, ETCD, Error, FILES, KUBE_APISERVER, MANAGER, WEBHOOKS_DIR, required};

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

    fn dir(self) -> &'static str {
        match self {
            Part::ControlPlane => "control-plane",
            Part::ClusterApi => "cluster-api",
        }
    }

    /// The packages `go build` makes, and the binary each becomes.
    fn packages(self) -> &'static [(&'static str, &'static str)] {
        match self {
            Part::ControlPlane => &[
                ("./cmd/etcd", ETCD),
                ("k8s.io/kubernetes/cmd/kube-apiserver", KUBE_APISERVER),
            ],
            Part::ClusterApi => &[("sigs.k8s.io/cluster-api/core", MANAGER)],
        }
    }

    /// What the part leaves in the directory.
    fn outputs(self) -> Vec<&'static str> {
        let mut out: Vec<&str> = self.packages().iter().map(|(_, b)| *b).collect();
        if self == Part::ClusterApi {
            out.push(CRDS_DIR);
            out.push(WEBHOOKS_DIR);
        }
        out
    }
}

/// Flags of every build; part of the stamp. No DWARF (the linker drops it anyway with `-s -w`):
/// a cold build takes noticeably less CPU.
const FLAGS: &[&str] = &[
    "-trimpath",
    "-buildvcs=false",
    "-mod=readonly",
    "-gcflags=all=-dwarf=false",
];

/// Builds `parts` into `dir` unless they are already there for the same pins and Go version.
/// Each step and each package Go compiles is reported to `progress` (show it with a
/// [`Reporter`](crate::Reporter)); Go's messages go to this process's stderr.
pub fn install(
    dir: &Path,
    parts: &[Part],
    progress: &mut dyn FnMut(&Progress<'_>),
) -> Result<(), Error> {
    let go_version = go_version()?;
    std::fs::create_dir_all(dir).map_err(Error::io(format!("creating {}", dir.display())))?;
    for part in parts {
        install_part(dir, *part, &go_version, progress)?;
    }
    Ok(())
}

fn install_part(
    dir: &Path,
    part: Part,
    go_version: &str,
    progress: &mut dyn FnMut(&Progress<'_>),
) -> Result<(), Error> {
    let files: Vec<(&str, &str)> = FILES
        .iter()
        .filter(|(p, _, _)| *p == part.dir())
        .map(|(_, n, c)| (*n, *c))
        .collect();
    let ldflags = ldflags(part);
    let packages: Vec<&str> = part.packages().iter().map(|(p, _)| *p).collect();
    let mut wanted = format!(
        "{go_version}\nflags: {} -ldflags={ldflags}\npackages: {}\n",
        FLAGS.join(" "),
        packages.join(" ")
    );
    for (name, content) in &files {
        wanted.push_str(&format!("{name} {:016x}\n", fnv1a(content.as_bytes())));
    }
    let stamp = dir.join(format!(".{}.stamp", part.dir()));
    let present = part.outputs().iter().all(|o| dir.join(o).exists());
    if present && std::fs::read_to_string(&stamp).ok().as_deref() == Some(wanted.as_str()) {
        return Ok(());
    }
    let names: Vec<&str> = part.outputs();
    progress(&Progress::Start {
        outputs: &names,
        go_version,
        dir,
    });
    let started = std::time::Instant::now();
    let src = dir.join(".src").join(part.dir());
    let _ = std::fs::remove_dir_all(&src);
    for (name, content) in &files {
        let path = src.join(name);
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent)
                .map_err(Error::io(format!("creating {}", parent.display())))?;
        }
        std::fs::write(&path, content).map_err(Error::io(format!("writing {}", path.display())))?;
    }
    let tmp = dir.join(format!(".build-{}", part.dir()));
    let _ = std::fs::remove_dir_all(&tmp);
    std::fs::create_dir_all(&tmp).map_err(Error::io(format!("creating {}", tmp.display())))?;
    // The stamp goes first and comes back last: an interrupted run builds again.
    let _ = std::fs::remove_file(&stamp);
    for (package, binary) in part.packages() {
        progress(&Progress::Resolving { binary });
        let total = count_packages(&src, package)?;
        let mut cmd = go(&src);
        cmd.arg("build")
            .arg("-v")
            .args(FLAGS)
            .arg(format!("-ldflags={ldflags}"))
            .arg("-o")
            .arg(tmp.join(binary))
            .arg(package);
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
        let module = cluster_api_module(&src)?;
        copy_crds(&module, &tmp.join(CRDS_DIR))?;
        copy_webhooks(&module, &tmp.join(WEBHOOKS_DIR))?;
    }
    for output in part.outputs() {
        let from = tmp.join(output);
        let to = dir.join(output);
        if let Some(parent) = to.parent() {
            std::fs::create_dir_all(parent)
                .map_err(Error::io(format!("creating {}", parent.display())))?;
        }
        if to.is_dir() {
            std::fs::remove_dir_all(&to)
                .map_err(Error::io(format!("removing {}", to.display())))?;
        }
        std::fs::rename(&from, &to).map_err(Error::io(format!(
            "moving {} to {}",
            from.display(),
            to.display()
        )))?;
    }
    let _ = std::fs::remove_dir_all(&tmp);
    std::fs::write(&stamp, wanted).map_err(Error::io(format!("writing {}", stamp.display())))?;
    progress(&Progress::Done {
        outputs: &names,
        elapsed: started.elapsed(),
    });
    Ok(())
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
    let module = "sigs.k8s.io/cluster-api";
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

/// Copies `core/config/crd/bases/*.yaml` of the Cluster API module at `module` into `to`.
fn copy_crds(module: &Path, to: &Path) -> Result<(), Error> {
    let bases = module.join("core/config/crd/bases");
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

/// Copies `core/config/webhook/manifests.yaml` of the Cluster API module at `module` (the
/// core manager's Mutating- and ValidatingWebhookConfiguration, written for a Service) into
/// `to`.
fn copy_webhooks(module: &Path, to: &Path) -> Result<(), Error> {
    let file = module.join("core/config/webhook/manifests.yaml");
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
    fn json_string_field_reads_go_output() {
        let text = "{\n\t\"Path\": \"sigs.k8s.io/cluster-api\",\n\t\"Dir\": \"/c/mod/sigs.k8s.io/cluster-api@v1.14.2\",\n\t\"Sum\": \"h1:x\"\n}\n";
        assert_eq!(
            json_string_field(text, "Dir").as_deref(),
            Some("/c/mod/sigs.k8s.io/cluster-api@v1.14.2")
        );
        assert_eq!(json_string_field(text, "Nope"), None);
    }
}
