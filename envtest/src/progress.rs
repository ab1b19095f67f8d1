//! What a build reports while it runs, and how it is shown.
//!
//! A cold build of the control plane compiles about two thousand Go packages and takes many
//! minutes. [`install`](crate::install) reports each step and each package Go compiles (from
//! `go build -v`, counted against `go list -deps`), and [`Reporter`] shows that as cargo
//! does: one status line refreshed in place on a terminal, and elsewhere (a CI log) a line per
//! step and one each time a quarter more of the packages is done.

use std::fmt;
use std::io::Write;
use std::path::Path;
use std::time::{Duration, Instant};

/// One event of [`install`](crate::install).
#[derive(Clone, Copy, Debug)]
#[non_exhaustive]
pub enum Progress<'a> {
    /// A part's build starts (its binaries were missing or their stamp differs).
    Start {
        /// What the part makes (binaries and the CRD directory).
        outputs: &'a [&'a str],
        /// `go version`.
        go_version: &'a str,
        /// Where they go.
        dir: &'a Path,
    },
    /// Listing the packages a binary needs; on a cold module cache Go downloads its modules
    /// first.
    Resolving {
        /// The binary.
        binary: &'a str,
    },
    /// Go compiled one more package of a binary.
    Compiled {
        /// The binary.
        binary: &'a str,
        /// Packages compiled so far for it (cached ones are not compiled again).
        compiled: usize,
        /// Packages it needs, the standard library's included.
        total: usize,
        /// Since this binary's build started.
        elapsed: Duration,
    },
    /// A part is built.
    Done {
        /// What the part made.
        outputs: &'a [&'a str],
        /// Since the part's build started.
        elapsed: Duration,
    },
    /// A part was not built: the same build was in a sibling directory (another Cluster API
    /// version's) and is linked from there.
    Linked {
        /// What the part makes.
        outputs: &'a [&'a str],
        /// The directory it came from.
        from: &'a Path,
    },
}

impl fmt::Display for Progress<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Progress::Start {
                outputs,
                go_version,
                dir,
            } => write!(
                f,
                "capi-envtest: building {} with {go_version} into {} (a first build with Go's \
                 caches cold takes many minutes)",
                outputs.join(", "),
                dir.display()
            ),
            Progress::Resolving { binary } => write!(
                f,
                "capi-envtest: {binary}: listing its packages (downloading modules on a cold \
                 module cache)"
            ),
            Progress::Compiled {
                binary,
                compiled,
                total,
                elapsed,
            } => write!(
                f,
                "capi-envtest: {binary}: compiled {compiled} of {total} packages, {}",
                Clock(*elapsed)
            ),
            Progress::Done { outputs, elapsed } => write!(
                f,
                "capi-envtest: built {} in {}",
                outputs.join(", "),
                Clock(*elapsed)
            ),
            Progress::Linked { outputs, from } => write!(
                f,
                "capi-envtest: {} linked from {} (built there for the same pins)",
                outputs.join(", "),
                from.display()
            ),
        }
    }
}

/// A duration as `1m05s` or `42s`.
struct Clock(Duration);

impl fmt::Display for Clock {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let secs = self.0.as_secs();
        if secs >= 60 {
            write!(f, "{}m{:02}s", secs / 60, secs % 60)
        } else {
            write!(f, "{secs}s")
        }
    }
}

/// Shows [`Progress`] on a writer (usually stderr), each line prefixed.
#[derive(Debug)]
pub struct Reporter<W: Write> {
    out: W,
    prefix: String,
    terminal: bool,
    /// A status line is on screen (terminal only).
    status: bool,
    last_draw: Option<Instant>,
    /// The last quarter reported for the current binary (not a terminal).
    quarter: usize,
}

impl Reporter<std::io::Stderr> {
    /// On stderr, refreshing one line when stderr is a terminal.
    pub fn stderr(prefix: &str) -> Self {
        use std::io::IsTerminal;
        let terminal = std::io::stderr().is_terminal();
        Reporter::new(std::io::stderr(), prefix, terminal)
    }
}

impl<W: Write> Reporter<W> {
    /// On `out`; `terminal` chooses the refreshed status line.
    pub fn new(out: W, prefix: &str, terminal: bool) -> Self {
        Reporter {
            out,
            prefix: prefix.to_string(),
            terminal,
            status: false,
            last_draw: None,
            quarter: 0,
        }
    }

    /// Shows one event. Output errors are ignored: progress never fails a build.
    pub fn report(&mut self, event: &Progress<'_>) {
        let _ = self.show(event);
    }

