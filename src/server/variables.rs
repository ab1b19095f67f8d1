//! The ClusterClass variables a server declares as Rust types, and the DiscoverVariables
//! handler that answers with them.

use std::sync::{Arc, OnceLock};

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
