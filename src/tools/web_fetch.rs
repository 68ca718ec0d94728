//! `web-fetch`: fetch an http(s) page and return it as text for a model (spec 06,
//! "web-fetch"). The policy, transport, conversion and copies live in [`crate::web`].

use std::time::Duration;

use clap::Args;
use schemars::JsonSchema;
use serde::Deserialize;

use crate::error::{ErrorKind, Output, ToolError, ToolResult};
use crate::tools::Touches;
use crate::tools::{Group, Tool, ToolMeta};
use crate::web::cache::Copies;
use crate::web::policy::WebPolicy;
use crate::web::{self, Document, FetchRequest, WebError, page};
use crate::workspace::context::Ctx;

/// Default `max_chars`.
pub const DEFAULT_MAX_CHARS: u64 = 40_000;
/// Largest `max_chars`.
pub const MAX_MAX_CHARS: u64 = 200_000;
/// Default timeout of the whole fetch, in ms (spec 07; `--timeout-ms` overrides it).
pub const DEFAULT_TIMEOUT_MS: u64 = 30_000;
/// Longest URL, in characters (`maxLength`): far above what servers accept (8 KiB is usual).
pub const MAX_URL_CHARS: u32 = 32 << 10;

/// Arguments of web_fetch.
#[derive(Debug, Clone, Deserialize, JsonSchema, Args)]
#[serde(deny_unknown_fields)]
pub struct WebFetchArgs {
    /// The http:// or https:// URL to fetch.
    #[schemars(length(min = 1, max = MAX_URL_CHARS))]
    pub url: String,
    /// Most characters to return (default 40000, at most 200000).
    #[arg(long)]
    #[schemars(range(min = 1, max = 200_000))]
    pub max_chars: Option<u64>,
    /// Character offset to start at, to continue a long page (default 0). With a value above
    /// 0 the text comes from the copy kept by the earlier call, so the pages join exactly;
    /// 0 always fetches afresh.
    #[arg(long)]
    #[schemars(range(min = 0))]
    pub start_index: Option<u64>,
    /// Return the page's decoded text as it is, without converting HTML to text (default
    /// false).
    #[arg(long)]
    pub raw: Option<bool>,
}

/// The web_fetch tool.
pub struct WebFetch;

impl Tool for WebFetch {
    type Args = WebFetchArgs;
    const NAME: &'static str = "web_fetch";
    const META: ToolMeta = ToolMeta {
        description: "Fetch an http or https URL and return the page as plain text.\n\
HTML is converted to text (no scripts or styles; links as numbered references with absolute \
URLs); text, JSON and XML come as they are; PDFs, images and other binary content are refused. \
Any charset is decoded. Redirects are followed (at most 5) and listed. Long pages are cut at \
max_chars characters; the last line then gives the start_index that continues the same copy. \
Loopback, private, link-local and cloud metadata addresses are refused unless configured. \
4xx/5xx pages are returned with their status.",
        examples: "  agtool web-fetch https://docs.rs/regex/latest/regex/\n  agtool web-fetch https://example.com/big-page --start-index 40000\n  agtool web-fetch https://example.com/feed.xml --raw true --max-chars 5000",
        group: Group::Web,
        sensitive: true,
        serial: false,
        read_only: true,
        destructive: false,
        idempotent: true,
        open_world: true,
        // web_fetch keeps its own single deadline (30 s, or --timeout-ms) so that a timeout
        // can say what it was waiting for; see `run`.
        timeout_ms: None,
        body: None,
        tags: &["web", "fetch"],
    };

    fn touches(args: &Self::Args) -> Touches {
        Touches {
            url: Some(args.url.clone()),
            ..Touches::default()
        }
    }

