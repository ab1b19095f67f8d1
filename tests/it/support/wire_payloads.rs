//! Messages for the wire codec's tests and benchmark: a realistic GeneratePatches request and
//! response of about 20 MiB (5,000 items shaped like what Cluster API's topology controller
//! sends for a ClusterClass with KubeadmControlPlane and Docker templates), and the hostile
//! shapes of issue 10 at the body cap. The wire benchmark includes this file by path.
#![allow(dead_code)]

use serde_json::{Value, json};

/// The server's and the client's body cap.
pub const CAP: usize = 20 << 20;

/// One template object as the topology controller sends it: metadata with labels,
/// annotations and owner references, a spec with files, commands and nested settings.
fn template(i: usize) -> Value {
    json!({
        "apiVersion": "controlplane.cluster.x-k8s.io/v1beta2",
        "kind": "KubeadmControlPlaneTemplate",
        "metadata": {
            "name": format!("cluster-{i}-control-plane-x7k2p"),
            "namespace": "default",
            "labels": {
                "cluster.x-k8s.io/cluster-name": format!("cluster-{i}"),
                "topology.cluster.x-k8s.io/owned": "",
                "cluster.x-k8s.io/control-plane": ""
            },
            "annotations": {
                "cluster.x-k8s.io/cloned-from-name": "quick-start-control-plane",
                "cluster.x-k8s.io/cloned-from-groupkind": "KubeadmControlPlaneTemplate.controlplane.cluster.x-k8s.io"
            },
            "ownerReferences": [{
                "apiVersion": "cluster.x-k8s.io/v1beta2", "kind": "Cluster",
                "name": format!("cluster-{i}"), "uid": format!("5a1d3f0e-{i:04}-4c1b-9d7a-2f6e8b0c4d21"),
                "controller": true, "blockOwnerDeletion": true
            }]
        },
        "spec": {"template": {"spec": {
            "kubeadmConfigSpec": {
                "clusterConfiguration": {
                    "apiServer": {"certSANs": ["localhost", "127.0.0.1", "0.0.0.0", "host.docker.internal"],
                                  "extraArgs": [{"name": "enable-admission-plugins", "value": "NodeRestriction,PodSecurity"},
                                                {"name": "audit-log-maxage", "value": "30"}]},
                    "controllerManager": {"extraArgs": [{"name": "enable-hostpath-provisioner", "value": "true"}]},
                    "etcd": {"local": {"dataDir": "/var/lib/etcd", "extraArgs": [{"name": "quota-backend-bytes", "value": "8589934592"}]}}
                },
                "initConfiguration": {"nodeRegistration": {"criSocket": "unix:///var/run/containerd/containerd.sock",
                    "kubeletExtraArgs": [{"name": "eviction-hard", "value": "nodefs.available<0%,imagefs.available<0%"}]}},
                "joinConfiguration": {"nodeRegistration": {"criSocket": "unix:///var/run/containerd/containerd.sock",
                    "kubeletExtraArgs": [{"name": "eviction-hard", "value": "nodefs.available<0%,imagefs.available<0%"}]}},
                "files": [
                    {"path": "/etc/kubernetes/audit-policy.yaml", "owner": "root:root", "permissions": "0600",
                     "content": "apiVersion: audit.k8s.io/v1\nkind: Policy\nrules:\n- level: Metadata\n  omitStages: [RequestReceived]\n- level: RequestResponse\n  resources:\n  - group: \"\"\n    resources: [pods, secrets, configmaps]\n"},
                    {"path": "/etc/containerd/config.d/registry.toml", "owner": "root:root", "permissions": "0644",
                     "content": "[plugins.\"io.containerd.grpc.v1.cri\".registry.mirrors.\"docker.io\"]\n  endpoint = [\"https://mirror.example.internal\"]\n"}
                ],
                "diskSetup": {"filesystems": [{"device": "/dev/disk/azure/scsi1/lun0", "filesystem": "ext4", "label": "etcd_disk", "extraOpts": ["-E", "lazy_itable_init=1,lazy_journal_init=1"]}],
                              "partitions": [{"device": "/dev/disk/azure/scsi1/lun0", "layout": true, "overwrite": false, "tableType": "gpt"}]},
                "mounts": [["LABEL=etcd_disk", "/var/lib/etcddisk"]],
                "preKubeadmCommands": ["sysctl -w fs.inotify.max_user_watches=1048576", "systemctl restart containerd"],
                "postKubeadmCommands": ["echo done"],
                "users": [{"name": "capi", "sshAuthorizedKeys": ["ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIGx4b3Jk capi@example"], "sudo": "ALL=(ALL) NOPASSWD:ALL"}]
            },
            "machineTemplate": {"nodeDrainTimeoutSeconds": 300, "nodeDeletionTimeoutSeconds": 10},
            "rolloutStrategy": {"type": "RollingUpdate", "rollingUpdate": {"maxSurge": 1}}
        }}}
    })
}

