const _: () = {
    #[automatically_derived]
    impl ::capi_runtime::schema::Schema for Gadget {
        fn schema_info() -> &'static ::capi_runtime::schema::TypeInfo {
            static INFO: ::capi_runtime::schema::TypeInfo = ::capi_runtime::__private::type_info(
                3u32,
                r#"{"ident":"Gadget","component":"example.com.gadgets.v1alpha1.Gadget","doc":["The old shape."],"shape":{"object":{"fields":[{"ident":"name","name":"name","ty":"string","doc":["Copied as is."],"required":true},{"ident":"owner","name":"owner","ty":{"option":"string"},"doc":["A pointer here, a value in v2."],"required":false,"omit_empty":true},{"ident":"count","name":"count","ty":{"option":"int32"},"doc":["A pointer here, a value in v2."],"required":false,"omit_empty":true},{"ident":"motor","name":"motor","ty":{"option":{"named":{"path":"Motor","id":0}}},"doc":["A peer type, optional here."],"required":false,"omit_empty":true},{"ident":"parts","name":"parts","ty":{"list":{"named":{"path":"Part","id":1}}},"doc":["A list of peers."],"required":false,"omit_empty":true},{"ident":"spares","name":"spares","ty":{"map":{"named":{"path":"Part","id":1}}},"doc":["A map of peers."],"required":false,"omit_empty":true},{"ident":"weight","name":"weight","ty":"string","doc":["Changed type in v2: hand-written."],"required":true},{"ident":"legacy","name":"legacy","ty":"string","doc":["Gone in v2: hand-written."],"required":false,"omit_empty":true}]}},"conversion":{"hub":{"path":"super::v2::Gadget","id":2},"toHub":"super::fixups::to_v2","fromHub":"super::fixups::from_v2"}}"#,
                &[
                    <Motor as ::capi_runtime::schema::Schema>::schema_info,
                    <Part as ::capi_runtime::schema::Schema>::schema_info,
                    <super::v2::Gadget as ::capi_runtime::schema::Schema>::schema_info,
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
                                name: "owner",
                                node: ::capi_runtime::__private::shape::Node::Option(
                                    &::capi_runtime::__private::shape::Node::Scalar,
                                ),
                                by_value: false,
                            },
                            ::capi_runtime::__private::shape::Field {
                                name: "count",
                                node: ::capi_runtime::__private::shape::Node::Option(
                                    &::capi_runtime::__private::shape::Node::Scalar,
                                ),
                                by_value: false,
                            },
                            ::capi_runtime::__private::shape::Field {
                                name: "motor",
                                node: ::capi_runtime::__private::shape::Node::Option(
                                    &::capi_runtime::__private::shape::Node::Ref(0),
                                ),
                                by_value: false,
                            },
                            ::capi_runtime::__private::shape::Field {
                                name: "parts",
                                node: ::capi_runtime::__private::shape::Node::List(
                                    &::capi_runtime::__private::shape::Node::Ref(1),
                                ),
                                by_value: false,
                            },
                            ::capi_runtime::__private::shape::Field {
                                name: "spares",
                                node: ::capi_runtime::__private::shape::Node::Map(
                                    &::capi_runtime::__private::shape::Node::Ref(1),
                                ),
                                by_value: false,
                            },
                            ::capi_runtime::__private::shape::Field {
                                name: "weight",
                                node: ::capi_runtime::__private::shape::Node::Scalar,
                                by_value: false,
                            },
                            ::capi_runtime::__private::shape::Field {
                                name: "legacy",
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
    impl ::capi_runtime::schema::Schema for Motor {
        fn schema_info() -> &'static ::capi_runtime::schema::TypeInfo {
            static INFO: ::capi_runtime::schema::TypeInfo = ::capi_runtime::__private::type_info(
                3u32,
                r#"{"ident":"Motor","component":"example.com.gadgets.v1alpha1.Motor","doc":["A motor."],"shape":{"object":{"fields":[{"ident":"watts","name":"watts","ty":"int64","doc":["Its power."],"required":true},{"ident":"kind","name":"kind","ty":{"named":{"path":"Drive","id":0}},"doc":["Its kind."],"required":true}]}}}"#,
                &[<Drive as ::capi_runtime::schema::Schema>::schema_info],
                ::capi_runtime::__private::shape::Shape::Struct(
                    &::capi_runtime::__private::shape::StructShape {
                        fields: &[
                            ::capi_runtime::__private::shape::Field {
                                name: "watts",
                                node: ::capi_runtime::__private::shape::Node::Scalar,
                                by_value: false,
                            },
                            ::capi_runtime::__private::shape::Field {
                                name: "kind",
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
                r#"{"ident":"Part","component":"example.com.gadgets.v1alpha1.Part","doc":["A part."],"shape":{"object":{"fields":[{"ident":"id","name":"id","ty":"string","doc":["Its id."],"required":true}]}}}"#,
                &[],
                ::capi_runtime::__private::shape::Shape::Struct(
                    &::capi_runtime::__private::shape::StructShape {
                        fields: &[
                            ::capi_runtime::__private::shape::Field {
                                name: "id",
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
    impl ::capi_runtime::schema::Schema for Drive {
        fn schema_info() -> &'static ::capi_runtime::schema::TypeInfo {
            static INFO: ::capi_runtime::schema::TypeInfo = ::capi_runtime::__private::type_info(
                3u32,
                r#"{"ident":"Drive","component":"example.com.gadgets.v1alpha1.Drive","doc":["How a motor drives."],"shape":{"enum":{"variants":[{"name":"Electric","ident":"Electric","doc":["Electric."]},{"name":"Steam","ident":"Steam","doc":["Steam."]}],"listed":false}}}"#,
                &[],
                ::capi_runtime::__private::shape::Shape::Value,
            );
            &INFO
        }
    }
};
const _: () = {
    #[automatically_derived]
    impl ::capi_runtime::schema::Schema for Gadget {
        fn schema_info() -> &'static ::capi_runtime::schema::TypeInfo {
            static INFO: ::capi_runtime::schema::TypeInfo = ::capi_runtime::__private::type_info(
                3u32,
                r#"{"ident":"Gadget","component":"example.com.gadgets.v2.Gadget","doc":["The new shape."],"shape":{"object":{"fields":[{"ident":"name","name":"name","ty":"string","doc":["Copied as is."],"required":true},{"ident":"owner","name":"owner","ty":"string","doc":["A value here."],"required":false,"omit_empty":true},{"ident":"count","name":"count","ty":"int32","doc":["A value here."],"required":true},{"ident":"motor","name":"motor","ty":{"named":{"path":"Motor","id":0}},"doc":["A value here."],"required":true},{"ident":"parts","name":"parts","ty":{"list":{"named":{"path":"Part","id":1}}},"doc":["A list of peers."],"required":true},{"ident":"spares","name":"spares","ty":{"map":{"named":{"path":"Part","id":1}}},"doc":["A map of peers."],"required":true},{"ident":"weight","name":"weight","ty":"int64","doc":["Grams, as a number now."],"required":true},{"ident":"notes","name":"notes","ty":{"list":"string"},"doc":["New in v2: hand-written."],"required":true}]}}}"#,
                &[
                    <Motor as ::capi_runtime::schema::Schema>::schema_info,
                    <Part as ::capi_runtime::schema::Schema>::schema_info,
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
                                name: "owner",
                                node: ::capi_runtime::__private::shape::Node::Scalar,
                                by_value: false,
                            },
                            ::capi_runtime::__private::shape::Field {
                                name: "count",
                                node: ::capi_runtime::__private::shape::Node::Scalar,
                                by_value: false,
                            },
                            ::capi_runtime::__private::shape::Field {
                                name: "motor",
                                node: ::capi_runtime::__private::shape::Node::Ref(0),
                                by_value: false,
                            },
                            ::capi_runtime::__private::shape::Field {
                                name: "parts",
                                node: ::capi_runtime::__private::shape::Node::List(
                                    &::capi_runtime::__private::shape::Node::Ref(1),
                                ),
                                by_value: false,
                            },
                            ::capi_runtime::__private::shape::Field {
                                name: "spares",
                                node: ::capi_runtime::__private::shape::Node::Map(
                                    &::capi_runtime::__private::shape::Node::Ref(1),
                                ),
                                by_value: false,
                            },
                            ::capi_runtime::__private::shape::Field {
                                name: "weight",
                                node: ::capi_runtime::__private::shape::Node::Scalar,
                                by_value: false,
                            },
                            ::capi_runtime::__private::shape::Field {
                                name: "notes",
                                node: ::capi_runtime::__private::shape::Node::List(
                                    &::capi_runtime::__private::shape::Node::Scalar,
                                ),
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
    impl ::capi_runtime::schema::Schema for Motor {
        fn schema_info() -> &'static ::capi_runtime::schema::TypeInfo {
            static INFO: ::capi_runtime::schema::TypeInfo = ::capi_runtime::__private::type_info(
                3u32,
                r#"{"ident":"Motor","component":"example.com.gadgets.v2.Motor","doc":["A motor."],"shape":{"object":{"fields":[{"ident":"watts","name":"watts","ty":"int64","doc":["Its power."],"required":true},{"ident":"kind","name":"kind","ty":{"named":{"path":"Drive","id":0}},"doc":["Its kind."],"required":true}]}}}"#,
                &[<Drive as ::capi_runtime::schema::Schema>::schema_info],
                ::capi_runtime::__private::shape::Shape::Struct(
                    &::capi_runtime::__private::shape::StructShape {
                        fields: &[
                            ::capi_runtime::__private::shape::Field {
                                name: "watts",
                                node: ::capi_runtime::__private::shape::Node::Scalar,
                                by_value: false,
                            },
                            ::capi_runtime::__private::shape::Field {
                                name: "kind",
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
                r#"{"ident":"Part","component":"example.com.gadgets.v2.Part","doc":["A part."],"shape":{"object":{"fields":[{"ident":"id","name":"id","ty":"string","doc":["Its id."],"required":true}]}}}"#,
                &[],
                ::capi_runtime::__private::shape::Shape::Struct(
                    &::capi_runtime::__private::shape::StructShape {
                        fields: &[
                            ::capi_runtime::__private::shape::Field {
                                name: "id",
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
    impl ::capi_runtime::schema::Schema for Drive {
        fn schema_info() -> &'static ::capi_runtime::schema::TypeInfo {
            static INFO: ::capi_runtime::schema::TypeInfo = ::capi_runtime::__private::type_info(
                3u32,
                r#"{"ident":"Drive","component":"example.com.gadgets.v2.Drive","doc":["How a motor drives."],"shape":{"enum":{"variants":[{"name":"Electric","ident":"Electric","doc":["Electric."]},{"name":"Steam","ident":"Steam","doc":["Steam."]}],"listed":false}}}"#,
                &[],
                ::capi_runtime::__private::shape::Shape::Value,
            );
            &INFO
        }
    }
};
