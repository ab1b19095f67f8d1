//! The diagnostics endpoint (`/metrics`) and who may read it.
//!
//! By default the endpoint is served over HTTPS, and every request must carry a bearer token
//! that the API server vouches for and whose user may `get` the request's path, as Cluster
//! API's managers do through controller-runtime:
//!
//! 1. The token of `Authorization: Bearer <token>` is sent to the API server in a `TokenReview`
//!    (`authentication.k8s.io/v1`). No token, or one the API server does not authenticate, is
//!    answered 401.
//! 2. The user the review names (name, uid, groups, extra) is checked with a
//!    `SubjectAccessReview` (`authorization.k8s.io/v1`) for the non-resource URL of the
//!    request, with the request's method in lower case as the verb (`get` for a scrape).
//!    A user without that right is answered 403.
//! 3. When a review cannot be made (the API server is unreachable, slow or refuses the
//!    manager), the answer is 500; such a request is never let through. Each review is one
//!    attempt bounded by [`REVIEW_TIMEOUT`] (controller-runtime retries with a backoff; a
//!    scraper's next scrape is the retry here).
//!
//! The reviews' results are kept for a while, so a scraper does not cost two API calls per
//! scrape: a token review for a minute, an allowed access for five minutes, a denied one for
//! 30 seconds (controller-runtime's durations). Failed reviews are not kept. Each cache holds
//! at most [`CACHE_CAPACITY`] entries; when it is full, expired entries are dropped first and
//! then the entry closest to expiry.
//!
//! One deliberate difference from controller-runtime: it answers a presented token that the
//! API server rejects with 500 (its bearer-token authenticator turns the rejection into an
//! error), where this module answers 401, keeping 500 for reviews that could not be made.
//!
//! With `--insecure-diagnostics` the same routes are served over plain HTTP without any of
//! this.

use std::collections::{BTreeMap, HashMap};
use std::future::Future;
use std::hash::Hash;
use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};

use axum::extract::{Request, State};
use axum::http::{HeaderMap, StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use capi_runtime::go::errors::chain;
use k8s_openapi::api::authentication::v1::{TokenReview, TokenReviewSpec};
use k8s_openapi::api::authorization::v1::{
    NonResourceAttributes, SubjectAccessReview, SubjectAccessReviewSpec,
};
use kube::api::{Api, PostParams};

/// How long a token review's result is kept (authenticated or not).
pub const AUTHENTICATION_TTL: Duration = Duration::from_secs(60);
/// How long an allowed access is kept.
pub const ALLOWED_TTL: Duration = Duration::from_secs(5 * 60);
/// How long a denied access is kept.
pub const DENIED_TTL: Duration = Duration::from_secs(30);
/// The most entries each of the two caches holds.
pub const CACHE_CAPACITY: usize = 1024;
/// The longest one review may take before the request is answered 500.
pub const REVIEW_TIMEOUT: Duration = Duration::from_secs(10);

/// The group every authenticated user belongs to; added when a review leaves it out.
const ALL_AUTHENTICATED: &str = "system:authenticated";

/// Why a `--diagnostics-address` value is refused.
#[derive(Debug, PartialEq, Eq, thiserror::Error)]
pub enum AddressError {
    /// Neither `0`, `:port` nor `ip:port`.
    #[error("{0:?} is not `0`, `:port` or `ip:port`")]
    Malformed(String),
}

/// Reads a `--diagnostics-address` value: `0` turns the endpoint off (`None`), `:port` listens
/// on every IPv4 interface, `ip:port` (`[ip6]:port` for IPv6) on that address.
pub fn parse_address(text: &str) -> Result<Option<SocketAddr>, AddressError> {
    if text == "0" {
        return Ok(None);
    }
    if let Some(port) = text.strip_prefix(':') {
        return port
            .parse::<u16>()
            .map(|port| Some(SocketAddr::new(IpAddr::V4(Ipv4Addr::UNSPECIFIED), port)))
            .map_err(|_| AddressError::Malformed(text.to_string()));
    }
    text.parse()
        .map(Some)
        .map_err(|_| AddressError::Malformed(text.to_string()))
}

/// A user as a token review names it; what the access review is asked about.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct User {
    /// The user name (`system:serviceaccount:<namespace>:<name>` for a ServiceAccount).
    pub name: String,
    /// The user's uid, empty when the review gave none.
    pub uid: String,
    /// The user's groups.
    pub groups: Vec<String>,
    /// What else the authenticator said about the user.
    pub extra: BTreeMap<String, Vec<String>>,
}

