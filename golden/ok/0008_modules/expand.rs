const _: () = {
    #[automatically_derived]
    impl ::capi_runtime::schema::Schema for Square {
        fn schema_info() -> &'static ::capi_runtime::schema::TypeInfo {
            static INFO: ::capi_runtime::schema::TypeInfo = ::capi_runtime::__private::type_info(
                3u32,
                r#"{"ident":"Square","component":"example.com.golden.shapes.v1.Square","doc":["A square."],"shape":{"object":{"fields":[{"ident":"side","name":"side","ty":"int32","doc":["Side length."],"required":true}]}}}"#,
                &[],
                ::capi_runtime::__private::shape::Shape::Struct(
                    &::capi_runtime::__private::shape::StructShape {
                        fields: &[
                            ::capi_runtime::__private::shape::Field {
                                name: "side",
                                node: ::capi_runtime::__private::shape::Node::Scalar,
                                by_value: false,
                            },
                        ],
                        zero_times: false,
                    },
                ),
            );
            &INFO
        }
    }
};
const _: () = {
    #[automatically_derived]
    impl ::capi_runtime::schema::Schema for Circle {
        fn schema_info() -> &'static ::capi_runtime::schema::TypeInfo {
            static INFO: ::capi_runtime::schema::TypeInfo = ::capi_runtime::__private::type_info(
                3u32,
                r#"{"ident":"Circle","component":"example.com.golden.shapes.v1.Circle","doc":["A circle."],"shape":{"object":{"fields":[{"ident":"radius","name":"radius","ty":"int32","doc":["Radius."],"required":true},{"ident":"bounds","name":"bounds","ty":{"named":{"path":"super::Square","id":0}},"doc":["A square around it, through `super`."],"required":true}]}}}"#,
                &[<super::Square as ::capi_runtime::schema::Schema>::schema_info],
                ::capi_runtime::__private::shape::Shape::Struct(
                    &::capi_runtime::__private::shape::StructShape {
                        fields: &[
                            ::capi_runtime::__private::shape::Field {
                                name: "radius",
                                node: ::capi_runtime::__private::shape::Node::Scalar,
                                by_value: false,
                            },
                            ::capi_runtime::__private::shape::Field {
                                name: "bounds",
                                node: ::capi_runtime::__private::shape::Node::Ref(0),
                                by_value: false,
                            },
                        ],
                        zero_times: false,
                    },
                ),
            );
            &INFO
        }
    }
};
const _: () = {
    #[automatically_derived]
    impl ::capi_runtime::schema::Schema for Drawing {
        fn schema_info() -> &'static ::capi_runtime::schema::TypeInfo {
            static INFO: ::capi_runtime::schema::TypeInfo = ::capi_runtime::__private::type_info(
                3u32,
                r#"{"ident":"Drawing","component":"example.com.golden.v1.Drawing","doc":["A drawing."],"shape":{"object":{"fields":[{"ident":"square","name":"square","ty":{"named":{"path":"Square","id":0}},"doc":["Through a glob import."],"required":true},{"ident":"disc","name":"disc","ty":{"named":{"path":"Disc","id":1}},"doc":["Through a renamed import of a re-export."],"required":true},{"ident":"circle","name":"circle","ty":{"named":{"path":"shapes::round::Circle","id":2}},"doc":["Through a path."],"required":true},{"ident":"other","name":"other","ty":{"named":{"path":"crate::shapes::Square","id":3}},"doc":["Through an absolute crate path."],"required":true}]}}}"#,
                &[
                    <Square as ::capi_runtime::schema::Schema>::schema_info,
                    <Disc as ::capi_runtime::schema::Schema>::schema_info,
                    <shapes::round::Circle as ::capi_runtime::schema::Schema>::schema_info,
                    <crate::shapes::Square as ::capi_runtime::schema::Schema>::schema_info,
                ],
                ::capi_runtime::__private::shape::Shape::Struct(
                    &::capi_runtime::__private::shape::StructShape {
                        fields: &[
                            ::capi_runtime::__private::shape::Field {
                                name: "square",
                                node: ::capi_runtime::__private::shape::Node::Ref(0),
                                by_value: false,
                            },
                            ::capi_runtime::__private::shape::Field {
                                name: "disc",
                                node: ::capi_runtime::__private::shape::Node::Ref(1),
                                by_value: false,
                            },
                            ::capi_runtime::__private::shape::Field {
                                name: "circle",
                                node: ::capi_runtime::__private::shape::Node::Ref(2),
                                by_value: false,
                            },
                            ::capi_runtime::__private::shape::Field {
                                name: "other",
                                node: ::capi_runtime::__private::shape::Node::Ref(3),
                                by_value: false,
                            },
                        ],
                        zero_times: false,
                    },
                ),
            );
            &INFO
        }
    }
};
