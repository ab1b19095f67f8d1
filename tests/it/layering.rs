//! The direction of the imports between the modules of `src/`, as `DEVELOPING.md` states it
//! ("Layering inside `src/`"): every path a module of the crate names (`crate::…`,
//! `super::…`, also outside `use` lines) must lead to a module it is allowed to depend on, and
//! the allowed edges themselves form no circle.
//!
//! The check reads the source text; comments, string literals and `#[cfg(test)]` items (unit
//! tests may reach across layers) are not looked at. `lib.rs` (it declares every module) and
//! `generated/` (written by `cargo xtask codegen`, it names every layer and is checked for
//! staleness instead) are not checked as sources; a module that re-exports generated code names
//! `generated` as an allowed target.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// Each module of the crate (a top-level module; `api` in its halves `api::core` and
/// `api::runtime`) with the paths it may name. A target is a module path prefix: `api::runtime::validation` allows that
/// module only, `api::runtime` all of `api::runtime`. A module may always name itself.
const ALLOWED: &[(&str, &[&str])] = &[
    // Go's and apimachinery's rules: the bottom layer, naming nothing else of the crate.
    ("go", &[]),
    ("schema", &[]),
    ("conversion", &[]),
    ("hook", &["schema"]),
    // The helpers named by derive expansions and generated code, and the crate-private Go rules
    // handed to the workspace's Go-oracle tests.
    (
        "__private",
        &["go", "schema", "hook", "conversion", "generated"],
    ),
    ("object", &["__private"]),
    // ClusterClass variables declared as Rust types: their schema parts, assembled into the
    // `ClusterClassVariable` of `api::core`.
    ("variable", &["api::core", "go"]),
    // `api/mod.rs` only declares its two halves, which are checked apart.
    ("api", &[]),
    // The raw JSON field types decode their text with the wire codec.
    ("raw", &["schema", "wire"]),
    // The v1beta1 Cluster converts to v1beta2 (`conversion`), reading Go durations (`go`).
    (
        "api::core",
        &["go", "schema", "__private", "conversion", "object", "raw"],
    ),
    (
        "api::runtime",
        &[
            "go",
            "schema",
            "__private",
            "conversion",
            "api::core",
            "generated",
        ],
    ),
    // The wire codec knows the hook traits, not the hook versions, and reads times and bytes
    // with Go's rules where the shapes the derive records (`schema::shape`) say so.
    ("wire", &["go", "schema", "hook"]),
    (
        "catalog",
        &["schema", "hook", "conversion", "wire", "api::runtime"],
    ),
    // The hook versions register themselves into the catalog (`add_to_catalog`) and convert
    // their `GroupVersionHook` to and from the catalog's `HookId`; the lifecycle requests are
    // decoded in either shape of Cluster with the wire codec (`cluster_shape`).
    (
        "hooks",
        &[
            "schema",
            "hook",
            "__private",
            "conversion",
            "api::core",
            "api::runtime::validation",
            "catalog",
            "raw",
            "wire",
        ],
    ),
    ("registry", &["go", "api::runtime", "catalog"]),
    (
        "client",
        &[
            "go",
            "hook",
            "hooks",
            "api::runtime",
            "catalog",
            "registry",
            "tls",
            "wire",
        ],
    ),
    // PEM and rustls configurations for both sides, the shutdown signal of both, and the HTTPS
    // host: no hooks.
    ("tls", &[]),
    ("signal", &[]),
    ("https", &["go", "tls", "signal"]),
    (
        "server",
        &[
            "go",
            "conversion",
            "hook",
            "hooks",
            "catalog",
            "wire",
            "https",
            "signal",
            "api::runtime::validation",
            // DiscoverVariables answered from the variables declared as types.
            "api::core",
            "variable",
        ],
    ),
    (
        "topology_mutation",
        &[
            "go",
            "hook",
            "hooks",
            "api::runtime::validation",
            "raw",
            "wire",
            // Variables read into the types that declare them.
            "variable",
        ],
    ),
];

/// Sources that are not checked (see the module documentation).
fn skipped(module: &[String]) -> bool {
    module.is_empty() || module[0] == "generated"
}

