//! The order-independence pass of `cargo xtask test`.
//!
//! A test that passes only because another test of the same binary ran before it (and left
//! process-wide state behind: a rustls crypto provider, a tracing subscriber, an environment
//! variable, a file) passes or fails by chance in CI. The normal run cannot show that, so this
//! pass runs every test of the integration-test binaries alone, one process per test, and
//! reports each one that fails there.
//!
//! The binaries come from `cargo test --no-run --message-format=json` (already built by the
//! normal run, so nothing is compiled again); each test is listed with `--list` and run with
//! `--exact` (a test of a gathered binary by its module path, `it --exact client_calls::…`),
//! from its package's directory as cargo would, two at a time. A binary of a single test is
//! left out: the normal run ran that test alone in its own process already. Several packages may have a
//! binary of the same name (the runtime crate's and the controller's are both `it`):
//! `package/binary` names one of them.

use std::collections::VecDeque;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::Mutex;

/// Tests that only drive external tools over checked-in files or a seeded corpus (minutes of
/// work, and no process-wide state of ours): run once in the normal pass, not again test by
/// test. The wire corpus against Go (`go_wire`'s `hook_messages_…`) was the slowest test of
/// this pass, 86 s of its 254 s. Each entry
/// is a test binary and a prefix of test names (a module of the binary, as the runtime crate's
/// `it` binary gathers its former test files as modules); an empty prefix skips the binary.
///
/// Also the lifecycle flow against each supported Cluster API (testenv's `capi_topology`): one
/// function run once per version, each run starting its own control plane, manager and
/// extension (16-25 s each); the binary's other test still runs alone here.
const SKIP: &[(&str, &str)] = &[
    ("example_contract", ""),
    ("it", "openapi_validators::"),
    ("ui", ""),
    ("golden", ""),
    (
        "go_wire",
        "hook_messages_decode_and_encode_as_go_reads_them",
    ),
    ("capi_topology", "lifecycle_flow_against_cluster_api_"),
];

/// Whether the test `test` of the binary `binary` (or, for `None`, the whole binary) is skipped.
fn skipped(binary: &str, test: Option<&str>) -> bool {
    SKIP.iter().any(|(b, prefix)| {
        *b == binary
            && match test {
                None => prefix.is_empty(),
                Some(test) => test.starts_with(prefix),
            }
    })
}

/// One test binary.
struct Binary {
    /// The package it belongs to.
    package: String,
    name: String,
    executable: PathBuf,
    package_dir: PathBuf,
}

/// One test to run alone.
struct Case<'a> {
    binary: &'a Binary,
    test: String,
}

impl Binary {
    /// Whether `only` (`binary` or `package/binary`) names this binary.
    fn is(&self, only: &str) -> bool {
        match only.split_once('/') {
            Some((package, name)) => self.package == package && self.name == name,
            None => self.name == only,
        }
    }
}

/// The package name in a cargo package id: `path+file:///…/dir#name@version`,
/// `path+file:///…/name#version` (the name is the directory's), or the older
/// `name version (source)`.
fn package_name(id: &str) -> &str {
    match id.split_once('#') {
        Some((url, spec)) => match spec.split_once('@') {
            Some((name, _)) => name,
            None => url.rsplit('/').next().unwrap_or(url),
        },
        None => id.split(' ').next().unwrap_or(id),
    }
}

