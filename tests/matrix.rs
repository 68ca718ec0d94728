//! Encoding × line-ending matrix for every write tool (spec 01, "Editable text"): UTF-8,
//! UTF-8 with BOM, UTF-16LE/BE and UTF-32LE/BE with BOM, GBK × LF, CRLF, CR, mixed, no final
//! newline. The expected bytes are built independently here, so every byte outside the edit
//! must be the original one and the edit must take the file's own format.

mod write_common;

use serde_json::json;
use write_common::Ws;

#[derive(Clone, Copy, Debug)]
enum Enc {
    Utf8,
    Utf8Bom,
    Utf16Le,
    Utf16Be,
    Utf32Le,
    Utf32Be,
    Gbk,
}

const ENCODINGS: [Enc; 7] = [
    Enc::Utf8,
    Enc::Utf8Bom,
    Enc::Utf16Le,
    Enc::Utf16Be,
    Enc::Utf32Le,
    Enc::Utf32Be,
    Enc::Gbk,
];

fn encode(enc: Enc, s: &str) -> Vec<u8> {
    match enc {
        Enc::Utf8 => s.as_bytes().to_vec(),
        Enc::Utf8Bom => [b"\xEF\xBB\xBF".as_slice(), s.as_bytes()].concat(),
        Enc::Utf16Le => [
            b"\xFF\xFE".to_vec(),
            s.encode_utf16().flat_map(u16::to_le_bytes).collect(),
        ]
        .concat(),
        Enc::Utf16Be => [
            b"\xFE\xFF".to_vec(),
            s.encode_utf16().flat_map(u16::to_be_bytes).collect(),
        ]
        .concat(),
        Enc::Utf32Le => [
            b"\xFF\xFE\x00\x00".to_vec(),
            s.chars().flat_map(|c| (c as u32).to_le_bytes()).collect(),
        ]
        .concat(),
        Enc::Utf32Be => [
            b"\x00\x00\xFE\xFF".to_vec(),
            s.chars().flat_map(|c| (c as u32).to_be_bytes()).collect(),
        ]
        .concat(),
        Enc::Gbk => {
            let (b, _, bad) = encoding_rs::GBK.encode(s);
            assert!(!bad);
            b.into_owned()
        }
    }
}

