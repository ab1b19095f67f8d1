//! `cargo xtask bench <generator|derive>`: the generator's benchmarks. Each reports medians of
//! runs made side by side with a baseline on the same machine, and the ratio.
//!
//! - `generator`: wall time of the release `runtime-openapi-gen` writing the full document,
//!   against the same binary printing `--help` (process start-up and argument parsing only);
//!   with `--against BIN`, also of another build (an earlier release binary kept aside), the two
//!   alternating run by run.
//! - `derive`: compile time of the hook and core types with `#[derive(Schema)]`/`#[derive(Hook)]`
//!   against the same types with only the serde derives, each rebuilt after a touch, in
//!   alternation, in one scratch workspace under `target/bench-derive`.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

/// Runs one benchmark.
pub fn run(args: &[String]) -> Result<(), String> {
    match args.first().map(String::as_str) {
        Some("generator") => generator(runs(args), against(args)?),
        Some("derive") => derive(runs(args)),
        _ => Err(
            "usage: cargo xtask bench generator [runs] [--against BIN] | bench derive [runs]"
                .into(),
        ),
    }
}

fn runs(args: &[String]) -> usize {
    args.get(1).and_then(|r| r.parse().ok()).unwrap_or(15)
}

/// The binary given with `--against`, if any.
fn against(args: &[String]) -> Result<Option<PathBuf>, String> {
    match args.iter().position(|a| a == "--against") {
        None => Ok(None),
        Some(i) => match args.get(i + 1) {
            Some(bin) => Ok(Some(PathBuf::from(bin))),
            None => Err("--against needs the path of a runtime-openapi-gen binary".into()),
        },
    }
}

fn median(mut v: Vec<Duration>) -> Duration {
    v.sort();
    v[v.len() / 2]
}

fn ms(d: Duration) -> String {
    format!("{:.1} ms", d.as_secs_f64() * 1000.0)
}

fn cargo() -> String {
    std::env::var("CARGO").unwrap_or_else(|_| "cargo".into())
}

fn check(status: std::io::Result<std::process::ExitStatus>, what: &str) -> Result<(), String> {
    match status {
        Ok(s) if s.success() => Ok(()),
        Ok(s) => Err(format!("{what} failed ({s})")),
        Err(e) => Err(format!("{what}: {e}")),
    }
}

/// The medians of one binary: writing the document, `--check` of it, `--help`.
struct GeneratorTimes {
    full: Duration,
    checked: Duration,
    base: Duration,
}

impl GeneratorTimes {
    fn print(&self, name: &str) {
        let (f, c, b) = (self.full, self.checked, self.base);
        println!("{name}:");
        println!("  generate + write YAML (atomic, fsync): median {}", ms(f));
        println!("  generate + compare (--check):          median {}", ms(c));
        println!("  baseline (--help):                     median {}", ms(b));
        println!(
            "  ratios: {:.2}x and {:.2}x the baseline; generation itself ≈ {} (from --check)",
            f.as_secs_f64() / b.as_secs_f64(),
            c.as_secs_f64() / b.as_secs_f64(),
            ms(self.generation())
        );
    }

    fn generation(&self) -> Duration {
        self.checked.saturating_sub(self.base)
    }
}

