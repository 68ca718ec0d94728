//! The MCP request handler: `tools/list` and `tools/call` written by hand over the registry
//! (spec 07 "mcp"); rmcp answers `initialize`, `server/discover` and `ping`.

use std::sync::Arc;
use std::sync::atomic::{AtomicI32, Ordering};

use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, ContentBlock, Implementation,
    ListToolsResult, PaginatedRequestParams, ServerCapabilities, ServerConfig, Tool,
};
use rmcp::service::{ElicitationMode, Peer, RequestContext};
use rmcp::{ErrorData, RoleServer, ServerHandler};
use serde_json::Value;
use tokio_util::sync::CancellationToken;
use tokio_util::task::TaskTracker;

use super::calls::{Call, Ending};
use crate::error::{ErrorKind, ToolResult};
use crate::faces::schema::{Format, Shape, definition};
use crate::tools;
use crate::workspace::context::Ctx;

/// What the server shares between its requests.
#[derive(Clone)]
pub struct Server {
    ctx: Arc<Ctx>,
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
            stopping: CancellationToken::new(),
            calls: TaskTracker::new(),
            exit_code: Arc::new(AtomicI32::new(0)),
        }
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
    ) -> Result<CallToolResponse, ErrorData> {
        // An unknown tool, or one outside the enabled groups, is a protocol error (-32602):
        // it was never listed.
        let tool = tools::exposed_tool(&self.ctx, &request.name)
            .map_err(|e| ErrorData::invalid_params(e.message, None))?;
        let args = Value::Object(request.arguments.unwrap_or_default());
        let call = Call {
            spec: tool.spec,
            args,
        };
        let asking = self.asking(peer);
        let base = asking.as_ref().unwrap_or(&self.ctx);
        let ending = call.run(base, &cancelled, &self.stopping).await;
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
        self.calls
            .track_future(self.call(request, context.ct.clone(), context.peer.clone()))
            .await
    }
}