/// A line-ending style: the terminator after each of the 5 lines (`None`: no final newline).
struct Style {
    name: &'static str,
    terms: [Option<&'static str>; 5],
    dominant: &'static str,
}

const STYLES: [Style; 5] = [
    Style {
        name: "lf",
        terms: [Some("\n"); 5],
        dominant: "\n",
    },
    Style {
        name: "crlf",
        terms: [Some("\r\n"); 5],
        dominant: "\r\n",
    },
    Style {
        name: "cr",
        terms: [Some("\r"); 5],
        dominant: "\r",
    },
    Style {
        name: "mixed",
        terms: [
            Some("\r\n"),
            Some("\n"),
            Some("\r"),
            Some("\r\n"),
            Some("\n"),
        ],
        dominant: "\r\n",
    },
    Style {
        name: "no final newline",
        terms: [Some("\n"), Some("\n"), Some("\n"), Some("\n"), None],
        dominant: "\n",
    },
];

const LINES: [&str; 5] = [
    "first 中文",
    "second line",
    "target 行",
    "fourth",
    "last 末",
];

fn join(lines: &[String], terms: &[Option<&str>]) -> String {
    lines
        .iter()
        .zip(terms)
        .map(|(l, t)| format!("{l}{}", t.unwrap_or("")))
        .collect()
}

fn original(style: &Style) -> String {
    let lines: Vec<String> = LINES.iter().map(|s| s.to_string()).collect();
    join(&lines, &style.terms)
}

fn anchor(n: usize, line: &str) -> String {
    let mut h: u32 = 0x811C_9DC5;
    for b in line.bytes() {
        h = (h ^ u32::from(b)).wrapping_mul(0x0100_0193);
    }
    format!("{n}:{:02x}", h & 0xFF)
}

fn setup(enc: Enc, style: &Style) -> Ws {
    let ws = Ws::new();
    ws.write("f.txt", encode(enc, &original(style)));
    ws.read("f.txt");
    ws
}

fn check(label: &str, ws: &Ws, enc: Enc, want_text: &str, failures: &mut Vec<String>) {
    let got = ws.bytes("f.txt");
    let want = encode(enc, want_text);
    if got != want {
        failures.push(format!(
            "{label}: got {:02x?}\nwant {:02x?}",
            &got[..got.len().min(80)],
            &want[..want.len().min(80)]
        ));
    }
}

#[test]
fn every_tool_in_every_encoding_and_line_ending() {
    // One thread per encoding: the runs wait on fsync far more than on the CPU.
    let failures: Vec<String> = std::thread::scope(|s| {
        let handles: Vec<_> = ENCODINGS
            .into_iter()
            .map(|enc| s.spawn(move || run_encoding(enc)))
            .collect();
        handles
            .into_iter()
            .flat_map(|h| h.join().unwrap())
            .collect()
    });
    assert!(
        failures.is_empty(),
        "{} failure(s):\n{}",
        failures.len(),
        failures.join("\n")
    );
}

fn run_encoding(enc: Enc) -> Vec<String> {
    let mut failures = Vec::new();
    {
        for style in &STYLES {
            let label = |tool: &str| format!("{tool} {enc:?} {}", style.name);
            let dom = style.dominant;
            // edit-file: one line changed and a line added; the new break takes the dominant
            // terminator.
            let ws = setup(enc, style);
            let r = ws.call(
                "edit_file",
                &json!({"path": "f.txt", "old": "target 行", "new": "TARGET 行\nadded"}),
            );
            if r.code != 0 {
                failures.push(format!("{}: {}", label("edit_file"), r.all()));
            } else {
                let want = original(style).replace("target 行", &format!("TARGET 行{dom}added"));
                check(&label("edit_file"), &ws, enc, &want, &mut failures);
            }
            // edit-file across a line break: the replaced break keeps its own terminator.
            let ws = setup(enc, style);
            let r = ws.call(
                "edit_file",
                &json!({"path": "f.txt", "old": "line\ntarget", "new": "LINE\nTARGET"}),
            );
            if r.code != 0 {
                failures.push(format!("{}: {}", label("edit_file across"), r.all()));
            } else {
                let t = style.terms[1].unwrap();
                let want =
                    original(style).replace(&format!("line{t}target"), &format!("LINE{t}TARGET"));
                check(&label("edit_file across"), &ws, enc, &want, &mut failures);
            }
            // edit-lines: line 3 becomes two lines; the first reuses line 3's terminator.
            let ws = setup(enc, style);
            let r = ws.call(
                "edit_lines",
                &json!({"edits": [{"path": "f.txt", "from_anchor": anchor(3, LINES[2]), "replace": "T1\nT2"}]}),
            );
            if r.code != 0 {
                failures.push(format!("{}: {}", label("edit_lines"), r.all()));
            } else {
                let t3 = style.terms[2].unwrap();
                let want =
                    original(style).replace(&format!("target 行{t3}"), &format!("T1{t3}T2{dom}"));
                check(&label("edit_lines"), &ws, enc, &want, &mut failures);
            }
            // edit-lines at the end: appending keeps "no final newline" when it was so.
            let ws = setup(enc, style);
            let r = ws.call(
                "edit_lines",
                &json!({"edits": [{"path": "f.txt", "after_anchor": anchor(5, LINES[4]), "insert": "tail"}]}),
            );
            if r.code != 0 {
                failures.push(format!("{}: {}", label("edit_lines tail"), r.all()));
            } else {
                let want = match style.terms[4] {
                    Some(_) => format!("{}tail{dom}", original(style)),
                    None => format!("{}{dom}tail", original(style)),
                };
                check(&label("edit_lines tail"), &ws, enc, &want, &mut failures);
            }
            // write-file: the whole content takes the file's encoding, BOM and dominant ending.
            let ws = setup(enc, style);
            let r = ws.call(
                "write_file",
                &json!({"path": "f.txt", "content": "x 中\ny\n"}),
            );
            if r.code != 0 {
                failures.push(format!("{}: {}", label("write_file"), r.all()));
            } else {
                let want = format!("x 中{dom}y{dom}");
                check(&label("write_file"), &ws, enc, &want, &mut failures);
            }
            // delete-path: the decoded file can be deleted after a read.
            let ws = setup(enc, style);
            let r = ws.call("delete_path", &json!({"path": "f.txt"}));
            if r.code != 0 || ws.exists("f.txt") {
                failures.push(format!("{}: {}", label("delete_path"), r.all()));
            }
        }
    }
    failures
}