/// Why a review could not be made.
#[derive(Debug, thiserror::Error)]
pub enum ReviewError {
    /// The API server call failed.
    #[error("creating a {kind} failed")]
    Request {
        /// `TokenReview` or `SubjectAccessReview`.
        kind: &'static str,
        /// The client's error.
        source: kube::Error,
    },
    /// The API server did not answer in time.
    #[error("creating a {kind} took longer than {timeout:?}")]
    Timeout {
        /// `TokenReview` or `SubjectAccessReview`.
        kind: &'static str,
        /// The bound that was passed.
        timeout: Duration,
    },
}

/// Asks the API server about tokens and access. A trait so that the decisions can be tested
/// without one.
pub trait Reviewer: Send + Sync + 'static {
    /// The user `token` belongs to, or `None` when it is not authenticated.
    fn review_token(
        &self,
        token: &str,
    ) -> impl Future<Output = Result<Option<User>, ReviewError>> + Send;

    /// Whether `user` may use `verb` on the non-resource URL `path`.
    fn review_access(
        &self,
        user: &User,
        path: &str,
        verb: &str,
    ) -> impl Future<Output = Result<bool, ReviewError>> + Send;
}

/// [`Reviewer`] through the API server the manager talks to.
#[derive(Clone)]
pub struct KubeReviewer {
    client: kube::Client,
}

impl KubeReviewer {
    /// Reviews with `client`'s credentials (they need `create` on `tokenreviews` and
    /// `subjectaccessreviews`).
    pub fn new(client: kube::Client) -> Self {
        KubeReviewer { client }
    }
}

async fn bounded<T>(
    kind: &'static str,
    call: impl Future<Output = Result<T, kube::Error>>,
) -> Result<T, ReviewError> {
    match tokio::time::timeout(REVIEW_TIMEOUT, call).await {
        Ok(Ok(answer)) => Ok(answer),
        Ok(Err(source)) => Err(ReviewError::Request { kind, source }),
        Err(_) => Err(ReviewError::Timeout {
            kind,
            timeout: REVIEW_TIMEOUT,
        }),
    }
}

impl Reviewer for KubeReviewer {
    async fn review_token(&self, token: &str) -> Result<Option<User>, ReviewError> {
        let review = TokenReview {
            spec: TokenReviewSpec {
                token: Some(token.to_string()),
                audiences: None,
            },
            ..Default::default()
        };
        let api: Api<TokenReview> = Api::all(self.client.clone());
        let answer = bounded("TokenReview", api.create(&PostParams::default(), &review)).await?;
        let Some(status) = answer.status else {
            return Ok(None);
        };
        if status.authenticated != Some(true) {
            return Ok(None);
        }
        let info = status.user.unwrap_or_default();
        Ok(Some(User {
            name: info.username.unwrap_or_default(),
            uid: info.uid.unwrap_or_default(),
            groups: info.groups.unwrap_or_default(),
            extra: info.extra.unwrap_or_default(),
        }))
    }

    async fn review_access(
        &self,
        user: &User,
        path: &str,
        verb: &str,
    ) -> Result<bool, ReviewError> {
        let review = SubjectAccessReview {
            spec: SubjectAccessReviewSpec {
                user: Some(user.name.clone()),
                uid: (!user.uid.is_empty()).then(|| user.uid.clone()),
                groups: Some(user.groups.clone()),
                extra: Some(user.extra.clone()),
                non_resource_attributes: Some(NonResourceAttributes {
                    path: Some(path.to_string()),
                    verb: Some(verb.to_string()),
                }),
                resource_attributes: None,
            },
            ..Default::default()
        };
        let api: Api<SubjectAccessReview> = Api::all(self.client.clone());
        let answer = bounded(
            "SubjectAccessReview",
            api.create(&PostParams::default(), &review),
        )
        .await?;
        Ok(answer.status.is_some_and(|s| s.allowed))
    }
}

/// A small map whose entries expire; see the [module docs](self) for what it drops when full.
struct TtlCache<K, V> {
    entries: Mutex<HashMap<K, (V, Instant)>>,
    capacity: usize,
}

