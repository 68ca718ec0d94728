//! A thin layer between the protocol's stdio streams and rmcp (spec 07 "mcp"; issue 17 item 6,
//! issue 18 section 4), for two things rmcp does not do:
//! - a request line over [`MAX_LINE_BYTES`] is answered with a JSON-RPC error (its `id` when
//!   it can be read from the line's start, else `null`) instead of being dropped, which left
//!   the client waiting for ever; the line is skipped without being held in memory;
//! - an error reply without an `id` (rmcp's answer to an invalid request) gets `"id": null`,
//!   as JSON-RPC 2.0 section 5 requires;
//! - a line that is not JSON gets a parse error (-32700, `"id": null`; rmcp dropped it), and a
//!   request of a method that needs `params` without them gets -32602 ([`refusal`]).
//!
//! [`spawn`] starts two tasks: one reads the real input line by line and passes the lines
//! that fit to rmcp through an in-memory pipe; one reads rmcp's output line by line, mends
//! error replies and writes them, and the layer's own replies, to the real output.

use std::io;
use std::pin::Pin;

use serde_json::Value;
use tokio::io::{AsyncBufRead, AsyncBufReadExt, AsyncRead, AsyncWrite, AsyncWriteExt, BufReader};
use tokio::sync::mpsc;
use tokio::task::JoinHandle;

use super::MAX_LINE_BYTES;

/// How much of an over-long line is kept to look for its `id`.
const ID_SCAN_BYTES: usize = 64 * 1024;

/// The in-memory pipes' buffer size.
const PIPE_BYTES: usize = 256 * 1024;

/// rmcp's ends of the layer, and the task writing the real output (finished once rmcp's
/// writer is dropped and everything is written).
pub struct Frames {
    /// What rmcp reads requests from.
    pub reader: tokio::io::DuplexStream,
    /// What rmcp writes replies to.
    pub writer: tokio::io::DuplexStream,
    /// The output task.
    pub output: JoinHandle<()>,
}

/// Starts the layer between `input`, `output` and rmcp. Must be called inside the runtime.
pub fn spawn(
    input: Pin<Box<dyn AsyncRead + Send>>,
    output: Pin<Box<dyn AsyncWrite + Send>>,
) -> Frames {
    let (rmcp_reader, to_rmcp) = tokio::io::duplex(PIPE_BYTES);
    let (rmcp_writer, from_rmcp) = tokio::io::duplex(PIPE_BYTES);
    let (replies_tx, replies_rx) = mpsc::unbounded_channel::<Vec<u8>>();
    tokio::spawn(pass_input(BufReader::new(input), to_rmcp, replies_tx));
    let output = tokio::spawn(pass_output(BufReader::new(from_rmcp), output, replies_rx));
    Frames {
        reader: rmcp_reader,
        writer: rmcp_writer,
        output,
    }
}

/// One line read with a cap.
#[derive(Debug, PartialEq, Eq)]
enum Line {
    /// The input ended before any byte of a line.
    End,
    /// A line (newline included when it had one) within the cap.
    Whole,
    /// A line over the cap, skipped; the buffer holds its first [`ID_SCAN_BYTES`], the count
    /// is its whole length.
    TooLong(usize),
}

/// Reads one line into `buf` (cleared first), holding at most `cap` bytes of it.
async fn read_line_capped<R: AsyncBufRead + Unpin>(
    r: &mut R,
    buf: &mut Vec<u8>,
    cap: usize,
) -> io::Result<Line> {
    buf.clear();
    let mut total = 0usize;
    let mut over = false;
    loop {
        let avail = r.fill_buf().await?;
        if avail.is_empty() {
            return Ok(match (total, over) {
                (0, _) => Line::End,
                (n, true) => Line::TooLong(n),
                _ => Line::Whole,
            });
        }
        let (take, done) = match memchr::memchr(b'\n', avail) {
            Some(i) => (i + 1, true),
            None => (avail.len(), false),
        };
        total += take;
        if !over && total > cap {
            over = true;
            buf.truncate(ID_SCAN_BYTES);
        }
        if over {
            let room = ID_SCAN_BYTES.saturating_sub(buf.len());
            buf.extend_from_slice(&avail[..take.min(room)]);
        } else {
            buf.extend_from_slice(&avail[..take]);
        }
        r.consume(take);
        if done {
            return Ok(if over {
                Line::TooLong(total)
            } else {
                Line::Whole
            });
        }
    }
}

