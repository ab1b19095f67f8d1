//! Why a request is answered with Failure: the reasons the failure metric counts and the
//! message that goes with them. Shared by admission (`intake`), the handlers and the metrics,
//! below all three.

/// Why a request was answered with Failure instead of reaching or leaving the handler normally.
/// The label value is what the failure metric records.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum FailureReason {
    /// The body could not be read in time, or was over the cap.
    Read,
    /// No slot among the requests in flight came free in time.
    Busy,
    /// The body is not a JSON request of the hook.
    Decode,
    /// The body names another apiVersion or kind.
    TypeMeta,
    /// The handler returned an error.
    Handler,
    /// The handler panicked.
    Panic,
    /// The handler did not answer in time.
    Timeout,
}

impl FailureReason {
    pub(crate) const ALL: [FailureReason; 7] = [
        FailureReason::Read,
        FailureReason::Busy,
        FailureReason::Decode,
        FailureReason::TypeMeta,
        FailureReason::Handler,
        FailureReason::Panic,
        FailureReason::Timeout,
    ];

    pub(crate) fn as_str(self) -> &'static str {
        match self {
            FailureReason::Read => "read",
            FailureReason::Busy => "busy",
            FailureReason::Decode => "decode",
            FailureReason::TypeMeta => "type_meta",
            FailureReason::Handler => "handler_error",
            FailureReason::Panic => "panic",
            FailureReason::Timeout => "timeout",
        }
    }
}

/// A failed request: the reason and the message the Failure response carries.
pub(crate) struct Failed {
    pub(crate) reason: FailureReason,
    pub(crate) message: String,
}

impl From<Refusal> for Failed {
    fn from(refusal: Refusal) -> Self {
        Failed {
            reason: refusal.reason,
            message: refusal.message,
        }
    }
}

/// Why a request was refused at admission.
#[derive(Clone, Debug)]
pub(crate) struct Refusal {
    pub(crate) reason: FailureReason,
    pub(crate) message: String,
    /// The body was not read to its end: the connection must not carry another request.
    pub(crate) close: bool,
}