#[test]
fn imports_follow_the_layering_of_the_code_map() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let sources = read_sources(&src);
    let problems = check(&sources, ALLOWED);
    assert!(
        problems.is_empty(),
        "imports against the layering of DEVELOPING.md (tests/it/layering.rs lists the allowed \
         edges; change the code, or DEVELOPING.md and that list together):\n{}",
        problems.join("\n")
    );
}

#[test]
fn the_allowed_edges_form_no_circle() {
    assert_eq!(circle(ALLOWED), None);
}

/// Inside a module, the files name each other without a circle: each file of a directory
/// (its `mod.rs`, the module root that declares and re-exports them, aside) may name its
/// siblings only downwards, so shared types live in a file of their own below their users.
#[test]
fn the_files_of_a_module_name_each_other_without_a_circle() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let sources = read_sources(&src);
    let circles = file_circles(&sources);
    assert!(
        circles.is_empty(),
        "files of one module that name each other in a circle (move what they share into a \
         file of its own):\n{}",
        circles.join("\n")
    );
}

/// The checker of file circles: a circle through a re-export of the module root is found, a
/// file naming the root itself (`super::Client`) is not one.
#[test]
fn a_circle_between_files_is_reported() {
    let sources = vec![
        source("lib.rs", "mod m;\n"),
        source(
            "m/mod.rs",
            "mod a;\nmod b;\nmod c;\npub use c::C;\npub struct Root;\n",
        ),
        source("m/a.rs", "use super::b::B;\nuse super::Root;\n"),
        source("m/b.rs", "pub struct B(super::C);\n"),
        source(
            "m/c.rs",
            "use crate::m::a::A;\n#[cfg(test)]\nmod tests { use super::super::b::B; }\n",
        ),
    ];
    assert_eq!(file_circles(&sources), ["src/m/: a -> b -> c -> a"]);
    let sources = vec![
        source("lib.rs", "mod m;\n"),
        source("m/mod.rs", "mod a;\nmod b;\n"),
        source("m/a.rs", "use super::b::B;\n"),
        source(
            "m/b.rs",
            "#[cfg(test)]\nmod tests { use super::super::a::A; }\n",
        ),
    ];
    assert!(file_circles(&sources).is_empty());
}

/// The checker itself: a forbidden edge, one hidden in a `use` group, one through `super::`
/// and one through a root re-export are reported; comments, strings and unit tests are not.
#[test]
fn a_forbidden_edge_is_reported() {
    let lib = "pub mod catalog;\npub mod client;\npub mod hook;\npub mod schema;\n\
               pub use catalog::Catalog;\npub use k8s_openapi;\n";
    let catalog = "//! [`crate::client`] is only a doc link.\n\
                   use crate::hook::Hook;\n\
                   use crate::{schema::Schema, client::{self, Client}};\n\
                   fn f() { let _ = \"crate::client::Client\"; }\n\
                   #[cfg(test)]\nmod tests { use crate::client::Client; }\n";
    let nested = "use super::super::super::client::Client;\nuse super::super::Catalog;\nuse crate::k8s_openapi::ByteString;\n";
    let hook = "use crate::Catalog;\nuse crate::schema::Schema;\n";
    let sources = vec![
        source("lib.rs", lib),
        source("catalog.rs", catalog),
        source("hook.rs", hook),
        source("schema.rs", ""),
        source("client/mod.rs", "use crate::catalog::Catalog;\n"),
        source("catalog/inner/deep.rs", nested),
    ];
    let allowed: &[(&str, &[&str])] = &[
        ("schema", &[]),
        ("hook", &["schema"]),
        ("catalog", &["hook", "schema"]),
        ("client", &["catalog"]),
    ];
    let problems = check(&sources, allowed);
    assert_eq!(
        problems,
        [
            "src/catalog.rs:3: catalog names crate::client (allowed: hook, schema)",
            "src/catalog.rs:3: catalog names crate::client::Client (allowed: hook, schema)",
            "src/catalog/inner/deep.rs:1: catalog names crate::client::Client (allowed: hook, \
             schema)",
            "src/hook.rs:1: hook names crate::catalog::Catalog (allowed: schema)",
        ]
    );
    let cyclic: &[(&str, &[&str])] = &[("a", &["b"]), ("b", &["c"]), ("c", &["a"])];
    assert_eq!(
        circle(cyclic),
        Some(vec!["a".into(), "b".into(), "c".into(), "a".into()])
    );
}

