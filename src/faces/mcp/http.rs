//! `agtool mcp --http ADDR:PORT`: the same tools over MCP Streamable HTTP (spec 10, "agtool
//! where agents run"), for agents whose tools run in another container or machine.
//!
//! rmcp's `StreamableHttpService` speaks the protocol (POST, GET and DELETE on any path;
//! sessions with `Mcp-Session-Id`); hyper's HTTP/1 server carries it. In front of rmcp, every
//! request passes [`Gate`]: no token in the query string, a `Host` of this server, an `Origin`
//! that is not another site's, the bearer token when one is set (`--token-file` or
//! `AGTOOL_MCP_TOKEN`; without one only a loopback address is accepted), a body within
//! [`MAX_BODY_BYTES`] (rmcp counts the bytes of a body without a length too).
//!
//! Each MCP session gets its own [`Server`] and agent id (`mcp-http-<hex>`) unless `--agent`
//! names one; without it only the protocol revisions that have sessions are offered (the
//! 2026-07-28 revision has none, so no identity to key freshness on). Sessions are bounded
//! ([`BoundedSessions`]). A call whose HTTP request ends before its answer (the client went
//! away) is stopped like a cancelled one: its exec trees are killed. SIGTERM or SIGINT stop
//! the server: no new connection is taken, running calls are stopped (trees killed; a call
//! writing files finishes), the sessions are closed and the process exits with 128 + the
//! signal.

use std::convert::Infallible;
use std::net::SocketAddr;
use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::Duration;

use bytes::Bytes;
use http_body_util::combinators::BoxBody;
use http_body_util::{BodyExt, Full};
use hyper::body::Incoming;
use hyper::{Request, Response};
use hyper_util::rt::{TokioIo, TokioTimer};
use rmcp::transport::streamable_http_server::{StreamableHttpServerConfig, StreamableHttpService};
use tokio::net::TcpListener;
use tokio_util::sync::CancellationToken;
use tokio_util::task::TaskTracker;

use super::MAX_LINE_BYTES;
use super::http_gate::{Gate, Refusal};
use super::http_sessions::{BoundedSessions, IDLE_CLOSE, MAX_SESSIONS};
use super::server::{Disconnected, Server};
use crate::workspace::context::Ctx;

/// The largest request body taken: the stdio face's line limit.
pub const MAX_BODY_BYTES: usize = MAX_LINE_BYTES;

/// The longest token file read, in bytes.
const MAX_TOKEN_FILE: u64 = 4096;

/// How long open connections get to finish once the server stops.
const DRAIN: Duration = Duration::from_millis(500);

/// How long a client may take to send a request's headers (from the connection's start, or
/// from the first byte of a later request on it) before the connection is closed: a client
/// that opens connections and sends a header byte now and then would otherwise hold a task
/// and a socket each, for ever.
pub const HEADER_READ_TIMEOUT: Duration = Duration::from_secs(10);

type Body = BoxBody<Bytes, Infallible>;
type Service = StreamableHttpService<Server, BoundedSessions>;

/// Parses `ADDR:PORT` (`127.0.0.1:8765`, `[::1]:8765`, `localhost:8765`, `0.0.0.0:8765`).
pub fn parse_addr(spelled: &str) -> Result<SocketAddr, String> {
    if let Ok(a) = spelled.parse::<SocketAddr>() {
        return Ok(a);
    }
    if let Some(port) = spelled.strip_prefix("localhost:")
        && let Ok(port) = port.parse::<u16>()
    {
        return Ok(SocketAddr::from(([127, 0, 0, 1], port)));
    }
    Err(format!(
        "--http {spelled:?} is not ADDR:PORT (for example 127.0.0.1:8765, [::1]:8765, \
         0.0.0.0:8765)"
    ))
}

