//! The README's code map and crate table and the book's list of published crates, held against
//! the workspace (tests only, run by `cargo test --workspace`).
//!
//! - every path the code map names exists, and every crate of the workspace has its folder in
//!   the map;
//! - the map's `xtask/` entry lists exactly the subcommands people run (`COMMANDS` in
//!   `main.rs`);
//! - the README's crate table names every crate of the workspace, marked published exactly
//!   when `cargo metadata` says it may be, and those are the crates `cargo xtask package`
//!   packages (`package::CRATES`);
//! - the book's introduction and `RELEASING.md` list the same published crates.

#![cfg(test)]

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

/// The body of the first fenced block after the heading `heading`.
fn fenced_block<'a>(text: &'a str, heading: &str) -> &'a str {
    let at = text
        .find(&format!("\n{heading}\n"))
        .unwrap_or_else(|| panic!("no {heading:?} section"));
    let rest = &text[at..];
    let open = rest.find("```").expect("a fenced block");
    let body = &rest[open..];
    let body = &body[body.find('\n').expect("a fence line") + 1..];
    &body[..body.find("```").expect("a closing fence")]
}

/// The rows of the first table after `heading`: each row's cells, trimmed, header and
/// separator left out.
fn table_rows(text: &str, heading: &str) -> Vec<Vec<String>> {
    // A heading on the first line has no line break before it.
    let text = format!("\n{text}");
    let at = text
        .find(&format!("\n{heading}\n"))
        .unwrap_or_else(|| panic!("no {heading:?} section"));
    text[at..]
        .lines()
        .skip_while(|l| !l.starts_with('|'))
        .take_while(|l| l.starts_with('|'))
        .skip(2)
        .map(|l| {
            l.trim_matches('|')
                .split('|')
                .map(|c| c.trim().to_string())
                .collect()
        })
        .collect()
}

/// `` `name` `` as `name`.
fn unquote(cell: &str) -> &str {
    cell.trim_matches('`')
}

/// One entry of the code map: the paths it names (relative to the root) and its description,
/// continuation lines included.
struct Entry {
    paths: Vec<String>,
    text: String,
}

/// The entries of the code map. A line that starts at the margin names top-level paths; one
/// indented by two spaces names paths inside the last top-level folder; the name column ends at
/// two spaces, and several names are separated by `, `. Lines indented further continue the
/// entry above.
fn entries(map: &str) -> Vec<Entry> {
    let mut entries: Vec<Entry> = Vec::new();
    let mut parent = String::new();
    for line in map.lines() {
        let indent = line.len() - line.trim_start().len();
        let content = line.trim_start();
        if indent > 2 {
            if let Some(last) = entries.last_mut() {
                last.text.push(' ');
                last.text.push_str(content.trim());
            }
            continue;
        }
        let (names, text) = content.split_once("  ").unwrap_or((content, ""));
        let names: Vec<&str> = names.split(", ").map(str::trim).collect();
        let paths = if indent == 0 {
            parent = names[0].to_string();
            names.iter().map(|n| n.to_string()).collect()
        } else {
            names.iter().map(|n| format!("{parent}{n}")).collect()
        };
        entries.push(Entry {
            paths,
            text: text.trim().to_string(),
        });
    }
    entries
}

/// The workspace's packages: (name, folder relative to the root with a trailing `/`, or
/// `src/` for the root package, published).
fn packages(root: &Path) -> Vec<(String, String, bool)> {
    let metadata = crate::cargo_metadata(root).expect("cargo metadata");
    let root = root.canonicalize().expect("the root");
    metadata["packages"]
        .as_array()
        .expect("packages")
        .iter()
        .map(|p| {
            let manifest = PathBuf::from(p["manifest_path"].as_str().expect("manifest_path"));
            let dir = manifest.parent().expect("a folder");
            let rel = dir.strip_prefix(&root).expect("inside the workspace");
            let folder = if rel.as_os_str().is_empty() {
                "src/".to_string()
            } else {
                format!("{}/", rel.display())
            };
            // `publish = false` is `[]`; no `publish` key is `null`.
            let published = p["publish"].is_null();
            (
                p["name"].as_str().expect("name").to_string(),
                folder,
                published,
            )
        })
        .collect()
}

