//! Calling handlers: one by name, or every handler of a hook.

use std::any::TypeId;
use std::collections::BTreeMap;
use std::sync::{Arc, Mutex, PoisonError};

use bytes::Bytes;
use futures::FutureExt;
use tracing::Instrument;

use super::Client;
use super::aggregate::aggregate_responses;
use super::cache::{CacheKey, ResponseCache};
use super::error::{CallError, ExchangeError};
use super::exchange::{Answer, Request, exchange};
use super::fan_out;
use super::namespaces::Matcher;
use super::target::{CallAllOptions, ForObject};
use crate::api::runtime::v1beta2::FailurePolicy;
use crate::catalog::{Catalog, GroupHook, HookDescriptor, HookId};
use crate::go::errors::chain;
use crate::hook::{Hook, HookRequest, HookResponse, Message, RequestOf, ResponseOf};
use crate::hooks::v1alpha1::ResponseStatus;
use crate::registry::Registration;
use crate::tls::{Cause, cause};
use crate::wire::{BudgetHold, DecodeError, Limits, RawStatus, decode_response_raw_with};

impl Client {
    /// The full names of the handlers of hook `H` whose namespace selector matches the
    /// object's namespace, sorted by name, without reading the namespace: a selector that
    /// needs labels the [`ForObject`] does not carry (any label but
    /// `kubernetes.io/metadata.name`) is an error
    /// ([`NamespaceError::LabelsUnknown`](super::NamespaceError::LabelsUnknown)), even when
    /// the client has a namespace-labels source. [`Client::get_all_extensions_async`] reads
    /// the labels from the source, as Cluster API's `GetAllExtensions` does.
    pub fn get_all_extensions<H: Hook>(
        &self,
        for_object: &ForObject,
    ) -> Result<Vec<String>, CallError> {
        let (_, registrations) = self.registrations_of::<H>()?;
        let matcher = Matcher::new(for_object, None);
        let mut names = Vec::new();
        for registration in registrations {
            let matches = matcher
                .matches_without_lookup(&registration.namespace_selector)
                .map_err(|source| CallError::Namespace {
                    handler: registration.name.clone(),
                    source,
                })?;
            if matches {
                names.push(registration.name.clone());
            } else {
                trace_skip(&registration, for_object);
            }
        }
        Ok(names)
    }

    /// The full names of the handlers of hook `H` whose namespace selector matches the
    /// object's namespace, sorted by name, reading the namespace's labels from the client's
    /// source when a selector needs them and the [`ForObject`] does not carry them (at most
    /// once). What [`Client::call_all_extensions`] calls.
    pub async fn get_all_extensions_async<H: Hook>(
        &self,
        for_object: &ForObject,
    ) -> Result<Vec<String>, CallError> {
        let (_, registrations) = self.matching_registrations::<H>(for_object).await?;
        Ok(registrations.iter().map(|r| r.name.clone()).collect())
    }

    /// Calls the handler named `name` (`<handler>.<extensionconfig>`) with `request`.
    ///
    /// The handler must be registered for hook `H` and its namespace selector must match the
    /// object's namespace (a mismatch is an error here, while
    /// [`Client::call_all_extensions`] skips such handlers). The request is sent with
    /// `apiVersion` and `kind` set and with the ExtensionConfig's settings under the request's
    /// own (the request's keys win). The response is the extension's answer as it wrote it
    /// (`apiVersion` and `kind` included, empty from a Go extension); the `Success` an ignored
    /// failure becomes has the hook's. See the [module documentation](super) for what the
    /// handler's failure policy covers.
    ///
    /// The hook is the one whose request `request` is ([`RequestOf`]).
    pub async fn call_extension<R: RequestOf>(
        &self,
        name: &str,
        request: &R,
        for_object: &ForObject,
    ) -> Result<ResponseOf<R>, CallError> {
        self.call_extension_of::<R::Hook>(name, request, for_object)
            .await
    }

