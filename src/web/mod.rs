//! The web core behind `web-fetch` (spec 06, "web-fetch"): the address policy
//! ([`policy`]), one hop of HTTP under one deadline ([`fetch`]), bytes to text ([`convert`]),
//! the page copies that make paging exact ([`cache`]) and the page cut ([`page`]).
//!
//! [`fetch_document`] runs the hop loop on a worker thread with a large stack while the
//! calling thread keeps the one deadline: whatever the worker waits on (a resolver, a server
//! that never answers or drips a byte a second, a slow conversion), the caller has its answer
//! when the deadline passes. This module never imports the tools or the command line.

pub mod cache;
pub mod convert;
pub mod fetch;
pub mod html;
pub mod page;
pub mod policy;

use std::sync::atomic::Ordering;
use std::sync::mpsc;
use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};
use url::Url;

use self::convert::Treatment;
use self::fetch::Clock;
use self::html::HtmlPage;
use self::policy::WebPolicy;
use crate::interrupt::Cancel;

/// Most hops after the first URL: HTTP redirects and meta refreshes together (spec 06).
pub const MAX_HOPS: usize = 5;
/// A meta refresh is followed when its delay is at most this many seconds.
pub const MAX_REFRESH_SECS: u64 = 10;
/// Default cap on the decoded body, in bytes (config `web.max_body_bytes`).
pub const DEFAULT_MAX_BODY_BYTES: u64 = 5 << 20;
/// Highest cap any configuration can set, in bytes: a larger `web.max_body_bytes` (even
/// `u64::MAX`) is clamped to it, since the body is held in memory and the page copies keep
/// 64 MiB in all.
pub const MAX_BODY_BYTES_CEILING: u64 = 64 << 20;
/// Width, in columns, that converted HTML is wrapped to.
pub const TEXT_WIDTH: usize = 100;
/// How often the waiting thread looks at the caller's stop request.
const STOP_POLL: Duration = Duration::from_millis(50);
/// Stack of the worker thread: html5ever and html2text recurse on some inputs.
const WORKER_STACK: usize = 256 << 20;

/// Why a fetch did not give a document.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum WebError {
    /// The URL argument is not something web-fetch takes: exit 2.
    Usage(String),
    /// Refused or failed, with the whole message: exit 1.
    Refused(String),
    /// A network step failed; the hop loop adds which URL (`cannot fetch <url>: ...`).
    Failed(String),
    /// The deadline passed while the fetch was `waiting_for` something: exit 124.
    Timeout {
        /// The step it was in (`reading the body of http://a/ (12 bytes so far)`).
        waiting_for: String,
    },
    /// The caller's stop request fired (spec 07 "mcp": cancellation, end of input). The
    /// worker thread is told to stop and left to end at its next read.
    Stopped,
}

/// One fetch: the caller's URL and options.
#[derive(Debug, Clone)]
pub struct FetchRequest {
    /// The URL as the caller wrote it.
    pub url: String,
    /// Return the decoded text as it is instead of converting HTML.
    pub raw: bool,
    /// The address policy.
    pub policy: WebPolicy,
    /// Cap on the decoded body, in bytes.
    pub max_body_bytes: u64,
    /// The one deadline for everything, from now.
    pub timeout: Duration,
    /// The call's stop request: when it fires the fetch answers [`WebError::Stopped`] within
    /// 50 ms.
    pub cancel: Cancel,
}

/// A fetched and converted document: what the output's header says, and the text.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Document {
    /// The URL asked for (normalised).
    pub url: String,
    /// The URL the text came from, after every hop.
    pub final_url: String,
    /// Status code of the last response.
    pub status: u16,
    /// Its reason phrase.
    pub reason: String,
    /// The `Content-Type` line: the header as sent, or what sniffing found when it was absent.
    pub content_type: String,
    /// The URLs visited, first to last, with ` (meta refresh)` after a refresh hop; one entry
    /// when there was no hop.
    pub chain: Vec<String>,
    /// Lines the output shows about the body (cut at the cap, ended early, flattened).
    pub notes: Vec<String>,
    /// Whether `raw` was asked for.
    pub raw: bool,
    /// The text: converted HTML, or the decoded body.
    pub text: String,
}