/// Every circle between the files of one directory, as `src/<dir>/: a -> b -> a`.
fn file_circles(sources: &[Source]) -> Vec<String> {
    let test_only = test_only_files(sources);
    // The directories with a module root, and the files below each.
    let mut dirs: BTreeMap<Vec<String>, Vec<&Source>> = BTreeMap::new();
    for source in sources {
        if !source.path.ends_with("/mod.rs") {
            continue;
        }
        let module = module_of(&source.path);
        if skipped(&module) {
            continue;
        }
        let children = sources
            .iter()
            .filter(|s| !s.path.ends_with("/mod.rs") && !test_only.contains(&s.path))
            .filter(|s| {
                let m = module_of(&s.path);
                m.len() == module.len() + 1 && m.starts_with(&module)
            })
            .collect();
        dirs.insert(module, children);
    }
    let mut out = Vec::new();
    for (module, children) in &dirs {
        let names: BTreeSet<String> = children
            .iter()
            .map(|s| module_of(&s.path).pop().unwrap())
            .collect();
        let root = sources
            .iter()
            .find(|s| module_of(&s.path) == *module && s.path.ends_with("/mod.rs"))
            .unwrap();
        let root_exports = reexports(&strip_test_items(&blank(&root.text)), &names);
        let mut edges: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
        for child in children {
            let mut path_of = module_of(&child.path);
            let name = path_of.pop().unwrap();
            let text = strip_test_items(&blank(&child.text));
            let targets = edges.entry(name.clone()).or_default();
            for (_, path) in paths(&text, &module_of(&child.path)) {
                if !path.starts_with(module) || path.len() <= module.len() {
                    continue;
                }
                let first = &path[module.len()];
                let target = if names.contains(first) {
                    Some(first.clone())
                } else {
                    // A name the module root re-exports from one of its files.
                    root_exports
                        .get(first)
                        .and_then(|p| p.first())
                        .filter(|t| names.contains(*t))
                        .cloned()
                };
                if let Some(target) = target.filter(|t| *t != name) {
                    targets.insert(target);
                }
            }
        }
        let nodes: Vec<(String, Vec<String>)> = edges
            .into_iter()
            .map(|(n, t)| (n, t.into_iter().collect()))
            .collect();
        let as_allowed: Vec<(&str, Vec<&str>)> = nodes
            .iter()
            .map(|(n, t)| (n.as_str(), t.iter().map(String::as_str).collect()))
            .collect();
        let as_allowed: Vec<(&str, &[&str])> =
            as_allowed.iter().map(|(n, t)| (*n, t.as_slice())).collect();
        if let Some(found) = circle(&as_allowed) {
            let dir = module.join("/");
            out.push(format!("src/{dir}/: {}", found.join(" -> ")));
        }
    }
    out
}

/// One source file: its path under `src/` and its text.
struct Source {
    path: String,
    text: String,
}

fn source(path: &str, text: &str) -> Source {
    Source {
        path: path.into(),
        text: text.into(),
    }
}

fn read_sources(src: &Path) -> Vec<Source> {
    let mut out = Vec::new();
    let mut dirs = vec![src.to_path_buf()];
    while let Some(dir) = dirs.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                dirs.push(path);
            } else if path.extension().is_some_and(|e| e == "rs") {
                let rel = path.strip_prefix(src).unwrap();
                let rel = rel.to_str().unwrap().replace('\\', "/");
                out.push(source(&rel, &std::fs::read_to_string(&path).unwrap()));
            }
        }
    }
    out.sort_by(|a, b| a.path.cmp(&b.path));
    out
}

/// The module path of a file: `client/mod.rs` is `client`, `api/runtime/v1beta2/x.rs` is
/// `api::runtime::v1beta2::x`, `lib.rs` the crate root.
fn module_of(path: &str) -> Vec<String> {
    let path = path.strip_suffix(".rs").unwrap();
    let mut parts: Vec<String> = path.split('/').map(str::to_string).collect();
    if matches!(parts.last().map(String::as_str), Some("mod" | "lib")) {
        parts.pop();
    }
    parts
}

