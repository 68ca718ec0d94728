//! read-file on big files. Files large enough to be read from a memory map (16 MiB and up,
//! spec 02 "Cost", issue 18 §7) give the same header, lines, counts and tails as the whole-file
//! decoder, for LF, CRLF and non-ASCII text, a file that grows while it is read, and a file cut
//! short while it is read (the process must never die of SIGBUS), in a few MiB of memory. A
//! window or tail of millions of lines shows at most 1 MiB, and says where the rest is.

mod common;

use std::io::Write;
use std::time::Duration;

use common::*;

/// A text of at least `min` bytes: numbered lines, every 7th with non-ASCII text, joined by
/// `eol`, with a last line `last` (no terminator after it when `final_eol` is false).
fn text_of(min: usize, eol: &str, last: &str, final_eol: bool) -> (Vec<u8>, Vec<String>) {
    let mut lines = Vec::new();
    let mut len = 0;
    let mut i = 0;
    while len < min {
        let line = if i % 7 == 3 {
            format!("line {i}: naïve café — 日本語 {}", "x".repeat(i % 50))
        } else {
            format!("line {i}: plain text {}", "y".repeat(i % 90))
        };
        len += line.len() + eol.len();
        lines.push(line);
        i += 1;
    }
    lines.push(last.to_owned());
    let mut bytes = lines.join(eol).into_bytes();
    if final_eol {
        bytes.extend_from_slice(eol.as_bytes());
    }
    (bytes, lines)
}

fn write_big(ws: &Ws, rel: &str, bytes: &[u8]) {
    let mut f = std::io::BufWriter::new(std::fs::File::create(ws.path(rel)).unwrap());
    f.write_all(bytes).unwrap();
    f.flush().unwrap();
}

#[test]
fn a_mapped_read_shows_what_the_decoder_sees() {
    let ws = Ws::new();
    for (eol, note, final_eol) in [
        ("\n", "", true),
        ("\r\n", " (crlf)", true),
        ("\n", " (no final newline)", false),
    ] {
        let (bytes, lines) = text_of(40 << 20, eol, "the last line — fin", final_eol);
        write_big(&ws, "big.txt", &bytes);
        let head = ws.run(&["read-file", "big.txt", "--offset", "3", "--limit", "5"]);
        let out = head.ok();
        assert!(
            out.starts_with(&format!("[big.txt#{}]{note}\n", tag(&bytes))),
            "{}",
            &out[..out.len().min(300)]
        );
        for n in 3..=7 {
            assert!(
                out.contains(&format!("L{n}: {}\n", lines[n - 1])),
                "line {n}: {out}"
            );
        }
        let total = lines.len();
        assert!(
            out.contains(&format!(
                "({} more lines; continue with offset=8)",
                total - 7
            )),
            "{out}"
        );
        let tail = ws.run(&["read-file", "big.txt", "--tail", "2"]);
        let out = tail.ok();
        assert!(
            out.contains(&format!("L{}: {}\n", total - 1, lines[total - 2])),
            "{out}"
        );
        assert!(
            out.contains(&format!("L{total}: the last line — fin")),
            "{out}"
        );
        // A window deep inside the file (split from the map, not the first pieces).
        let mid = total / 2;
        let deep = ws.run(&[
            "read-file",
            "big.txt",
            "--offset",
            &mid.to_string(),
            "--limit",
            "1",
        ]);
        assert!(
            deep.ok().contains(&format!("L{mid}: {}\n", lines[mid - 1])),
            "{}",
            deep.out
        );
    }
}

