//! Reading a large regular file from a read-only memory map (spec 02, "Cost"; issue 18 §7):
//! read-file hashes, validates and counts a 1 GiB file where the page cache already holds it,
//! instead of having the kernel copy every byte into a buffer first.
//!
//! What a plain map would cost, and what is done about it:
//! - **Page faults.** Touching a mapped page costs a fault; for 1 GiB that is about as much
//!   time as the copy saved. A second thread maps pages ahead of the reader
//!   (`MADV_POPULATE_READ`, which reports an error where a touch would raise `SIGBUS`), so the
//!   reader meets mapped pages and that work runs on another core. A machine with one CPU to
//!   give gains nothing from this, so there the file is read instead.
//! - **Memory.** Mapped pages count in the process's resident size. The mapping thread keeps
//!   at most [`AHEAD`] bytes mapped ahead of the reader and unmaps (`MADV_DONTNEED`) what it
//!   has passed in runs of 2 MiB (each unmapping interrupts the reader's CPU to flush its TLB,
//!   so runs are few), and the reader unmaps for it when it falls 3 MiB behind: a read of
//!   1 GiB peaks about 4 MiB above a read of a small file.
//! - **A file cut short under the map.** Touching a page past the new end raises `SIGBUS`,
//!   which would kill the process. A `SIGBUS` handler, installed once, looks the faulting
//!   address up among the live maps; when it is one of them it puts zero-filled memory over
//!   the rest of that map and marks it cut, and the read is then reported as
//!   [`Mapped::Cut`] (the caller reads the file again the ordinary way). A file cut within
//!   its last page raises nothing (the kernel shows zeros there), so the size is checked again
//!   after the walk, and a shorter file is a cut too. Any other fault goes to the action that
//!   was installed before; a `SIGBUS` sent by a process ends agtool, as it does by default.
//!
//! A file is mapped only where a map reads what `read` would, and costs no more:
//! - on a disk or memory filesystem (ext4, XFS, Btrfs, tmpfs, overlayfs, F2FS, ZFS,
//!   bcachefs), never on sysfs, procfs or FUSE (a PCI `resource` file maps device memory);
//! - when the file is not sparse: reading a hole through a tmpfs map allocates a page of RAM
//!   for it (a 4 GiB sparse file took 4 GiB of memory and kept it), and on disk the holes
//!   are slower to map than to read;
//! - when the address space is unlimited (`ulimit -v`): under a limit the map's size could
//!   leave too little for the scan's own allocations.

use std::fs::File;
use std::os::fd::AsRawFd;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Once, OnceLock};
use std::time::Duration;

use libc::{c_int, c_void, siginfo_t};

/// Files smaller than this (bytes) are read, not mapped: below it a map's set-up costs more
/// than the copy it saves.
pub const MAP_MIN: u64 = 16 * 1024 * 1024;
/// Bytes the mapping thread keeps mapped ahead of the reader.
pub const AHEAD: usize = 3 * 512 * 1024;
/// Bytes mapped per step; the reader checks on unmapping at this granularity.
const STEP: usize = 512 * 1024;
/// The mapping thread unmaps what the reader has passed in runs of this many bytes: each
/// unmapping interrupts the reader's CPU (a TLB shoot-down), so fewer, larger runs cost less,
/// while every byte still mapped counts in the resident size.
const UNMAP_RUN: usize = 2 * 1024 * 1024;
/// How far behind the reader (bytes) unmapping may fall before the reader does it itself
/// (when the mapping thread is not being scheduled).
const LAG_MAX: usize = 3 * 1024 * 1024;
/// How long the mapping thread sleeps when it is [`AHEAD`] of the reader.
const NAP: Duration = Duration::from_micros(100);
/// How many maps may be live at once (parallel calls of a server); a read past this many is
/// a plain read.
const SLOTS: usize = 32;

/// How a mapped read ended.
#[derive(Debug)]
pub enum Mapped<B> {
    /// The file was not mapped (too small, one CPU, no free slot, or the kernel refused):
    /// nothing was fed; read it instead.
    NotMapped,
    /// Every byte of the map was fed; the file may have grown since, which is the caller's.
    Done,
    /// The callback stopped the walk with this value.
    Stopped(B),
    /// The file became shorter while it was mapped: some of the bytes fed were zeros put in
    /// place of the lost pages. Nothing fed may be used; read the file again.
    Cut,
}

