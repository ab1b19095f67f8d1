//! What can go wrong while starting or using an environment, as error values: each one's
//! `Display` says what its own step failed to do, `source()` returns the cause (an I/O error,
//! a kube error, the report of a process that did not come up), so a chain renderer
//! (`capi_runtime::go::errors::chain`, anyhow's `{:#}`) prints the whole story once.

use std::path::PathBuf;
use std::time::Duration;

/// An error of any type, as a cause.
pub(crate) type BoxError = Box<dyn std::error::Error + Send + Sync + 'static>;

/// What can go wrong while starting or using the environment.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// A binary is not where it was looked for.
    #[error(transparent)]
    MissingBinary(#[from] MissingBinary),
    /// A file or process operation failed.
    #[error("{what}")]
    Io {
        /// What was being done.
        what: String,
        /// The underlying error.
        #[source]
        source: std::io::Error,
    },
    /// A process did not start or did not become ready.
    #[error(transparent)]
    Startup(Box<StartupError>),
    /// Making the certificates failed.
    #[error("making the certificates")]
    Certs(#[source] rcgen::Error),
    /// A CRD file could not be read or installed, or did not become Established in time.
    #[error(transparent)]
    Crd(Box<CrdError>),
    /// Building a client or talking to the API server failed.
    #[error("kube client")]
    Kube(#[source] kube::Error),
    /// The kubeconfig could not be turned into a client configuration.
    #[error("kubeconfig")]
    Kubeconfig(#[source] kube::config::KubeconfigError),
    /// An identity other than admin could not be made.
    #[error(transparent)]
    User(Box<UserError>),
    /// A request of a helper failed.
    #[error("{what}")]
    Request {
        /// What the helper was doing.
        what: String,
        /// The client's error.
        #[source]
        source: kube::Error,
    },
    /// A wait of a helper did not end as wanted.
    #[error(transparent)]
    Wait(Box<WaitError>),
    /// An extension's server could not be built, started or stopped.
    #[error("{what}")]
    Extension {
        /// What was being done.
        what: String,
        /// The server's error.
        #[source]
        source: Box<capi_runtime::server::ServerError>,
    },
}

/// Registering a handler on a `ServerBuilder` failed (a name taken, a name Cluster API
/// refuses): `?` in a test that builds its extension's server.
impl From<capi_runtime::server::ServerError> for Error {
    fn from(source: capi_runtime::server::ServerError) -> Self {
        Error::Extension {
            what: "building the extension's server".to_string(),
            source: Box::new(source),
        }
    }
}

impl From<WaitError> for Error {
    fn from(e: WaitError) -> Self {
        Error::Wait(Box::new(e))
    }
}

/// A wait of the Cluster API helpers that did not end as wanted; the message carries the last
/// state seen, the cause is the manager's state and log tail.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum WaitError {
    /// The state was not reached in time.
    #[error("{what}: not after {after:?} (last seen: {last})")]
    TimedOut {
        /// What was waited for.
        what: String,
        /// How long.
        after: Duration,
        /// The last reason the check gave.
        last: String,
        /// Cluster API's manager as it stood.
        #[source]
        report: ProcessReport,
    },
    /// Cluster API's manager exited during the wait.
    #[error("{what}: Cluster API's manager exited (last seen: {last})")]
    ManagerExited {
        /// What was waited for.
        what: String,
        /// The last reason the check gave.
        last: String,
        /// The manager's exit and log tail.
        #[source]
        report: ProcessReport,
    },
}

impl From<UserError> for Error {
    fn from(e: UserError) -> Self {
        Error::User(Box::new(e))
    }
}

impl From<StartupError> for Error {
    fn from(e: StartupError) -> Self {
        Error::Startup(Box::new(e))
    }
}

impl From<CrdError> for Error {
    fn from(e: CrdError) -> Self {
        Error::Crd(Box::new(e))
    }
}

impl From<rcgen::Error> for Error {
    fn from(e: rcgen::Error) -> Self {
        Error::Certs(e)
    }
}

impl From<kube::Error> for Error {
    fn from(e: kube::Error) -> Self {
        Error::Kube(e)
    }
}

impl From<kube::config::KubeconfigError> for Error {
    fn from(e: kube::config::KubeconfigError) -> Self {
        Error::Kubeconfig(e)
    }
}

impl Error {
    /// A mapper of an I/O error to [`Error::Io`] doing `what`.
    pub(crate) fn io(what: impl Into<String>) -> impl FnOnce(std::io::Error) -> Error {
        let what = what.into();
        move |source| Error::Io { what, source }
    }
}

/// A binary that is not where it was looked for; the message says how to get it.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum MissingBinary {
    /// A `TEST_ASSET_*` variable names something that is not an executable file.
    #[error("{var}={} is not an executable file", path.display())]
    NotExecutable {
        /// The variable.
        var: String,
        /// Its value.
        path: PathBuf,
    },
    /// The binary is not in the directory it was looked up in.
    #[error("{name} not found at {}: {hint}", path.display())]
    NotFound {
        /// The binary's name.
        name: String,
        /// Where it was looked for.
        path: PathBuf,
        /// How to get it.
        hint: &'static str,
    },
    /// A Cluster API version `capi-envtest` does not build.
    #[error("Cluster API {version} is not a supported version ({})", supported.join(", "))]
    UnsupportedVersion {
        /// The version asked for.
        version: String,
        /// The versions there are.
        supported: &'static [&'static str],
    },
}