    async fn call_extension_of<H: Hook>(
        &self,
        name: &str,
        request: &H::Request,
        for_object: &ForObject,
    ) -> Result<H::Response, CallError> {
        let (gvh, registration) = self.checked_registration::<H>(name, for_object).await?;
        // The response becomes the caller's: its share of the decode budget is given back.
        let (response, _, _hold) = self
            .call_registration::<H>(&registration, &gvh, request, None)
            .await?;
        Ok(response)
    }

    /// Like [`Client::call_extension`], answering from `cache` when it holds a live answer of
    /// the handler for the same merged settings and the same ExtensionConfig resourceVersion,
    /// and storing the answer there when it is a real success (see [`ResponseCache`] for what
    /// is and is not stored). Only for hooks whose answer depends on the settings alone, such
    /// as DiscoverVariables. A cache hit makes no call and records no metrics.
    pub async fn call_extension_cached<R: RequestOf>(
        &self,
        cache: &ResponseCache,
        name: &str,
        request: &R,
        for_object: &ForObject,
    ) -> Result<ResponseOf<R>, CallError> {
        self.call_extension_cached_of::<R::Hook>(cache, name, request, for_object)
            .await
    }

    async fn call_extension_cached_of<H: Hook>(
        &self,
        cache: &ResponseCache,
        name: &str,
        request: &H::Request,
        for_object: &ForObject,
    ) -> Result<H::Response, CallError> {
        let (gvh, registration) = self.checked_registration::<H>(name, for_object).await?;
        let outgoing = outgoing_request::<H>(&registration, request);
        let key = CacheKey::new::<H::Response>(
            &registration.name,
            &registration.extension_config_resource_version,
            outgoing.settings().unwrap_or(&BTreeMap::new()),
        );
        if let Some(response) = cache.get::<H::Response>(&key) {
            // The key is not logged: settings may hold values that do not belong in logs.
            tracing::debug!(
                extension_handler = name,
                hook = H::NAME,
                "answered from the response cache"
            );
            return Ok(response);
        }
        // What the cache keeps is not counted against the decode budget.
        let (response, ignored, _hold) = self
            .call_registration::<H>(&registration, &gvh, request, None)
            .await?;
        if !ignored {
            cache.insert(key, response.clone());
        }
        Ok(response)
    }

    /// The hook's GVH and the registration named `name`, checked to serve that hook and the
    /// object's namespace.
    async fn checked_registration<H: Hook>(
        &self,
        name: &str,
        for_object: &ForObject,
    ) -> Result<(HookId, Arc<Registration>), CallError> {
        let gvh = self
            .inner
            .catalog
            .group_version_hook::<H>()
            .map_err(|source| CallError::HookNotInCatalog {
                handler: name.to_string(),
                source,
            })?;
        let registration = self
            .inner
            .registry
            .get(name)
            .map_err(|source| CallError::Registry {
                handler: name.to_string(),
                source,
            })?;
        if registration.gvh.group != gvh.group || registration.gvh.hook != gvh.hook {
            return Err(CallError::HookMismatch {
                handler: name.to_string(),
                expected: gvh.group_hook(),
                registered: Box::new(registration.gvh.clone()),
            });
        }
        let matches = Matcher::new(for_object, self.inner.namespace_labels.as_deref())
            .matches(&registration.namespace_selector)
            .await
            .map_err(|source| CallError::Namespace {
                handler: name.to_string(),
                source,
            })?;
        if !matches {
            return Err(CallError::NamespaceMismatch {
                handler: name.to_string(),
                namespace: for_object.namespace.clone(),
                name: for_object.name.clone(),
            });
        }
        Ok((gvh, registration))
    }

