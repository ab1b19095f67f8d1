//! What Go's `crypto/x509` reads from a certificate for chain verification, and the rules it
//! applies to one certificate or one pair of them: the parts `anchors` builds chains from.
//!
//! Certificates are read with x509-parser; each [`Cert`] keeps only the facts Go's verifier
//! looks at. Signatures are checked with the crypto provider's algorithms (ring), matched to a
//! certificate by the DER of its algorithm identifiers, as webpki matches them.

use std::net::IpAddr;

use rustls::pki_types::SignatureVerificationAlgorithm;
use x509_parser::certificate::X509CertificateParser;
use x509_parser::extensions::{GeneralName, ParsedExtension};
use x509_parser::nom::Parser;

use super::refusal::ChainError;

/// One certificate as Go's verifier sees it.
#[derive(Debug)]
pub(crate) struct Cert {
    pub(crate) der: Vec<u8>,
    tbs: Vec<u8>,
    /// The contents of the certificate's signature AlgorithmIdentifier.
    signature_algorithm: Vec<u8>,
    signature: Vec<u8>,
    /// The subject public key info, whole; its AlgorithmIdentifier's contents; its key bits.
    spki: Vec<u8>,
    key_algorithm: Vec<u8>,
    key: Vec<u8>,
    pub(crate) subject: Vec<u8>,
    pub(crate) issuer: Vec<u8>,
    /// How Go names the certificate in an error: its common name, else its first organization,
    /// else `serial:` and its serial number.
    pub(crate) name: String,
    version: u32,
    pub(crate) not_before: i64,
    pub(crate) not_after: i64,
    /// Basic constraints: cA and the path length constraint.
    basic: Option<(bool, Option<u32>)>,
    /// Key usage bits (x509-parser's order); 0 when absent, as in Go.
    key_usage: u16,
    /// Extended key usage, when the certificate names any usage.
    usage: Option<Usage>,
    /// The raw subject alternative name extension, when there is one.
    san: Option<Vec<u8>>,
    dns_names: Vec<String>,
    ip_addresses: Vec<Vec<u8>>,
    emails: Vec<String>,
    uris: Vec<String>,
    constraints: Option<Constraints>,
    unhandled_critical: bool,
    /// A policy constraints extension requiring an explicit policy.
    explicit_policy: bool,
    subject_key_id: Vec<u8>,
    authority_key_id: Vec<u8>,
}

#[derive(Debug, Clone, Copy)]
struct Usage {
    any: bool,
    server_auth: bool,
}

/// Name constraints: the permitted and the excluded subtrees.
#[derive(Debug, Default)]
struct Constraints {
    permitted: Subtrees,
    excluded: Subtrees,
}

#[derive(Debug, Default)]
struct Subtrees {
    dns: Vec<String>,
    /// (address, mask), both 4 or both 16 bytes.
    ips: Vec<(Vec<u8>, Vec<u8>)>,
    emails: Vec<String>,
    uris: Vec<String>,
}

/// The key usage bit keyCertSign, in x509-parser's order.
const KEY_CERT_SIGN: u16 = 1 << 5;

/// A DER element: its tag, its contents, the whole element, and the input after it.
type Element<'a> = (u8, &'a [u8], &'a [u8], &'a [u8]);

/// The DER element at the start of `input`.
fn element(input: &[u8]) -> Option<Element<'_>> {
    let (&tag, rest) = input.split_first()?;
    let (&first, rest) = rest.split_first()?;
    let (len, rest) = if first < 0x80 {
        (usize::from(first), rest)
    } else {
        let n = usize::from(first & 0x7f);
        if n == 0 || n > 4 || rest.len() < n {
            return None;
        }
        let len = rest[..n]
            .iter()
            .fold(0usize, |acc, b| (acc << 8) | usize::from(*b));
        (len, &rest[n..])
    };
    if rest.len() < len {
        return None;
    }
    let header = input.len() - rest.len();
    Some((tag, &rest[..len], &input[..header + len], &rest[len..]))
}

/// The contents of a BIT STRING without unused bits.
fn bits(contents: &[u8]) -> Option<&[u8]> {
    match contents.split_first() {
        Some((0, bits)) => Some(bits),
        _ => None,
    }
}

