//! One supervised server process: started under a small `sh` supervisor in its own process
//! group, with its output in a log file, stopped on drop or when the test process is gone.
//! The harness runs etcd and kube-apiserver this way; tests run their own peers (a Go
//! extension, a controller) the same way.

use std::fs::File;
use std::io::{Read, Seek, SeekFrom};
use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, ExitStatus, Stdio};
use std::time::{Duration, Instant};

use crate::{Error, ProcessReport, Result, StartupError};

/// The supervisor. Arguments: the server's command line. It starts the server, and a watcher that blocks
/// reading the supervisor's stdin, a pipe whose only writer is the test process: when that
/// pipe closes (the harness drops it, or the test process dies in any way), the watcher sends
/// SIGTERM, and SIGKILL if the server is still there after `STOP_GRACE_TENTHS` tenths of a
/// second. The supervisor exits with the server's status, so the harness sees a server that
/// dies by itself.
const SUPERVISOR: &str = r#"
exec 3<&0
"$@" </dev/null 3<&- &
server=$!
{
  read -r _ <&3
  kill -TERM "$server" 2>/dev/null
  i=0
  while kill -0 "$server" 2>/dev/null; do
    i=$((i + 1))
    if [ "$i" -gt "$STOP_GRACE_TENTHS" ]; then
      kill -KILL "$server" 2>/dev/null
      break
    fi
    sleep 0.1
  done
} &
watcher=$!
exec 3<&-
wait "$server"
status=$?
kill "$watcher" 2>/dev/null
exit "$status"
"#;

/// How long a server gets between SIGTERM and SIGKILL.
const STOP_GRACE: Duration = Duration::from_secs(15);

/// A running server process; dropping it stops it.
#[derive(Debug)]
pub struct Process {
    name: String,
    child: Child,
    stdin: Option<ChildStdin>,
    log: PathBuf,
    exited: Option<ExitStatus>,
}

impl Process {
    /// Starts `program args` under the supervisor; stdout and stderr go to `log` (truncated).
    /// `name` is how errors call it.
    pub fn spawn(name: &str, program: &Path, args: &[String], log: &Path) -> Result<Process> {
        use std::os::unix::process::CommandExt;
        let out = File::create(log).map_err(Error::io(format!("creating {}", log.display())))?;
        let err = out
            .try_clone()
            .map_err(Error::io(format!("opening {}", log.display())))?;
        let mut cmd = Command::new("sh");
        cmd.arg("-c")
            .arg(SUPERVISOR)
            .arg("capi-testenv-supervisor")
            .arg(program)
            .args(args)
            .env(
                "STOP_GRACE_TENTHS",
                (STOP_GRACE.as_millis() / 100).to_string(),
            )
            .stdin(Stdio::piped())
            .stdout(out)
            .stderr(err)
            .process_group(0);
        let mut child = cmd
            .spawn()
            .map_err(Error::io(format!("starting {}", program.display())))?;
        let stdin = child.stdin.take();
        Ok(Process {
            name: name.to_string(),
            child,
            stdin,
            log: log.to_path_buf(),
            exited: None,
        })
    }

    /// The exit status, if the server (and so its supervisor) has exited.
    pub fn exited(&mut self) -> Option<ExitStatus> {
        if self.exited.is_none() {
            self.exited = self.child.try_wait().ok().flatten();
        }
        self.exited
    }

    /// The supervisor's pid, which is also the process group of the server.
    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// Whether the log says a listen address was taken (another process won the race for a
    /// port this harness had picked).
    pub fn port_was_taken(&self) -> bool {
        std::fs::read_to_string(&self.log).is_ok_and(|l| l.contains("address already in use"))
    }

    /// Checks on a server that is still starting: `Ok(None)` while it runs, `Ok(Some(report))`
    /// when it has exited because another process took its port (the caller may try again on
    /// another port, keeping the report for a [`StartupError::PortTaken`] when every try
    /// failed), and [`StartupError::Exited`] when it has exited for any other reason.
    pub fn exited_while_starting(&mut self) -> Result<Option<ProcessReport>> {
        if self.exited().is_none() {
            return Ok(None);
        }
        if self.port_was_taken() {
            return Ok(Some(self.report()));
        }
        Err(StartupError::Exited(self.report()).into())
    }

    /// The process as it stands, for error messages: name, exit status if any, log tail.
    pub fn report(&mut self) -> ProcessReport {
        let state = match self.exited() {
            Some(s) => format!("exited ({s})"),
            None => "still running".to_string(),
        };
        ProcessReport {
            name: self.name.clone(),
            state,
            log: self.log.clone(),
            tail: tail(&self.log, 40),
        }
    }

