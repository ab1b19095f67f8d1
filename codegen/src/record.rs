//! A checked [`Model`] saved as JSON and read back, so that a program can emit documents for a
//! fixed set of types without carrying their sources or parsing them again (the
//! `runtime-openapi-gen` CLI keeps the SDK's own model this way, written by `cargo xtask
//! codegen`).
//!
//! The record is `{"format": MODEL_FORMAT, "model": {"types": [..], "hooks": [..]}}`. The types
//! and hooks use the same JSON form as the derive's expansion (hence the same format number),
//! with every reference already resolved to an index of `types`. Spans and input-file ids are
//! not part of it: a record describes types, not where they were read.

use std::fmt;

use serde::{Deserialize, Serialize};

use crate::model::{MODEL_FORMAT, Model};

#[derive(Serialize)]
struct RecordOut<'a> {
    format: u32,
    model: &'a Model,
}

/// The record as read: its model, unless its format is not [`MODEL_FORMAT`]. The format is
/// looked at as soon as it is read (first, in what [`write_model`] writes), so that a record of
/// another format is refused for its format and its model is never parsed; the text is read in
/// one pass either way.
struct RecordIn(Result<Model, u32>);

impl<'de> Deserialize<'de> for RecordIn {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_map(RecordVisitor)
    }
}

struct RecordVisitor;

impl<'de> serde::de::Visitor<'de> for RecordVisitor {
    type Value = RecordIn;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a model record")
    }

    fn visit_map<A: serde::de::MapAccess<'de>>(self, mut map: A) -> Result<RecordIn, A::Error> {
        use serde::de::{Error, IgnoredAny};
        let mut format = None;
        let mut model = None;
        while let Some(key) = map.next_key::<std::borrow::Cow<'de, str>>()? {
            match &*key {
                "format" if format.is_none() => {
                    let found: u32 = map.next_value()?;
                    if found != MODEL_FORMAT {
                        // What follows may be any shape: the format alone decides. The rest is
                        // skipped, not parsed as a model (the map must still end well).
                        while map.next_entry::<IgnoredAny, IgnoredAny>()?.is_some() {}
                        return Ok(RecordIn(Err(found)));
                    }
                    format = Some(found);
                }
                "model" if model.is_none() => model = Some(map.next_value::<Model>()?),
                "format" | "model" => return Err(A::Error::custom(format!("duplicate `{key}`"))),
                _ => {
                    map.next_value::<IgnoredAny>()?;
                }
            }
        }
        match (format, model) {
            (None, _) => Err(A::Error::missing_field("format")),
            (_, None) => Err(A::Error::missing_field("model")),
            (Some(_), Some(model)) => Ok(RecordIn(Ok(model))),
        }
    }
}

/// The JSON record of `model` (indented, ending in a newline), for [`read_model`].
pub fn write_model(model: &Model) -> String {
    let mut text = serde_json::to_string_pretty(&RecordOut {
        format: MODEL_FORMAT,
        model,
    })
    .expect("a model always serializes");
    text.push('\n');
    text
}

/// Reads a record written by [`write_model`]: refused when it was written in another model
/// format, is not valid JSON of a model, or holds a reference outside its own type list.
pub fn read_model(json: &str) -> Result<Model, ReadModelError> {
    let model = match serde_json::from_str::<RecordIn>(json)
        .map_err(ReadModelError::Json)?
        .0
    {
        Ok(model) => model,
        Err(found) => return Err(ReadModelError::Format { found }),
    };
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
    fn a_reference_outside_the_record_is_refused() {
        let mut model = model();
        model.types.truncate(1);
        let err = read_model(&write_model(&model)).unwrap_err();
        assert!(matches!(err, ReadModelError::Dangling { .. }), "{err}");
    }
}