impl Cert {
    /// Reads a DER certificate; `None` when it does not parse.
    pub(crate) fn parse(der: &[u8]) -> Option<Cert> {
        // The raw parts the signature check needs, read from the DER itself.
        let (0x30, body, _, []) = element(der)? else {
            return None;
        };
        let (_, _, tbs, rest) = element(body)?;
        let (0x30, signature_algorithm, _, rest) = element(rest)? else {
            return None;
        };
        let (0x03, signature, _, []) = element(rest)? else {
            return None;
        };
        let (_, x509) = X509CertificateParser::new().parse(der).ok()?;
        let spki = x509.public_key().raw;
        let (0x30, spki_body, _, _) = element(spki)? else {
            return None;
        };
        let (0x30, key_algorithm, _, rest) = element(spki_body)? else {
            return None;
        };
        let (0x03, key, _, _) = element(rest)? else {
            return None;
        };
        let subject = x509.subject();
        let name = subject
            .iter_common_name()
            .next()
            .or_else(|| subject.iter_organization().next())
            .and_then(|a| a.as_str().ok())
            .map(str::to_string)
            .unwrap_or_else(|| format!("serial:{}", x509.tbs_certificate.serial));
        let mut cert = Cert {
            der: der.to_vec(),
            tbs: tbs.to_vec(),
            signature_algorithm: signature_algorithm.to_vec(),
            signature: bits(signature)?.to_vec(),
            spki: spki.to_vec(),
            key_algorithm: key_algorithm.to_vec(),
            key: bits(key)?.to_vec(),
            subject: subject.as_raw().to_vec(),
            issuer: x509.issuer().as_raw().to_vec(),
            name,
            version: x509.version().0 + 1,
            not_before: x509.validity().not_before.timestamp(),
            not_after: x509.validity().not_after.timestamp(),
            basic: None,
            key_usage: 0,
            usage: None,
            san: None,
            dns_names: Vec::new(),
            ip_addresses: Vec::new(),
            emails: Vec::new(),
            uris: Vec::new(),
            constraints: None,
            unhandled_critical: false,
            explicit_policy: false,
            subject_key_id: Vec::new(),
            authority_key_id: Vec::new(),
        };
        for ext in x509.extensions() {
            // Go handles a critical extension it knows; any other critical one makes the
            // certificate unusable in a chain.
            let handled = match ext.parsed_extension() {
                ParsedExtension::BasicConstraints(bc) => {
                    cert.basic = Some((bc.ca, bc.path_len_constraint));
                    true
                }
                ParsedExtension::KeyUsage(ku) => {
                    cert.key_usage = ku.flags;
                    true
                }
                ParsedExtension::ExtendedKeyUsage(eku) => {
                    let named = eku.any
                        || eku.server_auth
                        || eku.client_auth
                        || eku.code_signing
                        || eku.email_protection
                        || eku.time_stamping
                        || eku.ocsp_signing
                        || !eku.other.is_empty();
                    cert.usage = named.then_some(Usage {
                        any: eku.any,
                        server_auth: eku.server_auth,
                    });
                    true
                }
                ParsedExtension::SubjectAlternativeName(san) => {
                    cert.san = Some(ext.value.to_vec());
                    for name in &san.general_names {
                        match name {
                            GeneralName::DNSName(n) => cert.dns_names.push(n.to_string()),
                            GeneralName::RFC822Name(n) => cert.emails.push(n.to_string()),
                            GeneralName::URI(n) => cert.uris.push(n.to_string()),
                            GeneralName::IPAddress(ip) if ip.len() == 4 || ip.len() == 16 => {
                                cert.ip_addresses.push(ip.to_vec())
                            }
                            // Go refuses to parse an address of another length.
                            GeneralName::IPAddress(_) => return None,
                            _ => {}
                        }
                    }
                    // A SAN of none of those kinds is only handled when not critical.
                    !(cert.dns_names.is_empty()
                        && cert.emails.is_empty()
                        && cert.uris.is_empty()
                        && cert.ip_addresses.is_empty())
                }
                ParsedExtension::NameConstraints(nc) => {
                    let mut handled = true;
                    let mut read = |trees: &Option<Vec<_>>, into: &mut Subtrees| {
                        for tree in trees.iter().flatten() {
                            let tree: &x509_parser::extensions::GeneralSubtree<'_> = tree;
                            match &tree.base {
                                GeneralName::DNSName(n) => into.dns.push(n.to_string()),
                                GeneralName::RFC822Name(n) => into.emails.push(n.to_string()),
                                GeneralName::URI(n) => into.uris.push(n.to_string()),
                                GeneralName::IPAddress(v) if v.len() == 8 || v.len() == 32 => {
                                    let (ip, mask) = v.split_at(v.len() / 2);
                                    into.ips.push((ip.to_vec(), mask.to_vec()));
                                }
                                GeneralName::IPAddress(_) => return false,
                                _ => handled = false,
                            }
                        }
                        true
                    };
                    let mut constraints = Constraints::default();
                    if !read(&nc.permitted_subtrees, &mut constraints.permitted)
                        || !read(&nc.excluded_subtrees, &mut constraints.excluded)
                    {
                        return None;
                    }
                    cert.constraints = Some(constraints);
                    handled
                }
                ParsedExtension::PolicyConstraints(pc) => {
                    cert.explicit_policy = pc.require_explicit_policy.is_some();
                    true
                }
                ParsedExtension::SubjectKeyIdentifier(id) => {
                    cert.subject_key_id = id.0.to_vec();
                    true
                }
                ParsedExtension::AuthorityKeyIdentifier(id) => {
                    cert.authority_key_id = id
                        .key_identifier
                        .as_ref()
                        .map(|k| k.0.to_vec())
                        .unwrap_or_default();
                    true
                }
                ParsedExtension::CertificatePolicies(_)
                | ParsedExtension::PolicyMappings(_)
                | ParsedExtension::InhibitAnyPolicy(_)
                | ParsedExtension::CRLDistributionPoints(_)
                | ParsedExtension::AuthorityInfoAccess(_) => true,
                ParsedExtension::ParseError { .. } => return None,
                _ => false,
            };
            if ext.critical && !handled {
                cert.unhandled_critical = true;
            }
        }
        Some(cert)
    }