    /// Calls every handler of hook `H` whose namespace selector matches the object's
    /// namespace, in handler-name order, and aggregates their answers: status `Success`, the
    /// lowest non-zero `retryAfterSeconds`, and the non-empty messages joined with `", "`, with
    /// the hook's `apiVersion` and response `kind` set.
    ///
    /// The first failing handler (in name order) fails the whole call with its error; handlers
    /// after it are not called (sequential mode) or are cancelled (concurrent mode). Both
    /// modes give the same result. No handler at all is a success.
    ///
    /// The calls are made as the client was built to make them
    /// ([`ClientBuilder::call_all_options`](super::ClientBuilder::call_all_options); one at a
    /// time by default, as upstream); [`Client::call_all_extensions_with`] chooses per call.
    ///
    /// The hook is the one whose request `request` is ([`RequestOf`]).
    pub async fn call_all_extensions<R: RequestOf>(
        &self,
        request: &R,
        for_object: &ForObject,
    ) -> Result<ResponseOf<R>, CallError> {
        self.call_all_extensions_of::<R::Hook>(request, for_object, self.inner.call_all_options)
            .await
    }

    /// [`Client::call_all_extensions`] with the calls made as `options` says (one at a time,
    /// or several concurrently; the result is the same).
    pub async fn call_all_extensions_with<R: RequestOf>(
        &self,
        request: &R,
        for_object: &ForObject,
        options: CallAllOptions,
    ) -> Result<ResponseOf<R>, CallError> {
        self.call_all_extensions_of::<R::Hook>(request, for_object, options)
            .await
    }

    async fn call_all_extensions_of<H: Hook>(
        &self,
        request: &H::Request,
        for_object: &ForObject,
        options: CallAllOptions,
    ) -> Result<H::Response, CallError> {
        let (gvh, registrations) = match self.matching_registrations::<H>(for_object).await {
            Ok(found) => found,
            // A selector that could not be matched fails the call as a handler's error would.
            Err(error @ CallError::Namespace { .. }) => {
                let hook = HookId::of::<H>().group_hook();
                tracing::error!(hook = H::NAME, error = %chain(&error), "failed to call extension handlers");
                return Err(CallError::Handler {
                    hook,
                    source: Box::new(error),
                });
            }
            Err(error) => return Err(error),
        };
        // Each answer keeps its share of the client's decode budget until the answers are
        // aggregated (or the call fails), as long as it is alive here: answers decoded at once
        // within one call count together.
        // Handlers of one hook version whose ExtensionConfigs have the same settings (most
        // often none) are sent the same bytes: encoded once, not once per handler.
        let bodies = Bodies::default();
        let call = |i: usize| {
            self.call_registration::<H>(&registrations[i], &gvh, request, Some(&bodies))
                .map(|result| result.map(|(response, _ignored, hold)| (response, hold)))
        };
        let outcome = match options.concurrency {
            None => fan_out::sequential(registrations.len(), call).await,
            Some(limit) => fan_out::concurrent(registrations.len(), limit, call).await,
        };
        match outcome {
            Ok(answers) => {
                // The aggregate is a response of the hook as each answer is, whether or not
                // any handler answered.
                Ok(typed::<H>(aggregate_responses(
                    answers.iter().map(|(r, _hold)| r),
                )))
            }
            Err(error) => {
                tracing::error!(hook = H::NAME, error = %chain(&error), "failed to call extension handlers");
                Err(CallError::Handler {
                    hook: gvh.group_hook(),
                    source: Box::new(error),
                })
            }
        }
    }

    /// The hook's GVH and the registrations of its group and name.
    fn registrations_of<H: Hook>(&self) -> Result<(HookId, Vec<Arc<Registration>>), CallError> {
        let gvh = self
            .inner
            .catalog
            .group_version_hook::<H>()
            .map_err(|source| CallError::UnknownHook {
                hook: Box::new(HookId::of::<H>().group_hook()),
                source,
            })?;
        let group_hook: GroupHook = gvh.group_hook();
        let registrations =
            self.inner
                .registry
                .list(&group_hook)
                .map_err(|source| CallError::List {
                    hook: group_hook.clone(),
                    source,
                })?;
        Ok((gvh, registrations))
    }

