//! The address policy of web-fetch (spec 06, "URL policy (SSRF)"): which hosts and addresses a
//! hop may connect to.
//!
//! Every hop is checked before any connection: its host against `web.deny` and `web.allow`
//! host patterns, and every address it resolves to (or the IP literal it names) against the
//! CIDR ranges of both lists and the built-in categories. An IPv6 address that carries an
//! IPv4 address (IPv4-mapped, IPv4-compatible, NAT64, 6to4) is judged as that IPv4 address.
//! The caller then connects only to the addresses returned here.

use std::fmt;
use std::net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr};
use std::sync::Arc;

use crate::workspace::config::WebConfig;
use crate::workspace::trust::Untrusted;

/// Why an address is special (spec 06). `None` from [`classify`] means a public address.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Category {
    /// Cloud metadata services (169.254.169.254 and fd00:ec2::254 are also link-local or
    /// unique local; 100.100.100.200 is in the shared address space): always denied.
    Metadata,
    /// 169.254.0.0/16, fe80::/10: always denied.
    LinkLocal,
    /// 127.0.0.0/8, ::1.
    Loopback,
    /// 10/8, 172.16/12, 192.168/16.
    Private,
    /// 100.64.0.0/10 (carrier-grade NAT).
    SharedAddress,
    /// 0.0.0.0/8 and `::`.
    Unspecified,
    /// 224.0.0.0/4, ff00::/8.
    Multicast,
    /// 198.18.0.0/15.
    Benchmarking,
    /// fc00::/7 (and the deprecated site-local fec0::/10).
    UniqueLocal,
    /// Documentation, protocol-assignment, discard-only and future-use ranges, broadcast.
    Reserved,
}

impl Category {
    /// The name used in refusals: `loopback`, `link-local`, ...
    pub fn name(self) -> &'static str {
        match self {
            Category::Metadata => "cloud metadata",
            Category::LinkLocal => "link-local",
            Category::Loopback => "loopback",
            Category::Private => "private",
            Category::SharedAddress => "shared address space",
            Category::Unspecified => "unspecified",
            Category::Multicast => "multicast",
            Category::Benchmarking => "benchmarking",
            Category::UniqueLocal => "unique local",
            Category::Reserved => "reserved",
        }
    }

    /// Link-local and metadata addresses are denied even with `web.allow_private = true`;
    /// only `web.allow` lets them through.
    pub fn always_denied(self) -> bool {
        matches!(self, Category::Metadata | Category::LinkLocal)
    }
}

/// The IPv4 address an IPv6 address carries, if it is one of the forms that reach an IPv4
/// host: IPv4-mapped (`::ffff:a.b.c.d`), IPv4-compatible (`::a.b.c.d`, deprecated), NAT64
/// (`64:ff9b::/96`, local-use `64:ff9b:1::/48`) and 6to4 (`2002:AABB:CCDD::/48`).
pub fn embedded_ipv4(v6: Ipv6Addr) -> Option<Ipv4Addr> {
    let s = v6.segments();
    let o = v6.octets();
    let last32 = Ipv4Addr::new(o[12], o[13], o[14], o[15]);
    if let Some(v4) = v6.to_ipv4_mapped() {
        return Some(v4);
    }
    if s[..6] == [0, 0, 0, 0, 0, 0] && u32::from(last32) > 1 {
        return Some(last32);
    }
    if s[..6] == [0x64, 0xff9b, 0, 0, 0, 0] || s[..3] == [0x64, 0xff9b, 1] {
        return Some(last32);
    }
    if s[0] == 0x2002 {
        return Some(Ipv4Addr::new(o[2], o[3], o[4], o[5]));
    }
    None
}

fn in_v4(ip: Ipv4Addr, net: [u8; 4], prefix: u32) -> bool {
    let mask = if prefix == 0 {
        0
    } else {
        u32::MAX << (32 - prefix)
    };
    u32::from(ip) & mask == u32::from(Ipv4Addr::from(net)) & mask
}

