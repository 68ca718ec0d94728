//! web-fetch against real HTTP servers on loopback (spec 06, "web-fetch"; issue 11): the one
//! deadline, the body cap and its memory, binary refusal, charsets, HTML conversion and exact
//! paging.

mod web_common;

use std::io::Write;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use web_common::{Reply, Server, Ws, gzip_of_as, write_chunked};

const MIB: u64 = 1 << 20;

/// The JSON envelope of a `--json` run.
fn json(run: &web_common::Run) -> serde_json::Value {
    serde_json::from_str(&run.stdout).unwrap_or_else(|e| panic!("{e}: {}", run.stdout))
}

/// Not a test: the entry point through which `Ws::agtool_measured` runs agtool from a fresh,
/// small process (see there). Ignored, so a normal run never runs it.
#[test]
#[ignore = "helper run by Ws::agtool_measured"]
fn measure_helper() {
    web_common::measure_helper_main();
}

// ---- the one deadline --------------------------------------------------------------------

#[test]
fn a_server_that_never_answers_times_out_with_what_it_waited_for() {
    let server = Server::start("127.0.0.1", |_| Reply::Silent);
    let ws = Ws::private();
    let run = ws.fetch(&[&server.url("/"), "--timeout-ms", "1500"]);
    run.code(124).has(&format!(
        "Error: web_fetch timed out after 1500 ms (waiting for {} to answer)\n",
        server.url("/")
    ));
    assert!(
        run.elapsed < Duration::from_millis(4000),
        "took {:?}",
        run.elapsed
    );
}

#[test]
fn a_server_that_drips_a_byte_a_second_times_out() {
    let server = Server::start("127.0.0.1", |_| Reply::Stream {
        status: 200,
        headers: vec![
            ("Content-Type".into(), "text/plain".into()),
            ("Content-Length".into(), "100".into()),
        ],
        body: Box::new(|out| {
            for _ in 0..100 {
                out.write_all(b"x")?;
                out.flush()?;
                std::thread::sleep(Duration::from_millis(1000));
            }
            Ok(())
        }),
    });
    let ws = Ws::private();
    let run = ws.fetch(&[&server.url("/"), "--timeout-ms", "2500"]);
    run.code(124).has(&format!(
        "Error: web_fetch timed out after 2500 ms (reading the body of {}",
        server.url("/")
    ));
    assert!(
        run.elapsed < Duration::from_millis(5000),
        "took {:?}",
        run.elapsed
    );
}

// ---- the body cap ------------------------------------------------------------------------

#[test]
fn a_50_mb_chunked_body_is_cut_at_5_mib_in_little_memory() {
    let server = Server::start("127.0.0.1", |_| Reply::Stream {
        status: 200,
        headers: vec![
            ("Content-Type".into(), "text/plain".into()),
            ("Transfer-Encoding".into(), "chunked".into()),
        ],
        body: Box::new(|out| {
            let line = b"0123456789 abcdefghij 0123456789 abcdefghij 0123456789 abcdefghij\n";
            let block: Vec<u8> = line.iter().copied().cycle().take(1 << 20).collect();
            let mut sent = 0;
            write_chunked(out, || {
                sent += 1;
                (sent <= 50).then(|| block.clone())
            })
        }),
    });
    let ws = Ws::private();
    let run = ws.agtool_measured(&[
        "--json",
        "web-fetch",
        &server.url("/big"),
        "--max-chars",
        "1000",
    ]);
    run.code(0);
    let v = json(&run);
    assert_eq!(v["total_chars"], 5 * MIB, "{}", v["output"]);
    let out = v["output"].as_str().unwrap();
    assert!(
        out.contains("Note: the body is longer than 5242880 bytes (web.max_body_bytes); only its first 5242880 bytes were used"),
        "{out}"
    );
    assert!(out.contains("continue with start_index=1000"), "{out}");
    assert!(run.max_rss < 64 * MIB, "peak RSS {} MiB", run.max_rss / MIB);
}

