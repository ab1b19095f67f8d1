//! The document as the derive path sees it: every hook of a catalog, with the models the
//! derives recorded, linked by the generator into the same model the CLI builds from source.

use std::collections::HashMap;

use capi_runtime::Catalog;
use capi_runtime::schema::TypeInfo;
use capi_runtime_codegen::Model;
use capi_runtime_codegen::resolve::{DerivedHook, DerivedType, link_derived};

/// Numbers every type reachable from the hooks, in the order first seen.
#[derive(Default)]
struct Types {
    index: HashMap<*const TypeInfo, usize>,
    infos: Vec<&'static TypeInfo>,
}

impl Types {
    fn visit(&mut self, info: &'static TypeInfo) -> usize {
        if let Some(i) = self.index.get(&(info as *const _)) {
            return *i;
        }
        self.infos.push(info);
        self.index.insert(info as *const _, self.infos.len() - 1);
        self.infos.len() - 1
    }
}

/// Links every hook of `catalog` and every type they reach into a generator model.
pub fn model(catalog: &Catalog) -> Model {
    let mut types = Types::default();
    let mut hooks = Vec::new();
    for d in catalog.hooks() {
        let h = (d.info.expect("registered with its model"))();
        let request = types.visit((h.request)());
        let response = types.visit((h.response)());
        hooks.push(DerivedHook {
            format: h.format,
            model: h.model,
            request,
            response,
        });
    }
    // Breadth-first over references; the list grows while it is walked.
    let mut refs: Vec<Vec<usize>> = Vec::new();
    let mut i = 0;
    while i < types.infos.len() {
        let info = types.infos[i];
        let r = info.refs.iter().map(|f| types.visit(f())).collect();
        refs.push(r);
        i += 1;
    }
    let derived: Vec<DerivedType<'_>> = types
        .infos
        .iter()
        .zip(refs)
        .map(|(info, refs)| DerivedType {
            format: info.format,
            model: info.model,
            refs,
        })
        .collect();
    link_derived(&derived, &hooks).unwrap_or_else(|e| panic!("linking derived models: {e}"))
}
