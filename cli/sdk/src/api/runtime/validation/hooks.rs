//! Rules about handlers and the hooks they serve: names, timeouts, failure policies,
//! `apiVersion` strings.

use std::time::Duration;

use crate::api::runtime::v1beta2::FailurePolicy;
use crate::go::field::{FieldError, FieldPath};
use crate::go::validation::dns1123_label;

/// The timeout of a handler that does not ask for one, and the deadline a recorded timeout of
/// 0 stands for, in seconds (upstream's `DefaultHandlersTimeoutSeconds`).
pub const DEFAULT_TIMEOUT_SECONDS: i32 = 10;

/// The longest timeout a handler may ask for, in seconds.
pub const MAX_TIMEOUT_SECONDS: i32 = 30;

/// Checks a handler name: it must be a DNS-1123 label, because it becomes the first part of
/// `<handler>.<extensionconfig>` and the last segment of the handler's URL path. The detail
/// lists Kubernetes' reasons, joined with `", "`.
pub fn handler_name(path: &FieldPath, name: &str) -> Result<(), FieldError> {
    let reasons = dns1123_label(name);
    if reasons.is_empty() {
        Ok(())
    } else {
        Err(FieldError::invalid(path, name, reasons.join(", ")))
    }
}

/// The full name of a discovered handler: `<handler>.<extensionconfig>`.
pub fn name_for_handler(handler: &str, extension_config: &str) -> String {
    format!("{handler}.{extension_config}")
}

/// Why a full handler name cannot be split.
#[derive(Debug, Clone, thiserror::Error)]
#[error(
    "registered handler name {name} was not in the expected format (`HANDLER_NAME.EXTENSION_NAME)"
)]
#[non_exhaustive]
pub struct HandlerNameError {
    /// The name as given.
    pub name: String,
}

/// The ExtensionConfig part of a full handler name (`discover-variables.runtime1` gives
/// `runtime1`). Names with more or fewer than one dot are refused.
pub fn extension_name_from_handler_name(full: &str) -> Result<&str, HandlerNameError> {
    match full.split('.').collect::<Vec<_>>().as_slice() {
        [_, extension] => Ok(extension),
        _ => Err(HandlerNameError {
            name: full.to_string(),
        }),
    }
}

/// Checks a `timeoutSeconds` as written (any integer, so that out-of-range values can be
/// reported as they were) and returns the value to record: the written one, or
/// [`DEFAULT_TIMEOUT_SECONDS`] when absent. Allowed: `0..=30`, where 0 is kept as written
/// and means the default when calling (see [`call_timeout`]).
pub fn timeout_seconds(path: &FieldPath, written: Option<i64>) -> Result<i32, FieldError> {
    let seconds = written.unwrap_or(DEFAULT_TIMEOUT_SECONDS.into());
    match i32::try_from(seconds) {
        Ok(s) if (0..=MAX_TIMEOUT_SECONDS).contains(&s) => Ok(s),
        _ => Err(FieldError::invalid(
            path,
            seconds,
            format!("must be between 0 and {MAX_TIMEOUT_SECONDS}"),
        )),
    }
}

/// The deadline of a call to a handler with the recorded `timeout_seconds`: that many
/// seconds, or [`DEFAULT_TIMEOUT_SECONDS`] when it is 0 (or negative, which validation never
/// records). The one place where "0 means the default" is decided.
pub fn call_timeout(timeout_seconds: i32) -> Duration {
    let seconds = if timeout_seconds > 0 {
        timeout_seconds
    } else {
        DEFAULT_TIMEOUT_SECONDS
    };
    Duration::from_secs(seconds.unsigned_abs().into())
}

/// Checks a `failurePolicy` as written: `Fail` (also when absent) or `Ignore`, case-sensitive.
pub fn failure_policy(
    path: &FieldPath,
    written: Option<&str>,
) -> Result<FailurePolicy, FieldError> {
    match written.unwrap_or("Fail") {
        "Fail" => Ok(FailurePolicy::Fail),
        "Ignore" => Ok(FailurePolicy::Ignore),
        other => Err(FieldError::not_supported(
            path,
            other,
            "must equal \"Ignore\" or \"Fail\"",
        )),
    }
}

/// Why an `apiVersion` is not `<group>/<version>`.
#[derive(Debug, Clone, thiserror::Error)]
#[error("unexpected GroupVersion string: {api_version}")]
#[non_exhaustive]
pub struct GroupVersionError {
    /// The string as written.
    pub api_version: String,
}

