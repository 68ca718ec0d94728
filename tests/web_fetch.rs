//! web-fetch against real HTTP(S) servers on loopback (spec 06, "web-fetch"; issue 11): the
//! address policy at every hop, the one deadline, the body cap, binary refusal, charsets,
//! HTML conversion and exact paging. Tests naming a non-loopback address re-run themselves
//! inside a fresh network namespace (see `web_common::run_in_netns`).

mod web_common;

use std::io::Write;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use web_common::{Reply, Server, Ws, gzip_of_as, run_in_netns, write_chunked};

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

// ---- arguments and URLs ------------------------------------------------------------------

#[test]
fn schemes_other_than_http_are_argument_errors() {
    let ws = Ws::private();
    for url in [
        "file:///etc/passwd",
        "ftp://127.0.0.1/x",
        "data:,hello",
        "gopher://127.0.0.1/",
    ] {
        let run = ws.fetch(&[url]);
        run.code(2);
        assert!(
            run.stderr.contains("only http and https"),
            "{url}: {}",
            run.stderr
        );
        assert!(run.stdout.is_empty(), "{url}: {}", run.stdout);
    }
    assert!(ws.files().is_empty(), "{:?}", ws.files());
}

#[test]
fn a_redirect_to_another_scheme_is_an_argument_error() {
    let server = Server::start("127.0.0.1", |r| match r.path.as_str() {
        "/ftp" => Reply::redirect(302, "ftp://127.0.0.1/secret"),
        _ => Reply::redirect(301, "file:///etc/passwd"),
    });
    let ws = Ws::private();
    let run = ws.fetch(&[&server.url("/x")]);
    run.code(2);
    assert!(
        run.stderr.contains(&format!(
            "{} redirected to file:///etc/passwd, a file: URL; web-fetch follows only http and https",
            server.url("/x")
        )),
        "{}",
        run.stderr
    );
    let run = ws.fetch(&[&server.url("/ftp")]);
    run.code(2);
    assert!(run.stderr.contains("a ftp: URL"), "{}", run.stderr);
    assert!(ws.files().is_empty(), "{:?}", ws.files());
}

#[test]
fn credentials_in_a_url_are_refused_and_never_sent() {
    let server = Server::start("127.0.0.1", |r| match r.path.as_str() {
        "/hop" => Reply::redirect(302, "/inner"),
        _ => Reply::html("<p>never</p>"),
    });
    let ws = Ws::private();
    let url = format!("http://alice:s3cret@127.0.0.1:{}/", server.port());
    let run = ws.fetch(&[&url]);
    run.code(1)
        .has("carries a user name or password")
        .lacks("s3cret")
        .lacks("alice");
    assert_eq!(server.accepts(), 0);
    // The same at a hop: the credential-bearing target is never requested.
    let target = format!("http://bob:pw@127.0.0.1:{}/inner", server.port());
    let hop = Server::start("127.0.0.1", move |_| Reply::redirect(302, &target));
    let run = ws.fetch(&[&hop.url("/")]);
    run.code(1)
        .has("carries a user name or password")
        .lacks(":pw@");
    assert_eq!(server.accepts(), 0);
}

#[test]
fn text_that_is_not_a_url_is_an_argument_error() {
    let ws = Ws::new();
    for (arg, hint) in [
        ("not a url", "is not a URL"),
        ("http://", "is not a URL"),
        ("http://[::1", "is not a URL"),
        ("example.com/docs", "did you mean https://example.com/docs?"),
    ] {
        let run = ws.fetch(&[arg]);
        run.code(2);
        assert!(run.stderr.contains(hint), "{arg}: {}", run.stderr);
    }
    let run = ws.agtool(&[
        "web-fetch",
        "--args",
        r#"{"url":"http://a.test/","max_chars":0}"#,
    ]);
    run.code(2);
    assert!(run.stderr.contains("/max_chars"), "{}", run.stderr);
}

// ---- connection failures -----------------------------------------------------------------

#[test]
fn a_refused_connection_is_named() {
    let port = {
        let l = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        l.local_addr().unwrap().port()
    };
    let ws = Ws::private();
    let url = format!("http://127.0.0.1:{port}/");
    ws.fetch(&[&url]).code(1).has(&format!(
        "Error: cannot fetch {url}: connection refused by 127.0.0.1:{port}"
    ));
}

#[test]
fn a_self_signed_server_is_a_tls_error() {
    let server = Server::start_tls(|_| Reply::html("<p>secret</p>"));
    let ws = Ws::private();
    let url = format!("https://127.0.0.1:{}/", server.port());
    let run = ws.fetch(&[&url]);
    run.code(1)
        .has(&format!(
            "Error: cannot fetch {url}: TLS error with 127.0.0.1:{}: invalid peer certificate",
            server.port()
        ))
        .lacks("secret");
    assert_eq!(server.accepts(), 1, "the handshake was tried");
}