impl<K: Eq + Hash + Clone, V: Clone> TtlCache<K, V> {
    fn new(capacity: usize) -> Self {
        TtlCache {
            entries: Mutex::new(HashMap::new()),
            capacity,
        }
    }

    fn get(&self, key: &K, now: Instant) -> Option<V> {
        let entries = self.entries.lock().unwrap_or_else(PoisonError::into_inner);
        entries
            .get(key)
            .filter(|(_, expires)| now < *expires)
            .map(|(value, _)| value.clone())
    }

    fn insert(&self, key: K, value: V, now: Instant, ttl: Duration) {
        if self.capacity == 0 {
            return;
        }
        let mut entries = self.entries.lock().unwrap_or_else(PoisonError::into_inner);
        if !entries.contains_key(&key) && entries.len() >= self.capacity {
            entries.retain(|_, (_, expires)| now < *expires);
            if entries.len() >= self.capacity {
                let soonest = entries
                    .iter()
                    .min_by_key(|(_, (_, expires))| *expires)
                    .map(|(k, _)| k.clone());
                if let Some(k) = soonest {
                    entries.remove(&k);
                }
            }
        }
        entries.insert(key, (value, now + ttl));
    }

    #[cfg(test)]
    fn len(&self) -> usize {
        self.entries
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .len()
    }
}

/// What a request to the secure endpoint is answered.
#[derive(Debug)]
pub enum Decision {
    /// Served.
    Allow,
    /// No bearer token, or one the API server did not authenticate: 401.
    Unauthenticated,
    /// The user may not use the method on the path: 403.
    Forbidden {
        /// The user's name.
        user: String,
    },
    /// The token review could not be made: 500.
    AuthenticationFailed(ReviewError),
    /// The access review could not be made: 500.
    AuthorizationFailed {
        /// The user's name.
        user: String,
        /// Why.
        source: ReviewError,
    },
}

impl IntoResponse for Decision {
    fn into_response(self) -> Response {
        match self {
            Decision::Allow => StatusCode::OK.into_response(),
            Decision::Unauthenticated => (
                StatusCode::UNAUTHORIZED,
                "Unauthorized: a bearer token the API server authenticates is required\n",
            )
                .into_response(),
            Decision::Forbidden { user } => (
                StatusCode::FORBIDDEN,
                format!("Forbidden: user {user} may not read this endpoint\n"),
            )
                .into_response(),
            Decision::AuthenticationFailed(e) => {
                tracing::error!(error = %chain(&e), "diagnostics: the token review failed");
                (
                    StatusCode::INTERNAL_SERVER_ERROR,
                    "the token could not be reviewed\n",
                )
                    .into_response()
            }
            Decision::AuthorizationFailed { user, source } => {
                tracing::error!(error = %chain(&source), %user, "diagnostics: the access review failed");
                (
                    StatusCode::INTERNAL_SERVER_ERROR,
                    format!("the access of user {user} could not be reviewed\n"),
                )
                    .into_response()
            }
        }
    }
}

/// The bearer token of a request, read as Kubernetes reads it: the `Authorization` header
/// trimmed, a scheme `bearer` in any case, one space, a non-empty token.
fn bearer_token(headers: &HeaderMap) -> Option<&str> {
    let value = headers.get(header::AUTHORIZATION)?.to_str().ok()?.trim();
    let mut parts = value.splitn(3, ' ');
    let scheme = parts.next()?;
    let token = parts.next()?;
    (scheme.eq_ignore_ascii_case("bearer") && !token.is_empty()).then_some(token)
}

/// Decides each request to the secure endpoint, with the caches of the reviews' results.
pub struct Gate<R> {
    reviewer: R,
    tokens: TtlCache<String, Option<User>>,
    access: TtlCache<(User, String, String), bool>,
}

impl<R: Reviewer> Gate<R> {
    /// A gate asking `reviewer`, with empty caches of [`CACHE_CAPACITY`] entries.
    pub fn new(reviewer: R) -> Self {
        Gate {
            reviewer,
            tokens: TtlCache::new(CACHE_CAPACITY),
            access: TtlCache::new(CACHE_CAPACITY),
        }
    }

    /// What a request with `headers`, `method` and `path` is answered.
    pub async fn decide(&self, headers: &HeaderMap, method: &str, path: &str) -> Decision {
        self.decide_at(headers, method, path, Instant::now()).await
    }

