//! Go's proxy choice: `golang.org/x/net/http/httpproxy` (what `net/http`'s
//! `ProxyFromEnvironment` runs), and apimachinery's `NewProxierWithNoProxyCIDR` around it,
//! which is the proxy function of Cluster API's runtime client (its transport gets
//! `utilnet.SetTransportDefaults`).
//!
//! A [`ProxyConfig`] holds Go's four settings (`HTTP_PROXY`, `HTTPS_PROXY`, `NO_PROXY`, CGI
//! mode), from the environment ([`ProxyConfig::from_env`]) or written out. Its
//! [`ProxyFunc`] answers, for a request's scheme, host and port, which proxy to use:
//!
//! * `https` requests use `HTTPS_PROXY`, `http` requests `HTTP_PROXY` (an error in CGI mode,
//!   where a client could have set it), other schemes none;
//! * `localhost` and loopback addresses (`127.0.0.0/8`, `::1`, `::ffff:127.0.0.1`) never;
//! * nor a host `NO_PROXY` covers: `*`; a domain (`example.com` covers it and its
//!   subdomains, `.example.com` and `*.example.com` only subdomains); an IP address; a CIDR
//!   range; each optionally with a port (`example.com:8443`, `10.0.0.1:443`,
//!   `[2001:db8::1]:443`). Entries are trimmed and compared case-insensitively; a domain
//!   entry never covers an IP address, and an entry Go cannot read is passed over.
//! * A proxy value without a scheme (`proxy:3128`) gets `http://`; a value that is not a URL
//!   even so is not used: Go's proxy function then answers "no proxy" ([`parse_proxy`] says
//!   why, in Go's words).
//!
//! Users meet only [`ProxyConfig`], which the runtime client's builder takes
//! (`client::ProxyConfig`); the proxy function is the client's own.
//!
//! Where this may differ from Go, outside what the oracle test covers: a non-ASCII host or
//! `NO_PROXY` entry is converted with the `idna` crate's UTS 46 (Go: `x/net/idna`'s `Lookup`
//! profile), which agrees on ordinary names and may not on invalid ones; an environment value
//! that is not UTF-8 is read as unset. The proxy URL is written as Go's `URL.String()` writes
//! the URL it parsed.

use std::fmt;
use std::net::Ipv6Addr;

use super::netip::{self, Addr};
use super::strconv::quote;
use super::url::{self, UrlError};

/// Go's `httpproxy.Config`: the proxy settings, as the environment gives them.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ProxyConfig {
    /// The proxy of `http` requests (`HTTP_PROXY`); empty for none.
    pub http_proxy: String,
    /// The proxy of `https` requests (`HTTPS_PROXY`); empty for none.
    pub https_proxy: String,
    /// The hosts reached directly (`NO_PROXY`): comma-separated entries.
    pub no_proxy: String,
    /// Whether the process is a CGI handler (`REQUEST_METHOD` is set): then `http_proxy` is
    /// refused, since the request's client could have set it.
    pub cgi: bool,
}

impl ProxyConfig {
    /// The settings of the process environment (`httpproxy.FromEnvironment`), read now.
    pub fn from_env() -> Self {
        Self::from_env_with(|name| std::env::var(name).ok())
    }

    /// The settings `lookup` gives (`lookup(name)` is the variable's value, `None` when
    /// unset): `HTTP_PROXY` or else `http_proxy`, `HTTPS_PROXY` or else `https_proxy`,
    /// `NO_PROXY` or else `no_proxy` (an empty value counts as unset), and CGI mode when
    /// `REQUEST_METHOD` is not empty.
    pub fn from_env_with(mut lookup: impl FnMut(&str) -> Option<String>) -> Self {
        let mut first = |names: &[&str]| {
            names
                .iter()
                .find_map(|name| lookup(name).filter(|v| !v.is_empty()))
                .unwrap_or_default()
        };
        ProxyConfig {
            http_proxy: first(&["HTTP_PROXY", "http_proxy"]),
            https_proxy: first(&["HTTPS_PROXY", "https_proxy"]),
            no_proxy: first(&["NO_PROXY", "no_proxy"]),
            cgi: !first(&["REQUEST_METHOD"]).is_empty(),
        }
    }

