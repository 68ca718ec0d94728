//! `agtool mcp`: the tools of the enabled groups served over the Model Context Protocol on
//! stdio (spec 07 "mcp"), on rmcp, the official Rust SDK.
//!
//! rmcp reads and writes the JSON-RPC lines, answers `initialize` (protocol 2025-06-18 and
//! 2025-11-25 and older), `server/discover` (2026-07-28) and `ping`, runs every request in a
//! task of its own, cancels a request's token on `notifications/cancelled` and drops its
//! answer, skips blank and unparsable lines, answers a well-formed message of the wrong shape
//! (a JSON-RPC batch array) with -32600, and drops a line over [`MAX_LINE_BYTES`] without
//! holding more of it. The pieces here: [`stdio`] keeps the protocol streams private,
//! [`server`] lists and calls the registry's tools, [`calls`] runs one call on a blocking
//! thread under its timeout and stops it from outside.
//!
//! Each host connection is its own agent (issue 18 section 3): without `--agent` or
//! `AGTOOL_AGENT`, the server's calls record what they read under a new agent id
//! (`mcp-<12 hex digits>`), so a later conversation never edits a file only an earlier one read.
//! [`frames`] answers what rmcp would drop (a line over the limit) and mends its error replies.
//! `--http ADDR:PORT` serves the same tools over Streamable HTTP instead ([`http`]).
//!
//! End of input stops the server: every running call is stopped (exec trees killed), calls
//! that are writing files finish, answers already made are flushed, and the process exits 0,
//! within a second unless a write is under way. Sessions of exec_command belong to the
//! workspace's session server and live on.

pub mod calls;
pub mod frames;
pub mod http;
mod http_gate;
mod http_sessions;
pub mod server;
pub mod stdio;

use std::sync::atomic::Ordering;
use std::time::Duration;

use clap::{Arg, ArgMatches, Command};
use rmcp::ServiceExt;
use rmcp::service::ServerInitializeError;
use rmcp::transport::async_rw::AsyncRwTransport;
use tokio_util::sync::CancellationToken;

use crate::tools;
use crate::workspace::context::Ctx;
use server::Server;
use stdio::{EofWatch, Streams};

/// A new agent id for one host connection or MCP session: `<prefix>-` and 12 random hex
/// digits (48 bits: two ids of one workspace's lifetime never meet in practice).
pub fn new_agent_id(prefix: &str) -> String {
    use ring::rand::SecureRandom;
    let mut bytes = [0u8; 6];
    if ring::rand::SystemRandom::new().fill(&mut bytes).is_err() {
        // No system randomness: the clock and process id still tell connections apart.
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos() as u64);
        let mixed = nanos ^ (u64::from(std::process::id()) << 32);
        bytes.copy_from_slice(&mixed.to_le_bytes()[..6]);
    }
    let hex: String = bytes.iter().map(|b| format!("{b:02x}")).collect();
    format!("{prefix}-{hex}")
}

/// Whether the agent id was given (`--agent`, or a non-empty `AGTOOL_AGENT`): then every
/// connection and session shares it.
pub fn agent_given(flag: bool) -> bool {
    flag || std::env::var("AGTOOL_AGENT").is_ok_and(|a| !a.is_empty())
}

/// The longest request line taken, in bytes (newline included); a longer one is dropped and
/// the session goes on. rmcp's own default, stated here so the limit is ours.
pub const MAX_LINE_BYTES: usize = 16 << 20;

/// How long answers made while stopping may take to reach the client.
const FLUSH: Duration = Duration::from_millis(300);

