//! The protocol's standard streams (spec 07 "mcp": stdout carries only protocol messages; tool
//! subprocesses never inherit the protocol's stdin or stdout).
//!
//! [`take`] moves the protocol to private descriptors (close-on-exec) and points descriptor 0
//! at `/dev/null` and descriptor 1 at stderr: whatever else in the process writes to "stdout",
//! and whatever a tool starts, can neither write into the protocol stream nor read from it.
//! [`reader`] and [`writer`] wrap the private descriptors for tokio: pipes (FIFOs) go through
//! the reactor, reopened through `/proc/self/fd` so the non-blocking flag stays on agtool's own
//! open file description; anything else (a socket pair, as libuv-based hosts give, a file, a
//! terminal) is read and written with blocking calls on tokio's blocking threads.
//! [`EofWatch`] tells the server when its input has ended.

use std::io;
use std::os::fd::{AsFd, AsRawFd, OwnedFd};
use std::pin::Pin;
use std::task::{Context, Poll};

use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio_util::sync::CancellationToken;

/// The protocol's input and output, as private descriptors.
pub struct Streams {
    /// Where requests come from (was descriptor 0).
    pub input: OwnedFd,
    /// Where responses go (was descriptor 1).
    pub output: OwnedFd,
}

/// Takes the protocol's streams away from descriptors 0 and 1 (see the module doc). Errors
/// when a descriptor cannot be duplicated or `/dev/null` cannot be opened.
pub fn take() -> io::Result<Streams> {
    use rustix::fs::{Mode, OFlags, open};
    use rustix::io::fcntl_dupfd_cloexec;
    let input = fcntl_dupfd_cloexec(io::stdin().as_fd(), 3)?;
    let output = fcntl_dupfd_cloexec(io::stdout().as_fd(), 3)?;
    let null = open("/dev/null", OFlags::RDWR | OFlags::CLOEXEC, Mode::empty())?;
    for (from, to) in [(null.as_raw_fd(), 0), (io::stderr().as_raw_fd(), 1)] {
        // SAFETY: dup2 on two open descriptors; it replaces descriptor `to` (0 or 1), which
        // no Rust object owns (std's stdin and stdout borrow them by number).
        if unsafe { libc::dup2(from, to) } < 0 {
            return Err(io::Error::last_os_error());
        }
    }
    Ok(Streams { input, output })
}

/// Reopens a FIFO descriptor through `/proc/self/fd` as non-blocking, on an open file
/// description of its own. None when `fd` is no FIFO or cannot be reopened.
fn reopen_fifo(fd: &OwnedFd, write: bool) -> Option<OwnedFd> {
    use rustix::fs::{FileType, Mode, OFlags, fstat, open};
    let stat = fstat(fd).ok()?;
    if FileType::from_raw_mode(stat.st_mode) != FileType::Fifo {
        return None;
    }
    let access = if write {
        OFlags::WRONLY
    } else {
        OFlags::RDONLY
    };
    let path = format!("/proc/self/fd/{}", fd.as_raw_fd());
    open(
        path.as_str(),
        access | OFlags::NONBLOCK | OFlags::CLOEXEC,
        Mode::empty(),
    )
    .ok()
}

/// The protocol input for tokio. Must be called inside the runtime.
pub fn reader(input: OwnedFd) -> Pin<Box<dyn AsyncRead + Send>> {
    if let Some(fifo) = reopen_fifo(&input, false)
        && let Ok(rx) = tokio::net::unix::pipe::Receiver::from_owned_fd(fifo)
    {
        return Box::pin(rx);
    }
    Box::pin(tokio::fs::File::from_std(std::fs::File::from(input)))
}

/// The protocol output for tokio. Must be called inside the runtime.
pub fn writer(output: OwnedFd) -> Pin<Box<dyn AsyncWrite + Send>> {
    if let Some(fifo) = reopen_fifo(&output, true)
        && let Ok(tx) = tokio::net::unix::pipe::Sender::from_owned_fd(fifo)
    {
        return Box::pin(tx);
    }
    Box::pin(tokio::fs::File::from_std(std::fs::File::from(output)))
}

/// A reader that cancels a token when its input ends (end of file or a read error).
pub struct EofWatch<R> {
    inner: R,
    ended: CancellationToken,
}

impl<R> EofWatch<R> {
    /// Watches `inner`; `ended` is cancelled at its end.
    pub fn new(inner: R, ended: CancellationToken) -> EofWatch<R> {
        EofWatch { inner, ended }
    }
}

impl<R: AsyncRead + Unpin> AsyncRead for EofWatch<R> {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        let before = buf.filled().len();
        let wanted = buf.remaining() > 0;
        let polled = Pin::new(&mut self.inner).poll_read(cx, buf);
        match &polled {
            Poll::Ready(Ok(())) if wanted && buf.filled().len() == before => self.ended.cancel(),
            Poll::Ready(Err(_)) => self.ended.cancel(),
            _ => {}
        }
        polled
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tokio::io::AsyncReadExt;

    #[test]
    fn eof_cancels_the_token() {
        let rt = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap();
        rt.block_on(async {
            let ended = CancellationToken::new();
            let mut r = EofWatch::new(&b"ab"[..], ended.clone());
            let mut buf = [0u8; 1];
            assert_eq!(r.read(&mut buf).await.unwrap(), 1);
            assert_eq!(r.read(&mut buf).await.unwrap(), 1);
            assert!(!ended.is_cancelled());
            assert_eq!(r.read(&mut buf).await.unwrap(), 0);
            assert!(ended.is_cancelled());
        });
    }
}