/// Parses the caller's URL: a URL that does not parse, a scheme other than http and https
/// (spec 06: "an argument error") → [`WebError::Usage`]; a user name or password →
/// [`WebError::Refused`].
pub fn parse_url(input: &str) -> Result<Url, WebError> {
    let trimmed = input.trim();
    let url = Url::parse(trimmed).map_err(|e| {
        let hint = if !trimmed.contains("://") && trimmed.contains('.') && !trimmed.contains(' ') {
            format!("; did you mean https://{trimmed}?")
        } else {
            "; give a full http:// or https:// URL".to_owned()
        };
        WebError::Usage(format!("`{input}` is not a URL ({e}){hint}"))
    })?;
    check_scheme(&url, None)?;
    check_credentials(&url, None)?;
    Ok(url)
}

/// Only http and https, at the first URL and at every hop. The first URL's scheme is the
/// caller's argument ([`WebError::Usage`], exit 2); a hop's is the server's doing: the
/// arguments were valid, so it is a refusal ([`WebError::Refused`], exit 1, on stdout where a
/// model reads it), not the argument error spec 06 names.
fn check_scheme(url: &Url, story: Option<&str>) -> Result<(), WebError> {
    if matches!(url.scheme(), "http" | "https") {
        return Ok(());
    }
    Err(match story {
        None => WebError::Usage(format!(
            "web-fetch fetches only http and https URLs, not {}: ({})",
            url.scheme(),
            redacted(url)
        )),
        Some(story) => WebError::Refused(format!(
            "{story}, a {}: URL; web-fetch follows only http and https",
            url.scheme()
        )),
    })
}

/// URLs with a user name or password are refused (they leak into logs and transcripts).
fn check_credentials(url: &Url, story: Option<&str>) -> Result<(), WebError> {
    if url.username().is_empty() && url.password().is_none() {
        return Ok(());
    }
    let what = story.map_or_else(|| redacted(url), str::to_owned);
    Err(WebError::Refused(format!(
        "{what} carries a user name or password; web-fetch does not send credentials in \
         URLs (they end up in logs and transcripts): give the URL without them"
    )))
}

/// The URL with any user name and password replaced by `***`, for messages.
pub fn redacted(url: &Url) -> String {
    if url.username().is_empty() && url.password().is_none() {
        return url.to_string();
    }
    let mut u = url.clone();
    let _ = u.set_password(None);
    let _ = u.set_username("***");
    u.to_string()
}

/// How a hop was reached.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Via {
    Redirect(u16),
    Refresh,
}

/// The text of a hop for messages: `http://a/ redirected to http://b/`.
fn story(prev: &Url, next: &Url, via: Via) -> String {
    match via {
        Via::Redirect(_) => format!("{prev} redirected to {}", redacted(next)),
        Via::Refresh => format!("{prev} refreshed to {} (meta refresh)", redacted(next)),
    }
}

