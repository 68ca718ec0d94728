//! Printing a result (spec 00 "Output and exit status"): text or the `--json` envelope, and
//! the exit status.

use serde_json::{Map, Value};

use crate::error::{ErrorKind, ToolResult};

/// The `--json` envelope of a result.
pub fn envelope(result: &ToolResult) -> Value {
    let mut map = Map::new();
    match result {
        Ok(out) => {
            map.insert("ok".into(), Value::Bool(true));
            map.insert("output".into(), Value::String(out.text.clone()));
            map.insert("error".into(), Value::Null);
            map.extend(out.fields.clone());
        }
        Err(e) => {
            map.insert("ok".into(), Value::Bool(false));
            map.insert(
                "output".into(),
                Value::String(format!("Error: {}", e.message)),
            );
            map.insert("error".into(), Value::String(e.message.clone()));
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
        Err(e) => emit(Stream::Out, &format!("Error: {}\n", e.message)),
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
