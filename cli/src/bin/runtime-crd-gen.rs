//! `runtime-crd-gen`: writes the CustomResourceDefinition manifests of the custom resources
//! among the workspace's API types (ExtensionConfig), as controller-gen would.
//!
//! Like `runtime-openapi-gen`, it reads the types built into the binary (or `--input`) and
//! leaves all logic to `capi-runtime-codegen`.

use std::path::PathBuf;
use std::process::ExitCode;

use capi_runtime_codegen::{Options, fs, generate};
use clap::Parser;

#[path = "../inputs.rs"]
mod inputs;

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
    let (primary, deps) = inputs::sources(args.input.as_deref())?;
    let files = generate(&Options::new(primary).deps(deps).crds(GENERATOR))
        .map_err(|f| f.render())?
        .crd_yaml();
    if files.is_empty() {
        return Err("error: no type carries #[crd(...)]; nothing to write".into());
    }
    match &args.check {
        Some(dir) => {
            let mut stale = String::new();
            for (name, yaml) in &files {
                if let Err(e) =
                    inputs::check(&dir.join(name), yaml, "regenerate it with runtime-crd-gen")
                {
                    stale.push_str(e.trim_end());
                    stale.push('\n');
                }
            }
            if stale.is_empty() { Ok(()) } else { Err(stale) }
        }
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
