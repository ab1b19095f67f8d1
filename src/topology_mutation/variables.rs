//! Typed access to the variables of GeneratePatches and ValidateTopology requests.
//!
//! A request carries global variables and, per item, template-specific ones; the values that
//! apply to a template are the two merged, the item's winning. The builtin variable is merged
//! field by field instead when both lists carry it, since Cluster API splits it between them.

use std::collections::BTreeMap;

use serde::Deserialize;
use serde::de::DeserializeOwned;
use serde_json::Value;

use crate::hooks::v1alpha1::{BUILTINS_NAME, Builtins, Variable as RequestVariable};
use crate::variable::Variable;

/// Why a variable could not be read. A decoding error is the [`source`](std::error::Error::source)
/// (Go's message, cause included, is [`chain(&err)`](crate::go::errors::chain)).
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum VariableError {
    /// The variable, or a field or element of it, is not there. See [`VariableError::is_not_found`].
    #[error("variable \"{0}\" does not exist")]
    NotFound(String),
    /// The path is malformed.
    #[error("invalid variable path \"{path}\": {reason}")]
    InvalidPath {
        /// The path.
        path: String,
        /// What is wrong with it.
        reason: &'static str,
    },
    /// An index was used on something that is not an array, or is past its end.
    #[error("cannot index variable path \"{path}\": {reason}")]
    BadIndex {
        /// The path up to the index.
        path: String,
        /// What is wrong.
        reason: &'static str,
    },
    /// The value does not decode into the requested type.
    #[error("failed to unmarshal variable json {raw:?} into {type_name:?}")]
    Decode {
        /// The value as JSON text.
        raw: String,
        /// The requested type.
        type_name: &'static str,
        /// The decoder's error.
        source: serde_json::Error,
    },
    /// The value is not a boolean.
    #[error("variable \"{path}\" is not a boolean: {raw}")]
    NotABool {
        /// The path.
        path: String,
        /// The value as JSON text.
        raw: String,
    },
    /// The value of a variable declared as a type ([`Variables::variable`]) does not fit
    /// that type; the path names the field, as Cluster API's messages do, and the decoder's
    /// error says why.
    #[error("invalid value of variable \"{name}\" at {path}")]
    Invalid {
        /// The variable's name.
        name: &'static str,
        /// The path of the bad field from the variable's name, e.g. `registry.mirrors[0].url`.
        path: String,
        /// The decoder's error.
        source: serde_json::Error,
    },
    /// The value holds a number that a `serde_json::Value` cannot (beyond `f64`'s range), so
    /// the variable cannot be read as JSON.
    #[error("variable \"{name}\" cannot be read as JSON")]
    Unrepresentable {
        /// The variable's name.
        name: String,
        /// Why its value has no `serde_json::Value`.
        source: crate::raw::ToValueError,
    },
    /// The builtin variables of two lists could not be merged.
    #[error("failed to merge builtin variables: failed to unmarshal builtin variable")]
    MergeBuiltins(#[source] serde_json::Error),
}

impl VariableError {
    /// True when the variable or a part of its path is missing, as opposed to malformed.
    pub fn is_not_found(&self) -> bool {
        matches!(self, VariableError::NotFound(_))
    }
}

/// Variables by name, with their JSON values.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Variables(BTreeMap<String, Value>);

impl Variables {
    /// The variables of a request list; a later duplicate replaces an earlier one. Fails for
    /// a value whose numbers a `serde_json::Value` cannot hold.
    pub fn from_list(list: &[RequestVariable]) -> Result<Variables, VariableError> {
        list.iter()
            .map(|v| match v.value.to_value() {
                Ok(value) => Ok((v.name.clone(), value)),
                Err(source) => Err(VariableError::Unrepresentable {
                    name: v.name.clone(),
                    source,
                }),
            })
            .collect::<Result<_, _>>()
            .map(Variables)
    }

    /// Merges `maps` in order: a later map replaces a variable of an earlier one, except the
    /// builtin variable, which Cluster API splits between the global list and each item's.
    ///
    /// A builtin value found in one map only is kept exactly as it came, unknown fields and all.
    /// When several maps carry one, they are merged as upstream decodes each onto the previous
    /// into the typed [`Builtins`]: each must be a valid builtin value, objects merge field by
    /// field (nested objects merge, other values are replaced), and the result has the
    /// [`Builtins`] shape, which drops the fields it does not model.
    pub fn merge(maps: &[&Variables]) -> Result<Variables, VariableError> {
        let mut merged = BTreeMap::new();
        let mut builtin: Option<Value> = None;
        let mut pieces = 0usize;
        for map in maps {
            for (name, value) in &map.0 {
                if name != BUILTINS_NAME {
                    merged.insert(name.clone(), value.clone());
                    continue;
                }
                pieces += 1;
                match &mut builtin {
                    None => builtin = Some(value.clone()),
                    Some(b) => {
                        if pieces == 2 {
                            check_builtins(b)?;
                        }
                        check_builtins(value)?;
                        merge_json(b, value);
                    }
                }
            }
        }
        if let Some(b) = builtin {
            let value = if pieces > 1 {
                let typed: Builtins =
                    serde_json::from_value(b).map_err(VariableError::MergeBuiltins)?;
                serde_json::to_value(typed).map_err(VariableError::MergeBuiltins)?
            } else {
                b
            };
            merged.insert(BUILTINS_NAME.to_string(), value);
        }
        Ok(Variables(merged))
    }

    /// The raw value of a variable by name.
    pub fn raw(&self, name: &str) -> Option<&Value> {
        self.0.get(name)
    }

    /// Sets a variable.
    pub fn insert(&mut self, name: impl Into<String>, value: Value) {
        self.0.insert(name.into(), value);
    }

    /// The variable names, sorted.
    pub fn names(&self) -> impl Iterator<Item = &str> {
        self.0.keys().map(String::as_str)
    }

    /// The value at `path`: a variable name followed by `.field` segments, any of which may
    /// carry `[index]` suffixes, e.g. `builtin.controlPlane.version` or `files[0].path`.
    pub fn get(&self, path: &str) -> Result<&Value, VariableError> {
        let segments = parse_path(path)?;
        let (first, first_indexes) = &segments[0];
        let mut value = self
            .0
            .get(*first)
            .ok_or_else(|| VariableError::NotFound(first.to_string()))?;
        let mut walked = first.to_string();
        value = index(value, first_indexes, &mut walked)?;
        for (field, indexes) in &segments[1..] {
            walked.push('.');
            walked.push_str(field);
            value = value
                .as_object()
                .and_then(|o| o.get(*field))
                .ok_or_else(|| VariableError::NotFound(walked.clone()))?;
            value = index(value, indexes, &mut walked)?;
        }
        Ok(value)
    }

    /// The string at `path`.
    pub fn get_string(&self, path: &str) -> Result<String, VariableError> {
        self.get_into(path)
    }

    /// The boolean at `path`. Besides JSON booleans, the numbers 1 and 0 are accepted, as
    /// upstream parses the raw text.
    pub fn get_bool(&self, path: &str) -> Result<bool, VariableError> {
        match self.get(path)? {
            Value::Bool(b) => Ok(*b),
            Value::Number(n) if n.as_u64() == Some(1) => Ok(true),
            Value::Number(n) if n.as_u64() == Some(0) => Ok(false),
            other => Err(VariableError::NotABool {
                path: path.to_string(),
                raw: other.to_string(),
            }),
        }
    }

    /// The value at `path` decoded into `T`.
    pub fn get_into<T: DeserializeOwned>(&self, path: &str) -> Result<T, VariableError> {
        let value = self.get(path)?;
        T::deserialize(value).map_err(|source| VariableError::Decode {
            raw: value.to_string(),
            type_name: std::any::type_name::<T>(),
            source,
        })
    }

    /// The variable `V` declares (see [`crate::variable`]), read into its type. A missing
    /// variable is [`VariableError::NotFound`] (see [`VariableError::is_not_found`]); a value
    /// that does not fit the type is [`VariableError::Invalid`], naming the variable and the
    /// path of the bad field.
    pub fn variable<V: Variable>(&self) -> Result<V, VariableError> {
        let value = self
            .raw(V::NAME)
            .ok_or_else(|| VariableError::NotFound(V::NAME.to_string()))?;
        serde_path_to_error::deserialize(value).map_err(|e| {
            let at = e.path().to_string();
            let path = match at.as_str() {
                "." => V::NAME.to_string(),
                _ if at.starts_with('[') => format!("{}{at}", V::NAME),
                _ => format!("{}.{at}", V::NAME),
            };
            VariableError::Invalid {
                name: V::NAME,
                path,
                source: e.into_inner(),
            }
        })
    }

    /// The variable `V` declares, read into its type as [`variable`](Self::variable) reads
    /// it, or `None` when it is not set (not found); a value that does not fit the type is
    /// still [`VariableError::Invalid`].
    pub fn optional_variable<V: Variable>(&self) -> Result<Option<V>, VariableError> {
        match self.variable::<V>() {
            Ok(v) => Ok(Some(v)),
            Err(e) if e.is_not_found() => Ok(None),
            Err(e) => Err(e),
        }
    }

    /// The builtin variable, typed. Missing builtins give the empty value.
    pub fn builtins(&self) -> Result<Builtins, VariableError> {
        match self.get_into(BUILTINS_NAME) {
            Err(e) if e.is_not_found() => Ok(Builtins::default()),
            other => other,
        }
    }
}

/// Fails unless `value` decodes as a builtin value on its own.
fn check_builtins(value: &Value) -> Result<(), VariableError> {
    Builtins::deserialize(value)
        .map(drop)
        .map_err(VariableError::MergeBuiltins)
}

/// Recursive JSON merge: objects merge member by member, anything else is replaced.
fn merge_json(target: &mut Value, patch: &Value) {
    match (target, patch) {
        (Value::Object(t), Value::Object(p)) => {
            for (key, pv) in p {
                match t.get_mut(key) {
                    Some(tv) => merge_json(tv, pv),
                    None => {
                        t.insert(key.clone(), pv.clone());
                    }
                }
            }
        }
        (target, patch) => *target = patch.clone(),
    }
}

type Segment<'a> = (&'a str, Vec<usize>);

