// golden

impl crate::v1::Widget {
    /// Builds an object of kind `Widget` in `widgets.example.com/v1` named `name`, with `spec`.
    ///
    /// `apiVersion` and `kind` are filled in; the other fields, and `metadata` but its name, keep their values in
    /// `Widget::default()`; labels, annotations and the like can be set on the result.
    pub fn new(
        name: impl ::core::convert::Into<::std::string::String>,
        spec: crate::v1::WidgetSpec,
    ) -> Self {
        let mut object = Self {
            api_version: "widgets.example.com/v1".to_string(),
            kind: "Widget".to_string(),
            spec,
            ..::core::default::Default::default()
        };
        object.metadata.name = ::core::option::Option::Some(name.into());
        object
    }
}
impl crate::v1beta1::Widget {
    /// Builds an object of kind `Widget` in `widgets.example.com/v1beta1` named `name`.
    ///
    /// The other fields, and `metadata` but its name, keep their values in
    /// `Widget::default()`; labels, annotations and the like can be set on the result.
    pub fn new(name: impl ::core::convert::Into<::std::string::String>) -> Self {
        let mut object = <Self as ::core::default::Default>::default();
        object.metadata.name = ::core::option::Option::Some(name.into());
        object
    }
}