#[test]
fn a_content_length_of_1_gb_with_1_kb_of_body_shows_the_kilobyte() {
    let server = Server::start("127.0.0.1", |_| Reply::Stream {
        status: 200,
        headers: vec![
            ("Content-Type".into(), "text/plain".into()),
            ("Content-Length".into(), "1000000000".into()),
        ],
        body: Box::new(|out| out.write_all(&[b'k'; 1024])),
    });
    let ws = Ws::private();
    let run = ws.agtool_measured(&["web-fetch", &server.url("/")]);
    run.code(0)
        .has("Note: the body ended early after 1024 bytes (")
        .has(&"k".repeat(1024));
    assert!(run.max_rss < 64 * MIB, "peak RSS {} MiB", run.max_rss / MIB);
}

#[test]
fn a_gzip_bomb_stops_at_the_cap() {
    // 1 GiB of `a` (CRC-32 0x0f98b5af) in 6.8 MB of gzip.
    let bomb = Arc::new(gzip_of_as(1 << 30, 0x0f98_b5af));
    let server = Server::start("127.0.0.1", move |_| {
        Reply::ok("text/plain", bomb.to_vec()).with_header("Content-Encoding", "gzip")
    });
    let ws = Ws::private();
    let run = ws.agtool_measured(&[
        "--json",
        "web-fetch",
        &server.url("/bomb"),
        "--max-chars",
        "100",
    ]);
    run.code(0);
    let v = json(&run);
    assert_eq!(v["total_chars"], 5 * MIB);
    let out = v["output"].as_str().unwrap();
    assert!(
        out.contains("only its first 5242880 bytes were used"),
        "{out}"
    );
    assert!(out.contains(&format!("\n\n{}\n", "a".repeat(100))), "{out}");
    assert!(run.max_rss < 64 * MIB, "peak RSS {} MiB", run.max_rss / MIB);
}

#[test]
fn the_gzip_bomb_generator_makes_valid_gzip() {
    use std::io::Read;
    let len = 10_000;
    let mut crc = flate2::Crc::new();
    crc.update(&vec![b'a'; len]);
    let gz = gzip_of_as(len as u64, crc.sum());
    let mut out = Vec::new();
    flate2::read::GzDecoder::new(&gz[..])
        .read_to_end(&mut out)
        .unwrap();
    assert_eq!(out, vec![b'a'; len]);
}

/// Issue 17, item 6: `web.max_body_bytes` from an untrusted workspace config does not raise
/// the cap (a 1 GiB gzip bomb used 1,039 MB before), and `u64::MAX` from the host's own
/// config is clamped instead of wrapping an internal `+ 1` (every body came back empty, or a
/// debug build panicked).
#[test]
fn the_body_cap_cannot_be_raised_by_a_workspace_and_never_wraps() {
    let bomb = Arc::new(gzip_of_as(1 << 30, 0x0f98_b5af));
    let server = Server::start("127.0.0.1", move |r| match r.path.as_str() {
        "/bomb" => Reply::ok("text/plain", bomb.to_vec()).with_header("Content-Encoding", "gzip"),
        _ => Reply::ok("text/plain", "small page\n"),
    });
    let ws = Ws::private();
    std::fs::create_dir_all(ws.path().join(".agent-state")).unwrap();
    std::fs::write(
        ws.path().join(".agent-state/config.toml"),
        "[web]\nmax_body_bytes = 1073741824\n",
    )
    .unwrap();
    let run = ws.agtool_measured(&[
        "--json",
        "web-fetch",
        &server.url("/bomb"),
        "--max-chars",
        "100",
    ]);
    run.code(0);
    assert!(run.stderr.contains("web.max_body_bytes"), "{}", run.stderr);
    assert_eq!(json(&run)["total_chars"], 5 * MIB);
    assert!(run.max_rss < 64 * MIB, "peak RSS {} MiB", run.max_rss / MIB);
    // The host's own config may raise it, but never past the ceiling, and u64::MAX does not
    // wrap.
    let ws =
        Ws::with_config("[web]\nallow_private = true\nmax_body_bytes = 18446744073709551615\n");
    let run = ws.fetch(&[&server.url("/small")]);
    run.code(0)
        .has("small page\n")
        .has("is above the most agtool reads");
}

