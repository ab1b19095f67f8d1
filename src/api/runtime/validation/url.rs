//! Where an extension lives: its base URL from an ExtensionConfig's client config, and the
//! rules a client config must follow.

use url::Url;

use super::field::{FieldError, FieldPath};
use super::names::{dns1035_label, dns1123_label};
use super::selector::label_selector;
use crate::api::runtime::v1beta2::{ClientConfig, ExtensionConfig};

/// Why the base URL of an extension could not be built.
///
/// Messages follow Cluster API's wording, which carries the cause; the cause is also kept as a
/// value where there is one ([`UrlError::Parse`]).
#[derive(Debug, Clone, thiserror::Error)]
#[non_exhaustive]
pub enum UrlError {
    /// Neither `service` nor `url` is set.
    #[error("failed to compute URL: at least one of service and url should be defined in config")]
    Missing,
    /// `url` does not parse.
    #[error("failed to compute URL: failed to parse url from clientConfig: {0}")]
    Parse(url::ParseError),
    /// `url` parses but has no host.
    #[error(
        "failed to compute URL: failed to parse url from clientConfig: missing host in {url:?}"
    )]
    MissingHost {
        /// The URL as written (or as built from the service reference).
        url: String,
    },
    /// `url` is not `https`.
    #[error("failed to compute URL: expected https scheme, got {0}")]
    Scheme(String),
    /// `url` carries user info, a query or a fragment, which the API does not allow.
    #[error("failed to compute URL: url must not contain {0}")]
    Forbidden(&'static str),
}

/// The base URL of an extension: `https://<service>.<namespace>.svc[:port]<path>` for a
/// service reference (which wins when both are set), otherwise the configured `url`. It must
/// be `https`, name a host, and carry no user info, query or fragment (unlike Cluster API,
/// which only documents the last three).
pub fn extension_base_url(config: &ClientConfig) -> Result<Url, UrlError> {
    let raw = if config.service.is_defined() {
        let s = &config.service;
        let port = s.port.map(|p| format!(":{p}")).unwrap_or_default();
        format!("https://{}.{}.svc{port}{}", s.name, s.namespace, s.path)
    } else if config.url.is_empty() {
        return Err(UrlError::Missing);
    } else {
        config.url.clone()
    };
    let url = Url::parse(&raw).map_err(UrlError::Parse)?;
    if url.scheme() != "https" {
        return Err(UrlError::Scheme(url.scheme().to_string()));
    }
    if url.host_str().is_none_or(str::is_empty) {
        return Err(UrlError::MissingHost { url: raw });
    }
    if !url.username().is_empty() || url.password().is_some() {
        return Err(UrlError::Forbidden("user info"));
    }
    if url.query().is_some() {
        return Err(UrlError::Forbidden("a query"));
    }
    if url.fragment().is_some() {
        return Err(UrlError::Forbidden("a fragment"));
    }
    Ok(url)
}

/// Every rule an ExtensionConfig's client config at `path` (e.g. `spec.clientConfig`)
/// breaks, as the admission webhook reports them: exactly one of `url` and `service`; a `url`
/// that [`extension_base_url`] accepts; a service with a DNS-1035 name, a DNS-1123 namespace,
/// a path starting with `/` and a port in 1..=65535.
pub fn client_config(path: &FieldPath, config: &ClientConfig) -> Vec<FieldError> {
    let mut errors = Vec::new();
    let has_url = !config.url.is_empty();
    let has_service = config.service.is_defined();
    match (has_url, has_service) {
        (false, false) => errors.push(FieldError::required(
            path,
            "either url or service must be defined",
        )),
        (true, true) => errors.push(FieldError::forbidden(
            path,
            "only one of url or service can be defined",
        )),
        _ => {}
    }
    if has_url && !has_service {
        let url_path = path.child("url");
        if let Err(e) = extension_base_url(config) {
            let detail = e.to_string();
            let detail = detail
                .strip_prefix("failed to compute URL: ")
                .unwrap_or(&detail);
            errors.push(FieldError::invalid(&url_path, config.url.as_str(), detail));
        }
    }
    if has_service {
        let s = &config.service;
        let service = path.child("service");
        for (field, value, reasons) in [
            ("name", &s.name, dns1035_label(&s.name)),
            ("namespace", &s.namespace, dns1123_label(&s.namespace)),
        ] {
            if value.is_empty() {
                errors.push(FieldError::required(
                    &service.child(field),
                    "must not be empty",
                ));
            } else if !reasons.is_empty() {
                errors.push(FieldError::invalid(
                    &service.child(field),
                    value.as_str(),
                    reasons.join(", "),
                ));
            }
        }
        if !s.path.is_empty() && !s.path.starts_with('/') {
            errors.push(FieldError::invalid(
                &service.child("path"),
                s.path.as_str(),
                "must be a valid URI path e.g. /path/to/hook",
            ));
        }
        if let Some(port) = s.port
            && !(1..=65535).contains(&port)
        {
            errors.push(FieldError::invalid(
                &service.child("port"),
                port,
                "must be in range 1-65535 inclusive",
            ));
        }
    }
    errors
}

/// Every rule an ExtensionConfig breaks that does not need the cluster (what the admission
/// webhook checks besides the feature gate): `metadata.name` a DNS-1123 label (it becomes the
/// suffix of every handler name), the client config ([`client_config`]) and a namespace
/// selector that compiles ([`label_selector`]).
pub fn extension_config(config: &ExtensionConfig) -> Vec<FieldError> {
    let mut errors = Vec::new();
    let name = config.metadata.name.as_deref().unwrap_or_default();
    let name_path = FieldPath::new("metadata").child("name");
    if name.is_empty() {
        errors.push(FieldError::required(&name_path, "name is required"));
    } else {
        let reasons = dns1123_label(name);
        if !reasons.is_empty() {
            errors.push(FieldError::invalid(&name_path, name, reasons.join(", ")));
        }
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
    use crate::api::runtime::validation::ErrorType;

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
        assert!(matches!(
            extension_base_url(&url_config("https//x.com")),
            Err(UrlError::Parse(url::ParseError::RelativeUrlWithoutBase))
        ));
        assert!(matches!(
            extension_base_url(&url_config("http://x.com")),
            Err(UrlError::Scheme(s)) if s == "http"
        ));
        assert!(matches!(
            extension_base_url(&url_config("https://")),
            Err(UrlError::Parse(url::ParseError::EmptyHost))
        ));
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
            "spec.clientConfig.url: Invalid value: \"http://x\": expected https scheme, got http"
        );

        let bad = client_config(&p, &service("1svc", "Bad", "no-slash", Some(0)));
        let fields: Vec<&str> = bad.iter().map(|e| e.field.as_str()).collect();
        assert_eq!(
            fields,
            [
                "spec.clientConfig.service.name",
                "spec.clientConfig.service.namespace",
                "spec.clientConfig.service.path",
                "spec.clientConfig.service.port",
            ]
        );
        let missing = client_config(&p, &service("", "", "", Some(443)));
        assert!(
            missing.iter().all(|e| e.kind == ErrorType::Required),
            "{missing:?}"
        );
    }
}