    fn run(ctx: &Ctx, args: WebFetchArgs) -> ToolResult {
        let web_config = ctx.config.web.as_ref();
        let policy = WebPolicy::from_config(web_config)
            .map_err(ToolError::usage)?
            .with_untrusted(ctx.untrusted.clone());
        let max_body_bytes = web_config
            .and_then(|w| w.max_body_bytes)
            .unwrap_or(web::DEFAULT_MAX_BODY_BYTES);
        if max_body_bytes == 0 {
            return Err(ToolError::usage(
                "web.max_body_bytes must be at least 1 (default 5242880)",
            ));
        }
        let mut notes = Vec::new();
        if max_body_bytes > web::MAX_BODY_BYTES_CEILING {
            notes.push(format!(
                "web.max_body_bytes {max_body_bytes} is above the most agtool reads of a body; \
                 {} is used",
                web::MAX_BODY_BYTES_CEILING
            ));
        }
        let max_body_bytes = max_body_bytes.min(web::MAX_BODY_BYTES_CEILING);
        let timeout_ms = ctx.timeout_ms.unwrap_or(DEFAULT_TIMEOUT_MS);
        let start = args.start_index.unwrap_or(0) as usize;
        let max_chars = args
            .max_chars
            .unwrap_or(DEFAULT_MAX_CHARS)
            .min(MAX_MAX_CHARS) as usize;
        let raw = args.raw.unwrap_or(false);
        let url = web::parse_url(&args.url)
            .map_err(|e| tool_error(e, timeout_ms))?
            .to_string();
        let copies = Copies::new(&ctx.root);
        let mut copy_age = None;
        let doc = match (start > 0).then(|| copies.load(&url, raw)).flatten() {
            Some((doc, age)) => {
                copy_age = Some(age);
                doc
            }
            None => {
                if start > 0 {
                    notes.push(
                        "no copy of this URL from the last 15 minutes: fetched afresh, so this \
                         page may not join the earlier ones exactly"
                            .to_owned(),
                    );
                }
                let doc = web::fetch_document(&FetchRequest {
                    url: args.url.clone(),
                    raw,
                    policy,
                    max_body_bytes,
                    timeout: Duration::from_millis(timeout_ms),
                    cancel: ctx.cancel.clone(),
                })
                .map_err(|e| tool_error(e, timeout_ms))?;
                if let Err(e) = copies.store(&url, &doc) {
                    notes.push(format!(
                        "no copy was kept for start_index ({e}); a later page is fetched afresh"
                    ));
                }
                doc
            }
        };
        let w = page::window(&doc.text, start, max_chars).map_err(ToolError::refused)?;
        let text = page::render(&doc, &w, copy_age, &notes);
        Ok(fields(Output::text(text), &doc, &w, copy_age))
    }
}

/// The `--json` envelope's fields.
fn fields(out: Output, doc: &Document, w: &page::Window<'_>, copy_age: Option<u64>) -> Output {
    let next = (w.remaining > 0).then_some(w.start + w.shown);
    out.with("url", doc.final_url.as_str())
        .with("status", doc.status)
        .with("content_type", doc.content_type.as_str())
        .with("redirects", doc.chain.clone())
        .with("total_chars", w.total)
        .with("start_index", w.start)
        .with("shown_chars", w.shown)
        .with("next_start_index", next)
        .with("from_copy", copy_age.is_some())
}

/// Maps a web error to the tool's exit statuses (spec 00 and 06).
fn tool_error(e: WebError, timeout_ms: u64) -> ToolError {
    match e {
        WebError::Usage(m) => ToolError::usage(m),
        WebError::Refused(m) | WebError::Failed(m) => ToolError::refused(m),
        WebError::Timeout { waiting_for } => ToolError {
            kind: ErrorKind::Timeout,
            message: format!("web_fetch timed out after {timeout_ms} ms ({waiting_for})"),
            fields: serde_json::Map::new(),
        },
        WebError::Stopped => ToolError {
            kind: ErrorKind::Cancelled,
            message: "web_fetch was stopped before the page arrived".to_owned(),
            fields: serde_json::Map::new(),
        },
    }
}
