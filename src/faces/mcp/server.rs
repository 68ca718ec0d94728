//! The MCP request handler: `tools/list` and `tools/call` written by hand over the registry
//! (spec 07 "mcp"); rmcp answers `initialize`, `server/discover` and `ping`.
//!
//! One [`Server`] serves one host connection (stdio) or one MCP session (HTTP): its context
//! carries the agent id keying freshness (issue 18 section 3). Every server of a process shares
//! the stop request, the set of running calls and the exit status.

use std::borrow::Cow;
use std::sync::Arc;
use std::sync::atomic::{AtomicI32, Ordering};
use std::time::{Duration, Instant};

use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, ContentBlock, Implementation,
    ListToolsResult, PaginatedRequestParams, ProgressNotificationParam, ProgressToken,
    ProtocolVersion, ServerCapabilities, ServerConfig, Tool,
};
use rmcp::service::{ElicitationMode, Peer, RequestContext};
use rmcp::{ErrorData, RoleServer, ServerHandler};
use serde_json::Value;
use tokio_util::sync::CancellationToken;
use tokio_util::task::TaskTracker;

use super::calls::{Call, Ending};
use crate::error::{ErrorKind, ToolResult};
use crate::faces::schema::{Format, Shape, definition};
use crate::interrupt::Cancel;
use crate::tools;
use crate::workspace::context::Ctx;

/// How often a call whose request carried a `progressToken` is reported while it runs
/// (issue 18 section 4: at least every 2 s).
pub const PROGRESS_EVERY: Duration = Duration::from_secs(1);

/// A token the HTTP face puts into a request's extensions: cancelled when the client's HTTP
/// request ends (the client went away), so that the call it carried is stopped.
#[derive(Clone, Debug)]
pub struct Disconnected(pub CancellationToken);

/// What the server shares between its requests.
#[derive(Clone)]
pub struct Server {
    ctx: Arc<Ctx>,
    /// Whether only protocol revisions with sessions are offered (HTTP without `--agent`: the
    /// 2026-07-28 revision has no session, so no agent identity to key freshness on).
    sessions_only: bool,
    /// Cancelled when the server stops (end of input, a termination signal).
    pub stopping: CancellationToken,
    /// Every running call, so that stopping can wait for them.
    pub calls: TaskTracker,
    /// The exit status once stopped: 0, or 128 + the signal that stopped an exec.
    pub exit_code: Arc<AtomicI32>,
}

impl Server {
    /// A server for the workspace of `ctx`.
    pub fn new(ctx: Ctx) -> Server {
        Server {
            ctx: Arc::new(ctx),
            sessions_only: false,
            stopping: CancellationToken::new(),
            calls: TaskTracker::new(),
            exit_code: Arc::new(AtomicI32::new(0)),
        }
    }

    /// A server for one more host connection or session: the same workspace, stop request and
    /// running calls, with `agent` as its agent id.
    pub fn for_agent(&self, agent: String) -> Server {
        let mut ctx = self.ctx.for_call(Cancel::never());
        ctx.agent = agent;
        Server {
            ctx: Arc::new(ctx),
            ..self.clone()
        }
    }

    /// This server, offering only the protocol revisions that have sessions (see
    /// [`Server::sessions_only`]).
    pub fn with_sessions_only(mut self, on: bool) -> Server {
        self.sessions_only = on;
        self
    }

    /// The agent id of this server's calls.
    pub fn agent(&self) -> &str {
        &self.ctx.agent
    }

    /// The tools this server lists, in the MCP shape (the same definitions as `agtool schema
    /// --format mcp`).
    pub fn tools(&self) -> Result<Vec<Tool>, ErrorData> {
        let shape = Shape {
            format: Format::Mcp,
            strict: false,
            extensions: false,
        };
        tools::exposed(&self.ctx)
            .map_err(|e| ErrorData::internal_error(e.message, None))?
            .iter()
            .map(|t| {
                serde_json::from_value(definition(t, shape)).map_err(|e| {
                    ErrorData::internal_error(format!("tool {}: {e}", t.spec.name), None)
                })
            })
            .collect()
    }

