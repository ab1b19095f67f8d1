//! Where an extension lives: its base URL from an ExtensionConfig's client config, and the
//! rules a client config and an ExtensionConfig must follow, as Cluster API's admission webhook
//! states them.
//!
//! One URL grammar serves both: Go's `url.ParseRequestURI` ([`crate::go::url`]), which Cluster
//! API's webhook checks `spec.clientConfig.url` with. On top of Cluster API, user info, a query
//! and a fragment are refused (the API documents them as not allowed; Cluster API does not
//! check), by the webhook and again when a URL is built.

use url::Url;

use crate::api::runtime::v1beta2::{ClientConfig, ExtensionConfig};
use crate::go::errors::chain;
use crate::go::field::{FieldError, FieldPath};
use crate::go::url::{self as gourl, RequestUri};
use crate::go::validation::{dns1035_label, dns1123_label, port_num};

use super::selector::label_selector;

/// Why the base URL of an extension could not be built.
///
/// Each variant's `Display` is its own layer in Cluster API's words (`failed to compute URL:
/// ...`); the cause, where there is one, is its `source()` (render the whole line with
/// [`chain`]).
#[derive(Debug, Clone, thiserror::Error)]
#[non_exhaustive]
pub enum UrlError {
    /// Neither `service` nor `url` is set.
    #[error("failed to compute URL: at least one of service and url should be defined in config")]
    Missing,
    /// The URL does not parse by Go's rules.
    #[error("failed to compute URL: failed to parse url from clientConfig")]
    Parse(#[source] gourl::UrlError),
    /// The URL parses but names no host.
    #[error(
        "failed to compute URL: failed to parse url from clientConfig: missing host in {url:?}"
    )]
    MissingHost {
        /// The URL as written (or as built from the service reference).
        url: String,
    },
    /// The URL is not `https`.
    #[error("failed to compute URL: expected https scheme, got {0}")]
    Scheme(String),
    /// The URL carries user info, a query or a fragment, which the API does not allow.
    #[error("failed to compute URL: url must not contain {0}")]
    Forbidden(&'static str),
    /// Go accepts the URL but the HTTP stack cannot call it (for example a port above 65535,
    /// which Go's parser takes and its dialer then refuses).
    #[error("failed to compute URL: url {url:?} cannot be called")]
    Unsupported {
        /// The URL as written.
        url: String,
        /// Why the HTTP stack's URL parser refused it.
        #[source]
        source: url::ParseError,
    },
}

/// The URL of a client config as written or built: the service reference wins when both are
/// set (as in Cluster API); `None` when neither is.
fn raw_url(config: &ClientConfig) -> Option<String> {
    if config.service.is_defined() {
        let s = &config.service;
        let port = s.port.map(|p| format!(":{p}")).unwrap_or_default();
        Some(format!(
            "https://{}.{}.svc{port}{}",
            s.name, s.namespace, s.path
        ))
    } else if config.url.is_empty() {
        None
    } else {
        Some(config.url.clone())
    }
}

/// The rules we add to Cluster API's for a URL Go accepted: no user info, no query, no
/// fragment (`#` is not special to `ParseRequestURI`, so it is looked for in the text).
fn forbidden_part(raw: &str, parsed: &RequestUri) -> Option<&'static str> {
    if parsed.user().is_some() {
        Some("user info")
    } else if !parsed.raw_query().is_empty() || parsed.force_query() {
        Some("a query")
    } else if raw.contains('#') {
        Some("a fragment")
    } else {
        None
    }
}