    /// The proxy function (`Config.ProxyFunc`): the settings read once, for many requests.
    pub(crate) fn proxy_func(&self) -> ProxyFunc {
        let (ip_matchers, domain_matchers) = no_proxy_matchers(&self.no_proxy);
        ProxyFunc {
            http: parse_proxy(&self.http_proxy).ok().flatten(),
            https: parse_proxy(&self.https_proxy).ok().flatten(),
            cgi: self.cgi,
            ip_matchers,
            domain_matchers,
            no_proxy_cidrs: Vec::new(),
        }
    }

    /// The proxy function of Cluster API's runtime client: apimachinery's
    /// `NewProxierWithNoProxyCIDR` around [`proxy_func`](Self::proxy_func). Before Go's rules,
    /// a host written as an IP address in a CIDR range of `NO_PROXY` is reached directly, both
    /// read by Kubernetes' lenient parsers (an IPv4 part may have leading zeros: `010.0.0.0/8`
    /// is `10.0.0.0/8`; an entry is not trimmed).
    pub(crate) fn proxy_func_with_no_proxy_cidr(&self) -> ProxyFunc {
        ProxyFunc {
            no_proxy_cidrs: self
                .no_proxy
                .split(',')
                .filter_map(parse_cidr_sloppy)
                .collect(),
            ..self.proxy_func()
        }
    }
}

/// The proxy to use for a request, from a [`ProxyConfig`] read once.
#[derive(Clone, Debug)]
pub struct ProxyFunc {
    http: Option<ProxyUrl>,
    https: Option<ProxyUrl>,
    cgi: bool,
    ip_matchers: Vec<Matcher>,
    domain_matchers: Vec<Matcher>,
    /// apimachinery's CIDR ranges, checked first (empty for Go's function alone).
    no_proxy_cidrs: Vec<IpNet>,
}

impl ProxyFunc {
    /// The proxy of a request to `scheme://hostname:port` (Go's `URL.Scheme`, lower case;
    /// `URL.Hostname()`, without brackets; `URL.Port()`, empty for the scheme's default), or
    /// `None` to connect directly.
    pub fn proxy_for(
        &self,
        scheme: &str,
        hostname: &str,
        port: &str,
    ) -> Result<Option<ProxyUrl>, ProxyError> {
        if !self.no_proxy_cidrs.is_empty()
            && let Some(ip) = parse_ip_sloppy(hostname)
            && self.no_proxy_cidrs.iter().any(|net| net.contains(&ip))
        {
            return Ok(None);
        }
        let proxy = match scheme {
            "https" => self.https.as_ref(),
            "http" if self.http.is_some() && self.cgi => return Err(ProxyError::HttpProxyInCgi),
            "http" => self.http.as_ref(),
            _ => None,
        };
        let Some(proxy) = proxy else {
            return Ok(None);
        };
        if !self.use_proxy(&canonical_addr(scheme, hostname, port)) {
            return Ok(None);
        }
        Ok(Some(proxy.clone()))
    }

    /// Go's `useProxy`: whether `addr` (`host:port`) is reached through the proxy.
    fn use_proxy(&self, addr: &str) -> bool {
        if addr.is_empty() {
            return true;
        }
        let Some((host, port)) = split_host_port(addr) else {
            return false;
        };
        if host == "localhost" {
            return false;
        }
        let ip = netip::parse_addr(host).ok().map(|addr| as_slice(&addr));
        if ip.as_deref().is_some_and(is_loopback) {
            return false;
        }
        let host = go_lower(go_trim_space(host));
        if let Some(ip) = &ip
            && self
                .ip_matchers
                .iter()
                .any(|m| m.matches(&host, port, Some(ip)))
        {
            return false;
        }
        !self
            .domain_matchers
            .iter()
            .any(|m| m.matches(&host, port, ip.as_deref()))
    }
}

