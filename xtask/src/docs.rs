//! `cargo xtask docs`, `cargo xtask dist` and `cargo xtask site-check`: the published
//! documentation and the release artifacts.
//!
//! - `docs` builds `target/site/`: the book (`docs/book`, mdBook installed pinned into
//!   `target/tools/cargo`), the hook API reference rendered from
//!   `golden/sdk/runtime-sdk-openapi.yaml` by the pinned `redocly build-docs --inlineBundle`
//!   (one self-contained page, no CDN), and the rustdoc of the public crates, built with
//!   missing docs and broken intra-doc links as errors.
//! - `dist --version vX.Y.Z` builds the site, then writes `target/dist/`: the OpenAPI document
//!   in YAML and JSON generated with that version, the CRD manifests, the example extension's
//!   deployment manifests (`test-extension-components.yaml`), the manager's webhook and
//!   conversion manifests (`manager/`), the `.crate` files, release binaries and their SBOMs
//!   (`release.rs`), the site as a tarball, and `SHA256SUMS` over all of them.
//! - `site-check` serves `target/site/` on a loopback port the OS picks and checks it in
//!   headless Chromium (`docs/site_check.mjs`): pages load without console errors or failed
//!   requests, the reference shows every hook path of the document, and no internal link of
//!   the site is broken. Screenshots go to `target/site-screenshots/`.
//!
//! `docs` also runs the book's shell samples (`shell.rs`). `cargo xtask test` runs `docs` and
//! `site-check` ([`test_step`]).

mod shell;
mod site;
mod tools;

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

use crate::validators::run_tool;

/// The crates whose rustdoc is published (the public ones).
const DOC_CRATES: &[&str] = &[
    "capi-runtime",
    "capi-runtime-derive",
    "capi-runtime-codegen",
    "capi-runtime-controller",
    "capi-runtime-manager",
    "capi-runtime-testenv",
    "capi-envtest",
];

/// Dispatches `docs`, `dist` and `site-check`.
pub fn main(command: &str, args: &[String]) -> Result<(), String> {
    match command {
        "docs" => run(args),
        "dist" => dist(args),
        _ => check(args),
    }
}

/// `cargo xtask docs`.
pub fn run(args: &[String]) -> Result<(), String> {
    if !args.is_empty() {
        return Err("usage: cargo xtask docs".into());
    }
    build_site(&crate::root())
}

/// `cargo xtask site-check`: checks an already built `target/site/`.
pub fn check(args: &[String]) -> Result<(), String> {
    if !args.is_empty() {
        return Err("usage: cargo xtask site-check".into());
    }
    site::check(&crate::root())
}

/// What `cargo xtask test` runs: build the site, then check it in the browser.
///
/// Both run as `cargo xtask dist --version v0.1.0` (which builds the site) and `cargo xtask
/// site-check` in child processes whose `CARGO_TARGET_DIR` is outside the workspace
/// ([`elsewhere_dir`]), so that an xtask assuming `<workspace>/target` fails here. Their `build-dir`
/// (cargo's intermediate artifacts) stays the workspace's and the tools stay where they are
/// installed (`CAPI_TOOLS_DIR`), so nothing is compiled or installed twice for it.
pub fn test_step(root: &Path) -> Result<(), String> {
    let started = Instant::now();
    let env = elsewhere_env(root)?;
    let elsewhere = env[0].1.clone();
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    for args in [
        &["xtask", "dist", "--version", "v0.1.0"][..],
        &["xtask", "site-check"][..],
    ] {
        run_tool(
            root,
            Command::new(&cargo).args(args).envs(env.iter().cloned()),
            &format!(
                "cargo {} with CARGO_TARGET_DIR={}",
                args.join(" "),
                elsewhere.display()
            ),
        )?;
    }
    for made in [
        "site/index.html",
        "site/rustdoc/capi_runtime/index.html",
        "dist/SHA256SUMS",
        "dist/runtime-sdk-openapi.yaml",
        "dist/install.yaml",
    ] {
        if !elsewhere.join(made).is_file() {
            return Err(format!(
                "dist and site-check with CARGO_TARGET_DIR={} left no {made} there",
                elsewhere.display()
            ));
        }
    }
    crate::release::check(root, &elsewhere.join("dist"))?;
    if !elsewhere.starts_with(crate::target_dir(root)?) {
        std::fs::remove_dir_all(&elsewhere)
            .map_err(|e| format!("cannot remove {}: {e}", elsewhere.display()))?;
    }
    eprintln!(
        "xtask test: dist and site-check in another target directory took {:.0?}",
        started.elapsed()
    );
    Ok(())
}

