//! What the wire decoder needs to know of a type to read it as Go reads the Go type it stands
//! for: written by `#[derive(Schema)]` beside the generator's model, and by this crate for the
//! k8s-openapi types hook messages embed (`codegen/external/`).
//!
//! The decoder walks these shapes from the message's root in step with the calls a type's
//! `Deserialize` makes, so what it does for a value follows from the declared type of the
//! field that holds it, never from a type or struct name. Where it has no shape (a type
//! without `#[derive(Schema)]`, or a `Deserialize` that asks for something else than its shape
//! says), the value is read by serde's ordinary rules. Construction is for derive expansions
//! (through `__private`); the fields may change in any release.

use std::sync::OnceLock;

use super::TypeInfo;

/// How values of one type are read.
#[derive(Clone, Copy, Debug)]
pub enum Shape {
    /// A struct with named fields.
    Struct(&'static StructShape),
    /// A value Go holds as it is, such as a string enum: serde's ordinary rules.
    Value,
    /// A type that reads its own JSON in Go (`UnmarshalJSON`), such as `IntOrString`:
    /// serde's ordinary rules, and a `null` is handed to it rather than ignored.
    Own,
    /// Go's `metav1.Time`: read with `time.Parse(time.RFC3339, ..)`, `null` is the zero time.
    Time,
    /// Go's `[]byte`: base64 (`base64.StdEncoding`) or an array of numbers; `null` is nil.
    Bytes,
    /// A newtype or `#[serde(transparent)]` struct: read as the type it wraps.
    Transparent(Node),
}

/// The fields of a struct.
#[derive(Debug)]
pub struct StructShape {
    /// The fields serde reads.
    pub fields: &'static [Field],
    /// The struct has a field of type `Time` (not an `Option`) and no `#[serde(default)]`:
    /// such a field is given Go's zero time when the message leaves it out.
    pub zero_times: bool,
}

/// One field of a struct.
#[derive(Debug)]
pub struct Field {
    /// The JSON name serde reads.
    pub name: &'static str,
    /// The field's declared type.
    pub node: Node,
    /// `#[schema(by_value)]`: Go holds the field by value although its Rust type is an
    /// `Option`, so a `null` leaves it as it is.
    pub by_value: bool,
}

/// A declared field type.
#[derive(Clone, Copy, Debug)]
pub enum Node {
    /// A string, number or bool.
    Scalar,
    /// The type `refs[i]` of the [`TypeInfo`] that holds the node.
    Ref(usize),
    /// `Option<T>`.
    Option(&'static Node),
    /// `Vec<T>`.
    List(&'static Node),
    /// A map with string keys.
    Map(&'static Node),
}

impl TypeInfo {
    /// How the wire decoder reads values of this type.
    pub(crate) fn shape(&'static self) -> &'static Shape {
        &self.shape
    }

    /// The type `node` (written in this type's shape) refers to, when it is a reference.
    pub(crate) fn referenced(&'static self, node: &Node) -> Option<&'static TypeInfo> {
        match node {
            Node::Ref(i) => self.refs.get(*i).map(|info| info()),
            _ => None,
        }
    }
}

impl Field {
    /// Go holds the field by value, so a `null` leaves it as it is: declared so, or a scalar,
    /// a struct or a value that is not an `Option`, a list or a map (`owner` holds the field).
    pub(crate) fn held_by_value(&self, owner: &'static TypeInfo) -> bool {
        self.by_value || node_by_value(&self.node, owner)
    }

    /// The field is a `Time` that is not an `Option` (`owner` holds the field).
    pub(crate) fn is_time(&self, owner: &'static TypeInfo) -> bool {
        let mut node = self.node;
        let mut owner = owner;
        while let Some(info) = owner.referenced(&node) {
            match info.shape() {
                Shape::Time => return true,
                Shape::Transparent(inner) => (node, owner) = (*inner, info),
                _ => return false,
            }
        }
        false
    }
}

fn node_by_value(node: &Node, owner: &'static TypeInfo) -> bool {
    match node {
        Node::Scalar => true,
        Node::Option(_) | Node::List(_) | Node::Map(_) => false,
        Node::Ref(_) => owner
            .referenced(node)
            .is_some_and(|info| match info.shape() {
                Shape::Struct(_) | Shape::Value => true,
                Shape::Own | Shape::Time | Shape::Bytes => false,
                Shape::Transparent(inner) => node_by_value(inner, info),
            }),
    }
}

impl StructShape {
    /// The field serde names `name`.
    pub(crate) fn field(&self, name: &str) -> Option<&'static Field> {
        let fields: &'static [Field] = self.fields;
        fields.iter().find(|field| field.name == name)
    }
}

/// A struct's fields in the order of serde's field list (`deserialize_struct`'s `fields`), so
/// that the decoder finds a field's shape by its index, without comparing names: built on the
/// first decoding of the type, for the field list it was given.
#[derive(Debug)]
pub(crate) struct FieldMap {
    /// The address of serde's field list this map is for.
    list: usize,
    /// For each of serde's fields, its shape.
    fields: Box<[Option<&'static Field>]>,
}

/// Where a type keeps its [`FieldMap`] (in its [`TypeInfo`]).
#[derive(Debug)]
pub(crate) struct FieldMapCell(OnceLock<FieldMap>);

impl FieldMapCell {
    pub(crate) const fn new() -> Self {
        FieldMapCell(OnceLock::new())
    }
}

impl FieldMap {
    fn new(shape: &StructShape, list: &'static [&'static str]) -> Self {
        FieldMap {
            list: list.as_ptr() as usize,
            fields: list.iter().map(|name| shape.field(name)).collect(),
        }
    }

    /// The shape of serde's field `index`.
    #[inline]
    pub(crate) fn get(&self, index: usize) -> Option<&'static Field> {
        self.fields.get(index).copied().flatten()
    }
}

impl TypeInfo {
    /// The map of this struct's fields for serde's field list `list`: the one kept, when it was
    /// built for that list (serde passes the same list every time), else `None`.
    #[inline]
    pub(crate) fn field_map(
        &'static self,
        shape: &StructShape,
        list: &'static [&'static str],
    ) -> Option<&'static FieldMap> {
        let map = self.field_map.0.get_or_init(|| FieldMap::new(shape, list));
        (map.list == list.as_ptr() as usize).then_some(map)
    }
}
