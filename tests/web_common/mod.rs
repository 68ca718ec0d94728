//! Helpers for the web-fetch tests: real HTTP(S) servers on loopback (port 0) that count the
//! connections they accept, the agtool binary run with a clean environment (no proxy, no user
//! configuration), peak memory of that run, a gzip bomb, and re-running a test inside a fresh
//! network namespace so that a test naming a non-loopback address can never send a packet
//! off the machine.

#![allow(dead_code)] // each test binary uses its own subset

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{IpAddr, SocketAddr, TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// A request as the handler sees it.
#[derive(Debug, Clone)]
pub struct Request {
    /// The request target (`/docs?x=1`).
    pub path: String,
    /// Header lines, names in lower case.
    pub headers: Vec<(String, String)>,
}

impl Request {
    /// A header's value.
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }
}

/// Writes a streamed body; returns when done or when the client went away.
pub type BodyWriter = Box<dyn FnOnce(&mut dyn Write) -> std::io::Result<()> + Send>;

/// What the server does with a request.
pub enum Reply {
    /// A complete response with a Content-Length.
    Full {
        status: u16,
        headers: Vec<(String, String)>,
        body: Vec<u8>,
    },
    /// A head as given (`headers` must say how the body is framed), then `body` writes the
    /// rest; the connection is closed after.
    Stream {
        status: u16,
        headers: Vec<(String, String)>,
        body: BodyWriter,
    },
    /// Never answers: holds the connection until the client closes it or the server stops.
    Silent,
}

impl Reply {
    /// 200 with a Content-Type.
    pub fn ok(content_type: &str, body: impl Into<Vec<u8>>) -> Reply {
        Reply::status(200, content_type, body)
    }

    /// 200 text/html; charset=utf-8.
    pub fn html(body: impl Into<Vec<u8>>) -> Reply {
        Reply::ok("text/html; charset=utf-8", body)
    }

    /// Any status with a Content-Type.
    pub fn status(status: u16, content_type: &str, body: impl Into<Vec<u8>>) -> Reply {
        let mut headers = Vec::new();
        if !content_type.is_empty() {
            headers.push(("Content-Type".to_owned(), content_type.to_owned()));
        }
        Reply::Full {
            status,
            headers,
            body: body.into(),
        }
    }

    /// A redirect.
    pub fn redirect(status: u16, location: &str) -> Reply {
        Reply::Full {
            status,
            headers: vec![("Location".to_owned(), location.to_owned())],
            body: Vec::new(),
        }
    }

    /// Adds a header to a Full or Stream reply.
    pub fn with_header(mut self, name: &str, value: &str) -> Reply {
        match &mut self {
            Reply::Full { headers, .. } | Reply::Stream { headers, .. } => {
                headers.push((name.to_owned(), value.to_owned()))
            }
            Reply::Silent => {}
        }
        self
    }
}

type Handler = dyn Fn(&Request) -> Reply + Send + Sync;

/// How the server speaks.
enum Transport {
    Plain,
    Tls(Arc<rustls::ServerConfig>),
}

/// A server on `ip`, port 0, one thread per connection. It counts the connections it
/// accepted and the requests it answered, and stops when dropped.
pub struct Server {
    addr: SocketAddr,
    accepts: Arc<AtomicUsize>,
    requests: Arc<Mutex<Vec<String>>>,
    stop: Arc<AtomicBool>,
}

impl Server {
    /// An HTTP server on `ip` (`127.0.0.1`, `127.0.0.2`, `::1`, ...).
    pub fn start(ip: &str, handler: impl Fn(&Request) -> Reply + Send + Sync + 'static) -> Server {
        Server::try_start(ip, handler).unwrap_or_else(|e| panic!("cannot listen on {ip}: {e}"))
    }

    /// Like [`Server::start`], with the bind error returned.
    pub fn try_start(
        ip: &str,
        handler: impl Fn(&Request) -> Reply + Send + Sync + 'static,
    ) -> std::io::Result<Server> {
        Server::spawn(ip, Arc::new(handler), Transport::Plain)
    }

