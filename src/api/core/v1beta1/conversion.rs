//! The parts of the v1beta1 → v1beta2 Cluster conversion the generator cannot do, and the list
//! of what v1beta2 has no place for.
//!
//! The generated code (`src/generated/conversion.rs`) copies every field both versions have
//! under one name, then calls these. The facts follow Cluster API's own conversion (v1.12,
//! `api/core/v1beta1/conversion.go`), and the test `interop/oracle/tests/v1beta1_cluster.rs`
//! holds them to it: the class and its namespace become `classRef`; a reference keeps the
//! group of its `apiVersion`; timeouts become whole seconds; a machine health check becomes
//! `healthCheck`; a MachineDeployment's strategy becomes `rollout.strategy`, `deletion.order`
//! and `healthCheck.remediation.maxInFlight`; the older conditions and the failure fields move
//! under `status.deprecated.v1beta1`, the newer ones out of `status.v1beta2`; the failure
//! domains' map becomes a list sorted by name; the two readiness booleans become
//! `status.initialization`, set only when true.

use super::cluster::*;
use crate::api::core::v1beta2;
use crate::conversion::{ConversionError, Unconverted};
use crate::go::time::parse_duration;

/// The view's apiVersion.
const V1BETA2: &str = "cluster.x-k8s.io/v1beta2";

/// Completes a Cluster: the view says v1beta2.
pub fn cluster_to_hub(src: &Cluster, dst: &mut v1beta2::Cluster) -> Result<(), ConversionError> {
    if !src.api_version.is_empty() {
        dst.api_version = V1BETA2.to_string();
    }
    Ok(())
}

/// Completes a reference: `apiGroup` is the group of `apiVersion`.
pub fn reference_to_hub(
    src: &ObjectReference,
    dst: &mut v1beta2::ContractVersionedObjectReference,
) -> Result<(), ConversionError> {
    dst.api_group = group_of(&src.api_version)
        .map_err(|e| e.at("apiVersion"))?
        .to_string();
    Ok(())
}

/// The group of `group/version` (empty for the core group's `v1`), as apimachinery's
/// `ParseGroupVersion` reads it.
fn group_of(api_version: &str) -> Result<&str, ConversionError> {
    match api_version.split('/').collect::<Vec<_>>().as_slice() {
        [""] | [_] => Ok(""),
        [group, _] => Ok(group),
        _ => Err(ConversionError::invalid(format!(
            "unexpected GroupVersion string: {api_version}"
        ))),
    }
}

/// Completes a topology: the class and its namespace become `classRef`.
pub fn topology_to_hub(src: &Topology, dst: &mut v1beta2::Topology) -> Result<(), ConversionError> {
    dst.class_ref.name = src.class.clone();
    dst.class_ref.namespace = src.class_namespace.clone();
    Ok(())
}

/// Whole seconds of a Go duration, truncated and capped as Cluster API's `ConvertToSeconds`.
fn seconds(d: &Option<String>, field: &str) -> Result<Option<i32>, ConversionError> {
    let Some(text) = d else { return Ok(None) };
    let d = parse_duration(text).map_err(|e| ConversionError::invalid(e.to_string()).at(field))?;
    Ok(Some(i32::try_from(d.as_secs()).unwrap_or(i32::MAX)))
}

/// Sets the three `node…TimeoutSeconds` of a v1beta2 `deletion` from the v1beta1 durations of
/// `src` (the control plane's, a MachineDeployment's, a MachinePool's: other types, the same
/// fields).
macro_rules! set_timeouts {
    ($deletion:expr, $src:expr) => {{
        $deletion.node_drain_timeout_seconds =
            seconds(&$src.node_drain_timeout, "nodeDrainTimeout")?;
        $deletion.node_volume_detach_timeout_seconds =
            seconds(&$src.node_volume_detach_timeout, "nodeVolumeDetachTimeout")?;
        $deletion.node_deletion_timeout_seconds =
            seconds(&$src.node_deletion_timeout, "nodeDeletionTimeout")?;
    }};
}