#[test]
fn gzip_brotli_and_deflate_bodies_are_decoded() {
    let text = "compressed café text ".repeat(100);
    let gz = {
        let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
        e.write_all(text.as_bytes()).unwrap();
        e.finish().unwrap()
    };
    let zlib = {
        let mut e = flate2::write::ZlibEncoder::new(Vec::new(), flate2::Compression::default());
        e.write_all(text.as_bytes()).unwrap();
        e.finish().unwrap()
    };
    let br = {
        let mut out = Vec::new();
        let mut w = brotli::CompressorWriter::new(&mut out, 4096, 5, 22);
        w.write_all(text.as_bytes()).unwrap();
        drop(w);
        out
    };
    let server = Server::start("127.0.0.1", move |r| {
        let (enc, body) = match r.path.as_str() {
            "/gzip" => ("gzip", gz.clone()),
            "/deflate" => ("deflate", zlib.clone()),
            _ => ("br", br.clone()),
        };
        Reply::ok("text/plain; charset=utf-8", body).with_header("Content-Encoding", enc)
    });
    let ws = Ws::private();
    for path in ["/gzip", "/deflate", "/br"] {
        let run = ws.fetch(&[&server.url(path)]);
        run.code(0);
        assert_eq!(run.content(), format!("{text}\n"), "{path}");
    }
}

// ---- content -----------------------------------------------------------------------------

#[test]
fn binary_content_is_refused_by_type_and_by_bytes() {
    let png = b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR\0\0\0\x01".to_vec();
    let server = Server::start("127.0.0.1", move |r| match r.path.as_str() {
        "/doc.pdf" => Reply::ok(
            "application/pdf",
            b"%PDF-1.7\n%\xe2\xe3\xcf\xd3\n1 0 obj".to_vec(),
        ),
        "/pdf-as-text" => Reply::ok("text/plain", b"%PDF-1.7\nrest".to_vec()),
        "/png-as-html" => Reply::ok("text/html", png.clone()),
        "/nul" => Reply::ok("text/plain", b"abc\0def".to_vec()),
        "/untyped" => Reply::status(200, "", b"GIF89a\x01\0".to_vec()),
        _ => Reply::ok("image/png", png.clone()),
    });
    let ws = Ws::private();
    let cases = [
        (
            "/doc.pdf",
            "returned application/pdf (22 bytes) holding PDF data, which web-fetch does not convert",
        ),
        (
            "/pdf-as-text",
            "returned text/plain (13 bytes) holding PDF data",
        ),
        (
            "/png-as-html",
            "returned text/html (20 bytes) holding PNG data, which web-fetch does not convert",
        ),
        (
            "/nul",
            "returned text/plain (7 bytes) holding binary data (a NUL byte at offset 3)",
        ),
        (
            "/untyped",
            "returned no Content-Type (8 bytes) holding GIF data",
        ),
    ];
    for (path, want) in cases {
        let run = ws.fetch(&[&server.url(path)]);
        run.code(1)
            .has(&format!("Error: {} {want}", server.url(path)));
        assert!(
            !run.raw_stdout
                .iter()
                .any(|&b| b == 0 || b == 0x89 || b == 0xe2),
            "a binary byte reached stdout for {path}"
        );
    }
    // Refused by type alone: an image type with text bytes.
    let typed = Server::start("127.0.0.1", |_| Reply::ok("image/svg", "just text"));
    ws.fetch(&[&typed.url("/x")]).code(1).has(&format!(
        "Error: {} returned image/svg (9 bytes), which web-fetch does not convert",
        typed.url("/x")
    ));
}

