//! JSON-RPC messages over a byte stream as the Language Server Protocol frames them: a
//! `Content-Length: N` header (other headers ignored), an empty line, then N bytes of JSON.

use std::io::{self, BufRead, Read};

use serde_json::Value;

/// Largest message body accepted from a server, in bytes; a larger length is an error before
/// anything is allocated for it.
pub(crate) const MAX_MESSAGE: usize = 64 << 20;
/// Longest header line accepted, in bytes.
const MAX_HEADER_LINE: u64 = 8 << 10;

/// The bytes of one framed message, for a writer thread.
pub(crate) fn frame(msg: &Value) -> Vec<u8> {
    let body = serde_json::to_vec(msg).unwrap_or_default();
    let mut out = format!("Content-Length: {}\r\n\r\n", body.len()).into_bytes();
    out.extend_from_slice(&body);
    out
}

/// Reads one message. `Ok(None)` at end of input before a header. Errors: a header without a
/// length, a length over [`MAX_MESSAGE`], a body that is not JSON, input ending mid-message.
pub(crate) fn read_message<R: BufRead>(input: &mut R) -> io::Result<Option<Value>> {
    let bad = |what: String| io::Error::new(io::ErrorKind::InvalidData, what);
    let mut length: Option<usize> = None;
    let mut first = true;
    loop {
        let mut line = Vec::new();
        let n = Read::take(&mut *input, MAX_HEADER_LINE).read_until(b'\n', &mut line)?;
        if n == 0 {
            if first {
                return Ok(None);
            }
            return Err(io::Error::from(io::ErrorKind::UnexpectedEof));
        }
        first = false;
        let text = String::from_utf8_lossy(&line);
        let text = text.trim_end_matches(['\r', '\n']);
        if text.is_empty() {
            if line.last() != Some(&b'\n') {
                return Err(bad("a header line too long".into()));
            }
            break;
        }
        if let Some((name, value)) = text.split_once(':')
            && name.trim().eq_ignore_ascii_case("content-length")
        {
            let n: usize = value
                .trim()
                .parse()
                .map_err(|_| bad(format!("bad Content-Length {:?}", value.trim())))?;
            if n > MAX_MESSAGE {
                return Err(bad(format!(
                    "a message of {n} bytes (at most {MAX_MESSAGE})"
                )));
            }
            length = Some(n);
        }
    }
    let Some(length) = length else {
        return Err(bad("a message without Content-Length".into()));
    };
    let mut body = vec![0; length];
    input.read_exact(&mut body)?;
    serde_json::from_slice(&body)
        .map(Some)
        .map_err(|e| bad(format!("a message that is not JSON: {e}")))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn round_trip_and_errors() {
        let mut out = frame(&json!({"a": "é"}));
        out.extend(frame(&json!([1])));
        let mut input = io::Cursor::new(out);
        assert_eq!(read_message(&mut input).unwrap(), Some(json!({"a": "é"})));
        assert_eq!(read_message(&mut input).unwrap(), Some(json!([1])));
        assert_eq!(read_message(&mut input).unwrap(), None);
        let huge = format!("Content-Length: {}\r\n\r\n", MAX_MESSAGE + 1);
        assert!(read_message(&mut io::Cursor::new(huge)).is_err());
        let no_length = "Content-Type: x\r\n\r\n{}";
        assert!(read_message(&mut io::Cursor::new(no_length)).is_err());
        let cut = "Content-Length: 10\r\n\r\n{}";
        assert!(read_message(&mut io::Cursor::new(cut)).is_err());
    }
}
