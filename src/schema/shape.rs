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
    /// In the order of serde's field list when no field has aliases.
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
    /// The field serde names `name`, at `index` in its field list: looked up at that index
    /// first, where a derived struct has it.
    #[inline]
    pub(crate) fn field(&self, index: usize, name: &str) -> Option<&'static Field> {
        let fields: &'static [Field] = self.fields;
        match fields.get(index) {
            Some(field) if field.name == name => Some(field),
            _ => fields.iter().find(|field| field.name == name),
        }
    }
}