#[test]
fn bytes_that_are_not_utf8_deep_in_a_mapped_file_are_decoded_whole() {
    let ws = Ws::new();
    // ASCII (which GBK shares), then GBK for 中文 far past the first pieces: the map's pass
    // stops there and the whole-file decoder takes over.
    let mut bytes = "an ascii line of text\n"
        .repeat((20 << 20) / 22)
        .into_bytes();
    bytes.extend_from_slice(b"\xd6\xd0\xce\xc4\n");
    write_big(&ws, "gbk.txt", &bytes);
    let r = ws.run(&["read-file", "gbk.txt", "--tail", "1"]);
    let out = r.ok();
    assert!(out.contains("中文"), "{}", &out[..out.len().min(300)]);
    assert!(
        out.starts_with(&format!("[gbk.txt#{}]", tag(&bytes))),
        "{out}"
    );
}

#[test]
fn a_binary_file_past_the_map_size_is_refused_by_its_size() {
    let ws = Ws::new();
    let mut bytes = vec![b'a'; 17 << 20];
    bytes[100] = 0;
    write_big(&ws, "blob.bin", &bytes);
    let r = ws.run(&["read-file", "blob.bin"]);
    r.code(1);
    assert!(r.out.starts_with("Error: "), "{}", r.out);
}

/// Files cut short or grown while read-file reads them: every run ends with an answer
/// (exit 0 or 1), never a signal, and a shown tag is the tag of the file before or after.
#[test]
fn a_file_cut_or_grown_while_read_is_never_fatal() {
    let ws = Ws::new();
    let (bytes, _) = text_of(64 << 20, "\n", "end", true);
    let half = bytes.len() / 2;
    let cut_at = bytes[..half].iter().rposition(|&b| b == b'\n').unwrap() + 1;
    let tags = [tag(&bytes), tag(&bytes[..cut_at])];
    for round in 0..12u64 {
        write_big(&ws, "moving.txt", &bytes);
        let child = ws
            .std_cmd_in(&ws.root)
            .args(["read-file", "moving.txt", "--tail", "1"])
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        std::thread::sleep(Duration::from_millis(2 + round * 3));
        let f = std::fs::OpenOptions::new()
            .write(true)
            .open(ws.path("moving.txt"))
            .unwrap();
        f.set_len(cut_at as u64).unwrap();
        let out = child.wait_with_output().unwrap();
        let text = String::from_utf8_lossy(&out.stdout);
        let code = out.status.code();
        assert!(
            code == Some(0) || code == Some(1),
            "round {round}: ended by {:?}: {text}",
            out.status
        );
        if code == Some(0) {
            assert!(
                tags.iter()
                    .any(|t| text.starts_with(&format!("[moving.txt#{t}]"))),
                "round {round}: {text}"
            );
        }
    }
}

/// Runs `agtool ARGS` in the root and returns its exit code and the largest resident size
/// (KiB) seen while it ran, sampled from /proc (the kernel's own peak, `ru_maxrss`, misses
/// mapped pages that were unmapped before the process ended).
fn sampled_peak_rss(ws: &Ws, args: &[&str]) -> (i32, u64) {
    let mut child = ws
        .std_cmd_in(&ws.root)
        .args(args)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let status = format!("/proc/{}/status", child.id());
    let mut peak = 0;
    loop {
        if let Ok(text) = std::fs::read_to_string(&status) {
            let rss = text
                .lines()
                .find_map(|l| l.strip_prefix("VmRSS:"))
                .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<u64>().ok());
            peak = peak.max(rss.unwrap_or(0));
        }
        if let Some(done) = child.try_wait().unwrap() {
            return (done.code().unwrap_or(-1), peak);
        }
        std::thread::sleep(Duration::from_micros(200));
    }
}

/// Reads a text of `mib` MiB as `big.txt` with each of `reads` (read-file's arguments after
/// the path) and checks each run's sampled peak resident size stays within 24 MiB of a read
/// of a one-line file.
fn resident_size_stays_small(mib: usize, reads: &[&[&str]]) {
    let ws = Ws::new();
    let (bytes, _) = text_of(mib << 20, "\n", "end", true);
    write_big(&ws, "big.txt", &bytes);
    ws.write("small.txt", "one line\n");
    let (code, small) = sampled_peak_rss(&ws, &["read-file", "small.txt"]);
    assert_eq!(code, 0);
    for extra in reads {
        let args = [&["read-file", "big.txt"][..], extra].concat();
        let (code, big) = sampled_peak_rss(&ws, &args);
        assert_eq!(code, 0);
        assert!(
            big < small + 24 * 1024,
            "{args:?}: {big} KiB against {small} KiB for a small file"
        );
    }
}

