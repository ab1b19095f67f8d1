//! Linking references to definitions, for both frontends.
//!
//! The CLI resolves the paths written in source the way rustc would for the subset the hook
//! types use: local definitions, `use` items (named, renamed and glob), `crate::`, `self::` and
//! `super::` paths, and absolute paths into other crates read by the generator (the table of
//! known external types in `external/`). The derive needs no resolution: the compiler links each
//! reference to the referenced type's `Schema` impl, and [`link_derived`] only renumbers.

use crate::diag::{Diagnostics, Errors};
use crate::model::{HookDef, MODEL_FORMAT, Model, Named, TypeDef};
use crate::parse::file::Parsed;

const MAX_DEPTH: usize = 32;

/// Resolves every reference in `parsed` and returns the model, or every unresolved path.
pub fn resolve(parsed: Parsed) -> Result<Model, Errors> {
    let cx = Diagnostics::new();
    let Parsed {
        modules,
        mut types,
        type_module,
        mut hooks,
        hook_module,
    } = parsed;
    let r = Resolver {
        modules: &modules,
        active: Default::default(),
    };
    for (i, def) in types.iter_mut().enumerate() {
        // A type without an input file comes from a dependency's model, linked already.
        let Some(file) = def.file else { continue };
        let module = type_module[i];
        def.for_each_named_mut(&mut |n| r.link(&cx, Some(file), module, n));
    }
    for (i, hook) in hooks.iter_mut().enumerate() {
        let module = hook_module[i];
        let file = hook.file;
        r.link(&cx, file, module, &mut hook.request);
        r.link(&cx, file, module, &mut hook.response);
    }
    cx.check()?;
    Ok(Model {
        types,
        hooks,
        modules,
    })
}

struct Resolver<'a> {
    modules: &'a [crate::model::Module],
    /// (module, name) lookups under way, so glob cycles (`use super::*` in a child whose
    /// parent has `pub use child::*`) end instead of recursing.
    active: std::cell::RefCell<Vec<(usize, String)>>,
}

impl Resolver<'_> {
    fn link(&self, cx: &Diagnostics, file: Option<usize>, module: usize, named: &mut Named) {
        let segs: Vec<String> = named.path.split("::").map(str::to_string).collect();
        match self.in_module(module, &segs, 0) {
            Some(id) => named.id = Some(id),
            None => cx.error(
                file,
                named.span,
                format!(
                    "cannot find a schema for `{}`: derive Schema on it, or use one of the known \
                     external types (k8s_openapi ObjectMeta, Time, Condition, LabelSelector, \
                     RawExtension, JSON, IntOrString, NodeSystemInfo, ByteString; serde_json::Value)",
                    named.path
                ),
            ),
        }
    }

    fn in_module(&self, module: usize, segs: &[String], depth: usize) -> Option<usize> {
        if depth > MAX_DEPTH || segs.is_empty() {
            return None;
        }
        let m = &self.modules[module];
        if let [name] = segs {
            if let Some((_, id)) = m.types.iter().find(|(n, _)| n == name) {
                return Some(*id);
            }
            let key = (module, name.clone());
            if self.active.borrow().contains(&key) {
                return None;
            }
            self.active.borrow_mut().push(key);
            let found = self.imported(module, name, depth);
            self.active.borrow_mut().pop();
            return found;
        }
        let abs = self.absolute(module, segs)?;
        self.absolute_path(&abs, depth + 1)
    }

    /// A name brought into `module` by a `use` item.
    fn imported(&self, module: usize, name: &String, depth: usize) -> Option<usize> {
        let m = &self.modules[module];
        {
            if let Some((_, target)) = m.uses.iter().find(|(n, _)| n == name) {
                let abs = self.absolute(module, target)?;
                return self.absolute_path(&abs, depth + 1);
            }
            for (_, glob) in m.uses.iter().filter(|(n, _)| n == "*") {
                let mut target = glob.clone();
                target.push(name.clone());
                if let Some(abs) = self.absolute(module, &target)
                    && let Some(id) = self.absolute_path(&abs, depth + 1)
                {
                    return Some(id);
                }
            }
            None
        }
    }

    /// Turns a path written in `module` into one that starts with a crate name.
    fn absolute(&self, module: usize, segs: &[String]) -> Option<Vec<String>> {
        let m = &self.modules[module];
        let first = segs.first()?;
        let rest = &segs[1..];
        let join =
            |base: &[String]| -> Vec<String> { base.iter().chain(rest.iter()).cloned().collect() };
        Some(match first.as_str() {
            "crate" => join(&m.path[..1]),
            "self" => join(&m.path),
            "super" => {
                let mut base = m.path.clone();
                let mut rest = segs;
                while rest.first().is_some_and(|s| s == "super") {
                    if base.len() <= 1 {
                        return None;
                    }
                    base.pop();
                    rest = &rest[1..];
                }
                base.into_iter().chain(rest.iter().cloned()).collect()
            }
            _ if m.children.contains(first) => {
                let mut base = m.path.clone();
                base.extend(segs.iter().cloned());
                base
            }
            _ if segs.len() > 1 => match self.use_target(module, first, 0) {
                Some(mut abs) => {
                    abs.extend(rest.iter().cloned());
                    abs
                }
                None => segs.to_vec(),
            },
            _ => segs.to_vec(),
        })
    }

    /// The absolute path a name imported into `module` stands for (a module alias such as
    /// `use k8s_openapi::...::v1 as metav1;`), looking through glob imports too.
    fn use_target(&self, module: usize, name: &str, depth: usize) -> Option<Vec<String>> {
        if depth > MAX_DEPTH {
            return None;
        }
        let m = &self.modules[module];
        if let Some((_, target)) = m.uses.iter().find(|(n, _)| n == name) {
            return self.absolute(module, target);
        }
        let key = (module, format!("use:{name}"));
        if self.active.borrow().contains(&key) {
            return None;
        }
        self.active.borrow_mut().push(key);
        let mut found = None;
        for (_, glob) in m.uses.iter().filter(|(n, _)| n == "*") {
            let Some(abs) = self.absolute(module, glob) else {
                continue;
            };
            if let Some(g) = self.modules.iter().position(|x| x.path == abs)
                && let Some(f) = self.use_target(g, name, depth + 1)
            {
                found = Some(f);
                break;
            }
        }
        self.active.borrow_mut().pop();
        found
    }

    /// Finds the type an absolute path names, following re-exports.
    fn absolute_path(&self, path: &[String], depth: usize) -> Option<usize> {
        if depth > MAX_DEPTH || path.len() < 2 {
            return None;
        }
        let (name, parent) = path.split_last()?;
        if let Some(m) = self.modules.iter().position(|m| m.path == parent) {
            return self.in_module(m, std::slice::from_ref(name), depth + 1);
        }
        // The parent may itself be a re-exported module: `pub use inner::v1;` then `v1::X`.
        for i in (1..parent.len()).rev() {
            if let Some(m) = self.modules.iter().position(|m| m.path == parent[..i]) {
                let alias = &parent[i];
                if let Some((_, target)) = self.modules[m].uses.iter().find(|(n, _)| n == alias) {
                    let mut abs = self.absolute(m, target)?;
                    abs.extend(parent[i + 1..].iter().cloned());
                    abs.push(name.clone());
                    return self.absolute_path(&abs, depth + 1);
                }
            }
        }
        None
    }
}

