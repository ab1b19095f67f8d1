//! The book's "Testing against Cluster API" sample (`docs/book/outside/testing-against-capi/`),
//! built and tested as an extension author's own crate: `cargo xtask testing-sample`, and a
//! step of `cargo xtask test`.
//!
//! The sample's files are copied to a directory outside the workspace. Its manifest is the one
//! the chapter shows, with the registry dependencies on `capi-runtime` and
//! `capi-runtime-testenv` replaced by paths into this checkout (the crates are not published
//! yet, and the test must try this commit's code); it keeps its own `[workspace]`. `cargo test`
//! runs there with the workspace's `K8S_OPENAPI_ENABLED_VERSION` removed, so the sample's own
//! k8s-openapi version feature has to do its work, and with `KUBEBUILDER_ASSETS`,
//! `CAPI_MANAGER`, `CAPI_CRDS` and `CAPI_WEBHOOKS` naming what `cargo xtask testenv` built (or
//! what those variables already name), as `eval "$(capi-envtest)"` would for a user. Its output goes to `target/testing-sample` (the
//! environment's logs to `target/testing-sample/testenv/logs/`, emptied when the step starts, so
//! they hold only the last run's, as the workspace's own `target/testenv/logs/`); its intermediate artifacts
//! share the workspace's build directory, so the dependencies are compiled once.

use std::path::Path;

/// The sample, relative to the workspace root.
const SAMPLE: &str = "docs/book/outside/testing-against-capi";

/// Builds the sample outside the workspace and runs its tests against the real control plane
/// and Cluster API's manager.
pub fn run(root: &Path, cargo: &str) -> Result<(), String> {
    let started = std::time::Instant::now();
    let sample = root.join(SAMPLE);
    let manifest = std::fs::read_to_string(sample.join("Cargo.toml"))
        .map_err(|e| format!("{SAMPLE}/Cargo.toml: {e}"))?;
    let manifest = local_manifest(&manifest, root)?;
    let target = crate::target_dir(root)?;
    // What `cargo xtask testenv` built, unless the caller's environment names other copies.
    let bin = target.join("testenv/bin");
    let var = |name: &str, default: std::path::PathBuf| {
        std::env::var_os(name)
            .filter(|v| !v.is_empty())
            .map_or(default, std::path::PathBuf::from)
    };
    let assets = var("KUBEBUILDER_ASSETS", bin.clone());
    let manager = var("CAPI_MANAGER", bin.join("core"));
    let crds = var("CAPI_CRDS", bin.join("crds/cluster-api"));
    let webhooks = var("CAPI_WEBHOOKS", bin.join("webhooks/cluster-api"));
    if !manager.is_file() || !crds.is_dir() || !webhooks.is_dir() {
        return Err(format!(
            "the testing sample needs Cluster API's manager ({}), CRDs ({}) and webhook \
             configurations ({}): run `cargo xtask testenv`",
            manager.display(),
            crds.display(),
            webhooks.display()
        ));
    }

    // The last run's logs only, as `cargo xtask test` does for the workspace's environments.
    let logs = target.join("testing-sample/testenv/logs");
    if let Err(e) = std::fs::remove_dir_all(&logs)
        && e.kind() != std::io::ErrorKind::NotFound
    {
        return Err(format!("cannot empty {}: {e}", logs.display()));
    }

    let dir = std::env::temp_dir().join(format!(
        "capi-runtime-testing-sample-{}",
        std::process::id()
    ));
    let _ = std::fs::remove_dir_all(&dir);
    let written = write_copy(&sample, &dir, &manifest).and_then(|()| {
        // Same versions as the workspace, so the build reuses what is already compiled.
        std::fs::copy(root.join("Cargo.lock"), dir.join("Cargo.lock"))
            .map(drop)
            .map_err(|e| format!("copying Cargo.lock: {e}"))
    });
    if let Err(e) = written {
        let _ = std::fs::remove_dir_all(&dir);
        return Err(e);
    }
    eprintln!(
        "xtask test: building and testing the book's testing sample in {}",
        dir.display()
    );
    let output = crate::downstream::outside_cargo(cargo, &dir, &target, "testing-sample")
        .args(["test", "--quiet"])
        .env("KUBEBUILDER_ASSETS", assets)
        .env("CAPI_MANAGER", &manager)
        .env("CAPI_CRDS", &crds)
        .env("CAPI_WEBHOOKS", &webhooks)
        .output()
        .map_err(|e| format!("cannot run {cargo}: {e}"));
    let _ = std::fs::remove_dir_all(&dir);
    let output = output?;
    let stdout = String::from_utf8_lossy(&output.stdout);
    if !output.status.success() {
        return Err(format!(
            "the book's testing sample failed ({}); the environment's logs are in {}:\n{}{stdout}",
            output.status,
            logs.display(),
            String::from_utf8_lossy(&output.stderr)
        ));
    }
    let passed = passed_tests(&stdout);
    if passed == 0 {
        return Err(format!("the book's testing sample ran no test:\n{stdout}"));
    }
    eprintln!(
        "xtask test: testing sample: {passed} passed, 0 failed ({:.0?})",
        started.elapsed()
    );
    Ok(())
}