    /// An HTTPS server on 127.0.0.1 with the self-signed certificate in tests/data/web.
    pub fn start_tls(handler: impl Fn(&Request) -> Reply + Send + Sync + 'static) -> Server {
        use rustls::pki_types::pem::PemObject;
        use rustls::pki_types::{CertificateDer, PrivateKeyDer};
        let data = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/web");
        let certs: Vec<CertificateDer<'static>> =
            CertificateDer::pem_file_iter(data.join("selfsigned.crt"))
                .unwrap()
                .map(Result::unwrap)
                .collect();
        let key = PrivateKeyDer::from_pem_file(data.join("selfsigned.key")).unwrap();
        let config = rustls::ServerConfig::builder_with_provider(Arc::new(
            rustls::crypto::ring::default_provider(),
        ))
        .with_safe_default_protocol_versions()
        .unwrap()
        .with_no_client_auth()
        .with_single_cert(certs, key)
        .unwrap();
        Server::spawn(
            "127.0.0.1",
            Arc::new(handler),
            Transport::Tls(Arc::new(config)),
        )
        .unwrap()
    }

    fn spawn(ip: &str, handler: Arc<Handler>, transport: Transport) -> std::io::Result<Server> {
        let ip: IpAddr = ip.parse().expect("an IP address");
        let listener = TcpListener::bind(SocketAddr::new(ip, 0))?;
        listener.set_nonblocking(true)?;
        let addr = listener.local_addr()?;
        let accepts = Arc::new(AtomicUsize::new(0));
        let requests = Arc::new(Mutex::new(Vec::new()));
        let stop = Arc::new(AtomicBool::new(false));
        let transport = Arc::new(transport);
        {
            let (accepts, requests, stop) = (accepts.clone(), requests.clone(), stop.clone());
            std::thread::spawn(move || {
                while !stop.load(Ordering::Relaxed) {
                    match listener.accept() {
                        Ok((stream, _)) => {
                            accepts.fetch_add(1, Ordering::SeqCst);
                            let (handler, requests, stop, transport) = (
                                handler.clone(),
                                requests.clone(),
                                stop.clone(),
                                transport.clone(),
                            );
                            std::thread::spawn(move || {
                                let _ = stream.set_nonblocking(false);
                                let _ = serve(stream, &*handler, &requests, &stop, &transport);
                            });
                        }
                        Err(_) => std::thread::sleep(Duration::from_millis(2)),
                    }
                }
            });
        }
        Ok(Server {
            addr,
            accepts,
            requests,
            stop,
        })
    }

    /// `http://<addr><path>` (`https://` for a TLS server is the caller's business).
    pub fn url(&self, path: &str) -> String {
        format!("http://{}{path}", self.addr)
    }

    /// The port.
    pub fn port(&self) -> u16 {
        self.addr.port()
    }

    /// Connections accepted so far, after a moment for any connection still in the backlog.
    pub fn accepts(&self) -> usize {
        std::thread::sleep(Duration::from_millis(100));
        self.accepts.load(Ordering::SeqCst)
    }

    /// The request targets answered so far, in order.
    pub fn requests(&self) -> Vec<String> {
        self.requests.lock().unwrap().clone()
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
    }
}

fn serve(
    stream: TcpStream,
    handler: &Handler,
    requests: &Mutex<Vec<String>>,
    stop: &AtomicBool,
    transport: &Transport,
) -> std::io::Result<()> {
    stream.set_read_timeout(Some(Duration::from_secs(10)))?;
    match transport {
        Transport::Plain => serve_http(stream.try_clone()?, stream, handler, requests, stop),
        Transport::Tls(config) => {
            let conn =
                rustls::ServerConnection::new(config.clone()).map_err(std::io::Error::other)?;
            let tls = Arc::new(Mutex::new(rustls::StreamOwned::new(conn, stream)));
            let reader = SharedTls(tls.clone());
            serve_http(reader, SharedTls(tls), handler, requests, stop)
        }
    }
}

/// A TLS stream shared by the reading and the writing half.
struct SharedTls(Arc<Mutex<rustls::StreamOwned<rustls::ServerConnection, TcpStream>>>);

impl Read for SharedTls {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap().read(buf)
    }
}

impl Write for SharedTls {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap().write(buf)
    }
    fn flush(&mut self) -> std::io::Result<()> {
        self.0.lock().unwrap().flush()
    }
}