async fn pass_input<R: AsyncBufRead + Unpin>(
    mut input: R,
    mut to_rmcp: tokio::io::DuplexStream,
    replies: mpsc::UnboundedSender<Vec<u8>>,
) {
    let mut buf = Vec::new();
    loop {
        match read_line_capped(&mut input, &mut buf, MAX_LINE_BYTES).await {
            Ok(Line::Whole) => {
                if let Some(reply) = refusal(&buf) {
                    let _ = replies.send(reply);
                    continue;
                }
                if to_rmcp.write_all(&buf).await.is_err() {
                    break;
                }
            }
            Ok(Line::TooLong(n)) => {
                tracing::warn!("mcp: a request line of {n} bytes was over the limit");
                let _ = replies.send(too_long_reply(&buf, n));
            }
            Ok(Line::End) | Err(_) => break,
        }
    }
    let _ = to_rmcp.shutdown().await;
}

/// Methods whose `params` the protocol requires.
const NEED_PARAMS: [&str; 8] = [
    "initialize",
    "tools/call",
    "resources/read",
    "resources/subscribe",
    "resources/unsubscribe",
    "prompts/get",
    "completion/complete",
    "logging/setLevel",
];

/// The layer's own error reply for a request line rmcp would answer wrongly or not at all, if
/// it is one:
/// - a line that is not JSON, or JSON rmcp cannot take (a lone surrogate `\ud800`, a byte that
///   is not UTF-8 in a string, a number out of range, nesting deeper than 128): -32700 with
///   `"id": null` (rmcp dropped these, and the client waited for ever);
/// - `jsonrpc` other than "2.0": -32600 with the request's id;
/// - a method in [`NEED_PARAMS`] without `params`, `params` that is not an object, or a
///   `tools/call` without a tool `name` or with `arguments` that are not an object: -32602
///   with the request's id (rmcp said -32601, method not found).
fn refusal(line: &[u8]) -> Option<Vec<u8>> {
    let text = line.trim_ascii();
    if text.is_empty() {
        return None;
    }
    let (id, code, message) = match serde_json::from_slice::<Value>(text) {
        Err(e) => (
            Value::Null,
            -32700,
            format!("Parse error: the line is not JSON that can be read ({e})"),
        ),
        // A batch array or another shape: rmcp answers it.
        Ok(Value::Object(request)) => {
            let id = request.get("id").cloned().unwrap_or(Value::Null);
            let method = request.get("method").and_then(Value::as_str);
            let params = request.get("params");
            let is_request = request.contains_key("id") && method.is_some();
            let problem = match (method, params) {
                _ if !is_request => None,
                _ if request.get("jsonrpc").and_then(Value::as_str) != Some("2.0") => Some((
                    -32600,
                    "Invalid Request: \"jsonrpc\" must be \"2.0\"".to_owned(),
                )),
                (Some(m), None | Some(Value::Null)) if NEED_PARAMS.contains(&m) => Some((
                    -32602,
                    format!(
                        "Invalid params: {m} needs params (an object), and the request has none"
                    ),
                )),
                (Some(m), Some(p)) if !p.is_object() && !p.is_null() => Some((
                    -32602,
                    format!("Invalid params: the params of {m} must be an object"),
                )),
                (Some("tools/call"), Some(p)) if !p.get("name").is_some_and(Value::is_string) => {
                    Some((
                        -32602,
                        "Invalid params: tools/call needs params.name, the tool's name (a string)"
                            .to_owned(),
                    ))
                }
                (Some("tools/call"), Some(p))
                    if p.get("arguments")
                        .is_some_and(|a| !a.is_object() && !a.is_null()) =>
                {
                    Some((
                        -32602,
                        "Invalid params: tools/call's params.arguments must be an object"
                            .to_owned(),
                    ))
                }
                _ => None,
            };
            let (code, message) = problem?;
            (id, code, message)
        }
        Ok(_) => return None,
    };
    let reply = serde_json::json!({
        "jsonrpc": "2.0",
        "id": id,
        "error": { "code": code, "message": message },
    });
    let mut out = serde_json::to_vec(&reply).unwrap_or_default();
    out.push(b'\n');
    Some(out)
}

