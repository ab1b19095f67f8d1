//! Go's `url.ParseRequestURI`: the URL grammar Cluster API's webhook checks an
//! ExtensionConfig's `spec.clientConfig.url` and `service.path` with, and the one this crate
//! uses for them everywhere. A parsed URL is written back as Go's `URL.String()` writes it.
//!
//! It reads an absolute URL (`https://host:port/path?query`) or an absolute path (`/path`);
//! a `#` is not special (a browser would have stripped the fragment). Unescaped parts (user,
//! host, path) may hold any bytes after `%XX` decoding, so they are bytes here.
//!
//! ```
//! use capi_runtime::go::url::parse_request_uri;
//!
//! let url = parse_request_uri("HTTPS://[fe80::1%25en0]:8443/a%20b?x=1").unwrap();
//! assert_eq!(url.scheme(), "https");
//! assert_eq!(url.host(), b"[fe80::1%en0]:8443");
//! assert_eq!(url.hostname(), b"fe80::1%en0");
//! assert_eq!(url.port(), b"8443");
//! assert_eq!(url.path(), b"/a b");
//! assert_eq!(url.raw_query(), "x=1");
//!
//! let err = parse_request_uri("https://h:x/").unwrap_err();
//! assert_eq!(err.to_string(), "parse \"https://h:x/\"");
//! assert_eq!(
//!     capi_runtime::go::errors::chain(&err).to_string(),
//!     "parse \"https://h:x/\": invalid port \":x\" after host"
//! );
//! ```
//!
//! The crate also reads with this grammar, for itself: Go's `url.Parse` (how a proxy setting
//! is read) and `url.ParseQuery` (how a Go server reads the `?timeout=` of a hook call).

use std::fmt;

use super::netip;
use super::strconv::{quote, quote_bytes};

/// Why the inside of `[...]` is not an IPv6 address ([`UrlErrorReason::InvalidHost`]):
/// `netip.ParseAddr`'s error.
pub use super::netip::AddrParseError;

pub(crate) mod query;

/// A URL as `url.ParseRequestURI` or `url.Parse` returns it: the fields Go's `url.URL` has;
/// the fragment (`url.Parse` only) is kept for [`Display`](fmt::Display), which writes the URL
/// as Go's `URL.String()` does.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RequestUri {
    scheme: String,
    opaque: String,
    user: Option<UserInfo>,
    host: Vec<u8>,
    path: Vec<u8>,
    /// The path as written (Go keeps it as `RawPath` when it is not the default escaping).
    raw_path: String,
    raw_query: String,
    force_query: bool,
    omit_host: bool,
    /// `url.Parse` only: the fragment, unescaped and as written (`None` when empty).
    fragment: Option<(Vec<u8>, String)>,
}

/// The user information of a URL (`user:password@`), unescaped.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UserInfo {
    /// The user name.
    pub username: Vec<u8>,
    /// The password, when a `:` was written.
    pub password: Option<Vec<u8>>,
}

impl RequestUri {
    /// The scheme, lower-cased; empty for an absolute path.
    pub fn scheme(&self) -> &str {
        &self.scheme
    }

    /// What follows `scheme:` when it is not `/...` (`mailto:x`); empty otherwise.
    pub fn opaque(&self) -> &str {
        &self.opaque
    }

    /// The user information, when an `@` was written in the authority.
    pub fn user(&self) -> Option<&UserInfo> {
        self.user.as_ref()
    }

    /// `host` or `host:port`, unescaped (`[...]` kept around an IPv6 literal).
    pub fn host(&self) -> &[u8] {
        &self.host
    }

    /// The host without port and brackets (`URL.Hostname`).
    pub fn hostname(&self) -> &[u8] {
        let (name, _) = split_host_port(&self.host);
        match name.strip_prefix(b"[") {
            Some(inner) => inner.strip_suffix(b"]").unwrap_or(inner),
            None => name,
        }
    }

    /// The port's digits, empty when none was written (`URL.Port`).
    pub fn port(&self) -> &[u8] {
        split_host_port(&self.host).1
    }

    /// The path, unescaped.
    pub fn path(&self) -> &[u8] {
        &self.path
    }

    /// The query as written, without the `?`.
    pub fn raw_query(&self) -> &str {
        &self.raw_query
    }

    /// Whether the URL ends with a lone `?` (an empty query that was written).
    pub fn force_query(&self) -> bool {
        self.force_query
    }

