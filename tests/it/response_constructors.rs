//! `success()` and `failure(..)` of every hook response, built-in or derived by a user: inherent
//! functions, callable with no trait of the crate in scope, and still the trait's functions for
//! code that imports the prelude or is generic over `HookResponse` (both resolve the same way,
//! without ambiguity).

use crate::support::test_hooks::v1alpha1::{FakeResponse, RetryableFakeResponse};

use capi_runtime::hooks::v1alpha1::{
    BeforeClusterCreateResponse, DiscoveryResponse, GeneratePatchesResponse, ResponseStatus,
};

/// Without any trait in scope: the inherent functions, read through the fields.
mod without_a_trait {
    use super::*;

    #[test]
    fn built_in_responses() {
        let success = BeforeClusterCreateResponse::success();
        assert_eq!(success.status, ResponseStatus::Success);
        assert_eq!(success.message, "");
        assert_eq!(success.retry_after_seconds, 0);
        let failure = GeneratePatchesResponse::failure("no patches today");
        assert_eq!(failure.status, ResponseStatus::Failure);
        assert_eq!(failure.message, "no patches today");
        assert!(failure.items.is_empty());
        let failure = DiscoveryResponse::failure(String::from("owned"));
        assert_eq!(
            (failure.status, failure.message.as_str()),
            (ResponseStatus::Failure, "owned")
        );
    }

    #[test]
    fn derived_by_a_user() {
        let failure = FakeResponse::failure("fake");
        assert_eq!(failure.status, ResponseStatus::Failure);
        assert_eq!(failure.message, "fake");
        let success = RetryableFakeResponse::success();
        assert_eq!(success.status, ResponseStatus::Success);
        assert_eq!(success.retry_after_seconds, 0);
    }
}

/// With the prelude: the same calls compile and give the same values as the trait's.
mod with_the_prelude {
    use super::*;
    use capi_runtime::prelude::*;

    fn failed<R: HookResponse>(message: &str) -> R {
        R::failure(message)
    }

    #[test]
    fn the_inherent_and_the_trait_functions_agree() {
        assert_eq!(
            BeforeClusterCreateResponse::success(),
            <BeforeClusterCreateResponse as HookResponse>::success()
        );
        assert_eq!(
            RetryableFakeResponse::failure("x"),
            <RetryableFakeResponse as HookResponse>::failure("x")
        );
        let generic: FakeResponse = failed("generic");
        assert_eq!(generic, FakeResponse::failure("generic"));
        assert_eq!(generic.status(), ResponseStatus::Failure);
        assert_eq!(generic.message(), "generic");
    }
}