fn generator(runs: usize, against: Option<PathBuf>) -> Result<(), String> {
    let root = crate::root();
    check(
        Command::new(cargo())
            .args(["build", "--release", "-q", "-p", "runtime-openapi-gen"])
            .current_dir(&root)
            .status(),
        "building runtime-openapi-gen",
    )?;
    let bin = crate::target_dir(&root)?.join("release/runtime-openapi-gen");
    let mut bins = vec![bin];
    bins.extend(against.clone());
    let out = std::env::temp_dir().join(format!("bench-openapi-{}.yaml", std::process::id()));
    let time = |bin: &Path, args: &[&str]| -> Result<Duration, String> {
        let start = Instant::now();
        let o = Command::new(bin)
            .args(args)
            .output()
            .map_err(|e| format!("{}: {e}", bin.display()))?;
        let d = start.elapsed();
        if !o.status.success() {
            return Err(String::from_utf8_lossy(&o.stderr).into_owned());
        }
        Ok(d)
    };
    let write = ["--version", "bench", "--output-file", out.to_str().unwrap()];
    // `--check` against the file just written: the same generation, compared instead of
    // written, so without the write's fsync (which the machine's disk, not the generator, sets).
    let check = ["--version", "bench", "--check", out.to_str().unwrap()];
    // Per binary: writes, checks, --help runs. One warm-up of each, then alternate, binary
    // after binary within each run.
    let mut samples = vec![(Vec::new(), Vec::new(), Vec::new()); bins.len()];
    for bin in &bins {
        time(bin, &["--help"])?;
        time(bin, &write)?;
        time(bin, &check)?;
    }
    for _ in 0..runs {
        for (bin, (full, checked, base)) in bins.iter().zip(&mut samples) {
            full.push(time(bin, &write)?);
            checked.push(time(bin, &check)?);
            base.push(time(bin, &["--help"])?);
        }
    }
    let _ = std::fs::remove_file(&out);
    let times: Vec<GeneratorTimes> = samples
        .into_iter()
        .map(|(full, checked, base)| GeneratorTimes {
            full: median(full),
            checked: median(checked),
            base: median(base),
        })
        .collect();
    println!(
        "runtime-openapi-gen, full document (17 paths, 133 schemas), {runs} runs each, alternating:"
    );
    times[0].print("this build");
    if let (Some(other), Some(path)) = (times.get(1), &against) {
        other.print(&format!("--against {}", path.display()));
        println!(
            "generation itself: {:.2}x that of --against",
            times[0].generation().as_secs_f64() / other.generation().as_secs_f64()
        );
    }
    Ok(())
}

fn derive(runs: usize) -> Result<(), String> {
    let root = crate::root();
    let dir = crate::target_dir(&root)?.join("bench-derive");
    let _ = std::fs::remove_dir_all(dir.join("with-derive"));
    let _ = std::fs::remove_dir_all(dir.join("serde-only"));
    write_crate(&root, &dir.join("with-derive"), false)?;
    write_crate(&root, &dir.join("serde-only"), true)?;
    std::fs::write(
        dir.join("Cargo.toml"),
        "[workspace]\nmembers = [\"with-derive\", \"serde-only\"]\nresolver = \"3\"\n\n[profile.dev]\ndebug = \"line-tables-only\"\n",
    )
    .map_err(|e| e.to_string())?;
    let build = |name: &str| -> Result<Duration, String> {
        let lib = dir.join(name).join("src/lib.rs");
        let text = std::fs::read_to_string(&lib).map_err(|e| e.to_string())?;
        std::fs::write(&lib, text).map_err(|e| e.to_string())?; // touch
        let start = Instant::now();
        check(
            Command::new(cargo())
                .args(["build", "-q", "-p", name])
                .current_dir(&dir)
                .env("K8S_OPENAPI_ENABLED_VERSION", "1.33")
                .env("CARGO_TARGET_DIR", dir.join("target"))
                .status(),
            name,
        )?;
        Ok(start.elapsed())
    };
    // First builds compile the dependencies; not measured.
    build("with-derive")?;
    build("serde-only")?;
    let (mut with, mut without) = (Vec::new(), Vec::new());
    for _ in 0..runs {
        with.push(build("with-derive")?);
        without.push(build("serde-only")?);
    }
    let (w, s) = (median(with), median(without));
    println!(
        "compile time of src/hooks + src/api/core (debug, dependencies prebuilt), {runs} runs each, alternating:"
    );
    println!("  with Schema/Hook derives: median {}", ms(w));
    println!("  serde derives only:       median {}", ms(s));
    println!("  ratio: {:.2}", w.as_secs_f64() / s.as_secs_f64());
    Ok(())
}