/// Runs every test of every integration-test binary alone in its own process (of the binary
/// `only` names, `binary` or `package/binary`, when given).
pub fn run(root: &Path, cargo: &str, only: Option<&str>) -> Result<(), String> {
    let tools = crate::tools_dir(root)?;
    let mut binaries = binaries(root, cargo)?;
    if let Some(only) = only {
        binaries.retain(|b| b.is(only));
        if binaries.is_empty() {
            return Err(format!("no integration-test binary named {only}"));
        }
    }
    let mut queue = VecDeque::new();
    let mut alone_already = 0;
    for binary in &binaries {
        let tests = list(binary)?;
        // A binary of one test ran it alone in its own process in the normal run: the same
        // run again would prove nothing new (unless this binary was asked for).
        if tests.len() == 1 && only.is_none() {
            alone_already += 1;
            continue;
        }
        for test in tests {
            if !skipped(&binary.name, Some(&test)) {
                queue.push_back(Case { binary, test });
            }
        }
    }
    let total = queue.len();
    eprintln!(
        "xtask test: order independence: {total} tests of {} binaries, each in its own process \
         ({alone_already} binaries of one test, which the normal run already ran alone, left out)",
        binaries.len() - alone_already
    );
    let started = std::time::Instant::now();
    let queue = Mutex::new(queue);
    let failures = Mutex::new(Vec::new());
    let durations = Mutex::new(Vec::new());
    let workers = std::thread::available_parallelism().map_or(2, |n| n.get().min(4));
    std::thread::scope(|scope| {
        for _ in 0..workers {
            scope.spawn(|| {
                loop {
                    let Some(case) = queue.lock().unwrap().pop_front() else {
                        return;
                    };
                    let one = std::time::Instant::now();
                    let result = run_alone(&tools, &case);
                    durations.lock().unwrap().push((
                        one.elapsed(),
                        format!("{}/{} {}", case.binary.package, case.binary.name, case.test),
                    ));
                    if let Err(output) = result {
                        failures.lock().unwrap().push(format!(
                            "{}/{} {}\n{output}",
                            case.binary.package, case.binary.name, case.test
                        ));
                    }
                }
            });
        }
    });
    let failures = failures.into_inner().unwrap();
    let mut durations = durations.into_inner().unwrap();
    durations.sort_by_key(|d| std::cmp::Reverse(d.0));
    eprintln!(
        "xtask test: order independence took {:.0?} ({workers} at a time; every test's time in \
         target/isolation-times.txt); the slowest: {}",
        started.elapsed(),
        durations
            .iter()
            .take(5)
            .map(|(took, test)| format!("{test} {took:.1?}"))
            .collect::<Vec<_>>()
            .join(", ")
    );
    // Every test's time, slowest first, for deciding what this pass is worth.
    let times = crate::target_dir(root)?.join("isolation-times.txt");
    let listing: String = durations
        .iter()
        .map(|(took, test)| format!("{:8.2} s  {test}\n", took.as_secs_f64()))
        .collect();
    std::fs::write(&times, listing).map_err(|e| format!("{}: {e}", times.display()))?;
    if failures.is_empty() {
        eprintln!("xtask test: order independence: {total} passed, 0 failed");
        return Ok(());
    }
    for failure in &failures {
        eprintln!("---- alone: {failure}");
    }
    Err(format!(
        "{} of {total} tests fail when run alone (they depend on another test having run first)",
        failures.len()
    ))
}

/// The integration-test binaries of the workspace, as the normal run built them.
fn binaries(root: &Path, cargo: &str) -> Result<Vec<Binary>, String> {
    let output = Command::new(cargo)
        .args([
            "test",
            "--workspace",
            "--all-features",
            "--no-run",
            "--message-format=json",
        ])
        .current_dir(root)
        .stderr(Stdio::inherit())
        .output()
        .map_err(|e| format!("cannot run {cargo}: {e}"))?;
    if !output.status.success() {
        return Err(format!(
            "building the test binaries failed ({})",
            output.status
        ));
    }
    let mut binaries = Vec::new();
    for line in String::from_utf8_lossy(&output.stdout).lines() {
        let Ok(message) = serde_json::from_str::<serde_json::Value>(line) else {
            continue;
        };
        if message["reason"] != "compiler-artifact" {
            continue;
        }
        let target = &message["target"];
        let is_integration_test = target["kind"]
            .as_array()
            .is_some_and(|kinds| kinds.iter().any(|k| k == "test"));
        let (Some(name), Some(executable), Some(manifest)) = (
            target["name"].as_str(),
            message["executable"].as_str(),
            message["manifest_path"].as_str(),
        ) else {
            continue;
        };
        if !is_integration_test || skipped(name, None) {
            continue;
        }
        binaries.push(Binary {
            package: package_name(message["package_id"].as_str().unwrap_or_default()).to_string(),
            name: name.to_string(),
            executable: PathBuf::from(executable),
            package_dir: Path::new(manifest)
                .parent()
                .ok_or_else(|| format!("manifest path without a directory: {manifest}"))?
                .to_path_buf(),
        });
    }
    binaries.sort_by(|a, b| (&a.name, &a.package).cmp(&(&b.name, &b.package)));
    if binaries.is_empty() {
        return Err("no integration-test binaries found".into());
    }
    Ok(binaries)
}

