const _: () = {
    #[automatically_derived]
    impl ::capi_runtime::schema::Schema for Thing {
        fn schema_info() -> &'static ::capi_runtime::schema::TypeInfo {
            static INFO: ::capi_runtime::schema::TypeInfo = ::capi_runtime::__private::type_info(
                3u32,
                r#"{"ident":"Thing","component":"example.com.golden.v1.Thing","doc":["An object with standard metadata and external field types."],"shape":{"object":{"fields":[{"ident":"metadata","name":"metadata","ty":{"named":{"path":"metav1::ObjectMeta","id":0}},"doc":["Standard metadata: a struct value, default {}."],"required":true},{"ident":"created","name":"created","ty":{"option":{"named":{"path":"metav1::Time","id":1}}},"doc":["A time: custom JSON, no default."],"required":false,"omit_empty":true},{"ident":"max_surge","name":"maxSurge","ty":{"option":{"named":{"path":"IntOrString","id":2}}},"doc":["A count or a percentage."],"required":false,"omit_empty":true},{"ident":"object","name":"object","ty":{"named":{"path":"RawExtension","id":3}},"doc":["Any embedded object."],"required":true},{"ident":"data","name":"data","ty":{"named":{"path":"ByteString","id":4}},"doc":["Base64 bytes, written in place."],"required":true},{"ident":"extra","name":"extra","ty":{"named":{"path":"serde_json::Value","id":5}},"doc":["Any JSON value, written in place."],"required":true},{"ident":"conditions","name":"conditions","ty":{"list":{"named":{"path":"metav1::Condition","id":6}}},"doc":["Standard conditions."],"required":false,"omit_empty":true,"list_type":"map","list_map_keys":["type"]},{"ident":"values","name":"values","ty":{"map":{"named":{"path":"serde_json::Value","id":5}}},"doc":["Annotations of any JSON value."],"required":false,"omit_empty":true}]}}}"#,
                &[
                    <metav1::ObjectMeta as ::capi_runtime::schema::Schema>::schema_info,
                    <metav1::Time as ::capi_runtime::schema::Schema>::schema_info,
                    <IntOrString as ::capi_runtime::schema::Schema>::schema_info,
                    <RawExtension as ::capi_runtime::schema::Schema>::schema_info,
                    <ByteString as ::capi_runtime::schema::Schema>::schema_info,
                    <serde_json::Value as ::capi_runtime::schema::Schema>::schema_info,
                    <metav1::Condition as ::capi_runtime::schema::Schema>::schema_info,
                ],
                ::capi_runtime::__private::shape::Shape::Struct(
                    &::capi_runtime::__private::shape::StructShape {
                        fields: &[
                            ::capi_runtime::__private::shape::Field {
                                name: "metadata",
                                node: ::capi_runtime::__private::shape::Node::Ref(0),
                                by_value: false,
                            },
                            ::capi_runtime::__private::shape::Field {
                                name: "created",
                                node: ::capi_runtime::__private::shape::Node::Option(
                                    &::capi_runtime::__private::shape::Node::Ref(1),
                                ),
                                by_value: false,
                            },
                            ::capi_runtime::__private::shape::Field {
                                name: "maxSurge",
                                node: ::capi_runtime::__private::shape::Node::Option(
                                    &::capi_runtime::__private::shape::Node::Ref(2),
                                ),
                                by_value: false,
                            },
                            ::capi_runtime::__private::shape::Field {
                                name: "object",
                                node: ::capi_runtime::__private::shape::Node::Ref(3),
                                by_value: false,
                            },
                            ::capi_runtime::__private::shape::Field {
                                name: "data",
                                node: ::capi_runtime::__private::shape::Node::Ref(4),
                                by_value: false,
                            },
                            ::capi_runtime::__private::shape::Field {
                                name: "extra",
                                node: ::capi_runtime::__private::shape::Node::Ref(5),
                                by_value: false,
                            },
                            ::capi_runtime::__private::shape::Field {
                                name: "conditions",
                                node: ::capi_runtime::__private::shape::Node::List(
                                    &::capi_runtime::__private::shape::Node::Ref(6),
                                ),
                                by_value: false,
                            },
                            ::capi_runtime::__private::shape::Field {
                                name: "values",
                                node: ::capi_runtime::__private::shape::Node::Map(
                                    &::capi_runtime::__private::shape::Node::Ref(5),
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
