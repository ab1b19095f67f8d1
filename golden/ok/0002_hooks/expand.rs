const _: () = {
    #[automatically_derived]
    impl ::capi_runtime::hook::Hook for Greet {
        type Request = GreetRequest;
        type Response = GreetResponse;
        const NAME: &'static str = "Greet";
        const GROUP: &'static str = "golden.example.com";
        const VERSION: &'static str = "v1alpha1";
        const API_VERSION: &'static str = "golden.example.com/v1alpha1";
        const REQUEST_KIND: &'static str = "GreetRequest";
        const RESPONSE_KIND: &'static str = "GreetResponse";
        const META: ::capi_runtime::hook::HookMeta = ::capi_runtime::__private::hook_meta(
            "Greets",
            "Asks the extension to greet.\n\nA longer description that spans two lines.",
            &["Greetings"],
            false,
            false,
        );
    }
    #[automatically_derived]
    impl ::capi_runtime::schema::HookSchema for Greet {
        fn hook_info() -> &'static ::capi_runtime::schema::HookInfo {
            static INFO: ::capi_runtime::schema::HookInfo = ::capi_runtime::__private::hook_info(
                3u32,
                r#"{"ident":"Greet","name":"Greet","group":"golden.example.com","version":"v1alpha1","request":{"path":"GreetRequest"},"response":{"path":"GreetResponse"},"tags":["Greetings"],"summary":"Greets","doc":["Asks the extension to greet.","","A longer description that spans","two lines."]}"#,
                <GreetRequest as ::capi_runtime::schema::Schema>::schema_info,
                <GreetResponse as ::capi_runtime::schema::Schema>::schema_info,
            );
            &INFO
        }
    }
    #[automatically_derived]
    impl ::capi_runtime::hook::RequestOf for GreetRequest {
        type Hook = Greet;
    }
};
const _: () = {
    #[automatically_derived]
    impl ::capi_runtime::hook::Hook for List {
        type Request = ListRequest;
        type Response = ListResponse;
        const NAME: &'static str = "List";
        const GROUP: &'static str = "golden.example.com";
        const VERSION: &'static str = "v1alpha1";
        const API_VERSION: &'static str = "golden.example.com/v1alpha1";
        const REQUEST_KIND: &'static str = "ListRequest";
        const RESPONSE_KIND: &'static str = "ListResponse";
        const META: ::capi_runtime::hook::HookMeta = ::capi_runtime::__private::hook_meta(
            "Lists what the extension can do.",
            "Lists what the extension can do.",
            &[],
            true,
            true,
        );
    }
    #[automatically_derived]
    impl ::capi_runtime::schema::HookSchema for List {
        fn hook_info() -> &'static ::capi_runtime::schema::HookInfo {
            static INFO: ::capi_runtime::schema::HookInfo = ::capi_runtime::__private::hook_info(
                3u32,
                r#"{"ident":"List","name":"List","group":"golden.example.com","version":"v1alpha1","request":{"path":"ListRequest"},"response":{"path":"ListResponse"},"summary":"Lists what the extension can do.","doc":["Lists what the extension can do."],"singleton":true,"deprecated":true}"#,
                <ListRequest as ::capi_runtime::schema::Schema>::schema_info,
                <ListResponse as ::capi_runtime::schema::Schema>::schema_info,
            );
            &INFO
        }
    }
    #[automatically_derived]
    impl ::capi_runtime::hook::RequestOf for ListRequest {
        type Hook = List;
    }
};
const _: () = {
    #[automatically_derived]
    impl ::capi_runtime::schema::Schema for GreetRequest {
        fn schema_info() -> &'static ::capi_runtime::schema::TypeInfo {
            static INFO: ::capi_runtime::schema::TypeInfo = ::capi_runtime::__private::type_info(
                3u32,
                r#"{"ident":"GreetRequest","component":"example.com.golden.hooks.v1alpha1.GreetRequest","doc":["The request of Greet."],"shape":{"object":{"fields":[{"ident":"api_version","name":"apiVersion","ty":"string","doc":["apiVersion."],"required":false,"omit_empty":true},{"ident":"kind","name":"kind","ty":"string","doc":["kind."],"required":false,"omit_empty":true},{"ident":"settings","name":"settings","ty":{"map":"string"},"doc":["Settings."],"required":false,"omit_empty":true},{"ident":"who","name":"who","ty":"string","doc":["Who to greet."],"required":true}]}},"role":"request"}"#,
                &[],
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
                                name: "settings",
                                node: ::capi_runtime::__private::shape::Node::Map(
                                    &::capi_runtime::__private::shape::Node::Scalar,
                                ),
                                by_value: false,
                            },
                            ::capi_runtime::__private::shape::Field {
                                name: "who",
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
    impl ::capi_runtime::hook::Message for GreetRequest {
        fn api_version(&self) -> &str {
            &self.api_version
        }
        fn kind(&self) -> &str {
            &self.kind
        }
        fn set_type_meta(&mut self, api_version: &str, kind: &str) {
            api_version.clone_into(&mut self.api_version);
            kind.clone_into(&mut self.kind);
        }
        fn wire_info() -> ::core::option::Option<
            &'static ::capi_runtime::schema::TypeInfo,
        > {
            ::core::option::Option::Some(
                <Self as ::capi_runtime::schema::Schema>::schema_info(),
            )
        }
    }
    #[automatically_derived]
    impl ::capi_runtime::hook::HookRequest for GreetRequest {
        fn settings(&self) -> Option<&::capi_runtime::__private::Settings> {
            Some(&self.settings)
        }
        fn settings_mut(&mut self) -> Option<&mut ::capi_runtime::__private::Settings> {
            Some(&mut self.settings)
        }
    }
};
const _: () = {
    #[automatically_derived]
    impl ::capi_runtime::schema::Schema for GreetResponse {
        fn schema_info() -> &'static ::capi_runtime::schema::TypeInfo {
            static INFO: ::capi_runtime::schema::TypeInfo = ::capi_runtime::__private::type_info(
                3u32,
                r#"{"ident":"GreetResponse","component":"example.com.golden.hooks.v1alpha1.GreetResponse","doc":["The response of Greet."],"shape":{"object":{"fields":[{"ident":"api_version","name":"apiVersion","ty":"string","doc":["apiVersion."],"required":false,"omit_empty":true},{"ident":"kind","name":"kind","ty":"string","doc":["kind."],"required":false,"omit_empty":true},{"ident":"status","name":"status","ty":{"named":{"path":"ResponseStatus","id":0}},"doc":["Outcome."],"required":true},{"ident":"message","name":"message","ty":"string","doc":["Message."],"required":false,"omit_empty":true},{"ident":"retry_after_seconds","name":"retryAfterSeconds","ty":"int32","doc":["Retry after this many seconds."],"required":true}]}},"role":"retryableResponse"}"#,
                &[<ResponseStatus as ::capi_runtime::schema::Schema>::schema_info],
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
                                name: "status",
                                node: ::capi_runtime::__private::shape::Node::Ref(0),
                                by_value: false,
                            },
                            ::capi_runtime::__private::shape::Field {
                                name: "message",
                                node: ::capi_runtime::__private::shape::Node::Scalar,
                                by_value: false,
                            },
                            ::capi_runtime::__private::shape::Field {
                                name: "retryAfterSeconds",
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
    impl ::capi_runtime::hook::Message for GreetResponse {
        fn api_version(&self) -> &str {
            &self.api_version
        }
        fn kind(&self) -> &str {
            &self.kind
        }
        fn set_type_meta(&mut self, api_version: &str, kind: &str) {
            api_version.clone_into(&mut self.api_version);
            kind.clone_into(&mut self.kind);
        }
        fn wire_info() -> ::core::option::Option<
            &'static ::capi_runtime::schema::TypeInfo,
        > {
            ::core::option::Option::Some(
                <Self as ::capi_runtime::schema::Schema>::schema_info(),
            )
        }
    }
    #[automatically_derived]
    impl ::capi_runtime::hook::HookResponse for GreetResponse {
        const RETRYABLE: bool = true;
        fn status(&self) -> ::capi_runtime::__private::ResponseStatus {
            self.status
        }
        fn set_status(&mut self, status: ::capi_runtime::__private::ResponseStatus) {
            self.status = status;
        }
        fn message(&self) -> &str {
            &self.message
        }
        fn set_message(&mut self, message: String) {
            self.message = message;
        }
        fn retry_after_seconds(&self) -> Option<i32> {
            Some(self.retry_after_seconds)
        }
        fn set_retry_after_seconds(&mut self, seconds: i32) -> bool {
            self.retry_after_seconds = seconds;
            true
        }
    }
    #[automatically_derived]
    impl GreetResponse {
        /// A response with status `Success` and every other field at its default
        /// (`HookResponse::success`).
        #[must_use]
        pub fn success() -> Self {
            <Self as ::capi_runtime::hook::HookResponse>::success()
        }
        /// A response with status `Failure` and `message` (`HookResponse::failure`).
        #[must_use]
        pub fn failure(
            message: impl ::core::convert::Into<::std::string::String>,
        ) -> Self {
            <Self as ::capi_runtime::hook::HookResponse>::failure(message)
        }
    }
};
const _: () = {
    #[automatically_derived]
    impl ::capi_runtime::schema::Schema for ListRequest {
        fn schema_info() -> &'static ::capi_runtime::schema::TypeInfo {
            static INFO: ::capi_runtime::schema::TypeInfo = ::capi_runtime::__private::type_info(
                3u32,
                r#"{"ident":"ListRequest","component":"example.com.golden.hooks.v1alpha1.ListRequest","doc":["The request of List: no settings."],"shape":{"object":{"fields":[{"ident":"api_version","name":"apiVersion","ty":"string","doc":["apiVersion."],"required":false,"omit_empty":true},{"ident":"kind","name":"kind","ty":"string","doc":["kind."],"required":false,"omit_empty":true}]}},"role":"request"}"#,
                &[],
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
                        ],
                        zero_times: false,
                    },
                ),
            );
            &INFO
        }
    }
    #[automatically_derived]
    impl ::capi_runtime::hook::Message for ListRequest {
        fn api_version(&self) -> &str {
            &self.api_version
        }
        fn kind(&self) -> &str {
            &self.kind
        }
        fn set_type_meta(&mut self, api_version: &str, kind: &str) {
            api_version.clone_into(&mut self.api_version);
            kind.clone_into(&mut self.kind);
        }
        fn wire_info() -> ::core::option::Option<
            &'static ::capi_runtime::schema::TypeInfo,
        > {
            ::core::option::Option::Some(
                <Self as ::capi_runtime::schema::Schema>::schema_info(),
            )
        }
    }
    #[automatically_derived]
    impl ::capi_runtime::hook::HookRequest for ListRequest {
        fn settings(&self) -> Option<&::capi_runtime::__private::Settings> {
            None
        }
        fn settings_mut(&mut self) -> Option<&mut ::capi_runtime::__private::Settings> {
            None
        }
    }
};
const _: () = {
    #[automatically_derived]
    impl ::capi_runtime::schema::Schema for ListResponse {
        fn schema_info() -> &'static ::capi_runtime::schema::TypeInfo {
            static INFO: ::capi_runtime::schema::TypeInfo = ::capi_runtime::__private::type_info(
                3u32,
                r#"{"ident":"ListResponse","component":"example.com.golden.hooks.v1alpha1.ListResponse","doc":["The response of List."],"shape":{"object":{"fields":[{"ident":"api_version","name":"apiVersion","ty":"string","doc":["apiVersion."],"required":false,"omit_empty":true},{"ident":"kind","name":"kind","ty":"string","doc":["kind."],"required":false,"omit_empty":true},{"ident":"status","name":"status","ty":{"named":{"path":"ResponseStatus","id":0}},"doc":["Outcome."],"required":true},{"ident":"message","name":"message","ty":"string","doc":["Message."],"required":false,"omit_empty":true},{"ident":"names","name":"names","ty":{"list":"string"},"doc":["Names."],"required":false,"omit_empty":true}]}},"role":"response"}"#,
                &[<ResponseStatus as ::capi_runtime::schema::Schema>::schema_info],
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
                                name: "status",
                                node: ::capi_runtime::__private::shape::Node::Ref(0),
                                by_value: false,
                            },
                            ::capi_runtime::__private::shape::Field {
                                name: "message",
                                node: ::capi_runtime::__private::shape::Node::Scalar,
                                by_value: false,
                            },
                            ::capi_runtime::__private::shape::Field {
                                name: "names",
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
    #[automatically_derived]
    impl ::capi_runtime::hook::Message for ListResponse {
        fn api_version(&self) -> &str {
            &self.api_version
        }
        fn kind(&self) -> &str {
            &self.kind
        }
        fn set_type_meta(&mut self, api_version: &str, kind: &str) {
            api_version.clone_into(&mut self.api_version);
            kind.clone_into(&mut self.kind);
        }
        fn wire_info() -> ::core::option::Option<
            &'static ::capi_runtime::schema::TypeInfo,
        > {
            ::core::option::Option::Some(
                <Self as ::capi_runtime::schema::Schema>::schema_info(),
            )
        }
    }
    #[automatically_derived]
    impl ::capi_runtime::hook::HookResponse for ListResponse {
        const RETRYABLE: bool = false;
        fn status(&self) -> ::capi_runtime::__private::ResponseStatus {
            self.status
        }
        fn set_status(&mut self, status: ::capi_runtime::__private::ResponseStatus) {
            self.status = status;
        }
        fn message(&self) -> &str {
            &self.message
        }
        fn set_message(&mut self, message: String) {
            self.message = message;
        }
        fn retry_after_seconds(&self) -> Option<i32> {
            None
        }
        fn set_retry_after_seconds(&mut self, seconds: i32) -> bool {
            let _ = seconds;
            false
        }
    }
    #[automatically_derived]
    impl ListResponse {
        /// A response with status `Success` and every other field at its default
        /// (`HookResponse::success`).
        #[must_use]
        pub fn success() -> Self {
            <Self as ::capi_runtime::hook::HookResponse>::success()
        }
        /// A response with status `Failure` and `message` (`HookResponse::failure`).
        #[must_use]
        pub fn failure(
            message: impl ::core::convert::Into<::std::string::String>,
        ) -> Self {
            <Self as ::capi_runtime::hook::HookResponse>::failure(message)
        }
    }
};