/// Mapped pages count in the resident size: the map is read through a window of a few MiB,
/// so reading 256 MiB costs about what reading a small file does, not 256 MiB more.
#[test]
fn a_mapped_read_keeps_a_small_resident_size() {
    resident_size_stays_small(256, &[&["--limit", "2000"], &["--tail", "100"]]);
}

/// The lines shown after the header of a read-file answer, as (number, text).
fn shown_lines(out: &str) -> Vec<(usize, &str)> {
    out.lines()
        .filter_map(|l| {
            let (n, text) = l.strip_prefix('L')?.split_once(": ")?;
            Some((n.parse().ok()?, text))
        })
        .collect()
}

/// A `limit` or `tail` of millions of lines printed every line (1.2 GB from a 1 GiB file) and
/// held them all (3.2 GB). A read shows at most 1 MiB: a window ends early with where to go
/// on, a tail leaves out its first lines and says which; the decoder's path (UTF-16) too.
#[test]
fn a_window_of_millions_of_lines_shows_at_most_1_mib() {
    let ws = Ws::new();
    let line = |i: usize| format!("line {i:08} {}", "z".repeat(40));
    let n = 400_000;
    let text: String = (1..=n).map(|i| line(i) + "\n").collect();
    write_big(&ws, "log.txt", text.as_bytes());
    let mut wide = vec![0xFF, 0xFE];
    for unit in text.encode_utf16() {
        wide.extend_from_slice(&unit.to_le_bytes());
    }
    write_big(&ws, "wide.txt", &wide);
    for rel in ["log.txt", "wide.txt"] {
        let head = ws.run(&["read-file", rel, "--offset", "5", "--limit", "10000000"]);
        let out = head.ok();
        assert!(out.len() < (1 << 20) + 4096, "{rel}: {} bytes", out.len());
        let shown = shown_lines(out);
        let last = shown.last().unwrap().0;
        assert_eq!(shown.first().unwrap(), &(5, line(5).as_str()));
        assert_eq!(shown.len(), last - 4, "{rel}: consecutive lines");
        assert!(
            out.ends_with(&format!(
                "(a read shows at most 1 MiB; {} more lines; continue with offset={})\n",
                n - last,
                last + 1
            )),
            "{rel}: {}",
            &out[out.len() - 200..]
        );
        let tail = ws.run(&["read-file", rel, "--tail", "300000"]);
        let out = tail.ok();
        assert!(out.len() < (1 << 20) + 4096, "{rel}: {} bytes", out.len());
        let shown = shown_lines(out);
        let first = shown.first().unwrap().0;
        assert_eq!(shown.last().unwrap(), &(n, line(n).as_str()));
        let asked_first = n - 300_000 + 1;
        let note = format!(
            "({} lines left out before L{first}: a read shows at most 1 MiB; read them with \
             offset={asked_first} limit={})",
            first - asked_first,
            first - asked_first
        );
        assert_eq!(out.lines().nth(1), Some(note.as_str()), "{rel}");
    }
    // The default window is untouched by the budget.
    let out = ws.run(&["read-file", "log.txt"]).ok().to_owned();
    assert!(out.ends_with(&format!(
        "({} more lines; continue with offset=2001)\n",
        n - 2000
    )));
}

/// Holding the lines of a huge tail cost gigabytes; now the budget bounds the memory too.
#[test]
fn a_tail_of_millions_of_lines_keeps_a_small_resident_size() {
    resident_size_stays_small(64, &[&["--tail", "20000000"], &["--limit", "20000000"]]);
}

