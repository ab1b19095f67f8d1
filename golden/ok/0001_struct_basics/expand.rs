const _: () = {
    #[automatically_derived]
    impl ::capi_runtime::schema::Schema for Basics {
        fn schema_info() -> &'static ::capi_runtime::schema::TypeInfo {
            static INFO: ::capi_runtime::schema::TypeInfo = ::capi_runtime::__private::type_info(
                3u32,
                r#"{"ident":"Basics","component":"example.com.golden.v1.Basics","doc":["A struct that exercises every scalar and container."],"shape":{"object":{"fields":[{"ident":"name","name":"name","ty":"string","doc":["Always written, so required with default \"\"."],"required":true},{"ident":"note","name":"note","ty":"string","doc":["Left out when empty: optional, no default."],"required":false,"omit_empty":true},{"ident":"id","name":"id","ty":"string","doc":["Left out when empty, but marked required."],"required":true,"omit_empty":true},{"ident":"count","name":"count","ty":"int32","doc":["Always written, but marked optional: keeps its zero default."],"required":false},{"ident":"total","name":"total","ty":"int64","doc":["A 64-bit number."],"required":true},{"ident":"enabled","name":"enabled","ty":"bool","doc":["A flag."],"required":true},{"ident":"ratio","name":"ratio","ty":"double","doc":["A float."],"required":true},{"ident":"limit","name":"limit","ty":{"option":"int32"},"doc":["An optional number: never a default."],"required":false,"omit_empty":true},{"ident":"tags","name":"tags","ty":{"list":"string"},"doc":["A list of strings: items default to \"\"."],"required":false,"omit_empty":true},{"ident":"labels","name":"labels","ty":{"map":"string"},"doc":["A map of strings."],"required":false,"omit_empty":true},{"ident":"inner","name":"inner","ty":{"named":{"path":"Inner","id":0}},"doc":["A nested struct value: default {}."],"required":true},{"ident":"maybe","name":"maybe","ty":{"option":{"named":{"path":"Inner","id":0}}},"doc":["An optional nested struct: no default."],"required":false,"omit_empty":true},{"ident":"inners","name":"inners","ty":{"list":{"named":{"path":"Inner","id":0}}},"doc":["A list of structs: items default to {}."],"required":false,"omit_empty":true},{"ident":"mode","name":"mode","ty":"string","doc":["An explicit default."],"required":false,"omit_empty":true,"default":{"value":"fallback"}},{"ident":"raw","name":"raw","ty":{"list":{"named":{"path":"Inner","id":0}}},"doc":["Items without their implicit default."],"required":true,"default":"none"}]}}}"#,
                &[<Inner as ::capi_runtime::schema::Schema>::schema_info],
                ::capi_runtime::__private::shape::Shape::Struct(
                    &::capi_runtime::__private::shape::StructShape {
                        fields: &[
                            ::capi_runtime::__private::shape::Field {
                                name: "name",
                                node: ::capi_runtime::__private::shape::Node::Scalar,
                                by_value: false,
                            },
                            ::capi_runtime::__private::shape::Field {
                                name: "note",
                                node: ::capi_runtime::__private::shape::Node::Scalar,
                                by_value: false,
                            },
                            ::capi_runtime::__private::shape::Field {
                                name: "id",
                                node: ::capi_runtime::__private::shape::Node::Scalar,
                                by_value: false,
                            },
                            ::capi_runtime::__private::shape::Field {
                                name: "count",
                                node: ::capi_runtime::__private::shape::Node::Scalar,
                                by_value: false,
                            },
                            ::capi_runtime::__private::shape::Field {
                                name: "total",
                                node: ::capi_runtime::__private::shape::Node::Scalar,
                                by_value: false,
                            },
                            ::capi_runtime::__private::shape::Field {
                                name: "enabled",
                                node: ::capi_runtime::__private::shape::Node::Scalar,
                                by_value: false,
                            },
                            ::capi_runtime::__private::shape::Field {
                                name: "ratio",
                                node: ::capi_runtime::__private::shape::Node::Scalar,
                                by_value: false,
                            },
                            ::capi_runtime::__private::shape::Field {
                                name: "limit",
                                node: ::capi_runtime::__private::shape::Node::Option(
                                    &::capi_runtime::__private::shape::Node::Scalar,
                                ),
                                by_value: false,
                            },
                            ::capi_runtime::__private::shape::Field {
                                name: "tags",
                                node: ::capi_runtime::__private::shape::Node::List(
                                    &::capi_runtime::__private::shape::Node::Scalar,
                                ),
                                by_value: false,
                            },
                            ::capi_runtime::__private::shape::Field {
                                name: "labels",
                                node: ::capi_runtime::__private::shape::Node::Map(
                                    &::capi_runtime::__private::shape::Node::Scalar,
                                ),
                                by_value: false,
                            },
                            ::capi_runtime::__private::shape::Field {
                                name: "inner",
                                node: ::capi_runtime::__private::shape::Node::Ref(0),
                                by_value: false,
                            },
                            ::capi_runtime::__private::shape::Field {
                                name: "maybe",
                                node: ::capi_runtime::__private::shape::Node::Option(
                                    &::capi_runtime::__private::shape::Node::Ref(0),
                                ),
                                by_value: false,
                            },
                            ::capi_runtime::__private::shape::Field {
                                name: "inners",
                                node: ::capi_runtime::__private::shape::Node::List(
                                    &::capi_runtime::__private::shape::Node::Ref(0),
                                ),
                                by_value: false,
                            },
                            ::capi_runtime::__private::shape::Field {
                                name: "mode",
                                node: ::capi_runtime::__private::shape::Node::Scalar,
                                by_value: false,
                            },
                            ::capi_runtime::__private::shape::Field {
                                name: "raw",
                                node: ::capi_runtime::__private::shape::Node::List(
                                    &::capi_runtime::__private::shape::Node::Ref(0),
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
    impl ::capi_runtime::schema::Schema for Inner {
        fn schema_info() -> &'static ::capi_runtime::schema::TypeInfo {
            static INFO: ::capi_runtime::schema::TypeInfo = ::capi_runtime::__private::type_info(
                3u32,
                r#"{"ident":"Inner","component":"example.com.golden.v1.Inner","doc":["A nested type."],"shape":{"object":{"fields":[{"ident":"value","name":"value","ty":"string","doc":["A value."],"required":true}]}}}"#,
                &[],
                ::capi_runtime::__private::shape::Shape::Struct(
                    &::capi_runtime::__private::shape::StructShape {
                        fields: &[
                            ::capi_runtime::__private::shape::Field {
                                name: "value",
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
