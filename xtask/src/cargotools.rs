//! The cargo-installed tools of the build (`xtask/tools/cargo-tools.txt`): each pinned to one
//! version and installed with `cargo install --locked` into `<tools>/cargo` when a step first
//! needs it.
//!
//! Whether the pinned version is there is read from cargo's own record of the installation
//! root (`.crates2.json`), together with the arguments it was installed with, so a changed pin
//! or changed features install it again and nothing else does.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

/// One line of the pin file.
#[derive(Debug, PartialEq)]
struct Pin {
    name: String,
    version: String,
    args: Vec<String>,
}

/// Reads the pins: `<crate> <version> [cargo install arguments]`, `#` comments.
fn pins(text: &str) -> Result<Vec<Pin>, String> {
    let mut pins = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let mut words = line.split_whitespace().map(str::to_string);
        let (Some(name), Some(version)) = (words.next(), words.next()) else {
            return Err(format!(
                "xtask/tools/cargo-tools.txt:{}: expected `<crate> <version> [args]`",
                n + 1
            ));
        };
        pins.push(Pin {
            name,
            version,
            args: words.collect(),
        });
    }
    Ok(pins)
}

/// The path of tool `name`'s binary (named as the crate), installing it first when the pinned
/// version is not the one installed.
pub fn bin(root: &Path, name: &str) -> Result<PathBuf, String> {
    let file = root.join("xtask/tools/cargo-tools.txt");
    let text = std::fs::read_to_string(&file).map_err(|e| format!("{}: {e}", file.display()))?;
    let pin = pins(&text)?
        .into_iter()
        .find(|p| p.name == name)
        .ok_or_else(|| format!("{}: no pin for {name}", file.display()))?;
    let prefix = crate::tools_dir(root)?.join("cargo");
    let bin = prefix.join("bin").join(name);
    // One installer of a tool at a time: the test command's background job
    // (`background.rs`) and a step that needs the tool now may both get here.
    let _lock = lock(&prefix, name)?;
    if bin.is_file() && installed(&prefix, &pin) {
        return Ok(bin);
    }
    eprintln!(
        "xtask: installing {} {} into {} (minutes, once per pin)",
        pin.name,
        pin.version,
        prefix.display()
    );
    let started = Instant::now();
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let status = Command::new(cargo)
        .args(["install", "--locked", &pin.name, "--version", &pin.version])
        // The tools' own release profiles ask for (fat) LTO in one codegen unit: minutes of
        // one core for a binary a test step runs a few times. Built in parallel units without
        // LTO, at the first optimisation level, they run for seconds all the same and build
        // in a fraction of the time (DEVELOPING.md has the figures).
        .env("CARGO_PROFILE_RELEASE_LTO", "off")
        .env("CARGO_PROFILE_RELEASE_OPT_LEVEL", "1")
        .env("CARGO_PROFILE_RELEASE_CODEGEN_UNITS", "16")
        .env("CARGO_PROFILE_RELEASE_DEBUG", "0")
        .args(&pin.args)
        .arg("--root")
        .arg(&prefix)
        // One build directory for every tool, kept: the dependencies they share at the same
        // version and features (syn, serde, clap, regex, ...) compile once, not once per tool.
        .arg("--target-dir")
        .arg(prefix.join("build"))
        .status()
        .map_err(|e| format!("cannot run cargo install: {e}"))?;
    if !status.success() {
        return Err(format!(
            "cargo install {} {} failed ({status})",
            pin.name, pin.version
        ));
    }
    eprintln!(
        "xtask: {} {} installed in {:.0} s",
        pin.name,
        pin.version,
        started.elapsed().as_secs_f64()
    );
    Ok(bin)
}

/// `cargo xtask cargo-tools`: installs every pinned tool that is not installed, in the order of
/// the pin file (the order in which the test command needs them).
pub fn command(args: &[String]) -> Result<(), String> {
    if !args.is_empty() {
        return Err("usage: cargo xtask cargo-tools".into());
    }
    let root = crate::root();
    let file = root.join("xtask/tools/cargo-tools.txt");
    let text = std::fs::read_to_string(&file).map_err(|e| format!("{}: {e}", file.display()))?;
    for pin in pins(&text)? {
        bin(&root, &pin.name)?;
    }
    Ok(())
}

