const _: () = {
    #[automatically_derived]
    impl ::capi_runtime::schema::Schema for Renamed {
        fn schema_info() -> &'static ::capi_runtime::schema::TypeInfo {
            static INFO: ::capi_runtime::schema::TypeInfo = ::capi_runtime::__private::type_info(
                3u32,
                r#"{"ident":"Renamed","component":"example.com.golden.v1.Renamed","doc":["The wire names of this struct follow serde."],"shape":{"object":{"fields":[{"ident":"node_name","name":"nodeName","ty":"string","doc":["camelCase from rename_all."],"required":true},{"ident":"provider_id","name":"providerID","ty":"string","doc":["Explicit rename wins."],"required":true},{"ident":"type","name":"type","ty":"string","doc":["A raw identifier."],"required":true},{"ident":"common","name":"common","ty":{"named":{"path":"Common","id":0}},"doc":["A nested object with names of its own."],"required":true}]}}}"#,
                &[<Common as ::capi_runtime::schema::Schema>::schema_info],
                ::capi_runtime::__private::shape::Shape::Struct(
                    &::capi_runtime::__private::shape::StructShape {
                        fields: &[
                            ::capi_runtime::__private::shape::Field {
                                name: "nodeName",
                                node: ::capi_runtime::__private::shape::Node::Scalar,
                                by_value: false,
                            },
                            ::capi_runtime::__private::shape::Field {
                                name: "providerID",
                                node: ::capi_runtime::__private::shape::Node::Scalar,
                                by_value: false,
                            },
                            ::capi_runtime::__private::shape::Field {
                                name: "legacy",
                                node: ::capi_runtime::__private::shape::Node::Scalar,
                                by_value: false,
                            },
                            ::capi_runtime::__private::shape::Field {
                                name: "type",
                                node: ::capi_runtime::__private::shape::Node::Scalar,
                                by_value: false,
                            },
                            ::capi_runtime::__private::shape::Field {
                                name: "common",
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
    impl ::capi_runtime::schema::Schema for Common {
        fn schema_info() -> &'static ::capi_runtime::schema::TypeInfo {
            static INFO: ::capi_runtime::schema::TypeInfo = ::capi_runtime::__private::type_info(
                3u32,
                r#"{"ident":"Common","component":"example.com.golden.v1.Common","doc":["Fields shared by several objects."],"shape":{"object":{"fields":[{"ident":"shared_value","name":"SHARED_VALUE","ty":"string","doc":["Becomes SHARED_VALUE."],"required":true},{"ident":"extra","name":"EXTRA","ty":{"option":"int64"},"doc":["Optional."],"required":false,"omit_empty":true}]}}}"#,
                &[],
                ::capi_runtime::__private::shape::Shape::Struct(
                    &::capi_runtime::__private::shape::StructShape {
                        fields: &[
                            ::capi_runtime::__private::shape::Field {
                                name: "SHARED_VALUE",
                                node: ::capi_runtime::__private::shape::Node::Scalar,
                                by_value: false,
                            },
                            ::capi_runtime::__private::shape::Field {
                                name: "EXTRA",
                                node: ::capi_runtime::__private::shape::Node::Option(
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
