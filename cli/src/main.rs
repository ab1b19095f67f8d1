//! `runtime-openapi-gen`: writes the Cluster API Runtime SDK OpenAPI document.
//!
//! With only `--version`, it emits the document of the SDK's own hooks from their checked model,
//! kept in this package as `sdk/model.json` by `cargo xtask codegen`, and writes
//! `runtime-sdk-openapi.yaml`; with `--input`, the hooks of that crate, whose uses of
//! `capi_runtime` types are found in the same model. All logic lives in
//! `capi-runtime-codegen`; this file parses arguments, calls it, and reports.

use std::io;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use capi_runtime_codegen::{
    Failure, OpenApiOpt, Options, ReadModelError, fs, generate, openapi_document, to_json, to_yaml,
};
use clap::Parser;

mod inputs;

/// Generate the OpenAPI document of the Cluster API Runtime SDK hooks.
#[derive(Parser, Debug)]
#[command(name = "runtime-openapi-gen", version, disable_version_flag = true)]
struct Args {
    /// Print the tool's own version (`--version` sets the document's).
    #[arg(short = 'V', action = clap::ArgAction::Version)]
    tool_version: Option<bool>,
    /// Version written into the document's `info.version` (required).
    #[arg(long, value_name = "VERSION")]
    version: Option<String>,
    /// Where to write the document; `.yaml` or `.json` selects the format.
    #[arg(long, value_name = "FILE", default_value = "runtime-sdk-openapi.yaml")]
    output_file: PathBuf,
    /// Write nothing; exit non-zero with a diff when FILE differs from what would be generated.
    #[arg(long, value_name = "FILE", conflicts_with = "output_file")]
    check: Option<PathBuf>,
    /// Read the hook types from this crate `src/` directory (its `hooks/` and `api/` folders)
    /// instead of the ones built into the tool.
    #[arg(long, value_name = "DIR")]
    input: Option<PathBuf>,
}

#[derive(Clone, Copy)]
enum Format {
    Yaml,
    Json,
}

fn main() -> ExitCode {
    match run(Args::parse()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            let message = inputs::message(error);
            eprint!("{message}");
            if !message.ends_with('\n') {
                eprintln!();
            }
            ExitCode::FAILURE
        }
    }
}

/// Why a run failed; `main` prints it with its causes.
#[derive(Debug, thiserror::Error)]
enum Error {
    /// `--version` is missing or blank.
    #[error("error: --version is required (it becomes info.version)")]
    MissingVersion,
    /// The output file names no format.
    #[error("error: {}: the output file must end in .yaml or .json", path.display())]
    OutputFormat { path: PathBuf },
    /// The `--input` crate cannot be read.
    #[error(transparent)]
    Input(#[from] inputs::ReadInputError),
    /// The model built into the binary cannot be read (a build from mismatched sources).
    #[error("error: the SDK model built into runtime-openapi-gen is unusable")]
    Builtin(#[from] ReadModelError),
    /// The input's mistakes, as `path:line:col: message` lines.
    #[error(transparent)]
    Generate(#[from] Failure),
    /// The input defines no hook.
    #[error(
        "error: --input {}: no hook found (no #[derive(Hook)] type under its hooks/ or api/)",
        input.display()
    )]
    NoHook { input: PathBuf },
    /// `--check` found the file missing or stale.
    #[error(transparent)]
    Check(#[from] inputs::CheckError),
    /// The document cannot be written.
    #[error("error: cannot write {}", path.display())]
    Write { path: PathBuf, source: io::Error },
}

fn run(args: Args) -> Result<(), Error> {
    let version = match args.version.as_deref() {
        Some(v) if !v.trim().is_empty() => v.to_string(),
        _ => return Err(Error::MissingVersion),
    };
    let target = args.check.as_deref().unwrap_or(&args.output_file);
    let format = format_of(target)?;
    let sdk = inputs::builtin_model()?;
    let doc = match args.input.as_deref() {
        None => openapi_document(&sdk, &OpenApiOpt::with_version(version)),
        Some(input) => {
            let files = inputs::read_input(input)?;
            let options = Options::new(files)
                .dep_model(inputs::SDK_CRATE, sdk)
                .openapi(version);
            let out = generate(&options)?;
            if out.hooks() == 0 {
                return Err(Error::NoHook {
                    input: input.to_path_buf(),
                });
            }
            out.openapi.expect("asked for")
        }
    };
    let text = match format {
        Format::Yaml => to_yaml(&doc),
        Format::Json => to_json(&doc),
    };
    match &args.check {
        Some(path) => Ok(inputs::check(
            path,
            &text,
            "regenerate it with runtime-openapi-gen (--output-file)",
        )?),
        None => {
            fs::write_atomic(&args.output_file, text.as_bytes()).map_err(|source| Error::Write {
                path: args.output_file.clone(),
                source,
            })
        }
    }
}

fn format_of(path: &Path) -> Result<Format, Error> {
    match path.extension().and_then(|e| e.to_str()) {
        Some("yaml") => Ok(Format::Yaml),
        Some("json") => Ok(Format::Json),
        _ => Err(Error::OutputFormat {
            path: path.to_path_buf(),
        }),
    }
}