#[test]
fn a_host_that_does_not_resolve_is_named() {
    // Asking the resolver may send a DNS query: only inside a namespace with no way out.
    if !run_in_netns("a_host_that_does_not_resolve_is_named") {
        return;
    }
    let ws = Ws::new();
    ws.fetch(&["http://no-such-host.invalid/x", "--timeout-ms", "10000"])
        .code(1)
        .has("Error: cannot fetch http://no-such-host.invalid/x: cannot resolve no-such-host.invalid");
}

// ---- redirects ---------------------------------------------------------------------------

#[test]
fn a_relative_redirect_is_followed_and_listed() {
    let server = Server::start("127.0.0.1", |r| match r.path.as_str() {
        "/docs" => Reply::redirect(301, "/docs/"),
        "/docs/" => Reply::html("<h1>Docs</h1>"),
        _ => Reply::status(404, "text/plain", "no"),
    });
    let ws = Ws::private();
    ws.fetch(&[&server.url("/docs")])
        .code(0)
        .has(&format!("URL: {}\n", server.url("/docs/")))
        .has("Status: 200 OK\n")
        .has(&format!(
            "Redirects: {} → {}\n",
            server.url("/docs"),
            server.url("/docs/")
        ))
        .has("# Docs");
}

#[test]
fn redirects_307_and_308_are_followed() {
    let server = Server::start("127.0.0.1", |r| match r.path.as_str() {
        "/a" => Reply::redirect(307, "/b"),
        "/b" => Reply::redirect(308, "/c"),
        "/c" => Reply::ok("text/plain", "arrived"),
        _ => Reply::status(404, "text/plain", "no"),
    });
    let ws = Ws::private();
    ws.fetch(&[&server.url("/a")])
        .code(0)
        .has("arrived")
        .has(&format!(
            "Redirects: {} → {} → {}",
            server.url("/a"),
            server.url("/b"),
            server.url("/c")
        ));
}

#[test]
fn a_meta_refresh_is_a_hop_and_a_slow_one_is_not() {
    let server = Server::start("127.0.0.1", |r| match r.path.as_str() {
        "/old" => Reply::html(
            "<html><head><meta http-equiv=\"refresh\" content=\"0; url=/new\"></head>\
             <body>moved</body></html>",
        ),
        "/slow" => Reply::html(
            "<html><head><meta http-equiv=\"refresh\" content=\"30; url=/new\"></head>\
             <body>stay here</body></html>",
        ),
        "/new" => Reply::html("<p>the new page</p>"),
        _ => Reply::status(404, "text/plain", "no"),
    });
    let ws = Ws::private();
    ws.fetch(&[&server.url("/old")])
        .code(0)
        .has("the new page")
        .has(&format!(
            "Redirects: {} → {} (meta refresh)\n",
            server.url("/old"),
            server.url("/new")
        ));
    ws.fetch(&[&server.url("/slow")])
        .code(0)
        .has("stay here")
        .lacks("Redirects:");
    // A refresh is a hop, raw or not.
    ws.fetch(&[&server.url("/old"), "--raw"])
        .code(0)
        .has("<p>the new page</p>")
        .has(&format!("→ {} (meta refresh)\n", server.url("/new")));
}

#[test]
fn a_redirect_loop_is_refused() {
    let server = Server::start("127.0.0.1", |r| match r.path.as_str() {
        "/a" => Reply::redirect(302, "/b"),
        _ => Reply::redirect(302, "/a"),
    });
    let ws = Ws::private();
    ws.fetch(&[&server.url("/a")]).code(1).has(&format!(
        "Error: redirect loop: {} → {} → {}",
        server.url("/a"),
        server.url("/b"),
        server.url("/a")
    ));
}

#[test]
fn five_redirects_are_followed_and_six_are_refused() {
    let server = Server::start("127.0.0.1", |r| {
        let n: u32 = r.path.trim_start_matches("/r/").parse().unwrap_or(0);
        if n == 0 {
            Reply::ok("text/plain", "end of the chain")
        } else {
            Reply::redirect(302, &format!("/r/{}", n - 1))
        }
    });
    let ws = Ws::private();
    ws.fetch(&[&server.url("/r/5")])
        .code(0)
        .has("end of the chain")
        .has(&format!("→ {}\n", server.url("/r/0")));
    let before = server.requests().len();
    let chain: Vec<String> = (0..=6)
        .rev()
        .map(|n| server.url(&format!("/r/{n}")))
        .collect();
    ws.fetch(&[&server.url("/r/6")]).code(1).has(&format!(
        "Error: more than 5 redirects: {}",
        chain.join(" → ")
    ));
    let asked = &server.requests()[before..];
    assert_eq!(asked.len(), 6, "the 7th URL is never requested: {asked:?}");
    assert!(!asked.contains(&"/r/0".to_owned()));
}