/// The base URL of an extension: `https://<service>.<namespace>.svc[:port]<path>` for a
/// service reference, otherwise the configured `url`. It must parse by Go's rules, be `https`,
/// name a host, and carry no user info, query or fragment.
pub fn extension_base_url(config: &ClientConfig) -> Result<Url, UrlError> {
    let raw = raw_url(config).ok_or(UrlError::Missing)?;
    let parsed = gourl::parse_request_uri(&raw).map_err(UrlError::Parse)?;
    if parsed.scheme() != "https" {
        return Err(UrlError::Scheme(parsed.scheme().to_string()));
    }
    if parsed.hostname().is_empty() {
        return Err(UrlError::MissingHost { url: raw });
    }
    if let Some(part) = forbidden_part(&raw, &parsed) {
        return Err(UrlError::Forbidden(part));
    }
    Url::parse(&raw).map_err(|source| UrlError::Unsupported { url: raw, source })
}

/// Cluster API's webhook rules for a client config at `path` (e.g. `spec.clientConfig`), in
/// its order, plus ours on URLs: exactly one of `url` and `service`; a `url` that
/// `ParseRequestURI` accepts, `https`, without user info, query or fragment; a service with a
/// name (DNS-1035 label) and a namespace (DNS-1123 label), a path that parses and starts with
/// `/`, a port in 1..=65535.
pub fn client_config(path: &FieldPath, config: &ClientConfig) -> Vec<FieldError> {
    let mut errors = Vec::new();
    let has_url = !config.url.is_empty();
    let has_service = config.service.is_defined();
    if !has_url && !has_service {
        errors.push(FieldError::required(
            path,
            "either url or service must be defined",
        ));
    }
    if has_url && has_service {
        errors.push(FieldError::forbidden(
            path,
            "only one of url or service can be defined",
        ));
    }
    if has_url {
        let at = path.child("url");
        let url = config.url.as_str();
        match gourl::parse_request_uri(url) {
            Err(e) => errors.push(FieldError::invalid(
                &at,
                url,
                format!(
                    "must be a valid URL, e.g. https://example.com: {}",
                    chain(&e)
                ),
            )),
            Ok(parsed) if parsed.scheme() != "https" => errors.push(FieldError::invalid(
                &at,
                url,
                "'https' is the only allowed URL scheme, e.g. https://example.com",
            )),
            Ok(parsed) => {
                if let Some(part) = forbidden_part(url, &parsed) {
                    errors.push(FieldError::invalid(
                        &at,
                        url,
                        format!("must not contain {part}"),
                    ));
                }
            }
        }
    }
    if has_service {
        let s = &config.service;
        let at = path.child("service");
        let name = at.child("name");
        if s.name.is_empty() {
            errors.push(FieldError::required(&name, "must not be empty"));
        }
        for reason in dns1035_label(&s.name) {
            errors.push(FieldError::invalid(&name, s.name.as_str(), reason));
        }
        let namespace = at.child("namespace");
        if s.namespace.is_empty() {
            errors.push(FieldError::required(&namespace, "must not be empty"));
        }
        for reason in dns1123_label(&s.namespace) {
            errors.push(FieldError::invalid(
                &namespace,
                s.namespace.as_str(),
                reason,
            ));
        }
        if !s.path.is_empty() {
            let at = at.child("path");
            if let Err(e) = gourl::parse_request_uri(&s.path) {
                errors.push(FieldError::invalid(
                    &at,
                    s.path.as_str(),
                    format!("must be a valid URL path e.g. /path/to/hook: {}", chain(&e)),
                ));
            }
            if !s.path.starts_with('/') {
                errors.push(FieldError::invalid(
                    &at,
                    s.path.as_str(),
                    "must start with \"/\" to be a valid URL path",
                ));
            }
        }
        if let Some(port) = s.port {
            for reason in port_num(port.into()) {
                errors.push(FieldError::invalid(&at.child("port"), port, reason));
            }
        }
    }
    errors
}