/// The variables of one item: the builtin one and a few user variables.
fn variables(i: usize) -> Value {
    json!([
        {"name": "builtin", "value": {
            "cluster": {"name": format!("cluster-{i}"), "namespace": "default", "uid": format!("5a1d3f0e-{i:04}-4c1b-9d7a-2f6e8b0c4d21"),
                        "metadata": {"labels": {"env": "prod"}, "annotations": {}},
                        "topology": {"version": "v1.31.0", "classRef": {"name": "quick-start", "namespace": "default"}},
                        "network": {"serviceDomain": "cluster.local", "services": ["10.128.0.0/12"], "pods": ["192.168.0.0/16"]}},
            "controlPlane": {"version": "v1.31.0", "name": format!("cluster-{i}-x7k2p"), "replicas": 3,
                             "metadata": {"labels": {"tier": "control-plane"}},
                             "machineTemplate": {"infrastructureRef": {"name": format!("cluster-{i}-control-plane-abcde")}}}
        }},
        {"name": "imageRepository", "value": "registry.example.internal/kubernetes"},
        {"name": "etcdImageTag", "value": "3.5.15-0"},
        {"name": "kubeadmControlPlaneMaxSurge", "value": "1"},
        {"name": "lbImageRepository", "value": "kindest"},
        {"name": "controlPlaneTaint", "value": true}
    ])
}

fn item(i: usize) -> Value {
    json!({
        "uid": format!("7c3e9a51-{i:06}-4f0b-8e2d-91a6c5b7d3e0"),
        "holderReference": {"apiVersion": "controlplane.cluster.x-k8s.io/v1beta2", "kind": "KubeadmControlPlane",
                            "namespace": "default", "name": format!("cluster-{i}-x7k2p"), "fieldPath": "spec.machineTemplate.spec.infrastructureRef"},
        "object": template(i),
        "variables": variables(i)
    })
}

/// A GeneratePatches request of `items` realistic items.
pub fn generate_patches_request(items: usize) -> Vec<u8> {
    let items: Vec<Value> = (0..items).map(item).collect();
    serde_json::to_vec(&json!({
        "apiVersion": "hooks.runtime.cluster.x-k8s.io/v1alpha1",
        "kind": "GeneratePatchesRequest",
        "settings": {"region": "eu-1"},
        "variables": [{"name": "clusterName", "value": "prod"}],
        "items": items
    }))
    .unwrap()
}