    /// Whether a scheme is followed by a path without an authority (`https:/path`).
    pub fn omit_host(&self) -> bool {
        self.omit_host
    }
}

/// Go's `URL.String()`: the URL written back, each part escaped as Go escapes it (a path or
/// fragment as written when that is a valid escaping of it).
impl fmt::Display for RequestUri {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut out = String::new();
        if !self.scheme.is_empty() {
            out.push_str(&self.scheme);
            out.push(':');
        }
        if !self.opaque.is_empty() {
            out.push_str(&self.opaque);
        } else {
            let has_authority =
                !self.scheme.is_empty() || !self.host.is_empty() || self.user.is_some();
            let omitted = self.omit_host && self.host.is_empty() && self.user.is_none();
            if has_authority && !omitted {
                if !self.host.is_empty() || !self.path.is_empty() || self.user.is_some() {
                    out.push_str("//");
                }
                if let Some(user) = &self.user {
                    out.push_str(&escape(&user.username, Mode::UserPassword));
                    if let Some(password) = &user.password {
                        out.push(':');
                        out.push_str(&escape(password, Mode::UserPassword));
                    }
                    out.push('@');
                }
                out.push_str(&escape(&self.host, Mode::Host));
            }
            let path = if valid_encoded(&self.raw_path, Mode::Path) {
                self.raw_path.clone()
            } else if self.path == b"*" {
                "*".to_string()
            } else {
                escape(&self.path, Mode::Path)
            };
            if !path.is_empty() && !path.starts_with('/') && !self.host.is_empty() {
                out.push('/');
            }
            if out.is_empty() && path.split('/').next().is_some_and(|s| s.contains(':')) {
                out.push_str("./");
            }
            out.push_str(&path);
        }
        if self.force_query || !self.raw_query.is_empty() {
            out.push('?');
            out.push_str(&self.raw_query);
        }
        if let Some((fragment, raw)) = &self.fragment {
            out.push('#');
            if valid_encoded(raw, Mode::Fragment) {
                out.push_str(raw);
            } else {
                out.push_str(&escape(fragment, Mode::Fragment));
            }
        }
        f.write_str(&out)
    }
}

/// Go's `shouldEscape` for the modes `URL.String()` writes.
fn should_escape(c: u8, mode: Mode) -> bool {
    if c.is_ascii_alphanumeric() {
        return false;
    }
    if matches!(mode, Mode::Host | Mode::Zone) && !host_should_escape(c) {
        return false;
    }
    match c {
        b'-' | b'_' | b'.' | b'~' => false,
        b'$' | b'&' | b'+' | b',' | b'/' | b':' | b';' | b'=' | b'?' | b'@' => match mode {
            Mode::Path => c == b'?',
            Mode::UserPassword => matches!(c, b'@' | b'/' | b'?' | b':'),
            Mode::QueryComponent => true,
            Mode::Fragment => false,
            Mode::Host | Mode::Zone => true,
        },
        b'!' | b'(' | b')' | b'*' if mode == Mode::Fragment => false,
        _ => true,
    }
}

/// Go's `escape` (outside query components, where it is not used here).
fn escape(s: &[u8], mode: Mode) -> String {
    let mut out = String::with_capacity(s.len());
    for &c in s {
        if should_escape(c, mode) {
            out.push_str(&format!("%{c:02X}"));
        } else {
            out.push(char::from(c));
        }
    }
    out
}

/// Go's `validEncoded`: whether `s` may stand for itself in a path or fragment.
fn valid_encoded(s: &str, mode: Mode) -> bool {
    s.bytes().all(|c| {
        matches!(
            c,
            b'!' | b'$'
                | b'&'
                | b'\''
                | b'('
                | b')'
                | b'*'
                | b'+'
                | b','
                | b';'
                | b'='
                | b':'
                | b'@'
                | b'['
                | b']'
                | b'%'
        ) || !should_escape(c, mode)
    })
}

/// `URL.Hostname`/`URL.Port`'s split: a port is the digits after the last `:` that follows the
/// host (after `]` for a bracketed literal).
fn split_host_port(host: &[u8]) -> (&[u8], &[u8]) {
    let Some(colon) = host.iter().rposition(|&b| b == b':') else {
        return (host, b"");
    };
    if let Some(close) = host.iter().rposition(|&b| b == b']')
        && colon < close
    {
        return (host, b"");
    }
    let port = &host[colon + 1..];
    if port.iter().all(u8::is_ascii_digit) {
        (&host[..colon], port)
    } else {
        (host, b"")
    }
}