/// The `mcp` subcommand.
pub fn command() -> Command {
    Command::new("mcp")
        .about("Serve the tools of the enabled groups to an MCP host over stdio")
        .long_about(
            "Serve the tools of the enabled groups (--groups; default files) to an MCP host \
             over stdio: the Model Context Protocol, one JSON-RPC message a line. Logs go to \
             stderr (RUST_LOG=debug for more). The server ends when its input ends.",
        )
        .after_help(
            "Examples:\n  agtool mcp --groups files,edit\n  claude mcp add agtool -- agtool mcp --groups files,edit\n  AGTOOL_MCP_TOKEN=$(cat token) agtool mcp --http 0.0.0.0:8765 --groups all",
        )
        .arg(
            Arg::new("http")
                .long("http")
                .value_name("ADDR:PORT")
                .help(
                    "Serve MCP over Streamable HTTP on this address (path /mcp) instead of \
                     stdio. Without a bearer token only a loopback address is accepted",
                ),
        )
        .arg(
            Arg::new("token_file")
                .long("token-file")
                .value_name("PATH")
                .requires("http")
                .help(
                    "With --http: the bearer token clients must send (Authorization: Bearer), \
                     read from this file [env: AGTOOL_MCP_TOKEN]",
                ),
        )
}

/// Runs the server until its input ends (stdio) or it is stopped (HTTP: SIGTERM, SIGINT);
/// returns the exit status (0; 2 for unknown groups or a bad --http value; 1 when the streams
/// or the address cannot be taken or the handshake fails; 128 + a signal that stopped it).
/// `agent_flag`: whether `--agent` was given (see [`agent_given`]).
pub fn run(mut ctx: Ctx, m: &ArgMatches, agent_flag: bool) -> i32 {
    if let Err(e) = tools::exposed(&ctx) {
        eprintln!("Error: {}", e.message);
        return e.exit_code();
    }
    init_logging();
    let fixed_agent = agent_given(agent_flag);
    if let Some(addr) = m.get_one::<String>("http") {
        let token_file = m
            .get_one::<String>("token_file")
            .map(std::path::PathBuf::from);
        return http::run(ctx, addr, token_file.as_deref(), fixed_agent);
    }
    if !fixed_agent {
        ctx.agent = new_agent_id("mcp");
    }
    let streams = match stdio::take() {
        Ok(s) => s,
        Err(e) => {
            eprintln!("Error: mcp: cannot take stdin and stdout for the protocol: {e}");
            return 1;
        }
    };
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
    let code = runtime.block_on(serve(Server::new(ctx), streams));
    // Tool threads still computing after a timeout or a stop are left behind: they can no
    // longer write, and the process is about to end.
    runtime.shutdown_background();
    code
}

/// Logs to stderr, filtered by RUST_LOG (default: warnings and errors).
fn init_logging() {
    use tracing_subscriber::EnvFilter;
    let filter = EnvFilter::try_from_default_env().unwrap_or_else(|_| EnvFilter::new("warn"));
    let _ = tracing_subscriber::fmt()
        .with_writer(std::io::stderr)
        .with_ansi(false)
        .with_env_filter(filter)
        .try_init();
}

async fn serve(server: Server, streams: Streams) -> i32 {
    let ended = CancellationToken::new();
    let reader = EofWatch::new(stdio::reader(streams.input), ended.clone());
    let frames = frames::spawn(Box::pin(reader), stdio::writer(streams.output));
    let output = frames.output;
    // The layer already refused longer lines; rmcp's own cap (without the newline) is a
    // backstop that never triggers.
    let transport = AsyncRwTransport::new_server(frames.reader, frames.writer)
        .with_max_line_length(MAX_LINE_BYTES + 1);
    let stopping = server.stopping.clone();
    let calls = server.calls.clone();
    let exit_code = server.exit_code.clone();
    let service = match server.serve(transport).await {
        Ok(service) => service,
        Err(ServerInitializeError::ConnectionClosed(_)) => {
            let _ = tokio::time::timeout(FLUSH, output).await;
            return 0;
        }
        Err(e) => {
            tracing::error!("mcp: the session did not start: {e}");
            return 1;
        }
    };
    let mut finished = tokio::spawn(service.waiting());
    let done = tokio::select! {
        _ = &mut finished => true,
        () = ended.cancelled() => false,
        () = stopping.cancelled() => false,
    };
    tracing::debug!("stopping");
    stopping.cancel();
    calls.close();
    calls.wait().await;
    if !done {
        let _ = tokio::time::timeout(FLUSH, finished).await;
    }
    let _ = tokio::time::timeout(FLUSH, output).await;
    exit_code.load(Ordering::SeqCst)
}