/// One live map, as the `SIGBUS` handler sees it: `[start, end)` in the address space (0 when
/// free) and whether the handler has cut it.
struct Slot {
    start: AtomicUsize,
    end: AtomicUsize,
    cut: AtomicBool,
}

static LIVE: [Slot; SLOTS] = [const {
    Slot {
        start: AtomicUsize::new(0),
        end: AtomicUsize::new(0),
        cut: AtomicBool::new(false),
    }
}; SLOTS];
/// The page size, for the handler.
static PAGE: AtomicUsize = AtomicUsize::new(4096);
/// The `SIGBUS` action found when ours was installed, to hand other faults to.
static PREVIOUS: OnceLock<Action> = OnceLock::new();
static INSTALL: Once = Once::new();
/// Whether our handler is in place.
static INSTALLED: AtomicBool = AtomicBool::new(false);

/// A saved signal action (plain data, so it can live in a static).
struct Action(libc::sigaction);
// SAFETY: a sigaction is plain data (a handler address, a mask and flags), read only.
unsafe impl Send for Action {}
// SAFETY: as above.
unsafe impl Sync for Action {}

/// Feeds the first `len` bytes of `file` to `each`, `piece` bytes at a time (the last piece
/// may be shorter), from a read-only map; see the module doc. `file` must be a regular file
/// at least `len` bytes long when called. `each` returning `Err(b)` stops the walk with
/// [`Mapped::Stopped`]`(b)`, unless the map was cut, which wins.
pub fn for_each_piece<B>(
    file: &File,
    len: u64,
    piece: usize,
    mut each: impl FnMut(&[u8]) -> Result<(), B>,
) -> Mapped<B> {
    if len < MAP_MIN || piece == 0 || !worth_a_thread() || !mappable(file, len) {
        return Mapped::NotMapped;
    }
    let Ok(len) = usize::try_from(len) else {
        return Mapped::NotMapped;
    };
    if !install_handler() {
        return Mapped::NotMapped;
    }
    let Some(map) = Map::new(file, len) else {
        return Mapped::NotMapped;
    };
    let shared = Arc::new(Progress {
        base: map.base as usize,
        len,
        consumed: AtomicUsize::new(0),
        zapped: AtomicUsize::new(0),
        stop: AtomicBool::new(false),
    });
    let helper = {
        let shared = Arc::clone(&shared);
        std::thread::Builder::new()
            .name("agtool-map-ahead".into())
            .stack_size(64 * 1024)
            .spawn(move || shared.map_ahead())
    };
    let Ok(helper) = helper else {
        return Mapped::NotMapped;
    };
    // Declared after `map`, so dropped before it, even when `each` panics: the mapping thread
    // has ended before the range is unmapped (and could be reused by another mapping).
    let helper = Helper {
        shared: Arc::clone(&shared),
        thread: Some(helper),
    };
    let mut stopped = None;
    let mut at = 0;
    while at < len {
        let end = len.min(at + piece);
        // SAFETY: `[base + at, base + end)` lies inside the live map, which stays mapped
        // (possibly replaced by zero pages, never unmapped) until `map` drops below; the slice
        // does not outlive this call of `each`, after which those pages may be unmapped
        // (MADV_DONTNEED of a read-only shared map leaves the address range valid: a later
        // touch maps the page again).
        let bytes = unsafe { std::slice::from_raw_parts(map.base.add(at), end - at) };
        if let Err(b) = each(bytes) {
            stopped = Some(b);
            break;
        }
        shared.consumed.store(end, Ordering::Release);
        if end / STEP != at / STEP {
            let done = end / STEP * STEP;
            if done.saturating_sub(shared.zapped.load(Ordering::Acquire)) > LAG_MAX {
                shared.zap_to(done);
            }
        }
        at = end;
    }
    drop(helper);
    // A file cut within the map's last page raised no SIGBUS: its lost bytes read as zeros.
    let shrunk = file.metadata().map_or(true, |m| m.len() < len as u64);
    let cut = map.is_cut() || shrunk;
    drop(map);
    match (cut, stopped) {
        (true, _) => Mapped::Cut,
        (false, Some(b)) => Mapped::Stopped(b),
        (false, None) => Mapped::Done,
    }
}

