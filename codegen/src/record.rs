//! A checked [`Model`] saved as JSON and read back, so that a program can emit documents for a
//! fixed set of types without carrying their sources or parsing them again (the
//! `runtime-openapi-gen` CLI keeps the SDK's own model this way, written by `cargo xtask
//! codegen`).
//!
//! The record is `{"format": MODEL_FORMAT, "model": {"types": [..], "hooks": [..], "modules":
//! [..]}}`. The types and hooks use the same JSON form as the derive's expansion (hence the same
//! format number), with every reference already resolved to an index of `types`; the modules
//! (each with its path, `use` items, types and child modules) let a crate that depends on the
//! recorded one name its types by any path the sources would allow
//! ([`Options::dep_model`](crate::Options::dep_model)). Spans and input-file ids are not part
//! of it: a record describes types, not where they were read.

use std::fmt;

use serde::{Deserialize, Serialize};

use crate::model::{MODEL_FORMAT, Model};

#[derive(Serialize)]
struct RecordOut<'a> {
    format: u32,
    model: &'a Model,
}

/// The format of a record alone, read before its model: a record of another format is refused
/// for its format, whatever its model looks like.
#[derive(Deserialize)]
struct FormatIn {
    format: u32,
}

#[derive(Deserialize)]
struct RecordIn {
    model: Model,
}

/// The JSON record of `model` (indented, ending in a newline), for [`read_model`]. Of its
/// modules' `use` items it keeps those that can lead to one of its types: the ones that start
/// in the crate itself or in a crate the model holds modules of (not `std`, not `serde`).
pub fn write_model(model: &Model) -> String {
    let mut kept = model.clone();
    let roots: Vec<String> = model
        .modules
        .iter()
        .filter_map(|m| m.path.first().cloned())
        .collect();
    for m in &mut kept.modules {
        let children = m.children.clone();
        m.uses.retain(|(_, path)| {
            path.first().is_some_and(|first| {
                matches!(first.as_str(), "crate" | "self" | "super")
                    || roots.contains(first)
                    || children.contains(first)
            })
        });
    }
    let mut text = serde_json::to_string_pretty(&RecordOut {
        format: MODEL_FORMAT,
        model: &kept,
    })
    .expect("a model always serializes");
    text.push('\n');
    text
}

/// Reads a record written by [`write_model`]: refused when it was written in another model
/// format, is not valid JSON of a model, or holds a reference outside its own type list.
pub fn read_model(json: &str) -> Result<Model, ReadModelError> {
    let FormatIn { format } = serde_json::from_str(json).map_err(ReadModelError::Json)?;
    if format != MODEL_FORMAT {
        return Err(ReadModelError::Format { found: format });
    }
    let RecordIn { model } = serde_json::from_str(json).map_err(ReadModelError::Json)?;
    let count = model.types.len();
    let mut dangling = None;
    for t in &model.types {
        t.for_each_named(&mut |n| {
            if n.id.is_none_or(|id| id >= count) {
                dangling.get_or_insert_with(|| (t.ident.clone(), n.path.clone()));
            }
        });
    }
    for h in &model.hooks {
        for n in [&h.request, &h.response] {
            if n.id.is_none_or(|id| id >= count) {
                dangling.get_or_insert_with(|| (h.ident.clone(), n.path.clone()));
            }
        }
    }
    for m in &model.modules {
        for (name, id) in &m.types {
            if *id >= count {
                dangling.get_or_insert_with(|| (m.path.join("::"), name.clone()));
            }
        }
    }
    match dangling {
        Some((owner, path)) => Err(ReadModelError::Dangling { owner, path }),
        None => Ok(model),
    }
}

/// Why [`read_model`] refused a record.
#[derive(Debug)]
#[non_exhaustive]
pub enum ReadModelError {
    /// The text is not JSON of a model record.
    Json(serde_json::Error),
    /// The record was written in a model format this generator does not read.
    Format {
        /// The record's format.
        found: u32,
    },
    /// A reference points at no type of the record.
    Dangling {
        /// The type or hook holding the reference.
        owner: String,
        /// The reference as written in the source.
        path: String,
    },
}

impl fmt::Display for ReadModelError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ReadModelError::Json(_) => f.write_str("the model record is not valid JSON of a model"),
            ReadModelError::Format { found } => write!(
                f,
                "the model record is in format {found}, but this generator reads format \
                 {MODEL_FORMAT}: regenerate it with the same release of capi-runtime-codegen"
            ),
            ReadModelError::Dangling { owner, path } => write!(
                f,
                "the model record's `{owner}` refers to `{path}`, which is not in the record"
            ),
        }
    }
}

