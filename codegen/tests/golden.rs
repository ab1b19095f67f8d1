//! Data-driven golden tests of the generator.
//!
//! - `testdata/ok/<case>.rs` must load without errors; its OpenAPI fragment goes to
//!   `golden/ok/<case>/openapi.yaml` and the derive expansion of its items, formatted with
//!   prettyplease, to `golden/ok/<case>/expand.rs`; a case with custom resources also pins its
//!   CRD manifests and `constructors.rs`, one with conversions `conversion.rs`.
//! - `testdata/err/<case>.rs` must fail; its diagnostics, rendered as the CLI prints them
//!   (`path:line:col: message`), go to `golden/err/<case>.txt`.
//!
//! To add a case, drop a file into one of the folders and run the tests with `UPDATE_EXPECT=1`
//! to write its golden files; review them before committing. Without that switch, any
//! difference fails the test.

use std::path::{Path, PathBuf};

use capi_runtime_codegen::{
    Failure, Generated, Model, Options, SourceFile, emit, expand_hook, expand_schema, generate,
    read_model, write_model,
};
use expect_test::expect_file;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn cases(dir: &str) -> Vec<(String, PathBuf)> {
    let mut out: Vec<(String, PathBuf)> = std::fs::read_dir(root().join(dir))
        .unwrap_or_else(|e| panic!("{dir}: {e}"))
        .map(|e| e.expect("readable dir").path())
        .filter(|p| p.extension().is_some_and(|e| e == "rs"))
        .map(|p| (p.file_stem().unwrap().to_string_lossy().into_owned(), p))
        .collect();
    out.sort();
    assert!(!out.is_empty(), "no cases in {dir}");
    out
}

fn source(dir: &str, name: &str, path: &Path) -> SourceFile {
    let text = std::fs::read_to_string(path).expect("readable case");
    SourceFile::in_crate(format!("{dir}/{name}.rs"), "lib.rs", text)
}

/// The runtime crate's own hook and API types, which cases use as `capi_runtime`.
fn deps() -> Vec<SourceFile> {
    capi_runtime_codegen::read_crate(&root().join("src"), "capi_runtime")
        .expect("readable runtime sources")
}

/// Every output of one case, as the CLI and xtask ask for them.
fn generate_case(src: &SourceFile) -> Result<Generated, Failure> {
    generate(&case_options(src).deps(deps()))
}

/// What [`generate_case`] asks for, without the case's dependencies.
fn case_options(src: &SourceFile) -> Options {
    Options::new(vec![src.clone()])
        .openapi("golden")
        .crds("golden")
        .conversion("// golden\n")
        .constructors("// golden\n")
}

/// The runtime crate as the CLI carries it: its checked model, written as a record and read
/// back (what `cargo xtask codegen` keeps in `cli/sdk/model.json`).
fn sdk_model() -> Model {
    let sources = capi_runtime_codegen::read_crate(&root().join("src"), "crate")
        .expect("readable runtime sources");
    let sdk = generate(&Options::new(sources)).unwrap_or_else(|f| panic!("{}", f.render()));
    read_model(&write_model(&sdk.model)).expect("the record reads back")
}

/// The expansion of every item of the file that carries one of our derives.
fn expand_file(text: &str) -> String {
    let file = syn::parse_file(text).expect("case parses");
    let mut tokens = proc_macro2::TokenStream::new();
    let mut items = Vec::new();
    collect_items(&file.items, &mut items);
    for input in items {
        let derives = derives(&input.attrs);
        if derives.iter().any(|d| d == "Schema") {
            tokens.extend(expand_schema(&input));
        }
        if derives.iter().any(|d| d == "Hook") {
            tokens.extend(expand_hook(&input));
        }
    }
    let expanded: syn::File =
        syn::parse2(tokens).unwrap_or_else(|e| panic!("expansion does not parse: {e}"));
    prettyplease::unparse(&expanded)
}

fn collect_items(items: &[syn::Item], out: &mut Vec<syn::DeriveInput>) {
    for item in items {
        match item {
            syn::Item::Struct(s) => out.push(s.clone().into()),
            syn::Item::Enum(e) => out.push(e.clone().into()),
            syn::Item::Mod(m) => {
                if let Some((_, inner)) = &m.content {
                    collect_items(inner, out);
                }
            }
            _ => {}
        }
    }
}

fn derives(attrs: &[syn::Attribute]) -> Vec<String> {
    let mut out = Vec::new();
    for attr in attrs.iter().filter(|a| a.path().is_ident("derive")) {
        let _ = attr.parse_nested_meta(|meta| {
            out.push(meta.path.segments.last().unwrap().ident.to_string());
            Ok(())
        });
    }
    out
}