    async fn decide_at(
        &self,
        headers: &HeaderMap,
        method: &str,
        path: &str,
        now: Instant,
    ) -> Decision {
        let Some(token) = bearer_token(headers) else {
            return Decision::Unauthenticated;
        };
        let user = match self.tokens.get(&token.to_string(), now) {
            Some(known) => known,
            None => match self.reviewer.review_token(token).await {
                Ok(user) => {
                    self.tokens
                        .insert(token.to_string(), user.clone(), now, AUTHENTICATION_TTL);
                    user
                }
                Err(e) => return Decision::AuthenticationFailed(e),
            },
        };
        let Some(mut user) = user else {
            return Decision::Unauthenticated;
        };
        if !user.groups.iter().any(|g| g == ALL_AUTHENTICATED) {
            user.groups.push(ALL_AUTHENTICATED.to_string());
        }
        let verb = method.to_ascii_lowercase();
        let key = (user, path.to_string(), verb);
        let allowed = match self.access.get(&key, now) {
            Some(known) => known,
            None => match self.reviewer.review_access(&key.0, &key.1, &key.2).await {
                Ok(allowed) => {
                    let ttl = if allowed { ALLOWED_TTL } else { DENIED_TTL };
                    self.access.insert(key.clone(), allowed, now, ttl);
                    allowed
                }
                Err(source) => {
                    return Decision::AuthorizationFailed {
                        user: key.0.name,
                        source,
                    };
                }
            },
        };
        if allowed {
            Decision::Allow
        } else {
            Decision::Forbidden { user: key.0.name }
        }
    }
}

