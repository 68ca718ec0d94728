//! `exec`: run a command once, without a shell, and report its exit code and output
//! (spec 05, "exec (one shot)"). The process work lives in [`crate::exec`].

use clap::Args;
use schemars::JsonSchema;
use serde::Deserialize;

use crate::error::{ErrorKind, Output, ToolError, ToolResult};
use crate::exec::oneshot::{DEFAULT_MAX_OUTPUT_BYTES, DEFAULT_TIMEOUT_MS, MAX_TIMEOUT_MS};
use crate::exec::{ExecError, ExecRequest};
use crate::tools::Touches;
use crate::tools::{Group, Tool, ToolMeta};
use crate::workspace::context::Ctx;

/// Largest `max_output_bytes`: the buffer holds this much at most, whatever the command prints.
pub const MAX_OUTPUT_BYTES_LIMIT: u64 = 16 << 20;

/// Arguments of exec.
#[derive(Debug, Clone, Deserialize, JsonSchema, Args)]
#[serde(deny_unknown_fields)]
pub struct ExecArgs {
    /// The program and its arguments, run as is: no shell (write ["bash", "-lc", "..."] for
    /// pipes, globs or &&).
    #[arg(
        required = true,
        num_args = 1..,
        trailing_var_arg = true,
        allow_hyphen_values = true,
        value_name = "ARGV"
    )]
    #[schemars(length(min = 1, max = crate::args::MAX_COMMAND_ITEMS), inner(length(max = crate::args::MAX_COMMAND_CHARS)))]
    pub command: Vec<String>,
    /// Working directory (default: the current directory).
    #[arg(long, value_name = "DIR")]
    #[schemars(length(max = crate::args::MAX_PATH_CHARS))]
    pub workdir: Option<String>,
    /// Kill the command (and everything it started) after this many milliseconds (default
    /// 10000; CLI: the global --timeout-ms).
    #[arg(skip)]
    #[schemars(range(min = 1, max = 600_000))]
    pub timeout_ms: Option<u64>,
    /// Output budget in bytes: the first half and the last half are kept, the middle is
    /// dropped and counted (default 30000).
    #[arg(long, value_name = "BYTES")]
    #[schemars(range(min = 1, max = 16_777_216))]
    pub max_output_bytes: Option<u64>,
    /// CLI only: exit with the command's exit code instead of 0.
    #[arg(long)]
    #[serde(skip)]
    #[schemars(skip)]
    pub exit_code: bool,
}

/// The exec tool.
pub struct Exec;

impl Tool for Exec {
    type Args = ExecArgs;
    const NAME: &'static str = "exec";
    const META: ToolMeta = ToolMeta {
        description: "Run a command once and return its exit code and output.\n\
command is an argv list passed to the program directly, no shell: use [\"bash\", \"-lc\", \"...\"] \
for pipes, globs, && or redirects. stdin is closed; stdout and stderr come interleaved. The command \
and everything it starts are killed after timeout_ms (default 10000, exit code 124). Long output \
keeps its head and tail. For servers, watchers and REPLs use exec_command instead.",
        examples: "  agtool exec -- cargo test --quiet\n  agtool exec --workdir web -- npm run lint\n  agtool exec --timeout-ms 60000 -- bash -lc 'make 2>&1 | tail -50'\n  agtool exec --exit-code -- git diff --quiet",
        group: Group::Exec,
        sensitive: true,
        serial: true,
        read_only: false,
        destructive: true,
        idempotent: false,
        open_world: true,
        timeout_ms: None,
        body: None,
        tags: &["exec", "process"],
    };

    fn view(ctx: &Ctx) -> Result<crate::tools::ToolView, String> {
        let mut view = crate::tools::ToolView::of(Self::META);
        view.description = format!(
            "{}\n{}",
            Self::META.description,
            crate::sandbox::sentence(ctx)
        )
        .into();
        Ok(view)
    }

    fn touches(args: &Self::Args) -> Touches {
        Touches {
            argv: Some(args.command.clone()),
            ..Touches::default()
        }
    }

    fn run(ctx: &Ctx, args: ExecArgs) -> ToolResult {
        let timeout_ms = args
            .timeout_ms
            .or(ctx.timeout_ms)
            .or(ctx.config.exec.as_ref().and_then(|e| e.timeout_ms))
            .unwrap_or(DEFAULT_TIMEOUT_MS);
        if timeout_ms == 0 || timeout_ms > MAX_TIMEOUT_MS {
            return Err(ToolError::usage(
                ExecError::BadTimeout(timeout_ms).to_string(),
            ));
        }
        // The workdir is opened as a handle and the command starts in that very folder.
        let (workdir, workdir_handle) = match ctx.open_workdir(args.workdir.as_deref())? {
            Some((path, dir)) => (Some(path), Some(std::sync::Arc::new(dir.into_fd()))),
            None => (None, None),
        };
        // The sandbox (spec 08) goes in front of the command and the config's prefix.
        let sandbox = crate::sandbox::prepare(ctx).map_err(ToolError::refused)?;
        if !sandbox.prefix.is_empty() {
            let words = crate::exec::with_prefix(&ctx.exec_prefix(), &args.command);
            let dir = workdir.as_deref().unwrap_or(&ctx.cwd);
            crate::sandbox::check_program(&words, dir).map_err(|reason| {
                ToolError::refused(
                    crate::exec::SpawnError {
                        argv0: words.first().cloned().unwrap_or_default(),
                        reason,
                    }
                    .to_string(),
                )
            })?;
        }
        let req = ExecRequest {
            argv: args.command,
            workdir,
            workdir_handle,
            timeout_ms,
            max_output_bytes: args.max_output_bytes.map_or(DEFAULT_MAX_OUTPUT_BYTES, |b| {
                b.min(MAX_OUTPUT_BYTES_LIMIT) as usize
            }),
            prefix: sandbox.prefix_with(ctx.exec_prefix()),
            cancel: ctx.cancel.clone(),
        };
        let outcome = crate::exec::run(&req).map_err(|e| match e {
            ExecError::EmptyCommand | ExecError::BadTimeout(_) => ToolError::usage(e.to_string()),
            ExecError::BadWorkdir(_) | ExecError::Spawn(_) => ToolError::refused(e.to_string()),
            ExecError::Interrupted(sig) => ToolError {
                kind: ErrorKind::Interrupted(sig),
                message: e.to_string(),
                fields: serde_json::Map::new(),
            },
            ExecError::Cancelled => ToolError {
                kind: ErrorKind::Cancelled,
                message: e.to_string(),
                fields: serde_json::Map::new(),
            },
        })?;
        let text = sandbox
            .finish(outcome.exit_code, outcome.timed_out, outcome.to_text())
            .map_err(ToolError::refused)?;
        Ok(Output::text(text)
            .with("exit_code", outcome.exit_code)
            .with("timed_out", outcome.timed_out)
            .with("wall_time_ms", outcome.wall_time.as_millis() as u64)
            .with("total_lines", outcome.output.total_lines)
            .with("omitted_bytes", outcome.output.omitted_bytes))
    }
}