impl GroupVersionError {
    /// The field error for the `apiVersion` at `path`.
    pub fn to_field_error(&self, path: &FieldPath) -> FieldError {
        FieldError::invalid(path, self.api_version.as_str(), self.to_string())
    }
}

/// Splits an `apiVersion` the way Kubernetes' `ParseGroupVersion` does: a bare `v1` is the
/// core (empty) group, an empty string (or `/`) is the empty group-version, more than one `/`
/// is an error. This is what the registry accepts in an ExtensionConfig's status.
pub fn parse_group_version(api_version: &str) -> Result<(&str, &str), GroupVersionError> {
    if api_version.is_empty() || api_version == "/" {
        return Ok(("", ""));
    }
    let parts: Vec<&str> = api_version.split('/').collect();
    match parts.as_slice() {
        [version] => Ok(("", version)),
        [group, version] => Ok((group, version)),
        _ => Err(GroupVersionError {
            api_version: api_version.to_string(),
        }),
    }
}

/// Splits the `apiVersion` of a hook identifier, which must name both a group and a version
/// (`<group>/<version>`, both non-empty, one `/`). `None` otherwise.
pub fn parse_hook_api_version(api_version: &str) -> Option<(&str, &str)> {
    let (group, version) = api_version.split_once('/')?;
    if group.is_empty() || version.is_empty() || version.contains('/') {
        return None;
    }
    Some((group, version))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::api::runtime::validation::ErrorType;

    #[test]
    fn the_default_timeout_is_the_hooks_one() {
        assert_eq!(
            DEFAULT_TIMEOUT_SECONDS,
            crate::hooks::v1alpha1::DEFAULT_HANDLERS_TIMEOUT_SECONDS
        );
    }

    #[test]
    fn timeouts() {
        let p = FieldPath::new("timeoutSeconds");
        assert_eq!(timeout_seconds(&p, None).unwrap(), 10);
        assert_eq!(timeout_seconds(&p, Some(0)).unwrap(), 0);
        assert_eq!(timeout_seconds(&p, Some(30)).unwrap(), 30);
        for bad in [-1, 31, i64::from(i32::MAX) + 1, i64::MIN] {
            let err = timeout_seconds(&p, Some(bad)).unwrap_err();
            assert_eq!(err.kind, ErrorType::Invalid);
            assert_eq!(err.detail, "must be between 0 and 30");
            assert_eq!(
                err.to_string(),
                format!("timeoutSeconds: Invalid value: {bad}: must be between 0 and 30")
            );
        }
        assert_eq!(call_timeout(0), Duration::from_secs(10));
        assert_eq!(call_timeout(-5), Duration::from_secs(10));
        assert_eq!(call_timeout(3), Duration::from_secs(3));
    }

    #[test]
    fn failure_policies() {
        let p = FieldPath::new("failurePolicy");
        assert_eq!(failure_policy(&p, None).unwrap(), FailurePolicy::Fail);
        assert_eq!(
            failure_policy(&p, Some("Ignore")).unwrap(),
            FailurePolicy::Ignore
        );
        let err = failure_policy(&p, Some("ignore")).unwrap_err();
        assert_eq!(err.kind, ErrorType::NotSupported);
    }

    #[test]
    fn handler_names() {
        let p = FieldPath::new("name");
        assert!(handler_name(&p, "before-cluster-create").is_ok());
        let err = handler_name(&p, "").unwrap_err();
        assert!(
            err.detail.starts_with("a lowercase RFC 1123 label"),
            "{err}"
        );
        let full = name_for_handler("discover-variables", "runtime1");
        assert_eq!(full, "discover-variables.runtime1");
        assert_eq!(extension_name_from_handler_name(&full).unwrap(), "runtime1");
        assert!(extension_name_from_handler_name("discover-variables.runtime.1").is_err());
        assert!(extension_name_from_handler_name("no-dot").is_err());
    }

    #[test]
    fn group_versions() {
        assert_eq!(parse_group_version("").unwrap(), ("", ""));
        assert_eq!(parse_group_version("/").unwrap(), ("", ""));
        assert_eq!(parse_group_version("v1").unwrap(), ("", "v1"));
        assert_eq!(parse_group_version("g/v").unwrap(), ("g", "v"));
        let err = parse_group_version("a/b/c").unwrap_err();
        assert_eq!(err.to_string(), "unexpected GroupVersion string: a/b/c");
        assert_eq!(parse_hook_api_version("g/v"), Some(("g", "v")));
        for bad in ["", "v1alpha1", "/v1", "g/", "g/v/x"] {
            assert_eq!(parse_hook_api_version(bad), None, "{bad:?}");
        }
    }
}
