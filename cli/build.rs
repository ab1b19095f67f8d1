//! Embeds the workspace's hook and API sources, so that `runtime-openapi-gen` generates the
//! Runtime SDK document with no input argument, from any directory.

use std::path::{Path, PathBuf};

// The folders the generator reads, from the one place the generator defines them.
#[path = "../codegen/src/layout.rs"]
mod layout;

fn main() {
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR"));
    println!(
        "cargo:rerun-if-changed={}",
        manifest.join("../codegen/src/layout.rs").display()
    );
    let src = manifest.join("../src");
    let mut files = Vec::new();
    for sub in layout::CRATE_LAYOUT {
        let entry = src.join(sub);
        println!("cargo:rerun-if-changed={}", entry.display());
        if entry.is_file() {
            files.push(entry);
        } else {
            collect(&entry, &mut files);
        }
    }
    files.sort();
    let mut out = String::from("/// (path shown in diagnostics, path under src/, text)\n");
    out.push_str("pub const SOURCES: &[(&str, &str, &str)] = &[\n");
    for file in files {
        let rel = file
            .strip_prefix(&src)
            .expect("under src")
            .to_string_lossy()
            .replace('\\', "/");
        let abs = file.canonicalize().expect("file exists");
        out.push_str(&format!(
            "    ({:?}, {:?}, include_str!({:?})),\n",
            format!("src/{rel}"),
            rel,
            abs.display().to_string()
        ));
    }
    out.push_str("];\n");
    let dest =
        PathBuf::from(std::env::var("OUT_DIR").expect("cargo sets OUT_DIR")).join("embedded.rs");
    std::fs::write(dest, out).expect("OUT_DIR is writable");
}

fn collect(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            collect(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}
