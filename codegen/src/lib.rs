//! The shared model of the Cluster API Runtime SDK generator.
//!
//! One pipeline (parse → resolve → check → emit) serves three frontends:
//! - the derive macros (`capi-runtime-derive`), through [`expand_schema`] and [`expand_hook`];
//! - the `runtime-openapi-gen` CLI, through [`load`] and [`emit::openapi::document`];
//! - `cargo xtask codegen`, which regenerates every checked-in artifact.
//!
//! The derive sees one type at a time, so it serializes the model of that type into its
//! expansion and leaves the links to the compiler; [`resolve::link_derived`] rebuilds the same
//! [`model::Model`] from those pieces, and a test asserts that both frontends yield the same
//! document. This crate depends on no runtime crate (no kube, no k8s-openapi).
//!
//! # OpenAPI rules (Kubernetes openapi-gen, as Cluster API uses it)
//! - A struct is an object component `<package with / as .>.<Type>`; enums of unit variants
//!   and newtypes are written in place.
//! - `required`: `#[schema(required)]`, `#[schema(optional)]`, otherwise every field that serde
//!   always writes (no `skip_serializing_if`); in field order.
//! - Implicit defaults: `{}` for struct values, the zero value for scalars that are always
//!   written, nothing for `Option`, lists, maps and types with custom JSON; list items and map
//!   values get their element's default.
//! - `#[schema(enum)]` lists the values of a string enum, sorted.

pub mod check;
pub mod diag;
pub mod emit;
pub mod fs;
pub mod markers;
pub mod model;
pub mod parse;
pub mod resolve;
pub mod source;

use proc_macro2::TokenStream;

pub use diag::{Diagnostics, Errors};
pub use emit::openapi::OpenApiOpt;
pub use model::Model;
pub use source::SourceFile;

/// The expansion of `#[derive(Schema)]`: the trait impls, or the errors as `compile_error!`.
pub fn expand_schema(input: &syn::DeriveInput) -> TokenStream {
    let cx = Diagnostics::new();
    let parsed = parse::schema(&cx, None, input, false);
    match (cx.check(), parsed) {
        (Ok(()), Some(parsed)) => emit::rust::schema(&parsed),
        (Err(e), parsed) => {
            let mut out = e.to_syn_error().into_compile_error();
            out.extend(emit::rust::schema_fallback(
                input,
                &parsed.and_then(|p| p.krate),
            ));
            out
        }
        // serde's derive reports its own attribute errors; add nothing.
        (Ok(()), None) => emit::rust::schema_fallback(input, &None),
    }
}

/// The expansion of `#[derive(Hook)]`: the trait impl, or the errors as `compile_error!`.
pub fn expand_hook(input: &syn::DeriveInput) -> TokenStream {
    let cx = Diagnostics::new();
    let parsed = parse::hook(&cx, None, input);
    match (cx.check(), parsed) {
        (Ok(()), Some(parsed)) => emit::rust::hook(&parsed),
        (Err(e), _) => e.to_syn_error().into_compile_error(),
        (Ok(()), None) => TokenStream::new(),
    }
}

/// A failed CLI run: the errors, with the paths to print them against.
#[derive(Debug)]
pub struct Failure {
    /// The errors.
    pub errors: Errors,
    /// Display path of each input file, by [`diag::FileId`].
    pub paths: Vec<String>,
}

impl Failure {
    /// Every error as `path:line:col: message`, one per line.
    pub fn render(&self) -> String {
        let paths: Vec<&str> = self.paths.iter().map(String::as_str).collect();
        self.errors.render(&paths, "<input>")
    }
}

impl std::fmt::Display for Failure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.render().trim_end())
    }
}

impl std::error::Error for Failure {}

/// The CLI pipeline up to a checked model: parses `sources` plus the known external types,
/// resolves every reference and runs the cross-cutting checks.
pub fn load(sources: &[SourceFile]) -> Result<Model, Failure> {
    let all: Vec<SourceFile> = sources.iter().cloned().chain(source::external()).collect();
    let paths: Vec<String> = all.iter().map(|s| s.path.clone()).collect();
    let fail = |errors| Failure {
        errors,
        paths: paths.clone(),
    };
    let cx = Diagnostics::new();
    let mut parsed = parse::file::Parsed::default();
    for (id, src) in all.iter().enumerate() {
        match syn::parse_file(&src.text) {
            Ok(ast) => parse::file::add_file(&cx, &mut parsed, id, src.module.clone(), &ast),
            Err(e) => cx.push(Some(id), e),
        }
    }
    cx.check().map_err(fail)?;
    let model = resolve::resolve(parsed).map_err(fail)?;
    check::check(&model).map_err(fail)?;
    Ok(model)
}