/// Fetches `req.url` and converts it, under the one deadline (see the module doc).
pub fn fetch_document(req: &FetchRequest) -> Result<Document, WebError> {
    let url = parse_url(&req.url)?;
    let clock = Clock::new(req.timeout);
    let (tx, rx) = mpsc::channel();
    let worker_clock = clock.clone();
    let req_owned = req.clone();
    std::thread::Builder::new()
        .name("web-fetch".into())
        .stack_size(WORKER_STACK)
        .spawn(move || {
            let _ = tx.send(run_hops(url, &req_owned, &worker_clock));
        })
        .map_err(|e| WebError::Refused(format!("cannot start the fetch: {e}")))?;
    // The caller's stop request is looked at every 50 ms; the deadline is kept to the ms.
    loop {
        match rx.recv_timeout(clock.left().min(STOP_POLL)) {
            Ok(result) => return result,
            Err(mpsc::RecvTimeoutError::Timeout) if req.cancel.is_fired() => {
                clock.cancelled.store(true, Ordering::Relaxed);
                return Err(WebError::Stopped);
            }
            Err(mpsc::RecvTimeoutError::Timeout) if Instant::now() >= clock.deadline => {
                clock.cancelled.store(true, Ordering::Relaxed);
                return Err(WebError::Timeout {
                    waiting_for: clock.progress.get(),
                });
            }
            Err(mpsc::RecvTimeoutError::Timeout) => {}
            Err(mpsc::RecvTimeoutError::Disconnected) => {
                return Err(WebError::Refused(
                    "the fetch stopped unexpectedly (an internal error); please report it"
                        .to_owned(),
                ));
            }
        }
    }
}

/// The hop loop: policy check, request, redirect or body, meta refresh, conversion.
fn run_hops(first: Url, req: &FetchRequest, clock: &Clock) -> Result<Document, WebError> {
    let mut url = first.clone();
    let mut visited: Vec<(Url, Option<Via>)> = vec![(first.clone(), None)];
    let cap =
        usize::try_from(req.max_body_bytes.clamp(1, MAX_BODY_BYTES_CEILING)).unwrap_or(usize::MAX);
    loop {
        let hop_story = match visited.as_slice() {
            [.., (prev, _), (_, Some(via))] => Some(story(prev, &url, *via)),
            _ => None,
        };
        let story_or_url = hop_story.clone().unwrap_or_else(|| url.to_string());
        check_scheme(&url, hop_story.as_deref())?;
        check_credentials(&url, hop_story.as_deref())?;
        let failed = |msg: String| match &hop_story {
            None => WebError::Refused(format!("cannot fetch {url}: {msg}")),
            Some(s) => WebError::Refused(format!("{s}; cannot fetch it: {msg}")),
        };
        let refused = |r: policy::Refusal| match &hop_story {
            None => WebError::Refused(format!("{url} {}", r.explain())),
            Some(s) => WebError::Refused(format!("{s}, which {}", r.explain())),
        };
        let host = url.host_str().unwrap_or_default().to_owned();
        req.policy.check_host(&host).map_err(refused)?;
        let addrs = fetch::resolve(&url, clock)
            .map_err(|e| clock.check().err().unwrap_or_else(|| failed(e)))?;
        clock.check()?;
        let domain = matches!(url.host(), Some(url::Host::Domain(_)));
        req.policy
            .check_addresses(domain.then_some(host.as_str()), &addrs)
            .map_err(refused)?;
        let port = url.port_or_known_default().unwrap_or(80);
        let pinned = policy::pinned(&addrs, port);
        let answer =
            fetch::send(&url, domain.then_some(pinned.as_slice()), clock).map_err(|e| match e {
                WebError::Failed(m) => failed(m),
                other => other,
            })?;
        if matches!(answer.status, 301 | 302 | 303 | 307 | 308)
            && let Some(location) = answer.location.as_deref()
        {
            let next = convert::resolve_target(&url, location).map_err(|e| {
                WebError::Refused(format!(
                    "{story_or_url} redirected to `{location}`, which is not a valid URL ({e})"
                ))
            })?;
            hop(&mut visited, next.clone(), Via::Redirect(answer.status))?;
            url = next;
            continue;
        }
        let status = (answer.status, answer.reason.clone());
        let content_type = answer.content_type.clone();
        let body = fetch::read_body(answer, &url, cap, clock)?;
        let mut notes = Vec::new();
        if body.cut {
            notes.push(format!(
                "the body is longer than {cap} bytes (web.max_body_bytes); only its first \
                 {cap} bytes were used"
            ));
        }
        if let Some(why) = &body.ended_early {
            notes.push(format!(
                "the body ended early after {} bytes ({why}); what arrived is shown",
                body.bytes.len()
            ));
        }
        clock.step(format!("decoding {} bytes from {url}", body.bytes.len()))?;
        let mut doc = Decoded::new(body.bytes, body.cut, content_type.as_deref(), &url)?;
        // Before the conversion too: html2text drops control characters without a trace.
        doc.text = convert::escape_controls(doc.text);
        if doc.treatment == Treatment::Html
            && (200..300).contains(&status.0)
            && let Some(target) = refresh_target(&doc.text, &url, clock)?
            && let Ok(next) = convert::resolve_target(&url, &target)
            && next != url
        {
            hop(&mut visited, next.clone(), Via::Refresh)?;
            url = next;
            continue;
        }
        let text = if doc.treatment == Treatment::Html && !req.raw {
            convert_html(&doc.text, &url, clock, &mut notes).map_err(|e| match e {
                WebError::Failed(m) => failed(m),
                other => other,
            })?
        } else {
            doc.text
        };
        // Again after the conversion (character references such as `&#x1b;`); the copy kept
        // for paging holds the text as shown.
        let text = convert::escape_controls(text);
        clock.check()?;
        let chain = visited
            .iter()
            .map(|(u, via)| match via {
                Some(Via::Refresh) => format!("{u} (meta refresh)"),
                _ => u.to_string(),
            })
            .collect();
        return Ok(Document {
            url: first.to_string(),
            final_url: url.to_string(),
            status: status.0,
            reason: convert::escape_controls(status.1),
            content_type: convert::escape_controls(doc.content_type_line),
            chain,
            notes,
            raw: req.raw,
            text,
        });
    }
}

