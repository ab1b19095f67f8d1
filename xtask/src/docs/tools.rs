//! The programs the docs build needs, each installed by the project itself: mdBook pinned in
//! `xtask/tools/cargo-tools.txt` into `target/tools/cargo`, the pinned npm tools (`xtask/tools/package.json`) into
//! `target/tools/node`, and Debian's `chromium` through apt when it is missing.

use std::path::{Path, PathBuf};
use std::process::Command;

/// The mdBook binary, installed first when missing or of another version than pinned in
/// `xtask/tools/cargo-tools.txt`.
pub fn mdbook(root: &Path) -> Result<PathBuf, String> {
    crate::cargotools::bin(root, "mdbook")
}

/// A binary of the pinned npm tools, installing them first when needed.
pub fn node_bin(root: &Path, name: &str) -> Result<PathBuf, String> {
    crate::validators::install(root)?;
    let bin = crate::tools_dir(root)?
        .join("node/node_modules/.bin")
        .join(name);
    if bin.exists() {
        Ok(bin)
    } else {
        Err(format!(
            "{} is missing after installing xtask/tools/package.json",
            bin.display()
        ))
    }
}

/// The directory of an installed npm package of the pinned tools, installing them first when
/// needed.
pub fn node_module(root: &Path, name: &str) -> Result<PathBuf, String> {
    crate::validators::install(root)?;
    let dir = crate::tools_dir(root)?.join("node/node_modules").join(name);
    if dir.join("package.json").exists() {
        Ok(dir)
    } else {
        Err(format!(
            "{} is missing after installing xtask/tools/package.json",
            dir.display()
        ))
    }
}

/// The system Chromium, installed with apt-get (after `apt-get update`) when missing.
pub fn chromium() -> Result<PathBuf, String> {
    if let Some(path) = find_chromium() {
        return Ok(path);
    }
    eprintln!(
        "xtask site-check: chromium is not installed; installing Debian's `chromium` with apt-get"
    );
    let apt = |args: &[&str]| -> Result<(), String> {
        let status = Command::new("apt-get")
            .args(args)
            .env("DEBIAN_FRONTEND", "noninteractive")
            .status()
            .map_err(|e| format!("cannot run apt-get: {e}"))?;
        if status.success() {
            Ok(())
        } else {
            Err(format!("apt-get {} failed ({status})", args.join(" ")))
        }
    };
    apt(&["update", "-qq"])
        .and_then(|()| apt(&["install", "-y", "-qq", "chromium"]))
        .map_err(|e| {
            format!(
                "the browser check needs Debian's `chromium` package and could not install it \
                 ({e}); install it with `apt-get install chromium` (as root) and run again"
            )
        })?;
    find_chromium().ok_or_else(|| "apt-get installed chromium but it is not on PATH".to_string())
}

fn find_chromium() -> Option<PathBuf> {
    ["/usr/bin/chromium", "/usr/bin/chromium-browser"]
        .iter()
        .map(PathBuf::from)
        .find(|p| p.exists())
}

/// The `SHA256SUMS` text for `names` (relative to `dir`), from coreutils' `sha256sum`.
pub fn sha256sums(dir: &Path, names: &[String]) -> Result<String, String> {
    let output = Command::new("sha256sum")
        .arg("--")
        .args(names)
        .current_dir(dir)
        .output()
        .map_err(|e| format!("cannot run sha256sum: {e}"))?;
    if !output.status.success() {
        return Err(format!(
            "sha256sum failed: {}",
            String::from_utf8_lossy(&output.stderr)
        ));
    }
    let sums = String::from_utf8(output.stdout).map_err(|e| e.to_string())?;
    if sums.lines().count() != names.len() {
        return Err(format!(
            "sha256sum listed {} of {} files",
            sums.lines().count(),
            names.len()
        ));
    }
    Ok(sums)
}
