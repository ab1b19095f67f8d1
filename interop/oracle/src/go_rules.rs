//! The Go oracle: `go-rules` (`interop/capi/cmd/go-rules`, built by `cargo xtask testenv`),
//! which runs the real Go functions behind `capi_runtime::go` and the crate's private Go rules
//! (and Cluster API's own ExtensionConfig webhook, `encoding/json` into its types, `crypto/x509`)
//! over cases a test gives it, so the test can compare them with the Rust side. See the
//! program's documentation for the functions and their JSON shapes.

use std::io::{BufRead, BufReader, Write};
use std::process::{Command, ExitStatus, Stdio};

use serde_json::{Value, json};

use crate::program;

/// Why the oracle gave no answers.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum OracleError {
    /// The program is not built.
    #[error("the go-rules oracle is missing")]
    Missing(#[source] capi_runtime_testenv::Error),
    /// It could not be run, written to or read from.
    #[error("cannot run the go-rules oracle")]
    Io(#[source] std::io::Error),
    /// It stopped with an error (its standard error says why).
    #[error("the go-rules oracle failed ({status}): {stderr}")]
    Failed {
        /// How it exited.
        status: ExitStatus,
        /// What it wrote on standard error.
        stderr: String,
    },
    /// An answer was not JSON.
    #[error("answer {line} of the go-rules oracle is not JSON")]
    Answer {
        /// The answer's line number, from 1.
        line: usize,
        /// The parse error.
        #[source]
        source: serde_json::Error,
    },
    /// Fewer answers than cases.
    #[error("the go-rules oracle answered {answers} of {cases} cases")]
    Short {
        /// Answers read.
        answers: usize,
        /// Cases sent.
        cases: usize,
    },
}

/// Runs Go's functions over `cases` (`(function, input)` pairs) in one process, and returns
/// each case's answer, `{"out": ..., "err": ...}`, in order.
pub fn go_rules(cases: &[(&str, Value)]) -> Result<Vec<Value>, OracleError> {
    let binary = program("go-rules").map_err(OracleError::Missing)?;
    let mut child = Command::new(binary)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(OracleError::Io)?;
    let mut input = Vec::new();
    for (function, value) in cases {
        serde_json::to_writer(&mut input, &json!({"fn": function, "in": value}))
            .map_err(|e| OracleError::Io(e.into()))?;
        input.push(b'\n');
    }
    let mut stdin = child.stdin.take().expect("piped stdin");
    // Written from a thread so that a large corpus cannot fill both pipes at once.
    let writer = std::thread::spawn(move || stdin.write_all(&input));
    let stdout = child.stdout.take().expect("piped stdout");
    let mut answers = Vec::with_capacity(cases.len());
    for (i, line) in BufReader::new(stdout).lines().enumerate() {
        let line = line.map_err(OracleError::Io)?;
        answers.push(
            serde_json::from_str(&line).map_err(|source| OracleError::Answer {
                line: i + 1,
                source,
            })?,
        );
    }
    let output = child.wait_with_output().map_err(OracleError::Io)?;
    let written = writer.join().expect("writer thread");
    if !output.status.success() {
        return Err(OracleError::Failed {
            status: output.status,
            stderr: String::from_utf8_lossy(&output.stderr).into_owned(),
        });
    }
    written.map_err(OracleError::Io)?;
    if answers.len() != cases.len() {
        return Err(OracleError::Short {
            answers: answers.len(),
            cases: cases.len(),
        });
    }
    Ok(answers)
}

/// The ranges of code points Go's `strconv.IsPrint` accepts (`go-rules -print-ranges`).
pub fn go_printable_ranges() -> Result<Vec<(u32, u32)>, OracleError> {
    let binary = program("go-rules").map_err(OracleError::Missing)?;
    let output = Command::new(binary)
        .arg("-print-ranges")
        .output()
        .map_err(OracleError::Io)?;
    if !output.status.success() {
        return Err(OracleError::Failed {
            status: output.status,
            stderr: String::from_utf8_lossy(&output.stderr).into_owned(),
        });
    }
    serde_json::from_slice(&output.stdout).map_err(|source| OracleError::Answer { line: 1, source })
}
