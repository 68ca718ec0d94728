//! `write-stdin`: write to a session started by exec-command, or poll it for output
//! (spec 05, "exec-command and write-stdin").

use clap::Args;
use schemars::JsonSchema;
use serde::Deserialize;

use crate::error::ToolResult;
use crate::exec::session::{self, SessionError, WriteStdinRequest};
use crate::tools::{Group, Tool, ToolMeta};
use crate::workspace::context::Ctx;

/// Arguments of write-stdin.
#[derive(Debug, Clone, Deserialize, JsonSchema, Args)]
#[serde(deny_unknown_fields)]
pub struct WriteStdinArgs {
    /// The session id exec_command returned.
    #[arg(value_name = "SESSION_ID")]
    pub session_id: u64,
    /// Text to write to the process's stdin, e.g. "print(1)\n" (CLI: --chars, or stdin).
    /// Empty (the default) only polls for output; "\u0003" sends Ctrl-C (SIGINT) instead.
    #[arg(
        long,
        help = "Text for the process's stdin, as is (escapes are not decoded: --chars \
            $'ls\\n'; Ctrl-C is $'\\x03'); default: read from stdin when piped, else only poll",
        long_help = "Text to write to the process's stdin, byte for byte: agtool does not \
            decode escapes, so let the shell do it, e.g. --chars $'print(1)\\n'. Ctrl-C \
            (SIGINT to the session) is --chars $'\\x03'; a typed '\\u0003' is six \
            characters of text. Without --chars the text is read from stdin when stdin is \
            not a terminal; otherwise the call only polls for output. In a script whose \
            stdin is a pipe (a `while read` loop), poll with --chars '' or </dev/null, or \
            the loop's own input goes to the session"
    )]
    #[schemars(length(max = crate::args::MAX_BODY_CHARS))]
    pub chars: Option<String>,
    /// How long to wait for output, in ms (default 250; 250..30000 after a write; an empty
    /// poll waits 5000..300000). The call returns earlier when the process exits.
    #[arg(long, value_name = "MS")]
    pub yield_time_ms: Option<u64>,
    /// Output budget in tokens, 4 bytes each (default 10000).
    #[arg(long, value_name = "N")]
    pub max_output_tokens: Option<u64>,
}

/// The write-stdin tool.
pub struct WriteStdin;

impl Tool for WriteStdin {
    type Args = WriteStdinArgs;
    const NAME: &'static str = "write_stdin";
    const META: ToolMeta = ToolMeta {
        description: "Send input to a running exec_command session, or read its new output.\n\
chars is written to the process's stdin as is (end a line with \\n); leave it empty to just wait \
for more output; \"\\u0003\" interrupts (Ctrl-C). Returns the output printed since the last call, \
and either the session id (still running) or the exit code (then the session is gone).",
        examples: "  agtool write-stdin 1000 --chars $'print(6*7)\\n'\n  agtool write-stdin 1000 --yield-time-ms 5000\n  printf 'q\\n' | agtool write-stdin 1000",
        group: Group::Exec,
        sensitive: true,
        serial: true,
        read_only: false,
        destructive: true,
        idempotent: false,
        open_world: true,
        timeout_ms: None,
        body: Some("chars"),
        tags: &["exec", "process", "session"],
    };

    fn run(ctx: &Ctx, args: WriteStdinArgs) -> ToolResult {
        let req = WriteStdinRequest {
            session_id: args.session_id,
            chars: args.chars.unwrap_or_default(),
            yield_time_ms: args.yield_time_ms,
            max_output_tokens: args.max_output_tokens,
        };
        let state_dir = ctx.state_dir();
        if !state_dir.is_dir() {
            // No state folder: no session was ever started here. Do not start a server.
            return Err(SessionError::NoSession(args.session_id).into());
        }
        let reply = session::client::write_stdin(&state_dir, &req)?;
        // A session that ended in failure gets the sandbox's note (spec 08), as exec's do.
        let failed = matches!(
            reply.status,
            session::SessionStatus::Exited { exit_code } if exit_code != 0
        );
        let mut out = reply.into_output();
        if failed && let Some(note) = crate::sandbox::note_for(ctx) {
            if !out.text.ends_with('\n') {
                out.text.push('\n');
            }
            out.text.push_str(&note);
            out.text.push('\n');
        }
        Ok(out)
    }
}