fn serve_http(
    reader: impl Read,
    mut out: impl Write,
    handler: &Handler,
    requests: &Mutex<Vec<String>>,
    stop: &AtomicBool,
) -> std::io::Result<()> {
    let mut reader = BufReader::new(reader);
    let mut line = String::new();
    reader.read_line(&mut line)?;
    let path = line.split_whitespace().nth(1).unwrap_or("/").to_owned();
    let mut headers = Vec::new();
    loop {
        let mut h = String::new();
        if reader.read_line(&mut h)? == 0 || h == "\r\n" || h == "\n" {
            break;
        }
        if let Some((n, v)) = h.split_once(':') {
            headers.push((n.trim().to_ascii_lowercase(), v.trim().to_owned()));
        }
    }
    let req = Request { path, headers };
    requests.lock().unwrap().push(req.path.clone());
    match handler(&req) {
        Reply::Full {
            status,
            headers,
            body,
        } => {
            let mut head = format!("HTTP/1.1 {status} X\r\nConnection: close\r\n");
            for (n, v) in &headers {
                head.push_str(&format!("{n}: {v}\r\n"));
            }
            head.push_str(&format!("Content-Length: {}\r\n\r\n", body.len()));
            out.write_all(head.as_bytes())?;
            out.write_all(&body)?;
            out.flush()
        }
        Reply::Stream {
            status,
            headers,
            body,
        } => {
            let mut head = format!("HTTP/1.1 {status} X\r\nConnection: close\r\n");
            for (n, v) in &headers {
                head.push_str(&format!("{n}: {v}\r\n"));
            }
            head.push_str("\r\n");
            out.write_all(head.as_bytes())?;
            out.flush()?;
            body(&mut out)?;
            out.flush()
        }
        Reply::Silent => {
            // Hold the connection: wait for the client to close it (read returns 0 or an
            // error) or for the server to stop.
            let mut buf = [0u8; 256];
            let inner = reader.get_mut();
            while !stop.load(Ordering::Relaxed) {
                match inner.read(&mut buf) {
                    Ok(0) => break,
                    Ok(_) => {}
                    Err(e)
                        if e.kind() == std::io::ErrorKind::WouldBlock
                            || e.kind() == std::io::ErrorKind::TimedOut => {}
                    Err(_) => break,
                }
            }
            Ok(())
        }
    }
}

/// Writes `data` as HTTP/1.1 chunks of at most 64 KiB, then the last chunk.
pub fn write_chunked(
    out: &mut dyn Write,
    mut data: impl FnMut() -> Option<Vec<u8>>,
) -> std::io::Result<()> {
    while let Some(chunk) = data() {
        for piece in chunk.chunks(64 << 10) {
            out.write_all(format!("{:x}\r\n", piece.len()).as_bytes())?;
            out.write_all(piece)?;
            out.write_all(b"\r\n")?;
        }
    }
    out.write_all(b"0\r\n\r\n")
}

/// One agtool run.
pub struct Run {
    /// Exit status (-1 when killed by a signal).
    pub code: i32,
    /// stdout, lossy.
    pub stdout: String,
    /// stdout bytes.
    pub raw_stdout: Vec<u8>,
    /// stderr, lossy.
    pub stderr: String,
    /// Peak resident memory of the agtool process, in bytes, from [`Ws::agtool_measured`]
    /// (0 otherwise).
    pub max_rss: u64,
    /// Wall time.
    pub elapsed: Duration,
}

impl std::fmt::Debug for Run {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Run")
            .field("code", &self.code)
            .field("stdout", &self.stdout)
            .field("stderr", &self.stderr)
            .field("max_rss", &self.max_rss)
            .field("elapsed", &self.elapsed)
            .finish()
    }
}

impl Run {
    /// Asserts the exit status, showing the whole run when it differs.
    #[track_caller]
    pub fn code(&self, want: i32) -> &Run {
        assert_eq!(self.code, want, "exit status; run: {self:#?}");
        self
    }

    /// Asserts stdout holds `s`.
    #[track_caller]
    pub fn has(&self, s: &str) -> &Run {
        assert!(
            self.stdout.contains(s),
            "stdout lacks {s:?}:\n{}",
            self.stdout
        );
        self
    }

    /// Asserts stdout does not hold `s`.
    #[track_caller]
    pub fn lacks(&self, s: &str) -> &Run {
        assert!(
            !self.stdout.contains(s),
            "stdout holds {s:?}:\n{}",
            self.stdout
        );
        self
    }

    /// The content after the header's blank line.
    pub fn content(&self) -> &str {
        self.stdout
            .split_once("\n\n")
            .map(|(_, c)| c)
            .unwrap_or_default()
    }
}

/// A workspace (a temp folder with `.git`) to run agtool web-fetch in.
pub struct Ws {
    dir: tempfile::TempDir,
    config: Option<PathBuf>,
}

