//! `runtime-crd-gen`: writes the CustomResourceDefinition manifests of the custom resources
//! among the workspace's API types (ExtensionConfig), as controller-gen would.
//!
//! Like `runtime-openapi-gen`, it emits from the SDK's model built into the binary (or reads the
//! `--input` crate, with the SDK's types found in that model) and leaves all logic to
//! `capi-runtime-codegen`.

use std::io;
use std::path::PathBuf;
use std::process::ExitCode;

use capi_runtime_codegen::{
    Failure, Options, ReadModelError, crd_documents, crd_yaml, fs, generate,
};
use clap::Parser;

#[path = "../inputs.rs"]
mod inputs;

/// Generate the CRD manifests of the Runtime SDK's custom resources.
#[derive(Parser, Debug)]
#[command(name = "runtime-crd-gen", version)]
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
        Err(error) => {
            eprintln!("{}", inputs::message(error).trim_end());
            ExitCode::FAILURE
        }
    }
}

/// Why a run failed; `main` prints it with its causes.
#[derive(Debug, thiserror::Error)]
enum Error {
    /// The `--input` crate cannot be read.
    #[error(transparent)]
    Input(#[from] inputs::ReadInputError),
    /// The model built into the binary cannot be read (a build from mismatched sources).
    #[error("error: the SDK model built into runtime-crd-gen is unusable")]
    Builtin(#[from] ReadModelError),
    /// The input's mistakes, as `path:line:col: message` lines.
    #[error(transparent)]
    Generate(#[from] Failure),
    /// No type is a custom resource.
    #[error("error: no type carries #[crd(...)]; nothing to write")]
    NoCrd,
    /// `--check` found manifests missing or stale: each one's error with its cause, one after
    /// the other (so no `source()`).
    #[error("{}", stale_text(.0))]
    Stale(Vec<inputs::CheckError>),
    /// A manifest cannot be written.
    #[error("error: cannot write {}", path.display())]
    Write { path: PathBuf, source: io::Error },
}

fn stale_text(errors: &[inputs::CheckError]) -> String {
    let mut text = String::new();
    for error in errors {
        let message = match error {
            inputs::CheckError::Read { source, .. } => format!("{error}: {source}"),
            inputs::CheckError::Stale { .. } => error.to_string(),
        };
        text.push_str(message.trim_end());
        text.push('\n');
    }
    text
}

fn run(args: Args) -> Result<(), Error> {
    let sdk = inputs::builtin_model()?;
    let files = match args.input.as_deref() {
        None => crd_yaml(&crd_documents(&sdk, GENERATOR)?),
        Some(input) => {
            let files = inputs::read_input(input)?;
            let options = Options::new(files)
                .dep_model(inputs::SDK_CRATE, sdk)
                .crds(GENERATOR);
            generate(&options)?.crd_yaml()
        }
    };
    if files.is_empty() {
        return Err(Error::NoCrd);
    }
    match &args.check {
        Some(dir) => {
            let stale: Vec<inputs::CheckError> = files
                .iter()
                .filter_map(|(name, yaml)| {
                    inputs::check(&dir.join(name), yaml, "regenerate it with runtime-crd-gen").err()
                })
                .collect();
            if stale.is_empty() {
                Ok(())
            } else {
                Err(Error::Stale(stale))
            }
        }
        None => {
            for (name, yaml) in &files {
                let path = args.output_dir.join(name);
                fs::write_atomic(&path, yaml.as_bytes())
                    .map_err(|source| Error::Write { path, source })?;
            }
            Ok(())
        }
    }
}
