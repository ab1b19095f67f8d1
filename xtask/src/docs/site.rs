//! The site's landing page and the browser check of `target/site/`.
//!
//! The check itself is `site_check.cjs` (next to this file), run by Node with the pinned
//! `playwright-core` driving the system Chromium. It serves the site on `127.0.0.1` with a port
//! the OS picks, so nothing on the machine can be in its way and nothing outside is reached:
//! every request to another host counts as a failed request.

use std::path::Path;
use std::process::Command;

/// `target/site/index.html`: where the three parts of the site are.
pub const LANDING: &str = r#"<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>capi-runtime documentation</title>
<style>body{font-family:sans-serif;max-width:40em;margin:3em auto;line-height:1.5}</style>
</head>
<body>
<h1>capi-runtime: the Cluster API Runtime SDK for Rust</h1>
<ul>
<li><a href="book/index.html">The book</a>: what the Runtime SDK is, writing, deploying and calling extensions, the generator, migrating from Go, troubleshooting.</li>
<li><a href="api/index.html">Hook API reference</a>: every hook's request and response, rendered from the published OpenAPI document.</li>
<li><a href="rustdoc/capi_runtime/index.html">Rust API documentation</a> of the crates (<a href="rustdoc/capi_runtime_derive/index.html">derive</a>, <a href="rustdoc/capi_runtime_codegen/index.html">generator</a>, <a href="rustdoc/capi_runtime_controller/index.html">controller</a>, <a href="rustdoc/capi_runtime_manager/index.html">manager</a>, <a href="rustdoc/capi_runtime_testenv/index.html">testenv</a>, <a href="rustdoc/capi_envtest/index.html">envtest</a>).</li>
</ul>
</body>
</html>
"#;

/// The hook whose request schema the check looks for in the reference.
const REQUEST_OPERATION: &str = "hooksRuntimeClusterV1alpha1BeforeClusterCreate";
const REQUEST_SCHEMA: &str =
    "sigs.k8s.io.cluster-api.api.runtime.hooks.v1alpha1.BeforeClusterCreateRequest";

/// The keys of the document's `paths` (our generator writes them two spaces in, quoted or
/// not).
fn hook_paths(yaml: &str) -> Vec<String> {
    yaml.lines()
        .skip_while(|l| *l != "paths:")
        .skip(1)
        .take_while(|l| l.starts_with(' ') || l.is_empty())
        .filter(|l| l.starts_with("  ") && !l.starts_with("   ") && l.ends_with(':'))
        .map(|l| l.trim().trim_end_matches(':').trim_matches('"').to_string())
        .collect()
}

/// The property names of the component schema `name`.
fn schema_properties(yaml: &str, name: &str) -> Vec<String> {
    let head = format!("    {name}:");
    yaml.lines()
        .skip_while(|l| *l != head)
        .skip(1)
        .take_while(|l| l.starts_with("      "))
        .skip_while(|l| *l != "      properties:")
        .skip(1)
        .take_while(|l| l.starts_with("        "))
        .filter(|l| !l.starts_with("         ") && l.ends_with(':'))
        .map(|l| l.trim().trim_end_matches(':').to_string())
        .collect()
}

