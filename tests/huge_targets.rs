//! Huge targets are never read whole (issue 17, item 5): on a 64 GiB sparse file (free to
//! make: `set_len`), the edit tools, delete-path, apply-patch's Delete and the notes tools
//! answered by aborting on the allocation, and a 3 GiB file took 3-6 GB. Each run here has an
//! address-space limit ([`AS_LIMIT`]) far below the file, so a whole read fails loudly; every
//! answer must be a clear `Error:` naming the size, or the work done in bounded memory.
//! copy-path keeps a sparse file sparse and honours `--timeout-ms`.

mod common;

use std::os::unix::fs::MetadataExt;
use std::os::unix::process::CommandExt;
use std::time::{Duration, Instant};

use common::*;

/// The address-space limit of every run: agtool itself needs far less.
const AS_LIMIT: u64 = 1 << 30;
/// The size of the sparse files.
const HUGE: u64 = 64 << 30;

/// Runs `agtool ARGS` from the root under [`AS_LIMIT`], `stdin` as its input.
fn run_limited(ws: &Ws, args: &[&str], stdin: Option<&str>) -> Run {
    run_under(AS_LIMIT, ws, args, stdin)
}

/// Runs `agtool ARGS` from the root under an address-space limit of `limit` bytes.
fn run_under(limit: u64, ws: &Ws, args: &[&str], stdin: Option<&str>) -> Run {
    let mut c = ws.std_cmd_in(&ws.root);
    c.args(args);
    // SAFETY: setrlimit is async-signal-safe and touches no memory shared with the parent.
    unsafe {
        c.pre_exec(move || {
            let lim = libc::rlimit {
                rlim_cur: limit,
                rlim_max: limit,
            };
            if libc::setrlimit(libc::RLIMIT_AS, &lim) != 0 {
                return Err(std::io::Error::last_os_error());
            }
            Ok(())
        });
    }
    c.stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped());
    let mut child = c.spawn().unwrap();
    {
        use std::io::Write;
        let mut i = child.stdin.take().unwrap();
        if let Some(s) = stdin {
            i.write_all(s.as_bytes()).unwrap();
        }
    }
    Run::from(child.wait_with_output().unwrap())
}

/// A sparse file of `len` bytes at `rel`, starting with `head`.
fn sparse(ws: &Ws, rel: &str, head: &[u8], len: u64) {
    ws.write(rel, head);
    let f = std::fs::OpenOptions::new()
        .write(true)
        .open(ws.path(rel))
        .unwrap();
    f.set_len(len).unwrap();
}

/// A refusal (exit 1, `Error:`) that says how big the file is, the file unchanged.
#[track_caller]
fn refused_naming_size(run: &Run, ws: &Ws, rel: &str) {
    run.code(1);
    assert!(run.out.starts_with("Error: "), "{}", run.out);
    assert!(
        run.out.contains("68719476736 bytes"),
        "the size is not named: {}",
        run.out
    );
    assert_eq!(std::fs::metadata(ws.path(rel)).unwrap().len(), HUGE);
}

#[test]
fn edits_of_a_huge_file_are_refused_by_its_size() {
    let ws = Ws::new();
    sparse(&ws, "big.txt", b"hello\n", HUGE);
    let r = run_limited(
        &ws,
        &["edit-file", "big.txt", "--old", "hello", "--new", "bye"],
        None,
    );
    refused_naming_size(&r, &ws, "big.txt");
    let r = run_limited(
        &ws,
        &["write-file", "big.txt", "--overwrite", "--content", "x"],
        None,
    );
    refused_naming_size(&r, &ws, "big.txt");
    let patch = "*** Begin Patch\n*** Update File: big.txt\n@@\n-hello\n+bye\n*** End Patch\n";
    let r = run_limited(&ws, &["apply-patch"], Some(patch));
    refused_naming_size(&r, &ws, "big.txt");
    let patch = "*** Begin Patch\n*** Delete File: big.txt\n*** End Patch\n";
    let r = run_limited(&ws, &["apply-patch"], Some(patch));
    refused_naming_size(&r, &ws, "big.txt");
    assert!(r.out.contains("delete_path"), "{}", r.out);
}

#[test]
fn deleting_a_huge_file_does_not_read_it() {
    let ws = Ws::new();
    // Not text: refused as such (no read can vouch for it), without reading it.
    sparse(&ws, "big.bin", b"\0\x01", HUGE);
    for args in [
        &["delete-path", "big.bin", "--dry-run"][..],
        &["delete-path", "big.bin"][..],
    ] {
        let r = run_limited(&ws, args, None);
        r.code(1);
        assert!(r.out.contains("is not a text file"), "{}", r.out);
        assert!(r.out.contains("68719476736 bytes"), "{}", r.out);
    }
    // Text at its head, never read: the freshness gate asks for a read.
    sparse(&ws, "big.txt", "hello\n".repeat(3000).as_bytes(), HUGE);
    let r = run_limited(&ws, &["delete-path", "big.txt"], None);
    r.code(1);
    assert!(r.out.contains("read big.txt before"), "{}", r.out);
    assert!(ws.path("big.txt").exists());
}

