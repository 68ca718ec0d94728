//! What a tool returns: [`Output`] on success, [`ToolError`] otherwise (spec 00, "Output and
//! exit status").

use serde_json::{Map, Value};

/// A tool's successful result: the text for the model plus tool-specific fields for the
/// `--json` envelope.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Output {
    /// The model-facing text (printed as is; a final newline is added when missing).
    pub text: String,
    /// Extra fields merged into the `--json` envelope next to `ok`, `output`, `error`.
    pub fields: Map<String, Value>,
}

impl Output {
    /// Text only.
    pub fn text(text: impl Into<String>) -> Output {
        Output {
            text: text.into(),
            fields: Map::new(),
        }
    }

    /// Adds a field for the `--json` envelope.
    pub fn with(mut self, key: &str, value: impl Into<Value>) -> Output {
        self.fields.insert(key.to_owned(), value.into());
        self
    }
}

/// How a failure maps to the exit status.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ErrorKind {
    /// The tool refused or failed: exit 1, message on stdout as `Error: ...`.
    Refused,
    /// Usage or argument error: exit 2, message on stderr.
    Usage,
    /// The tool ran out of time: exit 124.
    Timeout,
    /// agtool was told to stop by this signal (SIGTERM, SIGINT, SIGHUP, SIGQUIT) and cleaned up first:
    /// exit 128 + the signal number, like a process the signal had ended, with the message on
    /// stdout as `Error: ...` (spec 05, "exec (one shot)").
    Interrupted(i32),
    /// The face that ran the call asked it to stop (the MCP server's cancellation or end of
    /// input, spec 07 "mcp"); whatever it started was stopped. The command line never cancels;
    /// printed, it would exit 1.
    Cancelled,
    /// An `ask` rule wants the host's approval (spec 10 "Rules"): exit 3, the message on
    /// stdout as is (`Approval needed: <tool> <what>: <reason>`), without `Error: `.
    ApprovalNeeded,
}

/// A tool's failure: the message (without `Error: `) and tool-specific `--json` fields.
#[derive(Debug, Clone, PartialEq)]
pub struct ToolError {
    /// Which exit status.
    pub kind: ErrorKind,
    /// What was wrong and what to do next, one or two short lines.
    pub message: String,
    /// Extra fields for the `--json` envelope.
    pub fields: Map<String, Value>,
}

impl ToolError {
    /// A refusal (exit 1).
    pub fn refused(message: impl Into<String>) -> ToolError {
        ToolError {
            kind: ErrorKind::Refused,
            message: message.into(),
            fields: Map::new(),
        }
    }

    /// An argument error (exit 2).
    pub fn usage(message: impl Into<String>) -> ToolError {
        ToolError {
            kind: ErrorKind::Usage,
            message: message.into(),
            fields: Map::new(),
        }
    }

    /// Adds a field for the `--json` envelope.
    pub fn with(mut self, key: &str, value: impl Into<Value>) -> ToolError {
        self.fields.insert(key.to_owned(), value.into());
        self
    }

    /// The process exit status for this error.
    pub fn exit_code(&self) -> i32 {
        match self.kind {
            ErrorKind::Refused | ErrorKind::Cancelled => 1,
            ErrorKind::Usage => 2,
            ErrorKind::Timeout => 124,
            ErrorKind::ApprovalNeeded => 3,
            ErrorKind::Interrupted(sig) => 128 + sig,
        }
    }
}

impl ToolError {
    /// The text the model reads: `Error: <message>`, or the message alone for
    /// [`ErrorKind::ApprovalNeeded`] (it starts `Approval needed:`).
    pub fn model_text(&self) -> String {
        if self.kind == ErrorKind::ApprovalNeeded {
            self.message.clone()
        } else {
            format!("Error: {}", self.message)
        }
    }
}

/// A short, model-facing reason for an I/O error: `no such file or directory`,
/// `permission denied`, a name over 255 bytes said so, else the system's words without
/// Rust's ` (os error N)`, else the error's own text. Walk errors otherwise read
/// `IO error for operation on <path>: Permission denied (os error 13)`, repeating the path the
/// message already starts with.
pub fn io_reason(e: &std::io::Error) -> String {
    match (e.kind(), e.raw_os_error()) {
        (std::io::ErrorKind::NotFound, _) => "no such file or directory".to_owned(),
        (std::io::ErrorKind::PermissionDenied, _) => "permission denied".to_owned(),
        (_, Some(libc::ENAMETOOLONG)) => {
            "a name is too long (a file or folder name is at most 255 bytes)".to_owned()
        }
        // The system's words without Rust's ` (os error N)`, for a model to read.
        (_, Some(_)) => {
            let text = e.to_string();
            let text = text
                .find(" (os error")
                .map_or(text.as_str(), |at| &text[..at]);
            let mut chars = text.chars();
            chars.next().map_or_else(String::new, |c| {
                c.to_lowercase().chain(chars).collect::<String>()
            })
        }
        _ => e.to_string(),
    }
}

/// The refusal for a path a tool could not open or stat: `<path> does not exist` when it is
/// missing (the one wording every tool uses, as edit_file and delete_path do), otherwise
/// `cannot <verb> <path>: <reason>` with [`io_reason`]'s short reason.
pub fn io_refusal(verb: &str, spelled: &str, e: &std::io::Error) -> ToolError {
    if e.kind() == std::io::ErrorKind::NotFound {
        ToolError::refused(format!("{spelled} does not exist"))
    } else {
        ToolError::refused(format!("cannot {verb} {spelled}: {}", io_reason(e)))
    }
}

/// A tool's result.
pub type ToolResult = Result<Output, ToolError>;