    /// Whether `self` and `other` are the same certificate for chain building: same subject,
    /// same key, and the same subject alternative names (or none on either).
    pub(crate) fn same_as(&self, other: &Cert) -> bool {
        self.subject == other.subject && self.spki == other.spki && self.san == other.san
    }

    /// How well `self`'s key identifier matches `child`'s authority key identifier: 0 when both
    /// are there and equal, 1 when only one is there, 2 otherwise (Go tries parents in that
    /// order).
    pub(crate) fn key_id_rank(&self, child: &Cert) -> u8 {
        match (
            self.subject_key_id.is_empty(),
            child.authority_key_id.is_empty(),
        ) {
            _ if self.subject_key_id == child.authority_key_id => 0,
            (true, false) | (false, true) => 1,
            _ => 2,
        }
    }

    /// Go's `CheckSignatureFrom`: `parent` may sign certificates and its key signed `self`.
    pub(crate) fn check_signature_from(
        &self,
        parent: &Cert,
        algorithms: &[&dyn SignatureVerificationAlgorithm],
    ) -> Result<(), ChainError> {
        let may_sign = match parent.basic {
            Some((ca, _)) => ca,
            // A version 1 or 2 certificate (no extensions) may sign; a version 3 one needs
            // basic constraints.
            None => parent.version < 3,
        };
        if !may_sign || (parent.key_usage != 0 && parent.key_usage & KEY_CERT_SIGN == 0) {
            return Err(ChainError::CannotSign);
        }
        let mut known = false;
        for algorithm in algorithms {
            if algorithm.signature_alg_id().as_ref() != self.signature_algorithm.as_slice()
                || algorithm.public_key_alg_id().as_ref() != parent.key_algorithm.as_slice()
            {
                continue;
            }
            known = true;
            if algorithm
                .verify_signature(&parent.key, &self.tbs, &self.signature)
                .is_ok()
            {
                return Ok(());
            }
        }
        Err(if known {
            ChainError::BadSignature
        } else {
            ChainError::UnsupportedAlgorithm
        })
    }

    /// Go's `isValid` for a certificate placed above `below` certificates of a chain
    /// (`issuer` when it is an intermediate, not the leaf or a root).
    pub(crate) fn is_valid(
        &self,
        below: usize,
        intermediate: bool,
        now: i64,
    ) -> Result<(), ChainError> {
        if self.unhandled_critical {
            return Err(ChainError::UnhandledCriticalExtension);
        }
        if now < self.not_before || now > self.not_after {
            return Err(ChainError::Expired {
                certificate: self.name.clone(),
                now,
                not_before: self.not_before,
                not_after: self.not_after,
            });
        }
        if intermediate && !matches!(self.basic, Some((true, _))) {
            return Err(ChainError::NotAuthorizedToSign);
        }
        if let Some((_, Some(max))) = self.basic {
            // The intermediates between this certificate and the leaf.
            if below.saturating_sub(1) > max as usize {
                return Err(ChainError::TooManyIntermediates);
            }
        }
        Ok(())
    }