    /// The hook's GVH and the registrations of its group and name whose selector matches,
    /// the namespace's labels read from the client's source when needed (once). A selector
    /// that cannot be matched is an error ([`CallError::Namespace`]), never a skip.
    async fn matching_registrations<H: Hook>(
        &self,
        for_object: &ForObject,
    ) -> Result<(HookId, Vec<Arc<Registration>>), CallError> {
        let (gvh, registrations) = self.registrations_of::<H>()?;
        let mut matcher = Matcher::new(for_object, self.inner.namespace_labels.as_deref());
        let mut matching = Vec::with_capacity(registrations.len());
        for registration in registrations {
            let matches = matcher
                .matches(&registration.namespace_selector)
                .await
                .map_err(|source| CallError::Namespace {
                    handler: registration.name.clone(),
                    source,
                })?;
            if matches {
                matching.push(registration);
            } else {
                trace_skip(&registration, for_object);
            }
        }
        Ok((gvh, matching))
    }

    /// Calls one registration: builds the request, runs the exchange, applies the failure
    /// policy and checks the status. The flag is true when the response is the `Success` the
    /// `Ignore` failure policy made of a failed call; the hold is the response's share of the
    /// client's decode budget.
    ///
    /// `bodies`, when given, holds the bodies already encoded by the other calls of the same
    /// `call_all_extensions`.
    async fn call_registration<H: Hook>(
        &self,
        registration: &Registration,
        gvh: &HookId,
        request: &H::Request,
        bodies: Option<&Bodies>,
    ) -> Result<(H::Response, bool, BudgetHold), CallError> {
        let handler = registration.name.as_str();
        let catalog = &*self.inner.catalog;
        // A handler may speak another version of the hook (group and name match, see the
        // callers): the request goes to its version and the response comes back through the
        // catalog's conversions, checked here so that a missing one is a misconfiguration
        // rather than a failed call.
        let peer = if registration.gvh == *gvh {
            None
        } else {
            let peer =
                catalog
                    .hook(&registration.gvh)
                    .map_err(|source| CallError::HookNotInCatalog {
                        handler: handler.to_string(),
                        source,
                    })?;
            let request_down =
                catalog.has_conversion(TypeId::of::<H::Request>(), peer.request_type());
            let response_up =
                catalog.has_conversion(peer.response_type(), TypeId::of::<H::Response>());
            if !(request_down && response_up) {
                return Err(CallError::NoConversion {
                    handler: handler.to_string(),
                    caller: Box::new(gvh.clone()),
                    registered: Box::new(registration.gvh.clone()),
                });
            }
            Some(peer)
        };
        let timeout = registration.timeout();
        let (http, call_url) =
            self.registration_endpoint(registration)
                .await
                .map_err(|source| CallError::HttpClient {
                    handler: handler.to_string(),
                    hook: Box::new(gvh.clone()),
                    source,
                })?;
        let url = &call_url.url;
        let exchange_error = |source: ExchangeError| CallError::Exchange {
            handler: handler.to_string(),
            hook: Box::new(gvh.clone()),
            source,
        };
        let encode = || encode_body::<H>(catalog, registration, peer, request);
        let body = match bodies {
            Some(bodies) => bodies.get_or_encode(registration, encode),
            None => encode(),
        }
        .map_err(|e| exchange_error(ExchangeError::Encode(e)))?;
        // Decodes the body in the handler's version and converts it up to the caller's; the
        // converted response keeps the decoded one's hold.
        let decode = |bytes: &[u8], limits: &Limits| -> Result<Answer<H::Response>, DecodeError> {
            let Some(peer) = peer else {
                return decode_response_raw_with::<H::Response>(bytes, limits);
            };
            let (response, status, hold) = peer.decode_response_with(bytes, limits)?;
            let up = catalog
                .convert_any(
                    &*response,
                    peer.response_type(),
                    TypeId::of::<H::Response>(),
                )
                .expect("the conversion was checked above")
                .map_err(|e| DecodeError::new(format!("converting the response: {}", chain(&e))))?;
            let up = up
                .downcast::<H::Response>()
                .map_err(|_| DecodeError::new("the response conversion produced another type"))?;
            Ok((*up, RawStatus(status), hold))
        };
        let span = tracing::debug_span!(
            "call_extension",
            extension_handler = handler,
            hook = H::NAME,
            url = %url,
            code = tracing::field::Empty,
            status = tracing::field::Empty,
        );
        tracing::debug!(parent: &span, "calling extension handler");
        let result = exchange(
            Request {
                http: &http,
                url,
                host: &call_url.host_label,
                hook: gvh,
                timeout,
                body,
                max_body: self.inner.max_response_bytes,
                decode_budget: &self.inner.decode_budget,
                metrics: &self.inner.metrics,
            },
            decode,
        )
        .instrument(span.clone())
        .await;
        let (mut response, RawStatus(status), hold) = match result {
            Ok(ok) => ok,
            Err(error)
                if error.is_calling_error()
                    && registration.failure_policy == FailurePolicy::Ignore =>
            {
                tracing::error!(
                    parent: &span,
                    error = %chain(&error),
                    "ignoring error calling extension handler because of FailurePolicy \"Ignore\""
                );
                return Ok((
                    typed::<H>(H::Response::success()),
                    true,
                    BudgetHold::default(),
                ));
            }
            Err(error) => {
                tracing::error!(parent: &span, error = %chain(&error), "failed to call extension handler");
                return Err(exchange_error(error));
            }
        };
        match crate::wire::parse_status(&status) {
            Some(ResponseStatus::Success) => {
                response.set_status(ResponseStatus::Success);
                match response.retry_after_seconds() {
                    Some(seconds) if seconds != 0 => tracing::debug!(
                        parent: &span,
                        retry_after_seconds = seconds,
                        "extension handler returned a blocking response"
                    ),
                    _ => tracing::debug!(parent: &span, "extension handler returned success"),
                }
                Ok((response, false, hold))
            }
            Some(ResponseStatus::Failure) => Err(CallError::Failure {
                handler: handler.to_string(),
                hook: Box::new(gvh.clone()),
                url: url.to_string(),
                message: response.message().to_string(),
            }),
            _ => Err(CallError::UnknownStatus {
                handler: handler.to_string(),
                hook: Box::new(gvh.clone()),
                url: url.to_string(),
                status,
                message: response.message().to_string(),
            }),
        }
    }
}