/// The Rust source of `src/generated/external_schemas.rs` in the runtime crate: `Schema` impls
/// for the known external types.
pub fn external_schema_impls() -> Result<String, Failure> {
    let sources = source::external();
    let paths: Vec<String> = sources.iter().map(|s| s.path.clone()).collect();
    let mut files = Vec::new();
    for src in &sources {
        let ast = syn::parse_file(&src.text).map_err(|e| Failure {
            errors: Errors(vec![diag::Diag {
                file: Some(files.len()),
                error: e,
            }]),
            paths: paths.clone(),
        })?;
        files.push((src.module.clone(), ast));
    }
    emit::rust::external_impls(&files).map_err(|errors| Failure { errors, paths })
}

/// The CRD manifests of every custom resource in `primary` (the types with `#[crd(...)]`), as
/// `(file name, YAML)` pairs; `deps` are read for resolution only. `generator` is written into
/// the manifests' annotation.
#[cfg(feature = "yaml")]
pub fn crd_files(
    primary: &[SourceFile],
    deps: &[SourceFile],
    generator: &str,
) -> Result<Vec<(String, String)>, Failure> {
    let input = load_input(primary, deps)?;
    let model = input.primary_only(primary.len(), |t| t.crd = None);
    let crds = emit::crd::crds(&model, generator).map_err(|e| input.failure(e))?;
    Ok(crds
        .into_iter()
        .map(|c| (c.file_name, format!("---\n{}", to_yaml(&c.manifest))))
        .collect())
}

/// The conversion code for every type of `primary` with `#[schema(hub = ...)]`; `deps` are
/// read for resolution only. `preamble` starts the file.
pub fn conversion_code(
    primary: &[SourceFile],
    deps: &[SourceFile],
    preamble: &str,
) -> Result<String, Failure> {
    let input = load_input(primary, deps)?;
    // Only the conversions declared in the primary files.
    let model = input.primary_only(primary.len(), |t| t.conversion = None);
    emit::conversion::conversions(&model, preamble).map_err(|e| input.failure(e))
}

/// A loaded input: the checked model and the display paths of its files.
#[derive(Debug)]
pub struct Input {
    /// The model.
    pub model: Model,
    paths: Vec<String>,
}

impl Input {
    /// A copy of the model where `clear` has been applied to every type that does not come
    /// from the first `n` (primary) files.
    fn primary_only(&self, n: usize, clear: impl Fn(&mut model::TypeDef)) -> Model {
        let mut model = self.model.clone();
        for t in &mut model.types {
            if t.file.is_none_or(|f| f >= n) {
                clear(t);
            }
        }
        model
    }

    /// A failure of a later stage, rendered against this input's files.
    pub fn failure(&self, errors: Errors) -> Failure {
        Failure {
            errors,
            paths: self.paths.clone(),
        }
    }
}

/// [`load`] with the paths kept, for stages after loading.
pub fn load_input(primary: &[SourceFile], deps: &[SourceFile]) -> Result<Input, Failure> {
    let all: Vec<SourceFile> = primary.iter().chain(deps).cloned().collect();
    let model = load(&all)?;
    let paths = all
        .iter()
        .map(|s| s.path.clone())
        .chain(source::external().into_iter().map(|s| s.path))
        .collect();
    Ok(Input { model, paths })
}

/// Like [`load`] for a crate with dependencies: `deps` (e.g. the `capi_runtime` crate's own
/// sources) are read for resolution, but only the hooks of `primary` stay in the model.
pub fn load_crate(primary: &[SourceFile], deps: &[SourceFile]) -> Result<Model, Failure> {
    let all: Vec<SourceFile> = primary.iter().chain(deps).cloned().collect();
    let mut model = load(&all)?;
    model
        .hooks
        .retain(|h| h.file.is_some_and(|f| f < primary.len()));
    Ok(model)
}

/// Renders a document as YAML (the canonical form of the published artifact).
#[cfg(feature = "yaml")]
pub fn to_yaml(value: &serde_json::Value) -> String {
    let value = emit::openapi::canonical(value.clone());
    serde_saphyr::to_string(&value).expect("a JSON value always renders as YAML")
}

/// Renders a document as indented JSON with a final newline.
pub fn to_json(value: &serde_json::Value) -> String {
    let value = emit::openapi::canonical(value.clone());
    let mut s = serde_json::to_string_pretty(&value).expect("a JSON value always renders");
    s.push('\n');
    s
}