    /// Whether the certificate allows server authentication: it names no usage, or any
    /// usage, or server authentication.
    pub(crate) fn allows_server_auth(&self) -> bool {
        self.usage.is_none_or(|u| u.any || u.server_auth)
    }

    pub(crate) fn requires_explicit_policy(&self) -> bool {
        self.explicit_policy
    }

    /// Go's `VerifyHostname`: `host` (an address or a DNS name) against the subject alternative
    /// names; the common name is not looked at.
    pub(crate) fn verify_hostname(&self, host: &Host<'_>) -> Result<(), ChainError> {
        let ok = match host {
            Host::Ip(ip) => self
                .ip_addresses
                .iter()
                .any(|san| ip_equal(&ip_bytes(ip), san)),
            Host::Dns(name) => {
                let candidate = name.to_ascii_lowercase();
                let valid = valid_hostname(&candidate, false);
                let parts: Vec<&str> = candidate
                    .strip_suffix('.')
                    .unwrap_or(&candidate)
                    .split('.')
                    .collect();
                self.dns_names.iter().any(|san| {
                    if valid && valid_hostname(san, true) {
                        wildcard_match(&san.to_ascii_lowercase(), &parts)
                    } else {
                        !matches!(san.as_str(), "" | ".")
                            && !matches!(candidate.as_str(), "" | ".")
                            && san.eq_ignore_ascii_case(&candidate)
                    }
                })
            }
        };
        if ok {
            return Ok(());
        }
        let mut presented: Vec<String> = self.dns_names.clone();
        presented.extend(
            self.ip_addresses
                .iter()
                .filter_map(|ip| ip_from_bytes(ip))
                .map(|ip| ip.to_string()),
        );
        Err(ChainError::Hostname {
            host: host.to_string(),
            presented,
        })
    }

    /// Go's name constraint check of a chain (leaf first): the constraints of every
    /// certificate apply to the names of each certificate below it that has a subject
    /// alternative name extension.
    pub(crate) fn check_chain_constraints(chain: &[&Cert]) -> Result<(), ChainError> {
        for (i, cert) in chain.iter().enumerate() {
            if cert.san.is_none() {
                continue;
            }
            for above in &chain[i + 1..] {
                if let Some(c) = &above.constraints {
                    cert.check_names(c).map_err(ChainError::NameConstraints)?;
                }
            }
        }
        Ok(())
    }

    fn check_names(&self, c: &Constraints) -> Result<(), String> {
        for ip in &self.ip_addresses {
            let shown = ip_from_bytes(ip).map_or_else(String::new, |ip| ip.to_string());
            check(
                "IP address",
                &shown,
                &c.permitted.ips,
                &c.excluded.ips,
                |(net, mask)| ip_in(net, mask, ip),
                |_| false,
            )?;
        }
        for name in &self.dns_names {
            if !domain_valid(name, false) {
                return Err(format!("x509: cannot parse dnsName {name:?}"));
            }
            check(
                "DNS name",
                name,
                &c.permitted.dns,
                &c.excluded.dns,
                |tree| dns_within(tree, name),
                |tree| excluded_by_wildcard(tree, name),
            )?;
        }
        for uri in &self.uris {
            let domain = uri_domain(uri)?;
            check(
                "URI",
                uri,
                &c.permitted.uris,
                &c.excluded.uris,
                |tree| dns_within(tree, &domain),
                |tree| excluded_by_wildcard(tree, &domain),
            )?;
        }
        for email in &self.emails {
            let Some((local, domain)) = email
                .rsplit_once('@')
                .filter(|(l, d)| !l.is_empty() && !d.is_empty())
            else {
                return Err(format!("cannot parse rfc822Name {email:?}"));
            };
            if !domain_valid(domain, false) {
                return Err(format!("x509: cannot parse rfc822Name {email:?}"));
            }
            let within = |tree: &String| match tree.rsplit_once('@') {
                Some((l, d)) => l == local && d.eq_ignore_ascii_case(domain),
                None => dns_within(tree, domain),
            };
            check(
                "email address",
                email,
                &c.permitted.emails,
                &c.excluded.emails,
                within,
                |tree| !tree.contains('@') && excluded_by_wildcard(tree, domain),
            )?;
        }
        Ok(())
    }
}