#[test]
fn a_relative_link_resolves_against_the_final_url() {
    let server = Server::start("127.0.0.1", |r| match r.path.as_str() {
        "/old" => Reply::redirect(302, "/new/dir/"),
        "/new/dir/" => Reply::html(
            "<p>See <a href=\"page.html\">the page</a> and <a href=\"../up.html\">up</a>.</p>",
        ),
        _ => Reply::status(404, "text/plain", "no"),
    });
    let ws = Ws::private();
    ws.fetch(&[&server.url("/old")])
        .code(0)
        .has("[the page][1]")
        .has(&format!("[1]: {}", server.url("/new/dir/page.html")))
        .has(&format!("[2]: {}", server.url("/new/up.html")));
}

// ---- the address policy ------------------------------------------------------------------

#[test]
fn a_redirect_into_a_refused_loopback_address_never_connects() {
    let b = Server::start("127.0.0.2", |_| Reply::html("<p>B was reached</p>"));
    let v6 = Server::try_start("::1", |_| Reply::html("<p>v6 was reached</p>")).ok();
    let (pb, pv6) = (b.port(), v6.as_ref().map_or(9, Server::port));
    let a = Server::start("127.0.0.1", move |r| match r.path.as_str() {
        "/to-b" => Reply::redirect(302, &format!("http://127.0.0.2:{pb}/x")),
        "/to-v6" => Reply::redirect(302, &format!("http://[::1]:{pv6}/x")),
        "/to-mapped" => Reply::redirect(302, &format!("http://[::ffff:127.0.0.2]:{pb}/x")),
        _ => Reply::html("<p>A itself is fine</p>"),
    });
    let ws = Ws::with_config("[web]\nallow = [\"127.0.0.1\"]\n");
    ws.fetch(&[&a.url("/")]).code(0).has("A itself is fine");
    ws.fetch(&[&a.url("/to-b")]).code(1).has(&format!(
        "Error: {} redirected to http://127.0.0.2:{pb}/x, which resolves to 127.0.0.2 \
         (loopback); set web.allow_private = true to allow it\n",
        a.url("/to-b")
    ));
    ws.fetch(&[&a.url("/to-mapped")]).code(1).has(&format!(
        "redirected to http://[::ffff:7f00:2]:{pb}/x, which resolves to ::ffff:127.0.0.2 \
         (loopback, carrying 127.0.0.2); set web.allow_private = true"
    ));
    assert_eq!(b.accepts(), 0, "127.0.0.2 was never connected to");
    match &v6 {
        Some(v6) => {
            ws.fetch(&[&a.url("/to-v6")]).code(1).has(&format!(
                "redirected to http://[::1]:{pv6}/x, which resolves to ::1 (loopback)"
            ));
            assert_eq!(v6.accepts(), 0, "[::1] was never connected to");
        }
        None => web_common::skip(
            "a_redirect_into_a_refused_loopback_address_never_connects: the [::1] part (no \
             IPv6 loopback here)",
        ),
    }
}

#[test]
fn loopback_spellings_are_refused_without_allow_private() {
    let server = Server::start("127.0.0.1", |_| Reply::html("<p>reached</p>"));
    let p = server.port();
    let ws = Ws::new();
    for (host, shown) in [
        ("localhost", "127.0.0.1 (loopback)"),
        ("LocalHost.", "127.0.0.1 (loopback)"),
        ("app.localhost", "127.0.0.1 (loopback)"),
        ("2130706433", "127.0.0.1 (loopback)"),
        ("0x7f.1", "127.0.0.1 (loopback)"),
        ("127.1", "127.0.0.1 (loopback)"),
        ("%31%32%37.0.0.1", "127.0.0.1 (loopback)"),
        (
            "[::ffff:7f00:1]",
            "::ffff:127.0.0.1 (loopback, carrying 127.0.0.1)",
        ),
        ("[::1]", "::1 (loopback)"),
        ("0.0.0.0", "0.0.0.0 (unspecified)"),
    ] {
        let run = ws.fetch(&[&format!("http://{host}:{p}/")]);
        run.code(1).has(&format!(
            "resolves to {shown}; set web.allow_private = true to allow it"
        ));
    }
    assert_eq!(server.accepts(), 0, "no spelling reached the server");
    assert!(ws.files().is_empty(), "{:?}", ws.files());
}

