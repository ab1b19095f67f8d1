//! What the decoder expects of the value it reads next, from the shapes `#[derive(Schema)]`
//! records ([`crate::schema::shape`]): the decoder starts from the message type's shape and,
//! as the types' `Deserialize` impls ask for fields, elements and map values, moves to the
//! shape of the field's declared type. Only a call that fits the shape uses it (a struct shape
//! a `deserialize_struct`, a list shape a `deserialize_seq`, ...); anything else, and every
//! value below it, is read by serde's ordinary rules.

use crate::schema::TypeInfo;
use crate::schema::shape::{Field, FieldMap, Node, Shape, StructShape};

/// What the next value is, as far as Go's rules go.
#[derive(Clone, Copy, Debug, Default)]
pub(super) enum Next {
    /// Nothing particular: serde's ordinary rules (with Go's syntax, numbers and nulls).
    #[default]
    Plain,
    /// Go's `metav1.Time`.
    Time,
    /// Go's `[]byte`.
    Bytes,
    /// A struct of this type.
    Struct(&'static TypeInfo),
    /// An `Option` of the node, declared in the type given.
    Option(&'static Node, &'static TypeInfo),
    /// A list of the node.
    List(&'static Node, &'static TypeInfo),
    /// A map with values of the node.
    Map(&'static Node, &'static TypeInfo),
}

impl Next {
    /// A value of type `info`.
    pub(super) fn of(info: &'static TypeInfo) -> Next {
        match info.shape() {
            Shape::Struct(_) => Next::Struct(info),
            Shape::Time => Next::Time,
            Shape::Bytes => Next::Bytes,
            Shape::Value | Shape::Own => Next::Plain,
            Shape::Transparent(node) => Next::node(node, info),
        }
    }

    /// A value of the type `node`, written in the shape of `owner`.
    #[inline]
    pub(super) fn node(node: &'static Node, owner: &'static TypeInfo) -> Next {
        match node {
            Node::Scalar => Next::Plain,
            Node::Ref(_) => Next::referenced(node, owner),
            Node::Option(inner) => Next::Option(inner, owner),
            Node::List(inner) => Next::List(inner, owner),
            Node::Map(inner) => Next::Map(inner, owner),
        }
    }

    /// A value of the type the reference `node` names.
    fn referenced(node: &'static Node, owner: &'static TypeInfo) -> Next {
        owner.referenced(node).map_or(Next::Plain, Next::of)
    }

    /// The root of a message of type `info` (serde's rules without one).
    pub(super) fn root(info: Option<&'static TypeInfo>) -> Next {
        info.map_or(Next::Plain, Next::of)
    }

    /// What the elements are, when this is a list.
    pub(super) fn elements(self) -> Next {
        match self {
            Next::List(node, owner) => Next::node(node, owner),
            _ => Next::Plain,
        }
    }

    /// What the map's values are, when this is a map.
    pub(super) fn values(self) -> Next {
        match self {
            Next::Map(node, owner) => Next::node(node, owner),
            _ => Next::Plain,
        }
    }

    /// The struct this is, when it is one, with serde's field list `list`.
    #[inline]
    pub(super) fn fields(self, list: &'static [&'static str]) -> Option<Fields> {
        let Next::Struct(info) = self else {
            return None;
        };
        let Shape::Struct(shape) = info.shape() else {
            return None;
        };
        Some(Fields {
            info,
            shape,
            map: info.field_map(shape, list),
        })
    }
}

/// The shape of a struct being decoded.
#[derive(Clone, Copy)]
pub(super) struct Fields {
    info: &'static TypeInfo,
    shape: &'static StructShape,
    /// Its fields by the index serde gives them (`None`: by their names).
    map: Option<&'static FieldMap>,
}

impl Fields {
    /// The shape of field `fields[index]`.
    #[inline]
    fn field(&self, index: usize, fields: &[&str]) -> Option<&'static Field> {
        match self.map {
            Some(map) => map.get(index),
            None => self.shape.field(fields[index]),
        }
    }

    /// The field serde names `fields[index]`: what its value is.
    #[inline]
    pub(super) fn next(this: Option<Fields>, index: usize, fields: &[&str]) -> Next {
        match this {
            Some(this) => this
                .field(index, fields)
                .map_or(Next::Plain, |field| Next::node(&field.node, this.info)),
            None => Next::Plain,
        }
    }

    /// Go holds field `fields[index]` by value: a `null` leaves it as it is.
    pub(super) fn by_value(this: Option<Fields>, index: usize, fields: &[&str]) -> bool {
        this.is_some_and(|this| {
            this.field(index, fields)
                .is_some_and(|field| field.held_by_value(this.info))
        })
    }

    /// The first of serde's `fields` that is a Go time (not an `Option`) and that `done` does
    /// not hold: Go leaves such a field at the zero time when the message does not set it,
    /// where the type's `Deserialize` (k8s-openapi's `Condition`) requires it.
    #[inline]
    pub(super) fn missing_time(
        this: Option<Fields>,
        fields: &[&str],
        done: impl Fn(usize) -> bool,
    ) -> Option<usize> {
        let this = this.filter(|this| this.shape.zero_times)?;
        (0..fields.len()).find(|&index| {
            !done(index)
                && this
                    .field(index, fields)
                    .is_some_and(|field| field.is_time(this.info))
        })
    }
}
