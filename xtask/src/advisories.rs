//! The RustSec advisory database that `cargo xtask deny` checks the lock file against.
//!
//! The build machines reach crates.io but not the database's git host, so a dated snapshot of
//! it lives beside the workspace in `../shared/advisory-db/` (`CAPI_ADVISORY_DB` names another
//! directory), described by its `SNAPSHOT.md`: the upstream commit and that commit's date.
//! cargo-deny reads a database only as a git checkout named after its URL under
//! `[advisories] db-path`, and takes the database's age from the checkout: the later of its
//! HEAD commit's date and the modification time of `.git/HEAD`. So the snapshot becomes a git
//! repository with one commit dated as `SNAPSHOT.md` says, and `.git/HEAD` gets that date too:
//! deny.toml's `maximum-db-staleness` then measures how old the snapshot is, not how long ago
//! it was copied. The repository is made under the target directory, and again only when the
//! snapshot's files differ from its commit (git compares them).
//!
//! Without a snapshot, cargo-deny fetches the database itself, as it does on any machine with
//! network access, into `<target>/advisory-dbs`.

use std::path::{Path, PathBuf};
use std::process::Command;

/// The environment variable naming another snapshot directory.
const SNAPSHOT_VAR: &str = "CAPI_ADVISORY_DB";
/// The environment variable deny.toml's `db-path` is read from.
pub const DB_PATH_VAR: &str = "CAPI_ADVISORY_DBS";
/// The checkout cargo-deny looks for under `db-path` for the default database,
/// `https://github.com/rustsec/advisory-db` (the URL's last segment and cargo-deny's hash of
/// the URL).
const CHECKOUT: &str = "advisory-db-3157b0e258782691";

/// Where cargo-deny finds its database, and whether it may fetch it.
pub struct Database {
    /// The value of `db-path`.
    pub db_path: PathBuf,
    /// True when the database is the local snapshot: cargo-deny runs `--offline`.
    pub offline: bool,
}

/// What `SNAPSHOT.md` says about the snapshot.
#[derive(Debug, PartialEq)]
struct Snapshot {
    /// The upstream commit the files are taken from.
    commit: String,
    /// That commit's date, RFC 3339.
    date: String,
}

/// Makes the database cargo-deny reads: the snapshot as a git checkout when there is one,
/// else a directory cargo-deny fetches the database into.
pub fn prepare(root: &Path, target: &Path) -> Result<Database, String> {
    match std::env::var_os(SNAPSHOT_VAR).filter(|v| !v.is_empty()) {
        Some(dir) => prepare_from(&PathBuf::from(dir), true, target),
        None => prepare_from(&root.join("../shared/advisory-db"), false, target),
    }
}

/// [`prepare`] from the snapshot directory `dir`, which `named` says the caller chose.
fn prepare_from(dir: &Path, named: bool, target: &Path) -> Result<Database, String> {
    let dir = std::fs::canonicalize(dir).unwrap_or_else(|_| dir.to_path_buf());
    if !dir.is_dir() {
        if named {
            return Err(format!(
                "{SNAPSHOT_VAR} names {}, which is not a directory",
                dir.display()
            ));
        }
        let db_path = target.join("advisory-dbs");
        eprintln!(
            "xtask deny: no RustSec snapshot at {} ({SNAPSHOT_VAR} names another); cargo-deny \
             fetches the database into {}",
            dir.display(),
            db_path.display()
        );
        return Ok(Database {
            db_path,
            offline: false,
        });
    }
    let notes = dir.join("SNAPSHOT.md");
    let text = std::fs::read_to_string(&notes).map_err(|e| format!("{}: {e}", notes.display()))?;
    let snapshot = snapshot(&text).map_err(|e| format!("{}: {e}", notes.display()))?;
    let db_path = target.join("advisory-snapshot");
    let checkout = db_path.join(CHECKOUT);
    if !matches(&checkout, &dir) {
        commit(&dir, &db_path, &snapshot)?;
    }
    eprintln!(
        "xtask deny: advisories from the RustSec snapshot in {} (upstream {} of {})",
        dir.display(),
        &snapshot.commit[..snapshot.commit.len().min(12)],
        snapshot.date
    );
    Ok(Database {
        db_path,
        offline: true,
    })
}