/// The bearer token: the file's content (trimmed) when `file` is given, else
/// `AGTOOL_MCP_TOKEN`; None when neither is set. Errors: an unreadable, oversized or empty
/// file, or a token with characters a header cannot carry.
pub fn load_token(file: Option<&Path>) -> Result<Option<String>, String> {
    let (token, from) = match file {
        Some(path) => {
            use std::io::Read;
            let f = std::fs::File::open(path)
                .map_err(|e| format!("cannot read the token file {}: {e}", path.display()))?;
            let mut text = String::new();
            f.take(MAX_TOKEN_FILE + 1)
                .read_to_string(&mut text)
                .map_err(|e| format!("cannot read the token file {}: {e}", path.display()))?;
            if text.len() as u64 > MAX_TOKEN_FILE {
                return Err(format!(
                    "the token file {} is over {MAX_TOKEN_FILE} bytes",
                    path.display()
                ));
            }
            (
                text.trim().to_owned(),
                format!("the token file {}", path.display()),
            )
        }
        None => match std::env::var("AGTOOL_MCP_TOKEN") {
            Ok(t) if !t.trim().is_empty() => (t.trim().to_owned(), "AGTOOL_MCP_TOKEN".to_owned()),
            _ => return Ok(None),
        },
    };
    if token.is_empty() {
        return Err(format!("{from} is empty"));
    }
    if !token.bytes().all(|b| b.is_ascii_graphic()) {
        return Err(format!(
            "{from} holds characters a bearer token cannot have (spaces, control or \
             non-ASCII characters)"
        ));
    }
    Ok(Some(token))
}

/// Runs the HTTP server until SIGTERM or SIGINT; returns the exit status (2 for a bad
/// address or token setting, 1 when the address cannot be taken, else 128 + the signal).
pub fn run(ctx: Ctx, addr: &str, token_file: Option<&Path>, fixed_agent: bool) -> i32 {
    let addr = match parse_addr(addr) {
        Ok(a) => a,
        Err(e) => {
            eprintln!("Error: {e}");
            return 2;
        }
    };
    let token = match load_token(token_file) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("Error: {e}");
            return 2;
        }
    };
    if token.is_none() && !addr.ip().to_canonical().is_loopback() {
        eprintln!(
            "Error: --http {addr} is not a loopback address and no token is set: anyone who \
             can reach it could run the tools. Set one with --token-file or AGTOOL_MCP_TOKEN, \
             or listen on 127.0.0.1"
        );
        return 2;
    }
    let runtime = match tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .thread_name("agtool-mcp")
        .enable_all()
        .build()
    {
        Ok(rt) => rt,
        Err(e) => {
            eprintln!("Error: mcp: cannot start the runtime: {e}");
            return 1;
        }
    };
    let server = Server::new(ctx).with_sessions_only(!fixed_agent);
    let code = runtime.block_on(serve(server, addr, token, fixed_agent));
    runtime.shutdown_background();
    code
}

