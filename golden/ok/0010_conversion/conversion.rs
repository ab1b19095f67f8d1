// golden
//
// Fields completed by hand-written functions:
// - crate::v1alpha1::Gadget -> crate::v2::Gadget: weight, notes (crate::fixups::to_v2)
// - crate::v2::Gadget -> crate::v1alpha1::Gadget: weight, legacy (crate::fixups::from_v2)

#![allow(clippy::clone_on_copy)]

/// True for the zero value: what converts to `None` where one version has an `Option`.
fn is_zero<T: ::core::default::Default + ::core::cmp::PartialEq>(v: &T) -> bool {
    *v == T::default()
}
impl ::core::convert::TryFrom<&crate::v1alpha1::Gadget> for crate::v2::Gadget {
    type Error = ::capi_runtime::conversion::ConversionError;
    fn try_from(
        src: &crate::v1alpha1::Gadget,
    ) -> ::core::result::Result<Self, ::capi_runtime::conversion::ConversionError> {
        let mut out = Self {
            name: src.name.clone(),
            owner: src.owner.clone().unwrap_or_default(),
            count: src.count.unwrap_or_default(),
            motor: src
                .motor
                .as_ref()
                .map(crate::v2::Motor::try_from)
                .transpose()
                .map(::core::option::Option::unwrap_or_default)
                .map_err(|e| e.at("motor"))?,
            parts: ::capi_runtime::__private::conversion::list(
                    src.parts.iter(),
                    crate::v2::Part::try_from,
                )
                .map_err(|e| e.at("parts"))?,
            spares: ::capi_runtime::__private::conversion::map(
                    src.spares.iter(),
                    |v| crate::v2::Part::try_from(v),
                )
                .map_err(|e| e.at("spares"))?,
            ..::core::default::Default::default()
        };
        crate::fixups::to_v2(src, &mut out)?;
        ::core::result::Result::Ok(out)
    }
}
impl ::core::convert::TryFrom<&crate::v2::Gadget> for crate::v1alpha1::Gadget {
    type Error = ::capi_runtime::conversion::ConversionError;
    fn try_from(
        src: &crate::v2::Gadget,
    ) -> ::core::result::Result<Self, ::capi_runtime::conversion::ConversionError> {
        let mut out = Self {
            name: src.name.clone(),
            owner: if is_zero(&src.owner) { None } else { Some(src.owner.clone()) },
            count: if is_zero(&src.count) { None } else { Some(src.count) },
            motor: if is_zero(&src.motor) {
                ::core::result::Result::Ok(None)
            } else {
                crate::v1alpha1::Motor::try_from(&src.motor).map(Some)
            }
                .map_err(|e| e.at("motor"))?,
            parts: ::capi_runtime::__private::conversion::list(
                    src.parts.iter(),
                    crate::v1alpha1::Part::try_from,
                )
                .map_err(|e| e.at("parts"))?,
            spares: ::capi_runtime::__private::conversion::map(
                    src.spares.iter(),
                    |v| crate::v1alpha1::Part::try_from(v),
                )
                .map_err(|e| e.at("spares"))?,
            ..::core::default::Default::default()
        };
        crate::fixups::from_v2(src, &mut out)?;
        ::core::result::Result::Ok(out)
    }
}
impl ::core::convert::TryFrom<&crate::v1alpha1::Motor> for crate::v2::Motor {
    type Error = ::capi_runtime::conversion::ConversionError;
    fn try_from(
        src: &crate::v1alpha1::Motor,
    ) -> ::core::result::Result<Self, ::capi_runtime::conversion::ConversionError> {
        ::core::result::Result::Ok(Self {
            watts: src.watts,
            kind: crate::v2::Drive::try_from(&src.kind).map_err(|e| e.at("kind"))?,
        })
    }
}
impl ::core::convert::TryFrom<&crate::v2::Motor> for crate::v1alpha1::Motor {
    type Error = ::capi_runtime::conversion::ConversionError;
    fn try_from(
        src: &crate::v2::Motor,
    ) -> ::core::result::Result<Self, ::capi_runtime::conversion::ConversionError> {
        ::core::result::Result::Ok(Self {
            watts: src.watts,
            kind: crate::v1alpha1::Drive::try_from(&src.kind).map_err(|e| e.at("kind"))?,
        })
    }
}
impl ::core::convert::TryFrom<&crate::v1alpha1::Part> for crate::v2::Part {
    type Error = ::capi_runtime::conversion::ConversionError;
    fn try_from(
        src: &crate::v1alpha1::Part,
    ) -> ::core::result::Result<Self, ::capi_runtime::conversion::ConversionError> {
        ::core::result::Result::Ok(Self { id: src.id.clone() })
    }
}
impl ::core::convert::TryFrom<&crate::v2::Part> for crate::v1alpha1::Part {
    type Error = ::capi_runtime::conversion::ConversionError;
    fn try_from(
        src: &crate::v2::Part,
    ) -> ::core::result::Result<Self, ::capi_runtime::conversion::ConversionError> {
        ::core::result::Result::Ok(Self { id: src.id.clone() })
    }
}
impl ::core::convert::TryFrom<&crate::v1alpha1::Drive> for crate::v2::Drive {
    type Error = ::capi_runtime::conversion::ConversionError;
    fn try_from(
        src: &crate::v1alpha1::Drive,
    ) -> ::core::result::Result<Self, ::capi_runtime::conversion::ConversionError> {
        ::core::result::Result::Ok(
            match src {
                crate::v1alpha1::Drive::Electric => crate::v2::Drive::Electric,
                crate::v1alpha1::Drive::Steam => crate::v2::Drive::Steam,
            },
        )
    }
}
impl ::core::convert::TryFrom<&crate::v2::Drive> for crate::v1alpha1::Drive {
    type Error = ::capi_runtime::conversion::ConversionError;
    fn try_from(
        src: &crate::v2::Drive,
    ) -> ::core::result::Result<Self, ::capi_runtime::conversion::ConversionError> {
        ::core::result::Result::Ok(
            match src {
                crate::v2::Drive::Electric => crate::v1alpha1::Drive::Electric,
                crate::v2::Drive::Steam => crate::v1alpha1::Drive::Steam,
            },
        )
    }
}
