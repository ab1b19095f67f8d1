//! Tolerant decoding of hook responses, compatible with Go extensions. It lives beside the
//! catalog (not inside the client) because the catalog's type-erased hook codecs use it to
//! decode a response of any hook version.
//!
//! Extensions written with Cluster API's Go helpers answer without `apiVersion`, `kind` or a
//! JSON content type, and Go's decoder accepts field names in any case (`"Status"`), ignores
//! unknown fields and anything after the first JSON value. This module accepts the same
//! bodies. The `status` field is read on its own so that a missing or unknown status can be
//! reported as such rather than as a decoding error.

mod ci;
mod value;

use serde::de::DeserializeOwned;

use ci::Ci;
pub(crate) use ci::eq_fold;
use value::{Value, parse_first};

/// Why a response body could not be decoded.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct DecodeError(String);

impl DecodeError {
    /// An error with this message.
    #[cfg_attr(not(feature = "client"), allow(dead_code))]
    pub(crate) fn new(message: impl Into<String>) -> Self {
        DecodeError(message.into())
    }
}

/// The `status` of a response as the extension wrote it (empty when absent or null).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct RawStatus(pub(crate) String);

/// Decodes a response body into `T` and returns it with the raw `status`. `T`'s own status
/// field is left at its default; the caller decides what the raw status means.
pub(crate) fn decode_response<T: DeserializeOwned>(
    bytes: &[u8],
) -> Result<(T, RawStatus), DecodeError> {
    let value = parse_first(bytes).map_err(|e| DecodeError(e.to_string()))?;
    let status = match &value {
        Value::Object(entries) => {
            let mut status = String::new();
            for (key, v) in entries {
                if !eq_fold(key, "status") {
                    continue;
                }
                match v {
                    Value::Null => {}
                    Value::String(s) => status.clone_from(s),
                    other => {
                        return Err(DecodeError(format!(
                            "field status: expected a string, got {}",
                            other.type_name()
                        )));
                    }
                }
            }
            status
        }
        Value::Null => String::new(),
        other => {
            return Err(DecodeError(format!(
                "expected a JSON object, got {}",
                other.type_name()
            )));
        }
    };
    let response =
        T::deserialize(Ci(&value, Some("status"))).map_err(|e| DecodeError(e.to_string()))?;
    Ok((response, RawStatus(status)))
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;

    use serde::Deserialize;

    use super::*;
    use crate::hooks::v1alpha1::{BeforeClusterUpgradeResponse, DiscoverVariablesResponse};

    #[derive(Debug, Default, Deserialize, PartialEq)]
    #[serde(default, rename_all = "camelCase")]
    struct Inner {
        name: String,
        labels: BTreeMap<String, String>,
    }

    #[derive(Debug, Default, Deserialize, PartialEq)]
    #[serde(default, rename_all = "camelCase")]
    struct Outer {
        status: String,
        message: String,
        retry_after_seconds: i32,
        items: Vec<Inner>,
        maybe: Option<Inner>,
    }

    #[test]
    fn field_names_match_ignoring_case_and_map_keys_do_not() {
        let body = br#"{"Status":"Success","MESSAGE":"hi","RetryAfterSeconds":5,
            "ITEMS":[{"Name":"a","Labels":{"Key":"v"}}],"extra":1}"#;
        let (o, status) = decode_response::<Outer>(body).unwrap();
        assert_eq!(status, RawStatus("Success".into()));
        assert_eq!(o.message, "hi");
        assert_eq!(o.retry_after_seconds, 5);
        assert_eq!(o.items[0].name, "a");
        assert_eq!(o.items[0].labels.get("Key").map(String::as_str), Some("v"));
        assert_eq!(o.status, "", "the status field is read separately");
    }

    #[test]
    fn later_keys_win_and_null_keeps_the_earlier_value() {
        let (o, _) =
            decode_response::<Outer>(br#"{"message":"a","Message":"b","MESSAGE":null}"#).unwrap();
        assert_eq!(o.message, "b");
        let (_, status) =
            decode_response::<Outer>(br#"{"status":"Failure","Status":"Success"}"#).unwrap();
        assert_eq!(status.0, "Success");
    }

    #[test]
    fn null_values_become_defaults() {
        let (o, status) = decode_response::<Outer>(
            br#"{"status":null,"items":[{"name":null,"labels":null}],"maybe":null}"#,
        )
        .unwrap();
        assert_eq!(status.0, "");
        assert_eq!(o.items, vec![Inner::default()]);
        assert_eq!(o.maybe, None);
        let (o, _) = decode_response::<Outer>(b"null").unwrap();
        assert_eq!(o, Outer::default());
    }

    #[test]
    fn trailing_data_is_ignored_and_garbage_is_an_error() {
        assert!(decode_response::<Outer>(br#"{"message":"x"} trailing"#).is_ok());
        for bad in [
            &b""[..],
            b"{",
            b"[]",
            b"\"str\"",
            br#"{"status":5}"#,
            br#"{"retryAfterSeconds":"5"}"#,
            br#"{"retryAfterSeconds":5.5}"#,
            br#"{"retryAfterSeconds":99999999999}"#,
            br#"{"items":{}}"#,
            br#"{"maybe":[1]}"#,
        ] {
            assert!(
                decode_response::<Outer>(bad).is_err(),
                "{}",
                String::from_utf8_lossy(bad)
            );
        }
    }

    #[test]
    fn unicode_folding_matches_go() {
        assert!(eq_fold("status", "\u{17f}tatus"));
        assert!(eq_fold("kind", "\u{212a}IND"));
        assert!(!eq_fold("status", "statu"));
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(512))]

        /// Decoding any bytes as any response type returns a value or an error, never panics.
        #[test]
        fn any_bytes_decode_without_panic(bytes in proptest::collection::vec(proptest::prelude::any::<u8>(), 0..256),
                                          text in "[{}\\[\\],:\"a-zA-Z0-9 .-]{0,64}") {
            use crate::hooks::v1alpha1 as h;
            for input in [&bytes[..], text.as_bytes()] {
                let _ = decode_response::<h::DiscoveryResponse>(input);
                let _ = decode_response::<h::BeforeClusterCreateResponse>(input);
                let _ = decode_response::<h::AfterControlPlaneInitializedResponse>(input);
                let _ = decode_response::<h::GeneratePatchesResponse>(input);
                let _ = decode_response::<h::ValidateTopologyResponse>(input);
                let _ = decode_response::<h::DiscoverVariablesResponse>(input);
                let _ = decode_response::<h::CanUpdateMachineResponse>(input);
                let _ = decode_response::<h::CanUpdateMachineSetResponse>(input);
                let _ = decode_response::<h::UpdateMachineResponse>(input);
                let _ = decode_response::<h::GenerateUpgradePlanResponse>(input);
            }
        }
    }

    #[test]
    fn deep_nesting_is_an_error_not_a_crash() {
        let deep = format!("{}{}", "[".repeat(100_000), "]".repeat(100_000));
        assert!(decode_response::<Outer>(deep.as_bytes()).is_err());
        let deep = format!("{{\"items\":{}", "[{\"labels\":".repeat(50_000));
        assert!(decode_response::<Outer>(deep.as_bytes()).is_err());
    }

    #[test]
    fn hook_responses_decode_from_go_style_bodies() {
        let (r, status) = decode_response::<BeforeClusterUpgradeResponse>(
            br#"{"Status": "Success", "RetryAfterSeconds": 5}"#,
        )
        .unwrap();
        assert_eq!(status.0, "Success");
        assert_eq!(r.retry_after_seconds, 5);
        let (r, _) = decode_response::<DiscoverVariablesResponse>(
            br#"{"status":"Success","variables":[{"Name":"v","Required":true,"schema":{"openAPIV3Schema":{"type":"string"}}}]}"#,
        )
        .unwrap();
        assert_eq!(r.variables[0].name, "v");
        assert_eq!(r.variables[0].required, Some(true));
    }
}