#[test]
fn ok_cases() {
    for (name, path) in cases("testdata/ok") {
        let src = source("testdata/ok", &name, &path);
        let out = match generate_case(&src) {
            Ok(out) => out,
            Err(f) => panic!("ok case {name} failed:\n{}", f.render()),
        };
        let model = &out.model;
        // The fragment: the case's hooks (paths and their components) and the components of
        // every object type the case defines.
        let own: Vec<usize> = model
            .types
            .iter()
            .enumerate()
            .filter(|(_, t)| t.file == Some(0))
            .map(|(i, _)| i)
            .collect();
        let mut doc = out.openapi.clone().expect("asked for");
        let extra = emit::openapi::components_of(model, own);
        let schemas = doc["components"]["schemas"].as_object_mut().unwrap();
        for (k, v) in extra.as_object().unwrap() {
            schemas.insert(k.clone(), v.clone());
        }
        let fragment = serde_json::json!({
            "paths": doc["paths"],
            "components": doc["components"],
        });
        let out_dir = root().join("golden/ok").join(&name);
        std::fs::create_dir_all(&out_dir).expect("golden dir");
        expect_file![out_dir.join("openapi.yaml")]
            .assert_eq(&capi_runtime_codegen::to_yaml(&fragment));
        expect_file![out_dir.join("expand.rs")].assert_eq(&expand_file(&src.text));
        // Cases with custom resources or conversions also pin those outputs.
        for (file, yaml) in out.crd_yaml() {
            expect_file![out_dir.join(file)].assert_eq(&yaml);
        }
        if model
            .types
            .iter()
            .any(|t| t.file == Some(0) && t.conversion.is_some())
        {
            let code = out.conversion.as_deref().expect("asked for");
            expect_file![out_dir.join("conversion.rs")].assert_eq(code);
        }
        if model
            .types
            .iter()
            .any(|t| t.file == Some(0) && t.crd.is_some())
        {
            let code = out.constructors.as_deref().expect("asked for");
            expect_file![out_dir.join("constructors.rs")].assert_eq(code);
        }
    }
}

#[test]
fn err_cases() {
    for (name, path) in cases("testdata/err") {
        let src = source("testdata/err", &name, &path);
        // Loading, then the CRD and conversion emitters: the first stage that fails.
        let rendered = generate_case(&src)
            .map(|_| panic!("err case {name} produced no error"))
            .unwrap_err()
            .render();
        assert!(
            !rendered.contains("<external>"),
            "err case {name} reports an error in the external types:\n{rendered}"
        );
        std::fs::create_dir_all(root().join("golden/err")).expect("golden dir");
        expect_file![root().join("golden/err").join(format!("{name}.txt"))].assert_eq(&rendered);
    }
}

/// The derive reports the single-type errors of every err case whose error is not
/// cross-cutting, at the same line: the CLI and the derive share one parser.
#[test]
fn derive_reports_the_same_single_type_errors() {
    for (name, path) in cases("testdata/err") {
        let src = source("testdata/err", &name, &path);
        let cli = generate_case(&src).map(|_| ()).unwrap_err();
        let Ok(file) = syn::parse_file(&src.text) else {
            continue; // a syntax error: nothing for the derive to see
        };
        let mut items = Vec::new();
        collect_items(&file.items, &mut items);
        let mut derive_lines = Vec::new();
        for input in &items {
            let derives = derives(&input.attrs);
            let cx = capi_runtime_codegen::Diagnostics::new();
            if derives.iter().any(|d| d == "Schema") {
                capi_runtime_codegen::parse::schema(&cx, None, input, true);
            }
            if derives.iter().any(|d| d == "Hook") {
                capi_runtime_codegen::parse::hook(&cx, None, input);
            }
            if let Err(e) = cx.check() {
                derive_lines.extend(
                    e.0.iter()
                        .map(|d| (d.error.span().start().line, d.error.to_string())),
                );
            }
        }
        for (line, msg) in &derive_lines {
            assert!(
                cli.errors
                    .0
                    .iter()
                    .any(|d| d.error.span().start().line == *line && d.error.to_string() == *msg),
                "{name}: the derive reports `{msg}` at line {line}, the CLI does not"
            );
        }
    }
}

/// Every case resolves against the runtime crate's model record as it does against its
/// sources: the same outputs for the ok cases, the same errors for the err cases. So the CLI,
/// which carries the record only, reads `--input` crates as the sources would have it.
#[test]
fn the_sdk_model_stands_for_its_sources() {
    let sdk = sdk_model();
    for dir in ["testdata/ok", "testdata/err"] {
        for (name, path) in cases(dir) {
            let src = source(dir, &name, &path);
            let from_sources = generate_case(&src);
            let from_model = generate(&case_options(&src).dep_model("capi_runtime", sdk.clone()));
            match (from_sources, from_model) {
                (Ok(a), Ok(b)) => {
                    assert_eq!(a.openapi, b.openapi, "{name}: document");
                    assert_eq!(a.crd_yaml(), b.crd_yaml(), "{name}: CRDs");
                    assert_eq!(a.conversion, b.conversion, "{name}: conversion");
                    assert_eq!(a.constructors, b.constructors, "{name}: constructors");
                }
                (Err(a), Err(b)) => assert_eq!(a.render(), b.render(), "{name}: errors"),
                (a, b) => panic!(
                    "{name}: from the sources {}, from the model {}",
                    a.map(|_| "generates").unwrap_or_else(|f| f.render().leak()),
                    b.map(|_| "generates").unwrap_or_else(|f| f.render().leak()),
                ),
            }
        }
    }
}