fn in_v6(ip: Ipv6Addr, net: Ipv6Addr, prefix: u32) -> bool {
    let mask = if prefix == 0 {
        0
    } else {
        u128::MAX << (128 - prefix)
    };
    u128::from(ip) & mask == u128::from(net) & mask
}

fn classify_v4(ip: Ipv4Addr) -> Option<Category> {
    const TABLE: &[([u8; 4], u32, Category)] = &[
        ([169, 254, 169, 254], 32, Category::Metadata),
        ([100, 100, 100, 200], 32, Category::Metadata),
        ([169, 254, 0, 0], 16, Category::LinkLocal),
        ([127, 0, 0, 0], 8, Category::Loopback),
        ([10, 0, 0, 0], 8, Category::Private),
        ([172, 16, 0, 0], 12, Category::Private),
        ([192, 168, 0, 0], 16, Category::Private),
        ([100, 64, 0, 0], 10, Category::SharedAddress),
        ([0, 0, 0, 0], 8, Category::Unspecified),
        ([224, 0, 0, 0], 4, Category::Multicast),
        ([198, 18, 0, 0], 15, Category::Benchmarking),
        ([192, 0, 0, 0], 24, Category::Reserved),
        ([192, 0, 2, 0], 24, Category::Reserved),
        ([192, 88, 99, 0], 24, Category::Reserved),
        ([198, 51, 100, 0], 24, Category::Reserved),
        ([203, 0, 113, 0], 24, Category::Reserved),
        ([240, 0, 0, 0], 4, Category::Reserved),
    ];
    TABLE
        .iter()
        .find(|(net, prefix, _)| in_v4(ip, *net, *prefix))
        .map(|(_, _, c)| *c)
}

fn classify_v6(ip: Ipv6Addr) -> Option<Category> {
    const fn v6(s: [u16; 8]) -> Ipv6Addr {
        Ipv6Addr::new(s[0], s[1], s[2], s[3], s[4], s[5], s[6], s[7])
    }
    const TABLE: &[(Ipv6Addr, u32, Category)] = &[
        (
            v6([0xfd00, 0xec2, 0, 0, 0, 0, 0, 0x254]),
            128,
            Category::Metadata,
        ),
        (v6([0, 0, 0, 0, 0, 0, 0, 1]), 128, Category::Loopback),
        (v6([0, 0, 0, 0, 0, 0, 0, 0]), 128, Category::Unspecified),
        (v6([0xfe80, 0, 0, 0, 0, 0, 0, 0]), 10, Category::LinkLocal),
        (v6([0xfc00, 0, 0, 0, 0, 0, 0, 0]), 7, Category::UniqueLocal),
        (v6([0xfec0, 0, 0, 0, 0, 0, 0, 0]), 10, Category::UniqueLocal),
        (v6([0xff00, 0, 0, 0, 0, 0, 0, 0]), 8, Category::Multicast),
        (v6([0x100, 0, 0, 0, 0, 0, 0, 0]), 64, Category::Reserved),
        (v6([0x2001, 0, 0, 0, 0, 0, 0, 0]), 23, Category::Reserved),
        (
            v6([0x2001, 0xdb8, 0, 0, 0, 0, 0, 0]),
            32,
            Category::Reserved,
        ),
        (v6([0x3fff, 0, 0, 0, 0, 0, 0, 0]), 20, Category::Reserved),
        (v6([0x5f00, 0, 0, 0, 0, 0, 0, 0]), 16, Category::Reserved),
    ];
    TABLE
        .iter()
        .find(|(net, prefix, _)| in_v6(ip, *net, *prefix))
        .map(|(_, _, c)| *c)
}