/// The sample's manifest with the published dependencies replaced by this checkout's paths.
fn local_manifest(manifest: &str, root: &Path) -> Result<String, String> {
    let replacements = [
        (
            "capi-runtime = { version = \"0.1\",",
            format!("capi-runtime = {{ path = {:?},", root.display().to_string()),
        ),
        (
            "capi-runtime-testenv = \"0.1\"",
            format!(
                "capi-runtime-testenv = {{ path = {:?} }}",
                root.join("testenv").display().to_string()
            ),
        ),
    ];
    let mut manifest = manifest.to_string();
    for (published, local) in replacements {
        if manifest.matches(published).count() != 1 {
            return Err(format!(
                "{SAMPLE}/Cargo.toml no longer says `{published}` once"
            ));
        }
        manifest = manifest.replace(published, &local);
    }
    if !manifest.contains("\n[workspace]") {
        return Err(format!("{SAMPLE}/Cargo.toml lost its own [workspace]"));
    }
    Ok(manifest)
}

/// The sample's `src/` and `tests/` under `dir`, with `manifest` as its `Cargo.toml`.
fn write_copy(sample: &Path, dir: &Path, manifest: &str) -> Result<(), String> {
    for sub in ["src", "tests"] {
        let to = dir.join(sub);
        std::fs::create_dir_all(&to).map_err(|e| format!("{}: {e}", to.display()))?;
        let from = sample.join(sub);
        let entries = std::fs::read_dir(&from).map_err(|e| format!("{}: {e}", from.display()))?;
        for entry in entries {
            let entry = entry.map_err(|e| format!("{}: {e}", from.display()))?;
            std::fs::copy(entry.path(), to.join(entry.file_name()))
                .map_err(|e| format!("copying {}: {e}", entry.path().display()))?;
        }
    }
    std::fs::write(dir.join("Cargo.toml"), manifest).map_err(|e| format!("Cargo.toml: {e}"))
}

/// The number of passed tests, summed over libtest's `test result:` lines.
fn passed_tests(stdout: &str) -> usize {
    stdout
        .lines()
        .filter_map(|l| l.strip_prefix("test result: ok. "))
        .filter_map(|rest| rest.split(' ').next()?.parse::<usize>().ok())
        .sum()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_published_dependencies_become_paths() {
        let manifest = "[dependencies]\ncapi-runtime = { version = \"0.1\", features = [\"server\"] }\n[dev-dependencies]\ncapi-runtime-testenv = \"0.1\"\n\n[workspace]\n";
        let local = local_manifest(manifest, Path::new("/r")).unwrap();
        assert!(local.contains("capi-runtime = { path = \"/r\", features = [\"server\"] }"));
        assert!(local.contains("capi-runtime-testenv = { path = \"/r/testenv\" }"));
        assert!(local_manifest("[workspace]\n", Path::new("/r")).is_err());
    }

    #[test]
    fn passed_tests_are_summed() {
        let out = "running 0 tests\ntest result: ok. 0 passed; 0 failed\n\nrunning 1 test\n.\ntest result: ok. 1 passed; 0 failed; 0 ignored\n";
        assert_eq!(passed_tests(out), 1);
    }

    #[test]
    fn the_sample_is_found_and_rewritten() {
        let root = crate::root();
        let manifest = std::fs::read_to_string(root.join(SAMPLE).join("Cargo.toml")).unwrap();
        local_manifest(&manifest, &root).unwrap();
    }
}
