const _: () = {
    #[automatically_derived]
    impl ::capi_runtime::schema::Schema for Widget {
        fn schema_info() -> &'static ::capi_runtime::schema::TypeInfo {
            static INFO: ::capi_runtime::schema::TypeInfo = ::capi_runtime::__private::type_info(
                3u32,
                r#"{"ident":"Widget","component":"example.com.widgets.v1beta1.Widget","doc":["The old shape, read and never written."],"shape":{"object":{"fields":[{"ident":"name","name":"name","ty":"string","doc":["Copied as is."],"required":true},{"ident":"class","name":"class","ty":"string","doc":["Renamed in v1beta2: completed by hand."],"required":true},{"ident":"part","name":"part","ty":{"named":{"path":"Part","id":0}},"doc":["A peer type."],"required":true}]}},"conversion":{"hub":{"path":"super::v1beta2::Widget","id":1},"toHub":"super::fixups::to_v1beta2","toHubOnly":true}}"#,
                &[
                    <Part as ::capi_runtime::schema::Schema>::schema_info,
                    <super::v1beta2::Widget as ::capi_runtime::schema::Schema>::schema_info,
                ],
                ::capi_runtime::__private::shape::Shape::Struct(
                    &::capi_runtime::__private::shape::StructShape {
                        fields: &[
                            ::capi_runtime::__private::shape::Field {
                                name: "name",
                                node: ::capi_runtime::__private::shape::Node::Scalar,
                                by_value: false,
                            },
                            ::capi_runtime::__private::shape::Field {
                                name: "class",
                                node: ::capi_runtime::__private::shape::Node::Scalar,
                                by_value: false,
                            },
                            ::capi_runtime::__private::shape::Field {
                                name: "part",
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
    impl ::capi_runtime::schema::Schema for Part {
        fn schema_info() -> &'static ::capi_runtime::schema::TypeInfo {
            static INFO: ::capi_runtime::schema::TypeInfo = ::capi_runtime::__private::type_info(
                3u32,
                r#"{"ident":"Part","component":"example.com.widgets.v1beta1.Part","doc":["A part."],"shape":{"object":{"fields":[{"ident":"size","name":"size","ty":"int32","doc":["Its size."],"required":true}]}}}"#,
                &[],
                ::capi_runtime::__private::shape::Shape::Struct(
                    &::capi_runtime::__private::shape::StructShape {
                        fields: &[
                            ::capi_runtime::__private::shape::Field {
                                name: "size",
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
    impl ::capi_runtime::schema::Schema for Widget {
        fn schema_info() -> &'static ::capi_runtime::schema::TypeInfo {
            static INFO: ::capi_runtime::schema::TypeInfo = ::capi_runtime::__private::type_info(
                3u32,
                r#"{"ident":"Widget","component":"example.com.widgets.v1beta2.Widget","doc":["The hub."],"shape":{"object":{"fields":[{"ident":"name","name":"name","ty":"string","doc":["Copied as is."],"required":true},{"ident":"class_name","name":"className","ty":"string","doc":["Was `class`."],"required":true},{"ident":"part","name":"part","ty":{"named":{"path":"Part","id":0}},"doc":["A peer type."],"required":true}]}}}"#,
                &[<Part as ::capi_runtime::schema::Schema>::schema_info],
                ::capi_runtime::__private::shape::Shape::Struct(
                    &::capi_runtime::__private::shape::StructShape {
                        fields: &[
                            ::capi_runtime::__private::shape::Field {
                                name: "name",
                                node: ::capi_runtime::__private::shape::Node::Scalar,
                                by_value: false,
                            },
                            ::capi_runtime::__private::shape::Field {
                                name: "className",
                                node: ::capi_runtime::__private::shape::Node::Scalar,
                                by_value: false,
                            },
                            ::capi_runtime::__private::shape::Field {
                                name: "part",
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
    impl ::capi_runtime::schema::Schema for Part {
        fn schema_info() -> &'static ::capi_runtime::schema::TypeInfo {
            static INFO: ::capi_runtime::schema::TypeInfo = ::capi_runtime::__private::type_info(
                3u32,
                r#"{"ident":"Part","component":"example.com.widgets.v1beta2.Part","doc":["A part."],"shape":{"object":{"fields":[{"ident":"size","name":"size","ty":"int32","doc":["Its size."],"required":true}]}}}"#,
                &[],
                ::capi_runtime::__private::shape::Shape::Struct(
                    &::capi_runtime::__private::shape::StructShape {
                        fields: &[
                            ::capi_runtime::__private::shape::Field {
                                name: "size",
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
