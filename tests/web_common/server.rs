//! Real HTTP(S) servers on loopback (port 0), one thread per connection, counting the
//! connections they accept.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{IpAddr, SocketAddr, TcpListener, TcpStream};
use std::path::Path;
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
