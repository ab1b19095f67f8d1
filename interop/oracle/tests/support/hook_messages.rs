//! Every hook's messages through `capi_runtime::wire` and back, by name: what the Go wire
//! oracles (`go_wire.rs`, `go_pointer_zeros.rs`) compare with Go.

use capi_runtime::hook::Hook;
use capi_runtime::hooks::v1alpha1::{
    AfterClusterUpgrade, AfterControlPlaneInitialized, AfterControlPlaneUpgrade,
    AfterWorkersUpgrade, BeforeClusterCreate, BeforeClusterDelete, BeforeClusterUpgrade,
    BeforeControlPlaneUpgrade, BeforeWorkersUpgrade, CanUpdateMachine, CanUpdateMachineSet,
    DiscoverVariables, Discovery, GeneratePatches, GenerateUpgradePlan, UpdateMachine,
    ValidateTopology,
};
use capi_runtime::wire;

/// Which message of a hook: what Cluster API sends, or what the extension answers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Side {
    Request,
    Response,
}

impl Side {
    pub const BOTH: [Side; 2] = [Side::Request, Side::Response];

    /// The side's name, as the oracle takes it.
    pub fn name(self) -> &'static str {
        match self {
            Side::Request => "request",
            Side::Response => "response",
        }
    }
}

/// What the Rust codec made of a body: the message encoded again, or why it refused the body.
pub type Verdict = Result<Vec<u8>, wire::DecodeError>;

fn round_trip<H: Hook>(side: Side, body: &[u8]) -> Verdict {
    match side {
        Side::Request => {
            let message = wire::decode_request::<H>(body)?;
            Ok(serde_json::to_vec(&message).expect("a decoded request encodes"))
        }
        Side::Response => {
            let decoded = wire::decode_response::<H>(body)?;
            // The client keeps the status as written (it reads the raw one): write it back so,
            // as the object's last key, the one Go's decoder keeps. (Not through a
            // `serde_json::Value`: raw values may hold numbers it cannot.)
            let mut out = serde_json::to_vec(&decoded.message).expect("a response encodes");
            assert_eq!(out.pop(), Some(b'}'), "a response is an object");
            if out.len() > 1 {
                out.push(b',');
            }
            out.extend_from_slice(b"\"status\":");
            serde_json::to_writer(&mut out, &decoded.status).expect("a string encodes");
            out.push(b'}');
            Ok(out)
        }
    }
}

macro_rules! hooks {
    ($($hook:ident),* $(,)?) => {
        /// Every hook of the catalog, by the name the oracle takes.
        pub const HOOKS: &[&str] = &[$(stringify!($hook)),*];

        /// Decodes `body` as `side` of `hook` and encodes the message again.
        pub fn round_trip_named(hook: &str, side: Side, body: &[u8]) -> Verdict {
            match hook {
                $(stringify!($hook) => round_trip::<$hook>(side, body),)*
                _ => unreachable!("{hook} is not a hook"),
            }
        }
    };
}

hooks!(
    Discovery,
    BeforeClusterCreate,
    AfterControlPlaneInitialized,
    BeforeClusterUpgrade,
    BeforeControlPlaneUpgrade,
    AfterControlPlaneUpgrade,
    BeforeWorkersUpgrade,
    AfterWorkersUpgrade,
    AfterClusterUpgrade,
    BeforeClusterDelete,
    GeneratePatches,
    ValidateTopology,
    DiscoverVariables,
    GenerateUpgradePlan,
    CanUpdateMachine,
    CanUpdateMachineSet,
    UpdateMachine,
);
