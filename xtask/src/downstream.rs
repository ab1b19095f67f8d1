//! The downstream check of `cargo xtask test`: the README's "Quick start" section, built as a
//! user's crate would be.
//!
//! The section's `toml` block becomes the `[dependencies]` of a new package and each of its
//! `rust` blocks a binary of it (`src/bin/quick_start_<n>.rs`), word for word, except that
//! `capi-runtime` comes from this checkout (`path = ...`) instead of the registry. The package
//! is written to a directory outside the workspace and built from there, its warnings denied
//! (by its own `[lints]`, so its dependencies build as the workspace's do), with the
//! workspace's `K8S_OPENAPI_ENABLED_VERSION` removed, so neither the workspace's
//! `.cargo/config.toml` nor its environment can make a missing step in the README work by
//! accident. The samples are built, not run: one serves until it is stopped and the other
//! calls it; the book's samples crate runs the same calls against a served extension. The
//! output goes to `target/downstream`; the intermediate artifacts share the workspace's build
//! directory, so the dependencies it builds as the workspace does are not built twice.

use std::path::Path;
use std::process::Command;

const SECTION: &str = "## Quick start";

/// Builds the README's quick-start samples as a crate of their own.
pub fn run(root: &Path, cargo: &str) -> Result<(), String> {
    let readme = std::fs::read_to_string(root.join("README.md")).map_err(|e| e.to_string())?;
    let section = section(&readme)?;
    let dependencies = block(section, "toml")?;
    let samples = blocks(section, "rust")?;
    if samples.is_empty() {
        return Err(format!("README {SECTION:?} has no rust block"));
    }
    let published = "capi-runtime = { version = \"0.1\",";
    if !dependencies.contains(published) {
        return Err(format!(
            "README: the {SECTION} dependencies no longer say `{published} ...`"
        ));
    }
    let local = format!("capi-runtime = {{ path = {:?},", root.display().to_string());
    let manifest = format!(
        "[package]\nname = \"downstream-check\"\nversion = \"0.0.0\"\nedition = \"2024\"\npublish = false\n\n{}\n\n[lints.rust]\nwarnings = \"deny\"\n\n[workspace]\n",
        dependencies.replace(published, &local)
    );
    let dir = std::env::temp_dir().join(format!("capi-runtime-downstream-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let written = write_package(&dir, &manifest, &samples);
    // Same versions as the workspace, so the build reuses what is already compiled.
    let _ = std::fs::copy(root.join("Cargo.lock"), dir.join("Cargo.lock"));
    eprintln!(
        "xtask test: building the README's {} quick-start samples in {}",
        samples.len(),
        dir.display()
    );
    let output = written.and_then(|()| {
        outside_cargo(cargo, &dir, &crate::target_dir(root)?, "downstream")
            .args(["build", "--quiet", "--bins"])
            .output()
            .map_err(|e| format!("cannot run {cargo}: {e}"))
    });
    let _ = std::fs::remove_dir_all(&dir);
    let output = output?;
    if !output.status.success() {
        return Err(format!(
            "the README's quick-start samples do not build ({}):\n{}",
            output.status,
            String::from_utf8_lossy(&output.stderr)
        ));
    }
    eprintln!(
        "xtask test: downstream: {} quick-start samples built",
        samples.len()
    );
    Ok(())
}

/// Writes the package: its manifest and one binary per sample.
fn write_package(dir: &Path, manifest: &str, samples: &[&str]) -> Result<(), String> {
    let bin = dir.join("src/bin");
    std::fs::create_dir_all(&bin).map_err(|e| format!("{}: {e}", bin.display()))?;
    std::fs::write(dir.join("Cargo.toml"), manifest).map_err(|e| e.to_string())?;
    for (n, sample) in samples.iter().enumerate() {
        let file = bin.join(format!("quick_start_{}.rs", n + 1));
        std::fs::write(&file, sample).map_err(|e| format!("{}: {e}", file.display()))?;
    }
    Ok(())
}

fn section(readme: &str) -> Result<&str, String> {
    let start = readme
        .find(SECTION)
        .ok_or_else(|| format!("README has no {SECTION:?} section"))?;
    let rest = &readme[start + SECTION.len()..];
    let end = rest.find("\n## ").unwrap_or(rest.len());
    Ok(&rest[..end])
}

/// The first fenced block of `lang` in `text`.
fn block<'a>(text: &'a str, lang: &str) -> Result<&'a str, String> {
    let fence = format!("```{lang}\n");
    let start = text
        .find(&fence)
        .ok_or_else(|| format!("README {SECTION:?} has no {lang} block"))?
        + fence.len();
    let len = text[start..]
        .find("```")
        .ok_or_else(|| format!("README {SECTION:?}: unterminated {lang} block"))?;
    Ok(&text[start..start + len])
}

/// Every fenced block of `lang` in `text`, in order.
fn blocks<'a>(text: &'a str, lang: &str) -> Result<Vec<&'a str>, String> {
    let mut found = Vec::new();
    let mut rest = text;
    while rest.contains(&format!("```{lang}\n")) {
        let one = block(rest, lang)?;
        found.push(one);
        // Past this block's closing fence.
        let end = one.as_ptr() as usize - rest.as_ptr() as usize + one.len() + 3;
        rest = &rest[end..];
    }
    Ok(found)
}

/// A cargo command for a crate written outside the workspace, in `dir`: its output in
/// `<target>/<name>`, its intermediate artifacts in the workspace's build directory (what
/// compiles the same way, a dependency with the same version and features, is compiled once,
/// the rest apart, by cargo's own keys), and none of the workspace's environment that could
/// make a missing step of the reader's work by accident.
pub fn outside_cargo(cargo: &str, dir: &Path, target: &Path, name: &str) -> Command {
    let mut command = Command::new(cargo);
    command
        .current_dir(dir)
        .env("CARGO_TARGET_DIR", target.join(name))
        .env("CARGO_BUILD_BUILD_DIR", target)
        .env_remove("K8S_OPENAPI_ENABLED_VERSION")
        .env_remove("CARGO_MANIFEST_DIR");
    command
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn blocks_are_found_in_the_section() {
        let readme = "# x\n## Quick start\ntext\n```toml\na = 1\n```\n```rust\nfn main() {}\n```\n## Next\n```rust\nno\n```\n";
        let section = section(readme).unwrap();
        assert_eq!(block(section, "toml").unwrap(), "a = 1\n");
        assert_eq!(block(section, "rust").unwrap(), "fn main() {}\n");
        assert!(block(section, "yaml").is_err());
        assert_eq!(blocks(section, "rust").unwrap(), ["fn main() {}\n"]);
        let two = "```rust\na\n```\ntext\n```rust\nb\n```\n";
        assert_eq!(blocks(two, "rust").unwrap(), ["a\n", "b\n"]);
    }
}