    fn show(&mut self, event: &Progress<'_>) -> std::io::Result<()> {
        let Progress::Compiled {
            compiled, total, ..
        } = *event
        else {
            self.quarter = 0;
            if self.status {
                writeln!(self.out)?;
                self.status = false;
            }
            return writeln!(self.out, "{}{event}", self.prefix);
        };
        if self.terminal {
            // At most ten redraws a second: Go reports packages faster than that.
            let now = Instant::now();
            if self
                .last_draw
                .is_some_and(|t| now.duration_since(t) < Duration::from_millis(100))
            {
                return Ok(());
            }
            self.last_draw = Some(now);
            self.status = true;
            write!(self.out, "\r\x1b[K{}{event}", self.prefix)?;
            return self.out.flush();
        }
        let quarter = (compiled * 4).checked_div(total).unwrap_or(0).min(4);
        if quarter > self.quarter {
            self.quarter = quarter;
            writeln!(self.out, "{}{event}", self.prefix)?;
        }
        Ok(())
    }

    /// Ends a status line left on screen (after the last event).
    pub fn finish(&mut self) {
        if self.status {
            let _ = writeln!(self.out);
            self.status = false;
        }
    }

    /// The writer (tests read what was shown).
    pub fn into_inner(self) -> W {
        self.out
    }
}

/// Whether a line of `go build -v`'s stderr names a package it compiled (an import path: no
/// spaces, not a `# pkg` header of compiler messages), rather than a message to pass on.
pub(crate) fn is_package_line(line: &str) -> bool {
    !line.is_empty() && !line.starts_with('#') && !line.contains(char::is_whitespace)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn compiled(n: usize, total: usize) -> Progress<'static> {
        Progress::Compiled {
            binary: "kube-apiserver",
            compiled: n,
            total,
            elapsed: Duration::from_secs(65),
        }
    }

    #[test]
    fn a_log_gets_each_step_and_each_quarter_once() {
        let mut r = Reporter::new(Vec::new(), "xtask: ", false);
        r.report(&Progress::Resolving {
            binary: "kube-apiserver",
        });
        for n in 1..=10 {
            r.report(&compiled(n, 10));
        }
        r.report(&Progress::Done {
            outputs: &["etcd", "kube-apiserver"],
            elapsed: Duration::from_secs(7),
        });
        r.finish();
        let text = String::from_utf8(r.into_inner()).unwrap();
        assert_eq!(
            text,
            "xtask: capi-envtest: kube-apiserver: listing its packages (downloading modules on a \
             cold module cache)\n\
             xtask: capi-envtest: kube-apiserver: compiled 3 of 10 packages, 1m05s\n\
             xtask: capi-envtest: kube-apiserver: compiled 5 of 10 packages, 1m05s\n\
             xtask: capi-envtest: kube-apiserver: compiled 8 of 10 packages, 1m05s\n\
             xtask: capi-envtest: kube-apiserver: compiled 10 of 10 packages, 1m05s\n\
             xtask: capi-envtest: built etcd, kube-apiserver in 7s\n"
        );
    }

    #[test]
    fn a_terminal_gets_one_refreshed_line_ended_before_the_next_step() {
        let mut r = Reporter::new(Vec::new(), "", true);
        r.report(&compiled(1, 2000));
        // Within 100 ms of the first draw: not drawn.
        r.report(&compiled(2, 2000));
        r.report(&Progress::Done {
            outputs: &["core"],
            elapsed: Duration::from_secs(1),
        });
        r.finish();
        let text = String::from_utf8(r.into_inner()).unwrap();
        assert_eq!(
            text,
            "\r\x1b[Kcapi-envtest: kube-apiserver: compiled 1 of 2000 packages, 1m05s\n\
             capi-envtest: built core in 1s\n"
        );
    }

    #[test]
    fn a_total_of_zero_is_not_a_division() {
        let mut r = Reporter::new(Vec::new(), "", false);
        r.report(&compiled(3, 0));
        assert!(r.into_inner().is_empty());
    }

    #[test]
    fn package_lines_are_told_from_messages() {
        assert!(is_package_line("k8s.io/apiserver/pkg/server"));
        assert!(is_package_line("internal/abi"));
        assert!(!is_package_line("# k8s.io/foo"));
        assert!(!is_package_line("./main.go:3:2: undefined: x"));
        assert!(!is_package_line("go: downloading k8s.io/api v0.36.0"));
        assert!(!is_package_line(""));
    }
}