/// Holds `<prefix>/.lock-<name>` exclusively, saying so when another installer has it.
fn lock(prefix: &Path, name: &str) -> Result<std::fs::File, String> {
    std::fs::create_dir_all(prefix).map_err(|e| format!("{}: {e}", prefix.display()))?;
    let path = prefix.join(format!(".lock-{name}"));
    let file = std::fs::OpenOptions::new()
        .create(true)
        .truncate(false)
        .write(true)
        .open(&path)
        .map_err(|e| format!("{}: {e}", path.display()))?;
    match file.try_lock() {
        Ok(()) => return Ok(file),
        Err(std::fs::TryLockError::WouldBlock) => {}
        Err(std::fs::TryLockError::Error(e)) => return Err(format!("{}: {e}", path.display())),
    }
    eprintln!(
        "xtask: waiting for another installation of {name} to finish ({})",
        path.display()
    );
    let started = Instant::now();
    file.lock()
        .map_err(|e| format!("{}: {e}", path.display()))?;
    eprintln!(
        "xtask: waited {:.0} s for the installation of {name}",
        started.elapsed().as_secs_f64()
    );
    Ok(file)
}

/// Whether cargo's record of `prefix` holds `pin` at its version, with its features.
fn installed(prefix: &Path, pin: &Pin) -> bool {
    let Ok(text) = std::fs::read_to_string(prefix.join(".crates2.json")) else {
        return false;
    };
    let Ok(record) = serde_json::from_str::<serde_json::Value>(&text) else {
        return false;
    };
    let Some(installs) = record.get("installs").and_then(|i| i.as_object()) else {
        return false;
    };
    let key = format!("{} {} ", pin.name, pin.version);
    installs
        .iter()
        .any(|(k, info)| k.starts_with(&key) && features(info) == wanted_features(&pin.args))
}

/// The features and `no_default_features` cargo recorded for one installation.
fn features(info: &serde_json::Value) -> (Vec<String>, bool) {
    let mut list: Vec<String> = info
        .get("features")
        .and_then(|f| f.as_array())
        .map(|f| {
            f.iter()
                .filter_map(|s| s.as_str().map(str::to_string))
                .collect()
        })
        .unwrap_or_default();
    list.sort();
    let no_default = info
        .get("no_default_features")
        .and_then(|b| b.as_bool())
        .unwrap_or(false);
    (list, no_default)
}

/// The features and `--no-default-features` that the pin's arguments ask for.
fn wanted_features(args: &[String]) -> (Vec<String>, bool) {
    let mut list = Vec::new();
    let mut words = args.iter();
    while let Some(word) = words.next() {
        if word == "--features" {
            if let Some(value) = words.next() {
                list.extend(
                    value
                        .split([',', ' '])
                        .filter(|f| !f.is_empty())
                        .map(str::to_string),
                );
            }
        } else if let Some(value) = word.strip_prefix("--features=") {
            list.extend(
                value
                    .split([',', ' '])
                    .filter(|f| !f.is_empty())
                    .map(str::to_string),
            );
        }
    }
    list.sort();
    (list, args.iter().any(|a| a == "--no-default-features"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pins_are_read_with_their_arguments() {
        let text = "# comment\n\nmdbook 0.5.4 --no-default-features --features search\ncargo-deny 0.20.2\n";
        let pins = pins(text).unwrap();
        assert_eq!(pins.len(), 2);
        assert_eq!(pins[0].name, "mdbook");
        assert_eq!(
            wanted_features(&pins[0].args),
            (vec!["search".to_string()], true)
        );
        assert_eq!(pins[1].version, "0.20.2");
        assert!(pins[1].args.is_empty());
        assert!(super::pins("lonely\n").unwrap_err().contains(":1:"));
    }

    #[test]
    fn an_installation_counts_only_at_the_pinned_version_and_features() {
        let dir = std::env::temp_dir().join(format!("xtask-cargotools-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(
            dir.join(".crates2.json"),
            r#"{"installs":{"mdbook 0.5.4 (registry+https://github.com/rust-lang/crates.io-index)":{"features":["search"],"all_features":false,"no_default_features":true}}}"#,
        )
        .unwrap();
        let pin = |version: &str, args: &[&str]| Pin {
            name: "mdbook".into(),
            version: version.into(),
            args: args.iter().map(|a| a.to_string()).collect(),
        };
        assert!(installed(
            &dir,
            &pin("0.5.4", &["--no-default-features", "--features", "search"])
        ));
        assert!(!installed(
            &dir,
            &pin("0.5.5", &["--no-default-features", "--features", "search"])
        ));
        assert!(!installed(&dir, &pin("0.5.4", &[])));
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
