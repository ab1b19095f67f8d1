//! Installing CustomResourceDefinitions and waiting until the API server serves them.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use k8s_openapi::apiextensions_apiserver::pkg::apis::apiextensions::v1::CustomResourceDefinition;
use kube::Client;
use kube::api::{Api, Patch, PatchParams};

use crate::{CrdError, NotServedYet, Result};

/// The field manager of the harness's server-side applies.
const MANAGER: &str = "capi-testenv";

/// Applies every CRD of `files` and waits for all of them; returns their names.
pub async fn install(client: &Client, files: &[PathBuf], timeout: Duration) -> Result<Vec<String>> {
    let mut crds = Vec::new();
    for file in files {
        crds.extend(read(file)?);
    }
    let api: Api<CustomResourceDefinition> = Api::all(client.clone());
    let mut names = Vec::new();
    for crd in &crds {
        let name = crd.metadata.name.clone().ok_or(CrdError::NoName)?;
        api.patch(
            &name,
            &PatchParams::apply(MANAGER).force(),
            &Patch::Apply(crd),
        )
        .await
        .map_err(|source| CrdError::Apply {
            name: name.clone(),
            source,
        })?;
        names.push(name);
    }
    let deadline = Instant::now() + timeout;
    for crd in &crds {
        wait_served(client, &api, crd, deadline, timeout).await?;
    }
    Ok(names)
}

/// The CRDs of one YAML file (other kinds of documents are an error).
fn read(file: &Path) -> Result<Vec<CustomResourceDefinition>, CrdError> {
    let text = std::fs::read_to_string(file).map_err(|source| CrdError::Read {
        file: file.to_path_buf(),
        source,
    })?;
    let docs: Vec<serde_json::Value> =
        serde_saphyr::from_multiple(&text).map_err(|source| CrdError::NotYaml {
            file: file.to_path_buf(),
            source: Box::new(source),
        })?;
    let mut out = Vec::new();
    for doc in docs.into_iter().filter(|d| !d.is_null()) {
        let kind = doc.get("kind").and_then(|k| k.as_str()).unwrap_or_default();
        if kind != "CustomResourceDefinition" {
            return Err(CrdError::WrongKind {
                file: file.to_path_buf(),
                kind: kind.to_string(),
            });
        }
        out.push(
            serde_json::from_value(doc).map_err(|source| CrdError::NotCrd {
                file: file.to_path_buf(),
                source,
            })?,
        );
    }
    if out.is_empty() {
        return Err(CrdError::Empty {
            file: file.to_path_buf(),
        });
    }
    Ok(out)
}

/// Waits until the CRD is Established with its names accepted, and every served version lists
/// the resource in discovery (only then do clients find it).
async fn wait_served(
    client: &Client,
    api: &Api<CustomResourceDefinition>,
    crd: &CustomResourceDefinition,
    deadline: Instant,
    timeout: Duration,
) -> Result<()> {
    let name = crd.metadata.name.as_deref().unwrap_or_default();
    let group = &crd.spec.group;
    let plural = &crd.spec.names.plural;
    let mut last;
    loop {
        match state(client, api, name, group, plural, crd).await {
            Ok(()) => return Ok(()),
            Err(why) => last = why,
        }
        if Instant::now() >= deadline {
            return Err(CrdError::NotServed {
                name: name.to_string(),
                after: timeout,
                last: Box::new(last),
            }
            .into());
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

async fn state(
    client: &Client,
    api: &Api<CustomResourceDefinition>,
    name: &str,
    group: &str,
    plural: &str,
    crd: &CustomResourceDefinition,
) -> std::result::Result<(), NotServedYet> {
    let live = api.get(name).await.map_err(NotServedYet::Read)?;
    let conditions = live.status.and_then(|s| s.conditions).unwrap_or_default();
    for wanted in ["NamesAccepted", "Established"] {
        let c = conditions.iter().find(|c| c.type_ == wanted);
        if c.is_none_or(|c| c.status != "True") {
            return Err(NotServedYet::Condition {
                condition: wanted,
                state: c
                    .map(|c| format!("{} ({})", c.status, c.message.as_deref().unwrap_or("")))
                    .unwrap_or_else(|| "missing".to_string()),
            });
        }
    }
    for v in crd.spec.versions.iter().filter(|v| v.served) {
        let gv = format!("{group}/{}", v.name);
        let list = client
            .list_api_group_resources(&gv)
            .await
            .map_err(|source| NotServedYet::Discovery {
                group_version: gv.clone(),
                source,
            })?;
        if !list.resources.iter().any(|r| r.name == plural) {
            return Err(NotServedYet::NotListed {
                group_version: gv,
                plural: plural.to_string(),
            });
        }
    }
    Ok(())
}
