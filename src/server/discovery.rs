//! The Discovery answer, computed once from the registered handlers.

use bytes::Bytes;

use super::handler::HandlerOptions;
use crate::catalog::HookId;
use crate::hook::{Hook, Message};
use crate::hooks::v1alpha1::{self as hooks, Discovery, DiscoveryResponse, ExtensionHandler};

/// What Discovery says about one registered handler.
#[derive(Clone, Debug)]
pub(crate) struct Advertised {
    pub(crate) gvh: HookId,
    pub(crate) options: HandlerOptions,
}

/// The Discovery response listing `handlers` in the order given. The builder keeps handlers
/// sorted by path, so the list, and therefore the ExtensionConfig status Cluster API writes from
/// it, does not change between restarts of the extension.
pub(crate) fn discovery_response<'a>(
    handlers: impl IntoIterator<Item = &'a Advertised>,
) -> DiscoveryResponse {
    let mut response = DiscoveryResponse::success();
    response.set_type_meta(Discovery::API_VERSION, Discovery::RESPONSE_KIND);
    response.handlers = handlers
        .into_iter()
        .map(|a| ExtensionHandler {
            name: a.options.name.clone(),
            request_hook: hooks::GroupVersionHook {
                api_version: a.gvh.api_version(),
                hook: a.gvh.hook.clone(),
            },
            timeout_seconds: a.options.timeout_seconds,
            failure_policy: a.options.failure_policy.clone(),
        })
        .collect();
    response
}

/// The serialized Discovery response; it never changes after the server is built.
pub(crate) fn discovery_body(response: &DiscoveryResponse) -> Bytes {
    Bytes::from(serde_json::to_vec(response).expect("a DiscoveryResponse always serializes"))
}