impl std::error::Error for ReadModelError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            ReadModelError::Json(e) => Some(e),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::SourceFile;

    fn model() -> Model {
        let src = SourceFile::in_crate(
            "src/hooks/mod.rs",
            "hooks/mod.rs",
            r#"
            /// A request.
            #[derive(Schema)]
            #[schema(package = "example.com/ping/v1", request)]
            pub struct PingRequest { pub api_version: String, pub kind: String, pub name: String }
            /// A response.
            #[derive(Schema)]
            #[schema(package = "example.com/ping/v1", response)]
            pub struct PingResponse { pub api_version: String, pub kind: String, pub message: String, pub status: String, pub detail: Inner }
            /// Inner.
            #[derive(Schema)]
            #[schema(package = "example.com/ping/v1")]
            pub struct Inner { pub value: i32 }
            /// Pings.
            #[derive(Hook)]
            #[hook(group = "ping.example.com", version = "v1", request = PingRequest, response = PingResponse, summary = "Ping")]
            pub struct Ping;
            "#,
        );
        crate::load(&[src]).expect("the test input is valid")
    }

    #[test]
    fn a_record_reads_back_to_the_same_document() {
        let model = model();
        let opt = crate::OpenApiOpt::with_version("v1");
        let back = read_model(&write_model(&model)).expect("reads back");
        assert_eq!(
            crate::emit::openapi::document(&back, &opt),
            crate::emit::openapi::document(&model, &opt)
        );
        assert_eq!(back.hooks.len(), 1);
    }

    #[test]
    fn a_record_of_another_format_is_refused() {
        let text = write_model(&model()).replacen(
            &format!("\"format\": {MODEL_FORMAT}"),
            &format!("\"format\": {}", MODEL_FORMAT + 1),
            1,
        );
        let err = read_model(&text).unwrap_err();
        assert!(matches!(err, ReadModelError::Format { found } if found == MODEL_FORMAT + 1));
        assert!(err.to_string().contains("reads format"), "{err}");
    }

    #[test]
    fn another_format_is_refused_for_its_format_whatever_its_model_looks_like() {
        let text = format!(
            "{{\"format\": {}, \"model\": [\"not\", \"a model\"]}}",
            MODEL_FORMAT + 7
        );
        let err = read_model(&text).unwrap_err();
        assert!(
            matches!(err, ReadModelError::Format { found } if found == MODEL_FORMAT + 7),
            "{err}"
        );
    }

    #[test]
    fn a_record_without_a_format_or_with_trailing_text_is_refused() {
        let text = write_model(&model());
        let no_format = text.replacen(&format!("\"format\": {MODEL_FORMAT},"), "", 1);
        assert!(matches!(
            read_model(&no_format),
            Err(ReadModelError::Json(_))
        ));
        let trailing = format!("{text} {{}}");
        assert!(matches!(
            read_model(&trailing),
            Err(ReadModelError::Json(_))
        ));
        let twice = text.replacen(
            &format!("\"format\": {MODEL_FORMAT},"),
            &format!("\"format\": {MODEL_FORMAT}, \"format\": {MODEL_FORMAT},"),
            1,
        );
        assert!(matches!(read_model(&twice), Err(ReadModelError::Json(_))));
    }

    #[test]
    fn broken_json_keeps_its_cause() {
        let err = read_model("{\"format\": ").unwrap_err();
        assert!(matches!(err, ReadModelError::Json(_)));
        assert!(std::error::Error::source(&err).is_some());
    }

    #[test]
    fn the_modules_read_back_without_the_uses_that_lead_outside() {
        let src = SourceFile::in_crate(
            "src/hooks/mod.rs",
            "hooks/mod.rs",
            "use std::fmt;\nuse serde::Serialize;\nuse crate::api::X;\nuse k8s_openapi::Y;\n\
             pub use inner::*;\nmod inner {}\n",
        );
        let model = crate::load(&[src]).expect("valid");
        let back = read_model(&write_model(&model)).expect("reads back");
        let hooks = back
            .modules
            .iter()
            .find(|m| m.path == ["crate", "hooks"])
            .expect("the module is recorded");
        let kept: Vec<&str> = hooks.uses.iter().map(|(name, _)| name.as_str()).collect();
        assert_eq!(kept, ["X", "Y", "*"]);
        assert_eq!(hooks.children, ["inner"]);
        assert!(back.modules.iter().any(|m| m.path == ["k8s_openapi"]));
    }

    #[test]
    fn a_module_listing_a_type_outside_the_record_is_refused() {
        let mut model = model();
        let count = model.types.len();
        model.modules[0].types.push(("Ghost".into(), count));
        let err = read_model(&write_model(&model)).unwrap_err();
        assert!(matches!(err, ReadModelError::Dangling { .. }), "{err}");
        assert!(err.to_string().contains("`Ghost`"), "{err}");
    }

    #[test]
    fn a_reference_outside_the_record_is_refused() {
        let mut model = model();
        model.types.truncate(1);
        let err = read_model(&write_model(&model)).unwrap_err();
        assert!(matches!(err, ReadModelError::Dangling { .. }), "{err}");
    }
}
