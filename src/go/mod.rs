//! Go's rules, once: the behaviours of Go's standard library and of Kubernetes' apimachinery
//! that the Runtime SDK contract is written in, for every crate of the workspace and for its
//! users, without a feature.
//!
//! Cluster API is a Go program. Where its contract is "what Go does" (how a duration is
//! written, how errors are joined into one line, which URLs a webhook accepts, how a rejected
//! value is shown), the answer must be the same here, not a resemblance of it. Each public
//! submodule is named after the Go package whose behaviour it reproduces, and holds what a
//! user of the contract calls:
//!
//! | module | Go | what |
//! |---|---|---|
//! | [`errors`] | `k8s.io/apimachinery/pkg/util/errors`, `fmt.Errorf("…: %w")` | [`errors::Aggregate`] (`NewAggregate` and its text), [`errors::chain`] (an error and its causes on one line, as Go's wrapping prints them) |
//! | [`time`] | `time.ParseDuration`, `Duration.String`, `time.Parse(time.RFC3339, ..)` | [`time::Duration`], [`time::parse_duration`], [`time::format_duration`], [`time::parse_rfc3339`] |
//! | [`field`] | `k8s.io/apimachinery/pkg/util/validation/field`, `errors.NewInvalid` | [`field::FieldError`], [`field::FieldPath`]: field errors and their text; [`field::invalid_message`] |
//! | [`validation`] | `k8s.io/apimachinery/pkg/util/validation` | `IsDNS1123Label` and the other name rules, `IsValidPortNum` |
//! | [`labels`] | `metav1.LabelSelectorAsSelector`, `FormatLabelSelector`, `labels.Selector` | [`labels::label_selector_as_selector`], [`labels::format_label_selector`] |
//! | [`url`] | `url.ParseRequestURI` | [`url::parse_request_uri`], the grammar of an ExtensionConfig's URL, with Go's errors; `URL.String()` as `Display` |
//!
//! The crate keeps more of Go to itself, for its transport: `strconv.Quote` (how `%q` shows a
//! string), `json.Marshal` of a string, `base64.StdEncoding` (a `[]byte` on the wire),
//! `netip.ParseAddr`, `url.Parse` and `url.ParseQuery` (a proxy setting, a hook call's
//! `?timeout=`), and `http.ProxyFromEnvironment`'s choice of proxy (configured through
//! `client::ProxyConfig`, feature `client`). They are not part of the API.
//!
//! Every function here, public or not, is checked against the Go function itself: the test
//! `interop/oracle/tests/go_rules.rs` runs a Go program (`interop/capi/cmd/go-rules`, built
//! from the module versions Cluster API v1.14 uses) that calls the real Go code over the same
//! corpus as the Rust side, and compares the results.

pub mod errors;
pub mod field;
pub mod labels;
pub mod time;
pub mod url;
pub mod validation;

// The transport's own Go rules. Their items are `pub` so that `__private::go` can hand them
// to the Go-oracle tests of the workspace; the modules are not.
pub(crate) mod base64;
pub(crate) mod httpproxy;
pub(crate) mod json;
pub(crate) mod netip;
mod print_ranges;
pub(crate) mod strconv;