/// The target of the page's `<meta http-equiv="refresh">` when its delay is at most
/// [`MAX_REFRESH_SECS`]: only the first piece of the page (see [`html::plan`]), which holds
/// the head, is parsed for it. Followed with `raw` too: it is a hop, not a conversion.
fn refresh_target(src: &str, url: &Url, clock: &Clock) -> Result<Option<String>, WebError> {
    clock.step(format!("looking for a meta refresh in {url}"))?;
    let capped = html::cap_nesting(src);
    let src = capped.as_deref().unwrap_or(src);
    let Some(first) = html::plan(src, html::PIECE_BYTES).into_iter().next() else {
        return Ok(None);
    };
    let page = HtmlPage::parse(&src[first.range]).map_err(WebError::Failed)?;
    Ok(page
        .refresh
        .as_deref()
        .and_then(convert::parse_refresh)
        .filter(|(secs, _)| *secs <= MAX_REFRESH_SECS)
        .map(|(_, target)| target))
}

/// Converts an HTML page piece by piece (see [`html`]), checking the deadline between
/// pieces.
fn convert_html(
    src: &str,
    url: &Url,
    clock: &Clock,
    notes: &mut Vec<String>,
) -> Result<String, WebError> {
    clock.step(format!("converting {} bytes of HTML from {url}", src.len()))?;
    let capped = html::cap_nesting(src);
    let src = capped.as_deref().unwrap_or(src);
    let pieces = html::plan(src, html::PIECE_BYTES);
    let count = pieces.len();
    let mut converter = html::Converter::new(url, TEXT_WIDTH);
    let mut flattened = capped.is_some();
    let mut unindented = false;
    let mut buf = String::new();
    for (i, piece) in pieces.into_iter().enumerate() {
        clock.step(format!(
            "converting the HTML from {url} (part {} of {count})",
            i + 1
        ))?;
        buf.clear();
        buf.push_str(&piece.reopen);
        buf.push_str(&src[piece.range.clone()]);
        let page = HtmlPage::parse(&buf).map_err(WebError::Failed)?;
        flattened |= page.flattened;
        unindented |= page.unindented;
        converter
            .add(page, piece.blank_line_before)
            .map_err(WebError::Failed)?;
    }
    if flattened {
        notes.push(format!(
            "the page nests elements deeper than {}; deeper structure was flattened",
            html::MAX_DEPTH
        ));
    }
    if unindented {
        notes.push(format!(
            "the page nests lists, quotes or tables deeper than {} levels; deeper levels are \
             shown without indentation",
            html::MAX_INDENT
        ));
    }
    Ok(converter.finish())
}

