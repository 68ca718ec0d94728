//! web-fetch against real HTTP(S) servers on loopback (spec 06, "web-fetch"; issue 11): URLs,
//! connection failures, redirects and the address policy at every hop. Tests naming a
//! non-loopback address re-run themselves inside a fresh network namespace (see
//! `web_common::run_in_netns`); a server on 127.0.0.2 or [::1] proves by its accept count that a
//! refused hop never connected.

mod web_common;

use web_common::{Reply, Server, Ws, run_in_netns};

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

/// The arguments were valid and the server misbehaved: a refusal (exit 1, `Error:` on stdout,
/// where a model over MCP reads it), not an argument error (spec 06 says argument error; the
/// README's exit statuses win).
#[test]
fn a_redirect_to_another_scheme_is_refused_on_stdout() {
    let server = Server::start("127.0.0.1", |r| match r.path.as_str() {
        "/ftp" => Reply::redirect(302, "ftp://127.0.0.1/secret"),
        "/data" => Reply::redirect(307, "data:text/plain,hi"),
        _ => Reply::redirect(301, "file:///etc/passwd"),
    });
    let ws = Ws::private();
    let run = ws.fetch(&[&server.url("/x")]);
    run.code(1).has(&format!(
        "Error: {} redirected to file:///etc/passwd, a file: URL; web-fetch follows only http and https",
        server.url("/x")
    ));
    assert!(run.stderr.is_empty(), "{}", run.stderr);
    for (path, scheme) in [("/ftp", "a ftp: URL"), ("/data", "a data: URL")] {
        let run = ws.fetch(&[&server.url(path)]);
        run.code(1).has("Error: ").has(scheme);
    }
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

/// The refusal's advice fits the case: a key set in an untrusted workspace config is said to
/// be ignored, with how to trust the workspace (a model reads stdout, not the warning on
/// stderr); with `web.allow = ["127.0.0.1"]`, `localhost`'s other address `::1` is named.
#[test]
fn the_loopback_refusal_advice_fits_the_case() {
    let server = Server::start("127.0.0.1", |_| Reply::html("<p>reached</p>"));
    let ws = Ws::new();
    std::fs::create_dir(ws.path().join(".agent-state")).unwrap();
    let ws_config = ws.path().join(".agent-state/config.toml");
    std::fs::write(&ws_config, "[web]\nallow_private = true\n").unwrap();
    let root = ws.path().canonicalize().unwrap();
    let run = ws.fetch(&[&server.url("/")]);
    run.code(1)
        .has(&format!(
            "resolves to 127.0.0.1 (loopback); web.allow_private in {} is ignored because this \
             workspace is not trusted; to obey it, add \"{}\" to trusted_workspaces in ",
            root.join(".agent-state/config.toml").display(),
            root.display()
        ))
        .lacks("set web.allow_private = true");
    let ws = Ws::with_config("[web]\nallow = [\"127.0.0.1\"]\n");
    ws.fetch(&[&format!("http://localhost:{}/", server.port())])
        .code(1)
        .has(
            "resolves to ::1 (loopback); web.allow lets 127.0.0.1 through, but every address \
             the host resolves to must pass: list ::1 in web.allow too (or set \
             web.allow_private = true)",
        );
    assert_eq!(server.accepts(), 0);
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