/// The mapping thread, stopped and joined on drop.
struct Helper {
    shared: Arc<Progress>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl Drop for Helper {
    fn drop(&mut self) {
        self.shared.stop.store(true, Ordering::Release);
        if let Some(thread) = self.thread.take() {
            thread.thread().unpark();
            let _ = thread.join();
        }
    }
}

/// Filesystems whose maps read what `read` reads (`statfs` magic numbers): ext2/3/4, XFS,
/// Btrfs, tmpfs, overlayfs, F2FS, ZFS, bcachefs.
const MAPPED_FILESYSTEMS: [i64; 8] = [
    0xEF53,
    0x5846_5342,
    0x9123_683E,
    0x0102_1994,
    0x794C_7630,
    0xF2F5_2010,
    0x2FC1_2FC1,
    0xCA45_1A4E,
];

/// Whether `file` (at least `len` bytes) may be mapped: see the module doc.
fn mappable(file: &File, len: u64) -> bool {
    use std::os::unix::fs::MetadataExt;
    let Ok(meta) = file.metadata() else {
        return false;
    };
    // Allocated blocks (512 bytes each) cover the size: no holes worth the name.
    let dense = meta.blocks().saturating_mul(512) >= len;
    let mut limit = std::mem::MaybeUninit::<libc::rlimit>::zeroed();
    // SAFETY: getrlimit writes the limit into `limit`.
    let unlimited = unsafe { libc::getrlimit(libc::RLIMIT_AS, limit.as_mut_ptr()) } == 0
        // SAFETY: filled by the successful call above.
        && unsafe { limit.assume_init() }.rlim_cur == libc::RLIM_INFINITY;
    let mut fs = std::mem::MaybeUninit::<libc::statfs>::zeroed();
    // SAFETY: fstatfs writes into `fs` for an open descriptor.
    let known = unsafe { libc::fstatfs(file.as_raw_fd(), fs.as_mut_ptr()) } == 0 && {
        // SAFETY: filled by the successful call above.
        let kind = unsafe { fs.assume_init() }.f_type;
        // `f_type` is an i64 here and narrower on some targets.
        #[allow(clippy::unnecessary_cast)]
        MAPPED_FILESYSTEMS.contains(&(kind as i64))
    };
    dense && unlimited && known
}

/// Whether this process may run two threads at once (its CPU affinity and cgroup quota).
fn worth_a_thread() -> bool {
    std::thread::available_parallelism().is_ok_and(|n| n.get() >= 2)
}

/// What the reader and the mapping thread share.
struct Progress {
    base: usize,
    len: usize,
    /// Bytes the reader is done with.
    consumed: AtomicUsize,
    /// Bytes from the start already unmapped (a multiple of [`STEP`]).
    zapped: AtomicUsize,
    stop: AtomicBool,
}

impl Progress {
    /// The mapping thread: keeps `[consumed, consumed + AHEAD)` mapped and unmaps what lies
    /// behind the reader, until told to stop or the kernel refuses (then the reader faults
    /// pages in itself, as with any map).
    fn map_ahead(&self) {
        let mut mapped = 0;
        while !self.stop.load(Ordering::Acquire) {
            let consumed = self.consumed.load(Ordering::Acquire);
            self.zap_to(consumed / UNMAP_RUN * UNMAP_RUN);
            mapped = mapped.max(consumed / STEP * STEP);
            let want = self.len.min(consumed + AHEAD);
            if mapped < want {
                let to = self.len.min(mapped + STEP);
                // SAFETY: `[base + mapped, base + to)` lies inside the map, which is not
                // unmapped before this thread is joined.
                let rc = unsafe {
                    libc::madvise(
                        (self.base + mapped) as *mut c_void,
                        to - mapped,
                        libc::MADV_POPULATE_READ,
                    )
                };
                if rc != 0 {
                    // EINVAL before Linux 5.14, EFAULT past a new end of file, EINTR: stop
                    // helping; the reader still reads every page.
                    return;
                }
                mapped = to;
            } else {
                std::thread::park_timeout(NAP);
            }
        }
    }