/// Why `url.ParseRequestURI` refused a URL: Go's `*url.Error` with operation `parse`.
/// `Display` is its own layer, `parse "<url>"`; the reason is its [`source`](std::error::Error::source),
/// so [`chain`](super::errors::chain) writes Go's whole text (`parse "<url>": <reason>`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UrlError {
    url: String,
    reason: UrlErrorReason,
}

impl UrlError {
    /// The URL as given.
    pub fn url(&self) -> &str {
        &self.url
    }

    /// Why it was refused.
    pub fn reason(&self) -> &UrlErrorReason {
        &self.reason
    }
}

impl fmt::Display for UrlError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "parse {}", quote(&self.url))
    }
}

impl std::error::Error for UrlError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        Some(&self.reason)
    }
}

/// Why a URL does not parse, in Go's words.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum UrlErrorReason {
    /// An ASCII control character (below U+0020, or U+007F) anywhere.
    #[error("net/url: invalid control character in URL")]
    ControlCharacter,
    /// The empty string.
    #[error("empty url")]
    Empty,
    /// A `:` first.
    #[error("missing protocol scheme")]
    MissingScheme,
    /// Neither an absolute URL nor an absolute path.
    #[error("invalid URI for request")]
    NotARequestUri,
    /// A relative reference (`url.Parse` only) whose first segment holds a `:`.
    #[error("first path segment in URL cannot contain colon")]
    ColonInFirstSegment,
    /// A character not allowed in the user information.
    #[error("net/url: invalid userinfo")]
    InvalidUserinfo,
    /// A `[` not at the start of the host, or brackets around an IPv4 address.
    #[error("invalid IP-literal")]
    InvalidIpLiteral,
    /// A `[` without its `]`.
    #[error("missing ']' in host")]
    MissingBracket,
    /// What follows the host is not `:digits`.
    #[error("invalid port {} after host", quote(.0))]
    InvalidPort(String),
    /// A `%` not followed by two hex digits, or escaping a byte the host may not escape (the
    /// escape as written, at most three bytes, which may cut a character).
    #[error("invalid URL escape {}", quote_bytes(.0))]
    InvalidEscape(Vec<u8>),
    /// A character a host may not hold.
    #[error("invalid character {} in host name", quote(.0))]
    InvalidHostCharacter(String),
    /// The inside of `[...]` is not an IPv6 address.
    #[error("invalid host")]
    InvalidHost(#[source] AddrParseError),
}

/// `url.ParseRequestURI(raw)` (Go 1.26, with its default of strict colons in `http`/`https`
/// hosts).
pub fn parse_request_uri(raw: &str) -> Result<RequestUri, UrlError> {
    parse_inner(raw, true).map_err(|reason| UrlError {
        url: raw.to_string(),
        reason,
    })
}

/// `url.Parse(raw)`, read for the proxy settings of [`httpproxy`](super::httpproxy): besides
/// what [`parse_request_uri`] reads, a relative reference (`path`, `//host/path`; `host:port`
/// is refused, its first segment holding a colon) and a `#fragment`, whose escapes are
/// checked (it has no accessor: only [`Display`](fmt::Display) writes it back).
pub(crate) fn parse(raw: &str) -> Result<RequestUri, UrlError> {
    let (before, fragment) = match raw.split_once('#') {
        Some((before, fragment)) => (before, Some(fragment)),
        None => (raw, None),
    };
    let url = parse_inner(before, false).map_err(|reason| UrlError {
        url: before.to_string(),
        reason,
    })?;
    let mut url = url;
    if let Some(fragment) = fragment.filter(|f| !f.is_empty()) {
        let unescaped =
            unescape(fragment.as_bytes(), Mode::Fragment).map_err(|reason| UrlError {
                url: raw.to_string(),
                reason,
            })?;
        url.fragment = Some((unescaped, fragment.to_string()));
    }
    Ok(url)
}