#[test]
fn charsets_by_header_meta_and_bytes() {
    let gbk = |s: &str| encoding_rs::GBK.encode(s).0.into_owned();
    let sjis = |s: &str| encoding_rs::SHIFT_JIS.encode(s).0.into_owned();
    let server = Server::start("127.0.0.1", move |r| match r.path.as_str() {
        "/latin1" => Reply::ok("text/html; charset=ISO-8859-1", b"<p>caf\xe9</p>".to_vec()),
        "/gbk-header" => Reply::ok("text/html; charset=GBK", gbk("<p>中文页面</p>")),
        "/gbk-meta" => Reply::ok(
            "text/html",
            gbk(
                "<html><head><meta http-equiv=\"Content-Type\" content=\"text/html; charset=gb2312\"></head><body><p>中文页面</p></body></html>",
            ),
        ),
        "/sjis-header" => Reply::ok("text/plain; charset=Shift_JIS", sjis("日本語のテキスト")),
        "/sjis-meta" => Reply::ok(
            "text/html",
            sjis(
                "<html><head><meta charset=\"shift_jis\"></head><body><p>日本語のテキスト</p></body></html>",
            ),
        ),
        "/xhtml-sjis" => Reply::ok(
            "application/xhtml+xml",
            sjis(
                "<?xml version=\"1.0\" encoding=\"Shift_JIS\"?>\n<html xmlns=\"http://www.w3.org/1999/xhtml\"><body><p>日本語のテキスト</p></body></html>",
            ),
        ),
        "/xhtml-gbk" => Reply::ok(
            "application/xhtml+xml",
            gbk("<?xml version='1.0' encoding='GBK'?><html><body><p>中文页面</p></body></html>"),
        ),
        "/atom-gbk" => Reply::ok(
            "application/atom+xml",
            gbk("<?xml version='1.0' encoding='GBK'?><feed><title>中文页面</title></feed>"),
        ),
        "/utf8" => Reply::ok("text/html", "<p>a—b</p>"),
        "/cp1252" => Reply::ok("text/plain", b"na\xefve \x93quoted\x94".to_vec()),
        _ => Reply::status(404, "text/plain", "no"),
    });
    let ws = Ws::private();
    for (path, want) in [
        ("/latin1", "café"),
        ("/gbk-header", "中文页面"),
        ("/gbk-meta", "中文页面"),
        ("/sjis-header", "日本語のテキスト"),
        ("/sjis-meta", "日本語のテキスト"),
        ("/utf8", "a—b"),
        ("/cp1252", "naïve “quoted”"),
        ("/xhtml-sjis", "日本語のテキスト"),
        ("/xhtml-gbk", "中文页面"),
        ("/atom-gbk", "中文页面"),
    ] {
        for raw in ["false", "true"] {
            ws.fetch(&[&server.url(path), "--raw", raw])
                .code(0)
                .has(want)
                .lacks("\u{fffd}");
        }
    }
    ws.fetch(&[&server.url("/utf8")]).lacks("aâ€”b");
}