async fn serve(server: Server, addr: SocketAddr, token: Option<String>, fixed_agent: bool) -> i32 {
    let listener = match TcpListener::bind(addr).await {
        Ok(l) => l,
        Err(e) => {
            eprintln!("Error: mcp: cannot listen on {addr}: {e}");
            return 1;
        }
    };
    let local = listener.local_addr().unwrap_or(addr);
    let (mut term, mut int) = match (
        tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()),
        tokio::signal::unix::signal(tokio::signal::unix::SignalKind::interrupt()),
    ) {
        (Ok(t), Ok(i)) => (t, i),
        (Err(e), _) | (_, Err(e)) => {
            eprintln!("Error: mcp: cannot watch for signals: {e}");
            return 1;
        }
    };
    let sessions_closed = CancellationToken::new();
    let mut config = StreamableHttpServerConfig::default()
        .with_cancellation_token(sessions_closed.clone())
        .with_max_request_body_bytes(MAX_BODY_BYTES);
    // The gate checks Host before rmcp: loopback names without a token, any with one.
    config = config.disable_allowed_hosts();
    let base = server.clone();
    let service: Service = StreamableHttpService::new(
        move || {
            Ok(if fixed_agent {
                base.clone()
            } else {
                base.for_agent(super::new_agent_id("mcp-http"))
            })
        },
        Arc::new(BoundedSessions::new(MAX_SESSIONS, IDLE_CLOSE)),
        config,
    );
    let gate = Arc::new(Gate {
        token,
        max_body: MAX_BODY_BYTES,
    });
    // The one line a supervisor (or a test) waits for, with the port when 0 was asked.
    eprintln!("agtool mcp: listening on http://{local}/mcp");
    let connections = TaskTracker::new();
    let stopping = server.stopping.clone();
    loop {
        tokio::select! {
            accepted = listener.accept() => {
                let Ok((stream, _)) = accepted else { continue };
                let _ = stream.set_nodelay(true);
                connections.spawn(connection(stream, service.clone(), gate.clone(), sessions_closed.clone()));
            }
            _ = term.recv() => {
                server.exit_code.store(128 + libc::SIGTERM, Ordering::SeqCst);
                break;
            }
            _ = int.recv() => {
                server.exit_code.store(128 + libc::SIGINT, Ordering::SeqCst);
                break;
            }
            () = stopping.cancelled() => break,
        }
    }
    drop(listener);
    tracing::debug!("stopping");
    stopping.cancel();
    server.calls.close();
    server.calls.wait().await;
    sessions_closed.cancel();
    connections.close();
    let _ = tokio::time::timeout(DRAIN, connections.wait()).await;
    server.exit_code.load(Ordering::SeqCst)
}

/// Serves one TCP connection until it ends or the server stops.
async fn connection(
    stream: tokio::net::TcpStream,
    service: Service,
    gate: Arc<Gate>,
    closing: CancellationToken,
) {
    let handler = hyper::service::service_fn(move |req| {
        let service = service.clone();
        let gate = gate.clone();
        async move { Ok::<_, Infallible>(handle(req, &service, &gate).await) }
    });
    let conn = hyper::server::conn::http1::Builder::new()
        .timer(TokioTimer::new())
        .header_read_timeout(HEADER_READ_TIMEOUT)
        .serve_connection(TokioIo::new(stream), handler);
    tokio::pin!(conn);
    tokio::select! {
        _ = &mut conn => {}
        () = closing.cancelled() => {
            conn.as_mut().graceful_shutdown();
            let _ = tokio::time::timeout(DRAIN, conn).await;
        }
    }
}

/// One request: the gate, then rmcp, with the client's going away watched.
async fn handle(mut req: Request<Incoming>, service: &Service, gate: &Gate) -> Response<Body> {
    if let Err(refusal) = gate.check(req.uri().query(), req.headers()) {
        return refused(refusal, gate.token.is_some());
    }
    let gone = CancellationToken::new();
    req.extensions_mut().insert(Disconnected(gone.clone()));
    let response = service.handle(req).await;
    // The body ends when its last byte is sent or the connection is dropped; either way the
    // call it answered is over or must be stopped.
    let guard = gone.drop_guard();
    response.map(|body| {
        body.map_frame(move |frame| {
            let _held = &guard;
            frame
        })
        .boxed()
    })
}

fn refused(refusal: Refusal, token_set: bool) -> Response<Body> {
    let mut builder = Response::builder()
        .status(refusal.status)
        .header(http::header::CONTENT_TYPE, "text/plain; charset=utf-8");
    if refusal.status == http::StatusCode::UNAUTHORIZED && token_set {
        builder = builder.header(http::header::WWW_AUTHENTICATE, "Bearer");
    }
    builder
        .body(Full::new(Bytes::from(refusal.message + "\n")).boxed())
        .unwrap_or_else(|_| Response::new(Full::new(Bytes::new()).boxed()))
}
