// The wire schemas of the k8s-openapi types that Cluster API's hook types embed.
//
// This file is not compiled. The generator reads it with the same parser as the hook types,
// as the crate `k8s_openapi`, so a field typed `k8s_openapi::...::ObjectMeta` resolves here.
// The shapes follow the upstream Kubernetes definitions that Cluster API vendors into its
// OpenAPI document (optionality, defaults, list and map types); the words are ours.
// `cargo xtask codegen` also turns it into the `Schema` impls of `src/generated/`, with the
// shapes the wire decoder reads these types by: a field typed `String` here is one Go holds by
// value (k8s-openapi's Rust type may read it as an `Option`), and `wire = "time"` / `"bytes"`
// mark the types Go reads as `metav1.Time` and `[]byte`.

/// Base64-encoded bytes.
#[derive(Schema)]
#[schema(name = "k8s_openapi.ByteString", opaque = r#"{"type": "string", "format": "byte"}"#, inline, wire = "bytes")]
pub struct ByteString;

pub mod apimachinery {
    pub mod pkg {
        pub mod apis {
            pub mod meta {
                pub mod v1 {
                    /// Metadata that every persisted Kubernetes object carries: identity,
                    /// labels and annotations, ownership and lifecycle bookkeeping.
                    #[derive(Schema)]
                    #[schema(package = "k8s.io/apimachinery/pkg/apis/meta/v1")]
                    #[serde(rename_all = "camelCase")]
                    pub struct ObjectMeta {
                        /// Unique name of the object within its namespace (or cluster-wide for
                        /// cluster-scoped kinds).
                        #[serde(skip_serializing_if = "String::is_empty")]
                        pub name: String,
                        /// Prefix the server completes into a unique name when `name` is empty.
                        #[serde(skip_serializing_if = "String::is_empty")]
                        pub generate_name: String,
                        /// Namespace the object lives in; empty for cluster-scoped kinds.
                        #[serde(skip_serializing_if = "String::is_empty")]
                        pub namespace: String,
                        /// Obsolete self link; servers no longer fill it in.
                        #[serde(skip_serializing_if = "String::is_empty")]
                        pub self_link: String,
                        /// Identifier the server assigns for the object's whole lifetime.
                        #[serde(skip_serializing_if = "String::is_empty")]
                        pub uid: String,
                        /// Opaque version used for optimistic concurrency and watches.
                        #[serde(skip_serializing_if = "String::is_empty")]
                        pub resource_version: String,
                        /// Sequence number of the desired state, bumped by the server on spec
                        /// changes.
                        #[serde(skip_serializing_if = "is_zero")]
                        pub generation: i64,
                        /// When the object was created, set by the server.
                        #[serde(skip_serializing_if = "Option::is_none")]
                        #[schema(default_json = "{}")]
                        pub creation_timestamp: Option<Time>,
                        /// When graceful deletion of the object was requested.
                        #[serde(skip_serializing_if = "Option::is_none")]
                        pub deletion_timestamp: Option<Time>,
                        /// Seconds the object is given to terminate gracefully once deleted.
                        #[serde(skip_serializing_if = "Option::is_none")]
                        pub deletion_grace_period_seconds: Option<i64>,
                        /// Key/value pairs used to select and group objects.
                        #[serde(skip_serializing_if = "BTreeMap::is_empty")]
                        pub labels: BTreeMap<String, String>,
                        /// Key/value pairs for arbitrary non-identifying metadata.
                        #[serde(skip_serializing_if = "BTreeMap::is_empty")]
                        pub annotations: BTreeMap<String, String>,
                        /// Objects this one depends on; garbage collection follows these.
                        #[serde(skip_serializing_if = "Vec::is_empty")]
                        #[schema(patch_strategy = "merge", patch_merge_key = "uid")]
                        pub owner_references: Vec<OwnerReference>,
                        /// Conditions that must be cleared before the object is removed.
                        #[serde(skip_serializing_if = "Vec::is_empty")]
                        #[schema(patch_strategy = "merge")]
                        pub finalizers: Vec<String>,
                        /// Obsolete field kept for compatibility; always empty.
                        #[serde(skip_serializing_if = "String::is_empty")]
                        pub cluster_name: String,
                        /// Which field managers own which fields, for server-side apply.
                        #[serde(skip_serializing_if = "Vec::is_empty")]
                        pub managed_fields: Vec<ManagedFieldsEntry>,
                    }

