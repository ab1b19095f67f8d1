//! The ClusterClass variables a server declares as Rust types, and the DiscoverVariables
//! handler that answers with them.

use std::sync::{Arc, OnceLock};

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
    /// Adds `V`'s definition.
    ///
    /// # Panics
    ///
    /// When a variable of the same name is declared already: Cluster API refuses a class whose
    /// variables share a name, so this is a mistake in the extension's code.
    pub(super) fn declare<V: Variable>(&mut self) {
        assert!(
            !self.list.iter().any(|v| v.name == V::NAME),
            "the variable \"{}\" is declared twice (the second time by {}); variable names \
             must be unique",
            V::NAME,
            std::any::type_name::<V>(),
        );
        self.list.push(V::definition());
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

    /// Fixes the answer when the server is built.
    ///
    /// # Panics
    ///
    /// When variables were declared but no DiscoverVariables handler answers with them.
    pub(super) fn finish(self) {
        match self.answer {
            Some(answer) => {
                let _ = answer.set(self.list);
            }
            None => assert!(
                self.list.is_empty(),
                "variables are declared ({}) but no handler answers DiscoverVariables with \
                 them; call `discover_variables` on the builder",
                self.list
                    .iter()
                    .map(|v| v.name.as_str())
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        }
    }
}
