// golden

impl crate::Gadget {
    /// Builds an object of kind `Gadget` in `gadgets.example.com/v1` named `name`, with `spec`.
    ///
    /// The other fields, and `metadata` but its name, keep their values in
    /// `Gadget::default()`; labels, annotations and the like can be set on the result.
    pub fn new(
        name: impl ::core::convert::Into<::std::string::String>,
        spec: crate::GadgetSpec,
    ) -> Self {
        let mut object = Self {
            spec,
            ..::core::default::Default::default()
        };
        object.metadata.name = ::core::option::Option::Some(name.into());
        object
    }
}