/// A proxy's URL, as Go reads it from a setting and writes it (`URL.String()`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ProxyUrl {
    url: String,
    scheme_len: usize,
}

impl ProxyUrl {
    /// The URL.
    pub fn as_str(&self) -> &str {
        &self.url
    }

    /// Its scheme, lower case (`http`, `https`, `socks5`, ...).
    pub fn scheme(&self) -> &str {
        &self.url[..self.scheme_len]
    }
}

impl fmt::Display for ProxyUrl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.url)
    }
}

/// Why there is no proxy answer.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ProxyError {
    /// An `http` request in CGI mode with an `HTTP_PROXY` set.
    #[error("refusing to use HTTP_PROXY value in CGI environment; see golang.org/s/cgihttpproxy")]
    HttpProxyInCgi,
    /// A proxy setting that is not a URL, even with `http://` before it.
    #[error("invalid proxy address {}", quote(.value))]
    InvalidAddress {
        /// The setting.
        value: String,
        /// Why Go's `url.Parse` refused it.
        #[source]
        source: UrlError,
    },
}

/// Go's `parseProxy`: the proxy a setting names, `None` for an empty one. A value without a
/// scheme or host is read again with `http://` before it; when that fails too, the first
/// reading decides (a URL without a host is kept, an unparsable value is an error). The
/// proxy function does not use a setting that fails here (Go says "no proxy" then).
pub fn parse_proxy(value: &str) -> Result<Option<ProxyUrl>, ProxyError> {
    if value.is_empty() {
        return Ok(None);
    }
    let proxy = |parsed: url::RequestUri| ProxyUrl {
        url: parsed.to_string(),
        scheme_len: parsed.scheme().len(),
    };
    let first = url::parse(value);
    if first
        .as_ref()
        .map_or(true, |u| u.scheme().is_empty() || u.host().is_empty())
        && let Ok(prefixed) = url::parse(&format!("http://{value}"))
    {
        return Ok(Some(proxy(prefixed)));
    }
    match first {
        Err(source) => Err(ProxyError::InvalidAddress {
            value: value.to_string(),
            source,
        }),
        Ok(parsed) => Ok(Some(proxy(parsed))),
    }
}

/// A `NO_PROXY` rule.
#[derive(Clone, Debug)]
enum Matcher {
    /// `*`.
    All,
    /// An address range.
    Cidr(IpNet),
    /// An address (16 bytes), with a port or not (empty).
    Ip { ip: [u8; 16], port: String },
    /// A domain: `host` starts with `.`; `match_host` also covers the name without it.
    Domain {
        host: String,
        port: String,
        match_host: bool,
    },
}

impl Matcher {
    fn matches(&self, host: &str, port: &str, ip: Option<&[u8]>) -> bool {
        match self {
            Matcher::All => true,
            Matcher::Cidr(net) => ip.is_some_and(|ip| net.contains(ip)),
            Matcher::Ip { ip: own, port: p } => {
                ip.is_some_and(|ip| as16(ip) == Some(*own)) && (p.is_empty() || p == port)
            }
            Matcher::Domain {
                host: suffix,
                port: p,
                match_host,
            } => {
                ip.is_none()
                    && (host.ends_with(suffix.as_str()) || *match_host && host == &suffix[1..])
                    && (p.is_empty() || p == port)
            }
        }
    }
}