/// An indentation block over the budget was cut from its top, leaving out the anchor line it
/// was asked for (second attack); now it keeps the lines nearest the anchor and says so.
#[test]
fn an_indentation_block_over_the_budget_keeps_its_anchor() {
    let ws = Ws::new();
    let mut text = String::from("def f():\n");
    for i in 1..10_000 {
        text.push_str(&format!("    x{i} = {}\n", "z".repeat(300)));
    }
    write_big(&ws, "ind.py", text.as_bytes());
    let r = ws.run(&[
        "read-file",
        "ind.py",
        "--mode",
        "indentation",
        "--indentation",
        r#"{"anchor_line":5000,"max_lines":100000}"#,
    ]);
    let out = r.ok();
    let shown = shown_lines(out);
    assert!(shown.iter().any(|(n, _)| *n == 5000), "the anchor is shown");
    let (first, last) = (shown.first().unwrap().0, shown.last().unwrap().0);
    assert_eq!(shown.len(), last - first + 1, "one run of lines");
    assert!(
        first > 3000 && first < 5000 && last > 5000 && last < 7000,
        "{first}..{last}"
    );
    assert!(out.ends_with("(the block is cut to the lines nearest L5000: a read shows at most 1 MiB; read around them with offset and limit)\n"), "{}", &out[out.len() - 200..]);
}

/// A file whose window alone is over the budget of a call with `paths` was "not shown ...
/// read them in another call", and every such call said the same (second attack): it says
/// to read it with `path` or a smaller limit, which works.
#[test]
fn a_file_too_big_for_paths_even_alone_says_how_to_read_it() {
    let ws = Ws::new();
    let line = format!("{}\n", "x".repeat(2000));
    ws.write("wide.txt", line.repeat(3000));
    ws.write("small.txt", "a\n");
    let r = ws.run(&["read-file", "--paths", "wide.txt", "small.txt"]);
    let out = r.ok();
    assert!(out.contains("L1: a\n"), "{out}");
    assert!(
        out.contains("(1 file not shown: over the 256 KB of text a call with paths shows, even alone; read each with path instead of paths, or with a smaller limit: wide.txt)"),
        "{out}"
    );
    ws.run(&["read-file", "wide.txt"]).ok();
    assert!(
        ws.run(&["read-file", "--paths", "wide.txt", "--limit", "100"])
            .ok()
            .contains("L100: ")
    );
}

/// Indentation mode and the decoder's path (UTF-16, GBK) held every line of the file as a
/// slice, and indentation mode an indent per line too: a 60 MiB file of blank lines took
/// 1.6 GB. They now hold only the lines the 1 MiB budget could show, beside the file's bytes
/// and its text: about three times the file, not twenty-five.
#[test]
fn a_whole_file_read_holds_only_the_lines_it_could_show() {
    let ws = Ws::new();
    let mib = 16;
    write_big(&ws, "blank.txt", &vec![b'\n'; mib << 20]);
    let mut wide = vec![0xFF, 0xFE];
    wide.extend(std::iter::repeat_n([b'\n', 0], mib << 19).flatten());
    write_big(&ws, "wide.txt", &wide);
    ws.write("small.txt", "one line\n");
    let (code, small) = sampled_peak_rss(&ws, &["read-file", "small.txt"]);
    assert_eq!(code, 0);
    let middle = (mib << 19).to_string();
    let reads: [&[&str]; 3] = [
        &["blank.txt", "--mode", "indentation", "--offset", &middle],
        &["wide.txt", "--tail", "10000000"],
        &["wide.txt", "--offset", "5", "--limit", "10000000"],
    ];
    for read in reads {
        let args = [&["read-file"][..], read].concat();
        let (code, big) = sampled_peak_rss(&ws, &args);
        assert_eq!(code, 0, "{args:?}");
        assert!(
            big < small + 5 * (mib as u64) * 1024,
            "{args:?}: {big} KiB against {small} KiB for a small file"
        );
    }
}