/// The checked module (an entry of the allowed list) a module path belongs to.
fn node_of<'a>(module: &[String], allowed: &[(&'a str, &[&str])]) -> Option<&'a str> {
    allowed
        .iter()
        .map(|(node, _)| *node)
        .filter(|node| has_prefix(module, node))
        .max_by_key(|node| node.len())
}

fn has_prefix(path: &[String], prefix: &str) -> bool {
    let prefix: Vec<&str> = prefix.split("::").collect();
    path.len() >= prefix.len() && path.iter().zip(&prefix).all(|(a, b)| a == b)
}

/// Every violation, as `src/<file>:<line>: <module> names crate::<path> (allowed: …)`.
fn check(sources: &[Source], allowed: &[(&str, &[&str])]) -> Vec<String> {
    let lib = sources
        .iter()
        .find(|s| s.path == "lib.rs")
        .expect("src/lib.rs");
    let lib_text = blank(&lib.text);
    let top: BTreeSet<String> = top_modules(&lib_text);
    let reexports = reexports(&lib_text, &top);
    let test_only = test_only_files(sources);
    let mut problems = Vec::new();
    for source in sources {
        let module = module_of(&source.path);
        if skipped(&module) || test_only.contains(&source.path) {
            continue;
        }
        let Some(node) = node_of(&module, allowed) else {
            problems.push(format!(
                "src/{}: module {} is not in the allowed list of tests/it/layering.rs",
                source.path,
                module.join("::")
            ));
            continue;
        };
        let targets = allowed.iter().find(|(n, _)| *n == node).unwrap().1;
        let text = strip_test_items(&blank(&source.text));
        for (line, path) in paths(&text, &module) {
            let Some(path) = resolve(path, &top, &reexports) else {
                continue;
            };
            if has_prefix(&path, node) || targets.iter().any(|t| has_prefix(&path, t)) {
                continue;
            }
            problems.push(format!(
                "src/{}:{line}: {node} names crate::{} (allowed: {})",
                source.path,
                path.join("::"),
                targets.join(", ")
            ));
        }
    }
    problems.sort();
    problems.dedup();
    problems
}

/// Makes a path found in the crate absolute and attributable: `None` for paths outside the
/// crate's modules (re-exported external crates such as `crate::k8s_openapi`).
fn resolve(
    path: Vec<String>,
    top: &BTreeSet<String>,
    reexports: &BTreeMap<String, Vec<String>>,
) -> Option<Vec<String>> {
    let first = path.first()?;
    if top.contains(first) {
        return Some(path);
    }
    let mut target = reexports.get(first)?.clone();
    target.extend(path.into_iter().skip(1));
    Some(target)
}

/// The modules `lib.rs` declares.
fn top_modules(lib: &str) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    let words = words(lib);
    for (i, (_, w)) in words.iter().enumerate() {
        if w == "mod"
            && let Some((_, name)) = words.get(i + 1)
            && let Some((_, end)) = words.get(i + 2)
            && (end == ";" || end == "{")
        {
            out.insert(name.clone());
        }
    }
    out
}

/// What the crate root re-exports from its own modules: `Catalog` → `catalog::Catalog`, and an
/// inline module of `lib.rs` (the prelude) → the one module it re-exports from.
fn reexports(lib: &str, top: &BTreeSet<String>) -> BTreeMap<String, Vec<String>> {
    let mut out = BTreeMap::new();
    let mut inline: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    let words = words(lib);
    let mut depth = 0usize;
    let mut current: Option<String> = None;
    let mut i = 0;
    while i < words.len() {
        let w = words[i].1.as_str();
        match w {
            "{" => depth += 1,
            "}" => {
                depth -= 1;
                if depth == 0 {
                    current = None;
                }
            }
            "mod" if depth == 0 && words.get(i + 2).is_some_and(|(_, w)| w == "{") => {
                current = Some(words[i + 1].1.clone());
            }
            "use" => {
                let (trees, next) = use_tree(&words, i + 1);
                for (path, alias) in trees {
                    let mut path = path;
                    if path.first().is_some_and(|p| p == "crate") {
                        path.remove(0);
                    }
                    if !path.first().is_some_and(|p| top.contains(p)) {
                        continue;
                    }
                    match &current {
                        Some(m) => {
                            inline.entry(m.clone()).or_default().insert(path[0].clone());
                        }
                        None => {
                            out.insert(alias, path);
                        }
                    }
                }
                i = next;
                continue;
            }
            _ => {}
        }
        i += 1;
    }
    for (name, modules) in inline {
        if modules.len() == 1 {
            out.insert(name, vec![modules.into_iter().next().unwrap()]);
        }
    }
    out
}