/// One kind of name against its permitted and excluded subtrees: a permitted list, when there
/// is one, must hold the name; no excluded subtree may.
fn check<T>(
    kind: &str,
    name: &str,
    permitted: &[T],
    excluded: &[T],
    within: impl Fn(&T) -> bool,
    also_excluded: impl Fn(&T) -> bool,
) -> Result<(), String>
where
    T: std::fmt::Debug,
{
    if !permitted.is_empty() && !permitted.iter().any(&within) {
        return Err(format!(
            "{kind} {name:?} is not permitted by any constraint"
        ));
    }
    if let Some(tree) = excluded.iter().find(|t| within(t) || also_excluded(t)) {
        return Err(format!(
            "{kind} {name:?} is excluded by constraint {tree:?}"
        ));
    }
    Ok(())
}

/// Whether DNS name `name` lies in the subtree `tree`: `tree` is empty (every name), or a
/// label-wise suffix of `name` (case-insensitive); a tree with a leading period holds only
/// names below it.
fn dns_within(tree: &str, name: &str) -> bool {
    if tree.is_empty() {
        return true;
    }
    if tree.len() > name.len() {
        return false;
    }
    let start = name.len() - tree.len();
    if !name.as_bytes()[start..].eq_ignore_ascii_case(tree.as_bytes()) {
        return false;
    }
    tree.starts_with('.') || start == 0 || name.as_bytes()[start - 1] == b'.'
}

/// Whether a wildcard name (`*.rest`) is excluded because an excluded subtree is a name
/// directly under the same parent (`bad.rest`).
fn excluded_by_wildcard(tree: &str, name: &str) -> bool {
    if !name.starts_with('*') || tree.is_empty() {
        return false;
    }
    let parent = |n: &str| n.find('.').map(|i| n[i..].to_ascii_lowercase());
    match (parent(tree), parent(name)) {
        (Some(a), Some(b)) => a == b,
        _ => false,
    }
}

/// The host of a URI name, for URI constraints; refused as Go refuses it: empty, or an
/// address.
fn uri_domain(uri: &str) -> Result<String, String> {
    let after_scheme = uri.split_once(':').map_or("", |(_, r)| r);
    let authority = after_scheme
        .strip_prefix("//")
        .map(|r| r.split(['/', '?', '#']).next().unwrap_or(""))
        .unwrap_or("");
    let host = authority
        .rsplit_once('@')
        .map_or(authority, |(_, h)| h)
        .to_ascii_lowercase();
    if host.is_empty() {
        return Err(format!(
            "URI with empty host ({uri:?}) cannot be matched against constraints"
        ));
    }
    let host = if host.contains(':') && !host.ends_with(']') {
        match host.rsplit_once(':') {
            Some((h, _)) if !h.contains(':') => h.to_string(),
            _ => return Err(format!("cannot parse URI host {host:?}")),
        }
    } else {
        host
    };
    if host.parse::<IpAddr>().is_ok() || (host.starts_with('[') && host.ends_with(']')) {
        return Err(format!(
            "URI with IP ({uri:?}) cannot be matched against constraints"
        ));
    }
    Ok(host)
}

/// Go's check of a DNS name in a SAN (or, with `constraint`, in a constraint): printable
/// ASCII labels that are not empty, no trailing period.
fn domain_valid(name: &str, constraint: bool) -> bool {
    if name.is_empty() {
        return true;
    }
    if name.ends_with('.') {
        return false;
    }
    let name = if constraint {
        name.strip_prefix('.').unwrap_or(name)
    } else {
        name
    };
    name.split('.')
        .all(|label| !label.is_empty() && label.bytes().all(|b| (33..=126).contains(&b)))
}

/// Whether `ip` (4 or 16 bytes) is in the network `net`/`mask`, as Go's `IPNet.Contains`
/// tests it (an IPv4 address written in IPv6 form counts as IPv4), among the constraints of
/// the address's own length.
fn ip_in(net: &[u8], mask: &[u8], ip: &[u8]) -> bool {
    if net.len() != ip.len() {
        return false;
    }
    let (net, mask) = match to4(net) {
        Some(n) if mask.len() == 16 => (n, &mask[12..]),
        Some(n) => (n, mask),
        None if mask.len() == 16 => (net, mask),
        None => return false,
    };
    let ip = to4(ip).unwrap_or(ip);
    ip.len() == net.len()
        && ip
            .iter()
            .zip(net)
            .zip(mask)
            .all(|((a, n), m)| a & m == n & m)
}