fn parse_inner(raw: &str, via_request: bool) -> Result<RequestUri, UrlErrorReason> {
    if raw.bytes().any(|b| b < b' ' || b == 0x7f) {
        return Err(UrlErrorReason::ControlCharacter);
    }
    if raw.is_empty() && via_request {
        return Err(UrlErrorReason::Empty);
    }
    let mut url = RequestUri::default();
    if raw == "*" {
        url.path = b"*".to_vec();
        url.raw_path = "*".to_string();
        return Ok(url);
    }
    let (scheme, rest) = scheme(raw)?;
    url.scheme = scheme.to_ascii_lowercase();
    let mut rest = rest;
    if rest.ends_with('?') && rest.matches('?').count() == 1 {
        url.force_query = true;
        rest = &rest[..rest.len() - 1];
    } else if let Some((before, query)) = rest.split_once('?') {
        url.raw_query = query.to_string();
        rest = before;
    }
    if !rest.starts_with('/') {
        if !url.scheme.is_empty() {
            url.opaque = rest.to_string();
            return Ok(url);
        }
        if via_request {
            return Err(UrlErrorReason::NotARequestUri);
        }
        // A relative reference whose first segment holds a colon would read as a scheme.
        if rest
            .split('/')
            .next()
            .is_some_and(|first| first.contains(':'))
        {
            return Err(UrlErrorReason::ColonInFirstSegment);
        }
    }
    let authority_follows = !url.scheme.is_empty() || !via_request && !rest.starts_with("///");
    if authority_follows && rest.starts_with("//") {
        let authority_and_path = &rest[2..];
        let (authority, path) = match authority_and_path.find('/') {
            Some(i) => authority_and_path.split_at(i),
            None => (authority_and_path, ""),
        };
        let (user, host) = parse_authority(&url.scheme, authority)?;
        url.user = user;
        url.host = host;
        rest = path;
    } else if !url.scheme.is_empty() && rest.starts_with('/') {
        url.omit_host = true;
    }
    url.path = unescape(rest.as_bytes(), Mode::Path)?;
    url.raw_path = rest.to_string();
    Ok(url)
}

/// `getScheme`: `[a-zA-Z][a-zA-Z0-9+.-]*:` at the start, or no scheme.
fn scheme(raw: &str) -> Result<(&str, &str), UrlErrorReason> {
    for (i, c) in raw.bytes().enumerate() {
        match c {
            b'a'..=b'z' | b'A'..=b'Z' => {}
            b'0'..=b'9' | b'+' | b'-' | b'.' if i > 0 => {}
            b':' if i == 0 => return Err(UrlErrorReason::MissingScheme),
            b':' => return Ok((&raw[..i], &raw[i + 1..])),
            _ => return Ok(("", raw)),
        }
    }
    Ok(("", raw))
}

fn parse_authority(
    scheme: &str,
    authority: &str,
) -> Result<(Option<UserInfo>, Vec<u8>), UrlErrorReason> {
    let at = authority.rfind('@');
    let host = parse_host(scheme, at.map_or(authority, |i| &authority[i + 1..]))?;
    let Some(at) = at else {
        return Ok((None, host));
    };
    let userinfo = &authority[..at];
    if !userinfo.chars().all(valid_userinfo_char) {
        return Err(UrlErrorReason::InvalidUserinfo);
    }
    let user = match userinfo.split_once(':') {
        None => UserInfo {
            username: unescape(userinfo.as_bytes(), Mode::UserPassword)?,
            password: None,
        },
        Some((name, password)) => UserInfo {
            username: unescape(name.as_bytes(), Mode::UserPassword)?,
            password: Some(unescape(password.as_bytes(), Mode::UserPassword)?),
        },
    };
    Ok((Some(user), host))
}

fn valid_userinfo_char(c: char) -> bool {
    c.is_ascii_alphanumeric()
        || matches!(
            c,
            '-' | '.'
                | '_'
                | ':'
                | '~'
                | '!'
                | '$'
                | '&'
                | '\''
                | '('
                | ')'
                | '*'
                | '+'
                | ','
                | ';'
                | '='
                | '%'
                | '@'
        )
}