/// The names of the tests of one binary.
fn list(binary: &Binary) -> Result<Vec<String>, String> {
    let output = Command::new(&binary.executable)
        .args(["--list", "--format", "terse"])
        .current_dir(&binary.package_dir)
        .output()
        .map_err(|e| format!("cannot run {}: {e}", binary.executable.display()))?;
    if !output.status.success() {
        return Err(format!(
            "listing the tests of {} failed ({})",
            binary.name, output.status
        ));
    }
    Ok(String::from_utf8_lossy(&output.stdout)
        .lines()
        .filter_map(|line| line.strip_suffix(": test"))
        .map(str::to_string)
        .collect())
}

/// Runs one test alone; on failure, returns what it printed.
fn run_alone(tools: &Path, case: &Case<'_>) -> Result<(), String> {
    let mut command = Command::new(&case.binary.executable);
    command
        .args(["--exact", &case.test, "--test-threads=1"])
        .current_dir(&case.binary.package_dir)
        .env("CARGO_MANIFEST_DIR", &case.binary.package_dir);
    let output = crate::validators::test_env(&mut command, tools)
        .stdin(Stdio::null())
        .output()
        .map_err(|e| format!("cannot run {}: {e}", case.binary.executable.display()))?;
    let stdout = String::from_utf8_lossy(&output.stdout);
    // Exactly one test must have run: a filter that matched nothing would prove nothing.
    let ran_one = stdout.contains(" 1 passed;") || stdout.contains(" 1 ignored;");
    if output.status.success() && ran_one {
        Ok(())
    } else {
        Err(format!(
            "{stdout}{}",
            String::from_utf8_lossy(&output.stderr)
        ))
    }
}

/// `cargo xtask isolation [BINARY]`: the order-independence pass alone (of one test binary).
pub fn command(args: &[String]) -> Result<(), String> {
    if args.len() > 1 {
        return Err("usage: cargo xtask isolation [[PACKAGE/]TEST-BINARY]".into());
    }
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    run(&crate::root(), &cargo, args.first().map(String::as_str))
}

#[cfg(test)]
mod tests {
    use super::{Binary, package_name, skipped};

    #[test]
    fn package_ids_name_their_package() {
        assert_eq!(
            package_name("path+file:///w/controller#capi-runtime-controller@0.1.0"),
            "capi-runtime-controller"
        );
        assert_eq!(package_name("path+file:///w/xtask#0.1.0"), "xtask");
        assert_eq!(
            package_name("capi-runtime 0.1.0 (path+file:///w)"),
            "capi-runtime"
        );
    }

    #[test]
    fn binaries_are_named_alone_or_with_their_package() {
        let it = Binary {
            package: "capi-runtime-controller".into(),
            name: "it".into(),
            executable: Default::default(),
            package_dir: Default::default(),
        };
        assert!(it.is("it"));
        assert!(it.is("capi-runtime-controller/it"));
        assert!(!it.is("capi-runtime/it"));
        assert!(!it.is("manager"));
    }

    #[test]
    fn skips_whole_binaries_and_modules_of_gathered_ones() {
        assert!(skipped("ui", None));
        assert!(skipped("ui", Some("anything")));
        assert!(!skipped("it", None));
        assert!(skipped(
            "it",
            Some("openapi_validators::redocly_lints_the_document")
        ));
        assert!(!skipped(
            "it",
            Some("openapi::derive_and_cli_documents_are_identical")
        ));
        assert!(!skipped("manager", None));
    }
}