/// Go's reading of `NO_PROXY` (`config.init`): the IP matchers and the domain matchers.
fn no_proxy_matchers(no_proxy: &str) -> (Vec<Matcher>, Vec<Matcher>) {
    let mut ips = Vec::new();
    let mut domains = Vec::new();
    for entry in no_proxy.split(',') {
        let entry = go_lower(go_trim_space(entry));
        if entry.is_empty() {
            continue;
        }
        if entry == "*" {
            return (vec![Matcher::All], vec![Matcher::All]);
        }
        if let Some(net) = parse_cidr(&entry) {
            ips.push(Matcher::Cidr(net));
            continue;
        }
        let (host, port) = match split_host_port(&entry) {
            Some(("", _)) => continue,
            Some((host, port)) => {
                let host = match host.strip_prefix('[').and_then(|h| h.strip_suffix(']')) {
                    Some(inner) => inner,
                    None => host,
                };
                (host, port)
            }
            None => (entry.as_str(), ""),
        };
        if let Some(ip) = parse_ip(host) {
            ips.push(Matcher::Ip {
                ip,
                port: port.to_string(),
            });
            continue;
        }
        if host.is_empty() {
            continue;
        }
        let host = host
            .strip_prefix('*')
            .filter(|h| h.starts_with('.'))
            .unwrap_or(host);
        let match_host = !host.starts_with('.');
        let host = if match_host {
            format!(".{host}")
        } else {
            host.to_string()
        };
        let host = idna_ascii(&host).unwrap_or(host);
        domains.push(Matcher::Domain {
            host,
            port: port.to_string(),
            match_host,
        });
    }
    (ips, domains)
}

/// Go's `canonicalAddr`: the host (as ASCII) and the port, the scheme's default when none is
/// written.
fn canonical_addr(scheme: &str, hostname: &str, port: &str) -> String {
    let host = idna_ascii(hostname).unwrap_or_else(|| hostname.to_string());
    let port = match (port, scheme) {
        ("", "http") => "80",
        ("", "https") => "443",
        ("", "socks5") => "1080",
        (port, _) => port,
    };
    join_host_port(&host, port)
}

/// Go's `idnaASCII`: ASCII text unchanged, other text through IDNA's `ToASCII` (`None` when
/// that fails).
fn idna_ascii(s: &str) -> Option<String> {
    if s.is_ascii() {
        return Some(s.to_string());
    }
    idna::uts46::Uts46::new()
        .to_ascii(
            s.as_bytes(),
            idna::uts46::AsciiDenyList::STD3,
            idna::uts46::Hyphens::Check,
            idna::uts46::DnsLength::Ignore,
        )
        .ok()
        .map(|ascii| ascii.into_owned())
}

/// Go's `strings.TrimSpace` (Unicode white space, as `str::trim`).
fn go_trim_space(s: &str) -> &str {
    s.trim()
}

/// Go's `strings.ToLower`: each character's simple lower case (`İ` is `i`, where Rust's full
/// mapping writes two characters).
fn go_lower(s: &str) -> String {
    if s.is_ascii() {
        return s.to_ascii_lowercase();
    }
    s.chars()
        .map(|c| match c {
            '\u{130}' => 'i',
            c => c.to_lowercase().next().unwrap_or(c),
        })
        .collect()
}

/// Go's `net.JoinHostPort`.
fn join_host_port(host: &str, port: &str) -> String {
    if host.contains(':') {
        format!("[{host}]:{port}")
    } else {
        format!("{host}:{port}")
    }
}

/// Go's `net.SplitHostPort` (`None` where Go returns an error).
fn split_host_port(hostport: &str) -> Option<(&str, &str)> {
    let colon = hostport.rfind(':')?;
    let (host, from_open, from_close) = if hostport.starts_with('[') {
        let end = hostport.find(']')?;
        if end + 1 != colon {
            return None;
        }
        (&hostport[1..end], 1, end + 1)
    } else {
        let host = &hostport[..colon];
        if host.contains(':') {
            return None;
        }
        (host, 0, 0)
    };
    if hostport[from_open..].contains('[') || hostport[from_close..].contains(']') {
        return None;
    }
    Some((host, &hostport[colon + 1..]))
}