                    /// One field manager's ownership record of part of an object.
                    #[derive(Schema)]
                    #[schema(package = "k8s.io/apimachinery/pkg/apis/meta/v1")]
                    #[serde(rename_all = "camelCase")]
                    pub struct ManagedFieldsEntry {
                        /// The workflow that manages the fields.
                        #[serde(skip_serializing_if = "String::is_empty")]
                        pub manager: String,
                        /// The kind of operation that produced the entry: Apply or Update.
                        #[serde(skip_serializing_if = "String::is_empty")]
                        pub operation: String,
                        /// The API version the field set is expressed in.
                        #[serde(skip_serializing_if = "String::is_empty")]
                        pub api_version: String,
                        /// When the entry was last changed.
                        #[serde(skip_serializing_if = "Option::is_none")]
                        pub time: Option<Time>,
                        /// Format of `fieldsV1`; only "FieldsV1" exists.
                        #[serde(skip_serializing_if = "String::is_empty")]
                        pub fields_type: String,
                        /// The set of fields, in the FieldsV1 format.
                        #[serde(skip_serializing_if = "Option::is_none")]
                        pub fields_v1: Option<FieldsV1>,
                        /// The subresource the operation was made through, if any.
                        #[serde(skip_serializing_if = "String::is_empty")]
                        pub subresource: String,
                    }

                    /// A field set encoded as a JSON object (the FieldsV1 format).
                    #[derive(Schema)]
                    #[schema(package = "k8s.io/apimachinery/pkg/apis/meta/v1", opaque = r#"{"type": "object"}"#)]
                    pub struct FieldsV1;

                    /// A point in time, written as an RFC 3339 string with second precision.
                    #[derive(Schema)]
                    #[schema(package = "k8s.io/apimachinery/pkg/apis/meta/v1", opaque = r#"{"type": "string", "format": "date-time"}"#, wire = "time")]
                    pub struct Time;

                    /// A reference to an owning object in the same namespace.
                    #[derive(Schema)]
                    #[schema(package = "k8s.io/apimachinery/pkg/apis/meta/v1", map_type = "atomic")]
                    #[serde(rename_all = "camelCase")]
                    pub struct OwnerReference {
                        /// API version of the owner.
                        pub api_version: String,
                        /// Kind of the owner.
                        pub kind: String,
                        /// Name of the owner.
                        pub name: String,
                        /// UID of the owner.
                        pub uid: String,
                        /// True when the owner is the managing controller.
                        #[serde(skip_serializing_if = "Option::is_none")]
                        pub controller: Option<bool>,
                        /// True when foreground deletion of the owner waits for this object.
                        #[serde(skip_serializing_if = "Option::is_none")]
                        pub block_owner_deletion: Option<bool>,
                    }

                    /// One aspect of an object's current state, in the standard Kubernetes form.
                    #[derive(Schema)]
                    #[schema(package = "k8s.io/apimachinery/pkg/apis/meta/v1")]
                    #[serde(rename_all = "camelCase")]
                    pub struct Condition {
                        /// Kind of condition, in CamelCase.
                        #[schema(
                            max_length = 316,
                            pattern = r"^([a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*/)?(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])$"
                        )]
                        pub r#type: String,
                        /// One of True, False or Unknown.
                        #[schema(enum_values("True", "False", "Unknown"))]
                        pub status: String,
                        /// The generation the condition was computed for.
                        #[serde(skip_serializing_if = "is_zero")]
                        #[schema(minimum = 0)]
                        pub observed_generation: i64,
                        /// When the status last changed.
                        pub last_transition_time: Time,
                        /// Machine-readable CamelCase reason for the last transition.
                        #[schema(min_length = 1, max_length = 1024, pattern = "^[A-Za-z]([A-Za-z0-9_,:]*[A-Za-z0-9_])?$")]
                        pub reason: String,
                        /// Human-readable details about the transition.
                        #[schema(max_length = 32768)]
                        pub message: String,
                    }

