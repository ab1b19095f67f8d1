//! Shared state: two handlers keep one inventory of Clusters, given to the server once.

// ANCHOR: state
use std::collections::BTreeSet;
use std::sync::Mutex;

use capi_runtime::hooks::v1alpha1::{
    BeforeClusterCreateRequest, BeforeClusterCreateResponse, BeforeClusterDeleteRequest,
    BeforeClusterDeleteResponse,
};
use capi_runtime::server::{Context, ServerBuilder};

/// What the handlers share: the Clusters admitted so far, at most `capacity` of them.
pub struct Inventory {
    capacity: usize,
    clusters: Mutex<BTreeSet<String>>,
}

/// Seconds a Cluster waits for a free place before Cluster API asks again.
pub const WAIT_SECONDS: i32 = 30;

fn key(namespace: Option<String>, name: Option<String>) -> String {
    format!(
        "{}/{}",
        namespace.unwrap_or_default(),
        name.unwrap_or_default()
    )
}

/// Admits a Cluster while there is room, and holds it back (blocks) while there is none. It
/// cannot fail, so it returns the response itself.
pub async fn admit(
    request: BeforeClusterCreateRequest,
    context: Context<Inventory>,
) -> BeforeClusterCreateResponse {
    let inventory = context.state();
    let meta = request.cluster.metadata;
    let cluster = key(meta.namespace, meta.name);
    let mut clusters = inventory
        .clusters
        .lock()
        .expect("no handler panics holding the lock");
    let mut response = BeforeClusterCreateResponse::success();
    if !clusters.contains(&cluster) && clusters.len() >= inventory.capacity {
        response.retry_after_seconds = WAIT_SECONDS;
        response.message = format!("{cluster} waits: {} Clusters already", clusters.len());
    } else {
        clusters.insert(cluster);
    }
    response
}

/// Gives the Cluster's place back.
pub async fn release(
    request: BeforeClusterDeleteRequest,
    context: Context<Inventory>,
) -> BeforeClusterDeleteResponse {
    let meta = request.cluster.metadata;
    let cluster = key(meta.namespace, meta.name);
    let mut clusters = context
        .state()
        .clusters
        .lock()
        .expect("no handler panics holding the lock");
    clusters.remove(&cluster);
    BeforeClusterDeleteResponse::success()
}

/// Both handlers over one inventory of `capacity` places.
pub fn register(builder: ServerBuilder, capacity: usize) -> ServerBuilder<Inventory> {
    builder
        .state(Inventory {
            capacity,
            clusters: Mutex::default(),
        })
        .handle("admit", admit)
        .handle("release", release)
}
// ANCHOR_END: state
