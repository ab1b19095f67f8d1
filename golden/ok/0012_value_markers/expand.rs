const _: () = {
    #[automatically_derived]
    impl ::capi_runtime::schema::Schema for Gadget {
        fn schema_info() -> &'static ::capi_runtime::schema::TypeInfo {
            static INFO: ::capi_runtime::schema::TypeInfo = ::capi_runtime::__private::type_info(
                3u32,
                r#"{"ident":"Gadget","component":"example.com.gadgets.v1.Gadget","doc":["A gadget."],"shape":{"object":{"fields":[{"ident":"metadata","name":"metadata","ty":{"named":{"path":"k8s_openapi::apimachinery::pkg::apis::meta::v1::ObjectMeta","id":0}},"doc":["Metadata."],"required":true},{"ident":"spec","name":"spec","ty":{"named":{"path":"GadgetSpec","id":1}},"doc":["The desired state."],"required":true}]}},"crd":{"group":"gadgets.example.com","version":"v1","plural":"gadgets","namespaced":true}}"#,
                &[
                    <k8s_openapi::apimachinery::pkg::apis::meta::v1::ObjectMeta as ::capi_runtime::schema::Schema>::schema_info,
                    <GadgetSpec as ::capi_runtime::schema::Schema>::schema_info,
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
                                name: "spec",
                                node: ::capi_runtime::__private::shape::Node::Ref(1),
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
    #[automatically_derived]
    impl ::capi_runtime::object::KubeObject for Gadget {
        const GROUP: &'static str = "gadgets.example.com";
        const VERSION: &'static str = "v1";
        const API_VERSION: &'static str = "gadgets.example.com/v1";
        const KIND: &'static str = "Gadget";
        const PLURAL: &'static str = "gadgets";
        const NAMESPACED: bool = true;
    }
    ::capi_runtime::__impl_kube_resource!(Gadget, NamespaceResourceScope);
};
const _: () = {
    #[automatically_derived]
    impl ::capi_runtime::schema::Schema for GadgetSpec {
        fn schema_info() -> &'static ::capi_runtime::schema::TypeInfo {
            static INFO: ::capi_runtime::schema::TypeInfo = ::capi_runtime::__private::type_info(
                3u32,
                r#"{"ident":"GadgetSpec","component":"example.com.gadgets.v1.GadgetSpec","doc":["What a gadget should be."],"shape":{"object":{"fields":[{"ident":"ratio","name":"ratio","ty":"double","doc":["A ratio strictly between 0 and 10."],"required":true,"validation":{"minimum":0,"maximum":10,"exclusiveMinimum":true,"exclusiveMaximum":true,"example":5}},{"ident":"tags","name":"tags","ty":{"list":"string"},"doc":["Tags, each once."],"required":true,"validation":{"uniqueItems":true,"example":["a","b"]}},{"ident":"made","name":"made","ty":"string","doc":["When it was made."],"required":true,"validation":{"format":"date-time"}},{"ident":"extra","name":"extra","ty":{"map":"string"},"doc":["Anything."],"required":true,"validation":{"rules":[{"rule":"has(self.kind)","messageExpression":"'kind is missing in ' + self.name","reason":"FieldValueRequired","fieldPath":".kind"}],"preserveUnknownFields":true}},{"ident":"port","name":"port","ty":{"named":{"path":"Port","id":0}},"doc":["A port by number or name."],"required":true},{"ident":"weight","name":"weight","ty":{"named":{"path":"Weight","id":1}},"doc":["How heavy it is: the weight's own default."],"required":true},{"ident":"case_weight","name":"caseWeight","ty":{"named":{"path":"Weight","id":1}},"doc":["How heavy its case is: a default of its own."],"required":true,"default":{"value":1}}]}}}"#,
                &[
                    <Port as ::capi_runtime::schema::Schema>::schema_info,
                    <Weight as ::capi_runtime::schema::Schema>::schema_info,
                ],
                ::capi_runtime::__private::shape::Shape::Struct(
                    &::capi_runtime::__private::shape::StructShape {
                        fields: &[
                            ::capi_runtime::__private::shape::Field {
                                name: "ratio",
                                node: ::capi_runtime::__private::shape::Node::Scalar,
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
                                name: "made",
                                node: ::capi_runtime::__private::shape::Node::Scalar,
                                by_value: false,
                            },
                            ::capi_runtime::__private::shape::Field {
                                name: "extra",
                                node: ::capi_runtime::__private::shape::Node::Map(
                                    &::capi_runtime::__private::shape::Node::Scalar,
                                ),
                                by_value: false,
                            },
                            ::capi_runtime::__private::shape::Field {
                                name: "port",
                                node: ::capi_runtime::__private::shape::Node::Ref(0),
                                by_value: false,
                            },
                            ::capi_runtime::__private::shape::Field {
                                name: "weight",
                                node: ::capi_runtime::__private::shape::Node::Ref(1),
                                by_value: false,
                            },
                            ::capi_runtime::__private::shape::Field {
                                name: "caseWeight",
                                node: ::capi_runtime::__private::shape::Node::Ref(1),
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
    impl ::capi_runtime::schema::Schema for Port {
        fn schema_info() -> &'static ::capi_runtime::schema::TypeInfo {
            static INFO: ::capi_runtime::schema::TypeInfo = ::capi_runtime::__private::type_info(
                3u32,
                r#"{"ident":"Port","component":"example.com.gadgets.v1.Port","doc":["A port number or name."],"shape":{"transparent":{"ty":"string"}},"validation":{"pattern":"^[0-9a-z-]+$","intOrString":true}}"#,
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
    impl ::capi_runtime::schema::Schema for Weight {
        fn schema_info() -> &'static ::capi_runtime::schema::TypeInfo {
            static INFO: ::capi_runtime::schema::TypeInfo = ::capi_runtime::__private::type_info(
                3u32,
                r#"{"ident":"Weight","component":"example.com.gadgets.v1.Weight","doc":["A weight, at least 1."],"shape":{"transparent":{"ty":"int32"}},"validation":{"minimum":1,"default":3}}"#,
                &[],
                ::capi_runtime::__private::shape::Shape::Transparent(
                    ::capi_runtime::__private::shape::Node::Scalar,
                ),
            );
            &INFO
        }
    }
};
