//! `cargo xtask wire-explore [--seed N] [--scale K]`: the wire codec's Go oracle
//! (`testenv/tests/go_wire.rs`) over a larger corpus than the test command's: another seed, and
//! `K` times the mutations per seed message (the test command runs seed 20261202 at scale 1,
//! about 100,000 cases, and pins what still differs). Off that corpus, every difference fails
//! the run; the list is in `target/tmp/go-wire-differences.txt`.

use std::process::Command;

/// `cargo xtask wire-explore`.
pub fn run(args: &[String]) -> Result<(), String> {
    let usage = || "usage: cargo xtask wire-explore [--seed N] [--scale K]".to_string();
    let (mut seed, mut scale) = ("1".to_string(), "4".to_string());
    let mut args = args.iter();
    while let Some(flag) = args.next() {
        let value = args.next().ok_or_else(usage)?;
        if value.parse::<u64>().is_err() {
            return Err(usage());
        }
        match flag.as_str() {
            "--seed" => seed = value.clone(),
            "--scale" => scale = value.clone(),
            _ => return Err(usage()),
        }
    }
    let root = crate::root();
    crate::goenv::build(&root)?;
    eprintln!("xtask: wire oracle, seed {seed}, scale {scale}");
    let status = Command::new(env!("CARGO"))
        .current_dir(&root)
        .args([
            "test",
            "-p",
            "capi-runtime-testenv",
            "--features",
            "external-tests",
            "--test",
            "go_wire",
            "--",
            "--nocapture",
        ])
        .env("WIRE_CORPUS_SEED", &seed)
        .env("WIRE_CORPUS_SCALE", &scale)
        .status()
        .map_err(|e| format!("cannot run cargo test: {e}"))?;
    if status.success() {
        Ok(())
    } else {
        Err(format!("the wire oracle found differences ({status})"))
    }
}
