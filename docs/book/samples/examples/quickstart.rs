//! The binary of the smallest extension: `quickstart <cert-dir>`, port from `PORT`.
//!
//! Run by the book's "Run it locally" recipe (`docs/book/samples/sh/local.sh`).

// ANCHOR: main
use std::io::IsTerminal;
use std::path::PathBuf;

use capi_runtime::server::{DEFAULT_PORT, shutdown_signal};
use capi_runtime_book_samples::quickstart;

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    // The server logs through `tracing` only: without a subscriber it prints nothing.
    tracing_subscriber::fmt()
        .with_ansi(std::io::stdout().is_terminal())
        .init();

    let cert_dir: PathBuf = std::env::args_os()
        .nth(1)
        .ok_or("usage: quickstart <directory with tls.crt and tls.key>")?
        .into();
    let port = match std::env::var("PORT") {
        Ok(port) => port.parse().map_err(|e| format!("PORT={port:?}: {e}"))?,
        Err(_) => DEFAULT_PORT,
    };

    // Serves on 0.0.0.0:<port> until SIGTERM or Ctrl-C.
    quickstart::server(&cert_dir, port)?
        .run(shutdown_signal())
        .await?;
    Ok(())
}
// ANCHOR_END: main