/// `target/site/rustdoc/index.html`: rustdoc writes one directory per crate and no page above
/// them, yet its help and settings pages link `./index.html`.
pub const RUSTDOC_INDEX: &str = r#"<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>capi-runtime: Rust API documentation</title>
<style>body{font-family:sans-serif;max-width:40em;margin:3em auto;line-height:1.5}</style>
</head>
<body>
<h1>Rust API documentation</h1>
<ul>
<li><a href="capi_runtime/index.html">capi_runtime</a>: hook types, catalog, registry, client, server, topology-mutation helpers</li>
<li><a href="capi_runtime_derive/index.html">capi_runtime_derive</a>: <code>#[derive(Schema)]</code> and <code>#[derive(Hook)]</code></li>
<li><a href="capi_runtime_codegen/index.html">capi_runtime_codegen</a>: the generator library</li>
<li><a href="capi_runtime_controller/index.html">capi_runtime_controller</a>: the ExtensionConfig controller and its webhooks</li>
<li><a href="capi_runtime_manager/index.html">capi_runtime_manager</a>: the manager binary that runs them (its flags)</li>
<li><a href="capi_runtime_testenv/index.html">capi_runtime_testenv</a>: testing an extension against etcd, kube-apiserver and Cluster API's manager; hook request fixtures</li>
<li><a href="capi_envtest/index.html">capi_envtest</a>: builds the binaries those tests run, at pinned versions, into a per-user cache</li>
</ul>
<p><a href="../index.html">All documentation</a></p>
</body>
</html>
"#;

/// Runs the browser check over the built site.
pub fn check(root: &Path) -> Result<(), String> {
    let site = crate::target_dir(root)?.join("site");
    if !site.join("index.html").exists() {
        return Err(format!(
            "{} is not built; run `cargo xtask docs` first",
            site.display()
        ));
    }
    let chromium = super::tools::chromium()?;
    super::tools::node_module(root, "playwright-core")?;
    let document = root.join("golden/sdk/runtime-sdk-openapi.yaml");
    let yaml =
        std::fs::read_to_string(&document).map_err(|e| format!("{}: {e}", document.display()))?;
    let paths = hook_paths(&yaml);
    let properties = schema_properties(&yaml, REQUEST_SCHEMA);
    if paths.is_empty() || properties.is_empty() {
        return Err(format!(
            "{}: no hook paths or no {REQUEST_SCHEMA} properties found",
            document.display()
        ));
    }
    let request_check = format!(
        "{{\"operationId\":{:?},\"properties\":[{}]}}",
        REQUEST_OPERATION,
        properties
            .iter()
            .map(|p| format!("{p:?}"))
            .collect::<Vec<_>>()
            .join(",")
    );
    let hook_paths = format!(
        "[{}]",
        paths
            .iter()
            .map(|p| format!("{p:?}"))
            .collect::<Vec<_>>()
            .join(",")
    );
    let screenshots = crate::target_dir(root)?.join("site-screenshots");
    std::fs::create_dir_all(&screenshots).map_err(|e| e.to_string())?;
    eprintln!(
        "xtask site-check: {} in {}",
        site.display(),
        chromium.display()
    );
    let status = Command::new("node")
        .arg(root.join("xtask/src/docs/site_check.cjs"))
        .env(
            "NODE_PATH",
            crate::tools_dir(root)?.join("node/node_modules"),
        )
        .env("SITE_DIR", &site)
        .env("HOOK_PATHS", hook_paths)
        .env("REQUEST_CHECK", request_check)
        .env("SCREENSHOT_DIR", &screenshots)
        .env("CHROMIUM", &chromium)
        .current_dir(root)
        .status()
        .map_err(|e| format!("cannot run node: {e}"))?;
    if status.success() {
        Ok(())
    } else {
        Err(format!("the browser check of the site failed ({status})"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_document_lists_every_hook_path_and_the_request_properties() {
        let yaml =
            std::fs::read_to_string(crate::root().join("golden/sdk/runtime-sdk-openapi.yaml"))
                .unwrap();
        let paths = hook_paths(&yaml);
        assert_eq!(paths.len(), 17, "{paths:?}");
        assert!(paths.contains(&"/hooks.runtime.cluster.x-k8s.io/v1alpha1/discovery".to_string()));
        assert!(
            paths
                .iter()
                .all(|p| p.starts_with("/hooks.runtime.cluster.x-k8s.io/"))
        );
        assert_eq!(
            schema_properties(&yaml, REQUEST_SCHEMA),
            ["apiVersion", "cluster", "kind", "settings"]
        );
    }
}
