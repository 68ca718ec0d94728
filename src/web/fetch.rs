//! One hop of a fetch (spec 06, "Transport"): the request to addresses already checked by
//! [`super::policy`], the response head, and the body read under the size cap and the one
//! deadline. The hop loop (redirects, meta refresh) lives in [`super::fetch_document`].

use std::io::Read;
use std::net::{IpAddr, SocketAddr, ToSocketAddrs};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, Once};
use std::time::{Duration, Instant};

use reqwest::blocking::{Client, Response};
use reqwest::dns::{Name, Resolve, Resolving};
use url::{Host, Url};

use super::WebError;

/// What the fetch is doing now, for the timeout message (`waiting for http://a/ to answer`).
/// Shared between the worker thread and the thread that keeps the deadline.
#[derive(Debug, Default)]
pub struct Progress(Mutex<String>);

impl Progress {
    /// Records the current step.
    pub fn set(&self, what: impl Into<String>) {
        *self.0.lock().unwrap_or_else(|p| p.into_inner()) = what.into();
    }

    /// The current step.
    pub fn get(&self) -> String {
        self.0.lock().unwrap_or_else(|p| p.into_inner()).clone()
    }
}

/// The one deadline of a fetch plus its progress and cancel flag.
#[derive(Debug, Clone)]
pub struct Clock {
    /// When the whole fetch must be over.
    pub deadline: Instant,
    /// The current step.
    pub progress: Arc<Progress>,
    /// Set when the caller stopped waiting: the worker stops at its next check.
    pub cancelled: Arc<AtomicBool>,
}

impl Clock {
    /// A clock whose deadline is `timeout` from now.
    pub fn new(timeout: Duration) -> Clock {
        Clock {
            deadline: Instant::now() + timeout,
            progress: Arc::default(),
            cancelled: Arc::default(),
        }
    }

    /// Time left, at least 1 ms (reqwest and the socket layer treat zero as "no timeout").
    pub fn left(&self) -> Duration {
        self.deadline
            .saturating_duration_since(Instant::now())
            .max(Duration::from_millis(1))
    }

    /// Errors with a timeout once the deadline passed or the caller stopped waiting.
    pub fn check(&self) -> Result<(), WebError> {
        if self.cancelled.load(Ordering::Relaxed) || Instant::now() >= self.deadline {
            return Err(WebError::Timeout {
                waiting_for: self.progress.get(),
            });
        }
        Ok(())
    }

    /// Records the current step and checks the deadline.
    pub fn step(&self, what: impl Into<String>) -> Result<(), WebError> {
        self.progress.set(what);
        self.check()
    }
}

/// The rustls provider (ring) must be installed once before any client is built.
fn install_crypto() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        // Fails only when a provider is already installed, which is as good.
        let _ = rustls::crypto::ring::default_provider().install_default();
    });
}

/// Whether a proxy may take the request (spec 06: "proxies from https_proxy / http_proxy /
/// no_proxy"): then the proxy resolves the name and the pinning cannot hold.
pub fn proxy_configured() -> bool {
    [
        "http_proxy",
        "HTTP_PROXY",
        "https_proxy",
        "HTTPS_PROXY",
        "all_proxy",
        "ALL_PROXY",
    ]
    .iter()
    .any(|k| std::env::var_os(k).is_some_and(|v| !v.is_empty()))
}

/// A resolver that never looks anything up: with no proxy, every name a connection needs is
/// pinned to checked addresses, so a lookup reaching this resolver means a name slipped past
/// the check, and it fails instead of asking DNS a second time.
struct NoLookup;

impl Resolve for NoLookup {
    fn resolve(&self, name: Name) -> Resolving {
        let msg = format!(
            "{} was not resolved by agtool's address check",
            name.as_str()
        );
        Box::pin(async move { Err(msg.into()) })
    }
}

