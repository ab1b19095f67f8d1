//! Checks objects, JSON Pointers and field paths against the reduced v1beta2 field lists in
//! `testdata/v1beta2-fields.yaml` (its header says what they reflect and how to read them): the
//! example's own test helper, as an extension author would keep one beside their tests. The
//! SDK's `tests/it/topology_paths.rs` borrows it to check `topology_mutation::paths`.
#![allow(dead_code)]

use serde_json::{Map, Value};

/// Why a JSON Pointer or field path does not lead to a field of a kind.
#[derive(Debug, thiserror::Error)]
pub enum PathError {
    /// The pointer does not start with `/`.
    #[error("{pointer:?} is not a JSON Pointer")]
    NotAPointer {
        /// The pointer as given.
        pointer: String,
    },
    /// An object of the kind has no field of that name at that place.
    #[error(
        "{path}: {kind} {} has no field {segment:?} in v1beta2 (fields: {})",
        root_or(walked),
        fields.join(", ")
    )]
    NoField {
        /// The whole pointer or path.
        path: String,
        /// The kind.
        kind: String,
        /// The part of the path that exists, as `/a/b`.
        walked: String,
        /// The field that does not.
        segment: String,
        /// The fields there are at that place.
        fields: Vec<String>,
    },
    /// The path steps into a value that has no fields (a leaf type).
    #[error("{path}: {kind} {walked} is {node}, it has no {segment:?}")]
    Leaf {
        /// The whole pointer or path.
        path: String,
        /// The kind.
        kind: String,
        /// The part of the path that exists, as `/a/b`.
        walked: String,
        /// The schema node found there, as JSON.
        node: String,
        /// The step that goes past it.
        segment: String,
    },
}

fn root_or(walked: &str) -> &str {
    if walked.is_empty() { "(root)" } else { walked }
}

/// The field lists of the kinds in the file.
pub struct Fields {
    definitions: Map<String, Value>,
    kinds: Map<String, Value>,
}

impl Fields {
    /// Parses the file; a malformed file is a test failure.
    pub fn load() -> Fields {
        let text = include_str!("../../testdata/v1beta2-fields.yaml");
        let file: Value = serde_saphyr::from_str(text).expect("v1beta2-fields.yaml parses");
        let part = |name: &str| {
            file[name]
                .as_object()
                .unwrap_or_else(|| panic!("v1beta2-fields.yaml has a `{name}` mapping"))
                .clone()
        };
        Fields {
            definitions: part("definitions"),
            kinds: part("kinds"),
        }
    }

    /// The kinds the file lists.
    pub fn kinds(&self) -> impl Iterator<Item = &str> {
        self.kinds.keys().map(String::as_str)
    }

    /// The apiVersion the file gives for `kind`.
    pub fn api_version(&self, kind: &str) -> &str {
        self.kind(kind)["apiVersion"]
            .as_str()
            .unwrap_or_else(|| panic!("{kind} has an apiVersion"))
    }

    fn kind(&self, kind: &str) -> &Value {
        self.kinds
            .get(kind)
            .unwrap_or_else(|| panic!("{kind} is listed in v1beta2-fields.yaml"))
    }

    fn fields(&self, kind: &str) -> &Value {
        &self.kind(kind)["fields"]
    }

    /// A node with `$Name` references replaced by their definition.
    fn resolve<'a>(&'a self, node: &'a Value) -> &'a Value {
        match node.as_str().and_then(|s| s.strip_prefix('$')) {
            Some(name) => self.resolve(
                self.definitions
                    .get(name)
                    .unwrap_or_else(|| panic!("definition {name} exists")),
            ),
            None => node,
        }
    }

