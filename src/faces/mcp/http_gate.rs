//! What an HTTP request must pass before rmcp sees it (spec 10, "agtool where agents run";
//! issue 22, "Bad input"): no token in the query string (tokens there leak into logs), a
//! `Host` this server answers to (loopback names when it has no token), an `Origin` that is
//! not another site (DNS-rebinding protection), the bearer token when one is set, and a
//! declared body size within the limit.

use std::net::IpAddr;

use http::{HeaderMap, StatusCode};

/// Why a request was turned away: the status and the text of the reply.
#[derive(Debug, PartialEq, Eq)]
pub struct Refusal {
    /// 400, 401, 403 or 413.
    pub status: StatusCode,
    /// One line for the client (`Error: ...`).
    pub message: String,
}

fn refuse(status: StatusCode, message: impl Into<String>) -> Refusal {
    Refusal {
        status,
        message: format!("Error: {}", message.into()),
    }
}

/// The gate's settings.
#[derive(Debug, Clone)]
pub struct Gate {
    /// The bearer token, when one is required.
    pub token: Option<String>,
    /// The largest request body taken, in bytes.
    pub max_body: usize,
}

/// Query parameter names that carry credentials in other servers' conventions.
const TOKEN_PARAMS: [&str; 7] = [
    "token",
    "access_token",
    "auth",
    "authorization",
    "api_key",
    "apikey",
    "bearer",
];

impl Gate {
    /// Checks a request's target and headers (see the module doc). `Ok` lets it through.
    pub fn check(&self, query: Option<&str>, headers: &HeaderMap) -> Result<(), Refusal> {
        if let Some(q) = query {
            self.check_query(q)?;
        }
        let host = headers
            .get(http::header::HOST)
            .and_then(|h| h.to_str().ok())
            .map(host_of);
        if self.token.is_none() {
            match &host {
                Some(h) if is_loopback_name(h) => {}
                Some(h) => {
                    return Err(refuse(
                        StatusCode::FORBIDDEN,
                        format!(
                            "the Host {h} is not this server's: without a token it answers \
                             only to localhost, 127.0.0.1 and ::1"
                        ),
                    ));
                }
                None => {
                    return Err(refuse(
                        StatusCode::BAD_REQUEST,
                        "the Host header is missing",
                    ));
                }
            }
        }
        if let Some(origin) = headers.get(http::header::ORIGIN) {
            let origin = origin.to_str().unwrap_or("");
            if !origin_allowed(origin, host.as_deref()) {
                return Err(refuse(
                    StatusCode::FORBIDDEN,
                    format!(
                        "the Origin {origin:?} is another site's; requests from web pages are \
                         taken only from this server's own host or a loopback address"
                    ),
                ));
            }
        }
        if let Some(token) = &self.token {
            let given = headers
                .get(http::header::AUTHORIZATION)
                .and_then(|v| v.to_str().ok())
                .and_then(|v| {
                    let (scheme, rest) = v.trim().split_once(' ')?;
                    scheme.eq_ignore_ascii_case("bearer").then(|| rest.trim())
                });
            match given {
                None => {
                    return Err(refuse(
                        StatusCode::UNAUTHORIZED,
                        "this server needs a bearer token: send Authorization: Bearer <token>",
                    ));
                }
                Some(g) if !same_secret(g.as_bytes(), token.as_bytes()) => {
                    return Err(refuse(
                        StatusCode::UNAUTHORIZED,
                        "the bearer token is wrong",
                    ));
                }
                Some(_) => {}
            }
        }
        let declared = headers
            .get(http::header::CONTENT_LENGTH)
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.trim().parse::<u64>().ok());
        if let Some(n) = declared
            && n > self.max_body as u64
        {
            return Err(refuse(
                StatusCode::PAYLOAD_TOO_LARGE,
                format!(
                    "the request body is {n} bytes, over the limit of {} MiB",
                    self.max_body >> 20
                ),
            ));
        }
        Ok(())
    }

    fn check_query(&self, query: &str) -> Result<(), Refusal> {
        let named = query.split('&').any(|pair| {
            let name = pair.split('=').next().unwrap_or("");
            TOKEN_PARAMS.iter().any(|t| name.eq_ignore_ascii_case(t))
        });
        let holds_token = self
            .token
            .as_deref()
            .is_some_and(|t| !t.is_empty() && query.contains(t));
        if named || holds_token {
            return Err(refuse(
                StatusCode::BAD_REQUEST,
                "a token in the query string is refused (URLs are written to logs): send it \
                 as Authorization: Bearer <token>",
            ));
        }
        Ok(())
    }
}