/// The addresses of a hop's host: an IP literal as it is (never resolved), `localhost` names
/// as loopback (never resolved), anything else through the system resolver.
pub fn resolve(url: &Url, clock: &Clock) -> Result<Vec<IpAddr>, String> {
    match url.host() {
        Some(Host::Ipv4(v4)) => Ok(vec![IpAddr::V4(v4)]),
        Some(Host::Ipv6(v6)) => Ok(vec![IpAddr::V6(v6)]),
        Some(Host::Domain(name)) if super::policy::is_localhost_name(name) => Ok(vec![
            IpAddr::V4(std::net::Ipv4Addr::LOCALHOST),
            IpAddr::V6(std::net::Ipv6Addr::LOCALHOST),
        ]),
        Some(Host::Domain(name)) => {
            clock.progress.set(format!("resolving {name}"));
            let port = url.port_or_known_default().unwrap_or(80);
            let found = (name, port)
                .to_socket_addrs()
                .map_err(|e| format!("cannot resolve {name} ({e})"))?;
            let mut addrs: Vec<IpAddr> = Vec::new();
            for a in found {
                if !addrs.contains(&a.ip()) {
                    addrs.push(a.ip());
                }
            }
            if addrs.is_empty() {
                return Err(format!("{name} resolves to no address"));
            }
            Ok(addrs)
        }
        None => Err("the URL has no host".to_owned()),
    }
}

/// The head of a hop's response; the body is read with [`read_body`].
pub struct Answer {
    /// The status code.
    pub status: u16,
    /// Its reason phrase (`OK`, `Not Found`), empty for unknown codes.
    pub reason: String,
    /// The `Location` header, when there is one.
    pub location: Option<String>,
    /// The `Content-Type` header as sent (lossy for non-ASCII bytes).
    pub content_type: Option<String>,
    /// The response, for the body.
    pub response: Response,
}

/// Sends `GET url` to exactly `pinned` (the checked addresses; `None` for an IP literal,
/// which the connector uses directly), following no redirect, under the deadline.
pub fn send(url: &Url, pinned: Option<&[SocketAddr]>, clock: &Clock) -> Result<Answer, WebError> {
    install_crypto();
    clock.step(format!("connecting to {}", host_port(url)))?;
    let left = clock.left();
    let mut builder = Client::builder()
        .user_agent(concat!("agtool/", env!("CARGO_PKG_VERSION")))
        .redirect(reqwest::redirect::Policy::none())
        .referer(false)
        .timeout(left)
        .connect_timeout(left)
        .pool_max_idle_per_host(0);
    if !proxy_configured() {
        builder = builder.dns_resolver(Arc::new(NoLookup));
    }
    if let (Some(addrs), Some(host)) = (pinned, url.host_str()) {
        builder = builder.resolve_to_addrs(host, addrs);
    }
    let client = builder
        .build()
        .map_err(|e| WebError::Failed(format!("cannot set up the HTTP client: {}", chain(&e))))?;
    clock.step(format!("waiting for {url} to answer"))?;
    let response = client
        .get(url.as_str())
        // The request's own timeout also bounds reading the body as a whole (the client's
        // applies to each read alone, so a worker blocked in a read of a dripping body
        // outlived its fetch's deadline by up to the whole timeout; issue 17, item 6).
        .timeout(clock.left())
        .header(
            reqwest::header::ACCEPT,
            "text/html,application/xhtml+xml,text/plain;q=0.9,application/json;q=0.9,*/*;q=0.5",
        )
        .send()
        .map_err(|e| send_error(url, &e, clock))?;
    let header = |name: reqwest::header::HeaderName| {
        response
            .headers()
            .get(name)
            .map(|v| String::from_utf8_lossy(v.as_bytes()).into_owned())
    };
    let status = response.status();
    Ok(Answer {
        status: status.as_u16(),
        reason: status.canonical_reason().unwrap_or_default().to_owned(),
        location: header(reqwest::header::LOCATION),
        content_type: header(reqwest::header::CONTENT_TYPE),
        response,
    })
}

/// `host:port` of a URL, for messages.
fn host_port(url: &Url) -> String {
    let host = match url.host() {
        Some(Host::Ipv6(v6)) => format!("[{v6}]"),
        Some(h) => h.to_string(),
        None => String::new(),
    };
    match url.port_or_known_default() {
        Some(p) => format!("{host}:{p}"),
        None => host,
    }
}