#[test]
fn web_deny_wins_and_bad_entries_are_named() {
    let server = Server::start("127.0.0.1", |_| Reply::html("<p>reached</p>"));
    let ws = Ws::with_config(
        "[web]\nallow_private = true\nallow = [\"127.0.0.1\"]\ndeny = [\"127.0.0.0/8\", \"*.localhost\"]\n",
    );
    ws.fetch(&[&server.url("/")]).code(1).has(&format!(
        "Error: {} resolves to 127.0.0.1, which web.deny refuses (entry `127.0.0.0/8`)",
        server.url("/")
    ));
    ws.fetch(&[&format!("http://a.localhost:{}/", server.port())])
        .code(1)
        .has("is refused by web.deny (entry `*.localhost`)");
    assert_eq!(server.accepts(), 0);
    let ws = Ws::with_config("[web]\nallow = [\"10.0.0.0/40\"]\n");
    let run = ws.fetch(&[&server.url("/")]);
    run.code(2);
    assert!(
        run.stderr.contains("web.allow entry `10.0.0.0/40`"),
        "{}",
        run.stderr
    );
    let ws = Ws::with_config("[web]\nmax_bytes = 5\n");
    let run = ws.fetch(&[&server.url("/")]);
    run.code(2);
    assert!(run.stderr.contains("max_bytes"), "{}", run.stderr);
}

#[test]
fn redirects_into_metadata_private_and_link_local_never_connect() {
    // Names addresses off the loopback range: run only inside a network namespace, where
    // 169.254.169.254 and 10.1.2.3 are on lo with servers counting connections.
    if !run_in_netns("redirects_into_metadata_private_and_link_local_never_connect") {
        return;
    }
    let meta = Server::start("169.254.169.254", |_| {
        Reply::ok("text/plain", "instance secrets")
    });
    let private = Server::start("10.1.2.3", |_| Reply::ok("text/plain", "intranet"));
    let (pm, pp) = (meta.port(), private.port());
    let a = Server::start("127.0.0.1", move |r| match r.path.as_str() {
        "/meta" => Reply::redirect(
            302,
            &format!("http://169.254.169.254:{pm}/latest/meta-data/"),
        ),
        "/nat64" => Reply::redirect(302, &format!("http://[64:ff9b::a9fe:a9fe]:{pm}/")),
        "/ten" => Reply::redirect(302, &format!("http://10.1.2.3:{pp}/")),
        "/fe80" => Reply::redirect(302, &format!("http://[fe80::1]:{pm}/")),
        "/refresh" => Reply::html(format!(
            "<meta http-equiv=refresh content=\"0;url=http://169.254.169.254:{pm}/\">"
        )),
        _ => Reply::html("<p>ok</p>"),
    });
    let ws = Ws::with_config("[web]\nallow = [\"127.0.0.1\"]\n");
    ws.fetch(&[&a.url("/meta")]).code(1).has(&format!(
        "Error: {} redirected to http://169.254.169.254:{pm}/latest/meta-data/, which resolves \
         to 169.254.169.254 (cloud metadata); list 169.254.169.254 in web.allow to allow it",
        a.url("/meta")
    ));
    ws.fetch(&[&a.url("/nat64")])
        .code(1)
        .has("which resolves to 64:ff9b::a9fe:a9fe (cloud metadata, carrying 169.254.169.254)");
    ws.fetch(&[&a.url("/ten")])
        .code(1)
        .has("which resolves to 10.1.2.3 (private); set web.allow_private = true");
    ws.fetch(&[&a.url("/fe80")])
        .code(1)
        .has("which resolves to fe80::1 (link-local); list fe80::1 in web.allow to allow it");
    ws.fetch(&[&a.url("/refresh")])
        .code(1)
        .has("refreshed to http://169.254.169.254")
        .has("(meta refresh), which resolves to 169.254.169.254 (cloud metadata)");
    // allow_private opens 10.x but never the metadata address.
    let open = Ws::private();
    open.fetch(&[&a.url("/ten")]).code(0).has("intranet");
    open.fetch(&[&a.url("/meta")])
        .code(1)
        .has("(cloud metadata); list 169.254.169.254 in web.allow");
    assert_eq!(
        meta.accepts(),
        0,
        "the metadata address was never connected to"
    );
    assert_eq!(private.accepts(), 1, "10.1.2.3 only once, when allowed");
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
    ] {
        ws.fetch(&[&server.url(path)])
            .code(0)
            .has(want)
            .lacks("\u{fffd}");
    }
    ws.fetch(&[&server.url("/utf8")]).lacks("aâ€”b");
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
    let run = ws.agtool(&["schema", "--groups", "web"]);
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
