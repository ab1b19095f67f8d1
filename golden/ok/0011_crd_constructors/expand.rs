const _: () = {
    #[automatically_derived]
    impl ::capi_runtime::schema::Schema for Gizmo {
        fn schema_info() -> &'static ::capi_runtime::schema::TypeInfo {
            static INFO: ::capi_runtime::schema::TypeInfo = ::capi_runtime::__private::type_info(
                3u32,
                r#"{"ident":"Gizmo","component":"example.com.gizmos.v1.Gizmo","doc":["A gizmo, whose spec may be absent."],"shape":{"object":{"fields":[{"ident":"api_version","name":"apiVersion","ty":"string","doc":["The version."],"required":false,"omit_empty":true},{"ident":"kind","name":"kind","ty":"string","doc":["The kind."],"required":false,"omit_empty":true},{"ident":"metadata","name":"metadata","ty":{"named":{"path":"metav1::ObjectMeta","id":0}},"doc":["Metadata."],"required":true},{"ident":"spec","name":"spec","ty":{"option":{"named":{"path":"GizmoSpec","id":1}}},"doc":["The desired state, if any."],"required":false,"omit_empty":true}]}},"crd":{"group":"gizmos.example.com","version":"v1","plural":"gizmos","storage":true}}"#,
                &[
                    <metav1::ObjectMeta as ::capi_runtime::schema::Schema>::schema_info,
                    <GizmoSpec as ::capi_runtime::schema::Schema>::schema_info,
                ],
                ::capi_runtime::__private::shape::Shape::Struct(
                    &::capi_runtime::__private::shape::StructShape {
                        fields: &[
                            ::capi_runtime::__private::shape::Field {
                                name: "apiVersion",
                                node: ::capi_runtime::__private::shape::Node::Scalar,
                                by_value: false,
                            },
                            ::capi_runtime::__private::shape::Field {
                                name: "kind",
                                node: ::capi_runtime::__private::shape::Node::Scalar,
                                by_value: false,
                            },
                            ::capi_runtime::__private::shape::Field {
                                name: "metadata",
                                node: ::capi_runtime::__private::shape::Node::Ref(0),
                                by_value: false,
                            },
                            ::capi_runtime::__private::shape::Field {
                                name: "spec",
                                node: ::capi_runtime::__private::shape::Node::Option(
                                    &::capi_runtime::__private::shape::Node::Ref(1),
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
    #[automatically_derived]
    impl ::capi_runtime::object::KubeObject for Gizmo {
        const GROUP: &'static str = "gizmos.example.com";
        const VERSION: &'static str = "v1";
        const API_VERSION: &'static str = "gizmos.example.com/v1";
        const KIND: &'static str = "Gizmo";
        const PLURAL: &'static str = "gizmos";
        const NAMESPACED: bool = false;
    }
    ::capi_runtime::__impl_kube_resource!(Gizmo, ClusterResourceScope);
};
const _: () = {
    #[automatically_derived]
    impl ::capi_runtime::schema::Schema for GizmoSpec {
        fn schema_info() -> &'static ::capi_runtime::schema::TypeInfo {
            static INFO: ::capi_runtime::schema::TypeInfo = ::capi_runtime::__private::type_info(
                3u32,
                r#"{"ident":"GizmoSpec","component":"example.com.gizmos.v1.GizmoSpec","doc":["What a gizmo should be."],"shape":{"object":{"fields":[{"ident":"count","name":"count","ty":"int32","doc":["How many."],"required":true}]}}}"#,
                &[],
                ::capi_runtime::__private::shape::Shape::Struct(
                    &::capi_runtime::__private::shape::StructShape {
                        fields: &[
                            ::capi_runtime::__private::shape::Field {
                                name: "count",
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
    impl ::capi_runtime::schema::Schema for Note {
        fn schema_info() -> &'static ::capi_runtime::schema::TypeInfo {
            static INFO: ::capi_runtime::schema::TypeInfo = ::capi_runtime::__private::type_info(
                3u32,
                r#"{"ident":"Note","component":"example.com.gizmos.v1.Note","doc":["A note whose spec is a plain string."],"shape":{"object":{"fields":[{"ident":"metadata","name":"metadata","ty":{"named":{"path":"metav1::ObjectMeta","id":0}},"doc":["Metadata."],"required":true},{"ident":"spec","name":"spec","ty":"string","doc":["The text."],"required":true}]}},"crd":{"group":"gizmos.example.com","version":"v1","plural":"notes","namespaced":true,"storage":true}}"#,
                &[<metav1::ObjectMeta as ::capi_runtime::schema::Schema>::schema_info],
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
    #[automatically_derived]
    impl ::capi_runtime::object::KubeObject for Note {
        const GROUP: &'static str = "gizmos.example.com";
        const VERSION: &'static str = "v1";
        const API_VERSION: &'static str = "gizmos.example.com/v1";
        const KIND: &'static str = "Note";
        const PLURAL: &'static str = "notes";
        const NAMESPACED: bool = true;
    }
    ::capi_runtime::__impl_kube_resource!(Note, NamespaceResourceScope);
};
