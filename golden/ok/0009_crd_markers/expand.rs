const _: () = {
    #[automatically_derived]
    impl ::capi_runtime::schema::Schema for Widget {
        fn schema_info() -> &'static ::capi_runtime::schema::TypeInfo {
            static INFO: ::capi_runtime::schema::TypeInfo = ::capi_runtime::__private::type_info(
                3u32,
                r#"{"ident":"Widget","component":"example.com.widgets.v1.Widget","doc":["A widget.","","Its second paragraph keeps its line","breaks in the CRD."],"shape":{"object":{"fields":[{"ident":"api_version","name":"apiVersion","ty":"string","doc":["The version."],"required":false,"omit_empty":true},{"ident":"kind","name":"kind","ty":"string","doc":["The kind."],"required":false,"omit_empty":true},{"ident":"metadata","name":"metadata","ty":{"named":{"path":"metav1::ObjectMeta","id":0}},"doc":["Metadata."],"required":true},{"ident":"spec","name":"spec","ty":{"named":{"path":"WidgetSpec","id":1}},"doc":["The desired state."],"required":true},{"ident":"status","name":"status","ty":{"option":{"named":{"path":"WidgetStatus","id":2}}},"doc":["The observed state."],"required":false,"omit_empty":true}]}},"crd":{"group":"widgets.example.com","version":"v1","plural":"widgets","shortNames":["wd","wdg"],"categories":["all","example"],"namespaced":true,"status":true,"storage":true,"printerColumns":[{"name":"Size","type":"integer","jsonPath":".spec.size","description":"How big"},{"name":"Age","type":"date","jsonPath":".metadata.creationTimestamp","priority":1}]}}"#,
                &[
                    <metav1::ObjectMeta as ::capi_runtime::schema::Schema>::schema_info,
                    <WidgetSpec as ::capi_runtime::schema::Schema>::schema_info,
                    <WidgetStatus as ::capi_runtime::schema::Schema>::schema_info,
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
                                node: ::capi_runtime::__private::shape::Node::Ref(1),
                                by_value: false,
                            },
                            ::capi_runtime::__private::shape::Field {
                                name: "status",
                                node: ::capi_runtime::__private::shape::Node::Option(
                                    &::capi_runtime::__private::shape::Node::Ref(2),
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
    impl ::capi_runtime::object::KubeObject for Widget {
        const GROUP: &'static str = "widgets.example.com";
        const VERSION: &'static str = "v1";
        const API_VERSION: &'static str = "widgets.example.com/v1";
        const KIND: &'static str = "Widget";
        const PLURAL: &'static str = "widgets";
        const NAMESPACED: bool = true;
    }
    ::capi_runtime::__impl_kube_resource!(Widget, NamespaceResourceScope);
};
const _: () = {
    #[automatically_derived]
    impl ::capi_runtime::schema::Schema for WidgetSpec {
        fn schema_info() -> &'static ::capi_runtime::schema::TypeInfo {
            static INFO: ::capi_runtime::schema::TypeInfo = ::capi_runtime::__private::type_info(
                3u32,
                r#"{"ident":"WidgetSpec","component":"example.com.widgets.v1.WidgetSpec","doc":["What a widget should be."],"shape":{"object":{"fields":[{"ident":"name","name":"name","ty":"string","doc":["A name."],"required":true,"validation":{"minLength":1,"maxLength":63,"pattern":"^[a-z]+$"}},{"ident":"size","name":"size","ty":"int32","doc":["A size."],"required":true,"default":{"value":10},"validation":{"minimum":0,"maximum":100}},{"ident":"min_size","name":"minSize","ty":{"option":"int32"},"doc":["A lower bound."],"required":false,"omit_empty":true},{"ident":"color","name":"color","ty":"string","doc":["One of three colors."],"required":false,"omit_empty":true,"validation":{"enumValues":["red","green","blue"]}},{"ident":"mode","name":"mode","ty":{"option":{"named":{"path":"Mode","id":0}}},"doc":["A mode, from a Rust enum."],"required":false,"omit_empty":true},{"ident":"tags","name":"tags","ty":{"list":"string"},"doc":["Tags."],"required":false,"omit_empty":true,"list_type":"set","validation":{"minItems":1,"maxItems":8}},{"ident":"labels","name":"labels","ty":{"map":"string"},"doc":["Labels."],"required":false,"omit_empty":true,"map_type":"granular","validation":{"maxProperties":4}},{"ident":"parts","name":"parts","ty":{"list":{"named":{"path":"Part","id":1}}},"doc":["Parts, keyed by name."],"required":false,"omit_empty":true,"list_type":"map","list_map_keys":["name"]},{"ident":"surge","name":"surge","ty":{"option":{"named":{"path":"IntOrString","id":2}}},"doc":["A count or a percentage."],"required":false,"omit_empty":true},{"ident":"extra","name":"extra","ty":{"option":{"named":{"path":"RawExtension","id":3}}},"doc":["Anything."],"required":false,"omit_empty":true},{"ident":"selector","name":"selector","ty":{"option":{"named":{"path":"metav1::LabelSelector","id":4}}},"doc":["A selector."],"required":false,"omit_empty":true}]}},"validation":{"minProperties":1,"rules":[{"rule":"self.size >= self.minSize","message":"size is below minSize"}]}}"#,
                &[
                    <Mode as ::capi_runtime::schema::Schema>::schema_info,
                    <Part as ::capi_runtime::schema::Schema>::schema_info,
                    <IntOrString as ::capi_runtime::schema::Schema>::schema_info,
                    <RawExtension as ::capi_runtime::schema::Schema>::schema_info,
                    <metav1::LabelSelector as ::capi_runtime::schema::Schema>::schema_info,
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
                                name: "size",
                                node: ::capi_runtime::__private::shape::Node::Scalar,
                                by_value: false,
                            },
                            ::capi_runtime::__private::shape::Field {
                                name: "minSize",
                                node: ::capi_runtime::__private::shape::Node::Option(
                                    &::capi_runtime::__private::shape::Node::Scalar,
                                ),
                                by_value: false,
                            },
                            ::capi_runtime::__private::shape::Field {
                                name: "color",
                                node: ::capi_runtime::__private::shape::Node::Scalar,
                                by_value: false,
                            },
                            ::capi_runtime::__private::shape::Field {
                                name: "mode",
                                node: ::capi_runtime::__private::shape::Node::Option(
                                    &::capi_runtime::__private::shape::Node::Ref(0),
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
                                name: "parts",
                                node: ::capi_runtime::__private::shape::Node::List(
                                    &::capi_runtime::__private::shape::Node::Ref(1),
                                ),
                                by_value: false,
                            },
                            ::capi_runtime::__private::shape::Field {
                                name: "surge",
                                node: ::capi_runtime::__private::shape::Node::Option(
                                    &::capi_runtime::__private::shape::Node::Ref(2),
                                ),
                                by_value: false,
                            },
                            ::capi_runtime::__private::shape::Field {
                                name: "extra",
                                node: ::capi_runtime::__private::shape::Node::Option(
                                    &::capi_runtime::__private::shape::Node::Ref(3),
                                ),
                                by_value: false,
                            },
                            ::capi_runtime::__private::shape::Field {
                                name: "selector",
                                node: ::capi_runtime::__private::shape::Node::Option(
                                    &::capi_runtime::__private::shape::Node::Ref(4),
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
    impl ::capi_runtime::schema::Schema for Part {
        fn schema_info() -> &'static ::capi_runtime::schema::TypeInfo {
            static INFO: ::capi_runtime::schema::TypeInfo = ::capi_runtime::__private::type_info(
                3u32,
                r#"{"ident":"Part","component":"example.com.widgets.v1.Part","doc":["A part of a widget."],"shape":{"object":{"fields":[{"ident":"name","name":"name","ty":"string","doc":["Its name."],"required":true},{"ident":"made","name":"made","ty":{"option":{"named":{"path":"metav1::Time","id":0}}},"doc":["When it was made."],"required":false,"omit_empty":true}]}}}"#,
                &[<metav1::Time as ::capi_runtime::schema::Schema>::schema_info],
                ::capi_runtime::__private::shape::Shape::Struct(
                    &::capi_runtime::__private::shape::StructShape {
                        fields: &[
                            ::capi_runtime::__private::shape::Field {
                                name: "name",
                                node: ::capi_runtime::__private::shape::Node::Scalar,
                                by_value: false,
                            },
                            ::capi_runtime::__private::shape::Field {
                                name: "made",
                                node: ::capi_runtime::__private::shape::Node::Option(
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
    impl ::capi_runtime::schema::Schema for Mode {
        fn schema_info() -> &'static ::capi_runtime::schema::TypeInfo {
            static INFO: ::capi_runtime::schema::TypeInfo = ::capi_runtime::__private::type_info(
                3u32,
                r#"{"ident":"Mode","component":"example.com.widgets.v1.Mode","doc":["How a widget behaves."],"shape":{"enum":{"variants":[{"name":"Fast","ident":"Fast","doc":["Quickly."]},{"name":"Safe","ident":"Safe","doc":["Carefully."]}],"listed":false}}}"#,
                &[],
                ::capi_runtime::__private::shape::Shape::Value,
            );
            &INFO
        }
    }
};
const _: () = {
    #[automatically_derived]
    impl ::capi_runtime::schema::Schema for WidgetStatus {
        fn schema_info() -> &'static ::capi_runtime::schema::TypeInfo {
            static INFO: ::capi_runtime::schema::TypeInfo = ::capi_runtime::__private::type_info(
                3u32,
                r#"{"ident":"WidgetStatus","component":"example.com.widgets.v1.WidgetStatus","doc":["What a widget is."],"shape":{"object":{"fields":[{"ident":"conditions","name":"conditions","ty":{"list":{"named":{"path":"metav1::Condition","id":0}}},"doc":["Conditions."],"required":false,"omit_empty":true,"list_type":"map","list_map_keys":["type"],"validation":{"maxItems":8}}]}}}"#,
                &[<metav1::Condition as ::capi_runtime::schema::Schema>::schema_info],
                ::capi_runtime::__private::shape::Shape::Struct(
                    &::capi_runtime::__private::shape::StructShape {
                        fields: &[
                            ::capi_runtime::__private::shape::Field {
                                name: "conditions",
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
    impl ::capi_runtime::schema::Schema for Widget {
        fn schema_info() -> &'static ::capi_runtime::schema::TypeInfo {
            static INFO: ::capi_runtime::schema::TypeInfo = ::capi_runtime::__private::type_info(
                3u32,
                r#"{"ident":"Widget","component":"example.com.widgets.v1beta1.Widget","doc":["A widget, older version."],"shape":{"object":{"fields":[{"ident":"metadata","name":"metadata","ty":{"named":{"path":"metav1::ObjectMeta","id":0}},"doc":["Metadata."],"required":true},{"ident":"size","name":"size","ty":{"option":"int32"},"doc":["The size."],"required":false,"omit_empty":true}]}},"crd":{"group":"widgets.example.com","version":"v1beta1","plural":"widgets","shortNames":["wd","wdg"],"categories":["all","example"],"namespaced":true,"deprecated":true}}"#,
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
                                name: "size",
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
    #[automatically_derived]
    impl ::capi_runtime::object::KubeObject for Widget {
        const GROUP: &'static str = "widgets.example.com";
        const VERSION: &'static str = "v1beta1";
        const API_VERSION: &'static str = "widgets.example.com/v1beta1";
        const KIND: &'static str = "Widget";
        const PLURAL: &'static str = "widgets";
        const NAMESPACED: bool = true;
    }
    ::capi_runtime::__impl_kube_resource!(Widget, NamespaceResourceScope);
};