/// `netip.Addr.AsSlice`: 4 bytes for IPv4, 16 for IPv6 (the zone dropped).
fn as_slice(addr: &Addr) -> Vec<u8> {
    match addr {
        Addr::V4(a) => a.octets().to_vec(),
        Addr::V6(a, _) => a.octets().to_vec(),
    }
}

const V4_IN_V6_PREFIX: [u8; 12] = [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff];

/// `net.IP.To4`.
fn to4(ip: &[u8]) -> Option<&[u8]> {
    match ip.len() {
        4 => Some(ip),
        16 if ip[..12] == V4_IN_V6_PREFIX => Some(&ip[12..]),
        _ => None,
    }
}

/// The 16-byte form of a `net.IP`.
fn as16(ip: &[u8]) -> Option<[u8; 16]> {
    match ip.len() {
        4 => {
            let mut out = [0; 16];
            out[..12].copy_from_slice(&V4_IN_V6_PREFIX);
            out[12..].copy_from_slice(ip);
            Some(out)
        }
        16 => ip.try_into().ok(),
        _ => None,
    }
}

/// `net.IP.IsLoopback`.
fn is_loopback(ip: &[u8]) -> bool {
    match to4(ip) {
        Some(v4) => v4[0] == 127,
        None => as16(ip) == Some(Ipv6Addr::LOCALHOST.octets()),
    }
}

/// `net.IPNet`: a network number and its mask (4 or 16 bytes each, as Go builds them).
#[derive(Clone, Debug)]
struct IpNet {
    ip: Vec<u8>,
    mask: Vec<u8>,
}

impl IpNet {
    /// `net.CIDRMask(ones, bits)` over `ip` (`ParseCIDR`'s network), `None` where Go's
    /// `IP.Mask` gives nil.
    fn new(ip: &[u8], ones: usize, bits: usize) -> Option<IpNet> {
        let mask: Vec<u8> = (0..bits / 8)
            .map(|i| {
                let set = ones.saturating_sub(i * 8).min(8);
                (0xff_u16 << (8 - set)) as u8
            })
            .collect();
        // `IP.Mask`.
        let mut ip = ip;
        let mut m = mask.as_slice();
        if m.len() == 16 && ip.len() == 4 && m[..12].iter().all(|&b| b == 0xff) {
            m = &m[12..];
        }
        if m.len() == 4 && ip.len() == 16 && ip[..12] == V4_IN_V6_PREFIX {
            ip = &ip[12..];
        }
        if ip.len() != m.len() {
            return None;
        }
        let ip = ip.iter().zip(m).map(|(a, b)| a & b).collect();
        Some(IpNet { ip, mask })
    }

    /// `IPNet.Contains`.
    fn contains(&self, ip: &[u8]) -> bool {
        // `networkNumberAndMask`.
        let nn = match to4(&self.ip) {
            Some(v4) => v4,
            None if self.ip.len() == 16 => &self.ip[..],
            None => return false,
        };
        let m = match self.mask.len() {
            4 if nn.len() == 4 => &self.mask[..],
            4 => return false,
            16 if nn.len() == 4 => &self.mask[12..],
            16 => &self.mask[..],
            _ => return false,
        };
        let ip = to4(ip).unwrap_or(ip);
        ip.len() == nn.len() && (0..ip.len()).all(|i| nn[i] & m[i] == ip[i] & m[i])
    }
}

/// Go's `net.ParseIP` (16 bytes; no zone).
fn parse_ip(s: &str) -> Option<[u8; 16]> {
    match netip::parse_addr(s).ok()? {
        Addr::V6(_, zone) if !zone.is_empty() => None,
        addr => as16(&as_slice(&addr)),
    }
}