/// `parseHost`: `host[:port]`, an IPv6 literal in brackets, escapes checked.
fn parse_host(scheme: &str, host: &str) -> Result<Vec<u8>, UrlErrorReason> {
    match host.rfind('[') {
        Some(i) if i > 0 => Err(UrlErrorReason::InvalidIpLiteral),
        Some(_) => {
            let close = host.rfind(']').ok_or(UrlErrorReason::MissingBracket)?;
            let colon_port = &host[close + 1..];
            if !valid_optional_port(colon_port) {
                return Err(UrlErrorReason::InvalidPort(colon_port.to_string()));
            }
            let colon_port = unescape(colon_port.as_bytes(), Mode::Host)?;
            let name = &host[1..close];
            let unescaped = match name.find("%25") {
                Some(zone) => {
                    let mut s = unescape(&name.as_bytes()[..zone], Mode::Host)?;
                    s.extend(unescape(&name.as_bytes()[zone..], Mode::Zone)?);
                    s
                }
                None => unescape(name.as_bytes(), Mode::Host)?,
            };
            let addr = netip::parse_addr_bytes(&unescaped).map_err(UrlErrorReason::InvalidHost)?;
            if addr.is_4() {
                return Err(UrlErrorReason::InvalidIpLiteral);
            }
            let mut out = Vec::with_capacity(unescaped.len() + colon_port.len() + 2);
            out.push(b'[');
            out.extend(unescaped);
            out.push(b']');
            out.extend(colon_port);
            Ok(out)
        }
        None => {
            if let Some(first) = host.find(':') {
                let last = host.rfind(':').unwrap_or(first);
                // Go 1.26 reads the port after the first colon for http and https (so a second
                // colon is an invalid port), after the last one for other schemes.
                let at = if last != first && !(scheme == "http" || scheme == "https") {
                    last
                } else {
                    first
                };
                let colon_port = &host[at..];
                if !valid_optional_port(colon_port) {
                    return Err(UrlErrorReason::InvalidPort(colon_port.to_string()));
                }
            }
            unescape(host.as_bytes(), Mode::Host)
        }
    }
}

/// Empty, or `:` followed by digits only.
fn valid_optional_port(port: &str) -> bool {
    port.is_empty()
        || port
            .strip_prefix(':')
            .is_some_and(|digits| digits.bytes().all(|b| b.is_ascii_digit()))
}

#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Mode {
    Path,
    Host,
    Zone,
    UserPassword,
    /// A fragment: only its escapes are checked.
    Fragment,
    /// A query key or value: `+` is a space.
    QueryComponent,
}

/// Whether Go's `shouldEscape` escapes `c` in a host or zone (the only modes whose unescaping
/// checks characters).
fn host_should_escape(c: u8) -> bool {
    !(c.is_ascii_alphanumeric()
        || matches!(
            c,
            b'!' | b'$'
                | b'&'
                | b'\''
                | b'('
                | b')'
                | b'*'
                | b'+'
                | b','
                | b';'
                | b'='
                | b':'
                | b'['
                | b']'
                | b'<'
                | b'>'
                | b'"'
                | b'-'
                | b'_'
                | b'.'
                | b'~'
        ))
}

fn unhex(c: u8) -> u8 {
    match c {
        b'0'..=b'9' => c - b'0',
        b'a'..=b'f' => c - b'a' + 10,
        _ => c - b'A' + 10,
    }
}

/// `unescape` for the modes above: `%XX` decoded, with Go's checks of what a host and a zone
/// may escape and hold. (`+` stays `+` outside a query component.)
pub(super) fn unescape(s: &[u8], mode: Mode) -> Result<Vec<u8>, UrlErrorReason> {
    let mut i = 0;
    while i < s.len() {
        match s[i] {
            b'%' => {
                if i + 2 >= s.len()
                    || !s[i + 1].is_ascii_hexdigit()
                    || !s[i + 2].is_ascii_hexdigit()
                {
                    let end = (i + 3).min(s.len());
                    return Err(UrlErrorReason::InvalidEscape(s[i..end].to_vec()));
                }
                let escape = &s[i..i + 3];
                if mode == Mode::Host && unhex(s[i + 1]) < 8 && escape != b"%25" {
                    return Err(UrlErrorReason::InvalidEscape(escape.to_vec()));
                }
                if mode == Mode::Zone {
                    let v = (unhex(s[i + 1]) << 4) | unhex(s[i + 2]);
                    if escape != b"%25" && v != b' ' && host_should_escape(v) {
                        return Err(UrlErrorReason::InvalidEscape(escape.to_vec()));
                    }
                }
                i += 3;
            }
            c => {
                if matches!(mode, Mode::Host | Mode::Zone) && c < 0x80 && host_should_escape(c) {
                    return Err(UrlErrorReason::InvalidHostCharacter(
                        char::from(c).to_string(),
                    ));
                }
                i += 1;
            }
        }
    }
    let mut out = Vec::with_capacity(s.len());
    let mut i = 0;
    while i < s.len() {
        match s[i] {
            b'%' => {
                out.push((unhex(s[i + 1]) << 4) | unhex(s[i + 2]));
                i += 3;
            }
            b'+' if mode == Mode::QueryComponent => {
                out.push(b' ');
                i += 1;
            }
            c => {
                out.push(c);
                i += 1;
            }
        }
    }
    Ok(out)
}
