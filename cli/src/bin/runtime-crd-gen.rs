//! `runtime-crd-gen`: writes the CustomResourceDefinition manifests of the custom resources
//! among the workspace's API types (ExtensionConfig), as controller-gen would.
//!
//! Like `runtime-openapi-gen`, it reads the types built into the binary (or `--input`) and
//! leaves all logic to `capi-runtime-codegen`.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use capi_runtime_codegen::{SourceFile, fs, source};
use clap::Parser;

mod embedded {
    include!(concat!(env!("OUT_DIR"), "/embedded.rs"));
}

/// Generate the CRD manifests of the Runtime SDK's custom resources.
#[derive(Parser, Debug)]
#[command(name = "runtime-crd-gen")]
struct Args {
    /// Directory to write `<group>_<plural>.yaml` files into.
    #[arg(long, value_name = "DIR", default_value = ".")]
    output_dir: PathBuf,
    /// Write nothing; exit non-zero with a diff when a manifest in DIR differs.
    #[arg(long, value_name = "DIR", conflicts_with = "output_dir")]
    check: Option<PathBuf>,
    /// Read the API types from this crate `src/` directory (its `api/` folder) instead of the
    /// ones built into the tool.
    #[arg(long, value_name = "DIR")]
    input: Option<PathBuf>,
}

const GENERATOR: &str = concat!("capi-runtime-codegen v", env!("CARGO_PKG_VERSION"));

fn main() -> ExitCode {
    match run(Args::parse()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("{}", message.trim_end());
            ExitCode::FAILURE
        }
    }
}

fn run(args: Args) -> Result<(), String> {
    let sources: Vec<SourceFile> = match &args.input {
        Some(dir) => {
            let subs: Vec<&str> = ["hooks", "api"]
                .into_iter()
                .filter(|s| dir.join(s).exists())
                .collect();
            source::read_crate_dir(dir, &subs, &format!("{}/", dir.display()), "crate")
                .map_err(|e| format!("error: cannot read {}: {e}", dir.display()))?
        }
        None => embedded::SOURCES
            .iter()
            .map(|(shown, rel, text)| SourceFile::in_crate(*shown, rel, *text))
            .collect(),
    };
    let files =
        capi_runtime_codegen::crd_files(&sources, &[], GENERATOR).map_err(|f| f.render())?;
    if files.is_empty() {
        return Err("error: no type carries #[crd(...)]; nothing to write".into());
    }
    match &args.check {
        Some(dir) => check(dir, &files),
        None => {
            for (name, yaml) in &files {
                let path = args.output_dir.join(name);
                fs::write_atomic(&path, yaml.as_bytes())
                    .map_err(|e| format!("error: cannot write {}: {e}", path.display()))?;
            }
            Ok(())
        }
    }
}

fn check(dir: &Path, files: &[(String, String)]) -> Result<(), String> {
    let mut out = String::new();
    for (name, yaml) in files {
        let path = dir.join(name);
        let current = std::fs::read_to_string(&path).unwrap_or_default();
        if current != *yaml {
            out.push_str(&format!("error: {} is stale\n", path.display()));
            let diff = similar::TextDiff::from_lines(current.as_str(), yaml.as_str());
            out.push_str(
                &diff
                    .unified_diff()
                    .context_radius(2)
                    .header("current", "generated")
                    .to_string(),
            );
        }
    }
    if out.is_empty() { Ok(()) } else { Err(out) }
}