/// The category of `ip`, `None` for a public address. An IPv6 address carrying an IPv4
/// address ([`embedded_ipv4`]) is classified as that IPv4 address.
pub fn classify(ip: IpAddr) -> Option<Category> {
    match ip {
        IpAddr::V4(v4) => classify_v4(v4),
        IpAddr::V6(v6) => match embedded_ipv4(v6) {
            Some(v4) => classify_v4(v4),
            None => classify_v6(v6),
        },
    }
}

/// One `web.allow` / `web.deny` entry.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Rule {
    /// `example.com`: that host exactly (ASCII, lower case, no trailing dot).
    Host(String),
    /// `*.example.com`: any host under `example.com` (not `example.com` itself).
    Subdomains(String),
    /// `10.0.0.0/8`, `127.0.0.1`, `::1`, `fd00::/8`: a CIDR range (a bare address is /32 or
    /// /128).
    Range(IpAddr, u32),
}

impl Rule {
    /// Parses one entry; `key` (`web.allow`) names the list in the error.
    pub fn parse(entry: &str, key: &str) -> Result<Rule, String> {
        let bad = |why: &str| {
            format!(
                "{key} entry `{entry}` {why}; write a host (example.com), a host pattern \
                 (*.example.com) or a CIDR range (10.0.0.0/8, fd00::/8)"
            )
        };
        let e = entry.trim();
        if e.is_empty() {
            return Err(bad("is empty"));
        }
        let (addr_part, prefix) = match e.split_once('/') {
            Some((a, p)) => (a, Some(p)),
            None => (e, None),
        };
        let addr_part = addr_part
            .strip_prefix('[')
            .and_then(|a| a.strip_suffix(']'))
            .unwrap_or(addr_part);
        if let Ok(ip) = addr_part.parse::<IpAddr>() {
            let max = if ip.is_ipv4() { 32 } else { 128 };
            let prefix = match prefix {
                None => max,
                Some(p) => match p.parse::<u32>() {
                    Ok(n) if n <= max => n,
                    _ => return Err(bad(&format!("has a prefix length that is not 0..={max}"))),
                },
            };
            return Ok(Rule::Range(ip, prefix));
        }
        if prefix.is_some() {
            return Err(bad("is not a CIDR range"));
        }
        let (wild, name) = match e.strip_prefix("*.") {
            Some(rest) => (true, rest),
            None => (false, e),
        };
        if name.contains('*') {
            return Err(bad("has a `*` that is not a leading `*.`"));
        }
        let host = match url::Host::parse(name) {
            Ok(url::Host::Domain(d)) => normalize_host(&d),
            _ => return Err(bad("is not a host name")),
        };
        Ok(if wild {
            Rule::Subdomains(host)
        } else {
            Rule::Host(host)
        })
    }

    /// Whether this rule names `host`: a name (normalised here) or an IP address (spec 10
    /// rules' `hosts`).
    pub fn matches(&self, host: &str) -> bool {
        let host = host
            .strip_prefix('[')
            .and_then(|h| h.strip_suffix(']'))
            .unwrap_or(host);
        match host.parse::<IpAddr>() {
            Ok(ip) => self.matches_ip(ip),
            Err(_) => self.matches_host(&normalize_host(host)),
        }
    }

    /// Whether this rule names `host` (already normalised by [`normalize_host`]).
    fn matches_host(&self, host: &str) -> bool {
        match self {
            Rule::Host(h) => h == host,
            Rule::Subdomains(d) => host
                .strip_suffix(d.as_str())
                .is_some_and(|head| head.len() > 1 && head.ends_with('.')),
            Rule::Range(..) => false,
        }
    }

    /// Whether this rule's range holds `ip` or the IPv4 address `ip` carries.
    fn matches_ip(&self, ip: IpAddr) -> bool {
        let Rule::Range(net, prefix) = *self else {
            return false;
        };
        let holds = |ip: IpAddr| match (ip, net) {
            (IpAddr::V4(a), IpAddr::V4(n)) => in_v4(a, n.octets(), prefix),
            (IpAddr::V6(a), IpAddr::V6(n)) => in_v6(a, n, prefix),
            _ => false,
        };
        holds(ip)
            || match ip {
                IpAddr::V6(v6) => embedded_ipv4(v6).is_some_and(|v4| holds(IpAddr::V4(v4))),
                IpAddr::V4(_) => false,
            }
    }
}