/// Files declared by `#[cfg(test)] mod name;` (and everything below them).
fn test_only_files(sources: &[Source]) -> BTreeSet<String> {
    let mut test_modules: Vec<Vec<String>> = Vec::new();
    for source in sources {
        let text = blank(&source.text);
        let words = words(&text);
        for (i, (_, w)) in words.iter().enumerate() {
            if w == "mod"
                && words.get(i + 2).is_some_and(|(_, w)| w == ";")
                && preceded_by_cfg_test(&words, i)
            {
                let mut module = module_of(&source.path);
                module.push(words[i + 1].1.clone());
                test_modules.push(module);
            }
        }
    }
    sources
        .iter()
        .filter(|s| {
            let module = module_of(&s.path);
            test_modules
                .iter()
                .any(|t| module.len() >= t.len() && module[..t.len()] == t[..])
        })
        .map(|s| s.path.clone())
        .collect()
}

/// Whether the item starting at word `i` carries `#[cfg(test)]` (other attributes and `pub`
/// may stand between).
fn preceded_by_cfg_test(words: &[(usize, String)], i: usize) -> bool {
    let mut j = i;
    while j > 0
        && matches!(
            words[j - 1].1.as_str(),
            "pub" | "(" | ")" | "crate" | "super"
        )
    {
        j -= 1;
    }
    // Walk back over attributes `# [ ... ]`.
    while j > 0 && words[j - 1].1 == "]" {
        let mut k = j - 1;
        let mut depth = 0;
        loop {
            match words[k].1.as_str() {
                "]" => depth += 1,
                "[" => {
                    depth -= 1;
                    if depth == 0 {
                        break;
                    }
                }
                _ => {}
            }
            if k == 0 {
                return false;
            }
            k -= 1;
        }
        if k == 0 || words[k - 1].1 != "#" {
            return false;
        }
        let attr: Vec<&str> = words[k + 1..j - 1]
            .iter()
            .map(|(_, w)| w.as_str())
            .collect();
        if attr == ["cfg", "(", "test", ")"] {
            return true;
        }
        j = k - 1;
    }
    false
}

/// The text with every `#[cfg(test)]` item blanked out (line breaks kept).
fn strip_test_items(text: &str) -> String {
    let mut bytes = text.as_bytes().to_vec();
    let marker = "#[cfg(test)]";
    let mut from = 0;
    while let Some(at) = text[from..].find(marker).map(|p| p + from) {
        // The item ends at its first `;` when that comes before its first `{`, else at the brace
        // that closes the first one.
        let rest = &text[at + marker.len()..];
        let semi = rest.find(';');
        let brace = rest.find('{');
        let end = match (semi, brace) {
            (Some(s), Some(b)) if s < b => at + marker.len() + s + 1,
            (Some(s), None) => at + marker.len() + s + 1,
            (_, Some(b)) => {
                let mut depth = 0;
                let mut end = text.len();
                for (k, c) in text[at + marker.len() + b..].char_indices() {
                    match c {
                        '{' => depth += 1,
                        '}' => {
                            depth -= 1;
                            if depth == 0 {
                                end = at + marker.len() + b + k + 1;
                                break;
                            }
                        }
                        _ => {}
                    }
                }
                end
            }
            (None, None) => text.len(),
        };
        for b in &mut bytes[at..end] {
            if *b != b'\n' {
                *b = b' ';
            }
        }
        from = end;
    }
    String::from_utf8(bytes).unwrap()
}