/// Compares two secrets in time that depends only on their lengths.
fn same_secret(a: &[u8], b: &[u8]) -> bool {
    if a.len() != b.len() {
        return false;
    }
    a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

/// The host part of a `Host` value (`name:port`, `[v6]:port`), lower-cased, brackets removed.
fn host_of(authority: &str) -> String {
    let a = authority.trim();
    let host = if let Some(rest) = a.strip_prefix('[') {
        rest.split(']').next().unwrap_or("")
    } else {
        match a.rsplit_once(':') {
            Some((h, port)) if port.bytes().all(|b| b.is_ascii_digit()) => h,
            _ => a,
        }
    };
    host.trim_end_matches('.').to_ascii_lowercase()
}

/// Whether a host name or address is this machine's loopback.
pub fn is_loopback_name(host: &str) -> bool {
    if host == "localhost" || host.ends_with(".localhost") {
        return true;
    }
    host.parse::<IpAddr>()
        .is_ok_and(|ip| ip.to_canonical().is_loopback())
}

/// Whether a page from `origin` may call this server, reached as `host`: a loopback origin
/// (a tool on this machine) or the server's own host. `null` and anything unparsable are
/// refused.
fn origin_allowed(origin: &str, host: Option<&str>) -> bool {
    let Ok(url) = url::Url::parse(origin) else {
        return false;
    };
    if !matches!(url.scheme(), "http" | "https") {
        return false;
    }
    let Some(origin_host) = url.host_str() else {
        return false;
    };
    let origin_host = origin_host
        .trim_start_matches('[')
        .trim_end_matches(']')
        .trim_end_matches('.')
        .to_ascii_lowercase();
    is_loopback_name(&origin_host) || host.is_some_and(|h| h == origin_host)
}

#[cfg(test)]
mod tests {
    use super::*;
    use http::HeaderValue;

    fn headers(pairs: &[(&'static str, &str)]) -> HeaderMap {
        let mut h = HeaderMap::new();
        for (k, v) in pairs {
            h.insert(*k, HeaderValue::from_str(v).unwrap());
        }
        h
    }

    fn gate(token: Option<&str>) -> Gate {
        Gate {
            token: token.map(Into::into),
            max_body: 16 << 20,
        }
    }

    #[test]
    fn hosts_and_origins_without_a_token() {
        let g = gate(None);
        assert!(
            g.check(None, &headers(&[("host", "127.0.0.1:8765")]))
                .is_ok()
        );
        assert!(g.check(None, &headers(&[("host", "[::1]:8765")])).is_ok());
        assert!(
            g.check(
                None,
                &headers(&[("host", "localhost:1"), ("origin", "http://localhost:6274")])
            )
            .is_ok()
        );
        let rebinding = g
            .check(
                None,
                &headers(&[
                    ("host", "evil.example:8765"),
                    ("origin", "http://evil.example:8765"),
                ]),
            )
            .unwrap_err();
        assert_eq!(rebinding.status, StatusCode::FORBIDDEN);
        let other_site = g
            .check(
                None,
                &headers(&[
                    ("host", "127.0.0.1:8765"),
                    ("origin", "https://evil.example"),
                ]),
            )
            .unwrap_err();
        assert_eq!(other_site.status, StatusCode::FORBIDDEN);
        assert!(other_site.message.contains("evil.example"));
        let null = g
            .check(
                None,
                &headers(&[("host", "127.0.0.1:1"), ("origin", "null")]),
            )
            .unwrap_err();
        assert_eq!(null.status, StatusCode::FORBIDDEN);
    }

    #[test]
    fn tokens() {
        let g = gate(Some("s3cret-token"));
        let ok = headers(&[
            ("host", "agtool.internal:80"),
            ("authorization", "Bearer s3cret-token"),
        ]);
        assert!(g.check(None, &ok).is_ok());
        let same_site = headers(&[
            ("host", "agtool.internal"),
            ("origin", "https://agtool.internal"),
            ("authorization", "bearer s3cret-token"),
        ]);
        assert!(g.check(None, &same_site).is_ok());
        let missing = g.check(None, &headers(&[("host", "x")])).unwrap_err();
        assert_eq!(missing.status, StatusCode::UNAUTHORIZED);
        let wrong = g
            .check(
                None,
                &headers(&[("host", "x"), ("authorization", "Bearer s3cret-tokeX")]),
            )
            .unwrap_err();
        assert_eq!(wrong.status, StatusCode::UNAUTHORIZED);
        for q in ["token=s3cret-token", "a=1&access_token=x", "x=s3cret-token"] {
            let r = g.check(Some(q), &ok).unwrap_err();
            assert_eq!(r.status, StatusCode::BAD_REQUEST, "{q}");
        }
        assert!(g.check(Some("a=1"), &ok).is_ok());
    }

    #[test]
    fn a_declared_body_over_the_limit() {
        let g = gate(None);
        let r = g
            .check(
                None,
                &headers(&[("host", "localhost"), ("content-length", "1000000000")]),
            )
            .unwrap_err();
        assert_eq!(r.status, StatusCode::PAYLOAD_TOO_LARGE);
    }
}