/// The error reply for a request line of `n` bytes over the limit, whose start is `head`.
fn too_long_reply(head: &[u8], n: usize) -> Vec<u8> {
    let id = id_in_prefix(head).unwrap_or(Value::Null);
    let reply = serde_json::json!({
        "jsonrpc": "2.0",
        "id": id,
        "error": {
            "code": -32600,
            "message": format!(
                "Invalid Request: the request line is {n} bytes, over the limit of {} MiB; it \
                 was not read (send large content in smaller calls)",
                MAX_LINE_BYTES >> 20
            ),
        },
    });
    let mut line = serde_json::to_vec(&reply).unwrap_or_default();
    line.push(b'\n');
    line
}

async fn pass_output<R: AsyncBufRead + Unpin>(
    mut from_rmcp: R,
    mut output: Pin<Box<dyn AsyncWrite + Send>>,
    mut replies: mpsc::UnboundedReceiver<Vec<u8>>,
) {
    let mut line = Vec::new();
    let mut replies_open = true;
    loop {
        tokio::select! {
            read = from_rmcp.read_until(b'\n', &mut line) => {
                match read {
                    Ok(0) | Err(_) => break,
                    Ok(_) => {
                        let mended = with_null_id(&line);
                        let bytes = mended.as_deref().unwrap_or(&line);
                        if output.write_all(bytes).await.is_err() || output.flush().await.is_err() {
                            return;
                        }
                        line.clear();
                    }
                }
            }
            reply = replies.recv(), if replies_open => {
                match reply {
                    Some(reply) => {
                        if output.write_all(&reply).await.is_err() || output.flush().await.is_err() {
                            return;
                        }
                    }
                    None => replies_open = false,
                }
            }
        }
    }
    while let Ok(reply) = replies.try_recv() {
        let _ = output.write_all(&reply).await;
    }
    let _ = output.flush().await;
}

/// `line` with `"id": null` added when it is an error reply without an `id`; None when it
/// needs nothing.
fn with_null_id(line: &[u8]) -> Option<Vec<u8>> {
    // Cheap tests first: every reply with an id names it, so long results are never parsed.
    if !line.starts_with(b"{")
        || memchr::memmem::find(line, b"\"id\"").is_some()
        || memchr::memmem::find(line, b"\"error\"").is_none()
    {
        return None;
    }
    let Value::Object(map) = serde_json::from_slice::<Value>(line).ok()? else {
        return None;
    };
    if !map.contains_key("error") || map.contains_key("method") || map.contains_key("id") {
        return None;
    }
    let mut mended = serde_json::Map::new();
    for (k, v) in map {
        let after_version = k == "jsonrpc";
        mended.insert(k, v);
        if after_version {
            mended.insert("id".into(), Value::Null);
        }
    }
    if !mended.contains_key("id") {
        mended.insert("id".into(), Value::Null);
    }
    let mut out = serde_json::to_vec(&Value::Object(mended)).ok()?;
    out.push(b'\n');
    Some(out)
}

/// The top-level `"id"` of a JSON object whose first bytes are `prefix` (a number or a
/// string), when it comes before the prefix ends; None when it cannot be read.
fn id_in_prefix(prefix: &[u8]) -> Option<Value> {
    let mut s = Scan { b: prefix, i: 0 };
    s.ws();
    s.eat(b'{')?;
    loop {
        s.ws();
        let key = s.string()?;
        s.ws();
        s.eat(b':')?;
        s.ws();
        if key == "id" {
            let start = s.i;
            return match s.peek()? {
                b'"' => s.string().map(Value::String),
                b'-' | b'0'..=b'9' => {
                    while matches!(s.peek()?, b'-' | b'+' | b'.' | b'e' | b'E' | b'0'..=b'9') {
                        s.i += 1;
                    }
                    serde_json::from_slice::<serde_json::Number>(&prefix[start..s.i])
                        .ok()
                        .map(Value::Number)
                }
                _ => None,
            };
        }
        s.skip_value()?;
        s.ws();
        match s.peek()? {
            b',' => s.i += 1,
            _ => return None,
        }
    }
}

/// A cursor over JSON bytes, for [`id_in_prefix`]. Every step returns None at the end.
struct Scan<'a> {
    b: &'a [u8],
    i: usize,
}

