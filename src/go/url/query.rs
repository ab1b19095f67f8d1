//! Go's `url.ParseQuery`: how a Go server reads the query of a request (the `?timeout=` of a
//! hook call), with the escapes of [`super`]'s grammar.

use super::{Mode, UrlErrorReason, unescape};
use crate::go::strconv::quote_bytes;

/// The most parameters a query may have (Go's default): a longer one parses to nothing.
pub const MAX_QUERY_PARAMETERS: usize = 10_000;

/// The parameters of a query, in the order written: Go's `url.Values`. Keys and values are
/// unescaped, so they may hold any bytes.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Values {
    pairs: Vec<(Vec<u8>, Vec<u8>)>,
}

impl Values {
    /// The first value of `key` (Go's `Values.Get`, which says `""` where this says `None`).
    pub fn get(&self, key: &str) -> Option<&[u8]> {
        self.pairs
            .iter()
            .find(|(k, _)| k == key.as_bytes())
            .map(|(_, v)| v.as_slice())
    }

    /// Every `(key, value)`, in the order written.
    pub fn pairs(&self) -> &[(Vec<u8>, Vec<u8>)] {
        &self.pairs
    }
}

/// Why `url.ParseQuery` reported an error (it still returns the parameters it could read).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum QueryError {
    /// More than [`MAX_QUERY_PARAMETERS`] parameters: none is read.
    #[error("number of URL query parameters exceeded limit")]
    TooManyParameters,
    /// A parameter holds a `;` (it is passed over).
    #[error("invalid semicolon separator in query")]
    Semicolon,
    /// A key or value holds a `%` not followed by two hex digits (the parameter is passed
    /// over).
    #[error("invalid URL escape {}", quote_bytes(.0))]
    InvalidEscape(Vec<u8>),
}

/// `url.ParseQuery(query)`: `key=value` pairs separated by `&`, `+` and `%XX` decoded. Like
/// Go, it reads every pair it can and reports one error besides: a `;` anywhere wins over a
/// bad escape, and of bad escapes the first.
pub fn parse_query(query: &str) -> (Values, Option<QueryError>) {
    // Hand-written rather than `form_urlencoded`: that crate decodes a malformed escape
    // (`%zz`, a lone `%`) as literal text and reads a pair holding `;`, where Go drops both
    // pairs and reports why; it has no parameter limit either. The shared `unescape` is the
    // one `parse_request_uri` uses, checked against Go with this function.
    let mut values = Values::default();
    if query.matches('&').count() + 1 > MAX_QUERY_PARAMETERS {
        return (values, Some(QueryError::TooManyParameters));
    }
    let mut error = None;
    for pair in query.split('&') {
        if pair.contains(';') {
            error = Some(QueryError::Semicolon);
            continue;
        }
        if pair.is_empty() {
            continue;
        }
        let (key, value) = pair.split_once('=').unwrap_or((pair, ""));
        let decoded = unescape(key.as_bytes(), Mode::QueryComponent).and_then(|key| {
            unescape(value.as_bytes(), Mode::QueryComponent).map(|value| (key, value))
        });
        match decoded {
            Ok(pair) => values.pairs.push(pair),
            Err(UrlErrorReason::InvalidEscape(escape)) => {
                error.get_or_insert(QueryError::InvalidEscape(escape));
            }
            // Query components check no characters: an escape is all that can be wrong.
            Err(_) => {}
        }
    }
    (values, error)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pairs_are_unescaped_in_order() {
        let (values, error) = parse_query("timeout=1%C2%B5s&timeout=2s&a+b=c+d");
        assert_eq!(values.get("timeout"), Some("1µs".as_bytes()));
        assert_eq!(values.get("a b"), Some(&b"c d"[..]));
        assert_eq!(values.pairs().len(), 3);
        assert!(error.is_none());
    }
}
