//! Go's rules, once: the behaviours of Go's standard library and of Kubernetes' apimachinery
//! that the Runtime SDK contract is written in, for every crate of the workspace and for its
//! users, without a feature.
//!
//! Cluster API is a Go program. Where its contract is "what Go does" (how a `?timeout=` is
//! read, how errors are joined into one line, which URLs a webhook accepts, how a rejected
//! value is shown), the answer must be the same here, not a resemblance of it. Each submodule
//! is named after the Go package whose behaviour it reproduces:
//!
//! | module | Go | what |
//! |---|---|---|
//! | [`errors`] | `k8s.io/apimachinery/pkg/util/errors`, `fmt.Errorf("…: %w")` | [`errors::Aggregate`] (`NewAggregate` and its text), [`errors::chain`] (an error and its causes on one line, as Go's wrapping prints them) |
//! | [`time`] | `time.ParseDuration`, `Duration.String` | [`time::Duration`], [`time::parse_duration`], [`time::format_duration`] |
//! | [`strconv`] | `strconv.Quote`, `strconv.IsPrint` | how `%q` shows a string |
//! | [`json`] | `encoding/json` | how `json.Marshal` writes a string |
//! | [`url`] | `url.ParseRequestURI`, `url.Parse`, `url.ParseQuery` | [`url::parse_request_uri`], [`url::parse`], [`url::parse_query`], with Go's errors; `URL.String()` as `Display` |
//! | [`httpproxy`] | `golang.org/x/net/http/httpproxy` (`http.ProxyFromEnvironment`), apimachinery's `NewProxierWithNoProxyCIDR` | [`httpproxy::ProxyConfig`] (`HTTP_PROXY`, `HTTPS_PROXY`, `NO_PROXY`), [`httpproxy::ProxyFunc`]: which proxy a request goes through, if any |
//! | [`netip`] | `netip.ParseAddr` | [`netip::parse_addr`] (IPv6 literals of URLs) |
//! | [`field`] | `k8s.io/apimachinery/pkg/util/validation/field` | [`field::FieldError`], [`field::FieldPath`]: field errors and their text |
//! | [`validation`] | `k8s.io/apimachinery/pkg/util/validation` | `IsDNS1123Label` and the other name rules, `IsValidPortNum` |
//! | [`labels`] | `metav1.LabelSelectorAsSelector`, `FormatLabelSelector`, `labels.Selector` | [`labels::label_selector_as_selector`], [`labels::format_label_selector`] |
//!
//! Every function here is checked against the Go function itself: the test
//! `testenv/tests/go_rules.rs` runs a Go program (`interop/capi/cmd/go-rules`, built from the
//! module versions Cluster API v1.14 uses) that calls the real Go code over the same corpus as
//! the Rust side, and compares the results.

pub mod base64;
pub mod errors;
pub mod field;
pub mod httpproxy;
pub mod json;
pub mod labels;
pub mod netip;
mod print_ranges;
pub mod strconv;
pub mod time;
pub mod url;
pub mod validation;