/// Sets a v1beta2 `healthCheck` (the control plane's or a MachineDeployment's: other types,
/// the same fields) from a [`HealthCheck`].
macro_rules! set_health_check {
    ($hc:expr, $h:expr) => {{
        let h: HealthCheck = $h;
        $hc.enabled = h.enabled;
        $hc.checks.unhealthy_node_conditions = h.conditions;
        $hc.checks.node_startup_timeout_seconds = h.startup;
        $hc.remediation.trigger_if.unhealthy_less_than_or_equal_to = h.at_most;
        $hc.remediation.trigger_if.unhealthy_in_range = h.in_range;
        $hc.remediation.template_ref = h.template;
    }};
}

/// A machine health check in v1beta2's parts: enabled, node conditions, startup timeout,
/// trigger (at most, in range) and remediation template.
struct HealthCheck {
    enabled: Option<bool>,
    conditions: Vec<v1beta2::UnhealthyNodeCondition>,
    startup: Option<i32>,
    at_most: Option<k8s_openapi::apimachinery::pkg::util::intstr::IntOrString>,
    in_range: String,
    template: v1beta2::MachineHealthCheckRemediationTemplateReference,
}

fn health_check(mhc: &MachineHealthCheckTopology) -> Result<HealthCheck, ConversionError> {
    let at = |e: ConversionError| e.at("machineHealthCheck");
    let mut conditions = Vec::new();
    for (i, c) in mhc.unhealthy_conditions.iter().enumerate() {
        conditions.push(v1beta2::UnhealthyNodeCondition {
            r#type: c.r#type.clone(),
            status: c.status.clone(),
            timeout_seconds: seconds(&Some(c.timeout.clone()), "timeout")
                .map_err(|e| at(e.at_index(i).at("unhealthyConditions")))?,
        });
    }
    let template = mhc
        .remediation_template
        .as_ref()
        .map(
            |r| v1beta2::MachineHealthCheckRemediationTemplateReference {
                api_version: r.api_version.clone(),
                kind: r.kind.clone(),
                name: r.name.clone(),
            },
        )
        .unwrap_or_default();
    Ok(HealthCheck {
        enabled: mhc.enable,
        conditions,
        startup: seconds(&mhc.node_startup_timeout, "nodeStartupTimeout").map_err(at)?,
        at_most: mhc.max_unhealthy.clone(),
        in_range: mhc.unhealthy_range.clone().unwrap_or_default(),
        template,
    })
}

/// Completes the control plane: timeouts, health check.
pub fn control_plane_to_hub(
    src: &ControlPlaneTopology,
    dst: &mut v1beta2::ControlPlaneTopology,
) -> Result<(), ConversionError> {
    set_timeouts!(dst.deletion, src);
    if let Some(mhc) = &src.machine_health_check {
        set_health_check!(dst.health_check, health_check(mhc)?);
    }
    Ok(())
}

/// Completes a MachineDeployment: timeouts, health check, strategy.
pub fn machine_deployment_to_hub(
    src: &MachineDeploymentTopology,
    dst: &mut v1beta2::MachineDeploymentTopology,
) -> Result<(), ConversionError> {
    set_timeouts!(dst.deletion, src);
    if let Some(strategy) = &src.strategy {
        dst.rollout.strategy.r#type = strategy.r#type.clone();
        if let Some(ru) = &strategy.rolling_update {
            dst.rollout.strategy.rolling_update.max_unavailable = ru.max_unavailable.clone();
            dst.rollout.strategy.rolling_update.max_surge = ru.max_surge.clone();
            if let Some(order) = &ru.delete_policy {
                dst.deletion.order = order.clone();
            }
        }
        if let Some(r) = &strategy.remediation {
            dst.health_check.remediation.max_in_flight = r.max_in_flight.clone();
        }
    }
    if let Some(mhc) = &src.machine_health_check {
        set_health_check!(dst.health_check, health_check(mhc)?);
    }
    Ok(())
}

/// Completes a MachinePool: timeouts.
pub fn machine_pool_to_hub(
    src: &MachinePoolTopology,
    dst: &mut v1beta2::MachinePoolTopology,
) -> Result<(), ConversionError> {
    set_timeouts!(dst.deletion, src);
    Ok(())
}