impl fmt::Display for Rule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Rule::Host(h) => f.write_str(h),
            Rule::Subdomains(d) => write!(f, "*.{d}"),
            Rule::Range(ip, p) => write!(f, "{ip}/{p}"),
        }
    }
}

/// A host as rules compare it: lower case, without a trailing dot.
pub fn normalize_host(host: &str) -> String {
    host.trim_end_matches('.').to_ascii_lowercase()
}

/// Whether `host` names this machine by name (RFC 6761: `localhost` and `*.localhost`):
/// such names are never handed to the resolver, they are loopback.
pub fn is_localhost_name(host: &str) -> bool {
    let h = normalize_host(host);
    h == "localhost" || h.ends_with(".localhost")
}

/// The address policy built from config `web.allow`, `web.deny`, `web.allow_private`.
#[derive(Debug, Clone, Default)]
pub struct WebPolicy {
    /// Hosts and ranges let through despite the built-in categories.
    pub allow: Vec<Rule>,
    /// Hosts and ranges refused; wins over everything.
    pub deny: Vec<Rule>,
    /// Whether loopback, private and reserved ranges (not link-local or metadata) may be
    /// fetched.
    pub allow_private: bool,
    /// The `web.*` keys of an untrusted workspace's config that were ignored: a refusal
    /// says so instead of suggesting the key.
    pub untrusted: Option<Arc<Untrusted>>,
}

/// Why a hop was refused. Rendered by the caller, which knows the hop's story.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Refusal {
    /// The host matches a `web.deny` entry.
    DeniedHost {
        /// The entry.
        rule: String,
    },
    /// An address matches a `web.deny` entry.
    DeniedAddress {
        /// The address.
        addr: IpAddr,
        /// The entry.
        rule: String,
    },
    /// An address is in a category the policy does not allow.
    Category {
        /// The address.
        addr: IpAddr,
        /// Its category.
        category: Category,
        /// What would allow it, when the usual advice does not fit: the key is set in an
        /// untrusted workspace config, or `web.allow` lets another address of the same host
        /// through.
        how: Option<String>,
    },
}

impl Refusal {
    /// The message after the URL (or after `<hop>, which`): `resolves to 127.0.0.2
    /// (loopback); set web.allow_private = true to allow it`.
    pub fn explain(&self) -> String {
        match self {
            Refusal::DeniedHost { rule } => {
                format!("is refused by web.deny (entry `{rule}`)")
            }
            Refusal::DeniedAddress { addr, rule } => {
                format!("resolves to {addr}, which web.deny refuses (entry `{rule}`)")
            }
            Refusal::Category {
                addr,
                category,
                how,
            } => {
                let carried = match addr {
                    IpAddr::V6(v6) => embedded_ipv4(*v6)
                        .map(|v4| format!(", carrying {v4}"))
                        .unwrap_or_default(),
                    IpAddr::V4(_) => String::new(),
                };
                let how = match how {
                    Some(how) => how.clone(),
                    None if category.always_denied() => {
                        format!("list {} in web.allow to allow it", bare(*addr))
                    }
                    None => "set web.allow_private = true to allow it".to_owned(),
                };
                format!("resolves to {addr} ({}{carried}); {how}", category.name())
            }
        }
    }
}

/// An address as a `web.allow` entry spells it.
fn bare(addr: IpAddr) -> String {
    addr.to_string()
}