    /// The schema node at a JSON Pointer into an object of `kind` (`-` and indexes step into
    /// lists, any key into maps).
    pub fn at_pointer(&self, kind: &str, pointer: &str) -> Result<&Value, PathError> {
        if pointer.is_empty() {
            return Ok(self.fields(kind));
        }
        let rest = pointer
            .strip_prefix('/')
            .ok_or_else(|| PathError::NotAPointer {
                pointer: pointer.to_string(),
            })?;
        let segments: Vec<String> = rest
            .split('/')
            .map(|s| s.replace("~1", "/").replace("~0", "~"))
            .collect();
        self.walk(kind, pointer, segments.iter().map(String::as_str))
    }

    /// The schema node at a dotted field path such as `spec.template.spec.infrastructureRef`.
    pub fn at_field_path(&self, kind: &str, path: &str) -> Result<&Value, PathError> {
        self.walk(kind, path, path.split('.'))
    }

    fn walk<'a, 's>(
        &self,
        kind: &str,
        whole: &str,
        segments: impl Iterator<Item = &'s str>,
    ) -> Result<&Value, PathError> {
        let mut node = self.resolve(self.fields(kind));
        let mut walked = String::new();
        for segment in segments {
            let next = match node {
                Value::Array(element) if segment == "-" || segment.parse::<usize>().is_ok() => {
                    &element[0]
                }
                Value::Object(map) if map.len() == 1 && map.contains_key("*") => &map["*"],
                Value::Object(map) => map.get(segment).ok_or_else(|| PathError::NoField {
                    path: whole.to_string(),
                    kind: kind.to_string(),
                    walked: walked.clone(),
                    segment: segment.to_string(),
                    fields: map.keys().cloned().collect(),
                })?,
                other => {
                    return Err(PathError::Leaf {
                        path: whole.to_string(),
                        kind: kind.to_string(),
                        walked: walked.clone(),
                        node: other.to_string(),
                        segment: segment.to_string(),
                    });
                }
            };
            walked.push('/');
            walked.push_str(segment);
            node = self.resolve(next);
        }
        Ok(node)
    }

    /// Every field of `object` that `kind` does not have, and every value of the wrong type,
    /// as `path: problem` lines.
    pub fn mismatches(&self, kind: &str, object: &Value) -> Vec<String> {
        let mut found = Vec::new();
        self.check(kind, self.fields(kind), object, "", &mut found);
        found
    }

    fn check(&self, kind: &str, node: &Value, value: &Value, path: &str, found: &mut Vec<String>) {
        let node = self.resolve(node);
        if value.is_null() {
            return;
        }
        let at = if path.is_empty() { "(root)" } else { path };
        match node {
            Value::String(leaf) => {
                let fits = match leaf.as_str() {
                    "string" => value.is_string(),
                    "integer" => value.is_i64() || value.is_u64(),
                    "boolean" => value.is_boolean(),
                    "int-or-string" => value.is_string() || value.is_i64() || value.is_u64(),
                    other => panic!("unknown leaf type {other:?} in v1beta2-fields.yaml"),
                };
                if !fits {
                    found.push(format!("{kind} {at}: {value} is not a {leaf}"));
                }
            }
            Value::Array(element) => match value.as_array() {
                Some(items) => {
                    for (i, item) in items.iter().enumerate() {
                        self.check(kind, &element[0], item, &format!("{path}[{i}]"), found);
                    }
                }
                None => found.push(format!("{kind} {at}: {value} is not a list")),
            },
            Value::Object(map) => {
                let Some(fields) = value.as_object() else {
                    found.push(format!("{kind} {at}: {value} is not an object"));
                    return;
                };
                let any_key = map.len() == 1 && map.contains_key("*");
                for (name, v) in fields {
                    let child = if path.is_empty() {
                        name.clone()
                    } else {
                        format!("{path}.{name}")
                    };
                    match if any_key { map.get("*") } else { map.get(name) } {
                        Some(sub) => self.check(kind, sub, v, &child, found),
                        None => found.push(format!("{kind} {child}: no such field in v1beta2")),
                    }
                }
            }
            other => panic!("unexpected node {other} in v1beta2-fields.yaml"),
        }
    }
}
