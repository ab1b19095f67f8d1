//! Whether the Cluster API versions the SDK is tested against lag what is published.
//!
//! The test command asks the Go module proxy (`go list -m -versions`, so `GOPROXY` and the
//! module cache apply as for every other Go step) which releases of `sigs.k8s.io/cluster-api`
//! exist, and says so when a pinned minor has a newer patch release or a newer minor has been
//! released. It only informs: an answer that does not come (no network, no proxy, a slow one)
//! is one line saying the comparison was skipped, never a failure. How to move a pin or add a
//! minor is in RELEASING.md ("Supporting another Cluster API").

use std::io::Read;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

const MODULE: &str = "sigs.k8s.io/cluster-api";

/// How long the proxy may take before the comparison is skipped.
const PATIENCE: Duration = Duration::from_secs(20);

/// Prints what `pinned` (the supported versions, `vX.Y.Z`) lag, if anything.
pub fn report(pinned: &[&str]) {
    match published() {
        Ok(published) => {
            let lines = lag(pinned, &published);
            if lines.is_empty() {
                eprintln!(
                    "xtask: Cluster API pins {} are the newest patch releases published",
                    pinned.join(", ")
                );
            }
            for line in lines {
                eprintln!("xtask: note: {line}");
            }
        }
        Err(why) => eprintln!(
            "xtask: did not compare the Cluster API pins with the published releases ({why})"
        ),
    }
}

/// The released versions of Cluster API the Go module proxy lists.
fn published() -> Result<Vec<String>, String> {
    let mut child = Command::new("go")
        .args(["list", "-m", "-versions", MODULE])
        // Outside every module of the workspace: the question is about the proxy only.
        .current_dir(std::env::temp_dir())
        .env("GOFLAGS", "-mod=mod")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| format!("go: {e}"))?;
    let started = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().map_err(|e| format!("go: {e}"))? {
            break status;
        }
        if started.elapsed() > PATIENCE {
            let _ = child.kill();
            let _ = child.wait();
            return Err(format!("no answer within {} s", PATIENCE.as_secs()));
        }
        std::thread::sleep(Duration::from_millis(100));
    };
    let mut out = String::new();
    let mut err = String::new();
    let _ = child.stdout.take().map(|mut s| s.read_to_string(&mut out));
    let _ = child.stderr.take().map(|mut s| s.read_to_string(&mut err));
    if !status.success() {
        return Err(format!(
            "go list -m -versions {MODULE}: {}",
            err.lines().last().unwrap_or("failed")
        ));
    }
    Ok(out.split_whitespace().skip(1).map(str::to_string).collect())
}

/// `vX.Y.Z` of a release (pre-releases and other forms are not releases to move to).
fn release(version: &str) -> Option<(u64, u64, u64)> {
    let mut parts = version.strip_prefix('v')?.split('.');
    let mut next = || parts.next()?.parse::<u64>().ok();
    let triple = (next()?, next()?, next()?);
    parts.next().is_none().then_some(triple)
}

/// What the pins lag behind, one sentence each.
fn lag(pinned: &[&str], published: &[String]) -> Vec<String> {
    let releases: Vec<(u64, u64, u64)> = published.iter().filter_map(|v| release(v)).collect();
    let mut lines = Vec::new();
    let pins: Vec<(u64, u64, u64)> = pinned.iter().filter_map(|v| release(v)).collect();
    for &(major, minor, patch) in &pins {
        if let Some(newest) = releases
            .iter()
            .filter(|r| r.0 == major && r.1 == minor && r.2 > patch)
            .max()
        {
            lines.push(format!(
                "Cluster API v{major}.{minor}.{patch} is pinned; v{}.{}.{} is published",
                newest.0, newest.1, newest.2
            ));
        }
    }
    if let Some(top) = pins.iter().max() {
        let mut newer: Vec<(u64, u64)> = releases
            .iter()
            .filter(|r| (r.0, r.1) > (top.0, top.1))
            .map(|r| (r.0, r.1))
            .collect();
        newer.sort();
        newer.dedup();
        if !newer.is_empty() {
            let names: Vec<String> = newer.iter().map(|(a, b)| format!("v{a}.{b}")).collect();
            lines.push(format!(
                "Cluster API {} released after the newest supported minor (v{}.{}); see RELEASING.md, \"Supporting another Cluster API\"",
                names.join(", "),
                top.0,
                top.1
            ));
        }
    }
    lines
}

#[cfg(test)]
mod tests {
    use super::*;

    fn published(list: &str) -> Vec<String> {
        list.split_whitespace().map(str::to_string).collect()
    }

    #[test]
    fn nothing_is_said_when_the_pins_are_the_newest() {
        let list = published("v1.8.4 v1.12.5 v1.13.4 v1.13.6 v1.14.2 v1.15.0-beta.0");
        assert!(lag(&["v1.12.5", "v1.13.6", "v1.14.2"], &list).is_empty());
    }

    #[test]
    fn a_newer_patch_and_a_newer_minor_are_named() {
        let list = published("v1.12.5 v1.12.7 v1.13.6 v1.14.2 v1.14.4 v1.14.3 v1.15.0 v1.15.1");
        assert_eq!(
            lag(&["v1.12.5", "v1.13.6", "v1.14.2"], &list),
            [
                "Cluster API v1.12.5 is pinned; v1.12.7 is published",
                "Cluster API v1.14.2 is pinned; v1.14.4 is published",
                "Cluster API v1.15 released after the newest supported minor (v1.14); see \
                 RELEASING.md, \"Supporting another Cluster API\""
            ]
        );
    }

    #[test]
    fn only_releases_count() {
        assert_eq!(release("v1.14.2"), Some((1, 14, 2)));
        assert_eq!(release("v1.15.0-rc.1"), None);
        assert_eq!(release("v1.15"), None);
        assert_eq!(release("1.15.0"), None);
    }
}