/// The environment of [`test_step`]'s commands, `CARGO_TARGET_DIR` first: the output goes to
/// [`elsewhere_dir`], outside the workspace, while cargo's build directory and the tools stay
/// where they are.
pub fn elsewhere_env(root: &Path) -> Result<Vec<(&'static str, PathBuf)>, String> {
    let target = crate::target_dir(root)?;
    Ok(vec![
        ("CARGO_TARGET_DIR", elsewhere_dir(root, &target)),
        ("CARGO_BUILD_BUILD_DIR", target.clone()),
        ("CAPI_TOOLS_DIR", crate::tools_dir(root)?),
    ])
}

/// The moved target directory of [`test_step`]: outside the workspace, as a shared
/// `CARGO_TARGET_DIR` usually is, so that an xtask reaching its output through a path relative
/// to the workspace (`<workspace>/target`, `../`) fails. When the target directory already
/// lies outside the workspace, `elsewhere/` inside it; otherwise a directory of the system's
/// temporary directory named after the target directory (the background release build and
/// the final step compute the same one), removed once the step has passed.
pub fn elsewhere_dir(root: &Path, target: &Path) -> PathBuf {
    if !target.starts_with(root) {
        return target.join("elsewhere");
    }
    // FNV-1a of the path: stable across runs and toolchains, unlike `DefaultHasher`.
    let hash = target
        .as_os_str()
        .as_encoded_bytes()
        .iter()
        .fold(0xcbf2_9ce4_8422_2325_u64, |h, b| {
            (h ^ u64::from(*b)).wrapping_mul(0x0000_0100_0000_01b3)
        });
    std::env::temp_dir().join(format!("capi-runtime-xtask-elsewhere-{hash:016x}"))
}

/// Builds `target/site/` from scratch.
pub fn build_site(root: &Path) -> Result<(), String> {
    let started = Instant::now();
    let site = crate::target_dir(root)?.join("site");
    if site.exists() {
        std::fs::remove_dir_all(&site)
            .map_err(|e| format!("cannot clear {}: {e}", site.display()))?;
    }
    std::fs::create_dir_all(&site).map_err(|e| e.to_string())?;

    shell::run(root)?;
    let mdbook = tools::mdbook(root)?;
    run_tool(
        root,
        Command::new(&mdbook)
            .arg("build")
            .arg(root.join("docs/book"))
            .arg("--dest-dir")
            .arg(site.join("book")),
        "mdbook build",
    )?;

    let api = site.join("api");
    std::fs::create_dir_all(&api).map_err(|e| e.to_string())?;
    let redocly = tools::node_bin(root, "redocly")?;
    run_tool(
        root,
        Command::new(&redocly)
            .arg("build-docs")
            .arg(root.join("golden/sdk/runtime-sdk-openapi.yaml"))
            .arg("--inlineBundle")
            .arg("--title")
            .arg("Cluster API Runtime SDK hooks: API reference")
            .arg("--output")
            .arg(api.join("index.html"))
            .env("REDOCLY_TELEMETRY", "off")
            .env("REDOCLY_SUPPRESS_UPDATE_NOTICE", "true"),
        "redocly build-docs",
    )?;
    self_contained_api_reference(&api.join("index.html"))?;

    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let mut doc = Command::new(&cargo);
    doc.args(["doc", "--no-deps", "--all-features"]);
    for krate in DOC_CRATES {
        doc.args(["--package", krate]);
    }
    doc.env(
        "RUSTDOCFLAGS",
        "-D missing_docs -D rustdoc::broken_intra_doc_links",
    );
    run_tool(
        root,
        &mut doc,
        "cargo doc (missing docs and broken links are errors)",
    )?;
    copy_dir(&crate::target_dir(root)?.join("doc"), &site.join("rustdoc"))?;
    std::fs::write(site.join("rustdoc/index.html"), site::RUSTDOC_INDEX)
        .map_err(|e| e.to_string())?;

    std::fs::write(site.join("index.html"), site::LANDING).map_err(|e| e.to_string())?;
    eprintln!(
        "xtask docs: {} built in {:.1} s",
        site.display(),
        started.elapsed().as_secs_f64()
    );
    Ok(())
}

