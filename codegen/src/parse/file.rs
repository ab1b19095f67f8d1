//! Whole source files for the CLI: the types and hooks that carry our derives, plus what name
//! resolution needs (modules and their `use` items).

use crate::diag::{Diagnostics, FileId};
use crate::model::{HookDef, Model, Module, TypeDef};

/// Everything the CLI frontend read.
#[derive(Debug, Default)]
pub struct Parsed {
    /// Modules, in input order.
    pub modules: Vec<Module>,
    /// Types, in input order.
    pub types: Vec<TypeDef>,
    /// For each type, the module it was defined in (index into `modules`).
    pub type_module: Vec<usize>,
    /// Hooks, in input order.
    pub hooks: Vec<HookDef>,
    /// For each hook, the module it was defined in.
    pub hook_module: Vec<usize>,
}

impl Parsed {
    /// Adds the crate that a checked `model` describes (one read back with
    /// [`read_model`](crate::read_model)) under the name `krate`, for the files read so far to
    /// refer to: its modules, renamed from `crate` to `krate`, and its types, already linked
    /// (their references moved past the types already here, their input file none). Its hooks
    /// belong to that crate, not to the input, and are left out.
    pub fn add_dependency(&mut self, krate: &str, model: &Model) {
        let offset = self.types.len();
        let mut owner = vec![None; model.types.len()];
        for m in &model.modules {
            let mut m = m.clone();
            if m.path.first().is_some_and(|c| c == "crate") {
                m.path[0] = krate.to_string();
            }
            for (_, id) in &mut m.types {
                if let Some(o) = owner.get_mut(*id) {
                    *o = Some(self.modules.len());
                }
                *id += offset;
            }
            self.modules.push(m);
        }
        for (def, owner) in model.types.iter().zip(owner) {
            let mut def = def.clone();
            def.for_each_named_mut(&mut |n| n.id = n.id.map(|id| id + offset));
            def.file = None;
            // A type no module lists is reachable by no path; it is kept for the references of
            // the others.
            if let Some(m) = owner {
                def.module = self.modules[m].path.clone();
            }
            self.types.push(def);
            self.type_module.push(owner.unwrap_or(0));
        }
    }
}

/// Reads one parsed file as the module at `module_path`.
pub fn add_file(
    cx: &Diagnostics,
    out: &mut Parsed,
    file: FileId,
    module_path: Vec<String>,
    ast: &syn::File,
) {
    add_items(cx, out, file, module_path, &ast.items);
}

fn add_items(
    cx: &Diagnostics,
    out: &mut Parsed,
    file: FileId,
    path: Vec<String>,
    items: &[syn::Item],
) {
    let module = out.modules.len();
    out.modules.push(Module {
        path: path.clone(),
        ..Module::default()
    });
    for item in items {
        match item {
            syn::Item::Use(u) => {
                let mut uses = Vec::new();
                flatten_use(&u.tree, Vec::new(), &mut uses);
                out.modules[module].uses.extend(uses);
            }
            syn::Item::Mod(m) => {
                if is_cfg_test(&m.attrs) {
                    continue;
                }
                let name = super::unraw(&m.ident);
                out.modules[module].children.push(name.clone());
                if let Some((_, items)) = &m.content {
                    let mut child = path.clone();
                    child.push(name);
                    add_items(cx, out, file, child, items);
                }
            }
            syn::Item::Struct(s) => add_type(cx, out, file, module, &s.attrs, || s.clone().into()),
            syn::Item::Enum(e) => add_type(cx, out, file, module, &e.attrs, || e.clone().into()),
            _ => {}
        }
    }
}

fn add_type(
    cx: &Diagnostics,
    out: &mut Parsed,
    file: FileId,
    module: usize,
    attrs: &[syn::Attribute],
    input: impl FnOnce() -> syn::DeriveInput,
) {
    let derives = derives(attrs);
    let schema = derives.iter().any(|d| d == "Schema");
    let hook = derives.iter().any(|d| d == "Hook");
    if !schema && !hook {
        return;
    }
    let input = input();
    if schema && let Some(mut parsed) = super::schema(cx, Some(file), &input, true) {
        parsed.def.module = out.modules[module].path.clone();
        let name = parsed.def.ident.clone();
        out.modules[module].types.push((name, out.types.len()));
        out.types.push(parsed.def);
        out.type_module.push(module);
    }
    if hook && let Some(parsed) = super::hook(cx, Some(file), &input) {
        out.hooks.push(parsed.def);
        out.hook_module.push(module);
    }
}

/// The last path segment of every derive on the item.
fn derives(attrs: &[syn::Attribute]) -> Vec<String> {
    let mut out = Vec::new();
    for attr in attrs.iter().filter(|a| a.path().is_ident("derive")) {
        let _ = attr.parse_nested_meta(|meta| {
            if let Some(last) = meta.path.segments.last() {
                out.push(last.ident.to_string());
            }
            Ok(())
        });
    }
    out
}

fn is_cfg_test(attrs: &[syn::Attribute]) -> bool {
    attrs.iter().any(|a| {
        a.path().is_ident("cfg") && a.parse_args::<syn::Ident>().is_ok_and(|i| i == "test")
    })
}

fn flatten_use(tree: &syn::UseTree, prefix: Vec<String>, out: &mut Vec<(String, Vec<String>)>) {
    match tree {
        syn::UseTree::Path(p) => {
            let mut prefix = prefix;
            prefix.push(p.ident.to_string());
            flatten_use(&p.tree, prefix, out);
        }
        syn::UseTree::Name(n) => {
            let name = n.ident.to_string();
            if name == "self" {
                if let Some(last) = prefix.last() {
                    out.push((last.clone(), prefix.clone()));
                }
            } else {
                let mut path = prefix;
                path.push(name.clone());
                out.push((name, path));
            }
        }
        syn::UseTree::Rename(r) => {
            let mut path = prefix;
            let name = r.ident.to_string();
            if name != "self" {
                path.push(name);
            }
            out.push((r.rename.to_string(), path));
        }
        syn::UseTree::Glob(_) => out.push(("*".to_string(), prefix)),
        syn::UseTree::Group(g) => {
            for t in &g.items {
                flatten_use(t, prefix.clone(), out);
            }
        }
    }
}
