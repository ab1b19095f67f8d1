//! The shared model of the Cluster API Runtime SDK generator.
//!
//! One pipeline (parse → resolve → check → emit) serves three frontends:
//! - the derive macros (`capi-runtime-derive`), through [`expand_schema`] and [`expand_hook`];
//! - the `runtime-openapi-gen` and `runtime-crd-gen` CLIs and `cargo xtask codegen`, through
//!   [`read_crate`] (the [`CRATE_LAYOUT`] folders of a crate's `src/`), [`Options`] and
//!   [`generate`]; a checked model can be saved with [`write_model`] and read back with
//!   [`read_model`], then emitted without its sources ([`openapi_document`],
//!   [`crd_documents`]) or given to another crate's run as the crate it depends on
//!   ([`Options::dep_model`]).
//!
//! The derive sees one type at a time, so it serializes the model of that type into its
//! expansion and leaves the links to the compiler; `resolve::link_derived` rebuilds the same
//! [`Model`] from those pieces, and a test asserts that both frontends yield the same
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

mod check;
pub mod diag;
#[doc(hidden)]
pub mod emit;
pub mod fs;
mod layout;
mod markers;
mod record;
#[doc(hidden)]
pub mod model;
#[doc(hidden)]
pub mod parse;
#[doc(hidden)]
pub mod resolve;
#[doc(hidden)]
pub mod source;
mod variable;

use proc_macro2::TokenStream;

pub use diag::{Diagnostics, Errors};
pub use emit::crd::CrdFile;
pub use emit::openapi::OpenApiOpt;
pub use layout::CRATE_LAYOUT;
pub use model::Model;
pub use record::{ReadModelError, read_model, write_model};
pub use source::{InputError, InputErrors, SourceFile, read_crate};