/// Control characters from the server never reach stdout: C0 (but `\n`, `\t` and the `\r` of
/// a CRLF), DEL and C1 are shown as `\xHH`, in raw text and in converted HTML alike, and the
/// pages of one document still join exactly.
#[test]
fn control_characters_are_shown_escaped() {
    let plain = "hello \x1b[2J\x1b]0;title\x07 \x08\x7f world\u{9b}31m\r\nline\rover\x0c\tend\n";
    let html = "<p>a\x1b[31mred &#x1b;[0m \u{85}x</p>";
    let server = Server::start("127.0.0.1", move |r| match r.path.as_str() {
        "/plain" => Reply::ok("text/plain; charset=utf-8", plain),
        _ => Reply::html(html),
    });
    let ws = Ws::private();
    let want =
        "hello \\x1b[2J\\x1b]0;title\\x07 \\x08\\x7f world\\x9b31m\r\nline\\x0dover\\x0c\tend\n";
    for raw in ["false", "true"] {
        let run = ws.fetch(&[&server.url("/plain"), "--raw", raw]);
        run.code(0);
        assert_eq!(run.content(), want, "{}", run.stdout);
    }
    for (raw, shown) in [
        ("false", "a\\x1b[31mred [0m \\x85x"),
        ("true", "a\\x1b[31mred &#x1b;[0m \\x85x"),
    ] {
        let run = ws.fetch(&[&server.url("/html"), "--raw", raw]);
        run.code(0).has(shown);
        assert!(!run.raw_stdout.contains(&0x1b), "{:?}", run.stdout);
        assert!(!run.stdout.contains('\u{85}'), "{:?}", run.stdout);
    }
    // Paging counts the characters shown: the pages join into the shown text.
    let mut joined = String::new();
    let mut start = 0;
    loop {
        let run = ws.fetch(&[
            &server.url("/plain"),
            "--max-chars",
            "7",
            "--start-index",
            &start.to_string(),
        ]);
        run.code(0);
        let body = run.content();
        let (page, next) = match body.rsplit_once("\n(") {
            Some((page, tail)) if tail.contains("continue with start_index=") => (
                page,
                tail.split("start_index=")
                    .nth(1)
                    .unwrap()
                    .trim_end_matches(")\n")
                    .parse::<usize>()
                    .ok(),
            ),
            _ => (body, None),
        };
        joined.push_str(page);
        match next {
            Some(n) => start = n,
            None => break,
        }
    }
    assert_eq!(joined, want);
}

/// Issue 17, item 6: bidi controls (U+202E and friends) are shown escaped like other control
/// characters; a page copy forged in `.agent-state/web/` (raw ESC/OSC bytes, a spoofed URL)
/// is never served: the next page is fetched afresh. Before, both reached the output raw.
#[test]
fn bidi_controls_are_escaped_and_a_forged_copy_is_not_served() {
    let page = format!(
        "{}\n",
        "abc \u{202e}txt.exe\u{2066}x\u{2069} \u{200f}\u{61c} ".repeat(40)
    );
    let server = Server::start("127.0.0.1", move |_| {
        Reply::ok("text/plain; charset=utf-8", page.clone())
    });
    let ws = Ws::private();
    let url = server.url("/doc");
    let run = ws.fetch(&[&url, "--max-chars", "100"]);
    run.code(0)
        .has("abc \\u202etxt.exe\\u2066x\\u2069 \\u200f\\u061c");
    for c in ['\u{202e}', '\u{2066}', '\u{2069}', '\u{200f}', '\u{61c}'] {
        assert!(!run.stdout.contains(c), "{:?}", run.stdout);
    }
    // Forge the kept copy: raw ESC/OSC bytes and another URL.
    let dir = ws.path().join(".agent-state/web");
    let copy = std::fs::read_dir(&dir)
        .unwrap()
        .next()
        .unwrap()
        .unwrap()
        .path();
    let text = std::fs::read_to_string(&copy).unwrap();
    let head = text.lines().find(|l| l.starts_with('{')).unwrap();
    let mut header: serde_json::Value = serde_json::from_str(head).unwrap();
    header["doc"]["final_url"] = "https://bank.example/login\u{1b}]8;;https://evil/\u{7}".into();
    let forged = format!("{header}\n\u{1b}]0;pwned\u{7}\u{1b}[2J{}", "y".repeat(500));
    std::fs::write(&copy, forged).unwrap();
    let run = ws.fetch(&[&url, "--start-index", "100", "--max-chars", "50"]);
    run.code(0).lacks("bank.example").lacks("pwned");
    assert!(!run.raw_stdout.contains(&0x1b), "{:?}", run.stdout);
    run.has("fetched afresh");
}

#[test]
fn a_404_page_is_shown_with_its_status() {
    let server = Server::start("127.0.0.1", |_| {
        Reply::status(404, "text/html", "<h1>Not here</h1><p>Try the index.</p>")
    });
    let ws = Ws::private();
    ws.fetch(&[&server.url("/missing")])
        .code(0)
        .has("Status: 404 Not Found\n")
        .has("# Not here")
        .has("Try the index.");
}

