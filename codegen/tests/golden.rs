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
    Failure, Generated, OpenApiOpt, Options, SourceFile, emit, expand_hook, expand_schema, generate,
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
    let opts = Options::new(vec![src.clone()])
        .deps(deps())
        .openapi("golden")
        .crds("golden")
        .conversion("// golden\n")
        .constructors("// golden\n");
    generate(&opts)
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
        // The CLI writes the YAML straight from the emitter's tree: the same text.
        assert_eq!(
            capi_runtime_codegen::openapi_yaml(model, &OpenApiOpt::with_version("golden")),
            capi_runtime_codegen::to_yaml(&doc),
            "{name}: the YAML written from the tree"
        );
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
