//! Input files of the CLI frontend and where their modules sit in a crate.

use std::io;
use std::path::Path;

/// One Rust source file given to the generator.
#[derive(Clone, Debug)]
pub struct SourceFile {
    /// The path printed in diagnostics.
    pub path: String,
    /// The module path, starting with the crate name (`crate` for the crate being generated).
    pub module: Vec<String>,
    /// The file's text.
    pub text: String,
}

impl SourceFile {
    /// A file of the crate being generated, at `rel` under its `src/` directory.
    pub fn in_crate(display_path: impl Into<String>, rel: &str, text: impl Into<String>) -> Self {
        Self::in_named_crate("crate", display_path, rel, text)
    }

    /// A file of another crate the input depends on (e.g. `capi_runtime` for the hook types of
    /// this SDK), at `rel` under that crate's `src/` directory.
    pub fn in_named_crate(
        krate: &str,
        display_path: impl Into<String>,
        rel: &str,
        text: impl Into<String>,
    ) -> Self {
        SourceFile {
            path: display_path.into(),
            module: module_path(krate, rel),
            text: text.into(),
        }
    }
}

/// The module path of the file at `rel` (relative to a crate's `src/`, `/`-separated):
/// `lib.rs` → `[krate]`, `a/mod.rs` → `[krate, a]`, `a/b.rs` → `[krate, a, b]`.
pub fn module_path(krate: &str, rel: &str) -> Vec<String> {
    let mut parts: Vec<String> = rel
        .trim_end_matches(".rs")
        .split('/')
        .map(str::to_string)
        .collect();
    if matches!(
        parts.last().map(String::as_str),
        Some("mod" | "lib" | "main")
    ) {
        parts.pop();
    }
    std::iter::once(krate.to_string()).chain(parts).collect()
}

/// Reads every `.rs` file under `src_dir/<sub>` for each `sub`, in sorted path order, as
/// modules of the crate `krate` (`crate` for the crate being generated).
/// `display_prefix` is put before `<sub>/...` in the paths printed by diagnostics.
pub fn read_crate_dir(
    src_dir: &Path,
    subdirs: &[&str],
    display_prefix: &str,
    krate: &str,
) -> io::Result<Vec<SourceFile>> {
    let mut rels = Vec::new();
    for sub in subdirs {
        collect(src_dir, &src_dir.join(sub), &mut rels)?;
    }
    rels.sort();
    rels.into_iter()
        .map(|rel| {
            let text = std::fs::read_to_string(src_dir.join(&rel))?;
            Ok(SourceFile::in_named_crate(
                krate,
                format!("{display_prefix}{rel}"),
                &rel,
                text,
            ))
        })
        .collect()
}

fn collect(root: &Path, dir: &Path, out: &mut Vec<String>) -> io::Result<()> {
    if dir.is_file() {
        if let Ok(rel) = dir.strip_prefix(root) {
            out.push(rel.to_string_lossy().replace('\\', "/"));
        }
        return Ok(());
    }
    for entry in std::fs::read_dir(dir)? {
        let path = entry?.path();
        if path.is_dir() {
            collect(root, &path, out)?;
        } else if path.extension().is_some_and(|e| e == "rs") {
            let rel = path.strip_prefix(root).expect("under root");
            out.push(rel.to_string_lossy().replace('\\', "/"));
        }
    }
    Ok(())
}

/// The descriptions of the external types the generator knows (k8s-openapi, serde_json),
/// written with the same derive syntax as the hook types.
pub fn external() -> Vec<SourceFile> {
    vec![
        SourceFile {
            path: "<external>/k8s_openapi.rs".into(),
            module: vec!["k8s_openapi".into()],
            text: include_str!("../external/k8s_openapi.rs").into(),
        },
        SourceFile {
            path: "<external>/serde_json.rs".into(),
            module: vec!["serde_json".into()],
            text: include_str!("../external/serde_json.rs").into(),
        },
    ]
}