/// Axum middleware: runs the rest of the stack only for requests [`Gate::decide`] allows.
pub async fn authorize<R: Reviewer>(
    State(gate): State<Arc<Gate<R>>>,
    request: Request,
    next: Next,
) -> Response {
    let decision = gate
        .decide(
            request.headers(),
            request.method().as_str(),
            request.uri().path(),
        )
        .await;
    match decision {
        Decision::Allow => next.run(request).await,
        refused => refused.into_response(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicUsize, Ordering};

    /// A reviewer with fixed answers: tokens `alice` and `bob` are users, `broken` fails
    /// the review, anything else is not authenticated; `alice` may `get` `/metrics`, user
    /// `carol` (token `carol`) fails the access review.
    #[derive(Default)]
    struct Fake {
        token_reviews: AtomicUsize,
        access_reviews: AtomicUsize,
        last_access: Mutex<Option<(User, String, String)>>,
    }

    fn unreachable(kind: &'static str) -> ReviewError {
        ReviewError::Timeout {
            kind,
            timeout: REVIEW_TIMEOUT,
        }
    }

    impl Reviewer for Arc<Fake> {
        async fn review_token(&self, token: &str) -> Result<Option<User>, ReviewError> {
            self.token_reviews.fetch_add(1, Ordering::SeqCst);
            match token {
                "broken" => Err(unreachable("TokenReview")),
                "alice" | "bob" | "carol" => Ok(Some(User {
                    name: token.to_string(),
                    uid: format!("uid-{token}"),
                    groups: vec!["team".into()],
                    extra: BTreeMap::from([("scopes".into(), vec!["a".into()])]),
                })),
                _ => Ok(None),
            }
        }

        async fn review_access(
            &self,
            user: &User,
            path: &str,
            verb: &str,
        ) -> Result<bool, ReviewError> {
            self.access_reviews.fetch_add(1, Ordering::SeqCst);
            *self.last_access.lock().unwrap() =
                Some((user.clone(), path.to_string(), verb.to_string()));
            match user.name.as_str() {
                "carol" => Err(unreachable("SubjectAccessReview")),
                "alice" => Ok(path == "/metrics" && verb == "get"),
                _ => Ok(false),
            }
        }
    }

    fn with_auth(value: &str) -> HeaderMap {
        let mut headers = HeaderMap::new();
        headers.insert(header::AUTHORIZATION, value.parse().unwrap());
        headers
    }

    fn gate() -> (Gate<Arc<Fake>>, Arc<Fake>) {
        let fake = Arc::new(Fake::default());
        (Gate::new(fake.clone()), fake)
    }

    fn status(decision: Decision) -> StatusCode {
        decision.into_response().status()
    }

    #[tokio::test]
    async fn an_authenticated_and_authorized_user_is_served() {
        let (gate, fake) = gate();
        let d = gate
            .decide(&with_auth("Bearer alice"), "GET", "/metrics")
            .await;
        assert!(matches!(d, Decision::Allow), "{d:?}");
        // The access review is asked about the reviewed user, the path and the lower-case verb;
        // the authenticated group is added.
        let (user, path, verb) = fake.last_access.lock().unwrap().clone().unwrap();
        assert_eq!(user.name, "alice");
        assert_eq!(user.uid, "uid-alice");
        assert_eq!(user.groups, ["team", "system:authenticated"]);
        assert_eq!(user.extra["scopes"], ["a"]);
        assert_eq!((path.as_str(), verb.as_str()), ("/metrics", "get"));
    }

    #[tokio::test]
    async fn missing_or_malformed_tokens_are_401_without_a_review() {
        let (gate, fake) = gate();
        for headers in [
            HeaderMap::new(),
            with_auth(""),
            with_auth("Bearer"),
            with_auth("Bearer "),
            with_auth("Bearer  alice"),
            with_auth("Basic YWxpY2U6eA=="),
            with_auth("alice"),
        ] {
            let d = gate.decide(&headers, "GET", "/metrics").await;
            assert_eq!(status(d), StatusCode::UNAUTHORIZED, "{headers:?}");
        }
        assert_eq!(fake.token_reviews.load(Ordering::SeqCst), 0);
    }

    #[test]
    fn the_bearer_scheme_is_read_in_any_case_and_trimmed() {
        assert_eq!(bearer_token(&with_auth("bearer alice")), Some("alice"));
        assert_eq!(bearer_token(&with_auth("BEARER alice ")), Some("alice"));
        assert_eq!(
            bearer_token(&with_auth("Bearer alice extra")),
            Some("alice")
        );
    }

    #[tokio::test]
    async fn an_unauthenticated_token_is_401() {
        let (gate, fake) = gate();
        let d = gate
            .decide(&with_auth("Bearer garbage"), "GET", "/metrics")
            .await;
        assert_eq!(status(d), StatusCode::UNAUTHORIZED);
        assert_eq!(fake.access_reviews.load(Ordering::SeqCst), 0);
    }

    #[tokio::test]
    async fn a_user_without_the_right_is_403() {
        let (gate, _) = gate();
        let d = gate
            .decide(&with_auth("Bearer bob"), "GET", "/metrics")
            .await;
        assert!(
            matches!(&d, Decision::Forbidden { user } if user == "bob"),
            "{d:?}"
        );
        assert_eq!(status(d), StatusCode::FORBIDDEN);
        // Alice may get /metrics, but not post to it nor get another path.
        let d = gate
            .decide(&with_auth("Bearer alice"), "POST", "/metrics")
            .await;
        assert_eq!(status(d), StatusCode::FORBIDDEN);
        let d = gate
            .decide(&with_auth("Bearer alice"), "GET", "/debug")
            .await;
        assert_eq!(status(d), StatusCode::FORBIDDEN);
    }

    #[tokio::test]
    async fn reviews_that_cannot_be_made_are_500_and_not_kept() {
        let (gate, fake) = gate();
        for _ in 0..2 {
            let d = gate
                .decide(&with_auth("Bearer broken"), "GET", "/metrics")
                .await;
            assert!(matches!(d, Decision::AuthenticationFailed(_)), "{d:?}");
            assert_eq!(status(d), StatusCode::INTERNAL_SERVER_ERROR);
            let d = gate
                .decide(&with_auth("Bearer carol"), "GET", "/metrics")
                .await;
            assert!(matches!(d, Decision::AuthorizationFailed { .. }), "{d:?}");
            assert_eq!(status(d), StatusCode::INTERNAL_SERVER_ERROR);
        }
        // Every attempt asked again: broken twice, carol once (her authentication is kept).
        assert_eq!(fake.token_reviews.load(Ordering::SeqCst), 3);
        assert_eq!(fake.access_reviews.load(Ordering::SeqCst), 2);
    }

    #[tokio::test]
    async fn results_are_kept_for_their_durations() {
        let (gate, fake) = gate();
        let t0 = Instant::now();
        let ask = |token: &'static str, after: Duration| {
            let gate = &gate;
            async move {
                gate.decide_at(
                    &with_auth(&format!("Bearer {token}")),
                    "GET",
                    "/metrics",
                    t0 + after,
                )
                .await
            }
        };
        let reviews = |fake: &Fake| {
            (
                fake.token_reviews.load(Ordering::SeqCst),
                fake.access_reviews.load(Ordering::SeqCst),
            )
        };

        // Allowed: the token for a minute, the access for five.
        assert!(matches!(
            ask("alice", Duration::ZERO).await,
            Decision::Allow
        ));
        assert!(matches!(
            ask("alice", Duration::from_secs(59)).await,
            Decision::Allow
        ));
        assert_eq!(reviews(&fake), (1, 1));
        assert!(matches!(
            ask("alice", Duration::from_secs(61)).await,
            Decision::Allow
        ));
        assert_eq!(reviews(&fake), (2, 1));
        assert!(matches!(
            ask("alice", Duration::from_secs(301)).await,
            Decision::Allow
        ));
        assert_eq!(reviews(&fake), (3, 2));

        // Denied: the access for 30 s.
        let (gate, fake) = (Gate::new(fake.clone()), fake);
        let before = reviews(&fake);
        let ask = |after: Duration| {
            let gate = &gate;
            async move {
                gate.decide_at(&with_auth("Bearer bob"), "GET", "/metrics", t0 + after)
                    .await
            }
        };
        assert!(matches!(
            ask(Duration::ZERO).await,
            Decision::Forbidden { .. }
        ));
        assert!(matches!(
            ask(Duration::from_secs(29)).await,
            Decision::Forbidden { .. }
        ));
        assert_eq!(reviews(&fake), (before.0 + 1, before.1 + 1));
        assert!(matches!(
            ask(Duration::from_secs(31)).await,
            Decision::Forbidden { .. }
        ));
        assert_eq!(reviews(&fake), (before.0 + 1, before.1 + 2));

        // Not authenticated: kept for a minute too.
        let (gate, fake) = (Gate::new(fake.clone()), fake);
        let before = reviews(&fake);
        for after in [0, 30, 59] {
            let d = gate
                .decide_at(
                    &with_auth("Bearer garbage"),
                    "GET",
                    "/metrics",
                    t0 + Duration::from_secs(after),
                )
                .await;
            assert_eq!(status(d), StatusCode::UNAUTHORIZED);
        }
        assert_eq!(reviews(&fake), (before.0 + 1, before.1));
    }

    #[test]
    fn caches_stay_bounded() {
        let cache = TtlCache::new(3);
        let t0 = Instant::now();
        let ttl = Duration::from_secs(10);
        for (i, at) in [0u64, 1, 2].into_iter().enumerate() {
            cache.insert(i, i, t0 + Duration::from_secs(at), ttl);
        }
        // Full: the entry closest to expiry (0) makes room.
        cache.insert(3, 3, t0 + Duration::from_secs(3), ttl);
        assert_eq!(cache.len(), 3);
        assert_eq!(cache.get(&0, t0 + Duration::from_secs(3)), None);
        assert_eq!(cache.get(&1, t0 + Duration::from_secs(3)), Some(1));
        // Expired entries go first, all of them.
        cache.insert(4, 4, t0 + Duration::from_secs(100), ttl);
        assert_eq!(cache.len(), 1);
        assert_eq!(cache.get(&4, t0 + Duration::from_secs(100)), Some(4));
        // Replacing a key does not evict.
        cache.insert(4, 5, t0 + Duration::from_secs(100), ttl);
        assert_eq!(cache.len(), 1);
        assert_eq!(cache.get(&4, t0 + Duration::from_secs(100)), Some(5));
    }

    #[test]
    fn addresses_parse_like_cluster_api_flags() {
        assert_eq!(parse_address("0"), Ok(None));
        assert_eq!(
            parse_address(":8443"),
            Ok(Some("0.0.0.0:8443".parse().unwrap()))
        );
        assert_eq!(
            parse_address("127.0.0.1:0"),
            Ok(Some("127.0.0.1:0".parse().unwrap()))
        );
        assert_eq!(
            parse_address("[::1]:8443"),
            Ok(Some("[::1]:8443".parse().unwrap()))
        );
        for bad in ["", "8443", ":", ":x", "localhost:8443", ":70000"] {
            assert_eq!(
                parse_address(bad),
                Err(AddressError::Malformed(bad.to_string())),
                "{bad}"
            );
        }
    }
}
