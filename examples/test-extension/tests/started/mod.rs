//! Starting the example extension for the end-to-end tests: certificates made for the test,
//! TLS on loopback, lifecycle answers scripted from a watched file. Include it with
//! `mod started;`.

use std::path::PathBuf;
use std::time::Duration;

use capi_runtime::server::RunningServer;
use capi_runtime_test_pki::{TestCa, write_atomically};
use capi_test_extension::lifecycle::Script;
use tokio::task::JoinHandle;

/// A running example extension and what the test needs to drive it.
pub struct Started {
    /// Holds the certificates and the script files; removed when dropped.
    pub dir: tempfile::TempDir,
    /// The CA that signed the serving certificate.
    pub ca: TestCa,
    /// The file the extension reads its lifecycle answers from.
    pub responses: PathBuf,
    /// The file the extension records the answers it gave in.
    pub record: PathBuf,
    /// The task watching `responses`.
    pub watcher: JoinHandle<()>,
    /// The server.
    pub running: RunningServer,
}

impl Started {
    /// Starts the extension on a free loopback port with `script` as its first answers file.
    pub async fn new(ca_name: &str, script: &str) -> Started {
        let dir = tempfile::tempdir().unwrap();
        let ca = TestCa::new(ca_name);
        ca.write_serving(dir.path());
        let responses = dir.path().join("hookresponses.yaml");
        let record = dir.path().join("hookresponses.actual.yaml");
        write_atomically(&responses, script);
        let script = Script::new(&responses, &record);
        let watcher = tokio::spawn(script.clone().watch(Duration::from_millis(50)));
        let running = capi_test_extension::server_builder(&script)
            .host("127.0.0.1".parse().unwrap())
            .port(0)
            .cert_dir(dir.path())
            .build()
            .unwrap()
            .start()
            .await
            .unwrap();
        Started {
            dir,
            ca,
            responses,
            record,
            watcher,
            running,
        }
    }

    /// The loopback port the extension listens on.
    pub fn port(&self) -> u16 {
        self.running.local_addr().port()
    }
}
