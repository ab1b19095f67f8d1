//! Discovery: asking an extension which handlers it serves, then defaulting and validating
//! the answer before it may become registrations.

use std::collections::HashSet;

use tracing::Instrument;

use super::discovery_error::{DiscoveryError, ValidationError};
use super::error::ExchangeError;
use super::exchange::{Request, exchange};
use super::{Client, DISCOVERY_TIMEOUT, urls};
use crate::api::runtime::v1beta2::{self as api, ExtensionConfig};
use crate::api::runtime::validation::{self, FieldError, FieldPath};
use crate::catalog::{Catalog, HookId};
use crate::hook::{Hook, Message};
use crate::hooks::v1alpha1::{
    Discovery, DiscoveryRequest, DiscoveryResponse, ExtensionHandler, FailurePolicy,
};
use crate::wire::RawStatus;

/// Defaults and validates every handler; all or nothing. The hook types hold every value Go's
/// do (an unknown failure policy is [`FailurePolicy::Other`]), so each rule reports the value
/// it rejects, as written.
fn validate(
    catalog: &Catalog,
    config_name: &str,
    handlers: &[ExtensionHandler],
) -> Result<Vec<api::ExtensionHandler>, Vec<ValidationError>> {
    let mut errors = Vec::new();
    let mut seen = HashSet::new();
    let mut out = Vec::with_capacity(handlers.len());
    let list = FieldPath::new("handlers");
    for (i, h) in handlers.iter().enumerate() {
        let at = list.index(i);
        let name = &h.name;
        if !seen.insert(name.as_str()) {
            errors.push(ValidationError::DuplicateName {
                name: name.clone(),
                field: FieldError::duplicate(&at.child("name"), name.as_str()),
            });
        }
        if let Err(field) = validation::handler_name(&at.child("name"), name) {
            errors.push(ValidationError::InvalidName {
                name: name.clone(),
                field,
            });
        }
        let timeout = h.timeout_seconds.map(i64::from);
        let timeout = validation::timeout_seconds(&at.child("timeoutSeconds"), timeout)
            .unwrap_or_else(|field| {
                errors.push(ValidationError::Timeout {
                    name: name.clone(),
                    timeout: timeout.unwrap_or_default(),
                    field,
                });
                0
            });
        let written = h.failure_policy.as_ref().map(FailurePolicy::as_str);
        let policy = validation::failure_policy(&at.child("failurePolicy"), written)
            .map_err(|field| {
                errors.push(ValidationError::FailurePolicy {
                    name: name.clone(),
                    policy: written.unwrap_or_default().to_owned(),
                    field,
                })
            })
            .ok();
        let hook = &h.request_hook;
        let api_version_path = at.child("requestHook").child("apiVersion");
        // The same split as the registry's (`HookId::try_from` on the stored handler), so a
        // handler discovery accepts is one the registry can register.
        match HookId::from_wire(&hook.api_version, &hook.hook) {
            Err(e) => errors.push(ValidationError::ApiVersion {
                name: name.clone(),
                api_version: hook.api_version.clone(),
                field: e.to_field_error(&api_version_path),
            }),
            Ok(gvh) => {
                if !catalog.is_registered(&gvh) {
                    errors.push(ValidationError::NotInCatalog {
                        name: name.clone(),
                        api_version: hook.api_version.clone(),
                        hook: hook.hook.clone(),
                        field: FieldError::not_found(
                            &at.child("requestHook"),
                            format!("{}/{}", hook.api_version, hook.hook),
                        ),
                    });
                }
            }
        }
        out.push(api::ExtensionHandler {
            name: validation::name_for_handler(name, config_name),
            request_hook: api::GroupVersionHook {
                api_version: hook.api_version.clone(),
                hook: hook.hook.clone(),
            },
            timeout_seconds: timeout,
            failure_policy: policy,
        });
    }
    if errors.is_empty() {
        Ok(out)
    } else {
        Err(errors)
    }
}

