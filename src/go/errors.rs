//! Error texts as Go writes them.
//!
//! In Go, an error that wraps another (`fmt.Errorf("failed to X: %w", err)`) carries its cause
//! in its text, and Cluster API's conditions, logs and API answers show that one line. In Rust,
//! an error's `Display` shows its own layer and `source()` returns the cause. [`chain`] joins the
//! two: it renders an error and every cause below it as the one line Go would print.
//!
//! [`Aggregate`] is apimachinery's `utilerrors.NewAggregate`: several errors as one, written
//! `[a, b]` with repeated messages dropped (one message stays as it is).
//!
//! ```
//! use capi_runtime::go::errors::{Aggregate, chain};
//!
//! #[derive(Debug, thiserror::Error)]
//! #[error("failed to discover ExtensionConfig ext")]
//! struct Discover(#[source] std::io::Error);
//!
//! let err = Discover(std::io::Error::other("connection refused"));
//! assert_eq!(err.to_string(), "failed to discover ExtensionConfig ext");
//! assert_eq!(chain(&err).to_string(), "failed to discover ExtensionConfig ext: connection refused");
//!
//! let all = Aggregate::new([err, Discover(std::io::Error::other("timeout"))]).unwrap();
//! assert_eq!(
//!     all.to_string(),
//!     "[failed to discover ExtensionConfig ext: connection refused, \
//!      failed to discover ExtensionConfig ext: timeout]"
//! );
//! ```

use std::error::Error;
use std::fmt;

/// An error of any type, as [`Aggregate`] holds them.
pub type BoxError = Box<dyn Error + Send + Sync + 'static>;

/// An error and its causes on one line, the way Go prints an error built with
/// `fmt.Errorf("<layer>: %w", cause)` at every level: each layer's `Display`, joined by `": "`.
///
/// A layer whose `Display` is empty and that has a cause adds nothing (in Go,
/// `fmt.Errorf("%w", err)` prints only `err`); an empty innermost error is written as the empty
/// text it is (`context: `). An [`Aggregate`] renders each of its errors with its own chain.
pub fn chain<'a>(error: &'a (dyn Error + 'static)) -> Chain<'a> {
    Chain(error)
}

/// What [`chain`] returns: `Display` writes the error and its causes.
#[derive(Clone, Copy)]
pub struct Chain<'a>(&'a (dyn Error + 'static));

impl fmt::Display for Chain<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut current: Option<&(dyn Error + 'static)> = Some(self.0);
        let mut written = false;
        while let Some(error) = current {
            let layer = error.to_string();
            current = error.source();
            // An empty layer over a cause is Go's `fmt.Errorf("%w", err)`: it adds nothing.
            if layer.is_empty() && current.is_some() {
                continue;
            }
            if written {
                f.write_str(": ")?;
            }
            f.write_str(&layer)?;
            written = true;
        }
        Ok(())
    }
}

impl fmt::Debug for Chain<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:?}", self.to_string())
    }
}

/// Several errors as one, as apimachinery's `utilerrors.NewAggregate` makes them.
///
/// Its text is Go's: the text of one error as it is; of several, `[e1, e2, …]` in order, each
/// message once. An `Aggregate` inside an `Aggregate` is flattened into it, as Go's `visit`
/// does. Each error is written with its whole chain ([`chain`]), as its Go counterpart would
/// print itself. `source()` is `None`, since there is no single cause: [`Aggregate::errors`]
/// lists them.
#[derive(Debug)]
pub struct Aggregate {
    errors: Vec<BoxError>,
}

impl Aggregate {
    /// The aggregate of `errors`, or `None` when there are none (Go's `NewAggregate` returns
    /// `nil` then).
    pub fn new<E: Into<BoxError>>(errors: impl IntoIterator<Item = E>) -> Option<Self> {
        let errors: Vec<BoxError> = errors.into_iter().map(Into::into).collect();
        (!errors.is_empty()).then_some(Aggregate { errors })
    }

    /// The errors, in the order given (nested aggregates are not flattened here).
    pub fn errors(&self) -> &[BoxError] {
        &self.errors
    }

    /// The errors, taken back.
    pub fn into_errors(self) -> Vec<BoxError> {
        self.errors
    }