impl Scan<'_> {
    fn peek(&self) -> Option<u8> {
        self.b.get(self.i).copied()
    }
    fn ws(&mut self) {
        while matches!(self.peek(), Some(b' ' | b'\t' | b'\r' | b'\n')) {
            self.i += 1;
        }
    }
    fn eat(&mut self, c: u8) -> Option<()> {
        (self.peek()? == c).then(|| self.i += 1)
    }
    /// A JSON string, unescaped.
    fn string(&mut self) -> Option<String> {
        let start = self.i;
        self.eat(b'"')?;
        loop {
            match self.peek()? {
                b'\\' => self.i += 2,
                b'"' => {
                    self.i += 1;
                    return serde_json::from_slice(&self.b[start..self.i]).ok();
                }
                _ => self.i += 1,
            }
        }
    }
    /// Skips one value of any kind.
    fn skip_value(&mut self) -> Option<()> {
        match self.peek()? {
            b'"' => self.string().map(|_| ()),
            b'{' | b'[' => {
                let mut depth = 0usize;
                loop {
                    match self.peek()? {
                        b'"' => {
                            self.string()?;
                            continue;
                        }
                        b'{' | b'[' => depth += 1,
                        b'}' | b']' => {
                            depth -= 1;
                            if depth == 0 {
                                self.i += 1;
                                return Some(());
                            }
                        }
                        _ => {}
                    }
                    self.i += 1;
                }
            }
            _ => {
                while !matches!(
                    self.peek()?,
                    b',' | b'}' | b']' | b' ' | b'\t' | b'\r' | b'\n'
                ) {
                    self.i += 1;
                }
                Some(())
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_id_is_read_from_the_start_of_a_line() {
        let id = |s: &str| id_in_prefix(s.as_bytes());
        assert_eq!(
            id(r#"{"jsonrpc":"2.0","id":7,"method":"x""#),
            Some(7.into())
        );
        assert_eq!(
            id(
                r#"{"jsonrpc":"2.0","method":"tools/call","params":{"a":[1,{"id":3}],"b":"x\"y"},"id":"r-1"}"#
            ),
            Some("r-1".into())
        );
        assert_eq!(id(r#" { "id" : -2 , "x": 1}"#), Some((-2).into()));
        assert_eq!(id(r#"{"jsonrpc":"2.0","params":{"content":"aaaa"#), None);
        assert_eq!(id(r#"{"params":{"id":5}}"#), None);
        assert_eq!(id("garbage"), None);
        assert_eq!(id(r#"{"id":null}"#), None);
    }

    #[test]
    fn an_error_without_an_id_gets_a_null_id() {
        let line = br#"{"jsonrpc":"2.0","error":{"code":-32600,"message":"bad"}}
"#;
        let mended = with_null_id(line).unwrap();
        assert_eq!(
            String::from_utf8(mended).unwrap(),
            "{\"jsonrpc\":\"2.0\",\"id\":null,\"error\":{\"code\":-32600,\"message\":\"bad\"}}\n"
        );
        assert!(with_null_id(br#"{"jsonrpc":"2.0","id":1,"error":{}}"#).is_none());
        assert!(with_null_id(br#"{"jsonrpc":"2.0","id":1,"result":{"error":1}}"#).is_none());
        assert!(with_null_id(br#"{"jsonrpc":"2.0","method":"n","params":{"error":1}}"#).is_none());
    }

    #[test]
    fn a_long_line_is_skipped_and_the_next_one_read() {
        let rt = tokio::runtime::Builder::new_current_thread()
            .build()
            .unwrap();
        rt.block_on(async {
            let mut data = br#"{"id":9,"x":""#.to_vec();
            data.extend(std::iter::repeat_n(b'a', 100));
            data.extend(b"\"}\nnext\nlast");
            let mut r = BufReader::with_capacity(16, &data[..]);
            let mut buf = Vec::new();
            let got = read_line_capped(&mut r, &mut buf, 50).await.unwrap();
            assert_eq!(got, Line::TooLong(data.len() - "next\nlast".len()));
            assert_eq!(id_in_prefix(&buf), Some(9.into()));
            assert_eq!(
                read_line_capped(&mut r, &mut buf, 50).await.unwrap(),
                Line::Whole
            );
            assert_eq!(buf, b"next\n");
            assert_eq!(
                read_line_capped(&mut r, &mut buf, 50).await.unwrap(),
                Line::Whole
            );
            assert_eq!(buf, b"last");
            assert_eq!(
                read_line_capped(&mut r, &mut buf, 50).await.unwrap(),
                Line::End
            );
        });
    }
}
