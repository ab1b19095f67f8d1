// golden
//
// Fields completed by hand-written functions:
// - crate::v1beta1::Widget -> crate::v1beta2::Widget: class_name (crate::fixups::to_v1beta2)

#![allow(clippy::clone_on_copy)]

impl ::core::convert::TryFrom<&crate::v1beta1::Widget> for crate::v1beta2::Widget {
    type Error = ::capi_runtime::conversion::ConversionError;
    fn try_from(
        src: &crate::v1beta1::Widget,
    ) -> ::core::result::Result<Self, ::capi_runtime::conversion::ConversionError> {
        let mut out = Self {
            name: src.name.clone(),
            part: crate::v1beta2::Part::try_from(&src.part).map_err(|e| e.at("part"))?,
            ..::core::default::Default::default()
        };
        crate::fixups::to_v1beta2(src, &mut out)?;
        ::core::result::Result::Ok(out)
    }
}
impl ::core::convert::TryFrom<&crate::v1beta1::Part> for crate::v1beta2::Part {
    type Error = ::capi_runtime::conversion::ConversionError;
    fn try_from(
        src: &crate::v1beta1::Part,
    ) -> ::core::result::Result<Self, ::capi_runtime::conversion::ConversionError> {
        ::core::result::Result::Ok(Self { size: src.size })
    }
}