impl Ws {
    /// An empty workspace with no configuration: the default policy.
    pub fn new() -> Ws {
        let dir = tempfile::Builder::new()
            .prefix("agtool-web-test-")
            .tempdir()
            .unwrap();
        std::fs::create_dir(dir.path().join(".git")).unwrap();
        Ws { dir, config: None }
    }

    /// A workspace whose `--config` file holds `toml`.
    pub fn with_config(toml: &str) -> Ws {
        let mut ws = Ws::new();
        let path = ws.dir.path().join("web-test-config.toml");
        std::fs::write(&path, toml).unwrap();
        ws.config = Some(path);
        ws
    }

    /// A workspace that allows loopback and private addresses.
    pub fn private() -> Ws {
        Ws::with_config("[web]\nallow_private = true\n")
    }

    /// The folder.
    pub fn path(&self) -> &Path {
        self.dir.path()
    }

    /// Every file under the folder (relative paths), except `.git` and the config file.
    pub fn files(&self) -> Vec<String> {
        let mut out = Vec::new();
        let mut stack = vec![self.path().to_path_buf()];
        while let Some(d) = stack.pop() {
            for e in std::fs::read_dir(&d).unwrap().flatten() {
                let p = e.path();
                let rel = p.strip_prefix(self.path()).unwrap().display().to_string();
                if rel == ".git" || rel == "web-test-config.toml" {
                    continue;
                }
                if e.file_type().unwrap().is_dir() {
                    stack.push(p);
                } else {
                    out.push(rel);
                }
            }
        }
        out.sort();
        out
    }

    /// `agtool web-fetch <args...>`.
    pub fn fetch(&self, args: &[&str]) -> Run {
        let mut all = vec!["web-fetch"];
        all.extend_from_slice(args);
        self.agtool(&all)
    }

    /// agtool with `args` (and `--config` when the workspace has one). Its `max_rss` is not
    /// meaningful (see [`Ws::agtool_measured`]).
    pub fn agtool(&self, args: &[&str]) -> Run {
        let mut cmd = Command::new(env!("CARGO_BIN_EXE_agtool"));
        cmd.current_dir(self.path());
        cmd.args(self.full_args(args));
        clean_env(&mut cmd, self.path());
        run_measured(cmd)
    }

    fn full_args(&self, args: &[&str]) -> Vec<String> {
        let mut all = Vec::new();
        if let Some(c) = &self.config {
            all.push("--config".to_owned());
            all.push(c.display().to_string());
        }
        all.extend(args.iter().map(|a| a.to_string()));
        all
    }

    /// Like [`Ws::agtool`], with a true peak RSS of agtool. A child's peak RSS (wait4) counts
    /// the memory it shared with its parent before exec, so a child of this busy test process
    /// would report the test's own size. This test binary is started again (small and fresh)
    /// as the `measure_helper` test, which runs agtool and reports its rusage.
    pub fn agtool_measured(&self, args: &[&str]) -> Run {
        let out = tempfile::tempdir().unwrap();
        let request = serde_json::json!({
            "program": env!("CARGO_BIN_EXE_agtool"),
            "args": self.full_args(args),
            "out": out.path(),
        });
        let mut cmd = Command::new(std::env::current_exe().unwrap());
        cmd.current_dir(self.path())
            .args([
                "--exact",
                "measure_helper",
                "--ignored",
                "--nocapture",
                "--test-threads=1",
            ])
            .env(MEASURE_ENV, request.to_string());
        clean_env(&mut cmd, self.path());
        let helper = cmd.output().unwrap();
        assert!(
            helper.status.success(),
            "measure_helper failed: {}{}",
            String::from_utf8_lossy(&helper.stdout),
            String::from_utf8_lossy(&helper.stderr)
        );
        let read = |name: &str| std::fs::read(out.path().join(name)).unwrap();
        let usage = String::from_utf8(read("usage")).unwrap();
        let mut fields = usage.split_whitespace().map(|f| f.parse::<u64>().unwrap());
        let (code, max_rss, elapsed_ms) = (
            fields.next().unwrap() as i32,
            fields.next().unwrap(),
            fields.next().unwrap(),
        );
        let stdout = read("stdout");
        let stderr = read("stderr");
        Run {
            code,
            stdout: String::from_utf8_lossy(&stdout).into_owned(),
            raw_stdout: stdout,
            stderr: String::from_utf8_lossy(&stderr).into_owned(),
            max_rss,
            elapsed: Duration::from_millis(elapsed_ms),
        }
    }
}