/// `cargo xtask dist --version vX.Y.Z`.
pub fn dist(args: &[String]) -> Result<(), String> {
    let version = match args {
        [flag, version] if flag == "--version" => version.clone(),
        _ => return Err("usage: cargo xtask dist --version vX.Y.Z".into()),
    };
    if !is_release_version(&version) {
        return Err(format!(
            "--version {version:?}: expected vMAJOR.MINOR.PATCH, e.g. v0.1.0"
        ));
    }
    let root = crate::root();
    build_site(&root)?;
    let dist = crate::target_dir(&root)?.join("dist");
    if dist.exists() {
        std::fs::remove_dir_all(&dist).map_err(|e| e.to_string())?;
    }
    std::fs::create_dir_all(&dist).map_err(|e| e.to_string())?;
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());

    let mut files: Vec<PathBuf> = Vec::new();
    for ext in ["yaml", "json"] {
        let out = dist.join(format!("runtime-sdk-openapi.{ext}"));
        run_tool(
            &root,
            Command::new(&cargo)
                .args(["run", "--quiet", "-p", "runtime-openapi-gen", "--"])
                .args(["--version", &version, "--output-file"])
                .arg(&out),
            "runtime-openapi-gen",
        )?;
        files.push(out);
    }
    let crd = dist.join("crd");
    std::fs::create_dir_all(&crd).map_err(|e| e.to_string())?;
    run_tool(
        &root,
        Command::new(&cargo)
            .args([
                "run",
                "--quiet",
                "-p",
                "runtime-openapi-gen",
                "--bin",
                "runtime-crd-gen",
                "--",
            ])
            .arg("--output-dir")
            .arg(&crd),
        "runtime-crd-gen",
    )?;
    files.extend(sorted_files(&crd)?);

    // Deployment manifests: the example extension's as one components file; the manager's
    // (webhook configurations, the CRD's conversion patch) as they are, once it has some.
    let example = root.join("examples/test-extension/config");
    let out = dist.join("test-extension-components.yaml");
    std::fs::write(&out, concat_manifests(&example)?).map_err(|e| e.to_string())?;
    files.push(out);
    let manager = root.join("manager/config");
    if manager.is_dir() {
        for file in files_under(&manager)? {
            let rel = file.strip_prefix(&manager).map_err(|e| e.to_string())?;
            let out = dist.join("manager").join(rel);
            std::fs::create_dir_all(out.parent().expect("a file has a parent"))
                .map_err(|e| e.to_string())?;
            std::fs::copy(&file, &out).map_err(|e| format!("{}: {e}", file.display()))?;
            files.push(out);
        }
    }

    // The manager in one file (`cargo xtask codegen` writes it; see install.rs).
    let install = dist.join("install.yaml");
    std::fs::copy(root.join(crate::install::PATH), &install)
        .map_err(|e| format!("{}: {e}", crate::install::PATH))?;
    files.push(install);

    // The crates, the release binaries of this machine's target and their SBOMs.
    files.extend(crate::release::write(&root, &cargo, &dist)?);

    let tarball = dist.join(format!("capi-runtime-site-{version}.tar.gz"));
    run_tool(
        &root,
        Command::new("tar")
            .arg("--sort=name")
            .arg("--owner=0")
            .arg("--group=0")
            .arg("--numeric-owner")
            .arg("-czf")
            .arg(&tarball)
            .arg("-C")
            .arg(crate::target_dir(&root)?)
            .arg("site"),
        "tar (site tarball)",
    )?;
    files.push(tarball);

    let names: Vec<String> = files
        .iter()
        .map(|f| f.strip_prefix(&dist).map(|r| r.display().to_string()))
        .collect::<Result<_, _>>()
        .map_err(|e| e.to_string())?;
    let sums = tools::sha256sums(&dist, &names)?;
    std::fs::write(dist.join("SHA256SUMS"), sums).map_err(|e| e.to_string())?;
    eprintln!(
        "xtask dist: {} files in {}",
        files.len() + 1,
        dist.display()
    );
    Ok(())
}

