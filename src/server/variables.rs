//! The ClusterClass variables a server declares as Rust types, the DiscoverVariables
//! handler that answers with them, and how every DiscoverVariables answer is written so that
//! each supported Cluster API reads the same variables.

use std::any::Any;
use std::sync::{Arc, OnceLock};

use serde_json::Value;

use super::error::ServerError;
use crate::api::core::v1beta2::ClusterClassVariable;
use crate::hooks::v1alpha1::{DiscoverVariablesRequest, DiscoverVariablesResponse};
use crate::variable::Variable;

/// The variables declared on a builder, and the answer its DiscoverVariables handler (if one
/// is registered) gives once the server is built.
#[derive(Debug, Default)]
pub(super) struct DeclaredVariables {
    list: Vec<ClusterClassVariable>,
    answer: Option<Arc<OnceLock<Vec<ClusterClassVariable>>>>,
}

impl DeclaredVariables {
    /// Adds `V`'s definition; fails, adding nothing, when a variable of the same name is
    /// declared already: Cluster API refuses a class whose variables share a name, so this is
    /// a mistake in the extension's code.
    pub(super) fn declare<V: Variable>(&mut self) -> Result<(), ServerError> {
        if self.list.iter().any(|v| v.name == V::NAME) {
            return Err(ServerError::DuplicateVariable {
                name: V::NAME,
                type_name: std::any::type_name::<V>(),
            });
        }
        self.list.push(V::definition());
        Ok(())
    }

    /// A DiscoverVariables handler that answers with every variable declared on the builder,
    /// before or after this call.
    pub(super) fn handler(
        &mut self,
    ) -> impl Fn(DiscoverVariablesRequest) -> std::future::Ready<DiscoverVariablesResponse>
    + Send
    + Sync
    + 'static {
        let answer = self.answer.get_or_insert_with(Default::default).clone();
        move |_request| {
            std::future::ready(DiscoverVariablesResponse {
                variables: answer.get().cloned().unwrap_or_default(),
                ..DiscoverVariablesResponse::success()
            })
        }
    }

    /// Fixes the answer when the server is built; fails when variables were declared but no
    /// DiscoverVariables handler answers with them.
    pub(super) fn finish(&mut self) -> Result<(), ServerError> {
        let list = std::mem::take(&mut self.list);
        match &self.answer {
            Some(answer) => {
                let _ = answer.set(list);
                Ok(())
            }
            None if list.is_empty() => Ok(()),
            None => Err(ServerError::UndiscoveredVariables(
                list.into_iter().map(|v| v.name).collect(),
            )),
        }
    }
}

/// The JSON body of a hook's answer.
///
/// A DiscoverVariables answer is written for every supported Cluster API. A v1.12 manager
/// reads the variables as v1beta1 `ClusterClassVariable`s, whose labels and annotations live
/// under `metadata`; v1.13 and later read v1beta2 ones, where the same field is named
/// `deprecatedV1Beta1Metadata` (the SDK's types). Both managers ignore fields they do not know,
/// so a variable that carries such metadata has it written under both names, and every
/// manager reads the variables the handler returned (`interop/oracle`'s `hook_answers` reads
/// the body with each version's Go types). Every other answer is serde's JSON of the message.
pub(super) fn answer_body<M: crate::hook::Message>(message: &M) -> serde_json::Result<Vec<u8>> {
    let Some(answer) = (message as &dyn Any).downcast_ref::<DiscoverVariablesResponse>() else {
        return serde_json::to_vec(message);
    };
    if answer
        .variables
        .iter()
        .all(|v| v.deprecated_v1_beta1_metadata == Default::default())
    {
        return serde_json::to_vec(message);
    }
    let mut body = serde_json::to_value(answer)?;
    if let Some(Value::Array(variables)) = body.get_mut("variables") {
        for variable in variables.iter_mut().filter_map(Value::as_object_mut) {
            if let Some(metadata) = variable.get("deprecatedV1Beta1Metadata").cloned() {
                variable.insert("metadata".to_string(), metadata);
            }
        }
    }
    serde_json::to_vec(&body)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::api::core::v1beta2::ClusterClassVariableMetadata;
    use crate::hooks::v1alpha1::BeforeClusterCreateResponse;

    fn variable(name: &str, label: Option<&str>) -> ClusterClassVariable {
        let mut variable = ClusterClassVariable {
            name: name.to_string(),
            ..Default::default()
        };
        if let Some(label) = label {
            variable.deprecated_v1_beta1_metadata = ClusterClassVariableMetadata {
                labels: [(label.to_string(), "yes".to_string())].into(),
                ..Default::default()
            };
        }
        variable
    }

    fn body(message: &impl crate::hook::Message) -> Value {
        serde_json::from_slice(&answer_body(message).unwrap()).unwrap()
    }

    #[test]
    fn deprecated_metadata_is_written_where_v1_12_reads_it_too() {
        let answer = DiscoverVariablesResponse {
            variables: vec![variable("plain", None), variable("labelled", Some("tier"))],
            ..DiscoverVariablesResponse::success()
        };
        let written = body(&answer);
        assert_eq!(
            written["variables"][0],
            serde_json::json!({"name": "plain"})
        );
        let labelled = &written["variables"][1];
        assert_eq!(
            labelled["metadata"],
            serde_json::json!({"labels": {"tier": "yes"}})
        );
        assert_eq!(labelled["metadata"], labelled["deprecatedV1Beta1Metadata"]);
        // The rest of the answer is the message's own JSON.
        let mut without = written.clone();
        without["variables"][1]
            .as_object_mut()
            .unwrap()
            .remove("metadata");
        assert_eq!(without, serde_json::to_value(&answer).unwrap());
    }

    #[test]
    fn other_answers_are_the_message_json() {
        let answer = BeforeClusterCreateResponse::success();
        assert_eq!(
            answer_body(&answer).unwrap(),
            serde_json::to_vec(&answer).unwrap()
        );
        let plain = DiscoverVariablesResponse {
            variables: vec![variable("plain", None)],
            ..DiscoverVariablesResponse::success()
        };
        assert_eq!(
            answer_body(&plain).unwrap(),
            serde_json::to_vec(&plain).unwrap()
        );
    }
}
