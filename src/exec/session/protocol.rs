//! Wire format between client and session server: one connection per request, one line of
//! JSON each way (the request, then the response).

use std::io::{self, BufRead, BufReader, Read, Write};
use std::os::unix::net::UnixStream;

use serde::{Deserialize, Serialize};

use super::{ExecCommandRequest, SessionError, SessionInfo, SessionReply, WriteStdinRequest};

/// Largest request or response line accepted, in bytes (a write-stdin body lives in it).
pub(crate) const MAX_LINE: u64 = 64 << 20;

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(tag = "op", rename_all = "snake_case")]
pub(crate) enum Request {
    ExecCommand(ExecCommandRequest),
    WriteStdin(WriteStdinRequest),
    List,
    Kill {
        session_id: u64,
    },
    KillAll,
    Stop,
    /// A request for the [extension](super::Extension) the server was started with (the LSP
    /// manager), passed through as it is.
    Extension {
        body: serde_json::Value,
    },
}

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(tag = "reply", rename_all = "snake_case")]
pub(crate) enum Response {
    Output(SessionReply),
    Sessions {
        sessions: Vec<SessionInfo>,
    },
    Killed {
        ids: Vec<u64>,
    },
    Stopping,
    Failed {
        error: SessionError,
    },
    /// The extension's answer, passed through as it is.
    Extension {
        body: serde_json::Value,
    },
}

/// Writes `msg` as one JSON line.
pub(crate) fn send<T: Serialize>(stream: &mut UnixStream, msg: &T) -> io::Result<()> {
    let mut line = serde_json::to_vec(msg)?;
    line.push(b'\n');
    stream.write_all(&line)?;
    stream.flush()
}

/// Length of `msg` as sent by [`send`], without its newline, in bytes; counted without building
/// the line, so an oversized request can be refused before it is sent.
pub(crate) fn encoded_len<T: Serialize>(msg: &T) -> u64 {
    struct Count(u64);
    impl Write for Count {
        fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
            self.0 += buf.len() as u64;
            Ok(buf.len())
        }
        fn flush(&mut self) -> io::Result<()> {
            Ok(())
        }
    }
    let mut c = Count(0);
    let _ = serde_json::to_writer(&mut c, msg);
    c.0
}

/// Reads one JSON line. EOF before any byte is `UnexpectedEof`.
pub(crate) fn receive<T: for<'de> Deserialize<'de>>(stream: &UnixStream) -> io::Result<T> {
    let mut reader = BufReader::new(stream.take(MAX_LINE));
    let mut line = Vec::new();
    reader.read_until(b'\n', &mut line)?;
    if line.is_empty() {
        return Err(io::Error::from(io::ErrorKind::UnexpectedEof));
    }
    serde_json::from_slice(&line).map_err(|e| io::Error::new(io::ErrorKind::InvalidData, e))
}