/// Adds a hop, refusing a loop and more than [`MAX_HOPS`].
fn hop(visited: &mut Vec<(Url, Option<Via>)>, next: Url, via: Via) -> Result<(), WebError> {
    let mut chain: Vec<String> = visited.iter().map(|(u, _)| u.to_string()).collect();
    chain.push(redacted(&next));
    if visited.iter().any(|(u, _)| *u == next) {
        return Err(WebError::Refused(format!(
            "redirect loop: {}",
            chain.join(" → ")
        )));
    }
    if visited.len() > MAX_HOPS {
        return Err(WebError::Refused(format!(
            "more than {MAX_HOPS} redirects: {}",
            chain.join(" → ")
        )));
    }
    visited.push((next, Some(via)));
    Ok(())
}

/// A body judged and decoded.
struct Decoded {
    treatment: Treatment,
    content_type_line: String,
    text: String,
}

impl Decoded {
    /// Refuses binary content (by type or by bytes), chooses the charset and decodes.
    fn new(
        body: Vec<u8>,
        cut: bool,
        content_type: Option<&str>,
        url: &Url,
    ) -> Result<Decoded, WebError> {
        let essence = convert::essence(content_type);
        let declared = convert::treatment(essence.as_deref());
        let shown_type = content_type
            .map(str::trim)
            .filter(|t| !t.is_empty())
            .map(str::to_owned);
        let type_name = essence
            .clone()
            .unwrap_or_else(|| "no Content-Type".to_owned());
        let header_charset = convert::charset_param(content_type);
        let utf16 = body.starts_with(b"\xFF\xFE")
            || body.starts_with(b"\xFE\xFF")
            || header_charset
                .as_deref()
                .is_some_and(|c| c.to_ascii_lowercase().starts_with("utf-16"));
        if let Some(kind) = convert::binary_kind(&body, utf16) {
            return Err(WebError::Refused(format!(
                "{url} returned {type_name} ({} bytes) holding {kind}, which web-fetch does not \
                 convert",
                body.len()
            )));
        }
        if declared == Some(Treatment::Refused) {
            return Err(WebError::Refused(format!(
                "{url} returned {type_name} ({} bytes), which web-fetch does not convert",
                body.len()
            )));
        }
        let treatment = declared.unwrap_or_else(|| convert::sniff(&body));
        let content_type_line = shown_type.unwrap_or_else(|| match treatment {
            Treatment::Html => "(none; the body looks like HTML)".to_owned(),
            _ => "(none; shown as text)".to_owned(),
        });
        let charset = convert::choose_charset(
            &body,
            header_charset.as_deref(),
            treatment == Treatment::Html,
            cut,
        );
        let text = convert::decode(body, charset, cut);
        if utf16 && let Some(at) = text.find('\0') {
            return Err(WebError::Refused(format!(
                "{url} returned {type_name} holding binary data (a NUL character at offset \
                 {at}), which web-fetch does not convert"
            )));
        }
        Ok(Decoded {
            treatment,
            content_type_line,
            text,
        })
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_trust_layer_knows_the_default_cap() {
        assert_eq!(
            super::DEFAULT_MAX_BODY_BYTES,
            crate::workspace::trust::DEFAULT_WEB_MAX_BODY_BYTES
        );
        assert_eq!(
            crate::exec::oneshot::DEFAULT_TIMEOUT_MS,
            crate::workspace::trust::DEFAULT_EXEC_TIMEOUT_MS
        );
    }
}
