const _: () = {
    #[automatically_derived]
    impl ::capi_runtime::schema::Schema for Uid {
        fn schema_info() -> &'static ::capi_runtime::schema::TypeInfo {
            static INFO: ::capi_runtime::schema::TypeInfo = ::capi_runtime::__private::type_info(
                3u32,
                r#"{"ident":"Uid","component":"example.com.golden.v1.Uid","doc":["An identifier, written as its string."],"shape":{"transparent":{"ty":"string"}}}"#,
                &[],
                ::capi_runtime::__private::shape::Shape::Transparent(
                    ::capi_runtime::__private::shape::Node::Scalar,
                ),
            );
            &INFO
        }
    }
};
const _: () = {
    #[automatically_derived]
    impl ::capi_runtime::schema::Schema for Duration {
        fn schema_info() -> &'static ::capi_runtime::schema::TypeInfo {
            static INFO: ::capi_runtime::schema::TypeInfo = ::capi_runtime::__private::type_info(
                3u32,
                r#"{"ident":"Duration","component":"example.com.golden.v1.Duration","doc":["A duration written as a string like \"10s\"."],"shape":{"opaque":{"schema":{"pattern":"^[0-9]+s$","type":"string"}}}}"#,
                &[],
                ::capi_runtime::__private::shape::Shape::Own,
            );
            &INFO
        }
    }
};
const _: () = {
    #[automatically_derived]
    impl ::capi_runtime::schema::Schema for Percent {
        fn schema_info() -> &'static ::capi_runtime::schema::TypeInfo {
            static INFO: ::capi_runtime::schema::TypeInfo = ::capi_runtime::__private::type_info(
                3u32,
                r#"{"ident":"Percent","component":"example.Percent","doc":["A percentage, written in place."],"shape":{"opaque":{"schema":{"maximum":100,"minimum":0,"type":"integer"},"inline":true}}}"#,
                &[],
                ::capi_runtime::__private::shape::Shape::Own,
            );
            &INFO
        }
    }
};
const _: () = {
    #[automatically_derived]
    impl ::capi_runtime::schema::Schema for Timer {
        fn schema_info() -> &'static ::capi_runtime::schema::TypeInfo {
            static INFO: ::capi_runtime::schema::TypeInfo = ::capi_runtime::__private::type_info(
                3u32,
                r#"{"ident":"Timer","component":"example.com.golden.v1.Timer","doc":["Uses them."],"shape":{"object":{"fields":[{"ident":"uid","name":"uid","ty":{"named":{"path":"Uid","id":0}},"doc":["Always written: the string's default."],"required":true},{"ident":"parent","name":"parent","ty":{"option":{"named":{"path":"Uid","id":0}}},"doc":["Optional id."],"required":false,"omit_empty":true},{"ident":"every","name":"every","ty":{"named":{"path":"Duration","id":1}},"doc":["A component with custom JSON: no default."],"required":true},{"ident":"load","name":"load","ty":{"named":{"path":"Percent","id":2}},"doc":["Written in place."],"required":true}]}}}"#,
                &[
                    <Uid as ::capi_runtime::schema::Schema>::schema_info,
                    <Duration as ::capi_runtime::schema::Schema>::schema_info,
                    <Percent as ::capi_runtime::schema::Schema>::schema_info,
                ],
                ::capi_runtime::__private::shape::Shape::Struct(
                    &::capi_runtime::__private::shape::StructShape {
                        fields: &[
                            ::capi_runtime::__private::shape::Field {
                                name: "uid",
                                node: ::capi_runtime::__private::shape::Node::Ref(0),
                                by_value: false,
                            },
                            ::capi_runtime::__private::shape::Field {
                                name: "parent",
                                node: ::capi_runtime::__private::shape::Node::Option(
                                    &::capi_runtime::__private::shape::Node::Ref(0),
                                ),
                                by_value: false,
                            },
                            ::capi_runtime::__private::shape::Field {
                                name: "every",
                                node: ::capi_runtime::__private::shape::Node::Ref(1),
                                by_value: false,
                            },
                            ::capi_runtime::__private::shape::Field {
                                name: "load",
                                node: ::capi_runtime::__private::shape::Node::Ref(2),
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