/// Logs a handler left out because its selector does not match the object's namespace.
fn trace_skip(registration: &Registration, for_object: &ForObject) {
    tracing::trace!(
        extension_handler = %registration.name,
        namespace = %for_object.namespace,
        name = %for_object.name,
        selector = %registration.namespace_selector,
        "skipping extension handler: the namespace does not match its selector"
    );
}

/// A response the client makes itself (the aggregate of `call_all_extensions`, the `Success`
/// of an ignored failure) with the `apiVersion` and `kind` of hook `H`'s response, as each
/// answer on the wire may carry them. An extension's own answer is returned as it wrote it
/// (Go's server helper writes neither field).
fn typed<H: Hook>(mut response: H::Response) -> H::Response {
    response.set_type_meta(H::API_VERSION, H::RESPONSE_KIND);
    response
}

/// The body sent to `registration`: the request with its type metadata and the
/// ExtensionConfig's settings (see [`outgoing_request`]), converted down to the handler's hook
/// version when `peer` is that version's descriptor, as JSON.
fn encode_body<H: Hook>(
    catalog: &Catalog,
    registration: &Registration,
    peer: Option<&HookDescriptor>,
    request: &H::Request,
) -> Result<Bytes, Cause> {
    let encoded = match peer {
        // `encode_request` sets the type metadata on its own copy: with no settings to merge,
        // that copy is the only one made.
        None if registration.settings.is_empty() => {
            crate::wire::encode_request::<H>(request).map_err(cause)
        }
        None => crate::wire::encode_request::<H>(&outgoing_request::<H>(registration, request))
            .map_err(cause),
        Some(peer) => {
            let outgoing = outgoing_request::<H>(registration, request);
            catalog
                .convert_any(&outgoing, TypeId::of::<H::Request>(), peer.request_type())
                .expect("the caller checked the conversion")
                .map_err(cause)
                .and_then(|down| peer.encode_request(&*down).map_err(cause))
        }
    }?;
    Ok(Bytes::from(encoded))
}