/// A scratch crate holding copies of the hook and core type modules. With `strip`, every
/// `Schema`/`Hook` derive and `#[schema]`/`#[hook]` attribute is removed.
fn write_crate(root: &Path, dir: &Path, strip: bool) -> Result<(), String> {
    let name = dir.file_name().unwrap().to_string_lossy().into_owned();
    let src = dir.join("src");
    let copy = |from: &str, to: &str| -> Result<(), String> {
        let text = std::fs::read_to_string(root.join(from)).map_err(|e| format!("{from}: {e}"))?;
        let text = if strip { strip_derives(&text) } else { text };
        let path: PathBuf = src.join(to);
        std::fs::create_dir_all(path.parent().unwrap()).map_err(|e| e.to_string())?;
        std::fs::write(path, text).map_err(|e| e.to_string())
    };
    for f in [
        "cluster",
        "cluster_class",
        "common",
        "machine",
        "machine_set",
        "topology",
        "mod",
    ] {
        copy(
            &format!("src/api/core/v1beta2/{f}.rs"),
            &format!("api/core/v1beta2/{f}.rs"),
        )?;
    }
    for f in [
        "builtins",
        "common",
        "discovery",
        "in_place_update",
        "lifecycle",
        "topology_mutation",
        "upgrade_plan",
    ] {
        copy(
            &format!("src/hooks/v1alpha1/{f}.rs"),
            &format!("hooks/v1alpha1/{f}.rs"),
        )?;
    }
    // The message traits name the runtime crate's ResponseStatus: use it instead of a copy.
    let common = src.join("hooks/v1alpha1/common.rs");
    let text = std::fs::read_to_string(&common).map_err(|e| e.to_string())?;
    let (start, end) = (
        text.find("/// The outcome an extension reports")
            .ok_or("ResponseStatus not found")?,
        text.find("/// How a patch in a response is encoded")
            .ok_or("PatchType not found")?,
    );
    let text = format!(
        "{}pub use capi_runtime::hooks::v1alpha1::ResponseStatus;\n\n{}",
        &text[..start],
        &text[end..]
    );
    std::fs::write(&common, text).map_err(|e| e.to_string())?;
    let files = "mod builtins;\nmod common;\nmod discovery;\nmod in_place_update;\nmod lifecycle;\nmod topology_mutation;\nmod upgrade_plan;\npub use builtins::*;\npub use common::*;\npub use discovery::*;\npub use in_place_update::*;\npub use lifecycle::*;\npub use topology_mutation::*;\npub use upgrade_plan::*;\n";
    std::fs::write(src.join("hooks/v1alpha1/mod.rs"), files).map_err(|e| e.to_string())?;
    std::fs::write(src.join("hooks/mod.rs"), "pub mod v1alpha1;\n").map_err(|e| e.to_string())?;
    std::fs::write(src.join("api/core/mod.rs"), "pub mod v1beta2;\n").map_err(|e| e.to_string())?;
    std::fs::write(src.join("api/mod.rs"), "pub mod core;\n").map_err(|e| e.to_string())?;
    std::fs::write(
        src.join("lib.rs"),
        "#![allow(missing_docs, unused_imports, dead_code)]\npub mod api;\npub mod hooks;\npub use capi_runtime::{__private, hook, schema, Hook, Schema};\n",
    )
    .map_err(|e| e.to_string())?;
    std::fs::write(
        dir.join("Cargo.toml"),
        format!(
            "[package]\nname = \"{name}\"\nversion = \"0.0.0\"\nedition = \"2024\"\npublish = false\n\n[dependencies]\ncapi-runtime = {{ path = \"{}\" }}\nserde = {{ version = \"1\", features = [\"derive\"] }}\nserde_json = \"1\"\nk8s-openapi = \"0.29\"\n",
            root.display()
        ),
    )
    .map_err(|e| e.to_string())
}

/// Removes our derives and their attributes from a source file, keeping serde's.
fn strip_derives(text: &str) -> String {
    let mut out = String::new();
    let mut skipping = 0i32;
    for line in text.lines() {
        let t = line.trim_start();
        if skipping > 0 || t.starts_with("#[schema(") || t.starts_with("#[hook(") {
            skipping += line.matches('(').count() as i32 - line.matches(')').count() as i32;
            if skipping < 0 {
                skipping = 0;
            }
            continue;
        }
        let line = line.replace(", Schema)]", ")]").replace(", Hook)]", ")]");
        out.push_str(&line);
        out.push('\n');
    }
    out
}