    /// Calls `f` with the text of every error, flattening nested aggregates as Go's `visit`.
    fn visit(&self, f: &mut dyn FnMut(String)) {
        for error in &self.errors {
            let error: &(dyn Error + 'static) = error.as_ref();
            match error.downcast_ref::<Aggregate>() {
                Some(nested) => nested.visit(f),
                None => f(chain(error).to_string()),
            }
        }
    }
}

impl fmt::Display for Aggregate {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let [one] = self.errors.as_slice() {
            let one: &(dyn Error + 'static) = one.as_ref();
            return write!(f, "{}", chain(one));
        }
        let mut seen: Vec<String> = Vec::new();
        self.visit(&mut |message| {
            if !seen.contains(&message) {
                seen.push(message);
            }
        });
        match seen.as_slice() {
            [one] => f.write_str(one),
            many => write!(f, "[{}]", many.join(", ")),
        }
    }
}

impl Error for Aggregate {}

/// The text of the aggregate of plain messages (each an error of that text): `""` for none,
/// the message for one, `[m1, m2, …]` for several with repeats dropped.
pub fn aggregate_messages<S: AsRef<str>>(messages: impl IntoIterator<Item = S>) -> String {
    let mut seen: Vec<String> = Vec::new();
    let mut count = 0;
    for message in messages {
        count += 1;
        let message = message.as_ref();
        if !seen.iter().any(|m| m == message) {
            seen.push(message.to_string());
        }
    }
    match (count, seen.as_slice()) {
        (0, _) => String::new(),
        (_, [one]) => one.clone(),
        (_, many) => format!("[{}]", many.join(", ")),
    }
}

/// An error that is only a message, for building chains and aggregates from text (Go's
/// `errors.New`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Message(String);

impl Message {
    /// The error of `text`.
    pub fn new(text: impl Into<String>) -> Self {
        Message(text.into())
    }

    /// Its text.
    pub fn text(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for Message {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl Error for Message {}

/// A layer of text over a cause (Go's `fmt.Errorf("<context>: %w", cause)`): `Display` shows
/// the context, `source()` the cause.
#[derive(Debug)]
pub struct Wrapped {
    context: String,
    cause: BoxError,
}

impl Wrapped {
    /// `context` over `cause`.
    pub fn new(context: impl Into<String>, cause: impl Into<BoxError>) -> Self {
        Wrapped {
            context: context.into(),
            cause: cause.into(),
        }
    }
}

impl fmt::Display for Wrapped {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.context)
    }
}

impl Error for Wrapped {
    fn source(&self) -> Option<&(dyn Error + 'static)> {
        Some(self.cause.as_ref())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn msg(s: &str) -> BoxError {
        Box::new(Message::new(s))
    }

    #[test]
    fn one_message_stays_as_it_is_even_an_aggregate() {
        let inner = Aggregate::new([msg("a"), msg("b")]).unwrap();
        let outer = Aggregate::new([Box::new(inner) as BoxError]).unwrap();
        assert_eq!(outer.to_string(), "[a, b]");
        assert_eq!(Aggregate::new([msg("a")]).unwrap().to_string(), "a");
        assert!(Aggregate::new(Vec::<BoxError>::new()).is_none());
    }

    #[test]
    fn nested_aggregates_flatten_and_repeats_go() {
        let inner = Aggregate::new([msg("b"), msg("a")]).unwrap();
        let outer = Aggregate::new([msg("a"), Box::new(inner) as BoxError, msg("c")]).unwrap();
        assert_eq!(outer.to_string(), "[a, b, c]");
        let same = Aggregate::new([msg("x"), msg("x")]).unwrap();
        assert_eq!(same.to_string(), "x");
    }

    #[test]
    fn chains_join_layers_and_skip_empty_ones() {
        let e = Wrapped::new("outer", Wrapped::new("", Wrapped::new("mid", msg("root"))));
        assert_eq!(chain(&e).to_string(), "outer: mid: root");
        let agg = Aggregate::new([Wrapped::new("x", msg("y"))]).unwrap();
        let e = Wrapped::new("top", agg);
        assert_eq!(chain(&e).to_string(), "top: x: y");
    }

    #[test]
    fn messages_aggregate_like_errors() {
        assert_eq!(aggregate_messages(Vec::<String>::new()), "");
        assert_eq!(aggregate_messages(["a"]), "a");
        assert_eq!(aggregate_messages(["a", "b", "a"]), "[a, b]");
        assert_eq!(aggregate_messages(["a", "a"]), "a");
    }
}
