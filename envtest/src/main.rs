//! `capi-envtest`: builds the test environment's binaries and prints where they are.

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

const USAGE: &str = "\
usage: capi-envtest [use] [--capi-version V] [--dir DIR] [-p env|path] [--no-cluster-api]
       capi-envtest versions [--capi-version V] [--dir DIR]

Builds etcd, kube-apiserver and Cluster API's core manager at the pinned versions with Go
(sources from the Go module proxy) into a per-user cache directory, one per Cluster API
version, copies Cluster API's CRDs and webhook configurations there, and prints the
directory. A second run with the same pins builds nothing.

  use               (the default) build if needed, then print
  versions          print the pins, then each supported Cluster API version, whether it
                    is installed in the cache and its directory, then the chosen directory
  --capi-version V  Cluster API V, one of the supported versions (default: the newest)
  --dir DIR         use DIR instead of the cache directory
  -p env            (the default) shell lines: eval \"$(capi-envtest)\" sets
                    KUBEBUILDER_ASSETS, CAPI_MANAGER, CAPI_CRDS and
                    CAPI_WEBHOOKS
  -p path           the directory alone
  --no-cluster-api  etcd and kube-apiserver only
";

fn main() -> ExitCode {
    match run(std::env::args().skip(1).collect()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("capi-envtest: {message}");
            ExitCode::FAILURE
        }
    }
}

fn run(args: Vec<String>) -> Result<(), String> {
    let mut dir: Option<PathBuf> = None;
    let mut print = "env".to_string();
    let mut parts = capi_envtest::Part::ALL.to_vec();
    let mut versions_only = false;
    let mut cluster_api = capi_envtest::DEFAULT_CLUSTER_API_VERSION.to_string();
    let mut it = args.into_iter();
    while let Some(arg) = it.next() {
        match arg.as_str() {
            "use" => {}
            "versions" => versions_only = true,
            "--capi-version" => {
                cluster_api = it.next().ok_or("--capi-version needs a version")?;
            }
            "--dir" => dir = Some(it.next().ok_or("--dir needs a directory")?.into()),
            "-p" | "--print" => print = it.next().ok_or("-p needs env or path")?,
            "--no-cluster-api" => parts = vec![capi_envtest::Part::ControlPlane],
            "-h" | "--help" => {
                print!("{USAGE}");
                return Ok(());
            }
            "-V" | "--version" => {
                println!("capi-envtest {}", env!("CARGO_PKG_VERSION"));
                return Ok(());
            }
            other => return Err(format!("unknown argument {other:?}\n{USAGE}")),
        }
    }
    if print != "env" && print != "path" {
        return Err(format!("-p {print:?}: expected env or path"));
    }
    let versions = capi_envtest::versions_for(&cluster_api).ok_or_else(|| {
        chain(&capi_envtest::Error::UnsupportedVersion {
            version: cluster_api.clone(),
        })
    })?;
    let dir = match dir {
        Some(d) if d.is_absolute() => d,
        Some(d) => std::env::current_dir()
            .map_err(|e| format!("the current directory: {e}"))?
            .join(d),
        None => capi_envtest::cache_dir_for(&cluster_api).map_err(|e| chain(&e))?,
    };
    if versions_only {
        println!("kubernetes {}", versions.kubernetes);
        println!("etcd {}", versions.etcd);
        println!("cluster-api {}", versions.cluster_api);
        for v in capi_envtest::CLUSTER_API_VERSIONS {
            let default = if *v == capi_envtest::DEFAULT_CLUSTER_API_VERSION {
                " (default)"
            } else {
                ""
            };
            match capi_envtest::cache_dir_for(v) {
                Ok(cached) => {
                    let state = if capi_envtest::installed(&cached, v) {
                        "installed"
                    } else {
                        "missing"
                    };
                    println!("supported {v} {state} {}{default}", cached.display());
                }
                Err(_) => println!("supported {v} missing (no cache directory){default}"),
            }
        }
        println!("dir {}", dir.display());
        return Ok(());
    }
    let mut reporter = capi_envtest::Reporter::stderr("");
    let built = capi_envtest::install_version(&dir, &cluster_api, &parts, &mut |event| {
        reporter.report(event)
    });
    reporter.finish();
    built.map_err(|e| chain(&e))?;
    let mut out = std::io::stdout().lock();
    let written = if print == "path" {
        writeln!(out, "{}", dir.display())
    } else {
        capi_envtest::paths(&dir)
            .iter()
            .try_for_each(|(var, path)| {
                writeln!(out, "export {var}={}", quote(&path.to_string_lossy()))
            })
    };
    written.map_err(|e| format!("writing to stdout: {e}"))
}

/// An error and its causes on one line.
fn chain(e: &dyn std::error::Error) -> String {
    let mut text = e.to_string();
    let mut cause = e.source();
    while let Some(c) = cause {
        text.push_str(&format!(": {c}"));
        cause = c.source();
    }
    text
}

/// `s` as one POSIX shell word.
fn quote(s: &str) -> String {
    format!("'{}'", s.replace('\'', r"'\''"))
}
