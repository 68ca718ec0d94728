//! `exec-command`: start a shell command as a session that outlives the call (spec 05,
//! "exec-command and write-stdin"). The session server lives in [`crate::exec::session`].

use std::os::fd::AsRawFd;

use clap::Args;
use schemars::JsonSchema;
use serde::Deserialize;

use crate::error::{ToolError, ToolResult};
use crate::exec::session::{self, ExecCommandRequest};
use crate::tools::Touches;
use crate::tools::{Group, Tool, ToolMeta};
use crate::workspace::context::Ctx;
use crate::workspace::root;

/// Arguments of exec-command.
#[derive(Debug, Clone, Deserialize, JsonSchema, Args)]
#[serde(deny_unknown_fields)]
pub struct ExecCommandArgs {
    /// The shell command line, run as `<shell> -c <cmd>`.
    #[arg(value_name = "CMD")]
    #[schemars(length(min = 1, max = crate::args::MAX_COMMAND_CHARS))]
    pub cmd: String,
    /// Working directory (default: the current directory).
    #[arg(long, value_name = "DIR")]
    #[schemars(length(max = crate::args::MAX_PATH_CHARS))]
    pub workdir: Option<String>,
    /// The shell (default: config exec.shell, else /bin/bash).
    #[arg(long)]
    #[schemars(length(max = crate::args::MAX_PATH_CHARS))]
    pub shell: Option<String>,
    /// Run the shell as a login shell (-lc instead of -c; default false).
    #[arg(long)]
    pub login: Option<bool>,
    /// How long to wait for output before returning, in ms (default 10000; 250..30000). The
    /// call returns earlier when the command exits.
    #[arg(long, value_name = "MS")]
    pub yield_time_ms: Option<u64>,
    /// Output budget in tokens, 4 bytes each (default 10000); longer output keeps its head
    /// and tail.
    #[arg(long, value_name = "N")]
    pub max_output_tokens: Option<u64>,
}

/// The exec-command tool.
pub struct ExecCommand;

impl Tool for ExecCommand {
    type Args = ExecCommandArgs;
    const NAME: &'static str = "exec_command";
    const META: ToolMeta = ToolMeta {
        description: "Start a shell command that keeps running between calls (a server, a watcher, a REPL).\n\
Waits up to yield_time_ms for output, then returns what was printed. If the process is still \
running, the reply says `Process running with session ID <id>`: pass that id to write_stdin to \
send input or read more output. Otherwise it gives the exit code. No terminal: programs see pipes. \
For a command that simply runs to completion, exec is simpler.",
        examples: "  agtool exec-command 'npm run dev' --yield-time-ms 3000\n  agtool exec-command 'python3 -i -q' --yield-time-ms 1000\n  agtool exec-command 'cargo watch -x check' --workdir crates/core",
        group: Group::Exec,
        sensitive: true,
        serial: true,
        read_only: false,
        destructive: true,
        idempotent: false,
        open_world: true,
        timeout_ms: None,
        body: None,
        tags: &["exec", "process", "session"],
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
        // Split as the shell would; a line shlex cannot split (an open quote) is split at
        // whitespace, so a prefix rule still sees its words.
        let argv = shlex::split(&args.cmd)
            .unwrap_or_else(|| args.cmd.split_whitespace().map(str::to_owned).collect());
        Touches {
            argv: Some(argv),
            ..Touches::default()
        }
    }

    fn run(ctx: &Ctx, args: ExecCommandArgs) -> ToolResult {
        // The workdir is opened as a handle, and the session starts in that very folder.
        let opened = ctx.open_workdir(args.workdir.as_deref())?;
        let (workdir, workdir_fd) = match &opened {
            Some((path, dir)) => (path.clone(), Some(dir.fd().as_raw_fd())),
            None => (ctx.cwd.clone(), None),
        };
        let shell = args
            .shell
            .or_else(|| ctx.config.exec.as_ref().and_then(|e| e.shell.clone()));
        let state_dir = root::ensure_state_dir(&ctx.root).map_err(|e| {
            ToolError::refused(format!("cannot create {}: {e}", ctx.state_dir().display()))
        })?;
        let req = ExecCommandRequest {
            cmd: args.cmd,
            workdir: Some(workdir),
            workdir_fd,
            shell,
            login: args.login.unwrap_or(false),
            yield_time_ms: args.yield_time_ms,
            max_output_tokens: args.max_output_tokens,
            prefix: ctx.exec_prefix(),
            env: None,
            private_tmp: None,
        };
        // The sandbox (spec 08) goes in front of the config's prefix and the shell. The
        // session's private temp folder outlives this call (the session does).
        let mut sandbox = crate::sandbox::prepare(ctx).map_err(ToolError::refused)?;
        let req = ExecCommandRequest {
            prefix: sandbox.prefix_with(req.prefix),
            private_tmp: sandbox.tmpdir.as_ref().map(|t| t.path().to_path_buf()),
            ..req
        };
        let reply = session::client::exec_command(&state_dir, &req);
        // The session server removes it when the session ends; without a session, this call
        // removes it (dropping `sandbox`).
        if reply.is_ok() {
            sandbox.hand_over_tmp = true;
        }
        drop(opened); // open until the server has started the command in it
        let reply = reply?;
        let exit = match reply.status {
            session::SessionStatus::Exited { exit_code } => exit_code,
            session::SessionStatus::Running { .. } => 0,
        };
        let mut out = reply.into_output();
        out.text = sandbox
            .finish(exit, false, out.text)
            .map_err(ToolError::refused)?;
        Ok(out)
    }
}
