//! The rules of the Runtime SDK contract that both sides check, in one place and without a
//! feature gate: names (DNS-1123/1035 labels and subdomains, label keys and values, handler
//! names), handler timeouts and failure policies, `apiVersion` strings and hook identifiers,
//! extension URLs and service references, and compiled label selectors.
//!
//! Every check reports [`FieldError`]s shaped like apimachinery's `field.Error`: the path of the
//! offending field, a [`ErrorType`], the value that was rejected and a detail. Callers keep
//! their own wording on top (the discovery validation of the client, the registry, the server
//! builder, the ExtensionConfig admission webhook) and render from these parts, so the rule and
//! its reason exist once.
//!
//! ```
//! use capi_runtime::api::runtime::validation::{self, ErrorType, FieldPath};
//!
//! let path = FieldPath::new("handlers").index(0).child("name");
//! let err = validation::handler_name(&path, "Not_A_Label").unwrap_err();
//! assert_eq!(err.kind, ErrorType::Invalid);
//! assert_eq!(err.field, "handlers[0].name");
//! assert!(err.to_string().starts_with("handlers[0].name: Invalid value: \"Not_A_Label\": "));
//!
//! // A timeout of 0 is accepted and means the 10 s default when calling.
//! let seconds = validation::timeout_seconds(&FieldPath::new("timeoutSeconds"), Some(0)).unwrap();
//! assert_eq!(validation::call_timeout(seconds).as_secs(), 10);
//! ```
//!
//! For the server builder (handler registration) the calls are [`handler_name`],
//! [`timeout_seconds`] (with `Some(i64::from(seconds))`) and [`call_timeout`]; for an admission
//! webhook, [`extension_config`] (or its parts [`client_config`] and [`label_selector`]); for
//! the runtime client,
//! [`extension_base_url`] and [`NamespaceSelector::compile`].

mod hooks;
mod selector;
mod url;

pub use crate::go::field::{BadValue, ErrorType, FieldError, FieldPath};
pub use crate::go::validation::{
    DNS1035_LABEL_MAX_LENGTH, DNS1123_LABEL_MAX_LENGTH, DNS1123_SUBDOMAIN_MAX_LENGTH,
    LABEL_VALUE_MAX_LENGTH, dns1035_label, dns1123_label, dns1123_subdomain, label_value,
    qualified_name,
};
pub use hooks::{
    DEFAULT_TIMEOUT_SECONDS, GroupVersionError, HandlerNameError, MAX_TIMEOUT_SECONDS,
    call_timeout, extension_name_from_handler_name, failure_policy, handler_name, name_for_handler,
    parse_group_version, parse_hook_api_version, timeout_seconds,
};
pub use selector::{NAMESPACE_NAME_LABEL, NamespaceSelector, SelectorError, label_selector};
pub use url::{UrlError, client_config, extension_base_url, extension_config};
