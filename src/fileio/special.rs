//! Opening a file for reading without ever blocking on a special file (issue 9, defect 3).
//!
//! `open(2)` of a FIFO blocks until a writer appears, and a device may never end, so a tool
//! that opens whatever a path names can hang for its whole timeout. Here a path is checked
//! twice: `stat` first (nothing is opened when it names a FIFO, socket or device), then the
//! file is opened with `O_NONBLOCK | O_NOCTTY` and `fstat`ed, so a FIFO swapped in between the
//! two steps is refused rather than waited on. `O_NONBLOCK` is cleared again before the file
//! is returned (it means nothing for a regular file, but readers should not inherit it).

use std::fs::File;
use std::io;
use std::path::Path;

use rustix::fs::{Mode, OFlags};

/// Why a path could not be opened as a regular file.
#[derive(Debug)]
pub enum OpenError {
    /// A FIFO, socket or device (`kind` is [`crate::fileio::fs::kind_name`]'s word): never
    /// opened, or closed at once when one was swapped in.
    Special(&'static str),
    /// A directory.
    Directory,
    /// The filesystem's error (missing, permission denied, ...).
    Io(io::Error),
}

/// A short reason for messages: `not a regular file (fifo)`, `is a directory`, or
/// [`crate::error::io_reason`]'s.
impl std::fmt::Display for OpenError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            OpenError::Special(kind) => write!(f, "not a regular file ({kind})"),
            OpenError::Directory => f.write_str("is a directory"),
            OpenError::Io(e) => f.write_str(&crate::error::io_reason(e)),
        }
    }
}

impl From<io::Error> for OpenError {
    fn from(e: io::Error) -> OpenError {
        OpenError::Io(e)
    }
}

/// Opens `path` (symlinks followed) for reading when it is a regular file.
pub fn open_regular(path: &Path) -> Result<File, OpenError> {
    check_kind(&std::fs::metadata(path)?)?;
    let fd = rustix::fs::open(
        path,
        OFlags::RDONLY | OFlags::NONBLOCK | OFlags::NOCTTY | OFlags::CLOEXEC,
        Mode::empty(),
    )
    .map_err(io::Error::from)?;
    let file = File::from(fd);
    check_kind(&file.metadata()?)?;
    let flags = rustix::fs::fcntl_getfl(&file).map_err(io::Error::from)?;
    rustix::fs::fcntl_setfl(&file, flags - OFlags::NONBLOCK).map_err(io::Error::from)?;
    Ok(file)
}

/// Classifies a file the file layer opened without blocking
/// ([`crate::fileio::beneath::Dir::open_file`]): the file itself when it is regular,
/// else why it cannot be read as one.
pub fn regular(opened: io::Result<File>) -> Result<File, OpenError> {
    let file = opened?;
    check_kind(&file.metadata()?)?;
    Ok(file)
}

/// The whole content of the regular file `path` (see [`open_regular`]).
pub fn read_regular(path: &Path) -> Result<Vec<u8>, OpenError> {
    use std::io::Read;
    let mut file = open_regular(path)?;
    let mut bytes = Vec::new();
    file.read_to_end(&mut bytes)?;
    Ok(bytes)
}

fn check_kind(meta: &std::fs::Metadata) -> Result<(), OpenError> {
    let ft = meta.file_type();
    if ft.is_file() {
        Ok(())
    } else if ft.is_dir() {
        Err(OpenError::Directory)
    } else {
        Err(OpenError::Special(crate::fileio::fs::kind_name(&ft)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::{Duration, Instant};

    #[test]
    fn fifos_sockets_and_folders_are_refused_without_blocking() {
        let t = tempfile::tempdir().unwrap();
        let fifo = t.path().join("pipe");
        rustix::fs::mkfifoat(rustix::fs::CWD, &fifo, Mode::from_raw_mode(0o600)).unwrap();
        let sock = t.path().join("sock");
        let _l = std::os::unix::net::UnixListener::bind(&sock).unwrap();
        let start = Instant::now();
        assert!(matches!(
            open_regular(&fifo),
            Err(OpenError::Special("fifo"))
        ));
        assert!(matches!(
            open_regular(&sock),
            Err(OpenError::Special("socket"))
        ));
        assert!(matches!(
            open_regular(Path::new("/dev/null")),
            Err(OpenError::Special("device"))
        ));
        assert!(matches!(open_regular(t.path()), Err(OpenError::Directory)));
        assert!(start.elapsed() < Duration::from_secs(2));
        let f = t.path().join("f");
        std::fs::write(&f, "x").unwrap();
        assert_eq!(read_regular(&f).unwrap(), b"x");
        assert!(matches!(
            open_regular(&t.path().join("missing")),
            Err(OpenError::Io(e)) if e.kind() == io::ErrorKind::NotFound
        ));
    }

    #[test]
    fn a_fifo_swapped_in_after_the_check_is_not_waited_on() {
        // The second step alone: open with O_NONBLOCK, then fstat, as open_regular does.
        let t = tempfile::tempdir().unwrap();
        let fifo = t.path().join("pipe");
        rustix::fs::mkfifoat(rustix::fs::CWD, &fifo, Mode::from_raw_mode(0o600)).unwrap();
        let fd = rustix::fs::open(
            &fifo,
            OFlags::RDONLY | OFlags::NONBLOCK | OFlags::NOCTTY | OFlags::CLOEXEC,
            Mode::empty(),
        )
        .unwrap();
        let file = File::from(fd);
        assert!(matches!(
            check_kind(&file.metadata().unwrap()),
            Err(OpenError::Special("fifo"))
        ));
    }
}