    async fn call(
        &self,
        request: CallToolRequestParams,
        cancelled: CancellationToken,
        peer: Peer<RoleServer>,
        progress: Option<(ProgressToken, rmcp::Peer<RoleServer>)>,
    ) -> Result<CallToolResponse, ErrorData> {
        // An unknown tool, or one outside the enabled groups, is a protocol error (-32602):
        // it was never listed. The message names the tools on offer (and, for a tool of a
        // group not enabled, the group: the registry's message says it).
        let tool = tools::exposed_tool(&self.ctx, &request.name)
            .map_err(|e| ErrorData::invalid_params(self.not_offered(e.message), None))?;
        let name = tool.spec.name;
        let args = Value::Object(request.arguments.unwrap_or_default());
        let call = Call {
            spec: tool.spec,
            args,
        };
        let asking = self.asking(peer);
        let base = asking.as_ref().unwrap_or(&self.ctx);
        let run = call.run(base, &cancelled, &self.stopping);
        let ending = match progress {
            None => run.await,
            Some((token, peer)) => with_progress(run, name, token, peer).await,
        };
        Ok(match ending {
            Ending::Result(result) => self.answer(result),
            Ending::TimedOut(e) => error_result(&e.message),
            // rmcp sends nothing for a cancelled request; for a stopping server the answer
            // may still reach a client that only closed its side for writing.
            Ending::Stopped => error_result("the call was stopped: the server is shutting down"),
        }
        .into())
    }

    /// A context whose `ask` rules (spec 10) ask the client's user through an elicitation
    /// request, when the client declared form elicitation; None otherwise (an `ask` is then
    /// answered with `isError` and `Approval needed: ...`). Accept approves the call; decline,
    /// cancel, an error or no answer within 10 minutes does not.
    fn asking(&self, peer: Peer<RoleServer>) -> Option<Ctx> {
        if !peer
            .supported_elicitation_modes()
            .contains(&ElicitationMode::Form)
        {
            return None;
        }
        let handle = tokio::runtime::Handle::current();
        let mut ctx = self.ctx.for_call(crate::interrupt::Cancel::never());
        ctx.asker = Some(Arc::new(move |question: &str| {
            let schema = serde_json::from_value(serde_json::json!({
                "type": "object", "properties": {}
            }))
            .ok()?;
            let params = rmcp::model::ElicitRequestParams::FormElicitationParams {
                meta: None,
                message: format!("Approval needed: {question}. Run this call?"),
                requested_schema: schema,
            };
            // The tool runs on a blocking thread, outside the runtime: it may wait here.
            let answer = handle
                .block_on(tokio::time::timeout(
                    std::time::Duration::from_secs(600),
                    peer.create_elicitation(params),
                ))
                .ok()?;
            Some(matches!(
                answer.ok()?.action,
                rmcp::model::ElicitationAction::Accept
            ))
        }));
        Some(ctx)
    }

    /// The message for a tool that is not offered, with the offered tools named when the
    /// registry's message does not name them already.
    fn not_offered(&self, message: String) -> String {
        if message.contains("the tools here:") {
            return message;
        }
        let offered: Vec<&str> = tools::exposed(&self.ctx)
            .map(|v| v.iter().map(|e| e.spec.name).collect())
            .unwrap_or_default();
        let offered = if offered.is_empty() {
            "none".to_owned()
        } else {
            offered.join(", ")
        };
        format!("{message}. The tools here: {offered}")
    }

    /// The answer to a finished call: its text, or `Error: ...` with `isError` for a refusal,
    /// an argument problem (every problem listed, spec 2025-11-25: validation failures are
    /// tool errors) or a timeout. A call interrupted by a termination signal stops the server.
    fn answer(&self, result: ToolResult) -> CallToolResult {
        match result {
            Ok(out) => CallToolResult::success(content_of(out)),
            Err(e) => {
                if let ErrorKind::Interrupted(sig) = e.kind {
                    self.exit_code.store(128 + sig, Ordering::SeqCst);
                    self.stopping.cancel();
                }
                // `Approval needed: ...` reads as is (spec 10); other errors as `Error: ...`.
                CallToolResult::error(vec![ContentBlock::text(e.model_text())])
            }
        }
    }
}