impl Client {
    /// Calls the Discovery endpoint of `config`'s extension and returns a copy of `config`
    /// whose `status.handlers` lists the discovered handlers, named
    /// `<handler>.<extensionconfig>`, in the order the extension gave them. Missing timeouts
    /// default to 10 s and missing failure policies to `Fail`.
    ///
    /// Discovery has no failure policy, and any rule the response breaks fails the whole
    /// discovery. Nothing is registered here: pass the result to [`Client::register`].
    pub async fn discover(
        &self,
        config: &ExtensionConfig,
    ) -> Result<ExtensionConfig, DiscoveryError> {
        let config_name = config.metadata.name.clone().unwrap_or_default();
        let gvh = self
            .inner
            .catalog
            .group_version_hook::<Discovery>()
            .map_err(|source| DiscoveryError::HookNotInCatalog {
                config: config_name.clone(),
                source,
            })?;
        if !validation::dns1123_label(&config_name).is_empty() {
            return Err(DiscoveryError::InvalidName {
                config: config_name,
            });
        }
        let (http, url) = self
            .endpoint(&config.spec.client_config, &gvh, "", DISCOVERY_TIMEOUT)
            .await
            .map_err(|source| DiscoveryError::HttpClient {
                config: config_name.clone(),
                source,
            })?;
        let mut request = DiscoveryRequest::default();
        request.set_type_meta(Discovery::API_VERSION, Discovery::REQUEST_KIND);
        let body = crate::wire::encode_request::<Discovery>(&request).map_err(|e| {
            DiscoveryError::Exchange {
                config: config_name.clone(),
                source: ExchangeError::Encode(crate::tls::cause(e)),
            }
        })?;
        let span = tracing::debug_span!(
            "discover_extension",
            extension_config = %config_name,
            url = %url,
            code = tracing::field::Empty,
            status = tracing::field::Empty,
        );
        // The answer is validated into owned handlers below and dropped with its hold at
        // the end of this call.
        let (response, RawStatus(status), _hold) = exchange(
            Request {
                http: &http,
                url: &url,
                host: &urls::host_label(&url),
                hook: &gvh,
                timeout: DISCOVERY_TIMEOUT,
                body: body.into(),
                max_body: self.inner.max_response_bytes,
                decode_budget: &self.inner.decode_budget,
                metrics: &self.inner.metrics,
            },
            crate::wire::decode_response_raw_with::<DiscoveryResponse>,
        )
        .instrument(span)
        .await
        .map_err(|source| DiscoveryError::Exchange {
            config: config_name.clone(),
            source,
        })?;
        match crate::wire::parse_status(&status) {
            Some(crate::hook::ResponseStatus::Success) => {}
            Some(crate::hook::ResponseStatus::Failure) => {
                return Err(DiscoveryError::Failure {
                    config: config_name,
                    message: response.message,
                });
            }
            _ => {
                return Err(DiscoveryError::UnknownStatus {
                    config: config_name,
                    status,
                    message: response.message,
                });
            }
        }
        let handlers =
            validate(&self.inner.catalog, &config_name, &response.handlers).map_err(|errors| {
                DiscoveryError::Invalid {
                    config: config_name.clone(),
                    errors,
                }
            })?;
        tracing::debug!(extension_config = %config_name, handlers = handlers.len(), "discovered extension");
        let mut discovered = config.clone();
        discovered.status.handlers = handlers;
        Ok(discovered)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn handler(name: &str, api_version: &str, hook: &str) -> ExtensionHandler {
        ExtensionHandler {
            name: name.to_string(),
            request_hook: crate::hooks::v1alpha1::GroupVersionHook {
                api_version: api_version.to_string(),
                hook: hook.to_string(),
            },
            timeout_seconds: None,
            failure_policy: None,
        }
    }

    const V1ALPHA1: &str = "hooks.runtime.cluster.x-k8s.io/v1alpha1";

    #[test]
    fn defaults_are_applied_and_names_qualified() {
        let catalog = crate::hooks::catalog();
        let mut explicit = handler("second", V1ALPHA1, "AfterClusterUpgrade");
        explicit.timeout_seconds = Some(0);
        explicit.failure_policy = Some(FailurePolicy::Ignore);
        let out = validate(
            &catalog,
            "ext1",
            &[handler("first", V1ALPHA1, "BeforeClusterUpgrade"), explicit],
        )
        .unwrap();
        assert_eq!(out[0].name, "first.ext1");
        assert_eq!(out[0].timeout_seconds, 10);
        assert_eq!(out[0].failure_policy, Some(api::FailurePolicy::Fail));
        assert_eq!(out[1].timeout_seconds, 0);
        assert_eq!(out[1].failure_policy, Some(api::FailurePolicy::Ignore));
    }
}