/// A crate that names the runtime crate's types in every way the resolver follows: a `use` of
/// a re-exported type, a glob, a module alias, a full path in a field, `super::`, and a known
/// external type beside them. The model gives the same document as the sources, and a name
/// the runtime crate lacks the same error.
#[test]
fn a_crate_finds_the_sdk_types_in_the_model_as_in_the_sources() {
    const HOOKS: &str = r#"
use capi_runtime::api::core::v1beta2::Cluster;
use capi_runtime::api::core::v1beta2 as core;
use capi_runtime::hooks::v1alpha1::*;
use capi_runtime::{Hook, Schema};

mod more;

/// Pings.
#[derive(Hook)]
#[hook(group = "ping.example.com", version = "v1", request = PingRequest, response = more::PingResponse)]
pub struct Ping;

/// Request.
#[derive(Schema)]
#[schema(package = "example.com/ping/v1", request)]
pub struct PingRequest {
    pub api_version: String,
    pub kind: String,
    pub cluster: Cluster,
    pub topology: core::MachineDeploymentTopology,
    pub patch_type: Option<PatchType>,
    pub config: capi_runtime::api::runtime::v1beta2::ExtensionConfig,
    pub meta: k8s_openapi::apimachinery::pkg::apis::meta::v1::ObjectMeta,
}
"#;
    const MORE: &str = r#"
use capi_runtime::Schema;

/// Response.
#[derive(Schema)]
#[schema(package = "example.com/ping/v1", response)]
pub struct PingResponse {
    pub api_version: String,
    pub kind: String,
    pub status: super::ResponseStatus,
    pub message: String,
}
"#;
    let files = |hooks: &str| {
        vec![
            SourceFile::in_crate("src/hooks/mod.rs", "hooks/mod.rs", hooks),
            SourceFile::in_crate("src/hooks/more.rs", "hooks/more.rs", MORE),
        ]
    };
    let sdk = sdk_model();
    let from_sources = generate(&Options::new(files(HOOKS)).deps(deps()).openapi("v1"))
        .unwrap_or_else(|f| panic!("{}", f.render()));
    let from_model = generate(
        &Options::new(files(HOOKS))
            .dep_model("capi_runtime", sdk.clone())
            .openapi("v1"),
    )
    .unwrap_or_else(|f| panic!("{}", f.render()));
    assert_eq!(from_model.hooks(), 1);
    let doc = from_model.openapi.expect("asked for");
    assert_eq!(Some(doc.clone()), from_sources.openapi);
    for component in [
        "sigs.k8s.io.cluster-api.api.core.v1beta2.Cluster",
        "sigs.k8s.io.cluster-api.api.core.v1beta2.MachineDeploymentTopology",
        "sigs.k8s.io.cluster-api.api.runtime.v1beta2.ExtensionConfig",
        "k8s.io.apimachinery.pkg.apis.meta.v1.ObjectMeta",
    ] {
        assert!(
            doc["components"]["schemas"][component].is_object(),
            "{component} missing"
        );
    }

    let missing = HOOKS.replace("core::MachineDeploymentTopology", "core::NoSuchType");
    let a = generate(&Options::new(files(&missing)).deps(deps()).openapi("v1")).unwrap_err();
    let b = generate(
        &Options::new(files(&missing))
            .dep_model("capi_runtime", sdk)
            .openapi("v1"),
    )
    .unwrap_err();
    assert_eq!(a.render(), b.render());
    assert!(
        b.render()
            .starts_with("src/hooks/mod.rs:21:19: cannot find a schema for `core::NoSuchType`"),
        "{}",
        b.render()
    );
}

/// `#[schema(wire = "...")]` tells the wire decoder that an opaque type is Go's `metav1.Time` or
/// `[]byte`; only the runtime crate's descriptions of k8s-openapi's types may say so (the
/// generator reads them), so the derive refuses it on an author's type.
#[test]
fn the_derive_refuses_wire_on_an_authors_type() {
    let input: syn::DeriveInput = syn::parse_quote! {
        #[derive(Schema)]
        #[schema(package = "example.com/v1", opaque = r#"{"type": "string"}"#, wire = "time")]
        pub struct Time(String);
    };
    let out = expand_schema(&input).to_string();
    assert!(
        out.contains("compile_error")
            && out.contains("`wire` is reserved for the runtime crate's descriptions"),
        "{out}"
    );
}
