//! Work of the test command that no step needs until late, started at its beginning at idle
//! CPU priority.
//!
//! On a cold machine the pinned cargo tools (`cargotools.rs`) and the release build of the
//! shipped binaries (`release.rs`) are minutes of compilation each that the steps which need
//! them (supply-chain checks, semver, dist) used to do in the foreground, one after another,
//! while the cores sat half idle in the steps before (test processes waiting for their control
//! planes, single-threaded links, Go's module downloads). Both now start with the test command,
//! under `SCHED_IDLE` (`chrt --idle 0`; `nice -n 19` where `chrt` is missing), so they take only
//! CPU time that the foreground leaves unused and slow no step down.
//!
//! Nothing trusts their result: a step that needs a tool calls [`crate::cargotools::bin`], which
//! waits on that tool's lock while the background installs it and installs it itself if the
//! background did not (so a failed background job costs time, never the verdict, and its error
//! is the foreground's own). The release build in the foreground finds the background's output
//! up to date, or waits on cargo's own lock of the release build directory while it is written.
//!
//! Each job runs in its own process group, led by `xtask background-job`, which kills the
//! whole group when its standard input closes: when [`Jobs`] is dropped, and also when the test
//! command dies without dropping it (an interrupt, a crash). The jobs' output goes to
//! `<target>/background/<job>.log`.

use std::io::Read;
use std::os::unix::process::CommandExt;
use std::path::Path;
use std::process::{Child, Command, Stdio};

/// The running jobs; dropping it stops the ones still running.
pub struct Jobs {
    children: Vec<Child>,
}

impl Drop for Jobs {
    fn drop(&mut self) {
        for child in &mut self.children {
            // Closing its standard input tells the job's leader to kill its group.
            drop(child.stdin.take());
            let _ = child.wait();
        }
    }
}

/// Starts the cargo tools' installation and the release build of the dist's binaries.
pub fn start(root: &Path) -> Result<Jobs, String> {
    let target = crate::target_dir(root)?;
    let logs = target.join("background");
    std::fs::create_dir_all(&logs).map_err(|e| format!("{}: {e}", logs.display()))?;
    let xtask = std::env::current_exe().map_err(|e| format!("cannot find xtask itself: {e}"))?;
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());

    let mut tools = Command::new(&xtask);
    tools.arg("cargo-tools");
    let mut release = Command::new(&cargo);
    release.args(crate::release::build_args());
    for (key, value) in crate::docs::elsewhere_env(root)? {
        release.env(key, value);
    }

    let mut children = Vec::new();
    for (name, job) in [("cargo-tools", tools), ("release-build", release)] {
        let log = logs.join(format!("{name}.log"));
        children.push(spawn(root, &xtask, job, &log)?);
        eprintln!(
            "xtask test: started {name} in the background at idle priority (log: {})",
            log.display()
        );
    }
    Ok(Jobs { children })
}

/// Spawns `job` under `xtask background-job`, at idle priority, in a process group of its own.
fn spawn(root: &Path, xtask: &Path, job: Command, log: &Path) -> Result<Child, String> {
    let out = std::fs::File::create(log).map_err(|e| format!("{}: {e}", log.display()))?;
    let err = out.try_clone().map_err(|e| e.to_string())?;
    let (program, priority): (&str, &[&str]) = if Path::new("/usr/bin/chrt").is_file() {
        ("/usr/bin/chrt", &["--idle", "0"])
    } else {
        ("nice", &["-n", "19"])
    };
    let mut command = Command::new(program);
    command
        .args(priority)
        .arg(xtask)
        .arg("background-job")
        .arg("--")
        .arg(job.get_program())
        .args(job.get_args())
        .current_dir(root)
        .stdin(Stdio::piped())
        .stdout(out)
        .stderr(err)
        .process_group(0);
    for (key, value) in job.get_envs() {
        match value {
            Some(value) => command.env(key, value),
            None => command.env_remove(key),
        };
    }
    command
        .spawn()
        .map_err(|e| format!("cannot start {program} {}: {e}", xtask.display()))
}

/// `xtask background-job -- PROGRAM ARGS...`: runs the program, the leader of its process group
/// (as [`spawn`] starts it), and kills the group when standard input closes.
pub fn job_command(args: &[String]) -> Result<(), String> {
    let Some(("--", rest)) = args.split_first().map(|(a, r)| (a.as_str(), r)) else {
        return Err("usage: xtask background-job -- PROGRAM [ARGS...]".into());
    };
    let (program, args) = rest
        .split_first()
        .ok_or("usage: xtask background-job -- PROGRAM [ARGS...]")?;
    let mut child = Command::new(program)
        .args(args)
        .stdin(Stdio::null())
        .spawn()
        .map_err(|e| format!("cannot run {program}: {e}"))?;
    std::thread::spawn(|| {
        let mut sink = [0u8; 64];
        while matches!(std::io::stdin().read(&mut sink), Ok(n) if n > 0) {}
        // The test command is gone or done: stop everything this job started.
        let group = format!("-{}", std::process::id());
        let _ = Command::new("kill").args(["-TERM", "--", &group]).status();
    });
    let status = child
        .wait()
        .map_err(|e| format!("cannot wait for {program}: {e}"))?;
    eprintln!("xtask background-job: {program} exited ({status})");
    if status.success() {
        Ok(())
    } else {
        Err(format!("{program} failed ({status})"))
    }
}
