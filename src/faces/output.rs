//! Printing a result (spec 00 "Output and exit status"): text or the `--json` envelope, and
//! the exit status.

use serde_json::{Map, Value};

use crate::error::{ErrorKind, ToolResult};

/// The `--json` envelope of a result: `ok`, `output`, `error`, `exit` (the exit status the call
/// has as a command: 0 done, 1 refused, 2 usage, 3 approval needed, 124 timeout), and the
/// tool's own fields.
pub fn envelope(result: &ToolResult) -> Value {
    let mut map = Map::new();
    match result {
        Ok(out) => {
            map.insert("ok".into(), Value::Bool(true));
            map.insert("output".into(), Value::String(out.text.clone()));
            map.insert("error".into(), Value::Null);
            map.insert("exit".into(), Value::from(0));
            map.extend(out.fields.clone());
        }
        Err(e) => {
            map.insert("ok".into(), Value::Bool(false));
            map.insert("output".into(), Value::String(e.model_text()));
            map.insert("error".into(), Value::String(e.message.clone()));
            map.insert("exit".into(), Value::from(e.exit_code()));
            map.extend(e.fields.clone());
        }
    }
    Value::Object(map)
}

/// Prints a result as text or the `--json` envelope and returns the exit status: 0 done,
/// 1 refused (stdout `Error: ...`), 2 usage (stderr), 124 timeout.
pub fn print_result(json: bool, result: ToolResult) -> i32 {
    let code = match &result {
        Ok(_) => 0,
        Err(e) => e.exit_code(),
    };
    if json {
        emit(Stream::Out, &format!("{}\n", envelope(&result)));
        if let Err(e) = &result
            && e.kind == ErrorKind::Usage
        {
            emit(Stream::Err, &format!("Error: {}\n", e.message));
        }
        return code;
    }
    match result {
        Ok(out) => {
            if out.text.ends_with('\n') || out.text.is_empty() {
                emit(Stream::Out, &out.text);
            } else {
                emit(Stream::Out, &format!("{}\n", out.text));
            }
        }
        Err(e) if e.kind == ErrorKind::Usage => {
            emit(Stream::Err, &format!("Error: {}\n", e.message))
        }
        Err(e) => emit(Stream::Out, &format!("{}\n", e.model_text())),
    }
    code
}

enum Stream {
    Out,
    Err,
}

/// Writes `text` to stdout or stderr. A reader that went away (`agtool ... | head`) is not an
/// error to report, and `print!` would panic on it: the write error is dropped and the exit
/// status stays the tool's.
fn emit(stream: Stream, text: &str) {
    use std::io::Write;
    let _ = match stream {
        Stream::Out => {
            let mut out = std::io::stdout().lock();
            out.write_all(text.as_bytes()).and_then(|()| out.flush())
        }
        Stream::Err => std::io::stderr().lock().write_all(text.as_bytes()),
    };
}

/// The message of the panic being handled, kept by the hook [`catching_panics`] installs.
static PANIC_MESSAGE: std::sync::Mutex<Option<String>> = std::sync::Mutex::new(None);

/// Runs `main` and turns a panic into a clean failure (spec 00 "Messages": never a stack
/// trace, never a panic): one `agtool: internal error ...` line on stderr from the hook, then
/// `Error: internal error ...` as the result (exit 1). A panic is still a bug; this only keeps
/// the caller from a Rust backtrace and exit status 101. `json` picks the envelope.
pub fn catching_panics(json: bool, main: impl FnOnce() -> i32) -> i32 {
    std::panic::set_hook(Box::new(|info| {
        let payload = info.payload();
        let text = payload
            .downcast_ref::<&str>()
            .map(|s| (*s).to_owned())
            .or_else(|| payload.downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "unknown cause".to_owned());
        // A panic message may quote a huge argument (globset quoted a whole pattern).
        let mut short: String = text
            .lines()
            .next()
            .unwrap_or_default()
            .chars()
            .take(300)
            .collect();
        if let Some(at) = info.location() {
            short.push_str(&format!(" (at {}:{})", at.file(), at.line()));
        }
        emit(Stream::Err, &format!("agtool: internal error: {short}\n"));
        *PANIC_MESSAGE.lock().unwrap_or_else(|e| e.into_inner()) = Some(short);
    }));
    match std::panic::catch_unwind(std::panic::AssertUnwindSafe(main)) {
        Ok(code) => code,
        Err(_) => {
            let why = PANIC_MESSAGE
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .take()
                .unwrap_or_else(|| "unknown cause".to_owned());
            let err = crate::error::ToolError::refused(format!(
                "internal error (a bug in agtool; please report it): {why}"
            ));
            print_result(json, Err(err))
        }
    }
}

/// `result` with the call's notices (things said once, such as a replaced state database)
/// after its text or message, and as a `notices` list in the `--json` envelope.
pub fn with_notices(result: ToolResult, notices: Vec<String>) -> ToolResult {
    if notices.is_empty() {
        return result;
    }
    let joined = notices.join("\n");
    match result {
        Ok(mut out) => {
            if !out.text.is_empty() && !out.text.ends_with('\n') {
                out.text.push('\n');
            }
            out.text.push_str(&joined);
            Ok(out.with("notices", notices))
        }
        Err(mut e) => {
            e.message.push('\n');
            e.message.push_str(&joined);
            Err(e.with("notices", notices))
        }
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_panic_becomes_exit_1() {
        let previous = std::panic::take_hook();
        let code = super::catching_panics(false, || panic!("boom {}", 42));
        std::panic::set_hook(previous);
        assert_eq!(code, 1);
        assert_eq!(super::catching_panics(false, || 7), 7);
    }
}
