//! The Discovery answer, computed once from the registered handlers.

use bytes::Bytes;

use super::handler::HandlerOptions;
use crate::catalog::GroupVersionHook;
use crate::hook::{Hook, HookResponse, Message};
use crate::hooks::v1alpha1::{self as hooks, Discovery, DiscoveryResponse, ExtensionHandler};

/// What Discovery says about one registered handler.
#[derive(Clone, Debug)]
pub(crate) struct Advertised {
    pub(crate) gvh: GroupVersionHook,
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
            failure_policy: a.options.failure_policy,
        })
        .collect();
    response
}

/// The serialized Discovery response; it never changes after the server is built.
pub(crate) fn discovery_body(response: &DiscoveryResponse) -> Bytes {
    Bytes::from(serde_json::to_vec(response).expect("a DiscoveryResponse always serializes"))
}

/// Checks that `name` is a DNS-1123 label, the rule Cluster API applies to handler names when
/// it reads the Discovery answer; failing here gives the author the error at startup instead.
pub(crate) fn validate_handler_name(name: &str) -> Result<(), &'static str> {
    if name.is_empty() {
        return Err("must not be empty");
    }
    if name.len() > 63 {
        return Err("must be no more than 63 characters");
    }
    let bytes = name.as_bytes();
    let allowed = |b: u8| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-';
    if !bytes.iter().all(|b| allowed(*b)) {
        return Err("must consist of lower case alphanumeric characters or '-'");
    }
    if !bytes[0].is_ascii_alphanumeric() || !bytes[bytes.len() - 1].is_ascii_alphanumeric() {
        return Err("must start and end with an alphanumeric character");
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::validate_handler_name;

    #[test]
    fn handler_names_follow_dns_labels() {
        for ok in ["a", "before-cluster-create", "x1", "1x"] {
            assert_eq!(validate_handler_name(ok), Ok(()), "{ok}");
        }
        for bad in ["", "-a", "a-", "A", "a.b", "a_b", &"a".repeat(64)] {
            assert!(validate_handler_name(bad).is_err(), "{bad}");
        }
    }
}
