//! One registered handler, and how an ExtensionConfig becomes registrations.

use std::collections::BTreeMap;
use std::sync::{Arc, OnceLock};
use std::time::Duration;

use crate::api::runtime::v1beta2::{ClientConfig, ExtensionConfig, FailurePolicy};
use crate::api::runtime::validation::{self, NamespaceSelector};
use crate::catalog::HookId;

use super::error::{HandlerError, RegistryError};

/// One discovered handler: where it is, which hook it serves and how to call it.
///
/// Registrations are immutable and shared (`Arc`) between the registry and the calls in flight.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub struct Registration {
    /// The full handler name, `<handler>.<extensionconfig>`.
    pub name: String,
    /// The name of the ExtensionConfig that declared the handler.
    pub extension_config_name: String,
    /// The ExtensionConfig's `metadata.resourceVersion` when it was added.
    pub extension_config_resource_version: String,
    /// The hook the handler implements, in the version the extension serves.
    pub gvh: HookId,
    /// Which namespaces the handler serves.
    pub namespace_selector: NamespaceSelector,
    /// How to reach the extension (shared by every handler of the ExtensionConfig).
    pub client_config: Arc<ClientConfig>,
    /// Seconds to wait for an answer; 0 means the default of 10 s.
    pub timeout_seconds: i32,
    /// What a failed call means; absent in the status means `Fail`.
    pub failure_policy: FailurePolicy,
    /// The ExtensionConfig's settings, merged into every request.
    pub settings: Arc<BTreeMap<String, String>>,
    /// Where the client calls the handler, worked out at the first call and kept.
    pub(crate) call_url: CallUrlCell,
}

/// A handler's URL and the host forms the client uses, made from the registration's client
/// config, hook, name and timeout: every call of a registration goes to the same place.
#[derive(Clone, Debug)]
pub(crate) struct CallUrl {
    /// The full URL, query included.
    pub(crate) url: url::Url,
    /// The host without the port (the HTTP-client cache key).
    pub(crate) host: String,
    /// The host with the port when one is written (the metrics label).
    pub(crate) host_label: String,
}

/// The [`CallUrl`] of a registration once a call worked it out. It takes no part in
/// comparisons, and a copy starts empty: a copy's fields may be changed.
#[derive(Default)]
pub(crate) struct CallUrlCell(OnceLock<CallUrl>);

impl CallUrlCell {
    /// The kept URL, or the one `make` gives (kept when it is one).
    pub(crate) fn get_or_make<E>(
        &self,
        make: impl FnOnce() -> Result<CallUrl, E>,
    ) -> Result<&CallUrl, E> {
        if let Some(url) = self.0.get() {
            return Ok(url);
        }
        let url = make()?;
        Ok(self.0.get_or_init(|| url))
    }
}

impl Clone for CallUrlCell {
    fn clone(&self) -> Self {
        CallUrlCell::default()
    }
}

impl PartialEq for CallUrlCell {
    fn eq(&self, _: &Self) -> bool {
        true
    }
}

impl std::fmt::Debug for CallUrlCell {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("CallUrlCell")
    }
}

impl Registration {
    /// The call deadline: the handler's timeout, or 10 s when it is 0 (see
    /// [`validation::call_timeout`]).
    pub fn timeout(&self) -> Duration {
        validation::call_timeout(self.timeout_seconds)
    }

    /// The handler's own name: the full name without the `.<extensionconfig>` suffix. This
    /// is the last segment of the handler's URL path.
    pub fn handler_short_name(&self) -> &str {
        self.name
            .strip_suffix(&self.extension_config_name)
            .and_then(|s| s.strip_suffix('.'))
            .unwrap_or(&self.name)
    }
}

/// Builds the registrations of an ExtensionConfig from its status. All or nothing: any
/// invalid handler fails the whole config.
pub(crate) fn registrations_of(
    config: &ExtensionConfig,
) -> Result<Vec<Arc<Registration>>, RegistryError> {
    let config_name = config.metadata.name.clone().unwrap_or_default();
    let namespace_selector = NamespaceSelector::compile(config.spec.namespace_selector.as_ref())
        .map_err(|error| RegistryError::InvalidSelector {
            config: config_name.clone(),
            error: Box::new(error),
        })?;
    let client_config = Arc::new(config.spec.client_config.clone());
    let settings = Arc::new(config.spec.settings.clone());
    let resource_version = config.metadata.resource_version.clone().unwrap_or_default();

    let mut registrations = Vec::with_capacity(config.status.handlers.len());
    let mut errors = Vec::new();
    for handler in &config.status.handlers {
        match HookId::try_from(&handler.request_hook) {
            Ok(gvh) => registrations.push(Arc::new(Registration {
                name: handler.name.clone(),
                extension_config_name: config_name.clone(),
                extension_config_resource_version: resource_version.clone(),
                gvh,
                namespace_selector: namespace_selector.clone(),
                client_config: client_config.clone(),
                timeout_seconds: handler.timeout_seconds,
                failure_policy: handler.failure_policy.unwrap_or_default(),
                settings: settings.clone(),
                call_url: CallUrlCell::default(),
            })),
            Err(error) => errors.push(HandlerError {
                handler: handler.name.clone(),
                error,
            }),
        }
    }
    if errors.is_empty() {
        Ok(registrations)
    } else {
        Err(RegistryError::InvalidHandlers {
            config: config_name,
            errors,
        })
    }
}