/// Reads the upstream commit (`` commit `<hash>` ``) and the `- commit date:` line.
fn snapshot(text: &str) -> Result<Snapshot, String> {
    let commit = text
        .split_once("commit `")
        .and_then(|(_, rest)| rest.split_once('`'))
        .map(|(hash, _)| hash.to_string())
        .filter(|hash| !hash.is_empty() && hash.chars().all(|c| c.is_ascii_hexdigit()))
        .ok_or("names no upstream commit (`` commit `<hash>` ``)")?;
    let date = text
        .lines()
        .find_map(|line| line.trim().strip_prefix("- commit date:"))
        .map(|date| date.trim().to_string())
        .filter(|date| !date.is_empty())
        .ok_or("has no `- commit date: <RFC 3339 time>` line")?;
    Ok(Snapshot { commit, date })
}

/// Whether `checkout` is a git repository whose commit holds exactly the files of `snapshot`.
fn matches(checkout: &Path, snapshot: &Path) -> bool {
    if !checkout.join(".git").is_dir() {
        return false;
    }
    let output = Command::new("git")
        .arg("--git-dir")
        .arg(checkout.join(".git"))
        .arg("--work-tree")
        .arg(snapshot)
        .args(["status", "--porcelain", "--untracked-files=all"])
        .output();
    matches!(output, Ok(o) if o.status.success() && o.stdout.is_empty())
}

