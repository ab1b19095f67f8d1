//! Identities other than admin, so a test can run code with exactly the rights RBAC gives it.
//!
//! Two kinds: a ServiceAccount, authenticated by a token from the TokenRequest API
//! ([`TestEnv::service_account_user`]), and a user of a client certificate signed by the
//! environment's CA ([`TestEnv::certificate_user`]). Each comes as a [`User`]: a
//! `kube::Client` for the test itself and a kubeconfig file for a child process, both holding
//! the API server's CA and the user's credentials. Nothing is granted: bind roles to the user
//! as admin. The files live in the environment's directory and go with it.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use base64::Engine as _;
use base64::engine::general_purpose::STANDARD as BASE64;
use k8s_openapi::api::authentication::v1::{SelfSubjectReview, TokenRequest, TokenRequestSpec};
use k8s_openapi::api::core::v1::ServiceAccount;
use kube::Client;
use kube::api::{Api, PostParams};
use kube::config::{Config, KubeConfigOptions, Kubeconfig};

use crate::env::{kubeconfig_for, mkdir, write_file};
use crate::{Result, TestEnv, UserError};

/// How long new credentials may take to be accepted (a new ServiceAccount reaches the token
/// authenticator's cache a moment after it is created).
const AUTHENTICATED: Duration = Duration::from_secs(30);

/// An identity of the environment: who the API server says it is, and how to act as it.
#[derive(Debug, Clone)]
pub struct User {
    name: String,
    groups: Vec<String>,
    token: Option<String>,
    kubeconfig: Kubeconfig,
    kubeconfig_path: PathBuf,
}

impl User {
    /// The user name the API server authenticated (`system:serviceaccount:<ns>:<name>` for a
    /// ServiceAccount, the certificate's common name otherwise).
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The groups the API server authenticated (`system:authenticated` among them).
    pub fn groups(&self) -> &[String] {
        &self.groups
    }

    /// The bearer token of a ServiceAccount user; `None` for a certificate user.
    pub fn token(&self) -> Option<&str> {
        self.token.as_deref()
    }

    /// A client acting as this user, bound to the current tokio runtime.
    pub async fn client(&self) -> Result<Client> {
        client_of(&self.kubeconfig).await
    }

    /// The kubeconfig of this user (CA and credentials embedded).
    pub fn kubeconfig(&self) -> &Kubeconfig {
        &self.kubeconfig
    }

    /// The same kubeconfig as a file (mode 0600), for other processes; removed with the
    /// environment.
    pub fn kubeconfig_path(&self) -> &Path {
        &self.kubeconfig_path
    }
}

impl TestEnv {
    /// The ServiceAccount `namespace/name` as a user: creates it unless it exists (the
    /// namespace must), requests a token valid for `expiration` (the API server refuses less
    /// than 10 minutes) and waits until the API server authenticates it.
    pub async fn service_account_user(
        &self,
        namespace: &str,
        name: &str,
        expiration: Duration,
    ) -> Result<User> {
        let admin = self.client().await?;
        let accounts: Api<ServiceAccount> = Api::namespaced(admin, namespace);
        let mut account = ServiceAccount::default();
        account.metadata.name = Some(name.to_string());
        match accounts.create(&PostParams::default(), &account).await {
            Ok(_) => {}
            Err(kube::Error::Api(status)) if status.is_already_exists() => {}
            Err(source) => {
                return Err(UserError::ServiceAccount {
                    namespace: namespace.to_string(),
                    name: name.to_string(),
                    source,
                }
                .into());
            }
        }
        let request = TokenRequest {
            spec: TokenRequestSpec {
                expiration_seconds: Some(i64::try_from(expiration.as_secs()).unwrap_or(i64::MAX)),
                ..TokenRequestSpec::default()
            },
            ..TokenRequest::default()
        };
        let token = accounts
            .create_token_request(name, &PostParams::default(), &request)
            .await
            .map_err(|source| UserError::Token {
                namespace: namespace.to_string(),
                name: name.to_string(),
                source,
            })?
            .status
            .ok_or_else(|| UserError::NoToken {
                namespace: namespace.to_string(),
                name: name.to_string(),
            })?
            .token;
        let kubeconfig = kubeconfig_for(
            self.server_url(),
            self.ca_pem(),
            name,
            serde_json::json!({ "token": token }),
        );
        self.user(
            &format!("ServiceAccount {namespace}/{name}"),
            &format!("{namespace}-{name}"),
            kubeconfig,
            Some(token),
        )
        .await
    }

    /// The user `name` of a client certificate signed by the environment's CA, in `group`
    /// when one is given (a certificate carries one group here); waits until the API server
    /// authenticates it.
    pub async fn certificate_user(&self, name: &str, group: Option<&str>) -> Result<User> {
        let (cert, key) = self
            .pki()
            .client_certificate(name, group)
            .map_err(|source| UserError::Certificate {
                name: name.to_string(),
                source,
            })?;
        let kubeconfig = kubeconfig_for(
            self.server_url(),
            self.ca_pem(),
            name,
            serde_json::json!({
                "client-certificate-data": BASE64.encode(cert),
                "client-key-data": BASE64.encode(key),
            }),
        );
        self.user(&format!("user {name}"), name, kubeconfig, None)
            .await
    }

    /// Writes the kubeconfig under `users/` of the environment's directory and asks the API
    /// server who it authenticates.
    async fn user(
        &self,
        who: &str,
        file: &str,
        kubeconfig: serde_json::Value,
        token: Option<String>,
    ) -> Result<User> {
        static NEXT: AtomicU64 = AtomicU64::new(1);
        let dir = self.run_dir().join("users");
        mkdir(&dir)?;
        let file: String = file
            .chars()
            .map(|c| {
                if c.is_ascii_alphanumeric() || c == '-' {
                    c
                } else {
                    '_'
                }
            })
            .collect();
        let path = dir.join(format!(
            "{}-{file}.kubeconfig",
            NEXT.fetch_add(1, Ordering::Relaxed)
        ));
        let text = kubeconfig.to_string();
        write_file(&path, text.as_bytes(), true)?;
        let kubeconfig = Kubeconfig::from_yaml(&text)?;
        let client = client_of(&kubeconfig).await?;
        let (name, groups) = authenticated(&client, who).await?;
        Ok(User {
            name,
            groups,
            token,
            kubeconfig,
            kubeconfig_path: path,
        })
    }
}

async fn client_of(kubeconfig: &Kubeconfig) -> Result<Client> {
    let config =
        Config::from_custom_kubeconfig(kubeconfig.clone(), &KubeConfigOptions::default()).await?;
    Ok(Client::try_from(config)?)
}

/// The user name and groups the API server gives `client`'s credentials, by a
/// SelfSubjectReview (any authenticated user may create one), retried until it succeeds.
async fn authenticated(client: &Client, who: &str) -> Result<(String, Vec<String>)> {
    let reviews: Api<SelfSubjectReview> = Api::all(client.clone());
    let deadline = Instant::now() + AUTHENTICATED;
    loop {
        let last = match reviews
            .create(&PostParams::default(), &SelfSubjectReview::default())
            .await
        {
            Ok(review) => {
                let user = review.status.and_then(|s| s.user_info);
                if let Some(name) = user.as_ref().and_then(|u| u.username.clone()) {
                    let groups = user.and_then(|u| u.groups).unwrap_or_default();
                    return Ok((name, groups));
                }
                None
            }
            Err(e) => Some(e),
        };
        if Instant::now() >= deadline {
            return Err(UserError::NotAuthenticated {
                who: who.to_string(),
                after: AUTHENTICATED,
                last,
            }
            .into());
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}