/// Every rule an ExtensionConfig breaks, as Cluster API's admission webhook checks it (besides
/// the feature gate), in its order: `metadata.name` a DNS-1123 label (it becomes the suffix of
/// every handler name), the client config ([`client_config`]), and a namespace selector that is
/// set and compiles ([`label_selector`](super::label_selector)).
pub fn extension_config(config: &ExtensionConfig) -> Vec<FieldError> {
    let mut errors = Vec::new();
    let name = config.metadata.name.as_deref().unwrap_or_default();
    let reasons = dns1123_label(name);
    if !reasons.is_empty() {
        errors.push(FieldError::invalid(
            &FieldPath::new("metadata").child("name"),
            name,
            format!(
                "ExtensionConfig name should be a valid DNS1123 label name: [{}]",
                reasons.join(" ")
            ),
        ));
    }
    let spec = FieldPath::new("spec");
    errors.extend(client_config(
        &spec.child("clientConfig"),
        &config.spec.client_config,
    ));
    errors.extend(label_selector(
        &spec.child("namespaceSelector"),
        config.spec.namespace_selector.as_ref(),
    ));
    errors
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::api::runtime::v1beta2::ServiceReference;
    use crate::go::field::ErrorType;

    fn url_config(url: &str) -> ClientConfig {
        ClientConfig {
            url: url.to_string(),
            ..Default::default()
        }
    }

    fn service(name: &str, namespace: &str, path: &str, port: Option<i32>) -> ClientConfig {
        ClientConfig {
            service: ServiceReference {
                name: name.into(),
                namespace: namespace.into(),
                path: path.into(),
                port,
            },
            ..Default::default()
        }
    }

    #[test]
    fn base_urls() {
        assert!(matches!(
            extension_base_url(&ClientConfig::default()),
            Err(UrlError::Missing)
        ));
        let e = extension_base_url(&url_config("https//x.com")).unwrap_err();
        assert_eq!(
            chain(&e).to_string(),
            "failed to compute URL: failed to parse url from clientConfig: \
             parse \"https//x.com\": invalid URI for request"
        );
        assert!(matches!(
            extension_base_url(&url_config("http://x.com")),
            Err(UrlError::Scheme(s)) if s == "http"
        ));
        assert!(matches!(
            extension_base_url(&url_config("https:///p")),
            Err(UrlError::MissingHost { .. })
        ));
        assert!(matches!(
            extension_base_url(&url_config("https://x:99999/")),
            Err(UrlError::Unsupported { .. })
        ));
        for (url, part) in [
            ("https://u@x/", "user info"),
            ("https://x/?a", "a query"),
            ("https://x/?", "a query"),
            ("https://x/#f", "a fragment"),
        ] {
            assert!(
                matches!(extension_base_url(&url_config(url)), Err(UrlError::Forbidden(p)) if p == part),
                "{url}"
            );
        }
        assert_eq!(
            extension_base_url(&service("svc", "ns", "/p", Some(8443)))
                .unwrap()
                .as_str(),
            "https://svc.ns.svc:8443/p"
        );
    }

    #[test]
    fn client_config_rules() {
        let p = FieldPath::new("spec").child("clientConfig");
        assert!(client_config(&p, &url_config("https://x.example/prefix")).is_empty());
        assert!(client_config(&p, &service("svc", "ns", "/p", Some(443))).is_empty());

        let none = client_config(&p, &ClientConfig::default());
        assert_eq!(none.len(), 1);
        assert_eq!(none[0].kind, ErrorType::Required);

        let mut both = service("svc", "ns", "", None);
        both.url = "https://x".into();
        assert_eq!(client_config(&p, &both)[0].kind, ErrorType::Forbidden);

        let bad_url = client_config(&p, &url_config("http://x"));
        assert_eq!(
            bad_url[0].to_string(),
            "spec.clientConfig.url: Invalid value: \"http://x\": 'https' is the only allowed \
             URL scheme, e.g. https://example.com"
        );

        let bad = client_config(&p, &service("1svc", "Bad", "no-slash", Some(0)));
        let fields: Vec<&str> = bad.iter().map(|e| e.field.as_str()).collect();
        assert_eq!(
            fields,
            [
                "spec.clientConfig.service.name",
                "spec.clientConfig.service.namespace",
                "spec.clientConfig.service.path",
                "spec.clientConfig.service.path",
                "spec.clientConfig.service.port",
            ]
        );
    }
}