/// Completes a status: conditions, counters, failure domains, readiness, failures.
pub fn status_to_hub(
    src: &ClusterStatus,
    dst: &mut v1beta2::ClusterStatus,
) -> Result<(), ConversionError> {
    if let Some(v) = &src.v1beta2 {
        dst.conditions = v.conditions.clone();
        // The five counters, in the control plane's and the workers' types alike.
        macro_rules! counters {
            ($from:expr, $to:ident) => {
                $from.as_ref().map(|c| v1beta2::$to {
                    available_replicas: c.available_replicas,
                    desired_replicas: c.desired_replicas,
                    ready_replicas: c.ready_replicas,
                    replicas: c.replicas,
                    up_to_date_replicas: c.up_to_date_replicas,
                    ..Default::default()
                })
            };
        }
        dst.control_plane = counters!(v.control_plane, ClusterControlPlaneStatus);
        dst.workers = counters!(v.workers, WorkersStatus);
    }
    // A map's keys come sorted, as Cluster API sorts them.
    dst.failure_domains = src
        .failure_domains
        .iter()
        .map(|(name, fd)| v1beta2::FailureDomain {
            name: name.clone(),
            control_plane: Some(fd.control_plane),
            attributes: fd.attributes.clone(),
        })
        .collect();
    dst.initialization = v1beta2::ClusterInitializationStatus {
        control_plane_initialized: src.control_plane_ready.then_some(true),
        infrastructure_provisioned: src.infrastructure_ready.then_some(true),
    };
    if !src.conditions.is_empty() || src.failure_reason.is_some() || src.failure_message.is_some() {
        let conditions =
            crate::__private::conversion::list(src.conditions.iter(), v1beta2::Condition::try_from)
                .map_err(|e| e.at("conditions"))?;
        dst.deprecated = Some(v1beta2::ClusterDeprecatedStatus {
            v1beta1: Some(v1beta2::ClusterV1Beta1DeprecatedStatus {
                conditions,
                failure_message: src.failure_message.clone(),
                failure_reason: src.failure_reason.clone(),
            }),
        });
    }
    Ok(())
}

/// What of `cluster` the v1beta2 view has no place for, each with its path (JSON names) and
/// why: the topology's `rolloutAfter`, a variable's `definitionFrom`, the parts of a reference
/// beyond group, kind and name, and the fraction of a second of a timeout. Empty for a Cluster
/// that converts whole.
pub fn unconverted(cluster: &Cluster) -> Vec<Unconverted> {
    let mut out = Vec::new();
    let spec = &cluster.spec;
    let namespace = cluster.metadata.namespace.as_deref();
    for (field, r) in [
        ("spec.controlPlaneRef", &spec.control_plane_ref),
        ("spec.infrastructureRef", &spec.infrastructure_ref),
    ] {
        if let Some(r) = r {
            reference(&mut out, field, r, namespace, true);
        }
    }
    let Some(t) = &spec.topology else {
        return out;
    };
    if t.rollout_after.is_some() {
        out.push(Unconverted::new(
            "spec.topology.rolloutAfter",
            "v1beta2 has no rollout time for the whole topology",
        ));
    }
    variables(&mut out, "spec.topology.variables", &t.variables);
    let cp = &t.control_plane;
    let at = "spec.topology.controlPlane";
    if let Some(v) = &cp.variables {
        variables(&mut out, &format!("{at}.variables.overrides"), &v.overrides);
    }
    durations(
        &mut out,
        at,
        [
            &cp.node_drain_timeout,
            &cp.node_volume_detach_timeout,
            &cp.node_deletion_timeout,
        ],
    );
    if let Some(mhc) = &cp.machine_health_check {
        health(
            &mut out,
            &format!("{at}.machineHealthCheck"),
            mhc,
            namespace,
        );
    }
    let Some(w) = &t.workers else {
        return out;
    };
    for (i, md) in w.machine_deployments.iter().enumerate() {
        let at = format!("spec.topology.workers.machineDeployments[{i}]");
        if let Some(v) = &md.variables {
            variables(&mut out, &format!("{at}.variables.overrides"), &v.overrides);
        }
        durations(
            &mut out,
            &at,
            [
                &md.node_drain_timeout,
                &md.node_volume_detach_timeout,
                &md.node_deletion_timeout,
            ],
        );
        if let Some(mhc) = &md.machine_health_check {
            health(
                &mut out,
                &format!("{at}.machineHealthCheck"),
                mhc,
                namespace,
            );
        }
    }
    for (i, mp) in w.machine_pools.iter().enumerate() {
        let at = format!("spec.topology.workers.machinePools[{i}]");
        if let Some(v) = &mp.variables {
            variables(&mut out, &format!("{at}.variables.overrides"), &v.overrides);
        }
        durations(
            &mut out,
            &at,
            [
                &mp.node_drain_timeout,
                &mp.node_volume_detach_timeout,
                &mp.node_deletion_timeout,
            ],
        );
    }
    out
}

