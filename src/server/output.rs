//! What a handler returns: [`HandlerOutput`], and [`HandlerFailure`], the error it may return
//! on its way to the Failure response.

use std::fmt;

use crate::hook::HookResponse;

/// What a handler of a hook whose response is `R` may return, as axum's `IntoResponse` is for
/// axum's handlers:
///
/// - `R` itself, for a handler that cannot fail (a notification hook that only logs, a check
///   that reports its verdict in the response);
/// - `Result<R, E>` with any `E: Display` (a `String`, a `&'static str`, your error type):
///   `Err(e)` becomes a Failure response whose message is `e.to_string()`.
///
/// An error type that keeps its cause in [`source`](std::error::Error::source) shows only its
/// own layer in `Display`; to send its causes as well, as a Go handler's `err.Error()` would,
/// return [`chain(&err)`](crate::go::errors::chain)`.to_string()`.
#[diagnostic::on_unimplemented(
    message = "a handler of this hook returns `{R}` or `Result<{R}, E>` with `E: Display`, not `{Self}`",
    note = "`Err(e)` becomes a Failure response with `e.to_string()` as its message"
)]
pub trait HandlerOutput<R>: Send + 'static {
    /// The response, or the failure that becomes the Failure response.
    fn into_result(self) -> Result<R, HandlerFailure>;
}

impl<R: HookResponse> HandlerOutput<R> for R {
    fn into_result(self) -> Result<R, HandlerFailure> {
        Ok(self)
    }
}

impl<R, E> HandlerOutput<R> for Result<R, E>
where
    R: HookResponse,
    E: fmt::Display + Send + 'static,
{
    fn into_result(self) -> Result<R, HandlerFailure> {
        self.map_err(HandlerFailure::new)
    }
}

/// The error a handler returned, kept as it is until the server writes the Failure response:
/// its `Display` is the message that response carries.
///
/// [`HandlerOutput`] makes one from a handler's `Err(e)`; a hand-written [`Handler`](super::Handler)
/// makes one with [`HandlerFailure::new`].
pub struct HandlerFailure {
    error: Box<dyn fmt::Display + Send>,
}

impl HandlerFailure {
    /// The failure whose message is `error`'s `Display`.
    pub fn new(error: impl fmt::Display + Send + 'static) -> Self {
        HandlerFailure {
            error: Box::new(error),
        }
    }
}

impl fmt::Display for HandlerFailure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.error.fmt(f)
    }
}

impl fmt::Debug for HandlerFailure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_tuple("HandlerFailure")
            .field(&format_args!("{}", self.error))
            .finish()
    }
}

impl std::error::Error for HandlerFailure {}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::hooks::v1alpha1::BeforeClusterCreateResponse;

    #[derive(Debug)]
    struct Refused(u32);

    impl fmt::Display for Refused {
        fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            write!(f, "refused {} times", self.0)
        }
    }

    fn output<O: HandlerOutput<BeforeClusterCreateResponse>>(
        o: O,
    ) -> Result<BeforeClusterCreateResponse, HandlerFailure> {
        o.into_result()
    }

    #[test]
    fn a_response_is_sent_as_it_is() {
        let mut response = BeforeClusterCreateResponse::success();
        response.retry_after_seconds = 4;
        let sent = output(response.clone()).unwrap();
        assert_eq!(sent, response);
        let sent = output(Ok::<_, Refused>(response.clone())).unwrap();
        assert_eq!(sent, response);
    }

    #[test]
    fn an_error_keeps_its_display_as_the_message() {
        let failure = output(Err::<BeforeClusterCreateResponse, _>(Refused(3))).unwrap_err();
        assert_eq!(failure.to_string(), "refused 3 times");
        assert_eq!(format!("{failure:?}"), "HandlerFailure(refused 3 times)");
        let failure = output(Err::<BeforeClusterCreateResponse, _>("no")).unwrap_err();
        assert_eq!(failure.to_string(), "no");
    }
}
