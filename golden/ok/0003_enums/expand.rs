const _: () = {
    #[automatically_derived]
    impl ::capi_runtime::schema::Schema for Color {
        fn schema_info() -> &'static ::capi_runtime::schema::TypeInfo {
            static INFO: ::capi_runtime::schema::TypeInfo = ::capi_runtime::__private::type_info(
                3u32,
                r#"{"ident":"Color","component":"example.com.golden.v1.Color","doc":["A color; the schema lists the values."],"shape":{"enum":{"variants":[{"name":"Blue","ident":"Blue","doc":["The color of the sky."]},{"name":"Green","ident":"Green","doc":["The color of grass."]}],"listed":true}}}"#,
                &[],
                ::capi_runtime::__private::shape::Shape::Value,
            );
            &INFO
        }
    }
};
const _: () = {
    #[automatically_derived]
    impl ::capi_runtime::schema::Schema for Mode {
        fn schema_info() -> &'static ::capi_runtime::schema::TypeInfo {
            static INFO: ::capi_runtime::schema::TypeInfo = ::capi_runtime::__private::type_info(
                3u32,
                r#"{"ident":"Mode","component":"example.com.golden.v1.Mode","doc":["A mode; the schema is a plain string."],"shape":{"enum":{"variants":[{"name":"fast","ident":"Fast","doc":["Fast."]},{"name":"safe","ident":"Safe","doc":["Safe."]}],"listed":false}}}"#,
                &[],
                ::capi_runtime::__private::shape::Shape::Value,
            );
            &INFO
        }
    }
};
const _: () = {
    #[automatically_derived]
    impl ::capi_runtime::schema::Schema for Paint {
        fn schema_info() -> &'static ::capi_runtime::schema::TypeInfo {
            static INFO: ::capi_runtime::schema::TypeInfo = ::capi_runtime::__private::type_info(
                3u32,
                r#"{"ident":"Paint","component":"example.com.golden.v1.Paint","doc":["Uses both enums."],"shape":{"object":{"fields":[{"ident":"color","name":"color","ty":{"named":{"path":"Color","id":0}},"doc":["Always written, listed: no default, since \"\" is not a value."],"required":true},{"ident":"mode","name":"mode","ty":{"named":{"path":"Mode","id":1}},"doc":["Always written, plain: default \"\"."],"required":true},{"ident":"accent","name":"accent","ty":{"option":{"named":{"path":"Color","id":0}}},"doc":["Optional."],"required":false,"omit_empty":true},{"ident":"palette","name":"palette","ty":{"list":{"named":{"path":"Color","id":0}}},"doc":["A list of listed values."],"required":true}]}}}"#,
                &[
                    <Color as ::capi_runtime::schema::Schema>::schema_info,
                    <Mode as ::capi_runtime::schema::Schema>::schema_info,
                ],
                ::capi_runtime::__private::shape::Shape::Struct(
                    &::capi_runtime::__private::shape::StructShape {
                        fields: &[
                            ::capi_runtime::__private::shape::Field {
                                name: "color",
                                node: ::capi_runtime::__private::shape::Node::Ref(0),
                                by_value: false,
                            },
                            ::capi_runtime::__private::shape::Field {
                                name: "mode",
                                node: ::capi_runtime::__private::shape::Node::Ref(1),
                                by_value: false,
                            },
                            ::capi_runtime::__private::shape::Field {
                                name: "accent",
                                node: ::capi_runtime::__private::shape::Node::Option(
                                    &::capi_runtime::__private::shape::Node::Ref(0),
                                ),
                                by_value: false,
                            },
                            ::capi_runtime::__private::shape::Field {
                                name: "palette",
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