/// The request bodies of one `call_all_extensions`, by the handler's hook version and the
/// ExtensionConfig's settings: what `encode_body` makes of the same request depends on nothing
/// else. An encoding error is kept too, and given to every call it concerns.
#[derive(Default)]
struct Bodies(Mutex<BodyMap>);

type BodyMap = BTreeMap<(HookId, Arc<BTreeMap<String, String>>), Result<Bytes, Cause>>;

impl Bodies {
    /// The body for `registration`, encoded with `encode` when no call before made it.
    fn get_or_encode(
        &self,
        registration: &Registration,
        encode: impl FnOnce() -> Result<Bytes, Cause>,
    ) -> Result<Bytes, Cause> {
        let key = (registration.gvh.clone(), registration.settings.clone());
        let lock = || self.0.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(body) = lock().get(&key) {
            return body.clone();
        }
        // Encoded without the lock; another call encoding meanwhile makes the same bytes.
        let body = encode();
        lock().insert(key, body.clone());
        body
    }
}

/// The request as sent: a copy of the caller's with `apiVersion` and `kind` set and the
/// ExtensionConfig's settings under the request's own. Neither input is changed.
fn outgoing_request<H: Hook>(registration: &Registration, request: &H::Request) -> H::Request {
    let mut outgoing = request.clone();
    outgoing.set_type_meta(H::API_VERSION, H::REQUEST_KIND);
    if let Some(settings) = outgoing.settings_mut()
        && !registration.settings.is_empty()
    {
        let mut merged = (*registration.settings).clone();
        merged.extend(std::mem::take(settings));
        *settings = merged;
    }
    outgoing
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;

    use super::*;
    use crate::hooks::v1alpha1::{
        AfterClusterUpgradeRequest, BeforeClusterCreate, BeforeClusterCreateRequest,
    };
    use crate::registry::NamespaceSelector;

    #[test]
    fn settings_merge_with_request_precedence() {
        let map = |pairs: &[(&str, &str)]| -> BTreeMap<String, String> {
            pairs
                .iter()
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .collect()
        };
        let registration = Registration {
            name: "h.ext".into(),
            extension_config_name: "ext".into(),
            extension_config_resource_version: String::new(),
            gvh: HookId::of::<BeforeClusterCreate>(),
            namespace_selector: NamespaceSelector::everything(),
            client_config: Default::default(),
            timeout_seconds: 0,
            failure_policy: FailurePolicy::Fail,
            settings: Arc::new(map(&[("a", "registration"), ("b", "registration")])),
            call_url: Default::default(),
        };
        let request = BeforeClusterCreateRequest {
            settings: map(&[("b", "request"), ("c", "request")]),
            ..Default::default()
        };
        let out = outgoing_request::<BeforeClusterCreate>(&registration, &request);
        assert_eq!(
            out.settings,
            map(&[("a", "registration"), ("b", "request"), ("c", "request")])
        );
        assert_eq!(out.api_version, "hooks.runtime.cluster.x-k8s.io/v1alpha1");
        assert_eq!(out.kind, "BeforeClusterCreateRequest");
        assert_eq!(
            request.settings.len(),
            2,
            "the caller's request is not changed"
        );
        assert_eq!(
            registration.settings.len(),
            2,
            "the registration is not changed"
        );

        let empty = outgoing_request::<BeforeClusterCreate>(&registration, &Default::default());
        assert_eq!(
            empty.settings,
            map(&[("a", "registration"), ("b", "registration")])
        );
    }

    /// A client whose registry holds one ExtensionConfig, `ext`, with one handler of
    /// BeforeClusterCreate, `create.ext`, under `policy`, at a loopback port nothing listens
    /// on (port 1): every call to it fails to connect.
    fn client_of_an_unreachable_extension(policy: FailurePolicy) -> Client {
        use crate::api::runtime::v1beta2::{
            ClientConfig, ExtensionConfig, ExtensionConfigSpec, ExtensionConfigStatus,
            ExtensionHandler, GroupVersionHook,
        };
        let ca = capi_runtime_test_pki::TestCa::new("ca");
        let spec = ExtensionConfigSpec {
            client_config: ClientConfig {
                url: "https://127.0.0.1:1".into(),
                ca_bundle: k8s_openapi::ByteString(ca.pem().into_bytes()),
                ..Default::default()
            },
            namespace_selector: Some(Default::default()),
            settings: BTreeMap::new(),
        };
        let mut config = ExtensionConfig::new("ext", spec);
        config.metadata.resource_version = Some("1".into());
        config.status = ExtensionConfigStatus {
            handlers: vec![ExtensionHandler {
                name: "create.ext".into(),
                request_hook: GroupVersionHook {
                    api_version: BeforeClusterCreate::API_VERSION.into(),
                    hook: "BeforeClusterCreate".into(),
                },
                timeout_seconds: 1,
                failure_policy: Some(policy),
            }],
            ..Default::default()
        };
        let registry = crate::registry::Registry::new();
        registry.warm_up([&config]).unwrap();
        Client::builder().registry(registry).build().unwrap()
    }

    const HOOKS: &str = "hooks.runtime.cluster.x-k8s.io/v1alpha1";

    #[tokio::test]
    async fn responses_the_client_makes_are_typed_as_the_hooks_response() {
        // The Ignore policy turns the failed call into a Success the client makes itself:
        // it is still a BeforeClusterCreateResponse.
        let client = client_of_an_unreachable_extension(FailurePolicy::Ignore);
        let for_object = ForObject::new("default", "c");
        let request = BeforeClusterCreateRequest::default();
        let one = client
            .call_extension("create.ext", &request, &for_object)
            .await
            .unwrap();
        assert_eq!(one.status, ResponseStatus::Success);
        assert_eq!(
            (one.api_version.as_str(), one.kind.as_str()),
            (HOOKS, "BeforeClusterCreateResponse"),
            "call_extension"
        );
        let cache = ResponseCache::new(std::time::Duration::from_secs(60));
        let cached = client
            .call_extension_cached(&cache, "create.ext", &request, &for_object)
            .await
            .unwrap();
        assert_eq!(
            (cached.api_version.as_str(), cached.kind.as_str()),
            (HOOKS, "BeforeClusterCreateResponse"),
            "call_extension_cached"
        );
        let all = client
            .call_all_extensions(&request, &for_object)
            .await
            .unwrap();
        assert_eq!(
            (all.api_version.as_str(), all.kind.as_str()),
            (HOOKS, "BeforeClusterCreateResponse"),
            "call_all_extensions"
        );

        // No handler of the hook at all: the aggregate is a response of the hook too.
        let none = client
            .call_all_extensions(&AfterClusterUpgradeRequest::default(), &for_object)
            .await
            .unwrap();
        assert_eq!(
            (none.api_version.as_str(), none.kind.as_str()),
            (HOOKS, "AfterClusterUpgradeResponse"),
            "call_all_extensions without handlers"
        );
    }
}