/// Go's `net.ParseCIDR` (the network).
fn parse_cidr(s: &str) -> Option<IpNet> {
    let (addr, bits) = s.split_once('/')?;
    let (ip, len) = match netip::parse_addr(addr).ok()? {
        Addr::V6(_, zone) if !zone.is_empty() => return None,
        addr @ Addr::V4(_) => (as_slice(&addr), 32),
        addr => (as_slice(&addr), 128),
    };
    let ones = whole_decimal(bits).filter(|&n| n <= len)?;
    IpNet::new(&as16(&ip)?, ones, len)
}

/// `dtoi` over all of `s` (Go's decimal reader, which stops at 0xFFFFFF).
fn whole_decimal(s: &str) -> Option<usize> {
    let (n, used) = dtoi(s)?;
    (used == s.len()).then_some(n)
}

const BIG: usize = 0xFF_FFFF;

/// Go's `dtoi`: the decimal number at the start of `s` and the bytes it takes.
fn dtoi(s: &str) -> Option<(usize, usize)> {
    let mut n = 0;
    let mut i = 0;
    for b in s.bytes().take_while(u8::is_ascii_digit) {
        n = n * 10 + usize::from(b - b'0');
        if n >= BIG {
            return None;
        }
        i += 1;
    }
    (i > 0).then_some((n, i))
}

/// Go's `xtoi`: the hexadecimal number at the start of `s` and the bytes it takes.
fn xtoi(s: &str) -> Option<(usize, usize)> {
    let mut n = 0;
    let mut i = 0;
    for b in s.bytes() {
        let Some(d) = char::from(b).to_digit(16) else {
            break;
        };
        n = n * 16 + d as usize;
        if n >= BIG {
            return None;
        }
        i += 1;
    }
    (i > 0).then_some((n, i))
}

/// `k8s.io/utils/net.ParseIPSloppy` (Go's parser before Go 1.17: IPv4 parts may have
/// leading zeros; no zone), 16 bytes.
fn parse_ip_sloppy(s: &str) -> Option<[u8; 16]> {
    match s.bytes().find(|&b| b == b'.' || b == b':')? {
        b'.' => as16(&parse_ipv4_sloppy(s)?),
        _ => parse_ipv6_sloppy(s),
    }
}

fn parse_ipv4_sloppy(mut s: &str) -> Option<[u8; 4]> {
    let mut out = [0; 4];
    for (i, part) in out.iter_mut().enumerate() {
        if i > 0 {
            s = s.strip_prefix('.')?;
        }
        let (n, used) = dtoi(s)?;
        *part = u8::try_from(n).ok()?;
        s = &s[used..];
    }
    s.is_empty().then_some(out)
}

fn parse_ipv6_sloppy(mut s: &str) -> Option<[u8; 16]> {
    let mut ip = [0_u8; 16];
    let mut ellipsis: Option<usize> = None;
    if let Some(rest) = s.strip_prefix("::") {
        ellipsis = Some(0);
        s = rest;
        if s.is_empty() {
            return Some(ip);
        }
    }
    let mut i = 0;
    while i < 16 {
        let (n, used) = xtoi(s).filter(|&(n, _)| n <= 0xffff)?;
        if s.as_bytes().get(used) == Some(&b'.') {
            if ellipsis.is_none() && i != 12 || i + 4 > 16 {
                return None;
            }
            ip[i..i + 4].copy_from_slice(&parse_ipv4_sloppy(s)?);
            s = "";
            i += 4;
            break;
        }
        ip[i] = (n >> 8) as u8;
        ip[i + 1] = n as u8;
        i += 2;
        s = &s[used..];
        if s.is_empty() {
            break;
        }
        if !s.starts_with(':') || s.len() == 1 {
            return None;
        }
        s = &s[1..];
        if s.starts_with(':') {
            if ellipsis.is_some() {
                return None;
            }
            ellipsis = Some(i);
            s = &s[1..];
            if s.is_empty() {
                break;
            }
        }
    }
    if !s.is_empty() {
        return None;
    }
    match ellipsis {
        Some(at) if i < 16 => {
            let n = 16 - i;
            ip.copy_within(at..i, at + n);
            ip[at..at + n].fill(0);
        }
        None if i < 16 => return None,
        Some(_) => return None,
        None => {}
    }
    Some(ip)
}

