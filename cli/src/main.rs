//! `runtime-openapi-gen`: writes the Cluster API Runtime SDK OpenAPI document.
//!
//! With only `--version`, it reads the hook types of this workspace (embedded at build time)
//! and writes `runtime-sdk-openapi.yaml`. All logic lives in `capi-runtime-codegen`; this file
//! parses arguments, calls it, and reports.

use std::io;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use capi_runtime_codegen::{Failure, Options, fs, generate};
use clap::Parser;

mod inputs;

/// Generate the OpenAPI document of the Cluster API Runtime SDK hooks.
#[derive(Parser, Debug)]
#[command(name = "runtime-openapi-gen", disable_version_flag = true)]
struct Args {
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
    let (primary, deps) = inputs::sources(args.input.as_deref())?;
    let out = generate(&Options::new(primary).deps(deps).openapi(version))?;
    if out.hooks() == 0 {
        let input = args.input.as_deref().unwrap_or(Path::new("<built-in>"));
        return Err(Error::NoHook {
            input: input.to_path_buf(),
        });
    }
    let doc = out.openapi.expect("asked for");
    let text = match format {
        Format::Yaml => capi_runtime_codegen::to_yaml(&doc),
        Format::Json => capi_runtime_codegen::to_json(&doc),
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