impl WebPolicy {
    /// Builds the policy from the `[web]` table (absent: defaults). Errors name the key and
    /// the entry.
    pub fn from_config(web: Option<&WebConfig>) -> Result<WebPolicy, String> {
        let Some(web) = web else {
            return Ok(WebPolicy::default());
        };
        let parse = |list: &Option<Vec<String>>, key: &str| -> Result<Vec<Rule>, String> {
            list.iter().flatten().map(|e| Rule::parse(e, key)).collect()
        };
        Ok(WebPolicy {
            allow: parse(&web.allow, "web.allow")?,
            deny: parse(&web.deny, "web.deny")?,
            allow_private: web.allow_private.unwrap_or(false),
            untrusted: None,
        })
    }

    /// The policy, told which `web.*` keys an untrusted workspace config set in vain.
    pub fn with_untrusted(mut self, untrusted: Option<Arc<Untrusted>>) -> WebPolicy {
        self.untrusted = untrusted.filter(|u| u.keys.iter().any(|k| k.starts_with("web.")));
        self
    }

    /// The advice of a [`Refusal::Category`] for `addr` among `addrs` (all of one host's),
    /// when the usual one does not fit (see there).
    fn advice(&self, addr: IpAddr, category: Category, addrs: &[IpAddr]) -> Option<String> {
        let key = if category.always_denied() {
            "web.allow"
        } else {
            "web.allow_private"
        };
        if let Some(u) = &self.untrusted
            && (u.keys.contains(&key) || u.keys.contains(&"web.allow"))
        {
            let keys: Vec<&str> = u
                .keys
                .iter()
                .copied()
                .filter(|k| *k == key || *k == "web.allow")
                .collect();
            return Some(format!(
                "{} in {} {} ignored because this workspace is not trusted; to obey it, {}",
                keys.join(" and "),
                u.file,
                if keys.len() == 1 { "is" } else { "are" },
                u.how_to_trust
            ));
        }
        let listed = addrs
            .iter()
            .find(|a| **a != addr && self.allow.iter().any(|r| r.matches_ip(**a)))?;
        let also = if category.always_denied() {
            String::new()
        } else {
            " (or set web.allow_private = true)".to_owned()
        };
        Some(format!(
            "web.allow lets {listed} through, but every address the host resolves to must \
             pass: list {} in web.allow too{also}",
            bare(addr)
        ))
    }

    /// Checks the host before anything is resolved: a `web.deny` host pattern refuses it.
    pub fn check_host(&self, host: &str) -> Result<(), Refusal> {
        let h = normalize_host(host);
        match self.deny.iter().find(|r| r.matches_host(&h)) {
            Some(rule) => Err(Refusal::DeniedHost {
                rule: rule.to_string(),
            }),
            None => Ok(()),
        }
    }

    /// Checks every address `host` resolved to. All must pass: a name that resolves to one
    /// public and one private address is refused (the connection could go to either).
    pub fn check_addresses(&self, host: Option<&str>, addrs: &[IpAddr]) -> Result<(), Refusal> {
        let host = host.map(normalize_host);
        let host_allowed = host
            .as_deref()
            .is_some_and(|h| self.allow.iter().any(|r| r.matches_host(h)));
        for &addr in addrs {
            if let Some(rule) = self.deny.iter().find(|r| r.matches_ip(addr)) {
                return Err(Refusal::DeniedAddress {
                    addr,
                    rule: rule.to_string(),
                });
            }
            if host_allowed || self.allow.iter().any(|r| r.matches_ip(addr)) {
                continue;
            }
            if let Some(category) = classify(addr)
                && (category.always_denied() || !self.allow_private)
            {
                return Err(Refusal::Category {
                    addr,
                    category,
                    how: self.advice(addr, category, addrs),
                });
            }
        }
        Ok(())
    }
}

