// golden
//
// Roots without a constructor (their `spec` is not a named type):
// - crate::Note

impl crate::Gizmo {
    /// Builds an object of kind `Gizmo` in `gizmos.example.com/v1` named `name`, with `Some(spec)`.
    ///
    /// `apiVersion` and `kind` are filled in; the other fields, and `metadata` but its name, keep their values in
    /// `Gizmo::default()`; labels, annotations and the like can be set on the result.
    pub fn new(
        name: impl ::core::convert::Into<::std::string::String>,
        spec: crate::GizmoSpec,
    ) -> Self {
        let mut object = Self {
            api_version: "gizmos.example.com/v1".to_string(),
            kind: "Gizmo".to_string(),
            spec: ::core::option::Option::Some(spec),
            ..::core::default::Default::default()
        };
        object.metadata.name = ::core::option::Option::Some(name.into());
        object
    }
}