/// The expansion of `#[derive(Schema)]`: the trait impls, or the errors as `compile_error!`.
pub fn expand_schema(input: &syn::DeriveInput) -> TokenStream {
    let cx = Diagnostics::new();
    let parsed = parse::schema(&cx, None, input, false);
    if let Some((_, span)) = parsed.as_ref().and_then(|p| p.wire.kind.as_ref()) {
        cx.error(
            None,
            *span,
            "`wire` is reserved for the runtime crate's descriptions of k8s-openapi types",
        );
    }
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

/// The expansion of `#[derive(Variable)]`: the impls of the variable traits, or the errors as
/// `compile_error!` (besides impls that keep uses of the type from failing too).
pub fn expand_variable(input: &syn::DeriveInput) -> TokenStream {
    let cx = Diagnostics::new();
    let var = parse::variable::variable(&cx, None, &input.attrs);
    let parsed = parse::variable_schema(&cx, input);
    if let Some(parsed) = &parsed {
        variable::check(&cx, input, parsed, &var);
    }
    match (cx.check(), parsed) {
        (Ok(()), Some(parsed)) => emit::variable::expand(&parsed, &var),
        (Err(e), _) => {
            let mut out = e.to_syn_error().into_compile_error();
            out.extend(emit::variable::fallback(input, &var));
            out
        }
        // serde's derive reports its own attribute errors; add nothing but the impls.
        (Ok(()), None) => emit::variable::fallback(input, &var),
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

/// The OpenAPI document of the hooks of a checked `model` (for instance one read back with
/// [`read_model`]): what [`generate`] writes for [`Options::openapi`], without parsing anything.
pub fn openapi_document(model: &Model, opt: &OpenApiOpt) -> serde_json::Value {
    emit::openapi::document(model, opt)
}

/// The CRD manifests of every custom resource root of a checked `model` (for instance one read
/// back with [`read_model`]), annotated as written by `generator`: what [`generate`] writes for
/// [`Options::crds`], without parsing anything.
pub fn crd_documents(model: &Model, generator: &str) -> Result<Vec<CrdFile>, Failure> {
    emit::crd::crds(model, generator).map_err(|errors| Failure {
        errors,
        paths: Vec::new(),
    })
}

/// CRD manifests as `(file name, YAML text)`, each text starting with `---`.
#[cfg(feature = "yaml")]
pub fn crd_yaml(crds: &[CrdFile]) -> Vec<(String, String)> {
    crds.iter()
        .map(|c| {
            (
                c.file_name.clone(),
                format!("---\n{}", to_yaml(&c.manifest)),
            )
        })
        .collect()
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

/// What [`generate`] should produce, and from which sources.
///
/// ```no_run
/// # fn main() -> Result<(), Box<dyn std::error::Error>> {
/// use capi_runtime_codegen::{Options, generate, read_crate};
/// let sources = read_crate("src".as_ref(), "crate")?;
/// let out = generate(&Options::new(sources).openapi("v1.2.3"))?;
/// let document = out.openapi.expect("asked for");
/// # Ok(()) }
/// ```
#[derive(Clone, Debug, Default)]
#[non_exhaustive]
pub struct Options {
    /// The crate being generated (usually from [`read_crate`] with the name `crate`).
    pub sources: Vec<SourceFile>,
    /// Crates its files refer to (e.g. this SDK as `capi_runtime`): read to resolve names,
    /// never generated themselves.
    pub deps: Vec<SourceFile>,
    /// Crates its files refer to, each given by its name and its checked model (see
    /// [`read_model`]) instead of its sources. A model that holds the known external types
    /// (k8s-openapi, serde_json) stands for them too.
    pub dep_models: Vec<(String, Model)>,
    /// Write the OpenAPI document of the hooks of [`sources`](Self::sources), with these
    /// document options.
    pub openapi: Option<OpenApiOpt>,
    /// Write the CRD of every `#[crd(...)]` root of `sources`, naming this generator in the
    /// manifests' annotation.
    pub crds: Option<String>,
    /// Write the conversion code of every `#[schema(hub = ...)]` type of `sources`, starting
    /// the file with this preamble.
    pub conversion: Option<String>,
    /// Write the `new` constructor of every `#[crd(...)]` root of `sources`, starting the file
    /// with this preamble.
    pub constructors: Option<String>,
    /// Write the `Schema` impls of the known external types (k8s-openapi, serde_json).
    pub external_impls: bool,
}

impl Options {
    /// Options that read `sources` and produce nothing yet.
    pub fn new(sources: Vec<SourceFile>) -> Self {
        Options {
            sources,
            ..Self::default()
        }
    }

    /// Adds crates the sources refer to.
    pub fn deps(mut self, deps: Vec<SourceFile>) -> Self {
        self.deps = deps;
        self
    }

    /// Adds the crate `krate` that the sources refer to, given by its checked `model`.
    pub fn dep_model(mut self, krate: impl Into<String>, model: Model) -> Self {
        self.dep_models.push((krate.into(), model));
        self
    }

    /// Asks for the OpenAPI document, with `info.version` set to `version`.
    pub fn openapi(mut self, version: impl Into<String>) -> Self {
        self.openapi = Some(OpenApiOpt::with_version(version));
        self
    }

    /// Asks for the CRD manifests, annotated as written by `generator`.
    pub fn crds(mut self, generator: impl Into<String>) -> Self {
        self.crds = Some(generator.into());
        self
    }

    /// Asks for the conversion code, starting with `preamble`.
    pub fn conversion(mut self, preamble: impl Into<String>) -> Self {
        self.conversion = Some(preamble.into());
        self
    }

    /// Asks for the constructors of the custom resource roots, starting with `preamble`.
    pub fn constructors(mut self, preamble: impl Into<String>) -> Self {
        self.constructors = Some(preamble.into());
        self
    }

    /// Asks for the `Schema` impls of the known external types.
    pub fn external_impls(mut self) -> Self {
        self.external_impls = true;
        self
    }
}

/// What [`generate`] produced: each output that [`Options`] asked for.
#[derive(Debug)]
#[non_exhaustive]
pub struct Generated {
    /// The OpenAPI document (render it with [`to_yaml`] or [`to_json`]).
    pub openapi: Option<serde_json::Value>,
    /// The CRD manifests, sorted by file name (see also [`Generated::crd_yaml`]).
    pub crds: Vec<CrdFile>,
    /// The conversion code.
    pub conversion: Option<String>,
    /// The constructors of the custom resource roots.
    pub constructors: Option<String>,
    /// The `Schema` impls of the external types.
    pub external_impls: Option<String>,
    /// The checked model: every type of the sources and their dependencies, the hooks of the
    /// sources only. For emitters outside this list.
    #[doc(hidden)]
    pub model: Model,
    primary: usize,
    paths: Vec<String>,
}

impl Generated {
    /// How many hooks the sources define (dependencies not counted).
    pub fn hooks(&self) -> usize {
        self.model.hooks.len()
    }

    /// The CRD manifests as `(file name, YAML text)`, each text starting with `---`.
    #[cfg(feature = "yaml")]
    pub fn crd_yaml(&self) -> Vec<(String, String)> {
        crd_yaml(&self.crds)
    }

    /// True when `def` comes from the sources rather than from a dependency.
    #[doc(hidden)]
    pub fn is_primary(&self, def: &model::TypeDef) -> bool {
        def.file.is_some_and(|f| f < self.primary)
    }

    /// Errors of a later stage, rendered against the input files.
    #[doc(hidden)]
    pub fn failure(&self, errors: Errors) -> Failure {
        Failure {
            errors,
            paths: self.paths.clone(),
        }
    }
}

/// Runs the generator: parses the sources and their dependencies with the known external
/// types, resolves and checks them, then emits each output `opts` asks for. Every error of the
/// first stage that fails is returned at once.
pub fn generate(opts: &Options) -> Result<Generated, Failure> {
    let input = load_input(&opts.sources, &opts.deps, &opts.dep_models)?;
    let primary = opts.sources.len();
    let mut model = input.model;
    model.hooks.retain(|h| h.file.is_some_and(|f| f < primary));
    let mut out = Generated {
        openapi: None,
        crds: Vec::new(),
        conversion: None,
        constructors: None,
        external_impls: None,
        model,
        primary,
        paths: input.paths,
    };
    if let Some(opt) = &opts.openapi {
        out.openapi = Some(emit::openapi::document(&out.model, opt));
    }
    if let Some(generator) = &opts.crds {
        let model = primary_only(&out.model, primary, |t| t.crd = None);
        out.crds = emit::crd::crds(&model, generator).map_err(|e| out.failure(e))?;
    }
    if let Some(preamble) = &opts.conversion {
        let model = primary_only(&out.model, primary, |t| t.conversion = None);
        out.conversion =
            Some(emit::conversion::conversions(&model, preamble).map_err(|e| out.failure(e))?);
    }
    if let Some(preamble) = &opts.constructors {
        let model = primary_only(&out.model, primary, |t| t.crd = None);
        out.constructors = Some(emit::object::constructors(&model, preamble));
    }
    if opts.external_impls {
        out.external_impls = Some(external_schema_impls()?);
    }
    Ok(out)
}

/// A copy of `model` where `clear` has been applied to every type that does not come from
/// the first `n` (primary) files.
fn primary_only(model: &Model, n: usize, clear: impl Fn(&mut model::TypeDef)) -> Model {
    let mut model = model.clone();
    for t in &mut model.types {
        if t.file.is_none_or(|f| f >= n) {
            clear(t);
        }
    }
    model
}

/// The pipeline up to a checked model: parses `sources` plus the known external types,
/// resolves every reference and runs the cross-cutting checks. [`generate`] is the entry point;
/// this stays for the tests that compare the CLI's model with the derive's.
#[doc(hidden)]
pub fn load(sources: &[SourceFile]) -> Result<Model, Failure> {
    load_input(sources, &[], &[]).map(|input| input.model)
}

/// The `Schema` impls of the known external types.
fn external_schema_impls() -> Result<String, Failure> {
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
    emit::external::impls(&files).map_err(|errors| Failure { errors, paths })
}

/// A loaded input: the checked model and the display paths of its files.
struct Input {
    model: Model,
    paths: Vec<String>,
}

/// Parses `primary`, `deps` and the known external types that no model of `models` holds,
/// adds the crates of `models`, resolves every reference and runs the cross-cutting checks.
fn load_input(
    primary: &[SourceFile],
    deps: &[SourceFile],
    models: &[(String, Model)],
) -> Result<Input, Failure> {
    let held = |root: &str| {
        models.iter().any(|(_, m)| {
            m.modules
                .iter()
                .any(|md| md.path.first().is_some_and(|r| r == root))
        })
    };
    let external = source::external()
        .into_iter()
        .filter(|s| !s.module.first().is_some_and(|root| held(root)));
    let all: Vec<SourceFile> = primary
        .iter()
        .chain(deps)
        .cloned()
        .chain(external)
        .collect();
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
    for (krate, model) in models {
        parsed.add_dependency(krate, model);
    }
    let model = resolve::resolve(parsed).map_err(fail)?;
    check::check(&model).map_err(fail)?;
    Ok(Input { model, paths })
}

/// Renders a document as YAML (the canonical form of the published artifact): serde-saphyr's
/// default output of the value with its mappings in key order.
#[cfg(feature = "yaml")]
pub fn to_yaml(value: &serde_json::Value) -> String {
    let sorted;
    let value = if emit::canonical::is_canonical(value) {
        value
    } else {
        sorted = emit::canonical::canonical(value.clone());
        &sorted
    };
    // A `Value` has nothing YAML cannot write: no non-string key, no NaN, no bytes.
    serde_saphyr::to_string(value).expect("a JSON value always renders as YAML")
}

/// Renders a document as indented JSON with a final newline.
pub fn to_json(value: &serde_json::Value) -> String {
    let sorted;
    let value = if emit::canonical::is_canonical(value) {
        value
    } else {
        sorted = emit::canonical::canonical(value.clone());
        &sorted
    };
    let mut s = serde_json::to_string_pretty(value).expect("a JSON value always renders");
    s.push('\n');
    s
}