#[test]
fn a_read_huge_text_file_is_deleted_in_bounded_memory() {
    // A real text file over the address-space limit (256 MiB here, so the test stays short),
    // read with read_file (which records its tag), then deleted: the freshness check hashes
    // it in pieces.
    const LIMIT: u64 = 256 << 20;
    let ws = Ws::new();
    let line = "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcde\n";
    let chunk = line.repeat((4 << 20) / line.len());
    {
        use std::io::Write;
        let mut f = std::io::BufWriter::new(std::fs::File::create(ws.path("log.txt")).unwrap());
        let mut written = 0u64;
        while written < LIMIT + (44 << 20) {
            f.write_all(chunk.as_bytes()).unwrap();
            written += chunk.len() as u64;
        }
    }
    let read = [
        "read-file",
        "log.txt",
        "--limit",
        "2",
        "--timeout-ms",
        "300000",
    ];
    run_under(LIMIT, &ws, &read, None).ok();
    let r = run_under(LIMIT, &ws, &["delete-path", "log.txt", "--dry-run"], None);
    assert!(r.ok().starts_with("Would delete log.txt ("), "{}", r.out);
    run_under(LIMIT, &ws, &["delete-path", "log.txt"], None).ok();
    assert!(!ws.path("log.txt").exists());
}

#[test]
fn an_oversized_note_is_refused_by_its_size() {
    let ws = Ws::new();
    ws.mkdir(".agent-state/notes");
    sparse(&ws, ".agent-state/notes/big.md", b"# big\n", HUGE);
    let r = run_limited(&ws, &["notes", "read", "big"], None);
    refused_naming_size(&r, &ws, ".agent-state/notes/big.md");
    let r = run_limited(&ws, &["notes", "write", "big", "--append"], Some("more\n"));
    refused_naming_size(&r, &ws, ".agent-state/notes/big.md");
    // Listed with the reason, the other notes still found.
    ws.write(".agent-state/notes/small.md", "needle here\n");
    let r = run_limited(&ws, &["notes", "list", "--query", "needle"], None);
    assert!(r.ok().contains("small"), "{}", r.out);
    let r = run_limited(&ws, &["notes", "list", "--query", "big"], None);
    assert!(r.out.contains("68719476736 bytes"), "{}", r.out);
    // A plain write replaces it without reading it.
    run_limited(&ws, &["notes", "write", "big"], Some("short now\n")).ok();
    assert_eq!(ws.read(".agent-state/notes/big.md"), b"short now\n");
}

#[test]
fn copy_path_keeps_a_sparse_file_sparse() {
    let ws = Ws::new();
    sparse(&ws, "big.bin", b"head", HUGE);
    {
        use std::os::unix::fs::FileExt;
        let f = std::fs::OpenOptions::new()
            .write(true)
            .open(ws.path("big.bin"))
            .unwrap();
        f.write_all_at(b"middle", 32 << 30).unwrap();
    }
    let start = Instant::now();
    let r = run_limited(
        &ws,
        &["copy-path", "big.bin", "copy.bin", "--timeout-ms", "20000"],
        None,
    );
    r.ok();
    assert!(
        start.elapsed() < Duration::from_secs(15),
        "{:?}",
        start.elapsed()
    );
    let m = std::fs::metadata(ws.path("copy.bin")).unwrap();
    assert_eq!(m.len(), HUGE);
    assert!(m.blocks() * 512 < 64 << 20, "{} blocks", m.blocks());
    {
        use std::os::unix::fs::FileExt;
        let f = std::fs::File::open(ws.path("copy.bin")).unwrap();
        let mut b = [0u8; 6];
        f.read_exact_at(&mut b[..4], 0).unwrap();
        assert_eq!(&b[..4], b"head");
        f.read_exact_at(&mut b, 32 << 30).unwrap();
        assert_eq!(&b, b"middle");
    }
}

#[test]
fn copy_path_honours_its_timeout() {
    // 1 GiB of real data (not sparse): copying takes longer than the 100 ms allowed.
    let ws = Ws::new();
    {
        use std::io::Write;
        let mut f = std::fs::File::create(ws.path("data.bin")).unwrap();
        let block = vec![7u8; 4 << 20];
        for _ in 0..256 {
            f.write_all(&block).unwrap();
        }
    }
    let start = Instant::now();
    let r = run_limited(
        &ws,
        &["copy-path", "data.bin", "copy.bin", "--timeout-ms", "100"],
        None,
    );
    let took = start.elapsed();
    r.code(124);
    assert!(r.out.contains("timed out after 100 ms"), "{}", r.out);
    assert!(took < Duration::from_secs(3), "{took:?}");
    assert!(!ws.path("copy.bin").exists());
    let left: Vec<_> = std::fs::read_dir(&ws.root)
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert!(
        left.iter().all(|n| n == "data.bin" || n == ".agent-state"),
        "{left:?}"
    );
}

