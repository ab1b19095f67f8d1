//! `capi-envtest`: builds the test environment's binaries and prints where they are.

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

const USAGE: &str = "\
usage: capi-envtest [use] [--dir DIR] [-p env|path] [--no-cluster-api]
       capi-envtest versions

Builds etcd, kube-apiserver and Cluster API's core manager at the pinned versions with Go
(sources from the Go module proxy) into a per-user cache directory, copies Cluster API's CRDs
and webhook configurations there, and prints the directory. A second run with the same pins builds nothing.

  use               (the default) build if needed, then print
  versions          print the pinned versions and the cache directory
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
    let mut it = args.into_iter();
    while let Some(arg) = it.next() {
        match arg.as_str() {
            "use" => {}
            "versions" => versions_only = true,
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
    let dir = match dir {
        Some(d) if d.is_absolute() => d,
        Some(d) => std::env::current_dir()
            .map_err(|e| format!("the current directory: {e}"))?
            .join(d),
        None => capi_envtest::cache_dir().map_err(|e| e.to_string())?,
    };
    if versions_only {
        let v = capi_envtest::versions();
        println!("kubernetes {}", v.kubernetes);
        println!("etcd {}", v.etcd);
        println!("cluster-api {}", v.cluster_api);
        println!("dir {}", dir.display());
        return Ok(());
    }
    let mut reporter = capi_envtest::Reporter::stderr("");
    let built = capi_envtest::install(&dir, &parts, &mut |event| reporter.report(event));
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