/// Every message in an error's source chain, joined by `: `, repeats dropped.
fn chain(e: &(dyn std::error::Error + 'static)) -> String {
    let mut parts: Vec<String> = Vec::new();
    let mut cur = Some(e);
    while let Some(err) = cur {
        let s = err.to_string();
        // reqwest's and hyper's own layers repeat the URL or say nothing new.
        let noise = s.starts_with("error sending request for url")
            || s.starts_with("client error (")
            || s.starts_with("error decoding response body");
        if !noise && !parts.iter().any(|p| p.contains(&s)) {
            parts.push(s);
        }
        cur = err.source();
    }
    if parts.is_empty() {
        return e.to_string();
    }
    parts.join(": ")
}

/// The TLS error in a chain, when there is one.
fn tls_error(e: &(dyn std::error::Error + 'static)) -> Option<String> {
    let mut cur = Some(e);
    while let Some(err) = cur {
        if let Some(t) = err.downcast_ref::<rustls::Error>() {
            return Some(t.to_string());
        }
        // An io::Error's source() skips the error it wraps: look inside by hand (tokio-rustls
        // wraps the rustls error in one io::Error, hyper-util in another).
        let mut inner = err
            .downcast_ref::<std::io::Error>()
            .and_then(|io| io.get_ref());
        while let Some(i) = inner {
            if let Some(t) = i.downcast_ref::<rustls::Error>() {
                return Some(t.to_string());
            }
            inner = i
                .downcast_ref::<std::io::Error>()
                .and_then(|io| io.get_ref());
        }
        cur = err.source();
    }
    None
}

/// The I/O error kind in a chain, when there is one.
fn io_kind(e: &(dyn std::error::Error + 'static)) -> Option<std::io::ErrorKind> {
    let mut cur = Some(e);
    while let Some(err) = cur {
        if let Some(io) = err.downcast_ref::<std::io::Error>() {
            return Some(io.kind());
        }
        cur = err.source();
    }
    None
}

/// A failed send as the model should read it: which of timeout, TLS, refused connection,
/// other connection failure, or protocol error.
fn send_error(url: &Url, e: &reqwest::Error, clock: &Clock) -> WebError {
    if e.is_timeout() || Instant::now() >= clock.deadline {
        return WebError::Timeout {
            waiting_for: clock.progress.get(),
        };
    }
    let at = host_port(url);
    if let Some(tls) = tls_error(e) {
        return WebError::Failed(format!("TLS error with {at}: {tls}"));
    }
    match io_kind(e) {
        Some(std::io::ErrorKind::ConnectionRefused) => {
            WebError::Failed(format!("connection refused by {at}"))
        }
        _ if e.is_connect() => WebError::Failed(format!("cannot connect to {at}: {}", chain(e))),
        _ => WebError::Failed(format!("the request to {at} failed: {}", chain(e))),
    }
}

/// A body as read: at most the cap, and whether it was cut or ended early.
pub struct Body {
    /// The decoded (decompressed) bytes, at most `cap`.
    pub bytes: Vec<u8>,
    /// The body went on past the cap; only the first `cap` bytes were read.
    pub cut: bool,
    /// The connection ended before the body was complete (a lying Content-Length, a reset):
    /// what was read is used, and this says why it stopped.
    pub ended_early: Option<String>,
}

/// Reads the body, counting decompressed bytes: at most `cap` bytes are kept and at most
/// `cap + 1` read (so a gzip bomb stops there); Content-Length is neither trusted nor used to
/// allocate. The deadline is checked around every read.
pub fn read_body(answer: Answer, url: &Url, cap: usize, clock: &Clock) -> Result<Body, WebError> {
    // One byte past the cap tells a longer body; never wraps (the cap is clamped, and `+ 1`
    // saturates).
    let mut limited = answer.response.take((cap as u64).saturating_add(1));
    let mut bytes: Vec<u8> = Vec::new();
    let mut buf = vec![0u8; 64 * 1024];
    let mut ended_early = None;
    loop {
        clock.step(format!(
            "reading the body of {url} ({} bytes so far)",
            bytes.len()
        ))?;
        match limited.read(&mut buf) {
            Ok(0) => break,
            Ok(n) => bytes.extend_from_slice(&buf[..n]),
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e) if e.kind() == std::io::ErrorKind::TimedOut => {
                return Err(WebError::Timeout {
                    waiting_for: clock.progress.get(),
                });
            }
            Err(e) => {
                clock.check()?;
                ended_early = Some(chain(&e));
                break;
            }
        }
    }
    let cut = bytes.len() > cap;
    bytes.truncate(cap);
    Ok(Body {
        bytes,
        cut,
        ended_early,
    })
}