/// A supervised process as it stood when it failed to come up: its name, whether it is still
/// running, and the last lines of its log.
#[derive(Debug, Clone, thiserror::Error)]
#[error("{name} {state}; last lines of {}:\n{tail}", log.display())]
pub struct ProcessReport {
    /// How the harness calls the process (`etcd`, `kube-apiserver`, ...).
    pub name: String,
    /// `exited (<status>)` or `still running`.
    pub state: String,
    /// Its log file.
    pub log: PathBuf,
    /// The last lines of the log.
    pub tail: String,
}

/// Why a process of the environment did not come up.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum StartupError {
    /// The process exited before it was ready.
    #[error("{} did not start", .0.name)]
    Exited(#[source] ProcessReport),
    /// The process did not become ready in time.
    #[error("{} not ready after {after:?} (last check: {last})", .report.name)]
    NotReady {
        /// How long the harness waited.
        after: Duration,
        /// What the last readiness check saw.
        last: String,
        /// The process then.
        #[source]
        report: ProcessReport,
    },
    /// Other processes took the port picked for it, every time.
    #[error("{} lost the race for a port {attempts} times", .report.name)]
    PortTaken {
        /// How many ports were tried.
        attempts: usize,
        /// The process at the last attempt.
        #[source]
        report: ProcessReport,
    },
    /// No client could be built to check the process's readiness.
    #[error("a client for {what}")]
    Client {
        /// The process the client was for.
        what: &'static str,
        /// Why it could not be built.
        #[source]
        source: BoxError,
    },
}

/// Why CRDs could not be installed.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum CrdError {
    /// A CRD has no name.
    #[error("a CRD without metadata.name")]
    NoName,
    /// Applying a CRD failed.
    #[error("applying CRD {name}")]
    Apply {
        /// The CRD's name.
        name: String,
        /// The API server's answer.
        #[source]
        source: kube::Error,
    },
    /// A CRD file could not be read.
    #[error("reading {}", file.display())]
    Read {
        /// The file.
        file: PathBuf,
        /// The I/O error.
        #[source]
        source: std::io::Error,
    },
    /// A CRD file is not YAML.
    #[error("{}: not YAML", file.display())]
    NotYaml {
        /// The file.
        file: PathBuf,
        /// The parser's error.
        #[source]
        source: Box<serde_saphyr::Error>,
    },
    /// A document of a CRD file is of another kind.
    #[error("{}: a document of kind {kind:?}, not CustomResourceDefinition", file.display())]
    WrongKind {
        /// The file.
        file: PathBuf,
        /// The document's kind.
        kind: String,
    },
    /// A document of a CRD file does not read as a CRD.
    #[error("{}: not a CRD", file.display())]
    NotCrd {
        /// The file.
        file: PathBuf,
        /// The decoder's error.
        #[source]
        source: serde_json::Error,
    },
    /// A CRD file holds no CRD.
    #[error("{}: no CRD in it", file.display())]
    Empty {
        /// The file.
        file: PathBuf,
    },
    /// A CRD was not served in time.
    #[error("CRD {name} not served after {after:?}")]
    NotServed {
        /// The CRD's name.
        name: String,
        /// How long the harness waited.
        after: Duration,
        /// What was missing at the last look.
        #[source]
        last: Box<NotServedYet>,
    },
}

/// What a CRD still lacked at one look.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum NotServedYet {
    /// The CRD could not be read.
    #[error("reading it")]
    Read(#[source] kube::Error),
    /// A condition is not true yet.
    #[error("condition {condition} is {state}")]
    Condition {
        /// `NamesAccepted` or `Established`.
        condition: &'static str,
        /// Its status and message, or `missing`.
        state: String,
    },
    /// Discovery of a served version failed.
    #[error("discovery of {group_version}")]
    Discovery {
        /// `<group>/<version>`.
        group_version: String,
        /// The API server's answer.
        #[source]
        source: kube::Error,
    },
    /// Discovery of a served version does not list the resource yet.
    #[error("{group_version} does not list {plural} yet")]
    NotListed {
        /// `<group>/<version>`.
        group_version: String,
        /// The resource.
        plural: String,
    },
}

/// Why an identity other than admin could not be made (see `TestEnv::service_account_user`
/// and `TestEnv::certificate_user`).
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum UserError {
    /// The ServiceAccount could not be created (other than by existing already).
    #[error("creating ServiceAccount {namespace}/{name}")]
    ServiceAccount {
        /// Its namespace.
        namespace: String,
        /// Its name.
        name: String,
        /// The API server's answer.
        #[source]
        source: kube::Error,
    },
    /// The TokenRequest failed.
    #[error("requesting a token for ServiceAccount {namespace}/{name}")]
    Token {
        /// The ServiceAccount's namespace.
        namespace: String,
        /// Its name.
        name: String,
        /// The API server's answer.
        #[source]
        source: kube::Error,
    },
    /// The TokenRequest was answered without a status.
    #[error("the TokenRequest for ServiceAccount {namespace}/{name} was answered without a token")]
    NoToken {
        /// The ServiceAccount's namespace.
        namespace: String,
        /// Its name.
        name: String,
    },
    /// The client certificate could not be made.
    #[error("making a client certificate for {name}")]
    Certificate {
        /// The user's name.
        name: String,
        /// rcgen's error.
        #[source]
        source: rcgen::Error,
    },
    /// The API server did not accept the new credentials in time (a SelfSubjectReview made
    /// with them did not succeed).
    #[error("{who} not authenticated after {after:?}")]
    NotAuthenticated {
        /// The identity (`ServiceAccount <namespace>/<name>` or `user <name>`).
        who: String,
        /// How long the harness waited.
        after: Duration,
        /// The last answer, when the review failed rather than answering without a user.
        #[source]
        last: Option<kube::Error>,
    },
}