/// Every path into the crate the text names, with its line: `crate::a::b`, each leaf of a use
/// group `crate::{a, b::{c, self}}`, and `super::…` made absolute from `module`.
fn paths(text: &str, module: &[String]) -> Vec<(usize, Vec<String>)> {
    let words = words(text);
    let mut out = Vec::new();
    for i in 0..words.len() {
        let w = words[i].1.as_str();
        let starts = (w == "crate" || w == "super")
            && words.get(i + 1).is_some_and(|(_, w)| w == "::")
            && !(i > 0 && words[i - 1].1 == "::");
        if !starts {
            continue;
        }
        let line = words[i].0;
        // `$crate` is the crate too.
        let (trees, _) = use_tree(&words, i);
        for (path, _) in trees {
            if let Some(path) = absolute(path, module) {
                out.push((line, path));
            }
        }
    }
    out
}

/// `crate::a` → `a`; `super::x` from `a::b` (a file's module) → `a::x`.
fn absolute(path: Vec<String>, module: &[String]) -> Option<Vec<String>> {
    let mut base: Vec<String> = module.to_vec();
    let mut rest = path.as_slice();
    match rest.first().map(String::as_str) {
        Some("crate") => {
            base.clear();
            rest = &rest[1..];
        }
        Some("super") => {
            while rest.first().is_some_and(|s| s == "super") {
                base.pop()?;
                rest = &rest[1..];
            }
        }
        _ => return None,
    }
    base.extend(rest.iter().filter(|s| *s != "self").cloned());
    Some(base)
}

/// Parses a use tree (or any path) starting at word `i`: its leaves as (path, name bound), and
/// the index after it.
fn use_tree(words: &[(usize, String)], mut i: usize) -> (Vec<(Vec<String>, String)>, usize) {
    let mut prefix = Vec::new();
    loop {
        let Some((_, w)) = words.get(i) else {
            return (leaf(prefix), i);
        };
        if w == "{" {
            let mut out = Vec::new();
            i += 1;
            loop {
                match words.get(i).map(|(_, w)| w.as_str()) {
                    Some("}") => {
                        i += 1;
                        break;
                    }
                    Some(",") => i += 1,
                    None => break,
                    Some(_) => {
                        let (trees, next) = use_tree(words, i);
                        for (path, alias) in trees {
                            let mut full = prefix.clone();
                            full.extend(path);
                            out.push((full, alias));
                        }
                        if next == i {
                            i += 1;
                        } else {
                            i = next;
                        }
                    }
                }
            }
            return (out, i);
        }
        if w == "*" {
            return (leaf(prefix), i + 1);
        }
        if !is_ident(w) {
            return (leaf(prefix), i);
        }
        prefix.push(w.clone());
        i += 1;
        match words.get(i).map(|(_, w)| w.as_str()) {
            Some("::") => i += 1,
            Some("as") => {
                let alias = words.get(i + 1).map(|(_, w)| w.clone()).unwrap_or_default();
                return (vec![(prefix, alias)], i + 2);
            }
            _ => return (leaf(prefix), i),
        }
    }
}

fn leaf(path: Vec<String>) -> Vec<(Vec<String>, String)> {
    if path.is_empty() {
        return Vec::new();
    }
    let name = match path.last().map(String::as_str) {
        Some("self") if path.len() > 1 => path[path.len() - 2].clone(),
        _ => path.last().unwrap().clone(),
    };
    vec![(path, name)]
}

fn is_ident(w: &str) -> bool {
    w.chars()
        .next()
        .is_some_and(|c| c.is_alphabetic() || c == '_')
}

/// The words of (blanked) source text with their line numbers: identifiers, `::` and single
/// punctuation characters.
fn words(text: &str) -> Vec<(usize, String)> {
    let mut out = Vec::new();
    let mut line = 1;
    let chars: Vec<char> = text.chars().collect();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        if c == '\n' {
            line += 1;
            i += 1;
        } else if c.is_whitespace() {
            i += 1;
        } else if c.is_alphanumeric() || c == '_' {
            let start = i;
            while i < chars.len() && (chars[i].is_alphanumeric() || chars[i] == '_') {
                i += 1;
            }
            out.push((line, chars[start..i].iter().collect()));
        } else if c == ':' && chars.get(i + 1) == Some(&':') {
            out.push((line, "::".into()));
            i += 2;
        } else {
            out.push((line, c.to_string()));
            i += 1;
        }
    }
    out
}