/// The 4 bytes of an IPv4 address given in 4 bytes or in IPv4-mapped IPv6 form.
fn to4(ip: &[u8]) -> Option<&[u8]> {
    match ip.len() {
        4 => Some(ip),
        16 if ip[..10].iter().all(|b| *b == 0) && ip[10] == 0xff && ip[11] == 0xff => {
            Some(&ip[12..])
        }
        _ => None,
    }
}

/// Go's `IP.Equal`: the same address, an IPv4 one in either form.
fn ip_equal(a: &[u8], b: &[u8]) -> bool {
    match (to4(a), to4(b)) {
        (Some(a), Some(b)) => a == b,
        _ => a == b,
    }
}

fn ip_bytes(ip: &IpAddr) -> Vec<u8> {
    match ip {
        IpAddr::V4(v4) => v4.octets().to_vec(),
        IpAddr::V6(v6) => v6.octets().to_vec(),
    }
}

fn ip_from_bytes(b: &[u8]) -> Option<IpAddr> {
    match b.len() {
        4 => <[u8; 4]>::try_from(b).ok().map(IpAddr::from),
        16 => <[u8; 16]>::try_from(b).ok().map(IpAddr::from),
        _ => None,
    }
}

/// Go's hostname check of an input (`pattern` false: a trailing period is allowed) or of a
/// SAN (`pattern` true: `*` may be the whole first label): labels of letters, digits,
/// underscores and inner hyphens.
fn valid_hostname(host: &str, pattern: bool) -> bool {
    let host = if pattern {
        host
    } else {
        host.strip_suffix('.').unwrap_or(host)
    };
    if host.is_empty() || host == "*" {
        return false;
    }
    host.split('.').enumerate().all(|(i, label)| {
        if label.is_empty() {
            return false;
        }
        if pattern && i == 0 && label == "*" {
            return true;
        }
        label
            .bytes()
            .enumerate()
            .all(|(j, b)| b.is_ascii_alphanumeric() || b == b'_' || (b == b'-' && j != 0))
    })
}

/// A lowercased SAN pattern against the lowercased labels of the host: the same number of
/// labels, equal but for a first label `*`.
fn wildcard_match(pattern: &str, host: &[&str]) -> bool {
    let labels: Vec<&str> = pattern.split('.').collect();
    !pattern.is_empty()
        && labels.len() == host.len()
        && labels
            .iter()
            .zip(host)
            .enumerate()
            .all(|(i, (p, h))| (i == 0 && *p == "*") || p == h)
}

/// The host a server is verified for: the URL's host, an address or a DNS name.
#[derive(Debug, Clone)]
pub(crate) enum Host<'a> {
    Ip(IpAddr),
    Dns(&'a str),
}

impl std::fmt::Display for Host<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Host::Ip(ip) => write!(f, "{ip}"),
            Host::Dns(name) => f.write_str(name),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dns_subtrees_are_label_suffixes() {
        assert!(dns_within("example.com", "example.com"));
        assert!(dns_within("example.com", "a.EXAMPLE.com"));
        assert!(!dns_within("example.com", "aexample.com"));
        assert!(!dns_within(".example.com", "example.com"));
        assert!(dns_within(".example.com", "a.example.com"));
        assert!(dns_within("", "anything"));
        assert!(excluded_by_wildcard("bad.example.com", "*.example.com"));
        assert!(!excluded_by_wildcard("bad.example.com", "a.example.com"));
    }

    #[test]
    fn addresses_compare_as_in_go() {
        assert!(ip_equal(
            &[127, 0, 0, 1],
            &[0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, 127, 0, 0, 1]
        ));
        assert!(ip_in(&[10, 0, 0, 0], &[255, 0, 0, 0], &[10, 1, 2, 3]));
        assert!(!ip_in(&[10, 0, 0, 0], &[255, 0, 0, 0], &[11, 1, 2, 3]));
        assert!(!ip_in(&[10, 0, 0, 0], &[255, 0, 0, 0], &[0; 16]));
    }

    #[test]
    fn host_names_match_as_in_go() {
        let parts = |h: &'static str| h.split('.').collect::<Vec<_>>();
        assert!(wildcard_match("*.example.com", &parts("a.example.com")));
        assert!(!wildcard_match("*.example.com", &parts("example.com")));
        assert!(!wildcard_match("*.example.com", &parts("a.b.example.com")));
        assert!(valid_hostname("under_score.example.com", false));
        assert!(!valid_hostname("e*.example.com", true));
        assert!(!valid_hostname("*", true));
        assert!(valid_hostname("ext.example.com.", false));
        assert!(!valid_hostname("ext.example.com.", true));
    }
}