#[test]
fn scripts_styles_and_hidden_elements_are_dropped_raw_keeps_them() {
    let style = format!(
        "<style>{}</style>",
        ".rule-xyz { color: red }\n".repeat(40_000)
    );
    let html = format!(
        "<html><head>{style}<script>var secret_js = 1;</script></head><body><p>visible text</p>\
         <noscript>turn on js</noscript><template>tpl text</template>\
         <img src=\"logo.png\" alt=\"Company logo\"></body></html>"
    );
    assert!(html.len() > 1_000_000);
    let server = Server::start("127.0.0.1", move |_| Reply::html(html.clone()));
    let ws = Ws::private();
    let run = ws.fetch(&[&server.url("/")]);
    run.code(0)
        .has("visible text")
        .has("[Company logo]")
        .lacks("rule-xyz")
        .lacks("secret_js")
        .lacks("turn on js")
        .lacks("tpl text");
    assert!(run.stdout.len() < 1000, "{}", run.stdout.len());
    ws.fetch(&[&server.url("/"), "--raw", "--max-chars", "200"])
        .code(0)
        .has("<html><head><style>.rule-xyz");
}

#[test]
fn twenty_thousand_nested_divs_convert() {
    let n = 20_000;
    let html = format!(
        "<html><body><p>top</p>{}deep inside{}</body></html>",
        "<div>".repeat(n),
        "</div>".repeat(n)
    );
    let server = Server::start("127.0.0.1", move |_| Reply::html(html.clone()));
    let ws = Ws::private();
    let run = ws.fetch(&[&server.url("/")]);
    run.code(0)
        .has("top")
        .has("deep inside")
        .has("Note: the page nests elements deeper than 256; deeper structure was flattened");
    assert!(
        run.elapsed < Duration::from_secs(10),
        "took {:?}",
        run.elapsed
    );
}

/// 200 levels of `<table><tr><td>L<i>`: the text of every level and what follows the nest
/// survives (html2text drops the cells of tables nested too narrow to draw).
#[test]
fn nested_tables_keep_every_level_of_text() {
    let n = 200;
    let mut html = String::from("<p>START</p>");
    for i in 0..n {
        html.push_str(&format!("<table><tr><td>L{i}<i> "));
    }
    html.push_str("END");
    html.push_str(&"</i></td></tr></table>".repeat(n));
    html.push_str("<p>AFTER</p>");
    let table_a = format!(
        "{}END{}",
        "<table><tr><td>a".repeat(n),
        "</td></tr></table>".repeat(n)
    );
    let pages = [html, table_a];
    let server = Server::start("127.0.0.1", move |r| {
        Reply::html(pages[usize::from(r.path == "/a")].clone())
    });
    let ws = Ws::private();
    let run = ws.fetch(&[&server.url("/"), "--max-chars", "200000"]);
    run.code(0).has("START").has("END").has("AFTER");
    let text = run.content();
    let missing: Vec<usize> = (0..n)
        .filter(|i| {
            !text
                .split(|c: char| !c.is_ascii_alphanumeric())
                .any(|w| w == format!("L{i}"))
        })
        .collect();
    assert!(missing.is_empty(), "missing levels {missing:?}:\n{text}");
    let run = ws.fetch(&[&server.url("/a"), "--max-chars", "200000"]);
    run.code(0)
        .has("END")
        .has("deeper levels are shown without indentation");
    assert_eq!(run.content().matches('a').count(), n, "{}", run.stdout);
}

