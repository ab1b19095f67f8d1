//! The parts of the v1alpha1 ↔ v1beta2 conversion the generator cannot do: the status
//! conditions, which changed form and place between the versions. The generated code
//! (`src/generated/conversion.rs`) converts every other field, then calls these.
//!
//! v1alpha1 keeps Cluster API's older conditions in `status.conditions` and the standard
//! Kubernetes ones in `status.v1beta2.conditions`; v1beta2 has the standard ones in
//! `status.conditions` and the older ones in `status.deprecated.v1beta1.conditions`. Each list
//! moves to its place; the containers are created only when their list is not empty.

use super::{ExtensionConfigStatus, ExtensionConfigV1Beta2Status};
use crate::api::runtime::v1beta2;
use crate::conversion::ConversionError;

/// Completes the conversion of a v1alpha1 status to v1beta2.
/// Every status has a v1beta2 form, so this never fails.
pub fn status_to_hub(
    src: &ExtensionConfigStatus,
    dst: &mut v1beta2::ExtensionConfigStatus,
) -> Result<(), ConversionError> {
    dst.conditions = src
        .v1beta2
        .as_ref()
        .map(|v| v.conditions.clone())
        .unwrap_or_default();
    dst.deprecated =
        (!src.conditions.is_empty()).then(|| v1beta2::ExtensionConfigDeprecatedStatus {
            v1beta1: Some(v1beta2::ExtensionConfigV1Beta1DeprecatedStatus {
                conditions: src.conditions.clone(),
            }),
        });
    Ok(())
}

/// Completes the conversion of a v1beta2 status to v1alpha1.
/// Every status has a v1alpha1 form, so this never fails.
pub fn status_from_hub(
    src: &v1beta2::ExtensionConfigStatus,
    dst: &mut ExtensionConfigStatus,
) -> Result<(), ConversionError> {
    dst.conditions = src
        .deprecated
        .as_ref()
        .and_then(|d| d.v1beta1.as_ref())
        .map(|v| v.conditions.clone())
        .unwrap_or_default();
    dst.v1beta2 = (!src.conditions.is_empty()).then(|| ExtensionConfigV1Beta2Status {
        conditions: src.conditions.clone(),
    });
    Ok(())
}