/// The variable carrying [`Ws::agtool_measured`]'s request to the helper.
const MEASURE_ENV: &str = "AGTOOL_TEST_MEASURE";

/// The body of the `measure_helper` test (ignored; run only by [`Ws::agtool_measured`]):
/// runs the requested agtool with stdout and stderr to files and writes `<exit status>
/// <peak RSS bytes> <elapsed ms>` to `usage`.
pub fn measure_helper_main() {
    let request: serde_json::Value =
        serde_json::from_str(&std::env::var(MEASURE_ENV).expect("run by agtool_measured")).unwrap();
    let out = PathBuf::from(request["out"].as_str().unwrap());
    let mut cmd = Command::new(request["program"].as_str().unwrap());
    for a in request["args"].as_array().unwrap() {
        cmd.arg(a.as_str().unwrap());
    }
    cmd.env_remove(MEASURE_ENV)
        .stdin(Stdio::null())
        .stdout(std::fs::File::create(out.join("stdout")).unwrap())
        .stderr(std::fs::File::create(out.join("stderr")).unwrap());
    let start = std::time::Instant::now();
    let (code, max_rss) = spawn_and_reap(cmd);
    std::fs::write(
        out.join("usage"),
        format!("{code} {max_rss} {}", start.elapsed().as_millis()),
    )
    .unwrap();
}

/// Spawns `cmd` and reaps it with wait4: (exit status or -1, peak RSS in bytes).
fn spawn_and_reap(mut cmd: Command) -> (i32, u64) {
    let child = cmd.spawn().expect("the program starts");
    let pid = child.id() as libc::pid_t;
    let mut status = 0;
    // SAFETY: a zeroed rusage is a valid out-parameter; pid is our own child, reaped here
    // once (std's Child is never waited on after this).
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    let r = unsafe { libc::wait4(pid, &mut status, 0, &mut usage) };
    assert_eq!(r, pid, "wait4: {}", std::io::Error::last_os_error());
    std::mem::forget(child);
    let code = if libc::WIFEXITED(status) {
        libc::WEXITSTATUS(status)
    } else {
        -1
    };
    (code, usage.ru_maxrss as u64 * 1024)
}

/// Removes what would change agtool's behaviour from outside the test.
pub fn clean_env(cmd: &mut Command, dir: &Path) {
    for k in [
        "AGTOOL_ROOT",
        "AGTOOL_AGENT",
        "AGTOOL_CONFIG",
        "AGTOOL_GROUPS",
        "http_proxy",
        "HTTP_PROXY",
        "https_proxy",
        "HTTPS_PROXY",
        "all_proxy",
        "ALL_PROXY",
        "no_proxy",
        "NO_PROXY",
    ] {
        cmd.env_remove(k);
    }
    cmd.env("XDG_CONFIG_HOME", dir.join(".no-user-config"))
        .env("HOME", dir.join(".no-home"));
}

/// Runs `cmd` to its end with stdin closed, collecting stdout and stderr on threads.
pub fn run_measured(mut cmd: Command) -> Run {
    let start = std::time::Instant::now();
    let mut child = cmd
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("agtool starts");
    let mut so = child.stdout.take().unwrap();
    let mut se = child.stderr.take().unwrap();
    let out_t = std::thread::spawn(move || {
        let mut v = Vec::new();
        let _ = so.read_to_end(&mut v);
        v
    });
    let err_t = std::thread::spawn(move || {
        let mut v = Vec::new();
        let _ = se.read_to_end(&mut v);
        v
    });
    let status = child.wait().unwrap();
    let stdout = out_t.join().unwrap();
    let stderr = err_t.join().unwrap();
    Run {
        code: status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&stdout).into_owned(),
        raw_stdout: stdout,
        stderr: String::from_utf8_lossy(&stderr).into_owned(),
        max_rss: 0,
        elapsed: start.elapsed(),
    }
}