/// 200 levels of each element that indents (blockquote, lists, definition lists, tables)
/// convert, with every level's text, instead of html2text's "Output width not wide enough".
#[test]
fn two_hundred_levels_of_indenting_elements_convert() {
    let n = 200;
    let kinds: [(&str, &str, &str); 7] = [
        ("bq", "<blockquote>", "</blockquote>"),
        ("ul", "<ul><li>", "</li></ul>"),
        ("ol", "<ol start=1000000><li>", "</li></ol>"),
        ("dl", "<dl><dt>t<dd>", "</dd></dl>"),
        ("li", "<li><section>", "</section></li>"),
        ("table", "<table><tr><td>x</td><td>", "</td></tr></table>"),
        (
            "mixed",
            "<blockquote><ul><li><ol><li><dl><dd>",
            "</dd></dl></li></ol></li></ul></blockquote>",
        ),
    ];
    let pages: Vec<(String, String)> = kinds
        .iter()
        .map(|(name, open, close)| {
            let body: String = (0..n).map(|i| format!("{open}w{i} ")).collect();
            (format!("/{name}"), format!("{body}END{}", close.repeat(n)))
        })
        .collect();
    let served = pages.clone();
    let server = Server::start("127.0.0.1", move |r| {
        let page = served.iter().find(|(p, _)| *p == r.path).unwrap();
        Reply::html(page.1.clone())
    });
    let ws = Ws::private();
    for (path, _) in &pages {
        let run = ws.fetch(&[&server.url(path), "--max-chars", "200000"]);
        run.code(0)
            .has("END")
            .has("deeper levels are shown without indentation");
        let text = run.content();
        for i in [0, 19, 20, 100, n - 1] {
            assert!(
                text.split(|c: char| !c.is_ascii_alphanumeric())
                    .any(|w| w == format!("w{i}")),
                "{path}: w{i} missing:\n{text}"
            );
        }
        assert!(
            text.lines().all(|l| l.chars().count() <= 100),
            "{path}: a line wider than 100 columns:\n{text}"
        );
    }
}

// ---- paging ------------------------------------------------------------------------------

/// A document of 100,000 characters mixing ASCII, `é` and `中`, different for each `seed`.
fn document(seed: usize) -> String {
    let alphabet = ['a', 'b', 'é', '中', ' ', '\n', 'x', 'Z'];
    (0..100_000)
        .map(|i| alphabet[(i * 7 + i / 13 + seed * 3) % alphabet.len()])
        .collect()
}

#[test]
fn three_pages_join_exactly_from_the_copy() {
    let served = Arc::new(AtomicUsize::new(0));
    let counter = served.clone();
    let server = Server::start("127.0.0.1", move |_| {
        let n = counter.fetch_add(1, Ordering::SeqCst);
        Reply::ok("text/plain; charset=utf-8", document(n))
    });
    let ws = Ws::private();
    let url = server.url("/doc.txt");
    // The page's text: after the header's blank line, without the continuation line and the
    // one newline that always precedes it.
    let page = |start: &str, next: Option<(u64, u64)>| -> (String, serde_json::Value) {
        let run = ws.agtool(&["--json", "web-fetch", &url, "--start-index", start]);
        run.code(0);
        let v = json(&run);
        let out = v["output"].as_str().unwrap().to_owned();
        let (_, content) = out.split_once("\n\n").unwrap();
        let text = match next {
            Some((more, at)) => content
                .strip_suffix(&format!(
                    "\n({more} more characters; continue with start_index={at})\n"
                ))
                .unwrap_or_else(|| panic!("no continuation line: {out}")),
            None => content,
        };
        (text.to_owned(), v)
    };
    let (p1, v1) = page("0", Some((60_000, 40_000)));
    assert_eq!(v1["from_copy"], false);
    let (p2, v2) = page("40000", Some((20_000, 80_000)));
    assert_eq!(v2["from_copy"], true);
    assert!(
        v2["output"]
            .as_str()
            .unwrap()
            .contains("(from the copy fetched ")
    );
    let (p3, v3) = page("80000", None);
    assert_eq!(v3["next_start_index"], serde_json::Value::Null);
    assert_eq!(
        served.load(Ordering::SeqCst),
        1,
        "pages 2 and 3 came from the copy"
    );
    assert_eq!(p1.chars().count(), 40_000);
    assert_eq!(p2.chars().count(), 40_000);
    assert_eq!(p3.chars().count(), 20_000);
    assert!(
        format!("{p1}{p2}{p3}") == document(0),
        "the pages join byte-exactly"
    );
    // A fresh fetch at 0 asks the server again.
    ws.fetch(&[&url]).code(0);
    assert_eq!(served.load(Ordering::SeqCst), 2);
}

