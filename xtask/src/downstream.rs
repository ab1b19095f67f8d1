//! The downstream check of `cargo xtask test`: the README's "Using this crate" section, built
//! as a user's crate would be.
//!
//! The section's `toml` block becomes the `[dependencies]` of a new package and its `rust`
//! block its `src/main.rs`, word for word, except that `capi-runtime` comes from this checkout
//! (`path = ...`) instead of the registry. The package is written to a directory outside the
//! workspace and built from there with the workspace's `K8S_OPENAPI_ENABLED_VERSION` removed,
//! so neither the workspace's `.cargo/config.toml` nor its environment can make a missing step
//! in the README work by accident; then the program is run and its output checked. Its output
//! goes to `target/downstream`; its intermediate artifacts share the workspace's build
//! directory, so the dependencies it builds as the workspace does are not built twice.

use std::path::Path;
use std::process::Command;

const SECTION: &str = "## Using this crate";

/// Builds and runs the README's downstream example.
pub fn run(root: &Path, cargo: &str) -> Result<(), String> {
    let readme = std::fs::read_to_string(root.join("README.md")).map_err(|e| e.to_string())?;
    let section = section(&readme)?;
    let dependencies = block(section, "toml")?;
    let main = block(section, "rust")?;
    let published = "capi-runtime = { version = \"0.1\",";
    if !dependencies.contains(published) {
        return Err(format!(
            "README: the {SECTION} dependencies no longer say `{published} ...`"
        ));
    }
    let local = format!("capi-runtime = {{ path = {:?},", root.display().to_string());
    let manifest = format!(
        "[package]\nname = \"downstream-check\"\nversion = \"0.0.0\"\nedition = \"2024\"\npublish = false\n\n{}\n\n[workspace]\n",
        dependencies.replace(published, &local)
    );
    let dir = std::env::temp_dir().join(format!("capi-runtime-downstream-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("src")).map_err(|e| e.to_string())?;
    std::fs::write(dir.join("Cargo.toml"), manifest).map_err(|e| e.to_string())?;
    std::fs::write(dir.join("src/main.rs"), main).map_err(|e| e.to_string())?;
    // Same versions as the workspace, so the build reuses what is already compiled.
    let _ = std::fs::copy(root.join("Cargo.lock"), dir.join("Cargo.lock"));
    eprintln!(
        "xtask test: building the README's downstream example in {}",
        dir.display()
    );
    let output = outside_cargo(cargo, &dir, &crate::target_dir(root)?, "downstream")
        .args(["run", "--quiet"])
        .output()
        .map_err(|e| format!("cannot run {cargo}: {e}"));
    let _ = std::fs::remove_dir_all(&dir);
    let output = output?;
    let stdout = String::from_utf8_lossy(&output.stdout);
    if !output.status.success() {
        return Err(format!(
            "the README's downstream example does not build or run ({}):\n{}{stdout}",
            output.status,
            String::from_utf8_lossy(&output.stderr)
        ));
    }
    let expected = "before-cluster-create\nclient ready: true\n";
    if stdout != expected {
        return Err(format!(
            "the README's downstream example printed {stdout:?}, expected {expected:?}"
        ));
    }
    eprintln!("xtask test: downstream example: 1 passed, 0 failed");
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
        let readme = "# x\n## Using this crate\ntext\n```toml\na = 1\n```\n```rust\nfn main() {}\n```\n## Next\n```rust\nno\n```\n";
        let section = section(readme).unwrap();
        assert_eq!(block(section, "toml").unwrap(), "a = 1\n");
        assert_eq!(block(section, "rust").unwrap(), "fn main() {}\n");
        assert!(block(section, "yaml").is_err());
    }
}