/// Commits the files of `snapshot` into a new `<db_path>/advisory-db-…` repository, dated as
/// the snapshot, and checks them out there.
fn commit(snapshot: &Path, db_path: &Path, about: &Snapshot) -> Result<(), String> {
    let started = std::time::Instant::now();
    std::fs::create_dir_all(db_path).map_err(|e| format!("{}: {e}", db_path.display()))?;
    let checkout = db_path.join(CHECKOUT);
    let new = db_path.join(format!("{CHECKOUT}.new"));
    let _ = std::fs::remove_dir_all(&new);
    std::fs::create_dir_all(&new).map_err(|e| format!("{}: {e}", new.display()))?;
    let git = |args: &[&str], work_tree: &Path| -> Result<String, String> {
        let output = Command::new("git")
            .arg("--git-dir")
            .arg(new.join(".git"))
            .arg("--work-tree")
            .arg(work_tree)
            // Nothing of the user's git configuration (signing, hooks, line endings) applies.
            .env("GIT_CONFIG_GLOBAL", "/dev/null")
            .env("GIT_CONFIG_NOSYSTEM", "1")
            .env("GIT_AUTHOR_DATE", &about.date)
            .env("GIT_COMMITTER_DATE", &about.date)
            .args(["-c", "user.name=xtask", "-c", "user.email=xtask@localhost"])
            .args(args)
            .output()
            .map_err(|e| format!("cannot run git: {e}"))?;
        if output.status.success() {
            Ok(String::from_utf8_lossy(&output.stdout).trim().to_string())
        } else {
            Err(format!(
                "making the advisory database {}: git {} failed ({}): {}",
                checkout.display(),
                args.join(" "),
                output.status,
                String::from_utf8_lossy(&output.stderr).trim()
            ))
        }
    };
    git(&["init", "--quiet", "--initial-branch=main"], &new)?;
    git(&["add", "--all"], snapshot)?;
    let message = format!("RustSec advisory-db snapshot of upstream {}", about.commit);
    git(
        &["commit", "--quiet", "--no-verify", "-m", &message],
        snapshot,
    )?;
    git(&["checkout-index", "--all", "--force"], &new)?;
    // The commit's time, as git read the snapshot's date.
    let seconds: u64 = git(&["log", "-1", "--format=%ct"], &new)?
        .parse()
        .map_err(|e| format!("git printed no commit time: {e}"))?;
    let head = new.join(".git/HEAD");
    std::fs::File::options()
        .write(true)
        .open(&head)
        .and_then(|f| {
            f.set_modified(std::time::UNIX_EPOCH + std::time::Duration::from_secs(seconds))
        })
        .map_err(|e| format!("{}: {e}", head.display()))?;
    let _ = std::fs::remove_dir_all(&checkout);
    std::fs::rename(&new, &checkout).map_err(|e| format!("{}: {e}", checkout.display()))?;
    eprintln!(
        "xtask deny: committed the RustSec snapshot {} to {} in {:.1} s",
        snapshot.display(),
        checkout.display(),
        started.elapsed().as_secs_f64()
    );
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Without a snapshot cargo-deny fetches the database into the target directory, unless
    /// the caller named a snapshot that is not there.
    #[test]
    fn a_missing_snapshot_lets_cargo_deny_fetch_unless_one_was_named() {
        let missing = std::env::temp_dir().join("xtask-advisories-no-such-snapshot");
        let target = Path::new("/target");
        let database = prepare_from(&missing, false, target).unwrap();
        assert!(!database.offline);
        assert_eq!(database.db_path, target.join("advisory-dbs"));
        let error = prepare_from(&missing, true, target).err().unwrap();
        assert!(error.contains(SNAPSHOT_VAR), "{error}");
    }

    #[test]
    fn the_snapshot_notes_name_a_commit_and_its_date() {
        let text = "# x\n\n- source: the `rustsec/advisory-db` repository, commit `bf5c0d24`\n- commit date: 2026-08-21T08:28:40+02:00\n";
        assert_eq!(
            snapshot(text).unwrap(),
            Snapshot {
                commit: "bf5c0d24".into(),
                date: "2026-08-21T08:28:40+02:00".into()
            }
        );
        assert!(
            snapshot("commit `bf5c0d24`\n")
                .unwrap_err()
                .contains("date")
        );
        assert!(
            snapshot("- commit date: 2026-08-21\n")
                .unwrap_err()
                .contains("commit")
        );
    }

    /// A snapshot becomes a repository dated as its notes say, with `.git/HEAD` of the same
    /// time (what cargo-deny reads as the database's age), and is made again only when one of
    /// its files changes.
    #[test]
    fn a_snapshot_is_committed_with_its_date_and_again_only_when_it_changes() {
        let scratch = std::env::temp_dir().join(format!("xtask-advisories-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&scratch);
        let dir = scratch.join("snapshot");
        std::fs::create_dir_all(dir.join("crates/foo")).unwrap();
        std::fs::write(dir.join("crates/foo/RUSTSEC-0000-0001.md"), "advisory\n").unwrap();
        let about = Snapshot {
            commit: "bf5c0d24".into(),
            date: "2026-08-21T08:28:40+02:00".into(),
        };
        let db_path = scratch.join("db");
        let checkout = db_path.join(CHECKOUT);
        assert!(!matches(&checkout, &dir));
        commit(&dir, &db_path, &about).unwrap();
        assert!(matches(&checkout, &dir));
        assert_eq!(
            std::fs::read_to_string(checkout.join("crates/foo/RUSTSEC-0000-0001.md")).unwrap(),
            "advisory\n"
        );
        let head = std::fs::metadata(checkout.join(".git/HEAD"))
            .unwrap()
            .modified()
            .unwrap();
        // 2026-08-21T06:28:40Z
        let expected = std::time::UNIX_EPOCH + std::time::Duration::from_secs(1_787_293_720);
        assert_eq!(head, expected);

        std::fs::write(dir.join("crates/foo/RUSTSEC-0000-0002.md"), "another\n").unwrap();
        assert!(!matches(&checkout, &dir));
        std::fs::remove_dir_all(&scratch).unwrap();
    }
}