/// `k8s.io/utils/net.ParseCIDRSloppy` (the network).
fn parse_cidr_sloppy(s: &str) -> Option<IpNet> {
    let (addr, bits) = s.split_once('/')?;
    let (ip, len) = match parse_ipv4_sloppy(addr) {
        Some(v4) => (as16(&v4)?, 32),
        None => (parse_ipv6_sloppy(addr)?, 128),
    };
    let ones = whole_decimal(bits).filter(|&n| n <= len)?;
    IpNet::new(&ip, ones, len)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_request_goes_through_the_proxy_unless_no_proxy_or_loopback_covers_it() {
        let config = ProxyConfig {
            https_proxy: "proxy.internal:3128".into(),
            no_proxy: ".svc, 10.0.0.0/8".into(),
            ..ProxyConfig::default()
        };
        let proxy = config.proxy_func();
        let via = |host: &str| {
            proxy
                .proxy_for("https", host, "")
                .unwrap()
                .map(|p| p.to_string())
        };
        assert_eq!(
            via("extension.example").as_deref(),
            Some("http://proxy.internal:3128")
        );
        assert_eq!(via("127.0.0.1"), None); // loopback
        assert_eq!(via("webhook.default.svc"), None); // NO_PROXY suffix
        assert_eq!(via("10.1.2.3"), None); // NO_PROXY range
    }

    #[test]
    fn environment_names_upper_case_first_and_empty_is_unset() {
        let env = [
            ("HTTPS_PROXY", ""),
            ("https_proxy", "lower:1"),
            ("HTTP_PROXY", "upper:2"),
            ("http_proxy", "lower:2"),
            ("no_proxy", "a"),
            ("REQUEST_METHOD", "GET"),
        ];
        let config = ProxyConfig::from_env_with(|name| {
            env.iter()
                .find(|(n, _)| *n == name)
                .map(|(_, v)| v.to_string())
        });
        assert_eq!(
            config,
            ProxyConfig {
                http_proxy: "upper:2".into(),
                https_proxy: "lower:1".into(),
                no_proxy: "a".into(),
                cgi: true,
            }
        );
    }

    #[test]
    fn an_unparsable_proxy_is_an_error_in_gos_words_and_no_proxy() {
        let err = parse_proxy("%zz").unwrap_err();
        assert_eq!(
            crate::go::errors::chain(&err).to_string(),
            "invalid proxy address \"%zz\": parse \"%zz\": invalid URL escape \"%zz\""
        );
        let config = ProxyConfig {
            https_proxy: "%zz".into(),
            ..ProxyConfig::default()
        };
        assert_eq!(
            config.proxy_func().proxy_for("https", "a.example", ""),
            Ok(None)
        );
    }

    #[test]
    fn sloppy_ipv6_reads_what_go_reads() {
        assert_eq!(parse_ipv6_sloppy("::1"), Some(Ipv6Addr::LOCALHOST.octets()));
        let mapped = "::ffff:1.2.3.4".parse::<Ipv6Addr>().unwrap().octets();
        assert_eq!(parse_ipv6_sloppy("::ffff:1.2.3.4"), Some(mapped));
        let full = "2001:db8:0:0:0:0:0:1".parse::<Ipv6Addr>().unwrap().octets();
        assert_eq!(parse_ipv6_sloppy("2001:db8::1"), Some(full));
        assert_eq!(parse_ipv6_sloppy("2001:db8::1::"), None);
        assert_eq!(parse_ipv4_sloppy("010.0.0.1"), Some([10, 0, 0, 1]));
    }
}
