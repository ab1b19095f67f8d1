//! An extension served by the test process and registered with Cluster API:
//! [`ClusterApi::serve_extension`].

use std::net::{IpAddr, Ipv4Addr};

use capi_runtime::api::runtime::v1beta2::ExtensionConfig;
use capi_runtime::server::{RunningServer, ServerBuilder};

use crate::{ClusterApi, Error, Result};

/// An extension the test serves on loopback, registered with Cluster API; stopped by
/// [`shutdown`](Self::shutdown), or when dropped.
#[derive(Debug)]
pub struct ServedExtension {
    server: RunningServer,
    config: ExtensionConfig,
    url: String,
    // The server reads its certificate from here again when it changes: kept while it runs.
    _certs: tempfile::TempDir,
}

impl ServedExtension {
    /// The ExtensionConfig as Cluster API discovered it (`status.handlers`: the handler names
    /// a ClusterClass uses).
    pub fn config(&self) -> &ExtensionConfig {
        &self.config
    }

    /// The URL Cluster API calls, `https://127.0.0.1:<port>`.
    pub fn url(&self) -> &str {
        &self.url
    }

    /// The running server (its addresses).
    pub fn server(&self) -> &RunningServer {
        &self.server
    }

    /// Stops serving, after the requests in flight.
    pub async fn shutdown(self) -> Result<()> {
        self.server
            .shutdown()
            .await
            .map_err(|source| Error::Extension {
                what: format!("stopping extension {}", self.url),
                source: Box::new(source),
            })
    }
}

impl ClusterApi {
    /// Serves the extension `server` (its handlers registered, listener options left unset)
    /// on a free loopback port with a serving certificate the environment's CA signed, and
    /// registers it as ExtensionConfig `name` ([`register_extension`](Self::register_extension):
    /// returns once Cluster API has discovered its handlers, named `<handler>.<name>`).
    ///
    /// A builder whose handlers could not all be registered fails here with
    /// [`Error::Extension`], whose source is the builder's
    /// [`ServerError`](capi_runtime::server::ServerError) listing every mistake.
    ///
    /// Keep the returned value until the end of the test: dropping it stops the server.
    pub async fn serve_extension(
        &self,
        name: &str,
        server: ServerBuilder,
    ) -> Result<ServedExtension> {
        let certs = tempfile::tempdir().map_err(|source| Error::Io {
            what: "making a directory for the extension's certificate".to_string(),
            source,
        })?;
        self.write_serving_certificate(certs.path())?;
        let server = server
            .host(IpAddr::V4(Ipv4Addr::LOCALHOST))
            .port(0)
            .cert_dir(certs.path())
            .build()
            .map_err(|source| Error::Extension {
                what: format!("registering the handlers of extension {name}"),
                source: Box::new(source),
            })?
            .start()
            .await
            .map_err(|source| Error::Extension {
                what: format!("starting extension {name}"),
                source: Box::new(source),
            })?;
        let url = format!("https://127.0.0.1:{}", server.local_addr().port());
        let config = self.register_extension(name, &url, self.ca_pem()).await?;
        Ok(ServedExtension {
            server,
            config,
            url,
            _certs: certs,
        })
    }
}