    /// Stops the server: closes the supervisor's pipe, waits for it, and kills the whole
    /// process group if it does not finish in time.
    pub fn stop(&mut self) {
        drop(self.stdin.take());
        let deadline = Instant::now() + STOP_GRACE + Duration::from_secs(5);
        while self.exited().is_none() {
            if Instant::now() >= deadline {
                self.kill_group();
                break;
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        // Anything left in the group (normally nothing) goes too.
        self.kill_group();
        let _ = self.child.wait();
    }

    fn kill_group(&self) {
        if let Some(pid) = rustix::process::Pid::from_raw(self.child.id() as i32) {
            let _ = rustix::process::kill_process_group(pid, rustix::process::Signal::KILL);
        }
    }
}

impl Drop for Process {
    fn drop(&mut self) {
        self.stop();
    }
}

/// The last `n` lines of a file (at most its last 64 KiB).
pub fn tail(path: &Path, n: usize) -> String {
    let Ok(mut f) = File::open(path) else {
        return "(no log)".to_string();
    };
    let len = f.metadata().map(|m| m.len()).unwrap_or(0);
    let _ = f.seek(SeekFrom::Start(len.saturating_sub(64 * 1024)));
    let mut buf = Vec::new();
    let _ = f.read_to_end(&mut buf);
    let text = String::from_utf8_lossy(&buf);
    let lines: Vec<&str> = text.lines().collect();
    lines[lines.len().saturating_sub(n)..].join("\n")
}

/// The error of a server that lost the race for a port `attempts` times; `last` is the
/// process at the last attempt (the log of `name` at `log` when there was none).
pub(crate) fn port_taken(
    attempts: usize,
    last: Option<ProcessReport>,
    name: &str,
    log: &Path,
) -> Error {
    let report = last.unwrap_or_else(|| ProcessReport {
        name: name.to_string(),
        state: "not started".to_string(),
        log: log.to_path_buf(),
        tail: tail(log, 40),
    });
    StartupError::PortTaken { attempts, report }.into()
}

/// A loopback port that was free a moment ago. Another process may take it before the server
/// binds it; callers start again with a new port when the server reports that.
pub fn free_port() -> Result<u16> {
    let l = TcpListener::bind(("127.0.0.1", 0)).map_err(Error::io("binding 127.0.0.1:0"))?;
    l.local_addr()
        .map(|a| a.port())
        .map_err(Error::io("reading a bound port"))
}

/// A line on stderr every [`Patience::EVERY`] while a start-up waits, so that a slow one
/// (a loaded machine, a first run) shows what it waits for instead of nothing. A test's
/// stderr is shown when it fails (or with `--nocapture`).
pub(crate) struct Patience {
    what: String,
    started: Instant,
    next: Duration,
}

impl Patience {
    const EVERY: Duration = Duration::from_secs(10);

    pub(crate) fn new(what: &str) -> Patience {
        Patience {
            what: what.to_string(),
            started: Instant::now(),
            next: Self::EVERY,
        }
    }

    /// Prints a line when the next [`Patience::EVERY`] has passed; `limit` is how long the
    /// wait may take in all.
    pub(crate) fn tick(&mut self, limit: Duration) {
        if let Some(line) = self.due(self.started.elapsed(), limit) {
            eprintln!("{line}");
        }
    }

    fn due(&mut self, elapsed: Duration, limit: Duration) -> Option<String> {
        if elapsed < self.next {
            return None;
        }
        while self.next <= elapsed {
            self.next += Self::EVERY;
        }
        Some(format!(
            "capi-runtime-testenv: still waiting for {} after {} s (at most {} s)",
            self.what,
            elapsed.as_secs(),
            limit.as_secs()
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_slow_start_says_what_it_waits_for_every_ten_seconds() {
        let mut p = Patience::new("the manager");
        let limit = Duration::from_secs(120);
        assert_eq!(p.due(Duration::from_secs(3), limit), None);
        assert_eq!(
            p.due(Duration::from_secs(10), limit).as_deref(),
            Some("capi-runtime-testenv: still waiting for the manager after 10 s (at most 120 s)")
        );
        assert_eq!(p.due(Duration::from_secs(15), limit), None);
        // A long stall between two checks gives one line, not one per missed period.
        assert!(p.due(Duration::from_secs(47), limit).is_some());
        assert_eq!(p.due(Duration::from_secs(49), limit), None);
        assert!(p.due(Duration::from_secs(50), limit).is_some());
    }
}
