//! Where a handler lives: the URL of a hook call, built from an ExtensionConfig's client
//! config, the hook's path and the call timeout.

use std::time::Duration;

use url::Url;

use crate::catalog::{HookId, gvh_to_path};
use crate::go::time::format_duration;

pub use crate::api::runtime::validation::extension_base_url as base_url;

/// The URL of a handler: the base URL with the hook path joined to its path and the timeout
/// as the `timeout` query parameter, e.g. `https://host/prefix/<group>/<version>/<hook>/<name>?timeout=10s`.
pub(crate) fn handler_url(base: &Url, gvh: &HookId, handler_name: &str, timeout: Duration) -> Url {
    let mut url = base.clone();
    let joined = clean_join(base.path(), &gvh_to_path(gvh, handler_name));
    url.set_path(&joined);
    url.query_pairs_mut()
        .append_pair("timeout", &format_duration(timeout));
    url
}

/// Joins two slash-separated paths and cleans the result like Go's `path.Join`: repeated
/// slashes collapse, `.` and `..` are resolved, and there is no trailing slash.
pub(crate) fn clean_join(base: &str, tail: &str) -> String {
    let mut parts: Vec<&str> = Vec::new();
    for segment in base.split('/').chain(tail.split('/')) {
        match segment {
            "" | "." => {}
            ".." => {
                parts.pop();
            }
            s => parts.push(s),
        }
    }
    format!("/{}", parts.join("/"))
}

pub(crate) use crate::registry::host_of;

/// The host with the port when one is written, as the metrics label it.
pub(crate) fn host_label(url: &Url) -> String {
    match url.port() {
        Some(p) => format!("{}:{p}", url.host_str().unwrap_or_default()),
        None => url.host_str().unwrap_or_default().to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::api::runtime::v1beta2::{ClientConfig, ServiceReference};
    use crate::api::runtime::validation::UrlError;

    fn gvh() -> HookId {
        HookId::new("test.runtime.cluster.x-k8s.io", "v1alpha1", "FakeHook")
    }

    fn url_config(url: &str) -> ClientConfig {
        ClientConfig {
            url: url.to_string(),
            ..Default::default()
        }
    }

    #[test]
    fn service_reference_builds_a_cluster_dns_url() {
        let config = ClientConfig {
            service: ServiceReference {
                namespace: "test1".into(),
                name: "extension-service".into(),
                path: String::new(),
                port: Some(8443),
            },
            ca_bundle: k8s_openapi::ByteString(b"ca".to_vec()),
            ..Default::default()
        };
        let url = handler_url(
            &base_url(&config).unwrap(),
            &gvh(),
            "test-handler",
            Duration::from_secs(1),
        );
        assert_eq!(url.scheme(), "https");
        assert_eq!(host_label(&url), "extension-service.test1.svc:8443");
        assert_eq!(
            url.path(),
            "/test.runtime.cluster.x-k8s.io/v1alpha1/fakehook/test-handler"
        );
        assert_eq!(url.query(), Some("timeout=1s"));
    }

    #[test]
    fn service_wins_over_url_and_port_is_optional() {
        let config = ClientConfig {
            url: "https://ignored.example".into(),
            service: ServiceReference {
                namespace: "ns".into(),
                name: "svc".into(),
                path: "/prefix/".into(),
                port: None,
            },
            ..Default::default()
        };
        let base = base_url(&config).unwrap();
        assert_eq!(base.as_str(), "https://svc.ns.svc/prefix/");
        let url = handler_url(&base, &gvh(), "", Duration::from_secs(10));
        assert_eq!(
            url.as_str(),
            "https://svc.ns.svc/prefix/test.runtime.cluster.x-k8s.io/v1alpha1/fakehook?timeout=10s"
        );
    }

    #[test]
    fn url_paths_are_joined_cleanly() {
        for (base, want) in [
            ("https://extension-host.com", "/x/v1/fakehook/h"),
            ("https://extension-host.com/", "/x/v1/fakehook/h"),
            (
                "https://extension-host.com/prefix/",
                "/prefix/x/v1/fakehook/h",
            ),
            (
                "https://extension-host.com//a/./b/../c",
                "/a/c/x/v1/fakehook/h",
            ),
        ] {
            let url = handler_url(
                &base_url(&url_config(base)).unwrap(),
                &HookId::new("x", "v1", "FakeHook"),
                "H",
                Duration::from_secs(30),
            );
            assert_eq!(url.path(), want, "{base}");
            assert_eq!(url.host_str(), Some("extension-host.com"));
        }
    }

    #[test]
    fn invalid_urls_are_rejected() {
        assert!(matches!(
            base_url(&ClientConfig::default()),
            Err(UrlError::Missing)
        ));
        assert!(matches!(
            base_url(&url_config("https//x.com")),
            Err(UrlError::Parse(_))
        ));
        for http in ["http://x.com", "HTTP://x.com"] {
            assert!(
                matches!(base_url(&url_config(http)), Err(UrlError::Scheme(s)) if s == "http"),
                "{http}"
            );
        }
        assert!(matches!(
            base_url(&url_config("unknown://x.com")),
            Err(UrlError::Scheme(_))
        ));
        for bad in [
            "https://u:p@x.com",
            "https://x.com/?a=b",
            "https://x.com/#f",
        ] {
            assert!(
                matches!(base_url(&url_config(bad)), Err(UrlError::Forbidden(_))),
                "{bad}"
            );
        }
        assert!(base_url(&url_config("HTTPS://X.com")).is_ok());
    }

    #[test]
    fn the_timeout_is_written_as_go_writes_a_duration() {
        let base = Url::parse("https://x.example").unwrap();
        for (timeout, text) in [
            (Duration::from_secs(1), "1s"),
            (Duration::from_secs(90), "1m30s"),
            (Duration::from_secs(3600), "1h0m0s"),
            (Duration::from_millis(1500), "1.5s"),
        ] {
            let url = handler_url(&base, &gvh(), "h", timeout);
            assert_eq!(url.query(), Some(format!("timeout={text}").as_str()));
        }
    }
}