    /// Unmaps the pages of `[0, to)` not unmapped yet (`to` a multiple of [`STEP`]); each
    /// range is unmapped by whichever thread claims it first.
    fn zap_to(&self, to: usize) {
        let from = self.zapped.fetch_max(to, Ordering::AcqRel);
        if from < to {
            // SAFETY: the range lies inside the map and the reader is past it. DONTNEED on a
            // read-only shared file map only drops page-table entries: the file is untouched.
            unsafe {
                libc::madvise(
                    (self.base + from) as *mut c_void,
                    to - from,
                    libc::MADV_DONTNEED,
                );
            }
        }
    }
}

/// A live read-only shared map of a file, registered for the `SIGBUS` handler; unregistered
/// and unmapped on drop.
struct Map {
    base: *const u8,
    len: usize,
    slot: &'static Slot,
}

impl Map {
    /// Maps `len` bytes of `file` and claims a slot; None when the kernel refuses or every
    /// slot is taken.
    fn new(file: &File, len: usize) -> Option<Map> {
        // SAFETY: a fresh read-only mapping chosen by the kernel; nothing else is affected.
        let base = unsafe {
            libc::mmap(
                std::ptr::null_mut(),
                len,
                libc::PROT_READ,
                libc::MAP_SHARED,
                file.as_raw_fd(),
                0,
            )
        };
        if base == libc::MAP_FAILED {
            return None;
        }
        let start = base as usize;
        for slot in &LIVE {
            if slot
                .start
                .compare_exchange(0, start, Ordering::AcqRel, Ordering::Acquire)
                .is_ok()
            {
                slot.cut.store(false, Ordering::Release);
                slot.end.store(start + len, Ordering::Release);
                return Some(Map {
                    base: base.cast(),
                    len,
                    slot,
                });
            }
        }
        // SAFETY: the mapping made above, not yet shared with anything.
        unsafe { libc::munmap(base, len) };
        None
    }