/// A GeneratePatches response answering `items` items, each with a JSON patch (base64).
pub fn generate_patches_response(items: usize) -> Vec<u8> {
    use std::fmt::Write;
    let items: Vec<Value> = (0..items)
        .map(|i| {
            let mut patch = String::from("[");
            for j in 0..24 {
                if j > 0 {
                    patch.push(',');
                }
                write!(patch, r#"{{"op":"add","path":"/spec/template/spec/kubeadmConfigSpec/files/-","value":{{"path":"/etc/extra-{j}.conf","content":"setting-{i}-{j}=enabled"}}}}"#).unwrap();
            }
            patch.push(']');
            json!({
                "uid": format!("7c3e9a51-{i:06}-4f0b-8e2d-91a6c5b7d3e0"),
                "patchType": "JSONPatch",
                "patch": base64(patch.as_bytes()),
            })
        })
        .collect();
    serde_json::to_vec(&json!({
        "apiVersion": "hooks.runtime.cluster.x-k8s.io/v1alpha1",
        "kind": "GeneratePatchesResponse",
        "status": "Success",
        "items": items
    }))
    .unwrap()
}

fn base64(bytes: &[u8]) -> String {
    const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for chunk in bytes.chunks(3) {
        let b = [
            chunk[0],
            *chunk.get(1).unwrap_or(&0),
            *chunk.get(2).unwrap_or(&0),
        ];
        let n = (u32::from(b[0]) << 16) | (u32::from(b[1]) << 8) | u32::from(b[2]);
        for k in 0..4 {
            if k <= chunk.len() {
                out.push(ALPHABET[(n >> (18 - 6 * k)) as usize & 63] as char);
            } else {
                out.push('=');
            }
        }
    }
    out
}

/// `{"<field>":[E,E,...]}` (optionally wrapped, `prefix` and `suffix` around the array)
/// filled with `element` up to `size` bytes.
pub fn array_of(prefix: &str, element: &str, suffix: &str, size: usize) -> Vec<u8> {
    let room = size - prefix.len() - suffix.len() - 2;
    let count = (room + 1) / (element.len() + 1);
    let mut body = Vec::with_capacity(size);
    body.extend_from_slice(prefix.as_bytes());
    body.push(b'[');
    for i in 0..count {
        if i > 0 {
            body.push(b',');
        }
        body.extend_from_slice(element.as_bytes());
    }
    body.push(b']');
    body.extend_from_slice(suffix.as_bytes());
    body
}

/// Nesting `depth` levels of `{"a":` and `[`.
pub fn deep(depth: usize) -> Vec<u8> {
    let mut body = b"{\"items\":[{\"object\":".to_vec();
    for _ in 0..depth {
        body.extend_from_slice(b"{\"a\":[");
    }
    for _ in 0..depth {
        body.extend_from_slice(b"]}");
    }
    body.extend_from_slice(b"}]}");
    body
}

/// One string value (in `object`) of about `size` bytes.
pub fn long_string(size: usize) -> Vec<u8> {
    let mut body = b"{\"items\":[{\"uid\":\"".to_vec();
    body.resize(size - 4, b'x');
    body.extend_from_slice(b"\"}]}");
    body
}

/// One object (in `object`) with keys `k0`, `k1`, ... up to about `size` bytes.
pub fn many_keys(size: usize) -> Vec<u8> {
    use std::io::Write;
    let mut body = b"{\"items\":[{\"object\":{".to_vec();
    let mut i = 0;
    while body.len() < size - 32 {
        if i > 0 {
            body.push(b',');
        }
        write!(body, "\"k{i}\":0").unwrap();
        i += 1;
    }
    body.extend_from_slice(b"}}]}");
    body
}

/// One key of about `size` bytes in `object`.
pub fn long_key(size: usize) -> Vec<u8> {
    let mut body = b"{\"items\":[{\"object\":{\"".to_vec();
    body.resize(size - 8, b'k');
    body.extend_from_slice(b"\":1}}]}");
    body
}

/// A DiscoverVariables response of about `size` bytes whose variables each hold a schema of
/// `not` nested `depth` deep (at most 123 within the nesting limit of 128): a boxed
/// `JSONSchemaProps` per 8 bytes of input, each a heap block of its own.
pub fn nested_schemas(size: usize, depth: usize) -> Vec<u8> {
    let chain = format!("{}{{}}{}", "{\"not\":".repeat(depth), "}".repeat(depth));
    let variable = format!("{{\"name\":\"v\",\"schema\":{{\"openAPIV3Schema\":{chain}}}}}");
    let mut body = String::from("{\"status\":\"Success\",\"variables\":[");
    let mut first = true;
    while body.len() + variable.len() + 3 < size {
        if !first {
            body.push(',');
        }
        body.push_str(&variable);
        first = false;
    }
    body.push_str("]}");
    body.into_bytes()
}

/// A DiscoverVariables response of `variables` variables as an extension defines them: a list
/// of objects with properties, a map (`additionalProperties`), nested `items`, a `not` and a
/// validation rule; 1.5 KB each.
pub fn discover_variables_response(variables: usize) -> Vec<u8> {
    let variables: Vec<Value> = (0..variables)
        .map(|i| {
            json!({
                "name": format!("workerPools{i}"),
                "required": false,
                "metadata": {"labels": {"team": "platform"}},
                "schema": {"openAPIV3Schema": {
                    "type": "array",
                    "description": "The worker pools of the cluster, each a MachineDeployment.",
                    "maxItems": 10,
                    "items": {
                        "type": "object",
                        "required": ["name"],
                        "properties": {
                            "name": {"type": "string", "minLength": 1, "maxLength": 63, "pattern": "^[a-z0-9-]+$"},
                            "replicas": {"type": "integer", "minimum": 0, "default": 1},
                            "image": {"type": "string", "not": {"pattern": ":latest$"}},
                            "labels": {"type": "object", "additionalProperties": {"type": "string", "maxLength": 63}},
                            "zones": {"type": "array", "items": {"type": "string", "enum": ["a", "b", "c"]}},
                            "taints": {"type": "array", "items": {
                                "type": "object",
                                "properties": {
                                    "key": {"type": "string"},
                                    "value": {"type": "string"},
                                    "effect": {"type": "string", "enum": ["NoSchedule", "PreferNoSchedule", "NoExecute"]}
                                }
                            }}
                        }
                    },
                    "x-kubernetes-validations": [{"rule": "self.all(p, p.replicas <= 100)", "message": "at most 100 replicas a pool"}]
                }}
            })
        })
        .collect();
    serde_json::to_vec(&json!({
        "apiVersion": "hooks.runtime.cluster.x-k8s.io/v1alpha1",
        "kind": "DiscoverVariablesResponse",
        "status": "Success",
        "variables": variables
    }))
    .unwrap()
}