#[test]
fn start_index_past_the_end_is_refused() {
    let server = Server::start("127.0.0.1", |_| Reply::ok("text/plain", "hello"));
    let ws = Ws::private();
    ws.fetch(&[&server.url("/"), "--start-index", "10"])
        .code(1)
        .has("Error: start_index 10 is past the end (5 characters)\n");
}

#[test]
fn only_agent_state_web_is_written() {
    let server = Server::start("127.0.0.1", |_| Reply::html("<p>hi</p>"));
    let ws = Ws::private();
    ws.fetch(&[&server.url("/")]).code(0);
    let files = ws.files();
    assert_eq!(files.len(), 2, "{files:?}");
    assert_eq!(files[0], ".agent-state/.gitignore");
    assert!(
        files[1].starts_with(".agent-state/web/") && files[1].ends_with(".page"),
        "{files:?}"
    );
}

#[test]
fn call_and_schema_know_web_fetch() {
    let server = Server::start("127.0.0.1", |_| Reply::ok("text/plain", "via call"));
    let ws = Ws::private();
    let run = ws.agtool(&["schema", "--extensions", "--groups", "web"]);
    run.code(0)
        .has("\"name\": \"web_fetch\"")
        .has("\"sensitive\": true")
        .has("\"group\": \"web\"");
    let mut cmd = std::process::Command::new(env!("CARGO_BIN_EXE_agtool"));
    cmd.current_dir(ws.path()).args([
        "call",
        "--groups",
        "web",
        "--config",
        "web-test-config.toml",
    ]);
    web_common::clean_env(&mut cmd, ws.path());
    let out = cmd
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .and_then(|mut c| {
            c.stdin.take().unwrap().write_all(
                format!(
                    r#"{{"name":"web_fetch","input":{{"url":"{}"}}}}"#,
                    server.url("/")
                )
                .as_bytes(),
            )?;
            c.wait_with_output()
        })
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{stdout}");
    assert!(stdout.contains("via call"), "{stdout}");
}

// ---- a page as Markdown (issue 18 §6) -----------------------------------------------------

#[test]
fn a_page_reads_as_markdown_title_code_and_tables() {
    let html = "<html><head><title>  The   Guide </title></head><body>\
        <p>Call <code>run()</code> first.</p>\
        <pre class=\"language-rust\"><code>fn main() {\n    run();\n}</code></pre>\
        <pre><code class=\"lang-py\">print(1)</code></pre>\
        <table><thead><tr><th>Name</th><th>Note</th></tr></thead>\
        <tbody><tr><td>a</td><td>one<br>two</td></tr>\
        <tr><td>b</td><td><table><tr><td>in</td><td>ner</td></tr></table></td></tr></tbody></table>\
        <p>after</p></body></html>";
    let server = Server::start("127.0.0.1", move |_| Reply::html(html.to_string()));
    let ws = Ws::private();
    let run = ws.fetch(&[&server.url("/")]);
    run.code(0)
        .has("\n\nTitle: The Guide\n\n")
        .has("Call `run()` first.")
        .has("```rust\nfn main() {\n    run();\n}\n```")
        .has("```py\nprint(1)\n```")
        .has("| Name | Note |\n| --- | --- |\n| a | one<br>two |\n| b | in ner |\n")
        .has("after");
}

#[test]
fn a_table_too_wide_becomes_one_block_per_row() {
    let wide = "w".repeat(150);
    let html = format!(
        "<table><tr><th>Key</th><th>Value</th></tr><tr><td>k1</td><td>{wide}</td></tr>\
         <tr><td>k2</td><td>short</td></tr></table>"
    );
    let server = Server::start("127.0.0.1", move |_| Reply::html(html.clone()));
    let ws = Ws::private();
    ws.fetch(&[&server.url("/")])
        .code(0)
        .has(&format!("Key: k1\nValue: {wide}\n\nKey: k2\nValue: short"))
        .lacks("| Key |");
}