/// One type as the derive describes it: its serialized [`TypeDef`] and, for each of its
/// local reference numbers, the index of the referenced type in the same list.
pub struct DerivedType<'a> {
    /// The version of the JSON form the derive wrote (see [`MODEL_FORMAT`]).
    pub format: u32,
    /// JSON of the [`TypeDef`], as emitted by the derive.
    pub model: &'a str,
    /// Local reference number → index in the list passed to [`link_derived`].
    pub refs: Vec<usize>,
}

/// One hook as the derive describes it.
pub struct DerivedHook<'a> {
    /// The version of the JSON form the derive wrote (see [`MODEL_FORMAT`]).
    pub format: u32,
    /// JSON of the [`HookDef`].
    pub model: &'a str,
    /// Index of the request type in the type list.
    pub request: usize,
    /// Index of the response type in the type list.
    pub response: usize,
}

/// Builds a model from what the derives emitted. A model recorded in another JSON form
/// version than [`MODEL_FORMAT`] (a derive from another release of the generator) is refused
/// before it is read.
pub fn link_derived(types: &[DerivedType<'_>], hooks: &[DerivedHook<'_>]) -> Result<Model, Errors> {
    let span = proc_macro2::Span::call_site();
    let check_format = |format: u32, what: &str| {
        if format == MODEL_FORMAT {
            return Ok(());
        }
        Err(Errors::new(
            span,
            format!(
                "the derive recorded the {what} in model format {format}, but this generator \
                 reads format {MODEL_FORMAT}: build capi-runtime-derive and \
                 capi-runtime-codegen from the same release"
            ),
        ))
    };
    let mut out = Model::default();
    for t in types {
        check_format(t.format, "type")?;
        let mut def: TypeDef = serde_json::from_str(t.model)
            .map_err(|e| Errors::new(span, format!("bad type model from the derive: {e}")))?;
        let mut bad = None;
        def.for_each_named_mut(&mut |n| match n.id.and_then(|local| t.refs.get(local)) {
            Some(global) => n.id = Some(*global),
            None => bad = Some(n.path.clone()),
        });
        if let Some(path) = bad {
            return Err(Errors::new(
                span,
                format!("unlinked reference `{path}` in `{}`", def.ident),
            ));
        }
        out.types.push(def);
    }
    for h in hooks {
        check_format(h.format, "hook")?;
        let mut def: HookDef = serde_json::from_str(h.model)
            .map_err(|e| Errors::new(span, format!("bad hook model from the derive: {e}")))?;
        def.request.id = Some(h.request);
        def.response.id = Some(h.response);
        out.hooks.push(def);
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn message(e: Errors) -> String {
        e.to_string()
    }

    #[test]
    fn a_type_model_of_another_format_is_refused_before_it_is_read() {
        let types = [DerivedType {
            format: MODEL_FORMAT + 1,
            model: "not the JSON of any version",
            refs: Vec::new(),
        }];
        let err = message(link_derived(&types, &[]).unwrap_err());
        assert!(
            err.contains(&format!(
                "type in model format {}, but this generator reads format {MODEL_FORMAT}",
                MODEL_FORMAT + 1
            )),
            "{err}"
        );
    }

    #[test]
    fn a_hook_model_of_another_format_is_refused() {
        let err = message(
            link_derived(
                &[],
                &[DerivedHook {
                    format: 0,
                    model: "{}",
                    request: 0,
                    response: 0,
                }],
            )
            .unwrap_err(),
        );
        assert!(err.contains("hook in model format 0"), "{err}");
    }

    #[test]
    fn a_model_of_this_format_is_read() {
        // Same version, so the JSON is parsed: broken JSON is now a parse error.
        let types = [DerivedType {
            format: MODEL_FORMAT,
            model: "{",
            refs: Vec::new(),
        }];
        let err = message(link_derived(&types, &[]).unwrap_err());
        assert!(err.contains("bad type model from the derive"), "{err}");
    }
}