/// A result's content items: its text, then one `image` item for each entry of the
/// `images` field (`{"mime_type", "data"}`, base64) a media read returns (spec 09).
fn content_of(out: crate::error::Output) -> Vec<ContentBlock> {
    let mut content = vec![ContentBlock::text(out.text)];
    if let Some(Value::Array(images)) = out.fields.get("images") {
        for image in images {
            if let (Some(data), Some(mime)) = (
                image.get("data").and_then(Value::as_str),
                image.get("mime_type").and_then(Value::as_str),
            ) {
                content.push(ContentBlock::image(data, mime));
            }
        }
    }
    content
}

/// Runs `run` and, while it is not finished, sends `notifications/progress` for `token` every
/// [`PROGRESS_EVERY`]: the progress is the elapsed time in seconds, the message says so.
async fn with_progress<F: std::future::Future<Output = Ending>>(
    run: F,
    name: &str,
    token: ProgressToken,
    peer: rmcp::Peer<RoleServer>,
) -> Ending {
    let started = Instant::now();
    let mut tick =
        tokio::time::interval_at(tokio::time::Instant::now() + PROGRESS_EVERY, PROGRESS_EVERY);
    tokio::pin!(run);
    loop {
        tokio::select! {
            ending = &mut run => return ending,
            _ = tick.tick() => {
                let secs = started.elapsed().as_secs_f64();
                let mut note = ProgressNotificationParam::new(token.clone(), (secs * 10.0).round() / 10.0);
                note.message = Some(format!("{name} running for {:.0} s", secs.floor()));
                // A client that stopped listening does not stop the call.
                let _ = peer.notify_progress(note).await;
            }
        }
    }
}

fn error_result(message: &str) -> CallToolResult {
    CallToolResult::error(vec![ContentBlock::text(format!("Error: {message}"))])
}

impl ServerHandler for Server {
    fn get_info(&self) -> ServerConfig {
        let mut info = ServerConfig::new(ServerCapabilities::builder().enable_tools().build());
        let mut implementation = Implementation::new("agtool", env!("CARGO_PKG_VERSION"));
        implementation.title = Some("agtool".into());
        implementation.description = Some(env!("CARGO_PKG_DESCRIPTION").into());
        info.server_info = implementation;
        info.instructions = Some(format!(
            "Tools for the workspace at {}. Paths are relative to {}. Read a file before \
             editing it: the edit tools refuse files that were not read or that changed since.",
            self.ctx.root.display(),
            self.ctx.cwd.display()
        ));
        info
    }

    fn supported_protocol_versions(&self) -> Cow<'static, [ProtocolVersion]> {
        if self.sessions_only {
            Cow::Owned(
                ProtocolVersion::KNOWN_VERSIONS
                    .iter()
                    .filter(|v| v.as_str() < ProtocolVersion::V_2026_07_28.as_str())
                    .cloned()
                    .collect(),
            )
        } else {
            Cow::Borrowed(ProtocolVersion::KNOWN_VERSIONS)
        }
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        Ok(ListToolsResult::with_all_items(self.tools()?))
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        if self.calls.is_closed() {
            return Ok(error_result("the server is shutting down").into());
        }
        // Over HTTP, the client going away stops the call like a cancellation.
        let cancelled = context.ct.child_token();
        if let Some(Disconnected(gone)) = context
            .extensions
            .get::<http::request::Parts>()
            .and_then(|p| p.extensions.get::<Disconnected>())
            .cloned()
        {
            let cancelled = cancelled.clone();
            tokio::spawn(async move {
                tokio::select! {
                    () = gone.cancelled() => cancelled.cancel(),
                    () = cancelled.cancelled() => {}
                }
            });
        }
        let progress = context
            .meta
            .get_progress_token()
            .map(|t| (t, context.peer.clone()));
        let done = cancelled.clone().drop_guard();
        let answer = self
            .calls
            .track_future(self.call(request, cancelled, context.peer.clone(), progress))
            .await;
        // Ends the watcher above (the call is over; nothing is left to stop).
        drop(done);
        answer
    }
}