                    /// A label query: every requirement must hold (logical AND).
                    #[derive(Schema)]
                    #[schema(package = "k8s.io/apimachinery/pkg/apis/meta/v1", map_type = "atomic")]
                    #[serde(rename_all = "camelCase")]
                    pub struct LabelSelector {
                        /// Exact key/value matches, each equivalent to an `In` requirement with
                        /// one value.
                        #[serde(skip_serializing_if = "BTreeMap::is_empty")]
                        pub match_labels: BTreeMap<String, String>,
                        /// Set-based requirements.
                        #[serde(skip_serializing_if = "Vec::is_empty")]
                        #[schema(list_type = "atomic")]
                        pub match_expressions: Vec<LabelSelectorRequirement>,
                    }

                    /// A requirement on one label key.
                    #[derive(Schema)]
                    #[schema(package = "k8s.io/apimachinery/pkg/apis/meta/v1")]
                    #[serde(rename_all = "camelCase")]
                    pub struct LabelSelectorRequirement {
                        /// The label key.
                        pub key: String,
                        /// How the key relates to the values: In, NotIn, Exists or DoesNotExist.
                        pub operator: String,
                        /// The values; empty for Exists and DoesNotExist.
                        #[serde(skip_serializing_if = "Vec::is_empty")]
                        #[schema(list_type = "atomic")]
                        pub values: Vec<String>,
                    }
                }
            }
        }

        pub mod runtime {
            /// An embedded object of any kind, kept as raw JSON.
            #[derive(Schema)]
            #[schema(
                package = "k8s.io/apimachinery/pkg/runtime",
                opaque = r#"{"type": "object"}"#,
                crd_schema = r#"{"type": "object", "x-kubernetes-preserve-unknown-fields": true}"#
            )]
            pub struct RawExtension;
        }

        pub mod util {
            pub mod intstr {
                /// A value that is either an integer or a string (for example a count or a
                /// percentage).
                #[derive(Schema)]
                #[schema(
                    package = "k8s.io/apimachinery/pkg/util/intstr",
                    opaque = r#"{"format": "int-or-string", "oneOf": [{"type": "integer"}, {"type": "string"}], "x-kubernetes-v2-schema": {"type": "string", "format": "int-or-string"}}"#,
                    crd_schema = r#"{"anyOf": [{"type": "integer"}, {"type": "string"}], "x-kubernetes-int-or-string": true}"#
                )]
                pub struct IntOrString;
            }
        }
    }
}

pub mod apiextensions_apiserver {
    pub mod pkg {
        pub mod apis {
            pub mod apiextensions {
                pub mod v1 {
                    /// Any JSON value.
                    #[derive(Schema)]
                    #[schema(
                        package = "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1",
                        opaque = "{}",
                        crd_schema = r#"{"x-kubernetes-preserve-unknown-fields": true}"#
                    )]
                    pub struct JSON;
                }
            }
        }
    }
}

pub mod api {
    pub mod core {
        pub mod v1 {
            /// Facts about a node reported by its kubelet.
            #[derive(Schema)]
            #[schema(package = "k8s.io/api/core/v1")]
            #[serde(rename_all = "camelCase")]
            pub struct NodeSystemInfo {
                /// The machine ID from the host.
                #[serde(rename = "machineID")]
                pub machine_id: String,
                /// The system UUID from the host firmware.
                #[serde(rename = "systemUUID")]
                pub system_uuid: String,
                /// Identifier of the current boot.
                #[serde(rename = "bootID")]
                pub boot_id: String,
                /// Kernel release reported by `uname -r`.
                pub kernel_version: String,
                /// Operating system image description.
                pub os_image: String,
                /// Container runtime name and version.
                pub container_runtime_version: String,
                /// Kubelet version.
                pub kubelet_version: String,
                /// Obsolete kube-proxy version field.
                pub kube_proxy_version: String,
                /// Operating system name, e.g. linux.
                pub operating_system: String,
                /// CPU architecture, e.g. amd64.
                pub architecture: String,
                /// Swap memory of the node.
                #[serde(skip_serializing_if = "Option::is_none")]
                pub swap: Option<NodeSwapStatus>,
            }

            /// Swap memory of a node.
            #[derive(Schema)]
            #[schema(package = "k8s.io/api/core/v1")]
            #[serde(rename_all = "camelCase")]
            pub struct NodeSwapStatus {
                /// Total swap in bytes.
                #[serde(skip_serializing_if = "Option::is_none")]
                pub capacity: Option<i64>,
            }
        }
    }
}
