//! Combining the answers of every handler of a hook into one response.

use crate::hook::HookResponse;
use crate::hooks::v1alpha1::ResponseStatus;

/// The lower of two retry delays where 0 means "no retry asked": the lowest non-zero value,
/// or 0 when both are 0.
pub(crate) fn lowest_non_zero(a: i32, b: i32) -> i32 {
    match (a, b) {
        (0, b) => b,
        (a, 0) => a,
        (a, b) => a.min(b),
    }
}

/// The aggregate of successful responses, given in call order: status `Success` (also for no
/// response at all), the lowest non-zero `retryAfterSeconds` of retryable responses, and the
/// non-empty messages joined with `", "`. Other fields keep their defaults.
pub fn aggregate_responses<'a, R: HookResponse + 'a>(
    responses: impl IntoIterator<Item = &'a R>,
) -> R {
    let mut aggregate = R::default();
    aggregate.set_status(ResponseStatus::Success);
    let mut retry = 0;
    let mut messages: Vec<&str> = Vec::new();
    for response in responses {
        if let Some(seconds) = response.retry_after_seconds() {
            retry = lowest_non_zero(retry, seconds);
        }
        if !response.message().is_empty() {
            messages.push(response.message());
        }
    }
    if R::RETRYABLE {
        aggregate.set_retry_after_seconds(retry);
    }
    aggregate.set_message(messages.join(", "));
    aggregate
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::hooks::v1alpha1::{
        AfterControlPlaneInitializedResponse, BeforeClusterUpgradeResponse,
    };

    fn retry(seconds: i32, message: &str) -> BeforeClusterUpgradeResponse {
        BeforeClusterUpgradeResponse {
            retry_after_seconds: seconds,
            message: message.to_string(),
            ..Default::default()
        }
    }

    #[test]
    fn lowest_non_zero_ignores_zero() {
        assert_eq!(lowest_non_zero(0, 0), 0);
        assert_eq!(lowest_non_zero(0, 5), 5);
        assert_eq!(lowest_non_zero(5, 0), 5);
        assert_eq!(lowest_non_zero(3, 5), 3);
    }

    #[test]
    fn a_single_response_is_copied() {
        let a = aggregate_responses([&retry(5, "test")]);
        assert_eq!((a.retry_after_seconds, a.message.as_str()), (5, "test"));
        assert_eq!(a.status, ResponseStatus::Success);
    }

    #[test]
    fn many_responses_take_the_lowest_retry_and_join_messages() {
        let responses = [
            retry(0, "test1"),
            retry(1, "test2"),
            retry(5, ""),
            retry(4, ""),
            retry(3, ""),
        ];
        let a = aggregate_responses(&responses);
        assert_eq!(a.retry_after_seconds, 1);
        assert_eq!(a.message, "test1, test2");
    }

    #[test]
    fn no_response_is_success() {
        let a: AfterControlPlaneInitializedResponse = aggregate_responses([]);
        assert_eq!(a.status, ResponseStatus::Success);
        assert_eq!(a.message, "");
    }
}