/// A gzip stream whose content is `len` bytes of `a`, written by hand as one fixed-Huffman
/// deflate block: a literal `a`, copies of 258 bytes at distance 1, then single literals for
/// the rest. About 13 bits per 258 bytes: 1 GiB is 6.8 MB, made in milliseconds. `crc` is the
/// CRC-32 of the content (given: computing it for 1 GiB is the slow part).
pub fn gzip_of_as(len: u64, crc: u32) -> Vec<u8> {
    struct Bits {
        out: Vec<u8>,
        acc: u64,
        n: u32,
    }
    impl Bits {
        /// Writes `len` bits of `v`, least significant first (deflate's bit order).
        fn put(&mut self, v: u64, len: u32) {
            self.acc |= v << self.n;
            self.n += len;
            while self.n >= 8 {
                self.out.push(self.acc as u8);
                self.acc >>= 8;
                self.n -= 8;
            }
        }
        /// Writes a Huffman code, most significant bit first.
        fn code(&mut self, code: u32, len: u32) {
            let mut rev = 0u64;
            for i in 0..len {
                rev |= u64::from((code >> i) & 1) << (len - 1 - i);
            }
            self.put(rev, len);
        }
    }
    assert!(len >= 1);
    let copies = (len - 1) / 258;
    let literals = len - copies * 258;
    let mut b = Bits {
        out: vec![0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 0xff],
        acc: 0,
        n: 0,
    };
    b.put(1, 1); // BFINAL
    b.put(1, 2); // BTYPE 01: fixed Huffman
    b.code(0x30 + u32::from(b'a'), 8); // literal 'a'
    for _ in 0..copies {
        b.code(0b1100_0101, 8); // length code 285: 258 bytes
        b.code(0, 5); // distance code 0: distance 1
    }
    for _ in 1..literals {
        b.code(0x30 + u32::from(b'a'), 8);
    }
    b.code(0, 7); // end of block
    if b.n > 0 {
        b.out.push(b.acc as u8);
    }
    b.out.extend_from_slice(&crc.to_le_bytes());
    b.out.extend_from_slice(&(len as u32).to_le_bytes());
    b.out
}

/// Prints `SKIP <why>` on stderr past libtest's output capture (which would show it only
/// for a failing test), so a test that could not run is seen in every run.
pub fn skip(why: &str) {
    let _ = std::io::stderr().write_all(format!("SKIP {why}\n").as_bytes());
}

/// Whether this process is the copy of a test re-run inside a network namespace.
pub fn in_netns() -> bool {
    std::env::var_os("AGTOOL_TEST_IN_NETNS").is_some()
}

/// Addresses brought up on `lo` inside the namespace, for servers that must see no
/// connection.
pub const NETNS_ADDRS: [&str; 2] = ["169.254.169.254", "10.1.2.3"];

/// Runs the test `name` of this test binary again inside a fresh network namespace (`unshare
/// -n`, `lo` up, [`NETNS_ADDRS`] added to `lo`), so that whatever the code does, no packet
/// can leave the machine, and asserts that it passed there. Returns true when the caller is
/// already that copy and must run the test's body; false otherwise (the body ran in the
/// namespace, or the namespace cannot be made here, which prints a SKIP line).
pub fn run_in_netns(name: &str) -> bool {
    if in_netns() {
        return true;
    }
    let path = "/usr/sbin:/sbin:/usr/bin:/bin";
    let path = match std::env::var("PATH") {
        Ok(p) => format!("{p}:{path}"),
        Err(_) => path.to_owned(),
    };
    let mut setup = String::from("ip link set lo up");
    for a in NETNS_ADDRS {
        setup.push_str(&format!(" && ip addr add {a}/32 dev lo"));
    }
    let probe = Command::new("unshare")
        .args(["-n", "sh", "-c", &setup])
        .env("PATH", &path)
        .output();
    match probe {
        Err(e) => {
            skip(&format!(
                "{name}: cannot run unshare to make a network namespace ({e})"
            ));
            return false;
        }
        Ok(o) if !o.status.success() => {
            skip(&format!(
                "{name}: cannot make a network namespace with lo up (needs root, unshare \
                 and ip): {}",
                String::from_utf8_lossy(&o.stderr).trim()
            ));
            return false;
        }
        Ok(_) => {}
    }
    let exe = std::env::current_exe().unwrap();
    let script = format!("{setup} && exec \"$0\" \"$@\"");
    let out = Command::new("unshare")
        .args(["-n", "sh", "-c", &script])
        .arg(&exe)
        .args(["--exact", name, "--nocapture", "--test-threads=1"])
        .env("PATH", &path)
        .env("AGTOOL_TEST_IN_NETNS", "1")
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success() && stdout.contains("1 passed"),
        "{name} failed inside the network namespace:\n{stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    false
}