/// A reference of the Cluster in `namespace`; with `group_only`, one whose v1beta2 form keeps
/// the group of its `apiVersion` alone.
fn reference(
    out: &mut Vec<Unconverted>,
    at: &str,
    r: &ObjectReference,
    namespace: Option<&str>,
    group_only: bool,
) {
    const REASON: &str = "a v1beta2 reference has group, kind and name only";
    // A v1.12 manager always writes the Cluster's own namespace here.
    if !r.namespace.is_empty() {
        let path = format!("{at}.namespace");
        out.push(if namespace == Some(r.namespace.as_str()) {
            Unconverted::routine(path, REASON)
        } else {
            Unconverted::new(path, REASON)
        });
    }
    let dropped = [
        ("uid", &r.uid),
        ("resourceVersion", &r.resource_version),
        ("fieldPath", &r.field_path),
    ];
    for (name, value) in dropped {
        if !value.is_empty() {
            out.push(Unconverted::new(format!("{at}.{name}"), REASON));
        }
    }
    if group_only && !r.api_version.is_empty() {
        out.push(Unconverted::routine(
            format!("{at}.apiVersion"),
            "v1beta2 keeps the group (apiGroup), not the version",
        ));
    }
}

fn variables(out: &mut Vec<Unconverted>, at: &str, vars: &[ClusterVariable]) {
    for (i, v) in vars.iter().enumerate() {
        if !v.definition_from.is_empty() {
            out.push(Unconverted::new(
                format!("{at}[{i}].definitionFrom"),
                "v1beta2 variables have no definitionFrom",
            ));
        }
    }
}

fn durations(out: &mut Vec<Unconverted>, at: &str, values: [&Option<String>; 3]) {
    let names = [
        "nodeDrainTimeout",
        "nodeVolumeDetachTimeout",
        "nodeDeletionTimeout",
    ];
    for (name, value) in names.into_iter().zip(values) {
        fraction(out, &format!("{at}.{name}"), value.as_deref());
    }
}

fn fraction(out: &mut Vec<Unconverted>, at: &str, value: Option<&str>) {
    if let Some(Ok(d)) = value.map(parse_duration)
        && d.subsec_nanos() != 0
    {
        out.push(Unconverted::new(
            at,
            "v1beta2 counts whole seconds; the fraction is cut off",
        ));
    }
}

fn health(
    out: &mut Vec<Unconverted>,
    at: &str,
    mhc: &MachineHealthCheckTopology,
    namespace: Option<&str>,
) {
    fraction(
        out,
        &format!("{at}.nodeStartupTimeout"),
        mhc.node_startup_timeout.as_deref(),
    );
    for (i, c) in mhc.unhealthy_conditions.iter().enumerate() {
        fraction(
            out,
            &format!("{at}.unhealthyConditions[{i}].timeout"),
            Some(&c.timeout),
        );
    }
    if let Some(r) = &mhc.remediation_template {
        reference(
            out,
            &format!("{at}.remediationTemplate"),
            r,
            namespace,
            false,
        );
    }
}