/// The socket addresses to pin a connection to: every checked address with the hop's port.
pub fn pinned(addrs: &[IpAddr], port: u16) -> Vec<SocketAddr> {
    addrs.iter().map(|&ip| SocketAddr::new(ip, port)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ip(s: &str) -> IpAddr {
        s.parse().unwrap()
    }

    #[test]
    fn categories_of_the_spec() {
        let cases = [
            ("169.254.169.254", Some(Category::Metadata)),
            ("100.100.100.200", Some(Category::Metadata)),
            ("fd00:ec2::254", Some(Category::Metadata)),
            ("169.254.1.1", Some(Category::LinkLocal)),
            ("fe80::1", Some(Category::LinkLocal)),
            ("127.0.0.1", Some(Category::Loopback)),
            ("127.255.0.2", Some(Category::Loopback)),
            ("::1", Some(Category::Loopback)),
            ("10.1.2.3", Some(Category::Private)),
            ("172.16.0.1", Some(Category::Private)),
            ("172.31.255.255", Some(Category::Private)),
            ("192.168.1.1", Some(Category::Private)),
            ("100.64.0.1", Some(Category::SharedAddress)),
            ("fc00::1", Some(Category::UniqueLocal)),
            ("fd12::1", Some(Category::UniqueLocal)),
            ("0.0.0.0", Some(Category::Unspecified)),
            ("0.1.2.3", Some(Category::Unspecified)),
            ("::", Some(Category::Unspecified)),
            ("224.0.0.1", Some(Category::Multicast)),
            ("ff02::1", Some(Category::Multicast)),
            ("198.18.0.1", Some(Category::Benchmarking)),
            ("198.19.255.1", Some(Category::Benchmarking)),
            ("255.255.255.255", Some(Category::Reserved)),
            ("240.0.0.1", Some(Category::Reserved)),
            ("192.0.2.1", Some(Category::Reserved)),
            ("2001:db8::1", Some(Category::Reserved)),
            ("93.184.216.34", None),
            ("172.32.0.1", None),
            ("100.128.0.1", None),
            ("198.20.0.1", None),
            ("2606:4700::1111", None),
        ];
        for (addr, want) in cases {
            assert_eq!(classify(ip(addr)), want, "{addr}");
        }
    }

    #[test]
    fn ipv6_forms_carrying_ipv4_are_judged_by_it() {
        for (addr, want) in [
            ("::ffff:127.0.0.2", Some(Category::Loopback)),
            ("::ffff:7f00:1", Some(Category::Loopback)),
            ("::ffff:169.254.169.254", Some(Category::Metadata)),
            ("::10.0.0.1", Some(Category::Private)),
            ("64:ff9b::a9fe:a9fe", Some(Category::Metadata)),
            ("64:ff9b::10.0.0.1", Some(Category::Private)),
            ("64:ff9b:1::c0a8:101", Some(Category::Private)),
            ("2002:7f00:1::", Some(Category::Loopback)),
            ("2002:a9fe:a9fe::1", Some(Category::Metadata)),
            ("2002:5db8:d822::1", None),
            ("::ffff:93.184.216.34", None),
            ("64:ff9b::5db8:d822", None),
        ] {
            assert_eq!(classify(ip(addr)), want, "{addr}");
        }
    }

    #[test]
    fn rules_parse_and_match() {
        let r = Rule::parse("10.0.0.0/8", "web.allow").unwrap();
        assert!(r.matches_ip(ip("10.9.8.7")));
        assert!(r.matches_ip(ip("::ffff:10.9.8.7")));
        assert!(!r.matches_ip(ip("11.0.0.1")));
        let r = Rule::parse("127.0.0.1", "web.allow").unwrap();
        assert_eq!(r, Rule::Range(ip("127.0.0.1"), 32));
        assert!(!r.matches_ip(ip("127.0.0.2")));
        assert_eq!(
            Rule::parse("[::1]", "web.allow").unwrap(),
            Rule::Range(ip("::1"), 128)
        );
        let r = Rule::parse("*.Example.COM.", "web.deny").unwrap();
        assert!(r.matches_host("a.example.com"));
        assert!(r.matches_host("b.a.example.com"));
        assert!(!r.matches_host("example.com"));
        assert!(!r.matches_host("badexample.com"));
        let r = Rule::parse("Example.com", "web.deny").unwrap();
        assert!(r.matches_host("example.com"));
        assert!(!r.matches_host("a.example.com"));
        for bad in ["", "10.0.0.0/33", "ex*ample.com", "a b", "host/8", "*"] {
            let err = Rule::parse(bad, "web.allow").unwrap_err();
            assert!(err.contains("web.allow entry"), "{err}");
        }
    }

    #[test]
    fn default_policy_refuses_special_and_passes_public() {
        let p = WebPolicy::default();
        assert!(p.check_addresses(None, &[ip("93.184.216.34")]).is_ok());
        let err = p.check_addresses(None, &[ip("127.0.0.2")]).unwrap_err();
        assert_eq!(
            err.explain(),
            "resolves to 127.0.0.2 (loopback); set web.allow_private = true to allow it"
        );
        let err = p
            .check_addresses(Some("x"), &[ip("93.184.216.34"), ip("10.0.0.1")])
            .unwrap_err();
        assert!(err.explain().contains("10.0.0.1 (private)"));
        let err = p.check_addresses(None, &[ip("::ffff:7f00:1")]).unwrap_err();
        assert!(
            err.explain()
                .contains("::ffff:127.0.0.1 (loopback, carrying 127.0.0.1)"),
            "{}",
            err.explain()
        );
    }

    #[test]
    fn allow_private_does_not_open_link_local_or_metadata() {
        let p = WebPolicy {
            allow_private: true,
            ..Default::default()
        };
        assert!(p.check_addresses(None, &[ip("10.0.0.1")]).is_ok());
        assert!(p.check_addresses(None, &[ip("::1")]).is_ok());
        let err = p
            .check_addresses(None, &[ip("169.254.169.254")])
            .unwrap_err();
        assert_eq!(
            err.explain(),
            "resolves to 169.254.169.254 (cloud metadata); list 169.254.169.254 in \
             web.allow to allow it"
        );
        assert!(p.check_addresses(None, &[ip("fe80::1")]).is_err());
    }

    #[test]
    fn allow_names_exceptions_and_deny_wins() {
        let p = WebPolicy {
            allow: vec![
                Rule::parse("127.0.0.1", "web.allow").unwrap(),
                Rule::parse("*.corp.test", "web.allow").unwrap(),
                Rule::parse("169.254.169.254", "web.allow").unwrap(),
            ],
            deny: vec![
                Rule::parse("bad.corp.test", "web.deny").unwrap(),
                Rule::parse("10.9.0.0/16", "web.deny").unwrap(),
            ],
            allow_private: false,
            untrusted: None,
        };
        assert!(p.check_addresses(None, &[ip("127.0.0.1")]).is_ok());
        assert!(p.check_addresses(None, &[ip("::ffff:127.0.0.1")]).is_ok());
        assert!(p.check_addresses(None, &[ip("127.0.0.2")]).is_err());
        assert!(p.check_addresses(None, &[ip("::1")]).is_err());
        assert!(p.check_addresses(None, &[ip("169.254.169.254")]).is_ok());
        assert!(
            p.check_addresses(Some("wiki.corp.test."), &[ip("10.1.1.1")])
                .is_ok()
        );
        let err = p
            .check_addresses(Some("wiki.corp.test"), &[ip("10.9.1.1")])
            .unwrap_err();
        assert!(
            err.explain()
                .contains("which web.deny refuses (entry `10.9.0.0/16`)")
        );
        assert!(p.check_host("BAD.corp.test.").is_err());
        assert!(p.check_host("good.corp.test").is_ok());
    }

    #[test]
    fn localhost_names() {
        for h in ["localhost", "LOCALHOST.", "a.localhost", "x.localhost."] {
            assert!(is_localhost_name(h), "{h}");
        }
        assert!(!is_localhost_name("localhost.example.com"));
        assert!(!is_localhost_name("notlocalhost"));
    }
}