fn read(root: &Path, file: &str) -> String {
    std::fs::read_to_string(root.join(file)).unwrap_or_else(|e| panic!("{file}: {e}"))
}

#[test]
fn the_code_map_names_only_paths_that_exist_and_every_crate() {
    let root = crate::root();
    let readme = read(&root, "README.md");
    let entries = entries(fenced_block(&readme, "## Code map"));
    let named: BTreeSet<&str> = entries
        .iter()
        .flat_map(|e| e.paths.iter().map(String::as_str))
        .collect();
    let missing: Vec<&&str> = named.iter().filter(|p| !root.join(p).exists()).collect();
    assert!(
        missing.is_empty(),
        "README code map names paths that do not exist: {missing:?}"
    );
    let unmapped: Vec<String> = packages(&root)
        .into_iter()
        .filter(|(_, folder, _)| !named.contains(folder.as_str()))
        .map(|(name, folder, _)| format!("{name} ({folder})"))
        .collect();
    assert!(
        unmapped.is_empty(),
        "crates whose folder the README code map does not name: {unmapped:?}"
    );
}

#[test]
fn the_code_map_lists_every_xtask_subcommand() {
    let root = crate::root();
    let readme = read(&root, "README.md");
    let entries = entries(fenced_block(&readme, "## Code map"));
    let xtask = entries
        .iter()
        .find(|e| e.paths == ["xtask/"])
        .expect("an xtask/ entry");
    let listed: BTreeSet<&str> = xtask
        .text
        .strip_prefix("cargo xtask ")
        .expect("the xtask entry starts with `cargo xtask `")
        .split('|')
        .map(str::trim)
        .collect();
    let commands: BTreeSet<&str> = crate::COMMANDS
        .iter()
        .filter(|c| c.listed)
        .map(|c| c.name)
        .collect();
    assert_eq!(listed, commands, "README code map's xtask subcommands");
}

#[test]
fn the_crate_tables_match_the_workspace() {
    let root = crate::root();
    let packages = packages(&root);
    let published: BTreeSet<&str> = packages
        .iter()
        .filter(|(_, _, p)| *p)
        .map(|(n, _, _)| n.as_str())
        .collect();
    let packaged: BTreeSet<&str> = crate::package::CRATES.iter().copied().collect();
    assert_eq!(packaged, published, "`cargo xtask package`'s crates");

    let readme = read(&root, "README.md");
    let rows = table_rows(&readme, "## The crates");
    let in_readme: BTreeSet<(String, bool)> = rows
        .iter()
        .map(|r| (unquote(&r[0]).to_string(), r[1] == "yes"))
        .collect();
    let in_workspace: BTreeSet<(String, bool)> =
        packages.iter().map(|(n, _, p)| (n.clone(), *p)).collect();
    assert_eq!(
        in_readme, in_workspace,
        "README's crate table (name, published)"
    );

    let published: BTreeSet<String> = published.iter().map(|s| s.to_string()).collect();
    for (file, heading) in [
        ("docs/book/src/introduction.md", "## The crates"),
        ("RELEASING.md", "# Releasing"),
    ] {
        let listed: BTreeSet<String> = table_rows(&read(&root, file), heading)
            .iter()
            .map(|r| unquote(&r[0]).to_string())
            .collect();
        assert_eq!(listed, published, "the published crates {file} lists");
    }
}

#[test]
fn entries_are_read_with_their_parents_and_continuations() {
    let map = "src/      the crate\n  go/     rules\n  a.rs, b.rs  two\n                more\nxtask/    cargo xtask a | b\n          | c\n";
    let entries = entries(map);
    let paths: Vec<&[String]> = entries.iter().map(|e| e.paths.as_slice()).collect();
    assert_eq!(
        paths,
        [
            &["src/".to_string()][..],
            &["src/go/".to_string()],
            &["src/a.rs".to_string(), "src/b.rs".to_string()],
            &["xtask/".to_string()],
        ]
    );
    assert_eq!(entries[2].text, "two more");
    assert_eq!(entries[3].text, "cargo xtask a | b | c");
}