fn parse_path(path: &str) -> Result<Vec<Segment<'_>>, VariableError> {
    let invalid = |reason| VariableError::InvalidPath {
        path: path.to_string(),
        reason,
    };
    path.split('.')
        .map(|segment| {
            let (name, mut rest) = match segment.find('[') {
                Some(i) => (&segment[..i], &segment[i..]),
                None => (segment, ""),
            };
            if name.is_empty() {
                return Err(invalid("empty segment"));
            }
            if name.contains(']') {
                return Err(invalid("unbalanced brackets"));
            }
            let mut indexes = Vec::new();
            while !rest.is_empty() {
                let inner = rest
                    .strip_prefix('[')
                    .ok_or(invalid("unexpected text after an index"))?;
                let end = inner.find(']').ok_or(invalid("unbalanced brackets"))?;
                let number = &inner[..end];
                if number.starts_with('-') {
                    return Err(invalid("negative index"));
                }
                indexes.push(
                    number
                        .parse()
                        .map_err(|_| invalid("index is not an integer"))?,
                );
                rest = &inner[end + 1..];
            }
            Ok((name, indexes))
        })
        .collect()
}

fn index<'v>(
    mut value: &'v Value,
    indexes: &[usize],
    walked: &mut String,
) -> Result<&'v Value, VariableError> {
    for i in indexes {
        let items = value.as_array().ok_or_else(|| VariableError::BadIndex {
            path: walked.clone(),
            reason: "not an array",
        })?;
        value = items.get(*i).ok_or_else(|| VariableError::BadIndex {
            path: walked.clone(),
            reason: "index out of range",
        })?;
        walked.push_str(&format!("[{i}]"));
    }
    Ok(value)
}
