const _: () = {
    #[automatically_derived]
    impl ::capi_runtime::schema::Schema for Holder {
        fn schema_info() -> &'static ::capi_runtime::schema::TypeInfo {
            static INFO: ::capi_runtime::schema::TypeInfo = ::capi_runtime::__private::type_info(
                3u32,
                r#"{"ident":"Holder","component":"example.com.golden.v1.Holder","doc":["Holds keyed lists."],"shape":{"object":{"fields":[{"ident":"entries","name":"entries","ty":{"list":{"named":{"path":"Entry","id":0}}},"doc":["A list keyed by name."],"required":false,"omit_empty":true,"list_type":"map","list_map_keys":["name"]},{"ident":"pairs","name":"pairs","ty":{"list":{"named":{"path":"Entry","id":0}}},"doc":["A list keyed by two fields."],"required":false,"omit_empty":true,"list_type":"map","list_map_keys":["name","kind"]},{"ident":"values","name":"values","ty":{"list":"string"},"doc":["An atomic list."],"required":false,"omit_empty":true,"list_type":"atomic"},{"ident":"unique","name":"unique","ty":{"list":"string"},"doc":["A set."],"required":false,"omit_empty":true,"list_type":"set"},{"ident":"merged","name":"merged","ty":{"list":{"named":{"path":"Entry","id":0}}},"doc":["Merged by key when patched."],"required":false,"omit_empty":true,"patch_strategy":"merge","patch_merge_key":"name"},{"ident":"whole","name":"whole","ty":{"named":{"path":"Entry","id":0}},"doc":["An atomic struct."],"required":true,"map_type":"atomic"}]}},"map_type":"atomic"}"#,
                &[<Entry as ::capi_runtime::schema::Schema>::schema_info],
                ::capi_runtime::__private::shape::Shape::Struct(
                    &::capi_runtime::__private::shape::StructShape {
                        fields: &[
                            ::capi_runtime::__private::shape::Field {
                                name: "entries",
                                node: ::capi_runtime::__private::shape::Node::List(
                                    &::capi_runtime::__private::shape::Node::Ref(0),
                                ),
                                by_value: false,
                            },
                            ::capi_runtime::__private::shape::Field {
                                name: "pairs",
                                node: ::capi_runtime::__private::shape::Node::List(
                                    &::capi_runtime::__private::shape::Node::Ref(0),
                                ),
                                by_value: false,
                            },
                            ::capi_runtime::__private::shape::Field {
                                name: "values",
                                node: ::capi_runtime::__private::shape::Node::List(
                                    &::capi_runtime::__private::shape::Node::Scalar,
                                ),
                                by_value: false,
                            },
                            ::capi_runtime::__private::shape::Field {
                                name: "unique",
                                node: ::capi_runtime::__private::shape::Node::List(
                                    &::capi_runtime::__private::shape::Node::Scalar,
                                ),
                                by_value: false,
                            },
                            ::capi_runtime::__private::shape::Field {
                                name: "merged",
                                node: ::capi_runtime::__private::shape::Node::List(
                                    &::capi_runtime::__private::shape::Node::Ref(0),
                                ),
                                by_value: false,
                            },
                            ::capi_runtime::__private::shape::Field {
                                name: "whole",
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
    impl ::capi_runtime::schema::Schema for Entry {
        fn schema_info() -> &'static ::capi_runtime::schema::TypeInfo {
            static INFO: ::capi_runtime::schema::TypeInfo = ::capi_runtime::__private::type_info(
                3u32,
                r#"{"ident":"Entry","component":"example.com.golden.v1.Entry","doc":["An entry."],"shape":{"object":{"fields":[{"ident":"name","name":"name","ty":"string","doc":["Name."],"required":true},{"ident":"kind","name":"kind","ty":"string","doc":["Kind."],"required":true}]}}}"#,
                &[],
                ::capi_runtime::__private::shape::Shape::Struct(
                    &::capi_runtime::__private::shape::StructShape {
                        fields: &[
                            ::capi_runtime::__private::shape::Field {
                                name: "name",
                                node: ::capi_runtime::__private::shape::Node::Scalar,
                                by_value: false,
                            },
                            ::capi_runtime::__private::shape::Field {
                                name: "kind",
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