/// The text with comments, string and character literals replaced by spaces (line breaks
/// kept, so line numbers stay right).
fn blank(text: &str) -> String {
    let chars: Vec<char> = text.chars().collect();
    let mut out = String::with_capacity(text.len());
    let keep = |c: char| if c == '\n' { '\n' } else { ' ' };
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        let next = chars.get(i + 1).copied();
        if c == '/' && next == Some('/') {
            while i < chars.len() && chars[i] != '\n' {
                out.push(' ');
                i += 1;
            }
        } else if c == '/' && next == Some('*') {
            let mut depth = 0;
            while i < chars.len() {
                if chars[i] == '/' && chars.get(i + 1) == Some(&'*') {
                    depth += 1;
                    out.push_str("  ");
                    i += 2;
                } else if chars[i] == '*' && chars.get(i + 1) == Some(&'/') {
                    depth -= 1;
                    out.push_str("  ");
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    out.push(keep(chars[i]));
                    i += 1;
                }
            }
        } else if c == 'r'
            && (next == Some('"') || next == Some('#'))
            && !(i > 0 && (chars[i - 1].is_alphanumeric() || chars[i - 1] == '_'))
        {
            // A raw string r"…" or r#"…"#.
            let mut j = i + 1;
            let mut hashes = 0;
            while chars.get(j) == Some(&'#') {
                hashes += 1;
                j += 1;
            }
            if chars.get(j) != Some(&'"') {
                out.push(c);
                i += 1;
                continue;
            }
            j += 1;
            loop {
                if j >= chars.len() {
                    break;
                }
                if chars[j] == '"' && (0..hashes).all(|h| chars.get(j + 1 + h) == Some(&'#')) {
                    j += 1 + hashes;
                    break;
                }
                j += 1;
            }
            for &ch in &chars[i..j.min(chars.len())] {
                out.push(keep(ch));
            }
            i = j;
        } else if c == '"' {
            out.push(' ');
            i += 1;
            while i < chars.len() && chars[i] != '"' {
                if chars[i] == '\\' {
                    out.push(' ');
                    i += 1;
                }
                if i < chars.len() {
                    out.push(keep(chars[i]));
                    i += 1;
                }
            }
            out.push(' ');
            i += 1;
        } else if c == '\'' {
            // A character literal ('a', '\n', '\u{1F600}') or a lifetime ('a).
            let end = if next == Some('\\') {
                (i + 2..chars.len()).find(|&k| chars[k] == '\'')
            } else if chars.get(i + 2) == Some(&'\'') {
                Some(i + 2)
            } else {
                None
            };
            match end {
                Some(end) => {
                    for _ in i..=end {
                        out.push(' ');
                    }
                    i = end + 1;
                }
                None => {
                    out.push(c);
                    i += 1;
                }
            }
        } else {
            out.push(c);
            i += 1;
        }
    }
    out
}

/// A circle in the allowed edges (between entries of the list), if there is one.
fn circle(allowed: &[(&str, &[&str])]) -> Option<Vec<String>> {
    let edges: BTreeMap<&str, Vec<&str>> = allowed
        .iter()
        .map(|(node, targets)| {
            let to = targets
                .iter()
                .filter_map(|t| {
                    let path: Vec<String> = t.split("::").map(str::to_string).collect();
                    node_of(&path, allowed)
                })
                .filter(|t| t != node)
                .collect();
            (*node, to)
        })
        .collect();
    fn visit<'a>(
        node: &'a str,
        edges: &BTreeMap<&'a str, Vec<&'a str>>,
        stack: &mut Vec<&'a str>,
        done: &mut BTreeSet<&'a str>,
    ) -> Option<Vec<String>> {
        if let Some(at) = stack.iter().position(|n| *n == node) {
            let mut found: Vec<String> = stack[at..].iter().map(|s| s.to_string()).collect();
            found.push(node.to_string());
            return Some(found);
        }
        if !done.insert(node) {
            return None;
        }
        stack.push(node);
        for next in edges.get(node).into_iter().flatten() {
            if let Some(found) = visit(next, edges, stack, done) {
                return Some(found);
            }
        }
        stack.pop();
        None
    }
    let mut done = BTreeSet::new();
    for node in edges.keys() {
        if let Some(found) = visit(node, &edges, &mut Vec::new(), &mut done) {
            return Some(found);
        }
    }
    None
}