    fn is_cut(&self) -> bool {
        self.slot.cut.load(Ordering::Acquire)
    }
}

impl Drop for Map {
    fn drop(&mut self) {
        // Unregister first: once unmapped, the range may be reused by another mapping, whose
        // faults are not ours to answer.
        self.slot.end.store(0, Ordering::Release);
        self.slot.start.store(0, Ordering::Release);
        // SAFETY: our own mapping (parts of it possibly replaced by the handler's zero pages,
        // which this removes too); no slice of it is alive and the mapping thread has ended.
        unsafe { libc::munmap(self.base as *mut c_void, self.len) };
    }
}

/// Installs the `SIGBUS` handler once; false when it could not be installed.
fn install_handler() -> bool {
    INSTALL.call_once(|| {
        // SAFETY: sysconf only reads a system value.
        let page = unsafe { libc::sysconf(libc::_SC_PAGESIZE) };
        if let Ok(page @ 1..) = usize::try_from(page) {
            PAGE.store(page, Ordering::Relaxed);
        }
        let mut old = std::mem::MaybeUninit::<libc::sigaction>::zeroed();
        // SAFETY: a null new action only queries; `old` is valid for writes.
        if unsafe { libc::sigaction(libc::SIGBUS, std::ptr::null(), old.as_mut_ptr()) } != 0 {
            return;
        }
        // SAFETY: filled by the successful call above.
        let _ = PREVIOUS.set(Action(unsafe { old.assume_init() }));
        // SAFETY: all-zero is a valid sigaction (SIG_DFL, empty mask, no flags).
        let mut action: libc::sigaction = unsafe { std::mem::zeroed() };
        action.sa_sigaction =
            on_sigbus as extern "C" fn(c_int, *mut siginfo_t, *mut c_void) as libc::sighandler_t;
        action.sa_flags = libc::SA_SIGINFO | libc::SA_ONSTACK;
        // SAFETY: `sa_mask` is a valid sigset_t to initialise; the handler only makes
        // async-signal-safe calls (mmap, sigaction) and atomic loads and stores.
        let ok = unsafe {
            libc::sigemptyset(&mut action.sa_mask);
            libc::sigaction(libc::SIGBUS, &action, std::ptr::null_mut()) == 0
        };
        INSTALLED.store(ok, Ordering::Release);
    });
    INSTALLED.load(Ordering::Acquire)
}

/// The `SIGBUS` handler: a fault inside a live map gets zero pages over the rest of that map
/// (the faulting access then reads zeros) and marks it cut; any other goes to the previous
/// action.
extern "C" fn on_sigbus(sig: c_int, info: *mut siginfo_t, context: *mut c_void) {
    // SAFETY: the kernel passes a valid siginfo to an SA_SIGINFO handler.
    let (code, addr) = unsafe { ((*info).si_code, (*info).si_addr() as usize) };
    if code <= 0 {
        // Sent by a process (kill, sigqueue, tgkill), not a fault: SIGBUS's default action,
        // as if no handler were installed. The signal is blocked while this runs, so the
        // raised one is delivered, with the default action, when it returns.
        // SAFETY: signal and raise are async-signal-safe.
        unsafe {
            libc::signal(libc::SIGBUS, libc::SIG_DFL);
            libc::raise(libc::SIGBUS);
        }
        return;
    }
    let page = PAGE.load(Ordering::Relaxed);
    for slot in &LIVE {
        if code != libc::BUS_ADRERR {
            // A hardware memory error or a misaligned access: never a cut file.
            break;
        }
        let start = slot.start.load(Ordering::Acquire);
        let end = slot.end.load(Ordering::Acquire);
        if start != 0 && (start..end).contains(&addr) {
            let from = addr & !(page - 1);
            // SAFETY: `[from, end)` is inside this live map (page-aligned: maps start on a
            // page); replacing it with private zero pages changes no file and nothing else.
            let zeros = unsafe {
                libc::mmap(
                    from as *mut c_void,
                    end - from,
                    libc::PROT_READ,
                    libc::MAP_PRIVATE | libc::MAP_ANONYMOUS | libc::MAP_FIXED,
                    -1,
                    0,
                )
            };
            if zeros != libc::MAP_FAILED {
                slot.cut.store(true, Ordering::Release);
                return;
            }
        }
    }
    chain(sig, info, context);
}

/// Hands a fault that is not ours to the action installed before ours. A default or ignored
/// action is put back in place, so the access faults again and gets it.
fn chain(sig: c_int, info: *mut siginfo_t, context: *mut c_void) {
    let Some(Action(previous)) = PREVIOUS.get() else {
        return;
    };
    let handler = previous.sa_sigaction;
    if handler == libc::SIG_DFL || handler == libc::SIG_IGN {
        // SAFETY: `previous` is the action that was in place; sigaction is async-signal-safe.
        unsafe { libc::sigaction(sig, previous, std::ptr::null_mut()) };
    } else if previous.sa_flags & libc::SA_SIGINFO != 0 {
        // SAFETY: an SA_SIGINFO handler takes these three arguments.
        let f: extern "C" fn(c_int, *mut siginfo_t, *mut c_void) =
            unsafe { std::mem::transmute(handler) };
        f(sig, info, context);
    } else {
        // SAFETY: a plain handler takes the signal number.
        let f: extern "C" fn(c_int) = unsafe { std::mem::transmute(handler) };
        f(sig);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

    fn file_of(len: usize) -> (tempfile::NamedTempFile, Vec<u8>) {
        let bytes: Vec<u8> = (0..len).map(|i| b"abcdefghij\n"[i % 11]).collect();
        let mut f = tempfile::NamedTempFile::new().unwrap();
        f.write_all(&bytes).unwrap();
        (f, bytes)
    }

    #[test]
    fn every_byte_is_fed_in_order() {
        let len = MAP_MIN as usize + 12_345;
        let (f, bytes) = file_of(len);
        let mut seen = Vec::with_capacity(len);
        let mut pieces = 0;
        let r = for_each_piece::<()>(f.as_file(), len as u64, 64 * 1024, |p| {
            seen.extend_from_slice(p);
            pieces += 1;
            Ok(())
        });
        if !worth_a_thread() || !mappable(f.as_file(), len as u64) {
            assert!(matches!(r, Mapped::NotMapped));
            return;
        }
        assert!(matches!(r, Mapped::Done), "{r:?}");
        assert_eq!(pieces, len.div_ceil(64 * 1024));
        assert!(seen == bytes);
    }

    #[test]
    fn small_files_are_not_mapped() {
        let (f, _) = file_of(1000);
        let r = for_each_piece::<()>(f.as_file(), 1000, 64, |_| panic!("fed"));
        assert!(matches!(r, Mapped::NotMapped));
    }

    #[test]
    fn a_stop_ends_the_walk() {
        let len = MAP_MIN as usize;
        let (f, _) = file_of(len);
        let mut calls = 0;
        let r = for_each_piece(f.as_file(), len as u64, 4096, |_| {
            calls += 1;
            if calls == 3 { Err("enough") } else { Ok(()) }
        });
        if worth_a_thread() && mappable(f.as_file(), len as u64) {
            assert!(matches!(r, Mapped::Stopped("enough")), "{r:?}");
            assert_eq!(calls, 3);
        }
    }

    /// Walks a file of `len` bytes, cutting it to `cut_to` bytes while the first piece is
    /// fed; returns how the walk ended and whether a later piece was all zeros.
    fn walk_cut_to(len: usize, cut_to: u64) -> (Mapped<()>, bool) {
        let (f, _) = file_of(len);
        let writer = std::fs::OpenOptions::new()
            .write(true)
            .open(f.path())
            .unwrap();
        let mut first = true;
        let mut zeros_seen = false;
        let r = for_each_piece::<()>(f.as_file(), len as u64, 64 * 1024, |p| {
            if first {
                first = false;
                writer.set_len(cut_to).unwrap();
            } else if p.iter().all(|&b| b == 0) {
                zeros_seen = true;
            }
            Ok(())
        });
        (r, zeros_seen)
    }

    /// Cut within the map's last page: no page past the end is touched, so no SIGBUS; the
    /// kernel shows zeros for the lost bytes (attack finding: they were hashed as content,
    /// giving a tag of bytes the file never held).
    #[test]
    fn a_file_cut_within_its_last_page_is_reported() {
        let len = MAP_MIN as usize + 1000;
        let (r, _) = walk_cut_to(len, len as u64 - 500);
        if worth_a_thread() && dense_tmp_maps() {
            assert!(matches!(r, Mapped::Cut), "{r:?}");
        }
    }

    /// Holes are read, not mapped (attack finding: reading a 4 GiB sparse file through a
    /// tmpfs map allocated 4 GiB of RAM for its holes, and kept it).
    #[test]
    fn a_sparse_file_is_not_mapped() {
        let f = tempfile::NamedTempFile::new().unwrap();
        f.as_file().write_all(b"hello\n").unwrap();
        f.as_file().set_len(4 * MAP_MIN).unwrap();
        let r = for_each_piece::<()>(f.as_file(), 4 * MAP_MIN, 64 * 1024, |_| panic!("fed"));
        assert!(matches!(r, Mapped::NotMapped), "{r:?}");
    }

    /// The file is cut to nothing after the first piece: the pages past the end raise SIGBUS,
    /// which the handler turns into zeros and a cut, and the process lives on.
    #[test]
    fn a_file_cut_short_under_the_map_is_reported_not_fatal() {
        let (r, zeros_seen) = walk_cut_to(MAP_MIN as usize * 2, 0);
        if worth_a_thread() && dense_tmp_maps() {
            assert!(matches!(r, Mapped::Cut), "{r:?}");
            assert!(zeros_seen);
        }
    }

    /// Whether a written temporary file here is mapped at all (its filesystem is one that is).
    fn dense_tmp_maps() -> bool {
        let (f, _) = file_of(4096);
        mappable(f.as_file(), 1)
    }
}