/// `vMAJOR.MINOR.PATCH` with an optional `-pre` suffix.
fn is_release_version(version: &str) -> bool {
    let Some(rest) = version.strip_prefix('v') else {
        return false;
    };
    let core = rest
        .split_once('-')
        .map_or(rest, |(core, pre)| if pre.is_empty() { "" } else { core });
    let parts: Vec<&str> = core.split('.').collect();
    parts.len() == 3
        && parts
            .iter()
            .all(|p| !p.is_empty() && p.chars().all(|c| c.is_ascii_digit()))
}

/// The YAML files of `dir` (sorted by name) as one multi-document stream.
fn concat_manifests(dir: &Path) -> Result<String, String> {
    let mut out = String::new();
    for file in sorted_files(dir)? {
        if file.extension().is_some_and(|e| e == "yaml") {
            let text = std::fs::read_to_string(&file).map_err(|e| e.to_string())?;
            if !out.is_empty() {
                out.push_str("---\n");
            }
            out.push_str(text.trim_start_matches("---\n"));
            if !out.ends_with('\n') {
                out.push('\n');
            }
        }
    }
    Ok(out)
}

fn sorted_files(dir: &Path) -> Result<Vec<PathBuf>, String> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .map_err(|e| format!("{}: {e}", dir.display()))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.is_file())
        .collect();
    files.sort();
    Ok(files)
}

/// Every file under `dir`, depth first, sorted by name.
fn files_under(dir: &Path) -> Result<Vec<PathBuf>, String> {
    let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)
        .map_err(|e| format!("{}: {e}", dir.display()))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .collect();
    entries.sort();
    let mut files = Vec::new();
    for path in entries {
        if path.is_dir() {
            files.extend(files_under(&path)?);
        } else if path.is_file() {
            files.push(path);
        }
    }
    Ok(files)
}

fn copy_dir(from: &Path, to: &Path) -> Result<(), String> {
    std::fs::create_dir_all(to).map_err(|e| e.to_string())?;
    for entry in std::fs::read_dir(from).map_err(|e| format!("{}: {e}", from.display()))? {
        let entry = entry.map_err(|e| e.to_string())?;
        let path = entry.path();
        let target = to.join(entry.file_name());
        if entry.file_type().map_err(|e| e.to_string())?.is_dir() {
            copy_dir(&path, &target)?;
        } else {
            std::fs::copy(&path, &target).map_err(|e| format!("{}: {e}", path.display()))?;
        }
    }
    Ok(())
}

/// The logos Redoc's bundle loads from its CDN once the page has rendered (the sidebar's
/// attribution), which would make the site fetch from another host, at a moment that depends
/// on the browser's timing. The site check refuses any such request.
const REDOC_CDN_LOGOS: &[&str] = &[
    "https://cdn.redoc.ly/redoc/logo-mini-full.svg",
    "https://cdn.redoc.ly/redoc/logo-mini.svg",
];

/// An empty image, inline, in place of each logo.
const EMPTY_SVG: &str = "data:image/svg+xml,%3Csvg%20xmlns='http://www.w3.org/2000/svg'/%3E";

/// Makes the rendered API reference load nothing from another host: the CDN logos become an
/// empty inline image (the file is rewritten atomically).
fn self_contained_api_reference(page: &Path) -> Result<(), String> {
    let html = std::fs::read_to_string(page).map_err(|e| format!("{}: {e}", page.display()))?;
    let mut out = html.clone();
    for logo in REDOC_CDN_LOGOS {
        out = out.replace(logo, EMPTY_SVG);
    }
    if out == html {
        return Ok(());
    }
    let tmp = page.with_extension("html.tmp");
    std::fs::write(&tmp, out).map_err(|e| format!("{}: {e}", tmp.display()))?;
    std::fs::rename(&tmp, page).map_err(|e| format!("{}: {e}", page.display()))
}

#[cfg(test)]
mod tests {
    use super::is_release_version;

    #[test]
    fn release_versions() {
        for ok in ["v0.1.0", "v1.12.3", "v2.0.0-rc.1"] {
            assert!(is_release_version(ok), "{ok}");
        }
        for bad in ["0.1.0", "v1.2", "v1.2.x", "v1..2", "v1.2.3-", ""] {
            assert!(!is_release_version(bad), "{bad}");
        }
    }
}