/// read-file streams UTF-8 slices of any size, but indentation mode, UTF-16 and GBK decode the
/// whole file: a 64 GiB one was allocated whole (the address-space limit here made it abort).
/// Each is refused by its size, saying why it would be decoded whole and what to do instead.
#[test]
fn reads_that_decode_whole_are_refused_by_size() {
    let ws = Ws::new();
    sparse(&ws, "wide.txt", b"\xff\xfeh\x00i\x00\n\x00", HUGE);
    // Past the 8 KiB sniffed for NUL bytes (the sparse rest reads as NULs).
    sparse(&ws, "gbk.txt", &b"\xd6\xd0\xce\xc4\n".repeat(2000), HUGE);
    sparse(&ws, "big.txt", b"fn main() {\n    x\n}\n", HUGE);
    let cases: [(&str, &[&str], &str); 3] = [
        ("wide.txt", &[], "UTF-16 or UTF-32"),
        ("gbk.txt", &[], "not UTF-8"),
        (
            "big.txt",
            &["--mode", "indentation", "--offset", "2"],
            "indentation mode",
        ),
    ];
    for (rel, extra, why) in cases {
        let args = [&["read-file", rel][..], extra].concat();
        let r = run_limited(&ws, &args, None);
        refused_naming_size(&r, &ws, rel);
        assert!(r.out.contains(why), "{rel}: {}", r.out);
        assert!(r.out.contains("64 MiB"), "{rel}: {}", r.out);
    }
    // A UTF-8 slice of the same size is still streamed (only its first lines are kept).
    let r = run_limited(
        &ws,
        &["read-file", "big.txt", "--limit", "2", "--timeout-ms", "1"],
        None,
    );
    assert!(!r.out.contains("decodes at most"), "{}", r.out);
}

/// A file over the 64 MiB whole-decode bound that is neither UTF-8 nor GBK (a log with a
/// Latin-1 byte) could not be read at all: it was refused as too big to decode whole. It is
/// streamed now with U+FFFD where a byte is not UTF-8, its header saying where and how often;
/// one that starts as GBK is still refused with how to convert it.
#[test]
fn a_big_file_that_is_not_utf8_nor_gbk_is_streamed_with_replacement() {
    use std::os::unix::fs::FileExt;
    let ws = Ws::new();
    let len: u64 = 65 << 20;
    // Past the 8 KiB sniffed for NUL bytes, the sparse rest reads as one line of NULs.
    let head = [&b"K\xf6ln\n"[..], &b"x\n".repeat(5000)].concat();
    sparse(&ws, "app.log", &head, len);
    let tail = b"\nlast \xe9t\xe9\n";
    let f = std::fs::OpenOptions::new()
        .write(true)
        .open(ws.path("app.log"))
        .unwrap();
    f.write_all_at(tail, len - tail.len() as u64).unwrap();
    drop(f);
    let r = run_limited(&ws, &["read-file", "app.log", "--tail", "1"], None);
    assert_eq!(r.code, 0, "{}", r.out);
    assert!(
        r.out.contains(
            "not UTF-8 at byte 1 and 2 more places: shown as \u{FFFD}; edits are refused"
        ),
        "{}",
        r.out
    );
    assert!(
        r.out.contains("L5003: last \u{FFFD}t\u{FFFD}\n"),
        "{}",
        r.out
    );
    let r = run_limited(&ws, &["read-file", "app.log", "--limit", "1"], None);
    assert!(r.out.contains("L1: K\u{FFFD}ln\n"), "{}", r.out);
    // The hole reads as one long line of NUL bytes: cut, saying how many bytes are left out.
    let r = run_limited(
        &ws,
        &["read-file", "app.log", "--offset", "5002", "--limit", "1"],
        None,
    );
    assert_eq!(r.code, 0, "{}", r.out);
    assert!(
        r.out.contains("more bytes]"),
        "{}",
        &r.out[..r.out.len().min(300)]
    );
    // An edit is refused and changes nothing.
    let before = std::fs::metadata(ws.path("app.log")).unwrap().mtime();
    let r = run_limited(
        &ws,
        &["edit-file", "app.log", "--old", "last", "--new", "first"],
        None,
    );
    assert_eq!(r.code, 1, "{}", r.out);
    assert_eq!(
        std::fs::metadata(ws.path("app.log")).unwrap().mtime(),
        before
    );
    // A big file that starts as GBK is still refused, saying how to convert it.
    sparse(&ws, "gbk.log", &b"\xd6\xd0\xce\xc4\n".repeat(2000), len);
    let r = run_limited(&ws, &["read-file", "gbk.log", "--tail", "1"], None);
    r.code(1);
    assert!(r.out.contains("68157440 bytes"), "{}", r.out);
    assert!(r.out.contains("looks like GBK"), "{}", r.out);
    assert!(r.out.contains("iconv"), "{}", r.out);
}
